"""The websocket protocol (docs/protocol.md) through the real ASGI application, with WebsocketCommunicator."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from annotation.people.services import person_create
from dialogs import lobby
from dialogs.models import Dialogue, DialogueStatus, Event
from tests.builders import dorm_dialogue, expert_ready
from tests.sockets import (
    connect,
    enter,
    is_event,
    is_message,
    receive_until,
    refused_with,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def room(demo_databases):
    """A dialogue between Alice (worker) and Erin (expert) on the dormitory database."""
    return dorm_dialogue(demo_databases)


async def _answer_one_question(worker_ws, expert_ws, text, sql, number):
    await worker_ws.send_json_to({"type": "utterance", "id": f"u{number}", "text": text})
    ack = await receive_until(worker_ws, is_message("ack", id=f"u{number}"))
    turn = ack["seq"]
    await expert_ws.send_json_to({"type": "user_acts", "id": f"a{number}", "turn": turn, "acts": ["INFORM_SQL"]})
    await receive_until(expert_ws, is_message("ack", id=f"a{number}"))
    await expert_ws.send_json_to({"type": "sql_run", "id": f"r{number}", "turn": turn, "sql": sql})
    run = await receive_until(expert_ws, is_message("ack", id=f"r{number}"))
    await expert_ws.send_json_to({"type": "share_result", "id": f"s{number}", "turn": turn, "run": run["seq"]})
    await receive_until(expert_ws, is_message("ack", id=f"s{number}"))
    await expert_ws.send_json_to(
        {"type": "response", "id": f"p{number}", "turn": turn, "text": "Here you are.", "acts": ["CONFIRM_SQL"]}
    )
    await receive_until(expert_ws, is_message("ack", id=f"p{number}"))
    return turn


async def test_a_whole_dialogue_and_what_each_side_sees(room):
    dialogue, alice, erin = room
    worker_ws, worker_state = await enter(dialogue, alice)
    expert_ws, expert_state = await enter(dialogue, erin)
    assert worker_state["role"] == "worker" and "goal_sql" not in worker_state
    assert expert_state["goal_sql"]
    for number in range(1, 4):
        await _answer_one_question(worker_ws, expert_ws, f"Question {number}?", "SELECT count(*) FROM student", number)
    table = await receive_until(worker_ws, is_event("result_shared"))
    assert table["payload"]["columns"] and table["payload"]["rows"]
    assert "sql" not in json.dumps(table["payload"]).lower()
    await worker_ws.send_json_to({"type": "end", "id": "end"})
    await receive_until(worker_ws, is_message("ack", id="end"))
    ended = await receive_until(worker_ws, is_event("end"))
    assert ended["payload"]["completion_code"].startswith("WOZ-")
    await expert_ws.send_json_to({"type": "score", "id": "score", "score": 4, "comment": "Good questions"})
    await receive_until(expert_ws, is_message("ack", id="score"))
    await worker_ws.disconnect()
    await expert_ws.disconnect()
    await database_sync_to_async(dialogue.refresh_from_db)()
    assert (dialogue.status, dialogue.score, dialogue.incomplete) == (DialogueStatus.COMPLETED, 4, False)


async def test_the_state_after_each_response_agrees_with_the_log(room):
    # Room sockets keep the turns and the partner's presence event by event instead of reading the log after every
    # response: what they send must be what a fresh read says, through a room that began waiting, a dropped turn,
    # the partner leaving, and a client that resumed past events its socket never passed on.
    from dialogs import selectors

    dialogue, alice, erin = room
    worker_ws, first = await enter(dialogue, alice)  # alone: the room is still waiting
    assert first["status"] == DialogueStatus.WAITING and first["partner_connected"] is False
    expert_ws, _ = await enter(dialogue, erin)

    async def fresh(role):
        def read():
            dialogue.refresh_from_db()
            return selectors.dialogue_snapshot(dialogue=dialogue, role=role)

        return await database_sync_to_async(read)()

    async def states_after(number):
        worker_state = await receive_until(worker_ws, is_message("state"))
        expert_state = await receive_until(expert_ws, is_message("state"))
        for role, state in (("worker", worker_state), ("expert", expert_state)):
            expected = await fresh(role)
            assert {k: state[k] for k in expected if k != "last_seq"} == {
                k: v for k, v in expected.items() if k != "last_seq"
            }, (role, number)
        return worker_state

    state = None
    for number in range(1, 3):
        await _answer_one_question(worker_ws, expert_ws, f"Question {number}?", "SELECT count(*) FROM student", number)
        state = await states_after(number)
        assert (state["status"], state["answered_questions"]) == (DialogueStatus.ACTIVE, number)
    # A dropped turn does not count, even though it was answered first.
    await worker_ws.send_json_to({"type": "utterance", "id": "u3", "text": "What is the weather?"})
    turn = (await receive_until(worker_ws, is_message("ack", id="u3")))["seq"]
    await expert_ws.send_json_to({"type": "drop", "id": "d3", "turn": turn})
    await receive_until(expert_ws, is_message("ack", id="d3"))
    await _answer_one_question(worker_ws, expert_ws, "Question 4?", "SELECT count(*) FROM student", 4)
    state = await states_after(4)
    assert state["answered_questions"] == 3
    # The worker leaves: the expert's next state says so, without reading the log.
    await worker_ws.disconnect()
    await receive_until(expert_ws, is_message("presence", state="reconnecting"))
    await expert_ws.send_json_to({"type": "user_acts", "id": "late", "turn": turn, "acts": ["NOT_RELATED"]})
    await receive_until(expert_ws, is_message("ack", id="late"))
    await expert_ws.send_json_to({"type": "response", "id": "late-r", "turn": turn, "text": "No.", "acts": ["REJECT"]})
    away = await receive_until(expert_ws, is_message("state"))
    assert away["partner_connected"] is False and away["answered_questions"] == 3
    assert away == {"type": "state", "role": "expert", **await fresh("expert")}
    # The worker comes back claiming to have seen more than there is: its socket passes on nothing up to that claim,
    # so the turns it keeps have a gap and its next state must come from the log.
    claimed = (await fresh("worker"))["last_seq"] + 3
    worker_ws, _ = await enter(dialogue, alice, last_seq=claimed)
    await receive_until(expert_ws, is_message("presence", state="connected"))
    await _answer_one_question(worker_ws, expert_ws, "Question 5?", "SELECT count(*) FROM student", 5)
    state = await states_after(5)
    assert state["answered_questions"] == 4 and state["partner_connected"] is True
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_the_state_after_an_end_and_a_score_agrees_with_the_log_without_reading_it(room, monkeypatch):
    # An end and a score change the dialogue's row, not its turns: a socket whose kept turns have no gap reads only
    # the row, and what it sends must still be what a fresh read says.
    from dialogs import log, selectors

    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    for number in range(1, 4):
        await _answer_one_question(worker_ws, expert_ws, f"Question {number}?", "SELECT count(*) FROM student", number)
    log_reads = []
    read_log = log.dialogue_turns
    monkeypatch.setattr(log, "dialogue_turns", lambda d: log_reads.append(d.pk) or read_log(d))

    async def fresh(role):
        def read():
            dialogue.refresh_from_db()
            return selectors.dialogue_snapshot(dialogue=dialogue, role=role)

        return await database_sync_to_async(read)()

    await worker_ws.send_json_to({"type": "end", "id": "end"})
    await receive_until(worker_ws, is_message("ack", id="end"))
    worker_state = await receive_until(worker_ws, is_message("state", status=DialogueStatus.COMPLETED))
    expert_state = await receive_until(expert_ws, is_message("state", status=DialogueStatus.COMPLETED))
    assert worker_state["completion_code"].startswith("WOZ-") and worker_state["answered_questions"] == 3
    assert worker_state == {"type": "state", "role": "worker", **await fresh("worker")}
    assert expert_state == {"type": "state", "role": "expert", **await fresh("expert")}
    await expert_ws.send_json_to({"type": "score", "id": "score", "score": 4, "comment": ""})
    await receive_until(expert_ws, is_message("ack", id="score"))
    expert_state = await receive_until(expert_ws, is_message("state", score=4))
    assert expert_state["answered_questions"] == 3
    assert expert_state == {"type": "state", "role": "expert", **await fresh("expert")}
    assert log_reads == []  # the test's fresh reads go through the selectors' own name for it
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_worker_never_receives_sql_labels_or_goal_sql(room):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    await _answer_one_question(worker_ws, expert_ws, "How many students?", "SELECT count(*) FROM student", 1)
    await worker_ws.send_json_to({"type": "ping"})
    seen = []
    while True:
        message = json.loads(await worker_ws.receive_from(timeout=5))
        if message["type"] == "pong":
            break
        seen.append(message)
    # Reconnect from zero too: the replay is filtered the same way.
    await worker_ws.disconnect()
    worker_ws, _ = await enter(dialogue, alice)
    await worker_ws.send_json_to({"type": "ping"})
    while True:
        message = json.loads(await worker_ws.receive_from(timeout=5))
        if message["type"] == "pong":
            break
        seen.append(message)
    text = json.dumps(seen)
    goal_sql = await database_sync_to_async(lambda: dialogue.goal.sql)()
    for secret in ("SELECT count(*) FROM student", "INFORM_SQL", "CONFIRM_SQL", goal_sql, '"acts"', '"sql"'):
        assert secret not in text
    assert {m["kind"] for m in seen if m["type"] == "event"} >= {"utterance", "result_shared", "response"}
    assert not {m["kind"] for m in seen if m["type"] == "event"} & {"sql_run", "user_acts"}
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_retry_with_the_same_id_is_stored_once(room):
    dialogue, alice, _ = room
    worker_ws, _ = await enter(dialogue, alice)
    for _ in range(3):
        await worker_ws.send_json_to({"type": "utterance", "id": "same-id", "text": "How many dorms?"})
    acks = [await receive_until(worker_ws, is_message("ack", id="same-id")) for _ in range(3)]
    assert len({ack["seq"] for ack in acks}) == 1
    count = await database_sync_to_async(Event.objects.filter(dialogue=dialogue, kind="utterance").count)()
    assert count == 1
    await worker_ws.disconnect()


async def test_reconnect_receives_exactly_what_was_missed_in_order(room):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "First?"})
    first = await receive_until(expert_ws, is_event("utterance"))
    last_seen = first["seq"]
    await expert_ws.disconnect()
    for number in range(2, 5):
        await worker_ws.send_json_to({"type": "utterance", "id": f"u{number}", "text": f"Question {number}?"})
        await receive_until(worker_ws, is_message("ack", id=f"u{number}"))
    expert_ws, state = await enter(dialogue, erin, last_seq=last_seen)
    await expert_ws.send_json_to({"type": "ping"})
    replay = []
    while True:
        message = json.loads(await expert_ws.receive_from(timeout=5))
        if message["type"] == "pong":
            break
        if message["type"] == "event":
            replay.append(message)
    seqs = [m["seq"] for m in replay]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs)) and min(seqs) == last_seen + 1
    texts = [m["payload"]["text"] for m in replay if m["kind"] == "utterance"]
    assert texts == ["Question 2?", "Question 3?", "Question 4?"]
    await worker_ws.disconnect()
    await expert_ws.disconnect()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "user_acts", "id": "x", "turn": 1, "acts": ["INFORM_SQL"]}, "wrong_role"),
        ({"type": "sql_run", "id": "x", "sql": "SELECT 1"}, "wrong_role"),
        ({"type": "teleport", "id": "x"}, "unknown_type"),
        ({"type": "utterance", "text": "no id"}, "invalid"),
        ({"type": "utterance", "id": "x" * 65, "text": "long id"}, "invalid"),
        ({"type": "utterance", "id": "x", "text": ""}, "invalid"),
        ({"type": "utterance", "id": "x", "text": 42}, "invalid"),
        ({"type": "utterance", "id": "x", "text": "x" * 2001}, "too_long"),
        ({"type": "end", "id": "x"}, "too_early"),
        ({"type": "hello", "last_seq": -1}, "invalid"),
    ],
)
async def test_worker_refusals(room, message, code):
    dialogue, alice, _ = room
    worker_ws, _ = await enter(dialogue, alice)
    await worker_ws.send_json_to(message)
    error = await receive_until(worker_ws, is_message("error"))
    assert error["code"] == code
    await worker_ws.disconnect()


async def test_expert_refusals_labels_and_order(room):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "Who lives in Smith Hall?"})
    turn = (await receive_until(worker_ws, is_message("ack", id="u1")))["seq"]
    cases = [
        ({"type": "user_acts", "id": "a", "turn": turn, "acts": ["SHOUTING"]}, "labels"),
        ({"type": "user_acts", "id": "a", "turn": turn, "acts": []}, "labels"),
        ({"type": "user_acts", "id": "a", "turn": turn, "acts": "INFORM_SQL"}, "labels"),
        ({"type": "user_acts", "id": "a", "turn": 9999, "acts": ["INFORM_SQL"]}, "invalid"),
        ({"type": "response", "id": "b", "turn": turn, "text": "Hi", "acts": ["GREETING"]}, "order"),
        ({"type": "utterance", "id": "c", "text": "I am not the worker"}, "wrong_role"),
        ({"type": "share_result", "id": "d", "turn": turn, "run": turn}, "invalid"),
        ({"type": "score", "id": "e", "score": 5}, "order"),
    ]
    for message, code in cases:
        await expert_ws.send_json_to(message)
        error = await receive_until(expert_ws, is_message("error"))
        assert error["code"] == code, message
    await expert_ws.send_json_to({"type": "user_acts", "id": "a2", "turn": turn, "acts": ["inform_sql"]})
    await receive_until(expert_ws, is_message("ack", id="a2"))
    await expert_ws.send_json_to(
        {"type": "response", "id": "b2", "turn": turn, "text": "Here", "acts": ["CONFIRM_SQL", "NOPE"]}
    )
    assert (await receive_until(expert_ws, is_message("error")))["code"] == "labels"
    await expert_ws.send_json_to(
        {"type": "response", "id": "b3", "turn": turn, "text": "Here", "acts": ["CONFIRM_SQL"]}
    )
    assert (await receive_until(expert_ws, is_message("error")))["code"] == "order"  # no result table sent yet
    await expert_ws.send_json_to({"type": "sql_run", "id": "r1", "turn": turn, "sql": "DELETE FROM student"})
    run = await receive_until(expert_ws, is_message("ack", id="r1"))
    await expert_ws.send_json_to({"type": "share_result", "id": "s1", "turn": turn, "run": run["seq"]})
    assert (await receive_until(expert_ws, is_message("error")))["code"] == "invalid"  # a failed run cannot be sent
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_malformed_frames_get_clear_errors_and_the_socket_survives(room, settings):
    dialogue, alice, _ = room
    worker_ws, _ = await enter(dialogue, alice)
    await worker_ws.send_to(text_data="{not json")
    assert (await receive_until(worker_ws, is_message("error")))["code"] == "bad_json"
    await worker_ws.send_to(text_data="[1, 2, 3]")
    assert (await receive_until(worker_ws, is_message("error")))["code"] == "bad_message"
    await worker_ws.send_to(bytes_data=b"\x00\x01")
    assert (await receive_until(worker_ws, is_message("error")))["code"] == "bad_frame"
    await worker_ws.send_to(text_data=json.dumps({"type": "utterance", "id": "big", "text": "x" * 70_000}))
    assert (await receive_until(worker_ws, is_message("error")))["code"] == "too_large"
    await worker_ws.send_json_to({"type": "utterance", "id": "ok", "text": "Still here?"})
    assert (await receive_until(worker_ws, is_message("ack", id="ok")))["seq"] > 0
    await worker_ws.disconnect()


async def test_rate_limit(room, settings):
    settings.WS_RATE_PER_MINUTE = 20
    dialogue, alice, _ = room
    worker_ws, _ = await enter(dialogue, alice)
    for _ in range(12):
        await worker_ws.send_json_to({"type": "ping"})
    codes = []
    for _ in range(12):
        message = json.loads(await worker_ws.receive_from(timeout=5))
        codes.append(message.get("code") or message["type"])
    assert "rate_limited" in codes and "pong" in codes
    await worker_ws.disconnect()


async def test_connection_refusals(room):
    dialogue, alice, erin = room
    assert await refused_with(f"/ws/dialogues/{dialogue.pk}/") == 4401
    mallory, _ = await database_sync_to_async(person_create)(username="mallory", role="worker")
    assert await refused_with(f"/ws/dialogues/{dialogue.pk}/", mallory) == 4403
    other_expert, _ = await database_sync_to_async(person_create)(username="oscar", role="expert")
    assert await refused_with(f"/ws/dialogues/{dialogue.pk}/", other_expert) == 4403
    admin, _ = await database_sync_to_async(person_create)(username="root", role="admin")
    assert await refused_with(f"/ws/dialogues/{dialogue.pk}/", admin) == 4403
    assert await refused_with("/ws/dialogues/999999/", alice) == 4404
    _, connected, _ = await connect(f"/ws/dialogues/{dialogue.pk}/", alice, origin=(b"origin", b"http://evil.example"))
    assert not connected
    reviewer, _ = await database_sync_to_async(person_create)(username="rita", role="reviewer")
    assert await refused_with("/ws/lobby/", reviewer) == 4403


async def test_blocked_worker_cannot_enter(room):
    dialogue, alice, _ = room

    def block():
        get_user_model().objects.filter(pk=alice.pk).update(blocked=True)

    await database_sync_to_async(block)()
    assert await refused_with(f"/ws/dialogues/{dialogue.pk}/", alice) == 4403


async def test_drop_warns_the_worker_and_does_not_count(room):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "asdf asdf"})
    turn = (await receive_until(worker_ws, is_message("ack", id="u1")))["seq"]
    await expert_ws.send_json_to({"type": "drop", "id": "d1", "turn": turn, "warning": "Please ask about the data."})
    warning = await receive_until(worker_ws, is_event("drop"))
    assert warning["payload"]["warning"] == "Please ask about the data."
    await expert_ws.send_json_to({"type": "terminate", "id": "t1", "reason": "Kept ignoring the instructions"})
    await receive_until(worker_ws, is_event("end"))
    await expert_ws.send_json_to({"type": "score", "id": "s1", "score": 1, "comment": "spam"})
    await receive_until(expert_ws, is_message("ack", id="s1"))
    await worker_ws.disconnect()
    await expert_ws.disconnect()

    def check():
        dialogue.refresh_from_db()
        alice.refresh_from_db()
        return dialogue.status, dialogue.incomplete, alice.blocked

    assert await database_sync_to_async(check)() == (DialogueStatus.DROPPED, True, True)


async def test_partner_presence_and_abandon_after_grace(room, settings):
    settings.PRESENCE_GRACE_SECONDS = 1
    dialogue, alice, erin = room
    expert_ws, _ = await enter(dialogue, erin)
    worker_ws, _ = await enter(dialogue, alice)
    assert (await receive_until(expert_ws, is_message("presence", side="worker")))["state"] == "connected"
    await worker_ws.send_json_to({"type": "typing"})
    await receive_until(expert_ws, is_message("presence", side="worker", state="typing"))
    await worker_ws.disconnect()
    gone = await receive_until(expert_ws, is_message("presence", side="worker", state="reconnecting"))
    assert gone["grace_seconds"] == 1
    ended = await receive_until(expert_ws, is_event("end"))
    assert ended["payload"]["status"] == "abandoned"
    await expert_ws.disconnect()
    await database_sync_to_async(dialogue.refresh_from_db)()
    assert dialogue.status == DialogueStatus.ABANDONED and dialogue.incomplete


async def test_lobby_pairs_a_worker_with_a_ready_expert(demo_databases):
    from annotation.goals.services import goal_create

    await database_sync_to_async(goal_create)(
        database=demo_databases["dorm_demo"], question="How many students?", sql="SELECT count(*) FROM student"
    )
    alice, _ = await database_sync_to_async(person_create)(username="alice", role="worker")
    alice.tutorial_passed_at = timezone.now()
    await database_sync_to_async(alice.save)()
    erin, _ = await database_sync_to_async(person_create)(username="erin", role="expert")
    worker_ws, connected, _ = await connect("/ws/lobby/", alice)
    assert connected
    await worker_ws.send_json_to({"type": "join"})
    status = await receive_until(worker_ws, lambda m: m["type"] == "status" and m.get("position") == 1)
    assert status["wait_limit_seconds"] > 0
    expert_ws, connected, _ = await connect("/ws/lobby/", erin)
    await receive_until(expert_ws, is_message("status"))
    await expert_ws.send_json_to({"type": "join"})
    paired_worker = await receive_until(worker_ws, is_message("paired"))
    paired_expert = await receive_until(expert_ws, is_message("paired"))
    assert paired_worker["dialogue"] == paired_expert["dialogue"]
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_lobby_releases_a_worker_who_has_had_every_goal(demo_databases):
    from annotation.goals.services import goal_create

    goal = await database_sync_to_async(goal_create)(
        database=demo_databases["dorm_demo"], question="How many students?", sql="SELECT count(*) FROM student"
    )
    alice, _ = await database_sync_to_async(person_create)(username="alice", role="worker")
    alice.tutorial_passed_at = timezone.now()
    await database_sync_to_async(alice.save)()
    erin, _ = await database_sync_to_async(person_create)(username="erin", role="expert")
    await database_sync_to_async(Dialogue.objects.create)(
        database=goal.database, goal=goal, worker=alice, expert=erin, status=DialogueStatus.COMPLETED
    )
    worker_ws, _, _ = await connect("/ws/lobby/", alice)
    await worker_ws.send_json_to({"type": "join"})
    await receive_until(worker_ws, lambda m: m["type"] == "status" and m.get("position") == 1)
    expert_ws, _, _ = await connect("/ws/lobby/", erin)
    await expert_ws.send_json_to({"type": "join"})
    released = await receive_until(worker_ws, is_message("released"))
    assert released["completion_code"].startswith("WOZ-") and "every task" in released["message"]
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_a_second_tab_closing_does_not_make_the_worker_absent(room, settings):
    settings.PRESENCE_GRACE_SECONDS = 1
    dialogue, alice, erin = room
    expert_ws, _ = await enter(dialogue, erin)
    first_tab, _ = await enter(dialogue, alice)
    second_tab, _ = await enter(dialogue, alice)
    await second_tab.disconnect()
    await first_tab.send_json_to({"type": "utterance", "id": "still-here", "text": "Am I still here?"})
    # The expert hears the question, never "reconnecting", and the dialogue outlives the grace period.
    import asyncio

    await asyncio.sleep(1.6)
    await expert_ws.send_json_to({"type": "ping"})
    seen = []
    while True:
        message = json.loads(await expert_ws.receive_from(timeout=5))
        if message["type"] == "pong":
            break
        seen.append(message)
    assert not [m for m in seen if m["type"] == "presence" and m["state"] == "reconnecting"]
    assert not [m for m in seen if m["type"] == "event" and m["kind"] == "end"]
    await database_sync_to_async(dialogue.refresh_from_db)()
    assert dialogue.status != DialogueStatus.ABANDONED
    await first_tab.disconnect()
    await expert_ws.disconnect()


async def test_share_result_refuses_a_run_of_another_turn(room):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    turns = []
    for number in (1, 2):
        await worker_ws.send_json_to({"type": "utterance", "id": f"u{number}", "text": f"Question {number}?"})
        turns.append((await receive_until(worker_ws, is_message("ack", id=f"u{number}")))["seq"])
    await expert_ws.send_json_to({"type": "sql_run", "id": "r1", "turn": turns[0], "sql": "SELECT 1"})
    run = await receive_until(expert_ws, is_message("ack", id="r1"))
    await expert_ws.send_json_to({"type": "share_result", "id": "s1", "turn": turns[1], "run": run["seq"]})
    assert (await receive_until(expert_ws, is_message("error")))["code"] == "invalid"
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_a_worker_whose_paired_notice_was_lost_learns_of_the_room_from_the_next_status(demo_databases):
    """The channel layer is at-most-once: a `paired` frame can be lost (a Redis restart, a socket between two
    servers). Every status a paired worker's lobby socket gets names the room, so the lobby never waits for ever."""
    from annotation.goals.services import goal_create

    await database_sync_to_async(goal_create)(
        database=demo_databases["dorm_demo"], question="How many students?", sql="SELECT count(*) FROM student"
    )
    alice, _ = await database_sync_to_async(person_create)(username="alice", role="worker")
    alice.tutorial_passed_at = timezone.now()
    await database_sync_to_async(alice.save)()
    erin, _ = await database_sync_to_async(person_create)(username="erin", role="expert")
    # Paired with no lobby socket open: nobody hears the notice.
    await database_sync_to_async(lobby.lobby_join)(person=alice)
    await database_sync_to_async(expert_ready)(erin)
    (dialogue,) = await database_sync_to_async(lobby.lobby_pair)()
    worker_ws, connected, _ = await connect("/ws/lobby/", alice)
    assert connected
    status = await receive_until(worker_ws, is_message("status"))
    assert status["dialogue"] == dialogue.pk
    assert status["url"] == f"/dialogues/{dialogue.pk}/"
    await worker_ws.disconnect()


