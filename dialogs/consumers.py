"""Websocket consumers: the lobby and the dialogue room. Protocol: docs/protocol.md.

Consumers are thin. Frames arrive parsed and bounded (dialogs.transport); the consumers ask `annotation.people.roles`
and
the services (`dialogs.lobby`, `dialogs.room`: they decide, write, and say who is told what after commit through
`dialogs.broadcast`), and deliver what the services committed. Delivery per socket is exactly-once and in order:
each socket remembers the last sequence number it sent; a broadcast that arrives out of order or after a gap makes it
read the missing events from the database, and a duplicate is ignored. The channel layer alone is at-most-once.
"""

import asyncio
import contextlib
import copy
import functools
import json
import logging
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from django.conf import settings
from django.utils.translation import gettext

from annotation.models import Role
from annotation.people.roles import can
from annotation.plumbing import jsoncodec
from annotation.plumbing.prepared import PreparedModels
from annotation.wording.english import schema_shared
from dialogs import broadcast, lobby, log, presence, room, selectors
from dialogs.errors import DialogueError
from dialogs.log import STATE_CHANGING_KINDS
from dialogs.models import Dialogue, DialogueStatus, Event, EventKind, LiveSocket
from dialogs.transport import (
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_TRY_LATER,
    CLOSE_UNAUTHENTICATED,
    TRANSPORT_MAX_FRAME_BYTES,
    JsonConsumer,
    RateLimit,
    database_call,
    on_postgresql,
    socket_open_allowed,
    socket_read,
    socket_user_fresh,
)
from dialogs.visibility import event_view

logger = logging.getLogger(__name__)

# Events up to this size (their payload as JSON) travel inside the broadcast, so each socket delivers them without
# reading the log; bigger ones (SQL result tables) and any gap are read from the database.
INLINE_EVENT_BYTES = 16 * 1024


class _SharedOverview:
    """The lobby overview (selectors.lobby_overview) shared by every lobby socket of this process.

    A socket asks for an overview whose read began no earlier than `fresh_since`: after a change, the moment this
    process first heard of it (`heard`: the change was committed before it was announced); otherwise a moment ago.
    Sockets asking together share one read, and reads start at least OVERVIEW_SPACING_SECONDS apart: a read asked for
    sooner starts at the end of the spacing and serves every socket that asks meanwhile. Values are kept per event
    loop: Daphne runs one, tests one per test with a database of their own.
    """

    def __init__(self):
        self._start_over(None)

    def _start_over(self, loop) -> None:
        self.loop = loop
        self.value, self.started = None, float("-inf")
        self.pending, self.pending_started = None, float("-inf")
        self.changes: dict[str, float] = {}

    def _check_loop(self) -> None:
        if self.loop is not asyncio.get_running_loop():
            self._start_over(asyncio.get_running_loop())

    def heard(self, change: str | None) -> float:
        """When this process first heard of the lobby notice `change` (now for one without a key)."""
        self._check_loop()
        now = time.monotonic()
        if not change:
            return now
        if len(self.changes) > 1000:  # notices are heard within moments of each other: the old ones are done with
            self.changes.clear()
        return self.changes.setdefault(change, now)

    async def get(self, fresh_since: float) -> selectors.LobbyOverview:
        self._check_loop()
        if self.value is not None and self.started >= fresh_since:
            return self.value
        if self.pending is None or self.pending_started < fresh_since:
            start = max(time.monotonic(), self.pending_started + OVERVIEW_SPACING_SECONDS)
            self.pending_started = start
            self.pending = asyncio.ensure_future(self._read_at(start))
            self.pending.add_done_callback(functools.partial(self._keep, start))
        # Shielded: one socket closing mid-read must not cancel the read the others wait for.
        return await asyncio.shield(self.pending)

    async def _read_at(self, start: float) -> selectors.LobbyOverview:
        if (wait := start - time.monotonic()) > 0:
            await asyncio.sleep(wait)
        return await database_call(selectors.lobby_overview)()

    def _keep(self, started: float, future: asyncio.Future) -> None:
        if future is self.pending:
            self.pending = None
        if not future.cancelled() and future.exception() is None and started >= self.started:
            self.value, self.started = future.result(), started


# Reads of the lobby overview start at least this far apart on one server: in a crowd's burst each socket's status
# follows the latest change within this, and the statuses of a process cost one read per spacing, not one per change.
OVERVIEW_SPACING_SECONDS = 0.2


