"""Ada discards goals nobody should be asked, saying why (annotation.goals.services.goal_discard, docs/goals.md): the
decision is kept (who, when, why, what it did) and shown on the goal list; a discarded goal is offered to nobody and
never sampled again; a goal dialogues were played on is deactivated instead."""

import random

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from annotation.goals.sampler import GoalSampler, SampledGoal
from annotation.goals.services import goal_discard, goal_update, goals_save_sampled
from annotation.models import Database, Goal, GoalDiscard
from dialogs.selectors import goals_to_write
from tests.builders import DORM_TREE, dorm_dialogue, sampled_goals

pytestmark = pytest.mark.django_db

REASON = "Counts students per unique name: every answer is 1"


@pytest.fixture
def waiting(demo_databases):
    """A goal sampled from the dormitory database, waiting for its question."""
    return sampled_goals(Database.objects.get(db_id="dorm_demo"), [DORM_TREE])[0]


def test_ada_discards_a_sampled_goal_with_a_reason_and_it_is_kept_offered_to_nobody_and_never_sampled_again(
    waiting, ada, erin
):
    assert list(goals_to_write(erin)) == [waiting]
    record = goal_discard(goal=waiting, person=ada, reason=f"  {REASON}\n")
    waiting.refresh_from_db()
    assert record.outcome == GoalDiscard.Outcome.DISCARDED and record.by == ada and record.reason == REASON
    assert record.created_at is not None and waiting.discarded_at is not None and not waiting.active
    assert not waiting.waiting_for_question
    assert list(goals_to_write(erin)) == []  # query-first offers it to nobody
    # Its SQL stays known: saving it again from a run keeps nothing, and a sampler never gives it back.
    database = waiting.database
    assert goals_save_sampled(database=database, goals=[SampledGoal(waiting.sql, waiting.hardness, DORM_TREE)]) == 0
    sampler = GoalSampler(database.schema, database.path, random.Random(1), existing=[waiting.sql])
    assert waiting.sql in sampler.known
    assert waiting.sql not in {goal.sql for goal in sampler.sample(12)}
    # Nor can it be made active again from its edit page.
    with pytest.raises(ValidationError, match="discarded"):
        goal_update(goal=waiting, question="How many?", sql=waiting.sql, active=True)


def test_a_goal_dialogues_were_played_on_is_deactivated_instead_and_the_reason_kept(demo_databases, ada):
    dialogue, _, _ = dorm_dialogue(demo_databases)
    goal = dialogue.goal
    assert goal.active
    record = goal_discard(goal=goal, person=ada, reason="The question is ambiguous")
    goal.refresh_from_db()
    assert record.outcome == GoalDiscard.Outcome.DEACTIVATED
    assert not goal.active and goal.discarded_at is None
    assert Goal.objects.filter(pk=goal.pk, dialogues=dialogue).exists()  # its dialogue keeps it


@pytest.mark.parametrize(
    ("who", "reason", "message"),
    [
        ("erin", REASON, "Only admins"),
        ("ada", "   ", "Say why"),
        ("ada", "x" * 301, "at most 300"),
    ],
)
def test_a_discard_is_refused_with_a_reason_and_changes_nothing(waiting, ada, erin, who, reason, message):
    person = {"ada": ada, "erin": erin}[who]
    with pytest.raises(ValidationError, match=message):
        goal_discard(goal=waiting, person=person, reason=reason)
    waiting.refresh_from_db()
    assert waiting.discarded_at is None and not GoalDiscard.objects.exists()


def test_a_goal_is_discarded_once(waiting, ada):
    goal_discard(goal=waiting, person=ada, reason=REASON)
    with pytest.raises(ValidationError, match="discarded already"):
        goal_discard(goal=waiting, person=ada, reason="again")
    assert GoalDiscard.objects.count() == 1


def test_the_goal_list_shows_who_discarded_a_goal_when_and_why_and_only_admins_post(waiting, ada, erin, client):
    url = reverse("annotation:goal_discard", args=[waiting.pk])
    assert client.post(url, {"reason": REASON}).status_code == 302  # anonymous: to the login page
    client.force_login(erin)
    assert client.post(url, {"reason": REASON}).status_code == 403
    client.force_login(ada)
    assert client.get(url).status_code == 405
    refused = client.post(url, {"reason": ""}, follow=True)
    assert "Say why the goal is discarded" in refused.content.decode()
    response = client.post(url, {"reason": REASON}, follow=True)
    page = response.content.decode()
    assert "Discarded the goal" in page
    assert 'data-testid="discarded"' in page and REASON in page and "by ada" in page
    listed = client.get(reverse("annotation:goal_list") + "?waiting=1").content.decode()
    assert 'data-testid="waiting"' not in listed  # it waits for nothing now
    edit = client.get(reverse("annotation:goal_edit", args=[waiting.pk])).content.decode()
    assert 'data-testid="discard-history"' in edit and REASON in edit and 'name="reason"' not in edit
