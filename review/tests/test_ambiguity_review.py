"""Reviewers correct a turn's ambiguity label like any field: checked as the room checks the expert's, appended to
the log, shown in the turn's history, and exported corrected."""

import pytest
from django.urls import reverse

from dialogs.models import Event, EventKind
from review.passes import services as passes
from review.passes.services import ReviewError
from review.records import dialogue_record_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(open_room):
    room = open_room("dorm_demo")
    expert = room.dialogue.expert
    vague = room.ask("Which are the big dorms?")
    room.send(expert, type="user_acts", turn=vague, acts=["AMBIGUOUS"], ambiguity={"type": "ambiguous_value"})
    room.send(expert, type="response", turn=vague, text="Do you mean more than 100 students?", acts=["CLARIFY"])
    yes = room.ask("yes, those")
    room.answer(yes, "SELECT dorm_name FROM dorm WHERE student_capacity > 100")
    return room.end(approve=False)


def test_a_reviewer_corrects_removes_and_the_acts_take_the_label_with_them(ended, rita, client):
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=ended)
    vague = dialogue_record_of(ended).user_turns[0]
    better = {"type": "vague_condition", "span": {"beg": 3, "end": 3}, "readings": ["SELECT dorm_name FROM dorm"]}
    passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="ambiguity", value=better)
    turn = dialogue_record_of(ended).user_turns[0]
    assert turn.ambiguity == better and turn.original["ambiguity"] == {"type": "ambiguous_value"}
    client.force_login(rita)
    page = client.get(reverse("review:dialogue", args=[ended.pk])).content.decode()
    assert "vague condition · “big” · reading 1: SELECT dorm_name FROM dorm" in page
    with pytest.raises(ReviewError) as caught:
        passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="ambiguity", value=better)
    assert caught.value.code == "unchanged"
    # Acts without AMBIGUOUS: the label goes with them, and a new one is refused.
    passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="user_acts", value=["NOT_RELATED"])
    assert dialogue_record_of(ended).user_turns[0].ambiguity is None
    with pytest.raises(ReviewError) as caught:
        passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="ambiguity", value=better)
    assert caught.value.code == "labels"
    passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="user_acts", value=["AMBIGUOUS"])
    passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="ambiguity", value=better)
    passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="ambiguity", value=None)
    assert dialogue_record_of(ended).user_turns[0].ambiguity is None
    assert Event.objects.filter(dialogue=ended, kind=EventKind.CORRECTION).count() == 5


@pytest.mark.parametrize(
    "value",
    [
        {"type": "unsupported_join"},
        {"type": "ambiguous_value", "span": {"beg": 0, "end": 40}},
        {"type": "ambiguous_value", "readings": ["SELECT " + "1" * 20_000]},
        "vague",
    ],
)
def test_a_bad_ambiguity_correction_is_refused(ended, rita, value):
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=ended)
    vague = dialogue_record_of(ended).user_turns[0]
    with pytest.raises(ReviewError) as caught:
        passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="ambiguity", value=value)
    assert caught.value.code == "labels"
    assert not Event.objects.filter(dialogue=ended, kind=EventKind.CORRECTION).exists()


def test_the_screen_offers_the_ambiguity_editor_on_the_labelled_turn_and_statistics_count_the_correction(
    ended, rita, client
):
    import json
    import re
    from html import unescape

    from review.dataset.selectors import statistics_for

    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=ended)
    client.force_login(rita)
    page = client.get(reverse("review:dialogue", args=[ended.pk])).content.decode()
    # Only the AMBIGUOUS turn has the field: its label, its tokens for the span, and an edit button.
    [field] = re.findall(r'<div class="field" data-field="ambiguity".*?</div>', page, re.S)
    assert page.count('data-edit="ambiguity"') == 1
    tokens = json.loads(unescape(re.search(r'data-tokens="([^"]*)"', field).group(1)))
    assert tokens == ["Which", "are", "the", "big", "dorms", "?"]
    assert json.loads(unescape(re.search(r'data-value="([^"]*)"', field).group(1))) == {"type": "ambiguous_value"}
    config = json.loads(re.search(r'<script id="review-config" type="application/json">(.*?)</script>', page).group(1))
    assert "vague_condition" in config["ambiguity_types"]["AMBIGUOUS"]

    vague = dialogue_record_of(ended).user_turns[0]
    better = {"type": "vague_condition", "span": {"beg": 3, "end": 3}}
    passes.review_correct(reviewer=rita, dialogue=ended, turn=vague.seq, field="ambiguity", value=better)
    figures = statistics_for(statuses=["completed"])["ambiguity"]
    assert (
        figures["AMBIGUOUS"]["types"]["vague_condition"] == 1 and figures["AMBIGUOUS"]["types"]["ambiguous_value"] == 0
    )
    assert figures["with_span"] == 1
