from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from lobby import bot_api, bot_pages, guides, views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("fairness/", views.fairness, name="fairness"),
    path("new/", views.new_game, name="new_game"),
    path("play-now/", views.play_now, name="play_now"),
    path("r/<str:code>/leave/", views.leave_table, name="leave_table"),
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
    path("accounts/profile/bots/", bot_pages.create, name="bot_create"),
    path("accounts/profile/bots/<int:bot_id>/token/", bot_pages.token, name="bot_token"),
    path("accounts/profile/bots/<int:bot_id>/revoke/", bot_pages.revoke, name="bot_revoke"),
    path("accounts/profile/bots/<int:bot_id>/public/", bot_pages.public, name="bot_public"),
    path("bots/<str:name>/", bot_pages.bot_page, name="bot"),
    # The bot API's guides, from docs/ (lobby/guides.py): outside bots/<name>/, so that
    # no bot's name can take their place.
    path("docs/bots/", guides.bot_guide, name="bot_guide"),
    path("docs/protocol/", guides.protocol_guide, name="protocol_guide"),
    path("docs/bots/random_bot.py", guides.reference_bot, name="reference_bot"),
    path("r/<str:code>/invite-bot/", bot_pages.invite, name="invite_bot"),
    # The bot API (docs/bots.md): JSON, a bot's token in the Authorization header.
    path("api/bot/account", bot_api.account, name="bot_api_account"),
    path("api/bot/stream", bot_api.stream, name="bot_api_stream"),
    path(
        "api/bot/challenges/<int:challenge_id>/accept",
        bot_api.answer,
        {"how": "accept"},
        name="bot_api_accept",
    ),
    path(
        "api/bot/challenges/<int:challenge_id>/decline",
        bot_api.answer,
        {"how": "decline"},
        name="bot_api_decline",
    ),
    path("api/bot/challenge/<str:name>", bot_api.challenge_bot, name="bot_api_challenge"),
    # Anything else under the API's prefix, whatever the method: a JSON 404.
    re_path(r"^api/bot(?:/|$)", bot_api.not_found),
]
