"""Campaigns: which goal pairing hands out (balanced by goal, within targets, in the hardness mix, from open campaigns
only), the rules a campaign must keep, and the progress pages' reads."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from annotation.models import Goal
from annotation.people.services import person_create
from dialogs import lobby
from dialogs.crowd import campaigns
from dialogs.models import Campaign, Dialogue, DialogueStatus, LobbyEntry
from tests.builders import expert_ready, worker_named

pytestmark = pytest.mark.django_db


@pytest.fixture
def expert(db):
    return person_create(username="erin", role="expert", password="correct-horse-battery")[0]


@pytest.fixture
def lopsided(demo_databases):
    """The issue's collection: a small database with one goal, a big one with twenty."""
    small, big = demo_databases["library_demo"], demo_databases["dorm_demo"]
    only = Goal.objects.create(database=small, question="How many books?", sql="SELECT 1", hardness="medium")
    many = [
        Goal.objects.create(database=big, question=f"Question {i}?", sql=f"SELECT {i}", hardness="medium")
        for i in range(20)
    ]
    return {"small": small, "big": big, "only": only, "many": many}


def _campaign(name="Pilot", *, databases, target=1, **fields):
    fields.setdefault("opens_at", timezone.now() - timedelta(hours=1))
    return campaigns.campaign_save(
        name=name,
        databases=databases,
        goals=fields.pop("goals", []),
        target_per_goal=target,
        hardness_mix=fields.pop("hardness_mix", {}),
        closes_at=fields.pop("closes_at", None),
        bonus_min_questions=5,
        bonus_amount=Decimal("0.50"),
        **fields,
    )


def _collect(worker, expert, status=DialogueStatus.COMPLETED):
    """Hand `worker` their next goal and record the dialogue (as pairing would); returns the goal, or None."""
    choice = lobby.goal_choose(worker)
    if choice is None:
        return None
    goal, campaign = choice
    Dialogue.objects.create(
        database=goal.database, goal=goal, worker=worker, expert=expert, campaign=campaign, status=status
    )
    return goal


def _counts(goals):
    return [goal.dialogues.count() for goal in goals]


def test_pairing_balances_goals_not_databases(lopsided, expert, settings):
    """The issue's imbalance: by database first, the small database's one goal came back again and again while most
    of the big database's goals had none. Through the real lobby, ten workers get ten different goals."""
    settings.EXPERT_MAX_DIALOGUES = 20
    workers = [worker_named(f"w{i}") for i in range(10)]
    for worker in workers:
        lobby.lobby_join(person=worker)
    expert_ready(expert)
    dialogues = lobby.lobby_pair()
    assert len(dialogues) == 10
    handed = [dialogue.goal_id for dialogue in dialogues]
    assert len(set(handed)) == 10, "a goal was handed out twice while others had none"
    assert lopsided["only"].dialogues.count() <= 1
    # Equally collected goals spread over the databases: the small one's goal is among the first two.
    assert lopsided["only"].pk in handed[:2]


def test_a_campaign_goal_at_its_target_waits_until_every_other_goal_has_reached_it(lopsided, expert):
    _campaign(databases=[lopsided["small"], lopsided["big"]], target=2)
    goals = [lopsided["only"], *lopsided["many"]]
    for i in range(42):
        assert _collect(worker_named(f"w{i}"), expert) is not None
        counts = _counts(goals)
        assert max(counts) - min(counts) <= 1, f"after {i + 1} dialogues: {counts}"
    assert _counts(goals) == [2] * 21
    # Every goal has its two dialogues: nothing more is handed out, although goals are left.
    assert _collect(worker_named("late"), expert) is None


def test_a_goal_at_its_target_is_never_handed_out_even_to_a_worker_who_had_the_others(lopsided, expert):
    campaign = _campaign(databases=[lopsided["small"]], target=1, goals=[])
    veteran = worker_named("veteran")
    only = lopsided["only"]
    Dialogue.objects.create(database=only.database, goal=only, worker=veteran, expert=expert, campaign=campaign)
    assert lobby.goal_choose(worker_named("newcomer")) is None


def test_dialogues_that_gave_no_data_do_not_count_toward_the_target(lopsided, expert):
    _campaign(databases=[lopsided["small"]], target=1)
    only = lopsided["only"]
    assert _collect(worker_named("first"), expert, status=DialogueStatus.ABANDONED) == only
    assert _collect(worker_named("second"), expert, status=DialogueStatus.DROPPED) == only
    assert _collect(worker_named("third"), expert) == only
    assert _collect(worker_named("fourth"), expert) is None


