// static/js/ending.js under node's test runner: how a match ended, for every part of the
// room page. Its names come from words.js, which reads the page's #seat-labels: a stub
// document hands it these labels (no DOM is drawn).
//
//   node --test tests/js/unit/
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.document = {
  getElementById: () => ({ dataset: { computerNames: "Hugo|Clara|Mia|Leo", computerWhat: "computer · {level}" } }),
  documentElement: { lang: "en" },
};
const { ending, roundVerdict, standings } = await import("../../../static/js/ending.js");

const L = {
  youName: "{name} (you)", resigned: "{seat} resigned.", youResigned: "You resigned.",
  abandoned: "Abandoned.", everyoneLeft: "Everyone left.", matchOverShort: "Match over.",
  matchOver: "{seats} won the match.", matchOverStrikes: "{seat} reached the limit.",
  youWon: "You won.", youLost: "You lost.", youWonRound: "You won this round.",
  youLostRound: "You lost this round.", youPlaced: "You finished {place}.", places: "1st|2nd|3rd",
};

function state({ you = [0], match = null, round = null, mode = "online", seats = null } = {}) {
  return {
    you,
    room: { mode, rules: {}, computer_level: "easy" },
    seats: seats || [
      { index: 0, kind: "human", name: "Ann", score: 0 },
      { index: 1, kind: "computer", name: "", score: 0 },
      { index: 2, kind: "human", name: "Bo", score: 0 },
    ],
    match,
    round,
  };
}

test("ending is null while the match is played", () => {
  assert.equal(ending(L, state({ match: { over: false, winners: [], losers: [] } })), null);
});

test("ending tells your own resignation, the winners by name and your loss", () => {
  const end = ending(L, state({ match: { over: true, ended_by: { how: "resign", seat: 0 }, winners: [1], losers: [0] } }));
  assert.deepEqual(end, {
    cause: "You resigned.", outcome: "Clara won the match.", verdict: "You lost.",
    text: "You resigned. Clara won the match. You lost.",
  });
});

test("ending names another seat's resignation and says nothing personal to a spectator", () => {
  const end = ending(L, state({ you: [], match: { over: true, ended_by: { how: "resign", seat: 2 }, winners: [0], losers: [2] } }));
  assert.equal(end.text, "Bo resigned. Ann won the match.");
});

test("ending by strikes names the one seat that reached the limit", () => {
  const end = ending(L, state({ match: { over: true, scoring: "strikes", winners: [0, 2], losers: [1] } }));
  assert.equal(end.outcome, "Clara reached the limit.");
  assert.equal(end.verdict, "You won.");
});

test("roundVerdict places you in a finished round: first wins, last holds the odd card", () => {
  const round = (ranking) => ({ over: true, ranking });
  const match = { over: false, scoring: "points" };
  assert.deepEqual(roundVerdict(L, state({ match, round: round([0, 2, 1]) })), { text: "You won this round.", tone: "win" });
  assert.deepEqual(roundVerdict(L, state({ match, round: round([2, 0, 1]) })), { text: "You finished 2nd.", tone: "even" });
  assert.deepEqual(roundVerdict(L, state({ match, round: round([2, 1, 0]) })), { text: "You lost this round.", tone: "lose" });
  assert.equal(roundVerdict(L, state({ you: [], match, round: round([0, 1, 2]) })), null);
});

test("standings list a finished match's seats best first, with places and scores", () => {
  const s = state({ match: { over: true, scoring: "points", standings: [2, 0, 1], scores: [3, 1, 5] } });
  assert.deepEqual(standings(s), [
    { seat: 2, place: 1, score: 5 }, { seat: 0, place: 2, score: 3 }, { seat: 1, place: 3, score: 1 },
  ]);
  assert.deepEqual(standings(state({ match: { over: false } })), []);
});

test("ending of a strikes match by resignation names who resigned and who won, not a seat at the limit", () => {
  const end = ending(L, state({ match: { over: true, scoring: "strikes", ended_by: { how: "resign", seat: 2 }, winners: [0], losers: [2] } }));
  assert.equal(end.text, "Bo resigned. Ann (you) won the match. You won.");
  assert.ok(!end.text.includes("limit"));
});
