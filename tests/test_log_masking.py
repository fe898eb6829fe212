"""The site's log handlers mask what a URL carries that opens something (config/log_masking.py):
an invitation's token, a replay's id, a room's ``t=`` token. Through a real server:
tests/system/test_prod.py (a join POST without a CSRF cookie)."""

import io
import logging

from django.conf import settings
from django.utils.module_loading import import_string

from config.log_masking import mask


def test_every_handler_of_the_sites_logging_masks_secrets():
    handlers = settings.LOGGING["handlers"]
    assert handlers and all("mask_secrets" in h.get("filters", []) for h in handlers.values())
    # Django's own handlers are replaced by ours for the loggers it configures.
    loggers = settings.LOGGING["loggers"]
    assert loggers["django"]["handlers"] == []
    assert set(loggers["django.server"]["handlers"]) <= set(handlers)


def test_paths_and_queries_are_written_with_their_secrets_masked():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler.addFilter(import_string(settings.LOGGING["filters"]["mask_secrets"]["()"])())
    logger = logging.getLogger("tests.log_masking")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("Forbidden (%s): %s", "CSRF cookie not set.", "/join/Zq8_-aB3x/")
        logger.warning("Not Found: %s", "/replay/Hh-7_k2/")
        # runserver's lines: a dict of arguments, the query string included.
        logger.info("WebSocket HANDSHAKING %(path)s", {"path": "/ws/rooms/AB2C/?t=Wx_9-k&v=2"})
        logger.warning("GET %s: database unavailable", "/r/AB2C/?x=1&t=Wx_9-k")
        try:
            raise ValueError("no room for /join/Zq8_-aB3x/")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    for secret in ("Zq8_-aB3x", "Hh-7_k2", "Wx_9-k"):
        assert secret not in written
    assert "Forbidden (CSRF cookie not set.): /join/-/" in written
    assert "Not Found: /replay/-/" in written
    assert "/ws/rooms/AB2C/?t=-&v=2" in written and "/r/AB2C/?x=1&t=-" in written
    assert "ValueError: no room for /join/-/" in written


def test_what_opens_nothing_is_left_as_it_was():
    for text in ("/r/AB2C/", "/rules/?lang=ja", "/accounts/login/?next=/r/AB2C/", "/join/-/"):
        assert mask(text) == text
