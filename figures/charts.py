"""Charts as inline SVG, drawn on the server: no charting library, nothing to download.

Each chart is an image with a title and a short description for screen readers; the
page prints the same numbers as a table beside it. Colours come from the stylesheet
(``.series-N``), so the charts follow light and dark themes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

WIDTH = 480  # small enough that 12px text stays legible when a phone scales it down
LEFT, RIGHT, TOP, BOTTOM = 36, 18, 10, 24


@dataclass
class Series:
    label: str
    values: list[float]


def nice_top(value: float) -> float:
    """The smallest of 1, 2 or 5 × 10ⁿ at or above ``value``: the top of the scale."""
    if value <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(value))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= value)


def _n(value: float) -> str:
    """A coordinate, to a tenth of a pixel."""
    return f"{value:.1f}".removesuffix(".0")


def text_width(text: str) -> float:
    """About how wide ``text`` is at 12px: CJK characters are twice as wide as Latin."""
    return sum(12 if ord(ch) >= 0x2E80 else 7.2 for ch in str(text))


def _frame(
    chart_id: str,
    title: str,
    description: str,
    height: int,
    body: SafeString,
    width: int = WIDTH,
):
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-labelledby="{}-t {}-d">'
        '<title id="{}-t">{}</title><desc id="{}-d">{}</desc>{}</svg>',
        width,
        height,
        chart_id,
        chart_id,
        chart_id,
        title,
        chart_id,
        description,
        body,
    )


def columns(
    chart_id: str,
    title: str,
    description: str,
    labels: list[str],
    series: list[Series],
    height: int = 220,
) -> SafeString:
    """Stacked columns, one per label (a day), one colour per series, with a legend."""
    totals = [sum(s.values[i] for s in series) for i in range(len(labels))]
    top = max(nice_top(max(totals, default=0)), 2)  # counts: whole numbers on the scale
    plot_w, plot_h = WIDTH - LEFT - RIGHT, height - TOP - BOTTOM
    step = plot_w / max(len(labels), 1)
    bar_w = max(step * 0.7, 1)
    parts: list[SafeString] = []
    for tick in (0, top / 2, top):  # the scale: three lines, labelled
        y = _n(TOP + plot_h - tick / top * plot_h)
        parts.append(
            format_html(
                '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
                '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
                LEFT,
                WIDTH - RIGHT,
                y,
                y,
                LEFT - 6,
                _n(TOP + plot_h - tick / top * plot_h + 4),
                f"{tick:g}",
            )
        )
    every = max(1, round(len(labels) / 10))  # about ten date labels at most
    for i, label in enumerate(labels):
        x = LEFT + i * step + (step - bar_w) / 2
        base = TOP + plot_h
        for n, s in enumerate(series):
            value = s.values[i]
            if not value:
                continue
            h = value / top * plot_h
            base -= h
            parts.append(
                format_html(
                    '<rect class="series-{}" x="{}" y="{}" width="{}" height="{}">'
                    "<title>{}: {} {}</title></rect>",
                    n,
                    _n(x),
                    _n(base),
                    _n(bar_w),
                    _n(h),
                    label,
                    s.label,
                    f"{value:g}",
                )
            )
        if i % every == 0:
            parts.append(
                format_html(
                    '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
                    _n(x + bar_w / 2),
                    height - 10,
                    label,
                )
            )
    return _frame(chart_id, title, description, height, mark_safe("".join(parts)))


def bars(
    chart_id: str,
    title: str,
    description: str,
    rows: list[tuple[str, float, str]],
    top: float | None = None,
) -> SafeString:
    """Horizontal bars: (label, value, the value as printed at the bar's end)."""
    row_h = 26
    label_w = min(WIDTH * 0.55, max((text_width(label) for label, _, _ in rows), default=0) + 14)
    value_w = max((text_width(text) for _, _, text in rows), default=0) + 10
    height = TOP + row_h * max(len(rows), 1) + 4
    top = top or nice_top(max((value for _, value, _ in rows), default=0) or 1)
    plot_w = WIDTH - label_w - value_w
    body = format_html_join(
        "",
        '<text class="label" x="{}" y="{}" text-anchor="end">{}</text>'
        '<rect class="series-{}" x="{}" y="{}" width="{}" height="{}"/>'
        '<text class="value" x="{}" y="{}">{}</text>',
        (
            (
                _n(label_w - 8),
                TOP + i * row_h + 15,
                label,
                0,
                _n(label_w),
                TOP + i * row_h,
                _n(value / top * plot_w),
                row_h - 10,
                _n(label_w + value / top * plot_w + 6),
                TOP + i * row_h + 15,
                text,
            )
            for i, (label, value, text) in enumerate(rows)
        ),
    )
    return _frame(chart_id, title, description, height, body)


def grouped_bars(
    chart_id: str,
    title: str,
    description: str,
    labels: list[str],
    series: list[Series],
    *,
    formatted: list[list[str]] | None = None,
    reference: float | None = None,
    reference_label: str = "",
    top: float | None = None,
    width: int = 360,
) -> SafeString:
    """Horizontal bars in groups: one group per label (a seat), one bar per series (a deal)
    in the series' colour, each with its value printed at the end (``formatted[series][i]``
    if given). ``reference`` draws a dashed line across the groups (e.g. a fair share).
    Narrower than the other charts by default, so that a phone shows it near full size."""
    bar_h, gap, group_gap = 12, 2, 10
    group_h = len(series) * (bar_h + gap) - gap
    label_w = min(width * 0.4, max((text_width(label) for label in labels), default=0) + 14)
    texts = formatted or [[f"{v:g}" for v in s.values] for s in series]
    value_w = max((text_width(t) for row in texts for t in row), default=0) + 10
    height = TOP + len(labels) * (group_h + group_gap) + (BOTTOM if reference else 0)
    highest = max((v for s in series for v in s.values), default=0)
    top = top or nice_top(max(highest, reference or 0) or 1)
    plot_w = width - label_w - value_w
    parts: list[SafeString] = []
    for i, label in enumerate(labels):
        y0 = TOP + i * (group_h + group_gap)
        parts.append(
            format_html(
                '<text class="label" x="{}" y="{}" text-anchor="end">{}</text>',
                _n(label_w - 8),
                _n(y0 + group_h / 2 + 4),
                label,
            )
        )
        for n, s in enumerate(series):
            value = s.values[i]
            y = y0 + n * (bar_h + gap)
            length = value / top * plot_w
            parts.append(
                format_html(
                    '<rect class="series-{}" x="{}" y="{}" width="{}" height="{}">'
                    "<title>{}, {}: {}</title></rect>"
                    '<text class="value" x="{}" y="{}">{}</text>',
                    n,
                    _n(label_w),
                    y,
                    _n(length),
                    bar_h,
                    label,
                    s.label,
                    texts[n][i],
                    _n(label_w + length + 4),
                    y + bar_h - 2,
                    texts[n][i],
                )
            )
    if reference:
        x = _n(label_w + reference / top * plot_w)
        bottom = height - BOTTOM + 4
        parts.append(
            format_html(
                '<line class="reference" x1="{}" x2="{}" y1="{}" y2="{}"/>'
                '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
                x,
                x,
                TOP - 4,
                bottom,
                x,
                bottom + 14,
                reference_label,
            )
        )
    return _frame(chart_id, title, description, height, mark_safe("".join(parts)), width)