class _PairingPasses:
    """Pairing passes (lobby.lobby_pair) of this process, one per burst of joins: a join asks for a pass that starts
    after it was stored; a pass asked for while one is under way is one more pass after it, shared by every join that
    asks meanwhile. Each pass pairs every worker waiting then, oldest first: a crowd joining at once costs a few
    passes, not one per socket (a pass's reads of the experts and the goals are the same for one worker or fifty)."""

    def __init__(self):
        self.loop, self.running, self.waiting = None, None, None

    async def request(self) -> None:
        if self.loop is not asyncio.get_running_loop():
            self.loop, self.running, self.waiting = asyncio.get_running_loop(), None, None
        if self.waiting is None:
            self.waiting = asyncio.ensure_future(self._run_after(self.running))
        # Shielded: a socket closing mid-pass must not cancel the pass the others wait for.
        await asyncio.shield(self.waiting)

    async def _run_after(self, previous) -> None:
        if previous is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(previous)
        # This pass starts now: joins asking from now on may have been stored after its reads, so wait for the next.
        self.waiting, self.running = None, asyncio.current_task()
        try:
            await database_call(lobby.lobby_pair)()
        except Exception:
            # A pass that failed is the next join's (or housekeeping's) to redo: the queue is in the database.
            logger.exception("pairing pass failed")
        finally:
            if self.running is asyncio.current_task():
                self.running = None


_pairing = _PairingPasses()


_overview = _SharedOverview()


class LobbyConsumer(JsonConsumer):
    """Workers wait here for a partner; experts say they are ready and see who waits."""

    tick_seconds = 5.0

    async def connect(self):
        self.rate_limit = RateLimit(settings.WS_RATE_PER_MINUTE)
        self.user = self.scope.get("user")
        self.ticker = None
        # A burst of lobby changes (a crowd joining at once) becomes one status per socket per shared read of the
        # lobby, not one per change (_SharedOverview; selectors.LobbyOverview says why): the first change is sent at
        # once, those heard while a status is on its way share the next.
        self.status_task = None
        self.changed_at = float("-inf")
        if self.user is None or not self.user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        if not await socket_open_allowed(self.user.pk):
            await self.refuse(CLOSE_TRY_LATER)
            return
        await self.speak_persons_language()
        # The person's group first: a ready expert's desk opening pairs whoever waits (presence.socket_opened), and the
        # notice goes to that group. Nothing reaches this socket before `connect` ends, and a refusal leaves it again.
        await self.channel_layer.group_add(broadcast.person_group(self.user.pk), self.channel_name)
        if not (await database_call(self._open)()):
            await self.refuse(CLOSE_FORBIDDEN)
            return
        self.opened = True
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()
        self.ticker = asyncio.ensure_future(self._tick())
        # Read after the socket opened: an overview a moment old could still list as active the dialogue an expert has
        # just ended and scored, and send their screen back into it (bench/replay.py caught it).
        await self._send_status(fresh_since=time.monotonic())

    def _open(self) -> bool:
        """The socket's role checked and, when it may open, its row written, in one call on a database thread (as a
        room socket's opening: each hop was a good part of a pair's CPU). False: refused, nothing written."""
        socket_user_fresh(self.scope)
        if not (can(self.user, "chat.as_worker") or can(self.user, "chat.as_expert")):
            return False
        presence.socket_opened(channel_name=self.channel_name, person_id=self.user.pk, kind=LiveSocket.Kind.LOBBY)
        return True

    async def disconnect(self, code):
        if self.ticker:
            self.ticker.cancel()
        if self.status_task is not None:
            self.status_task.cancel()
        if getattr(self, "opened", False):
            # The person's last lobby socket going starts their entry's reconnection grace (dialogs.presence).
            await database_call(presence.socket_closed)(channel_name=self.channel_name)
        if getattr(self, "user", None) is not None and self.user.is_authenticated:
            await self.channel_layer.group_discard(broadcast.person_group(self.user.pk), self.channel_name)
            await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def on_message(self, message):
        kind = message["type"]
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "join":
            # Joining pairs whoever can be paired, and tells them (dialogs.lobby): the join is stored, then a pairing
            # pass that starts after it pairs it with the others of its burst (_PairingPasses).
            try:
                await database_call(lobby.lobby_enter)(person=self.user, pair=False)
            except DialogueError as exc:
                await self.refuse_message(message, exc.code, exc.message)
                return
            await _pairing.request()
        elif kind == "leave":
            await database_call(lobby.lobby_leave)(person=self.user)
        elif kind == "status":
            await self._send_status(fresh_since=time.monotonic())
        else:
            await self.refuse_message(
                message, "unknown_type", gettext("Unknown message type %(type)r.") % {"type": kind}
            )

    async def _tick(self):
        # Refreshes the estimate. Releasing long waits, expiring entries nobody is behind and abandoning rooms is
        # housekeeping's (dialogs.presence): it must happen with nobody online, so no socket's timer does it.
        try:
            while True:
                await asyncio.sleep(self.tick_seconds)
                # A tick only refreshes the estimate: an overview read since the last tick serves it. Every change
                # of the lobby is announced and read fresh (lobby_changed); the sockets of a process, ticking out of
                # step, so share one read per tick instead of one per half second.
                await self._send_status(fresh_since=time.monotonic() - self.tick_seconds)
        except asyncio.CancelledError:
            pass

    async def _send_status(self, fresh_since: float):
        """Send this socket's status from an overview whose read began no earlier than `fresh_since`."""
        overview = await _overview.get(fresh_since)
        # With an overview, lobby_status reads nothing: no thread hop per socket.
        await self.send_json({"type": "status", **selectors.lobby_status(self.user, overview)})

    async def _send_statuses(self):
        """Send a status for every change heard, one at a time: changes heard while one is on its way share the
        next, read after the latest of them."""
        try:
            sent_for = float("-inf")
            while self.changed_at > sent_for:
                sent_for = self.changed_at
                await self._send_status(fresh_since=sent_for)
        except asyncio.CancelledError:
            pass
        finally:
            self.status_task = None

    async def lobby_changed(self, event):
        self.changed_at = _overview.heard(event.get("change"))
        if self.status_task is None:
            self.status_task = asyncio.ensure_future(self._send_statuses())

    async def lobby_paired(self, event):
        await self.send_json(
            {"type": "paired", "dialogue": event["dialogue"], "url": selectors.dialogue_room_url(event["dialogue"])}
        )

    async def person_blocked(self, event):
        await self.close(code=CLOSE_FORBIDDEN)

    async def lobby_released(self, event):
        await self.send_json(
            {
                "type": "released",
                "completion_code": event["completion_code"],
                # Worded here, in this socket's language: the broadcast carries which message, not its words.
                "message": broadcast.released_message(event.get("reason")),
            }
        )


