"""Benchmark: the live chat under load, against a floor (a bare websocket relay with the same message pattern).

    .venv/bin/python bench/chat_load.py [--rooms 10 50 200] [--questions 3] [--think 2.0] [--servers 2]
                                        [--stall-every 3] [--board 1] [--stack services|embedded]

Starts a throwaway PostgreSQL and Redis (tools/test_stack.py), migrates, loads the demo databases and goals, creates
the accounts, and starts Daphne. With `--stack embedded` it runs the platform as `make run` starts it instead: one
Daphne with DEBUG=1 on SQLite in a throwaway data folder, the in-memory channel layer and eager Celery (the
configuration a lab tries first); the latency targets are PostgreSQL + Redis figures and apply to that stack only.

Scripted clients (bench/wozclient.py, written from docs/protocol.md alone) sign in through the login form, meet in
the lobby and hold N dialogues at once: utterance → user acts → SQL run → shared result → CONFIRM_SQL response, for
several questions, then end and score.

For each N it reports the frames sent and received, lost events (visible to a socket, in the log, never received),
duplicates (one seq twice on a socket), and the send → partner receipt latency of utterances and responses. The same
clients then run the same pattern against the floor: an in-memory relay in its own process, no database and no
channel layer, which gives what the client, the loopback and the websocket framing cost on their own; our p99 is
printed as a multiple of the floor's. A second floor, the stack's (bench/stack_floor.py), runs the same frames through
one Daphne, a minimal Channels consumer and the platform's channel layer, with nothing stored: what the fixed parts of
the stack cost a frame, so that what wozsql adds to them is printed apart. Exits 1 when a delivery check fails, a
latency target is missed, or a server's log holds a traceback, an OperationalError or "database is locked".

Pace: each client pauses `--think` seconds (±50%) before each step, so a question takes about five pauses. The
default, 2 s, is some ten times faster than people type questions and write SQL: 200 rooms then send about 100
frames a second. The server side's CPU seconds per frame are printed too: unlike latency, they barely depend on
what else the machine is doing (the load average at the end of each round is printed for that reason); the SQL
sandbox's processes are given apart, and on PostgreSQL the database transactions per frame.

`--board N`: N admins watch the live operations board (/manage/live/) during the round; the report gives the gap
between its overviews and their age on arrival, and the chat figures show what watching costs the rooms.

Pairing (issue 41): each round prints the server CPU from its start until every room is open, per pair, for wozsql
and the stack's floor. `--arrive-at-once`: the experts join first, and once every one is ready every worker arrives
at once; the round then prints the time from the last worker's join until every worker was paired or had a status
with their place. `--pairing-only` ends the round once every room is open (the dialogues stay open: one `--rooms`
value), and `--profile-pairing` stops `--profile`'s recording at that moment; with `--statements` it counts
PostgreSQL's statements from the round's start until every room is open, per pair (`SHOWN=N` lists the N most
frequent, 15 by default).

`--stall-every S`: once every room is open, one expert (the first account's) also runs a query that only stops at the
sandbox's time limit (SANDBOX_TIMEOUT_MS) every S seconds, in its own room. That room is left out of the latency
figures; the others show whether one expert's slow SQL holds up rooms that have nothing to do with it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from bench import stack  # noqa: E402
from bench.wozclient import (  # noqa: E402
    Delivery,
    ProtocolError,
    Room,
    ack_latencies,
    check_delivery,
    is_event,
    is_state,
    lobby_wait,
    login,
    new_id,
    open_socket,
    partner_latencies,
    play_expert,
    play_worker,
    visible_to,
)
from tools.test_stack import free_port, wait_for_port  # noqa: E402

PASSWORD = "bench-password-1"
ADMIN, ADMIN_PASSWORD = "ada", "wozsql-demo"  # the demo admin (the stack loads the demo data), for --board
PREFIX = "bench_"
# p99 targets of send → partner receipt (ms) by (Daphne processes, rooms) on PostgreSQL + Redis; other shapes, and
# the embedded stack, are reported only.
TARGETS_MS = {(1, 50): 30.0, (2, 200): 50.0}
# Counts for ever: it stops only at the sandbox's time limit, as a runaway expert query does.
# The pairing aim (issue 41): server CPU per pair, and a burst of workers all paired or told their place this long
# after the last one arrived (reported, not a failure).
PAIR_CPU_AIM_MS = 10.0
BURST_AIM_SECONDS = 2.0
RUNAWAY_SQL = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"

# --- The floor: a minimal relay with the same frames, nothing stored, nothing shared between processes ----------------


class _FloorRoom:
    def __init__(self, dialogue: int):
        self.dialogue = dialogue
        self.log: list[dict] = []
        self.sockets: dict = {}  # websocket → {"role", "ready"}
        self.ids: dict[tuple[str, str], int] = {}  # (role, client id) → seq
        # Two tasks may broadcast into one room at once; the lock keeps each socket's events in seq order.
        self.lock = asyncio.Lock()
        self.ended = False


FLOOR_KIND = {"share_result": "result_shared"}
FLOOR_STATE_AFTER = frozenset({"response", "end", "score"})  # a floor sends each socket its state after these


def floor_payload(message: dict) -> dict:
    """The payload a floor stores for a client's message (the stack's floor, bench/stack_floor.py, stores the same)."""
    kind = message["type"]
    if kind == "utterance":
        return {"text": message.get("text", "")}
    if kind == "sql_run":
        result = {"ok": True, "columns": ["n"], "rows": [[1]], "row_count": 1, "truncated": False, "error": None}
        return {"turn": message.get("turn"), "sql": message.get("sql"), "result": result}
    if kind == "end":
        return {"status": "completed", "completion_code": "WOZ-FLOOR"}
    return {key: value for key, value in message.items() if key not in ("type", "id")}


def _floor_view(event: dict, role: str) -> dict | None:
    return {"type": "event", **event} if visible_to(event["kind"], role) else None


async def _floor_state(room: _FloorRoom, ws, role: str) -> None:
    await ws.send(
        json.dumps(
            {
                "type": "state",
                "role": role,
                "dialogue": room.dialogue,
                "status": "completed" if room.ended else "active",
                "goal_question": "How many rows are there?",
                "goal_sql": "SELECT 1",
                "last_seq": len(room.log),
            }
        )
    )


async def _floor_record(room: _FloorRoom, kind: str, role: str, payload: dict) -> dict:
    event = {"seq": len(room.log) + 1, "kind": kind, "author_role": role, "created_at": time.time(), "payload": payload}
    room.log.append(event)
    for ws, info in list(room.sockets.items()):
        view = _floor_view(event, info["role"]) if info["ready"] else None
        if view is not None:
            with contextlib.suppress(Exception):
                await ws.send(json.dumps(view))
                if kind in FLOOR_STATE_AFTER:
                    await _floor_state(room, ws, info["role"])
    return event


def serve_floor(port: int) -> None:
    """Run the floor relay on 127.0.0.1:PORT until killed."""
    from websockets.asyncio.server import serve

    rooms: dict[int, _FloorRoom] = {}
    waiting: dict[str, deque] = {"worker": deque(), "expert": deque()}

    def role_of(ws) -> str:
        cookie = ws.request.headers.get("Cookie", "")
        return "expert" if "floor=expert" in cookie else "worker"

    async def lobby(ws, role: str) -> None:
        async for raw in ws:
            if json.loads(raw).get("type") != "join":
                continue
            waiting[role].append(ws)
            while waiting["worker"] and waiting["expert"]:
                dialogue = len(rooms) + 1
                rooms[dialogue] = _FloorRoom(dialogue)
                paired = json.dumps({"type": "paired", "dialogue": dialogue, "url": f"/dialogues/{dialogue}/"})
                for side in ("worker", "expert"):
                    with contextlib.suppress(Exception):
                        await waiting[side].popleft().send(paired)

    async def room_socket(ws, room: _FloorRoom, role: str) -> None:
        room.sockets[ws] = {"role": role, "ready": False}
        async with room.lock:
            await _floor_record(room, "join", role, {})
        try:
            async for raw in ws:
                message = json.loads(raw)
                kind = message.get("type")
                async with room.lock:
                    if kind == "hello":
                        await _floor_state(room, ws, role)
                        for event in room.log[message.get("last_seq", 0) :]:
                            view = _floor_view(event, role)
                            if view is not None:
                                await ws.send(json.dumps(view))
                        room.sockets[ws]["ready"] = True
                    elif kind == "ping":
                        await ws.send(json.dumps({"type": "pong"}))
                    elif "id" in message:
                        key = (role, message["id"])
                        if key not in room.ids:
                            room.ended = room.ended or kind == "end"
                            event = await _floor_record(room, FLOOR_KIND.get(kind, kind), role, floor_payload(message))
                            room.ids[key] = event["seq"]
                        await ws.send(json.dumps({"type": "ack", "id": message["id"], "seq": room.ids[key]}))
        finally:
            room.sockets.pop(ws, None)

    async def handler(ws) -> None:
        path = ws.request.path
        if path == "/floor-log":
            logs = {dialogue: [[e["seq"], e["kind"]] for e in room.log] for dialogue, room in rooms.items()}
            await ws.send(json.dumps(logs))
        elif path == "/ws/lobby/":
            await lobby(ws, role_of(ws))
        elif path.startswith("/ws/dialogues/"):
            room = rooms.get(int(path.strip("/").rsplit("/", 1)[1]))
            if room is None:
                await ws.close(4404)
                return
            await room_socket(ws, room, role_of(ws))

    async def main() -> None:
        async with serve(handler, "127.0.0.1", port, compression=None, max_size=1 << 20):
            await asyncio.Future()

    asyncio.run(main())


# --- Targets: where the clients connect, how they sign in, where the log is read ------------------------------------


class WozsqlTarget:
    name = "wozsql"

    def __init__(
        self, servers: list[stack.Server], env: dict[str, str], roots: dict[str, list[int]], statements: bool = False
    ):
        self.urls = [server.url for server in servers]
        self.counts_statements = statements  # PostgreSQL keeps per-statement counts (pg_stat_statements)
        self.env = env  # the servers' environment: which database to read the logs from
        self.roots = roots
        self.cookies: dict[tuple[str, int], str] = {}
        self.admin_cookie: str | None = None  # the demo admin's, for --board
        self.tells_ready = True  # the lobby's status says whether an expert is ready

    def url(self, role: str, index: int) -> str:
        # Alternate sockets between the servers, as a load balancer would; pairing is by lobby order, so about half
        # of the rooms have their two sides on different servers.
        return self.urls[index % len(self.urls)]

    async def sign_in(self, accounts: int) -> float:
        started = time.perf_counter()
        gate = asyncio.Semaphore(16)

        async def one(role: str, index: int) -> None:
            username = stack.worker_name(PREFIX, index) if role == "worker" else stack.expert_name(PREFIX, index)
            async with gate:
                self.cookies[role, index] = await asyncio.to_thread(login, self.url(role, index), username, PASSWORD)

        await asyncio.gather(*(one(role, i) for role in ("worker", "expert") for i in range(accounts)))
        self.admin_cookie = await asyncio.to_thread(login, self.urls[0], ADMIN, ADMIN_PASSWORD)
        return time.perf_counter() - started

    def cookie(self, role: str, index: int) -> str:
        return self.cookies[role, index]

    def transactions(self) -> int | None:
        """Transactions PostgreSQL has ended in the platform's database so far (None on SQLite). Django runs each
        query outside an atomic block as a transaction of its own, so this counts the round trips that end one:
        with the round's frames, about how much database work a frame costs. PostgreSQL's statistics lag: an idle
        backend reports its last transactions within ten seconds (PostgreSQL 15's PGSTAT_IDLE_INTERVAL)."""
        if stack.is_embedded(self.env):
            return None
        rows = stack.read_rows(
            self.env,
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()",
            [],
        )
        return int(rows[0][0])

    def statements_reset(self) -> bool:
        """Zero PostgreSQL's per-statement counts (--statements); False when they are not kept."""
        if not self.counts_statements:
            return False
        stack.read_rows(self.env, "SELECT pg_stat_statements_reset()", [])
        return True

    def statements(self) -> list[tuple[int, float, str]]:
        """(calls, milliseconds PostgreSQL spent in them, statement with its values as $n) of the platform's database
        since `statements_reset`, the most frequent first. Counted as each statement ends: no lag to wait out."""
        rows = stack.read_rows(
            self.env,
            "SELECT calls, total_exec_time, query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
            "WHERE d.datname = current_database() AND query NOT LIKE %s ORDER BY calls DESC",
            ["%pg_stat_statements%"],
        )
        return [(int(calls), float(ms), " ".join(query.split())) for calls, ms, query in rows]

    async def logs(self, dialogues: list[int]) -> dict[int, list[tuple[int, str]]]:
        def read():
            out = defaultdict(list)
            for dialogue, seq, kind in stack.read_rows(
                self.env,
                "SELECT dialogue_id, seq, kind FROM dialogs_event WHERE dialogue_id IN %s ORDER BY 1, 2",
                [dialogues],
            ):
                out[dialogue].append((seq, kind))
            return dict(out)

        return await asyncio.to_thread(read)


class FloorTarget:
    name = "floor"

    def __init__(self, url: str, pid: int, roots: dict[str, list[int]] | None = None, name: str = "floor"):
        self.base = url
        self.roots = roots or {"relay": [pid]}
        self.name = name

    def url(self, role: str, index: int) -> str:
        return self.base

    def cookie(self, role: str, index: int) -> str:
        return f"floor={role}:{index}"

    async def logs(self, dialogues: list[int]) -> dict[int, list[tuple[int, str]]]:
        from websockets.asyncio.client import connect

        async with connect(self.base.replace("http", "ws", 1) + "/floor-log", proxy=None, max_size=None) as ws:
            raw = json.loads(await ws.recv())
        return {int(dialogue): [tuple(entry) for entry in log] for dialogue, log in raw.items()}


# --- CPU accounting: latency depends on what else runs on the machine, CPU seconds per round much less ----------------


def _processes() -> dict[int, tuple[int, str, float, float]]:
    """pid → (parent pid, command line, CPU seconds used so far with its reaped children's, its own alone) for every
    process we may read (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat_file:
                fields = stat_file.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmd_file:
                command = cmd_file.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        # utime + stime, and cutime + cstime: what its children used before they exited (PostgreSQL backends that
        # lived for one connection, with DB_CONN_MAX_AGE=0).
        times = [int(value) / tick for value in fields[11:15]]
        out[int(entry)] = (int(fields[1]), command, sum(times), times[0] + times[1])
    return out


def server_cpu(roots: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds used so far by each named group of process trees (a root and all its descendants). The Daphne
    group's descendants (the SQL sandbox's worker processes) are also given apart, as "of which sandbox"."""
    table = _processes()
    children = defaultdict(list)
    for pid, (parent, *_) in table.items():
        children[parent].append(pid)
    totals = {}
    for name, pids in roots.items():
        todo, total = list(pids), 0.0
        while todo:
            pid = todo.pop()
            if pid in table:
                total += table[pid][2]
                todo.extend(children[pid])
        totals[name] = total
    if "daphne" in roots:
        totals[SANDBOX_SHARE] = totals["daphne"] - sum(table[pid][3] for pid in roots["daphne"] if pid in table)
    return totals


SANDBOX_SHARE = "of which sandbox"  # not a group of its own: part of "daphne" (server_cpu)


def cpu_total(cpu: dict[str, float]) -> float:
    return sum(used for name, used in cpu.items() if name != SANDBOX_SHARE)


def stack_roots(servers: list[stack.Server], database_url: str | None, redis_url: str | None) -> dict[str, list[int]]:
    """The Daphne processes (with their SQL sandbox workers), the PostgreSQL postmaster and the Redis server (on the
    embedded stack, the Daphne process alone: SQLite and the channel layer are inside it)."""
    if not database_url:
        return {"daphne": [server.pid for server in servers]}
    table = _processes()
    pg_port = _port(database_url)
    postgres = [pid for pid, (_, cmd, *_) in table.items() if "postgres" in cmd and f"-p {pg_port} " in cmd + " "]
    return {"daphne": [server.pid for server in servers], "postgres": postgres, "redis": redis_pids(redis_url, table)}


def _port(url: str) -> str:
    return url.rsplit(":", 1)[1].split("/")[0]


def redis_pids(redis_url: str, table: dict | None = None) -> list[int]:
    """The Redis server listening on `redis_url`'s port (`table`: _processes(), read now when not given)."""
    port = _port(redis_url)
    table = _processes() if table is None else table
    return [pid for pid, (_, cmd, *_) in table.items() if "redis-server" in cmd and f":{port}" in cmd]


# --- One round: N rooms at once ---------------------------------------------------------------------------------------


@dataclass
class RoundResult:
    target: str
    rooms: int
    completed: int = 0
    failures: list[str] = field(default_factory=list)
    frames_sent: int = 0
    frames_received: int = 0
    delivery: Delivery = field(default_factory=Delivery)
    pairing_cpu: float = float("nan")  # server CPU seconds from the round's start until every room was open
    # --arrive-at-once: seconds from the last worker's join until every worker was paired or told their place
    burst_settle_seconds: float = float("nan")
    lobby_frames: int = 0  # frames the lobby sockets received until every worker was paired
    burst_unsettled: int = 0  # workers never paired nor told their place
    utterance_ms: list[float] = field(default_factory=list)
    response_ms: list[float] = field(default_factory=list)
    # send → ack of the same messages: the sender's side of the way (stored); the rest is broadcast and delivery
    utterance_ack_ms: list[float] = field(default_factory=list)
    response_ack_ms: list[float] = field(default_factory=list)
    pairing_seconds: float = 0.0
    seconds: float = 0.0
    reconnects: int = 0
    load: float = 0.0  # the machine's 1-minute load average at the end (other work on the machine skews figures)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds the server side used during the round
    dialogue_cpu: float = 0.0  # of which after every room was open (the dialogues, without sign-in and pairing)
    dialogue_cpu_parts: dict[str, float] = field(default_factory=dict)  # the same by group of processes (`cpu`)
    dialogue_transactions: int | None = None  # database transactions after every room was open (PostgreSQL only)
    # (calls, ms, statement) after every room was open (--statements; PostgreSQL only)
    dialogue_statements: list[tuple[int, float, str]] | None = None
    # (calls, ms, statement) from the round's start until every room was open (--statements with --pairing-only)
    pairing_statements: list[tuple[int, float, str]] | None = None
    dialogue_frames: int = 0  # frames sent into the rooms after the hello
    client_cpu: float = 0.0  # CPU seconds of this process (the clients share the machine with the servers)
    stall_seconds: list[float] = field(default_factory=list)  # send → ack of each runaway query (--stall-every)
    stalled_rooms: int = 0  # rooms left out of the latency figures because their expert ran the runaway queries
    board_gaps: list[float] = field(default_factory=list)  # seconds between consecutive overviews (--board)
    board_staleness: list[float] = field(default_factory=list)  # seconds from an overview's reading to its receipt
    board_rooms: int = 0  # the most open rooms one overview counted

    @property
    def latencies_ms(self) -> list[float]:
        return self.utterance_ms + self.response_ms


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 10) - 1]


