"""The foundation's screens in a real browser: sign-in per role, the database browser, upload, goals, workbench."""

import re

from playwright.sync_api import expect


def test_each_role_lands_on_its_home(new_page, platform):
    # A new worker has not passed the tutorial yet: their home sends them there first.
    platform.manage("add_person", "--role", "worker", "--username", "wanda", "--password", "wozsql-demo")
    homes = {"wanda": "/worker/tutorial/", "erin": "/expert/", "rita": "/review/", "ada": "/manage/"}
    for username, path in homes.items():
        page = new_page(username, via_form=True)
        expect(page).to_have_url(re.compile(re.escape(path) + "$"))
        expect(page.get_by_test_id("username")).to_have_text(username)


def test_wrong_password_is_refused(new_page):
    page = new_page("alice", password="not-her-password")
    expect(page.get_by_role("alert")).to_contain_text("did not match")
    expect(page).to_have_url(re.compile("/login/"))


def test_worker_cannot_open_the_database_browser(new_page, platform):
    page = new_page("alice")
    response = page.goto("/databases/dorm_demo/")
    assert response.status == 403
    assert "SELECT" not in page.content()


def test_expert_browses_tables_and_runs_sql(new_page):
    page = new_page("erin")
    page.goto("/databases/")
    page.get_by_role("link", name="dorm_demo").click()
    page.get_by_test_id("table-student").click()
    expect(page.locator("#table-title")).to_contain_text("student")
    expect(page.locator("#table-content table tbody tr").first).to_be_visible()
    # Validation while typing: a misspelt column gets a suggestion.
    page.fill("#sql-input", "SELECT first_nmae FROM student")
    expect(page.locator("#sql-problems")).to_contain_text("first_name")
    page.fill("#sql-input", "SELECT count(*) FROM student")
    page.click("#sql-run")
    expect(page.locator("#sql-summary")).to_contain_text("1 row ")
    expect(page.locator("#sql-summary")).to_contain_text("hardness: easy")
    # Hostile SQL is refused with a reason, and the database still answers.
    page.fill("#sql-input", "DROP TABLE student")
    page.click("#sql-run")
    expect(page.locator("#sql-summary")).to_have_text(re.compile(r"^DROP statements are not allowed: .*read-only"))
    # The message, without a heading that says it again ("forbidden: ... not allowed").
    assert "forbidden" not in page.locator("#sql-summary").inner_text()
    page.fill("#sql-input", "SELECT count(*) FROM student")
    page.click("#sql-run")
    expect(page.locator("#sql-summary")).to_contain_text("1 row ")


def test_admin_uploads_a_database_and_adds_a_goal(new_page, platform, tmp_path):
    source = next(__import__("pathlib").Path(platform.env["WOZSQL_DATA_DIR"]).glob("databases/flights_demo/*.sqlite"))
    page = new_page("ada")
    page.goto("/databases/upload/")
    page.fill("input[name=db_id]", "flights_copy")
    page.set_input_files("input[name=file]", str(source))
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile("/databases/flights_copy/$"))
    expect(page.locator(".messages")).to_contain_text("Registered flights_copy")

    bad = tmp_path / "notes.txt"
    bad.write_text("not a database")
    page.goto("/databases/upload/")
    page.fill("input[name=db_id]", "notes")
    page.set_input_files("input[name=file]", str(bad))
    page.click("button[type=submit]")
    expect(page.locator("main form")).to_contain_text("not a SQLite database")

    page.goto("/goals/new/")
    page.select_option("select[name=database]", "flights_copy")
    page.fill("textarea[name=question]", "Which airline has the most flights?")
    page.fill("textarea[name=sql]", "SELECT nonsense FROM flight")
    page.click("button[type=submit]")
    expect(page.get_by_role("alert")).to_be_visible()
    table = platform.manage("sql_inspect", "--database", "flights_copy", "SELECT count(*) FROM airline")
    assert '"ok": true' in table
