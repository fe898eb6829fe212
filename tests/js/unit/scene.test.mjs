// static/js/scene.js under node's test runner: the table's geometry, a pure function of the
// stage's size, the seats and the camera. These check what the drawn table relies on (every
// seat on the felt and on the stage, yours at the near edge, hands clear of each other,
// the fit inside any stage from a phone to a laptop, name tags pushed apart), as properties
// rather than numbers, so a retuned layout passes as long as it still holds them.
//
//   node --test tests/js/unit/
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CARD_RATIO, clamp, clearPick, defaultCamera, fit, isPortrait, layoutTable, liftFor, projector,
  railPoints, separate, settlePick, standingCorners,
} from "../../../static/js/scene.js";

// Stages from the smallest phone the site supports to a laptop and a desktop.
const STAGES = [[360, 740], [390, 844], [768, 1024], [1024, 768], [1366, 768], [1920, 1080]];
// The two the browser tests' matrix uses (tests/matrix.py SIZES): phone and laptop.
const MATRIX = [[360, 740], [1366, 768]];
const EPS = 1e-6;

/** The table laid out as placement.js lays it: the camera, the projection, the pick settled, the fit. */
function scene({ W, H, n, near = 0, handCount, pickCount = 0, view = "angled", flat = false }) {
  const camera = defaultCamera(view, W, H, flat);
  const cards = handCount ?? Math.ceil(51 / n) + 1;
  const g = layoutTable({ W, H, n, near, handCount: cards, pickCount, tilt: camera.tilt });
  const D = flat ? Infinity : Math.max(g.TW, g.TD) * 1.8;
  const project = projector({ ...camera, D });
  settlePick(g, project);
  const f = fit(g, project, W, H);
  const toStage = (p) => {
    const [x, y] = project(p);
    return [W / 2 + f.tx + f.s * x, H / 2 + f.ty + f.s * y];
  };
  return { g, project, f, toStage, camera, cards };
}

/** A w x h rectangle lying on the felt at (x, y), turned by rot degrees (placement.js). */
function lying({ x, y, w, h, rot }) {
  const a = (rot * Math.PI) / 180;
  return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([u, v]) => {
    const dx = (u * w) / 2;
    const dy = (v * h) / 2;
    return [x + dx * Math.cos(a) - dy * Math.sin(a), y + dx * Math.sin(a) + dy * Math.cos(a), 2];
  });
}

/** A seat's fan of k cards, as placement.js fans it. */
function fanOf(spot, k) {
  const step = k > 1 ? Math.min(spot.cw * 0.42, spot.maxFan / (k - 1)) : 0;
  return lying({ x: spot.x, y: spot.y, w: spot.cw + step * (k - 1), h: spot.ch, rot: spot.rot });
}

/** Whether two convex polygons overlap by more than ``slack`` (separating axes). */
function polygonsOverlap(P, Q, slack = 0.5) {
  for (const poly of [P, Q]) {
    for (let i = 0; i < poly.length; i++) {
      const [x1, y1] = poly[i];
      const [x2, y2] = poly[(i + 1) % poly.length];
      const l = Math.hypot(y2 - y1, x1 - x2);
      const axis = [(y2 - y1) / l, (x1 - x2) / l];
      const along = (R) => R.map(([x, y]) => x * axis[0] + y * axis[1]);
      const a = along(P);
      const b = along(Q);
      if (Math.max(...a) - Math.min(...b) <= slack || Math.max(...b) - Math.min(...a) <= slack) return false;
    }
  }
  return true;
}

const boxesOverlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = ([x, y], W, H, m = 0) => x >= m - EPS && x <= W - m + EPS && y >= m - EPS && y <= H - m + EPS;

test("clamp keeps a value between its bounds", () => {
  assert.equal(clamp(5, 0, 10), 5);
  assert.equal(clamp(-3, 0, 10), 0);
  assert.equal(clamp(12, 0, 10), 10);
});

test("a stage is portrait only when clearly taller than wide", () => {
  assert.ok(isPortrait(360, 740));
  assert.ok(!isPortrait(1366, 768));
  assert.ok(!isPortrait(800, 820), "a nearly square stage is laid out wide");
});

