"""Prolific's API driven from a campaign (dialogs.crowd.prolific), against the loopback stand-in written from its
documentation (tools/prolific_server.py; docs/prolific_api.md): a real HTTP server in its own process, with its own
state and the failures the tests inject. Ada is the admin; Erin, an expert, may not do any of it."""

import time
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.models import Goal
from dialogs.crowd import campaigns
from dialogs.crowd import prolific as service
from dialogs.crowd.prolific_api import ProlificError
from dialogs.crowd.services import CrowdIds, crowd_join
from dialogs.models import Dialogue, ProlificBonusPayment, ProlificCall, ProlificStudy
from review.models import BonusPaidDialogue, BonusPayout
from review.tests.conftest import Room
from tools.prolific_server import TEST_TOKEN

pytestmark = pytest.mark.django_db
State = ProlificBonusPayment.State
JOIN = "http://testserver/join/secret/"


@pytest.fixture
def prolific_on(settings, prolific_server):
    """The platform pointed at the stand-in, which has forgotten every earlier test."""
    settings.PROLIFIC_API_URL = prolific_server.url
    settings.PROLIFIC_API_TOKEN = TEST_TOKEN
    settings.PROLIFIC_TIMEOUT_SECONDS = 5
    prolific_server.reset(TEST_TOKEN)
    yield prolific_server
    prolific_server.reset(TEST_TOKEN)  # a request still held by a "timeout" fault is let go


@pytest.fixture
def campaign(demo_databases, settings):
    settings.DIALOGUE_MIN_QUESTIONS = 1  # one answered question ends a dialogue, and earns the bonus
    database = demo_databases["dorm_demo"]
    Goal.objects.create(database=database, question="How many students?", sql="SELECT 1", hardness="easy")
    campaign = campaigns.campaign_save(
        name="Autumn study",
        databases=[database],
        goals=[],
        target_per_goal=10,
        hardness_mix={},
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=None,
        bonus_min_questions=1,
        bonus_amount=Decimal("0.75"),
    )
    campaign.prolific_reward = Decimal("2.50")
    campaign.save(update_fields=["prolific_reward"])
    return campaign


def published(campaign, by) -> ProlificStudy:
    return service.prolific_study_publish(campaign=campaign, by=by, join_link=JOIN)


def earned(campaign, study: ProlificStudy, expert, server, n: int = 1) -> tuple[str, str]:
    """A participant of the study came through the join link and had a dialogue that earns the bonus; Prolific has
    their submission, awaiting review. Returns (participant id, submission id)."""
    participant, submission = f"{n:024x}", f"{1000 + n:024x}"
    assignment = crowd_join(campaign=campaign, ids=CrowdIds("prolific", participant, study.study_id, submission))
    goal = Goal.objects.filter(database__in=campaign.databases.all()).first()
    dialogue = Dialogue.objects.create(
        database=goal.database,
        goal=goal,
        worker=assignment.crowd_worker.person,
        expert=expert,
        campaign=campaign,
        crowd_assignment=assignment,
    )
    room = Room(dialogue)
    room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
    room.end(score=4, approve=False)
    server.add_submissions(study.study_id, [{"id": submission, "participant": participant}])
    return participant, submission


def paying(campaign, study, by) -> ProlificBonusPayment:
    (owed,) = service.prolific_bonuses_owed(campaign)
    assert owed.study_id == study.study_id
    return service.prolific_bonus_pay_start(campaign=campaign, study_id=study.study_id, digest=owed.digest, by=by)


def run(payment) -> ProlificBonusPayment:
    """The payment's job, as its starter's thread would run it (its hold, taken at the start)."""
    payment.refresh_from_db()
    return service.prolific_bonus_run(payment_id=payment.pk, claim=payment.claim_token)


def calls(server, path_part: str, method: str = "POST") -> list[dict]:
    return [r for r in server.requests() if r["method"] == method and path_part in r["path"]]


# --- Off, and who may -----------------------------------------------------------------------------------------------