_DIALOGUE_OWN_FIELDS = [f.attname for f in Dialogue._meta.concrete_fields if not (f.is_relation or f.primary_key)]

# How many SQL runs' result tables an expert's room socket keeps (DialogueConsumer._keep_run): a share is of one of
# the latest few; an older one is read from the log. Each is at most INLINE_EVENT_BYTES of JSON.
RUN_TABLES_KEPT = 8

# Threads of the assist pool: its waits on the sandbox are rare and short, so a few serve every room of a process.
ASSIST_THREADS = 4
# Threads that store the rooms' messages on PostgreSQL ("messages" pool): a message there is a round trip or two, and
# one shared thread made every room's message wait for the messages before it (the row lock on each dialogue orders
# the writes of one room; different rooms' writes need no order). SQLite takes one writer at a time anyway: there
# the rooms keep the one shared thread, and never wait for its write lock.
MESSAGE_THREADS = 4


def _message_pool(kind: str) -> str | None:
    """The pool a room message of `kind` is handled on: the sandbox's pools for what may wait on it, the messages pool
    for the rest on PostgreSQL; None: the thread every room's database work shares."""
    return room.sandbox_pool(kind) or ("messages" if on_postgresql() else None)


# Threads of the model pool (SQL drafts): each waits on the model for up to MODEL_TIMEOUT_SECONDS, mostly idle, so
# more of them; beyond this many drafts at once in a process, the next waits for a thread (never another room).
MODEL_THREADS = 8

_sandbox_pools: dict[str, ThreadPoolExecutor] = {}


def _sandbox_executor(pool: str) -> ThreadPoolExecutor:
    """The threads that work which may wait on the sandbox is done on. Every other database call of a consumer goes
    to the one thread they all share (thread-sensitive): a run waiting there for seconds held up the acks and events
    of every room of the process. Runs have a pool of their own, a few more threads than sandbox workers (the sandbox
    queues the rest itself), so that experts running slow queries in many rooms at once never hold up another room's
    suggestions and labels, which are worked out in the assist pool. Each thread's database connection
    follows DB_CONN_MAX_AGE as the shared thread's does (channels closes an expired one before and after each call),
    so with kept connections a process holds at most this many more."""
    if pool not in _sandbox_pools:  # only ever called on the event loop's thread
        sizes = {"runs": settings.SANDBOX_WORKERS + 2, "messages": MESSAGE_THREADS, "model": MODEL_THREADS}
        size = sizes.get(pool, ASSIST_THREADS)
        _sandbox_pools[pool] = ThreadPoolExecutor(max_workers=size, thread_name_prefix=f"room-{pool}")
    return _sandbox_pools[pool]


# The room sockets of this process, for `rooms_catch_up`.
_open_rooms: weakref.WeakSet = weakref.WeakSet()


def _last_seqs(dialogue_ids) -> dict[int, int]:
    return dict(Dialogue.objects.filter(pk__in=dialogue_ids).values_list("pk", "last_seq"))