test("the default camera: angled (less on a phone), straight down for top, never tilted when flat", () => {
  const phone = defaultCamera("angled", 360, 740, false);
  const laptop = defaultCamera("angled", 1366, 768, false);
  assert.ok(phone.tilt > 0 && laptop.tilt > 0);
  assert.ok(phone.tilt < laptop.tilt, "a tall stage tilts less");
  assert.equal(phone.spin, 0);
  assert.deepEqual(defaultCamera("top", 1366, 768, false), { tilt: 0, spin: 0 });
  assert.deepEqual(defaultCamera("angled", 1366, 768, true), { tilt: 0, spin: 0 });
  assert.equal(liftFor(0), 0);
  assert.ok(liftFor(40) > 0 && liftFor(40) < 40, "a hand stands up by part of the tilt");
});

test("the projection: straight down it changes nothing; a spin turns the table; a tilt shortens depth", () => {
  const flat = projector({ tilt: 0, spin: 0, D: Infinity });
  const near = projector({ tilt: 0, spin: 0, D: 1000 });
  for (const p of [[0, 0, 0], [120, -80, 0], [-300, 200, 0]]) {
    assert.deepEqual(flat(p), [p[0], p[1]]);
    const [x, y] = near(p);
    assert.ok(Math.abs(x - p[0]) < EPS && Math.abs(y - p[1]) < EPS, "the felt lies at the focal plane");
  }
  const half = projector({ tilt: 0, spin: 180, D: Infinity })([50, 30, 0]);
  assert.ok(Math.abs(half[0] + 50) < EPS && Math.abs(half[1] + 30) < EPS, "half a turn puts the far side near");
  const tilted = projector({ tilt: 40, spin: 0, D: Infinity });
  const [, y] = tilted([0, 100, 0]);
  assert.ok(Math.abs(y - 100 * Math.cos((40 * Math.PI) / 180)) < EPS);
  // Under perspective, what stands up from the near edge comes towards the viewer (larger).
  const persp = projector({ tilt: 40, spin: 0, D: 1500 });
  assert.ok(Math.abs(persp([100, 200, 50])[0]) > Math.abs(persp([100, -200, 0])[0]));
});

test("standingCorners: a group standing on its bottom edge, flat on the felt or upright", () => {
  const lyingDown = standingCorners({ x: 10, y: 100, z: 0, lift: 0 }, 40, 60);
  assert.deepEqual(lyingDown.map((p) => p.map(Math.round)).sort(), [[-10, 100, 0], [-10, 40, 0], [30, 100, 0], [30, 40, 0]].sort());
  const upright = standingCorners({ x: 0, y: 100, z: 0, lift: Math.PI / 2 }, 40, 60);
  for (const [, y, z] of upright) {
    assert.ok(Math.abs(y - 100) < EPS, "upright, it keeps to its bottom edge's line");
    assert.ok(z >= -EPS && z <= 60 + EPS);
  }
  assert.ok(upright.some(([, , z]) => Math.abs(z - 60) < EPS));
});

test("every other seat of 2 to 8 gets a place on the felt, and the near seat is left to your hand", () => {
  for (const [W, H] of STAGES) {
    for (let n = 2; n <= 8; n++) {
      for (const near of [0, n - 1]) {
        const { g } = scene({ W, H, n, near });
        const seats = Object.keys(g.seats).map(Number).sort((a, b) => a - b);
        const want = [...Array(n).keys()].filter((s) => s !== near);
        assert.deepEqual(seats, want, `${W}x${H}, ${n} seats, near ${near}`);
        for (const s of seats) {
          const { x, y, anchor } = g.seats[s];
          // Inside the table's oval, and so inside its box.
          assert.ok((x / (g.TW / 2)) ** 2 + (y / (g.TD / 2)) ** 2 <= 1 + EPS, `seat ${s} on the felt at ${W}x${H}`);
          assert.ok(Math.abs(anchor[0]) <= g.TW / 2 + EPS && Math.abs(anchor[1]) <= g.TD / 2 + EPS);
          assert.ok(y < g.hand.y, "every other seat lies beyond your hand's bottom edge");
        }
      }
    }
  }
});

