"""The SQL editor (CodeMirror, static/js/sql_codemirror.js) on the database workbench, driven from the keyboard."""

import re

import pytest
from playwright.sync_api import expect


@pytest.fixture
def workbench(new_page):
    page = new_page("erin")
    page.goto("/databases/dorm_demo/")
    editor = page.locator("#sql-input")
    expect(editor).to_have_class(re.compile(r"\bcm-content\b"))
    expect(editor).to_have_attribute("aria-label", "SQL query")
    return page, editor


def test_erin_completes_a_column_after_the_alias_of_its_table(workbench):
    page, editor = workbench
    editor.click()
    page.keyboard.type("SELECT T2.dorm_id FROM student AS T1 JOIN lives_in AS T2 WHERE T1.ho")
    options = page.locator(".cm-tooltip-autocomplete li")
    expect(options.first).to_have_text(re.compile("^home_city"))
    # T1 is the student table: the columns of lives_in, which T2 names, are not offered after it.
    assert "room_number" not in page.locator(".cm-tooltip-autocomplete").inner_text()
    # CodeMirror ignores Enter for a list open less than 75 ms (a fast typist meant a new line): a person's pause.
    page.wait_for_timeout(150)
    page.keyboard.press("Enter")
    expect(editor).to_have_text("SELECT T2.dorm_id FROM student AS T1 JOIN lives_in AS T2 WHERE T1.home_city")

    # The other alias, written in lower case as SQLite allows: lives_in's columns.
    page.keyboard.type(" = 'x' AND t2.")
    expect(page.locator(".cm-tooltip-autocomplete")).to_contain_text("room_number")
    assert "home_city" not in page.locator(".cm-tooltip-autocomplete").inner_text()


def test_an_unknown_column_is_marked_where_it_is_written_and_the_suggestion_fixes_it(workbench):
    page, editor = workbench
    editor.fill("SELECT T1.first_nmae FROM student AS T1")
    marked = page.locator(".cm-lintRange-error")
    expect(marked).to_have_text("first_nmae")
    expect(page.locator("#sql-problems")).to_contain_text("did you mean first_name")
    assert page.locator("#sql-problems").inner_text().count("did you mean") == 1  # said once, not twice

    marked.hover()
    tooltip = page.locator(".cm-tooltip-lint")
    expect(tooltip).to_contain_text("T1 has no column named first_nmae")
    tooltip.get_by_role("button", name="first_name").click()
    expect(editor).to_have_text("SELECT T1.first_name FROM student AS T1")
    expect(page.locator(".cm-lintRange-error")).to_have_count(0)
    expect(page.locator("#sql-problems")).to_be_empty()


def test_ctrl_enter_runs_the_query_and_shows_its_result(workbench):
    page, editor = workbench
    expect(page.locator("#sql-run")).to_have_text("Run (Ctrl+Enter)")
    editor.click()
    page.keyboard.type("SELECT count(*) FROM student")  # the closing bracket typed over the one the editor added
    page.keyboard.press("Escape")  # closes the completion list, if any is open
    page.keyboard.press("Control+Enter")
    expect(page.locator("#sql-summary")).to_contain_text("1 row ")
    expect(page.locator("#sql-result th")).to_have_text("count(*)")
    # Ctrl+Enter ran the query and did not also break the line.
    expect(editor).to_have_text("SELECT count(*) FROM student")
    assert editor.locator(".cm-line").count() == 1
