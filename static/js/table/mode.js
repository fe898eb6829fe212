// The 3D/flat choice, made once as the page opens: view.flat, and view.fellBack when the
// browser lacks 3D (telemetry reports that), and the page's data-table-mode for the CSS.

import { view } from "./view.js";

// 3D where the browser has it; otherwise (or on request: ?flat=1) a flat table that plays the same.
export function chooseMode() {
  const forced = new URLSearchParams(location.search).get("flat") === "1";
  let ok = !forced && CSS.supports("transform-style", "preserve-3d") && CSS.supports("perspective", "1px");
  if (ok) {
    try {
      const probe = document.createElement("div");
      probe.style.transform = "rotateX(30deg)";
      ok = probe.style.transform !== "";
    } catch {
      ok = false;
    }
  }
  document.documentElement.dataset.tableMode = ok ? "3d" : "flat";
  view.flat = !ok;
  view.fellBack = !ok && !forced;
}
