"""Crowd platforms: the join link (Prolific and MTurk ids, a new or the same account, refusals in words, no way into
someone else's account), the ids kept with the dialogue, and the way back to the platform with the code. Also the
permission matrix of the campaign and payment pages."""

import ipaddress
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotation.models import Goal, User
from annotation.people.services import person_create
from dialogs import lobby
from dialogs.crowd import campaigns
from dialogs.models import Campaign, CrowdAssignment, CrowdWorker, Dialogue, DialogueStatus, LobbyEntry
from tests.builders import expert_ready

pytestmark = pytest.mark.django_db

PID, STUDY, SESSION = "5f1e2d3c4b5a69788796a5b4", "60aa0b1c2d3e4f5a6b7c8d9e", "61bb0c1d2e3f4a5b6c7d8e9f"
PROLIFIC = {"PROLIFIC_PID": PID, "STUDY_ID": STUDY, "SESSION_ID": SESSION}
MTURK = {
    "workerId": "A1B2C3D4E5F6G7",
    "assignmentId": "3X65QVEQI0MBJYQWLFIYNQWBN4BLCN",
    "hitId": "3SA4EMRVJV2ZK5SXQT5NTNOAOZKP0X",
}


@pytest.fixture
def campaign(demo_databases):
    database = demo_databases["dorm_demo"]
    for i in range(3):
        Goal.objects.create(database=database, question=f"Question {i}?", sql=f"SELECT {i}", hardness="medium")
    return campaigns.campaign_save(
        name="Pilot",
        databases=[database],
        goals=[],
        target_per_goal=1,
        hardness_mix={},
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=None,
        completion_url="https://app.prolific.com/submissions/complete?cc={code}",
        bonus_min_questions=5,
        bonus_amount=Decimal("0.50"),
    )


def fresh_browser():
    """Another browser: its own cookies, nobody signed in."""
    return Client()


def join_url(campaign):
    return reverse("dialogs:crowd_join", args=[campaign.join_token])


def test_a_prolific_link_makes_an_account_signs_it_in_and_sends_it_to_the_tutorial(client, campaign):
    response = client.get(join_url(campaign), PROLIFIC)
    assert response.status_code == 302 and response.url == reverse("dialogs:worker_home")
    crowd_worker = CrowdWorker.objects.get()
    person = crowd_worker.person
    assert (crowd_worker.platform, crowd_worker.external_id) == ("prolific", PID)
    assert person.role == "worker" and not person.has_usable_password()
    assert client.get(response.url).url == reverse("dialogs:tutorial")  # signed in, and the tutorial comes first
    assignment = CrowdAssignment.objects.get()
    assert (assignment.campaign, assignment.batch_id, assignment.session_id) == (campaign, STUDY, SESSION)


def test_an_mturk_link_makes_an_account_too(client, campaign):
    assert client.get(join_url(campaign), MTURK).status_code == 302
    crowd_worker = CrowdWorker.objects.get()
    assert (crowd_worker.platform, crowd_worker.external_id) == ("mturk", MTURK["workerId"])
    assignment = CrowdAssignment.objects.get()
    assert (assignment.batch_id, assignment.session_id) == (MTURK["hitId"], MTURK["assignmentId"])


def test_the_same_id_comes_back_to_the_same_account(client, campaign):
    client.get(join_url(campaign), PROLIFIC)
    first = CrowdWorker.objects.get().person
    first.tutorial_passed_at = timezone.now()
    first.save(update_fields=["tutorial_passed_at"])
    other_browser = fresh_browser()
    response = other_browser.get(join_url(campaign), {**PROLIFIC, "SESSION_ID": "7" * 24})
    assert response.status_code == 302
    assert CrowdWorker.objects.count() == 1 and User.objects.filter(role="worker").count() == 1
    # Straight to the lobby this time: the tutorial is behind them. A new session is a new task of theirs.
    assert other_browser.get(reverse("dialogs:worker_home")).status_code == 200
    assert CrowdAssignment.objects.filter(crowd_worker__person=first).count() == 2


