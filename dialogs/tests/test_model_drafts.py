"""SQL drafts a model proposes to the expert (room message model_sql, docs/model_assistance.md), against the test
model server: what the model is asked, what is recorded, what is refused, who sees it, and what the expert's next run
did with it, decided by the server."""

import json

import pytest
from channels.db import database_sync_to_async

from annotation.databases.curation import database_hidden_set
from dialogs.errors import DialogueError
from dialogs.log import LogEvent, dialogue_replay, model_draft_use
from dialogs.model_sql import PROMPT_VERSION, sql_from_answer
from dialogs.models import Dialogue, DialogueStatus, Event, EventKind
from dialogs.room import dialogue_post
from tests.builders import dorm_dialogue
from tests.sockets import enter, is_event, is_message, receive_until


@pytest.fixture
def room(demo_databases, model_on):
    """Alice (worker) and Erin (expert) in an open room with model help, the model answering from its fixtures."""
    return dorm_dialogue(demo_databases, model_help=True, status=DialogueStatus.ACTIVE)


def _send(dialogue, person, later=None, **message):
    fresh = Dialogue.objects.select_related("database", "goal", "worker").get(pk=dialogue.pk)
    return dialogue_post(dialogue=fresh, person=person, message=message, later=later)


def _question(room, text="How many students are there?", number=1) -> int:
    dialogue, alice, _ = room
    return _send(dialogue, alice, type="utterance", id=f"u{number}", text=text)[0][0].seq


def _ask(room, turn, id="m1"):
    """Erin asks for a draft: (the request's event, the draft's event)."""
    dialogue, _, erin = room
    later = []
    ((asked, created),) = _send(dialogue, erin, later, type="model_sql", id=id, turn=turn)
    assert created and len(later) == 1  # the draft is worked out after the ack, never before
    ((draft, _),) = later[0]()
    return asked, draft


def _refusal(dialogue, person, **message) -> str:
    with pytest.raises(DialogueError) as refused:
        _send(dialogue, person, [], **message)
    return refused.value.code


@pytest.mark.django_db
def test_a_draft_is_run_checked_and_recorded_with_its_origin(room, model_on):
    turn = _question(room)
    asked, draft = _ask(room, turn)
    assert (asked.kind, asked.author_role, asked.payload) == ("model_sql", "expert", {"turn": turn, "state": "asked"})
    payload = draft.payload
    assert (draft.kind, draft.author_id, draft.author_role) == ("model_sql", None, "")
    assert payload["state"] == "proposed" and payload["request"] == asked.seq and payload["turn"] == turn
    assert payload["sql"] == "SELECT count(*) FROM student"  # read from the ```sql block of a chatty answer
    assert payload["result"]["ok"] and payload["result"]["columns"] and payload["result"]["rows"][0][0] > 0
    assert payload["encodes"] is True and "encode_error" not in payload
    assert (payload["model"], payload["prompt_version"]) == ("fixture-model", PROMPT_VERSION)
    assert payload["seconds"] >= 0


@pytest.mark.django_db
def test_the_model_is_asked_with_readable_names_the_dialogue_so_far_and_no_hidden_column(room, model_on, ada):
    dialogue, alice, erin = room
    database_hidden_set(database=dialogue.database, by=ada, target="student.home_city", hidden=True)
    first = _question(room, "Which students are there?")
    _send(dialogue, erin, type="user_acts", id="a1", turn=first, acts=["INFORM_SQL"])
    run = _send(dialogue, erin, type="sql_run", id="r1", turn=first, sql="SELECT first_name FROM student")[0][0]
    _send(dialogue, erin, type="share_result", id="s1", turn=first, run=run.seq)
    unshared = _question(room, "Hello, nice to meet you", number=2)  # a turn answered with no SQL
    second = _question(room, "And how many students are there?", number=3)
    _ask(room, second)
    (request,) = model_on.requests()
    messages = request["body"]["messages"]
    system = messages[0]["content"]
    assert "Table student" in system and "first_name" in system and "lives_in.dorm_id refers to dorm.dorm_id" in system
    assert "home_city" not in system  # hidden by the admin: no model sees it
    assert [m["role"] for m in messages[1:]] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[1]["content"] == "Which students are there?"
    assert "SELECT first_name FROM student" in messages[2]["content"]
    assert messages[3]["content"] == "Hello, nice to meet you" and "SELECT" not in messages[4]["content"]
    assert messages[-1]["content"] == "And how many students are there?"
    assert unshared < second


