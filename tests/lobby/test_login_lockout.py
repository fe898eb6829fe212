"""The log-in lock-out is keyed on the pair of name and address (settings:
``AXES_LOCKOUT_PARAMETERS``): failures count for one account from one address, and
failures of the same name from elsewhere, or of other names from the same address,
never add up to a lock-out."""

import pytest
from axes.models import AccessAttempt

from tests.lobby.conftest import PASSWORD
from tests.lobby.logins import ELSEWHERE, HOME, SITE, locked, log_in

pytestmark = pytest.mark.django_db


def test_failures_count_per_name_and_address_and_never_add_up_across_pairs(make_account):
    make_account("ann")
    make_account("sis")
    pairs = [("ann", HOME), ("ann", ELSEWHERE), ("sis", HOME)]
    # One short of the limit (5) for each pair: 8 failures for "ann", 8 from HOME.
    for name, address in pairs:
        for _ in range(4):
            response, ok = log_in(SITE, name, "wrong", address)
            assert not ok and not locked(response), (name, address)
    counts = {
        (a.username, a.ip_address): a.failures_since_start for a in AccessAttempt.objects.all()
    }
    assert counts == dict.fromkeys(pairs, 4)
    # The fifth failure of one pair locks that pair, and only that one.
    assert locked(log_in(SITE, "ann", "wrong", HOME)[0])
    assert locked(log_in(SITE, "ann", PASSWORD, HOME)[0])
    assert log_in(SITE, "ann", PASSWORD, ELSEWHERE)[1]
    assert log_in(SITE, "sis", PASSWORD, HOME)[1]
