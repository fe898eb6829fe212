"""Failed log-ins are limited on every log-in form (django-axes): one account from one
address, so neither a stranger nor a shared address can lock a player out."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import AsyncClient
from django.utils import timezone

from tests.lobby.conftest import PASSWORD
from tests.lobby.logins import ADMIN, ELSEWHERE, HOME, SITE, locked, log_in

pytestmark = pytest.mark.django_db


def test_eight_wrong_passwords_on_the_admin_then_the_right_one_is_refused(make_account):
    make_account("boss", is_staff=True, is_superuser=True)
    make_account("kid", is_staff=True)
    for _ in range(8):
        response, ok = log_in(ADMIN, "boss", "wrong", HOME)
        assert not ok
    response, ok = log_in(ADMIN, "boss", PASSWORD, HOME)
    assert not ok and locked(response)
    assert response["Retry-After"] == "900"
    # A stranger cannot lock the owner out: from anywhere else the owner gets in.
    response, ok = log_in(ADMIN, "boss", PASSWORD, ELSEWHERE)
    assert ok and response.status_code == 302
    # A shared address does not lock out the family: another account from it gets in.
    response, ok = log_in(ADMIN, "kid", PASSWORD, HOME)
    assert ok


def test_the_sites_log_in_locks_at_the_limit_with_our_page(make_account):
    make_account("ann")
    make_account("sis")
    for attempt in range(1, 6):
        response, _ = log_in(SITE, "ann", "wrong", HOME)
        if attempt < 5:
            assert response.status_code == 200
            assert "Please enter a correct username" in response.content.decode()
    assert locked(response)  # the fifth failure locks
    text = response.content.decode()
    assert "try again in 15 minutes" in text and 'href="/accounts/login/"' in text
    assert "Traceback" not in text
    assert locked(log_in(SITE, "ann", PASSWORD, HOME)[0])
    assert log_in(SITE, "ann", PASSWORD, ELSEWHERE)[1]
    assert log_in(SITE, "sis", PASSWORD, HOME)[1]
    # The site's form and the admin's share the count.
    assert locked(log_in(ADMIN, "ann", PASSWORD, HOME)[0])


def test_a_forged_forwarding_header_does_not_dodge_the_count(make_account):
    make_account("ann")
    for _ in range(5):
        log_in(SITE, "ann", "wrong", HOME)
    for header in ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP"):
        response, ok = log_in(SITE, "ann", PASSWORD, HOME, **{header: ELSEWHERE})
        assert not ok and locked(response)


def test_success_resets_the_count(make_account):
    make_account("ann")
    for _ in range(4):
        log_in(SITE, "ann", "wrong", HOME)
    assert log_in(SITE, "ann", PASSWORD, HOME)[1]
    for _ in range(4):
        assert not locked(log_in(SITE, "ann", "wrong", HOME)[0])
    assert log_in(SITE, "ann", PASSWORD, HOME)[1]


def test_the_lock_ends_after_the_cool_off(make_account):
    make_account("ann")
    for _ in range(5):
        log_in(SITE, "ann", "wrong", HOME)
    assert locked(log_in(SITE, "ann", PASSWORD, HOME)[0])
    # Trying again while locked out does not extend the wait.
    assert AccessAttempt.objects.get().failures_since_start == 5
    # Sixteen minutes later (the failures are stored with their time).
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in(SITE, "ann", PASSWORD, HOME)[1]


def test_staff_unlock_a_player_with_a_command(make_account):
    make_account("ann")
    for _ in range(5):
        log_in(SITE, "ann", "wrong", HOME)
    call_command("axes_reset_username", "ann")
    assert log_in(SITE, "ann", PASSWORD, HOME)[1]


@pytest.mark.parametrize(
    ("language", "heading"), [("ja", "ログインの失敗が多すぎます"), ("zh-hans", "登录失败次数过多")]
)
def test_the_lockout_page_speaks_the_readers_language(make_account, language, heading):
    make_account("ann")
    for _ in range(5):
        response, _ = log_in(SITE, "ann", "wrong", HOME, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 429
    text = response.content.decode()
    assert heading in text and "Too many" not in text


class AsyncClientFrom(AsyncClient):
    """Django's ASGI test client, connecting from ``address``."""

    def __init__(self, address: str):
        super().__init__()
        self.address = address

    def _base_scope(self, **request):
        return {**super()._base_scope(**request), "client": [self.address, 0]}


@pytest.mark.django_db(transaction=True)
async def test_the_lockout_page_under_asgi(make_account):
    """Daphne runs the middleware asynchronously (another path through django-axes)."""
    from channels.db import database_sync_to_async

    await database_sync_to_async(make_account)("ann", is_staff=True)
    client = AsyncClientFrom(HOME)
    for _ in range(8):
        response = await client.post(ADMIN, {"username": "ann", "password": "wrong"})
    response = await client.post(ADMIN, {"username": "ann", "password": PASSWORD})
    assert locked(response)
    other = AsyncClientFrom(ELSEWHERE)
    response = await other.post(ADMIN, {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert await (await other.asession()).aget("_auth_user_id")
