"""Payment files of a campaign: who earns the bonus (good questions: answered, not dropped, in a dialogue neither
dropped by its score nor rejected in review), and the layouts Prolific's and MTurk's bulk bonuses take."""

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
from dialogs import campaigns, services
from dialogs.crowd import CrowdIds, crowd_join
from dialogs.models import Dialogue
from review import payments
from review.models import DialogueReview, ReviewStage
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
    services.lobby_join(person=tom)
    services.lobby_release_expired(now=timezone.now() + timedelta(days=1))
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
            f"wozsql-{campaign.pk}-{assignment}-1",
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
        "reason": "Thank you for your related questions!",
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
