// The table page's view, in one place: the state drawn last, and what this page keeps
// about it between states (the card chosen, the same device's curtain and hold, the camera,
// the scene's fit, the motion and the drag running). Every module of the table reads and
// writes it here, and keeps no mutable state of its own. Below it, the questions about
// whose view this is: the seat at the near edge, whose hand shows face up, whether it is
// your turn, the odd card, the same device's curtain and hold.

import { playingSeats } from "../ending.js";

export const view = {
  state: null,
  selected: null, // position chosen in the giver's hand
  curtainFor: null, // same device: the seat whose hand the curtain has revealed
  hold: null, // same device: {seat, hand} still shown after that seat's draw
  handBusy: false, // while true, renders leave your hand to the running sequence
  lastEventKey: null,
  firstRender: true,
  pickShownFor: null, // the turn whose giver's hand has already lifted
  flat: false,
  fellBack: false, // flat because the browser has no 3D (not because ?flat=1 asked)
  camera: { view: "angled", tilt: 40, spin: 0, custom: false },
  tween: null, // the camera's glide running now
  dragging: false, // while a drag turns the table, the fit holds still
  justDragged: false, // the click a drag's release makes is not a choice of card
  geo: null,
  viewFit: { s: 1, tx: 0, ty: 0 },
  fanBoxes: {}, // where each hand at its seat lies on the felt, for the name tags
  asideBox: null, // where the card set aside lies
  lineForms: [], // the last move's line on the felt, its forms longest first (placement.js fitLine)
  lineFit: { forms: null, width: 0 }, // the forms and the felt's width it was last fitted to
  pendingFrom: null, // where your chosen card was, for its flight to your hand
  // Seats this browser left to the computer: from the page (a reload) and from the states
  // (the server names them, state.you_left).
  leftSeats: new Set(
    (document.getElementById("room")?.dataset.left || "").split(",").filter(Boolean).map(Number),
  ),
  reportedMatch: null, // telemetry: the match whose end this page has reported
  pendingConnection: null, // telemetry: the socket may open before the first state arrives
  offline: false, // the socket has been down past its grace (table/connection.js): nothing can be chosen
};

function matchOver() {
  return Boolean(view.state.match && view.state.match.over);
}

// This browser left the match and plays no seat any more.
export function youLeft() {
  return view.leftSeats.size > 0 && playingSeats(view.state).length === 0 && view.state.room.mode !== "same_device";
}

// Only a page that plays a seat of a match still in play gets the drawing controls.
export function drawing() {
  return playingSeats(view.state).length > 0 && !matchOver() && !view.state.replay;
}

// -- whose view ---------------------------------------------------------------------------

/** The seat at the near edge: yours; on a shared device the one whose turn it is. */
export function nearSeat() {
  if (view.state.replay) return 0;
  if (view.state.room.mode === "same_device") {
    if (view.hold) return view.hold.seat;
    if (view.state.acting !== null && view.state.acting !== undefined) return view.state.acting;
    return view.curtainFor ?? 0;
  }
  const playing = playingSeats(view.state);
  if (playing.length) return playing[0];
  if (view.leftSeats.size) return [...view.leftSeats][0];
  return 0;
}

/** The seat whose cards this page shows face up in the big hand at the near edge. */
export function myHandSeat() {
  if (view.state.replay || !view.state.round) return null;
  if (view.state.room.mode === "same_device") {
    if (view.hold) return view.hold.seat;
    if (view.state.acting !== null && view.curtainFor === view.state.acting) return view.state.acting;
    return null;
  }
  const mine = playingSeats(view.state).find((s) => view.state.round.hands[String(s)] !== undefined);
  return mine === undefined ? null : mine;
}

export function handCards(seat) {
  if (view.hold && seat === view.hold.seat) return view.hold.hand;
  return view.state.round.hands[String(seat)] || [];
}

export function isMyTurn() {
  if (view.hold || view.state.acting === null || !view.state.round || view.state.round.over || !drawing()) return false;
  return view.state.room.mode !== "same_device" || view.curtainFor === view.state.acting;
}

/** Your turn and the table's socket up: a card of the giver's hand may be chosen and drawn. */
export function canChoose() {
  return isMyTurn() && !view.offline;
}

/** The odd card's holder once a round is over, and the card. */
export function oddCard() {
  const r = view.state.round;
  if (!r || !r.over || !r.ranking || !r.ranking.length) return null;
  const holder = r.ranking[r.ranking.length - 1];
  const card = (r.hands[String(holder)] || [])[0];
  return card ? { holder, card } : null;
}

export function curtainNeeded() {
  return view.state.room.mode === "same_device" && view.state.acting !== null && view.curtainFor !== view.state.acting
    && !view.state.round.over && !view.hold;
}

// Same device: after your own draw you see the card arrive, the pair leave and the
// shuffle; only then does the curtain fall for the next player.
export function holdAfterDraw(previous, event) {
  if (view.state.room.mode !== "same_device" || !previous || !previous.round || event.kind !== "draw") return false;
  const seat = event.drawer;
  if (view.curtainFor !== seat || previous.acting !== seat || !event.card) return false;
  const before = previous.round.hands[String(seat)] || [];
  const gone = event.paired ? event.discarded : [];
  const after = [...before, event.card];
  for (const code of gone) after.splice(after.indexOf(code), 1);
  // The server shuffled the hand; this page only shows it for a moment, so any order does.
  view.hold = { seat, hand: after, card: event.paired ? null : event.card };
  return true;
}
