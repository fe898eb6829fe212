// The words and buttons around the table: the status line, the seats table and the
// rounds, the result box with its standings and next step, leaving or resigning, the same
// device's curtain, the last move, and the spectators count.

import { ending, isYou, placeName, playingSeats, plural, roundVerdict, seatResult, standings } from "../ending.js";
import { counted, fill, seatWhat, sentences } from "../words.js";
import { action, send } from "./actions.js";
import { $, colours, L, letters } from "./page.js";
import { fitLine, place } from "./placement.js";
import { computerStandsIn, presenceNotes, strikeMarks } from "./tags.js";
import { curtainNeeded, drawing, isMyTurn, oddCard, view } from "./view.js";
import { nameCard, seatName, strikes } from "./words.js";

// Notes beside a seat's name in the panel: who plays it now, and how the match ended for
// it (the name tag tells only the round: the banner and the standings tell the match).
function seatNotes(seat) {
  const notes = presenceNotes(seat);
  const result = seatResult(L, view.state, seat.index);
  if (result) notes.push(result);
  return notes;
}

export function renderStatus() {
  const r = view.state.round;
  let text;
  const end = ending(L, view.state);
  if (end) {
    text = end.text;
  } else if (r.over) {
    text = fill(L.roundOver, { n: r.number });
  } else if (view.offline) {
    text = L.reconnecting; // nothing can be chosen until the socket is back (table/connection.js)
  } else if (isMyTurn()) {
    text = counted("yourTurn", { giver: seatName(r.giver), n: view.state.seats[r.giver].count });
  } else {
    const drawer = view.state.seats[r.drawer];
    // Drawing from you: said to you ("… is drawing from you"), not of "Ann (you)".
    const turn = computerStandsIn(drawer) ? L.computerTurn : isYou(view.state, r.giver) ? L.theirTurnFromYou : L.theirTurn;
    text = fill(turn, { drawer: seatName(r.drawer), giver: seatName(r.giver) });
  }
  const line = $("status-line");
  line.textContent = text;
  line.classList.toggle("mine", isMyTurn() && !view.offline);
}

export function renderPanel() {
  const table = $("seat-table");
  const head = table.tHead.rows[0];
  // A single round keeps no score: no points or strikes column then.
  const single = Boolean((view.state.room.rules || {}).single_round) || !view.state.match;
  const columns = strikes() ? [L.seatCol, L.cardsCol, L.strikesCol] : [L.seatCol, L.cardsCol, L.placeCol, L.pointsCol];
  if (single) columns.pop();
  if (head.dataset.columns !== columns.join("|")) {
    head.dataset.columns = columns.join("|");
    head.replaceChildren(...columns.map((text) => {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      return th;
    }));
  }
  table.tBodies[0].replaceChildren(
    ...view.state.seats.map((seat) => {
      const tr = document.createElement("tr");
      if (!view.state.round.over && view.state.round.drawer === seat.index) tr.className = "acting";
      tr.dataset.seat = seat.index;
      const cells = strikes()
        ? [seatCell(seat), seat.count, seat.score]
        : [seatCell(seat), seat.count, seat.place ? placeName(L, seat.place) : (seat.count ? "" : L.out), seat.score];
      if (single) cells.pop();
      for (const content of cells) {
        const td = document.createElement("td");
        td.append(content);
        tr.append(td);
      }
      return tr;
    }),
  );
  const list = $("round-list");
  const rounds = view.state.match ? view.state.match.rounds : [];
  list.replaceChildren(
    ...rounds.map((r) => {
      const li = document.createElement("li");
      if (strikes()) {
        li.textContent = r.holder !== null && r.holder !== undefined ? fill(L.roundHolder, { seat: seatName(r.holder) }) : "–";
      } else {
        li.textContent = (r.ranking || []).map((s, i) => `${placeName(L, i + 1)} ${seatName(s)}`).join(" › ");
      }
      return li;
    }),
  );
  $("rounds-title").hidden = !rounds.length;
  const spectator = !playingSeats(view.state).length || view.state.replay;
  $("table-settings").hidden = spectator;
}

// A seat in the panel: its colour chip and short name, then "computer · easy" and how it
// is played or how the match ended for it, on a second line.
function seatCell(seat) {
  const cell = document.createElement("span");
  cell.className = `seat-cell ${seat.colour}`;
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.setAttribute("aria-hidden", "true");
  badge.textContent = letters[seat.index];
  const name = document.createElement("span");
  name.className = "seat-name";
  name.textContent = seatName(seat.index);
  const second = [seatWhat(seat, view.state.room), ...seatNotes(seat)].filter(Boolean).join(" · ");
  const words = document.createElement("span");
  words.className = "seat-words";
  words.append(name);
  if (second) {
    const what = document.createElement("span");
    what.className = "seat-what";
    what.textContent = second;
    words.append(" ", what);
  }
  cell.append(badge, words);
  return cell;
}