async def rooms_catch_up() -> None:
    """Nudge each room socket of this process that is still short of an event that was committed a round ago (the
    per-process loop calls this each round, dialogs.background).

    A socket hears of new events from broadcasts only, and the channel layer loses some: at most once by design, and
    after a Redis restart everything published before this process had subscribed again (channels_redis resubscribes
    a second or so later, and resends nothing). In a room where each side waits for the other, the next broadcast that
    would have shown the gap never comes (dialogs/tests/test_faults.py). The nudge goes to the socket's own channel and
    is handled as any broadcast: the socket reads what it missed from the log. Only a socket still behind what was read
    on the round before is nudged, so that an event merely on its way at the moment of reading costs nothing."""
    rooms = [consumer for consumer in list(_open_rooms) if consumer.ready]
    if not rooms:
        return
    latest = await database_call(_last_seqs)({consumer.dialogue.pk for consumer in rooms})
    for consumer in rooms:
        if consumer.sent_seq < consumer.seq_a_round_ago:
            await consumer.channel_layer.send(
                consumer.channel_name, {"type": "dialogue.event", "seq": consumer.seq_a_round_ago}
            )
        consumer.seq_a_round_ago = latest.get(consumer.dialogue.pk, 0)


# A room socket's dialogue with what its screen and checks read, compiled once per process (annotation.plumbing.
# prepared): compiling these five joins was most of the read's CPU at every room socket's connect. The crowd task's
# campaign: the worker's state says how far they are toward its bonus. No ORDER BY for one row by its key.
_dialogue_for_socket = PreparedModels(
    lambda dialogue_id: (
        Dialogue.objects.select_related("database", "database_version", "goal", "worker", "crowd_assignment__campaign")
        .filter(pk=dialogue_id)
        .order_by()[:1]
    )
)

# The events after a seq, in order: what a socket's hello and each gap read (compiled once, as above).
_events_after_seq = PreparedModels(
    lambda dialogue_id, after_seq: Event.objects.filter(dialogue_id=dialogue_id, seq__gt=after_seq).order_by("seq"),
    values=2,
)


