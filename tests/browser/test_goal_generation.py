"""An admin generates goals on a database where every query is slow, as on a big file: the page answers at once and
follows the run, the admin cancels it, and the page says Cancelled (docs/goals.md)."""

import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations


def test_an_admin_cancels_a_running_goal_generation_and_the_page_says_cancelled(platform, new_page):
    # Every goal the sampler tries on this database runs into the sandbox's time limit: the run goes on until stopped.
    platform.build("database_slow_to_read")
    ada = new_page("ada")
    ada.goto("/databases/slow_reads/goals/generate/")
    ada.get_by_label("How many goals").fill("200")
    ada.get_by_role("button", name="Generate").click()

    run = ada.get_by_test_id("runs").locator("li").first
    expect(run.locator("[data-run-state]")).to_have_text(re.compile("Queued|Running"))
    assert serious_violations(ada) == [], "a run under way, with its cancel button"
    run.get_by_role("button", name="Cancel").click()
    expect(ada.locator(".messages")).to_contain_text(
        re.compile("Asked the run to stop|Cancelled the run before it started")
    )

    # The run stops at its next check, within one candidate's work (one sandbox time limit); the page follows it.
    run = ada.get_by_test_id("runs").locator("li").first
    expect(run.locator("[data-run-state]")).to_have_text("Cancelled", timeout=30_000)
    expect(run.locator("[data-run-found]")).to_have_text("0 found, 0 kept")
    expect(run.locator("[data-run-message]")).to_contain_text("Cancelled by ada")
    expect(run.get_by_role("button", name="Cancel")).to_have_count(0)


def test_a_run_finishing_while_the_admin_fills_in_the_next_one_leaves_their_form_alone(platform, new_page):
    """The page follows a run and shows what it made once it finishes, by a reload: never while the admin is at work
    in the form (it would take what they typed), when it offers the reload instead."""
    platform.build("database_slow_to_read")
    ada = new_page("ada")
    ada.goto("/databases/slow_reads/goals/generate/")
    ada.get_by_label("How many goals").fill("200")
    ada.get_by_role("button", name="Generate").click()
    run = ada.get_by_test_id("runs").locator("li").first
    expect(run.locator("[data-run-state]")).to_have_text(re.compile("Queued|Running"))
    count = ada.get_by_label("How many goals")
    count.fill("7")  # the next run, under way in the form
    # Another page of hers stops the run: it finishes while she types.
    other = new_page("ada")
    other.goto("/databases/slow_reads/goals/generate/")
    other.get_by_test_id("runs").locator("li").first.get_by_role("button", name="Cancel").click()
    expect(run.locator("[data-run-state]")).to_have_text("Cancelled", timeout=30_000)
    reload = ada.get_by_test_id("job-reload")
    expect(reload).to_be_visible()
    expect(count).to_have_value("7")
    reload.click()
    expect(ada.get_by_test_id("runs").locator("li").first.locator("[data-run-found]")).to_have_text("0 found, 0 kept")


def test_an_admin_discards_a_sampled_goal_saying_why_and_the_goal_list_shows_it(platform, new_page):
    goal = platform.build("goal_sampled_waiting", 150)
    reason = "Lists dorm names by capacity: nobody asks this"
    ada = new_page("ada")
    ada.goto(f"/goals/{goal}/edit/")
    discard = ada.get_by_test_id("goal-discard")
    discard.get_by_label("Why").fill(reason)
    assert serious_violations(ada) == [], "a goal's page with its discard form"
    discard.get_by_role("button", name="Discard").click()

    expect(ada.locator(".messages")).to_contain_text("Discarded the goal")
    shown = ada.get_by_test_id("discarded").filter(has_text=reason)
    expect(shown).to_have_count(1)
    expect(shown).to_contain_text("discarded by ada")
    # It waits for no question any more, and its page says it was discarded, by whom and why, with no form left.
    ada.goto(f"/goals/{goal}/edit/")
    expect(ada.get_by_test_id("discard-history")).to_contain_text("Discarded by ada")
    expect(ada.get_by_test_id("goal-discard").get_by_role("button", name="Discard")).to_have_count(0)