export function renderResult() {
  const box = $("result");
  const r = view.state.round;
  const end = ending(L, view.state);
  const inHold = Boolean(view.hold);
  const line = $("table-line");
  if ((!r.over && !end) || inHold) {
    if (line) line.classList.remove("ended");
    box.hidden = true;
    $("status-line").classList.remove("covered");
    return;
  }
  const wasHidden = box.hidden;
  box.hidden = false;
  if (line) line.classList.add("ended");
  $("status-line").classList.add("covered");
  const verdict = roundVerdict(L, view.state);
  const head = $("result-verdict");
  head.textContent = verdict ? verdict.text : "";
  head.hidden = !verdict;
  box.dataset.tone = verdict ? verdict.tone : "even";
  // A match can end in the middle of a round (a resignation, an abandoned room): the round
  // then has no ranking and no odd card to show, and the title is the match's outcome.
  $("result-title").textContent = r.over ? fill(L.roundOver, { n: r.number }) : end.outcome;
  const list = $("result-ranking");
  list.classList.toggle("by-strikes", strikes());
  list.replaceChildren(
    ...(end && playedOut() ? standings(view.state) : []).map((row) => {
      const li = document.createElement("li");
      // Short: the seat's colour (and "you"), by its lettered badge; the names are on the tags.
      const seat = view.state.seats[row.seat];
      const who = document.createElement("span");
      who.className = `who ${seat.colour}`;
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.setAttribute("aria-hidden", "true");
      badge.textContent = letters[row.seat];
      who.append(badge, seatName(row.seat));
      if (seat.bot) { // a bot is named as one wherever its name shows (docs/bots.md)
        const what = document.createElement("span");
        what.className = "seat-what";
        what.textContent = ` · ${seatWhat(seat, view.state.room)}`;
        who.append(what);
      }
      const score = document.createElement("span");
      score.className = "score";
      if (row.place) {
        li.value = row.place;
        const place = document.createElement("span");
        place.className = "place";
        place.textContent = placeName(L, row.place);
        li.append(place);
        score.textContent = (view.state.room.rules || {}).single_round ? "" : plural(L, "points", row.score);
      } else {
        score.append(strikeMarks(row.score));
      }
      li.append(who, score);
      return li;
    }),
  );
  list.hidden = !list.children.length;
  const odd = oddCard();
  const holder = odd && isYou(view.state, odd.holder) ? L.youHolder : L.holder;
  let oddText = odd ? fill(holder, { seat: seatName(odd.holder), card: nameCard(odd.card) }) : "";
  if (r.over && r.removed && r.removed.length) oddText = sentences(oddText, fill(L.removed, { card: nameCard(r.removed[0]) }));
  $("result-odd").textContent = oddText;
  $("result-odd").hidden = !oddText;
  // The banner says each sentence once: what the verdict and the title already say is not
  // said again below them.
  const told = end ? [end.cause, r.over ? end.outcome : "", verdict ? "" : end.verdict] : [];
  $("result-match").textContent = sentences(...told);
  $("result-match").hidden = !end;
  const actions = $("result-actions");
  actions.replaceChildren();
  // Only players who still play a seat go on: a rematch once the match is over, else the
  // next round. Spectators and players who left get no button.
  if (playingSeats(view.state).length && !view.state.replay) {
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
  // Move focus to the result when it appears during play, not when a page opens on it; a
  // page scrolled down (to the panel's Resign button) comes back up to the room's title,
  // below the sticky header, so the title, the status and the result all show.
  if (wasHidden && !view.firstRender) {
    const head = document.querySelector(".room-head");
    if (head && head.getBoundingClientRect().top < stickyBottom()) head.scrollIntoView({ block: "start" });
    box.focus({ preventScroll: true });
  }
}

// Where the sticky site header ends, in the viewport.
function stickyBottom() {
  const header = document.querySelector(".site-header");
  return header ? header.getBoundingClientRect().bottom : 0;
}

// Standings mean something only for a match played to its end: not one that a
// resignation, an abandoned room or everyone leaving cut short.
function playedOut() {
  return !view.state.match.ended_by && view.state.match.rounds.length > 0;
}

export function renderSeatActions() {
  const box = $("seat-actions");
  box.replaceChildren();
  if (!drawing() || view.state.room.status !== "playing" || view.state.room.mode === "same_device") return;
  const two = view.state.seats.length === 2;
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

export function renderCurtain() {
  const curtain = $("curtain");
  const needed = curtainNeeded();
  curtain.hidden = !needed;
  if (!needed) return;
  // The name the player typed in; the seat's colour only for a seat without one.
  const who = seatName(view.state.acting) || colours[view.state.acting];
  $("curtain-badge").textContent = letters[view.state.acting];
  $("curtain-badge").className = `badge ${view.state.seats[view.state.acting].colour}`;
  $("curtain-text").textContent = fill(L.curtain, { seat: who });
  $("curtain-button").textContent = fill(L.curtainButton, { seat: who });
}

/** The last move in the panel and, ``brief`` if given (a text, or its forms longest first),
 * on the table itself, visible at every size (on a phone the panel is below the table);
 * aria-hidden there, as the announcer has already said it. */
export function setLastMove(text, brief = text) {
  const el = $("last-move");
  if (el) el.textContent = text || "–"; // as the page first shows it: nothing yet
  const line = $("table-line");
  if (line) {
    view.lineForms = [brief].flat().filter(Boolean);
    line.hidden = !view.lineForms.length;
    fitLine();
    place(); // on a phone a tag may now need its corner, or no longer
  }
}

export function showSpectators(count) {
  const el = $("spectators");
  const was = el.hidden;
  el.hidden = !count;
  el.textContent = counted("spectators", { n: count });
  if (was !== el.hidden) place(); // the name tags make room for it
}
