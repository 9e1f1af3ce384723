"""SParC's thematic relations (Table 2): given by the expert on a follow-up question, proposed from the SQL pair and
never taken as a label, corrected in review (the original kept), written to the SParC files and read back by their
import, and counted on the statistics page and in the export's report/ folder. Also the SQL token overlap and the
component shares of SParC's Figure 2 and Table 4."""

import csv
import io
import json
from pathlib import Path

import pytest
from django.urls import reverse

from annotation.labels.acts import (
    THEMATIC_OF_RELATION,
    THEMATIC_RELATIONS,
    LabelError,
    check_thematic_relations,
    thematic_proposal,
)
from annotation.labels.relations import RELATION_NAMES
from dialogs.errors import DialogueError
from dialogs.models import EventKind
from review.dataset import figures
from review.dataset.importer import dataset_import
from review.dataset.report_folder import figure_table
from review.dataset.services import dataset_build, export_options_clean
from review.dataset.statistics import compute_statistics
from review.passes.services import ReviewError, review_claim, review_correct, review_sync
from review.records import dialogue_record_of
from review.tests.conftest import reviewer
from review.tests.test_statistics_figures import SCHEMA, record, turn


def test_the_check_keeps_known_relations_in_order_and_refuses_others():
    assert check_thematic_relations(["theme_property", "refinement", "refinement"]) == ["refinement", "theme_property"]
    assert check_thematic_relations([]) == []
    for wrong in (["topic shift"], "refinement", None, [3]):
        with pytest.raises(LabelError):
            check_thematic_relations(wrong)


def test_a_proposal_follows_the_intents_relations_and_never_says_answer_refinement():
    assert set(THEMATIC_OF_RELATION) <= set(RELATION_NAMES)
    assert thematic_proposal({"category": "same_instances", "relations": ["R1"]}) == ["theme_entity"]
    assert thematic_proposal({"category": "combination", "relations": ["R1", "R8"]}) == ["refinement", "theme_entity"]
    assert thematic_proposal({"category": "different_instances", "relations": ["R10"]}) == ["theme_property"]
    assert thematic_proposal({"category": "different_entity", "relations": ["R13"]}) == []
    assert thematic_proposal(None) == []
    assert "answer_refinement_theme" not in THEMATIC_OF_RELATION.values()


def test_the_sparc_schema_allows_exactly_the_relations():
    schema = json.loads(Path("review/schemas/sparc.json").read_text(encoding="utf-8"))
    turn_schema = schema["items"]["properties"]["interaction"]["items"]["properties"]["thematic_relations"]
    assert turn_schema["items"]["enum"] == list(THEMATIC_RELATIONS)


@pytest.fixture
def themed(open_room):
    """Three questions on dorm_demo; the expert labels the second theme-entity, the third refinement."""
    room = open_room("dorm_demo")
    first = room.ask("Which students are there?")
    room.answer(first, "SELECT first_name FROM student")
    second = room.ask("And their age?")
    room.answer(second, "SELECT first_name, age FROM student")
    third = room.ask("Only those older than 20")
    room.answer(third, "SELECT first_name, age FROM student WHERE age > 20")
    with pytest.raises(DialogueError, match="first"):
        room.send(room.dialogue.expert, type="turn_labels", turn=first, thematic_relations=["refinement"])
    with pytest.raises(DialogueError, match="not thematic relations: topic"):
        room.send(room.dialogue.expert, type="turn_labels", turn=second, thematic_relations=["topic"])
    room.send(room.dialogue.expert, type="turn_labels", turn=second, thematic_relations=["theme_entity"])
    room.send(room.dialogue.expert, type="turn_labels", turn=third, thematic_relations=["refinement"])
    room.end(approve=False)
    return room.dialogue, first, second, third


@pytest.mark.django_db
def test_given_in_the_room_corrected_in_review_and_counted(themed):
    dialogue, first, second, third = themed
    record_ = dialogue_record_of(dialogue)
    assert record_.user_turns[1].labels["thematic_relations"] == ["theme_entity"]
    assert "thematic_relations" not in record_.user_turns[1].detected  # a proposal is never stored as a label
    review_sync()
    rita = reviewer("rita")
    review_claim(reviewer=rita, dialogue=dialogue)
    review_correct(reviewer=rita, dialogue=dialogue, turn=third, field="thematic_relations",
                   value=["refinement", "theme_entity"], reason="it also keeps the age")  # fmt: skip
    with pytest.raises(ReviewError) as caught:
        review_correct(reviewer=rita, dialogue=dialogue, turn=third, field="thematic_relations", value=["nope"])
    assert caught.value.code == "labels"
    with pytest.raises(ReviewError, match="this is the first"):
        review_correct(reviewer=rita, dialogue=dialogue, turn=first, field="thematic_relations", value=["refinement"])
    third_turn = dialogue_record_of(dialogue).user_turns[2]
    assert third_turn.labels["thematic_relations"] == ["refinement", "theme_entity"]
    assert third_turn.original["thematic_relations"] == ["refinement"]  # the expert's label is kept
    assert dialogue.events.filter(kind=EventKind.CORRECTION, payload__field="thematic_relations").count() == 1
    record_ = dialogue_record_of(dialogue)
    stats = compute_statistics([record_], schemas={"dorm_demo": dialogue.database.schema}, encoded={})[
        "thematic_relations"
    ]
    assert stats["follow_ups"] == 2 and stats["labelled"] == 2 and stats["labels"] == 3
    assert stats["counts"] == {"refinement": 1, "theme_entity": 2, "theme_property": 0, "answer_refinement_theme": 0}
    assert stats["percent"]["theme_entity"] == 66.7 and stats["percent_of_labelled"]["theme_entity"] == 100.0


