import json

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from telemetry import dashboard as board
from telemetry import ratelimit, report, schema, services


# No cookie, session or identity is read, so there is nothing for CSRF to protect; the
# page sends events with navigator.sendBeacon, which cannot carry a CSRF header.
@csrf_exempt
@require_POST
def ingest(request):
    """One anonymous event: 204 when stored, 4xx with a reason when refused."""
    if len(request.body) > schema.MAX_BODY_BYTES:
        return JsonResponse({"error": "too_large"}, status=413)
    if not ratelimit.allow(request.META.get("REMOTE_ADDR", "")):
        return JsonResponse({"error": "rate_limited"}, status=429)
    try:
        payload = json.loads(request.body)
        event = schema.clean(payload)
    except (ValueError, RecursionError) as exc:
        message = str(exc) if isinstance(exc, schema.EventRefused) else "invalid JSON"
        return JsonResponse({"error": "refused", "message": message}, status=400)
    services.record(event)
    services.purge_once_a_day()
    return JsonResponse({}, status=204)


def dashboard(request):
    """Staff only: the login page for visitors, 403 for players who are not staff."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise PermissionDenied
    form = board.RangeForm(request.GET)
    start, end = form.chosen()
    return render(
        request,
        "telemetry/dashboard.html",
        {"form": form, **board.context(report.build(start, end))},
    )
