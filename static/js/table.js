// The table: draws a room's state (sent by room.js as "table-state" events) as a
// CSS 3D table plus the button-controls panel, and sends draws and match actions.
// Every string comes from the template (#table-labels), so the page's language is used.

import * as telemetry from "./telemetry.js";
import {
  displayName as nameOf, ending, fill, playingSeats, seatName as nameAt, seatResult,
} from "./ending.js";

const L = document.getElementById("table-labels").dataset;
const $ = (id) => document.getElementById(id);
const colours = L.colours.split("|");
const suitNames = { S: 0, H: 1, D: 2, C: 3 };
const suitSymbols = { S: "♠", H: "♥", D: "♦", C: "♣" };
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

let state = null;
let selected = null; // position chosen in the giver's hand
let curtainFor = null; // same-device: the seat whose hand the curtain has revealed
let lastEventKey = null;
let firstRender = true;
// Seats this browser left to the computer: from the page (a reload), from the states (while
// the server still sends the seat) and from the "seat_left" event (when it sends the
// spectator view from then on).
const leftSeats = new Set(
  (document.getElementById("room")?.dataset.left || "").split(",").filter(Boolean).map(Number),
);

function send(message) {
  const socket = window.tableSocket;
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// An action names the move it answers, as this page saw it (docs/protocol.md): the match,
// for a draw or the next round also the round, and for a draw the draws made so far. So a
// presence change or a spectator never makes a click stale, and a double click is refused.
function action(type, extra = {}) {
  const payload = { type, match: state.match.number };
  if (type === "draw" || type === "next_round") payload.round = state.round.number;
  if (type === "draw") payload.draw = state.round.draws;
  return { ...payload, ...extra };
}

// -- names ----------------------------------------------------------------------------

function displayName(seat) {
  return nameOf(L, seat);
}

function seatName(index) {
  return nameAt(L, state, index);
}

function matchOver() {
  return Boolean(state.match && state.match.over);
}

// This browser left the match and plays no seat any more.
function youLeft() {
  return leftSeats.size > 0 && playingSeats(state).length === 0 && state.room.mode !== "same_device";
}

// Only a page that plays a seat of a match still in play gets the drawing controls.
function drawing() {
  return playingSeats(state).length > 0 && !matchOver() && !state.replay;
}

function cardParts(code) {
  if (code === "JK") return { rank: "★", suit: "", label: L.joker, cls: "joker" };
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  const peter = code === "JC" && state.room.variant === "schwarzer_peter";
  const suitName = L.suits.split("|")[suitNames[suit]];
  return {
    rank,
    suit,
    label: peter ? `${L.peter} (${rank} ${suitName})` : `${rank} ${suitName}`,
    cls: `${suit === "H" || suit === "D" ? "red" : "black"}${peter ? " peter" : ""}`,
  };
}

function cardLabel(code) {
  return cardParts(code).label;
}

function faceCard(code) {
  const parts = cardParts(code);
  const el = document.createElement("span");
  el.className = `card face ${parts.cls}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", parts.label);
  el.dataset.card = code;
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = `${parts.rank}${suitSymbols[parts.suit] || ""}`;
  const letter = document.createElement("span");
  letter.className = "suit-letter";
  letter.textContent = parts.suit;
  const middle = document.createElement("span");
  middle.className = "middle";
  middle.textContent = parts.cls.includes("peter") ? "🎩" : (suitSymbols[parts.suit] || "★");
  el.append(corner, middle, letter);
  return el;
}

function backCard() {
  const el = document.createElement("span");
  el.className = "card back";
  return el;
}

// -- rendering -------------------------------------------------------------------------

function myHandSeat() {
  const hands = state.round ? state.round.hands : {};
  if (state.room.mode === "same_device") {
    if (state.acting === null || curtainFor !== state.acting) return null;
    return state.acting;
  }
  const mine = playingSeats(state).find((s) => hands[String(s)] !== undefined);
  return mine === undefined ? null : mine;
}

function render() {
  const area = $("table-area");
  if (!state.round) return;
  area.hidden = false;
  renderNotice();
  renderCurtain();
  renderRing();
  renderPile();
  if (!handBusy) renderMyHand();
  renderGiver();
  renderStatus();
  renderSeatTable();
  renderRounds();
  renderResult();
  renderSeatActions();
  firstRender = false;
}

function renderNotice() {
  $("table-notice").hidden = !youLeft();
}

// Notes beside a seat's name: who plays it now, and how the match ended for it.
function seatNotes(seat) {
  const notes = [];
  if (seat.left) notes.push(L.left);
  else if (seat.covered) notes.push(L.covered);
  else if (seat.away) notes.push(L.away);
  const result = seatResult(L, state, seat.index);
  if (result) notes.push(result);
  return notes;
}

function renderRing() {
  const ring = $("seats-ring");
  ring.replaceChildren();
  const n = state.seats.length;
  // Seat 0's view from the near edge: rotate so that "my" seat sits at the bottom.
  const playing = playingSeats(state);
  const me = playing.length && state.room.mode !== "same_device" ? playing[0] : (state.acting ?? 0);
  for (const seat of state.seats) {
    const angle = ((seat.index - me) / n) * 2 * Math.PI;
    const x = 50 - 42 * Math.sin(angle);
    const y = 50 + 40 * Math.cos(angle);
    const spot = document.createElement("div");
    spot.className = `spot ${seat.colour}`;
    spot.style.left = `${x}%`;
    spot.style.top = `${y}%`;
    spot.dataset.seat = seat.index;
    const tag = document.createElement("div");
    tag.className = "name-tag";
    if (state.round.drawer === seat.index) tag.classList.add("acting");
    if (state.round.giver === seat.index) tag.classList.add("giving");
    const notes = seatNotes(seat);
    tag.innerHTML = "";
    const letter = document.createElement("span");
    letter.className = "letter";
    letter.textContent = colours[seat.index][0];
    const name = document.createElement("span");
    name.className = "who";
    name.textContent = displayName(seat);
    const info = document.createElement("span");
    info.className = "info";
    const place = seat.place ? ` · #${seat.place}` : "";
    info.textContent = `${fill(L.cards, { n: seat.count })}${place} · ${seat.score}${notes.length ? " · " + notes.join(", ") : ""}`;
    tag.append(letter, name, info);
    spot.append(tag);
    if (state.replay) {
      // A finished round's replay shows every hand face up.
      const faces = document.createElement("div");
      faces.className = "faces";
      for (const code of state.round.hands[String(seat.index)] || []) faces.append(faceCard(code));
      spot.append(faces);
    } else if (seat.index !== me || state.room.mode === "same_device") {
      const backs = document.createElement("div");
      backs.className = "backs";
      for (let i = 0; i < Math.min(seat.count, 12); i++) backs.append(backCard());
      spot.append(backs);
    }
    ring.append(spot);
  }
}

