"""Query-first annotation end to end in a real browser: a goal sampled from the schema, Erin writes its question
(from the drafted one, edited, with a filter adapted), Ethan corrects it and gives its words to the tree's operations,
Rita and Ravi approve it in review, and Ada's export holds the question, the SQL, the tree and the alignment."""

import json
import re
import zipfile

from playwright.sync_api import expect

# Run with `manage.py shell -c`: the goal saved as `goals_generate --save` saves one (the sampler's service path); each
# test asks for students older than its own age, so that each has a goal of its own.
SAVE_GOAL = """
from annotation.models import Database
from tests.builders import DORM_TREE, sampled_goals
tree = {**DORM_TREE, "filters": [DORM_TREE["filters"][0], {**DORM_TREE["filters"][1], "value": AGE}]}
print(sampled_goals(Database.objects.get(db_id="dorm_demo"), [tree])[0].pk)
"""
# Phase 1 done by `WRITER` through the service (for the screens of phase 2); prints the item's id.
WRITE = """
from annotation.models import Goal, User
from dialogs import query_first
writer = User.objects.get(username=WRITER)
item = query_first.query_first_open(person=writer, goal=Goal.objects.get(pk=GOAL))
question = "How many students older than AGE live in Harbor View Hall?"
query_first.query_first_write(item=item, person=writer, question=question)
print(item.pk)
"""
DIALOGUE_OF = "from dialogs.models import QueryFirstItem; print(QueryFirstItem.objects.get(goal_id={goal}).dialogue_id)"


def saved_goal(platform, age: int) -> int:
    """A goal sampled from the schema, saved without a question: its id."""
    return int(platform.manage("shell", "-c", SAVE_GOAL.replace("AGE", str(age))).strip().splitlines()[-1])


