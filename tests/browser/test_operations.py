"""The live operations board in a real browser: an admin watches a dialogue start and move on, without reloading."""

import re

from playwright.sync_api import expect

from tests.browser.test_rooms import ask, patient_expectations, read_tables_and_reveal  # noqa: F401


def test_the_admin_watches_a_dialogue_on_the_live_board(new_page, paired):
    ada = new_page("ada")
    ada.goto("/")
    ada.get_by_role("link", name="Live").click()
    expect(ada.get_by_test_id("connection")).to_have_text("Live")
    worker, expert, _ = paired("wanda3", "zoe")
    row = ada.get_by_test_id("rooms").locator("tbody tr", has_text="wanda3")
    expect(row).to_be_visible()  # pushed by the socket: the page was never reloaded
    expect(row).to_contain_text("zoe")
    assert int(ada.get_by_test_id("rooms-count").inner_text()) >= 1
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many students are there?")
    expect(row.locator("td").nth(5)).to_have_text("1")  # the questions column follows the room
    expect(ada.get_by_test_id("updated-at")).to_have_text(re.compile(r"Last update"))
    expect(ada.get_by_test_id("per-hour").locator("rect")).to_have_count(48)  # two bars per hour, a day of hours
