"""Statements per pair: a crowd arriving at once costs the same per pair whatever its size (issue 41's pairing aim)."""

import time
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.models import Goal
from dialogs import lobby, presence
from dialogs.models import Dialogue, LiveSocket
from dialogs.selectors import lobby_overview, lobby_status
from tests.builders import expert_named, worker_named

pytestmark = pytest.mark.django_db


@pytest.fixture
def goals(demo_databases):
    from annotation.demo import demo_load

    demo_load()
    return list(Goal.objects.all())


def _pair_all(workers, experts, *, burst: bool = False) -> Counter:
    """What the sockets do for each pair (dialogs.consumers), counted by step: the experts' desks open and they say
    they are ready, then each worker's lobby socket opens and joins; every person's lobby socket closes once paired
    and their room socket opens. Each join runs its own pairing pass (the desk's form, or joins far apart), or with
    `burst` the workers all join before one pass pairs them (a crowd arriving at once on a lobby socket's join:
    dialogs.consumers._PairingPasses)."""
    steps = Counter()

    def step(name, call, **kwargs):
        with CaptureQueriesContext(connection) as captured:
            call(**kwargs)
        steps[name] += len(captured.captured_queries)

    for person in experts + workers:
        step("lobby socket", presence.socket_opened, channel_name=f"l{person.pk}", person_id=person.pk, kind="lobby")
        step("join", lobby.lobby_enter, person=person, pair=not (burst and person in workers))
    if burst:
        step("pairing pass", lobby.lobby_pair)
    step("overview", lambda: [lobby_status(p, overview) for overview in [lobby_overview()] for p in workers])
    for dialogue in Dialogue.objects.filter(worker__in=workers).select_related("worker", "expert"):
        for person, side in ((dialogue.worker, "worker"), (dialogue.expert, "expert")):
            step("lobby socket closed", presence.socket_closed, channel_name=f"l{person.pk}")
            step("room socket", presence.room_socket_opened, channel_name=f"r{person.pk}", person=person,
                 dialogue=dialogue, side=side)  # fmt: skip
    return steps


def _per_pair(prefix, *, burst: bool = False) -> dict:
    per_pair = {}
    for n in (2, 8):
        workers = [worker_named(f"{prefix}{n}w{i}") for i in range(n)]
        experts = [expert_named(f"{prefix}{n}e{i}") for i in range(n)]
        steps = _pair_all(workers, experts, burst=burst)
        assert Dialogue.objects.filter(worker__in=workers, status="active").count() == n  # everyone paired and in
        per_pair[n] = {name: count / n for name, count in steps.items() if name != "overview"}
        # One overview serves every lobby socket's status (its five reads whatever the crowd).
        assert steps["overview"] == 5
        LiveSocket.objects.all().delete()
        for person in workers + experts:  # nor these: a later test's background loop must not vouch for them
            for name in (f"l{person.pk}", f"r{person.pk}"):
                presence.socket_forget(channel_name=name)
    return per_pair


def test_statements_per_pair_do_not_grow_with_the_crowd(goals, settings, monkeypatch):
    settings.EXPERT_MAX_DIALOGUES = 1
    presence.server_heartbeat()  # this server's lease, as its background loop keeps it
    # ... renewed a moment ago and committed (the test's transaction never commits): no socket renews it again.
    monkeypatch.setattr(presence, "_lease_fresh", lambda: True)
    per_pair = _per_pair("pq")
    # The same statements per pair for a crowd four times the size, and no more than measured (51 on 29 Nov, SQLite
    # in a test transaction: savepoints for PostgreSQL's BEGIN and COMMIT, but for a lobby socket's closing, which
    # takes none inside a room socket's closing and so shows none here, where a server sends its BEGIN and COMMIT:
    # 4 more per pair; 63, 105, 72, 71, then 67 before).
    assert per_pair[8] == per_pair[2], per_pair
    assert sum(per_pair[8].values()) <= 51, per_pair
    # A room socket opening reads whether each side has joined in its locked read of the dialogue
    # (room.dialogue_presence), and its presence and join take no savepoint inside the socket row's transaction: 13
    # for the pair's two room sockets (21 with the two savepoints each, 25 when the joins and roles were read apart).
    assert per_pair[8]["room socket"] <= 13, per_pair
    assert per_pair[8]["lobby socket closed"] <= 4, per_pair


