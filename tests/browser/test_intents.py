"""Intent recommendation and CHASE labels in a real browser: the worker's suggestions, the expert's detected relation,
phenomena, schema links and draft response, and the CHASE export that carries them."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_crowd import DELETE_CAMPAIGN
from tests.browser.test_rooms import (  # noqa: F401 - fixtures
    answer_with_sql,
    ask,
    end_and_score,
    exported,
    label,
    patient_expectations,
    read_tables_and_reveal,
    run_and_share,
)

FIRST_SQL = "SELECT first_name, age FROM student"
# A follow-up of FIRST_SQL in each intent category, as annotation.labels.relations reads it (the expert's screen shows
# what it detected, and the test checks that).
FOLLOW_UP = {
    "Same instances": "SELECT first_name, age, major FROM student",
    "Different instances of the same entity": "SELECT first_name, age FROM student WHERE age > 20",
    "Different entity": "SELECT dorm_name FROM dorm",
    "Display": "SELECT first_name, age FROM student ORDER BY age",
    # The room's detected category is the learned model's (docs/chase.md), which reads an added column with a filter
    # as CHASE's annotators mostly did (same instances); a filter with a grouping count it reads as a combination
    # whatever the question says.
    "Combination": "SELECT major, count(*) FROM student WHERE age > 20 GROUP BY major",
}
SQL_TRACES = re.compile(r"\bselect\b|\bfrom\b|\bwhere\b|_", re.IGNORECASE)


# Only the dormitory database's goals while a test here runs: its SQL is written for that database.
DORM_ONLY = """
from datetime import timedelta
from django.utils import timezone
from annotation.models import Database
from dialogs.crowd.campaigns import campaign_save
campaign = campaign_save(
    name="Dorm only", databases=list(Database.objects.filter(db_id="dorm_demo")), goals=[], target_per_goal=1000,
    hardness_mix={}, opens_at=timezone.now() - timedelta(minutes=5), closes_at=None, completion_url="",
    bonus_min_questions=5, bonus_amount=0,
)
print(campaign.pk)
"""


@pytest.fixture
def dorm_only(platform):
    pk = platform.manage("shell", "-c", DORM_ONLY).strip().splitlines()[-1]
    yield
    platform.manage("shell", "-c", DELETE_CAMPAIGN.format(pk=pk))


def suggested_category(expert) -> str:
    text = expert.get_by_test_id("intent-recommended").inner_text()
    return next(name for name in FOLLOW_UP if f"suggested to the user: {name} (" in text)


def test_a_dialogue_with_suggestions_corrected_labels_and_its_chase_export(
    new_page, paired, platform, tmp_path, dorm_only
):
    worker, expert, _ = paired("wendy", "xena")
    read_tables_and_reveal(worker)

    # Question 1 is answered with SQL: the worker gets an idea for the next question, in plain words.
    answer_with_sql(worker, expert, "Which students are there?", FIRST_SQL, "Here are the students and their ages.")
    suggestion = worker.get_by_test_id("suggestion")
    expect(suggestion).to_be_visible()
    first_idea = worker.locator("#suggestion-text").inner_text()
    assert first_idea and not SQL_TRACES.search(first_idea), first_idea
    worker.get_by_role("button", name="Suggest something else").click()
    expect(worker.locator("#suggestion-text")).not_to_have_text(first_idea)
    assert not SQL_TRACES.search(worker.locator("#suggestion-text").inner_text())

    # Question 2 follows the suggestion: the expert's SQL is of the suggested kind, and the screen says so.
    ask(worker, expert, "What about the students and their age?")
    expect(worker.get_by_test_id("suggestion")).to_be_hidden()
    followed = suggested_category(expert)
    label(expert, "INFORM_SQL")
    run_and_share(expert, FOLLOW_UP[followed])
    # Of the suggested category; followed only if it is also the suggested relation using what the text named, which
    # a fixed SQL per category cannot promise (annotation/tests/test_intents.py and dialogs/tests/test_assist.py
    # pin the rule down).
    expect(expert.get_by_test_id("intent-recommended")).to_contain_text(re.compile(r", (not )?followed"))
    expect(expert.get_by_test_id("intent-detected")).to_contain_text(f"detected: {followed}")

    # The expert corrects the relation, sets the phenomena and confirms a proposed link plus one of their own.
    expert.get_by_label("Intent category").select_option("combination")
    expert.check(".relation-grid input[value=R1]")
    expert.check(".relation-grid input[value=R8]")
    expert.check('.phenomena input[value="Coreference"]')
    # SParC's thematic relations: a proposal from the detected relation is shown apart; the expert ticks their own.
    expect(expert.get_by_test_id("thematic-block")).to_be_visible()
    expect(expert.get_by_test_id("thematic-proposal")).to_have_text(re.compile(r"proposed from the SQL: |no proposal"))
    expect(expert.locator(".thematic-choices input:checked")).to_have_count(0)  # a proposal is not a label
    expert.check(".thematic-choices input[value=theme_entity]")
    expert.check(".thematic-choices input[value=refinement]")
    # CHASE's labels of the wording, offered in English with CHASE's own values.
    expert.get_by_test_id("label-pragmatics").select_option(label="active voice (主动)")
    expert.get_by_test_id("label-question_style").select_option(label="a question (疑问句)")
    tokens = expert.get_by_test_id("link-tokens").locator(".token")
    expect(tokens).to_have_count(8)  # What about the students and their age ?
    tokens.filter(has_text=re.compile("^students$")).click()
    expert.get_by_label("What the selected words name").select_option(label="table: student")
    expert.get_by_role("button", name="Add link").click()
    expect(expert.get_by_test_id("link-list")).to_contain_text("“students” → table student")
    links = expert.get_by_test_id("link-list").locator("li").count()
    expect(expert.get_by_test_id("labels-state")).to_have_text("unsaved changes")
    expert.get_by_role("button", name="Save CHASE labels").click()
    expect(expert.get_by_test_id("labels-state")).to_have_text("saved")

    # The draft response is there, written from the SQL and its result; the expert keeps it.
    expect(expert.get_by_test_id("draft-note")).to_be_visible()
    draft = expert.locator("#response-text").input_value()
    assert draft and not SQL_TRACES.search(draft), draft
    expert.check("#system-acts input[value=CONFIRM_SQL]")
    expert.get_by_role("button", name="Send response").click()
    expect(worker.locator(".bubble.response").last).to_have_text(re.compile(re.escape(draft[:40])))
    expect(suggestion).to_be_visible()

    # Question 3 ignores the suggestion.
    ask(worker, expert, "Which amenities are there?")
    ignored = suggested_category(expert)
    third_sql = (
        "SELECT amenity_name FROM dorm_amenity"
        if ignored != "Different entity"
        else ("SELECT dorm_name FROM dorm ORDER BY dorm_name" if followed == "Different entity" else
              "SELECT first_name, age FROM student WHERE age > 21")
    )  # fmt: skip
    label(expert, "INFORM_SQL")
    run_and_share(expert, third_sql)
    expect(expert.get_by_test_id("intent-recommended")).to_contain_text(", not followed")
    expert.check('.phenomena input[value="Context Independent"]')
    expert.get_by_role("button", name="Save CHASE labels").click()
    expect(expert.get_by_test_id("labels-state")).to_have_text("saved")
    expert.fill("#response-text", "These are the amenities.")
    expert.check("#system-acts input[value=CONFIRM_SQL]")
    expert.get_by_role("button", name="Send response").click()
    expect(worker.locator(".bubble.response").last).to_have_text(re.compile("These are the amenities"))

    end_and_score(worker, expert, 5)

    out = tmp_path / "export"
    platform.manage("export_dataset", "--format", "chase", "--format", "sparc", "--out", str(out), "--status",
                    "completed", "--quiet")  # fmt: skip
    interactions = exported(out, "chase/chase_{split}.json")
    [ours] = [
        item
        for item in interactions
        if any(turn["utterance"] == "What about the students and their age?" for turn in item["interaction"])
    ]
    first, second, third = ours["interaction"]
    assert first["intent"] == "" and first["schema_linking"] == []
    assert second["intent"] == "其他"  # the expert's correction, in CHASE's own label
    assert second["contextual_phenomena"] == ["Coreference"]
    assert (second["pragmatics"], second["question_style"]) == ("主动", "疑问句")  # "" for every turn before
    assert len(second["schema_linking"]) == links
    assert {"beg": 3, "end": 3, "entity": {"tableId": 0, "value": "student"}, "type": "table"} in second[
        "schema_linking"
    ]
    assert third["contextual_phenomena"] == ["Context Independent"]
    assert third["intent"] != ""
    [sparc] = [
        item
        for item in exported(out, "sparc/{split}.json")
        if any(turn["utterance"] == "What about the students and their age?" for turn in item["interaction"])
    ]
    assert [turn.get("thematic_relations") for turn in sparc["interaction"]] == [
        None, ["refinement", "theme_entity"], None,
    ]  # fmt: skip


def test_a_solo_sequence_from_the_first_question_to_the_export(new_page, people, platform, tmp_path):
    people("wendy2", "yusuf")
    expert = new_page("yusuf")
    expert.goto("/expert/")
    expert.get_by_test_id("solo-link").click()
    expert.get_by_label("Database").select_option("dorm_demo")
    expert.get_by_role("button", name="Start").click()
    expect(expert.get_by_test_id("solo-progress")).to_have_text("0 of 3 questions")
    expect(expert.locator("#table-content table tbody tr").first).to_be_visible()  # the data, to write from

    steps = [
        ("List every student with their age.", FIRST_SQL),
        ("Only those older than twenty?", "SELECT first_name, age FROM student WHERE age > 20"),
        ("Sort them by age.", "SELECT first_name, age FROM student WHERE age > 20 ORDER BY age"),
    ]
    for number, (question, sql) in enumerate(steps, start=1):
        expert.fill("#question", question)
        expert.fill("#sql-input", sql)
        expert.locator("#run-sql").click()
        expect(expert.get_by_test_id("run-result").locator("tbody tr").first).to_be_visible()
        expert.get_by_role("button", name="Add to the sequence").click()
        expect(expert.get_by_test_id("solo-progress")).to_have_text(f"{number} of 3 questions")
        card = expert.get_by_test_id(f"solo-turn-{number}")
        expect(card.locator(".turn-quote")).to_have_text(question)
        expect(expert.get_by_test_id("suggestion")).to_be_visible()
        suggestion = expert.locator("#suggestion-text").inner_text()
        assert suggestion and not SQL_TRACES.search(suggestion), suggestion
        # Label the newest question: phenomena, and for a follow-up the relation that was detected.
        phenomenon = "Context Independent" if number == 1 else "Ellipsis Continuation"
        card.locator(f'.phenomena input[value="{phenomenon}"]').check()
        if number > 1:
            expect(card.get_by_test_id("intent-detected")).to_contain_text("detected:")
        card.get_by_role("button", name="Save CHASE labels").click()
        expect(expert.get_by_test_id(f"solo-turn-{number}").get_by_test_id("labels-state")).to_have_text("saved")

    # A bad question is refused with the sandbox's reason, and nothing is added.
    expert.fill("#question", "Which dragons?")
    expert.fill("#sql-input", "SELECT name FROM dragons")
    expert.get_by_role("button", name="Add to the sequence").click()
    expect(expert.get_by_test_id("add-error")).to_contain_text("fails")
    expect(expert.get_by_test_id("solo-progress")).to_have_text("3 of 3 questions")

    expert.get_by_test_id("finish").click()
    expect(expert.get_by_text("Finished: the sequence goes to review.")).to_be_visible()

    out = tmp_path / "export"
    platform.manage("export_dataset", "--format", "sparc", "--format", "chase", "--format", "cosql", "--out",
                    str(out), "--status", "completed", "--quiet")  # fmt: skip

    def ours(items):
        return [item for item in items if item["interaction"][0]["utterance"] == steps[0][0]]

    [sparc] = ours(exported(out, "sparc/{split}.json"))
    assert [turn["utterance"] for turn in sparc["interaction"]] == [question for question, _ in steps]
    [chase] = ours(exported(out, "chase/chase_{split}.json"))
    assert chase["interaction"][1]["contextual_phenomena"] == ["Ellipsis Continuation"]
    assert chase["interaction"][1]["intent"] == "相同实体类型的不同实例的属性"
    assert ours(exported(out, "cosql_dataset/sql_state_tracking/cosql_{split}.json")) == []
