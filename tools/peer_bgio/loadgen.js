'use strict';
// Load generator for the boardgame.io Old Maid server.
//
//   node loadgen.js --url http://127.0.0.1:8000 --matches 50 --mode saturate \
//        --warmup 2 --measure 8 --server-pid 1234 [--json out.json]
//   node loadgen.js ... --mode paced --pace 1000 --jitter 200
//   node loadgen.js ... --mode setup   (match turnover only: create, join 4,
//        connect 4 sockets, sync, disconnect; no draws)
//
// tools/peer_bgio additions (everything else as in ../shared/peer-bgio):
//   --url https://127.0.0.1:PORT --insecure   through the nginx TLS front,
//        accepting its self-signed certificate (lobby fetch and wss alike)
//   --nginx-pid PID        count nginx's CPU: that master and its workers
//   --postgres-db NAME     count PostgreSQL's CPU: the postmaster, its
//        background processes and the backends of database NAME (the same
//        rule as tools/bench_load.py's Groups)
//   --config a|b|c         written as "config" into the JSON
//   --serial-joins         join the four seats one after the other (needed
//        with bgio-postgres: see SERIAL_JOINS below)
// cpu_pct_of_one_core.server is then node + nginx + postgres, with the three
// parts under cpu_pct_of_one_core.node / .nginx / .postgres.
//
// Each slot: create a match through the lobby REST API (4 players), join the
// 4 seats (credentials), start 4 boardgame.io clients (boardgame.io/client +
// SocketIO transport, websocket only, one socket each), and whenever a seat's
// own client sees that it is the current player it calls moves.draw(position)
// (position uniform over the giver's card count): at once (saturate) or after
// pace +- jitter ms (paced).  When all 4 clients have seen gameover, the slot
// stops its 4 clients and starts a fresh match (new lobby match, new sockets).
//
// Latency of a draw: on this process's clock, from just before
// client.moves.draw() to the moment the LAST of the 4 clients' subscription
// callbacks sees a state whose _stateID includes that draw (the draw move is
// client:false, so the drawer's store only changes when the server's update
// arrives).  The measurement window starts `warmup` s after every slot has
// its first match running, and lasts `measure` s; draws are counted and
// latencies recorded for draws completed inside the window.
const fs = require('fs');
const { performance } = require('perf_hooks');
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { OldMaid, rankOf, JOKER } = require('./game');

// ---------------------------------------------------------------- options
const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a.startsWith('--')) {
    const k = a.slice(2);
    const v = process.argv[i + 1] && !process.argv[i + 1].startsWith('--') ? process.argv[++i] : 'true';
    args[k] = v;
  }
}
const URL_ = args.url || 'http://127.0.0.1:8000';
// peer_bgio: https allowed too (the nginx TLS front), still loopback only
if (!/^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\/?$/.test(URL_)) {
  console.error('refusing: --url must be a loopback address');
  process.exit(2);
}
const MATCHES = Number(args.matches || 10);
const MODE = args.mode || 'saturate';
const PACE = Number(args.pace || 1000);
const JITTER = Number(args.jitter || 0);
const WARMUP = Number(args.warmup || 2);
const MEASURE = Number(args.measure || 8);
const SETUP_LIMIT = Number(args['setup-limit'] || 60); // s for all slots to start
const SERVER_PID = args['server-pid'] ? Number(args['server-pid']) : null;
const JSON_OUT = args.json || null;
const LABEL = args.label || `${MODE}-${MATCHES}`;
const DRAW_TIMEOUT_MS = Number(args['draw-timeout'] || 10000);
const SETUP_CONCURRENCY = Number(args['setup-concurrency'] || 50);
const HARD_LIMIT_S = SETUP_LIMIT + WARMUP + MEASURE + 30;
// peer_bgio: the extra CPU groups and the self-signed certificate
const NGINX_PID = args['nginx-pid'] ? Number(args['nginx-pid']) : null;
const PG_DB = args['postgres-db'] || null;
const CONFIG = args.config || null;
// The lobby's join is a read-modify-write of the match's metadata with no
// lock: on an asynchronous store (bgio-postgres) four concurrent joins
// overwrite each other's seat and credentials, and the seats whose join was
// lost can never sync (their credentials are refused), so the match stalls.
// --serial-joins joins the four seats one after the other (as people joining
// from their own browsers would); the InMemory store needs no such care.
const SERIAL_JOINS = args['serial-joins'] === 'true';
const INSECURE = args.insecure === 'true';
if (INSECURE) {
  // Node's TLS default, read by both undici (LobbyClient's fetch) and ws
  // (socket.io-client's websocket transport); this process only.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
}

