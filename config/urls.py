from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz


class FaviconView(RedirectView):
    """Browsers ask for /favicon.ico on their own: send them to the static icon (its name
    is only known at request time: hashed in production)."""

    permanent = False  # the hashed name changes when the icon does

    def get_redirect_url(self, *args, **kwargs):
        return static("favicon.ico")


urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("telemetry.urls")),
    path("", include("lobby.urls")),
]
