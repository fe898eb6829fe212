# The browser tests' fixtures (a real server, Chromium pages) for the one browser test here.
from tests.browser.conftest import browser, chromium, new_page, site  # noqa: F401
