// Playing cards: faces and backs as inline SVG, and every card's name in words.
// The one place that knows what a card looks like and what it is called; the table, the
// replay and the results all use it.
//
//   cardFace(code, { variant, L })  -> <span class="card face red|black [court|joker|peter]"
//                                     role="img" aria-label="ace of hearts" data-card="AH">
//                                     with the face's SVG inside (aria-hidden)
//   cardBack()                      -> <span class="card back"> with the designed back
//   cardName(code, { variant, L })  -> "ace of hearts", "ハートのA", "红心A", "the Black Peter"
//                                      ({ alone: true }: a card's own label, "Joker" not "den Joker")
//   pairName([a, b], { variant, L }) -> "queen of hearts and queen of clubs"
//   faceSVG(code, variant), backSVG() -> the SVG markup itself (pure; what the tests check)
//
// ``L`` is the dataset of <template id="card-labels"> (templates/lobby/_card_labels.html):
// the page language's rank and suit words and the patterns that join them. Without it the
// functions read that template from the page.
//
// Drawing: a 100 x 140 box (5:7). Each face holds two drawings: the full card (corner
// indices, pips where printed cards put them, court figures) and a compact one (a large
// index and suit) that cards.css shows instead when the card is drawn narrower than
// 60 px, so that a phone's smallest cards still read. Colours of the suit ink come from
// CSS (currentColor), so dark mode and themes change them in one place.

const SUITS = { S: 0, H: 1, D: 2, C: 3 };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export function isPeter(code, variant) {
  return code === "JC" && variant === "schwarzer_peter";
}

// -- names ---------------------------------------------------------------------------

function pageLabels() {
  const el = typeof document !== "undefined" && document.getElementById("card-labels");
  if (!el) throw new Error("cards.js: no <template id=card-labels> on the page");
  return el.dataset;
}

export function cardName(code, { variant, L, alone = false } = {}) {
  L = L || pageLabels();
  // ``alone``: the name as a card's own label (a hand's list, a face's aria-label), where
  // a language that declines it inside sentences ("den Joker") names it as it is.
  if (code === "JK") return (alone && L.jokerAlone) || L.joker;
  if (isPeter(code, variant)) return (alone && L.peterAlone) || L.peter;
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  const rankWord = L.ranks.split("|")[RANKS.indexOf(rank)];
  const suitWord = L.suits.split("|")[SUITS[suit]];
  return L.cardName.replace("{rank}", rankWord).replace("{suit}", suitWord);
}

// Two cards thrown away together: "queen of hearts and queen of clubs".
export function pairName(codes, { variant, L } = {}) {
  L = L || pageLabels();
  const [first, second] = codes.map((code) => cardName(code, { variant, L }));
  return L.pair.replace("{first}", first).replace("{second}", second);
}

// -- drawing: shapes ------------------------------------------------------------------

const fmt = (n) => String(Math.round(n * 100) / 100);

// Suit symbols, drawn in a 100 x 100 box centred on 0,0 (never text: the same in every
// language and font).
const circle = (cx, cy, r) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
export const SUIT_PATHS = {
  S:
    "M0-48C9-31 48-14 48 12C48 28 36 36 24 36C14 36 7 31 3 24C4 34 8 42 17 48H-17" +
    "C-8 42-4 34-3 24C-7 31-14 36-24 36C-36 36-48 28-48 12C-48-14-9-31 0-48Z",
  H:
    "M0 46C-6 36-48 12-48-16C-48-36-34-46-22-46C-10-46-3-38 0-28C3-38 10-46 22-46" +
    "C34-46 48-36 48-16C48 12 6 36 0 46Z",
  D: "M0-50C10-34 22-18 38 0C22 18 10 34 0 50C-10 34-22 18-38 0C-22-18-10-34 0-50Z",
  C: circle(0, -24, 21) + circle(-24, 9, 21) + circle(24, 9, 21) + circle(0, 4, 10) +
    "M-4 6C-3 30-8 40-18 48H18C8 40 3 30 4 6Z",
};