function renderPile() {
  const pile = $("pile");
  pile.replaceChildren();
  const pairs = state.round.discards.slice(-6);
  pairs.forEach(([a, b], i) => {
    const pair = document.createElement("span");
    pair.className = "pair";
    pair.style.setProperty("--i", i);
    pair.append(faceCard(a), faceCard(b));
    pile.append(pair);
  });
}

function renderMyHand() {
  const seat = myHandSeat();
  const cards = seat === null ? [] : state.round.hands[String(seat)] || [];
  const hand = $("my-hand");
  hand.replaceChildren(...cards.map(faceCard));
  const list = $("my-cards");
  list.replaceChildren(
    ...cards.map((code) => {
      const li = document.createElement("li");
      li.textContent = cardLabel(code);
      return li;
    }),
  );
  if (!cards.length) {
    const li = document.createElement("li");
    li.textContent = "–";
    list.append(li);
  }
}

function isMyTurn() {
  if (state.acting === null || !state.round || state.round.over || !drawing()) return false;
  return state.room.mode !== "same_device" || curtainFor === state.acting;
}

function renderGiver() {
  const big = $("giver-hand");
  const buttons = $("giver-buttons");
  const mine = isMyTurn();
  const giver = state.round.giver;
  const count = mine ? state.seats[giver].count : 0;
  if (selected !== null && selected >= count) selected = null;
  // Nobody draws once the match is over, and spectators never do: no controls at all then.
  const controls = drawing();
  $("giver-group").hidden = !controls;
  $("draw-button").hidden = !controls;
  $("draw-row").hidden = !controls;
  let label = "";
  if (mine) label = fill(L.giverCards, { giver: seatName(giver) });
  else if (controls) label = L.noGiver;
  $("giver-label").textContent = label;
  big.replaceChildren();
  big.classList.toggle("two-rows", count >= 8);
  const focused = document.activeElement && document.activeElement.dataset.position;
  buttons.replaceChildren();
  for (let i = 0; i < count; i++) {
    const card = backCard();
    card.dataset.position = i;
    if (selected === i) card.classList.add("selected");
    card.addEventListener("click", () => choose(i));
    big.append(card);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "giver-card";
    button.dataset.position = i;
    button.textContent = i + 1;
    button.setAttribute("aria-label", fill(L.faceDown, { n: i + 1, total: count }));
    button.setAttribute("aria-pressed", selected === i ? "true" : "false");
    button.tabIndex = (selected ?? 0) === i ? 0 : -1;
    button.addEventListener("click", () => choose(i));
    button.addEventListener("keydown", (e) => moveFocus(e, i, count));
    buttons.append(button);
  }
  if (focused !== undefined && focused !== null) {
    const again = buttons.querySelector(`[data-position="${Math.min(Number(focused), count - 1)}"]`);
    if (again) again.focus();
  }
  for (const id of ["draw-button", "draw-3d"]) $(id).disabled = !(mine && selected !== null);
}

