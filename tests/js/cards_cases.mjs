// Runs static/js/cards.js under node on the cases in a JSON file and prints what it drew
// and said, as JSON. tests/js/test_cards_js.py writes the cases (every variant's deck, the
// page's card labels in each language) and checks the answers.
//
//   node tests/js/cards_cases.mjs cases.json
//
// Input:  {"decks": {variant: [code, ...]}, "labels": {language: dataset}}
// Output: {"suitPaths", "back", "faces": [{variant, code, svg, element}],
//          "names": {language: {variant: {code: name}}}, "pairs": {language: [...]}}
import { readFile } from "node:fs/promises";

import { Element } from "./fake_element.mjs";

globalThis.document = {
  createElement: (tag) => new Element(tag),
  getElementById: () => null,
};

const cards = await import("../../static/js/cards.js");

const path = process.argv[2];
if (!path) {
  console.error("usage: node tests/js/cards_cases.mjs CASES.json");
  process.exit(2);
}
const { decks, labels, pairs } = JSON.parse(await readFile(path, "utf8"));
const out = { suitPaths: cards.SUIT_PATHS, back: null, faces: [], names: {}, pairs: {} };

const back = cards.cardBack();
out.back = { className: back.className, svg: back.innerHTML, pure: cards.backSVG() };

const english = labels.en;
for (const [variant, codes] of Object.entries(decks)) {
  for (const code of codes) {
    const el = cards.cardFace(code, { variant, L: english });
    out.faces.push({
      variant,
      code,
      svg: cards.faceSVG(code, variant),
      element: {
        tag: el.tagName,
        className: el.className,
        attributes: el.attributes,
        dataset: el.dataset,
        innerHTML: el.innerHTML,
      },
    });
  }
}
for (const [language, L] of Object.entries(labels)) {
  out.names[language] = {};
  for (const [variant, codes] of Object.entries(decks)) {
    out.names[language][variant] = Object.fromEntries(
      codes.map((code) => [code, cards.cardName(code, { variant, L })]),
    );
  }
  out.pairs[language] = pairs.map(([variant, codes]) => cards.pairName(codes, { variant, L }));
}
process.stdout.write(JSON.stringify(out));
