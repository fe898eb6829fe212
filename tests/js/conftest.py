"""The page's scripts run under node (Debian's nodejs; CI installs it)."""

import shutil

import pytest

from tests.conftest import REQUIRE_SERVICES


@pytest.fixture(scope="module")
def node():
    path = shutil.which("node")
    if path is None:
        if REQUIRE_SERVICES:
            pytest.fail("REQUIRE_SERVICES=1 but node is not installed (scripts/browser.sh)")
        pytest.skip("needs node to run the page's scripts (apt-get install nodejs)")
    return path
