"""The numbers behind the staff dashboard, read from the retained events.

Every figure is a count of events between two dates (both included), grouped by one or
two closed-set fields; nothing here can single anyone out, because nothing stored can.

What counts as what:
- a game is one match. Its start and its end are reported by one browser only: the only
  one in a game against the computer or on one device, and in a friends game the page of
  the *reporting seat*, the lowest-numbered seat whose player is at the table (a person,
  not left, not away; for the start, a moment away does not count); every other
  player's page stays silent (the server names the seat, ``games.engine.seats.reporting_seats``,
  and ``static/js/table/telemetry.js`` reads it).
  So a ``game_started`` event is one game started, whatever the number of players;
- a game is *completed* when its ``game_finished`` event says it was played to a result
  (won, lost or placed; a resignation is a result too). It is *abandoned* when its result
  is ``abandoned`` (nobody left at the table, every player left). A game whose end was
  never reported (the page was closed, the reporter's switch was off) is neither;
- the completion rate is completed games over games started: abandoned games and games
  with no reported end both count as not completed. Events are counted on the day they
  arrived, so at the edges of a range a game may be counted finished but not started;
- a friends-game connection is a ``connection`` event, succeeded or failed, with the
  number of reconnects the page needed;
- every table page sends one ``render_speed`` event (after two seconds of drawing), and a
  ``view_3d_failed`` event first when it had to fall back to the flat table: the 3D failure
  rate of a browser family is failures over table views;
- the device mix is taken over games started.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db.models import Count

from telemetry import schema
from telemetry.models import Event

RECONNECT_BUCKETS = (
    ("0", 0, 0),
    ("1", 1, 1),
    ("2–4", 2, 4),
    ("5+", 5, schema.NUMBERS["reconnects"][1]),
)
DEVICE_FIELDS = ("phone", "memory", "cores", "browser", "os")


def rate(part: int, whole: int) -> float | None:
    """part / whole, or None when there is nothing to divide (shown as a dash)."""
    return part / whole if whole else None


@dataclass
class ModeLine:
    """One way of playing's games: started, played to the end, abandoned."""

    mode: str
    started: int = 0
    completed: int = 0  # played to a result
    abandoned: int = 0

    @property
    def finished(self) -> int:
        """Every reported end: completed and abandoned games."""
        return self.completed + self.abandoned

    @property
    def no_end(self) -> int:
        """Games started whose end was never reported (never below zero at a range's edge)."""
        return max(self.started - self.finished, 0)

    @property
    def completion(self) -> float | None:
        return rate(self.completed, self.started)


@dataclass
class Report:
    start: date
    end: date
    days: list[date]
    started: dict[str, list[int]]  # mode -> games started on each day
    finished: dict[str, list[int]]  # mode -> games played to the end on each day
    modes: list[ModeLine]
    total: ModeLine
    events: int = 0  # every event in the range, of every kind
    connections: int = 0
    connected: int = 0
    reconnects: Counter = field(default_factory=Counter)  # bucket label -> connections
    reconnects_total: int = 0
    views_3d: dict[str, tuple[int, int]] = field(default_factory=dict)  # browser -> (fails, views)
    render_speeds: dict[str, Counter] = field(default_factory=dict)  # phone yes/no -> bucket
    devices: dict[str, Counter] = field(default_factory=dict)  # field -> value -> games

    @property
    def views(self) -> int:
        return sum(views for _, views in self.views_3d.values())

    @property
    def connection_rate(self) -> float | None:
        return rate(self.connected, self.connections)

    @property
    def mean_reconnects(self) -> float | None:
        return rate(self.reconnects_total, self.connections)


def _counts(events, *fields: str) -> dict[tuple, int]:
    rows = events.values(*fields).annotate(n=Count("id")).order_by()
    return {tuple(row[f] for f in fields): row["n"] for row in rows}


def build(start: date, end: date) -> Report:
    """The dashboard's figures for the days from ``start`` to ``end``, both included."""
    events = Event.objects.filter(date__gte=start, date__lte=end)
    days = [start + timedelta(days=i) for i in range((end - start).days + 1)]
    index = {day: i for i, day in enumerate(days)}

    started = {mode: [0] * len(days) for mode in schema.MODES}
    finished = {mode: [0] * len(days) for mode in schema.MODES}
    lines = {mode: ModeLine(mode) for mode in schema.MODES}
    per_day = _counts(
        events.filter(kind__in=("game_started", "game_finished")), "kind", "mode", "date", "result"
    )
    for (kind, mode, day, result), n in per_day.items():
        if kind == "game_started":
            started[mode][index[day]] += n
            lines[mode].started += n
        elif result == "abandoned":
            lines[mode].abandoned += n
        else:
            finished[mode][index[day]] += n
            lines[mode].completed += n
    total = ModeLine(
        "all",
        started=sum(line.started for line in lines.values()),
        completed=sum(line.completed for line in lines.values()),
        abandoned=sum(line.abandoned for line in lines.values()),
    )
    report = Report(start, end, days, started, finished, list(lines.values()), total)
    report.events = events.count()

    for (connected, reconnects), n in _counts(
        events.filter(kind="connection"), "connected", "reconnects"
    ).items():
        report.connections += n
        report.connected += n if connected == "yes" else 0
        count = reconnects or 0
        report.reconnects_total += count * n
        label = next(label for label, low, high in RECONNECT_BUCKETS if low <= count <= high)
        report.reconnects[label] += n

    fails = _counts(events.filter(kind="view_3d_failed"), "browser")
    views = _counts(events.filter(kind="render_speed"), "browser")
    for browser in schema.BROWSERS:
        failed, viewed = fails.get((browser,), 0), views.get((browser,), 0)
        if failed or viewed:
            # A page closed within two seconds sends no speed: count its failure as a view.
            report.views_3d[browser] = (failed, max(failed, viewed))

    for phone in ("yes", "no"):
        report.render_speeds[phone] = Counter()
    for (phone, speed), n in _counts(
        events.filter(kind="render_speed"), "phone", "render_speed"
    ).items():
        report.render_speeds[phone][speed] += n

    games = events.filter(kind="game_started")
    for name in DEVICE_FIELDS:
        report.devices[name] = Counter({value: n for (value,), n in _counts(games, name).items()})
    return report
