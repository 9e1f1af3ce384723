"""The simulated worker's client of the public websocket protocol (docs/protocol.md), and nothing more: it opens the
lobby and a room with a session cookie, says hello with the last sequence number it saw, sends messages with client
ids and waits for their acks, resends what was never acked after a reconnect, backs off as the protocol asks, and
gives up on the refusals the protocol says not to retry. What to say is `dialogs.simulated.play`'s.

It uses no code of the server: what it does is what any client may do.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable

from django.utils.translation import gettext
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

# The protocol's refusals after which a client must not try again (not signed in, not allowed, no such dialogue).
FINAL_CLOSE_CODES = frozenset({4401, 4403, 4404})
# Too many sockets opened this minute: wait at least this long before the next try (the protocol's rule).
TOO_MANY_OPENS = 4429
TOO_MANY_OPENS_WAIT = 5.0
# Reconnection waits, doubling up to the protocol's ceiling.
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 10.0)
RECONNECT_TRIES = 12
HEARTBEAT_SECONDS = 15.0
# Errors a message is resent after (the frame was dropped); any other error for a message is its refusal.
_RESEND_CODES = frozenset({"rate_limited"})


class SimulationError(Exception):
    """The server refused something the script needed, or did not answer in time; the message says which."""


def client_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def _ws_url(base_url: str, path: str) -> str:
    return "ws" + base_url.removeprefix("http") + path


def _open(base_url: str, path: str, cookie: str):
    # Origin names the server itself (the cross-site hijacking check); no proxy: the server is named directly.
    return connect(
        _ws_url(base_url, path),
        origin=base_url,
        additional_headers={"Cookie": cookie},
        proxy=None,
        max_size=1 << 20,
        open_timeout=30,
        close_timeout=5,
    )


def _backoff():
    for attempt in range(RECONNECT_TRIES):
        yield BACKOFF[min(attempt, len(BACKOFF) - 1)]


async def lobby_paired(base_url: str, cookie: str, *, role: str, seen: set[int] = frozenset()) -> int:
    """Join the lobby and return the dialogue this person is paired on (a `paired` frame, or a `status` that names an
    open dialogue of theirs not in `seen`). An expert leaves the queue once paired: each scripted expert plays one
    dialogue. Reconnects with the back-off after a lost connection; raises SimulationError on a final refusal."""
    waits = _backoff()
    while True:
        try:
            async with _open(base_url, "/ws/lobby/", cookie) as socket:
                await socket.send(json.dumps({"type": "join"}))
                async for raw in socket:
                    dialogue = _paired_on(json.loads(raw), role, seen)
                    if dialogue is not None:
                        if role == "expert":
                            await socket.send(json.dumps({"type": "leave"}))
                        return dialogue
                code = socket.close_code
        except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError) as exc:
            code = getattr(getattr(exc, "rcvd", None), "code", None)
        if code in FINAL_CLOSE_CODES:
            raise SimulationError(gettext("the lobby refused this account (close code %(code)s)") % {"code": code})
        wait = next(waits, None)
        if wait is None:
            raise SimulationError(gettext("the lobby could not be reached"))
        await asyncio.sleep(max(wait, TOO_MANY_OPENS_WAIT) if code == TOO_MANY_OPENS else wait)


def _paired_on(frame: dict, role: str, seen) -> int | None:
    kind = frame.get("type")
    if kind == "paired":
        return int(frame["dialogue"])
    if kind == "error":
        raise SimulationError(
            gettext("the lobby refused: %(code)s: %(message)s")
            % {"code": frame.get("code"), "message": frame.get("message")}
        )
    if kind == "released":
        raise SimulationError(gettext("sent away from the lobby: %(message)s") % {"message": frame.get("message")})
    if kind != "status":
        return None
    if role == "worker":
        dialogue = frame.get("dialogue")
        return int(dialogue) if dialogue and int(dialogue) not in seen else None
    for item in frame.get("my_dialogues") or []:
        if item.get("status") in ("waiting", "active") and item.get("id") not in seen:
            return int(item["id"])
    return None


class RoomSocket:
    """One side's socket in a room: frames in order, acks by client id, resumption by `last_seq`."""

    def __init__(self, base_url: str, dialogue: int, cookie: str, *, reply_timeout: float = 60.0) -> None:
        self.base_url, self.dialogue, self.cookie = base_url, dialogue, cookie
        self.reply_timeout = reply_timeout
        self.last_seq = 0
        self.reconnects = 0
        self._socket = None
        self._inbox: list[dict] = []
        self._arrived = asyncio.Event()
        self._waiting: dict[str, asyncio.Future] = {}
        self._unacked: dict[str, dict] = {}
        self._failure: Exception | None = None
        self._closing = False
        self._tasks: list[asyncio.Task] = []

    async def start(self) -> None:
        await self._connect()
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._heartbeat())]

    async def _connect(self) -> None:
        self._socket = await _open(self.base_url, f"/ws/dialogues/{self.dialogue}/", self.cookie)
        # Nothing is pushed before hello; after a reconnect it names the last event already here, and then what was
        # sent but never acked goes again under the same id (the server stores it once).
        await self._socket.send(json.dumps({"type": "hello", "last_seq": self.last_seq}))
        for message in list(self._unacked.values()):
            await self._socket.send(json.dumps(message))

    async def _read(self) -> None:
        while not self._closing:
            try:
                async for raw in self._socket:
                    self._take(json.loads(raw))
            except ConnectionClosed:
                pass
            if self._closing:
                return
            code = self._socket.close_code
            if code in FINAL_CLOSE_CODES:
                return self._fail(SimulationError(f"the room closed with code {code}"))
            if not await self._reconnect(code):
                return

    async def _reconnect(self, code: int | None) -> bool:
        for wait in _backoff():
            await asyncio.sleep(max(wait, TOO_MANY_OPENS_WAIT) if code == TOO_MANY_OPENS else wait)
            if self._closing:
                return False
            try:
                await self._connect()
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
                continue
            self.reconnects += 1
            return True
        self._fail(SimulationError("the room could not be reached again"))
        return False

    def _fail(self, error: Exception) -> None:
        self._failure = error
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(error)
        self._arrived.set()

    def _take(self, frame: dict) -> None:
        kind = frame.get("type")
        if kind in ("ack", "error") and frame.get("id") in self._unacked:
            message_id = frame["id"]
            if kind == "error" and frame.get("code") in _RESEND_CODES:
                asyncio.get_running_loop().call_later(1.0, self._resend, message_id)
                return
            self._unacked.pop(message_id)
            future = self._waiting.pop(message_id, None)
            if future is not None and not future.done():
                if kind == "ack":
                    future.set_result(frame["seq"])
                else:
                    future.set_exception(Refused(frame.get("code", ""), frame.get("message", "")))
            return
        if kind == "event":
            if frame["seq"] <= self.last_seq:
                return  # already here (a resumption overlapping what arrived)
            self.last_seq = frame["seq"]
        self._inbox.append(frame)
        self._arrived.set()

    def _resend(self, message_id: str) -> None:
        message = self._unacked.get(message_id)
        if message is not None and not self._closing:
            asyncio.ensure_future(self._send(message))

    async def _send(self, message: dict) -> None:
        try:
            await self._socket.send(json.dumps(message))
        except ConnectionClosed:
            pass  # the reader reconnects and resends what is unacked

    async def _heartbeat(self) -> None:
        while not self._closing:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            await self._send({"type": "ping"})

    async def post(self, message: dict) -> int:
        """Send a message that changes something (it carries `id`); the sequence number of its event once stored.
        Raises Refused with the protocol's error code when the server refuses it."""
        if self._failure is not None:
            raise self._failure
        future = asyncio.get_running_loop().create_future()
        self._waiting[message["id"]] = future
        self._unacked[message["id"]] = message
        await self._send(message)
        try:
            return await asyncio.wait_for(future, self.reply_timeout)
        except TimeoutError:
            raise SimulationError(
                gettext("no answer to %(type)s within %(seconds)s s")
                % {"type": message["type"], "seconds": f"{self.reply_timeout:.0f}"}
            ) from None

    async def next(self, wanted: Callable[[dict], bool], what: str, *, timeout: float | None = None) -> dict:
        """The first frame not yet taken that `wanted` accepts, waiting for it; SimulationError after the timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.reply_timeout if timeout is None else timeout)
        while True:
            for index, frame in enumerate(self._inbox):
                if wanted(frame):
                    return self._inbox.pop(index)
            if self._failure is not None:
                raise self._failure
            left = deadline - loop.time()
            if left <= 0:
                raise SimulationError(gettext("%(what)s did not come within the time allowed") % {"what": what})
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), left)
            except TimeoutError:
                pass

    async def close(self) -> None:
        self._closing = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._socket is not None:
            await self._socket.close()


class Refused(SimulationError):
    """The server refused a message: `code` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def is_state(frame: dict) -> bool:
    return frame.get("type") == "state"


def is_event(kind: str, *, turn: int | None = None, seq: int | None = None, author_role: str | None = None):
    """A frame test for an event of `kind`, for a turn, with a sequence number, or by a side."""

    def wanted(frame: dict) -> bool:
        if frame.get("type") != "event" or frame.get("kind") != kind:
            return False
        payload = frame.get("payload") or {}
        return (
            (turn is None or payload.get("turn") == turn)
            and (seq is None or frame.get("seq") == seq)
            and (author_role is None or frame.get("author_role") == author_role)
        )

    return wanted