function star(points = 5, outer = 50, inner = 21) {
  let d = "";
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI * i) / points - Math.PI / 2;
    d += `${i ? "L" : "M"}${fmt(r * Math.cos(a))} ${fmt(r * Math.sin(a))}`;
  }
  return `${d}Z`;
}
const STAR = star();

// A suit symbol of the given size (in card units) centred at x, y; upside down on request.
function pip(suit, x, y, size, { flip = false, cls = "pip" } = {}) {
  const turn = flip ? " rotate(180)" : "";
  return `<path class="${cls}" d="${SUIT_PATHS[suit]}" transform="translate(${fmt(x)} ${fmt(y)}) scale(${fmt(size / 100)})${turn}"/>`;
}

function starAt(x, y, size, cls = "star") {
  return `<path class="${cls}" d="${STAR}" transform="translate(${fmt(x)} ${fmt(y)}) scale(${fmt(size / 100)})"/>`;
}

// Both corners: the top-left index and the same turned about the centre (bottom right).
function corners(inner) {
  return `<g class="index">${inner}</g><g class="index" transform="rotate(180 50 70)">${inner}</g>`;
}

function rankText(rank, x, y, size, anchor = "middle") {
  // "10" is kept as narrow as one letter is wide.
  const fit = rank === "10" ? ` textLength="${fmt(size * 1.02)}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text class="rank" x="${x}" y="${y}" font-size="${size}" text-anchor="${anchor}"${fit}>${rank}</text>`;
}

// -- drawing: pips --------------------------------------------------------------------

// Where printed cards put their pips: columns left, centre, right; rows as a fraction of
// the pip field from top (0) to bottom (1). Pips below the middle are printed upside down.
const L_ = 31;
const C_ = 50;
const R_ = 69;
const PIP_LAYOUT = {
  2: [[C_, 0], [C_, 1]],
  3: [[C_, 0], [C_, 0.5], [C_, 1]],
  4: [[L_, 0], [R_, 0], [L_, 1], [R_, 1]],
  5: [[L_, 0], [R_, 0], [C_, 0.5], [L_, 1], [R_, 1]],
  6: [[L_, 0], [R_, 0], [L_, 0.5], [R_, 0.5], [L_, 1], [R_, 1]],
  7: [[L_, 0], [R_, 0], [C_, 0.25], [L_, 0.5], [R_, 0.5], [L_, 1], [R_, 1]],
  8: [[L_, 0], [R_, 0], [C_, 0.25], [L_, 0.5], [R_, 0.5], [C_, 0.75], [L_, 1], [R_, 1]],
  9: [[L_, 0], [R_, 0], [L_, 1 / 3], [R_, 1 / 3], [C_, 0.5], [L_, 2 / 3], [R_, 2 / 3], [L_, 1], [R_, 1]],
  10: [[L_, 0], [R_, 0], [C_, 1 / 6], [L_, 1 / 3], [R_, 1 / 3], [L_, 2 / 3], [R_, 2 / 3], [C_, 5 / 6], [L_, 1], [R_, 1]],
};
const PIP_TOP = 25;
const PIP_BOTTOM = 115;

function pips(rank, suit) {
  if (rank === "A") {
    if (suit !== "S") return pip(suit, 50, 70, 42);
    // The ace of spades, larger, with a ring and a fine inner line, as decks print it.
    return (
      `<circle class="flourish" cx="50" cy="70" r="33" fill="none" stroke="currentColor" stroke-width=".8"/>` +
      pip(suit, 50, 70, 52) +
      `<path class="flourish" d="${SUIT_PATHS.S}" transform="translate(50 70) scale(.36)" fill="none" stroke="#fff" stroke-width="2.6"/>`
    );
  }
  const size = Number(rank) >= 9 ? 18 : 20;
  return PIP_LAYOUT[rank]
    .map(([x, f]) => pip(suit, x, PIP_TOP + f * (PIP_BOTTOM - PIP_TOP), size, { flip: f > 0.5 }))
    .join("");
}

// -- drawing: court cards, the joker, the Black Peter ---------------------------------

