"""Boxes on the page, measured in the browser (getBoundingClientRect): the turn's own
elements and the seats' name tags, and how far two boxes lie apart or overlap."""

#: The status line, the giver's cards, your own hand, the Draw control and the seats' name
#: tags as boxes in the viewport; the name tags' text that is cut; each seat's letter.
LAYOUT_BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height}; };
  const all = (sel) => [...document.querySelectorAll(sel)].map(box);
  const tags = [...document.querySelectorAll('.seat-tag')];
  // A reaction's bubble floats outside its tag, for 4 s (its place: test_table_clearance):
  // the tags' own text is measured without it.
  const bubbles = [...document.querySelectorAll('.seat-tag .reaction-bubble')];
  for (const b of bubbles) b.style.display = 'none';
  const cut = tags.flatMap((t) => [t, ...t.querySelectorAll('*')])
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
    .filter((el) => !el.classList.contains('visually-hidden') && !el.closest('.visually-hidden'))
    .map((el) => el.className + ': ' + el.textContent);
  for (const b of bubbles) b.style.display = '';
  return {
    width: innerWidth, height: innerHeight, scrollY: scrollY,
    status: all('#status-line'), giver: all('#giver-hand .card'), mine: all('#my-hand .card'),
    draw: all('#draw-3d'),
    tags: tags.map(box),
    cut,
    letters: tags.map((t) => t.querySelector('.badge').textContent),
  };
}"""

#: How far (px) a tag may rest from its own fan: about two tags' height, which a wide
#: Japanese tag beside a four-seat table's side fan needs on some deals (58 px seen).
BY_THE_FAN = 64


def overlap(a, b, slack=0.5):
    """How much two boxes overlap (0 when apart, or only touching within ``slack``)."""
    x = min(a["right"], b["right"]) - max(a["x"], b["x"]) - slack
    y = min(a["bottom"], b["bottom"]) - max(a["y"], b["y"]) - slack
    return x * y if x > 0 and y > 0 else 0


def gap(a, b):
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(0, max(a["x"], b["x"]) - min(a["right"], b["right"]))
    dy = max(0, max(a["y"], b["y"]) - min(a["bottom"], b["bottom"]))
    return (dx * dx + dy * dy) ** 0.5
