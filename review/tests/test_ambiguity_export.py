"""The expert's ambiguity labels in the files of a release and in the statistics: the all-info file and the CHASE
export carry them, the CoSQL state-tracking and SParC files keep their format."""

import json

import pytest

from review.dataset import validation
from review.dataset.selectors import statistics_for
from review.dataset.services import dataset_build, export_options_clean

pytestmark = pytest.mark.django_db

READINGS = ["SELECT dorm_name FROM dorm WHERE student_capacity > 100", "SELECT dorm_name FROM dorm"]


@pytest.fixture
def ambiguous_dialogue(open_room):
    """Big dorms (a vague condition, clarified, with two readings), then a question about a column dorm_demo lacks."""
    room = open_room("dorm_demo")
    expert = room.dialogue.expert
    vague = room.ask("Which are the big dorms?")
    ambiguity = {"type": "vague_condition", "span": {"beg": 3, "end": 3}, "readings": READINGS}
    room.send(expert, type="user_acts", turn=vague, acts=["AMBIGUOUS"], ambiguity=ambiguity)
    room.send(expert, type="response", turn=vague, text="Do you mean more than 100 students?", acts=["CLARIFY"])
    yes = room.ask("yes, those")
    room.answer(yes, READINGS[0])
    pool = room.ask("Which dorms have a pool?")
    room.send(expert, type="user_acts", turn=pool, acts=["CANNOT_ANSWER"], ambiguity={"type": "nonexistent_value"})
    room.send(expert, type="response", turn=pool, text="Sorry, I cannot tell that.", acts=["REJECT"])
    return room.end()


def _build(tmp_path):
    out = tmp_path / "out"
    dataset_build(options=export_options_clean(formats=["cosql", "sparc", "chase", "gold"]), out_dir=out)
    return out


def _all(out, pattern):
    return [
        item
        for split in ("train", "dev", "test")
        for item in json.loads((out / pattern.format(split=split)).read_text())
    ]


def test_all_info_and_chase_carry_the_labels_and_cosql_keeps_its_format(tmp_path, ambiguous_dialogue):
    out = _build(tmp_path)
    info = json.loads((out / "cosql_dataset" / "cosql_all_info_dialogs.json").read_text())
    assert validation.schema_errors("cosql_all_info", info) == []
    users = [turn for turn in info[str(ambiguous_dialogue.pk)]["turns"] if turn["isUser"]]
    assert users[0]["ambiguity"] == {"type": "vague_condition", "span": {"beg": 3, "end": 3}, "readings": READINGS}
    assert "ambiguity" not in users[1]
    assert users[2]["ambiguity"] == {"type": "nonexistent_value"}

    chase = _all(out, "chase/chase_{split}.json")
    assert validation.schema_errors("chase", chase) == []
    [turn] = chase[0]["interaction"]
    assert list(turn) == sorted(turn)
    [carried] = turn["ambiguity"]
    assert list(carried) == sorted(carried)
    span = carried["span"]
    assert turn["utterance_toks"][span["beg"] : span["end"] + 1] == ["big"]
    assert carried["type"] == "vague_condition" and carried["readings"] == READINGS

    [cosql] = _all(out, "cosql_dataset/sql_state_tracking/cosql_{split}.json")
    assert list(cosql["interaction"][0]) == ["utterance", "utterance_toks", "query", "query_toks_no_value", "sql"]
    [sparc] = _all(out, "sparc/{split}.json")
    assert list(sparc["interaction"][0]) == ["query", "utterance_toks", "utterance", "sql"]


def test_statistics_count_the_sub_types(ambiguous_dialogue):
    figures = statistics_for(statuses=["completed"])["ambiguity"]
    assert figures["AMBIGUOUS"]["turns"] == 1 and figures["AMBIGUOUS"]["typed"] == 1
    assert figures["AMBIGUOUS"]["types"] == {
        "ambiguous_select_column": 0,
        "ambiguous_filter_column": 0,
        "ambiguous_value": 0,
        "vague_condition": 1,
    }
    assert figures["CANNOT_ANSWER"]["types"]["nonexistent_value"] == 1
    assert (figures["with_span"], figures["with_readings"], figures["readings"]) == (1, 1, 2)


def test_the_statistics_page_shows_the_sub_types(ambiguous_dialogue, ada, client):
    from django.urls import reverse

    client.force_login(ada)
    page = client.get(reverse("review:statistics")).content.decode()
    assert 'data-testid="stats-ambiguity"' in page and "vague_condition" in page


