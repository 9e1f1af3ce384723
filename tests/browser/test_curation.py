"""A lab's own database, first-class, in a real browser: an admin uploads it and curates it (docs/curation.md),
generates goals from its schema (docs/goals.md), two experts take a sampled tree through query-first annotation's two
phases, two reviewers approve the result, and the admin's OTTA export holds the question, the SQL, the tree and the
alignment."""

import re
import sqlite3

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_phone import PHONE, page_overflow
from tests.browser.test_query_first import otta_export_record

LAB_SQL = """
CREATE TABLE dept (dept_id INTEGER PRIMARY KEY, title TEXT);
CREATE TABLE TBL_EMP (id INTEGER PRIMARY KEY, full_name TEXT, dept_id INTEGER, note TEXT, salary INTEGER);
INSERT INTO dept VALUES (1, 'Research'), (2, 'Sales');
INSERT INTO TBL_EMP VALUES (1, 'Ann Lee', 1, 'joined in May', 50),
                           (2, 'Bo Chen', 2, NULL, 60),
                           (3, 'Cy Diaz', 1, 'on leave', 70);
"""


def read_the_file_if_asked(page):
    """With a broker (the PostgreSQL and Redis run), the file is read by a worker in the background, and the page
    offers to read it now while it has not been; in the embedded run it was read before the page opened."""
    if page.get_by_test_id("profile-missing").count():
        page.get_by_role("button", name="Read the file now").click()
        expect(page.locator(".messages")).to_contain_text("Read version")


FIRST_SAMPLED_GOAL = (
    "from annotation.models import Goal; "
    "print(Goal.objects.filter(database__db_id='staff_lab', source='generated').order_by('id').first().pk)"
)
DIALOGUE_OF = "from dialogs.models import QueryFirstItem; print(QueryFirstItem.objects.get(goal_id={goal}).dialogue_id)"
# Long enough to give a word of its own to every operation that needs one, whatever tree the sampler drew.
QUESTION = "Which staff rows in our records answer this request about the employees and their departments here?"