@pytest.mark.parametrize(
    ("user_acts", "system_acts", "rule"),
    [
        (["AMBIGUOUS"], ["REQUEST_MORE"], "answered with CLARIFY"),
        (["AMBIGUOUS", "INFORM_SQL"], ["REJECT"], "answered with CLARIFY"),  # clarified first, SQL after
        (["NOT_RELATED"], ["CLARIFY"], "NOT_RELATED question is answered with REJECT (or SORRY)"),
        (["CANNOT_UNDERSTAND"], ["WELCOME"], "CANNOT_UNDERSTAND is answered with REJECT (or SORRY)"),
        (["CANNOT_ANSWER"], ["REQUEST_MORE"], "CANNOT_ANSWER is answered with REJECT (or SORRY)"),
        (["INFORM_SQL"], ["REJECT"], "INFORM_SQL question is answered with its result table and CONFIRM_SQL"),
    ],
)
async def test_each_act_rule_refuses_its_wrong_answer_with_its_message(room, user_acts, system_acts, rule):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "Which dorms are big?"})
    turn = (await receive_until(worker_ws, is_message("ack", id="u1")))["seq"]
    await expert_ws.send_json_to({"type": "user_acts", "id": "a1", "turn": turn, "acts": user_acts})
    await receive_until(expert_ws, is_message("ack", id="a1"))
    await expert_ws.send_json_to({"type": "response", "id": "r1", "turn": turn, "text": "Hm.", "acts": system_acts})
    error = await receive_until(expert_ws, is_message("error", id="r1"))
    assert error["code"] == "act_rule" and rule in error["message"]
    assert not await database_sync_to_async(Event.objects.filter(dialogue=dialogue, kind="response").exists)()
    # SORRY is as good as REJECT, and a clarification of an ambiguous question goes through.
    fixed = {"REJECT": ["SORRY"], "CLARIFY": ["CLARIFY"], "CONFIRM_SQL": None}
    wanted = next(act for act in ("CLARIFY", "REJECT", "CONFIRM_SQL") if act in rule)
    if fixed[wanted]:
        await expert_ws.send_json_to(
            {"type": "response", "id": "r2", "turn": turn, "text": "Right.", "acts": fixed[wanted]}
        )
        await receive_until(expert_ws, is_message("ack", id="r2"))
    await worker_ws.disconnect()
    await expert_ws.disconnect()


