"""How a dialogue enters review: when its end commits (dialogs tells review through `dialogue_ended`), never when
somebody reads the queues, the statistics or an export; `manage.py review_sync` repairs what was missed."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from dialogs.models import DialogueStatus
from dialogs.room import _end
from review.dataset.selectors import statistics_for
from review.dataset.services import dataset_build, export_options_clean
from review.models import DialogueReview, ReviewStage
from review.passes import services as passes

pytestmark = pytest.mark.django_db


@pytest.fixture
def answered(open_room):
    """A dialogue with one answered question (the test minimum), not ended yet."""
    room = open_room("dorm_demo")
    room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
    return room


def test_a_dialogue_enters_review_once_its_end_commits(answered, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        answered.send(alice, type="end")
        assert not DialogueReview.objects.exists()  # still inside the end's transaction
    review = DialogueReview.objects.get(dialogue=answered.dialogue)
    assert (review.stage, review.pass_number, review.early, review.partial) == (ReviewStage.PENDING, 1, True, False)


def test_an_abandoned_dialogue_enters_review_marked_partial_only_after_the_minimum(
    answered, open_room, django_capture_on_commit_callbacks
):
    unanswered = open_room("dorm_demo").dialogue
    with django_capture_on_commit_callbacks(execute=True):
        _end(answered.dialogue, None, "", DialogueStatus.ABANDONED, None, "The worker left.")
        _end(unanswered, None, "", DialogueStatus.ABANDONED, None, "The worker left.")
    assert DialogueReview.objects.get(dialogue=answered.dialogue).partial
    assert not DialogueReview.objects.filter(dialogue=unanswered).exists()


def test_reads_never_make_review_rows_and_the_repair_command_does(answered, alice, rita, ada, client, tmp_path):
    # The end's commit never comes inside a test's transaction: the row it would make is the one "missed".
    answered.send(alice, type="end")
    client.force_login(rita)
    assert client.get(reverse("review:home")).status_code == 200
    assert passes.review_claim_next(reviewer=rita) is None
    client.force_login(ada)
    assert client.get(reverse("review:statistics")).status_code == 200
    statistics_for(statuses=["completed"])
    dataset_build(options=export_options_clean(formats=["gold"], statuses=["completed"]), out_dir=tmp_path)
    assert not DialogueReview.objects.exists()

    out = StringIO()
    call_command("review_sync", stdout=out)
    assert out.getvalue().strip() == "1 dialogue(s) entered review."
    assert passes.review_claim_next(reviewer=rita).dialogue_id == answered.dialogue.pk
    call_command("review_sync", stdout=out)
    assert out.getvalue().strip().endswith("0 dialogue(s) entered review.")