def test_without_a_token_nothing_is_sent_and_the_page_says_how_to_turn_it_on(
    client, settings, prolific_server, campaign, ada
):
    prolific_server.reset(TEST_TOKEN)
    settings.PROLIFIC_API_TOKEN = ""
    with pytest.raises(ProlificError) as refused:
        published(campaign, ada)
    assert refused.value.code == "off"
    assert "PROLIFIC_API_TOKEN" in refused.value.message
    assert prolific_server.requests() == [] and not ProlificCall.objects.exists()
    client.force_login(ada)
    page = client.get(reverse("dialogs:campaign_detail", args=[campaign.pk])).content.decode()
    assert "The Prolific integration is off" in page and "PROLIFIC_API_TOKEN" in page
    assert "Publish a study on Prolific: off until PROLIFIC_API_TOKEN is set" in page


def test_only_an_admin_may_use_prolific(client, prolific_on, campaign, erin):
    with pytest.raises(ProlificError) as refused:
        published(campaign, erin)
    assert refused.value.code == "forbidden"
    client.force_login(erin)
    assert client.post(reverse("dialogs:prolific_publish", args=[campaign.pk])).status_code == 403
    assert client.post(reverse("dialogs:prolific_settings", args=[campaign.pk]), {"places": 3}).status_code == 403
    assert prolific_on.requests() == []


# --- The study ------------------------------------------------------------------------------------------------------


def test_publishing_makes_the_study_with_the_campaigns_eligibility_and_publishes_it(client, prolific_on, campaign, ada):
    client.force_login(ada)
    settings_form = {"countries": "1", "min_approval_rate": 95, "places": 12, "reward": "3.00", "minutes": 25}
    client.post(reverse("dialogs:prolific_settings", args=[campaign.pk]), settings_form)
    response = client.post(reverse("dialogs:prolific_publish", args=[campaign.pk]), follow=True)
    assert "Published the study" in response.content.decode()

    study = ProlificStudy.objects.get(campaign=campaign)
    assert study.status == "ACTIVE"
    (create,) = calls(prolific_on, "/studies/")[:1]
    sent = create["body"]
    assert sent["filters"] == [
        {"filter_id": "current-country-of-residence", "selected_values": ["1"]},
        {"filter_id": "approval_rate", "selected_range": {"lower": 95, "upper": 100}},
    ]
    assert (sent["total_available_places"], sent["reward"], sent["estimated_completion_time"]) == (12, 300, 25)
    assert sent["external_study_url"] == (
        f"http://testserver/join/{campaign.join_token}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}"
        "&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
    )
    assert sent["completion_codes"][0]["code"] == study.completion_code
    assert sent["prolific_id_option"] == "url_parameters"
    campaign.refresh_from_db()
    assert campaign.completion_url == f"https://app.prolific.com/submissions/complete?cc={study.completion_code}"
    assert [(r["method"], r["path"]) for r in prolific_on.requests()] == [
        ("POST", "/api/v1/studies/"),
        ("POST", f"/api/v1/studies/{study.study_id}/transition/"),
    ]
    assert all(r["authorized"] for r in prolific_on.requests())
    assert prolific_on.state()["studies"][study.study_id]["status"] == "ACTIVE"
    page = client.get(reverse("dialogs:campaign_detail", args=[campaign.pk])).content.decode()
    assert "current-country-of-residence 1; approval_rate ≥ 95" in page


def test_the_study_is_paused_and_resumed(prolific_on, campaign, ada):
    study = published(campaign, ada)
    assert service.prolific_study_pause(study=study, by=ada).status == "PAUSED"
    assert prolific_on.state()["studies"][study.study_id]["status"] == "PAUSED"
    with pytest.raises(ProlificError) as refused:  # already paused: refused here, nothing sent
        service.prolific_study_pause(study=study, by=ada)
    assert refused.value.code == "invalid"
    assert service.prolific_study_resume(study=study, by=ada).status == "ACTIVE"
    actions = [r["body"]["action"] for r in calls(prolific_on, "/transition/")]
    assert actions == ["PUBLISH", "PAUSE", "START"]


def test_a_lost_answer_to_making_the_study_finds_the_draft_instead_of_making_another(prolific_on, campaign, ada):
    prolific_on.fail(method="POST", path=r"/studies/$", kind="lose_response")
    study = published(campaign, ada)
    assert study.status == "ACTIVE"
    assert len(prolific_on.state()["studies"]) == 1  # one draft made, found by its internal name, and published
    purposes = list(ProlificCall.objects.order_by("id").values_list("purpose", "status"))
    assert purposes[:2] == [("study_create", None), ("study_find", 200)]


