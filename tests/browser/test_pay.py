"""Pay for the lab's own people, in a real browser (docs/pay.md): Ada sets the experts' hourly rate, opens Paz's
statement for the week, downloads it, records it as paid and downloads it again as recorded; Paz reads his own pay,
finds the week paid, and cannot open Pia's."""

import csv
import io
import json
import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations


def build(platform, name: str, *args, **kwargs):
    """Call `tests.pay_builders.<name>` in the platform's command runner and return its result."""
    script = f"import json; from tests.pay_builders import {name} as b; print(json.dumps(b(*{args!r}, **{kwargs!r})))"
    return json.loads(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def rows_of(download) -> list[dict]:
    return list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))


def test_an_admin_pays_an_experts_week_once_and_the_expert_sees_only_his_own_pay(new_page, platform):
    # Three dialogues of five minutes each, finished this week.
    week = build(platform, "pay_week_of_work", "paz", "pia")

    ada = new_page("ada")
    ada.get_by_role("link", name="Team pay", exact=True).click()
    rule = ada.get_by_test_id("pay-rule-form")
    rule.get_by_label("Role").select_option("expert")
    rule.get_by_label("Paid").select_option("hour")
    rule.get_by_label("Rate").fill("30.00")
    rule.get_by_label("Currency").fill("GBP")
    rule.get_by_role("button", name="Set the rule").click()
    expect(ada.locator(".messages")).to_contain_text("Expert (dialogues with a worker) by default: 30.00 GBP per hour")
    expect(ada.get_by_test_id("pay-rule")).to_contain_text("30.00 GBP per hour")

    period = ada.get_by_test_id("period")
    period.get_by_label("From").fill(week["start"])
    period.get_by_label("To (included)").fill(week["end"])
    period.get_by_role("button", name="Show").click()
    paz_row = ada.get_by_test_id("pay-person-paz")
    expect(paz_row.get_by_test_id("owed-total")).to_have_text("7.50 GBP")  # a quarter of an hour at 30.00
    assert serious_violations(ada) == [], "pay page"
    ada.screenshot(path="/tmp/wozsql_pay_home.png", full_page=True)  # to look at
    paz_row.get_by_role("link", name="paz").click()

    expect(ada.locator("h1")).to_have_text("Pay of paz")
    owed = ada.get_by_test_id("pay-owed")
    expect(owed.get_by_test_id("pay-line")).to_have_count(3)
    expect(owed.get_by_test_id("line-amount")).to_have_text(["2.50 GBP"] * 3)
    expect(owed.get_by_test_id("pay-total")).to_have_text("7.50 GBP")
    assert serious_violations(ada) == [], "statement page"
    ada.screenshot(path="/tmp/wozsql_pay_statement.png", full_page=True)  # to look at
    ada.set_viewport_size({"width": 390, "height": 844})  # a phone: the tables scroll inside their cards
    assert ada.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") == 0
    ada.screenshot(path="/tmp/wozsql_pay_statement_phone.png", full_page=True)  # to look at
    ada.set_viewport_size({"width": 1280, "height": 720})
    with ada.expect_download() as statement_file:
        ada.get_by_test_id("pay-csv").click()
    rows = rows_of(statement_file)
    assert [row["id"] for row in rows[:3]] == [str(pk) for pk in week["dialogues"]]
    assert [row["seconds"] for row in rows[:3]] == ["300"] * 3
    assert (rows[-1]["work"], rows[-1]["amount"], rows[-1]["currency"]) == ("Total", "7.50", "GBP")

    record = ada.get_by_test_id("pay-record")
    record.get_by_label(re.compile("I have paid 7.50 GBP to paz")).check()
    record.get_by_role("button", name="Record as paid").click()
    expect(ada.locator(".messages")).to_contain_text("recorded as paid: 7.50 GBP to paz")
    expect(ada.get_by_test_id("pay-recorded-total")).to_have_text("7.50 GBP")
    recorded_url = ada.url
    with ada.expect_download() as as_recorded:
        ada.get_by_test_id("pay-recorded-csv").click()
    recorded_rows = rows_of(as_recorded)
    statement_id = recorded_rows[0]["statement"]
    assert recorded_url.endswith(f"/review/pay/statements/{statement_id}/")
    assert [{**row, "statement": ""} for row in recorded_rows] == rows  # the same lines, now naming the statement

    # Paz reads his own pay: the week is paid, nothing is owed, and the statement as it was recorded.
    paz = new_page("paz")
    paz.get_by_role("link", name="Your pay", exact=True).click()
    expect(paz.locator("h1")).to_have_text("Your pay")
    paz.goto(f"/review/pay/?start={week['start']}&end={week['end']}")
    expect(paz.get_by_test_id("pay-owed")).to_contain_text("Nothing is owed for this period.")
    expect(paz.get_by_test_id("pay-paid-before").get_by_test_id("pay-line")).to_have_count(3)
    paz.get_by_test_id("pay-recorded").get_by_role("link", name=f"Statement {statement_id}").click()
    expect(paz.get_by_test_id("pay-recorded-total")).to_have_text("7.50 GBP")

    # Pia's pay is not his to see, nor is the admins' page.
    response = paz.goto(f"/review/pay/people/{week['other']}/")
    assert response.status == 404
    assert "pia" not in paz.content()
    paz.goto("/review/pay/")
    expect(paz.locator("h1")).to_have_text("Your pay")
    expect(paz.get_by_test_id("pay-rules")).to_have_count(0)
