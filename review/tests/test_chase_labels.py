"""CHASE labels collected in the room, after it: review corrections, statistics, and the CHASE export's round trip
through import."""

import json

import pytest

from dialogs.models import EventKind
from review.dataset.importer import dataset_import
from review.dataset.selectors import statistics_for
from review.dataset.services import dataset_build, export_options_clean
from review.passes.services import ReviewError, review_claim, review_correct, review_sync
from review.records import dialogue_record_of
from review.tests.conftest import reviewer

pytestmark = pytest.mark.django_db


@pytest.fixture
def labelled(open_room):
    """A dialogue whose second question follows the first (R1), with the expert's phenomena and a confirmed link."""
    room = open_room("dorm_demo")
    first = room.ask("Which students are there?")
    room.answer(first, "SELECT first_name FROM student")
    second = room.ask("And their age?")
    room.answer(second, "SELECT first_name, age FROM student", response="Here are their ages.")
    room.send(
        room.dialogue.expert,
        type="turn_labels",
        turn=second,
        contextual_phenomena=["Ellipsis Continuation"],
        schema_linking=[{"beg": 2, "end": 2, "type": "column", "entity": {"columnId": 4, "value": "age"}}],
    )
    room.end(approve=False)
    return room.dialogue, first, second


def test_a_reviewer_corrects_the_labels_and_a_wrong_label_is_refused(labelled):
    dialogue, _, second = labelled
    review_sync()
    rita = reviewer("rita")
    review_claim(reviewer=rita, dialogue=dialogue)
    review_correct(
        reviewer=rita,
        dialogue=dialogue,
        turn=second,
        field="intent",
        value={"category": "combination", "relations": ["R1", "R14"]},
        reason="they also wanted an order",
    )
    review_correct(reviewer=rita, dialogue=dialogue, turn=second, field="contextual_phenomena", value=["Coreference"])
    for field, value in (
        ("intent", {"category": "display", "relations": ["R1"]}),
        ("contextual_phenomena", ["Telepathy"]),
        ("schema_linking", [{"beg": 9, "end": 9, "type": "table", "entity": {"tableId": 0, "value": "student"}}]),
    ):
        with pytest.raises(ReviewError) as caught:
            review_correct(reviewer=rita, dialogue=dialogue, turn=second, field=field, value=value)
        assert caught.value.code == "labels"
    turn = dialogue_record_of(dialogue).user_turns[1]
    assert turn.labels["intent"] == {"category": "combination", "relations": ["R1", "R14"]}
    assert turn.detected["intent"] == {"category": "same_instances", "relations": ["R1"]}
    assert turn.original["contextual_phenomena"] == ["Ellipsis Continuation"]
    assert turn.labels["contextual_phenomena"] == ["Coreference"]
    assert dialogue.events.filter(kind=EventKind.CORRECTION).count() == 2


def test_statistics_count_recommended_and_asked_intents_and_what_experts_did_with_drafts(labelled):
    dialogue, _, _ = labelled
    stats = statistics_for(statuses=["completed"])
    intents = stats["intents"]
    record = dialogue_record_of(dialogue)
    recommended = record.user_turns[1].recommended["category"]
    assert intents["recommended"][recommended] >= 1
    assert intents["asked"]["same_instances"] >= 1  # the second question added a property: R1
    assert intents["relations"]["R1"] >= 1
    followed = intents["recommendation_followed"]
    assert followed["compared"] >= 1
    assert followed["matrix"][recommended]["same_instances"] >= 1
    drafts = intents["drafts"]
    assert drafts["offered"] >= 2 and drafts["replaced"] >= 2  # "Here is the result." is not the draft
    assert stats["contextual_phenomena"]["Ellipsis Continuation"] >= 1


def test_collected_labels_round_trip_through_the_chase_export_and_import(labelled, tmp_path):
    dialogue, _, _ = labelled

    def export(out):
        options = export_options_clean(formats=["chase"], statuses=["completed"], split_map={"dorm_demo": "dev"})
        dataset_build(options=options, out_dir=out)
        return json.loads((out / "chase" / "chase_dev.json").read_text(encoding="utf-8"))

    [first_export] = [
        item for item in export(tmp_path / "a") if item["interaction"][1]["utterance"] == "And their age?"
    ]
    second = first_export["interaction"][1]
    assert second["intent"] == "相同实体实例的属性"
    assert second["contextual_phenomena"] == ["Ellipsis Continuation"]
    assert second["schema_linking"] == [
        {"beg": 2, "end": 2, "entity": {"columnId": 4, "value": "age"}, "type": "column"}
    ]
    (tmp_path / "in").mkdir()
    data = tmp_path / "in" / "chase.json"
    data.write_text(json.dumps([first_export], ensure_ascii=False), encoding="utf-8")
    tables = tmp_path / "in" / "tables.json"
    tables.write_text(json.dumps([dialogue.database.schema]), encoding="utf-8")
    dialogue.delete()  # only the imported copy is left to export
    report = dataset_import(fmt="chase", data_path=data, tables_path=tables, databases_dir=None)
    assert report.dialogues_created == 1
    [again] = export(tmp_path / "b")
    assert [
        {key: turn[key] for key in ("intent", "contextual_phenomena", "schema_linking", "utterance", "query")}
        for turn in again["interaction"]
    ] == [
        {key: turn[key] for key in ("intent", "contextual_phenomena", "schema_linking", "utterance", "query")}
        for turn in first_export["interaction"]
    ]
