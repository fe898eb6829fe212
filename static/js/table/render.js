// Draws a state: every hand at its seat, your own hand at the near edge, the giver's hand
// lifted to you with its buttons, and the pile; render() draws the whole table, the name
// tags (tags.js) and the words around it (panel.js) too, then places the scene. What a
// click or a key on the giver's cards does is the controller's (ctrl.js).

import { playingSeats } from "../ending.js";
import { fill } from "../words.js";
import { choose } from "./ctrl.js";
import { $, L, reducedMotion } from "./page.js";
import { renderCurtain, renderPanel, renderResult, renderSeatActions, renderStatus } from "./panel.js";
import { place, sizeArea } from "./placement.js";
import { renderTags } from "./tags.js";
import { curtainNeeded, drawing, handCards, isMyTurn, myHandSeat, oddCard, view, youLeft } from "./view.js";
import { back, face, labelCard, seatName, variant } from "./words.js";

export function render() {
  if (!view.state.round) return;
  $("table-area").hidden = false;
  $("table-area").dataset.seats = view.state.seats.length;
  renderNotice();
  renderCurtain();
  renderPile();
  renderFans();
  if (!view.handBusy) renderMyHand();
  renderGiver();
  renderTags();
  renderStatus();
  renderPanel();
  renderResult();
  renderSeatActions();
  sizeArea();
  place();
  view.firstRender = false;
}

function renderNotice() {
  $("table-notice").hidden = !youLeft();
}

function renderPile() {
  const pile = $("pile");
  const pairs = view.state.round.discards;
  const key = `${view.state.round.number}/${pairs.length}/${variant()}`;
  if (pile.dataset.key === key) return;
  pile.dataset.key = key;
  pile.replaceChildren();
  const shown = pairs.slice(-8);
  const first = pairs.length - shown.length;
  if (first > 0) {
    const stack = document.createElement("div");
    stack.className = "pile-stack";
    stack.style.setProperty("--depth", Math.min(first, 20));
    stack.append(back());
    pile.append(stack);
  }
  shown.forEach((pair, i) => {
    const n = first + i;
    const el = document.createElement("div");
    el.className = "pair";
    // Scattered as if tossed in, the same way on every render.
    const turn = ((n * 47) % 40) - 20;
    const dx = ((n * 29) % 11) - 5;
    const dy = ((n * 17) % 9) - 4;
    el.style.setProperty("--turn", `${turn}deg`);
    el.style.setProperty("--dx", dx);
    el.style.setProperty("--dy", dy);
    el.append(face(pair[0]), face(pair[1]));
    pile.append(el);
  });
  pile.dataset.count = pairs.length;
}

/** Every hand but the big one at the near edge: fanned at its seat, face down, or face up
 * once the round is over (and in replays). On your turn the giver's cards are lifted out. */
function renderFans() {
  const ring = $("seats-ring");
  const mine = myHandSeat();
  const r = view.state.round;
  const odd = oddCard();
  const lifting = isMyTurn() ? r.giver : null;
  const curtained = curtainNeeded();
  ring.replaceChildren();
  for (const seat of view.state.seats) {
    if (seat.index === mine) continue;
    const fan = document.createElement("div");
    fan.className = `fan ${seat.colour}`;
    fan.dataset.fanSeat = seat.index;
    const known = (r.over || view.state.replay) && !curtained ? r.hands[String(seat.index)] : null;
    if (seat.index !== lifting) {
      if (known) {
        known.forEach((code, i) => {
          const card = face(code);
          if (odd && odd.holder === seat.index && code === odd.card) card.classList.add("odd");
          // A replay's marks (replay.js): badges drawn by replay.css; the move list has the words.
          const marks = (r.marks || []).filter((m) => m.seat === seat.index && m.position === i);
          for (const m of marks) card.classList.add(`mark-${m.kind}`);
          fan.append(card);
        });
      } else {
        for (let i = 0; i < seat.count; i++) fan.append(back());
      }
    }
    if (odd && odd.holder === seat.index) fan.classList.add("holder");
    ring.append(fan);
  }
  // The card set aside at the start (Jiji-nuki's, Old Maid's queen), face up by the pile.
  const removed = r.over && r.removed && r.removed.length ? r.removed[0] : null;
  const aside = $("set-aside");
  if (removed) {
    if (aside.dataset.card !== removed) {
      aside.replaceChildren(flipCard(removed));
      aside.dataset.card = removed;
    }
    aside.hidden = false;
  } else {
    aside.hidden = true;
    aside.dataset.card = "";
    aside.replaceChildren();
  }
}

