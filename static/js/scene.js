// The table's geometry: where every hand lies on the felt, where the camera looks from,
// and where each point lands on the screen. Pure functions of the stage's size, the seats
// and the camera, so the page computes the same projection CSS draws (and places the 2D
// name tags on it) without measuring transformed elements.
//
// Table units are CSS pixels before the fit: the origin is the table's centre, x runs to
// the right, y towards the near edge (the player's own seat), z up from the felt.

const RAD = Math.PI / 180;
export const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
export const CARD_RATIO = 1.4; // 5:7

export function isPortrait(W, H) {
  return H > W * 1.05;
}

/** The default camera: angled, or straight down; flat mode never tilts. */
export function defaultCamera(view, W, H, flat) {
  if (flat || view === "top") return { tilt: 0, spin: 0 };
  return { tilt: isPortrait(W, H) ? 30 : 40, spin: 0 };
}

/** A hand stands up from the felt towards the viewer by part of the camera's tilt. */
export const liftFor = (tilt) => tilt * 0.6;

// Opponents sit on an arc from the near left round the far side to the near right,
// evenly spaced along the rail (so a wide table puts more of them on its long far side).
function arcAngles(count, a, b, portrait) {
  if (count === 1) return [0];
  // On a tall (phone) table the near half belongs to your hand and the giver's: the others
  // keep to the far half.
  const wide = count === 2 ? 58 : count === 3 ? 88 : count === 4 ? 100 : 110;
  const spread = (portrait ? Math.min(wide, count === 2 ? 62 : 84) : wide) * RAD;
  const steps = 240;
  const marks = [[-spread, 0]];
  let total = 0;
  for (let i = 1; i <= steps; i++) {
    const p0 = -spread + (2 * spread * (i - 1)) / steps;
    const p1 = -spread + (2 * spread * i) / steps;
    total += Math.hypot(a * (Math.sin(p1) - Math.sin(p0)), b * (Math.cos(p1) - Math.cos(p0)));
    marks.push([p1, total]);
  }
  return Array.from({ length: count }, (_, k) => {
    const want = (total * k) / (count - 1);
    const hit = marks.find(([, length]) => length >= want - 1e-6) || marks[marks.length - 1];
    return hit[0] / RAD;
  });
}