const GOLD = "#d9a033";
const BLUE = "#2f5d9a";
const SKIN = "#f7dcc0";
const HAIR = "#4a3326";
const LINE = "#29231f";
const PAPER = "#fdf6e6";

const FRAME = { x: 21, y: 9, w: 58, h: 122 };

function frame(fill, stroke = "currentColor") {
  const { x, y, w, h } = FRAME;
  return `<rect class="frame" x="${x}" y="${y}" width="${w}" height="${h}" rx="2.5" fill="${fill}" stroke="${stroke}" stroke-width="1.2"/>`;
}

function face(cx, cy) {
  return (
    `<ellipse cx="${cx}" cy="${cy}" rx="8" ry="9.5" fill="${SKIN}"/>` +
    `<g stroke="none" fill="${LINE}"><circle cx="${cx - 3.2}" cy="${cy - 0.5}" r=".95"/><circle cx="${cx + 3.2}" cy="${cy - 0.5}" r=".95"/></g>` +
    `<path d="M${cx - 2.2} ${cy + 4.6}q2.2 1.4 4.4 0" fill="none"/>`
  );
}

// The upper half of a court figure, in card units (the frame's top half, y 9 to 70); the
// lower half is the same turned about the centre, as on printed cards.
const HEADS = {
  K: (suit) =>
    // crown, hair, face, beard
    `<path d="M39 36Q38 22 50 22Q62 22 61 36Z" fill="${HAIR}"/>` +
    face(50, 33) +
    `<path d="M42 34Q42 47 50 49Q58 47 58 34Q55 40 50 40Q45 40 42 34Z" fill="${HAIR}"/>` +
    `<path d="M45.5 40.5Q50 38.6 54.5 40.5" fill="none" stroke="${SKIN}" stroke-width="1"/>` +
    `<path d="M40 26V15L44.8 20.5L50 12L55.2 20.5L60 15V26Z" fill="${GOLD}"/>` +
    `<g fill="${GOLD}"><circle cx="40" cy="14.6" r="1.6"/><circle cx="50" cy="11.4" r="1.8"/><circle cx="60" cy="14.6" r="1.6"/></g>` +
    `<rect x="40" y="23" width="20" height="3" fill="currentColor" stroke="none"/>` +
    pip(suit, 50, 18.6, 5, { cls: "jewel" }),
  Q: (suit) =>
    `<path d="M40 33Q39 20 50 19.5Q61 20 60 33L63 50Q58 49 56.5 44H43.5Q42 49 37 50Z" fill="${HAIR}"/>` +
    face(50, 33) +
    `<path d="M41 24Q42 20.5 50 20.5Q58 20.5 59 24L58 26Q50 23.6 42 26Z" fill="${GOLD}"/>` +
    `<g fill="${GOLD}"><circle cx="43.6" cy="20.6" r="2"/><circle cx="50" cy="18" r="2.4"/><circle cx="56.4" cy="20.6" r="2"/></g>` +
    pip(suit, 50, 18, 3.4, { cls: "jewel" }),
  J: (suit) =>
    `<path d="M41 33Q40 23 50 23Q60 23 59 33L58 36H42Z" fill="${HAIR}"/>` +
    face(50, 34) +
    `<path d="M38 25Q40 15 50 15Q60 15 62 25Q50 22 38 25Z" fill="${BLUE}"/>` +
    `<path d="M37 25.5Q50 21.5 63 25.5Q50 28.5 37 25.5Z" fill="${GOLD}"/>` +
    `<path d="M57.5 20Q61 11 68 10Q64.5 14 60.5 22Z" fill="currentColor"/>`,
};

