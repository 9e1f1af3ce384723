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


def test_confirmed_links_of_a_turn_folded_with_its_clarification_survive_in_the_chase_export(open_room, tmp_path):
    room = open_room("dorm_demo")
    vague = room.ask("Which are the big dorms?")
    room.clarify(vague, "Do you mean dorms with more than 100 students capacity?")
    answer = room.ask("yes, the big dorms")
    room.answer(answer, "SELECT dorm_name FROM dorm WHERE student_capacity > 100")
    dorm_table = room.dialogue.database.schema["table_names_original"].index("dorm")
    link = {"beg": 4, "end": 4, "entity": {"tableId": dorm_table, "value": "dorm"}, "type": "table"}
    room.send(room.dialogue.expert, type="turn_labels", turn=answer, schema_linking=[link])
    room.end(approve=False)
    options = export_options_clean(formats=["chase"], statuses=["completed"], split_map={"dorm_demo": "dev"})
    report = dataset_build(options=options, out_dir=tmp_path)
    [item] = json.loads((tmp_path / "chase" / "chase_dev.json").read_text(encoding="utf-8"))
    [turn] = item["interaction"]
    assert turn["utterance"].startswith("Which are the big dorms? | Do you mean")
    [span] = turn["schema_linking"]
    # The span now indexes the folded utterance's tokens: the same word, further on.
    assert turn["utterance_toks"][span["beg"] : span["end"] + 1] == ["dorms"]
    assert span["beg"] == len(turn["utterance_toks"]) - 1
    assert (span["entity"], span["type"]) == (link["entity"], "table")
    assert report["release_check"]["ok"]


def test_the_release_check_fails_an_export_that_loses_a_confirmed_label(labelled, tmp_path, monkeypatch):
    from review.dataset.formats import chase as formats
    from review.dataset.release_check import ReleaseCheckFailed

    dialogue, _, second = labelled
    options = export_options_clean(formats=["chase", "gold"], statuses=["completed"], split_map={"dorm_demo": "dev"})
    assert dataset_build(options=options, out_dir=tmp_path / "a")["release_check"]["ok"]
    # As the export was before: a builder that drops the links of a turn (here every turn).
    real = formats._collected_chase_labels
    monkeypatch.setattr(
        formats,
        "_collected_chase_labels",
        lambda state, tokens: {k: v for k, v in real(state, tokens).items() if k != "schema_linking"},
    )
    with pytest.raises(ReleaseCheckFailed) as caught:
        dataset_build(options=options, out_dir=tmp_path / "b")
    assert caught.value.report["release_check"]["disagreements"] == [
        f"chase/chase_dev.json: dialogue {dialogue.pk} (dorm_demo), turn {second}: "
        "1 confirmed schema link not in the file"
    ]


def test_links_set_before_the_text_was_corrected_are_left_out_and_links_set_again_are_kept(labelled, tmp_path):
    dialogue, _, second = labelled
    review_sync()
    rita = reviewer("rita")
    review_claim(reviewer=rita, dialogue=dialogue)
    options = export_options_clean(formats=["chase"], statuses=["completed"], split_map={"dorm_demo": "dev"})

    def links(out):
        report = dataset_build(options=options, out_dir=out)
        assert report["release_check"]["ok"]
        [item] = json.loads((out / "chase" / "chase_dev.json").read_text(encoding="utf-8"))
        return item["interaction"][1]["schema_linking"]

    review_correct(reviewer=rita, dialogue=dialogue, turn=second, field="utterance", value="What is the age of them?")
    assert links(tmp_path / "a") == []  # the confirmed span indexed "age" in the old text
    span = {"beg": 3, "end": 3, "type": "column", "entity": {"columnId": 4, "value": "age"}}
    review_correct(reviewer=rita, dialogue=dialogue, turn=second, field="schema_linking", value=[span])
    assert links(tmp_path / "b") == [span]


def test_pragmatics_and_question_style_are_given_in_the_room_exported_and_corrected(open_room, tmp_path):
    """CHASE's labels of the wording: given by the expert with CHASE's own values, written to the CHASE files
    (they were always "" before), corrected in review; a value outside CHASE's is refused."""
    from dialogs.errors import DialogueError

    room = open_room("dorm_demo")
    turn = room.ask("Show me the students")
    room.answer(turn, "SELECT first_name FROM student")
    with pytest.raises(DialogueError, match="pragmatics must be one of"):
        room.send(room.dialogue.expert, type="turn_labels", turn=turn, pragmatics="shouting")
    room.send(room.dialogue.expert, type="turn_labels", turn=turn, pragmatics="主动", question_style="陈述句")
    room.end(approve=False)
    dialogue = room.dialogue
    review_sync()
    rita = reviewer("rita")
    review_claim(reviewer=rita, dialogue=dialogue)
    review_correct(reviewer=rita, dialogue=dialogue, turn=turn, field="question_style", value="疑问句")
    with pytest.raises(ReviewError, match="question_style must be one of"):
        review_correct(reviewer=rita, dialogue=dialogue, turn=turn, field="question_style", value="a poem")
    out = tmp_path / "out"
    split = {"dorm_demo": "dev"}
    options = export_options_clean(formats=["chase"], statuses=["completed", "approved"], split_map=split)
    dataset_build(options=options, out_dir=out)
    [interaction] = json.loads((out / "chase" / "chase_dev.json").read_text(encoding="utf-8"))
    [exported] = interaction["interaction"]
    assert (exported["pragmatics"], exported["question_style"]) == ("主动", "疑问句")
