"""Fault injection on the real stack: a Daphne killed mid-dialogue, Redis restarted, PostgreSQL restarted.

Two Daphne processes run on a PostgreSQL cluster and a Redis server of this module's own (tools/test_stack.py), so
stopping them disturbs nothing else in the suite. The servers run housekeeping themselves on short periods, so that
leases, grace periods and sweeps play out in seconds. The clients are bench/wozclient.py's: they reconnect (to the
other server when theirs is gone) and resume from the last sequence number they saw, as docs/protocol.md tells every
client to. Every wait is for a condition, with a generous bound; nothing sleeps for something to happen. The only
fixed durations are the outages themselves (OUTAGE_SECONDS): how long a server stays down is the fault.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import time
from dataclasses import dataclass
from datetime import datetime

import psycopg2
import pytest
import redis

from bench import stack
from bench.wozclient import (
    Room,
    check_delivery,
    is_event,
    is_state,
    lobby_wait,
    login,
    new_id,
    play_expert,
    play_worker,
)
from tests.builders import database_rows, real_services
from tools.test_stack import PostgresCluster, RedisServer, create_database, postgres_cluster, redis_instance

pytestmark = pytest.mark.services

PASSWORD = "faults-password"
PREFIX = "faults_"
ACCOUNTS = 10
LEASE_SECONDS = 3
GRACE_SECONDS = 5
SERVER_SETTINGS = {
    "SERVER_HEARTBEAT_SECONDS": 1,
    "SERVER_LEASE_SECONDS": LEASE_SECONDS,
    "HOUSEKEEPING_SECONDS": 1,
    "HOUSEKEEPING_IN_PROCESS": 1,
    "PRESENCE_GRACE_SECONDS": GRACE_SECONDS,
    # Persistent connections, as a tuned deployment keeps them: a restarted PostgreSQL leaves every process holding
    # connections that are dead.
    "DB_CONN_MAX_AGE": 60,
    "EXPERT_MAX_DIALOGUES": 1,
    "DIALOGUE_MIN_QUESTIONS": 1,
    # The scenarios stop a server between two messages, once the worker has the answer. A suggestion is worked out
    # after the answer has gone out, and a server stopped in the middle of writing it holds the dialogue's row, so
    # nothing else could be recorded until it resumes: these scenarios are about the transport, without suggestions.
    "INTENT_RECOMMENDATIONS": 0,
}
# How long Redis or PostgreSQL stays down in an outage: longer than a lease, and than any retry of the servers'.
OUTAGE_SECONDS = LEASE_SECONDS + 1
# The bound of every wait for a condition, in seconds: far above what any step takes on a loaded 2-core machine.
WAIT = 60


@dataclass
class Stack:
    """What the faults are injected into: the database, the channel layer and two servers, all this module's own."""

    cluster: PostgresCluster
    redis: RedisServer
    servers: list[stack.Server]
    accounts: itertools.count

    @property
    def urls(self) -> tuple[str, ...]:
        return tuple(server.url for server in self.servers)

    def sql(self, query: str, params=()) -> list[tuple]:
        return database_rows(self.cluster.url, query, params)

    def new_people(self) -> tuple[str, str]:
        """A worker and an expert nobody has used yet (a worker gets each goal once)."""
        index = next(self.accounts)
        assert index < ACCOUNTS, "raise ACCOUNTS"
        return stack.worker_name(PREFIX, index), stack.expert_name(PREFIX, index)

    def lease_of(self, server: stack.Server) -> str | None:
        """The lease id of a server process (host:pid:random), once its background loop has taken one."""
        rows = self.sql("SELECT id FROM dialogs_serverlease WHERE id LIKE %s", [f"%:{server.pid}:%"])
        return rows[0][0] if rows else None

    def room_sockets(self, *, server_id: str | None = None, dialogue: int | None = None) -> list[tuple[int, str]]:
        """(dialogue, side) of each live room socket row, of one server or of one dialogue."""
        column, value = ("server_id", server_id) if server_id is not None else ("dialogue_id", dialogue)
        rows = self.sql(
            f"SELECT dialogue_id, side FROM dialogs_livesocket WHERE kind = 'room' AND {column} = %s",  # noqa: S608
            [value],
        )
        return sorted(rows)

    def status(self, dialogue: int) -> str:
        return self.sql("SELECT status FROM dialogs_dialogue WHERE id = %s", [dialogue])[0][0]

    def log(self, dialogue: int) -> list[tuple[int, str, str]]:
        """(seq, kind, author_role) of every event, in order."""
        return self.sql(
            "SELECT seq, kind, author_role FROM dialogs_event WHERE dialogue_id = %s ORDER BY seq", [dialogue]
        )

    def gone(self, dialogue: int) -> dict[str, object]:
        """Since when each side has had no room socket (None: present), as the room keeps it (room.side_connections)."""
        worker, expert = self.sql(
            "SELECT worker_gone_at, expert_gone_at FROM dialogs_dialogue WHERE id = %s", [dialogue]
        )[0]
        return {"worker": worker, "expert": expert}


