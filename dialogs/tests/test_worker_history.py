"""A worker's page of their past dialogues and completion codes: theirs only, in their words, in a fixed number of
queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from annotation.models import Role
from dialogs.models import Dialogue, DialogueStatus, LobbyEntry
from tests.builders import dorm_dialogue, worker_named

pytestmark = pytest.mark.django_db


def test_a_worker_sees_their_dialogues_and_codes_and_nobody_elses(client, demo_databases):
    first, alice, erin = dorm_dialogue(demo_databases)
    Dialogue.objects.filter(pk=first.pk).update(
        status=DialogueStatus.DROPPED, completion_code="WOZ-AAAAA11111", score=1, ended_at=timezone.now()
    )
    open_one = Dialogue.objects.create(database=first.database, goal=first.goal, worker=alice, expert=erin)
    LobbyEntry.objects.create(
        person=alice, role=Role.WORKER, outcome=LobbyEntry.Outcome.TIMED_OUT, completion_code="WOZ-BBBBB22222"
    )
    bob = worker_named("bob")
    Dialogue.objects.create(
        database=first.database,
        goal=first.goal,
        worker=bob,
        expert=erin,
        status=DialogueStatus.COMPLETED,
        completion_code="WOZ-CCCCC33333",
    )
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("dialogs:worker_history"))
    html = page.content.decode()
    assert page.status_code == 200
    assert "WOZ-AAAAA11111" in html and "WOZ-BBBBB22222" in html and "WOZ-CCCCC33333" not in html
    # The expert's score is not the worker's to see: a dropped dialogue reads as completed.
    assert "Dropped" not in html and "Completed" in html
    assert "Released after the wait limit" in html
    assert reverse("dialogs:room", args=[open_one.pk]) in html  # the one under way links back to its room
    rows = page.context["rows"]
    assert [row["code"] for row in rows] == ["WOZ-BBBBB22222", "", "WOZ-AAAAA11111"]
    # However long the history: the session, the user, the dialogues, the waits.
    for n in range(5):
        LobbyEntry.objects.create(person=alice, role=Role.WORKER, outcome="timed_out", completion_code=f"WOZ-{n}")
    with CaptureQueriesContext(connection) as more:
        client.get(reverse("dialogs:worker_history"))
    assert len(more) == len(queries)