/** Where each part of the table goes, for a stage of W x H pixels. */
export function layoutTable({ W, H, n, near, handCount, pickCount, reserve = 0, tilt }) {
  const portrait = isPortrait(W, H);
  const TW = portrait ? W * 0.98 : Math.min(W * 0.94, H * 2.1);
  const TD = portrait ? Math.min(H * 0.98, W * 2.3) : H * 1.02;
  const short = Math.min(TW, TD);
  const rim = clamp(short * 0.035, 9, 20);
  const lift = liftFor(tilt) * RAD;

  // Your hand stands at the near rail, large and face up.
  // As big as the rail allows; with many cards they overlap (down to a third showing).
  const hand = { maxW: TW * 0.96 };
  hand.cw = clamp(Math.min(TW / 4.3, TD / 4.6), 50, 104);
  if (handCount > 1 && (hand.maxW - hand.cw) / (handCount - 1) < hand.cw * 0.34) {
    hand.cw = Math.max(44, hand.maxW / (1 + 0.34 * (handCount - 1)));
  }
  hand.ch = hand.cw * CARD_RATIO;
  hand.count = handCount;
  hand.step = handCount > 1 ? Math.min(hand.cw * 0.72, (hand.maxW - hand.cw) / (handCount - 1)) : 0;
  hand.w = hand.cw + hand.step * Math.max(0, handCount - 1);
  hand.x = 0;
  hand.y = TD / 2 - rim * 0.4; // its bottom edge
  hand.z = 2;
  hand.lift = lift;

  // The giver's hand, when you draw from it: lifted to the middle of the near side, big,
  // in two rows from eight cards on.
  const rows = pickCount >= 8 ? 2 : 1;
  const perRow = Math.max(1, Math.ceil(pickCount / rows));
  const gap = clamp(short * 0.014, 4, 10);
  const pickMax = clamp(Math.min(TW / 5, TD / 6), 44, 84);
  const pcw = Math.min(pickMax, (TW * 0.94 - gap * (perRow - 1)) / perRow);
  const pick = { cw: pcw, ch: pcw * CARD_RATIO, rows, perRow, gap, count: pickCount };
  pick.step = pcw + gap; // from one card to the next in its row (less: they overlap)
  pick.rowStep = pick.ch + gap; // from one row to the next
  pick.w = perRow * pcw + (perRow - 1) * gap;
  pick.h = rows * pick.ch + (rows - 1) * gap;
  pick.x = 0;
  pick.z = 24;
  pick.lift = lift;
  pick.y = hand.y - hand.ch * Math.cos(lift) - gap * 2; // moved back until it clears your hand
  // The room the giver's hand takes when it lifts (now, or at the next turn): the pile
  // lies beyond it.
  pick.reserveRows = Math.max(pickCount, reserve) >= 8 ? 2 : 1;
  pick.reserveH = pick.reserveRows * pick.ch + (pick.reserveRows - 1) * gap;

  // The others: fanned face down at their places round the far side.
  const fanCw = clamp(short / 11.5, 24, 48);
  const others = [];
  for (let k = 1; k < n; k++) others.push((near + k) % n);
  const a = TW / 2 - rim - fanCw * 0.95;
  const b = TD / 2 - rim - fanCw * 0.95;
  const angles = arcAngles(others.length, a, b, portrait);
  const ta = TW / 2 - rim * 0.3;
  const tb = TD / 2 - rim * 0.3;
  const seats = {};
  others.forEach((seat, k) => {
    const phi = angles[k] * RAD;
    const x = a * Math.sin(phi);
    const y = -b * Math.cos(phi);
    // The fan lies along the rail, held from the rail: its cards point to the middle.
    const rot = Math.atan2(Math.sin(phi) / a, Math.cos(phi) / b) / RAD + 180;
    seats[seat] = {
      x, y, z: 1, rot, cw: fanCw, ch: fanCw * CARD_RATIO,
      anchor: [ta * Math.sin(phi), -tb * Math.cos(phi), 0],
      maxFan: fanCw * (others.length >= 5 ? 2.3 : 3.2),
    };
  });

  const pile = { x: 0, y: -TD * 0.1, z: 1, cw: clamp(short / 10, 28, 50) };
  pile.ch = pile.cw * CARD_RATIO;
  pile.far = -b + fanCw * CARD_RATIO * 0.6; // the far hands' inner edge

  return { TW, TD, rim, portrait, hand, pick, seats, pile, near };
}

/** The camera's projection: table point -> screen offset from the stage's centre, before
 * the fit. The same maths as CSS: rotateX(tilt) rotateZ(spin) under a perspective. */
export function projector({ tilt, spin, D }) {
  const ct = Math.cos(tilt * RAD);
  const st = Math.sin(tilt * RAD);
  const cs = Math.cos(spin * RAD);
  const ss = Math.sin(spin * RAD);
  return ([x, y, z]) => {
    const x1 = x * cs - y * ss;
    const y1 = x * ss + y * cs;
    const y2 = y1 * ct - z * st;
    const z2 = y1 * st + z * ct;
    const f = Number.isFinite(D) ? D / (D - z2) : 1;
    return [x1 * f, y2 * f];
  };
}

/** The corners of a group standing on its bottom edge at (x, y, z), w wide and h tall,
 * leaning back towards the viewer by ``lift`` radians. */
export function standingCorners({ x, y, z, lift }, w, h) {
  const pts = [];
  for (const u of [-w / 2, w / 2]) {
    for (const v of [0, -h]) pts.push([x + u, y + v * Math.cos(lift), z - v * Math.sin(lift)]);
  }
  return pts;
}

function bbox(points) {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const [x, y] of points) {
    box.x0 = Math.min(box.x0, x);
    box.y0 = Math.min(box.y0, y);
    box.x1 = Math.max(box.x1, x);
    box.y1 = Math.max(box.y1, y);
  }
  return box;
}