class DialogueConsumer(JsonConsumer):
    """One participant's socket in one room."""

    async def connect(self):
        self.rate_limit = RateLimit(settings.WS_RATE_PER_MINUTE)
        self.user = self.scope.get("user")
        self.sent_seq = 0
        self.seq_a_round_ago = 0  # the dialogue's last seq when rooms_catch_up last looked
        self.ready = False  # no events are pushed until the client said hello (with its last_seq)
        # The screen's state, kept up to date event by event so that the state sent after each response costs no
        # read: the last one read (`state`), the turns replayed up to `turns_seq` and whether the partner is in.
        self.state = None
        self.turns = None
        self.turns_seq = 0
        self.partner_connected = False
        # The SQL runs this socket passed on (an expert's: seq → payload), so that sharing one and what follows it
        # read no run from the log (room.dialogue_post's `runs`): the SQL of each, the table of the latest few.
        self.runs = {}
        self.abandon_timer = None
        # Follow-ups running alongside the socket's messages (room.follow_up_alongside), kept alive.
        self.follow_ups = set()
        if self.user is None or not self.user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        # Before anything is written: a client reopening in a tight loop costs a cache count, not a row and a presence.
        if not await socket_open_allowed(self.user.pk):
            await self.refuse(CLOSE_TRY_LATER)
            return
        await self.speak_persons_language()
        dialogue_id = self.scope["url_route"]["kwargs"]["dialogue_id"]
        found, change = await socket_read(self._open)(dialogue_id)
        if found == "missing":
            await self.refuse(CLOSE_NOT_FOUND)
            return
        if found == "forbidden":
            await self.refuse(CLOSE_FORBIDDEN)
            return
        # Subscribe, then read what was missed (docs/pitfalls.md: the reverse order loses what falls in between): the
        # events are read at the client's hello, after this, and nothing is pushed before it.
        await self.channel_layer.group_add(broadcast.dialogue_group(self.dialogue.pk), self.channel_name)
        # A block closes every socket of the person at once (dialogs.lobby.on_person_blocked), rooms included.
        await self.channel_layer.group_add(broadcast.person_group(self.user.pk), self.channel_name)
        await self.accept()
        _open_rooms.add(self)
        if change is not None:
            if change.event is not None:  # the side's first join
                await self._broadcast([change.event])
            if change.changed:  # the side came (back): a second tab changes nothing for the partner
                await self._presence(change.state)

    def _open(self, dialogue_id):
        """The socket's whole opening in one call on a database thread (each hop from the event loop to one and back
        was a good part of a pair's CPU, bench/chat_load.py): its dialogue and role checked (`_load`), then its row
        and its side's presence (`_joined`). Returns what `_load` found and the presence change (None if refused)."""
        found = self._load(dialogue_id)
        return found, (self._joined() if found == "ok" else None)

    def _joined(self):
        return presence.room_socket_opened(
            channel_name=self.channel_name, person=self.user, dialogue=self.dialogue, side=self.side
        )

    def _left(self):
        # The side's presence is kept by whoever removes the socket's row: this socket, or housekeeping when this
        # server was taken for stopped (its lease ran out); never both.
        return presence.room_socket_closed(channel_name=self.channel_name, person=self.user, dialogue=self.dialogue)

    def _load(self, dialogue_id):
        self.dialogue = _dialogue_for_socket.first(dialogue_id)
        if self.dialogue is None:
            return "missing"
        # The rooms of one database share its schema object, and so what the drafts and suggestions build from it.
        database = self.dialogue.database
        database.schema = schema_shared(database.pk, database.schema)
        socket_user_fresh(self.scope)
        try:
            self.side = room.dialogue_side(dialogue=self.dialogue, person=self.user)
        except DialogueError:
            return "forbidden"
        self.sees_as = self.side
        return "ok"

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            _open_rooms.discard(self)

    async def disconnect(self, code):
        _open_rooms.discard(self)
        if not hasattr(self, "dialogue") or not hasattr(self, "side"):
            return
        await self.channel_layer.group_discard(broadcast.dialogue_group(self.dialogue.pk), self.channel_name)
        await self.channel_layer.group_discard(broadcast.person_group(self.user.pk), self.channel_name)
        if self.abandon_timer:
            self.abandon_timer.cancel()
        change = await database_call(self._left)()
        if change is not None and change.changed:  # the side's last socket: another tab keeps the side present
            await self._presence(change.state)

    async def on_message(self, message):
        kind = message["type"]
        if kind == "hello":
            await self._hello(message)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self._participant_message(message)

    async def _participant_message(self, message):
        """What only a side of the room sends: typing, and the messages the log stores."""
        if message["type"] == "typing":
            await self._presence("typing")
        else:
            await self._post(message)

    async def _hello(self, message):
        last_seq = message.get("last_seq", 0)
        if not isinstance(last_seq, int) or last_seq < 0:
            await self.refuse_message(message, "invalid", gettext("'last_seq' must be a non-negative integer."))
            return
        # The state and what was missed in one call on a database thread (one hop per socket where there were two).
        # Nothing is pushed meanwhile: a consumer handles one message at a time, so a broadcast heard during this read
        # waits for the hello to end, and then is a duplicate, the next event, or a gap read from the log.
        snapshot, missed = await socket_read(self._hello_read)(last_seq)
        self.state = snapshot
        await self.send_json({"type": "state", "role": self.side, **snapshot})
        self.sent_seq = last_seq
        self.ready = True
        await self._send_missed(missed)

    def _hello_read(self, last_seq: int):
        """The screen's state read from the database, and the events after `last_seq`. A client that has seen
        nothing (every first opening) needs the whole log for both: it is read once, and the turns replayed from it."""
        if last_seq:
            return self._snapshot(), self._events_after(last_seq)
        missed = self._events_after(0)
        self.turns = log.dialogue_turns(self.dialogue, events=missed)
        self.turns_seq = missed[-1].seq if missed else 0
        self.partner_connected = room.partner_connected(self.dialogue, self.side)
        return self._snapshot(turns_kept=True), missed

    def _snapshot(self, turns_kept: bool = False):
        """The screen's state read from the database. With `turns_kept` (after an event this socket passed on, and
        the kept turns have no gap) only the dialogue's row is read: the turns and the partner's presence are the
        ones this socket keeps, as after a response (`_send_state`)."""
        # Every field but the foreign keys: those never change in a room, and refreshing them would drop the database,
        # goal and worker that _load cached (three more queries per state).
        self.dialogue.refresh_from_db(fields=_DIALOGUE_OWN_FIELDS)
        if not turns_kept:
            self.turns = log.dialogue_turns(self.dialogue)
            self.turns_seq = self.dialogue.last_seq
            self.partner_connected = room.partner_connected(self.dialogue, self.side)
        return selectors.dialogue_snapshot(
            dialogue=self.dialogue, role=self.sees_as, turns=self.turns, partner_connected=self.partner_connected
        )

    def _keep_run(self, event, whole: bool) -> None:
        """Keep an SQL run this expert's socket passes on: its SQL, and with `whole` (a payload small enough to have
        travelled inside the broadcast) its result table too, for the latest RUN_TABLES_KEPT runs."""
        if event.kind != EventKind.SQL_RUN or self.sees_as != Role.EXPERT or not isinstance(event.payload, dict):
            return
        payload = event.payload
        if whole and isinstance(payload.get("result"), dict):
            self.runs[event.seq] = payload
            tables = [seq for seq, kept in self.runs.items() if "result" in kept]
            for seq in tables[:-RUN_TABLES_KEPT]:
                self.runs[seq] = {key: value for key, value in self.runs[seq].items() if key != "result"}
        else:
            self.runs[event.seq] = {key: value for key, value in payload.items() if key != "result"}

    def _track(self, event: Event) -> None:
        """Apply an event this socket passes on (seen or not by its side) to the kept turns; a gap (events this
        socket never passed on, e.g. a client that resumed past them) makes the next state read the log."""
        if self.turns is None or event.seq <= self.turns_seq:
            return
        if event.seq == self.turns_seq + 1:
            log.turns_apply(self.turns, event)
            self.turns_seq = event.seq
        else:
            self.turns = None

    async def _post(self, message):
        # The turns this socket keeps spare the post a read of the log (a copy: they change as events arrive).
        turns = log.turns_copy(self.turns) if self.turns is not None else None
        try:
            if pool := _message_pool(message["type"]):
                # Off the shared thread (see _sandbox_executor). On a copy of the dialogue: dialogue_post sets fields
                # on the one it is given, and this socket's own tasks (the abandon timer) go on using theirs on the
                # shared thread meanwhile.
                post = database_call(room.dialogue_post, thread_sensitive=False, executor=_sandbox_executor(pool))
                dialogue = copy.copy(self.dialogue)
            else:
                post = database_call(room.dialogue_post)
                dialogue = self.dialogue
            later = []
            results = await post(
                dialogue=dialogue, person=self.user, message=message, turns=turns, later=later, runs=self.runs
            )
        except DialogueError as exc:
            await self.refuse_message(message, exc.code, exc.message)
            return
        # One ack per message, with the seq of the event it became.
        await self.send_json({"type": "ack", "id": message["id"], "seq": results[0][0].seq})
        # Broadcast even a retried event: the original broadcast may be the one that was lost.
        await self._broadcast([event for event, _ in results])
        # What the platform adds to it (the labels read from a shared result, the suggestion after an answer, a
        # model's draft) is worked out once the room has the message, and follows as events of their own.
        if not later:
            return
        pool = room.follow_up_pool(message["type"])
        if room.follow_up_alongside(message["type"]):
            # The socket goes on with the person's next messages and its deliveries meanwhile: a task of its own.
            task = asyncio.create_task(self._follow_up(message, later, pool))
            self.follow_ups.add(task)
            task.add_done_callback(self.follow_ups.discard)
        else:
            await self._follow_up(message, later, pool)

    async def _follow_up(self, message, later, pool):
        for follow_up in later:
            try:
                added = await database_call(follow_up, thread_sensitive=False, executor=_sandbox_executor(pool))()
            except DialogueError as exc:  # the dialogue ended in between: nothing to add to it
                logger.info("nothing added to %s in dialogue %s: %s", message["type"], self.dialogue.pk, exc.message)
                continue
            await self._broadcast([event for event, _ in added])

    async def _broadcast(self, events):
        for event in events:
            message = {"type": "dialogue.event", "seq": event.seq, "event_id": event.pk}
            payload = jsoncodec.dumps(event.payload)
            if len(payload) <= INLINE_EVENT_BYTES:
                message["event"] = {
                    "kind": event.kind,
                    "author_role": event.author_role,
                    "created_at": event.created_at.isoformat(),
                    "payload": payload,
                }
            await self.channel_layer.group_send(broadcast.dialogue_group(self.dialogue.pk), message)

    async def person_blocked(self, message):
        # From now on this socket refuses whatever is still on its way (dialogue_post reads `blocked` through can()).
        self.user.blocked = True
        await self.close(code=CLOSE_FORBIDDEN)

    async def lobby_paired(self, message):
        pass  # the person group also carries lobby notices, which are no news to a room socket

    async def lobby_released(self, message):
        pass

    async def dialogue_event(self, message):
        if not self.ready:
            return
        if message["seq"] <= self.sent_seq:
            return  # already delivered (a duplicate or a rebroadcast)
        if message["seq"] == self.sent_seq + 1 and "event" in message:
            await self._deliver(message["seq"], message["event"])
        else:
            await self._catch_up()  # a gap (a lost or overtaken broadcast) or an event too big to travel inline

    async def _deliver(self, seq: int, carried: dict):
        """Send the next event from the broadcast itself, without reading the log: it was committed before it was
        broadcast, and it is the one right after the last this socket sent, so order and exactly-once hold."""
        # The fields a view and the kept turns read, without a model instance (its signals showed in profiles).
        event = log.LogEvent(
            seq,
            carried["kind"],
            jsoncodec.loads(carried["payload"]),
            carried["author_role"],
            datetime.fromisoformat(carried["created_at"]),
        )
        self._track(event)
        self._keep_run(event, whole=True)
        view = event_view(event, self.sees_as)
        if view is not None:
            await self._send_event(view)
        self.sent_seq = seq
        if event.kind in STATE_CHANGING_KINDS and view is not None:
            await self._send_state(after=event)

    async def _catch_up(self):
        """Send every event after `sent_seq` that this side may see, in order, straight from the log."""
        await self._send_missed(await socket_read(self._events_after)(self.sent_seq))

    async def _send_missed(self, events) -> None:
        """Send the events read from the log that this side may see, in order, and the state after the last one that
        changes it."""
        changed = None  # the last event sent that changes the screen's state
        for event in events:
            self._track(event)
            self._keep_run(event, whole=False)
            view = event_view(event, self.sees_as)
            if view is not None:
                await self._send_event(view)
                if event.kind in STATE_CHANGING_KINDS:
                    changed = event
        if events:
            self.sent_seq = max(self.sent_seq, events[-1].seq)
        if changed is not None:
            await self._send_state(after=changed)

    async def _send_event(self, view: dict) -> None:
        if view["kind"] == EventKind.END and view["payload"].get("reason"):
            # The log keeps the platform's end reasons in English: worded in this socket's language on the way out.
            reason = room.end_reason_worded(view["payload"]["reason"])
            view = {**view, "payload": {**view["payload"], "reason": reason}}
        text = jsoncodec.dumps({"type": "event", **view})
        # A character is at most 4 bytes: only a frame that could be over the limit is encoded to measure it.
        if len(text) * 4 > TRANSPORT_MAX_FRAME_BYTES and len(text.encode("utf-8")) > TRANSPORT_MAX_FRAME_BYTES:
            # A table stored before runs were bounded: over Daphne's limit the frame would close the socket, and
            # every reconnect would replay it. Cut on the way out, as a new run is cut when it is stored.
            text = jsoncodec.dumps(
                {"type": "event", **view, "payload": room.payload_bounded(view["kind"], view["payload"])}
            )
        await self.send_text(text)

    def _events_after(self, after_seq):
        events = _events_after_seq(self.dialogue.pk, after_seq)
        for event in events:  # as the dialogue's related manager gives them: each knows its dialogue
            event._state.fields_cache["dialogue"] = self.dialogue
        return events

    async def _send_state(self, after: Event | None = None):
        """Send the screen's state. After a response, from what this socket keeps (a response changes only the
        count of answered questions, and cannot be the first event of an active dialogue). After an end or a score,
        from the same with what the event's payload says of the dialogue's row (`_row_from`). After a response seen
        before this socket saw the dialogue active (its first state was read before the partner came), the dialogue's
        row is read and the kept turns and presence stand. Otherwise, or when the kept turns have a gap, read from the
        database."""
        kept = self.state is not None and self.state["status"] == DialogueStatus.ACTIVE and self.turns is not None
        if after is not None and after.kind == "response" and kept:
            self.dialogue.last_seq = max(self.dialogue.last_seq, after.seq)
            snapshot = self._snapshot_kept()
        elif after is not None and self.turns is not None and self.side != room.SUPERVISOR and self._row_from(after):
            snapshot = self._snapshot_kept()
        else:
            turns_kept = after is not None and self.turns is not None
            snapshot = await socket_read(self._snapshot)(turns_kept=turns_kept)
        self.state = snapshot
        await self.send_json({"type": "state", "role": self.side, **snapshot})

    def _snapshot_kept(self) -> dict:
        return selectors.dialogue_snapshot(
            dialogue=self.dialogue, role=self.sees_as, turns=self.turns, partner_connected=self.partner_connected
        )

    def _row_from(self, event) -> bool:
        """Set on this socket's dialogue what an end or a score changed of its row, from the event's payload: an end
        carries the status, the completion code and whether the worker was sent back to the queue (log.end_payload,
        every writer of an end), a score the score and whether it dropped the dialogue (log.score_payload). False for
        any other event, or a payload without those keys: the row is read then."""
        payload, dialogue = event.payload, self.dialogue
        if event.kind == EventKind.END and "status" in payload and "completion_code" in payload:
            dialogue.status, dialogue.completion_code = payload["status"], payload["completion_code"]
            dialogue.requeued = dialogue.requeued or bool(payload.get("requeued"))
        elif event.kind == EventKind.SCORE and "score" in payload and "dropped" in payload:
            dialogue.score = payload["score"]
            if payload["dropped"]:
                dialogue.status = DialogueStatus.DROPPED
        else:
            return False
        dialogue.last_seq = max(dialogue.last_seq, event.seq)
        return True

    async def _presence(self, state: str):
        message = presence.presence_message(self.side, state, channel=self.channel_name)
        await self.channel_layer.group_send(broadcast.dialogue_group(self.dialogue.pk), message)

    async def dialogue_presence(self, message):
        if message["channel"] == self.channel_name or message["side"] == self.side:
            return
        presence = {"type": "presence", "side": message["side"], "state": message["state"]}
        self.partner_connected = message["state"] != "reconnecting"
        if message["state"] == "reconnecting":
            grace = settings.PRESENCE_GRACE_SECONDS
            await self.send_json({**presence, "grace_seconds": grace})
            if self.abandon_timer:
                self.abandon_timer.cancel()
            self.abandon_timer = asyncio.ensure_future(self._abandon_after(grace))
        else:
            await self.send_json(presence)
            if message["state"] == "connected" and self.abandon_timer:
                self.abandon_timer.cancel()
                self.abandon_timer = None

    async def _abandon_after(self, seconds: float):
        try:
            await asyncio.sleep(seconds + 0.5)
            # On a copy: the socket's own calls may be using its dialogue on another thread meanwhile.
            ended = await database_call(room.dialogue_abandon_if_gone)(dialogue=copy.copy(self.dialogue))
            await self._broadcast([event for event, _ in ended])
        except asyncio.CancelledError:
            pass