@pytest.fixture(scope="module")
def faults(tmp_path_factory):
    real_services("; it starts and restarts servers of its own")
    folder = tmp_path_factory.mktemp("faults")
    with postgres_cluster() as cluster, redis_instance() as redis_server:
        create_database(cluster.url)
        env = stack.server_env(
            database_url=cluster.url, redis_url=redis_server.url, data_dir=folder / "data", **SERVER_SETTINGS
        )
        stack.prepare(env, accounts=ACCOUNTS, prefix=PREFIX, password=PASSWORD)
        with stack.daphne_servers(env, 2, folder) as servers:
            yield Stack(cluster, redis_server, servers, itertools.count())


@pytest.fixture
def stack_(faults):
    """The module's stack, put back whole after each test: every server running, Redis and PostgreSQL up."""
    yield faults
    if faults.redis.process is None:
        faults.redis.start()
    if not _postgres_up(faults):
        faults.cluster.start()
    for server in faults.servers:
        if server.process.poll() is not None:
            server.start()
            server.wait_ready()


def _postgres_up(faults: Stack) -> bool:
    try:
        faults.sql("SELECT 1")
    except psycopg2.OperationalError:
        return False
    return True


async def until(check, what: str, timeout: float = WAIT):
    """Poll `check` (blocking, run in a thread) until it returns something true; return that."""
    deadline = time.monotonic() + timeout
    while not (result := await asyncio.to_thread(check)):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        await asyncio.sleep(0.1)
    return result


@dataclass
class Pair:
    dialogue: int
    worker: str  # the worker's cookie
    expert: str


async def pair(faults: Stack, count: int, lobby_url: str) -> list[Pair]:
    """Sign in `count` new workers and experts and pair them through the lobby."""
    people = [faults.new_people() for _ in range(count)]
    names = [worker for worker, _ in people] + [expert for _, expert in people]
    cookies = await asyncio.gather(*(asyncio.to_thread(login, lobby_url, name, PASSWORD) for name in names))
    # Experts leave the lobby once paired: one still "ready" when its dialogue ends would take a later test's worker.
    dialogues = await asyncio.gather(
        *(
            lobby_wait(lobby_url, cookie, leave_after=index >= count, timeout=WAIT)
            for index, cookie in enumerate(cookies)
        )
    )
    expert_of = dict(zip(dialogues[count:], cookies[count:], strict=True))
    assert sorted(dialogues[:count]) == sorted(expert_of), "the lobby did not pair them with each other"
    return [
        Pair(dialogue, cookie, expert_of[dialogue])
        for dialogue, cookie in zip(dialogues[:count], cookies[:count], strict=True)
    ]


def room(faults: Stack, server: stack.Server, dialogue: int, cookie: str, label: str) -> Room:
    # A long reply timeout: an answer may wait for a reconnect, a restarted server or a whole other scenario.
    return Room(server.url, dialogue, cookie, label=label, reply_timeout=WAIT, other_servers=faults.urls)


async def ask(worker: Room, text: str) -> int:
    """One question, answered: returns its turn."""
    turn = await worker.post({"type": "utterance", "id": new_id("u"), "text": text})
    await worker.next(is_event("response", turn=turn), f"the answer to turn {turn}")
    return turn


async def finish(worker: Room) -> dict:
    await worker.post({"type": "end", "id": new_id("end")})
    return (await worker.next(is_event("end"), "the end"))["payload"]


