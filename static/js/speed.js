// The computer's pace at the table (docs/protocol.md, "speed"): three buttons in the
// table's settings while the computer plays a seat. The host's page sends "speed"; every
// page shows the room's speed from its state and says a change politely in #together-live.

import { send } from "./table/socket.js";
import { fill } from "./words.js";

const $ = (id) => document.getElementById(id);
const box = $("speed-setting");
const choices = box ? [...box.querySelectorAll("[data-speed]")] : [];
let shown = null; // the speed this page last showed

function show(state) {
  const room = state.room;
  const computerPlays = state.seats.some((s) => s.kind === "computer" || s.played_by_computer);
  box.hidden = !computerPlays;
  const host = (state.you || []).includes(state.host); // the host's seat, from the server
  for (const button of choices) {
    const speed = button.dataset.speed;
    button.textContent = box.dataset[speed];
    button.setAttribute("aria-pressed", String(speed === room.computer_speed));
    button.disabled = !host;
  }
  $("speed-note").hidden = host;
  const changed = state.event && state.event.kind === "speed_changed";
  if (changed && shown !== null && shown !== room.computer_speed) {
    $("together-live").textContent = fill(box.dataset.changed, { speed: box.dataset[room.computer_speed] });
  }
  shown = room.computer_speed;
}

if (box) {
  for (const button of choices) {
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-pressed") === "true") return;
      send({ type: "speed", speed: button.dataset.speed });
    });
  }
  document.addEventListener("table-state", (e) => {
    if (e.detail && e.detail.room && !e.detail.replay) show(e.detail);
  });
}
