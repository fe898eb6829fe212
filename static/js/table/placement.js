// The scene placed on the stage: scene.js's geometry (seats, hands, pile, camera, fit)
// applied to the drawn elements, the name tags placed clear of the hands, the table
// area's size, and the camera's moves between the angled and top-down views.

import {
  clamp, clearPick, defaultCamera, fit, layoutTable, projector, separate, settlePick, shrinkPick,
  standingCorners, TAG_GAP,
} from "../scene.js";
import { $, reducedMotion } from "./page.js";
import { nearSeat, view } from "./view.js";

/** A stage narrower than this is a phone's: compact tags, the giver's hand shrunk in its
 * rows, the tags before the last move's line. */
const PHONE_W = 480;
/** How much farther (px) than from any hand the other tags keep from the odd card's
 * holder's at a round's end. */
const ODD_ROOM = 12;

function t3(x, y, z, rest = "") {
  if (view.flat) return `translate(${x}px, ${y}px) ${rest.replace(/rotateX\([^)]*\)/g, "")}`;
  return `translate3d(${x}px, ${y}px, ${z}px) ${rest}`;
}

export function place() {
  if (!view.state || !view.state.round) return;
  const stage = $("stage");
  const W = stage.clientWidth;
  const H = stage.clientHeight;
  if (!W || !H) return;
  const n = view.state.seats.length;
  const near = nearSeat();
  const hand = $("my-hand");
  const pick = $("giver-hand");
  if (!view.camera.ready) {
    Object.assign(view.camera, defaultCamera(view.camera.view, W, H, view.flat), { ready: true });
  }
  view.geo = layoutTable({
    W, H, n, near, handCount: hand.children.length, pickCount: pick.children.length, tilt: view.camera.tilt,
    reserve: view.state.round.giver !== null && !view.state.round.over ? view.state.seats[view.state.round.giver].count : 0,
  });
  const D = view.flat ? Infinity : Math.max(view.geo.TW, view.geo.TD) * 1.8;
  const project = projector({ tilt: view.camera.tilt, spin: view.camera.spin, D });
  settlePick(view.geo, project);
  if (!view.dragging) view.viewFit = fit(view.geo, project, W, H);
  if (pick.children.length) {
    // On a laptop never smaller than the cards at the seats, nor than a fingertip; on a
    // phone's narrow table smaller, in its rows, so that the name tags keep their room.
    const seatCw = Math.max(0, ...Object.values(view.geo.seats).map((spot) => spot.cw));
    if (W < PHONE_W) shrinkPick(view.geo, project, pickObstacles);
    else clearPick(view.geo, project, pickObstacles, Math.max(seatCw, 46 / (view.viewFit.s || 1)));
  }
  const { s, tx, ty } = view.viewFit;
  const viewEl = $("view");
  viewEl.style.perspective = view.flat ? "none" : `${D}px`;
  viewEl.style.transform = `translate(${tx}px, ${ty}px) scale(${s})`;
  $("scene").style.transform = view.flat ? `rotate(${view.camera.spin}deg)` : `rotateX(${view.camera.tilt}deg) rotateZ(${view.camera.spin}deg)`;
  const table = $("table-top");
  table.style.setProperty("--tw", `${view.geo.TW}px`);
  table.style.setProperty("--td", `${view.geo.TD}px`);
  table.style.setProperty("--rim", `${view.geo.rim}px`);

  // Your hand, standing at the near rail.
  const h = view.geo.hand;
  hand.style.width = `${h.maxW}px`;
  hand.style.height = `${h.ch}px`;
  hand.style.transform = t3(h.x - h.maxW / 2, h.y - h.ch, h.z, `rotateX(${-h.lift}rad)`);
  [...hand.children].forEach((card, i) => {
    card.style.width = `${h.cw}px`;
    card.style.left = `${(h.maxW - h.w) / 2 + i * h.step}px`;
    card.style.setProperty("--to-middle", `${h.maxW / 2 - ((h.maxW - h.w) / 2 + i * h.step) - h.cw / 2}px`);
  });

  // The giver's hand, lifted to you.
  const p = view.geo.pick;
  pick.style.width = `${p.w}px`;
  pick.style.height = `${p.h}px`;
  pick.style.transform = t3(p.x - p.w / 2, p.y - p.h, p.z, `rotateX(${-p.lift}rad)`);
  [...pick.children].forEach((card, i) => {
    const row = Math.floor(i / p.perRow);
    const col = i % p.perRow;
    const inRow = Math.min(p.perRow, p.count - row * p.perRow);
    const offset = ((p.perRow - inRow) * p.step) / 2;
    card.style.width = `${p.cw}px`;
    card.style.left = `${offset + col * p.step}px`;
    card.style.top = `${row * p.rowStep}px`;
  });

  // Every other hand at its seat.
  view.fanBoxes = {};
  for (const fan of $("seats-ring").children) {
    const seat = Number(fan.dataset.fanSeat);
    const spot = seat === near ? nearSpot() : view.geo.seats[seat];
    if (!spot) continue;
    const cards = [...fan.children];
    const holder = fan.classList.contains("holder");
    // The odd card, turned up at its holder's place, shows large.
    const cw = holder && cards.length === 1 ? Math.max(spot.cw * 2, 58 / (view.viewFit.s || 1)) : spot.cw;
    const ch = cw * 1.4;
    const k = cards.length;
    const step = fanStep(cw, spot.maxFan, k);
    const width = cw + step * Math.max(0, k - 1);
    fan.style.width = `${width}px`;
    fan.style.height = `${ch}px`;
    // Face-up cards (a round's end, a replay) turn to be read from your seat.
    const faceUp = cards.some((c) => c.classList.contains("face"));
    const rot = faceUp ? 0 : spot.rot;
    // Grown towards the rail, so the pile keeps its room; but never beyond the rail, where
    // the stage would cut it off.
    let { x, y } = spot;
    if (ch > spot.ch) {
      const len = Math.hypot(x, y) || 1;
      x += ((x / len) * (ch - spot.ch)) / 2;
      y += ((y / len) * (ch - spot.ch)) / 2;
    }
    if (rot === 0) {
      const inX = view.geo.TW / 2 - view.geo.rim - width / 2;
      const inY = view.geo.TD / 2 - view.geo.rim - ch / 2;
      x = clamp(x, -Math.max(0, inX), Math.max(0, inX));
      y = clamp(y, -Math.max(0, inY), Math.max(0, inY));
    }
    fan.style.transform = t3(x - width / 2, y - ch / 2, spot.z, `rotate(${rot}deg)`);
    // A replay's badges (replay.css) reach below and beside the cards: tags keep clear of them.
    const pad = fan.querySelector("[class*='mark-']") ? 44 / (view.viewFit.s || 1) : 0;
    view.fanBoxes[seat] = { x, y: y + pad / 2, w: width + pad, h: ch + pad, rot, holder, cards: k };
    cards.forEach((card, i) => {
      card.style.width = `${cw}px`;
      card.style.left = `${i * step}px`;
      card.style.setProperty("--fan", `${(i - (k - 1) / 2) * (faceUp ? 2 : 5)}deg`);
    });
  }

  // The pile in the middle, and the card set aside beside it.
  const pileEl = $("pile");
  const pl = view.geo.pile;
  pileEl.style.setProperty("--cw", `${pl.cw}px`);
  pileEl.style.transform = t3(pl.x - pl.cw, pl.y - pl.ch / 2, pl.z);
  const aside = $("set-aside");
  const acw = Math.max(pl.cw * 1.5, 54 / (view.viewFit.s || 1));
  aside.style.setProperty("--cw", `${acw}px`);
  // Beside the pile, clear of its scattered pairs (turned and tossed, they reach about 0.9
  // of a card right of its middle and 1.3 left): whole, its corner index in sight. On the
  // side where no hand lies (the odd card shows large at its holder's place), else below.
  const ah = acw * 1.4;
  const places = [
    { x: pl.x + pl.cw * 0.95 + 16 + acw / 2, y: pl.y },
    { x: pl.x - pl.cw * 1.35 - 16 - acw / 2, y: pl.y },
    { x: pl.x, y: pl.y + pl.ch * 0.7 + pl.cw * 0.3 + 16 + ah / 2 },
  ];
  const free = (q) => Object.values(view.fanBoxes).every((f) => !f.cards
    || Math.abs(f.x - q.x) * 2 >= f.w + acw + 8 || Math.abs(f.y - q.y) * 2 >= f.h + ah + 8);
  const spot = places.find(free) || places[0];
  view.asideBox = { x: spot.x, y: spot.y, w: acw, h: ah, rot: 0 };
  aside.style.transform = t3(view.asideBox.x - acw / 2, view.asideBox.y - (acw * 1.4) / 2, 2);

  placeTags(project, W, H);
}