def test_a_prolific_id_in_capitals_is_the_same_participant(client, campaign):
    client.get(join_url(campaign), PROLIFIC)
    fresh_browser().get(join_url(campaign), {**PROLIFIC, "PROLIFIC_PID": PID.upper()})
    assert CrowdWorker.objects.count() == 1


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"STUDY_ID": STUDY, "SESSION_ID": SESSION},
        {**PROLIFIC, "PROLIFIC_PID": "not-an-id"},
        {**PROLIFIC, "PROLIFIC_PID": PID + "0"},
        {**PROLIFIC, "STUDY_ID": ""},
        {**PROLIFIC, "SESSION_ID": "{{%SESSION_ID%}}"},
        {**PROLIFIC, "PROLIFIC_PID": "admin"},
        {**MTURK, "workerId": "a1b2c3d4e5f6g7"},
        {**MTURK, "hitId": "3SA4EMRV' OR 1=1 --"},
        {"workerId": MTURK["workerId"]},
    ],
)
def test_malformed_ids_are_refused_in_words_and_make_nothing(client, campaign, query):
    response = client.get(join_url(campaign), query)
    assert response.status_code == 400
    assert b'data-testid="crowd-refusal"' in response.content and b"cannot start a task" in response.content
    assert not CrowdWorker.objects.exists() and not User.objects.exists()
    assert "_auth_user_id" not in client.session


def test_an_mturk_preview_makes_no_account(client, campaign):
    response = client.get(join_url(campaign), {**MTURK, "assignmentId": "ASSIGNMENT_ID_NOT_AVAILABLE"})
    assert response.status_code == 200 and b"Accept the HIT to start" in response.content
    assert not CrowdWorker.objects.exists()


def test_an_unknown_or_replaced_link_is_refused(client, campaign, ada):
    old = join_url(campaign)
    client.force_login(ada)
    client.post(reverse("dialogs:campaign_new_link", args=[campaign.pk]))
    client.logout()
    response = client.get(old, PROLIFIC)
    assert response.status_code == 404 and b"no longer" in response.content
    campaign.refresh_from_db()
    assert client.get(join_url(campaign), PROLIFIC).status_code == 302


def test_a_closed_campaign_says_so(client, campaign):
    campaign.closes_at = timezone.now() - timedelta(minutes=1)
    campaign.save(update_fields=["closes_at"])
    response = client.get(join_url(campaign), PROLIFIC)
    assert response.status_code == 403
    assert b"This study is closed" in response.content and b"return the task" in response.content
    assert not CrowdWorker.objects.exists()


def test_a_blocked_worker_is_told_clearly_and_not_signed_in(client, campaign):
    client.get(join_url(campaign), PROLIFIC)
    person = CrowdWorker.objects.get().person
    person.blocked = True
    person.save(update_fields=["blocked"])
    browser = fresh_browser()
    response = browser.get(join_url(campaign), PROLIFIC)
    assert response.status_code == 403
    assert b"You cannot take more tasks here" in response.content
    assert "_auth_user_id" not in browser.session


def test_an_id_never_opens_an_account_made_another_way(client, campaign, ada):
    """Mallory knows a staff username and shapes a worker id to match it: the link makes a new account beside it,
    and binds the id to that one only."""
    staff, _ = person_create(username=f"prolific-{PID}", role="admin", password="correct-horse-battery")
    response = client.get(join_url(campaign), PROLIFIC)
    assert response.status_code == 302
    bound = CrowdWorker.objects.get().person
    assert bound != staff and bound.role == "worker" and bound.username.startswith(f"prolific-{PID}-")
    assert int(client.session["_auth_user_id"]) == bound.pk
    staff.refresh_from_db()
    assert staff.role == "admin" and staff.check_password("correct-horse-battery")


def test_an_id_bound_to_an_account_that_is_no_worker_any_more_is_refused(client, campaign):
    client.get(join_url(campaign), PROLIFIC)
    User.objects.filter(pk=CrowdWorker.objects.get().person_id).update(role="expert")
    response = fresh_browser().get(join_url(campaign), PROLIFIC)
    assert response.status_code == 403


