// The replay page: every stored step of a finished round, drawn by the table's own
// renderer (table.js) from a view with every hand face up, with play/pause, speed,
// stepping, jumping and a move list; and the deal checked in the browser. Each step's
// marks (games/engine/marks.py: where a computer hid the odd card, the face it would have
// shown at each card) go to the table as badges (round.marks) and to the move list in words.
import { cardName } from "./cards.js";
import { verifyDeal } from "./verify.js";
import { computerParts, fill, sentences } from "./words.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const L = document.getElementById("table-labels").dataset;
const CL = document.getElementById("card-labels").dataset;
const ML = document.getElementById("replay-marks").dataset;
const $ = (id) => document.getElementById(id);
const last = data.steps.length - 1;
let position = 0;
let timer = null;

// One short name per seat, as on the table (its colour is the chip in the seats table).
const seatName = (i) => data.seats[i].name;
const face = (code) => cardName(code, { variant: data.variant, L: CL });
const pair = (a, b) => (CL.pair || "{first} + {second}").replace("{first}", face(a)).replace("{second}", face(b));

const WORRIED = "worried";
const level = data.level ? computerParts(0, data.level).what : "";

/** A step's marks as badges on the cards they mark: "hid" where a computer put the odd
 * card; "tell" and "bluff" where its face would have looked worried (at the odd card, or
 * at another). */
function badges(step) {
  const found = [];
  for (const m of step.marks) {
    if (m.kind === "hid") found.push({ seat: m.seat, position: m.position, kind: "hid" });
    if (m.kind !== "face") continue;
    m.faces.forEach((f, p) => {
      if (f !== WORRIED) return;
      found.push({ seat: m.seat, position: p, kind: p === m.position ? "tell" : "bluff" });
    });
  }
  return found;
}

/** A step's marks in words, one line each. */
function markLines(step) {
  const lines = [];
  for (const m of step.marks) {
    const values = { seat: seatName(m.seat), level, card: face(m.card), position: m.position + 1 };
    if (m.kind === "hid") {
      lines.push({ kind: "hid", text: fill(m.habit ? ML.hidHabit : ML.hidShuffled, values) });
      continue;
    }
    if (m.faces.every((f) => f === null)) {
      lines.push({ kind: "nothing", text: fill(ML.faceNothing, values) });
      continue;
    }
    const tell = m.faces[m.position] === WORRIED;
    lines.push({ kind: tell ? "tell" : "calm", text: fill(tell ? ML.faceTell : ML.faceCalm, values) });
    m.faces.forEach((f, p) => {
      if (f === WORRIED && p !== m.position) {
        lines.push({ kind: "bluff", text: fill(ML.faceBluff, { ...values, position: p + 1 }) });
      }
    });
  }
  return lines;
}

function viewAt(k) {
  const step = data.steps[k];
  const over = k === last;
  const places = new Map(step.finish_order.map((seat, i) => [seat, i + 1]));
  const hands = Object.fromEntries(step.hands.map((h, i) => [String(i), h]));
  const draw = step.draw;
  return {
    type: "state", version: k, replay: true, you: [], acting: null, match: null,
    room: { code: "", variant: data.variant, mode: "replay", status: over ? "finished" : "playing",
      computer_level: data.level,
      seat_count: data.players, options: data.options,
      // Loser-only games keep score in strikes (the server says): the table then shows no places.
      rules: { scoring: data.scoring, single_round: true,
        reverse: Boolean(data.options && data.options.reverse) } },
    seats: data.seats.map((s, i) => ({ index: i, colour: s.colour, name: s.name, kind: s.kind === "computer" ? "computer" : "human",
      covered: false, left: false, away: false, bot: Boolean(s.bot), played_by_computer: false, count: step.hands[i].length,
      place: places.get(i) ?? null, score: 0 })),
    round: { number: data.round, dealer: data.dealer, over, draws: k, drawer: step.drawer,
      giver: step.giver, discards: step.discards, hands, removed: over ? data.removed : null,
      ranking: over ? data.ranking : null, commitment: data.commitment,
      seed: over ? data.seed : null, dealt: null, marks: badges(step) },
    event: draw ? { ...draw, kind: "draw", paired: Boolean(draw.paired_with),
      discarded: draw.paired_with ? [draw.paired_with, draw.card] : null } : null,
  };
}

function moveText(k) {
  const draw = data.steps[k].draw;
  if (!draw) return $("move-list").dataset.deal;
  const values = { drawer: seatName(draw.drawer), giver: seatName(draw.giver), card: face(draw.card),
    position: draw.position + 1,
    pair: draw.paired_with ? pair(draw.paired_with, draw.card) : "" };
  const text = fill(draw.paired_with ? L.replayPaired : L.replayDrew, values);
  return sentences(text, ...draw.finished.map((seat) => fill(L.finished, { seat: seatName(seat) })));
}

function show(k) {
  position = Math.max(0, Math.min(last, k));
  document.dispatchEvent(new CustomEvent("table-state", { detail: viewAt(position) }));
  $("replay-jump").value = position;
  $("replay-position").textContent = `${position} / ${last}`;
  for (const item of $("move-list").children) {
    const current = Number(item.dataset.step) === position;
    if (current) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
    // Keep the current move in sight inside the list, without scrolling the page.
    const list = $("move-list");
    if (current && list.scrollHeight > list.clientHeight) {
      // With its marks' lines: centred in the list, or from its top when taller than it.
      list.scrollTop = item.offsetTop - list.offsetTop - Math.max(0, (list.clientHeight - item.offsetHeight) / 2);
    }
  }
  if (position === last) stop();
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("replay-play").textContent = $("replay-play").dataset.play;
}

function play() {
  if (timer) { stop(); return; }
  if (position === last) show(0);
  $("replay-play").textContent = $("replay-play").dataset.pause;
  timer = setInterval(() => show(position + 1), Number($("replay-speed").value));
}

// The move list: every step as a button to jump to it.
$("move-list").replaceChildren(...data.steps.map((_, k) => {
  const li = document.createElement("li");
  li.dataset.step = k;
  li.value = k;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "link";
  button.textContent = moveText(k);
  button.addEventListener("click", () => { stop(); show(k); });
  li.append(button);
  for (const line of markLines(data.steps[k])) {
    const note = document.createElement("span");
    note.className = `mark-line ${line.kind}`;
    note.textContent = line.text;
    li.append(note);
  }
  return li;
}));

$("replay-jump").max = last;
$("replay-jump").addEventListener("input", (e) => { stop(); show(Number(e.target.value)); });
$("replay-start").addEventListener("click", () => { stop(); show(0); });
$("replay-end").addEventListener("click", () => { stop(); show(last); });
$("replay-back").addEventListener("click", () => { stop(); show(position - 1); });
$("replay-forward").addEventListener("click", () => { stop(); show(position + 1); });
$("replay-play").addEventListener("click", play);
$("replay-speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
document.getElementById("table-area").classList.add("replay");
// The badges keep one size on screen however table.js scales the table's view.
const view = $("view");
new MutationObserver(() => {
  const scale = /scale\(([\d.e-]+)\)/.exec(view.style.transform);
  $("seats-ring").style.setProperty("--view-scale", scale ? scale[1] : "1");
}).observe(view, { attributes: true, attributeFilter: ["style"] });
show(0);

const status = $("verify-status");
verifyDeal(data).then((result) => {
  status.textContent = status.dataset[result];
  status.dataset.result = result;
}).catch(() => {
  status.textContent = status.dataset.failed;
  status.dataset.result = "failed";
});
