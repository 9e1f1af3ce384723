"""A crowd worker's whole way through a campaign in a real browser: in by a Prolific-style link, the tutorial, a
dialogue with an expert, back to the campaign's completion URL with the code; then the admin's bonus file, paid and
recorded."""

import re
import secrets

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_rooms import answer_with_sql, first_table, pair, read_tables_and_reveal, watch_frames

# A campaign over every demo database, pointing its completion URL at a page of the platform itself that answers
# without a redirect (the health probe), so the browser's URL shows where the worker was sent.
CREATE_CAMPAIGN = """
from datetime import timedelta
from decimal import Decimal
from django.utils import timezone
from annotation.models import Database
from dialogs.crowd.campaigns import campaign_save
campaign = campaign_save(
    name="Browser crowd campaign", databases=list(Database.objects.filter(active=True)), goals=[], target_per_goal=50,
    hardness_mix={{}}, opens_at=timezone.now() - timedelta(minutes=5), closes_at=None,
    completion_url="{url}/healthz?cc={{code}}", bonus_min_questions=4, bonus_amount=Decimal("0.75"),
)
print(campaign.pk, campaign.join_token)
"""
# Afterwards the platform is as the other browser tests expect it: no campaign at all, every goal in play.
DELETE_CAMPAIGN = """
from dialogs.models import Campaign, CrowdAssignment, Dialogue, LobbyEntry
from review.models import BonusPayout
campaign = Campaign.objects.get(pk={pk})
BonusPayout.objects.filter(campaign=campaign).delete()
Dialogue.objects.filter(campaign=campaign).update(campaign=None, crowd_assignment=None)
LobbyEntry.objects.filter(crowd_assignment__campaign=campaign).update(crowd_assignment=None)
CrowdAssignment.objects.filter(campaign=campaign).delete()
campaign.delete()
"""


