// How a match ended, told once for every part of the room page (the table's status line
// and result box, its seat panel, the room's status line), so that they always agree.
// Strings come from the template's #table-labels (L).

export const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => values[k] ?? "");

/** The seats this page still plays: its seats, without those it left to the computer. */
export function playingSeats(state) {
  return state.you.filter((s) => !(state.seats[s] && state.seats[s].left));
}

export function displayName(L, seat) {
  return seat.kind === "computer" ? L.computerName : seat.name;
}

/** "Red (you)" or "Red (Ann)". */
export function seatName(L, state, index) {
  const colours = L.colours.split("|");
  const seat = state.seats[index];
  // A seat this page left is told by its name, as every other page tells it.
  const you = playingSeats(state).includes(index) && state.room.mode !== "same_device";
  return you ? `${colours[index]} (${L.you})` : `${colours[index]} (${displayName(L, seat)})`;
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
  if (match.scoring === "strikes" && losers.length === 1 && !state.room.rules.reverse) {
    outcome = fill(L.matchOverStrikes, { seat: name(losers[0]) });
  } else if (winners.length) {
    outcome = fill(L.matchOver, { seats: winners.map(name).join(", ") });
  }
  let verdict = "";
  if (mine.some((s) => winners.includes(s))) verdict = L.youWon;
  else if (mine.some((s) => losers.includes(s))) verdict = L.youLost;
  return { cause, outcome, verdict, text: [cause, outcome, verdict].filter(Boolean).join(" ") };
}