const BODIES = {
  K: () =>
    // a sword behind the shoulder, a robe in the suit's ink, an ermine collar, a gold band
    `<path d="M66.5 20L70.5 60" stroke="#8795a6" stroke-width="2.4" fill="none"/>` +
    `<path d="M63.2 26.4L70.2 25.5" stroke="${GOLD}" stroke-width="1.8" fill="none"/>` +
    `<path d="M29 70V57Q31 47 42 45H58Q69 47 71 57V70Z" fill="currentColor"/>` +
    `<rect x="45.5" y="50" width="9" height="20" fill="${GOLD}"/>` +
    `<path d="M36 47.5Q50 55 64 47.5Q61 45 58 45Q50 50 42 45Q39 45 36 47.5Z" fill="#fffaf0"/>` +
    `<g fill="${LINE}" stroke="none"><circle cx="41" cy="48.6" r=".7"/><circle cx="50" cy="51.3" r=".7"/><circle cx="59" cy="48.6" r=".7"/></g>` +
    `<g fill="${PAPER}" stroke="none"><circle cx="50" cy="56" r="1.3"/><circle cx="50" cy="62" r="1.3"/></g>`,
  Q: (suit) =>
    // a gown in the suit's ink with a gold bodice, holding a flower
    `<path d="M29 70V58Q31 47 43 45H57Q69 47 71 58V70Z" fill="currentColor"/>` +
    `<path d="M43 45L50 56L57 45Z" fill="${GOLD}"/>` +
    `<path d="M46 45L50 50.5L54 45Z" fill="${SKIN}" stroke="none"/>` +
    `<path d="M36.5 54Q38 61 41.5 69" stroke="#3f7d3a" stroke-width="1.3" fill="none"/>` +
    `<g fill="${GOLD}">${[0, 72, 144, 216, 288]
      .map((a) => `<circle cx="${fmt(36 + 3 * Math.sin((a * Math.PI) / 180))}" cy="${fmt(53 - 3 * Math.cos((a * Math.PI) / 180))}" r="2.1"/>`)
      .join("")}</g>` +
    `<circle cx="36" cy="53" r="1.6" fill="currentColor"/>`,
  J: () =>
    // a halberd, a blue doublet with stripes in the suit's ink, a white collar
    `<path d="M34 32V70" stroke="#7a5230" stroke-width="1.8" fill="none"/>` +
    `<path d="M34 24L38 32L34 35.5L30 32Z" fill="#9aa6b4"/>` +
    `<path d="M30 70V58Q32 47 43 46H57Q68 47 70 58V70Z" fill="${BLUE}"/>` +
    `<path d="M41 51V70M50 51V70M59 51V70" stroke="currentColor" stroke-width="3" fill="none"/>` +
    `<path d="M40 46.5L50 52L60 46.5L57 45H43Z" fill="#fffaf0"/>`,
};

function courtHalf(rank, suit) {
  return (
    `<g class="figure" stroke="${LINE}" stroke-width=".7" stroke-linejoin="round">` +
    BODIES[rank](suit) +
    HEADS[rank](suit) +
    `</g>` +
    pip(suit, 27.5, 17, 9, { cls: "frame-pip" })
  );
}

function court(rank, suit) {
  const half = courtHalf(rank, suit);
  return (
    frame(PAPER) +
    `<g class="court-top">${half}</g>` +
    `<g transform="rotate(180 50 70)">${half}</g>` +
    `<path d="M21 70H79" stroke="currentColor" stroke-width=".8"/>`
  );
}

// The joker: a jester in motley, the whole height of the frame.
const JOKER_HEAD =
  `<path d="M50 40Q40 24 26 30Q33 33 37 44Z" fill="#c0182b"/>` +
  `<path d="M50 40Q54 22 46 12Q42 26 41 41Z" fill="${LINE}"/>` +
  `<path d="M50 40Q60 24 74 30Q67 33 63 44Z" fill="${GOLD}"/>` +
  `<path d="M37 45Q50 34 63 45L61 47Q50 40 39 47Z" fill="${BLUE}"/>` +
  `<g fill="${GOLD}"><circle cx="26" cy="30" r="2.6"/><circle cx="46" cy="12" r="2.6"/><circle cx="74" cy="30" r="2.6"/></g>` +
  `<ellipse cx="50" cy="53" rx="9" ry="10" fill="${SKIN}"/>` +
  `<g stroke="none"><circle cx="46.6" cy="52" r="1" fill="${LINE}"/><circle cx="53.4" cy="52" r="1" fill="${LINE}"/>` +
  `<circle cx="44.5" cy="56" r="1.6" fill="#e98a8a"/><circle cx="55.5" cy="56" r="1.6" fill="#e98a8a"/></g>` +
  `<path d="M45.5 57.2Q50 61.5 54.5 57.2" fill="none"/>`;