def test_a_lost_answer_to_pausing_is_read_back_and_not_sent_again(prolific_on, campaign, ada):
    study = published(campaign, ada)
    prolific_on.fail(method="POST", path="/transition/", kind="lose_response")
    assert service.prolific_study_pause(study=study, by=ada).status == "PAUSED"
    assert [r["body"]["action"] for r in calls(prolific_on, "/transition/")] == ["PUBLISH", "PAUSE"]


# --- Submissions ----------------------------------------------------------------------------------------------------


def test_submissions_are_listed_with_the_participants_dialogues_and_approved_or_rejected_with_a_reason(
    client, prolific_on, campaign, ada, erin
):
    study = published(campaign, ada)
    paula, paulas = earned(campaign, study, erin, prolific_on, 1)
    quinn, quinns = earned(campaign, study, erin, prolific_on, 2)
    prolific_on.add_submissions(study.study_id, [{"id": f"{3000:024x}", "participant": f"{9:024x}"}])
    rows = {row.participant: row for row in service.prolific_submissions(study=study, by=ada)}
    assert set(rows) == {paula, quinn, f"{9:024x}"}
    assert rows[paula].known and rows[paula].awaiting_review and rows[paula].dialogues[0][1] == "Completed"
    assert not rows[f"{9:024x}"].known  # Prolific has them; they never opened the join link

    assert service.prolific_submission_decide(study=study, submission_id=paulas, approve=True, by=ada) == "APPROVED"
    with pytest.raises(ProlificError) as refused:  # Prolific's rule: a reason, and 100 characters of explanation
        service.prolific_submission_decide(
            study=study, submission_id=quinns, approve=False, by=ada, category="LOW_EFFORT", message="Too short."
        )
    assert "at least 100 characters" in refused.value.message
    reason = "Your dialogue asked no question about the database's data: the study asked for questions answered " * 2
    client.force_login(ada)
    response = client.post(
        reverse("dialogs:prolific_decide", args=[study.pk, quinns]),
        {"decision": "reject", "category": "LOW_EFFORT", "message": reason},
        follow=True,
    )
    assert f"Rejected submission {quinns}" in response.content.decode()
    submissions = prolific_on.state()["submissions"]
    assert (submissions[paulas]["status"], submissions[quinns]["status"]) == ("APPROVED", "REJECTED")
    (rejection,) = [r for r in calls(prolific_on, "/transition/") if r["body"]["action"] == "REJECT"]
    assert rejection["body"] == {"action": "REJECT", "rejection_category": "LOW_EFFORT", "message": reason.strip()}
    page = client.get(reverse("dialogs:prolific_submissions", args=[study.pk])).content.decode()
    assert paula in page and "APPROVED" in page


# --- Bonuses, never paid twice --------------------------------------------------------------------------------------


def test_bonuses_are_paid_once_even_when_the_answer_to_paying_is_lost_and_the_payment_taken_up_again(
    prolific_on, campaign, ada, erin
):
    study = published(campaign, ada)
    participant, submission = earned(campaign, study, erin, prolific_on)
    payment = paying(campaign, study, ada)
    # Recorded before anything is sent: review's payout holds the dialogue, so no file owes it any more.
    assert payment.state == State.RECORDED and BonusPayout.objects.filter(pk=payment.payout_id).exists()
    assert service.prolific_bonuses_owed(campaign) == []
    assert payment.csv_bonuses == f"{participant},0.75\n"

    prolific_on.fail(method="POST", path="/pay/$", kind="lose_response")  # paid there, and the answer never comes
    payment = run(payment)
    assert payment.state == State.UNKNOWN
    assert "may have been paid" in payment.message
    bulk = prolific_on.state()["bulks"][payment.remote_id]
    assert bulk["paid_times"] == 1

    payment = service.prolific_bonus_retry(payment=payment, by=ada)  # "Check with Prolific"
    payment = run(payment)
    assert payment.state == State.PAID
    assert "recorded as paid, and not paid again" in payment.message
    state = prolific_on.state()
    assert state["bulks"][payment.remote_id]["paid_times"] == 1
    assert state["submissions"][submission]["bonus_payments"] == [75]
    assert len(calls(prolific_on, "/pay/")) == 1
    with pytest.raises(ProlificError) as refused:
        service.prolific_bonus_retry(payment=payment, by=ada)
    assert "never twice" in refused.value.message
    assert BonusPaidDialogue.objects.filter(row__payout_id=payment.payout_id).count() == 1
    assert service.prolific_bonuses_owed(campaign) == []


