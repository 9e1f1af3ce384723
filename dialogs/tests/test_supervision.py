"""A supervisor watches a live room and acts on it: who may, what the socket refuses, and what the acts leave in the
log, the lobby and the participants' screens."""

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Permission
from django.urls import reverse

from annotation.people.roles import can
from dialogs import lobby, room
from dialogs.models import Dialogue, DialogueStatus, EventKind, LiveSocket, LobbyEntry
from dialogs.visibility import event_view
from tests.builders import dorm_dialogue, expert_named, expert_ready, worker_named
from tests.sockets import connect, enter, is_event, is_message, receive_until, refused_with


def _granted(person):
    """`person` given the supervisor's grant (annotation.people.roles.GRANTS), as an admin does on the admin site."""
    person.user_permissions.add(Permission.objects.get(codename="supervise_rooms", content_type__app_label="dialogs"))
    return type(person).objects.get(pk=person.pk)  # a fresh object: Django caches permissions on the old one


@pytest.fixture
def goals(demo_databases):
    from annotation.demo import demo_load

    demo_load()


@pytest.fixture
def demo_admin(goals):
    """Ada, the admin the demo made (the root conftest's would take her name twice)."""
    from annotation.models import User

    return User.objects.get(username="ada")


def _paired(goals):
    """A worker paired from the queue with an expert, and both in the room: (dialogue, worker, expert)."""
    worker, expert = worker_named("wanda"), expert_named("xavier")
    lobby.lobby_join(person=worker)
    expert_ready(expert)
    (dialogue,) = lobby.lobby_pair()
    for person in (worker, expert):
        room.dialogue_presence(dialogue=dialogue, person=person, joined=True)
    dialogue.refresh_from_db()
    return dialogue, worker, expert


# --- Who may -------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_admins_supervise_and_the_grant_gives_an_expert_the_rooms_and_nothing_else(ada, erin, rita, alice):
    assert can(ada, "rooms.supervise")
    assert not can(erin, "rooms.supervise") and not can(rita, "rooms.supervise")
    supervisor = _granted(erin)
    assert can(supervisor, "rooms.supervise") and can(supervisor, "operations.watch")
    assert not can(supervisor, "people.manage") and not can(supervisor, "dataset.export")
    assert can(_granted(rita), "rooms.supervise")
    # Never a worker: the rooms show SQL.
    assert not can(_granted(alice), "rooms.supervise")
    supervisor.blocked = True
    assert not can(supervisor, "rooms.supervise")


@pytest.mark.django_db
def test_the_watch_page_walks_the_permission_matrix(client, demo_databases, ada, rita):
    dialogue, alice, erin = dorm_dialogue(demo_databases)
    url = reverse("dialogs:room_watch", kwargs={"dialogue_id": dialogue.pk})
    assert client.get(url).status_code == 302
    for person in (alice, erin, rita):  # the room's own participants watch nothing either
        client.force_login(person)
        assert client.get(url).status_code == 403, person.username
    for person in (ada, _granted(expert_named("sam"))):
        client.force_login(person)
        page = client.get(url)
        assert page.status_code == 200 and b"Act on this room" in page.content
        # The room's own address, which gave an admin a 403, now leads here.
        assert client.get(reverse("dialogs:room", kwargs={"dialogue_id": dialogue.pk})).url == url


@pytest.mark.django_db
def test_workers_never_see_the_watch_page_or_its_sql(client, demo_databases):
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    client.force_login(_granted(alice))
    response = client.get(reverse("dialogs:room_watch", kwargs={"dialogue_id": dialogue.pk}))
    assert response.status_code == 403 and b"SELECT" not in response.content