const GAME = 'oldmaid';
const lobby = new LobbyClient({ server: URL_ });
const CLK_TCK = 100; // getconf CLK_TCK on this machine

// ---------------------------------------------------------------- stats
const errors = {
  lobby: 0, // create/join HTTP failures
  connect: 0, // socket connect_error
  disconnect: 0, // unexpected socket disconnects
  drawTimeout: 0, // a draw not seen by all 4 seats within DRAW_TIMEOUT_MS
  matchStall: 0, // match aborted: no progress
  viewLeak: 0, // a client's state shows other seats' cards / inconsistent own hand
  badEnd: 0, // gameover state fails the end-of-round checks
  stateSkip: 0, // a seat saw a stateID jump over an update (missed a broadcast)
};
const latAll = []; // draw -> every seat (ms), in window
const latOwn = []; // draw -> drawer's own client (ms), in window
let drawsInWindow = 0;
let drawsTotal = 0;
let matchesDoneInWindow = 0;
let matchesDoneTotal = 0;
let matchesValid = 0;
let drawsPerMatch = [];
const setupMs = [];
const upd = { n: 0, bytes: 0, min: Infinity, max: 0, sample: null, sampleLate: null };
let wsMsgsInWindow = 0;
let setupsInWindow = 0; // --mode setup: matches created+joined+connected+synced
let wsBytesInWindow = 0;

let tStart = performance.now();
let windowStart = Infinity;
let windowEnd = Infinity;
let stopping = false;
const inWindow = (t) => t >= windowStart && t < windowEnd;

function readStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // f[11] = utime (field 14), f[12] = stime (field 15)
    return Number(f[11]) + Number(f[12]);
  } catch (e) {
    return null;
  }
}
function readRssMB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch (e) {
    return null;
  }
}
// peer_bgio: CPU ticks per process of each counted group, so that processes
// starting during the window (a new PostgreSQL backend) count from 0 and ones
// ending count up to their last 1-s sample.
function groupPids() {
  const g = { node: SERVER_PID ? [SERVER_PID] : [], nginx: [], postgres: [] };
  if (!NGINX_PID && !PG_DB) return g;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
      const ppid = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
      if (NGINX_PID && (pid === NGINX_PID || ppid === NGINX_PID) && comm.startsWith('nginx')) g.nginx.push(pid);
      else if (PG_DB && comm.startsWith('postgres')) {
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        const backend = cmd.includes('postgres: ') && cmd.includes('(');
        if (!backend || cmd.includes(` ${PG_DB} `)) g.postgres.push(pid);
      }
    } catch (e) {}
  }
  return g;
}
const groupTicks = { node: new Map(), nginx: new Map(), postgres: new Map() }; // pid -> {first, last}
function sampleGroups(first) {
  const g = groupPids();
  for (const k of Object.keys(groupTicks)) {
    for (const pid of g[k]) {
      const v = readStat(pid);
      if (v === null) continue;
      const e = groupTicks[k].get(pid);
      if (e) e.last = v;
      else groupTicks[k].set(pid, { first: first ? v : 0, last: v });
    }
  }
}
function groupSum(k) {
  let t = 0;
  for (const e of groupTicks[k].values()) t += e.last - e.first;
  return t;
}

function readProcStat() {
  const l = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = l[3] + l[4];
  const total = l.slice(0, 8).reduce((a, b) => a + b, 0);
  return { idle, total };
}
function cpuSnap() {
  return {
    t: performance.now(),
    srv: SERVER_PID ? readStat(SERVER_PID) : null,
    gen: readStat(process.pid),
    sys: readProcStat(),
  };
}
let snapA = null;
let snapB = null;
const cpuSeries = []; // per-second samples during the window

// ---------------------------------------------------------------- matches
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let activeSetups = 0;
const setupWaiters = [];
async function setupSlot() {
  if (activeSetups >= SETUP_CONCURRENCY) await new Promise((r) => setupWaiters.push(r));
  activeSetups++;
}
function setupDone() {
  activeSetups--;
  const w = setupWaiters.shift();
  if (w) w();
}

const liveMatches = new Set();
let slotsStarted = 0;
let firstAllStartedAt = null;

