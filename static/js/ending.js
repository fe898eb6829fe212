// How a match ended, told once for every part of the room page (the table's status line
// and result box, its seat panel, the room's status line), so that they always agree.
// Strings come from the template's #table-labels (L).

import { counted, fill, listed, sentences, seatName as wordsSeatName } from "./words.js";

/** The seats this page still plays: the server's ``you`` leaves out those it left to the
 * computer (it names them in ``you_left``). */
export function playingSeats(state) {
  return state.you;
}

/** A seat's name: the human's, or the computer's own name for that seat and level. */
export function displayName(L, seat, room) {
  return wordsSeatName(seat, room);
}

/** A seat's one short name in sentences: "Clara", "Ann", or "Ann (you)" for your own
 * seat (its colour is the chip beside it, wherever there is one). */
export function seatName(L, state, index) {
  const seat = state.seats[index];
  const name = displayName(L, seat, state.room);
  return isYou(state, index) ? fill(L.youName, { name }) : name;
}

/** Whether the page tells ``index`` as "you": a seat it plays, except on a shared device
 * (where every seat is someone's). A seat this page left is told by its name, as every
 * other page tells it. */
export function isYou(state, index) {
  return playingSeats(state).includes(index) && state.room.mode !== "same_device";
}

/** What each seat did to the match, once it is over: "won", "lost", "resigned" or "". */
export function seatResult(L, state, index) {
  const match = state.match;
  if (!match || !match.over) return "";
  const by = match.ended_by;
  if (by && by.how === "resign" && by.seat === index) return L.resignedNote;
  if ((match.winners || []).includes(index)) return L.wonNote;
  if ((match.losers || []).includes(index)) return L.lostNote;
  return "";
}

/** The ending in three sentences (any may be empty): what ended it (a resignation, an
 * abandoned room), the outcome (who won or reached the limit), and what it means for the
 * person at this page. ``null`` while the match is being played. */
export function ending(L, state) {
  const match = state.match;
  if (!match || !match.over) return null;
  const name = (i) => seatName(L, state, i);
  const personal = state.room.mode !== "same_device";
  const mine = personal ? playingSeats(state) : [];
  const by = match.ended_by;
  let cause = "";
  if (by && by.how === "resign") {
    cause = mine.includes(by.seat) ? L.youResigned : fill(L.resigned, { seat: name(by.seat) });
  } else if (by && by.how === "abandoned") {
    cause = L.abandoned;
  } else if (by && by.how === "everyone_left") {
    cause = L.everyoneLeft;
  }
  const winners = match.winners || [];
  const losers = match.losers || [];
  let outcome = L.matchOverShort;
  // "Sam reached the limit" only when the strikes ended it: a resignation or an abandoned
  // room ends a match with nobody at the limit, so it names the winners instead.
  if (match.scoring === "strikes" && losers.length === 1 && !state.room.rules.reverse && !by) {
    outcome = fill(L.matchOverStrikes, { seat: name(losers[0]) });
  } else if (winners.length) {
    outcome = fill(L.matchOver, { seats: listed(winners.map(name)) });
  }
  let verdict = "";
  if (mine.some((s) => winners.includes(s))) verdict = L.youWon;
  else if (mine.some((s) => losers.includes(s))) verdict = L.youLost;
  return { cause, outcome, verdict, text: sentences(cause, outcome, verdict) };
}

// -- words that depend on a number ------------------------------------------------------

/** "1 card", "7 cards": the template gives both forms (``{key}One``, ``{key}Other``). */
export function plural(L, key, n) {
  return counted(key, { n }, L);
}

/** "1st", "2nd"… in the page's language. */
export function placeName(L, place) {
  return (L.places || "").split("|")[place - 1] || `#${place}`;
}

/** Whether the round's holder of the odd card won it (the "reverse" house rule). */
function holderWins(state) {
  return Boolean(state.room.rules && state.room.rules.reverse);
}

/** How a finished round went for the person at this page: ``{text, tone}`` with tone
 * "win", "lose" or "even"; ``null`` for spectators, a shared device, or a round in play.
 * Once the match is over, the match's verdict. */
export function roundVerdict(L, state) {
  const r = state.round;
  const personal = state.room.mode !== "same_device";
  const mine = personal ? playingSeats(state) : [];
  if (!r || !mine.length) return null;
  const end = ending(L, state);
  if (end) {
    if (end.verdict) return { text: end.verdict, tone: end.verdict === L.youWon ? "win" : "lose" };
    return null;
  }
  if (!r.over || !r.ranking) return null;
  const seat = mine[0];
  const place = r.ranking.indexOf(seat) + 1;
  if (!place) return null;
  const holder = place === r.ranking.length;
  if (state.match && state.match.scoring === "strikes") {
    const won = holder === holderWins(state);
    return won ? { text: L.youWonRound, tone: "win" } : { text: L.youLostRound, tone: "lose" };
  }
  if (holder) return { text: L.youLostRound, tone: "lose" };
  if (place === 1) return { text: L.youWonRound, tone: "win" };
  return { text: fill(L.youPlaced, { place: placeName(L, place) }), tone: "even" };
}

/** The match's standings once it is over, best first: ``[{seat, place, score}]``; for
 * strikes, no places: the seats in order with their strikes. */
export function standings(state) {
  const match = state.match;
  if (!match || !match.over) return [];
  const order = match.standings && match.standings.length ? match.standings : state.seats.map((s) => s.index);
  return order.map((seat, i) => ({
    seat,
    place: match.scoring === "strikes" ? null : i + 1,
    score: (match.scores || [])[seat] ?? state.seats[seat].score,
  }));
}