// How far apart the k cards of a hand at its seat lie: overlapping, within its room.
function fanStep(cw, maxFan, k) {
  return k > 1 ? Math.min(cw * 0.42, maxFan / (k - 1)) : 0;
}

// What the giver's hand, lifted to you, must leave in sight: every other seat's hand at its
// place (as place() lays it out below) and the pile.
function pickObstacles(g) {
  const boxes = [];
  for (const seat of view.state.seats) {
    const spot = g.seats[seat.index];
    if (!spot || seat.index === view.state.round.giver || !seat.count) continue;
    const k = seat.count;
    const step = fanStep(spot.cw, spot.maxFan, k);
    // Its end cards are turned (place(): 5 degrees a card from the middle), so they
    // reach past the fan's box by up to a card's height times the sine, sideways, and its
    // width times it, up and down.
    const turn = Math.sin((Math.min(30, ((k - 1) / 2) * 5) * Math.PI) / 180);
    const w = spot.cw + step * (k - 1) + spot.ch * turn;
    boxes.push(lyingCorners({ x: spot.x, y: spot.y, w, h: spot.ch + spot.cw * turn, rot: spot.rot }));
  }
  const pl = g.pile;
  if (view.state.round.discards.length) {
    // Its pairs lie scattered and turned: a box round all of them.
    boxes.push(lyingCorners({ x: pl.x + pl.cw * 0.3, y: pl.y, w: pl.cw * 2.7, h: pl.ch * 1.4, rot: 0 }));
  }
  return boxes;
}