test("your hand stands at the near edge: lower on the screen than every other seat, centred", () => {
  for (const [W, H] of STAGES) {
    for (let n = 2; n <= 8; n++) {
      const { g, toStage } = scene({ W, H, n });
      assert.equal(g.hand.x, 0);
      assert.ok(g.hand.y > g.TD / 2 - g.rim && g.hand.y <= g.TD / 2, "its bottom edge at the near rail");
      const [, handBottom] = toStage([g.hand.x, g.hand.y, g.hand.z]);
      for (const spot of Object.values(g.seats)) {
        assert.ok(toStage([spot.x, spot.y, spot.z])[1] < handBottom, `${W}x${H}, ${n} seats`);
      }
      assert.ok(handBottom > H / 2, "the near edge is the stage's lower half");
    }
  }
});

test("the others sit in order round the far side, from your left to your right, mirrored", () => {
  for (const [W, H] of STAGES) {
    for (let n = 3; n <= 8; n++) {
      const near = 2 % n;
      const { g } = scene({ W, H, n, near });
      const order = Array.from({ length: n - 1 }, (_, k) => g.seats[(near + 1 + k) % n]);
      for (let k = 1; k < order.length; k++) assert.ok(order[k].x > order[k - 1].x, `${W}x${H}, ${n} seats: left to right`);
      for (let k = 0; k < order.length; k++) {
        const a = order[k];
        const b = order[order.length - 1 - k];
        // (arcAngles walks the rail in 240 steps and takes the first step past each mark,
        // so the mirror holds to a step or so: about 1% of the table's width)
        const step = g.TW / 50;
        assert.ok(Math.abs(a.x + b.x) < step && Math.abs(a.y - b.y) < step, "mirrored about the middle");
      }
    }
    const { g } = scene({ W, H, n: 2 });
    assert.ok(Math.abs(g.seats[1].x) < EPS && g.seats[1].y < 0, "a lone opponent sits straight across");
  }
});

test("every hand, the table and your hand lie inside the stage, from a phone to a desktop", () => {
  for (const [W, H] of STAGES) {
    for (let n = 2; n <= 8; n++) {
      for (const view of ["angled", "top"]) {
        const { g, toStage, cards } = scene({ W, H, n, view });
        for (const spot of Object.values(g.seats)) {
          for (const p of fanOf(spot, cards)) assert.ok(inside(toStage(p), W, H), `${W}x${H}, ${n} seats, ${view}: a fan off the stage`);
          assert.ok(inside(toStage(spot.anchor), W, H));
        }
        for (const p of standingCorners(g.hand, g.hand.w, g.hand.ch)) assert.ok(inside(toStage(p), W, H), "your hand off the stage");
      }
    }
  }
});

test("fit scales the table and your hand into any stage from 360x740 to 1366x768, centred, with its margin", () => {
  for (let W = 360; W <= 1366; W += 73) {
    for (let H = 480; H <= 900; H += 60) {
      for (const flat of [false, true]) {
        const { g, project, f, toStage } = scene({ W, H, n: 5, flat });
        assert.ok(f.s > 0 && f.s <= 1.35, "never blown up past 1.35");
        const pts = [...railPoints(g), ...standingCorners(g.hand, g.hand.maxW, g.hand.ch)].map(toStage);
        for (const p of pts) assert.ok(inside(p, W, H, 6), `${W}x${H}: ${p} outside the margin`);
        // It fills the stage one way: the limiting side reaches the margins (unless capped).
        const xs = pts.map((p) => p[0]);
        const ys = pts.map((p) => p[1]);
        const fills = Math.max(Math.max(...xs) - Math.min(...xs) - (W - 12), Math.max(...ys) - Math.min(...ys) - (H - 12));
        assert.ok(f.s === 1.35 || Math.abs(fills) < 1e-6, `${W}x${H}: fills the stage`);
        // Centred: the margins left and right (top and bottom) are equal.
        assert.ok(Math.abs(Math.min(...xs) - (W - Math.max(...xs))) < 1e-6);
        assert.ok(Math.abs(Math.min(...ys) - (H - Math.max(...ys))) < 1e-6);
        assert.ok(project);
      }
    }
  }
});

