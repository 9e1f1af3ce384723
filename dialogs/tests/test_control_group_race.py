"""Pairings at once in one campaign on PostgreSQL: each takes its own place in the control group's draw, and the
share held back stays exact (dialogs.control_group locks the campaign's row). SQLite serialises whole transactions,
so only PostgreSQL can show this; the services pass of `make test` runs it."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from annotation.models import Goal
from dialogs.control_group import model_help_for
from dialogs.models import Campaign, Dialogue
from tests.builders import expert_named, worker_named

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_pairings_at_once_take_distinct_places_and_keep_the_share(demo_databases, settings):
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL (row locks): run it through `tools/test_stack.py with-services -- pytest ...`, as the "
            "second pass of `make test` does"
        )
    settings.MODEL_BASE_URL, settings.MODEL_NAME = "http://127.0.0.1:9/v1", "test-model"
    database = demo_databases["dorm_demo"]
    goal = Goal.objects.create(database=database, question="How many students?", sql="SELECT count(*) FROM student")
    campaign = Campaign.objects.create(
        name="Pilot", opens_at=timezone.now() - timedelta(hours=1), model_holdback_percent=20
    )
    erin, alice = expert_named("erin"), worker_named("alice")
    start = threading.Barrier(20)
    errors: list[Exception] = []

    def pair():
        try:
            start.wait(10)
            with transaction.atomic():
                Dialogue.objects.create(
                    database=database, goal=goal, worker=alice, expert=erin, campaign=campaign,
                    **model_help_for(campaign),
                )  # fmt: skip
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=pair) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    drawn = list(Dialogue.objects.filter(campaign=campaign).values_list("control_slot", "model_help"))
    assert sorted(slot for slot, _ in drawn) == list(range(20))
    assert sum(not helped for _, helped in drawn) == 4  # 20 % of two blocks of ten
