// The room page: live seats, status and rounds played from the table's states, and the
// invitation link. It opens the room's socket (table/socket.js) once its listeners are in.
import { ending } from "./ending.js";
import "./speed.js"; // the computer's pace, in the table's settings
import { openTable } from "./table/socket.js";
import { seatName, seatWhat } from "./words.js";

const root = document.getElementById("room");
const labels = document.getElementById("room-labels").dataset;
const seatsList = document.getElementById("seats");
const statusLine = document.getElementById("room-status");
const tableLabels = document.getElementById("table-labels").dataset;

function renderSeats(state) {
  for (const seat of state.seats) {
    let item = seatsList.querySelector(`[data-seat="${seat.index}"]`);
    if (!item) continue;
    // As the server wrote it (the seat_name tag): the short name, then "computer · easy"
    // and how the seat is played on a second line.
    const notes = [];
    if (state.you.includes(seat.index)) notes.push(labels.you);
    if (seat.left || seat.left_before) notes.push(labels.left);
    else if (seat.covered) notes.push(labels.covered);
    else if (seat.away) notes.push(labels.away);
    item.querySelector(".seat-name").textContent = seat.kind === "empty" ? labels.empty : seatName(seat, state.room);
    showSecondLine(item.querySelector(".seat-words"), [seatWhat(seat, state.room), ...notes].filter(Boolean).join(" · "));
    item.dataset.kind = seat.kind;
    syncRemoveButton(item, seat, state);
  }
  // "Finished", with what ended the match: the table below tells the same ending.
  const end = state.room.status === "finished" ? ending(tableLabels, state) : null;
  const status = labels[state.room.status] || state.room.status;
  statusLine.textContent = end ? `${status} · ${end.cause || end.outcome}` : status;
  refreshHistory(state);
  syncBotInvites(state);
  syncWait(state);
  if (state.room.status !== "waiting") {
    for (const el of document.querySelectorAll(".host-controls, .invite, .seats form")) el.remove();
    document.getElementById("seats-section")?.setAttribute("hidden", "");
    // The link to watch sat beside the invitation; it stays, below the table.
    document.getElementById("watch-section")?.removeAttribute("hidden");
  }
}

// A waiting public table (Play now) counts down to its start, on the server's clock: the
// page was rendered with the server's time, and each state says when the table starts.
const wait = document.getElementById("public-wait");
const clockOffset = wait ? Number(wait.dataset.serverNow) - Date.now() : 0;
let startsAt = wait && wait.dataset.startsAt ? Number(wait.dataset.startsAt) : null;
let ticking = null;

function tick() {
  const line = document.getElementById("starts-in");
  if (!line) return;
  if (startsAt === null) { line.textContent = ""; return; }
  const seconds = Math.max(0, Math.ceil((startsAt - (Date.now() + clockOffset)) / 1000));
  line.textContent = line.dataset.label.replace("{seconds}", String(seconds));
}

function syncWait(state) {
  if (!wait) return;
  if (state.room.status !== "waiting") {
    wait.remove();
    clearInterval(ticking);
    return;
  }
  startsAt = state.room.starts_at ? state.room.starts_at * 1000 : null;
  tick();
}
if (wait) { tick(); ticking = setInterval(tick, 250); }

// The host's "Invite a bot" (docs/bots.md): a bot that sat down is no longer waited for
// nor offered, and with no empty seat left there is nothing to invite to.
function syncBotInvites(state) {
  const seated = new Set(state.seats.filter((s) => s.bot).map((s) => s.name));
  for (const line of document.querySelectorAll(".bot-invites li[data-bot]")) {
    if (seated.has(line.dataset.bot)) line.remove();
  }
  const choice = document.getElementById("invite-bot");
  if (!choice) return;
  for (const option of [...choice.options]) if (seated.has(option.value)) option.remove();
  const form = choice.closest("form");
  form.hidden = !choice.options.length || !state.seats.some((s) => s.kind === "empty");
}

function showSecondLine(words, text) {
  let what = words.querySelector(".seat-what");
  if (!text) { what?.remove(); return; }
  if (!what) {
    what = document.createElement("span");
    what.className = "seat-what";
    words.append(" ", what);
  }
  what.textContent = text;
}

// "Rounds played" is rendered by the server (replay links, draw counts); fetch it again
// whenever the state shows a round or a match ended that the rendered list does not have.
let historyWanted = null;
function historyKey(state) {
  const m = state.match;
  return m ? `${m.number}/${m.rounds.length}/${m.over ? 1 : 0}` : "";
}

async function refreshHistory(state) {
  const key = historyKey(state);
  const current = document.getElementById("history");
  if (!current || current.dataset.key === key || historyWanted === key) return;
  historyWanted = key;
  const query = root.dataset.token ? `?t=${encodeURIComponent(root.dataset.token)}` : "";
  try {
    const response = await fetch(`/r/${root.dataset.code}/history/${query}`);
    if (!response.ok) throw new Error(response.status);
    const html = await response.text();
    if (historyWanted !== key) return; // a newer state asked for a newer list meanwhile
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.firstElementChild;
    if (fresh) document.getElementById("history").replaceWith(fresh);
  } catch {
    historyWanted = null; // try again with the next state
  }
}

// The host may free a waiting player's seat; players who join live get the button too.
function syncRemoveButton(item, seat, state) {
  const wanted = root.dataset.host === "1" && state.room.status === "waiting"
    && seat.kind === "human" && seat.index !== state.host;
  const form = item.querySelector("form");
  if (!wanted) { form?.remove(); return; }
  if (form) return;
  const added = document.createElement("form");
  added.method = "post";
  added.className = "inline";
  added.action = `/r/${root.dataset.code}/remove/${seat.index}/`;
  const csrf = document.createElement("input");
  csrf.type = "hidden";
  csrf.name = "csrfmiddlewaretoken";
  csrf.value = root.dataset.csrf;
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "small";
  button.textContent = `${labels.remove} ${seat.name}`;
  added.append(csrf, button);
  item.append(added);
}

// The room's socket is the table's (table/socket.js); the seat list is one more listener
// of the states it receives. A socket refused for good says why here.
document.addEventListener("table-state", (e) => renderSeats(e.detail));
document.addEventListener("table-socket", (e) => {
  const refusals = { 4404: labels.noRoom, 4403: labels.notAllowed, 4429: labels.closed };
  const { status, code } = e.detail;
  if (status === "closed" && code in refusals) statusLine.textContent = refusals[code];
});
openTable(root.dataset.code, root.dataset.token);

const link = document.getElementById("invite-link");
const share = document.getElementById("share-link");
if (share && link && navigator.share) {
  share.hidden = false;
  share.addEventListener("click", () => {
    navigator.share({ title: share.dataset.title, url: link.value }).catch(() => {});
  });
}
