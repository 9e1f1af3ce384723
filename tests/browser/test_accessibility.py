"""An automated accessibility check (axe-core, tests/browser/vendor/axe.min.js, built by `make frontend`) on the
screens people spend their time in: the worker's lobby and room, the expert's room and the review screen. No serious
or critical violation may be left."""

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.test_query_first import saved_goal, written_item
from tests.browser.test_review import COLLECT
from tests.browser.test_rooms import (  # noqa: F401
    answer_quiz,
    ask,
    label,
    patient_expectations,
    read_tables_and_reveal,
)

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SERIOUS = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id, impact: v.impact, help: v.help, where: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
}"""


def serious_violations(page) -> list[dict]:
    # Evaluated by the browser's debugging protocol, which the pages' Content-Security-Policy does not govern: an
    # inline <script> tag carrying axe (add_script_tag) is refused by it, as it should be.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    return page.evaluate(SERIOUS)


def test_the_lobby_and_both_rooms_have_no_serious_violations(new_page, people):
    people("ally", "axel")
    worker = new_page("ally")
    # The worker's lobby, waiting (nobody is ready yet).
    worker.goto("/worker/tutorial/")
    # The tutorial after a wrong try, with the message next to the button.
    answer_quiz(worker, right=False)
    worker.get_by_role("button", name="Check my answers").click()
    expect(worker.get_by_test_id("quiz-failed")).to_be_visible()
    assert serious_violations(worker) == [], "tutorial, after a wrong try"
    answer_quiz(worker, right=True)
    worker.get_by_role("button", name="Check my answers").click()
    expect(worker).to_have_url(re.compile(r"/worker/"))
    expect(worker.locator("#headline, h1").first).to_be_visible()
    assert serious_violations(worker) == [], "lobby"
    expert = new_page("axel")
    expert.goto("/expert/")
    expect(expert.locator("#ready-toggle")).to_be_enabled()
    expert.locator("label.switch").click()
    expect(worker).to_have_url(re.compile(r"/dialogues/\d+/$"), timeout=15_000)
    expect(expert).to_have_url(re.compile(r"/dialogues/\d+/$"), timeout=15_000)
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many students are there?")
    label(expert, "INFORM_SQL")
    assert serious_violations(worker) == [], "worker room"
    assert serious_violations(expert) == [], "expert room"
    # The ambiguity's words and readings, open, with a span begun.
    expert.check("#user-acts input[value=AMBIGUOUS]")
    expert.get_by_test_id("ambiguity-type").select_option("vague_condition")
    expert.get_by_test_id("ambiguity-add-reading").click()
    expert.get_by_test_id("ambiguity-tokens").get_by_role("button").first.click()
    expect(expert.get_by_test_id("ambiguity-span")).to_contain_text("now press the last word")
    assert serious_violations(expert) == [], "expert room, ambiguity"


def test_the_review_screen_has_no_serious_violations(new_page, platform):
    first, _ = json.loads(platform.manage("shell", "-c", COLLECT).strip().splitlines()[-1])
    rita = new_page("rita")
    rita.goto(f"/review/dialogues/{first}/")
    rita.click("[data-testid=claim]")
    rita.wait_for_selector("[data-testid=holding]")
    assert serious_violations(rita) == [], "review screen"
    # The ambiguity editor, open on a turn the reviewer labelled AMBIGUOUS.
    turn = rita.get_by_test_id("turn-0")
    turn.locator("[data-edit=user_acts]").click()
    turn.get_by_test_id("act-AMBIGUOUS").check()
    turn.get_by_test_id("save").click()
    turn.locator("[data-edit=ambiguity]").click()
    turn.locator(".editor").get_by_test_id("ambiguity-type").select_option("vague_condition")
    turn.locator(".editor").get_by_role("button", name="Add a reading").click()
    expect(turn.locator(".editor").get_by_test_id("ambiguity-reading-1")).to_be_focused()
    assert serious_violations(rita) == [], "review screen, ambiguity editor"
    # The compare box, open, with two queries that differ shown side by side.
    box = rita.get_by_test_id("compare-box-1")
    box.locator("summary").click()
    box.get_by_test_id("compare-sql-1").fill("SELECT first_name FROM student")
    box.get_by_test_id("compare-1").click()
    expect(box.get_by_test_id("compare-result-1")).to_contain_text("Different: here is a database where they differ")
    assert serious_violations(rita) == [], "review screen, compare box"


def test_the_supervisors_view_of_a_room_has_no_serious_violations(new_page, paired):
    worker, expert, _ = paired("avery", "axton")
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many students are there?")
    label(expert, "INFORM_SQL")
    ada = new_page("ada")
    ada.goto(worker.url)  # the room's address leads a supervisor to the read-only view
    expect(ada).to_have_url(re.compile(r"/manage/live/rooms/\d+/$"))
    expect(ada.get_by_test_id("work")).to_contain_text("User acts of question")
    assert serious_violations(ada) == [], "supervisor's view"
    ada.get_by_role("button", name="Do it").click()  # without a reason: the form says what is missing
    expect(ada.locator("#reason-errors")).to_be_visible()
    assert serious_violations(ada) == [], "supervisor's view, refused"


def test_the_curation_page_has_no_serious_violations(new_page):
    ada = new_page("ada")
    ada.goto("/databases/flights_demo/curate/")
    expect(ada.get_by_role("heading", name="Before you collect")).to_be_visible()
    assert serious_violations(ada) == [], "curation page"
    # A refused key (a column joined to itself): the page again, with the error.
    ada.locator("#key-child").select_option(index=1)
    ada.locator("#key-parent").select_option(index=1)
    ada.get_by_role("button", name="Add the key").click()
    expect(ada.locator(".messages")).to_contain_text("both columns are in")
    assert serious_violations(ada) == [], "curation page, refused key"


def test_both_query_first_screens_have_no_serious_violations(new_page, platform):
    goal = saved_goal(platform, 19)
    erin = new_page("erin")
    erin.goto("/query-first/")
    assert serious_violations(erin) == [], "query-first list"
    erin.get_by_role("button", name=f"Write the question for goal {goal}").click()
    erin.get_by_role("button", name="Start from a drafted question").click()
    expect(erin.get_by_test_id("drafted-note")).to_be_visible()
    erin.locator("[data-step=filter-1] summary").click()
    assert serious_violations(erin) == [], "phase 1, with a drafted question and a result open"
    item = written_item(platform, 18)
    ethan = new_page("ethan")
    ethan.goto(f"/query-first/{item}/align/")
    ethan.locator("#tokens button.token").first.click()
    expect(ethan.locator("#span-summary")).to_contain_text("now press the last word")
    ethan.locator("#tokens button.token").nth(1).click()
    ethan.locator("#steps [data-step=type] .plan-target").click()
    expect(ethan.locator("#steps [data-step=type] .token.aligned")).to_have_count(1)
    assert serious_violations(ethan) == [], "phase 2, with words given to an operation"


def test_the_evaluation_pages_have_no_serious_violations(new_page, scored_evaluation, tmp_path):
    export_id, evaluation_id = scored_evaluation
    ada = new_page("ada")
    ada.goto(f"/review/evaluations/{evaluation_id}/")
    expect(ada.get_by_test_id("evaluation-scores")).to_be_visible()
    expect(ada.get_by_test_id("evaluation-figure").first).to_be_visible()
    assert serious_violations(ada) == [], "an evaluation's scores"
    ada.goto(f"/review/datasets/{export_id}/evaluations/")
    bad = tmp_path / "short.txt"
    bad.write_text("SELECT 1\n")
    ada.set_input_files("input[name=predictions]", str(bad))
    ada.get_by_test_id("start-evaluation").click()
    expect(ada.get_by_test_id("evaluation-error")).to_contain_text("short.txt")
    assert serious_violations(ada) == [], "the evaluations of a release, a file refused"
