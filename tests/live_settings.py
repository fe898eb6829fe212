"""The settings of the servers tests start (``tests.support.Server``): the site's own
(config/settings.py, read from the same environment), with the test worker's
channel-layer prefix (tests/workers.py) and the application of tests/live_asgi.py,
which adds one test-only endpoint."""

from config.settings import *  # noqa: F403
from config.settings import CHANNEL_LAYERS
from tests import workers

CHANNEL_LAYERS = workers.use_prefix(CHANNEL_LAYERS)
ASGI_APPLICATION = "tests.live_asgi.application"
