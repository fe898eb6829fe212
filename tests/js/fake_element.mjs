// The least of a DOM element that static/js/cards.js fills (cardFace, cardBack): its tag,
// attributes, dataset, class and inner HTML. Node has no DOM; the scripts and unit tests
// that run cards.js under node make their document.createElement from this.
export class Element {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.dataset = {};
    this.className = "";
    this.innerHTML = "";
  }
  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }
}