async def _room_opened_only(room: Room, role: str, line_up, all_in: asyncio.Event) -> None:
    """--pairing-only: the worker lines up once the expert has joined; both leave once every room is open."""
    try:
        if role == "worker":
            await room.next(is_state, "state")
            await room.next(is_event("join", author_role="expert"), "the expert's join")
            await line_up()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(all_in.wait(), 120)
    finally:
        await room.close()


class _Hooked(list):
    """A list that hands each item to `seen` as it is appended (a lobby socket's frames, its joins' moments)."""

    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def append(self, item):
        super().append(item)
        self.seen(item)


class _Burst:
    """The lobby side of a round: when every expert was ready, when each worker joined, and when each worker was
    first paired or told their place (a `status` with a position, or naming their dialogue)."""

    def __init__(self, rooms: int, tells_ready: bool):
        self.rooms = rooms
        self.tells_ready = tells_ready  # wozsql's status says an expert is ready; a floor's lobby has no status
        self.experts_in = asyncio.Event()
        self.ready: set[int] = set()
        self.worker_joins: list[float] = []
        self.settled: dict[int, float] = {}
        self.lobby_frames = 0  # frames the lobby sockets received, of every kind

    def _expert_ready(self, index: int) -> None:
        self.ready.add(index)
        if len(self.ready) == self.rooms:
            self.experts_in.set()

    def frames(self, role: str, index: int) -> _Hooked:
        def seen(frame: dict) -> None:
            self.lobby_frames += 1
            kind = frame.get("type")
            if role == "expert":
                if kind == "status" and frame.get("ready"):
                    self._expert_ready(index)
            elif index not in self.settled and (
                kind == "paired" or (kind == "status" and (frame.get("position") or frame.get("dialogue")))
            ):
                self.settled[index] = time.perf_counter()

        return _Hooked(seen)

    def joins(self, role: str, index: int) -> list[float]:
        if role == "worker":
            return self.worker_joins
        # A floor's lobby says nothing before pairing: its expert is ready once joined.
        return _Hooked(lambda at: None if self.tells_ready else self._expert_ready(index))

    def settled_after_last_arrival(self) -> tuple[float, int]:
        unsettled = self.rooms - len(self.settled)
        if not self.worker_joins or not self.settled:
            return float("nan"), unsettled
        return max(self.settled.values()) - max(self.worker_joins), unsettled


