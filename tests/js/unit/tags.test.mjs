// static/js/table/tags.js under node's test runner: what a seat's name tag says (who plays
// it now, its cards, score or strike marks, where it finished, whose turn it is) and where
// it goes (the near seat's tag under your hand, the others on the tags layer). A stub
// document holds the page's labels and the least of the elements tags.js builds.
//
//   node --test tests/js/unit/
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

class Element {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.children = [];
    this.dataset = {};
    this.className = "";
    this.textContent = "";
    this.hidden = false;
    this.attributes = {};
  }
  get classList() {
    const names = () => this.className.split(/\s+/).filter(Boolean);
    const set = (list) => { this.className = list.join(" "); };
    return {
      add: (...c) => set([...new Set([...names(), ...c])]),
      remove: (...c) => set(names().filter((n) => !c.includes(n))),
      contains: (c) => names().includes(c),
      replace: (a, b) => set(names().map((n) => (n === a ? b : n))),
      toggle: (c, on) => ((on ?? !names().includes(c)) ? set([...new Set([...names(), c])]) : set(names().filter((n) => n !== c))),
    };
  }
  append(...nodes) { this.children.push(...nodes); }
  replaceChildren(...nodes) { this.children = nodes; }
  setAttribute(name, value) { this.attributes[name] = String(value); }
  find(cls) { return this.children.find((c) => c.classList.contains(cls)) ?? this.children.map((c) => c.find(cls)).find(Boolean); }
}

const L = {
  colours: "Red|Green|Yellow|Blue", letters: "R|G|Y|B", left: "left: the computer plays", covered: "covered by the computer",
  away: "away", youName: "{name} (you)", out: "out", lostNote: "lost", wonNote: "won", places: "1st|2nd|3rd|4th",
  lostRoundNote: "lost this round", wonRoundNote: "won this round", lostMatchNote: "lost the match",
  wonMatchNote: "won the match", resignedNote: "resigned",
  setAside: "Set aside at the start", cardsOne: "{n} card", cardsOther: "{n} cards", pointsOne: "{n} point",
  pointsOther: "{n} points", strikesOne: "{n} strike", strikesOther: "{n} strikes",
};
const SEAT_LABELS = {
  computerNames: "Ada|Bruno|Clara|Diego", computerWhat: "computer · {level}", botWhat: "bot",
  computerLevelEasy: "easy", computerLevelMedium: "medium", computerLevelHard: "hard",
};
const page = {};
function freshPage() {
  for (const id of ["seat-tags", "near-tag", "set-aside"]) page[id] = new Element("div");
  page["set-aside"].hidden = true;
  page["table-labels"] = { dataset: L };
  page["card-labels"] = { dataset: {} };
  page["seat-labels"] = { dataset: SEAT_LABELS };
}
freshPage();
globalThis.document = {
  getElementById: (id) => page[id] ?? null,
  createElement: (tag) => new Element(tag),
  documentElement: { lang: "en" },
};
globalThis.window = { matchMedia: () => ({ matches: false }) };

const { computerStandsIn, presenceNotes, renderTags, strikeMarks } = await import("../../../static/js/table/tags.js");
const { view } = await import("../../../static/js/table/view.js");

function seat(index, extra = {}) {
  return {
    index, colour: ["red", "green", "yellow", "blue"][index], name: ["Ann", "", "Bo", "Cy"][index],
    kind: index === 1 ? "computer" : "human", covered: false, left: false, away: false, bot: false,
    played_by_computer: index === 1, count: 3, place: null, score: 2, ...extra,
  };
}

function state({ seats = [0, 1, 2, 3].map((i) => seat(i)), you = [0], scoring = "points", round = {}, rules = {} } = {}) {
  return {
    you,
    acting: null,
    room: { variant: "classic", mode: "online", rules: { scoring, ...rules }, computer_level: "easy" },
    seats,
    match: { number: 1, scoring, over: false },
    round: { over: false, drawer: 2, giver: 3, hands: {}, ranking: null, discards: [], ...round },
  };
}

/** The tags drawn, by seat: {tag, who, info, ribbon, short, marks} (``ribbon``: its words;
 * ``short``: the short form a crowded phone shows at a round's end, if any). */
function drawn() {
  const tags = {};
  for (const tag of [...page["near-tag"].children, ...page["seat-tags"].children]) {
    if (!tag.classList.contains("seat-tag")) continue;
    tags[tag.dataset.tagSeat] = {
      tag, who: tag.find("who").textContent, info: tag.find("info"), ribbon: (tag.find("long") ?? tag.find("ribbon"))?.textContent ?? "",
      short: tag.find("short")?.textContent,
      marks: tag.find("strikes"),
    };
  }
  return tags;
}

beforeEach(() => {
  freshPage();
  Object.assign(view, { state: null, curtainFor: null, hold: null, leftSeats: new Set() });
});

