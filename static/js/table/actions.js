// What the table sends: actions over the table's socket (socket.js), each naming the move
// it answers.

import { ply, send } from "./socket.js";
import { view } from "./view.js";

export { send };

// An action names the move it answers, as this page saw it (docs/protocol.md): the match,
// for a draw or the next round also the round, and for a draw the draws made so far. So a
// presence change or a spectator never makes a click stale, and a double click is refused.
export function action(type, extra = {}) {
  const at = ply(view.state);
  const payload = { type, match: at.match };
  if (type === "draw" || type === "next_round") payload.round = at.round;
  if (type === "draw") payload.draw = at.draw;
  return { ...payload, ...extra };
}
