"""A scripted wozsql client, written from docs/protocol.md alone (the load benchmark and the multi-server test use it).

It signs in through the login form, waits in the lobby, opens the room, and plays either side of a dialogue. Every
frame a room socket receives is stamped on arrival and kept, so a caller can check delivery afterwards (nothing lost,
nothing twice, in order, nothing a worker may not see) and measure send → partner receipt latencies.

Nothing here imports the project: a client that needed the server's code would not test the published protocol.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import random
import time
import urllib.parse
import uuid
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

# Close codes after which the protocol says not to retry.
NO_RETRY_CODES = frozenset({4401, 4403, 4404})
# Event kinds a worker receives (the protocol's visibility table); every other kind is expert-only.
WORKER_VISIBLE_KINDS = frozenset(
    {"join", "leave", "utterance", "result_shared", "response", "drop", "end", "recommendation"}
)
# Reconnect back-off from the protocol: 0.5 s doubling up to 10 s.
BACKOFF_SECONDS = (0.5, 1, 2, 4, 8, 10)


class ProtocolError(Exception):
    """The server refused something the script expected to work, or never answered."""


def visible_to(kind: str, role: str) -> bool:
    return role == "expert" or kind in WORKER_VISIBLE_KINDS


# --- Signing in ----------------------------------------------------------------------------------------------------


def _cookies(response: http.client.HTTPResponse) -> dict[str, str]:
    jar: dict[str, str] = {}
    for header in response.headers.get_all("Set-Cookie") or []:
        parsed = SimpleCookie()
        parsed.load(header)
        jar.update({name: morsel.value for name, morsel in parsed.items()})
    return jar


def login(base_url: str, username: str, password: str, timeout: float = 60.0) -> str:
    """Sign in through the login form; return the Cookie header value to open websockets with.

    Blocking (the standard library's HTTP client): call it through `asyncio.to_thread` from async code.
    """
    parts = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request("GET", "/login/")
        response = connection.getresponse()
        response.read()
        jar = _cookies(response)
        if "csrftoken" not in jar:
            raise ProtocolError(f"GET /login/ answered {response.status} without a csrftoken cookie")
        body = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": jar["csrftoken"]}
        )
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={jar['csrftoken']}",
            "Referer": f"{base_url}/login/",
        }
        connection.request("POST", "/login/", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        jar.update(_cookies(response))
    finally:
        connection.close()
    if "sessionid" not in jar:
        # The form answers 200 with the page again when the credentials are wrong, 403 on a CSRF failure.
        raise ProtocolError(f"login of {username!r} failed: POST /login/ answered {response.status}")
    return "; ".join(f"{name}={value}" for name, value in jar.items())


def ws_url(base_url: str, path: str) -> str:
    return "ws" + base_url.removeprefix("http") + path


def _open(base_url: str, path: str, cookie: str | None):
    headers = {"Cookie": cookie} if cookie else {}
    # No compression: browsers and servers differ there, and it only adds CPU to what is measured. No proxy from the
    # environment: the server is on loopback. The server's frames are at most 1 MiB by the protocol (result tables are
    # cut to fit), which is also what Daphne takes from us.
    return ws_connect(
        ws_url(base_url, path),
        origin=base_url,
        additional_headers=headers,
        compression=None,
        proxy=None,
        max_size=1 << 20,
        open_timeout=60,
        close_timeout=5,
    )


def open_socket(base_url: str, path: str, cookie: str | None):
    """A websocket to `path` with the client's usual options (an async context manager)."""
    return _open(base_url, path, cookie)


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


# --- The lobby -----------------------------------------------------------------------------------------------------


async def lobby_wait(
    base_url: str,
    cookie: str | None,
    *,
    leave_after: bool = False,
    timeout: float = 120.0,
    retried: list[str] | None = None,
    frames: list[dict] | None = None,
    ignore: Collection[int] = (),
    joined: list[float] | None = None,
) -> int:
    """Join the lobby and return the dialogue id once paired. `leave_after` stops an expert taking more dialogues.

    An expert may already have been given a dialogue while its lobby socket was closed: the `status` frame lists it in
    `my_dialogues`, so that counts as paired too. A lost connection, or a handshake the server did not complete, is
    retried with the protocol's back-off (the protocol's refusals are close codes after the handshake; a bare HTTP
    error is Daphne giving up on a handshake the application was too busy to accept); each retry's reason is appended
    to `retried`, and every frame received to `frames`. A dialogue in `ignore` (one this client has finished) does
    not count when a `status` lists it as open: a status sent on connect may be read a moment before it ended.
    The moment each `join` is sent (time.perf_counter()) is appended to `joined`.
    """
    delays = itertools.chain(BACKOFF_SECONDS, itertools.repeat(BACKOFF_SECONDS[-1]))
    try:
        async with asyncio.timeout(timeout):
            while True:
                try:
                    return await _lobby_once(base_url, cookie, leave_after, frames, ignore, joined)
                except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError) as exc:
                    if retried is not None:
                        retried.append(f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(next(delays))
    except TimeoutError:
        raise ProtocolError(f"not paired within {timeout} s") from None


async def _lobby_once(
    base_url: str,
    cookie: str | None,
    leave_after: bool,
    frames: list[dict] | None,
    ignore: Collection[int] = (),
    joined: list[float] | None = None,
) -> int:
    async with _open(base_url, "/ws/lobby/", cookie) as ws:
        await ws.send(json.dumps({"type": "join"}))
        if joined is not None:
            joined.append(time.perf_counter())
        async for raw in ws:
            frame = json.loads(raw)
            if frames is not None:
                frames.append(frame)
            kind = frame.get("type")
            dialogue = None
            if kind == "paired":
                dialogue = frame["dialogue"]
            elif kind == "status":
                open_ones = [
                    d
                    for d in frame.get("my_dialogues") or []
                    if d.get("status") in ("waiting", "active") and d.get("id") not in ignore
                ]
                dialogue = open_ones[0]["id"] if open_ones else None
            elif kind == "released":
                raise ProtocolError(f"released from the lobby: {frame.get('message')}")
            elif kind == "error":
                raise ProtocolError(f"lobby refused: {frame.get('code')}: {frame.get('message')}")
            if dialogue is not None:
                if leave_after:
                    await ws.send(json.dumps({"type": "leave"}))
                return int(dialogue)
        if ws.close_code in NO_RETRY_CODES:
            raise ProtocolError(f"lobby closed with code {ws.close_code}")
        raise ConnectionClosed(ws.close_rcvd, ws.close_sent)


# --- The room ------------------------------------------------------------------------------------------------------


@dataclass
class Received:
    at: float  # time.perf_counter() on arrival
    frame: dict


@dataclass
class Room:
    """One participant's socket in one room, with reconnection and resumption as the protocol describes.

    After a lost connection it reconnects with the protocol's back-off, trying at each step the server it was on,
    then each of `other_servers` in turn (another process behind the same load balancer: the session is valid there
    too), and resumes from the last sequence number it saw, resending what was never acked.
    """

    base_url: str
    dialogue: int
    cookie: str | None
    label: str = ""
    heartbeat_seconds: float = 15.0
    reply_timeout: float = 60.0
    other_servers: tuple[str, ...] = ()

    received: list[Received] = field(default_factory=list)  # every frame, in arrival order
    event_seqs: list[int] = field(default_factory=list)  # seq of every event frame, in arrival order (duplicates kept)
    event_kinds: dict[int, str] = field(default_factory=dict)
    first_seen: dict[int, float] = field(default_factory=dict)  # seq → arrival time of its first copy
    acks: dict[str, int] = field(default_factory=dict)  # client id → seq
    acked_at: dict[str, float] = field(default_factory=dict)  # client id → arrival time of its first ack
    sent_at: dict[str, float] = field(default_factory=dict)  # client id → time of the first send
    frames_sent: int = 0
    reconnects: int = 0
    servers_used: list[str] = field(default_factory=list)  # the server of each connection that opened, in order
    role: str | None = None
    state: dict | None = None

    def __post_init__(self):
        self._ws = None
        self._inbox: list[dict] = []  # frames not yet taken by the script (acks are answered separately)
        self._arrived = asyncio.Event()
        self._ack_waiters: dict[str, asyncio.Future] = {}
        self._unacked: dict[str, dict] = {}  # resent with the same id after a reconnect
        self._closing = False
        self._gone = False  # abandon(): the person is gone, nothing reconnects
        self._failure: Exception | None = None
        self._tasks: list[asyncio.Task] = []
        self._connected = asyncio.Event()

    @property
    def last_seq(self) -> int:
        return max(self.event_seqs, default=0)

    @property
    def connected(self) -> bool:
        """Whether the socket is open (and said hello) as far as this client knows."""
        return self._connected.is_set()

    async def start(self) -> None:
        """Open the socket and say hello; a first handshake that fails for a transient reason is retried."""
        try:
            await self._connect()
        except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
            if not await self._reconnect():
                raise self._failure from None
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._heartbeat())]

    async def _connect(self, base_url: str | None = None) -> None:
        # Handshake errors propagate: the caller retries them (see lobby_wait on bare HTTP errors).
        base_url = base_url or self.base_url
        self._ws = await _open(base_url, f"/ws/dialogues/{self.dialogue}/", self.cookie)
        self.base_url = base_url
        self.servers_used.append(base_url)
        # No events are pushed before hello; after a reconnect hello says what we already have.
        await self._send_raw({"type": "hello", "last_seq": self.last_seq})
        for message in list(self._unacked.values()):
            await self._send_raw(message)
        self._connected.set()

    async def _send_raw(self, message: dict) -> None:
        self.frames_sent += 1
        await self._ws.send(json.dumps(message))

    async def _read(self) -> None:
        while True:
            try:
                async for raw in self._ws:
                    self._handle(Received(time.perf_counter(), json.loads(raw)))
            except ConnectionClosed:
                pass
            self._connected.clear()
            if self._closing or self._gone:
                return
            code = self._ws.close_code
            if code in NO_RETRY_CODES:
                self._fail(ProtocolError(f"{self.label}: room closed with code {code}"))
                return
            if not await self._reconnect():
                return

    async def _reconnect(self) -> bool:
        for delay in itertools.chain(BACKOFF_SECONDS, itertools.repeat(BACKOFF_SECONDS[-1], 6)):
            await asyncio.sleep(delay)
            # The server we were on first (a dropped connection is the usual case), then the others.
            for base_url in (self.base_url, *(url for url in self.other_servers if url != self.base_url)):
                if self._closing or self._gone:
                    return False
                try:
                    await self._connect(base_url)
                except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError):
                    continue
                except ProtocolError as exc:
                    self._fail(exc)
                    return False
                self.reconnects += 1
                return True
        self._fail(ProtocolError(f"{self.label}: could not reconnect"))
        return False

    def _fail(self, exc: Exception) -> None:
        self._failure = exc
        for waiter in self._ack_waiters.values():
            if not waiter.done():
                waiter.set_exception(exc)
        self._arrived.set()

    def _handle(self, item: Received) -> None:
        self.received.append(item)
        frame = item.frame
        kind = frame.get("type")
        if kind == "ack":
            client_id = frame.get("id")
            self.acks[client_id] = frame["seq"]
            self.acked_at.setdefault(client_id, item.at)
            self._unacked.pop(client_id, None)
            waiter = self._ack_waiters.pop(client_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(frame["seq"])
            return
        if kind == "error" and frame.get("id") in self._unacked:
            client_id = frame["id"]
            if frame.get("code") == "rate_limited":
                # The frame was dropped: resend it later with the same id, as the protocol asks.
                asyncio.get_running_loop().call_later(1.0, self._resend, client_id)
                return
            self._unacked.pop(client_id, None)
            waiter = self._ack_waiters.pop(client_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_exception(ProtocolError(f"{self.label}: {frame.get('code')}: {frame.get('message')}"))
            return
        if kind == "event":
            seq = frame["seq"]
            self.event_seqs.append(seq)
            self.event_kinds[seq] = frame["kind"]
            self.first_seen.setdefault(seq, item.at)
        elif kind == "state":
            self.state = frame
            self.role = frame.get("role", self.role)
        self._inbox.append(frame)
        self._arrived.set()

    def _resend(self, client_id: str) -> None:
        message = self._unacked.get(client_id)
        if message is not None and not self._closing and self._connected.is_set():
            asyncio.ensure_future(self._send_raw(message))

    async def _heartbeat(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.heartbeat_seconds)
            if self._connected.is_set():
                try:
                    await self._send_raw({"type": "ping"})
                except ConnectionClosed:
                    pass  # the reader reconnects

    async def post(self, message: dict) -> int:
        """Send a message that changes something (it must carry an `id`); return the seq the server acked."""
        client_id = message["id"]
        waiter = asyncio.get_running_loop().create_future()
        self._ack_waiters[client_id] = waiter
        self._unacked[client_id] = message
        self.sent_at.setdefault(client_id, time.perf_counter())
        if self._failure is not None:
            raise self._failure
        if self._connected.is_set():
            try:
                await self._send_raw(message)
            except ConnectionClosed:
                pass  # resent with the same id after the reconnect
        # else: the reconnect sends everything not yet acked
        try:
            return await asyncio.wait_for(waiter, self.reply_timeout)
        except TimeoutError:
            raise ProtocolError(f"{self.label}: no ack for {message['type']} {client_id}") from None

    async def next(self, predicate: Callable[[dict], bool], what: str = "a frame") -> dict:
        """The first frame not yet taken that matches `predicate`, waiting for it if needed."""
        deadline = time.monotonic() + self.reply_timeout
        while True:
            for index, frame in enumerate(self._inbox):
                if predicate(frame):
                    del self._inbox[index]
                    return frame
            if self._failure is not None:
                raise self._failure
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProtocolError(f"{self.label}: {what} never arrived")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except TimeoutError:
                pass

    def abandon(self) -> None:
        """The person walks away: from now on a lost connection is not reconnected (the socket is left as it is, so
        a server that dies takes it down without a goodbye)."""
        self._gone = True

    async def close(self) -> None:
        self._closing = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._ws is not None:
            await self._ws.close()


def is_state(frame: dict) -> bool:
    return frame.get("type") == "state"


def is_event(kind: str, **where) -> Callable[[dict], bool]:
    def match(frame: dict) -> bool:
        if frame.get("type") != "event" or frame.get("kind") != kind:
            return False
        return all(
            (frame.get(key) if key in ("seq", "author_role") else frame["payload"].get(key)) == value
            for key, value in where.items()
        )

    return match


# --- The two sides of a dialogue -----------------------------------------------------------------------------------


async def _think(seconds: float, rng: random.Random) -> None:
    """A pause before each step, jittered ±50% so that rooms do not march in lock step."""
    if seconds > 0:
        await asyncio.sleep(seconds * rng.uniform(0.5, 1.5))


async def play_worker(
    room: Room,
    *,
    questions: int = 3,
    think: float = 0.0,
    rng: random.Random | None = None,
    when_both_in: Callable[[], Awaitable[None]] | None = None,
) -> dict:
    """Ask `questions` questions, each after the previous answer, then end. Returns the end event's payload.

    `when_both_in` is awaited once the expert has joined, before the first question (a benchmark lines rooms up).
    """
    rng = rng or random.Random()
    state = await room.next(is_state, "state")
    await room.next(is_event("join", author_role="expert"), "the expert's join")
    if when_both_in is not None:
        await when_both_in()
    goal = state.get("goal_question") or "the goal"
    for number in range(questions):
        await _think(think, rng)
        text = goal if number == 0 else f"Question {number + 1} about {goal}"
        turn = await room.post({"type": "utterance", "id": new_id(f"u{number}"), "text": text})
        await room.next(is_event("response", turn=turn), f"the response to turn {turn}")
    await _think(think, rng)
    await room.post({"type": "end", "id": new_id("end")})
    end = await room.next(is_event("end"), "the end event")
    return end["payload"]


def _worker_question_or_end(frame: dict) -> bool:
    is_question_or_end = frame.get("type") == "event" and frame.get("kind") in ("utterance", "end")
    return is_question_or_end and frame["author_role"] == "worker"


async def play_expert(
    room: Room,
    *,
    think: float = 0.0,
    rng: random.Random | None = None,
    score: int = 4,
    sql_by_question: dict[int, str] | None = None,
) -> int:
    """Answer every question (user acts, SQL run, shared result, CONFIRM_SQL response) until the worker ends, then
    score. The SQL is the goal's, or `sql_by_question[n]` for the n-th question (from 0). Returns the number of
    questions answered."""
    rng = rng or random.Random()
    state = await room.next(is_state, "state")
    goal_sql = state.get("goal_sql") or "SELECT 1"
    answered = 0
    while True:
        utterance_or_end = await room.next(_worker_question_or_end, "a question or the end")
        if utterance_or_end["kind"] == "end":
            break
        turn = utterance_or_end["seq"]
        sql = (sql_by_question or {}).get(answered, goal_sql)
        await _think(think, rng)
        await room.post({"type": "user_acts", "id": new_id("acts"), "turn": turn, "acts": ["INFORM_SQL"]})
        await _think(think, rng)
        run = await room.post({"type": "sql_run", "id": new_id("sql"), "turn": turn, "sql": sql})
        result = (await room.next(is_event("sql_run", seq=run), f"SQL run {run}"))["payload"]["result"]
        if not result.get("ok"):
            raise ProtocolError(f"{room.label}: the SQL failed: {result.get('error')}")
        await _think(think, rng)
        await room.post({"type": "share_result", "id": new_id("share"), "turn": turn, "run": run})
        await _think(think, rng)
        text = f"Here is the answer to turn {turn}: {result.get('row_count')} rows."
        await room.post({"type": "response", "id": new_id("resp"), "turn": turn, "text": text, "acts": ["CONFIRM_SQL"]})
        answered += 1
    await _think(think, rng)
    scored = await room.post({"type": "score", "id": new_id("score"), "score": score, "comment": "Scripted client."})
    # Wait for our own score event: every event before it has then arrived too (delivery is in order).
    await room.next(is_event("score", seq=scored), "the score event")
    return answered


# --- Checks --------------------------------------------------------------------------------------------------------


@dataclass
class Delivery:
    expected: int = 0
    received: int = 0
    lost: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    leaked: int = 0  # events a worker received that only experts may see

    def add(self, other: Delivery) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def clean(self) -> bool:
        return self.lost == self.duplicated == self.out_of_order == self.leaked == 0


def check_delivery(room: Room, role: str, log: list[tuple[int, str]], up_to: int) -> Delivery:
    """Compare what a socket received with the dialogue's log (seq, kind): every event visible to `role` up to seq
    `up_to` exactly once, in increasing order, and nothing a worker may not see."""
    expected = {seq for seq, kind in log if seq <= up_to and visible_to(kind, role)}
    got = room.event_seqs
    seen = set(got)
    kinds = dict(log)
    return Delivery(
        expected=len(expected),
        received=len(got),
        lost=len(expected - seen),
        duplicated=len(got) - len(seen),
        out_of_order=sum(1 for a, b in itertools.pairwise(got) if b <= a),
        leaked=sum(1 for seq in seen if not visible_to(kinds.get(seq, room.event_kinds.get(seq, "")), role)),
    )


def partner_latencies(sender: Room, receiver: Room, kinds: set[str]) -> list[float]:
    """Seconds from sending each message that became an event of one of `kinds` to the partner receiving it."""
    return [receiver.first_seen[seq] - sent for _, seq, sent in _sent_as(sender, receiver, kinds)]


def ack_latencies(sender: Room, receiver: Room, kinds: set[str]) -> list[float]:
    """Seconds from sending each such message to its ack: the part of the way to the partner spent on the sender's
    side (the server stored it; what follows is the broadcast and the partner's socket)."""
    return [sender.acked_at[client] - sent for client, _, sent in _sent_as(sender, receiver, kinds)]


def _sent_as(sender: Room, receiver: Room, kinds: set[str]):
    """(client id, seq, time sent) of each message of `sender` that `receiver` received as an event of one of
    `kinds`."""
    for client_id, sent in sender.sent_at.items():
        seq = sender.acks.get(client_id)
        if seq is not None and receiver.event_kinds.get(seq) in kinds:
            yield client_id, seq, sent
