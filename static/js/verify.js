// Recomputes a round's deal from its revealed seed in the browser (Web Crypto), exactly as
// docs/fairness.md ("Verifiable deals") and games/engine/seeded.py describe it.

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SKAT = ["7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["S", "H", "D", "C"];

function canonicalDeck(variant) {
  if (variant === "schwarzer_peter") {
    return SUITS.flatMap((s) => SKAT.map((r) => r + s)).filter((c) => c !== "JS");
  }
  const deck = SUITS.flatMap((s) => RANKS.map((r) => r + s));
  if (variant === "babanuki") deck.push("JK");
  return deck;
}

function hexToBytes(hex) {
  if (!/^([0-9a-f]{2})+$/i.test(hex)) return null;
  return new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
}

const toHex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

// The seed's 32-bit numbers: block i is SHA-256(seed || i as 4 bytes big-endian).
async function numberStream(seed) {
  const numbers = [];
  let block = 0;
  async function more() {
    const input = new Uint8Array(seed.length + 4);
    input.set(seed);
    new DataView(input.buffer).setUint32(seed.length, block++, false);
    const view = new DataView((await sha256(input)).buffer);
    for (let i = 0; i < 32; i += 4) numbers.push(view.getUint32(i, false));
  }
  let next = 0;
  return async () => {
    if (next >= numbers.length) await more();
    return numbers[next++];
  };
}

async function below(nextNumber, n) {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const x = await nextNumber();
    if (x < limit) return x % n;
  }
}

export async function recomputeDeal({ variant, players, dealer, seed, dealOffset }) {
  const next = await numberStream(seed);
  const cards = canonicalDeck(variant);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = await below(next, i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  const removed = [];
  if (variant === "jijinuki") removed.push(cards.pop());
  if (variant === "old_maid") {
    const last = cards.map((c) => c.startsWith("Q")).lastIndexOf(true);
    removed.push(cards.splice(last, 1)[0]);
  }
  const hands = Array.from({ length: players }, () => []);
  const first = (dealer + dealOffset) % players;
  cards.forEach((card, i) => hands[(first + i) % players].push(card));
  return { hands, removed };
}

export async function verifyDeal(data) {
  if (!window.crypto || !crypto.subtle) return "unsupported";
  const seed = hexToBytes(data.seed || "");
  if (!seed || seed.length !== 32) return "failed";
  if (toHex(await sha256(seed)) !== data.commitment) return "failed";
  const deal = await recomputeDeal({
    variant: data.variant, players: data.players, dealer: data.dealer, seed,
    dealOffset: data.deal_offset,
  });
  const same = JSON.stringify(deal.hands) === JSON.stringify(data.dealt)
    && JSON.stringify(deal.removed) === JSON.stringify(data.removed);
  return same ? "verified" : "failed";
}
