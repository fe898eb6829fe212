"""A page whose view cannot reach the database (PostgreSQL down, restarting, or every
pooled connection busy past ``DB_POOL_TIMEOUT``) answers 503 with a page of its own,
rendered without the database (no user, no session), with ``Retry-After``; the log gets
one warning line, not a traceback."""

import logging

from django.db import DatabaseError
from django.http import HttpResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)

#: Seconds a browser or crawler is told to wait before trying again.
RETRY_AFTER = 10


class DatabaseOutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DatabaseError):
            return None
        log.warning("%s %s: database unavailable (%s)", request.method, request.path, exception)
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
