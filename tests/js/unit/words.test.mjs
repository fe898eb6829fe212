// The table's words under node's test runner: static/js/words.js (fill, a seat's names,
// counted words in the page's language), static/js/cards.js (a card's name per variant, its
// element) and static/js/table/words.js (the same in the room's variant and the page's
// labels: a pair in words, a seat's short name, the scoring's kind). The page's templates
// (#seat-labels, #table-labels, #card-labels) are stubbed with their English words, and
// document.createElement with the least of an element that cards.js fills
// (tests/js/fake_element.mjs).
//
//   node --test tests/js/unit/
import assert from "node:assert/strict";
import { test } from "node:test";

import { Element } from "../fake_element.mjs";

const SEAT_LABELS = {
  computerNames: "Ada|Bruno|Clara|Diego|Elsa|Felix|Greta|Hugo", computerWhat: "computer · {level}", botWhat: "bot",
  computerLevelEasy: "easy", computerLevelMedium: "medium", computerLevelHard: "hard",
  cardsOne: "{n} card", cardsOther: "{n} cards", pointsOne: "{n} point", pointsOther: "{n} points",
  strikesOne: "{n} strike", strikesOther: "{n} strikes", spectatorsOne: "{n} spectator watching",
  spectatorsOther: "{n} spectators watching",
  yourTurnOne: "Your turn: draw a card from {giver} ({n} card).", yourTurnOther: "Your turn: draw a card from {giver} ({n} cards).",
};
const TABLE_LABELS = {
  colours: "Red|Green|Yellow|Blue|Purple|Orange|Teal|Pink", letters: "R|G|Y|B|P|O|T|K",
  youName: "{name} (you)", cardsOne: "{n} card", cardsOther: "{n} cards", pointsOne: "{n} point",
  pointsOther: "{n} points", strikesOne: "{n} strike", strikesOther: "{n} strikes", places: "1st|2nd|3rd|4th",
};
const CARD_LABELS = {
  cardName: "{rank} of {suit}", ranks: "ace|2|3|4|5|6|7|8|9|10|jack|queen|king", suits: "spades|hearts|diamonds|clubs",
  joker: "the joker", peter: "the Black Peter", pair: "{first} and {second}",
};
// The Japanese words of locale/ja: the pattern puts the suit first.
const JA_CARD_LABELS = {
  cardName: "{suit}の{rank}", ranks: "A|2|3|4|5|6|7|8|9|10|J|Q|K", suits: "スペード|ハート|ダイヤ|クラブ",
  joker: "ジョーカー", peter: "黒いペーター", pair: "{first}と{second}",
};
const PAGE = {
  "seat-labels": { dataset: SEAT_LABELS }, "table-labels": { dataset: TABLE_LABELS }, "card-labels": { dataset: CARD_LABELS },
};
globalThis.document = {
  getElementById: (id) => PAGE[id] ?? null,
  createElement: (tag) => new Element(tag),
  documentElement: { lang: "en" },
};
globalThis.window = { matchMedia: () => ({ matches: false }) };

const words = await import("../../../static/js/words.js");
const cards = await import("../../../static/js/cards.js");
const { plural, placeName } = await import("../../../static/js/ending.js");
const table = await import("../../../static/js/table/words.js");
const { view } = await import("../../../static/js/table/view.js");

function state({ variant = "classic", scoring = "points", match = true, you = [0] } = {}) {
  return {
    you,
    room: { variant, mode: "online", rules: { scoring }, computer_level: "medium" },
    seats: [
      { index: 0, kind: "human", name: "Ann" },
      { index: 1, kind: "computer", name: "" },
      { index: 2, kind: "human", name: "Bo", bot: true },
    ],
    match: match ? { scoring } : null,
    round: null,
  };
}

test("fill puts values in a label's placeholders, and nothing where a value is missing", () => {
  assert.equal(words.fill("{seat} drew from {giver}.", { seat: "Ann", giver: "Bo" }), "Ann drew from Bo.");
  assert.equal(words.fill("{seat} finished {place}.", { seat: "Ann" }), "Ann finished .");
  assert.equal(words.fill("{n} cards", { n: 0 }), "0 cards", "a zero is a value");
  assert.equal(words.fill("no placeholder", {}), "no placeholder");
});

