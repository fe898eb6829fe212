from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games.realtime import broadcast, layers
        from games.services import publish

        layers.register()  # before the channel layer is first made (settings name it)
        # The services' news reaches the sockets through the real-time side, which they
        # never import (games/services/publish.py).
        publish.register(broadcast)
