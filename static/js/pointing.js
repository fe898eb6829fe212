// The drawer's hover, live (docs/protocol.md, "point" and "pointing"). While this page's
// player draws, the card it points at in the giver's hand (the mouse over it, a touch, the
// keyboard focus, else the selected card) is sent as "point", at most one every 110 ms,
// and null when it points at nothing. Every page marks the card pointed at in the
// giver's hand ("pointed": lifted toward the drawer) and says it politely in
// #together-live. It sends through the table's socket (table/socket.js), listens to the
// table's events and watches the hands table.js draws, so table.js only imports it.

import { ply, send } from "./table/socket.js";
import { fill } from "./words.js";

const $ = (id) => document.getElementById(id);
const labels = $("reactions");
const colours = ($("table-labels")?.dataset.colours || "").split("|");
const INTERVAL = 110; // ms between points: the server takes at most 10 a second

let state = null;
let pointed = null; // {seat, position} the room was last told
let hovered = null;
let focused = null;
let sent = null; // the position this page last sent, for the current move
let timer = null;
let lastSentAt = 0;
let announceTimer = null;

const moveKey = (s) => (s && s.round ? `${s.match?.number}/${s.round.number}/${s.round.draws}` : null);
const drawingNow = () => Boolean(state && !state.replay && state.acting !== null && state.acting !== undefined
  && state.round && !state.round.over && state.round.giver !== null);

function selectedPosition() {
  const card = $("giver-hand")?.querySelector(".selected");
  return card ? Number(card.dataset.position) : null;
}

/** What the drawer points at now: hover, then focus, then the selected card. */
function current() {
  if (!drawingNow()) return null;
  return hovered ?? focused ?? selectedPosition();
}

function schedule() {
  if (!drawingNow() || timer !== null) return;
  const due = Math.max(0, lastSentAt + INTERVAL - performance.now());
  timer = setTimeout(flush, due);
}

function flush() {
  timer = null;
  const position = current();
  if (position === sent || !drawingNow()) return;
  sent = position;
  lastSentAt = performance.now();
  send({ type: "point", ...ply(state), position });
}

function positionOf(target) {
  const el = target && target.closest ? target.closest("[data-position]") : null;
  return el ? Number(el.dataset.position) : null;
}

function watchDrawer() {
  const hand = $("giver-hand");
  const buttons = $("giver-buttons");
  if (!hand || !buttons) return;
  hand.addEventListener("pointerover", (e) => { hovered = positionOf(e.target); schedule(); });
  hand.addEventListener("pointerleave", () => { hovered = null; schedule(); });
  hand.addEventListener("pointercancel", () => { hovered = null; schedule(); });
  for (const el of [hand, buttons]) el.addEventListener("click", () => setTimeout(schedule, 0));
  buttons.addEventListener("focusin", (e) => { focused = positionOf(e.target); schedule(); });
  buttons.addEventListener("focusout", () => { focused = null; schedule(); });
}

/** The cards showing the giver's hand on this page: its own hand for the giver, the fan
 *  at its seat for everyone else (the drawer's own page shows its hover already). */
function giverCards(giver) {
  const mine = $("my-hand");
  if (mine && mine.dataset.handSeat === String(giver)) return { cards: mine.children, yours: true };
  const fan = document.querySelector(`[data-fan-seat="${giver}"]`);
  return { cards: fan ? fan.children : [], yours: false };
}

function show() {
  for (const el of document.querySelectorAll(".card.pointed")) el.classList.remove("pointed");
  if (!pointed || pointed.position === null || !state || !state.round) return;
  const { cards } = giverCards(state.round.giver);
  const card = cards[pointed.position];
  if (card) card.classList.add("pointed");
}

function announce() {
  clearTimeout(announceTimer);
  if (!pointed || pointed.position === null || !labels) return;
  const { seat, position } = pointed;
  // Said once the hand rests a moment, not for every card the mouse crosses.
  announceTimer = setTimeout(() => {
    if (!pointed || pointed.seat !== seat || pointed.position !== position || !state.round) return;
    const giver = state.round.giver;
    const { yours } = giverCards(giver);
    const text = yours
      ? fill(labels.dataset.pointingYours, { seat: colours[seat], n: position + 1 })
      : fill(labels.dataset.pointingTheirs, { seat: colours[seat], n: position + 1, giver: colours[giver] });
    $("together-live").textContent = text;
  }, 600);
}

document.addEventListener("table-state", (e) => {
  const before = moveKey(state);
  state = e.detail;
  if (moveKey(state) !== before) {
    pointed = null;
    sent = null;
    hovered = null;
  }
  if (!drawingNow()) sent = null;
  else schedule(); // a selection or focus kept across a redraw
});

document.addEventListener("table-message", (e) => {
  const message = e.detail;
  if (message.type !== "pointing" || !state || !state.round) return;
  if (state.round.over || state.round.drawer !== message.seat) return; // late: that move is over
  pointed = { seat: message.seat, position: message.position };
  show();
  if (state.acting !== message.seat) announce();
});

// table.js redraws the hands from scratch: mark the pointed card again after each redraw.
const observer = new MutationObserver(show);
for (const id of ["my-hand", "seats-ring"]) {
  if ($(id)) observer.observe($(id), { childList: true });
}
watchDrawer();
