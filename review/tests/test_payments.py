"""Payment files of a campaign: who earns the bonus (good questions: answered, not dropped, in a dialogue neither
dropped by its score nor rejected in review), the layouts Prolific's and MTurk's bulk bonuses take, and the payouts
recorded, which keep a bonus from being paid twice."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from annotation.models import Goal
from dialogs import lobby
from dialogs.crowd import campaigns
from dialogs.crowd.services import CrowdIds, crowd_join
from dialogs.models import Dialogue
from review.models import BonusPaidDialogue, BonusPayout, DialogueReview, ReviewStage
from review.payments import services as payments
from review.tests.conftest import Room

pytestmark = pytest.mark.django_db

QUESTIONS = [
    ("How many students are there?", "SELECT count(*) FROM student"),
    ("How many dorms are there?", "SELECT count(*) FROM dorm"),
    ("What is the oldest age?", "SELECT max(age) FROM student"),
    ("What is the youngest age?", "SELECT min(age) FROM student"),
    ("Which dorm names are there?", "SELECT dorm_name FROM dorm"),
    ("What is the average age?", "SELECT avg(age) FROM student"),
]


@pytest.fixture
def campaign(demo_databases):
    database = demo_databases["dorm_demo"]
    Goal.objects.create(database=database, question="How many students?", sql="SELECT 1", hardness="easy")
    return campaigns.campaign_save(
        name="Spring pilot",
        databases=[database],
        goals=[],
        target_per_goal=10,
        hardness_mix={},
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=None,
        bonus_min_questions=5,
        bonus_amount=Decimal("0.50"),
    )


def _hex(n: int) -> str:
    return f"{n:024x}"


def arrive(campaign, platform: str, n: int, session: int = 0):
    """A crowd worker opens the join link (Prolific ids in hexadecimal, MTurk's in capitals)."""
    if platform == "prolific":
        ids = CrowdIds("prolific", _hex(n), _hex(1000 + n), _hex(2000 + 10 * n + session))
    else:
        ids = CrowdIds("mturk", f"A{n:013d}", "HIT" + "0" * 27, f"ASSIGN{n:04d}{session:020d}")
    return crowd_join(campaign=campaign, ids=ids)


def dialogue_with(assignment, expert, *, answered: int, dropped: int = 0, courtesy: int = 0, score: int = 4):
    """A dialogue of the assignment's worker: `answered` questions answered with SQL, `dropped` dropped by the expert,
    `courtesy` thanks; then ended and scored."""
    goal = Goal.objects.filter(database__in=assignment.campaign.databases.all()).first()
    dialogue = Dialogue.objects.create(
        database=goal.database,
        goal=goal,
        worker=assignment.crowd_worker.person,
        expert=expert,
        campaign=assignment.campaign,
        crowd_assignment=assignment,
    )
    room = Room(dialogue)
    for question, sql in QUESTIONS[:answered]:
        room.answer(room.ask(question), sql)
    for _ in range(dropped):
        room.send(expert, type="drop", turn=room.ask("What is the weather like?"))
    for _ in range(courtesy):
        room.reply(room.ask("Thanks!"), "You are welcome.")
    return room.end(score=score, approve=False)


def review_as(dialogue, stage):
    DialogueReview.objects.create(dialogue=dialogue, stage=stage)


@pytest.fixture
def collected(campaign, erin):
    """Paula earns once in two dialogues; Quinn was rejected in review; Rosa was scored 2; Sam (MTurk) earns; Tom
    waited too long and was released."""
    paula = arrive(campaign, "prolific", 1)
    good = dialogue_with(paula, erin, answered=5, courtesy=1)
    short = dialogue_with(arrive(campaign, "prolific", 1, session=1), erin, answered=4, dropped=1)
    quinn = arrive(campaign, "prolific", 2)
    review_as(dialogue_with(quinn, erin, answered=6), ReviewStage.REJECTED)
    rosa = arrive(campaign, "prolific", 3)
    dialogue_with(rosa, erin, answered=5, score=2)
    sam = arrive(campaign, "mturk", 4)
    sam_dialogue = dialogue_with(sam, erin, answered=5)
    review_as(sam_dialogue, ReviewStage.APPROVED)
    tom = arrive(campaign, "prolific", 5).crowd_worker.person
    tom.tutorial_passed_at = timezone.now()
    tom.save(update_fields=["tutorial_passed_at"])
    lobby.lobby_join(person=tom)
    lobby.lobby_release_expired(now=timezone.now() + timedelta(days=1))
    return {"paula": paula, "good": good, "short": short, "sam": sam, "sam_dialogue": sam_dialogue}


def test_the_bonus_goes_to_dialogues_with_enough_good_questions(campaign, collected):
    rows = {row.external_id: row for row in payments.campaign_bonuses(campaign)}
    paula = rows[_hex(1)]
    # Two dialogues; the second had four answered questions and a dropped one, and a thank-you is no question.
    assert (paula.dialogues, paula.earning, paula.amount) == (2, 1, Decimal("0.50"))
    assert paula.session_id == collected["paula"].session_id  # the task that earned it
    assert paula.reason == "Bonus for 1 dialogue with at least 5 good related questions."
    assert (rows[_hex(2)].earning, rows[_hex(2)].amount) == (0, Decimal("0.00"))  # rejected in review
    assert (rows[_hex(3)].earning, rows[_hex(3)].amount) == (0, Decimal("0.00"))  # dropped: scored below 3
    assert rows[f"A{4:013d}"].amount == Decimal("0.50")
    assert _hex(5) not in rows  # released from the lobby: no dialogue, no bonus


def test_after_review_only_approved_dialogues_earn(campaign, collected):
    campaign.bonus_after_review = True
    campaign.save(update_fields=["bonus_after_review"])
    rows = {row.external_id: row.amount for row in payments.campaign_bonuses(campaign)}
    assert rows[_hex(1)] == Decimal("0.00")  # not reviewed yet
    assert rows[f"A{4:013d}"] == Decimal("0.50")  # approved


def test_prolific_bulk_bonus_is_id_comma_amount_lines_without_a_header(campaign, collected):
    text = payments.prolific_bonus_csv(payments.campaign_bonuses(campaign))
    assert text == f"{_hex(1)},0.50\n"


def test_mturk_bonuses_are_one_send_bonus_call_per_row(campaign, collected):
    rows = list(csv.reader(io.StringIO(payments.mturk_bonus_csv(payments.campaign_bonuses(campaign), campaign))))
    assignment = collected["sam"].session_id
    assert rows == [
        ["WorkerId", "AssignmentId", "BonusAmount", "Reason", "UniqueRequestToken"],
        [
            f"A{4:013d}",
            assignment,
            "0.50",
            "Bonus for 1 dialogue with at least 5 good related questions.",
            f"wozsql-{campaign.pk}-{collected['sam_dialogue'].pk}",
        ],
    ]


def test_the_bonus_list_has_every_worker_with_their_dialogues(campaign, collected):
    campaign.bonus_reason = "Thank you for your related questions!"
    campaign.save(update_fields=["bonus_reason"])
    rows = list(csv.DictReader(io.StringIO(payments.bonus_list_csv(payments.campaign_bonuses(campaign)))))
    assert list(rows[0]) == payments.BONUS_LIST_HEADER
    paula = next(row for row in rows if row["external_id"] == _hex(1))
    assert paula == {
        "platform": "prolific",
        "external_id": _hex(1),
        "study_or_hit_id": _hex(1001),
        "dialogues": "2",
        "bonus_dialogues": "1",
        "amount": "0.50",
        "currency": "GBP",
        "reason": "Thank you for your related questions!",
        "paid": "0.00",
        "paid_in_error": "",
    }
    assert {row["external_id"] for row in rows} == {_hex(1), _hex(2), _hex(3), f"A{4:013d}"}


def test_completion_codes_list_every_code_with_its_outcome(campaign, collected):
    rows = list(csv.DictReader(io.StringIO(payments.completions_csv(payments.campaign_completions(campaign)))))
    outcomes = {(row["external_id"], row["dialogue"]): row["outcome"] for row in rows}
    assert outcomes[(_hex(1), str(collected["good"].pk))] == "completed"
    assert outcomes[(_hex(3), str(Dialogue.objects.get(worker__crowd_worker__external_id=_hex(3)).pk))] == "dropped"
    assert outcomes[(_hex(5), "")] == "timed_out"
    good = next(row for row in rows if row["dialogue"] == str(collected["good"].pk))
    assert good["completion_code"] == collected["good"].completion_code
    assert good["session_or_assignment_id"] == collected["paula"].session_id
    assert len(rows) == 6


def test_the_bonus_list_is_read_in_a_fixed_number_of_queries(campaign, collected, erin):
    with CaptureQueriesContext(connection) as before:
        payments.campaign_bonuses(campaign)
    for n in range(6, 9):
        dialogue_with(arrive(campaign, "prolific", n), erin, answered=2)
    with CaptureQueriesContext(connection) as after:
        payments.campaign_bonuses(campaign)
    assert len(after) == len(before) == 2


def test_the_admin_downloads_the_files(client, ada, campaign, collected):
    client.force_login(ada)
    page = client.get(reverse("review:payments"))
    assert b"Spring pilot" in page.content
    response = client.get(reverse("review:payment_file", args=[campaign.pk, "bonuses-prolific"]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="spring-pilot-bonuses-prolific.csv"'
    assert response.content.decode() == f"{_hex(1)},0.50\n"
    # One study of several: the rows of that study only.
    other = client.get(reverse("review:payment_file", args=[campaign.pk, "bonuses"]), {"batch": "HIT" + "0" * 27})
    assert [row["external_id"] for row in csv.DictReader(io.StringIO(other.content.decode()))] == [f"A{4:013d}"]
    assert client.get(reverse("review:payment_file", args=[campaign.pk, "secrets"])).status_code == 404


def test_a_bonus_reason_written_as_a_formula_reaches_the_spreadsheet_as_text(client, ada, campaign, collected):
    """Ada's campaign thanks its workers with a reason that a spreadsheet would run as a formula (a link to
    anywhere); in both files that carry it, it arrives as text, behind a quote."""
    campaign.bonus_reason = '=HYPERLINK("http://x","y")'
    campaign.save(update_fields=["bonus_reason"])
    client.force_login(ada)
    for name, column in [("bonuses", "reason"), ("bonuses-mturk", "Reason")]:
        response = client.get(reverse("review:payment_file", args=[campaign.pk, name]))
        reasons = {row[column] for row in csv.DictReader(io.StringIO(response.content.decode())) if row[column]}
        assert reasons == {'\'=HYPERLINK("http://x","y")'}, name


def test_a_download_is_named_from_known_parts_only(client, ada, campaign, collected):
    """Ada downloads one HIT's bonuses. The batch in the address is checked against the campaign's own studies and
    HITs: one it does not have (a quote that would add a second file name, a line break, a path) is not found,
    and the file name is built from the campaign, the file and the batch it does have."""
    client.force_login(ada)
    url = reverse("review:payment_file", args=[campaign.pk, "bonuses"])
    hit = "HIT" + "0" * 27
    assert client.get(url, {"batch": hit})["Content-Disposition"] == (
        f'attachment; filename="spring-pilot-bonuses-{hit}.csv"'
    )
    for batch in [
        f"{hit}\"; filename*=UTF-8''evil.html",
        f"{hit}\r\nSet-Cookie: sessionid=stolen",
        f"../../{hit}",
        "HIT" + "9" * 27,
    ]:
        assert client.get(url, {"batch": batch}).status_code == 404, batch


# --- Recording what was paid ------------------------------------------------------------------------------------------


def owed_files(client, campaign):
    """The bonus files the payments page offers to record for the campaign: (platform, batch) → its line."""
    page = client.get(reverse("review:payments"), {"campaign": campaign.pk})
    assert page.status_code == 200
    return {(line["platform"], line["batch"]): line for line in page.context["owed"]}


def record_paid(client, campaign, line):
    return client.post(
        reverse("review:payments"),
        {
            "campaign": campaign.pk,
            "platform": line["platform"],
            "batch": line["batch"],
            "digest": line["digest"],
            "confirm": "yes",
        },
        follow=True,
    )


def download(client, campaign, line):
    return client.get(
        reverse("review:payment_file", args=[campaign.pk, line["file"]]),
        {"batch": line["batch"], "digest": line["digest"]},
    )


def test_recording_a_payout_first_shows_what_will_be_recorded_with_its_currency_and_records_nothing(
    client, ada, campaign, collected, settings
):
    settings.BONUS_CURRENCY = "USD"
    client.force_login(ada)
    prolific = owed_files(client, campaign)[("prolific", _hex(1001))]
    asked = client.post(
        reverse("review:payments"),
        {"campaign": campaign.pk, "platform": "prolific", "batch": prolific["batch"], "digest": prolific["digest"]},
    )
    assert asked.status_code == 200 and not BonusPayout.objects.exists()
    text = asked.content.decode()
    assert "Record this payout?" in text and "0.50 USD" in text and _hex(1) in text
    assert 'name="confirm" value="yes"' in text
    # A stale page (the digest no longer matches) asks nothing and records nothing.
    stale = client.post(
        reverse("review:payments"),
        {"campaign": campaign.pk, "platform": "prolific", "batch": prolific["batch"], "digest": "0" * 64},
        follow=True,
    )
    assert "nothing was recorded" in stale.content.decode() and not BonusPayout.objects.exists()
    page = record_paid(client, campaign, prolific)
    assert "recorded: 0.50 USD to 1 worker(s)" in page.content.decode()
    assert "0.50 USD" in page.content.decode()  # the payouts table names the currency too
    rows = list(csv.DictReader(io.StringIO(payments.bonus_list_csv(payments.campaign_bonuses(campaign)))))
    assert {row["currency"] for row in rows} == {"USD"}


def test_a_recorded_payout_leaves_its_bonuses_out_of_the_next_file(client, ada, campaign, collected, erin):
    client.force_login(ada)
    lines = owed_files(client, campaign)
    prolific = lines[("prolific", _hex(1001))]
    assert (prolific["workers"], prolific["total"]) == (1, Decimal("0.50"))
    assert download(client, campaign, prolific).content.decode() == f"{_hex(1)},0.50\n"
    page = record_paid(client, campaign, prolific)
    assert "Payout" in page.content.decode() and "recorded" in page.content.decode()

    payout = BonusPayout.objects.get()
    assert (payout.campaign, payout.platform, payout.batch_id) == (campaign, "prolific", _hex(1001))
    assert payout.paid_by == ada
    assert payout.total == Decimal("0.50")
    (row,) = payout.rows.all()
    assert (row.external_id, row.amount) == (_hex(1), Decimal("0.50"))
    assert row.reason == "Bonus for 1 dialogue with at least 5 good related questions."
    assert [paid.dialogue_id for paid in row.dialogues.all()] == [collected["good"].pk]

    # Paula's bonus is paid: the Prolific file is empty, the list says what was paid; Sam's MTurk bonus is still owed.
    assert client.get(reverse("review:payment_file", args=[campaign.pk, "bonuses-prolific"])).content == b""
    rows = {row.external_id: row for row in payments.campaign_bonuses(campaign)}
    assert (rows[_hex(1)].earning, rows[_hex(1)].amount, rows[_hex(1)].paid) == (1, Decimal("0.00"), Decimal("0.50"))
    assert set(owed_files(client, campaign)) == {("mturk", "HIT" + "0" * 27)}

    # A good dialogue later is owed alone: the next file pays it, not the one paid already.
    dialogue_with(arrive(campaign, "prolific", 1, session=2), erin, answered=5)
    again = owed_files(client, campaign)[("prolific", _hex(1001))]
    assert again["total"] == Decimal("0.50")
    assert download(client, campaign, again).content.decode() == f"{_hex(1)},0.50\n"


def test_a_dialogue_approved_after_a_payout_is_paid_in_the_next_one_only(client, ada, campaign, collected):
    """Only dialogues approved in review earn: Paula's good dialogue, still waiting for review at the first payout,
    is owed once it is approved, and only then."""
    campaign.bonus_after_review = True
    campaign.save(update_fields=["bonus_after_review"])
    client.force_login(ada)
    assert set(owed_files(client, campaign)) == {("mturk", "HIT" + "0" * 27)}
    record_paid(client, campaign, owed_files(client, campaign)[("mturk", "HIT" + "0" * 27)])
    assert owed_files(client, campaign) == {}
    review_as(collected["good"], ReviewStage.APPROVED)
    prolific = owed_files(client, campaign)[("prolific", _hex(1001))]
    assert prolific["total"] == Decimal("0.50")
    record_paid(client, campaign, prolific)
    assert owed_files(client, campaign) == {}
    assert sorted(BonusPaidDialogue.objects.values_list("dialogue_id", flat=True)) == sorted(
        [collected["good"].pk, collected["sam_dialogue"].pk]
    )
    # Rejected after it was paid: nothing is owed back, and nothing more is owed; the page and the list say that the
    # bonus was paid in error, naming the dialogue and the payout that paid it.
    assert (
        "No bonus was paid in error."
        in client.get(reverse("review:payments"), {"campaign": campaign.pk}).content.decode()
    )
    collected["good"].review.stage = ReviewStage.REJECTED
    collected["good"].review.save(update_fields=["stage"])
    assert owed_files(client, campaign) == {}
    paid = BonusPaidDialogue.objects.get(dialogue=collected["good"]).row.payout_id
    page = client.get(reverse("review:payments"), {"campaign": campaign.pk})
    assert [(item["dialogue"], item["payout"]) for item in page.context["paid_in_error"]] == [
        (collected["good"].pk, paid)
    ]
    assert f"Dialogue {collected['good'].pk}" in page.content.decode()
    listed = csv.DictReader(
        io.StringIO(client.get(reverse("review:payment_file", args=[campaign.pk, "bonuses"])).content.decode())
    )
    paula = next(row for row in listed if row["external_id"] == _hex(1))
    assert (paula["amount"], paula["paid"]) == ("0.00", "0.50")
    assert paula["paid_in_error"] == f"dialogue {collected['good'].pk} (payout {paid})"


def test_a_double_submit_records_one_payout(client, ada, campaign, collected):
    client.force_login(ada)
    prolific = owed_files(client, campaign)[("prolific", _hex(1001))]
    record_paid(client, campaign, prolific)
    second = record_paid(client, campaign, prolific)
    assert BonusPayout.objects.count() == 1
    assert "already recorded as paid" in second.content.decode()


def test_two_recordings_at_once_pay_a_dialogue_once(campaign, collected, ada, monkeypatch):
    """Past the digest check (each request read the owed rows before the other wrote), the database's keys refuse the
    second of two racing recordings: the same file twice (the digest), or two files that share a dialogue."""
    study = _hex(1001)
    one_study = payments.bonus_owed(campaign, platform="prolific", batch_id=study)
    every_study = payments.bonus_owed(campaign, platform="prolific")
    assert one_study == every_study  # Paula's dialogue is in both files
    payments.bonus_payout_record(
        campaign=campaign,
        platform="prolific",
        batch_id=study,
        digest=payments.bonus_digest(campaign, "prolific", study, one_study),
        by=ada,
    )
    for batch_id, rows in [(study, one_study), ("", every_study)]:
        monkeypatch.setattr(payments, "bonus_owed", lambda *args, rows=rows, **kwargs: rows)  # what the racer read
        with pytest.raises(payments.PayoutRefused):
            payments.bonus_payout_record(
                campaign=campaign,
                platform="prolific",
                batch_id=batch_id,
                digest=payments.bonus_digest(campaign, "prolific", batch_id, rows),
                by=ada,
            )
    assert BonusPayout.objects.count() == 1 and BonusPaidDialogue.objects.count() == 1


def test_a_file_whose_bonuses_changed_since_the_page_is_neither_downloaded_nor_recorded(
    client, ada, campaign, collected, erin
):
    client.force_login(ada)
    shown = owed_files(client, campaign)[("prolific", _hex(1001))]
    dialogue_with(arrive(campaign, "prolific", 1, session=2), erin, answered=5)  # Paula earns again meanwhile
    stale = download(client, campaign, shown)
    assert stale.status_code == 409
    assert "changed" in record_paid(client, campaign, shown).content.decode()
    assert not BonusPayout.objects.exists()


def test_a_past_payout_downloads_again_exactly_as_it_was_paid(client, ada, campaign, collected, erin):
    client.force_login(ada)
    paid = {}
    for (platform, _batch), line in owed_files(client, campaign).items():
        paid[platform] = download(client, campaign, line).content
        record_paid(client, campaign, line)
    # Later: more bonuses, a higher amount, another reason. A payout's file stays what it was.
    dialogue_with(arrive(campaign, "prolific", 1, session=2), erin, answered=5)
    campaign.bonus_amount, campaign.bonus_reason = Decimal("2.00"), "Thanks!"
    campaign.save(update_fields=["bonus_amount", "bonus_reason"])
    page = client.get(reverse("review:payments"))
    assert page.context["payouts"].count() == 2
    for payout in BonusPayout.objects.all():
        again = client.get(reverse("review:payment_file", args=[campaign.pk, payout.file_name]), {"payout": payout.pk})
        assert again.content == paid[payout.platform]
        name = f"spring-pilot-{payout.file_name}-payout-{payout.pk}.csv"
        assert again["Content-Disposition"] == f'attachment; filename="{name}"'
        assert f"?payout={payout.pk}" in page.content.decode()
    assert paid["prolific"] == f"{_hex(1)},0.50\n".encode()
    # A payout is downloaded as the file it paid, and from its own campaign only.
    prolific = BonusPayout.objects.get(platform="prolific")
    url = reverse("review:payment_file", args=[campaign.pk, "bonuses-mturk"])
    assert client.get(url, {"payout": prolific.pk}).status_code == 404


@pytest.mark.parametrize("person", ["alice", "erin", "rita"])
def test_only_admins_record_payouts_and_download_them(client, request, person, ada, campaign, collected):
    client.force_login(ada)
    line = owed_files(client, campaign)[("prolific", _hex(1001))]
    record_paid(client, campaign, line)
    payout = BonusPayout.objects.get()
    client.force_login(request.getfixturevalue(person))
    other = {"campaign": campaign.pk, "platform": "mturk", "batch": "HIT" + "0" * 27, "digest": "x"}
    assert client.post(reverse("review:payments"), other).status_code == 403
    url = reverse("review:payment_file", args=[campaign.pk, payout.file_name])
    assert client.get(url, {"payout": payout.pk}).status_code == 403
    assert BonusPayout.objects.count() == 1


def test_a_payout_recorded_by_mistake_is_deleted_in_the_django_admin_and_its_bonuses_are_owed_again(
    client, ada, campaign, collected
):
    client.force_login(ada)
    prolific = owed_files(client, campaign)[("prolific", _hex(1001))]
    record_paid(client, campaign, prolific)
    payout = BonusPayout.objects.get()
    change = reverse("admin:review_bonuspayout_change", args=[payout.pk])
    page = client.get(change)
    assert page.status_code == 200 and _hex(1) in page.content.decode()  # its rows, read-only
    assert client.post(change, {"total": "99"}).status_code == 403  # a record, not a form
    delete = reverse("admin:review_bonuspayout_delete", args=[payout.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 302
    assert not BonusPayout.objects.exists()
    assert owed_files(client, campaign)[("prolific", _hex(1001))]["total"] == prolific["total"]
