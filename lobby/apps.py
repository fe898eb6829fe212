from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"

    def ready(self):
        from lobby import logins  # noqa: F401  (connects the log-in signal)
