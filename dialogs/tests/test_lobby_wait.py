"""What the lobby and the desk say is what will happen: a waiting worker's estimate comes from the dialogues under way
and how long one typically takes (or "no estimate yet"), experts busy in a dialogue are online, not absent, and a ready
expert with a dialogue still open is told they are paired when they finish it."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotation.models import Goal
from dialogs import lobby
from dialogs.models import Dialogue, DialogueStatus
from dialogs.selectors import lobby_status, pairing_times
from tests.builders import expert_named, expert_ready, worker_named

pytestmark = pytest.mark.django_db


@pytest.fixture
def goals(demo_databases):
    from annotation.demo import demo_load

    demo_load()
    return list(Goal.objects.all())


def completed_dialogues(minutes: list[int]):
    """Chat dialogues completed earlier, each `minutes` long from pairing to end: what a typical length is read from."""
    goal = Goal.objects.first()
    worker, expert = worker_named("earlier-worker"), expert_named("earlier-expert")
    now = timezone.now()
    for n, length in enumerate(minutes):
        dialogue = Dialogue.objects.create(
            database=goal.database, goal=goal, worker=worker, expert=expert, status=DialogueStatus.COMPLETED
        )
        ended = now - timedelta(hours=n + 1)
        Dialogue.objects.filter(pk=dialogue.pk).update(created_at=ended - timedelta(minutes=length), ended_at=ended)


def busy_with_a_dialogue(expert, *, for_minutes: int) -> Dialogue:
    """The expert was ready at their desk and was paired `for_minutes` ago; the dialogue is still under way."""
    expert_ready(expert)
    lobby.lobby_join(person=worker_named(f"first-for-{expert.username}"))
    (dialogue,) = lobby.lobby_pair()
    Dialogue.objects.filter(pk=dialogue.pk).update(
        status=DialogueStatus.ACTIVE, created_at=timezone.now() - timedelta(minutes=for_minutes)
    )
    return dialogue


def test_workers_waiting_for_a_busy_expert_get_an_estimate_from_the_dialogue_under_way(goals):
    """Xena is four minutes into a dialogue; dialogues take ten. The next worker waits about six minutes, the one
    after about sixteen. (Before, an estimate was made only while an expert was free: never, for a worker who waits.)"""
    completed_dialogues([9, 10, 12])
    busy_with_a_dialogue(expert_named("xena"), for_minutes=4)
    wes, wyn = worker_named("wes"), worker_named("wyn")
    lobby.lobby_join(person=wes)
    lobby.lobby_join(person=wyn)
    assert lobby.lobby_pair() == []  # Xena is at her EXPERT_MAX_DIALOGUES
    first, second = lobby_status(wes), lobby_status(wyn)
    assert (first["ready_experts"], first["busy_experts"]) == (0, 1)
    assert abs(first["estimated_wait_seconds"] - 6 * 60) < 5
    assert abs(second["estimated_wait_seconds"] - 16 * 60) < 5


def test_with_no_dialogue_completed_yet_there_is_no_estimate_but_the_expert_is_still_online(goals):
    busy_with_a_dialogue(expert_named("xena"), for_minutes=4)
    wes = worker_named("wes")
    lobby.lobby_join(person=wes)
    status = lobby_status(wes)
    assert (status["busy_experts"], status["estimated_wait_seconds"]) == (1, None)


def test_with_no_expert_online_nothing_is_estimated(goals):
    completed_dialogues([10])
    wes = worker_named("wes")
    lobby.lobby_join(person=wes)
    status = lobby_status(wes)
    assert (status["ready_experts"], status["busy_experts"], status["estimated_wait_seconds"]) == (0, 0, None)


def test_places_free_in_turn_and_a_long_dialogue_is_expected_to_end_any_moment():
    # Two experts: one free now, one whose dialogue ran past the typical length. Then each place frees every 10 min.
    assert pairing_times(free_in=[0.0, 0.0], typical=600.0, queued=4) == [0.0, 0.0, 600.0, 600.0]
    assert pairing_times(free_in=[120.0, 0.0], typical=600.0, queued=3) == [0.0, 120.0, 600.0]
    assert pairing_times(free_in=[], typical=600.0, queued=2) is None
    assert pairing_times(free_in=[0.0], typical=None, queued=2) is None


def test_the_desk_says_a_ready_expert_with_a_dialogue_open_is_paired_when_they_finish_it(goals):
    xena = expert_named("xena")
    expert_ready(xena)
    assert lobby_status(xena)["readiness"] == (
        "You are ready: the next waiting worker is paired with you and the room opens by itself."
    )
    lobby.lobby_join(person=worker_named("wes"))
    (dialogue,) = lobby.lobby_pair()
    busy = (
        f"You are ready, but busy with dialogue {dialogue.pk}: you are paired with the next waiting worker when you "
        "finish it (end it, score the worker and choose “Stay ready”)."
    )
    status = lobby_status(xena)
    assert status["ready"] is True and status["readiness"] == busy
    # The "stay ready" form says the same, not "the next waiting worker is paired with you".
    client = Client()
    client.force_login(xena)
    response = client.post(reverse("dialogs:expert_ready"), {"ready": "1"})
    assert [str(message) for message in get_messages(response.wsgi_request)] == [busy]
    lobby.lobby_leave(person=xena)
    assert lobby_status(xena)["readiness"].startswith("You are not taking dialogues.")


def test_a_scripted_expert_busy_with_a_pilot_is_no_expert_a_worker_waits_for(goals):
    """A scripted expert (docs/simulated_worker.md) never takes a person: it is not counted online, ready or busy."""
    completed_dialogues([10])
    script = expert_named("scripted-expert")
    type(script).objects.filter(pk=script.pk).update(simulated=True)
    goal = Goal.objects.first()
    pilot = worker_named("pilot-worker")
    Dialogue.objects.create(
        database=goal.database, goal=goal, worker=pilot, expert=script, status=DialogueStatus.ACTIVE, simulated=True
    )
    expert_ready(script)
    wes = worker_named("wes")
    lobby.lobby_join(person=wes)
    status = lobby_status(wes)
    assert (status["ready_experts"], status["busy_experts"], status["estimated_wait_seconds"]) == (0, 0, None)
