"""A campaign day, through the real ASGI application: nobody waits for nothing, a block shuts every door at once, and
a frame the parser cannot read is refused with the socket left open (issue: a campaign day without a lost ending)."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotation.goals.services import goal_create
from annotation.people.services import person_create, person_set_blocked
from dialogs.models import Dialogue, LiveSocket
from tests.sockets import connect, enter, is_message, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# About 60 KB, under the frame limit, and deeper than Python's JSON parser recurses.
TOO_DEEP = "[" * 30_000 + "]" * 30_000


def _people(demo_databases):
    goal_create(database=demo_databases["dorm_demo"], question="How many students?", sql="SELECT count(*) FROM student")
    alice, _ = person_create(username="alice", role="worker", password="correct-horse-battery")
    alice.tutorial_passed_at = timezone.now()
    alice.save()
    erin, _ = person_create(username="erin", role="expert", password="correct-horse-battery")
    return alice, erin


@pytest.fixture
def people(demo_databases):
    return _people(demo_databases)


async def _lobby(person):
    ws, connected, _ = await connect("/ws/lobby/", person)
    assert connected
    await receive_until(ws, is_message("status"))
    return ws


def _post_ready(person):
    client = Client()
    client.force_login(person)
    return client.post(reverse("dialogs:expert_ready"), {"ready": "1"})


async def test_an_expert_who_stays_ready_over_the_form_is_paired_with_the_waiting_worker_at_once(people):
    alice, erin = people
    worker_ws = await _lobby(alice)
    await worker_ws.send_json_to({"type": "join"})
    await receive_until(worker_ws, lambda m: m["type"] == "status" and m.get("position") == 1)
    desk = await _lobby(erin)  # the desk page keeps a lobby socket open; the expert says "ready" with its form
    response = await database_sync_to_async(_post_ready)(erin)
    assert response.status_code == 302
    paired_worker = await receive_until(worker_ws, is_message("paired"))
    paired_expert = await receive_until(desk, is_message("paired"))
    assert paired_worker["dialogue"] == paired_expert["dialogue"]
    dialogue = await database_sync_to_async(Dialogue.objects.get)(pk=paired_worker["dialogue"])
    assert (dialogue.worker_id, dialogue.expert_id) == (alice.pk, erin.pk)
    await worker_ws.disconnect()
    await desk.disconnect()


async def test_an_expert_whose_tab_is_closed_is_not_paired_until_their_desk_opens_again(people):
    alice, erin = people
    desk = await _lobby(erin)
    await desk.send_json_to({"type": "join"})
    await receive_until(desk, lambda m: m["type"] == "status" and m.get("ready_experts") == 1)
    await desk.disconnect()  # the tab closes without "leave": the entry stays, within its reconnection grace
    worker_ws = await _lobby(alice)
    await worker_ws.send_json_to({"type": "join"})
    status = await receive_until(worker_ws, lambda m: m["type"] == "status" and m.get("position") == 1)
    assert status["ready_experts"] == 0
    assert not await database_sync_to_async(Dialogue.objects.exists)()
    # The expert comes back within the grace: their desk opening pairs the worker who waits.
    desk = await _lobby(erin)
    paired_worker = await receive_until(worker_ws, is_message("paired"))
    paired_expert = await receive_until(desk, is_message("paired"))
    assert paired_worker["dialogue"] == paired_expert["dialogue"]
    await worker_ws.disconnect()
    await desk.disconnect()


async def test_a_block_closes_every_open_socket_of_the_worker_at_once(room_with_lobby):
    dialogue, alice, erin, ada = room_with_lobby
    worker_ws, _ = await enter(dialogue, alice)
    lobby_ws = await _lobby(alice)
    await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "How many students are there?"})
    await receive_until(worker_ws, is_message("ack", id="u1"))
    await database_sync_to_async(person_set_blocked)(person=alice, blocked=True, reason="abusive", by=ada)
    for ws in (worker_ws, lobby_ws):
        closed = await _closed(ws)
        assert closed.get("code") == 4403
        await ws.disconnect()
    # Nothing more of theirs reaches the log: a new socket is refused too.
    worker_again, connected, _ = await connect(f"/ws/dialogues/{dialogue.pk}/", alice)
    if connected:
        assert (await worker_again.receive_output(timeout=5)).get("code") == 4403
    assert await database_sync_to_async(lambda: list(dialogue.events.values_list("kind", flat=True)))() == [
        "join",
        "utterance",
    ]
    assert not await database_sync_to_async(LiveSocket.objects.filter(person=alice).exists)()


async def _closed(ws) -> dict:
    """The close of a socket, skipping what was already on its way."""
    for _ in range(30):
        output = await ws.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output
    raise AssertionError("the socket was never closed")


@pytest.fixture
def room_with_lobby(demo_databases):
    alice, erin = _people(demo_databases)
    ada, _ = person_create(username="ada", role="admin", password="correct-horse-battery")
    goal = demo_databases["dorm_demo"].goals.first()
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    return dialogue, alice, erin, ada


@pytest.mark.parametrize("path", ["lobby", "room", "board"])
async def test_a_frame_nested_too_deeply_is_refused_and_the_socket_stays_open(room_with_lobby, path):
    dialogue, alice, erin, ada = room_with_lobby
    if path == "lobby":
        ws = await _lobby(alice)
    elif path == "room":
        ws, _ = await enter(dialogue, alice)
    else:
        ws, connected, _ = await connect("/ws/manage/live/", ada)
        assert connected
    await ws.send_to(text_data='{"id": "deep", "type": "utterance", "text": ' + TOO_DEEP + "}")
    refused = await receive_until(ws, is_message("error"))
    assert refused["code"] == "bad_json" and refused["id"] == "deep"
    await ws.send_to(text_data=TOO_DEEP)
    assert (await receive_until(ws, is_message("error")))["code"] == "bad_json"
    await ws.send_json_to({"type": "ping"})
    await receive_until(ws, is_message("pong"))
    await ws.disconnect()
