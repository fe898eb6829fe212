"""/healthz polled for as long as a load balancer likes costs Redis nothing that lasts:
a real Daphne on the publish/subscribe layer, against a Redis server of the test's own."""

import urllib.request

import pytest

from tests.support import needs_services
from tests.system.conftest import subscriptions

pytestmark = [pytest.mark.django_db(transaction=True), needs_services]


def test_fifty_health_checks_leave_at_most_one_subscription(servers, private_redis):
    server = servers("web", env={"REDIS_URL": private_redis.url, "CHANNEL_LAYER": "pubsub"})
    url = f"http://127.0.0.1:{server.port}/healthz"
    before = subscriptions(private_redis.url)
    for _ in range(50):
        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200
    # The process's one probe channel, subscribed by the first check and kept.
    assert subscriptions(private_redis.url) - before <= 1