@pytest.mark.django_db
def test_the_review_screen_shows_the_label_and_the_proposal(client, themed):
    dialogue, *_ = themed
    review_sync()
    rita = reviewer("rita")
    client.force_login(rita)
    html = client.get(reverse("review:dialogue", args=[dialogue.pk])).content.decode()
    assert 'data-testid="thematic" data-value="theme_entity">Theme-entity</span>' in html
    # Every follow-up SQL turn; the first question has nothing earlier to relate to, so no field to edit.
    assert html.count('data-field="thematic_relations"') == 2


@pytest.mark.django_db
def test_the_sparc_files_carry_the_labels_and_their_import_reads_them_back(themed, tmp_path):
    dialogue, *_ = themed

    def export(out):
        options = export_options_clean(formats=["sparc"], statuses=["completed"], split_map={"dorm_demo": "dev"})
        report = dataset_build(options=options, out_dir=out)
        assert report["release_check"]["ok"], report["release_check"]
        return json.loads((out / "sparc" / "dev.json").read_text(encoding="utf-8"))

    [item] = export(tmp_path / "a")
    assert [t.get("thematic_relations") for t in item["interaction"]] == [None, ["theme_entity"], ["refinement"]]
    assert list(item["interaction"][1]) == ["query", "utterance_toks", "utterance", "sql", "thematic_relations"]
    report_csv = (tmp_path / "a" / "report" / "thematic_relations.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(report_csv)))
    assert rows[0][:2] == ["relation", "count"] and ["refinement", "1"] == rows[1][:2]
    assert (tmp_path / "a" / "report" / "thematic_relations.svg").exists()
    assert (tmp_path / "a" / "report" / "sql_overlap.csv").exists()
    dialogue.delete()  # only the imported copy is left to export
    report = dataset_import(
        fmt="sparc",
        data_path=tmp_path / "a" / "sparc" / "dev.json",
        tables_path=tmp_path / "a" / "sparc" / "tables.json",
        databases_dir=tmp_path / "a" / "sparc" / "database",
    )
    assert report.dialogues_created == 1
    [again] = export(tmp_path / "b")
    assert again["interaction"] == item["interaction"]


def test_sql_overlap_and_component_shares():
    turns = [
        turn(1, "all customers", sql="SELECT cust_name FROM Customer"),
        turn(2, "their age", sql="SELECT cust_name , Age FROM Customer"),
        turn(3, "older than 30", sql="SELECT cust_name , Age FROM Customer WHERE Age > 30"),
    ]
    stats = compute_statistics([record(1, turns)], schemas={"shop": SCHEMA}, encoded={})
    overlap = stats["sql_overlap"]
    assert overlap["turns"] == [1, 2, 3]
    # Turn 2's tokens {select, cust_name, age, from, customer}: 4 of 5 in turn 1; turn 3 adds where and value.
    assert overlap["percent"][0][1] == 80.0 and overlap["percent"][1][2] == round(100 * 5 / 7, 1)
    assert overlap["percent"][0][2] == round(100 * 4 / 7, 1) and overlap["percent"][1][0] is None
    shares = stats["sql_component_shares"]
    assert shares["sql_turns"] == 3 and shares["percent"]["WHERE"] == 33.3 and shares["percent"]["JOIN"] == 0.0
    header, rows = figure_table("sql_overlap", stats)
    assert header[:3] == ["earlier_turn_i", "later_turn_j", "percent"] and [1, 2, 80.0, 1] in rows


@pytest.mark.parametrize("name", ["sql_overlap", "thematic_relations"])
def test_the_figures_render_with_their_title_and_say_when_empty(name):
    themed_turn = turn(2, "their age", sql="SELECT Age FROM Customer")
    themed_turn.labels["thematic_relations"] = ["theme_entity"]
    records = [record(1, [turn(1, "all customers", sql="SELECT cust_name FROM Customer"), themed_turn])]
    stats = compute_statistics(records, schemas={"shop": SCHEMA}, encoded={})
    assert stats["thematic_relations"]["counts"]["theme_entity"] == 1
    svg = figures.render(name, stats, "svg")
    assert figures.FIGURES[name].encode() in svg and b"no data in this selection" not in svg
    empty = compute_statistics([], schemas={}, encoded={})
    assert b"no data in this selection" in figures.render(name, empty, "svg")


@pytest.mark.django_db
def test_the_statistics_page_shows_the_tables_and_figures(client, ada, themed):
    client.force_login(ada)
    html = client.get(reverse("review:statistics"), {"statuses": ["completed"], "origin": "all"}).content.decode()
    for testid in ("stats-thematic", "stats-sql-overlap", "stats-components-by-turn"):
        assert f'data-testid="{testid}"' in html
    row = '<tr data-relation="theme_entity"><th>theme_entity</th><td class="num">1</td><td class="num">50.0</td>'
    assert row in html
    # Components per turn position: turn 3 of the one interaction has WHERE (the first column), turn 1 has not.
    assert '<tr><th>3</th><td class="num">1</td><td class="num">100.0%</td><td class="num">0.0%</td>' in html
    assert '<tr><th>1</th><td class="num">1</td><td class="num">0.0%</td>' in html
    assert '<tr><th>All</th><td class="num">3</td><td class="num">33.3%</td>' in html
    for name in ("sql_overlap", "thematic_relations"):
        assert f'data-figure="{name}"' in html
    data = client.get(reverse("review:statistics_json"), {"statuses": ["completed"], "origin": "all"}).json()
    assert data["thematic_relations"]["labelled"] == 2 and data["sql_component_shares"]["sql_turns"] == 3