test("your hand fits the near rail at any count, overlapping its cards at most down to a third", () => {
  for (const [W, H] of STAGES) {
    for (const count of [1, 2, 5, 12, 20, 27]) {
      const { g } = scene({ W, H, n: 2, handCount: count });
      const h = g.hand;
      assert.equal(h.count, count);
      assert.ok(h.w <= h.maxW + EPS, `${W}x${H}, ${count} cards: wider than the rail`);
      assert.ok(Math.abs(h.ch - h.cw * CARD_RATIO) < EPS, "cards are 5:7");
      assert.ok(h.cw >= 44, "no card narrower than 44 px");
      if (count > 1) {
        assert.ok(h.step > 0 && h.step <= h.cw * 0.72 + EPS, "cards overlap, each one showing");
        assert.ok(h.step >= h.cw * 0.34 - EPS || h.cw === 44, "at least a third of each card shows");
      } else {
        assert.equal(h.step, 0);
      }
    }
  }
});

test("the hands at the seats never overlap each other nor your hand, nor the pile (phone and laptop)", () => {
  for (const [W, H] of MATRIX) {
    for (let n = 2; n <= 8; n++) {
      for (const view of ["angled", "top"]) {
        const { g, project, cards } = scene({ W, H, n, view });
        const fans = Object.entries(g.seats).map(([s, spot]) => [s, fanOf(spot, cards).map(project)]);
        const c = standingCorners(g.hand, g.hand.w, g.hand.ch).map(project);
        const hand = [c[0], c[1], c[3], c[2]];
        const pile = lying({ x: g.pile.x, y: g.pile.y, w: g.pile.cw, h: g.pile.ch, rot: 0 }).map(project);
        const what = `${W}x${H}, ${n} seats, ${view}`;
        for (const [s, fan] of fans) {
          assert.ok(!polygonsOverlap(fan, hand), `${what}: seat ${s}'s hand under yours`);
          assert.ok(!polygonsOverlap(fan, pile), `${what}: seat ${s}'s hand on the pile`);
          for (const [t, other] of fans) {
            if (s < t) assert.ok(!polygonsOverlap(fan, other), `${what}: seats ${s} and ${t} overlap`);
          }
        }
        assert.ok(!polygonsOverlap(pile, hand), `${what}: the pile under your hand`);
      }
    }
  }
});

test("the giver's hand lifts in one row, in two from eight cards, as wide as the table allows", () => {
  for (const [W, H] of STAGES) {
    for (const count of [1, 4, 7, 8, 13, 27]) {
      const { g } = scene({ W, H, n: 3, pickCount: count });
      const p = g.pick;
      assert.equal(p.rows, count >= 8 ? 2 : 1);
      assert.ok(p.rows * p.perRow >= count, "room for every card");
      assert.ok(p.w <= g.TW * 0.94 + EPS, `${W}x${H}, ${count} cards: wider than the table`);
      assert.ok(Math.abs(p.ch - p.cw * CARD_RATIO) < EPS);
      assert.ok(p.z > g.hand.z, "lifted above the felt");
    }
  }
});

test("settlePick moves the giver's hand back until it clears your hand on screen, and sets the pile between", () => {
  for (const [W, H] of STAGES) {
    for (const count of [3, 9, 14]) {
      const { g, project } = scene({ W, H, n: 4, handCount: 10, pickCount: count });
      const handTop = Math.min(...standingCorners(g.hand, g.hand.maxW, g.hand.ch).map((p) => project(p)[1]));
      const pickBottom = Math.max(...standingCorners(g.pick, g.pick.w, g.pick.h).map((p) => project(p)[1]));
      assert.ok(pickBottom <= handTop - 6 + EPS, `${W}x${H}, ${count} cards: the giver's hand on yours`);
      assert.ok(g.pile.y >= -g.TD * 0.28 - EPS && g.pile.y <= g.TD * 0.05 + EPS, "the pile stays in the middle band");
      assert.ok(g.pile.y < g.hand.y);
    }
  }
});