class RoomWatchConsumer(DialogueConsumer):
    """A supervisor's socket in a room (`rooms.supervise`, docs/protocol.md "Watching a room"): it receives what the
    expert's receives, live and in order, and sends nothing into the room. It is no side of the room: it opens no
    presence and writes no join, so the expert's presence, the room's state and pairing are as if it were not there.
    A supervisor's acts (end the room, send the worker back) go through the supervision page's forms."""

    def _load(self, dialogue_id):
        self.dialogue = (
            Dialogue.objects.select_related("database", "database_version", "goal", "worker")
            .filter(pk=dialogue_id)
            .first()
        )
        if self.dialogue is None:
            return "missing"
        socket_user_fresh(self.scope)
        if not can(self.user, "rooms.supervise") or self.dialogue.is_solo:
            return "forbidden"
        self.side = room.SUPERVISOR
        self.sees_as = Role.EXPERT  # the expert's view: the whole log
        return "ok"

    def _joined(self):
        return None

    def _left(self):
        return None

    def _snapshot(self, turns_kept: bool = False):
        snapshot = super()._snapshot(turns_kept)
        for side in (Role.WORKER, Role.EXPERT):
            snapshot[f"{side}_connected"] = room.side_connections(self.dialogue, side)[0] > 0
        return snapshot

    async def _participant_message(self, message):
        # Checked here, whatever the page shows: a watching socket can send nothing a participant sends.
        await self.refuse_message(message, "watching", gettext("You are watching this room: you cannot send into it."))

    async def dialogue_presence(self, message):
        # Both sides' presence, as it changes; no abandon timer of its own (the participants' sockets and housekeeping
        # end a room whose side is gone).
        frame = {"type": "presence", "side": message["side"], "state": message["state"]}
        if message["state"] == "reconnecting":
            frame["grace_seconds"] = settings.PRESENCE_GRACE_SECONDS
        await self.send_json(frame)