async def both_in(worker: Room, expert: Room) -> None:
    await worker.next(is_state, "the state")
    await worker.next(is_event("join", author_role="expert"), "the expert's join")
    await expert.next(is_event("join", author_role="worker"), "the worker's join")


def assert_delivered(faults: Stack, dialogue: int, worker: Room, expert: Room, questions: int) -> None:
    """The log is gap-free and holds each question and answer once; each socket got every event it may see, once,
    in order (across all its reconnections): the worker up to the end, the expert up to its score."""
    status, last_seq = faults.sql("SELECT status, last_seq FROM dialogs_dialogue WHERE id = %s", [dialogue])[0]
    assert status == "completed"
    log = [(seq, kind) for seq, kind, _ in faults.log(dialogue)]
    assert [seq for seq, _ in log] == list(range(1, last_seq + 1)), "the log has gaps"
    kinds = [kind for _, kind in log]
    assert kinds.count("utterance") == kinds.count("response") == questions, kinds
    end_seq = next(seq for seq, kind in log if kind == "end")
    score_seq = next(seq for seq, kind in log if kind == "score")
    for side, up_to in ((worker, end_seq), (expert, score_seq)):
        delivery = check_delivery(side, side.role, log, up_to)
        assert delivery.clean and delivery.expected == delivery.received, (side.label, delivery, side.event_seqs)


# --- A server killed -------------------------------------------------------------------------------------------------


def test_a_server_killed_mid_dialogue_loses_nothing_and_presence_follows_its_lease(stack_):
    asyncio.run(_server_killed(stack_))


