"""An admin looks after the demo's test suites: the databases list and a database's page say where each suite stands,
the rebuild button starts a build that no page waits for, and both pages read well on a phone and pass the
accessibility check."""

import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_phone import PHONE, page_overflow


def test_an_admin_rebuilds_a_suite_and_the_pages_say_where_it_stands(new_page):
    ada = new_page("ada")
    ada.goto("/databases/")
    expect(ada.get_by_test_id("suite-dorm_demo")).to_contain_text(re.compile("no suite yet|waiting|building|ready"))
    assert serious_violations(ada) == [], "databases list"
    ada.get_by_role("link", name="dorm_demo").click()
    ada.get_by_role("button", name="Rebuild the test suite").click()
    expect(ada.get_by_text("will be rebuilt in the background")).to_be_visible()
    expect(ada.get_by_test_id("suite-status")).to_contain_text(re.compile("waiting to be built|building|ready"))
    assert serious_violations(ada) == [], "database page, suite waiting"

    phone = new_page("ada", **PHONE)
    for url in ("/databases/", "/databases/dorm_demo/"):
        phone.goto(url)
        expect(phone.locator("h1")).to_be_visible()
        assert page_overflow(phone) == 0, url


DORMS = {"Juniper House", "Granite Court", "Maple Lodge", "Harbor View Hall", "Willow House", "Oakridge Hall",
         "Bluebell Cottage", "Summit Towers", "Riverside Commons"}  # fmt: skip


def test_a_reviewer_sees_the_rows_that_tell_two_queries_apart_or_how_far_nothing_did(new_page, platform):
    # No dorm holds exactly 250 students: on the demo's database `> 250` and `>= 250` return the same dorms.
    dialogue = platform.build(
        "reviewable_dialogue",
        "dorm_demo",
        [
            ("Which dorms hold more than 250 students?", "SELECT dorm_name FROM dorm WHERE student_capacity > 250"),
            ("How many dorms are there?", "SELECT count(*) FROM dorm"),
            ("And the biggest?", "SELECT dorm_name FROM dorm ORDER BY student_capacity DESC LIMIT 1"),
        ],
    )
    rita = new_page("rita")
    rita.goto(f"/review/dialogues/{dialogue}/")
    box = rita.get_by_test_id("compare-box-0")
    box.locator("summary").click()
    box.get_by_test_id("compare-sql-0").fill("SELECT dorm_name FROM dorm WHERE student_capacity >= 250")
    box.get_by_test_id("compare-0").click()
    result = box.get_by_test_id("compare-result-0")
    expect(result).to_contain_text("Different: here is a database where they differ")
    # The fewest rows that show it: one dorm of 250 places, named as the demo's dorms are.
    rows = result.get_by_test_id("suite-database")
    expect(rows).to_contain_text("The fewest rows of that database that show the difference")
    dorm = rows.locator("section.suite-table", has=rita.locator("h4", has_text=re.compile("^dorm$")))
    expect(dorm.locator("tbody tr")).to_have_count(1)
    expect(dorm.locator("tbody td").nth(2)).to_have_text("250")
    name = dorm.locator("tbody td").nth(1).inner_text()
    assert name in DORMS, name
    # Both results side by side, the row only one of them returns above them.
    expect(result.locator(".suite-side h4")).to_have_text(["Your query", "The turn's query"])
    expect(result.get_by_test_id("suite-difference")).to_contain_text(f"Only in your query: {name}")
    assert serious_violations(rita) == [], "a counterexample"

    # The same question written another way: nothing tells them apart, and the box says only that.
    box.get_by_test_id("compare-sql-0").fill("SELECT dorm_name FROM dorm WHERE 250 < student_capacity")
    box.get_by_test_id("compare-0").click()
    expect(result).to_contain_text(re.compile(r"No difference found on [\d,]+ databases \(searched for [\d.]+ s\)"))
    expect(result).not_to_contain_text("Same meaning")