def test_a_goal_whose_only_dialogue_was_rejected_in_review_is_handed_out_again_before_a_goal_at_its_target(
    lopsided, expert
):
    # Review takes its rejections out of the count through dialogs.lobby.collection_discard (review/apps.py).
    from review.models import DialogueReview, ReviewStage

    rejected, approved = lopsided["many"][:2]
    campaign = _campaign(databases=[lopsided["big"]], target=1, goals=[rejected, approved])
    assert {_collect(worker_named("first"), expert), _collect(worker_named("second"), expert)} == {rejected, approved}
    third = worker_named("third")
    assert lobby.goal_choose(third) is None  # both at their target
    DialogueReview.objects.create(dialogue=rejected.dialogues.get(), stage=ReviewStage.REJECTED)
    DialogueReview.objects.create(dialogue=approved.dialogues.get(), stage=ReviewStage.APPROVED)
    assert lobby.goal_choose(third) == (rejected, campaign)
    progress = campaigns.campaign_progress(campaign)
    assert (progress.collected, progress.target) == (1, 2)
    assert progress.goal_rows == [(rejected, 0), (approved, 1)]
    (listed,) = campaigns.campaign_progress_list()
    assert (listed.collected, listed.target) == (1, 2)
    # The rejected goal's second dialogue is the one that brings it to its target.
    assert _collect(worker_named("fourth"), expert) == rejected
    assert lobby.goal_choose(worker_named("fifth")) is None


def test_only_open_campaigns_hand_out_goals(lopsided, expert):
    now = timezone.now()
    _campaign(
        "Closed", databases=[lopsided["big"]], opens_at=now - timedelta(days=2), closes_at=now - timedelta(days=1)
    )
    _campaign("Later", databases=[lopsided["big"]], opens_at=now + timedelta(days=1))
    alice = worker_named("alice")
    # Campaigns exist and none is open: no goal at all, not every goal as with no campaign.
    assert lobby.goal_choose(alice) is None
    open_one = _campaign("Open", databases=[lopsided["small"]])
    assert lobby.goal_choose(alice) == (lopsided["only"], open_one)


def test_with_no_campaign_every_active_goal_is_in_play(lopsided, expert):
    assert not Campaign.objects.exists()
    goal, campaign = lobby.goal_choose(worker_named("alice"))
    assert campaign is None and goal.active


def test_a_crowd_worker_draws_from_their_own_campaign(lopsided, expert):
    from dialogs.crowd.services import CrowdIds, crowd_join

    own = _campaign("Own", databases=[lopsided["big"]])
    _campaign("Other", databases=[lopsided["small"]])
    ids = CrowdIds("prolific", "a" * 24, "b" * 24, "c" * 24)
    assignment = crowd_join(campaign=own, ids=ids)
    goal, campaign = lobby.goal_choose(assignment.crowd_worker.person, assignment=assignment)
    assert campaign == own and goal.database == lopsided["big"]
    own.closes_at = timezone.now()
    own.save(update_fields=["closes_at"])
    # Their campaign closed while they waited: no goal from another campaign they were not recruited for.
    assert lobby.goal_choose(assignment.crowd_worker.person, assignment=assignment) is None


def test_the_hardness_mix_orders_goals_collected_equally_often(demo_databases, expert):
    database = demo_databases["dorm_demo"]
    easy = [
        Goal.objects.create(database=database, question=f"E{i}", sql="SELECT 1", hardness="easy") for i in range(10)
    ]
    hard = [
        Goal.objects.create(database=database, question=f"H{i}", sql="SELECT 2", hardness="hard") for i in range(10)
    ]
    _campaign(databases=[database], hardness_mix={"easy": 20, "hard": 80})
    handed = [_collect(worker_named(f"w{i}"), expert) for i in range(10)]
    assert sum(goal.hardness == "easy" for goal in handed) == 2
    # The rest keeps the balance: once the hard goals run out, the easy ones follow, and the targets still hold.
    handed += [_collect(worker_named(f"v{i}"), expert) for i in range(10)]
    assert sorted(goal.pk for goal in handed) == sorted(goal.pk for goal in easy + hard)


def test_one_pairing_pass_draws_as_one_draw_per_worker_would(demo_databases, expert):
    """A pass pairs a burst of workers with one GoalDraw: each goal drawn counts before the next draw, so the goals,
    the mix and the targets come out as they do when each worker is drawn for alone (the test above)."""
    database = demo_databases["dorm_demo"]
    easy = [
        Goal.objects.create(database=database, question=f"E{i}", sql="SELECT 1", hardness="easy") for i in range(10)
    ]
    hard = [
        Goal.objects.create(database=database, question=f"H{i}", sql="SELECT 2", hardness="hard") for i in range(10)
    ]
    _campaign(databases=[database], hardness_mix={"easy": 20, "hard": 80})
    workers = [worker_named(f"burst{i}").pk for i in range(21)]
    draw = lobby.GoalDraw(workers)
    with CaptureQueriesContext(connection) as captured:
        handed = [draw.choose(worker) for worker in workers]
    assert sum(goal.hardness == "easy" for goal, _ in handed[:10]) == 2
    assert sorted(goal.pk for goal, _ in handed[:20]) == sorted(goal.pk for goal in easy + hard)
    assert handed[20] is None  # every goal at its target of one
    # The campaigns, the pool (with its chosen goals) and its counts once for the whole pass; then each goal's row.
    assert len(captured.captured_queries) <= 5 + 20, [q["sql"][:80] for q in captured.captured_queries]


