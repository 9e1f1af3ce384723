"""Websocket helpers for the tests that talk to the real ASGI application (WebsocketCommunicator)."""

import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")  # a browser always sends it; the Origin check compares the two


async def session_cookie(user) -> bytes:
    """A real session for `user`, as the login form would create it."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    def build():
        engine = import_module(settings.SESSION_ENGINE)
        session = engine.SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()

    return await database_sync_to_async(build)()


async def connect(path: str, user=None, origin=ORIGIN):
    headers = [HOST, origin] if origin else [HOST]
    if user is not None:
        headers.append((b"cookie", await session_cookie(user)))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


async def refused_with(path: str, user=None, origin=ORIGIN):
    """The close code of a refused socket. The consumer accepts and closes at once (a close before the handshake
    reaches a browser as a bare HTTP 403, without the code), so the code is in the first frame after the accept."""
    communicator, connected, code = await connect(path, user, origin)
    if connected:
        closed = await communicator.receive_output(timeout=1)
        assert closed["type"] == "websocket.close"
        code = closed.get("code")
    return code


async def receive_until(communicator, predicate, limit=30):
    for _ in range(limit):
        message = json.loads(await communicator.receive_from(timeout=5))
        if predicate(message):
            return message
    raise AssertionError("expected message never arrived")


def is_message(kind, **fields):
    return lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())


def is_event(kind):
    return lambda m: m.get("type") == "event" and m["kind"] == kind


async def enter(dialogue, user, last_seq=0):
    communicator, connected, _ = await connect(f"/ws/dialogues/{dialogue.pk}/", user)
    assert connected
    await communicator.send_json_to({"type": "hello", "last_seq": last_seq})
    state = await receive_until(communicator, is_message("state"))
    return communicator, state
