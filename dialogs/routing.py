"""Websocket routes of the dialogs app (wired into config.asgi)."""

from django.urls import path

from dialogs import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/dialogues/<int:dialogue_id>/", consumers.DialogueConsumer.as_asgi()),
    path("ws/manage/live/", consumers.OperationsConsumer.as_asgi()),
    path("ws/manage/live/rooms/<int:dialogue_id>/", consumers.RoomWatchConsumer.as_asgi()),
]