function jokerFigure() {
  const motley = [];
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 4 - (row % 2); col++) {
      const x = 35 + col * 10 + (row % 2) * 5;
      const y = 83 + row * 10;
      const fill = (row + col) % 2 ? "#c0182b" : LINE;
      motley.push(`<path d="M${x} ${y - 5}L${x + 5} ${y}L${x} ${y + 5}L${x - 5} ${y}Z" fill="${fill}"/>`);
    }
  }
  const ruff = [];
  for (let i = 0; i < 8; i++) {
    const x = 34 + i * 4;
    ruff.push(`<path d="M${x} 66L${x + 2} 72L${x + 4} 66Z" fill="${i % 2 ? GOLD : "#fffaf0"}"/>`);
  }
  return (
    frame(PAPER, GOLD) +
    `<g class="figure" stroke="${LINE}" stroke-width=".7" stroke-linejoin="round">` +
    `<path d="M30 118V80Q32 70 42 68H58Q68 70 70 80V118Z" fill="${GOLD}"/>` +
    `<g stroke="none">${motley.join("")}</g>` +
    `<path d="M30 118V80Q32 70 42 68H58Q68 70 70 80V118Z" fill="none"/>` +
    ruff.join("") +
    JOKER_HEAD +
    `</g>` +
    `<g class="star-row" fill="${GOLD}" stroke="${LINE}" stroke-width="1.6">${starAt(32, 124, 9)}${starAt(50, 124, 11)}${starAt(68, 124, 9)}</g>`
  );
}

// The Black Peter: a chimney sweep on the rooftops, with his brush and his top hat.
const PETER_HEAD =
  `<ellipse cx="50" cy="44" rx="8.6" ry="9.6" fill="${SKIN}"/>` +
  `<g stroke="none" fill="#55504b" opacity=".55"><ellipse cx="44.8" cy="47.5" rx="2.6" ry="1.6"/><ellipse cx="55" cy="39.5" rx="2" ry="1.3"/><ellipse cx="51" cy="50.8" rx="1.6" ry="1"/></g>` +
  `<g stroke="none"><circle cx="46.8" cy="42.6" r="1.5" fill="#fff"/><circle cx="53.2" cy="42.6" r="1.5" fill="#fff"/>` +
  `<circle cx="47" cy="42.8" r=".8" fill="${LINE}"/><circle cx="53.4" cy="42.8" r=".8" fill="${LINE}"/></g>` +
  `<path d="M45.2 47.4Q50 52.6 54.8 47.4Z" fill="#fff"/>` +
  `<rect x="41" y="14" width="18" height="21" rx="1" fill="#161514"/>` +
  `<rect x="41" y="29" width="18" height="3" fill="#6d6a66" stroke="none"/>` +
  `<ellipse cx="50" cy="35.2" rx="14" ry="2.6" fill="#161514"/>`;