def test_a_worker_with_no_goal_in_their_campaign_is_released_with_a_code(lopsided, expert, settings):
    settings.EXPERT_MAX_DIALOGUES = 2  # a place for the second worker, whom the campaign then has no goal for
    _campaign(databases=[lopsided["small"]])
    first, second = worker_named("first"), worker_named("second")
    lobby.lobby_join(person=first)
    lobby.lobby_join(person=second)
    expert_ready(expert)
    (dialogue,) = lobby.lobby_pair()
    assert dialogue.worker == first and dialogue.campaign.name == "Pilot"
    entry = LobbyEntry.objects.get(person=second)
    assert entry.outcome == "no_goal" and entry.completion_code.startswith("WOZ-")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": "  "}, "name"),
        ({"databases": []}, "databases"),
        ({"target_per_goal": 0}, "target_per_goal"),
        ({"hardness_mix": {"easy": 30, "hard": 30}}, "hardness_mix"),
        ({"hardness_mix": {"trivial": 100}}, "hardness_mix"),
        ({"closes_at": timezone.now() - timedelta(days=3)}, "closes_at"),
        ({"completion_url": "javascript:alert(1)//{code}"}, "completion_url"),
        ({"completion_url": "app.prolific.com/submissions/complete?cc={code}"}, "completion_url"),
        ({"bonus_amount": Decimal("-1")}, "bonus_amount"),
    ],
)
def test_a_campaign_keeps_its_rules(lopsided, change, field):
    values = {
        "name": "Pilot",
        "databases": [lopsided["small"]],
        "goals": [],
        "target_per_goal": 1,
        "hardness_mix": {},
        "opens_at": timezone.now() - timedelta(days=1),
        "closes_at": None,
        "completion_url": "https://app.prolific.com/submissions/complete?cc={code}",
        "bonus_min_questions": 5,
        "bonus_amount": Decimal("0.50"),
    }
    campaigns.campaign_save(**values)
    with pytest.raises(ValidationError) as caught:
        campaigns.campaign_save(**{**values, "name": "Second", **change})
    assert field in caught.value.message_dict


def test_chosen_goals_must_be_on_the_campaigns_databases(lopsided):
    with pytest.raises(ValidationError) as caught:
        _campaign(databases=[lopsided["small"]], goals=lopsided["many"][:2])
    assert "goals" in caught.value.message_dict


def test_a_campaign_with_chosen_goals_hands_out_those_only(lopsided, expert):
    chosen = lopsided["many"][5:7]
    _campaign(databases=[lopsided["big"]], goals=chosen)
    handed = {_collect(worker_named(f"w{i}"), expert) for i in range(2)}
    assert handed == set(chosen)
    assert _collect(worker_named("third"), expert) is None


def test_progress_counts_each_goal_up_to_its_target_in_a_fixed_number_of_queries(lopsided, expert):
    first = _campaign("First", databases=[lopsided["small"], lopsided["big"]], target=2)
    _campaign("Second", databases=[lopsided["small"]], target=1, goals=[lopsided["only"]])
    for i in range(3):
        Dialogue.objects.create(
            database=lopsided["small"],
            goal=lopsided["only"],
            worker=worker_named(f"w{i}"),
            expert=expert,
            campaign=first,
        )
    progress = campaigns.campaign_progress(first)
    assert (progress.goals, progress.target, progress.collected) == (21, 42, 2)
    assert progress.goal_rows[-1] == (lopsided["only"], 3)
    with CaptureQueriesContext(connection) as few:
        rows = campaigns.campaign_progress_list()
    for i in range(3):
        _campaign(f"More {i}", databases=[lopsided["big"]])
    with CaptureQueriesContext(connection) as more:
        rows = campaigns.campaign_progress_list()
    assert len(more) == len(few) == 5
    by_name = {row.campaign.name: row for row in rows}
    assert (by_name["First"].collected, by_name["First"].target) == (2, 42)
    assert (by_name["Second"].goals, by_name["Second"].collected) == (1, 0)
