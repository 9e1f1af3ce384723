"""A simulated worker's dialogues (docs/simulated_worker.md) are a pilot's: out of releases unless the export asks
for them (and says so), out of review (in none of its queues but "Not for review", and saying so on their page), out
of the statistics, worker quality and a campaign's payments."""

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from dialogs.models import Campaign, Dialogue
from review.dataset import selectors
from review.dataset.services import dataset_build, export_options_clean
from review.models import DialogueReview
from review.passes import queues
from review.passes import services as passes
from review.passes.services import review_sync
from review.payments.services import campaign_bonuses, campaign_completions
from review.quality.services import quality_rebuild
from review.tests.conftest import reviewer

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


def test_a_simulated_dialogue_counts_in_no_review_queue_and_cannot_be_taken(pilot):
    """It sat in "To review (pass 1)" for ever: no review row, so "Take the next" never found it."""
    assert queues.dialogue_queue(pilot) == "not_for_review"
    counts = queues.queue_counts()
    assert (counts["pass1"], counts["unsatisfactory"], counts["not_for_review"]) == (0, 0, 1)
    (row,) = queues.dashboard_list()
    assert (row.queue, passes.not_for_review_label(row.not_for_review)) == ("not_for_review", "simulated pilot")
    rachel = reviewer("rachel")
    assert passes.review_claim_next(reviewer=rachel) is None
    with pytest.raises(passes.ReviewError) as refused:
        passes.review_claim(reviewer=rachel, dialogue=pilot)
    assert refused.value.message == "This dialogue is not reviewed: a simulated pilot dialogue."


def test_a_simulated_dialogue_under_way_is_not_counted_in_progress_either(open_room):
    room = open_room("dorm_demo")
    Dialogue.objects.filter(pk=room.dialogue.pk).update(simulated=True, status="active")
    assert queues.queue_counts()["in_progress"] == 0
    assert queues.dialogue_queue(room.dialogue) == "not_for_review"


def test_its_page_says_it_is_a_simulated_pilot_dialogue_not_reviewed(client, pilot, rita):
    client.force_login(rita)
    page = client.get(reverse("review:dialogue", args=[pilot.pk])).content.decode()
    assert "This is a simulated pilot dialogue, not reviewed." in page
    assert "Not in review" not in page and "imported, or a solo sequence" not in page