async def _server_killed(faults: Stack) -> None:
    a, b = faults.servers
    # Two dialogues through the kill: in the first only the worker is on A, in the second both sides are.
    one, two = await pair(faults, 2, b.url)
    worker1, expert1 = room(faults, a, one.dialogue, one.worker, "w1"), room(faults, b, one.dialogue, one.expert, "e1")
    worker2, expert2 = room(faults, a, two.dialogue, two.worker, "w2"), room(faults, a, two.dialogue, two.expert, "e2")
    rooms = [worker1, expert1, worker2, expert2]
    workers = [worker1, worker2]
    await asyncio.gather(*(r.start() for r in rooms))
    experts = [asyncio.create_task(play_expert(expert)) for expert in (expert1, expert2)]
    try:
        await asyncio.gather(both_in(worker1, expert1), both_in(worker2, expert2))
        await asyncio.gather(*(ask(worker, "First question") for worker in workers))
        lease_a = await until(lambda: faults.lease_of(a), "A's lease")
        on_a = faults.room_sockets(server_id=lease_a)
        assert on_a == sorted([(one.dialogue, "worker"), (two.dialogue, "worker"), (two.dialogue, "expert")])
        (last_heartbeat,) = faults.sql("SELECT seen_at FROM dialogs_serverlease WHERE id = %s", [lease_a])[0]

        # The second questions leave, and A dies with them in flight (stored or not: either way once, in order).
        sent = [worker.frames_sent for worker in workers]
        questions = [asyncio.create_task(ask(worker, "Second question")) for worker in workers]
        while not all(worker.frames_sent > count for worker, count in zip(workers, sent, strict=True)):
            await asyncio.sleep(0)  # the tasks run until their frames are written
        a.kill()
        moved = [worker1, worker2, expert2]
        await until(lambda: all(r.connected and r.servers_used[-1] == b.url for r in moved), "A's clients on B")
        await asyncio.gather(*questions)

        # After A's lease ran out, housekeeping on B took A for stopped: its socket rows are gone.
        await until(lambda: not faults.room_sockets(server_id=lease_a), "A's sockets reaped")
        ((reaped_by,),) = faults.sql("SELECT now()")
        assert (reaped_by - last_heartbeat).total_seconds() >= LEASE_SECONDS, "reaped before the lease ran out"
        assert not faults.sql("SELECT 1 FROM dialogs_serverlease WHERE id = %s", [lease_a])
        # The sides that came back count as present (by their live rows on B), and the log heard nothing of it: a
        # reconnect is presence, not history.
        for dialogue in (one.dialogue, two.dialogue):
            assert faults.gone(dialogue) == {"worker": None, "expert": None}
            assert faults.room_sockets(dialogue=dialogue) == [(dialogue, "expert"), (dialogue, "worker")]
            assert faults.status(dialogue) == "active"
            assert [kind for _, kind, _ in faults.log(dialogue)].count("join") == 2
            assert "leave" not in [kind for _, kind, _ in faults.log(dialogue)]

        # The other case: a worker whose server dies and who does not come back. Nobody is left to see them go but
        # housekeeping (their server said nothing), which marks them gone and, after the grace, abandons the room with
        # their leave.
        await asyncio.to_thread(a.start)
        await asyncio.to_thread(a.wait_ready)
        (three,) = await pair(faults, 1, b.url)
        worker3, expert3 = (
            room(faults, a, three.dialogue, three.worker, "w3"),
            room(faults, b, three.dialogue, three.expert, "e3"),
        )
        await asyncio.gather(worker3.start(), expert3.start())
        rooms += [worker3, expert3]
        await both_in(worker3, expert3)
        lease_a = await until(lambda: faults.lease_of(a), "A's new lease")
        assert faults.room_sockets(server_id=lease_a) == [(three.dialogue, "worker")]
        worker3.abandon()
        a.kill()
        (last_seen,) = faults.sql("SELECT seen_at FROM dialogs_serverlease WHERE id = %s", [lease_a])[0]
        await until(
            lambda: faults.status(three.dialogue) == "abandoned", "the dialogue abandoned", WAIT + GRACE_SECONDS
        )
        log = faults.sql(
            "SELECT kind, author_role, created_at, payload FROM dialogs_event WHERE dialogue_id = %s ORDER BY seq",
            [three.dialogue],
        )
        (leave,) = [row for row in log if row[0] == "leave"]
        end = log[-1]
        assert leave[1] == "worker" and end[0] == "end" and end[3]["status"] == "abandoned"
        left_at = datetime.fromisoformat(leave[3]["left_at"])
        assert (left_at - last_seen).total_seconds() >= LEASE_SECONDS, "gone before A's lease ran out"
        assert (end[2] - left_at).total_seconds() >= GRACE_SECONDS, "abandoned before the grace ran out"
        # The expert, still connected on B, is told.
        told = await expert3.next(is_event("end"), "the end, on the expert's screen")
        assert told["payload"]["status"] == "abandoned"
        # The first two dialogues, whose people came back, are kept.
        for dialogue in (one.dialogue, two.dialogue):
            assert faults.status(dialogue) == "active"

        # The first two dialogues go on to the end, and lost, duplicated or reordered nothing.
        await asyncio.gather(*(ask(worker, "Third question") for worker in workers))
        ends = await asyncio.gather(*(finish(worker) for worker in workers))
        assert [end["status"] for end in ends] == ["completed", "completed"]
        assert await asyncio.gather(*experts) == [3, 3]
        assert_delivered(faults, one.dialogue, worker1, expert1, 3)
        assert_delivered(faults, two.dialogue, worker2, expert2, 3)
    finally:
        for task in experts:
            task.cancel()
        await asyncio.gather(*(r.close() for r in rooms), return_exceptions=True)


# --- Redis restarted -------------------------------------------------------------------------------------------------


def _waiting_in_lobby(faults: Stack, username: str) -> bool:
    return bool(
        faults.sql(
            "SELECT 1 FROM dialogs_lobbyentry e JOIN annotation_user u ON u.id = e.person_id "
            "WHERE u.username = %s AND e.outcome = 'waiting'",
            [username],
        )
    )


async def _settled(faults: Stack, dialogue: int) -> None:
    """Presence is exact again: one live row per side (no socket left over from a consumer that died with the
    fault), neither side marked gone, and the log holds one join per side and no leave (the fault was no departure)."""
    expected = {"worker": None, "expert": None}, [(dialogue, "expert"), (dialogue, "worker")]

    def settled():
        kinds = [kind for _, kind, _ in faults.log(dialogue)]
        joins_only = kinds.count("join") == 2 and "leave" not in kinds
        return joins_only and (faults.gone(dialogue), faults.room_sockets(dialogue=dialogue)) == expected

    try:
        await until(settled, "presence")
    except AssertionError:
        found = faults.gone(dialogue), faults.room_sockets(dialogue=dialogue), faults.log(dialogue)
        raise AssertionError(f"presence in dialogue {dialogue} is not one socket per side: {found}") from None


