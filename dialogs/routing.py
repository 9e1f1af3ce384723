"""Websocket routes of the dialogs app (wired into config.asgi)."""

websocket_urlpatterns: list = []
