"""Anonymous telemetry: strict ingestion, no column that could identify anyone, 30-day
deletion."""

import json
import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import models
from django.utils import timezone

from telemetry.models import Event

pytestmark = pytest.mark.django_db

GOOD = {
    "kind": "game_finished",
    "variant": "babanuki",
    "mode": "computer",
    "level": "easy",
    "seats": "4",
    "phone": "yes",
    "browser": "firefox",
    "os": "android",
    "result": "won",
    "duration": "3-10m",
    "draws": "20-50",
}


def post(client, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post("/telemetry/events/", data, content_type="application/json", **extra)


def test_a_good_event_is_stored_with_only_the_allowed_fields(client):
    response = post(
        client,
        {
            **GOOD,
            "ip": "203.0.113.9",
            "user_agent": "Mozilla/5.0 full",
            "room": "ABC123",
            "gpu": "SuperGPU 9000",
        },
    )
    assert response.status_code == 204
    event = Event.objects.get()
    assert event.variant == "babanuki" and event.result == "won"
    assert event.date == timezone.localdate()
    stored = json.dumps(list(Event.objects.values()), default=str)
    for secret in ("203.0.113.9", "Mozilla", "ABC123", "SuperGPU"):
        assert secret not in stored


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({**GOOD, "variant": "poker"}, "variant"),
        ({**GOOD, "seats": 4}, "seats"),
        ({**GOOD, "browser": "Mozilla/5.0 (X11; Linux)"}, "browser"),
        ({**GOOD, "reconnects": 999}, "reconnects"),
        ({**GOOD, "reconnects": True}, "reconnects"),
        ({k: v for k, v in GOOD.items() if k != "kind"}, "missing"),
        ([GOOD], "object"),
        ("not json", "invalid"),
    ],
)
def test_bad_events_are_refused_and_nothing_is_stored(client, body, why):
    response = post(client, body)
    assert response.status_code == 400
    assert why in response.json()["message"]
    assert not Event.objects.exists()


def test_oversized_bodies_are_refused(client):
    response = post(client, {**GOOD, "padding": "x" * 5000})
    assert response.status_code == 413
    assert not Event.objects.exists()


def test_only_post_is_accepted(client):
    assert client.get("/telemetry/events/").status_code == 405


def test_ingestion_is_rate_limited(client, settings):
    settings.TELEMETRY_EVENTS_PER_MINUTE = 3
    codes = [post(client, GOOD).status_code for _ in range(5)]
    assert codes == [204, 204, 204, 429, 429]
    assert Event.objects.count() == 3


def test_django_logs_no_address_or_user_agent_of_a_telemetry_request(client, caplog, settings):
    """nginx and Daphne keep no line of these requests (tests/test_prod_config.py); Django's
    own log names refusals by path only."""
    caplog.set_level(logging.DEBUG)
    who = {"REMOTE_ADDR": "203.0.113.77", "HTTP_USER_AGENT": "PrivacyProbe/7.1"}
    settings.TELEMETRY_EVENTS_PER_MINUTE = 2
    codes = {
        post(client, GOOD, **who).status_code,
        post(client, "not json", **who).status_code,
        post(client, {**GOOD, "padding": "x" * 5000}, **who).status_code,
        client.get("/telemetry/events/", **who).status_code,
        post(client, GOOD, **who).status_code,
    }
    assert codes == {204, 400, 405, 413, 429}
    assert caplog.records, "refusals are logged (by path), so the check below means something"
    # Formatted as the site's handlers write them (settings.LOGGING).
    line = logging.Formatter(settings.LOGGING["formatters"]["line"]["format"])
    for record in caplog.records:
        written = line.format(record)
        assert "203.0.113.77" not in written and "PrivacyProbe" not in written, written


def test_no_column_could_hold_an_address_identity_or_room():
    for field in Event._meta.get_fields():
        assert not field.is_relation, field.name
        assert not isinstance(field, (models.GenericIPAddressField, models.TextField)), field.name
        assert not isinstance(field, models.DateTimeField), field.name  # a date, never a time
        if isinstance(field, models.CharField):
            # Every text column is a small closed set of values.
            assert field.choices and field.max_length <= 16, field.name
        assert not any(
            word in field.name
            for word in (
                "ip",
                "addr",
                "user",
                "session",
                "room",
                "token",
                "agent",
                "gpu",
                "hand",
                "card",
            )
        ), field.name


def test_purge_deletes_events_older_than_30_days_and_keeps_the_rest(client):
    post(client, GOOD)
    post(client, GOOD)
    today = timezone.localdate()
    Event.objects.filter(pk=Event.objects.first().pk).update(date=today - timedelta(days=31))
    Event.objects.create(**{**{k: v for k, v in GOOD.items()}, "date": today - timedelta(days=30)})
    out = StringIO()
    call_command("purge_telemetry", stdout=out)
    assert "deleted 1" in out.getvalue()
    dates = sorted(Event.objects.values_list("date", flat=True))
    assert dates == [today - timedelta(days=30), today]


def test_the_first_event_of_a_day_purges_old_events(client):
    old = Event.objects.create(**GOOD, date=timezone.localdate() - timedelta(days=40))
    post(client, GOOD)
    assert not Event.objects.filter(pk=old.pk).exists()
    assert Event.objects.count() == 1
