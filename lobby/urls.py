from django.contrib.auth import views as auth_views
from django.urls import path

from lobby import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("fairness/", views.fairness, name="fairness"),
    path("new/", views.new_game, name="new_game"),
    path("r/<str:code>/", views.room, name="room"),
    path("r/<str:code>/start/", views.start, name="start"),
    path("r/<str:code>/history/", views.room_history, name="room_history"),
    path("r/<str:code>/remove/<int:seat>/", views.remove_player, name="remove_player"),
    path("join/<str:token>/", views.join, name="join"),
    path("replay/<str:replay_id>/", views.replay, name="replay"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        # Failed log-ins are limited by django-axes (config/settings.py, lobby/logins.py).
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/profile/end/", views.end_unfinished, name="end_unfinished"),
]
