"""A pairing cancelled by sending its worker back to the queue (a supervisor did, or the expert never joined) is marked
`requeued`, and its expert is not asked to score it: the room refuses the score, so a low one cannot block a worker who
did nothing wrong."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from dialogs import lobby, presence, room
from dialogs.errors import DialogueError
from dialogs.models import Dialogue, DialogueStatus
from dialogs.selectors import dialogue_snapshot
from tests.builders import expert_named, expert_ready, worker_named


@pytest.fixture
def goals(demo_databases):
    from annotation.demo import demo_load

    demo_load()


@pytest.fixture
def paired(goals):
    """Wanda, paired from the queue with Xavier: (dialogue, wanda, xavier)."""
    worker, expert = worker_named("wanda"), expert_named("xavier")
    lobby.lobby_join(person=worker)
    expert_ready(expert)
    (dialogue,) = lobby.lobby_pair()
    return dialogue, worker, expert


def score(dialogue, expert, value: int):
    message = {"id": f"score-{value}", "type": "score", "score": value}
    return room.dialogue_post(dialogue=dialogue, person=expert, message=message)


@pytest.mark.django_db
def test_a_worker_sent_back_by_a_supervisor_cannot_be_scored(paired):
    from annotation.models import User

    dialogue, worker, expert = paired
    ada = User.objects.get(username="ada")  # the admin the demo made
    for person in (worker, expert):
        room.dialogue_presence(dialogue=dialogue, person=person, joined=True)
    room.dialogue_supervise_requeue(dialogue=dialogue, supervisor=ada, reason="The expert has to leave.")
    dialogue.refresh_from_db()
    assert dialogue.requeued and dialogue.status == DialogueStatus.ABANDONED
    # Both screens are told: the worker's shows the way back, the expert's no score form.
    assert dialogue_snapshot(dialogue=dialogue, role="expert")["requeued"] is True
    assert dialogue_snapshot(dialogue=dialogue, role="worker")["requeued"] is True
    with pytest.raises(DialogueError) as refused:
        score(dialogue, expert, 1)
    assert refused.value.code == "invalid"
    assert refused.value.message == (
        "This pairing was cancelled and the worker went back to the queue: there is nothing to score."
    )
    dialogue.refresh_from_db()
    worker.refresh_from_db()
    assert dialogue.score is None and dialogue.status == DialogueStatus.ABANDONED and not worker.blocked
    assert not dialogue.events.filter(kind="score").exists()


@pytest.mark.django_db
def test_a_worker_whose_expert_never_joined_goes_back_and_the_pairing_is_not_scored(paired):
    dialogue, worker, expert = paired
    late = timezone.now() + timedelta(seconds=settings.EXPERT_JOIN_LIMIT_SECONDS + 1)
    (released,) = presence.dialogues_release_unjoined(now=late)
    assert released.requeued
    dialogue.refresh_from_db()
    assert dialogue.requeued
    with pytest.raises(DialogueError) as refused:
        score(dialogue, expert, 2)
    assert refused.value.code == "invalid"


@pytest.mark.django_db
def test_a_dialogue_that_ended_in_the_room_is_scored_as_before(paired):
    dialogue, worker, expert = paired
    room.dialogue_post(dialogue=dialogue, person=expert, message={"id": "t", "type": "terminate", "reason": "Off"})
    dialogue.refresh_from_db()
    assert not dialogue.requeued
    score(dialogue, expert, 4)
    assert Dialogue.objects.get(pk=dialogue.pk).score == 4


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_the_pairings_the_log_says_were_requeued(demo_databases):
    """Dialogues that ended before the field existed are marked from their end event."""
    executor = MigrationExecutor(connection)
    executor.migrate([("dialogs", "0015_control_group")])
    apps = executor.loader.project_state([("dialogs", "0015_control_group")]).apps
    dialogue_model, event_model = apps.get_model("dialogs", "Dialogue"), apps.get_model("dialogs", "Event")
    user_model, goal_model = apps.get_model("annotation", "User"), apps.get_model("annotation", "Goal")
    worker = user_model.objects.create(username="old-worker", role="worker")
    expert = user_model.objects.create(username="old-expert", role="expert")
    database = apps.get_model("annotation", "Database").objects.get(db_id="dorm_demo")
    goal = goal_model.objects.create(database=database, question="How many?", sql="SELECT 1")
    ended = {}
    for name, payload in (("requeued", {"status": "abandoned", "requeued": True}), ("kept", {"status": "completed"})):
        dialogue = dialogue_model.objects.create(
            database=database, goal=goal, worker=worker, expert=expert, status=payload["status"]
        )
        event_model.objects.create(dialogue=dialogue, seq=1, kind="end", payload=payload)
        ended[name] = dialogue.pk
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Dialogue.objects.get(pk=ended["requeued"]).requeued
    assert not Dialogue.objects.get(pk=ended["kept"]).requeued