# --- The live operations board ------------------------------------------------------------------------------------


class _OperationsFeed:
    """One overview per OPERATIONS_REFRESH_SECONDS for every board socket of this process, computed only while one
    is open. It reads on a thread of its own: the rooms' database work shares one thread, and a board watching 200
    rooms must not add its reads to their queue."""

    def __init__(self):
        self.sockets: set = set()
        self.task: asyncio.Task | None = None
        self.executor: ThreadPoolExecutor | None = None
        self.latest: dict | None = None
        self.reading: asyncio.Future | None = None  # the read on its thread, if one is under way

    def join(self, socket) -> None:
        loop = asyncio.get_running_loop()
        if self.task is not None and self.task.get_loop() is not loop:
            self.sockets, self.task = set(), None  # values of another event loop (tests run one each)
        self.sockets.add(socket)
        if self.task is None or self.task.done():
            if self.executor is None:
                self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="operations-board")
            self.task = asyncio.ensure_future(self._run())

    async def leave(self, socket) -> None:
        self.sockets.discard(socket)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None
            # Cancelling stops the loop, not a read already on its thread: the last board to go waits for it, so that
            # nothing of the board's still queries the database once its sockets are gone (a test's flush that ran
            # meanwhile deadlocked with it on PostgreSQL).
            if self.reading is not None and not self.reading.done():
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.reading)

    async def read(self) -> dict:
        read = database_call(selectors.operations_overview, thread_sensitive=False, executor=self.executor)
        self.reading = asyncio.ensure_future(read())
        self.latest = await asyncio.shield(self.reading)
        return self.latest

    async def _run(self) -> None:
        try:
            while self.sockets:
                try:
                    overview = await self.read()
                except Exception:  # noqa: BLE001 - a failed read (database restarting) is retried next round
                    logger.exception("operations overview failed")
                else:
                    frame = json.dumps({"type": "overview", **overview}, default=str)
                    for socket in list(self.sockets):
                        await socket.send_text(frame)
                await asyncio.sleep(settings.OPERATIONS_REFRESH_SECONDS)
        except asyncio.CancelledError:
            pass


_operations = _OperationsFeed()


class OperationsConsumer(JsonConsumer):
    """The admins' live board (`/manage/live/`): an `overview` frame every OPERATIONS_REFRESH_SECONDS."""

    async def connect(self):
        self.rate_limit = RateLimit(settings.WS_RATE_PER_MINUTE)
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        await self.speak_persons_language()
        if not await database_call(self._allowed)():
            await self.refuse(CLOSE_FORBIDDEN)
            return
        await self.accept()
        _operations.join(self)

    def _allowed(self) -> bool:
        socket_user_fresh(self.scope)
        return can(self.user, "operations.watch")

    async def disconnect(self, code):
        await _operations.leave(self)

    async def on_message(self, message):
        if message["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.refuse_message(
                message, "unknown_type", gettext("Unknown message type %(type)r.") % {"type": message["type"]}
            )