export function railPoints(g) {
  const pts = [];
  for (let i = 0; i < 24; i++) {
    const t = (i / 24) * 2 * Math.PI;
    const x = (g.TW / 2) * Math.cos(t);
    const y = (g.TD / 2) * Math.sin(t);
    // A rounded rectangle sits between the ellipse and its box; take the box's corners in.
    const k = 1.12;
    pts.push([clamp(x * k, -g.TW / 2, g.TW / 2), clamp(y * k, -g.TD / 2, g.TD / 2), 0]);
  }
  return pts;
}

/** Moves the giver's hand back until, on screen, it clears the top of your hand. */
export function settlePick(g, project) {
  const { hand, pick } = g;
  const handTop = Math.min(...standingCorners(hand, hand.maxW, hand.ch).map((p) => project(p)[1]));
  for (let i = 0; i < 40; i++) {
    const bottom = Math.max(...standingCorners(pick, pick.w, pick.h).map((p) => project(p)[1]));
    if (bottom <= handTop - 6) break;
    pick.y -= 6;
  }
  // The pile: halfway between the far hands and the lifted giver's hand.
  const { pile } = g;
  const pickTop = pick.y - pick.reserveH * Math.cos(pick.lift);
  pile.y = clamp((pile.far + pickTop) / 2, -g.TD * 0.28, g.TD * 0.05);
}

/** Makes the giver's hand smaller, in its rows, until on screen it hides none of
 * ``others(g)``: what a phone's narrow table does (clearPick's overlapping rows of big cards
 * leave its name tags no room). */
export function shrinkPick(g, project, others, minCw = 30) {
  const { pick } = g;
  const m = 4; // a little air between them
  const overlaps = (a, b) => a.x0 < b.x1 + m && a.x1 > b.x0 - m && a.y0 < b.y1 + m && a.y1 > b.y0 - m;
  for (let i = 0; i < 20 && pick.count && pick.cw > minCw; i++) {
    const box = bbox(standingCorners(pick, pick.w, pick.h).map(project));
    if (!others(g).some((corners) => overlaps(box, bbox(corners.map(project))))) return;
    const cw = Math.max(minCw, pick.cw * 0.92);
    const bottom = pick.y;
    Object.assign(pick, { cw, ch: cw * CARD_RATIO });
    pick.step = cw + pick.gap;
    pick.rowStep = pick.ch + pick.gap;
    pick.w = pick.perRow * cw + (pick.perRow - 1) * pick.gap;
    pick.h = pick.rows * pick.ch + (pick.rows - 1) * pick.gap;
    pick.reserveH = pick.reserveRows * pick.ch + (pick.reserveRows - 1) * pick.gap;
    pick.y = bottom;
    settlePick(g, project);
  }
}

/** Lays the giver's hand out again, ``cw`` wide cards in ``rows`` rows, each card ``step``
 * after the one before it in its row and each row ``rowStep`` below the one before. */
function shapePick(pick, cw, rows, step, rowStep) {
  const ch = cw * CARD_RATIO;
  const perRow = Math.max(1, Math.ceil(pick.count / rows));
  Object.assign(pick, { cw, ch, rows, perRow, step, rowStep });
  pick.w = cw + (perRow - 1) * step;
  pick.h = ch + (rows - 1) * rowStep;
  pick.reserveRows = rows;
  pick.reserveH = pick.h;
}

/** Makes the giver's hand take less room until, on screen, it hides none of ``others(g)``
 * (the corners, in table units, of the other seats' hands and of the pile, which
 * settlePick places again each time): two rows of big cards would cover the far hands and
 * the pile. Its cards overlap more first (one row, or rows that overlap too), and only then
 * get smaller, never below ``minCw`` (the cards at the seats; a fingertip on a phone). */