def _subscribers(client: redis.Redis, dialogue: int) -> int:
    """How many server processes are subscribed to a room's group (channels_redis's name for it)."""
    ((_, count),) = client.pubsub_numsub(f"asgi__group__dialogue-{dialogue}")
    return count


def test_a_redis_restart_mid_dialogue_loses_nothing_and_the_lobby_goes_on(stack_):
    asyncio.run(_redis_restarted(stack_))


async def _redis_restarted(faults: Stack) -> None:
    a, b = faults.servers
    (one,) = await pair(faults, 1, a.url)
    worker, expert = room(faults, a, one.dialogue, one.worker, "w"), room(faults, b, one.dialogue, one.expert, "e")
    rooms = [worker, expert]
    await asyncio.gather(worker.start(), expert.start())
    answering = asyncio.create_task(play_expert(expert))
    lobby_expert = None
    try:
        await both_in(worker, expert)
        await ask(worker, "Before the restart")
        # An expert who is ready in the lobby (on B) through the restart.
        new_worker, new_expert = faults.new_people()
        cookies = await asyncio.gather(
            asyncio.to_thread(login, a.url, new_worker, PASSWORD), asyncio.to_thread(login, b.url, new_expert, PASSWORD)
        )
        expert_frames: list[dict] = []
        lobby_expert = asyncio.create_task(
            lobby_wait(b.url, cookies[1], leave_after=True, timeout=3 * WAIT, frames=expert_frames)
        )
        await until(lambda: _waiting_in_lobby(faults, new_expert), "the expert ready in the lobby")

        # A restart between two messages: the first one after it is published at once, while the servers are still
        # finding out that their subscriptions are gone.
        await asyncio.to_thread(faults.redis.restart)
        await ask(worker, "Right after the restart")
        assert worker.reconnects == expert.reconnects == 0, "a restart between two messages dropped a socket"

        # An outage with nobody sending, longer than the servers' own retries: when Redis is back, they subscribe again
        # within a second or so. The first question is sent at once, and its broadcast finds nobody listening yet.
        faults.redis.stop()
        await asyncio.sleep(OUTAGE_SECONDS)  # the outage is the fault
        faults.redis.start()
        await ask(worker, "As soon as Redis is back")

        # Redis drops a server's subscription (as it drops a subscriber that falls behind its output buffer limit)
        # while that server is stalled: what is published before it has subscribed again never reaches it, and
        # nobody publishes it again. A is back at once; B is stopped until a question has gone out.
        redis_client = redis.Redis.from_url(faults.redis.url)
        os.kill(b.pid, signal.SIGSTOP)
        try:
            redis_client.client_kill_filter(_type="pubsub")
            await until(lambda: _subscribers(redis_client, one.dialogue) == 1, "A subscribed again, and only A")
            turn = await worker.post({"type": "utterance", "id": new_id("u"), "text": "While B is not listening"})
        finally:
            os.kill(b.pid, signal.SIGCONT)
            redis_client.close()
        await worker.next(is_event("response", turn=turn), "the answer to the question B never heard of")

        # Redis down while a question is sent: it is stored and acked, but its broadcast cannot go out.
        faults.redis.stop()
        down_since = time.monotonic()
        try:
            turn = await worker.post({"type": "utterance", "id": new_id("u"), "text": "While Redis is down"})
            await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down_since)))
        finally:
            faults.redis.start()
        await worker.next(is_event("response", turn=turn), "the answer to the question sent while Redis was down")
        await _settled(faults, one.dialogue)

        # The lobby goes on: a worker who joins now is paired with the expert who waited through the restart, and
        # both hear of it from the lobby itself.
        worker_frames: list[dict] = []
        paired = await lobby_wait(a.url, cookies[0], timeout=WAIT, frames=worker_frames)
        assert await lobby_expert == paired
        assert any(frame["type"] == "paired" for frame in worker_frames)
        assert any(frame["type"] == "paired" for frame in expert_frames), "the expert's lobby socket heard nothing"
        new_rooms = [room(faults, a, paired, cookies[0], "w'"), room(faults, b, paired, cookies[1], "e'")]
        rooms += new_rooms
        await asyncio.gather(*(r.start() for r in new_rooms))
        end, answered = await asyncio.gather(play_worker(new_rooms[0], questions=1), play_expert(new_rooms[1]))
        assert (end["status"], answered) == ("completed", 1)

        assert (await finish(worker))["status"] == "completed"
        assert await answering == 5
        assert_delivered(faults, one.dialogue, worker, expert, 5)
        assert_delivered(faults, paired, *new_rooms, 1)
    finally:
        for task in (answering, lobby_expert):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(r.close() for r in rooms), return_exceptions=True)