/** A card that turns face up (once, when it first appears). */
function flipCard(code) {
  const wrap = document.createElement("div");
  wrap.className = "flip";
  const front = face(code);
  front.classList.add("flip-front");
  const rear = back();
  rear.classList.add("flip-back");
  wrap.append(front, rear);
  return wrap;
}

export function renderMyHand() {
  const seat = myHandSeat();
  const cards = seat === null ? [] : handCards(seat);
  const hand = $("my-hand");
  const odd = oddCard();
  hand.replaceChildren(
    ...cards.map((code) => {
      const card = face(code);
      if (odd && odd.holder === seat && odd.card === code) card.classList.add("odd");
      // Without motion, the card just drawn is marked while the player looks.
      if (view.hold && reducedMotion && view.hold.card === code) card.classList.add("drawn");
      return card;
    }),
  );
  hand.dataset.handSeat = seat ?? "";
  const list = $("my-cards");
  list.replaceChildren(
    ...cards.map((code) => {
      const li = document.createElement("li");
      li.textContent = labelCard(code);
      return li;
    }),
  );
  if (!cards.length) {
    // No card: a dash, without a bullet in front of it.
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "–";
    list.append(li);
  }
}

function renderGiver() {
  const big = $("giver-hand");
  const buttons = $("giver-buttons");
  const mine = isMyTurn();
  const giver = view.state.round.giver;
  const count = mine ? view.state.seats[giver].count : 0;
  if (view.selected !== null && view.selected >= count) view.selected = null;
  // Nobody draws once the match is over, and spectators never do: no controls at all then.
  const controls = drawing();
  $("player-controls").hidden = !controls && !(playingSeats(view.state).length && !view.state.replay);
  $("giver-group").hidden = !controls || view.state.round.over;
  $("draw-button").hidden = !controls;
  // Between rounds there is nothing to draw: the bar keeps only the names.
  $("draw-row").hidden = !controls || view.state.round.over;
  $("draw-3d").hidden = !controls || view.state.round.over;
  let label = "";
  if (mine) label = fill(L.giverCards, { giver: seatName(giver) });
  else if (controls) label = L.noGiver;
  $("giver-label").textContent = label;
  big.replaceChildren();
  big.classList.toggle("two-rows", count >= 8);
  // The socket down: the cards stay in view but none can be chosen (table/connection.js).
  big.classList.toggle("offline", view.offline);
  const focused = document.activeElement && document.activeElement.dataset.position;
  buttons.replaceChildren();
  for (let i = 0; i < count; i++) {
    const card = back();
    card.dataset.position = i;
    if (view.selected === i) card.classList.add("selected");
    card.addEventListener("click", () => {
      if (!view.justDragged) choose(i);
    });
    big.append(card);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "giver-card";
    button.dataset.position = i;
    button.textContent = i + 1;
    button.setAttribute("aria-label", fill(L.faceDown, { n: i + 1, total: count }));
    button.setAttribute("aria-pressed", view.selected === i ? "true" : "false");
    button.tabIndex = (view.selected ?? 0) === i ? 0 : -1;
    button.disabled = view.offline;
    button.addEventListener("click", () => choose(i));
    button.addEventListener("keydown", (e) => moveFocus(e, i, count));
    buttons.append(button);
  }
  if (focused !== undefined && focused !== null && count) {
    const again = buttons.querySelector(`[data-position="${Math.min(Number(focused), count - 1)}"]`);
    if (again) again.focus();
  }
  for (const id of ["draw-button", "draw-3d"]) $(id).disabled = !(mine && view.selected !== null) || view.offline;
  $("table-wrap").classList.toggle("my-turn", mine);
  $("table-wrap").dataset.pickFrom = mine ? giver : "";
}

function moveFocus(event, i, count) {
  let next = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (i + 1) % count;
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (i - 1 + count) % count;
  if (event.key === "Home") next = 0;
  if (event.key === "End") next = count - 1;
  if (next === null) return;
  event.preventDefault();
  const buttons = $("giver-buttons").children;
  for (const b of buttons) b.tabIndex = -1;
  buttons[next].tabIndex = 0;
  buttons[next].focus();
}