function validateView(M, p, st) {
  const G = st.G;
  if (!G || 'hands' in G || !Array.isArray(G.hand) || !Array.isArray(G.counts) || G.counts.length !== 4) {
    errors.viewLeak++;
    return false;
  }
  if (G.hand.length !== G.counts[p]) {
    errors.viewLeak++;
    return false;
  }
  const seen = new Set();
  for (const c of G.hand) {
    const r = rankOf(c);
    if (seen.has(r)) {
      errors.viewLeak++;
      return false;
    }
    seen.add(r);
  }
  return true;
}

function onState(M, p, st) {
  if (!st || M.finished) return;
  const now = performance.now();
  const sid = st._stateID;
  if (sid > M.seen[p]) {
    if (M.seen[p] >= 0 && sid > M.seen[p] + 1) errors.stateSkip++;
    M.seen[p] = sid;
    validateView(M, p, st);
    M.lastProgress = now;
    for (const [exp, d] of M.pending) {
      if (exp <= sid && d.seenAt[p] === 0) {
        d.seenAt[p] = now;
        d.count++;
        if (d.count === 4) {
          M.pending.delete(exp);
          drawsTotal++;
          if (inWindow(now)) {
            drawsInWindow++;
            latAll.push(now - d.t0);
            latOwn.push(d.seenAt[d.seat] - d.t0);
          }
        }
      }
    }
  }
  if (M.seen[p] >= 0 && !M.synced[p]) {
    M.synced[p] = true;
    M.nSynced++;
    if (M.nSynced === 4) {
      M.readyAt = now;
      setupMs.push(now - M.t0);
      M.onReady();
      if (MODE === 'setup') {
        // match-turnover cost only: no draws; count the set-up match and
        // tear it down at once (sockets closed), then the slot starts the next
        if (inWindow(now)) setupsInWindow++;
        setImmediate(() => finishMatch(M, false));
        return;
      }
      for (let q = 0; q < 4; q++) tryAct(M, q);
      return;
    }
  }
  if (st.ctx.gameover !== undefined) {
    if (!M.over[p]) {
      M.over[p] = true;
      M.nOver++;
      M.endViews[p] = st.G;
      if (M.nOver === 4) finishMatch(M, true);
    }
    return;
  }
  if (M.nSynced === 4) tryAct(M, p);
}

function tryAct(M, p) {
  const st = M.clients[p].getState();
  if (!st || M.finished || st.ctx.gameover !== undefined) return;
  if (st.ctx.currentPlayer !== String(p)) return;
  if (st._stateID <= M.lastActedSid) return;
  M.lastActedSid = st._stateID;
  const fire = () => {
    if (M.finished || stopping) return;
    const cur = M.clients[p].getState();
    if (!cur || cur._stateID !== st._stateID) return;
    const n = cur.G.counts[cur.G.giver];
    const pos = Math.floor(Math.random() * n);
    const d = { t0: performance.now(), seenAt: [0, 0, 0, 0], count: 0, seat: p };
    M.pending.set(st._stateID + 1, d);
    M.draws++;
    M.clients[p].moves.draw(pos);
  };
  if (MODE === 'paced') {
    const delay = PACE + (JITTER ? (Math.random() * 2 - 1) * JITTER : 0);
    M.timers.push(setTimeout(fire, delay));
  } else {
    setImmediate(fire);
  }
}

function checkEnd(M) {
  // every seat's final view: 52 cards in the pile as same-rank pairs, one seat
  // left with one card; the loser's own view shows exactly the joker.
  let ok = true;
  let loser = null;
  for (let p = 0; p < 4; p++) {
    const G = M.endViews[p];
    if (!G || G.discardPile.length !== 52) ok = false;
    else {
      for (let i = 0; i < 52; i += 2) if (rankOf(G.discardPile[i]) !== rankOf(G.discardPile[i + 1])) ok = false;
      if (G.counts.reduce((a, b) => a + b, 0) !== 1) ok = false;
      if (G.finishOrder.length !== 3) ok = false;
      if (loser === null) loser = G.loser;
      else if (loser !== G.loser) ok = false;
    }
  }
  if (ok) {
    const lv = M.endViews[loser];
    if (!(lv.hand.length === 1 && lv.hand[0] === JOKER)) ok = false;
    const perm = [...lv.finishOrder, loser].sort().join(',');
    if (perm !== '0,1,2,3') ok = false;
  }
  return ok;
}

function finishMatch(M, completed) {
  if (M.finished) return;
  M.finished = true;
  const now = performance.now();
  for (const t of M.timers) clearTimeout(t);
  if (completed) {
    matchesDoneTotal++;
    if (inWindow(now)) matchesDoneInWindow++;
    drawsPerMatch.push(M.draws);
    if (checkEnd(M)) matchesValid++;
    else errors.badEnd++;
  }
  for (const c of M.clients) {
    try {
      c.stop();
    } catch (e) {}
  }
  liveMatches.delete(M);
  M.resolve();
}