async def watch_board(base_url: str, cookie: str, result: RoundResult, done: asyncio.Event) -> None:
    """An admin's live operations board for the whole round: how often its overviews arrive and how old they are on
    arrival (the server stamps each with the moment it read it; client and server share this machine's clock)."""
    last = None
    async with open_socket(base_url, "/ws/manage/live/", cookie) as socket:
        while not done.is_set():
            try:
                frame = json.loads(await asyncio.wait_for(socket.recv(), 1.0))
            except TimeoutError:
                continue
            if frame.get("type") != "overview":
                continue
            now = time.time()
            if last is not None:
                result.board_gaps.append(now - last)
            last = now
            result.board_staleness.append(now - datetime.fromisoformat(frame["at"]).timestamp())
            result.board_rooms = max(result.board_rooms, frame["rooms"]["count"])


async def run_round(
    target,
    rooms: int,
    *,
    questions: int,
    think: float,
    seed: int,
    stall_every: float = 0.0,
    board: int = 0,
    arrive_at_once: bool = False,
    pairing_only: bool = False,
    on_all_in=None,
) -> RoundResult:
    """One round of `rooms` dialogues at once. `arrive_at_once`: the experts join the lobby first and the workers
    all arrive once every expert is ready (the pairing aim's shape), the time from the last worker's join until every
    worker is paired or has a status with their place is measured. `pairing_only`: each side leaves its room once
    every room is open (the dialogues stay open: one round per run). `on_all_in` is called once every room is open."""
    result = RoundResult(target.name, rooms)
    burst = _Burst(rooms, tells_ready=getattr(target, "tells_ready", False))
    started = time.perf_counter()
    paired_at: list[float] = []
    lobby_retries: list[str] = []
    sides: dict[int, dict[str, Room]] = defaultdict(dict)
    # Latency is measured in the steady state: every room is open before the first question, so the connection storm
    # (2N sockets at once) does not land on the first utterances. A room that never pairs releases the rest later.
    rooms_in, all_in = 0, asyncio.Event()
    cpu_at_start: dict[str, float] = {}
    transactions_at_start: list[int | None] = []
    statements_kept: list[bool] = []
    stalled: set[int] = set()  # dialogues whose expert runs the runaway queries

    async def stall(room: Room) -> None:
        """Every `stall_every` seconds, a query that runs until the sandbox stops it (cancelled when its room is
        done)."""
        await all_in.wait()
        while True:
            await asyncio.sleep(stall_every)
            started = time.perf_counter()
            try:
                await room.post({"type": "sql_run", "id": new_id("stall"), "sql": RUNAWAY_SQL})
            except ProtocolError:
                return  # the dialogue ended meanwhile: its runs are refused as `closed`
            result.stall_seconds.append(time.perf_counter() - started)

    async def line_up() -> None:
        nonlocal rooms_in
        rooms_in += 1
        if rooms_in == rooms:
            cpu_at_start.update(server_cpu(target.roots))
            if hasattr(target, "transactions") and not pairing_only:
                transactions_at_start.append(await asyncio.to_thread(target.transactions))
                statements_kept.append(await asyncio.to_thread(target.statements_reset))
            all_in.set()
            if on_all_in is not None:
                on_all_in()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(all_in.wait(), 120)

    async def participant(role: str, index: int) -> None:
        url, cookie = target.url(role, index), target.cookie(role, index)
        rng = random.Random(seed * 100_003 + index * 2 + (role == "expert"))
        if arrive_at_once and role == "worker":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(burst.experts_in.wait(), 120)
        dialogue = await lobby_wait(
            url,
            cookie,
            leave_after=(role == "expert"),
            timeout=300,
            retried=lobby_retries,
            frames=burst.frames(role, index),
            joined=burst.joins(role, index),
        )
        paired_at.append(time.perf_counter())
        room = Room(url, dialogue, cookie, label=f"{role}{index}@{dialogue}")
        sides[dialogue][role] = room
        await room.start()
        if pairing_only:
            await _room_opened_only(room, role, line_up, all_in)
            return
        staller = None
        if role == "expert" and index == 0 and stall_every > 0:
            stalled.add(dialogue)
            staller = asyncio.create_task(stall(room))
        try:
            if role == "worker":
                await play_worker(room, questions=questions, think=think, rng=rng, when_both_in=line_up)
            else:
                await play_expert(room, think=think, rng=rng)
        finally:
            if staller is not None:
                staller.cancel()
                await asyncio.gather(staller, return_exceptions=True)
            await room.close()

    # The client's own collector pauses would count as server latency (and hit the floor the same way): none during
    # the round; what the round allocated is collected before the next.
    gc.collect()
    gc.disable()
    pairing_counted = pairing_only and hasattr(target, "statements_reset") and target.statements_reset()
    cpu_before = server_cpu(target.roots)
    client_before = time.process_time()
    board_done = asyncio.Event()
    boards = [
        asyncio.create_task(watch_board(target.urls[k % len(target.urls)], target.admin_cookie, result, board_done))
        for k in range(board)
    ]
    try:
        outcomes = await asyncio.gather(
            *(participant(role, i) for i in range(rooms) for role in ("worker", "expert")), return_exceptions=True
        )
    finally:
        gc.enable()
        board_done.set()
        for failure in await asyncio.gather(*boards, return_exceptions=True):
            if isinstance(failure, BaseException):
                result.failures.append(f"board: {type(failure).__name__}: {failure}")
    result.seconds = time.perf_counter() - started
    result.load = os.getloadavg()[0]
    if cpu_at_start:
        result.pairing_cpu = cpu_total(cpu_at_start) - cpu_total(cpu_before)
    if arrive_at_once:
        result.burst_settle_seconds, result.burst_unsettled = burst.settled_after_last_arrival()
    result.lobby_frames = burst.lobby_frames
    if pairing_only:
        result.failures = [f"{type(exc).__name__}: {exc}" for exc in outcomes if isinstance(exc, BaseException)]
        result.pairing_seconds = max(paired_at, default=float("nan")) - started
        result.reconnects, result.completed = len(lobby_retries), rooms_in
        result.client_cpu = time.process_time() - client_before
        result.cpu = {name: used - cpu_before[name] for name, used in server_cpu(target.roots).items()}
        if pairing_counted:
            result.pairing_statements = await asyncio.to_thread(target.statements)
        return result
    cpu_after = server_cpu(target.roots)
    result.client_cpu = time.process_time() - client_before
    result.cpu = {name: used - cpu_before[name] for name, used in cpu_after.items()}
    if cpu_at_start:
        result.dialogue_cpu_parts = {name: used - cpu_at_start[name] for name, used in cpu_after.items()}
        result.dialogue_cpu = cpu_total(result.dialogue_cpu_parts)
    if statements_kept and statements_kept[0]:
        result.dialogue_statements = await asyncio.to_thread(target.statements)
    if transactions_at_start and transactions_at_start[0] is not None:
        await asyncio.sleep(11)  # the idle backends' statistics of the round's last transactions (transactions())
        result.dialogue_transactions = await asyncio.to_thread(target.transactions) - transactions_at_start[0]
    result.reconnects += len(lobby_retries)
    result.pairing_seconds = (max(paired_at) - started) if paired_at else float("nan")
    result.failures = [f"{type(exc).__name__}: {exc}" for exc in outcomes if isinstance(exc, BaseException)]
    logs = await target.logs(sorted(sides))
    for dialogue, pair in sides.items():
        log = logs.get(dialogue, [])
        final = {kind: seq for seq, kind in log}
        last = log[-1][0] if log else 0
        for role, room in pair.items():
            # Each side stays until it has seen the last event it waits for (end, or its own score).
            up_to = final.get("end" if role == "worker" else "score", last)
            result.delivery.add(check_delivery(room, role, log, up_to))
            result.frames_sent += room.frames_sent
            result.dialogue_frames += room.frames_sent - 1
            result.frames_received += len(room.received)
            result.reconnects += room.reconnects
        if dialogue in stalled:
            result.stalled_rooms += 1
            result.completed += "score" in final
        elif "worker" in pair and "expert" in pair:
            worker, expert = pair["worker"], pair["expert"]
            result.utterance_ms += [s * 1000 for s in partner_latencies(worker, expert, {"utterance"})]
            result.response_ms += [s * 1000 for s in partner_latencies(expert, worker, {"response"})]
            result.utterance_ack_ms += [s * 1000 for s in ack_latencies(worker, expert, {"utterance"})]
            result.response_ack_ms += [s * 1000 for s in ack_latencies(expert, worker, {"response"})]
            result.completed += "score" in final
    return result


