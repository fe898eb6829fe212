"""The staff dashboard: the date range it may show, and the report turned into charts
and tables in the reader's language."""

from __future__ import annotations

from datetime import date, timedelta

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from figures import charts
from figures.numbers import decimal, percent
from games.labels import MODE_NAMES
from telemetry import schema
from telemetry.report import RECONNECT_BUCKETS, Report
from telemetry.services import RETENTION_DAYS

BROWSER_NAMES = {
    "chrome": "Chrome",
    "firefox": "Firefox",
    "safari": "Safari",
    "edge": "Edge",
    "samsung": "Samsung Internet",
    "other": gettext_lazy("Other"),
}
SYSTEM_NAMES = {
    "android": "Android",
    "ios": "iOS",
    "windows": "Windows",
    "macos": "macOS",
    "linux": "Linux",
    "chromeos": "ChromeOS",
    "other": gettext_lazy("Other"),
}
SPEED_NAMES = {
    "<30fps": gettext_lazy("under 30 frames/s"),
    "30-50fps": gettext_lazy("30 to 50 frames/s"),
    ">50fps": gettext_lazy("over 50 frames/s"),
}


def retained_days(today: date | None = None) -> tuple[date, date]:
    """The first and last day whose events are still kept."""
    today = today or timezone.localdate()
    return today - timedelta(days=RETENTION_DAYS), today


class RangeForm(forms.Form):
    start = forms.DateField(
        label=gettext_lazy("From"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    end = forms.DateField(
        label=gettext_lazy("To"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    def __init__(self, data=None, today: date | None = None):
        self.first, self.last = retained_days(today)
        super().__init__(data or None, initial={"start": self.first, "end": self.last})
        for name in ("start", "end"):
            self.fields[name].widget.attrs.update(
                min=self.first.isoformat(), max=self.last.isoformat()
            )

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if start > end:
                raise forms.ValidationError(_("The first day must come before the last."))
            if start < self.first or end > self.last:
                kept = ngettext(
                    "Events are kept for %(days)s day: choose days from %(first)s to %(last)s.",
                    "Events are kept for %(days)s days: choose days from %(first)s to %(last)s.",
                    RETENTION_DAYS,
                )
                raise forms.ValidationError(
                    kept
                    % {
                        "days": RETENTION_DAYS,
                        "first": date_format(self.first),
                        "last": date_format(self.last),
                    }
                )
        return data

    def chosen(self) -> tuple[date, date]:
        """The valid range asked for, or every retained day."""
        if self.is_bound and self.is_valid():
            return self.cleaned_data["start"], self.cleaned_data["end"]
        return self.first, self.last


def _share_rows(counter, names: dict | None = None) -> list[tuple[str, float, str]]:
    total = sum(counter.values())
    rows = []
    for value, n in sorted(counter.items(), key=lambda item: -item[1]):
        label = str((names or {}).get(value, value or _("unknown")))
        rows.append((label, n, f"{n} ({percent(n / total)})"))
    return rows


def context(report: Report) -> dict:
    """Everything the template shows: charts (SVG) and the same numbers as rows."""
    day_labels = [day.strftime("%m-%d") for day in report.days]
    mode_names = [str(MODE_NAMES[mode]) for mode in schema.MODES]

    def daily(chart_id, title, per_mode):
        series = [
            charts.Series(name, per_mode[mode])
            for name, mode in zip(mode_names, schema.MODES, strict=True)
        ]
        total = sum(sum(s.values) for s in series)
        description = _("%(total)s in all, by day and by way of playing.") % {"total": total}
        return charts.columns(chart_id, title, description, day_labels, series)

    completion_table = [
        {
            "label": str(MODE_NAMES[line.mode]) if line.mode in MODE_NAMES else _("All games"),
            "started": line.started,
            "finished": line.completed,
            "abandoned": line.abandoned,
            "no_end": line.no_end,
            "rate": percent(line.completion),
            "value": line.completion or 0,
        }
        for line in [*report.modes, report.total]
    ]
    completion_rows = [(line["label"], line["value"], line["rate"]) for line in completion_table]

    reconnect_rows = [
        (label, report.reconnects[label], str(report.reconnects[label]))
        for label, _low, _high in RECONNECT_BUCKETS
    ]
    failure_rows = [
        (BROWSER_NAMES[browser], fails / views, percent(fails / views), f"{fails} / {views}")
        for browser, (fails, views) in report.views_3d.items()
    ]
    speed_rows = []
    for phone, counter in report.render_speeds.items():
        kind = _("Phones") if phone == "yes" else _("Other devices")
        for bucket in schema.RENDER_SPEEDS:
            speed_rows.append(
                (f"{kind}: {SPEED_NAMES[bucket]}", counter[bucket], str(counter[bucket]))
            )

    device_names = {
        "phone": (_("Phone"), {"yes": _("Phone"), "no": _("Not a phone")}),
        "memory": (_("Memory (GB)"), {"unknown": _("unknown")}),
        "cores": (_("Processor cores"), {"unknown": _("unknown")}),
        "browser": (_("Browser"), BROWSER_NAMES),
        "os": (_("System"), SYSTEM_NAMES),
    }
    devices = []
    for name, (title, names) in device_names.items():
        rows = _share_rows(report.devices[name], names)
        devices.append(
            {
                "title": title,
                "rows": rows,
                "chart": charts.bars(f"device-{name}", title, _("Share of games started."), rows)
                if rows
                else None,
            }
        )

    return {
        "report": report,
        "mode_names": mode_names,
        "daily_rows": [
            (
                day,
                [report.started[m][i] for m in schema.MODES],
                [report.finished[m][i] for m in schema.MODES],
            )
            for i, day in enumerate(report.days)
        ],
        "started_chart": daily("started", _("Games started each day"), report.started),
        "finished_chart": daily("finished", _("Games played to the end each day"), report.finished),
        "completion_table": completion_table,
        "completion_chart": charts.bars(
            "completion",
            _("Completion rate"),
            _("Games played to the end, out of games started."),
            completion_rows,
            top=1,
        ),
        "connection_rate": percent(report.connection_rate),
        "mean_reconnects": "–"
        if report.mean_reconnects is None
        else decimal(report.mean_reconnects, 2),
        "reconnect_rows": reconnect_rows,
        "reconnect_chart": charts.bars(
            "reconnects",
            _("Reconnects per friends-game connection"),
            _("How many connections needed no, one, a few or many reconnects."),
            reconnect_rows,
        ),
        "failure_rows": failure_rows,
        "failure_chart": charts.bars(
            "failures",
            _("3D view failures by browser"),
            _("Table views that fell back to the flat table, out of all table views."),
            [row[:3] for row in failure_rows],
            top=1,
        )
        if failure_rows
        else None,
        "speed_rows": speed_rows,
        "speed_chart": charts.bars(
            "speed",
            _("Rendering speed"),
            _("Table views by how many frames a second the page drew."),
            speed_rows,
        ),
        "devices": devices,
    }
