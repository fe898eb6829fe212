"""Anonymous game events. No column can hold an address, an identity, a room, a hand or
a user agent: every text column is one of a small closed set (telemetry.schema), and the
only time is a date. tests/telemetry/test_schema.py checks exactly that."""

from django.db import models

from telemetry import schema


def _choice(name: str, **extra) -> models.CharField:
    values = schema.FIELDS[name]
    return models.CharField(
        max_length=max(len(v) for v in values), choices=[(v, v) for v in values], **extra
    )


class Event(models.Model):
    kind = _choice("kind")
    date = models.DateField(db_index=True)
    variant = _choice("variant")
    mode = _choice("mode")
    level = _choice("level", blank=True)
    seats = _choice("seats", blank=True)
    match_length = _choice("match_length", blank=True)
    jiji = _choice("jiji", blank=True)
    phone = _choice("phone")
    memory = _choice("memory", blank=True)
    cores = _choice("cores", blank=True)
    browser = _choice("browser")
    os = _choice("os")
    result = _choice("result", blank=True)
    duration = _choice("duration", blank=True)
    draws = _choice("draws", blank=True)
    connected = _choice("connected", blank=True)
    render_speed = _choice("render_speed", blank=True)
    reconnects = models.PositiveSmallIntegerField(null=True, blank=True)

    def __str__(self):
        return f"{self.date} {self.kind}"
