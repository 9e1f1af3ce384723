"""Large files in a real browser (docs/curation.md, "Table content", "A large database"): a 40 MB cell is shown cut,
with its size, and a curator works through the checks of a 2,000-table database a page of tables at a time."""

import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_curation import read_the_file_if_asked


def test_an_expert_opens_a_table_with_a_40_mb_cell_and_sees_it_cut_with_its_size(new_page, platform):
    platform.build("database_with_a_huge_cell", "archive")
    page = new_page("erin")
    page.goto("/databases/archive/")
    with page.expect_response(re.compile(r"/tables/0/\?page=1$")) as answer:
        page.get_by_test_id("table-scan").click()
    assert len(answer.value.body()) < 10_000, "the page of the table, not the 40 MB"
    first = page.locator("#table-content tbody tr").first
    body, image = first.locator("td").nth(2), first.locator("td").nth(3)
    expect(body).to_contain_text("abab")
    expect(body).to_contain_text("… (40 MB, cut)")
    expect(body.locator(".cut-mark")).to_have_text(" (40 MB, cut)")
    expect(image).to_have_text("BLOB, 40 MB")
    expect(page.locator("#table-content tbody tr").nth(1)).to_contain_text("short")


def test_a_curator_pages_a_2000_table_database_and_follows_a_check_to_a_later_page(new_page, platform):
    platform.build("database_of_many_tables", "warehouse")
    page = new_page("ada")
    response = page.goto("/databases/warehouse/curate/")
    assert len(response.body()) < 1_000_000
    read_the_file_if_asked(page)
    pager = page.get_by_test_id("tables-pager").first
    expect(pager).to_contain_text("Page 1 of 40")
    expect(page.locator("article.curate-table")).to_have_count(50)
    expect(page.get_by_test_id("checks-cut")).to_contain_text("The first 100 of")
    assert serious_violations(page) == [], "the paged curation page"

    # A check about a table on page 3 leads there, to the table.
    page.get_by_test_id("checks-open").get_by_role("link", name="Table TBL_0100 is reached by no join.").click()
    expect(page).to_have_url(re.compile(r"/databases/warehouse/curate/\?page=3#table-100$"))
    expect(page.locator("#table-100")).to_be_in_viewport()
    expect(pager).to_contain_text("Page 3 of 40")

    # A readable name given there comes back to the same page.
    page.locator("#name-100").fill("stock item")
    page.get_by_role("button", name="Save the names of TBL_0100").click()
    expect(page.locator(".messages")).to_contain_text("Saved 1 readable name of TBL_0100.")
    expect(page).to_have_url(re.compile(r"\?page=3#table-100$"))

    # The next page, then the filter by name, which reaches any table and its checks.
    pager.get_by_role("link", name="Next tables →").click()
    expect(pager).to_contain_text("Page 4 of 40")
    expect(page.locator("#table-150")).to_be_visible()
    page.get_by_label("Tables named like").fill("tbl_1999")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("article.curate-table")).to_have_count(1)
    page.get_by_test_id("checks-open").get_by_role("link", name="Table TBL_1999 has no readable name.").click()
    expect(page.locator("#name-1999")).to_be_in_viewport()
