"""An admin brings a lab's own database and curates it before anyone collects on it (docs/curation.md)."""

import re
import sqlite3

from playwright.sync_api import expect

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


def test_an_admin_curates_an_uploaded_database_until_nothing_is_left_to_check(new_page, tmp_path):
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