def test_a_session_is_one_workers(client, campaign):
    client.get(join_url(campaign), PROLIFIC)
    response = fresh_browser().get(join_url(campaign), {**PROLIFIC, "PROLIFIC_PID": "9" * 24})
    assert response.status_code == 409
    assert CrowdWorker.objects.count() == 1


def test_a_dialogue_under_way_reopens_from_its_own_session_only(client, campaign, erin):
    client.get(join_url(campaign), PROLIFIC)
    person = CrowdWorker.objects.get().person
    person.tutorial_passed_at = timezone.now()
    person.save(update_fields=["tutorial_passed_at"])
    lobby.lobby_join(person=person)
    expert_ready(erin)
    (dialogue,) = lobby.lobby_pair()
    # Someone who knows the participant's id, but not the session it works in, does not get into the dialogue.
    intruder = fresh_browser()
    response = intruder.get(join_url(campaign), {**PROLIFIC, "SESSION_ID": "8" * 24})
    assert response.status_code == 409 and "_auth_user_id" not in intruder.session
    # The participant's own session does.
    again = fresh_browser()
    assert again.get(join_url(campaign), PROLIFIC).status_code == 302
    assert again.get(reverse("dialogs:worker_home")).url == reverse("dialogs:room", args=[dialogue.pk])


def test_new_accounts_from_one_address_are_capped(client, campaign, settings):
    settings.CROWD_JOIN_ACCOUNTS_PER_HOUR = 2
    for i in range(2):
        query = {**PROLIFIC, "PROLIFIC_PID": f"{i}" * 24, "SESSION_ID": f"{i}" * 24}
        assert fresh_browser().get(join_url(campaign), query).status_code == 302
    query = {**PROLIFIC, "PROLIFIC_PID": "5" * 24, "SESSION_ID": "5" * 24}
    assert fresh_browser().get(join_url(campaign), query).status_code == 429
    # A participant who has an account is not new: they still get in.
    assert (
        fresh_browser()
        .get(join_url(campaign), {**PROLIFIC, "PROLIFIC_PID": "0" * 24, "SESSION_ID": "0" * 24})
        .status_code
        == 302
    )


def test_behind_the_proxy_the_cap_counts_the_address_the_proxy_saw(campaign, settings):
    """A script behind the proxy invents a worker id and an X-Forwarded-For for every join; the proxy (nginx, a
    trusted proxy) adds the address it saw. The cap counts that address; a real participant elsewhere still joins."""
    settings.CROWD_JOIN_ACCOUNTS_PER_HOUR = 2
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("172.30.57.0/24")]

    def join_through_the_proxy(i, forwarded_for):
        query = {**PROLIFIC, "PROLIFIC_PID": f"{i:024x}", "SESSION_ID": f"{i:024x}"}
        return fresh_browser().get(
            join_url(campaign), query, REMOTE_ADDR="172.30.57.2", HTTP_X_FORWARDED_FOR=forwarded_for
        )

    answers = [join_through_the_proxy(i, f"10.0.0.{i}, 192.0.2.7").status_code for i in range(1, 5)]
    assert answers == [302, 302, 429, 429]
    assert join_through_the_proxy(9, "198.51.100.3").status_code == 302


def test_the_ids_stay_with_the_dialogue_and_the_code_goes_back_to_the_platform(client, campaign, erin):
    client.get(join_url(campaign), PROLIFIC)
    person = CrowdWorker.objects.get().person
    person.tutorial_passed_at = timezone.now()
    person.save(update_fields=["tutorial_passed_at"])
    lobby.lobby_join(person=person)
    expert_ready(erin)
    (dialogue,) = lobby.lobby_pair()
    assert dialogue.campaign == campaign
    assert (dialogue.crowd_assignment.crowd_worker.external_id, dialogue.crowd_assignment.session_id) == (PID, SESSION)
    page = client.get(reverse("dialogs:room", args=[dialogue.pk]))
    assert b'data-return-url="/worker/return/"' in page.content
    Dialogue.objects.filter(pk=dialogue.pk).update(status=DialogueStatus.TERMINATED, completion_code="WOZ-ABC123DEF0")
    response = client.get(reverse("dialogs:crowd_return"), {"code": "WOZ-ABC123DEF0"})
    assert response.status_code == 302
    assert response.url == "https://app.prolific.com/submissions/complete?cc=WOZ-ABC123DEF0"


