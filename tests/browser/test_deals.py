"""Work dealt out evenly, in a real browser: Ada deals a week of solo sequences to Wren, Wade and Wynn; Wren finds
hers under "Assigned to you", each with its minimum, and begins one; the deal's page shows who has begun what; Wynn
leaves, and Ada deals Wynn's items to the other two (docs/dealing.md)."""

import json
import re

from playwright.sync_api import expect

from tests.browser.conftest import DEMO_PASSWORD

DEAL = "Week 48: solo sequences"
PEOPLE = ("wren", "wade", "wynn")


def build(platform, name: str, *args, **kwargs):
    """Call `tests.deal_builders.<name>` in the platform's command runner and return its result."""
    script = f"import json; from tests.deal_builders import {name} as b; print(json.dumps(b(*{args!r}, **{kwargs!r})))"
    return json.loads(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def test_an_admin_deals_a_week_of_solo_work_and_re_deals_it_when_someone_leaves(new_page, platform):
    build(platform, "deal_experts", *PEOPLE, password=DEMO_PASSWORD)

    ada = new_page("ada")
    ada.goto("/manage/campaigns/")
    ada.get_by_role("link", name="Dealt work").click()
    ada.get_by_role("link", name="Deal work").click()
    ada.get_by_label("Name:", exact=True).fill(DEAL)
    ada.get_by_role("radio", name="Solo sequences").check()
    for username in PEOPLE:
        ada.get_by_label(username, exact=True).check()
    for db_id in ("dorm_demo", "flights_demo", "library_demo"):
        ada.get_by_label(db_id, exact=True).check()
    ada.get_by_label("Items:", exact=True).fill("9")
    ada.get_by_label("Seed:", exact=True).fill("48")
    ada.get_by_role("button", name="Deal", exact=True).click()
    expect(ada.locator(".messages")).to_contain_text("Dealt 9 items to 3 people")
    for username in PEOPLE:
        row = ada.get_by_test_id(f"progress-{username}")
        expect(row.get_by_test_id("assigned-count")).to_have_text("3")
        expect(row.get_by_test_id("started-count")).to_have_text("0")

    # Wren's solo page lists her three sequences first, each with the minimum drawn for it.
    minima = build(platform, "deal_minima", DEAL, "wren")
    wren = new_page("wren")
    wren.goto("/solo/")
    assigned = wren.get_by_test_id("assigned")
    expect(assigned.get_by_test_id("assigned-minimum")).to_have_text([f"at least {n} questions" for n in minima])
    assert all(3 <= n <= 5 for n in minima)
    assigned.get_by_role("button", name=re.compile("^Begin the sequence")).first.click()
    expect(wren.get_by_test_id("solo-progress")).to_have_text(f"0 of {minima[0]} questions")

    ada.reload()
    expect(ada.get_by_test_id("progress-wren").get_by_test_id("started-count")).to_have_text("1")

    # Wynn leaves: their three items go to Wren and Wade, one of them taking two.
    ada.get_by_role("button", name="Remove wynn and re-deal their open items").click()
    expect(ada.locator(".messages")).to_contain_text("wynn left the deal: 3 open items were dealt to the others.")
    expect(ada.get_by_test_id("progress-wynn")).to_contain_text("left")
    held = [ada.get_by_test_id(f"progress-{name}").get_by_test_id("assigned-count") for name in PEOPLE]
    counts = [int(cell.inner_text()) for cell in held]
    assert sorted(counts[:2]) == [4, 5] and counts[2] == 0
    expect(ada.get_by_test_id("deal-history")).to_contain_text("wynn removed by ada")

    wren.goto("/solo/")
    expect(wren.get_by_test_id("assigned-item")).to_have_count(counts[0])
