"""The staff dashboard's charts fill their card's width: at 1366x768 each as wide as the
card's inside, on a phone at least as wide (it scrolls sideways rather than shrink)."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests import matrix
from tests.browser.conftest import needs_browser, sign_up
from tests.support import needs_services

pytestmark = [needs_browser, needs_services]


@matrix.parametrize("size")
def test_the_staff_dashboards_charts_fill_their_cards_width(site, new_page, size):
    page = new_page(viewport=matrix.SIZES[size])
    sign_up(page, site, "keeper")
    expect(page.locator(".site-header")).to_contain_text("keeper")
    User.objects.filter(username="keeper").update(is_staff=True)
    page.goto(f"{site}/staff/telemetry/")
    boxes = page.locator(".dashboard .chart-box")
    expect(boxes.first).to_be_visible()
    widths = boxes.evaluate_all(
        """boxes => boxes.filter((b) => b.querySelector('.chart')).map((b) => [
             b.querySelector('.chart').getBoundingClientRect().width, b.clientWidth])"""
    )
    assert widths, "charts on the dashboard"
    for chart, card in widths:
        assert chart >= card - 1, (size, chart, card)
