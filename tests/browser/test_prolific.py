"""An admin runs a campaign's Prolific study from its page, on the loopback stand-in for Prolific's API
(tools/prolific_server.py, which the platform's server is pointed at by tests/browser/conftest.py): the study
published with the campaign's filters, paused, a participant's submission approved, and their bonus paid."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tools.prolific_server import TEST_TOKEN

CREATE_CAMPAIGN = """
from datetime import timedelta
from decimal import Decimal
from django.utils import timezone
from annotation.models import Database
from dialogs.crowd.campaigns import campaign_save
campaign = campaign_save(
    name="Prolific API campaign", databases=list(Database.objects.filter(active=True, db_id="dorm_demo")), goals=[],
    target_per_goal=5, hardness_mix={}, opens_at=timezone.now() - timedelta(minutes=5), closes_at=None,
    bonus_min_questions=1, bonus_amount=Decimal("0.75"),
)
campaign.prolific_reward = Decimal("2.50")
campaign.save(update_fields=["prolific_reward"])
print(campaign.pk)
"""
# A participant of the study came through the join link and had a dialogue with one question answered from the data,
# which the campaign's rule pays a bonus for (a dialogue's whole way through the screens is test_crowd.py's story).
PARTICIPANT_WORKED = """
from django.utils import timezone
from annotation.models import Goal, User
from dialogs.crowd.services import CrowdIds, crowd_join
from dialogs.models import Campaign, Dialogue
from review.tests.conftest import Room
campaign = Campaign.objects.get(pk={pk})
study = campaign.prolific_studies.get()
assignment = crowd_join(campaign=campaign, ids=CrowdIds("prolific", "{participant}", study.study_id, "{submission}"))
goal = Goal.objects.filter(database__db_id="dorm_demo", active=True).first()
dialogue = Dialogue.objects.create(
    database=goal.database, goal=goal, worker=assignment.crowd_worker.person,
    expert=User.objects.get(username="cora"), campaign=campaign, crowd_assignment=assignment,
)
room = Room(dialogue)
room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
Dialogue.objects.filter(pk=dialogue.pk).update(status="completed", ended_at=timezone.now(), completion_code="WOZ-1")
print(study.study_id)
"""
# Afterwards the platform is as the other browser tests expect it: no campaign at all.
DELETE_CAMPAIGN = """
from dialogs.models import Campaign, CrowdAssignment, Dialogue, LobbyEntry, ProlificBonusPayment, ProlificStudy
from review.models import BonusPayout
campaign = Campaign.objects.get(pk={pk})
ProlificBonusPayment.objects.filter(campaign=campaign).delete()
ProlificStudy.objects.filter(campaign=campaign).delete()
BonusPayout.objects.filter(campaign=campaign).delete()
Dialogue.objects.filter(campaign=campaign).delete()
LobbyEntry.objects.filter(crowd_assignment__campaign=campaign).update(crowd_assignment=None)
CrowdAssignment.objects.filter(campaign=campaign).delete()
campaign.delete()
"""


@pytest.fixture
def campaign(platform, people, prolific_server):
    people("alice", "cora")
    prolific_server.reset(TEST_TOKEN)
    pk = platform.manage("shell", "-c", CREATE_CAMPAIGN).strip().splitlines()[-1]
    yield pk
    platform.manage("shell", "-c", DELETE_CAMPAIGN.format(pk=pk))
    prolific_server.reset(TEST_TOKEN)


def test_an_admin_publishes_pauses_approves_and_pays_bonuses_on_prolific(platform, new_page, campaign, prolific_server):
    admin = new_page("ada")
    admin.goto(f"/manage/campaigns/{campaign}/#prolific")
    section = admin.get_by_test_id("prolific")
    # CoSQL's workers: residents of the United States with an approval rate of 95 % or more.
    expect(section.get_by_test_id("prolific-filters")).to_have_text(
        "current-country-of-residence 1; approval_rate ≥ 95"
    )
    section.get_by_role("button", name="Publish a study on Prolific").click()
    expect(admin.locator(".messages")).to_contain_text("Published the study")
    status = admin.get_by_test_id("prolific-status")
    expect(status).to_have_text("ACTIVE")
    (study_id,) = prolific_server.state()["studies"]
    sent = prolific_server.state()["studies"][study_id]
    assert {"filter_id": "approval_rate", "selected_range": {"lower": 95, "upper": 100}} in sent["filters"]

    admin.get_by_role("button", name="Pause the study").click()
    expect(status).to_have_text("PAUSED")
    assert prolific_server.state()["studies"][study_id]["status"] == "PAUSED"

    participant, submission = "5f1e2d3c4b5a69788796a5b4", "6a0b1c2d3e4f5a6b7c8d9e0f"
    worked = PARTICIPANT_WORKED.format(pk=campaign, participant=participant, submission=submission)
    platform.manage("shell", "-c", worked)
    prolific_server.add_submissions(study_id, [{"id": submission, "participant": participant}])

    admin.get_by_role("link", name="Submissions").click()
    row = admin.locator(f"[data-submission='{submission}']")
    expect(row).to_contain_text(participant)
    expect(row).to_contain_text("Completed (WOZ-1)")  # the dialogue it stands for, to decide by
    row.get_by_role("button", name="Approve").click()
    expect(admin.locator(".messages")).to_contain_text(f"Approved submission {submission}: it is approved.")
    expect(row.get_by_test_id("submission-status")).to_have_text("APPROVED")
    assert serious_violations(admin) == [], "submissions"

    admin.get_by_role("link", name="Back to the campaign").click()
    expect(admin.get_by_test_id("prolific-owed")).to_contain_text(participant)
    admin.get_by_role("button", name="Pay 0.75 GBP in bonuses on Prolific").click()
    # The job runs beside the page, which follows it and shows the payment once done.
    expect(admin.get_by_test_id("prolific-payment-state")).to_have_text("Paid", timeout=20_000)
    expect(admin.get_by_test_id("prolific-nothing-owed")).to_be_visible()
    state = prolific_server.state()
    (bulk,) = state["bulks"].values()
    assert bulk["paid_times"] == 1
    assert state["submissions"][submission]["bonus_payments"] == [75]
    # Every call is on the page, with who made it and what came back; the token is in none of it.
    calls = admin.get_by_test_id("prolific-calls")
    expect(calls).to_contain_text("Pay bonuses")
    expect(calls).to_contain_text(re.compile(r"POST /api/v1/bulk-bonus-payments/\w+/pay/"))
    assert TEST_TOKEN not in admin.content()
    assert serious_violations(admin) == [], "campaign page with its Prolific section"
    admin.locator("#prolific").screenshot(path="/tmp/wozsql_prolific_section.png")  # to look at
    admin.set_viewport_size({"width": 390, "height": 844})
    assert admin.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") == 0
    admin.locator("#prolific").screenshot(path="/tmp/wozsql_prolific_section_phone.png")  # at a phone's width