/** The corners of a w x h rectangle lying on the felt, centred at (x, y), turned by rot. */
function lyingCorners({ x, y, w, h, rot }) {
  const a = (rot * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([u, v]) => {
    const dx = (u * w) / 2;
    const dy = (v * h) / 2;
    return [x + dx * c - dy * s, y + dx * s + dy * c, 2];
  });
}

/** Where the near seat's cards lie when they are not the big hand (a spectator's view). */
function nearSpot() {
  const cw = view.geo.seats && Object.values(view.geo.seats)[0] ? Object.values(view.geo.seats)[0].cw * 1.3 : 40;
  return {
    x: 0, y: view.geo.TD / 2 - view.geo.rim - cw * 0.9, z: 1, rot: 0, cw, ch: cw * 1.4, maxFan: cw * 4,
    anchor: [0, view.geo.TD / 2, 0],
  };
}

/** Moves tag box ``b`` up to its own fan's box (``b.own``), on the side it lies, leaving
 * the gap separate() keeps. */
function besideOwn(b) {
  const o = b.own;
  if (b.y + b.h <= o.y) b.y = o.y - b.h - TAG_GAP;
  else if (b.y >= o.y + o.h) b.y = o.y + o.h + TAG_GAP;
  if (b.x + b.w <= o.x) b.x = o.x - b.w - TAG_GAP;
  else if (b.x >= o.x + o.w) b.x = o.x + o.w + TAG_GAP;
}

function toStage(project, point, W, H) {
  const [px, py] = project(point);
  return [W / 2 + view.viewFit.tx + view.viewFit.s * px, H / 2 + view.viewFit.ty + view.viewFit.s * py];
}

