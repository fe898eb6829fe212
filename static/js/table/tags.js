// The name tags at the seats: a seat's badge, name, cards, score or strike marks, who
// plays it now, and where it finished (placed on the stage by placement.js).

import { displayName as nameOf, placeName, playingSeats, plural } from "../ending.js";
import { computerParts, fill, seatWhat } from "../words.js";
import { $, L, letters } from "./page.js";
import { nearSeat, oddCard, view } from "./view.js";
import { strikes } from "./words.js";

/** Whether the computer stands in for a person at ``seat`` (covered, left): "The computer
 * is drawing for Ann". A computer's own seat draws for itself, like anyone's. */
export function computerStandsIn(seat) {
  return Boolean(seat.played_by_computer) && seat.kind !== "computer";
}

// Who plays a seat now: its name tag says this much.
export function presenceNotes(seat) {
  // A seat whose human left the previous match is still theirs in a rematch, covered
  // until they come back: it reads as left, not as a short disconnection.
  if (seat.left || seat.left_before) return [L.left];
  if (seat.covered) return [L.covered];
  if (seat.away) return [L.away];
  return [];
}

function scoreText(seat) {
  const rules = view.state.room.rules || {};
  if (rules.single_round || view.state.replay || !view.state.match) return "";
  return strikes() ? plural(L, "strikes", seat.score) : plural(L, "points", seat.score);
}

function tagFor(seat) {
  const tag = document.createElement("div");
  tag.className = `seat-tag ${seat.colour}`;
  tag.dataset.tagSeat = seat.index;
  const r = view.state.round;
  if (!r.over && r.drawer === seat.index) tag.classList.add("acting");
  if (!r.over && r.giver === seat.index) tag.classList.add("giving");
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.textContent = letters[seat.index];
  const text = document.createElement("span");
  text.className = "tag-text";
  const who = document.createElement("span");
  who.className = "who";
  const you = playingSeats(view.state).includes(seat.index) && view.state.room.mode !== "same_device";
  const computer = seat.kind === "computer" ? computerParts(seat.index, view.state.room.computer_level) : null;
  who.textContent = you ? fill(L.youName, { name: nameOf(L, seat, view.state.room) }) : nameOf(L, seat, view.state.room);
  const info = document.createElement("span");
  info.className = "info";
  // What plays the seat, beside its name: the computer's level, or "bot" (docs/bots.md).
  const parts = computer ? [computer.what] : seat.bot ? [seatWhat(seat, view.state.room)] : [];
  const odd = oddCard();
  if (seat.count && !r.over) parts.push(plural(L, "cards", seat.count));
  else if (!r.over && (strikes() || !seat.place)) parts.push(L.out);
  const score = scoreText(seat);
  if (score && !strikes()) parts.push(score);
  // Where the seat finished. Once the match is over, the match's result (so that the tag
  // agrees with the banner: a resignation ends a match whatever the last round said);
  // before, the round's: a place (points), or the odd card's holder (both scorings).
  let ribbon = null;
  const match = view.state.match;
  if (match && match.over) {
    const mark = matchMark(seat.index);
    if (mark) {
      ribbon = mark;
      tag.classList.add(mark.tone);
    }
  } else if (odd && odd.holder === seat.index) {
    ribbon = { text: L.lostRoundNote };
    tag.classList.add("lost");
    if (view.state.room.rules && view.state.room.rules.reverse) {
      ribbon = { text: L.wonRoundNote };
      tag.classList.replace("lost", "won");
    }
  } else if (seat.place && !strikes()) {
    ribbon = { text: placeName(L, seat.place) };
    tag.classList.add(seat.place === 1 ? "first" : "placed");
  }
  const notes = presenceNotes(seat);
  info.textContent = [...parts, ...notes].join(" · ");
  info.hidden = !info.textContent;
  text.append(who, info);
  if (score && strikes()) text.append(strikeMarks(seat.score));
  tag.append(badge, text);
  if (ribbon) tag.append(ribbonOf(ribbon));
  return tag;
}

/** A tag's ribbon (``{text, short}``): its words, and the short form, if any, that a
 * crowded phone's tags show at a round's end (placement.js; the words stay for screen
 * readers). */
function ribbonOf(ribbon) {
  const mark = document.createElement("span");
  mark.className = "ribbon";
  if (!ribbon.short) {
    mark.textContent = ribbon.text;
    return mark;
  }
  const long = document.createElement("span");
  long.className = "long";
  long.textContent = ribbon.text;
  const short = document.createElement("span");
  short.className = "short";
  short.setAttribute("aria-hidden", "true");
  short.hidden = true;
  short.textContent = ribbon.short;
  mark.append(long, short);
  return mark;
}

/** A seat's ribbon once the match is over: ``{text, tone, short}`` or null. Who resigned,
 * who won the match; under points the others' places in the match, under strikes "lost the
 * match". ``short``: the same in a word or a place, for a crowded phone. */
function matchMark(index) {
  const match = view.state.match;
  const by = match.ended_by;
  const points = match.scoring !== "strikes";
  if (by && by.how === "resign" && by.seat === index) return { text: L.resignedNote, tone: "lost" };
  if ((match.winners || []).includes(index)) {
    return { text: L.wonMatchNote, tone: "won", short: points ? placeName(L, 1) : L.wonNote };
  }
  if (!(match.losers || []).includes(index)) return null;
  const order = match.standings || [];
  if (points && order.includes(index)) {
    return { text: placeName(L, order.indexOf(index) + 1), tone: "placed" };
  }
  return { text: L.lostMatchNote, tone: "lost", short: L.lostNote };
}

export function strikeMarks(count) {
  const marks = document.createElement("span");
  marks.className = "strikes";
  const limit = (view.state.room.rules && view.state.room.rules.strike_limit) || 3;
  for (let i = 0; i < Math.max(limit, count); i++) {
    const m = document.createElement("span");
    m.className = i < count ? "mark on" : "mark";
    marks.append(m);
  }
  const words = document.createElement("span");
  words.className = "visually-hidden";
  words.textContent = plural(L, "strikes", count);
  marks.append(words);
  return marks;
}

export function renderTags() {
  const near = nearSeat();
  const layer = $("seat-tags");
  layer.replaceChildren();
  $("near-tag").replaceChildren();
  for (const seat of view.state.seats) {
    const tag = tagFor(seat);
    if (seat.index === near) $("near-tag").append(tag);
    else layer.append(tag);
  }
  const aside = $("set-aside");
  if (!aside.hidden) {
    const caption = document.createElement("div");
    caption.className = "caption";
    caption.id = "set-aside-caption";
    caption.textContent = L.setAside;
    layer.append(caption);
  }
}