def test_a_blocked_worker_still_goes_back_with_their_code(client, campaign, erin):
    """A score below 3 blocks the worker after the dialogue ended; their code still goes back to the platform."""
    client.get(join_url(campaign), PROLIFIC)
    person = CrowdWorker.objects.get().person
    assignment = CrowdAssignment.objects.get()
    Dialogue.objects.create(
        database=campaign.databases.get(),
        worker=person,
        expert=erin,
        campaign=campaign,
        crowd_assignment=assignment,
        status=DialogueStatus.DROPPED,
        completion_code="WOZ-0000000001",
    )
    User.objects.filter(pk=person.pk).update(blocked=True)
    response = client.get(reverse("dialogs:crowd_return"), {"code": "WOZ-0000000001"})
    assert response.status_code == 302 and response.url.endswith("cc=WOZ-0000000001")


def test_a_code_released_in_the_lobby_goes_back_too(client, campaign, settings):
    settings.LOBBY_WAIT_LIMIT_SECONDS = 5
    client.get(join_url(campaign), PROLIFIC)
    person = CrowdWorker.objects.get().person
    person.tutorial_passed_at = timezone.now()
    person.save(update_fields=["tutorial_passed_at"])
    lobby_page = client.get(reverse("dialogs:worker_home"))
    assert (
        b'data-return-url="/worker/return/"' in lobby_page.content
        and b'data-return-platform="Prolific"' in lobby_page.content
    )
    lobby.lobby_join(person=person)
    (entry,) = lobby.lobby_release_expired(now=timezone.now() + timedelta(seconds=6))
    assert entry.crowd_assignment.session_id == SESSION
    response = client.get(reverse("dialogs:crowd_return"), {"code": entry.completion_code})
    assert response.url == f"https://app.prolific.com/submissions/complete?cc={entry.completion_code}"


def test_only_ones_own_code_goes_back(client, campaign, alice, erin):
    client.get(join_url(campaign), PROLIFIC)
    Dialogue.objects.create(
        database=campaign.databases.get(), worker=alice, expert=erin, status="completed", completion_code="WOZ-ALICE"
    )
    for code in ("WOZ-ALICE", "", "WOZ-NOSUCH"):
        response = client.get(reverse("dialogs:crowd_return"), {"code": code})
        assert response.status_code == 404 and b"Submit your completion code" in response.content
    # A worker made by hand has no platform to go back to: their pages offer no return.
    client.force_login(alice)
    assert b'data-return-url=""' in client.get(reverse("dialogs:worker_home")).content
    client.logout()
    assert client.get(reverse("dialogs:crowd_return")).status_code == 302  # anonymous: sign in first


def test_the_completion_url_is_built_with_the_code_escaped(campaign):
    assert campaign.completion_url_for("WOZ-1A2B") == "https://app.prolific.com/submissions/complete?cc=WOZ-1A2B"
    campaign.completion_url = "https://example.org/done?code={code}&from=wozsql"
    assert campaign.completion_url_for("A&B C") == "https://example.org/done?code=A%26B%20C&from=wozsql"
    # A URL without the placeholder is a fixed code (Prolific's own), used as it is.
    campaign.completion_url = "https://app.prolific.com/submissions/complete?cc=C1A2B3C4"
    assert campaign.completion_url_for("WOZ-1A2B") == campaign.completion_url


def test_a_worker_made_by_hand_is_never_bound_and_pairs_as_before(alice, erin, campaign):
    lobby.lobby_join(person=alice)
    expert_ready(erin)
    (dialogue,) = lobby.lobby_pair()
    assert dialogue.crowd_assignment is None and dialogue.campaign == campaign
    assert not CrowdWorker.objects.exists() and LobbyEntry.objects.get(person=alice).crowd_assignment is None


# --- The admin pages: anonymous → login, wrong role → 403, admin → 200 --------------------------------------------