# --- Report -----------------------------------------------------------------------------------------------------------


def report(pairs: list[tuple[RoundResult, ...]], servers: int, targets: bool = True) -> bool:
    """The table (our rounds beside the bare relay's), then each round's details: ours, the bare relay's and, when it
    ran, the stack floor's (the same frames through Daphne, Channels and the channel layer, nothing stored)."""
    ok = True
    header = (
        f"{'N':>4} {'sockets':>7} {'done':>5} {'sent':>6} {'recv':>6} {'events':>6} {'lost':>4} {'dup':>3} "
        f"{'order':>5} {'leak':>4} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>6} | {'floor p50':>9} {'p99':>6} | "
        f"{'x p99':>5} {'target':>6}"
    )
    print("\nsend → partner receipt, utterances and responses, ms")
    print(header)
    print("-" * len(header))
    for ours, floor, *others in pairs:
        ok = ok and all(other.delivery.clean and not other.failures for other in others)
        lat = ours.latencies_ms
        p99 = percentile(lat, 99)
        floor_p50 = percentile(floor.latencies_ms, 50) if floor else float("nan")
        floor_p99 = percentile(floor.latencies_ms, 99) if floor else float("nan")
        target = TARGETS_MS.get((servers, ours.rooms)) if targets else None
        clean = ours.delivery.clean and not ours.failures and ours.completed == ours.rooms
        met = target is None or p99 <= target
        ok = ok and clean and met and (floor is None or (floor.delivery.clean and not floor.failures))
        print(
            f"{ours.rooms:>4} {ours.rooms * 2:>7} {ours.completed:>5} {ours.frames_sent:>6} {ours.frames_received:>6} "
            f"{ours.delivery.expected:>6} {ours.delivery.lost:>4} {ours.delivery.duplicated:>3} "
            f"{ours.delivery.out_of_order:>5} {ours.delivery.leaked:>4} {percentile(lat, 50):>6.1f} "
            f"{percentile(lat, 95):>6.1f} {p99:>6.1f} {max(lat, default=float('nan')):>6.1f} | {floor_p50:>9.1f} "
            f"{floor_p99:>6.1f} | {p99 / floor_p99 if floor else float('nan'):>5.1f} "
            f"{(f'{target:.0f}' if target else '-'):>6}{'' if met else ' MISSED'}"
        )
    for ours, _, *others in pairs:
        for other in others:
            ours_cpu, other_cpu = (r.dialogue_cpu * 1000 / max(r.dialogue_frames, 1) for r in (ours, other))
            if ours.dialogue_frames:  # none with --pairing-only
                print(
                    f"  N={ours.rooms}: the stack's floor (Daphne + Channels + channel layer, nothing stored): p99 "
                    f"{percentile(other.latencies_ms, 99):.1f} ms, {other.frames_received} frames out for "
                    f"{other.frames_sent} in, {other_cpu:.2f} ms CPU per frame with the rooms open; "
                    f"wozsql adds {ours_cpu - other_cpu:.2f} ms per frame to it"
                )
            ours_pair, other_pair = (r.pairing_cpu * 1000 / max(r.rooms, 1) for r in (ours, other))
            print(
                f"  N={ours.rooms}: pairing, server CPU from the round's start until every room was open: wozsql "
                f"{ours_pair:.1f} ms per pair, the stack's floor {other_pair:.1f} ms; wozsql adds "
                f"{ours_pair - other_pair:.1f} ms per pair (aim: {PAIR_CPU_AIM_MS:.0f} ms per pair in all: "
                f"{'met' if ours_pair <= PAIR_CPU_AIM_MS else 'MISSED'})"
            )
    print()
    for results in pairs:
        for result in results:
            if result is None:
                continue
            print(
                f"  {result.target:<6} N={result.rooms:<4} pairing {result.pairing_seconds:5.1f} s, round "
                f"{result.seconds:5.1f} s, {result.frames_sent / max(result.seconds, 1e-9):6.0f} frames/s in, "
                f"utterance p99 {percentile(result.utterance_ms, 99):6.1f} ms (ack "
                f"{percentile(result.utterance_ack_ms, 99):.1f}), response p99 "
                f"{percentile(result.response_ms, 99):6.1f} ms (ack {percentile(result.response_ack_ms, 99):.1f}), "
                f"delivery {result.delivery}, "
                f"reconnects {result.reconnects}, load average {result.load:.1f}"
            )
            print(
                f"    pairing: server CPU until every room was open {result.pairing_cpu:.2f} s, "
                f"{result.pairing_cpu * 1000 / max(result.rooms, 1):.1f} ms per pair, "
                f"{result.lobby_frames / max(result.rooms, 1):.1f} lobby frames sent per pair"
                + (
                    f"; every worker paired or told their place {result.burst_settle_seconds:.2f} s after the last "
                    f"one arrived (aim {BURST_AIM_SECONDS:.0f} s: "
                    f"{'met' if result.burst_settle_seconds <= BURST_AIM_SECONDS else 'MISSED'})"
                    + (f", {result.burst_unsettled} never told" if result.burst_unsettled else "")
                    if result.burst_settle_seconds == result.burst_settle_seconds or result.burst_unsettled
                    else ""
                )
            )
            cpu = cpu_total(result.cpu)
            parts = ", ".join(
                f"{name} {used:.1f}"
                + (f" (sandbox processes {result.cpu[SANDBOX_SHARE]:.1f})" if name == "daphne" else "")
                for name, used in result.cpu.items()
                if name != SANDBOX_SHARE
            )
            print(
                f"    client CPU {result.client_cpu:.1f} s; server CPU {cpu:.1f} s ({parts}), "
                f"{cpu * 1000 / max(result.frames_sent, 1):.2f} ms per frame in; once all rooms were open "
                f"{result.dialogue_cpu:.1f} s, {result.dialogue_cpu * 1000 / max(result.dialogue_frames, 1):.2f} ms "
                "per frame in"
                + (
                    " ("
                    + ", ".join(
                        f"{name} {used * 1000 / max(result.dialogue_frames, 1):.2f}"
                        for name, used in result.dialogue_cpu_parts.items()
                        if name != SANDBOX_SHARE
                    )
                    + ")"
                    if len(set(result.dialogue_cpu_parts) - {SANDBOX_SHARE}) > 1
                    else ""
                )
                + (
                    f", {result.dialogue_transactions / max(result.dialogue_frames, 1):.1f} database transactions "
                    "per frame in"
                    if result.dialogue_transactions is not None
                    else ""
                )
            )
            if result.dialogue_statements is not None:
                print_statements(result.dialogue_statements, result.dialogue_frames)
            if result.pairing_statements is not None:
                shown = int(os.environ.get("SHOWN", 15))
                print_statements(
                    result.pairing_statements, result.rooms, shown=shown, per="pair", phase="until every room was open"
                )
            if result.board_staleness:
                print(
                    f"    live board: {len(result.board_staleness)} overviews (up to {result.board_rooms} open rooms), "
                    f"gap between overviews p50 {percentile(result.board_gaps, 50):.2f} s, max "
                    f"{max(result.board_gaps, default=float('nan')):.2f} s; age on arrival p99 "
                    f"{percentile(result.board_staleness, 99):.2f} s"
                )
            if result.stall_seconds:
                print(
                    f"    {len(result.stall_seconds)} runaway queries in {result.stalled_rooms} room(s) left out of "
                    f"the latency figures, each {statistics.median(result.stall_seconds):.2f} s (median) send → ack"
                )
            # Failures grouped by what went wrong, without the socket's name and the numbers in it.
            kinds = Counter(re.sub(r"\d+", "#", failure.split(": ", 2)[-1]) for failure in result.failures)
            for kind, count in kinds.most_common(8):
                print(f"    {count} × {kind}")
    return ok