def test_a_labs_database_goes_from_upload_through_curation_and_sampled_goals_to_an_aligned_reviewed_export(
    new_page, platform, tmp_path
):
    path = tmp_path / "lab.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript(LAB_SQL)
    connection.close()
    page = new_page("ada")
    page.goto("/databases/upload/")
    page.fill("input[name=db_id]", "staff_lab")
    page.set_input_files("input[name=file]", str(path))
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile("/databases/staff_lab/$"))
    page.get_by_test_id("curate-link").click()
    expect(page).to_have_url(re.compile("/databases/staff_lab/curate/$"))
    read_the_file_if_asked(page)

    checks = page.get_by_test_id("checks-open")
    expect(checks).to_contain_text("Table TBL_EMP has no readable name.")
    expect(checks).to_contain_text("Proposed key: TBL_EMP.dept_id → dept.dept_id.")
    expect(checks).to_contain_text("Table TBL_EMP is reached by no join.")

    # The readable name, from the check's link to the table's form.
    checks.get_by_role("link", name="Table TBL_EMP has no readable name.").click()
    page.locator("#name-1").fill("employee")
    page.get_by_role("button", name="Save the names of TBL_EMP").click()
    expect(page.locator(".messages")).to_contain_text("Saved 1 readable name of TBL_EMP.")
    expect(checks).not_to_contain_text("has no readable name")

    # The proposed key, checked on the values (every dept_id is a department), confirmed.
    proposal = page.get_by_test_id("proposal")
    expect(proposal).to_contain_text("100 % of its values found")
    proposal.get_by_role("button", name="Confirm").click()
    expect(page.locator(".messages")).to_contain_text("TBL_EMP.dept_id → dept.dept_id is a foreign key.")
    expect(page.get_by_test_id("proposal")).to_have_count(0)

    # A column people should not see, hidden.
    page.get_by_role("button", name="Hide TBL_EMP.salary").click()
    expect(page.locator(".messages")).to_contain_text("TBL_EMP.salary is hidden.")

    # The one empty note, filled in a new version of the file.
    row = page.locator("#column-6")
    row.get_by_text("Fill 1 empty…").click()
    row.get_by_label("Value").fill("no note")
    row.get_by_role("button", name="Fill in a new version").click()
    expect(page.locator(".messages")).to_contain_text("Version 2 of the file: 1 empty entry of TBL_EMP.note filled")
    read_the_file_if_asked(page)

    expect(page.get_by_test_id("checks-done")).to_have_text("Nothing left to check.")
    expect(page.get_by_test_id("history").locator("tbody tr")).to_have_count(4)

    # What people see: the readable name and the key, and no hidden column.
    page.goto("/databases/staff_lab/")
    schema = page.locator("#schema")
    expect(schema).to_contain_text("→ dept.dept_id")
    expect(schema).not_to_contain_text("salary")

    # Goals from the curated schema, generated from the database's page.
    page.get_by_test_id("generate-goals").click()
    page.get_by_label("How many goals").fill("3")
    page.get_by_label("Seed (optional)").fill("7")
    page.get_by_role("button", name="Generate").click()
    run = page.get_by_test_id("runs").locator("li").first
    expect(run.locator("[data-run-state]")).to_have_text("Done")
    expect(run).to_contain_text(re.compile(r"[1-3] found, [1-3] kept"))
    expect(page.get_by_test_id("coverage")).to_contain_text("What the newest run changed")
    expect(page.get_by_test_id("coverage-tables")).to_contain_text(re.compile(r"0 → [12] of 2"))
    assert serious_violations(page) == [], "goals from the schema"
    phone = new_page("ada", **PHONE)
    phone.goto("/databases/staff_lab/goals/generate/")
    expect(phone.get_by_test_id("coverage")).to_be_visible()
    assert page_overflow(phone) == 0
    page.get_by_test_id("waiting-link").click()
    expect(page.get_by_test_id("waiting").first).to_be_visible()
    goal = int(platform.manage("shell", "-c", FIRST_SAMPLED_GOAL).strip().splitlines()[-1])

    # Phase 1: Erin writes the question for the sampled tree's plan.
    erin = new_page("erin")
    erin.goto("/query-first/")
    erin.get_by_role("button", name=f"Write the question for goal {goal}").click()
    expect(erin.get_by_test_id("plan-steps")).to_be_visible()
    erin.get_by_label("Ask what this SQL answers").fill(QUESTION)
    erin.get_by_role("button", name="Send the question").click()
    expect(erin.locator(".messages")).to_contain_text("waits for another expert's correction")

    # Phase 2: Ethan gives a word to each operation that needs words (the query type and every filter).
    ethan = new_page("ethan")
    ethan.goto("/query-first/")
    ethan.get_by_test_id("to-align").get_by_role("link", name=re.compile("Which staff rows")).click()
    # The operations are drawn by the page's script: wait for them before reading which need words.
    expect(ethan.locator("#steps [data-step=type] .needs-words")).to_be_visible()
    needing = [step.get_attribute("data-step") for step in ethan.locator("#steps li:has(.needs-words)").all()]
    assert "type" in needing
    for word, step in enumerate(needing):
        ethan.locator("#tokens button.token").nth(word).click()
        ethan.locator("#tokens button.token").nth(word).click()
        ethan.locator(f"#steps [data-step='{step}'] .plan-target").click()
        expect(ethan.locator(f"#steps [data-step='{step}'] .token.aligned")).to_have_count(1)
    ethan.get_by_role("button", name="Send", exact=True).click()
    expect(ethan.locator(".messages")).to_contain_text("go to review")

    # Two review passes approve it.
    dialogue = int(platform.manage("shell", "-c", DIALOGUE_OF.format(goal=goal)).strip().splitlines()[-1])
    for name in ("rita", "ravi"):
        reviewer = new_page(name)
        reviewer.goto(f"/review/dialogues/{dialogue}/")
        reviewer.get_by_test_id("claim").click()
        expect(reviewer.get_by_test_id("query-first-review")).to_be_visible()
        reviewer.get_by_test_id("approve").click()
        reviewer.wait_for_url(re.compile(r".*/review/$"))

    # The OTTA export holds the question, the SQL, the tree and the alignment.
    record = otta_export_record(page, tmp_path, dialogue)
    assert record["db_id"] == "staff_lab" and record["question"] == QUESTION
    assert record["query"] and record["tree"]["tables"]
    assert {span["step"] for span in record["alignment"]} == set(needing)
