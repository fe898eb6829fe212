"""The Content-Security-Policy (config/security.py) on every kind of page, the admin's
included, and nothing on those pages or in the scripts that the policy would refuse:
no inline script or event handler, no <style> element or style attribute. (The browser
test, tests/browser/test_csp.py, plays under it in Chromium.)"""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from games import services
from tests.lobby.replays import finished_round
from tests.rooms import friends_room

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[1]

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

#: What the policy refuses in a page: a script without src= (data blocks, type
#: application/json, are never run and so allowed), an on*= handler, a <style> element,
#: a style= attribute, a javascript: URL.
INLINE = re.compile(
    r"<script\b(?![^>]*\bsrc=)(?![^>]*\btype=\"application/json\")[^>]*>"
    r"|<[a-z][^>]*\son[a-z]+\s*="
    r"|<style\b"
    r"|<[a-z][^>]*\sstyle\s*="
    r"|javascript:",
    re.IGNORECASE,
)


@pytest.fixture
def keeper(client):
    """A staff member and superuser, signed in, with a finished room of their own."""
    user = User.objects.create_user("keeper", password="x", is_staff=True, is_superuser=True)
    client.force_login(user)
    room, rnd = finished_round()
    return {"user": user, "room": room, "round": rnd}


def pages(keeper) -> dict[str, str]:
    room = keeper["room"]
    invitation = friends_room(services.Actor(guest="host"), name="Hana", seats=3)
    return {
        "home": "/",
        "rules": "/rules/",
        "fairness": "/fairness/",
        "new game": "/new/",
        "a room's table": f"/r/{room.code}/?t={room.watch_token}",
        "a room's rounds": f"/r/{room.code}/history/?t={room.watch_token}",
        "a replay": f"/replay/{keeper['round'].replay_id}/",
        "an invitation": f"/join/{invitation.token}/",
        "profile": "/accounts/profile/",
        "the bot API's guide": "/docs/bots/",
        "the table's protocol": "/docs/protocol/",
        "password change": "/accounts/password/",
        "the telemetry dashboard": "/staff/telemetry/",
        "the admin": "/admin/",
        "the admin's users": "/admin/auth/user/",
        "the admin's user": f"/admin/auth/user/{keeper['user'].pk}/change/",
        "the admin's new group": "/admin/auth/group/add/",
    }


def test_every_page_carries_the_policy_and_nothing_it_refuses(client, keeper):
    for name, path in pages(keeper).items():
        response = client.get(path)
        assert response.status_code == 200, (name, response.status_code)
        assert response["Content-Security-Policy"] == POLICY, name
        html = response.content.decode()
        assert not INLINE.search(html), (name, INLINE.search(html))


def test_the_signed_out_pages_and_errors_carry_it_too(client):
    for path, status in (
        ("/accounts/login/", 200),
        ("/accounts/signup/", 200),
        ("/admin/login/", 200),
        ("/accounts/profile/", 302),  # to the log-in page
        ("/r/ZZZZZZ/", 404),
        ("/healthz", 200),
    ):
        response = client.get(path)
        assert response.status_code == status, path
        assert response["Content-Security-Policy"] == POLICY, path
        if response["Content-Type"].startswith("text/html"):
            assert not INLINE.search(response.content.decode()), path


def test_with_debug_on_only_djangos_own_error_pages_go_without_it(client, settings):
    settings.DEBUG = True
    missing = client.get("/r/ZZZZZZ/")
    assert missing.status_code == 404 and "Content-Security-Policy" not in missing
    assert b"<style" in missing.content  # Django's debug page, with its inline styles
    assert client.get("/rules/")["Content-Security-Policy"] == POLICY


def test_no_template_or_script_writes_what_the_policy_refuses():
    """What the server renders is checked above; this covers the templates' other
    branches and the markup the scripts write (innerHTML) or set (a style attribute)."""
    for template in (ROOT / "templates").rglob("*.html"):
        found = INLINE.search(template.read_text())
        assert not found, (template, found)
    for script in (ROOT / "static" / "js").rglob("*.js"):
        text = script.read_text()
        for pattern in (r"setAttribute\(\s*[\"']style", r"\.cssText\b", r"\bstyle=", r"<style"):
            assert not re.search(pattern, text), (script, pattern)
        assert not re.search(r"\beval\(|new Function\(", text), script


def test_browser_tests_wait_with_functions_not_expressions():
    """Playwright polls a ``wait_for_function`` expression with ``eval`` in the page,
    which the policy refuses (no 'unsafe-eval'): only a function is compiled outside it.
    A bare expression passes while it is true at once and fails when it has to wait."""
    waits = re.compile(r"wait_for_function\(\s*\"([^\"]*)\"")
    for test in (ROOT / "tests").rglob("*.py"):
        for expression in waits.findall(test.read_text()):
            assert re.match(r"\(?[\w, ]*\)?\s*=>", expression), (test.name, expression)
