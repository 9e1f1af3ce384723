"""The ambiguity label over the real socket: the expert receives each question's tokens (the ones a span numbers,
from the server's one tokeniser; the worker never does), and a span or reading that does not fit is refused with a
message that says why, leaving the label saved before it as it was."""

import pytest
from channels.db import database_sync_to_async

from dialogs.models import Event, EventKind
from dialogs.room import dialogue_turns
from tests.builders import dorm_dialogue
from tests.sockets import enter, is_event, is_message, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SAVED = {
    "type": "vague_condition",
    "span": {"beg": 3, "end": 4},
    "readings": ["SELECT name FROM dorm WHERE student_capacity > 300", "SELECT name FROM dorm"],
}


@pytest.fixture
def room(demo_databases):
    return dorm_dialogue(demo_databases)


async def test_the_expert_gets_the_tokens_and_a_bad_span_or_reading_is_refused_keeping_the_saved_label(room):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    try:
        await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "Which are the big ones?"})
        seen_by_worker = await receive_until(worker_ws, is_event("utterance"))
        seen_by_expert = await receive_until(expert_ws, is_event("utterance"))
        assert seen_by_expert["payload"]["tokens"] == ["Which", "are", "the", "big", "ones", "?"]
        assert seen_by_worker["payload"] == {"text": "Which are the big ones?"}
        turn = seen_by_expert["seq"]

        label = {"type": "user_acts", "turn": turn, "acts": ["AMBIGUOUS"]}
        await expert_ws.send_json_to({**label, "id": "good", "ambiguity": SAVED})
        await receive_until(expert_ws, is_message("ack", id="good"))

        refused = {
            "span-past-end": ({**SAVED, "span": {"beg": 3, "end": 6}}, "token indexes (0 to 5)"),
            "span-backwards": ({**SAVED, "span": {"beg": 4, "end": 3}}, "beg <= end"),
            "empty-reading": ({**SAVED, "readings": ["SELECT 1", "  "]}, "list of SQL queries"),
            "long-reading": ({**SAVED, "readings": ["SELECT " + "1" * 20_000]}, "reading 1: SQL is limited"),
        }
        for client_id, (ambiguity, says) in refused.items():
            await expert_ws.send_json_to({**label, "id": client_id, "ambiguity": ambiguity})
            error = await receive_until(expert_ws, is_message("error", id=client_id))
            assert error["code"] == "labels" and says in error["message"], (client_id, error)

        def stored():
            kinds = list(
                Event.objects.filter(dialogue=dialogue, kind=EventKind.USER_ACTS).values_list("seq", flat=True)
            )
            return kinds, dialogue_turns(dialogue)[turn].ambiguity

        labels, ambiguity = await database_sync_to_async(stored)()
        assert len(labels) == 1 and ambiguity == SAVED
    finally:
        await worker_ws.disconnect()
        await expert_ws.disconnect()