def written_item(platform, age: int, writer: str = "erin") -> int:
    """A saved goal whose phase 1 `writer` has done: the item's id."""
    goal = saved_goal(platform, age)
    script = WRITE.replace("WRITER", repr(writer)).replace("GOAL", str(goal)).replace("AGE", str(age))
    return int(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def give(page, first: int, last: int, step: str) -> None:
    """Press the first and the last word, then the operation `step`; wait until the operation shows the words."""
    words = page.locator("#tokens button.token")
    words.nth(first).click()
    words.nth(last).click()
    page.locator(f"#steps [data-step='{step}'] .plan-target").click()
    expect(page.locator(f"#steps [data-step='{step}'] .token.aligned")).not_to_have_count(0)


def test_two_experts_take_a_sampled_goal_through_both_phases_and_the_export_holds_tree_and_alignment(
    new_page, platform, tmp_path
):
    goal = saved_goal(platform, 20)

    # Phase 1: Erin reads the plan, starts from the drafted question, edits it and adapts a filter.
    erin = new_page("erin")
    erin.goto("/")
    erin.get_by_test_id("query-first-link").click()
    erin.get_by_role("button", name=f"Write the question for goal {goal}").click()
    expect(erin.get_by_test_id("plan-steps")).to_contain_text("Keep those whose dorm name is Harbor View Hall")
    expect(erin.locator("[data-step=type] summary")).to_have_text("Intermediate result: 1 row")
    question = erin.get_by_label("Ask what this SQL answers")
    expect(question).to_have_value("")  # nothing is filled in before she asks
    erin.get_by_role("button", name="Start from a drafted question").click()
    expect(question).to_have_value(re.compile(r"^How many students are there whose"))
    expect(erin.get_by_test_id("drafted-note")).to_contain_text("Drafted from the tree")
    question.fill("How many students aged 21 or more live in Harbor View Hall?")
    erin.select_option("select[name=step]", "filter-2")
    erin.select_option("select[name=op]", ">=")
    erin.fill("input[name=value]", "21")
    erin.get_by_role("button", name="Adapt", exact=True).click()
    expect(erin.get_by_test_id("changes")).to_contain_text("student.age > 20 → >= 21")
    expect(erin.get_by_test_id("goal-sql")).to_contain_text("age >= 21")
    expect(question).to_have_value("How many students aged 21 or more live in Harbor View Hall?")  # kept
    erin.get_by_role("button", name="Send the question").click()
    expect(erin.locator(".messages")).to_contain_text("waits for another expert's correction")

    # Phase 2: Ethan corrects the question and aligns its words; a missing filter is named before anything is kept.
    ethan = new_page("ethan")
    ethan.goto("/query-first/")
    ethan.get_by_test_id("to-align").get_by_role("link", name=re.compile("aged 21 or more")).click()
    ethan.fill("#question", "How many students aged 21 or older live in Harbor View Hall?")
    ethan.get_by_role("button", name="Use the corrected question").click()
    expect(ethan.locator("#tokens button.token").nth(6)).to_have_text("older")
    give(ethan, 0, 1, "type")
    give(ethan, 9, 11, "filter-1")
    ethan.get_by_role("button", name="Send", exact=True).click()
    expect(ethan.get_by_test_id("align-error")).to_contain_text("Give words to: Keep those whose age is at least 21")
    expect(ethan.locator("#steps [data-step=type] .token.aligned")).to_have_text("How many ×")  # kept
    give(ethan, 3, 6, "filter-2")
    give(ethan, 2, 2, "table-1")
    ethan.get_by_role("button", name="Send", exact=True).click()
    expect(ethan.locator(".messages")).to_contain_text("go to review")

    # Review: two passes approve it; the reviewer reads the plan and the words beside the turn.
    dialogue = int(platform.manage("shell", "-c", DIALOGUE_OF.format(goal=goal)).strip().splitlines()[-1])
    for name in ("rita", "ravi"):
        reviewer = new_page(name)
        reviewer.goto(f"/review/dialogues/{dialogue}/")
        reviewer.get_by_test_id("claim").click()
        expect(reviewer.get_by_test_id("holding")).to_be_visible()
        panel = reviewer.get_by_test_id("query-first-review")
        expect(panel).to_contain_text("began as a drafted question")
        expect(panel.locator("[data-step=filter-2] .aligned-words")).to_have_text("aged 21 or older")
        expect(reviewer.get_by_test_id("utterance")).to_have_text(
            "How many students aged 21 or older live in Harbor View Hall?"
        )
        reviewer.get_by_test_id("approve").click()
        reviewer.wait_for_url(re.compile(r".*/review/$"))

    # Ada exports the OTTA format.
    ada = new_page("ada")
    record = otta_export_record(ada, tmp_path, dialogue)
    assert record["question"] == "How many students aged 21 or older live in Harbor View Hall?"
    assert "age >= 21" in record["query"] and record["sql"]["where"]
    assert record["tree"]["filters"][1] == {"column": "student.age", "op": ">=", "value": 21}
    words = {
        span["step"]: " ".join(record["alignment_toks"][span["beg"] : span["end"] + 1]) for span in record["alignment"]
    }
    assert words == {
        "type": "How many",
        "table-1": "students",
        "filter-1": "Harbor View Hall",
        "filter-2": "aged 21 or older",
    }
    assert record["phase_1"]["drafted"] and record["phase_1"]["changes"][0]["after"] == {"op": ">=", "value": 21}
    assert record["phase_1"]["question"] == "How many students aged 21 or more live in Harbor View Hall?"


def otta_export_record(page, tmp_path, dialogue: int) -> dict:
    """As an admin on `page`: export the OTTA format alone, download the zip, and return `dialogue`'s record of its
    OTTA-style files (exactly one)."""
    page.goto("/review/datasets/")
    for box in page.locator("input[name=formats]").all():
        box.uncheck()
    page.check("input[name=formats][value=otta]")
    page.click("[data-testid=start-export]")
    download_link = page.locator("[data-testid=export-download]")
    download_link.wait_for(state="visible", timeout=60_000)
    with page.expect_download() as download_info:
        download_link.click()
    path = tmp_path / "export.zip"
    download_info.value.save_as(path)
    with zipfile.ZipFile(path) as archive:
        records = [
            record
            for name in archive.namelist()
            if re.fullmatch(r"otta/otta_(train|dev|test)\.json", name)
            for record in json.loads(archive.read(name))
        ]
    [record] = [record for record in records if record["id"] == dialogue]
    return record
