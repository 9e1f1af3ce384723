"""Workers end their dialogues right after an answer, while the platform is still writing what it adds to that answer
(the detected labels of the shared result, the next suggestion) from other threads: every ending is stored. On the
embedded SQLite default this lost endings to "database is locked" (issue: a campaign day without a lost ending)."""

import threading

import pytest
from django.db import connection
from django.utils import timezone

from annotation.people.services import person_create
from dialogs.models import Dialogue, DialogueStatus, EventKind
from dialogs.room import dialogue_post

pytestmark = pytest.mark.django_db(transaction=True)

ROOMS = 8


def _rooms(demo_databases):
    dorm = demo_databases["dorm_demo"]
    from annotation.goals.services import goal_create

    goal = goal_create(database=dorm, question="How many students?", sql="SELECT count(*) FROM student")
    rooms = []
    for number in range(ROOMS):
        worker, _ = person_create(username=f"worker{number}", role="worker", password="correct-horse-battery")
        worker.tutorial_passed_at = timezone.now()
        worker.save(update_fields=["tutorial_passed_at"])
        expert, _ = person_create(username=f"expert{number}", role="expert", password="correct-horse-battery")
        rooms.append(Dialogue.objects.create(database=dorm, goal=goal, worker=worker, expert=expert, status="active"))
    return rooms


def _send(dialogue, person, later=None, **message):
    fresh = Dialogue.objects.select_related("database", "goal").get(pk=dialogue.pk)
    return dialogue_post(dialogue=fresh, person=person, message=message, later=later)


def _answer(dialogue, number, later=None):
    """One question, answered with SQL; what the platform adds to the share and the answer is left in `later`."""
    turn = _send(dialogue, dialogue.worker, type="utterance", id=f"u{number}", text=f"How many students ({number})?")
    seq = turn[0][0].seq
    _send(dialogue, dialogue.expert, type="user_acts", id=f"a{number}", turn=seq, acts=["INFORM_SQL"])
    run = _send(
        dialogue, dialogue.expert, type="sql_run", id=f"r{number}", turn=seq, sql="SELECT count(*) FROM student"
    )
    _send(dialogue, dialogue.expert, later, type="share_result", id=f"s{number}", turn=seq, run=run[0][0].seq)
    _send(
        dialogue, dialogue.expert, later, type="response", id=f"p{number}", turn=seq, text="28.", acts=["CONFIRM_SQL"]
    )


def test_every_ending_is_stored_while_the_last_answers_follow_ups_are_written(demo_databases, short_busy_timeout):
    rooms = _rooms(demo_databases)
    pending = {}
    for dialogue in rooms:
        for number in (1, 2):
            _answer(dialogue, number)
        pending[dialogue.pk] = []
        _answer(dialogue, 3, later=pending[dialogue.pk])  # the follow-ups of the last answer are still to be written
        assert pending[dialogue.pk]
    start, failures = threading.Barrier(2 * ROOMS), []

    def follow_ups(dialogue):
        try:
            start.wait()
            for follow_up in pending[dialogue.pk]:
                follow_up()
        except Exception as exc:  # noqa: BLE001 - a refusal because the dialogue ended first is expected
            if getattr(exc, "code", None) != "closed":
                failures.append(exc)
        finally:
            connection.close()

    def end(dialogue):
        try:
            start.wait()
            _send(dialogue, dialogue.worker, type="end", id="end")
        except Exception as exc:  # noqa: BLE001 - the failure is the finding
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=job, args=(d,)) for d in rooms for job in (follow_ups, end)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    for dialogue in rooms:
        dialogue.refresh_from_db()
        assert dialogue.status == DialogueStatus.COMPLETED
        assert dialogue.events.filter(kind=EventKind.END).count() == 1
