"""Presence after a server stops, ghost lobby entries, experts who never join, and housekeeping with nobody online.

Time is moved by passing `now`, never waited for."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from dialogs import lobby, presence, room
from dialogs.models import Dialogue, DialogueStatus, EventKind, LiveSocket, LobbyEntry, ServerLease
from tests.builders import expert_named, expert_ready, worker_named

pytestmark = pytest.mark.django_db


@pytest.fixture
def goals(demo_databases):
    from annotation.demo import demo_load

    demo_load()


def _room(goals):
    worker, expert = worker_named("w1"), expert_named("x1")
    lobby.lobby_join(person=worker)
    expert_ready(expert, server_id="server-a")
    (dialogue,) = lobby.lobby_pair()
    for person, side in ((worker, "worker"), (expert, "expert")):
        presence.socket_opened(
            channel_name=f"room-{side}", person_id=person.pk, kind="room", dialogue_id=dialogue.pk, side=side,
            server_id="server-a",
        )  # fmt: skip
        room.dialogue_presence(dialogue=dialogue, person=person, joined=True)
    dialogue.refresh_from_db()
    return dialogue, worker, expert


def test_a_stopped_servers_room_sockets_leave_and_the_dialogue_is_abandoned_after_the_grace(goals, settings):
    dialogue, worker, expert = _room(goals)
    assert dialogue.status == DialogueStatus.ACTIVE
    now = timezone.now()
    # Server A stops without a word (kill -9, or SIGTERM: Daphne does not close its consumers).
    later = now + timedelta(seconds=settings.SERVER_LEASE_SECONDS + 1)
    report = presence.servers_reap(now=later)
    assert report.reaped_servers == ["server-a"] and len(report.left_rooms) == 2
    assert not LiveSocket.objects.exists() and not ServerLease.objects.exists()
    assert room.side_connections(dialogue, "worker")[0] == 0
    # The expert comes back on another server within the grace; the worker never does.
    presence.socket_opened(
        channel_name="room-expert-2", person_id=expert.pk, kind="room", dialogue_id=dialogue.pk, side="expert",
        server_id="server-b",
    )  # fmt: skip
    room.dialogue_presence(dialogue=dialogue, person=expert, joined=True)
    presence.housekeeping(now=later + timedelta(seconds=1))
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ACTIVE  # still within the grace
    ServerLease.objects.filter(pk="server-b").update(seen_at=timezone.now() + timedelta(days=1))
    presence.housekeeping(now=timezone.now() + timedelta(seconds=settings.PRESENCE_GRACE_SECONDS + 5))
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ABANDONED
    assert dialogue.events.filter(kind=EventKind.END).get().payload["status"] == DialogueStatus.ABANDONED


def test_a_socket_that_closes_and_a_reap_record_one_leave_between_them(goals, settings):
    dialogue, worker, _ = _room(goals)
    assert presence.socket_closed(channel_name="room-worker") is True
    assert presence.socket_closed(channel_name="room-worker") is False  # the consumer records the leave once
    report = presence.servers_reap(now=timezone.now() + timedelta(seconds=settings.SERVER_LEASE_SECONDS + 1))
    assert len(report.left_rooms) == 1  # only the expert's socket was still open


def test_a_live_servers_sockets_are_left_alone(goals):
    _room(goals)
    presence.server_heartbeat(server_id="server-a")
    assert presence.servers_reap().reaped_servers == []
    assert LiveSocket.objects.count() == 3  # the two room sockets and the expert's desk


def test_a_ghost_expert_in_the_lobby_expires_after_the_reconnection_grace(goals, settings):
    expert = expert_named("ghost")
    lobby.lobby_join(person=expert)
    presence.socket_opened(channel_name="lobby-1", person_id=expert.pk, kind="lobby", server_id="server-a")
    now = timezone.now()
    presence.socket_closed(channel_name="lobby-1", now=now)  # the tab closed
    assert presence.lobby_expire_disconnected(now=now + timedelta(seconds=1)) == []  # a reload comes back in time
    presence.socket_opened(channel_name="lobby-2", person_id=expert.pk, kind="lobby", server_id="server-a")
    assert LobbyEntry.objects.get(person=expert, outcome="waiting").disconnected_at is None
    presence.socket_closed(channel_name="lobby-2", now=now)
    grace = timedelta(seconds=settings.LOBBY_RECONNECT_GRACE_SECONDS + 1)
    (expired,) = presence.lobby_expire_disconnected(now=now + grace)
    assert expired.person == expert and expired.outcome == LobbyEntry.Outcome.LEFT
    worker = worker_named("later")
    lobby.lobby_join(person=worker)
    assert lobby.lobby_pair() == []  # nobody is paired with the ghost


def test_a_lobby_entry_on_a_stopped_server_expires_too(goals, settings):
    expert = expert_named("crashed")
    lobby.lobby_join(person=expert)
    presence.socket_opened(channel_name="lobby-1", person_id=expert.pk, kind="lobby", server_id="server-a")
    later = timezone.now() + timedelta(seconds=settings.SERVER_LEASE_SECONDS + 1)
    presence.housekeeping(now=later)
    assert LobbyEntry.objects.get(person=expert).outcome == "waiting"  # the grace starts now
    presence.housekeeping(now=later + timedelta(seconds=settings.LOBBY_RECONNECT_GRACE_SECONDS + 1))
    assert LobbyEntry.objects.get(person=expert).outcome == LobbyEntry.Outcome.LEFT


def test_a_dialogue_whose_expert_never_joins_goes_back_to_the_queue_worker_first(goals, settings):
    first, second = worker_named("first"), worker_named("second")
    expert = expert_named("absent")
    lobby.lobby_join(person=first)
    expert_ready(expert)
    (dialogue,) = lobby.lobby_pair()
    lobby.lobby_join(person=second)
    room.dialogue_presence(dialogue=dialogue, person=first, joined=True)
    late = timezone.now() + timedelta(seconds=settings.EXPERT_JOIN_LIMIT_SECONDS + 1)
    report = presence.housekeeping(now=late)
    assert [d.pk for d in report.released_dialogues] == [dialogue.pk]
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ABANDONED and dialogue.incomplete
    end = dialogue.events.get(kind=EventKind.END)
    assert end.payload["requeued"] is True
    waiting = list(LobbyEntry.objects.filter(outcome="waiting").order_by("joined_at", "id"))
    assert [entry.person for entry in waiting] == [first, second]
    assert not LobbyEntry.objects.filter(person=expert, outcome="waiting").exists()
    # A new expert takes the first worker first.
    other = expert_named("present")
    expert_ready(other)
    (again,) = lobby.lobby_pair()
    assert again.worker == first


def test_a_dialogue_the_expert_joined_is_not_released(goals, settings):
    dialogue, _, _ = _room(goals)
    late = timezone.now() + timedelta(seconds=settings.EXPERT_JOIN_LIMIT_SECONDS + 1)
    ServerLease.objects.update(seen_at=late)
    assert presence.dialogues_release_unjoined(now=late) == []
    assert Dialogue.objects.get(pk=dialogue.pk).status == DialogueStatus.ACTIVE


def test_housekeeping_runs_as_a_celery_task_with_nobody_online(goals, settings):
    from dialogs.tasks import housekeeping

    worker = worker_named("patient")
    lobby.lobby_join(person=worker)
    LobbyEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=settings.LOBBY_WAIT_LIMIT_SECONDS + 1))
    presence.socket_opened(channel_name="lobby-1", person_id=worker.pk, kind="lobby", server_id="server-a")
    result = housekeeping.apply().get()  # the task itself, in this process (beat sends it to a worker)
    assert result["timed_out"] == 1
    entry = LobbyEntry.objects.get(person=worker)
    assert entry.outcome == LobbyEntry.Outcome.TIMED_OUT and entry.completion_code


# --- The sockets keep the records --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_room_socket_is_a_live_record_and_its_side_goes_once(demo_databases):
    from channels.db import database_sync_to_async

    from tests.builders import dorm_dialogue
    from tests.sockets import enter

    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    worker_ws, _ = await enter(dialogue, alice)
    sockets = await database_sync_to_async(lambda: list(LiveSocket.objects.values_list("kind", "side", "person_id")))()
    assert sockets == [("room", "worker", alice.pk)]
    await worker_ws.disconnect()

    def gone_at():
        dialogue.refresh_from_db()
        return dialogue.worker_gone_at

    left_at = await database_sync_to_async(gone_at)()
    assert left_at is not None
    assert not await database_sync_to_async(LiveSocket.objects.exists)()
    # The server is then taken for stopped: nothing is left to reap, and the side went once.
    later = timezone.now() + timedelta(days=1)
    await database_sync_to_async(presence.servers_reap)(now=later)
    assert await database_sync_to_async(gone_at)() == left_at
    # Going is presence, not history: the log holds the join only.
    kinds = await database_sync_to_async(lambda: list(dialogue.events.values_list("kind", flat=True)))()
    assert kinds == [EventKind.JOIN]


@pytest.mark.django_db(transaction=True)
async def test_closing_the_lobby_tab_starts_the_reconnection_grace(demo_databases):
    from channels.db import database_sync_to_async

    from tests.sockets import connect, is_message, receive_until

    expert = await database_sync_to_async(expert_named)("tabber")
    communicator, connected, _ = await connect("/ws/lobby/", expert)
    assert connected
    await communicator.send_json_to({"type": "join"})
    await receive_until(communicator, is_message("status", ready=True))
    entry = await database_sync_to_async(LobbyEntry.objects.get)(person=expert, outcome="waiting")
    assert entry.disconnected_at is None
    await communicator.disconnect()
    entry = await database_sync_to_async(LobbyEntry.objects.get)(pk=entry.pk)
    assert entry.disconnected_at is not None and entry.outcome == "waiting"


@pytest.mark.django_db(transaction=True)
async def test_a_server_process_renews_its_lease_from_its_first_request():
    import asyncio

    from channels.db import database_sync_to_async
    from channels.testing import HttpCommunicator

    from dialogs.background import BackgroundLoop

    async def inner(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    app = BackgroundLoop(inner)
    response = await HttpCommunicator(app, "GET", "/healthz").get_response()
    assert response["status"] == 200
    for _ in range(200):  # the loop's first round runs as soon as the request has started it
        if await database_sync_to_async(ServerLease.objects.filter(pk=presence.SERVER_ID).exists)():
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(ServerLease.objects.filter(pk=presence.SERVER_ID).exists)()
    app.task.cancel()


def test_the_worker_is_told_they_are_requeued(goals, settings):
    from dialogs.visibility import event_view

    worker, expert = worker_named("told"), expert_named("away")
    lobby.lobby_join(person=worker)
    expert_ready(expert)
    (dialogue,) = lobby.lobby_pair()
    presence.dialogues_release_unjoined(now=timezone.now() + timedelta(seconds=settings.EXPERT_JOIN_LIMIT_SECONDS + 1))
    end = dialogue.events.get(kind=EventKind.END)
    assert event_view(end, "worker")["payload"] == {
        "status": "abandoned",
        "completion_code": "",
        "requeued": True,
        "reason": "The expert did not join. You are back in the queue, first in line.",
    }


# --- Presence is transient: reconnects leave the log alone ---------------------------------------------------------

MINUTE_START = datetime(2026, 11, 25, 10, 0, 0, tzinfo=UTC)


def _open_room(goals):
    """Alice's and Erin's room sockets open on this server, as their consumers open them."""
    dialogue, worker, expert = _room_unjoined(goals)
    for person, side in ((worker, "worker"), (expert, "expert")):
        presence.room_socket_opened(channel_name=f"room-{side}", person=person, dialogue=dialogue, side=side)
    return dialogue, worker, expert


def _room_unjoined(goals):
    worker, expert = worker_named("w1"), expert_named("x1")
    lobby.lobby_join(person=worker)
    expert_ready(expert)
    (dialogue,) = lobby.lobby_pair()
    return dialogue, worker, expert


def _kinds(dialogue):
    return list(dialogue.events.order_by("seq").values_list("kind", flat=True))


def test_a_side_back_within_the_grace_keeps_the_dialogue_and_the_log_keeps_only_the_joins(goals, settings):
    import time_machine

    dialogue, worker, _ = _open_room(goals)
    assert dialogue.status == DialogueStatus.ACTIVE and _kinds(dialogue) == ["join", "join"]
    grace = timedelta(seconds=settings.PRESENCE_GRACE_SECONDS)
    with time_machine.travel(MINUTE_START, tick=False) as clock:
        # Alice's line drops: her side is gone from now on, which the log does not hear of.
        went = presence.room_socket_closed(channel_name="room-worker", person=worker, dialogue=dialogue)
        assert _kinds(dialogue) == ["join", "join"]
        assert (went.side, went.present, went.changed) == ("worker", False, True)
        assert room.side_connections(dialogue, "worker") == (0, MINUTE_START)
        clock.shift(grace / 2)
        back = presence.room_socket_opened(
            channel_name="room-worker-2", person=worker, dialogue=dialogue, side="worker"
        )
        assert (back.present, back.changed, back.event) == (True, True, None)
        clock.shift(grace)
        presence.server_heartbeat()  # this server's background loop, alive all along
        presence.housekeeping()
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ACTIVE and dialogue.worker_gone_at is None
    assert _kinds(dialogue) == ["join", "join"]
    presence.room_socket_closed(channel_name="room-worker-2", person=worker, dialogue=dialogue)
    presence.socket_closed(channel_name="room-expert")


def test_a_side_that_leaves_for_good_is_abandoned_after_the_grace_with_one_leave(goals, settings):
    import time_machine

    dialogue, worker, expert = _open_room(goals)
    grace = timedelta(seconds=settings.PRESENCE_GRACE_SECONDS)
    with time_machine.travel(MINUTE_START, tick=False) as clock:
        presence.room_socket_closed(channel_name="room-worker", person=worker, dialogue=dialogue)
        clock.shift(grace - timedelta(seconds=1))
        presence.server_heartbeat()  # this server's background loop, alive all along: Erin is still in
        assert presence.housekeeping().abandoned_dialogues == []
        clock.shift(timedelta(seconds=2))
        presence.server_heartbeat()
        (abandoned,) = presence.housekeeping().abandoned_dialogues
    assert abandoned.pk == dialogue.pk
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ABANDONED
    # The release keeps who was there and when the worker left for good, just before the end it caused.
    assert _kinds(dialogue) == ["join", "join", "leave", "end"]
    leave, end = dialogue.events.order_by("seq")[2:]
    assert (leave.author, leave.author_role, leave.payload) == (worker, "worker", {"left_at": MINUTE_START.isoformat()})
    assert end.payload["reason"] == "The worker left and did not return."
    presence.socket_closed(channel_name="room-expert")


def test_a_stopped_server_makes_a_side_gone_once_however_many_of_its_sockets_it_held(goals, settings):
    dialogue, worker, expert = _open_room(goals)
    presence.room_socket_opened(channel_name="room-worker-tab-2", person=worker, dialogue=dialogue, side="worker")
    LiveSocket.objects.update(server_id="server-a")
    presence.server_heartbeat(server_id="server-a")
    for name in ("room-worker", "room-worker-tab-2", "room-expert"):
        presence.socket_forget(channel_name=name)
    report = presence.servers_reap(now=timezone.now() + timedelta(seconds=settings.SERVER_LEASE_SECONDS + 1))
    assert sorted((change.side, change.state) for change in report.left_rooms) == [
        ("expert", "reconnecting"),
        ("worker", "reconnecting"),
    ]
    assert _kinds(dialogue) == ["join", "join"]


async def _drain(communicator, dialogue) -> list[dict]:
    """Every frame the room socket has been sent so far. The end is marked by a sentinel sent to the room's group
    through the channel layer after everything before it was published (a ping's pong takes another path, and could
    overtake a presence frame still in the layer: it did on Redis)."""
    import json

    from channels.layers import get_channel_layer

    from dialogs.broadcast import dialogue_group

    sentinel = {"type": "dialogue.presence", "side": "sentinel", "state": "end-of-drain", "channel": "sentinel"}
    await get_channel_layer().group_send(dialogue_group(dialogue.pk), sentinel)
    frames = []
    while (frame := json.loads(await communicator.receive_from(timeout=5))).get("state") != "end-of-drain":
        frames.append(frame)
    return frames


@pytest.mark.django_db(transaction=True)
async def test_a_socket_reopened_150_times_in_a_row_adds_nothing_to_the_log_and_little_for_the_partner(
    demo_databases, settings
):
    import time_machine
    from channels.db import database_sync_to_async

    from tests.builders import dorm_dialogue
    from tests.sockets import connect, enter

    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    path = f"/ws/dialogues/{dialogue.pk}/"
    with time_machine.travel(MINUTE_START, tick=False):  # one minute throughout: the open limit counts by the minute
        expert_ws, _ = await enter(dialogue, erin)
        worker_ws, _ = await enter(dialogue, alice)
        await worker_ws.disconnect()
        await _drain(expert_ws, dialogue)  # the join and the presence so far
        log_before = await database_sync_to_async(_kinds)(dialogue)
        closes = []
        # Alice's page reconnects in a tight loop: it says hello, and closes as soon as it has an answer.
        for _ in range(150):
            communicator, connected, _ = await connect(path, alice)
            assert connected
            await communicator.send_json_to({"type": "hello", "last_seq": 0})
            answer = await communicator.receive_output(timeout=5)
            if answer["type"] == "websocket.close":
                closes.append(answer["code"])
            else:
                await communicator.disconnect()
        told = await _drain(expert_ws, dialogue)
        log_after = await database_sync_to_async(_kinds)(dialogue)
    accepted = 150 - len(closes)
    assert set(closes) == {4429} and accepted == settings.WS_OPENS_PER_MINUTE - 1  # her first socket counted too
    assert log_after == log_before == ["join", "join"]
    # One `presence` per change of Alice's state, each socket's open and close: nothing else, and never more.
    assert [frame["type"] for frame in told] == ["presence"] * (2 * accepted)
    assert [frame["state"] for frame in told[:2]] == ["connected", "reconnecting"]
    await expert_ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_second_tab_changes_nothing_for_the_partner(demo_databases):
    from channels.db import database_sync_to_async

    from tests.builders import dorm_dialogue
    from tests.sockets import enter

    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    expert_ws, _ = await enter(dialogue, erin)
    first_tab, _ = await enter(dialogue, alice)
    await _drain(expert_ws, dialogue)
    for _ in range(3):
        second_tab, _ = await enter(dialogue, alice)
        await second_tab.disconnect()
    assert await _drain(expert_ws, dialogue) == []
    assert await database_sync_to_async(_kinds)(dialogue) == ["join", "join"]
    await first_tab.disconnect()
    (gone,) = await _drain(expert_ws, dialogue)
    assert (gone["type"], gone["side"], gone["state"]) == ("presence", "worker", "reconnecting")
    await expert_ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_person_who_opens_sockets_too_often_is_told_to_come_back_later(demo_databases, settings):
    import time_machine
    from channels.db import database_sync_to_async

    from tests.builders import dorm_dialogue
    from tests.sockets import enter, refused_with

    settings.WS_OPENS_PER_MINUTE = 3
    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    with time_machine.travel(MINUTE_START + timedelta(seconds=5), tick=True) as clock:
        for _ in range(3):
            worker_ws, _ = await enter(dialogue, alice)
            await worker_ws.disconnect()
        # The fourth socket this minute, a room's or the lobby's, is closed with "try later", before it writes anything.
        assert await refused_with(f"/ws/dialogues/{dialogue.pk}/", alice) == 4429
        assert await refused_with("/ws/lobby/", alice) == 4429
        assert not await database_sync_to_async(LiveSocket.objects.exists)()
        # Erin is someone else: her sockets are counted apart.
        expert_ws, _ = await enter(dialogue, erin)
        clock.shift(timedelta(seconds=60))
        worker_ws, state = await enter(dialogue, alice)  # a minute later her page's retry gets in
        assert state["partner_connected"] is True
    await worker_ws.disconnect()
    await expert_ws.disconnect()


def _wait_for_a_lock_wait(failure: str) -> None:
    """Return once a statement of this database waits for a lock (PostgreSQL's pg_stat_activity); fail with
    `failure` after 30 s."""
    import time

    from django.db import connection

    deadline = time.monotonic() + 30
    with connection.cursor() as cursor:
        while True:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            assert time.monotonic() < deadline, failure


@pytest.mark.django_db(transaction=True)
def test_a_side_joining_while_its_partner_joins_reads_the_partners_join_once_it_has_the_lock(demo_databases):
    """Both sides' sockets opening at the same moment: the second waits for the first's row lock and then reads the
    join the first committed, so the dialogue becomes active (PostgreSQL read committed: a statement's snapshot is
    taken before it waits for a lock, so the joins are read after it, by a statement of their own)."""
    import threading

    from django.db import connection, connections, transaction

    from tests.builders import dorm_dialogue

    if connection.vendor != "postgresql":
        pytest.skip("the lock wait is PostgreSQL's: run through `tools/test_stack.py with-services -- pytest`")
    dialogue, alice, erin = dorm_dialogue(demo_databases)
    holding, release, errors = threading.Event(), threading.Event(), []

    def side(person, hold):
        try:
            with transaction.atomic():
                room.dialogue_presence(dialogue=Dialogue.objects.get(pk=dialogue.pk), person=person, joined=True)
                if hold:
                    holding.set()
                    release.wait()
        except Exception as error:  # noqa: BLE001 - reported by the test below
            errors.append(error)
        finally:
            connections.close_all()

    first = threading.Thread(target=side, args=(alice, True))
    first.start()
    assert holding.wait(30)
    second = threading.Thread(target=side, args=(erin, False))
    second.start()
    # The second socket's statement is waiting for the first's lock before the first commits.
    _wait_for_a_lock_wait("the second socket never waited for the lock")
    release.set()
    first.join()
    second.join()
    assert not errors, errors
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ACTIVE
    assert _kinds(dialogue) == ["join", "join"]


@pytest.mark.django_db(transaction=True)
def test_housekeeping_waiting_for_an_entry_a_socket_is_reopening_sees_that_socket(demo_databases, settings):
    """A lobby socket reopening (its row, then its entry's disconnection cleared) while housekeeping looks for
    waiting entries without a socket: housekeeping waits for the entry's lock and then sees the new socket, so the
    connected person's grace is not started (PostgreSQL read committed: the sockets are read again once the entries
    are locked, by a statement of its own)."""
    import threading

    from django.db import connection, connections, transaction

    if connection.vendor != "postgresql":
        pytest.skip("the lock wait is PostgreSQL's: run through `tools/test_stack.py with-services -- pytest`")
    worker = worker_named("reloading")
    lobby.lobby_join(person=worker)  # waiting, no socket yet: what housekeeping marks
    holding, release, errors = threading.Event(), threading.Event(), []

    def reopening():
        try:
            with transaction.atomic():
                LiveSocket.objects.create(channel_name="lobby-back", server_id="server-a", person=worker, kind="lobby")
                LobbyEntry.objects.filter(person=worker, outcome="waiting").update(disconnected_at=None)
                holding.set()
                release.wait()
        except Exception as error:  # noqa: BLE001 - reported by the test below
            errors.append(error)
        finally:
            connections.close_all()

    def housekeeping():
        try:
            presence.lobby_expire_disconnected()
        except Exception as error:  # noqa: BLE001 - reported by the test below
            errors.append(error)
        finally:
            connections.close_all()

    socket_thread = threading.Thread(target=reopening)
    socket_thread.start()
    assert holding.wait(30)
    housekeeping_thread = threading.Thread(target=housekeeping)
    housekeeping_thread.start()
    _wait_for_a_lock_wait("housekeeping never waited for the entry's lock")
    release.set()
    socket_thread.join()
    housekeeping_thread.join()
    assert not errors, errors
    assert LobbyEntry.objects.get(person=worker, outcome="waiting").disconnected_at is None
