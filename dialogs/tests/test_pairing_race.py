"""Two pairings at once on PostgreSQL: the expert's row lock must serialise them completely.

A pairing that waited for the lock has to see what the one before it committed; otherwise an expert who has just been
given a dialogue looks free and gets a second one (found by bench/chat_load.py with two Daphne processes). SQLite
serialises whole transactions, so only PostgreSQL can show this; the services pass of `make test` runs it.
"""

import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from annotation.people.services import person_create
from dialogs import lobby
from dialogs.models import Dialogue
from tests.builders import expert_ready

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _lock_waits() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # the view is otherwise read once per transaction
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


def test_a_pairing_that_waited_for_the_lock_sees_the_one_before(demo_databases):
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL (row locks): run it through `tools/test_stack.py with-services -- pytest ...`, as the "
            "second pass of `make test` does"
        )
    from annotation.demo import demo_load

    demo_load()
    workers = []
    for name in ("w1", "w2"):
        person, _ = person_create(username=name, role="worker", password="correct-horse-battery")
        person.tutorial_passed_at = timezone.now()
        person.save(update_fields=["tutorial_passed_at"])
        workers.append(person)
    expert, _ = person_create(username="x1", role="expert", password="correct-horse-battery")
    lobby.lobby_join(person=workers[0])
    expert_ready(expert)

    second: dict = {}

    def pair_later():
        try:
            second["created"] = lobby.lobby_pair()
        except Exception as exc:  # reported by the assertions below
            second["error"] = exc
        finally:
            connection.close()

    with transaction.atomic():  # the first pairing holds the expert's lock until this block commits
        first = lobby.lobby_pair()
        lobby.lobby_join(person=workers[1])
        racer = threading.Thread(target=pair_later)
        racer.start()
        deadline = time.monotonic() + 10
        while _lock_waits() == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _lock_waits() == 1, f"the second pairing never waited for the lock: {second}"
    racer.join(10)
    assert [d.worker for d in first] == [workers[0]]
    assert second["created"] == []  # the expert has a dialogue already (one at a time by default)
    assert Dialogue.objects.filter(expert=expert).count() == 1