def test_a_payment_whose_answer_was_an_error_is_paid_only_once_prolific_shows_none_paid_after_the_wait(
    settings, prolific_on, campaign, ada, erin
):
    study = published(campaign, ada)
    _, submission = earned(campaign, study, erin, prolific_on)
    payment = paying(campaign, study, ada)
    prolific_on.fail(method="POST", path="/pay/$", kind="status", status=500)  # not paid, but who can tell
    payment = run(payment)
    assert payment.state == State.UNKNOWN
    assert "HTTP 500" in payment.message

    # Prolific pays in the minutes after it accepts: before the wait is over, it is only checked.
    payment = run(service.prolific_bonus_retry(payment=payment, by=ada))
    assert payment.state == State.UNKNOWN and "none of these bonuses paid yet" in payment.message
    assert len(calls(prolific_on, "/pay/")) == 1

    settings.PROLIFIC_BONUS_SETTLE_SECONDS = 0
    payment = run(service.prolific_bonus_retry(payment=payment, by=ada))
    assert payment.state == State.PAID
    assert len(calls(prolific_on, "/pay/")) == 2
    assert prolific_on.state()["submissions"][submission]["bonus_payments"] == [75]


def test_a_second_payment_of_the_same_bonuses_is_refused(prolific_on, campaign, ada, erin):
    study = published(campaign, ada)
    earned(campaign, study, erin, prolific_on)
    (owed,) = service.prolific_bonuses_owed(campaign)
    payment = service.prolific_bonus_pay_start(campaign=campaign, study_id=study.study_id, digest=owed.digest, by=ada)
    with pytest.raises(ProlificError) as refused:  # the page's second click
        service.prolific_bonus_pay_start(campaign=campaign, study_id=study.study_id, digest=owed.digest, by=ada)
    assert refused.value.code == "invalid"
    assert ProlificBonusPayment.objects.count() == 1 and BonusPayout.objects.count() == 1
    assert run(payment).state == State.PAID
    assert run(payment).state == State.PAID  # a job run again does nothing
    assert len(calls(prolific_on, "/pay/")) == 1


def test_bonuses_prolific_refuses_to_set_up_are_owed_again(prolific_on, campaign, ada, erin):
    study = published(campaign, ada)
    earned(campaign, study, erin, prolific_on)
    prolific_on.reset(TEST_TOKEN)  # Prolific knows neither the study nor the participant any more
    payment = run(paying(campaign, study, ada))
    assert payment.state == State.REFUSED and "HTTP 400" in payment.message
    assert payment.payout_id is None and not BonusPayout.objects.exists()
    assert len(service.prolific_bonuses_owed(campaign)) == 1
    assert calls(prolific_on, "/pay/") == []


def test_a_payments_notes_are_written_in_the_language_of_the_admin_who_started_it(
    monkeypatch, prolific_on, campaign, ada, erin
):
    """As a job's (annotation.jobs.Speaking): the language of the page it was started from, whatever the job's
    thread speaks later."""
    from django.utils import translation

    study = published(campaign, ada)
    earned(campaign, study, erin, prolific_on)
    prolific_on.reset(TEST_TOKEN)  # the set-up is refused: the job writes its note
    written, save = [], service._save
    monkeypatch.setattr(
        service,
        "_save",
        lambda payment, **values: (written.append(translation.get_language()), save(payment, **values)),
    )
    with translation.override("zh-hans"):
        started = paying(campaign, study, ada)
    assert started.message_language == "zh-hans"
    with translation.override("en"):
        payment = run(started)
    assert payment.state == State.REFUSED and written and set(written) == {"zh-hans"}


# --- Failures in plain words, retried where that is safe ------------------------------------------------------------