function moveFocus(event, i, count) {
  let next = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") next = (i + 1) % count;
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = (i - 1 + count) % count;
  if (event.key === "Home") next = 0;
  if (event.key === "End") next = count - 1;
  if (next === null) return;
  event.preventDefault();
  const buttons = $("giver-buttons").children;
  for (const b of buttons) b.tabIndex = -1;
  buttons[next].tabIndex = 0;
  buttons[next].focus();
}

function choose(position) {
  if (!isMyTurn()) return;
  if (selected === position) {
    drawSelected();
    return;
  }
  selected = position;
  renderGiver();
}

function drawSelected() {
  if (!isMyTurn() || selected === null) return;
  send(action("draw", { position: selected }));
  selected = null;
  for (const id of ["draw-button", "draw-3d"]) $(id).disabled = true;
}

function renderStatus() {
  const r = state.round;
  let text;
  const end = ending(L, state);
  if (end) {
    text = end.text;
  } else if (r.over) {
    text = fill(L.roundOver, { n: r.number });
  } else if (isMyTurn()) {
    text = fill(L.yourTurn, { giver: seatName(r.giver), count: state.seats[r.giver].count });
  } else {
    const drawer = state.seats[r.drawer];
    const computer = drawer.kind === "computer" || drawer.covered || drawer.left;
    text = fill(computer ? L.computerTurn : L.theirTurn, { drawer: seatName(r.drawer), giver: seatName(r.giver) });
  }
  $("status-line").textContent = text;
}

