// The table's words and pictures for cards and seats, in the room's variant: a card's
// face and name, the back, a pair in words, a seat's short name, and the scoring's kind.

import { cardBack, cardFace, cardName } from "../cards.js";
import { seatName as nameAt } from "../ending.js";
import { fill } from "../words.js";
import { CL, L } from "./page.js";
import { view } from "./view.js";

export const variant = () => (view.state ? view.state.room.variant : "");
export const face = (code) => cardFace(code, { variant: variant(), L: CL });
export const nameCard = (code) => cardName(code, { variant: variant(), L: CL });
/** A card's name as its own label (a hand's list), not inside a sentence. */
export const labelCard = (code) => cardName(code, { variant: variant(), L: CL, alone: true });
// "queen of hearts and queen of clubs" (cards.js's pattern, once its template has it).
export const pairText = (codes) => fill(CL.pair || "{first} + {second}", { first: nameCard(codes[0]), second: nameCard(codes[1]) });
export const seatName = (index) => nameAt(L, view.state, index);
export const strikes = () => (view.state.match ? view.state.match.scoring : (view.state.room.rules || {}).scoring) === "strikes";

export function back() {
  const el = cardBack();
  el.setAttribute("aria-hidden", "true");
  return el;
}