function attachSocketHooks(M, p, c) {
  const sock = c.transport.socket;
  sock.on('connect_error', () => {
    if (!M.finished && !stopping) {
      errors.connect++;
      finishMatch(M, false);
    }
  });
  sock.on('disconnect', (reason) => {
    if (!M.finished && !stopping) {
      errors.disconnect++;
      finishMatch(M, false);
    }
  });
  const eng = sock.io.engine;
  if (eng) {
    eng.on('data', (data) => {
      // engine.io hands over the packet without its 1-byte type prefix ('4' =
      // message); the websocket frame payload is that byte + this string.
      const len = 1 + (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength || 0);
      const now = performance.now();
      if (inWindow(now)) {
        wsMsgsInWindow++;
        wsBytesInWindow += len;
      }
      if (typeof data === 'string' && data.startsWith(`2/${GAME},["update"`)) {
        upd.n++;
        upd.bytes += len;
        if (len < upd.min) upd.min = len;
        if (len > upd.max) upd.max = len;
        if (!upd.sample && M.seen[p] >= 1) upd.sample = data;
        if (!upd.sampleLate && M.seen[p] >= 25) upd.sampleLate = data;
      }
    });
  }
}

async function playOneMatch(slot, onReadyOnce) {
  await setupSlot();
  const M = {
    slot,
    t0: performance.now(),
    clients: [],
    seen: [-1, -1, -1, -1],
    synced: [false, false, false, false],
    nSynced: 0,
    over: [false, false, false, false],
    nOver: 0,
    endViews: [null, null, null, null],
    pending: new Map(),
    lastActedSid: -1,
    draws: 0,
    timers: [],
    finished: false,
    lastProgress: performance.now(),
  };
  let setupReleased = false;
  const release = () => {
    if (!setupReleased) {
      setupReleased = true;
      setupDone();
    }
    if (onReadyOnce) onReadyOnce();
  };
  M.onReady = release;
  const done = new Promise((r) => (M.resolve = r));
  try {
    const { matchID } = await lobby.createMatch(GAME, { numPlayers: 4 });
    let joins;
    if (SERIAL_JOINS) {
      // peer_bgio: one join after the other (see --serial-joins)
      joins = [];
      for (let p = 0; p < 4; p++)
        joins.push(await lobby.joinMatch(GAME, matchID, { playerID: String(p), playerName: `bot${slot}-${p}` }));
    } else {
      joins = await Promise.all(
        [0, 1, 2, 3].map((p) =>
          lobby.joinMatch(GAME, matchID, { playerID: String(p), playerName: `bot${slot}-${p}` })
        )
      );
    }
    M.matchID = matchID;
    if (stopping) {
      release();
      return;
    }
    liveMatches.add(M);
    for (let p = 0; p < 4; p++) {
      const c = Client({
        game: OldMaid,
        numPlayers: 4,
        matchID,
        playerID: String(p),
        credentials: joins[p].playerCredentials,
        debug: false,
        multiplayer: SocketIO({
          server: URL_,
          // peer_bgio: engine.io-client sets rejectUnauthorized: true itself
          // (the environment variable does not reach its ws), hence the option
          socketOpts: { transports: ['websocket'], forceNew: true, reconnection: false, ...(INSECURE ? { rejectUnauthorized: false } : {}) },
        }),
      });
      M.clients.push(c);
      c.subscribe((st) => onState(M, p, st));
    }
    for (let p = 0; p < 4; p++) {
      M.clients[p].start();
      attachSocketHooks(M, p, M.clients[p]);
    }
  } catch (e) {
    errors.lobby++;
    if (process.env.DEBUG) console.error('setup error', e && e.message);
    release();
    liveMatches.delete(M);
    await sleep(200);
    return;
  }
  await done;
  release();
}

// watchdog: draw timeouts and stalled matches
const watchdog = setInterval(() => {
  const now = performance.now();
  for (const M of liveMatches) {
    if (M.finished) continue;
    for (const [, d] of M.pending) {
      if (now - d.t0 > DRAW_TIMEOUT_MS) {
        errors.drawTimeout++;
        finishMatch(M, false);
        break;
      }
    }
    if (!M.finished && now - M.lastProgress > DRAW_TIMEOUT_MS + (MODE === 'paced' ? PACE + JITTER : 0)) {
      errors.matchStall++;
      finishMatch(M, false);
    }
  }
}, 500);

