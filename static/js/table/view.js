// The table page's view, in one place: the state drawn last, and what this page keeps
// about it between states (the card chosen, the same device's curtain and hold, the camera,
// the scene's fit, the motion running). Every module of the table reads and writes it here.

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
  pendingFrom: null, // where your chosen card was, for its flight to your hand
  // Seats this browser left to the computer: from the page (a reload), from the states
  // (while the server still sends the seat) and from the "seat_left" event (when it sends
  // the spectator view from then on).
  leftSeats: new Set(
    (document.getElementById("room")?.dataset.left || "").split(",").filter(Boolean).map(Number),
  ),
  reportedMatch: null, // telemetry: the match whose end this page has reported
  pendingConnection: null, // telemetry: the socket may open before the first state arrives
};
