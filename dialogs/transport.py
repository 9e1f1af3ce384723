"""The websocket transport every consumer shares: bounded, parsed JSON frames with errors that say what was wrong,
a rate limit per socket and one on how often a person opens sockets, frame ids read from frames that cannot be
parsed, close codes, and the change to Daphne's websocket protocol that lets a client learn what the protocol
(docs/protocol.md) promises it.

The consumers (dialogs.consumers) build on `JsonConsumer` and handle only parsed messages.
"""

import json
import logging
import re
import select
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.auth import AuthMiddleware, get_user
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection
from django.utils import timezone, translation
from django.utils.translation import gettext

from annotation.plumbing import jsoncodec
from config.language import language_for_scope
from dialogs import presence

logger = logging.getLogger(__name__)

try:
    from autobahn.exception import Disconnected as _DaphneDisconnected
except ImportError:  # pragma: no cover - autobahn comes with Daphne
    _DaphneDisconnected = OSError


# What sending on a socket whose client has just gone raises: Daphne (autobahn) once the closing handshake has begun,
# before the disconnect reaches the consumer; other ASGI servers an OSError, as the ASGI spec asks.
SOCKET_CLOSED_ERRORS = (OSError, _DaphneDisconnected)

# Close codes (4000–4999 are the application's): the client shows the reason and does not retry 4401/4403/4404.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# Too many sockets opened by this person lately (WS_OPENS_PER_MINUTE): not a refusal, retry later with back-off.
CLOSE_TRY_LATER = 4429


# Daphne's default websocket_max_message_size, which autobahn applies to the frames it sends too: a bigger one is not
# sent, and the socket is closed with 1011.
TRANSPORT_MAX_FRAME_BYTES = 1024 * 1024
# The key config/asgi.py adds to a `websocket.receive` when a frame was over that limit: the text is then only the
# frame's head (what arrived first), and the key's value is the frame's size in bytes.
OVERSIZED_FRAME_KEY = "wozsql.oversized_bytes"

_DECODER = json.JSONDecoder()
_BLANK = re.compile(r"[ \t\n\r]*")


def frame_id(text: str) -> str | None:
    """The client id (`id`, 1–64 characters) of a frame that is refused before it is parsed (too large, rate limited,
    not valid JSON), or None. Read pair by pair from the top level of the JSON object, so that an id that comes before
    whatever is wrong is found: in a frame that is not valid JSON further on, or in only the head of a frame too large
    to be received whole."""
    match = _BLANK.match
    index = match(text).end()
    if text[index : index + 1] != "{":
        return None
    index += 1
    try:
        while True:
            key, index = _DECODER.raw_decode(text, match(text, index).end())
            index = match(text, index).end()
            if text[index : index + 1] != ":":
                return None
            value, index = _DECODER.raw_decode(text, match(text, index + 1).end())
            if key == "id":
                return value if isinstance(value, str) and 1 <= len(value) <= 64 else None
            index = match(text, index).end()
            if text[index : index + 1] != ",":
                return None
            index += 1
    except (ValueError, RecursionError):  # the cut, or the fault (too deep a value among them): no id before it
        return None


class RateLimit:
    """A token bucket per socket: WS_RATE_PER_MINUTE messages a minute, with a burst of a quarter of that (at least
    5; docs/protocol.md states it)."""

    def __init__(self, per_minute: int):
        self.rate = per_minute / 60.0
        self.capacity = max(5.0, per_minute / 4)
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


async def socket_open_allowed(person_id: int) -> bool:
    """Count one socket opened by `person_id`; False once WS_OPENS_PER_MINUTE were opened this minute. Every socket
    that opens writes its row and its side's presence, and tells the partner when it makes a difference, so a client
    that reconnects in a tight loop must be slowed down before any of that (docs/protocol.md, close code 4429). Counted
    in the cache, as the crowd join brake is: per process unless the deployment shares one."""
    limit = settings.WS_OPENS_PER_MINUTE
    key = f"ws-opens:{person_id}:{int(timezone.now().timestamp() // 60)}"
    # The process's own memory cache (no CACHES is configured): its calls never wait, so they are made right here;
    # the async ones would each queue on the thread every socket's database work shares.
    cache.add(key, 0, timeout=120)
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between the two calls: the first of a new minute
        cache.add(key, 1, timeout=120)
        return True


# How long a database connection that last served a call without error is taken as good: within it, the next call
# on the same thread skips Django's health check (a `SELECT 1` round trip before the first query of every call)
# unless the server has said something on the idle connection since (below).
CONNECTION_TRUSTED_SECONDS = 5.0


