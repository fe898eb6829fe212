// Reactions at the table (docs/protocol.md, "react" and "reaction"): a small menu at the
// player's seat sends one of the closed set; every reaction (a computer's face too)
// shows as a bubble at the seat's name tag for a few seconds and is said politely in
// #together-live, unless this browser muted them (remembered in localStorage).

import { send } from "./table/socket.js";
import { fill } from "./words.js";

const $ = (id) => document.getElementById(id);
const box = $("reactions");
const button = $("react-button");
const menu = $("react-menu");
const mute = $("mute-reactions");
const colours = ($("table-labels")?.dataset.colours || "").split("|");
const STORAGE_KEY = "oldmaid.muteReactions";
const SHOWN_MS = 4000;

const reactions = box ? JSON.parse($("reaction-labels").textContent) : {};
const bubbles = new Map(); // seat -> {key, timer}
let state = null;

const SVG = "http://www.w3.org/2000/svg";
// Each face's mouth (and brows), on a 20x20 face with two eyes.
const FACES = {
  smile: ["M6 12 Q10 15.5 14 12"],
  laugh: ["M5.5 11 H14.5 Q10 17.5 5.5 11 Z"],
  surprised: ["M8.2 13.5 a1.8 2 0 1 0 3.6 0 a1.8 2 0 1 0 -3.6 0"],
  sad: ["M6 14.5 Q10 11 14 14.5"],
  worried: ["M6 14 Q8 12.5 10 14 T14 14", "M5 5.8 L8.2 6.8", "M15 5.8 L11.8 6.8"],
  calm: ["M7 13 H13"],
};

/** A face drawn in SVG (no emoji font needed), or null for a phrase. */
function faceSVG(key) {
  if (!FACES[key]) return null;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("class", "reaction-face");
  svg.setAttribute("aria-hidden", "true");
  const head = document.createElementNS(SVG, "circle");
  head.setAttribute("cx", "10");
  head.setAttribute("cy", "10");
  head.setAttribute("r", "9");
  head.setAttribute("class", "head");
  svg.append(head);
  for (const x of [7, 13]) {
    const eye = document.createElementNS(SVG, "circle");
    eye.setAttribute("cx", String(x));
    eye.setAttribute("cy", "8.5");
    eye.setAttribute("r", "1.2");
    eye.setAttribute("class", "eye");
    svg.append(eye);
  }
  for (const d of FACES[key]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    path.setAttribute("class", d.endsWith("Z") ? "mouth filled" : "mouth");
    svg.append(path);
  }
  return svg;
}

const muted = () => Boolean(mute && mute.checked);

function openMenu(open) {
  menu.hidden = !open;
  button.setAttribute("aria-expanded", open ? "true" : "false");
  if (open) menu.querySelector("button")?.focus();
}

/** Put each live bubble in its seat's tag (table.js redraws the tags from scratch). */
function showBubbles() {
  for (const [seat, { key }] of bubbles) {
    const tag = document.querySelector(`[data-tag-seat="${seat}"]`);
    if (!tag || tag.querySelector(".reaction-bubble")) continue;
    const bubble = document.createElement("span");
    bubble.className = "reaction-bubble";
    bubble.dataset.reaction = key;
    const face = faceSVG(key);
    if (face) bubble.append(face, " ");
    bubble.append(reactions[key].text);
    tag.append(bubble);
    // A tag near the top of the table gets its bubble below it, where it is not cut off.
    const stage = $("stage");
    if (stage && bubble.getBoundingClientRect().top < stage.getBoundingClientRect().top + 2) {
      bubble.classList.add("below");
    }
    keepInSight(tag, bubble);
  }
}

/** A tag near the side of the table (a left-hand seat on a phone) moves its bubble along
 * until the whole bubble is inside the table and the screen; its tail still points at the
 * tag. Measured without the bubble's own motion (it grows in from 60%). */
function keepInSight(tag, bubble) {
  const room = bubble.closest(".stage, .table-wrap");
  const bounds = room ? room.getBoundingClientRect() : { left: 0, right: innerWidth };
  const left = Math.max(0, bounds.left) + 4;
  const right = Math.min(innerWidth, bounds.right) - 4;
  const t = tag.getBoundingClientRect();
  const half = bubble.offsetWidth / 2;
  const centre = t.left + t.width / 2;
  let shift = 0;
  if (centre - half < left) shift = left - (centre - half);
  else if (centre + half > right) shift = right - (centre + half);
  bubble.style.translate = `calc(-50% + ${shift}px) 0`;
  bubble.style.setProperty("--tail", `${-shift}px`);
}

/** Every bubble goes (a round's end: the faces were for the draws, and the result and the
 * view switch need the room). */
function clearBubbles() {
  for (const { timer } of bubbles.values()) clearTimeout(timer);
  bubbles.clear();
  for (const el of document.querySelectorAll(".reaction-bubble")) el.remove();
}

/** Whether the round (or the match) is over: the result shows. */
const isOver = (s) => Boolean(s && ((s.round && s.round.over) || (s.match && s.match.over)));

function receive(seat, key) {
  if (muted() || !reactions[key]) return;
  // Over the result of a round no computer's face bubbles up (the faces are tells about
  // its cards; the words are still said below); a person's reaction still does.
  const face = isOver(state) && state.seats && state.seats[seat] && state.seats[seat].kind === "computer";
  const old = bubbles.get(seat);
  if (old) clearTimeout(old.timer);
  for (const el of document.querySelectorAll(`[data-tag-seat="${seat}"] .reaction-bubble`)) el.remove();
  const timer = setTimeout(() => {
    bubbles.delete(seat);
    for (const el of document.querySelectorAll(`[data-tag-seat="${seat}"] .reaction-bubble`)) el.remove();
  }, SHOWN_MS);
  if (!face) {
    bubbles.set(seat, { key, timer });
    showBubbles();
  }
  $("together-live").textContent = fill(box.dataset.said, { seat: colours[seat], reaction: reactions[key].text });
}

if (box) {
  for (const el of box.querySelectorAll("[data-face]")) el.append(faceSVG(el.dataset.face));
  button.addEventListener("click", () => openMenu(menu.hidden));
  menu.addEventListener("click", (e) => {
    const choice = e.target.closest("[data-reaction]");
    if (!choice) return;
    send({ type: "react", reaction: choice.dataset.reaction });
    openMenu(false);
    button.focus();
  });
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !menu.hidden) {
      openMenu(false);
      button.focus();
    }
  });
  document.addEventListener("click", (e) => {
    if (!menu.hidden && !box.contains(e.target)) openMenu(false);
  });
  if (mute) {
    mute.checked = localStorage.getItem(STORAGE_KEY) === "on";
    mute.addEventListener("change", () => {
      localStorage.setItem(STORAGE_KEY, mute.checked ? "on" : "off");
      if (mute.checked) clearBubbles();
    });
  }
  document.addEventListener("table-state", (e) => {
    const wasOver = isOver(state);
    state = e.detail;
    if (isOver(state) && !wasOver) clearBubbles();
    // Seated players react; spectators (and a replay) only see reactions.
    box.hidden = !(state.you && state.you.length) || Boolean(state.replay);
    if (box.hidden) openMenu(false);
  });
  document.addEventListener("table-message", (e) => {
    if (e.detail.type === "reaction") receive(e.detail.seat, e.detail.reaction);
  });
  const observer = new MutationObserver(showBubbles);
  for (const id of ["seat-tags", "near-tag"]) if ($(id)) observer.observe($(id), { childList: true });
}
