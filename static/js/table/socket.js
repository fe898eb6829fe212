// The table's one socket (docs/protocol.md): the connection to the room, reconnecting
// with a growing back-off, the close codes that end it for good, the move an action names
// (the ply) and the one send every part of the page uses. Nothing else opens or reads the
// socket: a state it receives goes out as the "table-state" event (table.js, room.js,
// pointing.js, reactions.js and speed.js listen), every other message as "table-message",
// and how the connection goes as "table-connection" (telemetry) and "table-socket" (its
// status: connecting, connected, reconnecting or closed).
//
// createSocket() is the socket itself, with no page in it (tests/js/unit/ runs it under
// node with a fake WebSocket and fake timers); openTable() opens the page's one.

export const RESTARTING = 4012; // the server process restarts: reconnect now
export const REFUSED = [4404, 4403, 4429]; // refused for good: say so, do not reconnect
export const FIRST_DELAY = 500; // ms before the first reconnect after a drop
export const MAX_DELAY = 10000;
export const RESTART_SPREAD = 250; // ms: a restarting server's sockets do not all come back at once
export const TROUBLE_AFTER = 5; // reconnects before the page reports a connection in trouble

/** The wait after this one: twice as long, at most MAX_DELAY. */
export function nextDelay(delay) {
  return Math.min(delay * 2, MAX_DELAY);
}

/** The move a state is at, as an action names it (docs/protocol.md, "Client to server"):
 * the match, the round and the draws made so far in it. */
export function ply(state) {
  const round = state.round;
  return { match: state.match.number, round: round ? round.number : null, draw: round ? round.draws : null };
}

/** A socket to `url` that reconnects until it is refused for good or closed. `on(kind, fn)`
 * listens: "message" (each parsed message), "open" ({reconnects}), "trouble" ({reconnects},
 * once, at the TROUBLE_AFTER-th reconnect), "status" ({status, code}). The clock, the
 * WebSocket and the randomness are the page's unless given. */
export function createSocket(url, {
  WebSocket: Socket = globalThis.WebSocket,
  setTimeout: later = (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: cancel = (id) => globalThis.clearTimeout(id),
  random = Math.random,
} = {}) {
  const listeners = new Map();
  let socket = null;
  let delay = FIRST_DELAY;
  let reconnects = 0;
  let status = "connecting";
  let timer = null;
  let closed = false;

  const emit = (kind, detail) => {
    for (const fn of listeners.get(kind) || []) fn(detail);
  };
  const setStatus = (next, code = null) => {
    if (next === status) return;
    status = next;
    emit("status", { status, code, reconnects });
  };
  const retry = (ms) => {
    timer = later(() => { timer = null; connect(); }, ms);
  };

  function connect() {
    if (closed) return;
    const ws = new Socket(url);
    socket = ws;
    ws.onopen = () => {
      if (ws !== socket) return;
      delay = FIRST_DELAY;
      setStatus("connected");
      emit("open", { reconnects });
    };
    ws.onmessage = (e) => {
      if (ws !== socket) return;
      emit("message", JSON.parse(e.data));
    };
    ws.onclose = (e) => {
      if (ws !== socket || closed) return;
      if (REFUSED.includes(e.code)) {
        closed = true;
        setStatus("closed", e.code);
        return;
      }
      reconnects++;
      setStatus("reconnecting", e.code);
      if (e.code === RESTARTING) {
        retry(random() * RESTART_SPREAD);
        return;
      }
      if (reconnects === TROUBLE_AFTER) emit("trouble", { reconnects });
      retry(delay);
      delay = nextDelay(delay);
    };
  }

  connect();
  return {
    on(kind, fn) {
      if (!listeners.has(kind)) listeners.set(kind, []);
      listeners.get(kind).push(fn);
    },
    /** Sends a message if the socket is open; one sent while it is not is lost
     * (docs/protocol.md, "Reconnecting": resend nothing, redraw from the next state). */
    send(message) {
      if (!socket || socket.readyState !== Socket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    get status() { return status; },
    get reconnects() { return reconnects; },
    /** Closes it for good: no reconnect. */
    close() {
      closed = true;
      if (timer !== null) cancel(timer);
      timer = null;
      setStatus("closed");
      if (socket) socket.close();
    },
  };
}

// -- the page's one socket ------------------------------------------------------------

let table = null;

/** Opens the room's socket (once) and routes what it says to the page's events. */
export function openTable(code, token = "") {
  if (table) return table;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?t=${encodeURIComponent(token)}` : "";
  table = createSocket(`${scheme}://${location.host}/ws/rooms/${code}/${query}`);
  const tell = (name, detail) => document.dispatchEvent(new CustomEvent(name, { detail }));
  table.on("message", (message) => tell(message.type === "state" ? "table-state" : "table-message", message));
  table.on("open", ({ reconnects }) => tell("table-connection", { ok: true, reconnects }));
  table.on("trouble", ({ reconnects }) => tell("table-connection", { ok: false, reconnects }));
  table.on("status", (detail) => tell("table-socket", detail));
  return table;
}

/** Sends a message over the page's socket; nothing while it is not open. */
export function send(message) {
  return table ? table.send(message) : false;
}

/** How the page's socket is: "connecting", "connected", "reconnecting" or "closed"
 * (null on a page without one, a replay). */
export function socketStatus() {
  return table ? table.status : null;
}