function peterFigure() {
  const bristles = [];
  for (let i = 0; i < 16; i++) {
    const a = (Math.PI * 2 * i) / 16;
    bristles.push(`M${fmt(29 + 3 * Math.cos(a))} ${fmt(30 + 3 * Math.sin(a))}L${fmt(29 + 8 * Math.cos(a))} ${fmt(30 + 8 * Math.sin(a))}`);
  }
  return (
    frame("#e7edf3", LINE) +
    // smoke, a chimney and the roof
    `<g fill="#b8c0c8" stroke="none" opacity=".8"><circle cx="31" cy="80" r="4"/><circle cx="35" cy="72" r="5"/><circle cx="30" cy="64" r="3.6"/></g>` +
    `<path d="M21 131V114L79 100V131Z" fill="#7a3b2e" stroke="${LINE}" stroke-width=".7"/>` +
    `<path d="M21 120L79 106M21 126L79 112" stroke="#5c2b21" stroke-width=".8" fill="none"/>` +
    `<rect x="25" y="86" width="13" height="30" fill="#a4553f" stroke="${LINE}" stroke-width=".7"/>` +
    `<rect x="23.5" y="84" width="16" height="4" fill="#8a4533" stroke="${LINE}" stroke-width=".7"/>` +
    `<path d="M25 93H38M25 100H38M25 107H38M31 88V93M28 93V100M34 100V107M31 107V114" stroke="#7a3b2e" stroke-width=".6" fill="none"/>` +
    `<g class="figure" stroke="${LINE}" stroke-width=".7" stroke-linejoin="round">` +
    // brush on its pole, over his shoulder
    `<path d="M29 30L60 104" stroke="#7a5230" stroke-width="1.8" fill="none"/>` +
    `<path d="${bristles.join("")}" stroke="#161514" stroke-width="1.3" fill="none"/>` +
    `<circle cx="29" cy="30" r="3.2" fill="#161514"/>` +
    // coat, scarf, buttons, a coil of rope
    `<path d="M33 106V66Q35 55 44 54H56Q65 55 67 66V106Z" fill="#1f1e1d"/>` +
    `<path d="M43 54L50 63L57 54Z" fill="#c0182b"/>` +
    `<g fill="${GOLD}">${[70, 78, 86, 94].map((y) => `<circle cx="46" cy="${y}" r="1.3"/><circle cx="54" cy="${y}" r="1.3"/>`).join("")}</g>` +
    `<circle cx="62" cy="70" r="5.5" fill="none" stroke="#b08a5a" stroke-width="1.6"/>` +
    `<circle cx="62" cy="70" r="3" fill="none" stroke="#b08a5a" stroke-width="1.2"/>` +
    PETER_HEAD +
    `</g>`
  );
}

// -- drawing: whole faces --------------------------------------------------------------

// Serif faces with lining figures (Georgia's old-style 3, 4, 5, 7, 9 would sink into the pip).
const FONT = `font-family="'DejaVu Serif', 'Noto Serif', Cambria, 'Times New Roman', serif" font-weight="700"`;

// The small drawing's emblem for picture cards, scaled into the lower right.
function emblem(markup, cx, cy, scale, [x, y] = [70, 103], backdrop = "") {
  const tx = x - cx * scale;
  const ty = y - cy * scale;
  const under = backdrop
    ? `<rect x="46" y="60" width="48" height="74" rx="3" fill="${backdrop}" stroke="${LINE}" stroke-width="1"/>`
    : "";
  return `${under}<g class="emblem" transform="translate(${fmt(tx)} ${fmt(ty)}) scale(${scale})">${markup}</g>`;
}

function faceParts(code, variant) {
  if (code === "JK") {
    return {
      kind: "joker",
      full: corners(starAt(11, 16, 15, "star")) + jokerFigure(),
      compact:
        `<g fill="${GOLD}" stroke="${LINE}" stroke-width="1.5">${starAt(24, 27, 40, "star")}</g>` +
        emblem(`<g stroke="${LINE}" stroke-width=".7">${JOKER_HEAD}</g>`, 50, 38, 1.6, [58, 96]),
    };
  }
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  const index = rankText(rank, 11, 21, 18) + pip(suit, 11, 32, 11, { cls: "index-pip" });
  const bigIndex = rankText(rank, 25, 42, 44) + pip(suit, 25, 66, 26, { cls: "index-pip" });
  if (isPeter(code, variant)) {
    return {
      kind: "peter",
      full: corners(index) + peterFigure(),
      compact: bigIndex + emblem(`<g stroke="${LINE}" stroke-width=".7">${PETER_HEAD}</g>`, 50, 34, 1.5, [70, 100], "#dfe7ef"),
    };
  }
  if (rank === "J" || rank === "Q" || rank === "K") {
    return {
      kind: "court",
      full: corners(index) + court(rank, suit),
      compact:
        bigIndex +
        emblem(`<g stroke="${LINE}" stroke-width=".7" stroke-linejoin="round">${HEADS[rank](suit)}</g>`, 50, 30, 1.6),
    };
  }
  return {
    kind: "pips",
    full: corners(index) + pips(rank, suit),
    compact: bigIndex + pip(suit, 72, 106, 40, { cls: "big-pip" }),
  };
}

