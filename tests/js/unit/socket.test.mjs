// static/js/table/socket.js under node's test runner, with a fake WebSocket and a fake
// clock: how the table's socket reconnects, backs off, stops and sends.
//
//   node --test tests/js/unit/
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  FIRST_DELAY, MAX_DELAY, RESTART_SPREAD, createSocket, nextDelay, ply,
} from "../../../static/js/table/socket.js";

class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
  open() { this.readyState = 1; this.onopen?.(); }
  receive(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
  drop(code = 1006) { this.readyState = 3; this.onclose?.({ code }); }
}

/** A clock that runs only when told: each timer waits for run(). */
function fakeClock() {
  const timers = [];
  return {
    timers,
    setTimeout: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimeout: (id) => { timers[id - 1].cancelled = true; },
    /** Runs the next timer; returns the wait it was set for. */
    next() {
      const t = timers.find((x) => !x.done && !x.cancelled);
      assert.ok(t, "a reconnect is waiting");
      t.done = true;
      t.fn();
      return t.ms;
    },
    pending: () => timers.filter((x) => !x.done && !x.cancelled).length,
  };
}

function start(options = {}) {
  FakeSocket.made = [];
  const clock = fakeClock();
  const socket = createSocket("ws://test/ws/rooms/ABC/", {
    WebSocket: FakeSocket, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout, random: () => 0.5, ...options,
  });
  const last = () => FakeSocket.made.at(-1);
  return { socket, clock, last };
}

test("a dropped socket reconnects after 0.5 s, then 1, 2, 4, 8 and at most 10 s", () => {
  const { clock, last } = start();
  const waits = [];
  for (let i = 0; i < 7; i++) {
    last().drop();
    waits.push(clock.next());
  }
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
  assert.equal(FakeSocket.made.length, 8);
  assert.equal(FakeSocket.made[7].url, "ws://test/ws/rooms/ABC/");
});

test("the back-off starts again at 0.5 s once a socket opens", () => {
  const { clock, last } = start();
  last().drop();
  clock.next();
  last().drop();
  assert.equal(clock.next(), 1000);
  last().open();
  last().drop();
  assert.equal(clock.next(), FIRST_DELAY);
});

test("nextDelay doubles the wait up to 10 s", () => {
  assert.equal(nextDelay(500), 1000);
  assert.equal(nextDelay(8000), MAX_DELAY);
  assert.equal(nextDelay(MAX_DELAY), MAX_DELAY);
});

test("a restarting server (4012) is reconnected within 250 ms, without growing the back-off", () => {
  const { clock, last } = start();
  last().drop(4012);
  assert.equal(clock.next(), 0.5 * RESTART_SPREAD);
  last().drop(4012);
  assert.ok(clock.next() < RESTART_SPREAD);
  last().drop();
  assert.equal(clock.next(), FIRST_DELAY);
});

for (const code of [4404, 4403, 4429]) {
  test(`a socket closed with ${code} is refused for good: no reconnect, status closed with the code`, () => {
    const { socket, clock, last } = start();
    const statuses = [];
    socket.on("status", (s) => statuses.push(s));
    last().open();
    last().drop(code);
    assert.equal(clock.pending(), 0);
    assert.equal(FakeSocket.made.length, 1);
    assert.equal(socket.status, "closed");
    assert.deepEqual(statuses.at(-1), { status: "closed", code, reconnects: 0 });
  });
}

test("the status goes connecting, connected, reconnecting, connected, with one event per change", () => {
  const { socket, clock, last } = start();
  const statuses = [];
  socket.on("status", (s) => statuses.push(s.status));
  assert.equal(socket.status, "connecting");
  last().open();
  last().drop();
  assert.equal(socket.status, "reconnecting");
  clock.next();
  last().drop(); // a second failure while reconnecting is no new status
  clock.next();
  last().open();
  assert.deepEqual(statuses, ["connected", "reconnecting", "connected"]);
  assert.equal(socket.reconnects, 2);
});

test("the fifth reconnect in a row reports trouble once, and every open reports the reconnects so far", () => {
  const { socket, clock, last } = start();
  const trouble = [];
  const opens = [];
  socket.on("trouble", (t) => trouble.push(t.reconnects));
  socket.on("open", (o) => opens.push(o.reconnects));
  last().open();
  for (let i = 0; i < 7; i++) {
    last().drop();
    clock.next();
  }
  last().open();
  assert.deepEqual(trouble, [5]);
  assert.deepEqual(opens, [0, 7]);
});

test("send goes out only while the socket is open; what is sent while it is not is lost", () => {
  const { socket, clock, last } = start();
  assert.equal(socket.send({ type: "sync" }), false);
  last().open();
  assert.equal(socket.send({ type: "react", reaction: "smile" }), true);
  const first = last();
  first.drop();
  assert.equal(socket.send({ type: "draw" }), false);
  clock.next();
  last().open();
  socket.send({ type: "sync" });
  assert.deepEqual(first.sent, [{ type: "react", reaction: "smile" }]);
  assert.deepEqual(last().sent, [{ type: "sync" }]);
});

test("every message is parsed and handed to the message listeners in order", () => {
  const { socket, last } = start();
  const got = [];
  socket.on("message", (m) => got.push(m));
  last().open();
  last().receive({ type: "state", version: 3 });
  last().receive({ type: "spectators", count: 2 });
  assert.deepEqual(got, [{ type: "state", version: 3 }, { type: "spectators", count: 2 }]);
});

test("close() stops for good: the waiting reconnect is cancelled and no socket follows", () => {
  const { socket, clock, last } = start();
  last().drop();
  socket.close();
  assert.equal(clock.pending(), 0);
  assert.equal(socket.status, "closed");
  assert.equal(FakeSocket.made.length, 1);
});

test("ply names the match, the round and the draws made so far; no round before the first deal", () => {
  assert.deepEqual(ply({ match: { number: 2 }, round: { number: 3, draws: 7 } }), { match: 2, round: 3, draw: 7 });
  assert.deepEqual(ply({ match: { number: 1 }, round: null }), { match: 1, round: null, draw: null });
});
