"""The SQL editor completes by readable names (docs/curation.md): an expert types a word of a column's readable name
and is offered the column under its original name, the readable name beside it; accepting writes the original name."""

import json
import re

from playwright.sync_api import expect


def test_erin_finds_a_column_by_its_readable_name_and_the_editor_writes_its_original_name(platform, new_page):
    out = platform.manage(
        "shell", "-c", "import json; from tests.completion_builders import database_with_readable_names as b; "
        "print(json.dumps(b()))",
    )  # fmt: skip
    db_id = json.loads(out.strip().splitlines()[-1])
    page = new_page("erin")
    page.goto(f"/databases/{db_id}/")
    editor = page.locator("#sql-input")
    expect(editor).to_have_class(re.compile(r"\bcm-content\b"))
    editor.click()

    # "first" is no part of Fname: the column is found by its readable name, shown under its original one.
    page.keyboard.type("SELECT first")
    options = page.locator(".cm-tooltip-autocomplete li")
    expect(options.first).to_have_text(re.compile(r"^Fname\s*\u2014 first name \(stu\)$"))
    expect(options.first.locator(".cm-completionLabel")).to_have_text("Fname")
    # Taken with the pointer: CodeMirror ignores Enter for a list open less than 75 ms (a fast typist meant a new
    # line), and a click on an option is taken at once, with the editor keeping the focus.
    options.first.click()
    expect(editor).to_have_text("SELECT Fname")

    # The table by its original name, its readable name beside it; a column whose readable name only restates its
    # original one has no detail but its table, as before.
    page.keyboard.type(" FROM st")
    expect(options.first).to_have_text(re.compile(r"^stu\s*\u2014 student \(table\)$"))
    options.first.click()
    page.keyboard.type(" WHERE stu.ci")
    expect(options.first).to_have_text(re.compile(r"^city_code\s*text$"))
    options.first.click()
    expect(editor).to_have_text("SELECT Fname FROM stu WHERE stu.city_code")

    # After "stu.": the same, with the column's type beside its readable name.
    page.keyboard.type(" = 'BAL' AND stu.first")
    expect(options.first).to_have_text(re.compile(r"^Fname\s*\u2014 first name \(text\)$"))
    options.first.click()
    expect(editor).to_have_text("SELECT Fname FROM stu WHERE stu.city_code = 'BAL' AND stu.Fname")
