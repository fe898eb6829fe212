// The table's entry point: the page's wiring. It takes a room's state (from the table's
// socket, table/socket.js, or from replay.js, as "table-state" events) into the one view
// state, redraws the table, flies the card drawn, tells the draw and reports telemetry;
// and wires the buttons, the drag, resizing and the 3D/flat choice. The room's template
// and the replay's load it. The work is in table/, one job a module:
//
//   table/view.js       the view state, one object; whose view: near seat, your hand, your
//                       turn, the odd card, the curtain, the same device's hold
//   table/page.js       the page's labels and elements by id
//   table/words.js      cards and seats in words and pictures
//   table/socket.js     the room's one socket: reconnect and back-off, the ply, send
//   table/actions.js    what the page sends, naming the move
//   table/ctrl.js       the controller: choosing a card of the giver's hand, the draw
//   table/render.js     hands, cards and the pile drawn from a state; render() draws it all
//   table/tags.js       the name tags
//   table/panel.js      the words and buttons around the table
//   table/placement.js  scene.js's geometry applied: everything placed, the camera's moves
//   table/motion.js     cards travelling, your own draw's sequence, the giver's hand rising
//   table/announce.js   the live announcements
//   table/moment.js     the odd card's moment: "You drew the joker!", big on the table
//   table/drag.js       the drag that turns the table
//   table/mode.js       3D or flat
//   table/telemetry.js  what the table reports
//   table/connection.js the socket down or back, on the table; a draw not sent, said
//   table/focus.js      keyboard focus kept on the table after a draw and on your turn
//   table/sound.js      the table's sound, synthesised here: cues for the draw, the pair,
//                       the deal, your turn, the odd card, the ends, reactions
//
// Geometry lives in scene.js, ending texts in ending.js, cards in cards.js. Every string
// comes from the templates (#table-labels, #card-labels), so the page's language is used.

import { ending } from "./ending.js";
import { defaultCamera } from "./scene.js";
import { fill, sentences } from "./words.js";
import { announce, briefForms, describe } from "./table/announce.js";
import { turnOnDrag } from "./table/drag.js";
import { chooseMode } from "./table/mode.js";
import { dismissMoment, momentText, showMoment } from "./table/moment.js";
import { animateDraw, flightSource, liftPick, playHandSequence } from "./table/motion.js";
import { $, L, reducedMotion, wait } from "./table/page.js";
import { setLastMove, showSpectators } from "./table/panel.js";
import { place, setView, sizeArea } from "./table/placement.js";
import { drawSelected } from "./table/ctrl.js";
import { watchConnection } from "./table/connection.js";
import { keepFocus } from "./table/focus.js";
import { render } from "./table/render.js";
import { reportConnection, reportEnvironment, reportGame } from "./table/telemetry.js";
import { canChoose, holdAfterDraw, myHandSeat, view, youLeft } from "./table/view.js";
import { seatName } from "./table/words.js";
import "./pointing.js"; // the drawer's hover, live
import "./reactions.js"; // reactions and computer faces at the name tags
import "./table/sound.js"; // the table's sound cues

watchConnection(render);
document.addEventListener("table-connection", (e) => reportConnection(e.detail));

document.addEventListener("table-state", async (e) => {
  const previous = view.state;
  const event = e.detail.event;
  const fresh = event && previous && `${e.detail.version}` !== view.lastEventKey
    && (!e.detail.replay || e.detail.version === previous.version + 1);
  const from = fresh ? flightSource(event) : null;
  const handSeat = previous ? myHandSeat() : null;
  const wasMyTurn = Boolean(previous) && canChoose();
  view.state = e.detail;
  if (previous && previous.version !== view.state.version) view.selected = null;
  for (const s of view.state.you_left || []) view.leftSeats.add(s);
  // A new match (a rematch) starts with no last move: the old one belongs to the last match.
  if (previous && previous.match && view.state.match && previous.match.number !== view.state.match.number) setLastMove("");
  const holding = fresh && holdAfterDraw(previous, event);
  if (view.state.replay) $("table-area").classList.add("replay");
  render();
  if (!view.state.replay) showSpectators(view.state.spectators || 0);
  if (!previous && !view.state.replay) reportEnvironment();
  if (!previous && view.pendingConnection) { reportConnection(view.pendingConnection); view.pendingConnection = null; }
  reportGame(previous);
  // The giver's hand lifts towards you when your turn comes.
  liftPick(previous);
  if (fresh) {
    view.lastEventKey = `${view.state.version}`;
    if (event.kind === "draw") {
      const mine = handSeat !== null && event.drawer === handSeat && Boolean(event.card) && !view.state.replay;
      animateDraw(event, from, mine);
      const text = describe(event);
      setLastMove(text, briefForms(event));
      // The odd card's moment, for the drawer and the giver only: said with the draw.
      const said = sentences(text, momentText(event));
      if (view.state.round && view.state.round.over) {
        announce(sentences(said, $("result-odd").textContent, $("result-match").textContent));
      } else {
        announce(said);
      }
      const moment = showMoment(event);
      if (handSeat !== null && !view.state.replay) {
        const sequence = playHandSequence(previous, event, from, handSeat);
        if (holding) {
          // One device: the curtain waits for the drawer's moment too.
          await Promise.all([sequence, wait(reducedMotion ? 1400 : 600), moment]);
          view.hold = null;
          dismissMoment();
          if (view.state) render();
        }
      } else if (holding) {
        view.hold = null;
        dismissMoment();
        render();
      }
    } else if (event.kind === "seat_left") {
      const text = youLeft() && (event.seats || []).every((s) => view.leftSeats.has(s))
        ? L.youLeft
        : sentences(...(event.seats || []).map((s) => fill(L.seatLeft, { seat: seatName(s) })));
      setLastMove(text);
      announce(text);
    }
  }
  // A match that ends without a last draw (a resignation, an abandoned room) says so too.
  const end = ending(L, view.state);
  if (end && previous && previous.match && !previous.match.over && previous.match.number === view.state.match.number
      && !(event && event.kind === "draw")) {
    setLastMove(end.cause || end.outcome);
    announce(end.text);
  }
  // Focus stays on the table after a draw and when your turn comes (table/focus.js).
  if ((fresh && event.kind === "draw") || (previous && !wasMyTurn && canChoose())) keepFocus();
});

document.addEventListener("table-message", (e) => {
  const message = e.detail;
  if (message.type === "spectators") {
    showSpectators(message.count);
    return;
  }
  if (message.type === "error" && message.code === "stale_version") announce(L.errorStale);
  else if (message.type === "error") announce(message.message);
});

for (const id of ["draw-button", "draw-3d"]) $(id).addEventListener("click", drawSelected);
$("curtain-button").addEventListener("click", () => {
  view.curtainFor = view.state.acting;
  render();
  $("giver-buttons").querySelector("button")?.focus({ preventScroll: true });
});
for (const button of document.querySelectorAll(".view-switch button")) {
  button.addEventListener("click", () => setView(button.dataset.view));
}

turnOnDrag();

new ResizeObserver(() => {
  if (!view.state) return;
  if (!view.camera.custom) {
    const stage = $("stage");
    Object.assign(view.camera, defaultCamera(view.camera.view, stage.clientWidth, stage.clientHeight, view.flat));
  }
  place();
}).observe($("stage"));
window.addEventListener("resize", sizeArea);

chooseMode();