function renderSeatTable() {
  const body = $("seat-table").tBodies[0];
  body.replaceChildren(
    ...state.seats.map((seat) => {
      const tr = document.createElement("tr");
      if (state.round.drawer === seat.index) tr.className = "acting";
      tr.dataset.seat = seat.index;
      const notes = seatNotes(seat);
      const name = notes.length ? `${seatName(seat.index)} · ${notes.join(", ")}` : seatName(seat.index);
      for (const text of [name, seat.count, seat.place ?? (seat.count ? "" : L.out), seat.score]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }),
  );
}

function renderRounds() {
  const list = $("round-list");
  const rounds = state.match ? state.match.rounds : [];
  list.replaceChildren(
    ...rounds.map((r) => {
      const li = document.createElement("li");
      li.textContent = (r.ranking || []).map((s) => colours[s]).join(" › ");
      return li;
    }),
  );
}

function renderResult() {
  const box = $("result");
  const r = state.round;
  const end = ending(L, state);
  if (!r.over && !end) {
    box.hidden = true;
    return;
  }
  const wasHidden = box.hidden;
  box.hidden = false;
  // A match can end in the middle of a round (a resignation, an abandoned room): the round
  // then has no ranking and no odd card to show.
  $("result-title").textContent = r.over ? fill(L.roundOver, { n: r.number }) : L.matchOverShort;
  const strikes = state.match && state.match.scoring === "strikes";
  const ranking = r.over ? r.ranking || [] : [];
  $("result-ranking").replaceChildren(
    ...(strikes ? [] : ranking).map((seat, i) => {
      const li = document.createElement("li");
      li.textContent = seatName(seat);
      li.value = i + 1;
      return li;
    }),
  );
  const holder = ranking[ranking.length - 1];
  const odd = holder !== undefined ? (r.hands[String(holder)] || [])[0] : null;
  let oddText = odd ? fill(L.holder, { seat: seatName(holder), card: cardLabel(odd) }) : "";
  if (r.removed && r.removed.length) oddText += " " + fill(L.removed, { card: cardLabel(r.removed[0]) });
  $("result-odd").textContent = oddText;
  $("result-match").textContent = end ? end.text : "";
  const actions = $("result-actions");
  actions.replaceChildren();
  // Only players who still play a seat go on: a rematch once the match is over, else the
  // next round. Spectators and players who left get no button.
  if (playingSeats(state).length && !state.replay) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary";
    if (end) {
      button.textContent = L.rematch;
      button.addEventListener("click", () => send(action("rematch")));
    } else {
      button.textContent = L.nextRound;
      button.addEventListener("click", () => send(action("next_round")));
    }
    actions.append(button);
  }
  // Move focus to the result when it appears during play, not when a page opens on it.
  if (wasHidden && !firstRender) box.focus();
}

function renderSeatActions() {
  const box = $("seat-actions");
  box.replaceChildren();
  if (!drawing() || state.room.status !== "playing" || state.room.mode === "same_device") return;
  const two = state.seats.length === 2;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = two ? L.resign : L.leave;
  button.addEventListener("click", () => {
    if (window.confirm(two ? L.confirmResign : L.confirmLeave)) {
      send(action(two ? "resign" : "leave"));
    }
  });
  box.append(button);
}

function renderCurtain() {
  const curtain = $("curtain");
  const needed = state.room.mode === "same_device" && state.acting !== null && curtainFor !== state.acting
    && !state.round.over;
  curtain.hidden = !needed;
  if (!needed) return;
  const who = colours[state.acting];
  $("curtain-text").textContent = fill(L.curtain, { seat: who });
  $("curtain-button").textContent = fill(L.curtainButton, { seat: who });
}

// -- announcements ------------------------------------------------------------------------

function announce(text) {
  const el = $("announcer");
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 30);
}

function describe(event) {
  const visibleCard = event.card ? cardLabel(event.card) : null;
  const playing = playingSeats(state);
  const mine = playing.includes(event.drawer) && state.room.mode !== "same_device";
  let text;
  if (mine) {
    const rank = event.discarded ? event.card.slice(0, -1) : "";
    text = fill(event.paired ? L.youPaired : L.youDrew, { card: visibleCard, giver: seatName(event.giver), rank });
  } else if (playing.includes(event.giver) && visibleCard && state.room.mode !== "same_device") {
    text = fill(L.drewFromYou, { drawer: seatName(event.drawer), card: visibleCard });
  } else if (event.paired) {
    text = fill(L.drewPaired, {
      drawer: seatName(event.drawer), giver: seatName(event.giver),
      pair: event.discarded.map(cardLabel).join(" + "),
    });
  } else {
    text = fill(L.drew, { drawer: seatName(event.drawer), giver: seatName(event.giver) });
  }
  for (const seat of event.finished) text += " " + fill(L.finished, { seat: seatName(seat) });
  return text;
}

