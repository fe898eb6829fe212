// Playing cards: faces and backs as inline SVG, and every card's name in words.
// The one place that knows what a card looks like and what it is called; the table, the
// replay and the results all use it. (Interface fixed; the designed SVG faces are built
// on it.)
//
//   cardFace(code, { variant, L })  -> element showing the card's face (role="img",
//                                     aria-label = cardName), data-card = code
//   cardBack()                      -> element showing the designed back
//   cardName(code, { variant, L })  -> "ace of hearts", "ハートのA", "红心A", "Black Peter"
//
// ``L`` is the dataset of <template id="card-labels"> (templates/lobby/_card_labels.html):
// the page language's rank and suit words and the pattern that joins them.

const SUITS = { S: 0, H: 1, D: 2, C: 3 };
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export function isPeter(code, variant) {
  return code === "JC" && variant === "schwarzer_peter";
}

export function cardName(code, { variant, L }) {
  if (code === "JK") return L.joker;
  if (isPeter(code, variant)) return L.peter;
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  const rankWord = L.ranks.split("|")[RANKS.indexOf(rank)];
  const suitWord = L.suits.split("|")[SUITS[suit]];
  return L.cardName.replace("{rank}", rankWord).replace("{suit}", suitWord);
}

export function cardFace(code, { variant, L }) {
  const el = document.createElement("span");
  const suit = code === "JK" ? "" : code.slice(-1);
  el.className = `card face ${suit === "H" || suit === "D" ? "red" : "black"}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code, { variant, L }));
  el.dataset.card = code;
  el.textContent = code === "JK" ? "★" : `${code.slice(0, -1)}${SYMBOLS[suit]}`;
  return el;
}

export function cardBack() {
  const el = document.createElement("span");
  el.className = "card back";
  return el;
}