@pytest.mark.django_db
def test_a_retry_gets_the_same_request_and_asks_the_model_once(room, model_on):
    dialogue, _, erin = room
    turn = _question(room)
    asked, _ = _ask(room, turn, id="same")
    later = []
    ((again, created),) = _send(dialogue, erin, later, type="model_sql", id="same", turn=turn)
    assert (again.pk, created, later) == (asked.pk, False, [])
    assert len(model_on.requests()) == 1


@pytest.mark.django_db
def test_refusals_say_why(room, model_on, settings):
    dialogue, alice, erin = room
    turn = _question(room)
    assert _refusal(dialogue, alice, type="model_sql", id="w", turn=turn) == "wrong_role"
    assert _refusal(dialogue, erin, type="model_sql", id="t", turn=99999) == "invalid"
    Dialogue.objects.filter(pk=dialogue.pk).update(model_help=False)  # held back: the control group
    assert _refusal(dialogue, erin, type="model_sql", id="h", turn=turn) == "model_off"
    Dialogue.objects.filter(pk=dialogue.pk).update(model_help=True)
    settings.MODEL_BASE_URL = ""
    assert _refusal(dialogue, erin, type="model_sql", id="o", turn=turn) == "model_off"
    settings.MODEL_BASE_URL = model_on.url
    later = []
    _send(dialogue, erin, later, type="model_sql", id="p1", turn=turn)
    assert _refusal(dialogue, erin, type="model_sql", id="p2", turn=turn) == "too_many"  # its draft is on its way
    later[0]()
    settings.MODEL_RATE_PER_MINUTE = 1  # the request above was this minute's one
    assert _refusal(dialogue, erin, type="model_sql", id="r", turn=turn) == "rate_limited"
    Dialogue.objects.filter(pk=dialogue.pk).update(status=DialogueStatus.COMPLETED)
    assert _refusal(dialogue, erin, type="model_sql", id="c", turn=turn) == "closed"
    assert len(model_on.requests()) == 1  # no refused request reached the model


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mode", "question", "code"),
    [("error", "How many students?", "unavailable"), ("normal", "Say hello", "no_sql")],
)
def test_a_failed_draft_is_recorded_with_its_reason(room, model_on, mode, question, code):
    model_on.set_mode(mode)
    _, draft = _ask(room, _question(room, question))
    assert draft.payload["state"] == "failed" and draft.payload["error"]["code"] == code
    assert draft.payload["error"]["message"] and "sql" not in draft.payload


@pytest.mark.django_db
def test_a_draft_that_does_not_run_says_so(room):
    _, draft = _ask(room, _question(room, "Show the no such column please"))
    assert draft.payload["state"] == "proposed" and not draft.payload["result"]["ok"]
    assert draft.payload["encodes"] is False and draft.payload["encode_error"]


@pytest.mark.django_db
def test_a_slow_model_is_given_up_and_the_room_is_told(room, model_on, settings):
    settings.MODEL_TIMEOUT_SECONDS = 1
    model_on.set_mode("hold")
    _, draft = _ask(room, _question(room))
    assert draft.payload["error"]["code"] == "timeout"


def _run(room, turn, sql, id, **extra):
    dialogue, _, erin = room
    return _send(dialogue, erin, type="sql_run", id=id, turn=turn, sql=sql, **extra)[0][0].payload


@pytest.mark.django_db
def test_the_server_decides_whether_a_run_kept_edited_or_replaced_the_draft(room):
    turn = _question(room)
    _, draft = _ask(room, turn)
    kept = _run(room, turn, "select COUNT(*)\n  from student;", "r1", from_model=draft.seq)
    assert kept["model_draft"] == {"event": draft.seq, "use": "kept"}
    edited = _run(room, turn, "SELECT count(*) FROM student WHERE age > 20", "r2", from_model=draft.seq)
    assert edited["model_draft"] == {"event": draft.seq, "use": "edited"}
    # The client's word that it loaded the draft does not make a different query an edit of it.
    claimed = _run(room, turn, "SELECT dorm_name, gender FROM dorm ORDER BY opened_year", "r3", from_model=draft.seq)
    assert claimed["model_draft"]["use"] == "replaced"
    dialogue, _, erin = room
    assert _refusal(dialogue, erin, type="sql_run", id="r4", turn=turn, sql="SELECT 1", from_model=turn) == "invalid"


