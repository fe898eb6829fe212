import os

from django.urls import re_path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    re_path(r"^ws/rooms/(?P<code>[A-Z0-9]{4,8})/$", TableConsumer.as_asgi()),
]

if os.environ.get("BENCH_ECHO") == "1":  # the load benchmark's baseline (manage.py bench_load)
    from games.bench_echo import EchoConsumer

    websocket_urlpatterns.append(
        re_path(r"^ws/echo/(?P<room>[A-Za-z0-9]{1,20})/$", EchoConsumer.as_asgi())
    )