test("presenceNotes says who plays a seat now: left first, then covered, then away", () => {
  assert.deepEqual(presenceNotes(seat(0)), []);
  assert.deepEqual(presenceNotes(seat(0, { away: true })), ["away"]);
  assert.deepEqual(presenceNotes(seat(0, { covered: true, away: true })), ["covered by the computer"]);
  assert.deepEqual(presenceNotes(seat(0, { left: true, covered: true, away: true })), ["left: the computer plays"]);
});

test("strikeMarks draws at least the limit's marks, the seat's strikes on, and says them in words", () => {
  view.state = state({ scoring: "strikes", rules: { strike_limit: 4 } });
  const marks = strikeMarks(2);
  const dots = marks.children.filter((c) => c.classList.contains("mark"));
  assert.equal(dots.length, 4);
  assert.equal(dots.filter((c) => c.classList.contains("on")).length, 2);
  assert.equal(marks.find("visually-hidden").textContent, "2 strikes");
  view.state = state({ scoring: "strikes" });
  assert.equal(strikeMarks(1).children.filter((c) => c.classList.contains("mark")).length, 3, "a limit of 3 by default");
  assert.equal(strikeMarks(5).children.filter((c) => c.classList.contains("on")).length, 5, "more strikes than the limit all show");
});

test("renderTags: the near seat's tag under your hand, every other on the layer, each with its badge", () => {
  view.state = state({ you: [2] });
  renderTags();
  assert.deepEqual(page["near-tag"].children.map((t) => t.dataset.tagSeat), [2]);
  assert.deepEqual(page["seat-tags"].children.map((t) => t.dataset.tagSeat), [0, 1, 3]);
  const tags = drawn();
  assert.equal(tags[1].tag.find("badge").textContent, "G");
  assert.ok(tags[3].tag.classList.contains("blue"), "the seat's colour");
  renderTags();
  assert.equal(page["seat-tags"].children.length, 3, "a second render replaces the tags");
});

test("a tag names the seat (yours marked), what plays it, its cards, its score and its presence", () => {
  const seats = [seat(0), seat(1), seat(2, { bot: true, count: 1, score: 1 }), seat(3, { away: true })];
  view.state = state({ seats, you: [0] });
  renderTags();
  const tags = drawn();
  assert.equal(tags[0].who, "Ann (you)");
  assert.equal(tags[0].info.textContent, "3 cards · 2 points");
  assert.equal(tags[1].who, "Bruno");
  assert.equal(tags[1].info.textContent, "easy · 3 cards · 2 points");
  assert.equal(tags[2].info.textContent, "bot · 1 card · 1 point");
  assert.equal(tags[3].info.textContent, "3 cards · 2 points · away");
});

test("a tag marks the drawer and the giver while the round is played, and neither once it is over", () => {
  view.state = state({ round: { drawer: 2, giver: 3 } });
  renderTags();
  let tags = drawn();
  assert.ok(tags[2].tag.classList.contains("acting"));
  assert.ok(tags[3].tag.classList.contains("giving"));
  assert.ok(!tags[0].tag.classList.contains("acting") && !tags[0].tag.classList.contains("giving"));
  view.state = state({ round: { over: true, drawer: 2, giver: 3, ranking: [0, 1, 3, 2], hands: { 2: ["QS"] } } });
  renderTags();
  tags = drawn();
  assert.ok(!tags[2].tag.classList.contains("acting") && !tags[3].tag.classList.contains("giving"));
});

test("an empty hand reads out while the round is played, unless it finished with a place", () => {
  const seats = [seat(0, { count: 0, place: 1 }), seat(1, { count: 0 }), seat(2), seat(3)];
  view.state = state({ seats });
  renderTags();
  const tags = drawn();
  assert.equal(tags[1].info.textContent, "easy · out · 2 points");
  assert.equal(tags[0].info.textContent, "2 points");
  assert.equal(tags[0].ribbon, "1st");
  assert.ok(tags[0].tag.classList.contains("first"));
});

test("once the round is over, the odd card's holder is marked as having lost this round, or won it under the reverse rule", () => {
  const seats = [seat(0, { count: 0, place: 1 }), seat(1, { count: 0, place: 2 }), seat(2, { count: 1 }), seat(3, { count: 0, place: 3 })];
  const round = { over: true, ranking: [0, 1, 3, 2], hands: { 0: [], 1: [], 2: ["QS"], 3: [] } };
  view.state = state({ seats, round });
  renderTags();
  let tags = drawn();
  assert.equal(tags[2].ribbon, "lost this round");
  assert.ok(tags[2].tag.classList.contains("lost"));
  assert.equal(tags[1].ribbon, "2nd");
  assert.ok(tags[1].tag.classList.contains("placed"));
  view.state = state({ seats, round, rules: { reverse: true } });
  renderTags();
  tags = drawn();
  assert.equal(tags[2].ribbon, "won this round");
  assert.ok(tags[2].tag.classList.contains("won") && !tags[2].tag.classList.contains("lost"));
});

