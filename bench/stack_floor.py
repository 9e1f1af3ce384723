"""The stack's floor for bench/chat_load.py: the chat's frames relayed by a minimal Channels application under Daphne,
through the stack's own channel layer (channels_redis's pub/sub layer as shipped, or the in-memory layer without
REDIS_URL; the platform publishes through its batching subclass, dialogs.channel_layer, which is wozsql's own code),
with nothing stored and no database.

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/daphne -b 127.0.0.1 -p PORT bench.stack_floor:application

`bench/chat_load.py` starts it itself (beside the bare relay, `serve_floor`): where the bare relay gives what the
clients, the loopback and the websocket framing cost, this one adds what the fixed parts of the stack cost a frame
(Daphne's protocol handling, Channels' consumers and dispatch, the channel layer's publish and delivery), so that the
platform's figures can be read as (the stack's own cost) + (what wozsql does with a message). One process only: the
rooms' logs live in its memory, as the bare relay's do.

It speaks what the benchmark's clients send (bench/wozclient.py) the way the bare relay answers it: lobby `join` →
`paired`; in a room `hello` → state and the events after `last_seq`; `ping` → `pong`; a message with an `id` → an
event with the next sequence number, broadcast to the room's group, and an `ack`; a state after each response, end
and score. The role is the `floor=worker:N` / `floor=expert:N` cookie.
"""

import asyncio
import json
import os
import sys
import time
from collections import deque
from pathlib import Path

import django
from django.conf import settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if not settings.configured:
    redis_url = os.environ.get("REDIS_URL", "")
    layer = (
        {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [{"address": redis_url}]}}
        if redis_url
        else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    )
    settings.configure(INSTALLED_APPS=["channels"], CHANNEL_LAYERS={"default": layer}, USE_TZ=True)
    django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from bench.chat_load import FLOOR_KIND, FLOOR_STATE_AFTER, floor_payload  # noqa: E402
from bench.wozclient import visible_to  # noqa: E402


class _Room:
    def __init__(self, dialogue: int):
        self.dialogue = dialogue
        self.log: list[dict] = []
        self.ids: dict[tuple[str, str], int] = {}
        # Numbering and publishing under one lock: the group receives the events in sequence order.
        self.lock = asyncio.Lock()
        self.ended = False


_rooms: dict[int, _Room] = {}
_waiting: dict[str, deque] = {"worker": deque(), "expert": deque()}


def _role(scope) -> str:
    cookie = dict(scope.get("headers") or []).get(b"cookie", b"").decode()
    return "expert" if "floor=expert" in cookie else "worker"


class _Consumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        # Channels' dispatch without its database connection clean-up before every handler (a hop to the thread
        # for synchronous code, per frame and per broadcast): there is no database here, and the platform's consumers
        # skip it too (dialogs/transport.py, JsonConsumer.dispatch).
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class LobbyConsumer(_Consumer):
    async def connect(self):
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        if json.loads(text_data or "{}").get("type") != "join":
            return
        _waiting[_role(self.scope)].append(self)
        while _waiting["worker"] and _waiting["expert"]:
            dialogue = len(_rooms) + 1
            _rooms[dialogue] = _Room(dialogue)
            paired = json.dumps({"type": "paired", "dialogue": dialogue, "url": f"/dialogues/{dialogue}/"})
            for side in ("worker", "expert"):
                await _waiting[side].popleft().send(text_data=paired)

    async def disconnect(self, code):
        for queue in _waiting.values():
            if self in queue:
                queue.remove(self)


class RoomConsumer(_Consumer):
    async def connect(self):
        self.room = _rooms.get(int(self.scope["url_route"]["kwargs"]["dialogue"]))
        if self.room is None:
            await self.close(4404)
            return
        self.role, self.ready, self.group = _role(self.scope), False, f"floor-room-{self.room.dialogue}"
        self.sent_seq = 0  # a broadcast may arrive after the hello's replay sent its event: each event once
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._record("join", {})

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def _record(self, kind: str, payload: dict) -> dict:
        room = self.room
        async with room.lock:
            event = {
                "seq": len(room.log) + 1,
                "kind": kind,
                "author_role": self.role,
                "created_at": time.time(),
                "payload": payload,
            }
            room.log.append(event)
            await self.channel_layer.group_send(self.group, {"type": "room.event", "event": event})
        return event

    async def _state(self):
        room = self.room
        state = {
            "type": "state",
            "role": self.role,
            "dialogue": room.dialogue,
            "status": "completed" if room.ended else "active",
            "goal_question": "How many rows are there?",
            "goal_sql": "SELECT 1",
            "last_seq": len(room.log),
        }
        await self.send(text_data=json.dumps(state))

    async def room_event(self, message):
        event = message["event"]
        if not self.ready or event["seq"] <= self.sent_seq:
            return
        self.sent_seq = event["seq"]
        if not visible_to(event["kind"], self.role):
            return
        await self.send(text_data=json.dumps({"type": "event", **event}))
        if event["kind"] in FLOOR_STATE_AFTER:
            await self._state()

    async def receive(self, text_data=None, bytes_data=None):
        message = json.loads(text_data or "{}")
        kind, room = message.get("type"), self.room
        if kind == "hello":
            await self._state()
            for event in room.log[message.get("last_seq", 0) :]:
                if visible_to(event["kind"], self.role):
                    await self.send(text_data=json.dumps({"type": "event", **event}))
                self.sent_seq = event["seq"]
            self.ready = True
        elif kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
        elif "id" in message:
            key = (self.role, message["id"])
            if key not in room.ids:
                room.ended = room.ended or kind == "end"
                event = await self._record(FLOOR_KIND.get(kind, kind), floor_payload(message))
                room.ids[key] = event["seq"]
            await self.send(text_data=json.dumps({"type": "ack", "id": message["id"], "seq": room.ids[key]}))


class LogConsumer(_Consumer):
    async def connect(self):
        await self.accept()
        logs = {dialogue: [[e["seq"], e["kind"]] for e in room.log] for dialogue, room in _rooms.items()}
        await self.send(text_data=json.dumps(logs))
        await self.close()


application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [
                path("floor-log", LogConsumer.as_asgi()),
                path("ws/lobby/", LobbyConsumer.as_asgi()),
                re_path(r"^ws/dialogues/(?P<dialogue>\d+)/$", RoomConsumer.as_asgi()),
            ]
        )
    }
)