function pct(arr, q) {
  if (arr.length === 0) return null;
  const s = Float64Array.from(arr).sort();
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
}

function breakdown(frame) {
  if (!frame) return null;
  const body = JSON.parse(frame.slice(frame.indexOf(',') + 1)); // after '2/oldmaid,'
  const [, matchID, state, log] = body;
  const sz = (x) => Buffer.byteLength(JSON.stringify(x === undefined ? null : x));
  const { G, ctx, plugins, ...rest } = state;
  return {
    frame_bytes: 1 + Buffer.byteLength(frame),
    G: sz(G),
    ctx: sz(ctx),
    plugins: sz(plugins),
    other_state_fields: sz(rest),
    deltalog: sz(log),
    stateID: state._stateID,
    example_G: G,
  };
}

async function main() {
  const loadAtStart = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const hard = setTimeout(() => {
    console.error('hard time limit reached');
    report(true);
    process.exit(3);
  }, HARD_LIMIT_S * 1000);
  hard.unref();

  // start all slots; each slot's first ready match (or failed attempt) resolves its promise
  const readyPromises = [];
  for (let s = 0; s < MATCHES; s++) {
    let resolveReady;
    readyPromises.push(new Promise((r) => (resolveReady = r)));
    (async () => {
      let first = resolveReady;
      while (!stopping) {
        await playOneMatch(s, first);
        first = null;
      }
    })();
  }
  const setupDeadline = sleep(SETUP_LIMIT * 1000).then(() => 'timeout');
  const r = await Promise.race([Promise.all(readyPromises).then(() => 'ok'), setupDeadline]);
  const allStarted = performance.now();
  const setupSeconds = (allStarted - tStart) / 1000;
  if (r !== 'ok') console.error('not every slot started within the setup limit');

  await sleep(WARMUP * 1000);
  windowStart = performance.now();
  windowEnd = windowStart + MEASURE * 1000;
  snapA = cpuSnap();
  sampleGroups(true);
  let prev = snapA;
  let prevG = { node: 0, nginx: 0, postgres: 0 };
  const sampler = setInterval(() => {
    sampleGroups(false);
    const s = cpuSnap();
    // peer_bgio: per second, node / nginx / postgres and their sum (srv)
    const g = { node: groupSum('node'), nginx: groupSum('nginx'), postgres: groupSum('postgres') };
    const pc = (k) => +((((g[k] - prevG[k]) / CLK_TCK) / ((s.t - prev.t) / 1000)) * 100).toFixed(1);
    const parts = { node: pc('node'), nginx: pc('nginx'), postgres: pc('postgres') };
    prevG = g;
    cpuSeries.push({
      t: +((s.t - windowStart) / 1000).toFixed(2),
      srv: +(parts.node + parts.nginx + parts.postgres).toFixed(1),
      ...parts,
      gen: +((((s.gen - prev.gen) / CLK_TCK) / ((s.t - prev.t) / 1000)) * 100).toFixed(1),
      live: liveMatches.size,
      playing: [...liveMatches].filter((M) => M.readyAt && !M.finished).length,
    });
    prev = s;
  }, 1000);
  await sleep(MEASURE * 1000);
  sampleGroups(false);
  snapB = cpuSnap();
  clearInterval(sampler);
  stopping = true;
  const out = report(false, { setupSeconds, loadAtStart });
  clearInterval(watchdog);
  for (const M of [...liveMatches]) finishMatch(M, false);
  await sleep(300);
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(out, null, 2));
  process.exit(0);
}