function animateDraw(event) {
  if (reducedMotion) return;
  const from = document.querySelector(`.spot[data-seat="${event.giver}"]`);
  const to = document.querySelector(`.spot[data-seat="${event.drawer}"]`);
  const stage = $("table-wrap");
  if (!from || !to) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const box = stage.getBoundingClientRect();
  const flying = event.card && (state.you.includes(event.drawer) || event.paired) ? faceCard(event.card) : backCard();
  flying.classList.add("flying");
  flying.style.left = `${a.left - box.left + a.width / 2}px`;
  flying.style.top = `${a.top - box.top + a.height / 2}px`;
  stage.append(flying);
  requestAnimationFrame(() => {
    flying.style.transform = `translate(${b.left - a.left}px, ${b.top - a.top}px)`;
  });
  setTimeout(() => flying.remove(), 650);
}

// The player's own draw, as RULES.md 2.9 tells it: the drawn card shows at the right end of
// the hand, then a pair leaves for the middle, then the hand is shuffled, visibly. A card
// drawn from the player visibly leaves the hand first.
let handBusy = false; // while true, renders leave the hand to the running sequence

function playHandSequence(previous, event) {
  if (reducedMotion || handBusy || !previous || !previous.round) return;
  const seat = myHandSeat();
  if (seat === null) return;
  const before = previous.round.hands[String(seat)];
  const mine = event.drawer === seat && event.card;
  if (!before || !(mine || event.giver === seat)) return;
  const hand = $("my-hand");
  const cards = before.map(faceCard);
  handBusy = true;
  const finish = (shuffle) => {
    handBusy = false;
    renderMyHand(); // the latest state, whatever happened meanwhile
    if (!shuffle) return;
    hand.classList.add("shuffling");
    setTimeout(() => hand.classList.remove("shuffling"), 450);
  };
  if (mine) {
    const arrived = faceCard(event.card);
    arrived.classList.add("arrived");
    hand.replaceChildren(...cards, arrived);
    if (event.paired) {
      setTimeout(() => {
        for (const el of hand.querySelectorAll(".card")) {
          if (event.discarded.includes(el.dataset.card)) el.classList.add("to-pile");
        }
      }, 500);
    }
    setTimeout(() => finish(true), event.paired ? 1000 : 600);
  } else {
    if (cards[event.position]) cards[event.position].classList.add("taken");
    hand.replaceChildren(...cards);
    setTimeout(() => finish(false), 500);
  }
}

// -- wiring -----------------------------------------------------------------------------------

// -- telemetry: what kind of games are finished, and where things fail -----------------

const startedAt = Date.now();
let reportedMatch = null;

function gameFields() {
  const rules = state.room.rules || {};
  const length = rules.scoring === "points" ? String(rules.rounds) : (rules.single_round ? "single" : "strikes");
  return {
    variant: state.room.variant, mode: state.room.mode,
    level: state.room.mode === "computer" ? state.room.computer_level : "none",
    seats: String(state.room.seat_count), match_length: length,
    jiji: state.room.variant === "jijinuki" ? "yes" : "no",
  };
}

function reportGame(previous) {
  if (state.replay || !state.match || !state.you.length) return;
  const key = `${state.room.code}/${state.match.number}`;
  if (!previous && state.match.rounds.length === 0 && state.round && state.round.draws === 0) {
    telemetry.send("game_started", gameFields());
  } else if (state.event && state.event.kind === "match_started") {
    telemetry.send("game_started", gameFields());
  }
  if (state.match.over && reportedMatch !== key && previous && !previous.match?.over) {
    reportedMatch = key;
    const mine = state.you[0];
    let result = "placed";
    if (state.match.ended_by) result = "abandoned";
    else if ((state.match.winners || []).includes(mine)) result = "won";
    else if ((state.match.losers || []).includes(mine)) result = "lost";
    const minutes = (Date.now() - startedAt) / 60000;
    const draws = state.round ? state.round.draws : 0;
    telemetry.send("game_finished", { ...gameFields(), result,
      duration: minutes < 1 ? "<1m" : minutes < 3 ? "1-3m" : minutes < 10 ? "3-10m" : minutes < 30 ? "10-30m" : ">30m",
      draws: draws < 20 ? "<20" : draws < 50 ? "20-50" : draws < 100 ? "50-100" : ">100" });
  }
}