def test_a_burst_of_joins_is_paired_in_one_pass_whose_statements_per_pair_shrink_with_the_crowd(
    goals, settings, monkeypatch
):
    settings.EXPERT_MAX_DIALOGUES = 1
    presence.server_heartbeat()
    monkeypatch.setattr(presence, "_lease_fresh", lambda: True)
    per_pair = _per_pair("pb", burst=True)
    # The pass reads the experts, the queue and the goals once for the whole burst: per pair it costs less for a
    # bigger crowd, and only its writes (the dialogue, the entry) and the goal's row grow with it.
    assert per_pair[8]["pairing pass"] < per_pair[2]["pairing pass"], per_pair
    # Measured on 29 Nov (SQLite in a test transaction): the pass 9.5 per pair for 2, 4.75 for 8; 40.75 in all for 8
    # (52.75 with the room sockets' savepoints, 56.75 before their joins were read with the lock), where a pass per
    # join is 51.
    assert per_pair[8]["pairing pass"] <= 4.75, per_pair
    assert sum(per_pair[8].values()) <= 40.75, per_pair


def test_a_socket_renews_the_lease_only_when_the_last_renewal_is_not_fresh(db, monkeypatch):
    person = worker_named("leaseholder")

    def lease_updates(channel_name):
        with CaptureQueriesContext(connection) as captured:
            presence.socket_opened(channel_name=channel_name, person_id=person.pk, kind="lobby")
        return sum("serverlease" in query["sql"] for query in captured.captured_queries)

    try:
        monkeypatch.setattr(presence, "_lease_renewed", [time.monotonic()])  # the background loop renewed it just now
        assert lease_updates("lease-fresh") == 0
        monkeypatch.setattr(presence, "_lease_renewed", [float("-inf")])  # never, or longer ago than half a heartbeat
        assert lease_updates("lease-stale") >= 1
    finally:
        # This process holds no such sockets: a later test's background loop must not vouch for them.
        for name in ("lease-fresh", "lease-stale"):
            presence.socket_forget(channel_name=name)


async def test_joins_arriving_during_a_pass_share_the_next_pass(monkeypatch):
    """dialogs.consumers._PairingPasses: every join is served by a pass that started after it asked, and the joins
    that ask while a pass runs share one more pass, whatever their number."""
    import asyncio

    from dialogs import consumers

    started, release = [], asyncio.Event()

    async def a_pass():
        started.append(len(asked))
        await release.wait()

    monkeypatch.setattr(consumers, "database_call", lambda function: a_pass)
    passes = consumers._PairingPasses()
    asked = []

    async def join(name):
        asked.append(name)
        await passes.request()
        return len(started)

    first = asyncio.ensure_future(join("first"))
    while not started:  # the first pass is under way
        await asyncio.sleep(0)
    later = [asyncio.ensure_future(join(f"later{i}")) for i in range(5)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert started == [1]  # the later joins wait for the pass under way to end, then share one
    release.set()
    assert await first in (1, 2)  # the first pass, or the second if it began before the first join woke
    assert set(await asyncio.gather(*later)) == {2}
    assert started == [1, 6]  # the second pass started once every later join had asked


def test_a_room_sockets_opening_and_closing_take_one_transaction_each_and_no_savepoint_inside(goals, monkeypatch):
    """The socket's row, its side's presence and the side's join are one transaction (one savepoint here, inside the
    test's own transaction: a BEGIN and COMMIT on a server), nothing nested costing two round trips more."""
    monkeypatch.setattr(presence, "_lease_fresh", lambda: True)
    worker, expert = worker_named("sp-w"), expert_named("sp-e")
    dialogue = Dialogue.objects.create(
        database=goals[0].database, goal=goals[0], worker=worker, expert=expert, status="waiting"
    )
    try:
        for call in (
            lambda: presence.room_socket_opened(channel_name="sp-r", person=worker, dialogue=dialogue, side="worker"),
            lambda: presence.room_socket_closed(channel_name="sp-r", person=worker, dialogue=dialogue),
        ):
            with CaptureQueriesContext(connection) as captured:
                call()
            savepoints = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SAVEPOINT")]
            assert len(savepoints) == 1, captured.captured_queries
        assert dialogue.events.filter(kind="join").count() == 1
    finally:
        presence.socket_forget(channel_name="sp-r")
