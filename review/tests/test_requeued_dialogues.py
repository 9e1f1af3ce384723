"""A pairing cancelled by sending its worker back to the queue is no data and says nothing of either person: it is in
none of review's queues ("Unsatisfactory" included), counts in "Not for review" only, cannot be claimed, says what it
is on its page, and is left out of the comparison of model help with its control group."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from dialogs.models import Campaign, Dialogue
from dialogs.presence import dialogue_release_unjoined
from dialogs.room import dialogue_supervise_requeue
from review.dataset.selectors import model_help_comparison
from review.models import DialogueReview
from review.passes import queues
from review.passes.services import ReviewError, review_claim, review_claim_next, review_sync
from review.tests.conftest import reviewer

pytestmark = pytest.mark.django_db

CANCELLED = "This is a pairing cancelled when its worker was sent back to the queue, not reviewed."


@pytest.fixture
def sent_back(open_room, ada):
    """Alice asked one question, answered with SQL (enough, in these tests, to be reviewable), then a supervisor sent
    her back to the queue."""
    room = open_room("dorm_demo")
    room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
    dialogue_supervise_requeue(dialogue=room.dialogue, supervisor=ada, reason="The expert has to leave.")
    room.dialogue.refresh_from_db()
    return room.dialogue


@pytest.fixture
def never_joined(open_room):
    """A pairing whose expert never came: released by housekeeping, abandoned with no question answered."""
    dialogue = open_room("dorm_demo").dialogue
    late = timezone.now() + timedelta(seconds=settings.EXPERT_JOIN_LIMIT_SECONDS + 1)
    assert dialogue_release_unjoined(dialogue=dialogue, now=late)
    dialogue.refresh_from_db()
    return dialogue


def test_cancelled_pairings_are_neither_unsatisfactory_nor_to_review(sent_back, never_joined):
    review_sync()
    assert not DialogueReview.objects.exists()
    assert queues.dialogue_queue(sent_back) == queues.dialogue_queue(never_joined) == "not_for_review"
    counts = queues.queue_counts()
    assert (counts["unsatisfactory"], counts["pass1"], counts["not_for_review"]) == (0, 0, 2)
    assert [item.pk for item in queues.dashboard_list(queue="unsatisfactory")] == []
    assert {item.pk for item in queues.dashboard_list(queue="not_for_review")} == {sent_back.pk, never_joined.pk}


def test_a_review_row_made_before_the_rule_does_not_make_it_claimable(sent_back):
    DialogueReview.objects.create(dialogue=sent_back)  # as review_sync made one before a pairing could be cancelled
    assert queues.dialogue_queue(sent_back) == "not_for_review"
    rachel = reviewer("rachel")
    assert review_claim_next(reviewer=rachel) is None
    with pytest.raises(ReviewError) as refused:
        review_claim(reviewer=rachel, dialogue=sent_back)
    assert refused.value.code == "not_reviewable"
    assert refused.value.message == (
        "This dialogue is not reviewed: a pairing cancelled when its worker was sent back to the queue."
    )


def test_its_page_says_what_it_is(client, sent_back, rita):
    client.force_login(rita)
    page = client.get(reverse("review:dialogue", args=[sent_back.pk])).content.decode()
    assert CANCELLED in page and "Not in review" not in page


def test_the_control_group_comparison_leaves_cancelled_pairings_out(open_room, sent_back):
    campaign = Campaign.objects.create(name="Pilot", model_holdback_percent=50)
    kept = open_room("dorm_demo")
    kept.answer(kept.ask("How many dorms are there?"), "SELECT count(*) FROM dorm")
    kept.end(approve=False)
    for slot, dialogue in enumerate([kept.dialogue, sent_back]):
        Dialogue.objects.filter(pk=dialogue.pk).update(campaign=campaign, control_slot=slot, model_help=False)
    result = model_help_comparison(campaign_id=campaign.pk)
    assert result["groups"]["control"]["dialogues"] == 1
    assert result["not_drawn"] == 0
