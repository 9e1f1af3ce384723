"""A query-first item in review, statistics and export: the reviewer reads the plan and the words beside the turn,
the statistics give OTTA's figures, and the OTTA export holds the question, the SQL, the tree and the alignment."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.models import Database, Goal
from dialogs import query_first as qf
from dialogs.models import QueryFirstItem
from review.dataset.services import dataset_build, export_options_clean
from review.dataset.statistics import msttr
from review.passes import services as passes
from tests.builders import expert_named, sampled_goals

pytestmark = pytest.mark.django_db

QUESTION = "How many students older than 20 live in Harbor View Hall?"
ALIGNMENT = [
    {"step": "type", "beg": 0, "end": 1},
    {"step": "filter-1", "beg": 8, "end": 10},
    {"step": "filter-2", "beg": 3, "end": 5},
]


@pytest.fixture
def item_done(demo_databases, erin):
    goal = sampled_goals(Database.objects.get(db_id="dorm_demo"))[0]
    frank = expert_named("frank")
    item = qf.query_first_open(person=erin, goal=goal)
    qf.query_first_draft(item=item, person=erin)
    qf.query_first_write(item=item, person=erin, question="How many students over 20 live in Harbor View Hall?")
    dialogue = qf.query_first_align(
        item=QueryFirstItem.objects.get(pk=item.pk),
        person=frank,
        question=QUESTION,
        alignment=ALIGNMENT,
        opened_at=timezone.now() - timedelta(seconds=30),
    )
    return QueryFirstItem.objects.get(pk=item.pk), dialogue


def test_the_reviewer_reads_the_plan_and_the_words_beside_the_turn_and_approves(item_done, client, rita):
    item, dialogue = item_done
    passes.review_sync()
    client.force_login(rita)
    page = client.get(reverse("review:dialogue", args=[dialogue.pk])).content.decode()
    assert 'data-testid="query-first-review"' in page
    assert "How many students over 20 live in Harbor View Hall?" in page  # phase 1's question
    assert "began as a drafted question" in page
    assert '<q class="aligned-words">Harbor View Hall</q>' in page and '<q class="aligned-words">How many</q>' in page
    # Framed as its two phases, not as a chat ("Completed, by the worker", 0 s, the worker's record).
    assert 'data-testid="query-first-outcome"' in page and f"in {item.aligning_seconds} s" in page
    assert 'data-testid="outcome"' not in page and "What the expert knew" not in page
    passes.review_claim(reviewer=rita, dialogue=dialogue)
    review = passes.review_decide(reviewer=rita, dialogue=dialogue, approve=True)
    assert review.pass_number == 2  # the same two passes as any dialogue


def test_a_reviewers_correction_of_the_question_and_sql_reaches_the_goal(item_done, rita):
    item, dialogue = item_done
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=dialogue)
    [turn] = dialogue.events.filter(kind="utterance")
    better = "How many students older than 20 live in Harbor View Hall, counting each once?"
    passes.review_correct(reviewer=rita, dialogue=dialogue, turn=turn.seq, field="utterance", value=better)
    goal = Goal.objects.get(pk=dialogue.goal_id)
    assert goal.question == better  # the goal list, rooms and the next export read the goal
    sql = "SELECT count(*) FROM student WHERE age > 20"
    passes.review_correct(reviewer=rita, dialogue=dialogue, turn=turn.seq, field="query", value=sql)
    goal.refresh_from_db()
    assert (goal.sql, goal.hardness) == (sql, "easy")
    item.refresh_from_db()
    assert item.question == QUESTION and item.sql != sql  # phase 2's work stays as it was, with its alignment


def test_the_otta_export_holds_question_sql_tree_and_alignment_and_spider_file(item_done, tmp_path, erin):
    item, dialogue = item_done
    out = tmp_path / "out"
    report = dataset_build(
        options=export_options_clean(formats=["otta", "sparc", "cosql"], statuses=["completed"]), out_dir=out
    )
    assert report["release_check"]["ok"]
    files = report["files"]
    assert "otta/tables.json" in files and "otta/database/dorm_demo/dorm_demo.sqlite" in files
    otta = [row for name in files if name.startswith("otta/otta_") for row in json.loads((out / name).read_text())]
    spider = [
        row
        for name in files
        if name.startswith("otta/") and name.split("/")[1][:5] in ("train", "dev.j", "test.")
        for row in json.loads((out / name).read_text())
    ]
    [record] = otta
    assert record["question"] == QUESTION and record["query"] == item.sql == dialogue.goal.sql
    assert record["tree"] == item.tree and record["alignment"] == item.alignment
    words = {span["step"]: record["alignment_toks"][span["beg"] : span["end"] + 1] for span in record["alignment"]}
    assert words == {
        "type": ["How", "many"],
        "filter-1": ["Harbor", "View", "Hall"],
        "filter-2": ["older", "than", "20"],
    }
    assert record["operations"][-1] == {"id": "type", "kind": "type", "label": "The answer: how many there are"}
    assert record["phase_1"]["drafted"] and record["phase_1"]["annotator"].startswith("annotator-")
    assert record["phase_1"]["annotator"] != record["phase_2"]["annotator"]
    assert "erin" not in json.dumps(record) and "frank" not in json.dumps(record)
    assert record["phase_2"]["seconds"] >= 30
    [row] = spider
    assert row["question"] == QUESTION and row["db_id"] == "dorm_demo" and row["sql"]["where"]
    # In SParC like a solo sequence; out of CoSQL's files (no real user), as solo sequences are.
    sparc = [
        row
        for name in files
        if name.startswith("sparc/") and name.endswith(".json") and "tables" not in name
        for row in json.loads((out / name).read_text())
    ]
    assert [turn["utterance"] for interaction in sparc for turn in interaction["interaction"]] == [QUESTION]
    assert report["formats"]["cosql"]["dialogues"] == 0


def test_statistics_give_the_time_per_phase_msttr_and_components_per_query(item_done, client, ada):
    from review.dataset.selectors import statistics_for

    figures = statistics_for(statuses=["completed"])["query_first"]
    assert figures["items"] == 1 and figures["median_seconds_phase_2"] >= 30
    assert figures["median_seconds_phase_1"] is not None
    assert figures["components_per_query"]["JOIN"] == 2 and figures["components_per_query"]["AGG"] == 1
    assert figures["components_per_query"]["GROUP BY"] == 0
    assert figures["msttr"] is None and figures["question_tokens"] == 12  # fewer tokens than one segment
    client.force_login(ada)
    page = client.get(reverse("review:statistics"), {"statuses": "completed", "origin": "all"}).content.decode()
    assert 'data-testid="stats-query-first"' in page


def test_statistics_keep_a_query_first_item_apart_from_dialogues(item_done, dorm_dialogue, client, ada):
    from review.dataset.selectors import statistics_for

    stats = statistics_for(statuses=["completed"], origin="all")
    rows = {row["mode"]: row for row in stats["by_collection"]}
    assert set(rows) == {"query_first", collection_mode_of(dorm_dialogue)}
    assert rows["query_first"]["records"] == 1 and rows["query_first"]["questions"] == 1
    # Not a dialogue: no "time per dialogue" of 0 s of its own, and none added to the dialogues' median.
    assert rows["query_first"]["median_seconds"] is None and rows["query_first"]["timed"] == 0
    assert stats["timing"]["dialogues_timed"] == sum(row["timed"] for row in rows.values())
    client.force_login(ada)
    page = client.get(reverse("review:statistics"), {"statuses": "completed", "origin": "all"}).content.decode()
    assert 'data-testid="stats-by-collection"' in page and '<tr data-mode="query_first"><th>Query-first items' in page


def collection_mode_of(dialogue) -> str:
    from review.dataset.statistics import collection_mode
    from review.records import dialogue_records

    [record] = dialogue_records(type(dialogue).objects.filter(pk=dialogue.pk))
    return collection_mode(record)


def test_msttr_averages_the_type_token_ratio_of_whole_segments():
    assert msttr(["a", "b"] * 3, segment=4) == 0.5  # one whole segment "a b a b"; the rest is left out
    assert msttr(list("abcdabcd"), segment=4) == 1.0
    assert msttr(list("aaaabcde"), segment=4) == round((1 / 4 + 4 / 4) / 2, 4)
    assert msttr(["a"] * 3, segment=4) is None
