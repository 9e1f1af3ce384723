"""Two reviewers claiming one dialogue at the same moment on PostgreSQL: the review row's lock gives it to one.

SQLite serialises whole transactions, so only PostgreSQL can show a race here; the services pass of `make test`
runs this file. The first claim holds the row lock until its transaction commits; the second is seen waiting for it
(pg_stat_activity), never timed.
"""

import threading
import time

import pytest
from django.db import connection, transaction

from review.models import DialogueReview, ReviewPass
from review.passes import services as passes
from review.tests.conftest import reviewer

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _lock_waits() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


@pytest.fixture
def waiting_dialogue(open_room):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks): the services pass of `make test` runs it")
    room = open_room("dorm_demo")
    turn = room.ask("How many students?")
    room.answer(turn, "SELECT count(*) FROM student")
    dialogue = room.end(approve=False)
    passes.review_sync()
    return dialogue


def _race(first_claim, second_claim):
    """Run `first_claim` inside a transaction that stays open until `second_claim` (another thread) is seen waiting
    for the lock; returns what the second one got."""
    second: dict = {}

    def later():
        try:
            second["result"] = second_claim()
        except Exception as exc:  # reported by the assertions of the caller
            second["error"] = exc
        finally:
            connection.close()

    with transaction.atomic():
        first_claim()
        racer = threading.Thread(target=later)
        racer.start()
        deadline = time.monotonic() + 10
        while _lock_waits() == 0 and "result" not in second and "error" not in second and time.monotonic() < deadline:
            time.sleep(0.02)
    racer.join(10)
    return second


def test_two_reviewers_claiming_one_dialogue_get_one_claim(waiting_dialogue, rita):
    rob = reviewer("rob")
    second = _race(
        lambda: passes.review_claim(reviewer=rita, dialogue=waiting_dialogue),
        lambda: passes.review_claim(reviewer=rob, dialogue=waiting_dialogue),
    )
    assert isinstance(second.get("error"), passes.ReviewError) and second["error"].code == "locked", second
    review = DialogueReview.objects.get(dialogue=waiting_dialogue)
    assert review.claimed_by == rita
    assert list(ReviewPass.objects.values_list("reviewer__username", flat=True)) == ["rita"]


def test_take_next_skips_a_dialogue_another_reviewer_is_claiming(waiting_dialogue, rita):
    rob = reviewer("rob")
    second = _race(
        lambda: passes.review_claim_next(reviewer=rita),
        lambda: passes.review_claim_next(reviewer=rob),
    )
    assert second == {"result": None}
    assert DialogueReview.objects.get(dialogue=waiting_dialogue).claimed_by == rita
