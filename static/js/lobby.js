// Keeps the lobby's list of open rooms live over /ws/lobby/.
const body = document.getElementById("lobby-rooms");
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

let delay = 500;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.onopen = () => { delay = 500; };
  socket.onmessage = (e) => {
    const message = JSON.parse(e.data);
    if (message.type === "lobby") render(message.rooms);
  };
  socket.onclose = (e) => {
    // The server is restarting (4012, docs/protocol.md): reconnect now, no back-off.
    if (e.code === 4012) { setTimeout(connect, Math.random() * 250); return; }
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 10000);
  };
}
connect();