test("under strikes a tag shows marks instead of a score, and no place", () => {
  const seats = [seat(0, { count: 0, place: 1, score: 1 }), seat(1), seat(2), seat(3)];
  view.state = state({ seats, scoring: "strikes" });
  renderTags();
  const tags = drawn();
  assert.ok(tags[0].marks, "the strike marks");
  assert.equal(tags[0].marks.children.filter((c) => c.classList.contains("on")).length, 1);
  assert.equal(tags[0].ribbon, "", "no place under strikes");
  assert.equal(tags[0].info.textContent, "out", "an empty hand is out, place or not");
  assert.ok(!tags[1].info.textContent.includes("strike"));
});

test("a single round or a replay shows no score; an empty info line is hidden", () => {
  view.state = state({ rules: { single_round: true }, seats: [seat(0, { count: 0, place: 1 }), seat(1), seat(2), seat(3)] });
  renderTags();
  let tags = drawn();
  assert.equal(tags[2].info.textContent, "3 cards");
  assert.equal(tags[0].info.textContent, "");
  assert.equal(tags[0].info.hidden, true);
  view.state = { ...state(), replay: true };
  renderTags();
  tags = drawn();
  assert.equal(tags[2].info.textContent, "3 cards");
});

test("the card set aside gets its caption on the layer only when it shows", () => {
  view.state = state();
  renderTags();
  assert.ok(!page["seat-tags"].children.some((c) => c.id === "set-aside-caption"));
  page["set-aside"].hidden = false;
  renderTags();
  const caption = page["seat-tags"].children.find((c) => c.id === "set-aside-caption");
  assert.equal(caption.textContent, "Set aside at the start");
});

test("a resignation between rounds: the winner's tag says won the match, the resigner's resigned, whoever held the odd card", () => {
  // Schwarzer Peter, 2 seats, strikes: you (seat 0) held the odd card in round 1, then Bo resigned.
  const seats = [seat(0, { count: 1, score: 1 }), seat(2, { index: 1, count: 0, score: 0, kind: "human", played_by_computer: false })];
  view.state = state({ seats, you: [0], scoring: "strikes", round: { over: true, ranking: [1, 0], hands: { 0: ["QS"], 1: [] } } });
  view.state.match = { number: 1, scoring: "strikes", over: true, winners: [0], losers: [1], ended_by: { how: "resign", seat: 1 } };
  renderTags();
  const tags = drawn();
  assert.equal(tags[0].ribbon, "won the match");
  assert.ok(tags[0].tag.classList.contains("won") && !tags[0].tag.classList.contains("lost"));
  assert.equal(tags[1].ribbon, "resigned");
});

test("once the match is over a tag tells the match's result, not the last round's: the winner who held the odd card last reads won the match", () => {
  const seats = [seat(0, { count: 0, place: 1 }), seat(1, { count: 0, place: 2 }), seat(2, { count: 1 }), seat(3, { count: 0, place: 3 })];
  view.state = state({ seats, round: { over: true, ranking: [0, 1, 3, 2], hands: { 0: [], 1: [], 2: ["QS"], 3: [] } } });
  view.state.match = { number: 1, scoring: "points", over: true, winners: [2], losers: [0, 1, 3], standings: [2, 0, 3, 1] };
  renderTags();
  let tags = drawn();
  assert.equal(tags[2].ribbon, "won the match");
  assert.equal(tags[0].ribbon, "2nd", "under points the others read their place in the match");
  assert.equal(tags[1].ribbon, "4th");
  assert.deepEqual([tags[2].short, tags[0].short], ["1st", undefined], "short: the winner's place");
  view.state = state({ seats, scoring: "strikes", round: { over: true, ranking: [0, 1, 3, 2], hands: { 2: ["QS"] } } });
  view.state.match = { number: 1, scoring: "strikes", over: true, winners: [0, 1, 3], losers: [2] };
  renderTags();
  tags = drawn();
  assert.equal(tags[2].ribbon, "lost the match");
  assert.equal(tags[0].ribbon, "won the match");
  assert.deepEqual([tags[2].short, tags[0].short], ["lost", "won"], "short, under strikes: a word");
  assert.ok(tags[0].tag.find("short").hidden, "the short form waits for a crowded phone");
});

test("presenceNotes: a seat covered because its human left the previous match reads left, not covered", () => {
  assert.deepEqual(presenceNotes(seat(0, { covered: true, left_before: true })), ["left: the computer plays"]);
});

test("computerStandsIn: only for a person's seat the computer plays, never for a computer's own seat", () => {
  assert.equal(computerStandsIn(seat(1)), false, "a computer seat draws for itself");
  assert.equal(computerStandsIn(seat(0, { covered: true, played_by_computer: true })), true);
  assert.equal(computerStandsIn(seat(0)), false);
});