async def test_a_room_socket_opens_with_two_database_calls_and_its_side_joined(room, monkeypatch):
    """Each hop from the event loop to a database thread and back was a good part of a pair's CPU (issue 41): a room
    socket's opening is the user with its language (one call), then its dialogue, role, row and presence (one call)."""
    from dialogs import transport

    calls = []
    handler = transport.DatabaseCall.thread_handler

    def counted(self, *args, **kwargs):
        calls.append(getattr(self.func, "__name__", repr(self.func)))
        return handler(self, *args, **kwargs)

    dialogue, alice, _ = room
    monkeypatch.setattr(transport.DatabaseCall, "thread_handler", counted)
    communicator, connected, _ = await connect(f"/ws/dialogues/{dialogue.pk}/", alice)
    assert connected
    # The process's background loop (dialogs.background) makes calls of its own meanwhile: not the socket's.
    background = {"server_heartbeat", "sockets_vouch", "housekeeping", "rooms_catch_up", "test_suites_schedule"}
    assert [name for name in calls if name not in background] == ["_user_and_language", "_open"], calls
    joined = await database_sync_to_async(
        lambda: Event.objects.filter(dialogue=dialogue, kind="join", author_role="worker").count()
    )()
    assert joined == 1  # the side's join was written by that one call
    await communicator.disconnect()