@pytest.mark.django_db
def test_the_first_run_after_a_draft_not_loaded_replaced_it(room):
    turn = _question(room)
    before = _run(room, turn, "SELECT 1", "r0")
    assert "model_draft" not in before  # no draft yet
    _, draft = _ask(room, turn)
    own = _run(room, turn, "SELECT count(student_id) FROM student", "r1")
    assert own["model_draft"] == {"event": draft.seq, "use": "replaced"}
    assert "model_draft" not in _run(room, turn, "SELECT 2", "r2")  # the draft was answered by the run before


def test_sql_is_read_from_fenced_or_bare_answers():
    assert sql_from_answer("Sure:\n```sql\nSELECT a FROM t;\n```\nDone.") == "SELECT a FROM t"
    assert sql_from_answer("```\nWITH x AS (SELECT 1) SELECT * FROM x\n```") == "WITH x AS (SELECT 1) SELECT * FROM x"
    assert sql_from_answer("The query is SELECT name FROM dorm;") == "SELECT name FROM dorm"
    assert sql_from_answer("I cannot tell.") is None
    assert model_draft_use("SELECT name FROM dorm WHERE x = 'A'", "select name from dorm where x = 'a'") == "edited"


@pytest.mark.django_db
def test_review_reads_a_log_with_drafts_as_before(room):
    dialogue, _, erin = room
    turn = _question(room)
    _send(dialogue, erin, type="user_acts", id="a1", turn=turn, acts=["INFORM_SQL"])
    _, draft = _ask(room, turn)
    run = _send(dialogue, erin, type="sql_run", id="r1", turn=turn, sql=draft.payload["sql"], from_model=draft.seq)
    _send(dialogue, erin, type="share_result", id="s1", turn=turn, run=run[0][0].seq)
    rows = dialogue.events.order_by("seq").values_list("seq", "kind", "payload", "author_role", "created_at")
    record = dialogue_replay(dialogue=dialogue, events=[LogEvent(*row) for row in rows])
    (only,) = record.user_turns
    assert only.sql == draft.payload["sql"]  # the turn's SQL is the run the expert shared, not the draft
    assert len(record.runs) == 1


# --- Through the real socket -----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_expert_works_on_while_the_model_thinks_and_the_worker_never_sees_the_draft(room, model_on):
    dialogue, alice, erin = room
    worker_ws, _ = await enter(dialogue, alice)
    expert_ws, state = await enter(dialogue, erin)
    assert state["model_help"] is True
    await worker_ws.send_json_to({"type": "utterance", "id": "u1", "text": "How many students are there?"})
    turn = (await receive_until(worker_ws, is_message("ack", id="u1")))["seq"]
    await database_sync_to_async(model_on.set_mode)("hold")  # the model answers only when told
    await expert_ws.send_json_to({"type": "model_sql", "id": "m1", "turn": turn})
    asked = await receive_until(expert_ws, is_message("ack", id="m1"))
    # While the draft is held: the expert's next message is handled, and the worker's utterance reaches the expert.
    await expert_ws.send_json_to({"type": "user_acts", "id": "a1", "turn": turn, "acts": ["INFORM_SQL"]})
    await receive_until(expert_ws, is_message("ack", id="a1"))
    await worker_ws.send_json_to({"type": "utterance", "id": "u2", "text": "And the dorms?"})
    await receive_until(
        expert_ws, lambda m: m.get("type") == "event" and m.get("payload", {}).get("text") == "And the dorms?"
    )
    assert not await database_sync_to_async(
        Event.objects.filter(dialogue=dialogue, kind=EventKind.MODEL_SQL, payload__state="proposed").exists
    )()
    await database_sync_to_async(model_on.set_mode)("normal")
    draft = await receive_until(expert_ws, lambda m: is_event("model_sql")(m) and m["payload"]["state"] != "asked")
    assert draft["payload"]["request"] == asked["seq"] and draft["payload"]["sql"] == "SELECT count(*) FROM student"
    await worker_ws.send_json_to({"type": "ping"})
    seen = []
    while (message := json.loads(await worker_ws.receive_from(timeout=5)))["type"] != "pong":
        seen.append(message)
    worker_ws_again, worker_state = await enter(dialogue, alice)  # a replay from zero is filtered the same way
    await worker_ws_again.send_json_to({"type": "ping"})
    while (message := json.loads(await worker_ws_again.receive_from(timeout=5)))["type"] != "pong":
        seen.append(message)
    text = json.dumps(seen) + json.dumps(worker_state)
    assert "model_sql" not in text and "SELECT count(*) FROM student" not in text and "model_help" not in text
    for socket in (worker_ws, worker_ws_again, expert_ws):
        await socket.disconnect()
