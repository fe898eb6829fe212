// The table: draws a room's state (sent by room.js, or by replay.js, as "table-state"
// events) as a card table in CSS 3D, with every hand lying at its seat, plus the panel
// that says the same in words and buttons; and sends draws and match actions.
// Geometry lives in scene.js, ending texts in ending.js, cards in cards.js. Every string
// comes from the templates (#table-labels, #card-labels), so the page's language is used.

import { ending, playingSeats } from "./ending.js";
import { defaultCamera } from "./scene.js";
import * as telemetry from "./telemetry.js";
import { fill } from "./words.js";
import { announce, describe } from "./table/announce.js";
import { chooseMode } from "./table/mode.js";
import { $, L, reducedMotion, wait } from "./table/page.js";
import { setLastMove, showSpectators } from "./table/panel.js";
import { moveCamera, place, setView, sizeArea } from "./table/placement.js";
import { drawSelected, render, renderMyHand } from "./table/render.js";
import { holdAfterDraw, isMyTurn, myHandSeat, view, youLeft } from "./table/view.js";
import { back, face, seatName } from "./table/words.js";
import "./pointing.js"; // the drawer's hover, live
import "./reactions.js"; // reactions and computer faces at the name tags

// -- motion: cards travel between hands and to the pile -------------------------------------

function flyCard(card, from, to, { duration = 480, delay = 0, fade = false } = {}) {
  if (!from || !to || !from.width || !to.width) return null;
  const layer = $("flights");
  const box = layer.getBoundingClientRect();
  card.classList.add("flying");
  card.style.width = `${to.width}px`;
  layer.append(card);
  const sx = from.width / to.width;
  const a = `translate(${from.left - box.left}px, ${from.top - box.top}px) scale(${sx})`;
  const b = `translate(${to.left - box.left}px, ${to.top - box.top}px) scale(1)`;
  const anim = card.animate(
    [{ transform: a, opacity: 1 }, { transform: b, opacity: fade ? 0.2 : 1 }],
    { duration, delay, easing: "cubic-bezier(.3,.7,.3,1)", fill: "both" },
  );
  anim.finished.then(() => card.remove(), () => card.remove());
  return anim;
}

/** Where the cards of a seat are on screen right now: its fan, your hand, or the giver's
 * hand lifted to you. ``position`` picks one card when it can. */
function seatRect(seat, position = null) {
  const lifted = $("giver-hand");
  if ($("table-wrap").dataset.pickFrom === String(seat) && lifted.children.length) {
    const card = position !== null ? lifted.children[Math.min(position, lifted.children.length - 1)] : lifted.lastElementChild;
    return card.getBoundingClientRect();
  }
  const hand = $("my-hand");
  if (hand.dataset.handSeat === String(seat) && hand.children.length) {
    const card = position !== null ? hand.children[Math.min(position, hand.children.length - 1)] : hand.lastElementChild;
    return card.getBoundingClientRect();
  }
  const fan = document.querySelector(`[data-fan-seat="${seat}"]`);
  if (!fan) return null;
  const cards = fan.children;
  if (cards.length) {
    const card = position !== null ? cards[Math.min(position, cards.length - 1)] : cards[cards.length - 1];
    return card.getBoundingClientRect();
  }
  return fan.getBoundingClientRect();
}

function pileRect() {
  const pile = $("pile");
  const top = pile.querySelector(".pair:last-child .card") || pile;
  return top.getBoundingClientRect();
}

// Before the new state is drawn: where the drawn card leaves from.
function flightSource(event) {
  if (!event || event.kind !== "draw") return null;
  if (view.pendingFrom) {
    const from = view.pendingFrom;
    view.pendingFrom = null;
    return from;
  }
  return seatRect(event.giver, event.position);
}

// After: fly it to the drawer (face up when this page may see it), and a pair to the pile.
function animateDraw(event, from, mine) {
  if (reducedMotion || !from) return;
  if (mine) return; // your own draw: the hand sequence flies it (it knows where it lands)
  // Into a hand lifted for you to pick from, the card goes face down to its middle: where
  // it really went is the drawer's secret.
  const lifted = $("table-wrap").dataset.pickFrom === String(event.drawer);
  const known = event.card && playingSeats(view.state).includes(event.giver) && !lifted;
  const card = known ? face(event.card) : back();
  const pick = $("giver-hand").children;
  const to = lifted && pick.length ? pick[Math.floor(pick.length / 2)].getBoundingClientRect() : seatRect(event.drawer);
  flyCard(card, from, to);
  if (event.paired && event.discarded) {
    const target = pileRect();
    event.discarded.forEach((code, i) => {
      flyCard(face(code), to, target, { duration: 420, delay: 480 + i * 60 });
    });
  }
}

