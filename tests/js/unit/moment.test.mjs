// static/js/table/moment.js under node's test runner: whose moment a draw marked `odd`
// is on this page (the drawer's, the giver's, nobody's; on one device only the drawer's,
// during the hold), and its words in the variant's name for the odd card. The page's
// #table-labels and #card-labels are stubbed with their English words.
//
//   node --test tests/js/unit/
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const TABLE_LABELS = {
  colours: "Red|Green|Yellow|Blue", letters: "R|G|Y|B", youName: "{name} (you)",
  momentYouDrew: "You drew {card}!", momentYouDrewNote: "Keep a straight face.",
  momentTookFromYou: "{seat} took {card} from you", momentTookNote: "Phew!", momentQueen: "the Old Maid queen",
};
const CARD_LABELS = {
  cardName: "{rank} of {suit}", ranks: "ace|2|3|4|5|6|7|8|9|10|jack|queen|king", suits: "spades|hearts|diamonds|clubs",
  joker: "the joker", peter: "the Black Peter", pair: "{first} and {second}",
};
const SEAT_LABELS = { computerNames: "Ada|Bruno|Clara|Diego", computerWhat: "computer · {level}" };
const PAGE = {
  "table-labels": { dataset: TABLE_LABELS }, "card-labels": { dataset: CARD_LABELS }, "seat-labels": { dataset: SEAT_LABELS },
};
globalThis.document = { getElementById: (id) => PAGE[id] ?? null, documentElement: { lang: "en" } };
globalThis.window = { matchMedia: () => ({ matches: false }) };

const { momentKind, momentText, momentWords, oddName } = await import("../../../static/js/table/moment.js");
const { view } = await import("../../../static/js/table/view.js");

function state({ mode = "friends", you = [0], variant = "babanuki", replay = false } = {}) {
  const s = {
    room: { code: "ABCDE", variant, mode, status: "playing", seat_count: 3, rules: {} },
    you,
    seats: ["Ann", "Clara", "Dan"].map((name, index) => ({ index, colour: "red", name, kind: "human", bot: false })),
    round: { number: 1, over: false, hands: {} },
  };
  if (replay) s.replay = true;
  return s;
}

const ODD = { kind: "draw", drawer: 1, giver: 0, card: "JK", odd: true, paired: false };

beforeEach(() => {
  Object.assign(view, { state: null, hold: null });
});

test("online: the drawer's moment, the giver's, and none for a third seat or a spectator", () => {
  assert.equal(momentKind(ODD, state({ you: [1] }), null), "drew");
  assert.equal(momentKind(ODD, state({ you: [0] }), null), "took");
  assert.equal(momentKind(ODD, state({ you: [2] }), null), null);
  assert.equal(momentKind(ODD, state({ you: [] }), null), null);
});

test("no moment without odd, for another event, or in a replay", () => {
  const { odd, ...plain } = ODD;
  assert.equal(odd, true);
  assert.equal(momentKind(plain, state({ you: [1] }), null), null);
  assert.equal(momentKind({ ...ODD, odd: false }, state({ you: [1] }), null), null);
  assert.equal(momentKind({ kind: "seat_left", seats: [1] }, state({ you: [1] }), null), null);
  assert.equal(momentKind(ODD, state({ you: [1], replay: true }), null), null);
});

test("one device: only the drawer's, while the drawer's hand is held; never the giver's", () => {
  const shared = state({ mode: "same_device", you: [0, 1, 2] });
  assert.equal(momentKind(ODD, shared, { seat: 1, hand: ["JK"] }), "drew");
  assert.equal(momentKind(ODD, shared, null), null);
  assert.equal(momentKind(ODD, shared, { seat: 0, hand: [] }), null);
});

test("the odd card in the variant's words", () => {
  view.state = state({ variant: "babanuki" });
  assert.equal(oddName("JK"), "the joker");
  view.state = state({ variant: "schwarzer_peter" });
  assert.equal(oddName("JC"), "the Black Peter");
  view.state = state({ variant: "old_maid" });
  assert.equal(oddName("QH"), "the Old Maid queen");
});

test("the words: the drawer's and the giver's, and what a screen reader hears", () => {
  view.state = state({ you: [0] });
  assert.deepEqual(momentWords("drew", ODD), { title: "You drew the joker!", note: "Keep a straight face." });
  assert.deepEqual(momentWords("took", ODD), { title: "Clara took the joker from you", note: "Phew!" });
  assert.equal(momentText(ODD), "Clara took the joker from you Phew!");
  view.state = state({ you: [2] });
  assert.equal(momentText(ODD), "");
});
