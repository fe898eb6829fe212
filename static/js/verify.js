// Recomputes a round's deal from its revealed seed (Web Crypto), exactly as
// docs/fairness.md ("Verifiable deals") and games/engine/seeded.py describe it. The deal
// is recomputed by the round's stored deal record (version, first seat dealt to, and from
// version 2 the cards per seat), never by today's dealing tables. No DOM: it runs in a page and under node alike
// (tests/js/verify_cases.mjs checks it against the Python reference).

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SKAT = ["7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["S", "H", "D", "C"];
// Players allowed per variant (games/engine/variants.py).
const PLAYERS = { babanuki: [2, 8], jijinuki: [3, 8], old_maid: [2, 8], schwarzer_peter: [2, 8] };
// Cards dealt per variant (the deck less any card set aside unseen).
const DEALT = { babanuki: 53, jijinuki: 51, old_maid: 51, schwarzer_peter: 31 };

function canonicalDeck(variant) {
  if (variant === "schwarzer_peter") {
    return SUITS.flatMap((s) => SKAT.map((r) => r + s)).filter((c) => c !== "JS");
  }
  const deck = SUITS.flatMap((s) => RANKS.map((r) => r + s));
  if (variant === "babanuki") deck.push("JK");
  return deck;
}

function hexToBytes(hex) {
  if (typeof hex !== "string" || !/^([0-9a-f]{2})+$/i.test(hex)) return null;
  return new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
}

const toHex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
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

// The shuffle shared by versions 1 and 2: Fisher-Yates from the last position down; then
// set aside Jiji-nuki's last card or Old Maid's last queen.
async function shuffledDeck(variant, seed) {
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
  return { cards, removed };
}

// Version 1: the shuffle; deal the rest one at a time clockwise from the start seat.
async function dealV1({ variant, players, seed, start }) {
  const { cards, removed } = await shuffledDeck(variant, seed);
  const hands = Array.from({ length: players }, () => []);
  cards.forEach((card, i) => hands[(start + i) % players].push(card));
  return { hands, removed };
}

// Version 2: the same shuffle; deal one at a time clockwise from the start seat, skipping
// a seat once it holds its count (counts[seat]).
async function dealV2({ variant, players, seed, start, counts }) {
  const { cards, removed } = await shuffledDeck(variant, seed);
  const hands = Array.from({ length: players }, () => []);
  let seat = start;
  for (const card of cards) {
    while (hands[seat].length >= counts[seat]) seat = (seat + 1) % players;
    hands[seat].push(card);
    seat = (seat + 1) % players;
  }
  return { hands, removed };
}

// Every deal version this page can recompute (seeded.DEALS), and whether its record
// carries per-seat counts. A version never changes.
const DEALS = new Map([
  [1, { deal: dealV1, counts: false }],
  [2, { deal: dealV2, counts: true }],
]);

const isSeat = (n, players) => Number.isInteger(n) && n >= 0 && n < players;

// Counts that deal this variant's cards to these seats: one whole number of at least 1
// per seat, adding up to the cards dealt (seeded.check_counts).
function goodCounts(counts, variant, players) {
  return Array.isArray(counts) && counts.length === players
    && counts.every((c) => Number.isInteger(c) && c >= 1)
    && counts.reduce((a, b) => a + b, 0) === DEALT[variant];
}

// The hands and set-aside cards that this seed deals by this deal record, or null when
// the record cannot be recomputed (an unknown version or variant, a bad count or seat).
export async function recomputeDeal({ variant, players, dealer, seed, version, start, counts }) {
  const range = Object.hasOwn(PLAYERS, variant) ? PLAYERS[variant] : null;
  if (!range || !Number.isInteger(players) || players < range[0] || players > range[1]) {
    return null;
  }
  if (!Number.isInteger(version) || !DEALS.has(version)) return null;
  if (!isSeat(start, players) || !isSeat(dealer, players)) return null;
  const { deal, counts: withCounts } = DEALS.get(version);
  if (withCounts ? !goodCounts(counts, variant, players) : counts != null) return null;
  return deal({ variant, players, seed, start, counts });
}

// "verified", "failed" (anything that does not check out, an unknown version included)
// or "unsupported" (no Web Crypto here).
export async function verifyDeal(data) {
  if (!globalThis.crypto || !globalThis.crypto.subtle) return "unsupported";
  const seed = hexToBytes(data.seed);
  if (!seed || seed.length !== 32) return "failed";
  if (toHex(await sha256(seed)) !== data.commitment) return "failed";
  const deal = await recomputeDeal({
    variant: data.variant, players: data.players, dealer: data.dealer, seed,
    version: data.deal_version, start: data.deal_start, counts: data.deal_counts,
  });
  if (!deal) return "failed";
  const same = JSON.stringify(deal.hands) === JSON.stringify(data.dealt)
    && JSON.stringify(deal.removed) === JSON.stringify(data.removed);
  return same ? "verified" : "failed";
}