def test_a_refused_token_is_said_plainly_and_not_retried(client, settings, prolific_on, campaign, ada):
    settings.PROLIFIC_API_TOKEN = "not-the-right-token"
    with pytest.raises(ProlificError) as failed:
        published(campaign, ada)
    assert failed.value.code == "auth"
    assert "refused this platform's API token (HTTP 401)" in failed.value.message
    assert "PROLIFIC_API_TOKEN" in failed.value.message
    assert len(prolific_on.requests()) == 1
    client.force_login(ada)  # the page says the same, in its messages
    page = client.post(reverse("dialogs:prolific_publish", args=[campaign.pk]), follow=True).content.decode()
    assert "Prolific refused this platform&#x27;s API token (HTTP 401)" in page
    assert "not-the-right-token" not in page


def test_a_rate_limit_is_waited_out_as_retry_after_asks(prolific_on, campaign, ada):
    study = published(campaign, ada)
    prolific_on.fail(method="GET", path="/studies/", kind="status", status=429, retry_after="1")
    assert service.prolific_study_refresh(study=study, by=ada).status == "ACTIVE"
    first, second = calls(prolific_on, "/studies/", method="GET")
    assert second["at"] - first["at"] >= 0.95
    assert list(ProlificCall.objects.filter(purpose="study_read").order_by("id").values_list("status", "attempt")) == [
        (429, 1),
        (200, 2),
    ]


def test_a_rate_limit_that_lasts_is_said_plainly(prolific_on, campaign, ada):
    study = published(campaign, ada)
    prolific_on.fail(method="GET", path="/studies/", kind="status", status=429, retry_after="0", times=3)
    with pytest.raises(ProlificError) as failed:
        service.prolific_study_refresh(study=study, by=ada)
    assert failed.value.code == "rate_limited"
    assert (
        failed.value.message == "Prolific is limiting requests (HTTP 429). Prolific asked to wait 0 s. It was "
        "tried 3 times."
    )


def test_a_server_error_on_a_read_is_retried(prolific_on, campaign, ada):
    study = published(campaign, ada)
    prolific_on.fail(method="GET", path="/studies/", kind="status", status=502)
    assert service.prolific_study_refresh(study=study, by=ada).status == "ACTIVE"
    prolific_on.fail(method="GET", path="/studies/", kind="status", status=503, times=3)
    with pytest.raises(ProlificError) as failed:
        service.prolific_study_refresh(study=study, by=ada)
    assert failed.value.code == "server"
    assert "Prolific had an error of its own (HTTP 503)" in failed.value.message


def test_a_payment_that_times_out_is_never_sent_again_blindly(settings, prolific_on, campaign, ada, erin):
    study = published(campaign, ada)
    earned(campaign, study, erin, prolific_on)
    payment = paying(campaign, study, ada)
    settings.PROLIFIC_TIMEOUT_SECONDS = 1
    prolific_on.fail(method="POST", path="/pay/$", kind="timeout", seconds=10)
    started = time.monotonic()
    payment = run(payment)
    assert time.monotonic() - started < 8  # given up after its second, not after the server's ten
    assert payment.state == State.UNKNOWN
    assert "Prolific did not answer within 1 seconds." in payment.message
    assert len(calls(prolific_on, "/pay/")) == 1
    assert ProlificCall.objects.get(purpose="bonus_pay").status is None


def test_every_call_is_audited_with_who_and_why_and_never_the_token(settings, prolific_on, campaign, ada, erin):
    study = published(campaign, ada)
    earned(campaign, study, erin, prolific_on)
    prolific_on.fail(method="GET", path="/submissions/", kind="status", status=500)
    service.prolific_submissions(study=study, by=ada)
    run(paying(campaign, study, ada))
    settings.PROLIFIC_API_TOKEN = "a-wrong-token-of-ada"
    with pytest.raises(ProlificError):
        service.prolific_study_pause(study=study, by=ada)

    audited = list(ProlificCall.objects.order_by("id"))
    assert len(audited) == len(prolific_on.requests())  # every request, each retry included
    assert {call.made_by for call in audited} == {ada}
    assert {call.campaign for call in audited} == {campaign}
    assert [call.purpose for call in audited] == [
        "study_create",
        "study_publish",
        "submissions_list",
        "submissions_list",
        "bonus_set_up",
        "bonus_before",
        "bonus_pay",
        "study_pause",
    ]
    assert [call.status for call in audited][-6:] == [500, 200, 201, 200, 202, 401]
    for call in audited:
        text = " ".join(str(value) for value in vars(call).values())
        assert TEST_TOKEN not in text and "a-wrong-token-of-ada" not in text