# --- PostgreSQL restarted --------------------------------------------------------------------------------------------


def test_a_postgres_restart_mid_dialogue_loses_nothing_and_presence_survives_it(stack_):
    asyncio.run(_postgres_restarted(stack_))


async def _postgres_restarted(faults: Stack) -> None:
    a, b = faults.servers
    # Each server holds a side of each dialogue, so that whichever server is back first has the other's sockets to
    # judge by a lease nobody could renew.
    one, two = await pair(faults, 2, a.url)
    worker1, expert1 = room(faults, a, one.dialogue, one.worker, "w1"), room(faults, b, one.dialogue, one.expert, "e1")
    worker2, expert2 = room(faults, b, two.dialogue, two.worker, "w2"), room(faults, a, two.dialogue, two.expert, "e2")
    rooms = [worker1, expert1, worker2, expert2]
    await asyncio.gather(*(r.start() for r in rooms))
    experts = [asyncio.create_task(play_expert(expert)) for expert in (expert1, expert2)]
    try:
        await asyncio.gather(both_in(worker1, expert1), both_in(worker2, expert2))
        await asyncio.gather(ask(worker1, "Before the restart"), ask(worker2, "Before the restart"))
        new_worker, new_expert = faults.new_people()
        cookies = await asyncio.gather(
            asyncio.to_thread(login, a.url, new_worker, PASSWORD), asyncio.to_thread(login, b.url, new_expert, PASSWORD)
        )

        # A restart between two messages: every server process still holds its old, now dead, connections.
        await asyncio.to_thread(faults.cluster.restart)
        await asyncio.gather(ask(worker1, "Right after the restart"), ask(worker2, "Right after the restart"))
        assert [r.reconnects for r in rooms] == [0, 0, 0, 0], "a restart between two messages dropped a socket"

        # Down for longer than a server lease while a question is sent: nothing can be stored, no lease renewed. The
        # question waits in the client (unacked) and goes again once the database is back; the second dialogue idles.
        await asyncio.to_thread(faults.cluster.stop)
        down_since = time.monotonic()
        try:
            sent = worker1.frames_sent
            question = asyncio.create_task(ask(worker1, "While the database is down"))
            await until(lambda: worker1.frames_sent > sent, "the question sent")
            # The outage is the fault: it lasts past a lease, so that every lease is stale when it ends.
            await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down_since)))
        finally:
            await asyncio.to_thread(faults.cluster.start)
        await question
        for dialogue in (one.dialogue, two.dialogue):
            await _settled(faults, dialogue)

        # The lobby goes on.
        paired = await asyncio.gather(
            lobby_wait(a.url, cookies[0], timeout=WAIT), lobby_wait(b.url, cookies[1], leave_after=True, timeout=WAIT)
        )
        assert paired[0] == paired[1]
        new_rooms = [room(faults, a, paired[0], cookies[0], "w3"), room(faults, b, paired[0], cookies[1], "e3")]
        rooms += new_rooms
        await asyncio.gather(*(r.start() for r in new_rooms))
        end, answered = await asyncio.gather(play_worker(new_rooms[0], questions=1), play_expert(new_rooms[1]))
        assert (end["status"], answered) == ("completed", 1)

        # Both dialogues were kept through it all, and go on to the end.
        await ask(worker2, "After the outage")
        ends = await asyncio.gather(finish(worker1), finish(worker2))
        assert [end["status"] for end in ends] == ["completed", "completed"]
        assert await asyncio.gather(*experts) == [3, 3]
        assert_delivered(faults, one.dialogue, worker1, expert1, 3)
        assert_delivered(faults, two.dialogue, worker2, expert2, 3)
        assert_delivered(faults, paired[0], *new_rooms, 1)
    finally:
        for task in experts:
            task.cancel()
        await asyncio.gather(*(r.close() for r in rooms), return_exceptions=True)