def _server_spoke(raw) -> bool:
    """Whether an idle PostgreSQL connection has something to read: nothing is due on it between queries, so data
    there is the server's goodbye (a restart or a terminated backend sends an error and closes). A look at the socket,
    no round trip."""
    try:
        readable, _, _ = select.select([raw.fileno()], [], [], 0)
    except (OSError, ValueError):  # closed meanwhile
        return True
    return bool(readable)


def _connection_checked() -> None:
    """What Django does around each request, once per call: close the thread's connection when it has outlived
    DB_CONN_MAX_AGE or an error left it doubtful; and, when it served a call without error moments ago and the server
    has not spoken on it since, take it as checked. A restarted database is still found by the health check: its
    goodbye is on the socket (dialogs/tests/test_faults.py restarts PostgreSQL between two messages)."""
    close_old_connections()
    raw = connection.connection
    if raw is None or connection.errors_occurred or connection.vendor != "postgresql":
        return
    good_at = getattr(connection, "wozsql_good_at", None)
    if good_at is not None and time.monotonic() - good_at < CONNECTION_TRUSTED_SECONDS and not _server_spoke(raw):
        connection.health_check_done = True


def _connection_used() -> None:
    close_old_connections()
    if connection.connection is not None and not connection.errors_occurred:
        connection.wozsql_good_at = time.monotonic()
    else:
        connection.wozsql_good_at = None


class DatabaseCall(SyncToAsync):
    """`channels.db.database_sync_to_async` for the sockets' calls: the same thread choice and the same clean-up of
    old connections before and after, without a health-check round trip on a connection that served the call
    before it (CONNECTION_TRUSTED_SECONDS). A room message makes two or three such calls (bench/chat_load.py)."""

    def thread_handler(self, loop, *args, **kwargs):
        _connection_checked()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            _connection_used()


database_call = DatabaseCall

# Threads for the sockets' own reads on PostgreSQL (a socket's user and session when it opens, its dialogue, state
# and catch-up): a socket handles one frame at a time, so its reads never overlap, and many sockets opening at once
# are no longer queued on the one thread every socket's database work shared, behind the lobby's pairing (sockets
# then waited past Daphne's five seconds to be accepted, bench/chat_load.py). SQLite keeps that one thread.
SOCKET_READ_THREADS = 4
_socket_reads: ThreadPoolExecutor | None = None


def on_postgresql() -> bool:
    return "postgresql" in settings.DATABASES["default"]["ENGINE"]


def socket_read(function):
    """`function` as a socket's database read: on the socket-read threads on PostgreSQL, else the shared thread."""
    global _socket_reads
    if not on_postgresql():
        return database_call(function)
    if _socket_reads is None:  # only ever called on the event loop's thread
        _socket_reads = ThreadPoolExecutor(max_workers=SOCKET_READ_THREADS, thread_name_prefix="socket-reads")
    return database_call(function, thread_sensitive=False, executor=_socket_reads)


# Set on a socket's scope once SocketAuthMiddleware has read its user from the database for this connection.
USER_READ_AT_CONNECT = "wozsql.user_read_at_connect"
# The socket's language, decided by SocketAuthMiddleware in the same call (JsonConsumer.speak_persons_language).
LANGUAGE_AT_CONNECT = "wozsql.language_at_connect"


def _user_and_language(scope) -> tuple:
    """The socket's user (Channels' session lookup) and its language (config.language.language_for_scope), in one
    call off the event loop: one hop to a database thread per socket opening where there were two."""
    user = get_user.func(scope)
    return user, language_for_scope({**scope, "user": user})


class SocketAuthMiddleware(AuthMiddleware):
    """Channels' session authentication, reading the user on the socket-read threads (`socket_read`), and deciding
    the socket's language from the same session and user."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped, scope[LANGUAGE_AT_CONNECT] = await socket_read(_user_and_language)(scope)
        scope[USER_READ_AT_CONNECT] = True


def socket_user_fresh(scope) -> None:
    """Make sure the socket's user (role, block) is as the database has it now, before a consumer checks its role:
    read again, unless SocketAuthMiddleware has just read it for this very connection (a second read of the same row
    a moment later, for every socket a crowd opens). A scope built with a user of its own (tests) is read."""
    if not scope.get(USER_READ_AT_CONNECT):
        scope["user"].refresh_from_db()


def socket_auth_stack(inner):
    """Channels' AuthMiddlewareStack with SocketAuthMiddleware."""
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))


