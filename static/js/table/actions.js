// What the table sends: actions over room.js's socket, each naming the move it answers.

import { view } from "./view.js";

export function send(message) {
  const socket = window.tableSocket;
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// An action names the move it answers, as this page saw it (docs/protocol.md): the match,
// for a draw or the next round also the round, and for a draw the draws made so far. So a
// presence change or a spectator never makes a click stale, and a double click is refused.
export function action(type, extra = {}) {
  const payload = { type, match: view.state.match.number };
  if (type === "draw" || type === "next_round") payload.round = view.state.round.number;
  if (type === "draw") payload.draw = view.state.round.draws;
  return { ...payload, ...extra };
}
