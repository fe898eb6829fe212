// Keyboard focus stays on the table: after a draw (yours, by mouse or keys, redraws the
// giver's cards and so drops the focused one) and when your turn comes, focus goes to the
// giver's card buttons on your turn, else to the table's region, instead of falling to the
// page's body. It never leaves a field being typed in, a dialog, or anything else the
// player went to: only a focus that was lost (or parked on the table) moves.

import { $ } from "./page.js";
import { canChoose } from "./view.js";

function lost(el) {
  return !el || el === document.body || el === document.documentElement || !el.isConnected
    || el.disabled || el === $("table-area");
}

function dialogOpen() {
  return Boolean(document.querySelector("dialog[open], [aria-modal='true']:not([hidden])"));
}

/** After a draw or when your turn comes: focus back on the table if it was lost. */
export function keepFocus() {
  if (!lost(document.activeElement) || dialogOpen()) return;
  const area = $("table-area");
  if (!area || area.hidden) return;
  const buttons = $("giver-buttons");
  const target = canChoose() && buttons && buttons.offsetParent
    ? buttons.querySelector("button[tabindex='0']") || buttons.querySelector("button")
    : area;
  if (target && target !== document.activeElement) target.focus({ preventScroll: true });
}