let pendingConnection = null; // the socket may open before the first state arrives

function reportConnection(detail) {
  if (!state) { pendingConnection = detail; return; }
  if (state.room.mode !== "friends" || state.replay) return;
  telemetry.send("connection", { ...gameFields(), connected: detail.ok ? "yes" : "no",
    reconnects: Math.min(detail.reconnects, 50) });
}
document.addEventListener("table-connection", (e) => reportConnection(e.detail));

document.addEventListener("table-state", (e) => {
  const previous = state;
  state = e.detail;
  if (previous && previous.version !== state.version) selected = null;
  const event = state.event;
  for (const s of state.you) if (state.seats[s] && state.seats[s].left) leftSeats.add(s);
  if (event && event.kind === "seat_left" && previous) {
    for (const s of event.seats || []) if (previous.you.includes(s)) leftSeats.add(s);
  }
  const key = event ? `${state.version}` : null;
  render();
  if (!state.replay) showSpectators(state.spectators || 0);
  if (!previous && !state.replay) reportEnvironment();
  if (!previous && pendingConnection) { reportConnection(pendingConnection); pendingConnection = null; }
  reportGame(previous);
  if (event && key !== lastEventKey && previous) {
    lastEventKey = key;
    if (event.kind === "draw") {
      animateDraw(event);
      playHandSequence(previous, event);
      const text = describe(event);
      $("last-move").textContent = text;
      announce(text);
    }
    if (state.round && state.round.over && event.kind === "draw") {
      announce(`${describe(event)} ${$("result-odd").textContent} ${$("result-match").textContent}`);
    } else if (event.kind === "seat_left") {
      const text = youLeft() && (event.seats || []).every((s) => leftSeats.has(s))
        ? L.youLeft
        : (event.seats || []).map((s) => fill(L.seatLeft, { seat: seatName(s) })).join(" ");
      $("last-move").textContent = text;
      announce(text);
    }
  }
  // A match that ends without a last draw (a resignation, an abandoned room) says so too.
  const end = ending(L, state);
  if (end && previous && previous.match && !previous.match.over && previous.match.number === state.match.number
      && !(event && event.kind === "draw")) {
    $("last-move").textContent = end.cause || end.outcome;
    announce(end.text);
  }
});

function showSpectators(count) {
  const el = $("spectators");
  el.hidden = !count;
  el.textContent = fill(L.spectators, { n: count });
}

document.addEventListener("table-message", (e) => {
  const message = e.detail;
  if (message.type === "spectators") {
    showSpectators(message.count);
    return;
  }
  if (message.type === "error" && message.code === "stale_version") announce(L.errorStale);
  else if (message.type === "error") announce(message.message);
});

for (const id of ["draw-button", "draw-3d"]) $(id).addEventListener("click", drawSelected);
$("curtain-button").addEventListener("click", () => {
  curtainFor = state.acting;
  render();
  $("giver-buttons").querySelector("button")?.focus();
});
for (const button of document.querySelectorAll(".view-switch button")) {
  button.addEventListener("click", () => {
    $("table-wrap").dataset.view = button.dataset.view;
    for (const b of document.querySelectorAll(".view-switch button")) {
      b.setAttribute("aria-pressed", b === button ? "true" : "false");
    }
  });
}

// Dragging the table turns the view a little.
(() => {
  const stage = $("stage");
  let start = null;
  stage.addEventListener("pointerdown", (e) => { start = e.clientX; });
  window.addEventListener("pointerup", () => { start = null; });
  window.addEventListener("pointermove", (e) => {
    if (start === null) return;
    const turn = Math.max(-20, Math.min(20, (e.clientX - start) / 8));
    stage.style.setProperty("--turn", `${turn}deg`);
  });
})();

// 3D where the browser has it; otherwise (or on request: ?flat=1) a flat table that plays the same.
function chooseMode() {
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
  fellBack = !ok && !forced;
}
let fellBack = false;
chooseMode();

// Once per page: whether 3D failed, and how fast the page draws (frames per second).
function reportEnvironment() {
  if (fellBack) telemetry.send("view_3d_failed", gameFields());
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