export function clearPick(g, project, others, minCw = 30) {
  const { pick } = g;
  if (!pick.count) return;
  const m = 4; // a little air between them
  // How much of the others it hides (0: none), as boxes on screen.
  const hidden = () => {
    const a = bbox(standingCorners(pick, pick.w, pick.h).map(project));
    let total = 0;
    for (const corners of others(g)) {
      const b = bbox(corners.map(project));
      const x = Math.min(a.x1, b.x1 + m) - Math.max(a.x0, b.x0 - m);
      const y = Math.min(a.y1, b.y1 + m) - Math.max(a.y0, b.y0 - m);
      if (x > 0 && y > 0) total += x * y;
    }
    return total;
  };
  pick.step ??= pick.cw + pick.gap;
  pick.rowStep ??= pick.ch + pick.gap;
  if (pick.cw >= minCw && !hidden()) return;
  const bottom = pick.y;
  const maxW = g.TW * 0.94;
  let best = null;
  // From the biggest cards down: the fewest rows, the cards overlapping more and more (each
  // still shows over half of itself, to be read and picked), the rows overlapping too.
  for (let cw = Math.max(pick.cw, minCw); ; cw = Math.max(minCw, cw * 0.92)) {
    const ch = cw * CARD_RATIO;
    for (let rows = 1; rows <= 3; rows++) {
      const perRow = Math.ceil(pick.count / rows);
      const widest = perRow > 1 ? Math.min(cw + pick.gap, (maxW - cw) / (perRow - 1)) : 0;
      if (perRow > 1 && widest < cw * 0.55) continue;
      const steps = perRow > 1 ? [widest, Math.min(widest, cw * 0.75), cw * 0.55] : [0];
      for (const step of steps) {
        for (const rowStep of rows > 1 ? [ch + pick.gap, ch * 0.8, ch * 0.62] : [0]) {
          shapePick(pick, cw, rows, step, rowStep);
          pick.y = bottom;
          settlePick(g, project);
          const area = hidden();
          if (!area) return;
          if (!best || area < best.area) best = { area, shape: [cw, rows, step, rowStep] };
        }
      }
    }
    if (cw <= minCw) break;
  }
  // Nothing clears everything: the shape that hides least of them.
  shapePick(pick, ...best.shape);
  pick.y = bottom;
  settlePick(g, project);
}

/** The 2D scale and shift that fit the table and your hand into the stage. */
export function fit(g, project, W, H, margin = 6) {
  const pts = railPoints(g).map(project);
  for (const p of standingCorners(g.hand, g.hand.maxW, g.hand.ch)) pts.push(project(p));
  const box = bbox(pts);
  const bw = box.x1 - box.x0;
  const bh = box.y1 - box.y0;
  const s = Math.min((W - 2 * margin) / bw, (H - 2 * margin) / bh, 1.35);
  return { s, tx: -s * (box.x0 + box.x1) / 2, ty: -s * (box.y0 + box.y1) / 2 };
}

/** The room ``separate`` leaves between a box and what it was moved off. */
export const TAG_GAP = 3;

/** Moves 2D boxes ({x, y, w, h}: x, y the top left; ``own``: the box it belongs beside)
 * off each other and off the obstacles, inside a W x H stage, each as little as it can: every box in turn takes the
 * cheapest of the places that clear what it overlaps (overlap costs far more than
 * distance), until none can do better; one still overlapping then takes the nearest clear
 * spot of a fine grid round its own fan, if there is one (or, with ``onOwn``, one on the
 * fan's own edge). */
