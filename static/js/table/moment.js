// The odd card's moment: when a draw moves the odd card between two hands and both can
// know it, the server marks the draw `odd` for those two alone (games/engine/view.py), and
// this page, if it plays one of them, shows it big on the table for about two seconds:
// the drawer's "You drew the joker!" (the card arrives with a jolt), the giver's "Clara
// took the joker from you" (the card floats off, lighter). It is said to screen readers
// with the draw (table.js adds momentText to the announcement), goes away on its own or
// on any tap or key, never takes a click or the focus from the table, and stands still
// under prefers-reduced-motion. On one device only the drawer's moment, during the hold
// after the draw (view.hold), before the curtain falls for the next player. Sounds are
// sound.js's, which reads `event.odd` itself.

import { isPeter } from "../cards.js";
import { playingSeats } from "../ending.js";
import { fill } from "../words.js";
import { $, L, reducedMotion } from "./page.js";
import { view } from "./view.js";
import { face, nameCard, seatName, variant } from "./words.js";

// How long a moment shows unless a tap or a key dismisses it sooner, and its way out.
export const MOMENT_MS = 2200;
const LEAVING_MS = 260;

/** Which moment this page shows for ``event``: "drew", "took" or null. */
export function momentKind(event, state = view.state, hold = view.hold) {
  if (!event || event.kind !== "draw" || event.odd !== true || !event.card || !state || state.replay) return null;
  if (state.room.mode === "same_device") {
    // One device, passed round: only the drawer's, while their draw is still shown.
    return hold && hold.seat === event.drawer ? "drew" : null;
  }
  const playing = playingSeats(state);
  if (playing.includes(event.drawer)) return "drew";
  if (playing.includes(event.giver)) return "took";
  return null;
}

/** The odd card in the variant's words: the joker, the Black Peter, the Old Maid queen. */
export function oddName(code) {
  if (code === "JK" || isPeter(code, variant())) return nameCard(code);
  return L.momentQueen || nameCard(code);
}

/** The moment in words: its title and its smaller line. */
export function momentWords(kind, event) {
  const card = oddName(event.card);
  if (kind === "drew") return { title: fill(L.momentYouDrew, { card }), note: L.momentYouDrewNote };
  return { title: fill(L.momentTookFromYou, { seat: seatName(event.drawer), card }), note: L.momentTookNote };
}

/** What a screen reader hears of the moment, added to the draw's announcement. */
export function momentText(event) {
  const kind = momentKind(event);
  if (!kind) return "";
  const { title, note } = momentWords(kind, event);
  return `${title} ${note}`;
}

let timer = null;
let finish = null;

function onTap() { dismissMoment(); }

/** Shows the moment for ``event`` if this page has one; resolves once it is gone (at
 * once when there is none), so that one device's hold can wait for it. */
export function showMoment(event) {
  const kind = momentKind(event);
  if (!kind) return Promise.resolve();
  dismissMoment();
  const el = $("odd-moment");
  const { title, note } = momentWords(kind, event);
  $("odd-moment-card").replaceChildren(face(event.card));
  $("odd-moment-title").textContent = title;
  $("odd-moment-note").textContent = note;
  el.dataset.kind = kind;
  el.classList.toggle("still", reducedMotion);
  el.classList.remove("leaving");
  el.hidden = false;
  // Any tap or key dismisses it and still does what it does (listened to on the way
  // down, never stopped or prevented): the moment never stands between a player and play.
  document.addEventListener("pointerdown", onTap, true);
  document.addEventListener("keydown", onTap, true);
  timer = setTimeout(leave, MOMENT_MS);
  return new Promise((done) => { finish = done; });
}

// On its own, it fades out (at once when still).
function leave() {
  const el = $("odd-moment");
  if (reducedMotion || el.hidden) {
    dismissMoment();
    return;
  }
  el.classList.add("leaving");
  timer = setTimeout(dismissMoment, LEAVING_MS);
}

/** Hides the moment now (nothing when none shows). */
export function dismissMoment() {
  clearTimeout(timer);
  timer = null;
  document.removeEventListener("pointerdown", onTap, true);
  document.removeEventListener("keydown", onTap, true);
  const el = $("odd-moment");
  if (el && !el.hidden) {
    el.hidden = true;
    el.classList.remove("leaving");
    el.removeAttribute("data-kind");
    $("odd-moment-card").replaceChildren();
  }
  const done = finish;
  finish = null;
  if (done) done();
}
