// The table's telemetry (telemetry.js sends): what kind of games are finished, and where
// things fail (connections, a missing 3D view, slow drawing).

import * as telemetry from "../telemetry.js";
import { view } from "./view.js";

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
// page of one seat, which the server names in every state (state.reporting,
// games/engine/seats.py); a reload never sends a start twice. Its start, by the first seat
// whose player has not left it (a moment away does not count: as a match starts, pages
// reload to the table, and a page that found the host's page reloading took the start for
// itself, so it was counted twice); its end, by the first seat whose player is still at
// the table.
function reportingSeat({ atTheTable }) {
  const reporting = view.state.reporting || {};
  return (atTheTable ? reporting.end : reporting.start) ?? null;
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

export function reportGame(previous) {
  if (view.state.replay || !view.state.match || !view.state.you.length) return;
  const key = `${view.state.room.code}/${view.state.match.number}`;
  const fresh = !previous && view.state.match.rounds.length === 0 && view.state.round && view.state.round.draws === 0;
  const starting = fresh || (view.state.event && view.state.event.kind === "match_started");
  if (starting && view.state.you.includes(reportingSeat({ atTheTable: false }))) {
    sendOnce("game_started", gameFields());
  }
  const mine = reportingSeat({ atTheTable: true });
  if (!view.state.you.includes(mine)) return;
  if (view.state.match.over && view.reportedMatch !== key && previous && !previous.match?.over) {
    view.reportedMatch = key;
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


export function reportConnection(detail) {
  if (!view.state) { view.pendingConnection = detail; return; }
  if (view.state.room.mode !== "friends" || view.state.replay) return;
  telemetry.send("connection", { ...gameFields(), connected: detail.ok ? "yes" : "no",
    reconnects: Math.min(detail.reconnects, 50) });
}
// Once per page: whether 3D failed, and how fast the page draws (frames per second).
export function reportEnvironment() {
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
