// static/js/table/view.js under node's test runner: the questions about whose view this is
// (the seat at the near edge, whose hand shows face up, whether it is your turn, the odd
// card, the same device's curtain and hold), for states in the shape the server sends
// (games/engine/view.py view_for). view.js reads the page's #room data-left once, as it
// loads: a stub document hands it one seat this browser left.
//
//   node --test tests/js/unit/
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

globalThis.document = {
  getElementById: (id) => (id === "room" ? { dataset: { left: "3" } } : null),
  documentElement: { lang: "en" },
};
const {
  curtainNeeded, drawing, handCards, holdAfterDraw, isMyTurn, myHandSeat, nearSeat, oddCard, view, youLeft,
} = await import("../../../static/js/table/view.js");

const LEFT_AT_LOAD = new Set(view.leftSeats);

/** A state as view_for sends it: 4 seats, a round in play where ``drawer`` draws from ``giver``. */
function state({
  mode = "online", you = [1], acting = undefined, drawer = 1, giver = 2, over = false, ranking = null,
  hands = null, matchOver = false, replay = false, round = true,
} = {}) {
  const seen = hands ?? (mode === "same_device"
    ? (acting ?? drawer) === null ? {} : { [String(acting ?? drawer)]: ["QH", "7S"] }
    : Object.fromEntries(you.map((s) => [String(s), ["QH", "7S"]])));
  const s = {
    type: "state",
    version: 12,
    room: { code: "ABCDE", variant: "classic", mode, status: "playing", seat_count: 4, rules: {}, computer_level: "easy" },
    you,
    you_left: [],
    acting: acting === undefined ? (over || matchOver ? null : you.includes(drawer) ? drawer : null) : acting,
    seats: [0, 1, 2, 3].map((index) => ({
      index, colour: "red", name: `P${index}`, kind: index === 3 ? "computer" : "human",
      covered: false, left: false, away: false, bot: false, played_by_computer: index === 3, count: 2, place: null, score: 0,
    })),
    match: { number: 1, scoring: "points", scores: [0, 0, 0, 0], over: matchOver, winners: [], losers: [] },
    round: round ? {
      number: 1, dealer: 0, over, draws: 5, drawer: over ? null : drawer, giver: over ? null : giver,
      discards: [], hands: seen, removed: null, ranking,
    } : null,
    event: null,
    spectators: 0,
  };
  if (replay) s.replay = true;
  return s;
}

beforeEach(() => {
  Object.assign(view, { state: null, curtainFor: null, hold: null, leftSeats: new Set() });
});

test("the seats this browser left, from the page's data-left, are read as the module loads", () => {
  assert.deepEqual([...LEFT_AT_LOAD], [3]);
});

test("online: the near seat is your own; a spectator's is seat 0; a page that left keeps the seat it left", () => {
  view.state = state({ you: [2] });
  assert.equal(nearSeat(), 2);
  view.state = state({ you: [] });
  assert.equal(nearSeat(), 0);
  view.leftSeats = new Set([3]);
  assert.equal(nearSeat(), 3);
  view.state = state({ you: [2], replay: true });
  assert.equal(nearSeat(), 0, "a replay is seen from seat 0");
});

test("same device: the near seat is the one whose turn it is, or the one held after its draw", () => {
  view.state = state({ mode: "same_device", you: [0, 1, 2], drawer: 1 });
  assert.equal(view.state.acting, 1);
  assert.equal(nearSeat(), 1);
  view.hold = { seat: 0, hand: ["KS"] };
  assert.equal(nearSeat(), 0, "the hold keeps the seat that just drew");
  view.hold = null;
  // The computer draws: no seat is acting; the curtain's last seat stays near.
  view.state = state({ mode: "same_device", you: [0, 1, 2], drawer: 3, giver: 0 });
  assert.equal(view.state.acting, null);
  assert.equal(nearSeat(), 0);
  view.curtainFor = 2;
  assert.equal(nearSeat(), 2);
});

test("online: your hand shows face up when the state holds it; a spectator and a replay show none", () => {
  view.state = state({ you: [1] });
  assert.equal(myHandSeat(), 1);
  assert.deepEqual(handCards(1), ["QH", "7S"]);
  assert.deepEqual(handCards(2), [], "another seat's hand is not sent");
  view.state = state({ you: [] });
  assert.equal(myHandSeat(), null);
  view.state = state({ you: [1], replay: true });
  assert.equal(myHandSeat(), null);
  view.state = state({ you: [1], round: false });
  assert.equal(myHandSeat(), null, "no hand before the first deal");
});

test("same device: the acting seat's hand shows only once the curtain is lifted for it", () => {
  view.state = state({ mode: "same_device", you: [0, 1, 2], drawer: 1 });
  assert.equal(myHandSeat(), null);
  assert.equal(curtainNeeded(), true, "the curtain asks to pass the device");
  view.curtainFor = 1;
  assert.equal(myHandSeat(), 1);
  assert.equal(curtainNeeded(), false);
  view.curtainFor = 0; // lifted for the seat before
  assert.equal(myHandSeat(), null);
  assert.equal(curtainNeeded(), true);
  view.hold = { seat: 0, hand: ["KS", "2D"] };
  assert.equal(myHandSeat(), 0);
  assert.deepEqual(handCards(0), ["KS", "2D"], "the held hand, not the state's");
  assert.equal(curtainNeeded(), false, "no curtain while the last draw is shown");
});

