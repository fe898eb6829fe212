import { counted } from "./words.js";

// Keeps the lobby live over /ws/lobby/: the open rooms, who waits at Play now for each
// game and size, and the public tables in play.
const body = document.getElementById("lobby-rooms");
const waitingList = document.getElementById("lobby-waiting");
const tablesList = document.getElementById("lobby-tables");
const labels = document.getElementById("lobby-labels").dataset;

// The socket sends the same language-neutral list to every page (variant keys); each
// page names the games in its own language, from the labels its template holds.
function variantName(key) {
  const words = key.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return labels[`variant${words.join("")}`] || key;
}

function row(room) {
  const tr = document.createElement("tr");
  tr.dataset.code = room.code;
  // The house rules as home.html names them (games.labels.house_rule_words), in its order.
  const rules = [];
  if (room.options.same_colour_pairs) rules.push(labels.sameColour);
  if (room.options.reverse) rules.push(labels.reverse);
  if (room.options.balanced_deal) rules.push(labels.balancedDeal);
  const cells = [variantName(room.variant), `${room.taken}/${room.seats}`, rules.join(" · "), room.host];
  cells.forEach((text, i) => {
    const td = document.createElement("td");
    td.textContent = text;
    if (i === 1) td.className = "num seats-cell"; // styling hooks, as in home.html
    tr.append(td);
  });
  const td = document.createElement("td");
  const a = document.createElement("a");
  a.href = `/r/${room.code}/`;
  a.className = "button small";
  a.textContent = labels.open;
  td.append(a);
  tr.append(td);
  return tr;
}

function render(rooms) {
  if (!rooms.length) {
    const tr = document.createElement("tr");
    tr.className = "empty";
    const td = document.createElement("td");
    td.colSpan = 5;
    td.textContent = labels.empty;
    tr.append(td);
    body.replaceChildren(tr);
    return;
  }
  body.replaceChildren(...rooms.map(row));
}

function item(className, children) {
  const li = document.createElement("li");
  if (className) li.className = className;
  li.append(...children);
  return li;
}

function span(text, className) {
  const el = document.createElement("span");
  if (className) el.className = className;
  el.textContent = text;
  return el;
}

function meta(...texts) {
  const el = span("", "meta");
  el.append(...texts.map((t) => span(t)));
  return el;
}

function renderWaiting(lines) {
  if (!waitingList) return;
  if (!lines.length) { waitingList.replaceChildren(item("empty", [labels.nobodyWaiting])); return; }
  waitingList.replaceChildren(...lines.map((line) => {
    const li = item("", [span(variantName(line.variant)), " ", meta(counted("players", { n: line.seats }, labels)), " ", span(counted("waiting", { n: line.waiting }, labels), "badge")]);
    li.dataset.line = `${line.variant}-${line.seats}`;
    return li;
  }));
}

function renderTables(tables) {
  if (!tablesList) return;
  if (!tables.length) { tablesList.replaceChildren(item("empty", [labels.noTables])); return; }
  tablesList.replaceChildren(...tables.map((table) => {
    const a = document.createElement("a");
    a.href = `/r/${table.code}/`;
    a.textContent = labels.watch.replace("{game}", variantName(table.variant));
    const li = item("", [a, " ", meta(counted("players", { n: table.seats }, labels), counted("people", { n: table.people }, labels))]);
    li.dataset.code = table.code;
    return li;
  }));
}

// Play now offers only the table sizes the chosen game is played at (the server checks).
const play = document.getElementById("play-now");
if (play) {
  const limits = JSON.parse(play.dataset.players);
  const game = play.elements.variant;
  const size = play.elements.seat_count;
  const sync = () => {
    const [low, high] = limits[game.value] || [0, Infinity];
    for (const option of size.options) option.disabled = +option.value < low || +option.value > high;
    if (+size.value < low) size.value = String(low);
    if (+size.value > high) size.value = String(high);
  };
  game.addEventListener("change", sync);
  sync();
}

let delay = 500;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.onopen = () => { delay = 500; };
  socket.onmessage = (e) => {
    const message = JSON.parse(e.data);
    if (message.type !== "lobby") return;
    render(message.rooms);
    renderWaiting(message.waiting || []);
    renderTables(message.tables || []);
  };
  socket.onclose = (e) => {
    // The server is restarting (4012, docs/protocol.md): reconnect now, no back-off.
    if (e.code === 4012) { setTimeout(connect, Math.random() * 250); return; }
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 10000);
  };
}
connect();