// The player's own draw, as RULES.md 2.9 tells it: the drawn card shows at the right end of
// the hand, then a pair leaves for the middle, then the hand is shuffled, visibly. A card
// drawn from the player visibly leaves the hand first. Resolves when it is done.
async function playHandSequence(previous, event, from, seat) {
  if (reducedMotion || view.handBusy || !previous || !previous.round) return;
  const before = previous.round.hands[String(seat)];
  const mine = event.drawer === seat && event.card;
  if (!before || !(mine || event.giver === seat)) return;
  const hand = $("my-hand");
  const cards = before.map(face);
  view.handBusy = true;
  try {
    if (mine) {
      const arrived = face(event.card);
      arrived.classList.add("arrived");
      hand.replaceChildren(...cards, arrived);
      hand.dataset.handSeat = seat;
      place();
      flyCard(face(event.card), from, arrived.getBoundingClientRect(), { duration: 420 });
      await wait(520);
      if (event.paired) {
        const target = pileRect();
        for (const el of hand.querySelectorAll(".card")) {
          if (event.discarded.includes(el.dataset.card)) {
            el.classList.add("to-pile");
            flyCard(face(el.dataset.card), el.getBoundingClientRect(), target, { duration: 420 });
          }
        }
        await wait(480);
      }
      view.handBusy = false;
      renderMyHand();
      place();
      hand.classList.add("shuffling");
      await wait(520);
      hand.classList.remove("shuffling");
    } else {
      const taken = cards[event.position];
      hand.replaceChildren(...cards);
      place();
      if (taken) {
        taken.classList.add("taken");
        const to = seatRect(event.drawer);
        flyCard(event.card ? face(event.card) : back(), taken.getBoundingClientRect(), to);
      }
      await wait(480);
    }
  } finally {
    if (view.handBusy) {
      view.handBusy = false;
      renderMyHand();
      place();
    }
  }
}

// -- wiring -----------------------------------------------------------------------------------

// -- telemetry: what kind of games are finished, and where things fail -----------------

const startedAt = Date.now();

function gameFields() {
  const rules = view.state.room.rules || {};
  const length = rules.scoring === "points" ? String(rules.rounds) : (rules.single_round ? "single" : "strikes");
  return {
    variant: view.state.room.variant, mode: view.state.room.mode,
    level: view.state.room.mode === "computer" ? view.state.room.computer_level : "none",
    seats: String(view.state.room.seat_count), match_length: length,
    jiji: view.state.room.variant === "jijinuki" ? "yes" : "no",
  };
}

// A game is reported once, however many people play it: in a friends game only by the
// page of the first seat whose player is still at the table (every page works that out
// from the same state); a reload never sends a start twice.
function reportingSeat() {
  if (view.state.room.mode !== "friends") return view.state.you[0];
  const present = view.state.seats.find((s) => s.kind === "human" && !s.played_by_computer && !s.away);
  return present ? present.index : null;
}

function sendOnce(kind, fields) {
  const key = `telemetry:${kind}:${view.state.room.code}/${view.state.match.number}`;
  try {
    if (sessionStorage.getItem(key)) return;
    if (telemetry.send(kind, fields)) sessionStorage.setItem(key, "1");
  } catch {
    telemetry.send(kind, fields);
  }
}

function reportGame(previous) {
  if (view.state.replay || !view.state.match || !view.state.you.length) return;
  if (!view.state.you.includes(reportingSeat())) return;
  const key = `${view.state.room.code}/${view.state.match.number}`;
  const fresh = !previous && view.state.match.rounds.length === 0 && view.state.round && view.state.round.draws === 0;
  if (fresh || (view.state.event && view.state.event.kind === "match_started")) {
    sendOnce("game_started", gameFields());
  }
  if (view.state.match.over && view.reportedMatch !== key && previous && !previous.match?.over) {
    view.reportedMatch = key;
    const mine = reportingSeat();
    const how = view.state.match.ended_by && view.state.match.ended_by.how;
    let result = "placed";
    if (how === "abandoned" || how === "everyone_left") result = "abandoned";
    else if ((view.state.match.winners || []).includes(mine)) result = "won";
    else if ((view.state.match.losers || []).includes(mine)) result = "lost";
    const minutes = (Date.now() - startedAt) / 60000;
    const draws = view.state.round ? view.state.round.draws : 0;
    sendOnce("game_finished", { ...gameFields(), result,
      duration: minutes < 1 ? "<1m" : minutes < 3 ? "1-3m" : minutes < 10 ? "3-10m" : minutes < 30 ? "10-30m" : ">30m",
      draws: draws < 20 ? "<20" : draws < 50 ? "20-50" : draws < 100 ? "50-100" : ">100" });
  }
}


