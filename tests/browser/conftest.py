"""Playwright driving Debian's Chromium against a real server process."""

import os
import shutil

import pytest
from playwright.sync_api import expect

from tests.conftest import REQUIRE_SERVICES
from tests.support import needs_services  # noqa: F401 - re-exported

CHROMIUM = shutil.which("chromium")

if REQUIRE_SERVICES and not CHROMIUM:
    raise RuntimeError("REQUIRE_SERVICES=1 but chromium is not installed (scripts/browser.sh)")

needs_browser = pytest.mark.skipif(not CHROMIUM, reason="needs Debian's chromium")

#: How long an action or an expectation may wait for the page: a bound for failures only,
#: generous for a busy machine (Playwright's own defaults are 5 s for expect()).
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR", "test-artifacts/screenshots")


# Per module: a running Playwright loop must not outlive the browser tests.
@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread, which makes Django
    # refuse database work from the test; the test itself is synchronous, so allow it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield chromium
        chromium.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def site(transactional_db, servers):
    """A real server (Daphne's runserver: WebSockets and static files) on the test DB.

    The database fixture comes first so that the server stops before the tables are
    flushed (a running server's sweep would deadlock the flush)."""
    return f"http://127.0.0.1:{servers('site', static=True).port}"


@pytest.fixture
def paced_site(transactional_db, servers):
    """The same, with the computer taking its time as on the real site: each state then
    reaches the page on its own instead of several at once."""
    env = {"COMPUTER_DELAY_SECONDS": "1.5"}
    return f"http://127.0.0.1:{servers('site', static=True, env=env).port}"


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(**options):
        context = browser.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def shot(page, name: str) -> None:
    os.makedirs(SCREENSHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


PASSWORD = "a-browser-password-42"


def sign_up(page, site, name, next_url=None):
    """Sign up through the form (already on it when ``next_url`` brought us there)."""
    if next_url is None:
        page.goto(f"{site}/accounts/signup/")
    page.locator("#id_username").fill(name)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#main").get_by_role("button").click()