# --- Ending a room ---------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_ending_needs_a_reason_and_loses_nothing_without_one(client, goals, demo_admin):
    dialogue, _, _ = _paired(goals)
    client.force_login(demo_admin)
    url = reverse("dialogs:room_watch", kwargs={"dialogue_id": dialogue.pk})
    before = dialogue.last_seq
    response = client.post(url, {"action": "end", "reason": "   "})
    assert response.status_code == 200 and b"This field is required." in response.content
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ACTIVE and dialogue.last_seq == before


@pytest.mark.django_db
def test_a_supervisor_ends_a_stuck_room_and_the_log_keeps_who_and_why(client, goals, demo_admin):
    dialogue, worker, expert = _paired(goals)
    client.force_login(demo_admin)
    url = reverse("dialogs:room_watch", kwargs={"dialogue_id": dialogue.pk})
    response = client.post(url, {"action": "end", "reason": "The expert's screen froze."}, follow=True)
    assert b"is ended" in response.content and b"there is nothing to act on" in response.content
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ABANDONED and dialogue.completion_code
    end = dialogue.events.get(kind=EventKind.END)
    assert (end.author, end.author_role) == (demo_admin, "supervisor")
    assert end.payload["reason"] == "The expert's screen froze." and end.payload["supervisor"] == "ada"
    # The worker is told why and keeps their code, without learning who the supervisor is.
    assert event_view(end, "worker")["payload"] == {
        "status": "abandoned",
        "completion_code": dialogue.completion_code,
        "reason": "The expert's screen froze.",
    }
    assert event_view(end, "expert")["payload"]["supervisor"] == "ada"
    # A second act on the ended room is refused, with the reason, and adds nothing.
    again = client.post(url, {"action": "requeue", "reason": "Twice"})
    assert b"This dialogue has ended." in again.content
    assert dialogue.events.filter(kind=EventKind.END).count() == 1
    assert not LobbyEntry.objects.filter(person=worker, outcome=LobbyEntry.Outcome.WAITING).exists()


@pytest.mark.django_db
def test_an_expert_without_the_grant_cannot_end_a_room_through_the_service(goals):
    dialogue, _, _ = _paired(goals)
    with pytest.raises(room.DialogueError) as refused:
        room.dialogue_supervise_end(dialogue=dialogue, supervisor=expert_named("sam"), reason="Not mine to end")
    assert refused.value.code == "forbidden"
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ACTIVE


# --- Sending the worker back to the queue ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_worker_goes_back_to_the_queue_in_their_place_and_is_paired_again(client, goals, demo_admin):
    dialogue, worker, expert = _paired(goals)
    queued_at = LobbyEntry.objects.get(dialogue=dialogue).joined_at
    later = worker_named("later")
    lobby.lobby_join(person=later)  # came after: must stay behind
    client.force_login(demo_admin)
    url = reverse("dialogs:room_watch", kwargs={"dialogue_id": dialogue.pk})
    client.post(url, {"action": "requeue", "reason": "The expert stopped answering."})
    dialogue.refresh_from_db()
    assert dialogue.status == DialogueStatus.ABANDONED and dialogue.completion_code == ""
    end = dialogue.events.get(kind=EventKind.END)
    assert end.author == demo_admin and end.payload["requeued"] is True
    assert event_view(end, "worker")["payload"]["reason"] == "The expert stopped answering."
    entry = LobbyEntry.objects.get(person=worker, outcome=LobbyEntry.Outcome.WAITING)
    assert entry.joined_at == queued_at
    # The stuck expert is out of the lobby; the next ready expert takes the worker first, on another goal.
    assert not LobbyEntry.objects.filter(person=expert, outcome=LobbyEntry.Outcome.WAITING).exists()
    expert_ready(expert_named("yara"))
    (again,) = lobby.lobby_pair()
    assert again.worker == worker and again.goal_id != dialogue.goal_id
    assert LobbyEntry.objects.filter(person=later, outcome=LobbyEntry.Outcome.WAITING).exists()


