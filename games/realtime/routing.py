from django.urls import re_path

from games.realtime.consumers import NoSuchSocket, TableConsumer

#: After every other socket route (config/asgi.py): any other path is closed with 4404.
fallback = [re_path(r"", NoSuchSocket.as_asgi())]

websocket_urlpatterns = [
    # Any code: a malformed one is no room (4404, games.selectors.room_by_code), not a
    # missing route (a traceback and an HTTP 500).
    re_path(r"^ws/rooms/(?P<code>[^/]{1,100})/$", TableConsumer.as_asgi()),
]