test("no curtain online, nor on a shared device while the computer draws or once the round is over", () => {
  view.state = state({ you: [1] });
  assert.equal(curtainNeeded(), false);
  view.state = state({ mode: "same_device", you: [0, 1, 2], drawer: 3, giver: 0 });
  assert.equal(curtainNeeded(), false);
  view.state = state({ mode: "same_device", you: [0, 1, 2], over: true, ranking: [0, 1, 3, 2], hands: { 0: [], 1: [], 2: ["QS"], 3: [] } });
  assert.equal(curtainNeeded(), false);
});

test("online: it is your turn when you are the acting seat of a round and match in play", () => {
  view.state = state({ you: [1], drawer: 1 });
  assert.equal(drawing(), true);
  assert.equal(isMyTurn(), true);
  view.state = state({ you: [1], drawer: 2, giver: 3 });
  assert.equal(isMyTurn(), false, "another seat draws");
  view.state = state({ you: [], drawer: 1 });
  assert.equal(drawing(), false);
  assert.equal(isMyTurn(), false, "a spectator never draws");
  view.state = state({ you: [1], drawer: 1, acting: 1, over: true, ranking: [1, 0, 3, 2] });
  assert.equal(isMyTurn(), false, "the round is over");
  view.state = state({ you: [1], drawer: 1, acting: 1, matchOver: true });
  assert.equal(drawing(), false);
  assert.equal(isMyTurn(), false, "the match is over");
  view.state = state({ you: [1], drawer: 1, replay: true });
  assert.equal(isMyTurn(), false, "a replay is watched, not played");
});

test("same device: your turn only once the curtain is lifted for the acting seat, and not during a hold", () => {
  view.state = state({ mode: "same_device", you: [0, 1, 2], drawer: 2, giver: 3 });
  assert.equal(isMyTurn(), false);
  view.curtainFor = 2;
  assert.equal(isMyTurn(), true);
  view.hold = { seat: 2, hand: ["4C"] };
  assert.equal(isMyTurn(), false);
});

test("the odd card: the last of the ranking holds it, once the round is over", () => {
  const hands = { 0: [], 1: [], 2: ["QS"], 3: [] };
  view.state = state({ over: true, ranking: [1, 0, 3, 2], hands });
  assert.deepEqual(oddCard(), { holder: 2, card: "QS" });
  view.state = state({});
  assert.equal(oddCard(), null, "not while the round is played");
  view.state = state({ over: true, ranking: [], hands });
  assert.equal(oddCard(), null);
  view.state = state({ over: true, ranking: [1, 0, 2, 3], hands });
  assert.equal(oddCard(), null, "no card in the last seat's hand: nothing to show");
  view.state = state({ round: false });
  assert.equal(oddCard(), null);
});

test("youLeft: online with no seat played and a seat left; never on a shared device", () => {
  view.state = state({ you: [] });
  assert.equal(youLeft(), false);
  view.leftSeats = new Set([3]);
  assert.equal(youLeft(), true);
  view.state = state({ you: [1] });
  assert.equal(youLeft(), false, "still playing another seat");
  view.state = state({ mode: "same_device", you: [] });
  assert.equal(youLeft(), false);
});

test("holdAfterDraw keeps the drawer's hand in sight after its draw: the card in, the pair out", () => {
  const previous = state({ mode: "same_device", you: [0, 1, 2], drawer: 1, hands: { 1: ["QH", "7S", "9D"] } });
  view.state = state({ mode: "same_device", you: [0, 1, 2], drawer: 2, giver: 3 });
  view.curtainFor = 1;
  const paired = { kind: "draw", drawer: 1, giver: 2, card: "QC", paired: true, discarded: ["QH", "QC"] };
  assert.equal(holdAfterDraw(previous, paired), true);
  assert.equal(view.hold.seat, 1);
  assert.deepEqual([...view.hold.hand].sort(), ["7S", "9D"]);
  assert.equal(view.hold.card, null, "the drawn card left with its pair");

  view.hold = null;
  const kept = { kind: "draw", drawer: 1, giver: 2, card: "4C", paired: false, discarded: [] };
  assert.equal(holdAfterDraw(previous, kept), true);
  assert.deepEqual([...view.hold.hand].sort(), ["4C", "7S", "9D", "QH"]);
  assert.equal(view.hold.card, "4C");
});

test("holdAfterDraw holds nothing online, for another seat's draw, or for what is not a draw", () => {
  const event = { kind: "draw", drawer: 1, giver: 2, card: "4C", paired: false, discarded: [] };
  const previous = state({ mode: "same_device", you: [0, 1, 2], drawer: 1, hands: { 1: ["QH"] } });
  view.state = state({ mode: "same_device", you: [0, 1, 2], drawer: 2, giver: 3 });
  view.curtainFor = 0; // the curtain was lifted for someone else
  assert.equal(holdAfterDraw(previous, event), false);
  view.curtainFor = 1;
  assert.equal(holdAfterDraw(previous, { ...event, kind: "deal" }), false);
  assert.equal(holdAfterDraw(null, event), false);
  assert.equal(holdAfterDraw(previous, { ...event, card: null }), false, "a redacted card cannot be shown");
  view.state = state({ you: [1], drawer: 2, giver: 3 });
  assert.equal(holdAfterDraw(state({ you: [1], drawer: 1 }), event), false);
  assert.equal(view.hold, null);
});