test("a computer seat is named by its index, with its level on the second line; a bot says bot", () => {
  const room = { computer_level: "hard" };
  assert.equal(words.seatName({ index: 2, kind: "computer", name: "" }, room), "Clara");
  assert.equal(words.seatName({ index: 10, kind: "computer", name: "" }, room), "Clara", "the names go round");
  assert.equal(words.seatName({ index: 2, kind: "human", name: "Mia" }, room), "Mia");
  assert.equal(words.seatWhat({ index: 2, kind: "computer" }, room), "computer · hard");
  assert.equal(words.seatWhat({ index: 2, kind: "human" }, room), "");
  assert.equal(words.seatWhat({ index: 2, kind: "human", bot: true }, room), "bot");
  assert.deepEqual(words.computerParts(0, "medium"), { name: "Ada", what: "medium" });
  assert.deepEqual(words.computerParts(1, "unheard"), { name: "Bruno", what: "unheard" }, "an unknown level reads as itself");
});

test("counted takes the singular or plural sentence by the page language's plural rules", () => {
  assert.equal(words.counted("cards", { n: 1 }), "1 card");
  assert.equal(words.counted("cards", { n: 0 }), "0 cards");
  assert.equal(words.counted("cards", { n: 7 }), "7 cards");
  assert.equal(words.counted("yourTurn", { n: 1, giver: "Ann" }), "Your turn: draw a card from Ann (1 card).");
  const labels = { cardsOne: "one:{n}", cardsOther: "other:{n}" };
  assert.equal(words.counted("cards", { n: 0 }, labels, "fr"), "one:0", "French counts 0 as one");
  assert.equal(words.counted("cards", { n: 21 }, labels, "ru"), "one:21");
  assert.equal(words.counted("cards", { n: 1 }, labels, "ja"), "other:1", "Japanese has one form");
  assert.equal(words.counted("cards", { n: 1 }, labels, "not a language!"), "one:1", "a bad language falls back to English");
});

test("plural and placeName: the table's counted words and places", () => {
  assert.equal(plural(TABLE_LABELS, "points", 1), "1 point");
  assert.equal(plural(TABLE_LABELS, "strikes", 3), "3 strikes");
  assert.equal(placeName(TABLE_LABELS, 2), "2nd");
  assert.equal(placeName(TABLE_LABELS, 7), "#7", "a place the labels lack is numbered");
});

test("cardName names every card of the deck in the page's words, and the pattern comes from the language", () => {
  assert.equal(cards.cardName("QH", { variant: "classic", L: CARD_LABELS }), "queen of hearts");
  assert.equal(cards.cardName("10S", { variant: "classic", L: CARD_LABELS }), "10 of spades");
  assert.equal(cards.cardName("AD", { variant: "classic" }), "ace of diamonds", "the page's #card-labels by default");
  assert.equal(cards.cardName("JK", { variant: "classic", L: CARD_LABELS }), "the joker");
  assert.equal(cards.cardName("QH", { variant: "classic", L: JA_CARD_LABELS }), "ハートのQ");
  const names = new Set();
  for (const suit of "SHDC") {
    for (const rank of ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]) {
      const name = cards.cardName(rank + suit, { variant: "classic", L: CARD_LABELS });
      assert.ok(!name.includes("undefined") && !name.includes("{"), name);
      names.add(name);
    }
  }
  assert.equal(names.size, 52, "every card has its own name");
});

test("the jack of clubs is the Black Peter only in Schwarzer Peter", () => {
  assert.ok(cards.isPeter("JC", "schwarzer_peter"));
  assert.ok(!cards.isPeter("JC", "classic"));
  assert.ok(!cards.isPeter("JS", "schwarzer_peter"));
  assert.equal(cards.cardName("JC", { variant: "schwarzer_peter", L: CARD_LABELS }), "the Black Peter");
  assert.equal(cards.cardName("JC", { variant: "classic", L: CARD_LABELS }), "jack of clubs");
  assert.equal(cards.cardName("JS", { variant: "schwarzer_peter", L: CARD_LABELS }), "jack of spades");
  assert.equal(cards.pairName(["QH", "QC"], { variant: "classic", L: CARD_LABELS }), "queen of hearts and queen of clubs");
  assert.equal(cards.pairName(["QH", "QC"], { variant: "classic", L: JA_CARD_LABELS }), "ハートのQとクラブのQ");
});