class JsonConsumer(AsyncWebsocketConsumer):
    """Bounded, parsed JSON frames with errors that say what was wrong; subclasses implement `on_message`."""

    peer_gone = False  # the client closed the socket; its disconnect has not been handled yet
    language = None  # what it speaks, once decided at connect (`speak_persons_language`)

    async def dispatch(self, message):
        """Channels' dispatch without its `aclose_old_connections()` before every handler: that is a hop to the
        thread every room's database work shares, for every frame and every broadcast each socket receives, where it
        waited behind the other rooms' queries. These consumers touch the database only through `database_call`,
        which cleans the connections up around each call itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")  # i18n-exempt: a programming error
        # Everything a handler sends, and the database calls it makes (asgiref carries the language to their threads),
        # in this socket's language (`speak_persons_language`); English until it is decided.
        with translation.override(self.language or settings.LANGUAGE_CODE):
            await handler(message)

    async def speak_persons_language(self) -> None:
        """Decide this socket's language once, as a page's is decided (config.language.language_for_scope), and
        speak it from now on: in the handler under way, and in every later one (`dispatch`). Decided already when
        SocketAuthMiddleware read the user (no second hop); read here for a scope built without it (tests)."""
        self.language = self.scope.get(LANGUAGE_AT_CONNECT) or await socket_read(language_for_scope)(self.scope)
        translation.activate(self.language)  # undone with the handler's override when it ends

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However the consumer ends, this process no longer holds its socket. After a crash (a handler raised:
            # no disconnect handler runs then) or a close the database could not record, its row is still there:
            # the background loop's next round removes it, with its leave (presence.sockets_vouch).
            if hasattr(self, "channel_name"):
                presence.socket_forget(channel_name=self.channel_name)

    async def send_json(self, content: dict) -> None:
        await self.send_text(jsoncodec.dumps(content))

    async def send_text(self, text: str) -> None:
        """Send one frame. A client that has just closed the socket is not an error: whatever was on its way is
        dropped quietly (a room client resumes from its last sequence number), and nothing more is sent."""
        if self.peer_gone:
            return
        try:
            await self.send(text_data=text)
        except SOCKET_CLOSED_ERRORS as exc:
            self.peer_gone = True
            logger.debug("socket closed by the client before a frame could be sent: %s", exc)

    async def refuse(self, code: int) -> None:
        """Close with an application code (4401/4403/4404/4429) that the client can read.

        Closing before the handshake makes Daphne answer a bare HTTP 403: a browser then sees only 1006 and would
        retry for ever. Accepting first and closing at once delivers the code the protocol promises.
        """
        await self.accept()
        await self.close(code=code)

    async def send_error(self, code: str, message: str, client_id=None) -> None:
        error = {"type": "error", "code": code, "message": message}
        if client_id is not None:
            error["id"] = client_id
        await self.send_json(error)

    async def websocket_receive(self, message):
        if OVERSIZED_FRAME_KEY in message:  # the head of a frame over Daphne's own limit (config/asgi.py)
            await self.refuse_frame("too_large", self._size_limit_text(), message.get("text") or "")
            return
        await super().websocket_receive(message)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None:
            await self.send_error("bad_frame", gettext("Send JSON text frames, not binary."))
            return
        if len(text_data.encode("utf-8")) > settings.WS_MAX_MESSAGE_BYTES:
            await self.refuse_frame("too_large", self._size_limit_text(), text_data)
            return
        if not self.rate_limit.allow():
            await self.refuse_frame("rate_limited", gettext("Too many messages; slow down."), text_data)
            return
        try:
            message = json.loads(text_data)
        except RecursionError:  # nested deeper than the parser goes: as unreadable as a syntax error, not a crash
            await self.refuse_frame("bad_json", gettext("The message is nested too deeply to be read."), text_data)
            return
        except ValueError:
            await self.refuse_frame("bad_json", gettext("The message is not valid JSON."), text_data)
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.refuse_frame(
                "bad_message", gettext("A message is a JSON object with a string 'type'."), text_data
            )
            return
        await self.on_message(message)

    async def refuse_frame(self, code: str, message: str, text: str) -> None:
        """Refuse a frame before it is parsed, with its id when one can be read (the client resends or gives up on
        exactly that message)."""
        await self.send_error(code, message, frame_id(text))

    async def refuse_message(self, received: dict, code: str, message: str) -> None:
        """Refuse a parsed frame, with its id when it had one."""
        client_id = received.get("id")
        await self.send_error(code, message, client_id if isinstance(client_id, str) else None)

    @staticmethod
    def _size_limit_text() -> str:
        return gettext("Messages are limited to %(bytes)s bytes.") % {"bytes": settings.WS_MAX_MESSAGE_BYTES}

    async def on_message(self, message: dict) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


# What the consumer receives of a frame over Daphne's limit: enough for the `id` that comes before a long field.
_OVERSIZED_HEAD_BYTES = 4096
# How long a connection the server closed may take to shut down in order before it is reset.
_SHUTDOWN_GRACE_SECONDS = 30


class _RoomProtocolChanges:
    """The methods install_room_protocol puts before Daphne's WebSocketProtocol (its docstring says why)."""

    oversized_head = None  # a bytearray while the rest of an over-limit message is being discarded

    def _max_message_size_exceeded(self, msg_size, max_msg_size, reason):
        if getattr(self, "_isMessageCompressed", False):  # Daphne negotiates no compression; autobahn's way then
            super()._max_message_size_exceeded(msg_size, max_msg_size, reason)
        elif self.oversized_head is None:  # the first frame over the limit (later fragments come here too)
            received = b"".join(self.message_data or []) + b"".join(self.frame_data or [])
            self.oversized_head = bytearray(received[:_OVERSIZED_HEAD_BYTES])
            self.message_data, self.frame_data = [], []

    def onMessageFrameData(self, payload):
        if self.oversized_head is None:
            super().onMessageFrameData(payload)
        elif len(self.oversized_head) < _OVERSIZED_HEAD_BYTES:
            self.oversized_head += payload[: _OVERSIZED_HEAD_BYTES - len(self.oversized_head)]

    def onMessageFrameEnd(self):
        if self.oversized_head is None:
            super().onMessageFrameEnd()
        else:
            self.frame_data = None

    def onMessageEnd(self):
        if self.oversized_head is None:
            super().onMessageEnd()
            return
        head, self.oversized_head, self.message_data = bytes(self.oversized_head), None, None
        if self.muted:
            return
        self.last_ping = time.time()  # as Daphne's onMessage does: the client is alive
        received = {"type": "websocket.receive", OVERSIZED_FRAME_KEY: self.message_data_total_length}
        if self.message_is_binary:
            received["bytes"] = head
        else:
            received["text"] = head.decode("utf-8", "ignore")  # the cut may split a character
        self.application_queue.put_nowait(received)

    def onCloseHandshakeTimeout(self):
        # autobahn's own drops with abort=True: a TCP reset that can overtake the close frame in the browser.
        self.closeHandshakeTimeoutCall = None
        if self.state != self.STATE_CLOSED:
            self.wasClean = False
            self.dropConnection(abort=False)
            # A peer that reads nothing at all would keep an orderly shutdown waiting: reset it after a while.
            from twisted.internet import reactor  # Daphne's, installed by now (importing it earlier would not be)

            self.lingering = reactor.callLater(_SHUTDOWN_GRACE_SECONDS, self.transport.abortConnection)

    def connectionLost(self, reason):
        lingering = getattr(self, "lingering", None)
        if lingering is not None and lingering.active():
            lingering.cancel()
        super().connectionLost(reason)


