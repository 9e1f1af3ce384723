"""Each socket speaks its person's language (docs/i18n.md "Sockets"): decided once at connect as a page's is, and
every text sent to it worded in it, broadcasts included (worded per socket at delivery)."""

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from config.language import language_for_scope
from dialogs import broadcast
from tests.builders import dorm_dialogue
from tests.sockets import connect, enter, is_event, is_message, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def _speaks(person, language):
    person.language = language
    person.save(update_fields=["language"])


@pytest.mark.asyncio
async def test_each_side_of_a_room_is_refused_and_told_the_end_in_its_own_language(demo_databases):
    dialogue, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    await database_sync_to_async(_speaks)(erin, "zh-hans")  # Alice's account names no language: English
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, _ = await enter(dialogue, erin)
    await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "How many students?"})
    turn = (await receive_until(worker_ws, is_message("ack", id="u1")))["seq"]
    # Refused on the room's database thread: the socket's language reaches it.
    await expert_ws.send_json_to({"type": "response", "id": "p1", "turn": turn, "text": "Hi", "acts": ["CLARIFY"]})
    refused = await receive_until(expert_ws, is_message("error", id="p1"))
    assert refused["code"] == "order" and "标注" in refused["message"], refused
    await worker_ws.send_json_to({"type": "no_such_thing", "id": "x"})
    refused = await receive_until(worker_ws, is_message("error", id="x"))
    assert refused["message"] == "Unknown message type 'no_such_thing'."
    await expert_ws.send_json_to({"type": "terminate", "id": "t"})
    # One end in the log, in English; each socket words it in its person's language.
    assert (await receive_until(worker_ws, is_event("end")))["payload"]["reason"] == "Ended by the expert."
    assert (await receive_until(expert_ws, is_event("end")))["payload"]["reason"] == "由专家结束。"
    await worker_ws.disconnect()
    await expert_ws.disconnect()


@pytest.mark.asyncio
async def test_a_lobby_socket_words_its_status_and_a_release_in_its_persons_language(demo_databases):
    _, alice, erin = await database_sync_to_async(dorm_dialogue)(demo_databases)
    await database_sync_to_async(_speaks)(erin, "zh-hans")
    expert_ws, connected, _ = await connect("/ws/lobby/", erin)
    assert connected
    status = await receive_until(expert_ws, is_message("status"))
    assert status["readiness"].startswith("你"), status["readiness"]
    await get_channel_layer().group_send(
        broadcast.person_group(erin.pk),
        {"type": "lobby.released", "completion_code": "WOZ-1", "reason": broadcast.RELEASED_NO_GOAL},
    )
    released = await receive_until(expert_ws, is_message("released"))
    assert "完成码" in released["message"], released
    await expert_ws.disconnect()


def test_a_sockets_language_follows_the_pages_rule():
    scope = {"headers": [(b"accept-language", b"zh-CN,zh;q=0.9,en;q=0.5")], "user": None, "session": None}
    assert language_for_scope(scope) == "zh-hans"
    assert language_for_scope({**scope, "query_string": b"lang=en"}) == "en"
    assert language_for_scope({"headers": [], "user": None, "session": None}) == "en"