export function separate(boxes, obstacles, W, H, margin = 4, gap = TAG_GAP) {
  const area = (a, b) => {
    const x = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) + gap;
    const y = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) + gap;
    return x > 0 && y > 0 ? x * y : 0;
  };
  const keepIn = (b, x, y) => [
    clamp(x, margin, Math.max(margin, W - margin - b.w)),
    clamp(y, margin, Math.max(margin, H - margin - b.h)),
  ];
  const cost = (b, x, y) => {
    const c = { x, y, w: b.w, h: b.h };
    let total = Math.hypot(x - b.ax, y - b.ay);
    for (const o of obstacles) {
      const a = area(c, o);
      if (a) total += 800 + a * 40;
    }
    for (const o of boxes) {
      if (o === b) continue;
      const a = area(c, o);
      if (a) total += 1000 + a * 50;
    }
    return total;
  };
  for (const b of boxes) {
    [b.x, b.y] = keepIn(b, b.x, b.y);
    b.ax = b.x;
    b.ay = b.y;
  }
  for (let round = 0; round < 40; round++) {
    let moved = false;
    for (const b of boxes) {
      const hits = [...obstacles, ...boxes.filter((o) => o !== b)].filter((o) => area(b, o));
      if (!hits.length) continue;
      const places = [];
      // A tag's own fan (``b.own``): the places right beside it come first to mind.
      if (b.own) {
        const o = b.own;
        const cx = o.x + o.w / 2 - b.w / 2;
        const cy = o.y + o.h / 2 - b.h / 2;
        places.push(
          [cx, o.y - b.h - gap], [cx, o.y + o.h + gap], [o.x - b.w - gap, cy], [o.x + o.w + gap, cy],
          [o.x, o.y - b.h - gap], [o.x + o.w - b.w, o.y - b.h - gap],
          [o.x, o.y + o.h + gap], [o.x + o.w - b.w, o.y + o.h + gap],
        );
      }
      for (const o of hits) {
        places.push(
          [o.x + o.w + gap, b.y], [o.x - b.w - gap, b.y], [b.x, o.y + o.h + gap], [b.x, o.y - b.h - gap],
          [o.x + o.w + gap, o.y - b.h - gap], [o.x - b.w - gap, o.y - b.h - gap],
          [o.x + o.w + gap, o.y + o.h + gap], [o.x - b.w - gap, o.y + o.h + gap],
        );
      }
      let best = [b.x, b.y];
      let bestCost = cost(b, b.x, b.y);
      for (const [px, py] of places) {
        const [x, y] = keepIn(b, px, py);
        const c = cost(b, x, y);
        if (c < bestCost - 0.5) {
          best = [x, y];
          bestCost = c;
        }
      }
      if (best[0] !== b.x || best[1] !== b.y) {
        [b.x, b.y] = best;
        moved = true;
      }
    }
    if (!moved) break;
  }
  // A box the moves above left overlapping (a crowded phone: every place beside what it
  // hits is taken), or left clear but farther than ``NEAR`` from its own fan (pushed along
  // a row of others), takes the nearest spot of a fine grid round its own fan (or where it
  // started) that clears everything, if there is one: never farther than ``NEAR``.
  const step = 6;
  const NEAR = 48;
  const apart = (a, o) => Math.hypot(
    Math.max(0, o.x - (a.x + a.w), a.x - (o.x + o.w)),
    Math.max(0, o.y - (a.y + a.h), a.y - (o.y + o.h)),
  );
  // Where no such spot exists and the tag may cover its own fan (``b.onOwn``: its cards
  // lie face down), it rests on the fan's edge instead: by its own cards, on no one else's.
  const nearest = (b, home, others) => {
    let best = null;
    let bestDistance = Infinity;
    const [x0, y0] = keepIn(b, home.x - b.w - NEAR, home.y - b.h - NEAR);
    const [x1, y1] = keepIn(b, home.x + home.w + NEAR, home.y + home.h + NEAR);
    for (let y = y0; y <= y1; y += step) {
      for (let x = x0; x <= x1; x += step) {
        const c = { x, y, w: b.w, h: b.h };
        if (apart(c, home) > NEAR || others.some((o) => area(c, o))) continue;
        const distance = Math.hypot(x - b.x, y - b.y);
        if (distance < bestDistance) {
          best = [x, y];
          bestDistance = distance;
        }
      }
    }
    return best;
  };
  for (const b of boxes) {
    const others = [...obstacles, ...boxes.filter((o) => o !== b)];
    if (!others.some((o) => area(b, o)) && !(b.own && apart(b, b.own) > NEAR)) continue;
    const home = b.own || { x: b.ax, y: b.ay, w: b.w, h: b.h };
    const best = nearest(b, home, others)
      || (b.own && b.onOwn ? nearest(b, home, others.filter((o) => o !== b.own)) : null);
    if (best) [b.x, b.y] = best;
  }
}
