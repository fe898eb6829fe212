from django.contrib import admin
from django.urls import path

from lobby import views as lobby_views

urlpatterns = [
    path("", lobby_views.home, name="home"),
    path("admin/", admin.site.urls),
]
