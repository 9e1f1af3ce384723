"""Goals generated from a database's page in a real browser: an admin asks for a run, sees it finish, reads what it
changed in the goal set's coverage, and finds the goals waiting for a question."""

import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_phone import PHONE, page_overflow


def test_an_admin_generates_goals_from_the_database_page_and_finds_them_waiting(new_page):
    page = new_page("ada")
    page.goto("/databases/library_demo/")
    page.get_by_test_id("generate-goals").click()
    expect(page.get_by_role("heading", name=re.compile("Goals from the schema"))).to_be_visible()
    page.get_by_label("How many goals").fill("5")
    page.get_by_label("Extra hard").uncheck()
    page.get_by_label("Seed (optional)").fill("7")
    page.get_by_role("button", name="Generate").click()
    run = page.get_by_test_id("runs").locator("li").first
    expect(run.locator("[data-run-state]")).to_have_text("Done")
    expect(run).to_contain_text("5 found, 5 kept")
    coverage = page.get_by_test_id("coverage")
    expect(coverage).to_contain_text("What the newest run changed")
    expect(page.get_by_test_id("mix-extra")).to_contain_text("0")
    expect(page.get_by_test_id("coverage-tables")).to_contain_text(re.compile(r"\d+ → \d+ of \d+"))
    page.get_by_test_id("waiting-link").click()
    expect(page.get_by_test_id("waiting").first).to_be_visible()
    expect(page.locator("tbody tr")).to_have_count(5)
    # The page has no serious accessibility violation, and fits a phone.
    page.goto("/databases/library_demo/goals/generate/")
    expect(page.get_by_test_id("coverage")).to_be_visible()
    assert serious_violations(page) == [], "goals from the schema"
    phone = new_page("ada", **PHONE)
    phone.goto("/databases/library_demo/goals/generate/")
    expect(phone.get_by_test_id("coverage")).to_be_visible()
    assert page_overflow(phone) == 0