function reportConnection(detail) {
  if (!view.state) { view.pendingConnection = detail; return; }
  if (view.state.room.mode !== "friends" || view.state.replay) return;
  telemetry.send("connection", { ...gameFields(), connected: detail.ok ? "yes" : "no",
    reconnects: Math.min(detail.reconnects, 50) });
}
document.addEventListener("table-connection", (e) => reportConnection(e.detail));

document.addEventListener("table-state", async (e) => {
  const previous = view.state;
  const event = e.detail.event;
  const fresh = event && previous && `${e.detail.version}` !== view.lastEventKey
    && (!e.detail.replay || e.detail.version === previous.version + 1);
  const from = fresh ? flightSource(event) : null;
  const handSeat = previous ? myHandSeat() : null;
  view.state = e.detail;
  if (previous && previous.version !== view.state.version) view.selected = null;
  for (const s of view.state.you) if (view.state.seats[s] && view.state.seats[s].left) view.leftSeats.add(s);
  if (event && event.kind === "seat_left" && previous) {
    for (const s of event.seats || []) if (previous.you.includes(s)) view.leftSeats.add(s);
  }
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
      setLastMove(text);
      if (view.state.round && view.state.round.over) {
        announce(`${text} ${$("result-odd").textContent} ${$("result-match").textContent}`);
      } else {
        announce(text);
      }
      if (handSeat !== null && !view.state.replay) {
        const sequence = playHandSequence(previous, event, from, handSeat);
        if (holding) {
          await Promise.all([sequence, wait(reducedMotion ? 1400 : 600)]);
          view.hold = null;
          if (view.state) render();
        }
      } else if (holding) {
        view.hold = null;
        render();
      }
    } else if (event.kind === "seat_left") {
      const text = youLeft() && (event.seats || []).every((s) => view.leftSeats.has(s))
        ? L.youLeft
        : (event.seats || []).map((s) => fill(L.seatLeft, { seat: seatName(s) })).join(" ");
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
});

function liftPick(previous) {
  const pick = $("giver-hand");
  const key = isMyTurn() ? `${view.state.match?.number}/${view.state.round.number}/${view.state.round.draws}` : null;
  if (!key || key === view.pickShownFor) {
    view.pickShownFor = key;
    return;
  }
  view.pickShownFor = key;
  if (reducedMotion || !previous || view.flat) return;
  const from = document.querySelector(`[data-fan-seat="${view.state.round.giver}"]`);
  if (!from || !pick.children.length) return;
  // From the giver's place to the middle of your side, rising.
  const a = from.getBoundingClientRect();
  const b = pick.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const s = view.viewFit.s || 1;
  pick.animate(
    [{ translate: `${dx / s}px ${dy / s}px`, scale: 0.45, opacity: 0.4 }, { translate: "0 0", scale: 1, opacity: 1 }],
    { duration: 420, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
}

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

// Dragging the table turns it a little under you, and it springs back on release.
const DRAG_TURN = 5; // degrees, at most
(() => {
  const stage = $("stage");
  let start = null;
  stage.addEventListener("pointerdown", (e) => {
    if (view.flat || e.button > 0) return;
    start = { x: e.clientX, y: e.clientY, spin: view.camera.spin, moved: false };
  });
  const release = () => {
    if (start && start.moved) {
      view.justDragged = true; // the click this release makes is not a choice of card
      setTimeout(() => { view.justDragged = false; }, 0);
      view.dragging = false;
      // The table springs back to the view it was in.
      moveCamera(defaultCamera(view.camera.view, stage.clientWidth, stage.clientHeight, view.flat));
    }
    start = null;
  };
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
  window.addEventListener("pointermove", (e) => {
    if (!start) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 8) return;
    if (!start.moved) {
      start.moved = true;
      view.camera.custom = true;
      view.dragging = true;
      cancelAnimationFrame(view.tween);
    }
    // A nudge, not a new view: a few degrees at most, less and less as the drag goes on,
    // and never tilted (your own hand would run off the screen).
    view.camera.spin = start.spin + DRAG_TURN * Math.tanh(dx / 200);
    requestAnimationFrame(place);
  });
})();

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

// Once per page: whether 3D failed, and how fast the page draws (frames per second).
function reportEnvironment() {
  if (view.fellBack) telemetry.send("view_3d_failed", gameFields());
  let frames = 0;
  const start = performance.now();
  const tick = (now) => {
    frames++;
    if (now - start < 2000) { requestAnimationFrame(tick); return; }
    const fps = (frames * 1000) / (now - start);
    const bucket = fps < 30 ? "<30fps" : fps < 50 ? "30-50fps" : ">50fps";
    telemetry.send("render_speed", { ...gameFields(), render_speed: bucket });
    // Measured (whether or not it was sent): what the browser tests wait for.
    document.documentElement.dataset.renderSpeed = bucket;
  };
  requestAnimationFrame(tick);
}