function screenBox(project, corners, W, H) {
  const pts = corners.map((c) => toStage(project, c, W, H));
  const xs = pts.map((q) => q[0]);
  const ys = pts.map((q) => q[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

function placeTags(project, W, H) {
  const layer = $("seat-tags");
  // A crowded table on a phone: the tags keep to the badge and the name, so each one fits
  // beside its fan (the rest is still there for screen readers, and in the seats panel).
  // So does a replay's there at any size of table: its hands lie face up, wider, and show
  // how many cards each holds.
  const phone = W < PHONE_W;
  const compact = phone && (view.state.seats.length >= 5 || Boolean(view.state.replay));
  layer.classList.toggle("compact", compact);
  for (const info of layer.querySelectorAll(".seat-tag .info")) info.classList.toggle("visually-hidden", compact);
  // At a round's end there it keeps to the badge and the place: each one rests by its seat
  // (the names are in the result's standings just above).
  const ended = compact && view.state.round.over && !view.state.replay;
  for (const who of layer.querySelectorAll(".seat-tag .who")) who.classList.toggle("visually-hidden", ended);
  // And a match's ribbon its short form ("1st" for "won the match").
  for (const long of layer.querySelectorAll(".ribbon .long")) long.classList.toggle("visually-hidden", ended);
  for (const short of layer.querySelectorAll(".ribbon .short")) short.hidden = !ended;
  // On a phone's narrow felt the tags come first: the last move's line shows only where no
  // tag needs its corner (else the panel below says it); on a laptop the tags keep clear of it.
  const line = $("table-line");
  line.classList.remove("crowded");
  fitLine();
  const boxes = [];
  for (const tag of layer.children) {
    let point;
    if (tag.classList.contains("caption")) {
      // Under the card, or beside it if something lies there (separate: ``own``).
      point = [view.asideBox.x, view.asideBox.y + view.asideBox.h / 2, 0];
    } else {
      const spot = view.geo.seats[Number(tag.dataset.tagSeat)];
      if (!spot) continue;
      point = spot.anchor;
    }
    const [sx, sy] = toStage(project, point, W, H);
    const w = tag.offsetWidth;
    const h = tag.offsetHeight;
    const dx = sx - W / 2;
    const dy = sy - H / 2;
    const len = Math.hypot(dx, dy) || 1;
    const caption = tag.classList.contains("caption");
    const out = caption ? 0 : 1;
    boxes.push({
      tag, w, h,
      x: sx - w / 2 + (out * dx * w * 0.3) / len,
      y: caption ? sy + 4 : sy - h / 2 + (out * dy * h * 0.6) / len,
    });
  }
  const obstacles = [];
  const fanObstacles = {};
  const hand = $("my-hand");
  if (hand.children.length && view.geo) {
    obstacles.push(screenBox(project, standingCorners(view.geo.hand, view.geo.hand.w, view.geo.hand.ch), W, H));
  }
  if ($("giver-hand").children.length) {
    obstacles.push(screenBox(project, standingCorners(view.geo.pick, view.geo.pick.w, view.geo.pick.h), W, H));
  }
  // Every hand at its seat stays in sight (face up in replays and at a round's end, the
  // odd card at its holder's), and so does the card set aside: a tag rests beside its fan.
  for (const [seat, box] of Object.entries(view.fanBoxes)) {
    // A seat with no cards left (a round's end): its tag still rests where its hand lay.
    if (box.w && !box.cards && view.state.round.over) fanObstacles[seat] = screenBox(project, lyingCorners(box), W, H);
    if (!box.w || !box.cards) continue;
    // A little room round it: its cards fan out a few degrees beyond the box.
    const r = screenBox(project, lyingCorners(box), W, H);
    const around = { x: r.x - 6, y: r.y - 6, w: r.w + 12, h: r.h + 12 };
    obstacles.push(around);
    fanObstacles[seat] = around;
  }
  let asideOnScreen = null;
  if (!$("set-aside").hidden && view.asideBox) {
    asideOnScreen = screenBox(project, lyingCorners(view.asideBox), W, H);
    obstacles.push(asideOnScreen);
  }
  // The pile, too, when there is one.
  if (view.geo.pile && view.state.round.discards.length) {
    const pl = view.geo.pile;
    obstacles.push(screenBox(project, lyingCorners({ x: pl.x + pl.cw * 0.3, y: pl.y, w: pl.cw * 2.4, h: pl.ch * 1.15, rot: 0 }), W, H));
  }
  // What floats over the table's corners: the view switch, the spectators count, the last move.
  const stage = $("stage").getBoundingClientRect();
  for (const el of [document.querySelector(".view-switch"), $("spectators"), phone ? null : line]) {
    if (!el || !el.offsetParent || el.hidden) continue;
    const r = el.getBoundingClientRect();
    obstacles.push({ x: r.left - stage.left, y: r.top - stage.top, w: r.width, h: r.height });
  }
  // In play the hands at the seats lie face down: on a crowded phone a tag with no clear
  // spot beside its fan may rest on that fan's edge (separate: ``onOwn``).
  const faceDown = !view.state.round.over && !view.state.replay;
  for (const b of boxes) {
    if (b.tag.dataset.tagSeat) {
      b.own = fanObstacles[b.tag.dataset.tagSeat];
      b.onOwn = faceDown;
    } else if (b.tag.classList.contains("caption") && asideOnScreen) b.own = asideOnScreen;
  }
  // The odd card's holder's tag finds its place first, and the others keep clear of it: the
  // loser must not look like someone else.
  // The card set aside's label, too: it names the card it lies under, and nothing else would.
  const holder = view.state.round.over && Object.entries(view.fanBoxes).find(([, box]) => box.holder && box.cards);
  const first = boxes.filter((b) => (holder && b.tag.dataset.tagSeat === holder[0]) || b.own === asideOnScreen);
  // The holder's starts right beside its hand, on the side where its seat put it: left
  // where it started, clear of everything, it may rest as far off as another seat's tag.
  const holderTag = holder && first.find((b) => b.tag.dataset.tagSeat === holder[0]);
  if (holderTag && holderTag.own) besideOwn(holderTag);
  if (first.length) separate(first, obstacles, W, H);
  // The others keep a little farther from the holder's hand than from any other: the odd
  // card's nearest tag is its holder's.
  const apart = [...obstacles, ...first];
  const held = holder && fanObstacles[holder[0]];
  if (held) apart.push({ x: held.x - ODD_ROOM, y: held.y - ODD_ROOM, w: held.w + 2 * ODD_ROOM, h: held.h + 2 * ODD_ROOM });
  separate(boxes.filter((b) => !first.includes(b)), apart, W, H);
  for (const b of boxes) b.tag.style.transform = `translate(${Math.round(b.x)}px, ${Math.round(b.y)}px)`;
  if (phone && line.offsetParent) {
    const r = line.getBoundingClientRect();
    const l = { x: r.left - stage.left, y: r.top - stage.top, w: r.width, h: r.height };
    const hits = (b) => b.x < l.x + l.w && b.x + b.w > l.x && b.y < l.y + l.h && b.y + b.h > l.y;
    line.classList.toggle("crowded", boxes.some(hits));
  }
}

/** The last move's line on the felt says the longest of its forms that its corner holds whole
 * (three lines at most: a phone's corner is narrow), else the shortest. Measured while it
 * shows, once for each move and each width of the felt (``place`` runs every frame of a glide);
 * hidden, it holds the longest until it shows. */
export function fitLine() {
  const line = $("table-line");
  const forms = view.lineForms;
  const width = line.offsetParent ? line.parentElement.clientWidth : 0;
  if (view.lineFit.forms === forms && view.lineFit.width === width) return;
  view.lineFit = { forms, width };
  if (!forms.length) line.textContent = "";
  for (const [i, form] of forms.entries()) {
    line.textContent = form;
    if (!width || i === forms.length - 1 || line.scrollHeight <= line.clientHeight + 1) return;
  }
}

// The table area takes what the screen has left below the header and the status line.
export function sizeArea() {
  const layout = $("table-layout");
  if (!layout) return;
  const top = layout.getBoundingClientRect().top + window.scrollY;
  document.documentElement.style.setProperty("--table-above", `${Math.round(top)}px`);
}

// Camera moves: the angled and top-down views glide; a drag turns the table under you.
export function moveCamera(target) {
  view.camera.custom = false;
  if (reducedMotion || view.flat) {
    Object.assign(view.camera, target);
    place();
    return;
  }
  const from = { tilt: view.camera.tilt, spin: view.camera.spin };
  const start = performance.now();
  stopGlide();
  // While it glides the table says so (``data-gliding``): no CSS animation tells it.
  $("table-wrap").dataset.gliding = "";
  const step = (now) => {
    const t = clamp((now - start) / 450, 0, 1);
    const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
    view.camera.tilt = from.tilt + (target.tilt - from.tilt) * e;
    view.camera.spin = from.spin + (target.spin - from.spin) * e;
    place();
    if (t < 1) view.tween = requestAnimationFrame(step);
    else stopGlide();
  };
  view.tween = requestAnimationFrame(step);
}

export function stopGlide() {
  cancelAnimationFrame(view.tween);
  view.tween = null;
  delete $("table-wrap").dataset.gliding;
}

export function setView(name) {
  view.camera.view = name;
  $("table-wrap").dataset.view = name;
  for (const b of document.querySelectorAll(".view-switch button")) {
    b.setAttribute("aria-pressed", b.dataset.view === name ? "true" : "false");
  }
  const stage = $("stage");
  moveCamera(defaultCamera(name, stage.clientWidth, stage.clientHeight, view.flat));
}
