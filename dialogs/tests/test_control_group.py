"""The control group: which dialogues get model help, drawn once at pairing, in exact shares even for a small
campaign, and recorded on the dialogue (dialogs.control_group)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from annotation.models import Goal, User
from dialogs import lobby, solo
from dialogs.control_group import BLOCK, held_back_in_block, model_help_for, slot_held_back
from dialogs.crowd import campaigns
from dialogs.models import Campaign, Dialogue
from tests.builders import expert_named, expert_ready, worker_named

pytestmark = pytest.mark.django_db

MODEL = {"MODEL_BASE_URL": "http://127.0.0.1:9/v1", "MODEL_NAME": "test-model"}


@pytest.fixture
def with_model(settings):
    for name, value in MODEL.items():
        setattr(settings, name, value)


@pytest.fixture
def campaign(demo_databases):
    database = demo_databases["dorm_demo"]
    for number in range(12):
        Goal.objects.create(database=database, question=f"Question {number}?", sql=f"SELECT {number}")
    made = Campaign.objects.create(
        name="Pilot", opens_at=timezone.now() - timedelta(hours=1), target_per_goal=5, model_holdback_percent=30
    )
    made.databases.set([database])
    return made


def _drawn(campaign, count: int) -> list[Dialogue]:
    """`count` dialogues of the campaign made one after another, each drawn as pairing draws it."""
    goal = campaign.goal_pool().first()
    alice = User.objects.filter(username="alice").first() or worker_named("alice")
    erin = User.objects.filter(username="erin").first() or expert_named("erin")
    made = []
    for _ in range(count):
        with transaction.atomic():
            made.append(
                Dialogue.objects.create(
                    database=goal.database,
                    goal=goal,
                    worker=alice,
                    expert=erin,
                    campaign=campaign,
                    **model_help_for(campaign),
                )  # fmt: skip
            )
    return made


@pytest.mark.parametrize(
    ("percent", "per_block"),
    [(0, [0, 0, 0, 0]), (10, [1, 1, 1, 1]), (25, [3, 2, 3, 2]), (33, [3, 4, 3, 3]), (100, [10, 10, 10, 10])],
)
def test_each_block_holds_back_its_share_and_the_whole_stays_within_one(percent, per_block):
    """Worked by hand: at 25 % the cumulative share is 2.5, 5, 7.5, 10 dialogues, rounded half up 3, 5, 8, 10."""
    assert [held_back_in_block(percent, block) for block in range(4)] == per_block


@pytest.mark.parametrize("percent", [0, 10, 30, 50, 100])
def test_every_block_of_ten_holds_back_exactly_its_share_at_random_places(percent):
    held = [
        [slot_held_back(campaign_id=7, percent=percent, slot=block * BLOCK + place) for place in range(BLOCK)]
        for block in range(20)
    ]
    assert all(sum(block) == percent // 10 for block in held)
    if 0 < percent < 100:
        # Not the same places in every block, nor the same for another campaign: a random order, seeded.
        assert len({tuple(block) for block in held}) > 1
        other = [slot_held_back(campaign_id=8, percent=percent, slot=slot) for slot in range(20 * BLOCK)]
        assert other != [place for block in held for place in block]


def test_a_small_campaign_has_its_control_group_and_the_draw_is_written_on_each_dialogue(campaign, with_model):
    dialogues = _drawn(campaign, 10)
    assert [d.control_slot for d in dialogues] == list(range(10))
    assert sum(not d.model_help for d in dialogues) == 3  # 30 % of ten: three, never a coin flip's zero
    stored = dict(Dialogue.objects.values_list("control_slot", "model_help"))
    assert stored == {d.control_slot: d.model_help for d in dialogues}
    # A change of the share applies to the draws after it; what was drawn stays.
    Campaign.objects.filter(pk=campaign.pk).update(model_holdback_percent=100)
    (later,) = _drawn(campaign, 1)
    assert not later.model_help and later.control_slot == 10
    assert dict(Dialogue.objects.exclude(pk=later.pk).values_list("control_slot", "model_help")) == stored


@pytest.mark.parametrize(("percent", "helped"), [(0, 10), (100, 0)])
def test_no_share_helps_every_dialogue_and_the_whole_share_helps_none(campaign, with_model, percent, helped):
    Campaign.objects.filter(pk=campaign.pk).update(model_holdback_percent=percent)
    campaign.refresh_from_db()
    assert sum(d.model_help for d in _drawn(campaign, 10)) == helped


def test_without_a_model_nobody_is_helped_or_drawn_and_later_draws_start_from_the_first_place(campaign, settings):
    before = _drawn(campaign, 3)
    assert [(d.model_help, d.control_slot) for d in before] == [(False, None)] * 3
    for name, value in MODEL.items():
        setattr(settings, name, value)
    after = _drawn(campaign, 10)
    assert [d.control_slot for d in after] == list(range(10))
    assert sum(not d.model_help for d in after) == 3
    assert all(not d.model_help for d in Dialogue.objects.filter(pk__in=[d.pk for d in before]))


def test_one_place_of_the_draw_cannot_be_given_twice(campaign, with_model):
    (first,) = _drawn(campaign, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Dialogue.objects.create(
            database=first.database, goal=first.goal, worker=first.worker, expert=first.expert, campaign=campaign,
            model_help=True, control_slot=first.control_slot,
        )  # fmt: skip


def test_pairing_draws_and_a_dialogue_outside_any_campaign_is_helped_whenever_a_model_is_set(
    campaign, with_model, settings
):
    settings.EXPERT_MAX_DIALOGUES = 10
    for number in range(10):
        lobby.lobby_join(person=worker_named(f"w{number}"))
    erin = expert_named("erin")
    expert_ready(erin)
    dialogues = lobby.lobby_pair()
    assert len(dialogues) == 10 and {d.campaign_id for d in dialogues} == {campaign.pk}
    assert sorted(d.control_slot for d in dialogues) == list(range(10))
    assert sum(not d.model_help for d in dialogues) == 3
    sequence = solo.solo_create(expert=erin, database=campaign.databases.get())
    assert (sequence.model_help, sequence.control_slot) == (True, None)
    settings.MODEL_BASE_URL = ""
    assert not solo.solo_create(expert=erin, database=campaign.databases.get()).model_help


# --- The campaign's setting and page -------------------------------------------------------------------------------


def _form(database, **change):
    return {
        "name": "Spring",
        "databases": [database.pk],
        "target_per_goal": 2,
        "opens_at": "2026-03-01T09:00",
        "bonus_min_questions": 5,
        "bonus_amount": "0.00",
        **change,
    }


@pytest.mark.parametrize("share", ["-5", "101", "12.5"])
def test_a_share_outside_0_to_100_is_refused_with_a_clear_message_and_the_form_keeps_what_was_typed(
    client, ada, demo_databases, share
):
    client.force_login(ada)
    form = _form(demo_databases["dorm_demo"], model_holdback_percent=share, bonus_reason="Thanks for your care")
    response = client.post(reverse("dialogs:campaign_new"), form)
    assert response.status_code == 200 and not Campaign.objects.exists()
    page = response.content.decode()
    if share == "12.5":
        assert "Enter a whole number." in page
    else:
        assert "The control group is a whole percent of the dialogues, from 0" in page
    assert 'value="Thanks for your care"' in page and f'value="{share}"' in page


def test_the_service_refuses_a_share_outside_0_to_100(demo_databases):
    with pytest.raises(ValidationError) as caught:
        campaigns.campaign_save(
            name="Spring", databases=[demo_databases["dorm_demo"]], goals=[], target_per_goal=1, hardness_mix={},
            opens_at=timezone.now(), closes_at=None, bonus_min_questions=5, bonus_amount=Decimal("0"),
            model_holdback_percent=120,
        )  # fmt: skip
    assert list(caught.value.message_dict) == ["model_holdback_percent"]


def test_an_admin_sets_the_share_and_the_page_shows_the_groups_or_that_no_model_is_configured(
    client, ada, demo_databases, settings
):
    client.force_login(ada)
    response = client.post(
        reverse("dialogs:campaign_new"), _form(demo_databases["dorm_demo"], model_holdback_percent=20)
    )
    campaign = Campaign.objects.get()
    assert campaign.model_holdback_percent == 20
    edit = client.get(reverse("dialogs:campaign_edit", args=[campaign.pk])).content.decode()
    assert 'name="model_holdback_percent" value="20"' in edit and "blocks of ten dialogues" in edit
    page = client.get(response.url).content.decode()
    assert 'data-testid="no-model"' in page and "No model configured" in page
    for name, value in MODEL.items():
        setattr(settings, name, value)
    Goal.objects.create(database=demo_databases["dorm_demo"], question="How many?", sql="SELECT 1")
    _drawn(campaign, 10)
    page = client.get(response.url).content.decode()
    assert "No model configured" not in page
    assert 'data-testid="group-helped">8<' in page and 'data-testid="group-held-back">2 (20%)<' in page
    # An edit that leaves the share empty means none held back, and says so.
    client.post(reverse("dialogs:campaign_edit", args=[campaign.pk]), _form(demo_databases["dorm_demo"]))
    campaign.refresh_from_db()
    assert campaign.model_holdback_percent == 0
