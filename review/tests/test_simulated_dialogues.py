"""A simulated worker's dialogues (docs/simulated_worker.md) are a pilot's: out of releases unless the export asks
for them (and says so), out of review, out of the statistics, worker quality and a campaign's payments."""

import json

import pytest
from django.utils import timezone

from dialogs.models import Campaign, Dialogue
from review.dataset import selectors
from review.dataset.services import dataset_build, export_options_clean
from review.models import DialogueReview
from review.passes.services import review_sync
from review.payments.services import campaign_bonuses, campaign_completions
from review.quality.services import quality_rebuild

pytestmark = pytest.mark.django_db


@pytest.fixture
def pilot(open_room):
    """One dialogue played through the room and then marked simulated (as pairing marks a simulated worker's)."""
    room = open_room("dorm_demo")
    Dialogue.objects.filter(pk=room.dialogue.pk).update(simulated=True)
    room.dialogue.simulated = True
    turn = room.ask("How many students are there?")
    room.answer(turn, "SELECT count(*) FROM student")
    return room.end(approve=False)


def _exported(tmp_path, name, **options):
    cleaned = export_options_clean(formats=["cosql"], statuses=["completed"], **options)
    report = dataset_build(options=cleaned, out_dir=tmp_path / name)
    return report


def test_an_export_leaves_simulated_dialogues_out_unless_asked_and_says_which(tmp_path, pilot):
    left_out = _exported(tmp_path, "without")
    assert left_out["counts"]["dialogues_selected"] == 0
    assert left_out["options"]["include_simulated"] is False
    asked = _exported(tmp_path, "with", include_simulated=True)
    assert asked["counts"]["dialogues_selected"] == 1
    assert asked["options"]["include_simulated"] is True
    files = list((tmp_path / "with" / "cosql_dataset" / "sql_state_tracking").glob("cosql_*.json"))
    texts = [
        turn["utterance"] for path in files for item in json.loads(path.read_text()) for turn in item["interaction"]
    ]
    assert texts == ["How many students are there?"]  # the release's text is the text the worker sent


def test_simulated_dialogues_enter_no_review_no_statistics_and_no_worker_quality(pilot):
    review_sync()
    assert not DialogueReview.objects.filter(dialogue=pilot).exists()
    assert selectors.statistics_for(statuses=["completed"])["overview"]["dialogues"] == 0
    quality_rebuild()
    assert not pilot.__class__.objects.filter(pk=pilot.pk, quality__isnull=False).exists()


def test_a_campaigns_payments_list_no_simulated_dialogue(pilot, demo_databases):
    campaign = Campaign.objects.create(name="Pilot", opens_at=timezone.now())
    campaign.databases.add(demo_databases["dorm_demo"])
    Dialogue.objects.filter(pk=pilot.pk).update(campaign=campaign)
    assert campaign_completions(campaign) == []
    assert campaign_bonuses(campaign) == []
