// Announcements: the live region (#announcer), and each draw told in words as this page
// may tell it (your card named only to you).

import { playingSeats } from "../ending.js";
import { fill, sentences } from "../words.js";
import { $, L } from "./page.js";
import { view } from "./view.js";
import { nameCard, pairText, seatName } from "./words.js";

export function announce(text) {
  const el = $("announcer");
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 30);
}

/** A draw in words as this page may tell it. ``brief``: for the line on the felt, which
 * a phone's corner must hold in three lines; without the pair laid down (the pile shows it),
 * the panel's last move and the announcer keep the whole. */
export function describe(event, { brief = false } = {}) {
  const visibleCard = event.card ? nameCard(event.card) : null;
  const playing = playingSeats(view.state);
  const personal = view.state.room.mode !== "same_device";
  let text;
  if (personal && playing.includes(event.drawer) && visibleCard) {
    text = event.paired && !brief
      ? fill(L.youPaired, { card: visibleCard, giver: seatName(event.giver), pair: pairText(event.discarded) })
      : fill(L.youDrew, { card: visibleCard, giver: seatName(event.giver) });
  } else if (personal && playing.includes(event.giver) && visibleCard) {
    text = fill(L.drewFromYou, { drawer: seatName(event.drawer), card: visibleCard });
  } else if (event.paired && event.discarded && !brief) {
    text = fill(L.drewPaired, { drawer: seatName(event.drawer), giver: seatName(event.giver), pair: pairText(event.discarded) });
  } else {
    text = fill(L.drew, { drawer: seatName(event.drawer), giver: seatName(event.giver) });
  }
  return sentences(text, ...finishedSentences(event));
}

/** The draw on the felt's line, in the forms it may take, longest first: the draw in brief,
 * then, where it emptied a hand, that alone (the flight showed the draw). The line shows the
 * longest its corner holds whole (placement.js ``fitLine``). */
export function briefForms(event) {
  const forms = [describe(event, { brief: true })];
  const finished = finishedSentences(event);
  if (finished.length) forms.push(sentences(...finished));
  return forms;
}

function finishedSentences(event) {
  return (event.finished || []).map((seat) => fill(L.finished, { seat: seatName(seat) }));
}
