// The controller: what choosing a card of the giver's hand does. A first click or key
// selects the card, the same card again (or the Draw button) sends the draw over the
// table's socket; render.js draws the result from the next state.

import { action, send } from "./actions.js";
import { drawNotSent } from "./connection.js";
import { $ } from "./page.js";
import { canChoose, view } from "./view.js";

export function choose(position) {
  if (!canChoose()) return;
  if (view.selected === position) {
    drawSelected();
    return;
  }
  view.selected = position;
  for (const el of $("giver-hand").children) {
    el.classList.toggle("selected", Number(el.dataset.position) === position);
  }
  for (const b of $("giver-buttons").children) {
    b.setAttribute("aria-pressed", Number(b.dataset.position) === position ? "true" : "false");
  }
  for (const id of ["draw-button", "draw-3d"]) $(id).disabled = false;
}

export function drawSelected() {
  if (!canChoose() || view.selected === null) return;
  const card = $("giver-hand").querySelector(`[data-position="${view.selected}"]`);
  view.pendingFrom = card ? card.getBoundingClientRect() : null;
  // A draw the socket could not send is never lost in silence: the page says so and the
  // card stays chosen, to draw again once the table is back.
  if (!send(action("draw", { position: view.selected }))) {
    view.pendingFrom = null;
    drawNotSent();
    return;
  }
  view.selected = null;
  for (const id of ["draw-button", "draw-3d"]) $(id).disabled = true;
}