test("cardFace builds a named picture of the card: colour, court, joker and Peter classes; cardBack the back", () => {
  const queen = cards.cardFace("QH", { variant: "classic", L: CARD_LABELS });
  assert.equal(queen.className, "card face red court");
  assert.equal(queen.attributes.role, "img");
  assert.equal(queen.attributes["aria-label"], "queen of hearts");
  assert.equal(queen.dataset.card, "QH");
  assert.ok(queen.innerHTML.startsWith("<svg") && queen.innerHTML.includes('aria-hidden="true"'));
  assert.equal(cards.cardFace("7S", { variant: "classic", L: CARD_LABELS }).className, "card face black");
  assert.equal(cards.cardFace("JK", { variant: "classic", L: CARD_LABELS }).className, "card face joker");
  const peter = cards.cardFace("JC", { variant: "schwarzer_peter", L: CARD_LABELS });
  assert.equal(peter.className, "card face black peter");
  assert.equal(peter.attributes["aria-label"], "the Black Peter");
  const back = cards.cardBack();
  assert.equal(back.className, "card back");
  assert.equal(back.innerHTML, cards.backSVG());
  assert.ok(!back.innerHTML.includes("data-card"), "a back tells nothing of the card");
});

test("the table's words follow the room's variant: card names, faces and a pair in words", () => {
  view.state = state({ variant: "schwarzer_peter" });
  assert.equal(table.variant(), "schwarzer_peter");
  assert.equal(table.nameCard("JC"), "the Black Peter");
  assert.equal(table.face("JC").className, "card face black peter");
  assert.equal(table.pairText(["QH", "QS"]), "queen of hearts and queen of spades");
  view.state = state({ variant: "classic" });
  assert.equal(table.nameCard("JC"), "jack of clubs");
  assert.equal(table.back().attributes["aria-hidden"], "true", "a back is hidden from screen readers");
  view.state = null;
  assert.equal(table.variant(), "", "no state yet: no variant");
});

test("a seat's short name on the table: yours marked, a computer's own name", () => {
  view.state = state({ you: [0] });
  assert.equal(table.seatName(0), "Ann (you)");
  assert.equal(table.seatName(1), "Bruno");
  assert.equal(table.seatName(2), "Bo");
  view.state = { ...state({ you: [0] }), room: { ...state().room, mode: "same_device" } };
  assert.equal(table.seatName(0), "Ann", "a shared device marks nobody as you");
});

test("strikes: the match's scoring once there is one, else the room's rules", () => {
  view.state = state({ scoring: "strikes" });
  assert.equal(table.strikes(), true);
  view.state = state({ scoring: "points" });
  assert.equal(table.strikes(), false);
  view.state = { ...state({ scoring: "strikes", match: false }) };
  assert.equal(table.strikes(), true, "before the match, from the rules");
  view.state = { ...state({ match: false }), room: { variant: "classic", mode: "online", computer_level: "easy" } };
  assert.equal(table.strikes(), false, "no rules: points");
  view.state = { ...state({ scoring: "points", match: false }), match: { scoring: "strikes" } };
  assert.equal(table.strikes(), true, "the match's scoring wins over the rules");
});

test("sentences follow one another with a space, and none in Japanese or Chinese", async () => {
  const { sentences } = await import("../../../static/js/words.js");
  const before = globalThis.document.documentElement.lang;
  globalThis.document.documentElement.lang = "en";
  assert.equal(sentences("Round 1 is over.", "", "Ann finished."), "Round 1 is over. Ann finished.");
  for (const lang of ["ja", "zh-hans", "zh-hant"]) {
    globalThis.document.documentElement.lang = lang;
    assert.equal(sentences("第 1 局結束。", "志明出完牌了。"), "第 1 局結束。志明出完牌了。");
  }
  globalThis.document.documentElement.lang = "ko";
  assert.equal(sentences("라운드가 끝났어요.", "민준 님이 끝냈어요."), "라운드가 끝났어요. 민준 님이 끝냈어요.");
  globalThis.document.documentElement.lang = before;
});

test("names in a list take the catalogue's separator", async () => {
  const { listed } = await import("../../../static/js/words.js");
  assert.equal(listed(["Ann", "Mia"], { listSeparator: ", " }), "Ann, Mia");
  assert.equal(listed(["美玲", "志明", "Ann"], { listSeparator: "、" }), "美玲、志明、Ann");
});

test("a card's own label may differ from its name inside a sentence", async () => {
  const { cardName } = await import("../../../static/js/cards.js");
  const L = { ...CARD_LABELS, joker: "den Joker", jokerAlone: "Joker", peter: "den Schwarzen Peter", peterAlone: "Schwarzer Peter" };
  assert.equal(cardName("JK", { L }), "den Joker");
  assert.equal(cardName("JK", { L, alone: true }), "Joker");
  assert.equal(cardName("JC", { L, variant: "schwarzer_peter", alone: true }), "Schwarzer Peter");
  assert.equal(cardName("JK", { L: CARD_LABELS, alone: true }), "the joker"); // none of its own: the same
});