def test_a_span_in_a_later_part_of_a_fold_moves_onto_that_part():
    from types import SimpleNamespace

    from dialogs.log import StateTurn
    from review.dataset.formats.chase import chase_ambiguities

    def turn(text, ambiguity=None):
        return SimpleNamespace(text=text, ambiguity=ambiguity)

    # The question and the answer to the clarification both say "big"; each span lands on its own part.
    question = turn("Which are the big dorms?", {"type": "vague_condition", "span": {"beg": 3, "end": 3}})
    answer = turn("big ones, the big dorms", {"type": "vague_condition", "span": {"beg": 4, "end": 5}})
    state = StateTurn(turn=answer, parts=[question.text, "Big?", answer.text], folded_turns=[question])
    tokens = "Which are the big dorms ? | Big ? | big ones , the big dorms".split()
    first, second = chase_ambiguities(state, tokens)
    assert first["span"] == {"beg": 3, "end": 3}
    assert tokens[second["span"]["beg"] : second["span"]["end"] + 1] == ["big", "dorms"]
    assert second["span"]["beg"] > 8


def test_a_span_on_a_word_said_twice_in_a_question_stays_on_the_one_marked():
    from types import SimpleNamespace

    from dialogs.log import StateTurn
    from review.dataset.formats.chase import chase_ambiguities

    said = SimpleNamespace(
        text="the big dorm or the big house", ambiguity={"type": "vague_condition", "span": {"beg": 5, "end": 5}}
    )
    state = StateTurn(turn=said, parts=[said.text], folded_turns=[])
    [carried] = chase_ambiguities(state, said.text.split())
    assert carried["span"] == {"beg": 5, "end": 5}


def _chase_file(out, folder):
    """The exported CHASE interactions, written as one file to import, with the tables file beside it."""
    folder.mkdir()
    data = folder / "chase.json"
    data.write_text(json.dumps(_all(out, "chase/chase_{split}.json"), ensure_ascii=False), encoding="utf-8")
    return data, out / "chase" / "chase_tables.json"


def test_export_import_export_keeps_the_ambiguity_labels(tmp_path, ambiguous_dialogue):
    from review.dataset.importer import dataset_import

    first = _build(tmp_path / "a")
    data, tables = _chase_file(first, tmp_path / "in")
    exported = [
        turn.get("ambiguity") for item in _all(first, "chase/chase_{split}.json") for turn in item["interaction"]
    ]
    assert exported[0][0]["type"] == "vague_condition"  # the round trip below is not an empty one
    ambiguous_dialogue.delete()  # only the imported copy is left to export

    report = dataset_import(fmt="chase", data_path=data, tables_path=tables)
    assert report.dialogues_created == 1 and not report.skipped
    again = _build(tmp_path / "b")
    assert [
        turn.get("ambiguity") for item in _all(again, "chase/chase_{split}.json") for turn in item["interaction"]
    ] == exported
    info = json.loads((again / "cosql_dataset" / "cosql_all_info_dialogs.json").read_text())
    [imported] = info.values()
    [asked] = [turn for turn in imported["turns"] if turn["isUser"]]
    assert asked["label"] == ["AMBIGUOUS"] and asked["ambiguity"] == exported[0][0]


@pytest.mark.parametrize(
    "labels, says",
    [
        ([{"type": "vague_condition"}, {"type": "ambiguous_value"}], "2 labels on one turn"),
        ([{"type": "vague_condition", "span": {"beg": 3, "end": 99}}], "token indexes"),
        ([{"type": "nonexistent_value", "readings": ["SELECT 1"]}], "cannot answer has none"),
    ],
)
def test_an_imported_ambiguity_that_does_not_fit_refuses_its_interaction_with_the_reason(
    tmp_path, ambiguous_dialogue, labels, says
):
    from review.dataset.importer import dataset_import

    first = _build(tmp_path / "a")
    data, tables = _chase_file(first, tmp_path / "in")
    interactions = json.loads(data.read_text())
    interactions[0]["interaction"][0]["ambiguity"] = labels
    data.write_text(json.dumps(interactions, ensure_ascii=False), encoding="utf-8")
    report = dataset_import(fmt="chase", data_path=data, tables_path=tables)
    [skipped] = report.skipped
    assert (
        report.dialogues_created == 0
        and skipped["reason"].startswith("turn 0's ambiguity: ")
        and says in skipped["reason"]
    )
