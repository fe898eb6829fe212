"""The sweep deletes expired sessions once an interval (whichever process sweeps first),
and keeps live ones."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.realtime import driver

pytestmark = pytest.mark.django_db(transaction=True)


def a_session(*, expired: bool) -> str:
    session = SessionStore()
    session["k"] = "v"
    session.create()
    if expired:
        Session.objects.filter(pk=session.session_key).update(
            expire_date=timezone.now() - timedelta(seconds=1)
        )
    return session.session_key


async def test_the_sweep_deletes_expired_sessions_once_an_interval():
    from channels.db import database_sync_to_async

    expired = await database_sync_to_async(a_session)(expired=True)
    live = await database_sync_to_async(a_session)(expired=False)
    await driver.sweep_once(lease=False)
    keys = await database_sync_to_async(lambda: set(Session.objects.values_list("pk", flat=True)))()
    assert keys == {live}
    # Within the interval the next sweep leaves a newly expired session for later.
    again = await database_sync_to_async(a_session)(expired=True)
    await driver.sweep_once(lease=False)
    keys = await database_sync_to_async(lambda: set(Session.objects.values_list("pk", flat=True)))()
    assert keys == {live, again}
    assert expired not in keys
