"""What the room reads of the database for an end and a score (dialogs.room `_end`, `_score`): the dialogue's row once,
under its lock, and of the log only what a question's standing is read from (dialogs.log.QUESTION_KINDS). And what a
room socket's hello reads (`DialogueConsumer._hello_read`): the log once for a client that has seen nothing."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dialogs import room
from dialogs.errors import DialogueError
from dialogs.models import Dialogue, DialogueStatus, EventKind
from tests.builders import dorm_dialogue

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_question(settings):
    settings.DIALOGUE_MIN_QUESTIONS = 1


def _post(dialogue, person, **message):
    return room.dialogue_post(dialogue=dialogue, person=person, message=message)


def _answered(dialogue, alice, erin) -> int:
    ((utterance, _),) = _post(dialogue, alice, type="utterance", id="u1", text="How many students?")
    _post(dialogue, erin, type="user_acts", id="a1", turn=utterance.seq, acts=["INFORM_SQL"])
    ((run, _),) = _post(dialogue, erin, type="sql_run", id="s1", turn=utterance.seq, sql=dialogue.goal.sql)
    _post(dialogue, erin, type="share_result", id="t1", turn=utterance.seq, run=run.seq)
    _post(dialogue, erin, type="response", id="r1", turn=utterance.seq, text="Here.", acts=["CONFIRM_SQL"])
    return utterance.seq


def _reads(queries, table: str) -> list[str]:
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    return [sql for sql in selects if f'FROM "{table}"' in sql]


def test_an_end_counts_the_questions_without_reading_the_labels(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    turn = _answered(dialogue, alice, erin)
    _post(dialogue, erin, type="turn_labels", id="l1", turn=turn, question_style="疑问句")
    assert dialogue.events.filter(kind=EventKind.TURN_LABELS).exists()  # the share's detected labels, the expert's
    with CaptureQueriesContext(connection) as queries:
        ((end, created),) = _post(dialogue, alice, type="end", id="end")
    assert created and end.payload["status"] == DialogueStatus.COMPLETED
    log_reads = _reads(queries, "dialogs_event")
    assert len(log_reads) == 1 and EventKind.TURN_LABELS not in log_reads[0], log_reads
    assert EventKind.RESPONSE in log_reads[0]
    # The dialogue's row (with its expert, told by the lobby) read once, under the lock.
    assert len(_reads(queries, "dialogs_dialogue")) == 1
    assert not [q for q in _reads(queries, "annotation_user") if "dialogs_dialogue" not in q]


def test_an_end_before_the_minimum_is_still_refused(demo_databases, settings):
    settings.DIALOGUE_MIN_QUESTIONS = 2
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    _answered(dialogue, alice, erin)
    with pytest.raises(DialogueError) as refused:
        _post(dialogue, alice, type="end", id="end")
    assert refused.value.code == "too_early" and "1 more question" in refused.value.message


def test_a_score_reads_the_row_once_under_its_lock(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    _answered(dialogue, alice, erin)
    _post(dialogue, alice, type="end", id="end")
    # The expert's socket still holds the dialogue as it was before the end: the score reads the row as it stands.
    held = Dialogue.objects.get(pk=dialogue.pk)
    held.status, held.score = DialogueStatus.ACTIVE, None
    with CaptureQueriesContext(connection) as queries:
        ((score, created),) = _post(held, erin, type="score", id="sc", score=4, comment="Good")
    assert created and score.payload["score"] == 4
    assert len(_reads(queries, "dialogs_dialogue")) == 1
    assert held.status == DialogueStatus.COMPLETED  # what the lock read, on the caller's instance


@pytest.mark.parametrize(
    ("ended", "message", "code"),
    [
        (False, {"score": 9}, "order"),  # the standing first: not ended yet, whatever the score says
        (True, {"score": 9}, "invalid"),
        (True, {"score": True}, "invalid"),
    ],
)
def test_a_score_is_refused_with_its_id_in_the_same_order(demo_databases, ended, message, code):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    _answered(dialogue, alice, erin)
    if ended:
        _post(dialogue, alice, type="end", id="end")
    with pytest.raises(DialogueError) as refused:
        _post(dialogue, erin, type="score", id="sc", **message)
    assert refused.value.code == code
    assert not dialogue.events.filter(kind=EventKind.SCORE).exists()


def test_a_second_score_is_closed_and_a_retry_gets_the_first_back(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    _answered(dialogue, alice, erin)
    _post(dialogue, alice, type="end", id="end")
    ((first, _),) = _post(dialogue, erin, type="score", id="sc", score=4)
    ((again, created),) = _post(dialogue, erin, type="score", id="sc", score=4)
    assert (again.pk, created) == (first.pk, False)
    with pytest.raises(DialogueError) as refused:
        _post(dialogue, erin, type="score", id="sc2", score=5)
    assert refused.value.code == "closed"


def _room_socket(dialogue, person, side):
    """A room socket as `DialogueConsumer._load` leaves it, without a connection (its reads are the ones tested)."""
    from dialogs.consumers import DialogueConsumer

    socket = DialogueConsumer()
    socket.user, socket.dialogue, socket.side, socket.sees_as = person, dialogue, side, side
    socket.turns, socket.turns_seq = None, 0
    return socket


def test_a_first_hello_reads_the_log_once_for_the_state_and_the_events_missed(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    _answered(dialogue, alice, erin)
    socket = _room_socket(Dialogue.objects.get(pk=dialogue.pk), erin, "expert")
    with CaptureQueriesContext(connection) as queries:
        state, missed = socket._hello_read(0)
    assert len(_reads(queries, "dialogs_event")) == 1  # two before: the turns, then the events after the client's
    assert [event.seq for event in missed] == list(dialogue.events.order_by("seq").values_list("seq", flat=True))
    # The turns replayed from that one read are the log's, and the socket keeps them up to its last event.
    assert state["answered_questions"] == 1 and socket.turns_seq == missed[-1].seq
    # A client that resumes reads the turns and only what it missed: the same state.
    again = _room_socket(Dialogue.objects.get(pk=dialogue.pk), erin, "expert")
    resumed, after = again._hello_read(missed[2].seq)
    assert [event.seq for event in after] == [event.seq for event in missed[3:]]
    assert resumed == state