# --- The watching socket -----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_only_a_supervisor_opens_a_rooms_watching_socket(demo_databases, rita, ada):
    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    path = f"/ws/manage/live/rooms/{dialogue.pk}/"
    assert await refused_with(path) == 4401
    for person in (alice, erin, rita):
        assert await refused_with(path, person) == 4403, person.username
    assert await refused_with("/ws/manage/live/rooms/999999/", ada) == 4404


@pytest.mark.django_db(transaction=True)
async def test_the_supervisor_sees_the_experts_view_live_and_can_send_nothing(demo_databases, ada):
    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    watch, connected, _ = await connect(f"/ws/manage/live/rooms/{dialogue.pk}/", ada)
    assert connected
    await watch.send_json_to({"type": "hello", "last_seq": 0})
    state = await receive_until(watch, is_message("state"))
    assert state["role"] == "supervisor" and "goal_sql" in state
    assert state["worker_connected"] is True and state["expert_connected"] is True

    await worker_ws.send_json_to({"type": "utterance", "id": "q1", "text": "How many students are there?"})
    question = await receive_until(watch, is_event("utterance"))
    await expert_ws.send_json_to({"type": "sql_run", "id": "r1", "turn": question["seq"], "sql": "SELECT 1"})
    run = await receive_until(watch, is_event("sql_run"))
    assert run["payload"]["sql"] == "SELECT 1"  # the expert's view: SQL included

    before = await database_sync_to_async(lambda: Dialogue.objects.get(pk=dialogue.pk).last_seq)()
    frames = [
        {"type": "utterance", "id": "w1", "text": "Hello"},
        {"type": "sql_run", "id": "w2", "turn": question["seq"], "sql": "SELECT 2"},
        {"type": "response", "id": "w3", "turn": question["seq"], "text": "Hi", "acts": ["INFORM_SQL"]},
        {"type": "end", "id": "w4"},
        {"type": "terminate", "id": "w5", "reason": "no"},
        {"type": "typing"},
    ]
    for frame in frames:
        await watch.send_json_to(frame)
        refusal = await receive_until(watch, is_message("error"))
        assert refusal["code"] == "watching", frame["type"]
    after = await database_sync_to_async(lambda: Dialogue.objects.get(pk=dialogue.pk).last_seq)()
    assert after == before

    # No side of the room: no presence row, no join, and the expert's presence is the expert's sockets alone.
    def sides():
        return list(LiveSocket.objects.filter(dialogue=dialogue).order_by("side").values_list("side", flat=True))

    assert await database_sync_to_async(sides)() == ["expert", "worker"]
    joins = await database_sync_to_async(
        lambda: list(dialogue.events.filter(kind=EventKind.JOIN).values_list("author_role", flat=True))
    )()
    assert sorted(joins) == ["expert", "worker"]
    await expert_ws.disconnect()
    gone = await receive_until(watch, is_message("presence", side="expert"))
    assert gone["state"] == "reconnecting"
    assert await database_sync_to_async(room.partner_connected)(dialogue, "worker") is False
    await watch.disconnect()
    await worker_ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_both_sides_are_told_when_a_supervisor_ends_the_room(demo_databases, ada):
    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    await database_sync_to_async(room.dialogue_supervise_end)(
        dialogue=dialogue, supervisor=ada, reason="Stuck for ten minutes."
    )
    told = await receive_until(worker_ws, is_event("end"))
    code = await database_sync_to_async(lambda: Dialogue.objects.get(pk=dialogue.pk).completion_code)()
    assert told["author_role"] == "supervisor"
    assert told["payload"] == {"status": "abandoned", "completion_code": code, "reason": "Stuck for ten minutes."}
    state = await receive_until(worker_ws, is_message("state"))
    assert state["status"] == "abandoned" and state["completion_code"] == code
    expert_told = await receive_until(expert_ws, is_event("end"))
    assert expert_told["payload"]["supervisor"] == "ada"
    await worker_ws.disconnect()
    await expert_ws.disconnect()