test("clearPick shrinks the giver's hand until it hides none of the others (or reaches its least size)", () => {
  const bbox = (pts) => {
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    return { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
  };
  for (const [W, H] of STAGES) {
    const { g, project } = scene({ W, H, n: 6, handCount: 9, pickCount: 16 });
    const before = g.pick.cw;
    // The far hands, drawn as placement.js does, and the pile.
    const others = (geo) => [
      ...Object.values(geo.seats).map((spot) => fanOf(spot, 9)),
      lying({ x: geo.pile.x + geo.pile.cw * 0.3, y: geo.pile.y, w: geo.pile.cw * 2.7, h: geo.pile.ch * 1.4, rot: 0 }),
    ];
    clearPick(g, project, others);
    const pick = bbox(standingCorners(g.pick, g.pick.w, g.pick.h).map(project));
    const hidden = others(g).some((corners) => {
      const o = bbox(corners.map(project));
      return pick.x < o.x + o.w + 4 && pick.x + pick.w > o.x - 4 && pick.y < o.y + o.h + 4 && pick.y + pick.h > o.y - 4;
    });
    assert.ok(g.pick.cw <= before);
    assert.ok(!hidden || g.pick.cw <= 30 + EPS, `${W}x${H}: the giver's hand still hides a hand`);
    assert.ok(Math.abs(g.pick.w - (g.pick.cw + (g.pick.perRow - 1) * g.pick.step)) < EPS, "its width follows its cards");
  }
});

// The stages the browser gives the table at the matrix's sizes: a laptop's 1366x768 (beside
// the panel, under the header) and a phone's 360x740.
const TABLE_STAGES = [[1040, 580], [348, 560]];

test("from eight cards the giver's hand overlaps its cards rather than shrink below the seats' cards (or a fingertip)", () => {
  for (const [W, H] of TABLE_STAGES) {
    for (let n = 2; n <= 8; n++) {
      for (const count of [8, 10, 13]) {
        const { g, project, f } = scene({ W, H, n, handCount: 8, pickCount: count });
        const seatCw = Math.max(...Object.values(g.seats).map((spot) => spot.cw));
        // The other seats' hands (the giver's is lifted out) and the pile, as placement.js has them.
        const others = (geo) => [
          ...Object.entries(geo.seats).filter(([s]) => s !== "1").map(([, spot]) => fanOf(spot, 7)),
          lying({ x: geo.pile.x + geo.pile.cw * 0.3, y: geo.pile.y, w: geo.pile.cw * 2.7, h: geo.pile.ch * 1.4, rot: 0 }),
        ];
        clearPick(g, project, others, Math.max(seatCw, 46 / f.s));
        const p = g.pick;
        const what = `${W}x${H}, ${n} seats, ${count} cards`;
        assert.ok(p.cw >= seatCw - EPS, `${what}: the giver's cards (${p.cw}) smaller than the seats' (${seatCw})`);
        assert.ok(p.cw * f.s >= 44, `${what}: the giver's cards ${p.cw * f.s} px wide on screen`);
        assert.ok(p.rows * p.perRow >= count, `${what}: room for every card`);
        assert.ok(p.perRow < 2 || p.step >= p.cw * 0.55 - EPS, `${what}: a card shows less than half of itself`);
        assert.ok(p.w <= g.TW * 0.94 + EPS, `${what}: wider than the table`);
      }
    }
  }
});

/** A small seeded random generator, so a failure repeats. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test("separate leaves name tags apart, off the obstacles and inside the stage, when there is room", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const r = random(seed);
    const W = 360 + Math.floor(r() * 1000);
    const H = 500 + Math.floor(r() * 400);
    const boxes = Array.from({ length: 2 + Math.floor(r() * 6) }, () => ({
      x: W * 0.3 + r() * W * 0.3, y: H * 0.3 + r() * H * 0.3, w: 60 + r() * 60, h: 24 + r() * 16,
    }));
    const obstacles = [{ x: W * 0.2, y: H * 0.75, w: W * 0.6, h: H * 0.2 }];
    separate(boxes, obstacles, W, H);
    for (const [i, b] of boxes.entries()) {
      assert.ok(b.x >= 4 - EPS && b.y >= 4 - EPS && b.x + b.w <= W - 4 + EPS && b.y + b.h <= H - 4 + EPS, `seed ${seed}: box ${i} off the stage`);
      assert.ok(!obstacles.some((o) => boxesOverlap(b, o)), `seed ${seed}: box ${i} on an obstacle`);
      for (const o of boxes.slice(i + 1)) assert.ok(!boxesOverlap(b, o), `seed ${seed}: boxes overlap`);
    }
  }
});

test("separate moves nothing that overlaps nothing, and moves a tag only a little, beside its own fan", () => {
  const apart = [{ x: 10, y: 10, w: 80, h: 30 }, { x: 200, y: 10, w: 80, h: 30 }];
  const copy = apart.map((b) => ({ ...b }));
  separate(apart, [{ x: 10, y: 300, w: 300, h: 50 }], 400, 400);
  for (const [i, b] of apart.entries()) assert.deepEqual([b.x, b.y], [copy[i].x, copy[i].y]);

  // A tag dropped on its own fan ends right beside it, touching no part of it.
  const fan = { x: 150, y: 150, w: 100, h: 60 };
  const tag = { x: 170, y: 160, w: 70, h: 24, own: fan };
  separate([tag], [fan], 400, 400);
  assert.ok(!boxesOverlap(tag, fan));
  const gapX = Math.max(0, fan.x - (tag.x + tag.w), tag.x - (fan.x + fan.w));
  const gapY = Math.max(0, fan.y - (tag.y + tag.h), tag.y - (fan.y + fan.h));
  assert.ok(Math.hypot(gapX, gapY) <= 10, "it rests beside its fan");

  // A tag left clear but far from its own fan (pushed along a row of others on a crowded
  // phone) comes back beside it, where nothing lies.
  const mine = { x: 100, y: 200, w: 30, h: 40 };
  const far = { x: 250, y: 205, w: 80, h: 20, own: mine };
  separate([far], [mine], 400, 400);
  const gapFar = Math.hypot(
    Math.max(0, mine.x - (far.x + far.w), far.x - (mine.x + mine.w)),
    Math.max(0, mine.y - (far.y + far.h), far.y - (mine.y + mine.h)),
  );
  assert.ok(gapFar <= 48 && !boxesOverlap(far, mine), `it came back beside its fan (${gapFar} px)`);

  // A box pushed off the stage's edge comes back in.
  const off = [{ x: -50, y: 390, w: 60, h: 20 }];
  separate(off, [], 400, 400);
  assert.deepEqual([off[0].x, off[0].y], [4, 376]);
});

test("separate rests a tag with no clear spot beside its face-down fan on that fan's edge, and only then", () => {
  // A crowded phone's left side (8 seats, seen in a test): the tag's fan below two
  // neighbours' fans, the pile and another tag to its right, the giver's lifted hand below;
  // nothing clear lies within reach.
  const mine = { x: 37, y: 338, w: 57, h: 73 };
  const obstacles = [
    mine, { x: 49, y: 278, w: 70, h: 73 }, { x: 88, y: 238, w: 67, h: 56 },
    { x: 136, y: 318, w: 72, h: 44 }, { x: 4, y: 415, w: 352, h: 80 },
  ];
  const neighbour = { x: 122, y: 367, w: 69, h: 27 };
  const stranded = () => ({ x: 9, y: 248, w: 75, h: 27, own: mine });
  const apartFrom = (a, o) => Math.hypot(
    Math.max(0, o.x - (a.x + a.w), a.x - (o.x + o.w)),
    Math.max(0, o.y - (a.y + a.h), a.y - (o.y + o.h)),
  );
  const kept = stranded();
  separate([kept, { ...neighbour }], obstacles, 360, 520);
  assert.ok(apartFrom(kept, mine) > 48, "without onOwn it stays where it was");

  const onIt = { ...stranded(), onOwn: true };
  const other = { ...neighbour };
  separate([onIt, other], obstacles, 360, 520);
  assert.equal(apartFrom(onIt, mine), 0, "it rests on its own fan");
  for (const o of [...obstacles.slice(1), other]) assert.ok(!boxesOverlap(onIt, o), "and on nothing else");
});
