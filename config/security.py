"""The Content-Security-Policy every response carries.

Scripts, styles, fonts, images and connections come from the site's own origin only: no
inline ``<script>``, no ``on*=`` handler, no ``<style>`` element or ``style=`` attribute,
no ``eval``. The pages keep to that (their code is in ``static/``; the table positions
its cards through the CSSOM, ``el.style.transform = ...``, which the policy allows), so
an injected script or style does nothing. ``data:`` images are the stylesheet's small
SVG icons. ``connect-src 'self'`` covers the page's ``fetch``/``sendBeacon`` and its
WebSockets: CSP 3 matches ``ws:``/``wss:`` of the page's own host and port with
``'self'``, which Chromium and Firefox do (``tests/browser/test_csp.py`` plays at a table
under it).

The admin (Django's own pages, under ``/admin/``) also keeps to it in Django 5.2: its
scripts are files, and the ``<script>`` elements in its templates only carry data.

With ``DEBUG`` on, Django's own error pages (the technical 404 and 500, with their inline
styles and scripts) go out without it, so that a developer's traceback stays readable;
with ``DEBUG`` off those statuses are our own templates, under the policy.

To change the policy, change ``POLICY`` (``docs/operations.md``); a page that needs more
should rather move its code into ``static/``.
"""

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"

POLICY: dict[str, tuple[str, ...]] = {
    "default-src": ("'self'",),
    "script-src": ("'self'",),
    "style-src": ("'self'",),
    "img-src": ("'self'", "data:"),
    "connect-src": ("'self'",),
    "font-src": ("'self'",),
    "object-src": ("'none'",),
    "base-uri": ("'none'",),
    "form-action": ("'self'",),
    "frame-ancestors": ("'none'",),
}


def header_value(policy: dict[str, tuple[str, ...]]) -> str:
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in policy.items())


VALUE = header_value(POLICY)

#: The statuses whose pages Django draws itself when DEBUG is on (django.views.debug).
DEBUG_PAGES = (404, 500)


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Adds the policy to every response (but Django's debug pages)."""

    def process_response(self, request, response):
        if not (settings.DEBUG and response.status_code in DEBUG_PAGES):
            response.headers[HEADER] = VALUE
        return response