@pytest.fixture(autouse=True)
def patient_expectations():
    """Two live browsers, a server and the SQL sandbox share the machine; the way back waits out its countdown."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def campaign(platform, people):
    people("alice", "cora")  # Cora, an expert of her own (Alice is not used: the worker comes from Prolific)
    output = platform.manage("shell", "-c", CREATE_CAMPAIGN.format(url=platform.url))
    pk, token = output.strip().splitlines()[-1].split()  # the shell may say more before the script's own line
    yield {"pk": pk, "token": token}
    platform.manage("shell", "-c", DELETE_CAMPAIGN.format(pk=pk))
    platform.build("browser_lobby_cleared")


def test_a_prolific_worker_completes_a_dialogue_goes_back_with_the_code_and_is_in_the_bonus_file(new_page, campaign):
    pid, study, session = (secrets.token_hex(12) for _ in range(3))
    worker, expert = new_page(), new_page("cora")

    # In through the study link: an account is made and signed in, and the tutorial comes first.
    worker.goto(f"/join/{campaign['token']}/?PROLIFIC_PID={pid}&STUDY_ID={study}&SESSION_ID={session}")
    expect(worker).to_have_url(re.compile("/worker/tutorial/$"))
    expect(worker.get_by_test_id("username")).to_have_text(f"prolific-{pid}")
    # The tutorial promises the campaign's own bonus: its rule ("at least 4", not CoSQL's "more than 4") and amount.
    rule = (
        "A dialogue with at least 4 good related questions (each answered with a table from the data) earns a bonus "
        "of 0.75 GBP, unless the expert scores the dialogue below 3 or review rejects it."
    )
    expect(worker.get_by_test_id("bonus-rule")).to_have_text(rule)
    expect(worker.locator(".tutorial")).not_to_contain_text("More than 4")

    # The expert sees a platform-neutral name; the Prolific PID (personal data) reaches neither their pages nor frames.
    expert_frames = watch_frames(expert)
    pair(worker, expert)
    expect(expert.locator("h1")).to_contain_text(re.compile(r"with Worker \d+$"))
    assert pid not in expert.content().lower()
    expert.screenshot(path="/tmp/wozsql_expert_room_worker_name.png")  # to look at
    expert.set_viewport_size({"width": 390, "height": 844})
    expert.screenshot(path="/tmp/wozsql_expert_room_worker_name_phone.png")  # to look at, at a phone's width
    expert.set_viewport_size({"width": 1280, "height": 720})
    read_tables_and_reveal(worker)
    expect(worker.get_by_test_id("bonus-rule")).to_have_text(rule)  # the room says the same, beside the goal
    table = first_table(expert)
    hint = worker.get_by_test_id("end-hint")
    # Five good related questions; the room counts toward the campaign's rule as the payout does.
    for n in range(1, 6):
        answer_with_sql(
            worker,
            expert,
            f"Question {n}: how many {table} rows are there?",
            f"SELECT count(*) FROM {table}",
            f"Answer {n}: here is the number of {table} rows.",
        )
        if n == 3:  # enough to end, not yet for the bonus
            expect(hint).to_have_text(
                "3 questions answered with data. You can end now — or keep going: the bonus asks for at least 4 good "
                "related questions."
            )
        elif n == 4:  # a worker the room told "not yet" here was paid
            expect(hint).to_have_text(
                "4 questions answered with data. You can end now: this dialogue has the 4 good questions the bonus "
                "asks for."
            )
    end = worker.get_by_role("button", name="End dialogue")
    expect(end).to_be_enabled()  # once the fifth answer's state has arrived
    end.click()
    confirm = worker.get_by_role("button", name="End the dialogue")
    if confirm.is_visible():  # the room asks once more before ending for good
        confirm.click()
    code_box = worker.get_by_test_id("completion-code")
    expect(code_box).to_have_text(re.compile(r"^WOZ-[0-9A-F]+$"))
    code = code_box.inner_text()
    expect(worker.get_by_test_id("return-link")).to_be_visible()

    # After a few seconds with the code on screen, the browser is at the campaign's completion URL, with the code.
    expect(worker).to_have_url(re.compile(rf"/healthz\?cc={re.escape(code)}$"))

    # Back on the platform later, the worker finds the dialogue and its code on their own page, with the way back.
    worker.goto("/worker/dialogues/")
    history = worker.get_by_test_id("history")
    expect(history.get_by_test_id("history-code")).to_have_text([code])
    expect(history.get_by_role("link", name="Go back to the study with it")).to_be_visible()
    assert serious_violations(worker) == [], "worker's dialogues"
    worker.screenshot(path="/tmp/wozsql_worker_history.png", full_page=True)  # to look at
    worker.set_viewport_size({"width": 390, "height": 844})
    assert worker.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") == 0
    worker.screenshot(path="/tmp/wozsql_worker_history_phone.png", full_page=True)  # to look at, at a phone's width

    expect(expert.locator("#score-panel")).to_be_visible()
    expert.locator("label.score-option", has_text="5").click()
    expert.get_by_role("button", name="Submit score").click()
    expect(expert.locator("#summary")).to_be_visible()
    expert.goto("/expert/")
    expect(expert.get_by_test_id("username")).to_have_text("cora")
    assert expert_frames and not [frame for frame in expert_frames if pid in frame.lower()]
    assert pid not in expert.content().lower()

    # The admin downloads the campaign's bonus files: the worker is in them, with the bonus of one dialogue.
    admin = new_page("ada")
    admin.goto("/review/payments/")
    row = admin.get_by_test_id("payments").locator("tr", has_text="Browser crowd campaign")
    with admin.expect_download() as listed:
        row.get_by_role("link", name="Bonus list (every worker)").click()
    bonus_list = open(listed.value.path(), encoding="utf-8").read()
    assert f"prolific,{pid},{study},1,1,0.75," in bonus_list
    with admin.expect_download() as prolific:
        row.get_by_role("link", name="Prolific bulk bonus").click()
    assert open(prolific.value.path(), encoding="utf-8").read() == f"{pid},0.75\n"
    with admin.expect_download() as codes:
        row.get_by_role("link", name="Completion codes and outcomes").click()
    assert f"prolific,{pid},{study},{session}," in open(codes.value.path(), encoding="utf-8").read()
    assert f",completed,{code}," in open(codes.value.path(), encoding="utf-8").read()

    # Paid on Prolific, the file is recorded as paid: the bonus is not offered again, and the payout keeps its file.
    row.get_by_role("link", name="Pay bonuses").click()
    owed = admin.get_by_test_id("owed").locator("tr", has_text=study)
    expect(owed).to_contain_text("0.75")
    with admin.expect_download() as to_pay:
        owed.get_by_role("link", name="Download").click()
    paid_file = open(to_pay.value.path(), encoding="utf-8").read()
    assert paid_file == f"{pid},0.75\n"
    expect(owed).to_contain_text("0.75 GBP")  # every amount names its currency (BONUS_CURRENCY)
    owed.get_by_role("button", name=re.compile("I paid this file on Prolific")).click()
    # Nothing is recorded before the admin has seen what will be and confirmed it.
    confirm_payout = admin.get_by_test_id("payout-confirm")
    expect(confirm_payout).to_contain_text(pid)
    expect(admin.get_by_test_id("payout-total")).to_have_text("0.75 GBP")
    assert serious_violations(admin) == [], "payout confirmation"
    admin.screenshot(path="/tmp/wozsql_payout_confirm.png", full_page=True)  # to look at
    admin.set_viewport_size({"width": 390, "height": 844})
    assert admin.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") == 0
    admin.screenshot(path="/tmp/wozsql_payout_confirm_phone.png", full_page=True)  # to look at, at a phone's width
    admin.set_viewport_size({"width": 1280, "height": 720})
    confirm_payout.get_by_role("button", name="Yes, I paid 0.75 GBP: record it").click()
    expect(admin.locator(".messages")).to_contain_text("recorded: 0.75 GBP to 1 worker(s)")
    expect(admin.get_by_test_id("owed")).to_contain_text("Nothing is owed.")
    payout = admin.get_by_test_id("payouts").locator("tr", has_text="Browser crowd campaign")
    expect(payout).to_contain_text("0.75 GBP")
    admin.screenshot(path="/tmp/wozsql_payments.png", full_page=True)  # to look at
    admin.set_viewport_size({"width": 390, "height": 844})
    admin.screenshot(path="/tmp/wozsql_payments_phone.png", full_page=True)  # to look at, at a phone's width
    admin.set_viewport_size({"width": 1280, "height": 720})
    with admin.expect_download() as again:
        payout.get_by_role("link", name=re.compile("as paid")).click()
    assert open(again.value.path(), encoding="utf-8").read() == paid_file
    with admin.expect_download() as prolific:
        admin.get_by_test_id("payments").locator("tr", has_text="Browser crowd campaign").get_by_role(
            "link", name="Prolific bulk bonus"
        ).click()
    assert open(prolific.value.path(), encoding="utf-8").read() == ""


# --- Model help and its control group ------------------------------------------------------------------------------

# Tables of class "data" that reach past their card's right edge with nothing that scrolls them (as test_phone's check).
TABLES_OVER_THEIR_CARDS = """() => [...document.querySelectorAll('.card table.data')].filter((table) => {
  const card = table.closest('.card');
  for (let box = table.parentElement; box !== card.parentElement; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== 'visible') return false;
  }
  return table.getBoundingClientRect().right > card.getBoundingClientRect().right + 1;
}).length"""


# The elements that reach past a phone's screen (an empty list: nothing pushes the page sideways), named for the
# failure message.
WIDER_THAN_THE_SCREEN = """() => document.documentElement.scrollWidth <= window.innerWidth ? [] :
  [...document.querySelectorAll('body *')].filter((node) => node.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 5).map((node) => node.tagName + '.' + node.className)"""


@pytest.fixture
def control_group(platform):
    """A campaign of ten ended dialogues, three of them in its control group (tests.builders)."""
    made = platform.manage("shell", "-c", "from tests.builders import control_group_campaign as c; print(c())")
    pk = int(made.strip().splitlines()[-1])
    yield pk
    platform.manage("shell", "-c", f"from tests.builders import control_group_campaign_delete as d; d({pk})")


def test_the_admin_reads_a_campaigns_control_group_and_compares_it_with_the_helped_dialogues(new_page, control_group):
    admin = new_page("ada")
    admin.goto(f"/manage/campaigns/{control_group}/")
    section = admin.get_by_test_id("model-groups")
    # The browser platform points at the test model server: the groups are shown without a "no model" note.
    expect(section.get_by_test_id("group-helped")).to_be_visible()
    expect(section.get_by_test_id("no-model")).to_have_count(0)
    expect(section.get_by_test_id("group-helped")).to_have_text("7")
    expect(section.get_by_test_id("group-held-back")).to_have_text("3 (30%)")
    assert serious_violations(admin) == [], "campaign page with its groups"
    section.screenshot(path="/tmp/wozsql_campaign_groups.png")  # to look at
    section.get_by_role("link", name="Compare the two groups").click()
    expect(admin.get_by_test_id("helped-dialogues")).to_have_text("7")
    expect(admin.get_by_test_id("control-dialogues")).to_have_text("3")
    # Every helped question was answered sooner than every control one (20-29 s against 45-54 s).
    expect(admin.get_by_test_id("time-difference")).to_contain_text(re.compile(r"Helped minus control: -\d"))
    expect(admin.get_by_test_id("time-difference")).to_contain_text("95% interval")
    expect(admin.get_by_test_id("model-help-drafts").locator("tr", has_text="Asked for")).to_contain_text("7")
    images = admin.locator("[data-testid=model-help-figures] img")
    expect(images).to_have_count(5)
    for index in range(5):
        images.nth(index).scroll_into_view_if_needed()
        admin.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=images.nth(index).element_handle(), timeout=30_000
        )
    assert serious_violations(admin) == [], "model help against its control group"
    admin.screenshot(path="/tmp/wozsql_model_help.png", full_page=True)  # to look at
    admin.set_viewport_size({"width": 390, "height": 844})
    admin.screenshot(path="/tmp/wozsql_model_help_phone.png", full_page=True)  # to look at, at a phone's width
    assert admin.evaluate(WIDER_THAN_THE_SCREEN) == []
    assert admin.evaluate(TABLES_OVER_THEIR_CARDS) == 0
    admin.go_back()
    expect(section.get_by_test_id("group-helped")).to_have_text("7")
    admin.screenshot(path="/tmp/wozsql_campaign_groups_phone.png", full_page=True)  # to look at, at a phone's width
    assert admin.evaluate(WIDER_THAN_THE_SCREEN) == []
