"""The staff dashboard: who may see it, the figures it shows, and that it renders with no
events and with many."""

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from figures import charts
from telemetry import report, schema
from telemetry.models import Event

pytestmark = pytest.mark.django_db

URL = "/staff/telemetry/"
BASE = {
    "variant": "babanuki",
    "mode": "computer",
    "phone": "no",
    "browser": "firefox",
    "os": "linux",
}


def event(kind, days_ago=0, **fields):
    return Event(
        kind=kind, date=timezone.localdate() - timedelta(days=days_ago), **{**BASE, **fields}
    )


@pytest.fixture
def staff(client):
    user = User.objects.create_user("keeper", password="x", is_staff=True)
    client.force_login(user)
    return client


def test_visitors_get_the_login_page(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/staff/telemetry/")


def test_players_who_are_not_staff_get_403(client):
    client.force_login(User.objects.create_user("player", password="x"))
    response = client.get(URL)
    assert response.status_code == 403
    assert "This page is for the site's staff." in response.content.decode()


def test_with_no_events_every_chart_renders_empty(staff):
    response = staff.get(URL)
    assert response.status_code == 200
    page = response.content.decode()
    assert "0 events from" in page
    assert "No events in these days yet" in page
    assert page.count('<svg class="chart"') == 5  # games ×2, completion, reconnects, speed
    assert "<rect" not in page.split('id="completion-title"')[0]  # no column without a game
    assert page.count("No games started in these days.") == len(report.DEVICE_FIELDS)
    assert "No table views in these days." in page


def test_the_figures_are_counted_as_documented():
    Event.objects.bulk_create(
        [
            *[event("game_started", mode="computer") for _ in range(4)],
            *[event("game_started", mode="friends", days_ago=1) for _ in range(2)],
            event("game_finished", mode="computer", result="won"),
            event("game_finished", mode="computer", result="lost"),
            event("game_finished", mode="computer", result="abandoned"),
            event("game_finished", mode="friends", result="placed", days_ago=1),
            event("connection", mode="friends", connected="yes", reconnects=0),
            event("connection", mode="friends", connected="yes", reconnects=3),
            event("connection", mode="friends", connected="no", reconnects=7),
            event("connection", mode="friends", connected="yes", reconnects=1),
            event("view_3d_failed", mode="computer", browser="safari"),
            event("render_speed", mode="computer", browser="safari", render_speed="<30fps"),
            event("render_speed", mode="computer", browser="safari", render_speed=">50fps"),
            event("render_speed", mode="computer", render_speed=">50fps", phone="yes"),
            event("game_started", mode="computer", days_ago=40),  # outside the range
        ]
    )
    today = timezone.localdate()
    figures = report.build(today - timedelta(days=30), today)
    lines = {line.mode: line for line in figures.modes}
    computer = lines["computer"]
    assert (computer.started, computer.completed, computer.abandoned) == (4, 2, 1)
    assert (computer.finished, computer.no_end) == (3, 1)
    assert computer.completion == 2 / 4
    assert lines["friends"].completion == 1 / 2
    assert figures.total.completion == 3 / 6
    assert figures.finished["computer"][-1] == 2  # the abandoned game is not a finish
    assert figures.started["computer"][-1] == 4 and figures.started["friends"][-2] == 2
    assert figures.connection_rate == 3 / 4
    assert figures.mean_reconnects == 11 / 4
    assert dict(figures.reconnects) == {"0": 1, "1": 1, "2–4": 1, "5+": 1}
    assert figures.views_3d == {"safari": (1, 2), "firefox": (0, 1)}
    assert (
        figures.render_speeds["no"][">50fps"] == 1 and figures.render_speeds["yes"][">50fps"] == 1
    )
    assert figures.devices["browser"] == {"firefox": 6}


def many_events(n=3000, seed=7):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        kind = rng.choice(schema.KINDS)
        fields = {
            name: rng.choice(schema.FIELDS[name])
            for name in ("variant", "mode", "phone", "browser", "os", "memory", "cores")
        }
        if kind == "game_finished":
            fields["result"] = rng.choice(schema.RESULTS)
        if kind == "connection":
            fields.update(connected=rng.choice(("yes", "no")), reconnects=rng.randint(0, 50))
        if kind == "render_speed":
            fields["render_speed"] = rng.choice(schema.RENDER_SPEEDS)
        days_ago = rng.randint(0, 30)
        rows.append(
            Event(kind=kind, date=timezone.localdate() - timedelta(days=days_ago), **fields)
        )
    Event.objects.bulk_create(rows)
    return rows


def test_with_many_events_the_page_shows_them_all(staff, django_assert_max_num_queries):
    rows = many_events()
    with django_assert_max_num_queries(15):  # grouped counts, not one query per day
        response = staff.get(URL)
    page = response.content.decode()
    assert response.status_code == 200
    assert f"{len(rows)} events from" in page
    started = sum(1 for r in rows if r.kind == "game_started")
    assert f"{started} in all, by day" in page
    assert page.count('<svg class="chart"') == 6 + len(report.DEVICE_FIELDS)
    assert page.count("<tr>") > 31  # the day-by-day table has every day


def test_a_range_narrows_the_figures(staff):
    Event.objects.bulk_create(
        [event("game_started", days_ago=d, mode="computer") for d in (0, 1, 2, 10)]
    )
    today = timezone.localdate()
    start = (today - timedelta(days=2)).isoformat()
    page = staff.get(URL, {"start": start, "end": today.isoformat()}).content.decode()
    assert "3 events from" in page
    assert "3 in all, by day" in page


@pytest.mark.parametrize(
    ("start_days_ago", "end_days_ago", "message"),
    [(1, 3, "The first day must come before the last."), (45, 0, "Events are kept for 30 days")],
)
def test_a_range_outside_the_kept_days_is_refused_clearly(
    staff, start_days_ago, end_days_ago, message
):
    Event.objects.bulk_create([event("game_started", days_ago=d) for d in (0, 20)])
    today = timezone.localdate()
    response = staff.get(
        URL,
        {
            "start": (today - timedelta(days=start_days_ago)).isoformat(),
            "end": (today - timedelta(days=end_days_ago)).isoformat(),
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert message in page.replace("&#x27;", "'")
    assert "2 events from" in page  # the whole retained window instead


def test_garbage_in_the_range_is_an_error_not_a_crash(staff):
    response = staff.get(URL, {"start": "<script>", "end": "x" * 5000})
    assert response.status_code == 200
    assert "<script>" not in response.content.decode()
    assert "Enter a valid date." in response.content.decode()


def test_chart_text_is_escaped_and_scales_are_round():
    svg = charts.bars("x", "<b>title</b>", "d", [("<i>label</i>", 3, "3 & more")])
    assert "<b>" not in svg and "<i>" not in svg and "&amp; more" in svg
    assert re.search(r'<title id="x-t">&lt;b&gt;title', svg)
    assert [charts.nice_top(v) for v in (0, 1, 3, 7, 11, 0.3, 101)] == [1, 1, 5, 10, 20, 0.5, 200]


@pytest.mark.parametrize(("language", "title"), [("ja", "利用統計"), ("zh-hans", "使用统计")])
def test_the_dashboard_speaks_the_staff_members_language(staff, language, title):
    Event.objects.bulk_create([event("game_started"), event("render_speed", render_speed=">50fps")])
    page = staff.get(URL, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<h1>{title}</h1>" in page
    assert "Games started each day" not in page


def test_staff_find_the_dashboard_in_the_menu(staff, client):
    assert 'href="/staff/telemetry/"' in staff.get("/").content.decode()
    client.logout()
    assert 'href="/staff/telemetry/"' not in client.get("/").content.decode()


def test_a_friends_game_counts_once_and_completion_means_what_it_says(staff):
    """Hand-counted: five friends games, each reported by its reporting seat's page only.
    Two were played to the end, one resigned (a result: completed), one abandoned, and one
    never reported an end. Completion: 3 of 5 = 60.0 %. Before, every player's page sent
    its own start and end, and a resignation was sent as abandoned."""
    Event.objects.bulk_create(
        [
            *[event("game_started", mode="friends") for _ in range(5)],
            event("game_finished", mode="friends", result="won"),
            event("game_finished", mode="friends", result="placed"),
            event("game_finished", mode="friends", result="lost"),  # the resignation
            event("game_finished", mode="friends", result="abandoned"),
        ]
    )
    page = staff.get(URL).content.decode()
    row = re.search(r'<tr><th scope="row">With friends</th>(.*?)</tr>', page).group(1)
    assert re.findall(r"<td>(.*?)</td>", row) == ["5", "3", "1", "1", "60.0\xa0%"]
    assert "Each game is counted once" in page


@pytest.mark.parametrize(
    ("part", "whole", "shown"),
    [
        (7, 9, "77.8"),
        (2, 3, "66.7"),
        (1, 8, "12.5"),
        (1, 3, "33.3"),
        (5, 6, "83.3"),
        (1, 200, "0.5"),
        (1, 1, "100.0"),
        (0, 4, "0.0"),
    ],
)
def test_percentages_are_rounded_not_cut(part, whole, shown):
    from telemetry.dashboard import percent

    assert percent(part / whole) == f"{shown}\xa0%"


def test_every_percentage_on_the_page_is_rounded(staff):
    """7 of 9 computer games played to the end: 77.8 %, in the table and the chart; 2 of 3
    connections succeeded: 66.7 %; 7 reconnects over 3 connections: 2.33 on average."""
    Event.objects.bulk_create(
        [
            *[event("game_started", mode="computer") for _ in range(9)],
            *[event("game_finished", mode="computer", result="won") for _ in range(7)],
            event("connection", mode="friends", connected="yes", reconnects=0),
            event("connection", mode="friends", connected="yes", reconnects=2),
            event("connection", mode="friends", connected="no", reconnects=5),
        ]
    )
    page = staff.get(URL).content.decode()
    assert "77.8\xa0%" in page and "77.7" not in page
    assert "66.7\xa0%" in page and "66.6" not in page
    assert "2.33 reconnects on average" in page