PAGES = [
    ("dialogs:campaign_list", {}),
    ("dialogs:campaign_new", {}),
    ("dialogs:campaign_detail", {"campaign_id": None}),
    ("dialogs:campaign_edit", {"campaign_id": None}),
    ("review:payments", {}),
    ("review:payment_file", {"campaign_id": None, "name": "completions"}),
    ("review:payment_file", {"campaign_id": None, "name": "bonuses-prolific"}),
]


@pytest.mark.parametrize(("name", "kwargs"), PAGES, ids=[f"{name}-{kwargs.get('name', '')}" for name, kwargs in PAGES])
def test_the_campaign_and_payment_pages_are_the_admins(client, request, campaign, name, kwargs):
    url = reverse(name, kwargs={key: campaign.pk if value is None else value for key, value in kwargs.items()})
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    for persona in ("alice", "erin", "rita", "mallory"):
        client.force_login(request.getfixturevalue(persona))
        assert client.get(url).status_code == 403, persona
    client.force_login(request.getfixturevalue("ada"))
    assert client.get(url).status_code == 200


def test_a_new_link_is_posted_by_an_admin_only(client, campaign, erin):
    url = reverse("dialogs:campaign_new_link", args=[campaign.pk])
    client.force_login(erin)
    assert client.post(url).status_code == 403
    token = campaign.join_token
    campaign.refresh_from_db()
    assert campaign.join_token == token


def test_an_admin_makes_and_edits_a_campaign_on_its_pages(client, ada, demo_databases):
    client.force_login(ada)
    database = demo_databases["dorm_demo"]
    form = {
        "name": "Spring",
        "databases": [database.pk],
        "target_per_goal": 3,
        "mix_easy": 20,
        "mix_medium": 80,
        "opens_at": "2026-03-01T09:00",
        "closes_at": "2026-02-01T09:00",
        "completion_url": "https://app.prolific.com/submissions/complete?cc={code}",
        "bonus_min_questions": 5,
        "bonus_amount": "0.50",
    }
    response = client.post(reverse("dialogs:campaign_new"), form)
    assert response.status_code == 200 and b"must close after it opens" in response.content
    response = client.post(reverse("dialogs:campaign_new"), {**form, "closes_at": "2026-04-01T09:00"})
    campaign = Campaign.objects.get()
    assert response.url == reverse("dialogs:campaign_detail", args=[campaign.pk])
    assert campaign.hardness_mix == {"easy": 20, "medium": 80} and campaign.created_by == ada
    detail = client.get(response.url)
    assert campaign.join_token.encode() in detail.content and b"{{%PROLIFIC_PID%}}" in detail.content
    edit = reverse("dialogs:campaign_edit", args=[campaign.pk])
    assert client.get(edit).status_code == 200
    client.post(edit, {**form, "closes_at": "2026-04-01T09:00", "mix_easy": "", "mix_medium": "", "target_per_goal": 4})
    campaign.refresh_from_db()
    assert campaign.hardness_mix == {} and campaign.target_per_goal == 4


def test_views_without_a_permission_say_why():
    """The join link, the return and the header's language switcher (it changes only the asker's own pages) are the
    only pages no permission guards, and each says why."""
    from django.urls import get_resolver

    open_views = set()
    stack = list(get_resolver().url_patterns)
    while stack:
        item = stack.pop()
        if hasattr(item, "url_patterns"):
            stack.extend(item.url_patterns)
        elif getattr(item.callback, "required_permission", "") is None:
            assert item.callback.open_because, item.callback
            open_views.add(item.callback.__name__)
    assert open_views == {"crowd_join", "crowd_return", "language_choose"}


def test_a_link_carrying_a_language_gives_the_account_made_from_it_that_language(client, campaign):
    client.get(join_url(campaign), {**PROLIFIC, "lang": "zh-hans"})
    person = CrowdWorker.objects.get().person
    assert person.language == "zh-hans"
    assert 'lang="zh-hans"' in client.get(reverse("dialogs:tutorial")).content.decode()
    # Coming back through an English link leaves the language the account has.
    fresh_browser().get(join_url(campaign), {**PROLIFIC, "SESSION_ID": "7" * 24, "lang": "en"})
    person.refresh_from_db()
    assert person.language == "zh-hans"
