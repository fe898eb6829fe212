// Motion: cards travel between hands and to the pile, your own draw's sequence (RULES.md
// 2.9: the card arrives, a pair leaves, the hand is shuffled), and the giver's hand
// rising when your turn comes. Without motion (prefers-reduced-motion), none of it runs.

import { playingSeats } from "../ending.js";
import { $, reducedMotion, wait } from "./page.js";
import { place } from "./placement.js";
import { renderMyHand } from "./render.js";
import { isMyTurn, view } from "./view.js";
import { back, face } from "./words.js";

function flyCard(card, from, to, { duration = 480, delay = 0, fade = false } = {}) {
  if (!from || !to || !from.width || !to.width) return null;
  const layer = $("flights");
  const box = layer.getBoundingClientRect();
  card.classList.add("flying");
  card.style.width = `${to.width}px`;
  layer.append(card);
  const sx = from.width / to.width;
  const a = `translate(${from.left - box.left}px, ${from.top - box.top}px) scale(${sx})`;
  const b = `translate(${to.left - box.left}px, ${to.top - box.top}px) scale(1)`;
  const anim = card.animate(
    [{ transform: a, opacity: 1 }, { transform: b, opacity: fade ? 0.2 : 1 }],
    { duration, delay, easing: "cubic-bezier(.3,.7,.3,1)", fill: "both" },
  );
  anim.finished.then(() => card.remove(), () => card.remove());
  return anim;
}

/** Where the cards of a seat are on screen right now: its fan, your hand, or the giver's
 * hand lifted to you. ``position`` picks one card when it can. */
function seatRect(seat, position = null) {
  const lifted = $("giver-hand");
  if ($("table-wrap").dataset.pickFrom === String(seat) && lifted.children.length) {
    const card = position !== null ? lifted.children[Math.min(position, lifted.children.length - 1)] : lifted.lastElementChild;
    return card.getBoundingClientRect();
  }
  const hand = $("my-hand");
  if (hand.dataset.handSeat === String(seat) && hand.children.length) {
    const card = position !== null ? hand.children[Math.min(position, hand.children.length - 1)] : hand.lastElementChild;
    return card.getBoundingClientRect();
  }
  const fan = document.querySelector(`[data-fan-seat="${seat}"]`);
  if (!fan) return null;
  const cards = fan.children;
  if (cards.length) {
    const card = position !== null ? cards[Math.min(position, cards.length - 1)] : cards[cards.length - 1];
    return card.getBoundingClientRect();
  }
  return fan.getBoundingClientRect();
}

function pileRect() {
  const pile = $("pile");
  const top = pile.querySelector(".pair:last-child .card") || pile;
  return top.getBoundingClientRect();
}

// Before the new state is drawn: where the drawn card leaves from.
export function flightSource(event) {
  if (!event || event.kind !== "draw") return null;
  if (view.pendingFrom) {
    const from = view.pendingFrom;
    view.pendingFrom = null;
    return from;
  }
  return seatRect(event.giver, event.position);
}

// After: fly it to the drawer (face up when this page may see it), and a pair to the pile.
export function animateDraw(event, from, mine) {
  if (reducedMotion || !from) return;
  if (mine) return; // your own draw: the hand sequence flies it (it knows where it lands)
  // Into a hand lifted for you to pick from, the card goes face down to its middle: where
  // it really went is the drawer's secret.
  const lifted = $("table-wrap").dataset.pickFrom === String(event.drawer);
  const known = event.card && playingSeats(view.state).includes(event.giver) && !lifted;
  const card = known ? face(event.card) : back();
  const pick = $("giver-hand").children;
  const to = lifted && pick.length ? pick[Math.floor(pick.length / 2)].getBoundingClientRect() : seatRect(event.drawer);
  flyCard(card, from, to);
  if (event.paired && event.discarded) {
    const target = pileRect();
    event.discarded.forEach((code, i) => {
      flyCard(face(code), to, target, { duration: 420, delay: 480 + i * 60 });
    });
  }
}

// The player's own draw, as RULES.md 2.9 tells it: the drawn card shows at the right end of
// the hand, then a pair leaves for the middle, then the hand is shuffled, visibly. A card
// drawn from the player visibly leaves the hand first. Resolves when it is done.
export async function playHandSequence(previous, event, from, seat) {
  if (reducedMotion || view.handBusy || !previous || !previous.round) return;
  const before = previous.round.hands[String(seat)];
  const mine = event.drawer === seat && event.card;
  if (!before || !(mine || event.giver === seat)) return;
  const hand = $("my-hand");
  const cards = before.map(face);
  view.handBusy = true;
  try {
    if (mine) {
      const arrived = face(event.card);
      arrived.classList.add("arrived");
      hand.replaceChildren(...cards, arrived);
      hand.dataset.handSeat = seat;
      place();
      flyCard(face(event.card), from, arrived.getBoundingClientRect(), { duration: 420 });
      await wait(520);
      if (event.paired) {
        const target = pileRect();
        for (const el of hand.querySelectorAll(".card")) {
          if (event.discarded.includes(el.dataset.card)) {
            el.classList.add("to-pile");
            flyCard(face(el.dataset.card), el.getBoundingClientRect(), target, { duration: 420 });
          }
        }
        await wait(480);
      }
      view.handBusy = false;
      renderMyHand();
      place();
      hand.classList.add("shuffling");
      await wait(520);
      hand.classList.remove("shuffling");
    } else {
      const taken = cards[event.position];
      hand.replaceChildren(...cards);
      place();
      if (taken) {
        taken.classList.add("taken");
        const to = seatRect(event.drawer);
        flyCard(event.card ? face(event.card) : back(), taken.getBoundingClientRect(), to);
      }
      await wait(480);
    }
  } finally {
    if (view.handBusy) {
      view.handBusy = false;
      renderMyHand();
      place();
    }
  }
}

export function liftPick(previous) {
  const pick = $("giver-hand");
  const key = isMyTurn() ? `${view.state.match?.number}/${view.state.round.number}/${view.state.round.draws}` : null;
  if (!key || key === view.pickShownFor) {
    view.pickShownFor = key;
    return;
  }
  view.pickShownFor = key;
  if (reducedMotion || !previous || view.flat) return;
  const from = document.querySelector(`[data-fan-seat="${view.state.round.giver}"]`);
  if (!from || !pick.children.length) return;
  // From the giver's place to the middle of your side, rising.
  const a = from.getBoundingClientRect();
  const b = pick.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const s = view.viewFit.s || 1;
  pick.animate(
    [{ translate: `${dx / s}px ${dy / s}px`, scale: 0.45, opacity: 0.4 }, { translate: "0 0", scale: 1, opacity: 1 }],
    { duration: 420, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
}
