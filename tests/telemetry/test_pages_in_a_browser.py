"""In a real browser: the profile with a record and the staff dashboard with events have
no serious accessibility violations, and read in each language; screenshots at laptop
and phone sizes in en, ja and zh-hans (test-artifacts/screenshots/)."""

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Room
from telemetry.models import Event
from tests import matrix
from tests.browser.axe import serious
from tests.browser.conftest import in_a_thread, needs_browser, shot, sign_up
from tests.lobby.records import record, room_for
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]

SIZES = matrix.SIZES
LANGUAGES = {
    "en-US": "Your record",
    "ja-JP": "あなたの成績",
    "zh-CN": "你的战绩",
    "zh-TW": "你的戰績",
    "de-DE": "Deine Bilanz",
    "ko-KR": "내 전적",
}


def a_record(user):
    record(room_for(user), [([0, 1, 2], 2), ([1, 0, 2], 2), ([0, 2, 1], 1)], winners=[0])
    record(room_for(user), [([2, 1, 0], 0)], finished=False)
    for winners in ([0, 1], [1], [1]):
        record(room_for(user, variant="old_maid", seats=2), [(None, 0)], winners=winners)
    record(room_for(user, mode=Room.Mode.SAME_DEVICE), [([0, 1, 2], 2)], winners=[0])


def some_events():
    base = {"variant": "babanuki", "phone": "no", "browser": "firefox", "os": "linux"}
    today = timezone.localdate()
    rows = []
    for days_ago, mode, started, done, abandoned in [
        (0, "computer", 9, 7, 1),
        (1, "friends", 4, 2, 1),
        (2, "same_device", 3, 3, 0),
    ]:
        day = today - timedelta(days=days_ago)
        rows += [Event(kind="game_started", date=day, mode=mode, **base) for _ in range(started)]
        rows += [
            Event(kind="game_finished", date=day, mode=mode, result="won", **base)
            for _ in range(done)
        ]
        rows += [
            Event(kind="game_finished", date=day, mode=mode, result="abandoned", **base)
            for _ in range(abandoned)
        ]
    Event.objects.bulk_create(rows)


@matrix.parametrize("locale", "size")
def test_profile_and_dashboard_read_well_and_pass_axe(site, new_page, locale, size):
    page = new_page(locale=locale, viewport=SIZES[size])
    sign_up(page, site, "keeper")
    expect(page.locator("#main")).to_be_visible()
    user = User.objects.get(username="keeper")
    in_a_thread(a_record, user)
    some_events()
    User.objects.filter(pk=user.pk).update(is_staff=True)

    page.goto(f"{site}/accounts/profile/")
    expect(page.locator("#record-title")).to_have_text(LANGUAGES[locale])
    expect(page.locator(".room-list.matches li")).to_have_count(6)
    shot(page, f"profile-{locale}-{size}")
    assert serious(page) == []

    page.goto(f"{site}/staff/telemetry/")
    row = page.locator("#completion-title ~ .table-scroll tbody tr").first
    # 7 of 9, rounded, with the reader's decimal mark.
    expect(row.locator("td").last).to_contain_text("77,8" if locale == "de-DE" else "77.8")
    shot(page, f"telemetry-dashboard-{locale}-{size}")
    assert serious(page) == []