function report(partial, extra = {}) {
  const A = snapA || cpuSnap();
  const B = snapB || cpuSnap();
  const secs = (B.t - A.t) / 1000;
  const cpu = (a, b) => (a === null || b === null ? null : +((((b - a) / CLK_TCK) / secs) * 100).toFixed(1));
  const sysBusy = B.sys.total - A.sys.total > 0 ? 1 - (B.sys.idle - A.sys.idle) / (B.sys.total - A.sys.total) : null;
  // peer_bgio: server = node + nginx + postgres (ticks over the window)
  const part = (k) => (snapB ? +(((groupSum(k) / CLK_TCK) / secs) * 100).toFixed(1) : null);
  const nodeCpu = snapB ? part('node') : cpu(A.srv, B.srv);
  const nginxCpu = snapB ? part('nginx') : null;
  const pgCpu = snapB ? part('postgres') : null;
  const srvCpu = nodeCpu === null ? null : +(nodeCpu + (nginxCpu || 0) + (pgCpu || 0)).toFixed(1);
  const genCpu = cpu(A.gen, B.gen);
  const machineCpu = sysBusy === null ? null : +(sysBusy * 200).toFixed(1); // % of one core, 2 cores
  const out = {
    config: CONFIG, // peer_bgio: "a" | "b" | "c"
    serial_joins: SERIAL_JOINS,
    label: LABEL,
    mode: MODE,
    matches: MATCHES,
    pace_ms: MODE === 'paced' ? PACE : null,
    jitter_ms: MODE === 'paced' ? JITTER : null,
    warmup_s: WARMUP,
    window_s: +secs.toFixed(2),
    setup_s: extra.setupSeconds !== undefined ? +extra.setupSeconds.toFixed(2) : null,
    draws_in_window: drawsInWindow,
    setups_per_s: MODE === 'setup' ? +(setupsInWindow / secs).toFixed(1) : undefined,
    draws_per_s: +(drawsInWindow / secs).toFixed(1),
    lat_every_seat_ms: {
      p50: round(pct(latAll, 0.5)),
      p95: round(pct(latAll, 0.95)),
      p99: round(pct(latAll, 0.99)),
      max: round(pct(latAll, 1)),
      mean: round(latAll.length ? latAll.reduce((a, b) => a + b, 0) / latAll.length : null),
    },
    lat_drawer_own_ms: { p50: round(pct(latOwn, 0.5)), p99: round(pct(latOwn, 0.99)) },
    errors,
    errors_total: Object.values(errors).reduce((a, b) => a + b, 0),
    matches_completed_in_window: matchesDoneInWindow,
    matches_completed_total: matchesDoneTotal,
    matches_valid_total: matchesValid,
    mean_draws_per_match: drawsPerMatch.length ? +(drawsPerMatch.reduce((a, b) => a + b, 0) / drawsPerMatch.length).toFixed(1) : null,
    match_setup_ms: { p50: round(pct(setupMs, 0.5)), p95: round(pct(setupMs, 0.95)) },
    cpu_pct_of_one_core: { server: srvCpu, generator: genCpu, machine_total: machineCpu, other: machineCpu === null ? null : +(machineCpu - (srvCpu || 0) - (genCpu || 0)).toFixed(1), node: nodeCpu, nginx: nginxCpu, postgres: pgCpu },
    playing_matches_mean: cpuSeries.length ? +(cpuSeries.reduce((a, b) => a + b.playing, 0) / cpuSeries.length).toFixed(1) : null,
    cpu_series: cpuSeries,
    server_rss_mb_end: SERVER_PID ? readRssMB(SERVER_PID) : null,
    generator_rss_mb_end: readRssMB(process.pid),
    ws_frames_in_window_per_s: +(wsMsgsInWindow / secs).toFixed(1),
    ws_bytes_in_window_per_s: Math.round(wsBytesInWindow / secs),
    update_frame_bytes: { n: upd.n, mean: upd.n ? Math.round(upd.bytes / upd.n) : null, min: upd.n ? upd.min : null, max: upd.max || null },
    update_breakdown_early: breakdown(upd.sample),
    update_breakdown_late: breakdown(upd.sampleLate),
    update_frame_sample: upd.sampleLate ? '4' + upd.sampleLate : upd.sample ? '4' + upd.sample : null,
    loadavg_at_start: extra.loadAtStart || null,
    loadavg_at_end: fs.readFileSync('/proc/loadavg', 'utf8').trim(),
    partial,
  };
  const l = out.lat_every_seat_ms;
  console.log(
    `${LABEL}: matches=${MATCHES} draws/s=${out.draws_per_s} p50=${l.p50} p95=${l.p95} p99=${l.p99} ms ` +
      `errors=${out.errors_total} srvCPU=${srvCpu}% (node ${nodeCpu} nginx ${nginxCpu} pg ${pgCpu}) genCPU=${genCpu}% machine=${machineCpu}% ` +
      `matches_done=${matchesDoneInWindow} setup=${out.setup_s}s upd_bytes=${out.update_frame_bytes.mean}` +
      (MODE === 'setup' ? ` setups/s=${out.setups_per_s}` : '')
  );
  return out;
}
function round(x) {
  return x === null || x === undefined ? null : +x.toFixed(2);
}

main().catch((e) => {
  console.error('fatal', e);
  process.exit(1);
});