const faces = new Map();

// The face's SVG markup: pure (the same code and variant always give the same string).
export function faceSVG(code, variant) {
  const key = `${code}/${isPeter(code, variant) ? "peter" : ""}`;
  if (!faces.has(key)) {
    const { kind, full, compact } = faceParts(code, variant);
    faces.set(
      key,
      `<svg class="card-art ${kind}" viewBox="0 0 100 140" width="100%" height="100%" aria-hidden="true" focusable="false" fill="currentColor" ${FONT}>` +
        `<g class="full">${full}</g><g class="compact" display="none">${compact}</g></svg>`,
    );
  }
  return faces.get(key);
}

// The back: the suit ink of the back colour (currentColor, from cards.css) under a white
// lattice, a double border and a medallion of the four suits.
function lattice(x0, y0, x1, y1, step) {
  const lines = [];
  // Lines x - y = c and x + y = c, clipped to the rectangle.
  for (let c = x0 - y1 + step / 2; c < x1 - y0; c += step) {
    const a = [Math.max(x0, y0 + c), Math.max(y0, x0 - c)];
    const b = [Math.min(x1, y1 + c), Math.min(y1, x1 - c)];
    lines.push(`M${fmt(a[0])} ${fmt(a[0] - c)}L${fmt(b[0])} ${fmt(b[0] - c)}`);
  }
  for (let c = x0 + y0 + step / 2; c < x1 + y1; c += step) {
    const a = [Math.max(x0, c - y1)];
    const b = [Math.min(x1, c - y0)];
    lines.push(`M${fmt(a[0])} ${fmt(c - a[0])}L${fmt(b[0])} ${fmt(c - b[0])}`);
  }
  return lines.join("");
}

let back = null;

export function backSVG() {
  if (back === null) {
    const suits = ["S", "H", "D", "C"];
    const spots = [[50, 61.5], [58.5, 70], [50, 78.5], [41.5, 70]];
    back =
      `<svg class="card-art back" viewBox="0 0 100 140" width="100%" height="100%" aria-hidden="true" focusable="false">` +
      `<rect x="5" y="5" width="90" height="130" rx="4" fill="currentColor"/>` +
      `<path class="lattice" d="${lattice(9, 9, 91, 131, 9)}" stroke="#fff" stroke-opacity=".3" stroke-width="1.3" fill="none"/>` +
      `<rect x="9" y="9" width="82" height="122" rx="2" fill="none" stroke="#fff" stroke-opacity=".75" stroke-width="1.2"/>` +
      `<circle cx="50" cy="70" r="17" fill="currentColor" stroke="#fff" stroke-width="1.6"/>` +
      `<circle cx="50" cy="70" r="13.5" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width=".8"/>` +
      `<g fill="#fff">${suits.map((s, i) => pip(s, spots[i][0], spots[i][1], 8.5, { cls: "back-pip" })).join("")}</g>` +
      `</svg>`;
  }
  return back;
}

// -- elements ---------------------------------------------------------------------------

export function cardFace(code, { variant, L } = {}) {
  const el = document.createElement("span");
  const suit = code === "JK" ? "" : code.slice(-1);
  const classes = ["card", "face"];
  if (code === "JK") classes.push("joker");
  else classes.push(suit === "H" || suit === "D" ? "red" : "black");
  if (isPeter(code, variant)) classes.push("peter");
  else if (/^[JQK][SHDC]$/.test(code)) classes.push("court");
  el.className = classes.join(" ");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code, { variant, L, alone: true }));
  el.dataset.card = code;
  el.innerHTML = faceSVG(code, variant);
  return el;
}

export function cardBack() {
  const el = document.createElement("span");
  el.className = "card back";
  el.innerHTML = backSVG();
  return el;
}
