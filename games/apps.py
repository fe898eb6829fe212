from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games.realtime import layers

        layers.register()  # before the channel layer is first made (settings name it)
