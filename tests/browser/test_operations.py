"""The live operations board in a real browser: an admin watches a dialogue start and move on, without reloading."""

import re

from playwright.sync_api import expect

from tests.browser.test_rooms import (  # noqa: F401 - patient_expectations: the autouse fixture, for this module too
    ask,
    first_table,
    label,
    patient_expectations,
    read_tables_and_reveal,
    respond,
    run_and_share,
)


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
    # The questions column counts as the worker's counter does (dialogs.log.question_counts): a question answered
    # with SQL, not every message sent.
    ask(worker, expert, "How many students are there?")
    label(expert, "INFORM_SQL")
    expect(row.locator("td").nth(5)).to_have_text("0")
    run_and_share(expert, f"SELECT count(*) FROM {first_table(expert)}")
    respond(expert, "There are that many.", "CONFIRM_SQL")
    expect(row.locator("td").nth(5)).to_have_text("1")  # the questions column follows the room
    expect(ada.get_by_test_id("updated-at")).to_have_text(re.compile(r"Last update"))
    expect(ada.get_by_test_id("per-hour").locator("rect")).to_have_count(48)  # two bars per hour, a day of hours
    # The chart's legend reads on one line under the chart, not one letter per line over the next card.
    legend = ada.get_by_test_id("per-hour").locator(".legend")
    box = legend.bounding_box()
    assert box["width"] > 100 and box["height"] < 40, box