def install_room_protocol() -> None:
    """Two changes to Daphne's websocket protocol, both so that a client learns what the protocol promises it.

    Oversized frames. Daphne (autobahn) fails a connection whose incoming message is over
    --websocket-max-message-size (1 MiB by default) by dropping the TCP connection: no close code, no error, and a
    client that resends what was never acked sends the same frame again after reconnecting. Here the rest of such a
    frame is discarded as it arrives (nothing over the limit is held in memory), and the consumer receives its head
    marked with OVERSIZED_FRAME_KEY: it answers `too_large` with the frame's id, and the socket stays open, as
    docs/protocol.md says of every refused frame.

    Close codes. When the server closes (4401/4403/4404), autobahn waits one second for the client's closing reply and
    then aborts the TCP connection (a reset). A browser whose tab is busy for that second (a slow laptop, a loaded
    machine) has not yet taken the close frame in, and the reset makes it report 1006 instead of the code: the page
    retries a refusal that will never change. Here the connection is ended with an orderly shutdown instead, which
    the browser reads after the close frame (docs/pitfalls.md).
    Loaded by Daphne's command line (and its runserver) before it builds its protocol factory.
    """
    try:
        from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
    except ImportError:  # pragma: no cover - another ASGI server
        return

    class RoomProtocol(_RoomProtocolChanges, WebSocketProtocol):
        pass

    WebSocketFactory.protocol = RoomProtocol
