// The connection, on the table: the room's socket (socket.js) down for longer than a short
// grace shows "Reconnecting" on the table and in the status line, and nothing can be
// chosen meanwhile (view.offline, view.js canChoose); back up, the table says so for a
// moment and the next state (the server sends one to every socket that opens) catches it
// up. A socket the server restarts comes back at once, inside the grace: nothing flashes.
// A draw the socket could not send is said too (ctrl.js), never dropped in silence.

import { announce } from "./announce.js";
import { keepFocus } from "./focus.js";
import { $, L } from "./page.js";
import { view } from "./view.js";

export const GRACE_MS = 1000; // a drop shorter than this shows nothing
export const ONLINE_MS = 3000; // how long "Back online" stays

let graceTimer = null;
let noteTimer = null;

/** Shows `text` in the table's connection note (visual: the status line or the
 * announcer speaks it), for `ms` milliseconds, or until replaced when no `ms`. */
function note(text, kind, ms = 0) {
  const el = $("connection-note");
  if (noteTimer !== null) clearTimeout(noteTimer);
  noteTimer = null;
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = !text;
  if (ms) noteTimer = setTimeout(() => { noteTimer = null; el.hidden = true; }, ms);
}

let redraw = () => {};

function goneOffline() {
  graceTimer = null;
  view.offline = true;
  // A draw not sent stays said (the status line says the table is reconnecting).
  const el = $("connection-note");
  note(!el.hidden && el.textContent === L.notSent ? L.notSent : L.reconnecting, "offline");
  redraw();
}

function backOnline() {
  view.offline = false;
  note(L.online, "online", ONLINE_MS);
  announce(L.online);
  redraw();
  keepFocus();
}

/** Follows the room's socket; `render` redraws the table (passed in by the entry script, so
 * that this module, which ctrl.js imports, imports nothing that imports ctrl.js). */
export function watchConnection(render) {
  redraw = () => {
    if (view.state) render();
  };
  document.addEventListener("table-socket", onSocket);
}

function onSocket(e) {
  const { status } = e.detail;
  if (status === "reconnecting") {
    if (!view.offline && graceTimer === null) graceTimer = setTimeout(goneOffline, GRACE_MS);
  } else if (status === "connected") {
    if (graceTimer !== null) clearTimeout(graceTimer);
    graceTimer = null;
    if (view.offline) backOnline();
  } else if (status === "closed" && graceTimer !== null) {
    // Refused for good: room.js says why in the status line.
    clearTimeout(graceTimer);
    graceTimer = null;
  }
}

/** The draw could not be sent (the socket is not open): said, the card still chosen. */
export function drawNotSent() {
  note(L.notSent, "offline", view.offline ? 0 : ONLINE_MS * 2);
  announce(L.notSent);
}
