// Dragging the table turns it a little under you, and it springs back on release.

import { defaultCamera } from "../scene.js";
import { $ } from "./page.js";
import { moveCamera, place, stopGlide } from "./placement.js";
import { view } from "./view.js";

const DRAG_TURN = 5; // degrees, at most

// Called once by table.js, which wires the page.
export function turnOnDrag() {
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
      stopGlide();
    }
    // A nudge, not a new view: a few degrees at most, less and less as the drag goes on,
    // and never tilted (your own hand would run off the screen).
    view.camera.spin = start.spin + DRAG_TURN * Math.tanh(dx / 200);
    requestAnimationFrame(place);
  });
}
