from django.urls import re_path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    re_path(r"^ws/rooms/(?P<code>[A-Z0-9]{4,8})/$", TableConsumer.as_asgi()),
]
