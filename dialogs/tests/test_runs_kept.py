"""A room socket keeps the SQL runs it passed on (dialogs.consumers.DialogueConsumer._keep_run), and sharing one reads
no run from the log (dialogs.room.dialogue_post's `runs`): a run's payload never changes once it is stored."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.models import Role
from dialogs import consumers
from dialogs.log import LogEvent
from dialogs.models import EventKind
from dialogs.room import dialogue_post
from tests.builders import dorm_dialogue

pytestmark = pytest.mark.django_db(transaction=True)

SQL = "SELECT count(*) FROM student"


def _asked_and_run(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    turn = dialogue_post(dialogue=dialogue, person=alice, message={"type": "utterance", "id": "u", "text": "How many?"})
    turn = turn[0][0].seq
    dialogue_post(dialogue=dialogue, person=erin, message={"type": "user_acts", "id": "a", "turn": turn,
                                                           "acts": ["INFORM_SQL"]})  # fmt: skip
    run = dialogue_post(
        dialogue=dialogue, person=erin, message={"type": "sql_run", "id": "r", "turn": turn, "sql": SQL}
    )
    return dialogue, erin, turn, run[0][0]


def _run_reads(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "SELECT" in q["sql"] and EventKind.SQL_RUN in q["sql"]]


@pytest.mark.parametrize("kept", [True, False])
def test_a_share_reads_no_run_the_socket_kept(demo_databases, kept):
    dialogue, erin, turn, run = _asked_and_run(demo_databases)
    runs = {run.seq: run.payload} if kept else {}
    share = {"type": "share_result", "id": "s", "turn": turn, "run": run.seq}
    with CaptureQueriesContext(connection) as queries:
        shared = dialogue_post(dialogue=dialogue, person=erin, message=share, later=[], runs=runs)
    assert (_run_reads(queries) == []) is kept, _run_reads(queries)
    stored = shared[0][0].payload
    assert (stored["run"], stored["rows"], stored["columns"]) == (run.seq, run.payload["result"]["rows"],
                                                                  run.payload["result"]["columns"])  # fmt: skip


def test_a_run_kept_without_its_table_is_read_from_the_log(demo_databases):
    dialogue, erin, turn, run = _asked_and_run(demo_databases)
    runs = {run.seq: {"sql": SQL, "turn": turn}}
    share = {"type": "share_result", "id": "s", "turn": turn, "run": run.seq}
    with CaptureQueriesContext(connection) as queries:
        shared = dialogue_post(dialogue=dialogue, person=erin, message=share, later=[], runs=runs)
    assert len(_run_reads(queries)) == 1
    assert shared[0][0].payload["rows"] == run.payload["result"]["rows"]


def test_an_experts_socket_keeps_every_runs_sql_and_the_latest_tables():
    socket = consumers.DialogueConsumer()
    socket.runs, socket.sees_as = {}, Role.EXPERT
    total = consumers.RUN_TABLES_KEPT + 3
    for seq in range(1, total + 1):
        payload = {"sql": f"SELECT {seq}", "turn": 1, "result": {"ok": True, "rows": [[seq]]}}
        socket._keep_run(LogEvent(seq, EventKind.SQL_RUN, payload, Role.EXPERT, None), whole=seq != total)
    assert sorted(socket.runs) == list(range(1, total + 1))
    with_tables = [seq for seq, kept in socket.runs.items() if "result" in kept]
    # The last came by a catch-up (too big to travel inline): its SQL alone.
    assert with_tables == list(range(total - consumers.RUN_TABLES_KEPT, total))
    assert socket.runs[total] == {"sql": f"SELECT {total}", "turn": 1}
    worker = consumers.DialogueConsumer()
    worker.runs, worker.sees_as = {}, Role.WORKER
    worker._keep_run(LogEvent(1, EventKind.SQL_RUN, {"sql": "SELECT 1"}, Role.EXPERT, None), whole=True)
    assert worker.runs == {}


@pytest.mark.parametrize("score", [5, 1])
def test_the_state_after_an_end_and_a_score_is_the_rows_without_reading_it(demo_databases, score):
    from dialogs import selectors
    from dialogs.log import dialogue_turns
    from dialogs.models import Dialogue

    dialogue, erin, _, _ = _asked_and_run(demo_databases)
    socket = consumers.DialogueConsumer()
    socket.dialogue, socket.side, socket.sees_as = Dialogue.objects.get(pk=dialogue.pk), Role.WORKER, Role.WORKER
    socket.turns = dialogue_turns(socket.dialogue)
    ended = dialogue_post(dialogue=dialogue, person=dialogue.worker, message={"type": "stop", "id": "e"})[0][0]
    scored = dialogue_post(dialogue=dialogue, person=erin, message={"type": "score", "id": "s", "score": score})[0][0]
    for event in (ended, scored):
        assert socket._row_from(event)
        row = Dialogue.objects.get(pk=dialogue.pk)
        if event is ended:  # the row as it stood right after the end: the score changed it since
            row.score, row.status, row.last_seq = None, ended.payload["status"], ended.seq
        for role in (Role.WORKER, Role.EXPERT):
            fresh = selectors.dialogue_snapshot(dialogue=row, role=role, turns=socket.turns, partner_connected=True)
            kept = selectors.dialogue_snapshot(
                dialogue=socket.dialogue, role=role, turns=socket.turns, partner_connected=True
            )
            assert kept == fresh, event.kind
    assert not socket._row_from(LogEvent(99, EventKind.UTTERANCE, {"text": "x"}, Role.WORKER, None))
