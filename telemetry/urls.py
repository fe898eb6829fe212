from django.urls import path

from telemetry import views

urlpatterns = [
    path("telemetry/events/", views.ingest, name="telemetry_ingest"),
    path("staff/telemetry/", views.dashboard, name="telemetry_dashboard"),
]