def create_extension(database_url: str, name: str) -> None:
    stack.read_rows({"DATABASE_URL": database_url}, f"CREATE EXTENSION IF NOT EXISTS {name}", [])


def print_statements(
    rows: list[tuple[int, float, str]],
    frames: int,
    shown: int = 15,
    per: str = "frame",
    phase: str = "once all rooms were open",
) -> None:
    """What PostgreSQL ran (--statements) once every room was open, or until then (--pairing-only: `per` "pair"): in
    all and per frame in (or per pair), then the most frequent statements, each with its calls per frame (pair) and
    the milliseconds the server spent in them."""
    calls, ms = sum(row[0] for row in rows), sum(row[1] for row in rows)
    print(
        f"    PostgreSQL {phase}: {calls} statements, {calls / max(frames, 1):.2f} per {per}"
        f"{' in' if per == 'frame' else ''}, {ms / 1000:.1f} s inside the server; the most frequent:"
    )
    for count, spent, query in rows[:shown]:
        print(f"      {count / max(frames, 1):5.2f}/{per} {spent:7.0f} ms  {query[:150]}")


# --- Main -------------------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def stack_floor(enabled: bool, redis_url: str | None, log_dir: str | Path):
    """The stack's floor (bench/stack_floor.py: the same frames through one Daphne, Channels and the platform's channel
    layer, nothing stored) in a process of its own; yields a FloorTarget named "stack" (None when not enabled). Its
    CPU counts the Daphne process and, on the services stack, the Redis server it publishes through."""
    if not enabled:
        yield None
        return
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url or ""}
    with open(Path(log_dir) / "stack-floor.log", "wb") as log:
        process = subprocess.Popen(
            [str(stack.BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "bench.stack_floor:application"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_port(port)
            roots = {"daphne": [process.pid]}
            if redis_url:
                roots["redis"] = redis_pids(redis_url)
            yield FloorTarget(f"http://127.0.0.1:{port}", process.pid, roots=roots, name="stack")
        finally:
            process.terminate()
            process.wait(timeout=10)


@contextlib.contextmanager
def floor_relay(enabled: bool = True):
    """The floor relay in a process of its own, like a server; yields a FloorTarget (None when not enabled)."""
    if not enabled:
        yield None
        return
    port = free_port()
    process = subprocess.Popen([sys.executable, __file__, "--serve-floor", str(port)], cwd=PROJECT_ROOT)
    try:
        wait_for_port(port)
        yield FloorTarget(f"http://127.0.0.1:{port}", process.pid)
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def profiled(servers: list[stack.Server], folder: str | None, name: str):
    """py-spy on every server for the duration of the block, or until the block calls what it yields; its collapsed
    stacks (per thread) go to FOLDER/NAME-daphne-K.txt. Only samples of the thread holding the interpreter lock are
    kept (`--gil`), so a count is CPU time of Python code: py-spy's own idle test counted the pool threads blocked in
    their queue's `get` and the threads waiting for the lock as busy: one 1 × 50 round's "busy" samples came to three
    times the process's CPU."""
    if not folder:
        yield lambda: None
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    spies = [
        subprocess.Popen(
            [str(stack.BIN / "py-spy"), "record", "--pid", str(server.pid), "--format", "raw", "--threads", "--gil"]
            + ["--rate", "200", "--output", str(Path(folder) / f"{name}-daphne-{number}.txt")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for number, server in enumerate(servers)
    ]
    stopped = []

    def stop() -> None:
        """Stop recording now (py-spy writes its output on SIGINT); it is waited for at the block's end."""
        if not stopped:
            stopped.append(True)
            for spy in spies:
                spy.send_signal(signal.SIGINT)

    try:
        yield stop
    finally:
        stop()
        for spy in spies:
            spy.wait(timeout=60)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[10, 50, 200], help="numbers of concurrent rooms")
    parser.add_argument("--questions", type=int, default=3, help="questions per dialogue (at least the minimum)")
    parser.add_argument("--think", type=float, default=2.0, help="mean pause before each step, seconds (±50%%)")
    parser.add_argument(
        "--stack",
        choices=["services", "embedded"],
        default="services",
        help="services: PostgreSQL + Redis (default); embedded: `make run`'s SQLite, in-memory layer, one Daphne",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=None,
        help="Daphne processes (sockets alternate between them; default 2, 1 embedded)",
    )
    parser.add_argument("--conn-max-age", type=int, default=300, help="DB_CONN_MAX_AGE of the servers, seconds")
    parser.add_argument("--no-floor", action="store_true", help="skip the bare relay")
    parser.add_argument(
        "--no-stack-floor",
        action="store_true",
        help="skip the stack's floor (bench/stack_floor.py: Daphne, Channels and the channel layer, nothing stored)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--stall-every",
        type=float,
        default=0.0,
        metavar="S",
        help="one expert also runs a query to the sandbox's time limit every S seconds (its room is not measured)",
    )
    parser.add_argument(
        "--board", type=int, default=0, metavar="N", help="N admins watch the live operations board during the round"
    )
    parser.add_argument("--logs", metavar="DIR", help="keep the Daphne logs in DIR (default: thrown away)")
    parser.add_argument("--log-level", default="WARNING", help="LOG_LEVEL of the servers")
    parser.add_argument(
        "--statements",
        action="store_true",
        help="count PostgreSQL's statements once every room is open (pg_stat_statements), per frame, the most frequent"
        " (with --pairing-only: until every room is open, per pair)",
    )
    parser.add_argument(
        "--profile", metavar="DIR", help="record each server with py-spy during each wozsql round (collapsed stacks)"
    )
    parser.add_argument(
        "--arrive-at-once",
        action="store_true",
        help="the experts join first; once all are ready every worker arrives at once (the pairing aim's shape)",
    )
    parser.add_argument(
        "--pairing-only",
        action="store_true",
        help="end each round once every room is open (pairing alone; one --rooms value: the dialogues stay open)",
    )
    parser.add_argument(
        "--profile-pairing",
        action="store_true",
        help="with --profile: stop recording once every room is open (the pairing phase alone)",
    )
    parser.add_argument("--serve-floor", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pairing_only and len(args.rooms) > 1:
        parser.error("--pairing-only leaves the dialogues open: give one --rooms value")
    least = stack.dialogue_min_questions()
    if args.questions < least:
        # The worker could not end its dialogue: each round would wait for its timeout and report every room as failed.
        parser.error(
            f"--questions {args.questions} is below the {least} questions a dialogue needs before its worker may end "
            "it (DIALOGUE_MIN_QUESTIONS)"
        )
    return args


async def bench(
    args,
    ours_target: WozsqlTarget,
    floor_target: FloorTarget | None,
    servers: list[stack.Server],
    stack_target: FloorTarget | None = None,
):
    print(f"signing in {2 * max(args.rooms)} accounts through the login form ...", flush=True)
    print(f"  {await ours_target.sign_in(max(args.rooms)):.1f} s", flush=True)
    pairs = []
    for rooms in args.rooms:
        print(f"N={rooms}: wozsql ...", flush=True)
        shape = {
            "questions": args.questions,
            "think": args.think,
            "seed": args.seed,
            "arrive_at_once": args.arrive_at_once,
            "pairing_only": args.pairing_only,
        }
        with profiled(servers, args.profile, f"n{rooms}") as stop_profile:
            ours = await run_round(
                ours_target,
                rooms,
                stall_every=args.stall_every,
                board=args.board,
                on_all_in=stop_profile if args.profile_pairing else None,
                **shape,
            )
        floor = None
        if floor_target:
            print(f"N={rooms}: floor ...", flush=True)
            floor = await run_round(floor_target, rooms, **shape)
        floors = [floor]
        if stack_target:
            print(f"N={rooms}: stack floor ...", flush=True)
            floors.append(await run_round(stack_target, rooms, **shape))
        pairs.append((ours, *floors))
    return pairs


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.serve_floor:
        serve_floor(args.serve_floor)
        return 0
    embedded = args.stack == "embedded"
    if args.servers is None:
        args.servers = 1 if embedded else 2
    if embedded and args.servers != 1:
        print(
            "chat_load: the embedded stack runs one Daphne (its in-memory channel layer is per process)",
            file=sys.stderr,
        )
        return 2
    accounts = max(args.rooms)
    log_clean = True
    with contextlib.ExitStack() as resources:
        folder = resources.enter_context(tempfile.TemporaryDirectory(prefix="wozsql-chat-bench-"))
        settings = {
            "EXPERT_MAX_DIALOGUES": 1,
            # The bench's experts post several frames a second; the per-socket limit is not what is measured.
            "WS_RATE_PER_MINUTE": 100_000,
            "LOG_LEVEL": args.log_level,
        }
        counted = args.statements and not embedded
        env, database_url, redis_url = stack.stack_env(
            args.stack,
            resources,
            Path(folder) / "data",
            conn_max_age=args.conn_max_age,
            postgres_settings={"shared_preload_libraries": "pg_stat_statements"} if counted else None,
            **settings,
        )
        if counted:
            create_extension(database_url, "pg_stat_statements")
        started = time.perf_counter()
        stack.prepare(env, accounts=accounts, prefix=PREFIX, password=PASSWORD)
        print(
            f"stack ready ({args.stack}): migrated, demo data, {2 * accounts} accounts "
            f"({time.perf_counter() - started:.1f} s)"
        )
        with (
            stack.daphne_servers(env, args.servers, args.logs or folder) as servers,
            floor_relay(enabled=not args.no_floor) as floor_target,
            stack_floor(not args.no_stack_floor, redis_url, args.logs or folder) as stack_target,
        ):
            ours_target = WozsqlTarget(servers, env, stack_roots(servers, database_url, redis_url), statements=counted)
            floor_url = floor_target.base if floor_target else None
            print(f"{len(servers)} Daphne process(es): {', '.join(s.url for s in servers)}; floor {floor_url}")
            pairs = asyncio.run(bench(args, ours_target, floor_target, servers, stack_target))
        # Once the servers have stopped: what they logged on the way out counts too.
        for server in servers:
            text = server.log.read_text(errors="replace")
            tracebacks, problems = stack.log_problems(text)
            errors = [line for line in text.splitlines() if "ERROR" in line]
            if errors:
                print(f"  {server.url}: {len(errors)} error lines in the server log, e.g. {errors[0]}")
            if tracebacks or problems:
                log_clean = False
                print(f"  {server.url}: {len(tracebacks)} tracebacks, {len(problems)} other lines naming a problem")
                for summary, count in Counter(tracebacks + problems).most_common(8):
                    print(f"    {count} x {summary}")
    print(
        f"\n{args.questions} questions per dialogue, think {args.think} s ±50% per step, {args.servers} Daphne "
        f"process(es) on the {args.stack} stack, {os.cpu_count()} CPUs"
    )
    ok = report(pairs, args.servers, targets=not (embedded or args.pairing_only))
    if not log_clean:
        print("FAILED: the server log holds a traceback, an OperationalError or 'database is locked'")
    return 0 if ok and log_clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
