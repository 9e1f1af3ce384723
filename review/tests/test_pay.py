"""Pay for the lab's own people (docs/pay.md): time read from the records with idle gaps capped, items and questions
counted, a period's statement priced by the campaign's rule or the default, recorded as paid once (never again in an
overlapping period, unchanged afterwards), its CSV safe in a spreadsheet, and nobody's pay shown to anyone but them
and the admins."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from annotation.models import Goal, Role
from annotation.people.services import person_create
from dialogs.models import (
    Campaign,
    Dialogue,
    DialogueMode,
    DialogueStatus,
    Event,
    EventKind,
    QueryFirstItem,
    WorkAssignment,
    WorkDeal,
)
from dialogs.room import dialogue_post, dialogue_record
from dialogs.solo import solo_create, solo_turn_add
from review.models import PayStatement, PayStatementItem, ReviewPass
from review.passes.services import review_claim, review_correct, review_decide, review_release, review_sync
from review.pay import selectors, services
from review.pay.models import PayBasis, PayRole, WorkKind
from review.tests.conftest import reviewer

pytestmark = pytest.mark.django_db

IDLE = 600
QUESTIONS = [
    ("How many students are there?", "SELECT count(*) FROM student"),
    ("How many dorms are there?", "SELECT count(*) FROM dorm"),
    ("What is the oldest age?", "SELECT max(age) FROM student"),
]
T0 = timezone.now().replace(microsecond=0) - timedelta(hours=6)


@pytest.fixture(autouse=True)
def _idle_gap(settings):
    settings.PAY_IDLE_GAP_SECONDS = IDLE
    settings.SOLO_MIN_QUESTIONS = 1


def period():
    """A period that holds every item these tests make (they finish around T0), whatever the time of day."""
    day = timezone.localdate(T0)
    return day - timedelta(days=1), day + timedelta(days=1)


def timed(dialogue, offsets: list[int]) -> None:
    """Give the dialogue's events, in sequence order, the times T0 + offsets (seconds); its end is its END event's."""
    events = list(dialogue.events.order_by("seq"))
    assert len(events) == len(offsets), [event.kind for event in events]
    for event, offset in zip(events, offsets, strict=True):
        Event.objects.filter(pk=event.pk).update(created_at=T0 + timedelta(seconds=offset))
    end = next(offset for event, offset in zip(events, offsets, strict=True) if event.kind == EventKind.END)
    Dialogue.objects.filter(pk=dialogue.pk).update(ended_at=T0 + timedelta(seconds=end))


def rule(role, basis, rate, campaign=None, currency="GBP", *, by):
    return services.pay_rule_save(
        by=by, role=role, basis=basis, rate=Decimal(rate), currency=currency, campaign=campaign
    )


def expert(name: str):
    return person_create(username=name, role=Role.EXPERT, password="correct-horse-battery")[0]


def ended_dialogue(database, person, *, minutes: int, campaign=None, offset_minutes: int = 0) -> Dialogue:
    """A dialogue `person` worked on for `minutes` (their join, then the end), without anything said: enough for the
    statement's time, campaign and counts."""
    worker = person_create(username=f"w{Dialogue.objects.count()}", role=Role.WORKER)[0]
    dialogue = Dialogue.objects.create(
        database=database, worker=worker, expert=person, campaign=campaign, status=DialogueStatus.COMPLETED
    )
    dialogue_record(dialogue=dialogue, author=person, kind=EventKind.JOIN, payload={}, role=Role.EXPERT)
    dialogue_record(dialogue=dialogue, author=worker, kind=EventKind.END, payload={"status": "completed"})
    start = offset_minutes * 60
    timed(dialogue, [start, start + minutes * 60])
    return dialogue


# --- Time and counts from the records --------------------------------------------------------------------------------


def test_time_is_counted_between_records_with_each_gap_capped():
    moments = [T0 + timedelta(seconds=s) for s in (0, 60, 60 + 3600, 60 + 3600 + 30)]
    assert selectors.active_seconds(moments, idle_gap=IDLE) == 60 + IDLE + 30
    assert selectors.active_seconds(reversed(moments), idle_gap=IDLE) == 60 + IDLE + 30  # order does not matter
    assert selectors.active_seconds(moments[:1], idle_gap=IDLE) == 0


def test_an_experts_dialogue_is_timed_from_their_join_to_their_score_with_the_worker_away_an_hour_capped(
    open_room, ada, erin
):
    room = open_room()
    dialogue = room.dialogue
    dialogue_record(dialogue=dialogue, author=dialogue.worker, kind=EventKind.JOIN, payload={}, role=Role.WORKER)
    dialogue_record(dialogue=dialogue, author=erin, kind=EventKind.JOIN, payload={}, role=Role.EXPERT)
    room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
    room.answer(room.ask("How many dorms are there?"), "SELECT count(*) FROM dorm")
    room.end(approve=False)
    # The worker waits 5 minutes before Erin joins (not hers to be paid); then a record every 10 s, but the second
    # question comes an hour after the first answer and Erin scores a minute after the end.
    events = list(dialogue.events.order_by("seq"))
    second_question = [event.seq for event in events if event.kind == EventKind.UTTERANCE][1]
    offsets = [-300, 0]
    for event in events[2:]:
        gap = {EventKind.SCORE: 60}.get(event.kind, 3600 if event.seq == second_question else 10)
        offsets.append(offsets[-1] + gap)
    timed(dialogue, offsets)
    normal_gaps = len(events) - 2 - 2  # after Erin's join, all but the hour and the score's minute
    rule(PayRole.EXPERT, PayBasis.HOUR, "36.00", by=ada)

    (line,) = selectors.statement_of(erin, *period()).lines
    assert line.work.kind == WorkKind.DIALOGUE and line.work.object_id == dialogue.pk
    assert line.work.seconds == 10 * normal_gaps + IDLE + 60  # the hour counts 10 minutes
    assert line.work.elapsed == offsets[-1]
    assert (line.work.items, line.work.questions) == (1, 2)
    assert line.amount == (Decimal("36.00") * line.work.seconds / 3600).quantize(Decimal("0.01"))
    assert (line.basis, line.currency, line.state) == (PayBasis.HOUR, "GBP", "owed")


def test_a_solo_sequence_is_paid_per_sequence_or_per_question_and_its_time_read_from_its_log(demo_databases, ada, erin):
    database = demo_databases["dorm_demo"]
    sequence = solo_create(expert=erin, database=database)
    solo_turn_add(
        dialogue=sequence, person=erin, question="How many?", sql="SELECT count(*) FROM student", request_id="a"
    )
    solo_turn_add(dialogue=sequence, person=erin, question="Dorms?", sql="SELECT count(*) FROM dorm", request_id="b")
    dialogue_post(dialogue=sequence, person=erin, message={"id": "end", "type": "end"})
    kinds = list(sequence.events.order_by("seq").values_list("kind", flat=True))
    # Join, two turns of five records each (run, question, acts, shared, response) and their recommendations, the end.
    offsets = [60 * index for index in range(len(kinds))]
    offsets[-1] = offsets[-2] + 3 * 3600  # the end comes three hours after the last answer: 10 minutes of it count
    timed(sequence, offsets)

    rule(PayRole.ANNOTATOR, PayBasis.ITEM, "5.00", by=ada)
    (line,) = selectors.statement_of(erin, *period()).lines
    assert line.work.kind == WorkKind.SEQUENCE
    assert line.work.seconds == 60 * (len(kinds) - 2) + IDLE
    assert (line.work.items, line.work.questions, line.amount) == (1, 2, Decimal("5.00"))

    rule(PayRole.ANNOTATOR, PayBasis.QUESTION, "1.25", by=ada)
    (line,) = selectors.statement_of(erin, *period()).lines
    assert line.amount == Decimal("2.50")


def test_a_review_pass_is_timed_from_claim_to_decision_through_the_reviewers_corrections(open_room, ada):
    room = open_room()
    for question, sql in QUESTIONS:
        room.answer(room.ask(question), sql)
    dorm_dialogue = room.end(approve=False)
    review_sync()
    rhea, remy = reviewer("rhea"), reviewer("remy")
    review_claim(reviewer=rhea, dialogue=dorm_dialogue)
    turn = dorm_dialogue.events.filter(kind=EventKind.UTTERANCE).order_by("seq").first().seq
    correction = review_correct(
        reviewer=rhea, dialogue=dorm_dialogue, turn=turn, field="response", value="There are 8."
    )
    review_decide(reviewer=rhea, dialogue=dorm_dialogue, approve=True)
    # Remy claims pass 2 and lets it go: time, but no item.
    review_claim(reviewer=remy, dialogue=dorm_dialogue)
    review_release(person=remy, dialogue=dorm_dialogue)
    first = ReviewPass.objects.get(reviewer=rhea)
    ReviewPass.objects.filter(pk=first.pk).update(started_at=T0, finished_at=T0 + timedelta(seconds=300 + 1800))
    Event.objects.filter(pk=correction.pk).update(created_at=T0 + timedelta(seconds=300))
    released = ReviewPass.objects.get(reviewer=remy)
    ReviewPass.objects.filter(pk=released.pk).update(started_at=T0, finished_at=T0 + timedelta(seconds=120))
    rule(PayRole.REVIEWER, PayBasis.ITEM, "2.00", by=ada)

    (line,) = selectors.statement_of(rhea, *period()).lines
    assert line.work.kind == WorkKind.REVIEW_PASS and line.work.object_id == first.pk
    assert line.work.seconds == 300 + IDLE  # claim → correction, then half an hour to the decision counted as 10 min
    assert (line.work.items, line.work.questions, line.amount) == (1, 3, Decimal("2.00"))
    assert "approved" in line.work.label
    (let_go,) = selectors.statement_of(remy, *period()).lines
    assert (let_go.work.seconds, let_go.work.items, let_go.amount) == (120, 0, Decimal("0.00"))

    rule(PayRole.REVIEWER, PayBasis.QUESTION, "0.50", by=ada)  # per question: the dialogue's three answered ones
    assert selectors.statement_of(rhea, *period()).lines[0].amount == Decimal("1.50")


def test_query_first_phases_are_paid_by_their_seconds_capped_and_a_skip_by_its_time_only(demo_databases, ada, erin):
    database = demo_databases["dorm_demo"]
    ezra = expert("ezra")
    goals = [Goal.objects.create(database=database, question="", sql=f"SELECT {n}", hardness="easy") for n in (1, 2)]
    written = QueryFirstItem.objects.create(
        goal=goals[0],
        writer=erin,
        tree={},
        sql="SELECT 1",
        stage=QueryFirstItem.Stage.DONE,
        opened_at=T0,
        written_at=T0 + timedelta(minutes=25),  # a tab left open: 10 minutes count
        aligner=ezra,
        aligned_at=T0 + timedelta(hours=1),
        aligning_seconds=200,
    )
    QueryFirstItem.objects.create(
        goal=goals[1],
        writer=erin,
        tree={},
        sql="SELECT 1",
        stage=QueryFirstItem.Stage.SKIPPED,
        opened_at=T0,
        written_at=T0 + timedelta(seconds=90),
    )
    rule(PayRole.ANNOTATOR, PayBasis.ITEM, "1.00", by=ada)

    lines = selectors.statement_of(erin, *period()).lines
    assert [(line.work.kind, line.work.seconds, line.work.items, line.amount) for line in lines] == [
        (WorkKind.QUERY_FIRST_QUESTION, 90, 0, Decimal("0.00")),  # the skip, which finished first
        (WorkKind.QUERY_FIRST_QUESTION, IDLE, 1, Decimal("1.00")),
    ]
    (aligned,) = selectors.statement_of(ezra, *period()).lines
    assert (aligned.work.kind, aligned.work.object_id, aligned.work.seconds) == (
        WorkKind.QUERY_FIRST_ALIGNMENT,
        written.pk,
        200,
    )


# --- Rules and the statement -----------------------------------------------------------------------------------------


def test_a_campaigns_rule_prices_its_work_and_the_default_rule_the_rest(demo_databases, ada, erin):
    database = demo_databases["dorm_demo"]
    spring = Campaign.objects.create(name="Spring")
    autumn = Campaign.objects.create(name="Autumn")
    in_spring = ended_dialogue(database, erin, minutes=30, campaign=spring)
    in_autumn = ended_dialogue(database, erin, minutes=30, campaign=autumn, offset_minutes=60)
    alone = ended_dialogue(database, erin, minutes=30, offset_minutes=120)
    rule(PayRole.EXPERT, PayBasis.HOUR, "20.00", by=ada)
    rule(PayRole.EXPERT, PayBasis.ITEM, "4.00", campaign=spring, currency="usd", by=ada)

    statement = selectors.statement_of(erin, *period())
    priced = {
        line.work.object_id: (line.campaign_name, line.basis, line.amount, line.currency) for line in statement.lines
    }
    assert priced == {
        in_spring.pk: ("Spring", PayBasis.ITEM, Decimal("4.00"), "USD"),
        in_autumn.pk: ("Autumn", PayBasis.HOUR, Decimal("3.33"), "GBP"),  # 10 minutes of the half hour: one gap
        alone.pk: ("", PayBasis.HOUR, Decimal("3.33"), "GBP"),
    }
    assert statement.totals == {"GBP": Decimal("6.66"), "USD": Decimal("4.00")}


def test_a_sequence_dealt_for_a_campaign_is_priced_by_the_campaigns_rule(demo_databases, ada, erin):
    database = demo_databases["dorm_demo"]
    week48 = Campaign.objects.create(name="Week 48")
    deal = WorkDeal.objects.create(name="Week 48", kind=WorkDeal.Kind.SOLO, count=1, seed=1, campaign=week48)
    sequence = ended_dialogue(database, erin, minutes=5)
    Dialogue.objects.filter(pk=sequence.pk).update(mode=DialogueMode.SOLO, worker=erin)
    WorkAssignment.objects.create(deal=deal, item=1, person=erin, database=database, dialogue=sequence, state="done")
    rule(PayRole.ANNOTATOR, PayBasis.ITEM, "1.00", by=ada)
    rule(PayRole.ANNOTATOR, PayBasis.ITEM, "6.00", campaign=week48, by=ada)
    (line,) = selectors.statement_of(erin, *period()).lines
    assert (line.work.kind, line.campaign_name, line.amount) == (WorkKind.SEQUENCE, "Week 48", Decimal("6.00"))


def test_work_no_rule_prices_is_listed_and_not_owed(demo_databases, erin):
    ended_dialogue(demo_databases["dorm_demo"], erin, minutes=5)
    statement = selectors.statement_of(erin, *period())
    assert [line.state for line in statement.lines] == ["unpriced"]
    assert statement.owed == [] and statement.totals == {}


def test_only_work_finished_in_the_period_is_on_its_statement(demo_databases, ada, erin):
    database = demo_databases["dorm_demo"]
    rule(PayRole.EXPERT, PayBasis.ITEM, "1.00", by=ada)
    ended_dialogue(database, erin, minutes=5)
    ended_dialogue(database, erin, minutes=5, offset_minutes=-3 * 24 * 60)  # three days earlier
    start, end = period()
    assert len(selectors.statement_of(erin, start, end).lines) == 1
    assert len(selectors.statement_of(erin, start - timedelta(days=3), end).lines) == 2


def test_a_statement_reads_everyones_work_in_a_fixed_number_of_queries(demo_databases, ada, erin):
    database = demo_databases["dorm_demo"]
    rule(PayRole.EXPERT, PayBasis.HOUR, "20.00", by=ada)
    ended_dialogue(database, erin, minutes=5, campaign=Campaign.objects.create(name="First"))

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            found = selectors.statements(*period())
            assert all(statement.lines for statement in found.values())
        return len(captured)

    few = queries()
    for index in range(4):
        ended_dialogue(database, expert(f"e{index}"), minutes=5, campaign=Campaign.objects.create(name=f"C{index}"))
    assert queries() == few


# --- Recorded once ---------------------------------------------------------------------------------------------------


@pytest.fixture
def a_week_of_work(demo_databases, ada, erin):
    database = demo_databases["dorm_demo"]
    rule(PayRole.EXPERT, PayBasis.ITEM, "3.00", by=ada)
    return [ended_dialogue(database, erin, minutes=5, offset_minutes=60 * index) for index in range(3)]


def test_recording_a_statement_pays_its_items_once_even_in_an_overlapping_period(a_week_of_work, ada, erin):
    start, end = period()
    statement = selectors.statement_of(erin, start, end)
    recorded = services.pay_statement_record(by=ada, person=erin, start=start, end=end, digest=statement.digest)
    assert recorded.totals == {"GBP": "9.00"}
    assert set(PayStatementItem.objects.values_list("object_id", flat=True)) == {d.pk for d in a_week_of_work}

    # The same click again finds the statement it recorded.
    with pytest.raises(services.PayRefused) as again:
        services.pay_statement_record(by=ada, person=erin, start=start, end=end, digest=statement.digest)
    assert again.value.code == "already" and again.value.statement == recorded

    # A later period that overlaps lists them as paid and owes only the new work.
    later = ended_dialogue(a_week_of_work[0].database, erin, minutes=5, offset_minutes=24 * 60)
    overlapping = selectors.statement_of(erin, start + timedelta(days=1), end + timedelta(days=2))
    assert [line.work.object_id for line in overlapping.owed] == [later.pk]
    assert {line.paid.statement_id for line in overlapping.paid} == {recorded.pk}
    assert overlapping.totals == {"GBP": Decimal("3.00")}
    second = services.pay_statement_record(
        by=ada, person=erin, start=start + timedelta(days=1), end=end + timedelta(days=2), digest=overlapping.digest
    )
    assert second.totals == {"GBP": "3.00"}
    assert PayStatementItem.objects.count() == 4

    # Nothing is left to record for either period.
    with pytest.raises(services.PayRefused) as nothing:
        services.pay_statement_record(by=ada, person=erin, start=start, end=end, digest="whatever")
    assert nothing.value.code == "nothing"


def test_a_statement_whose_items_changed_since_the_page_records_nothing(a_week_of_work, ada, erin):
    start, end = period()
    shown = selectors.statement_of(erin, start, end)
    rule(PayRole.EXPERT, PayBasis.ITEM, "3.50", by=ada)  # another admin changes the rate meanwhile
    with pytest.raises(services.PayRefused) as changed:
        services.pay_statement_record(by=ada, person=erin, start=start, end=end, digest=shown.digest)
    assert changed.value.code == "changed"
    assert not PayStatement.objects.exists()


def test_two_recordings_at_once_pay_an_item_once(a_week_of_work, ada, erin, monkeypatch):
    """The second recording passed its check before the first committed: the database's key on the item refuses it."""
    start, end = period()
    statement = selectors.statement_of(erin, start, end)
    services.pay_statement_record(by=ada, person=erin, start=start, end=end, digest=statement.digest)
    # Replay the check as it was before the first recording: the same lines, owed, but a digest of its own.
    stale = selectors.Statement(person=erin, start=start - timedelta(days=1), end=end, lines=statement.lines)
    monkeypatch.setattr(services, "statement_of", lambda person, start, end: stale)
    with pytest.raises(services.PayRefused) as refused:
        services.pay_statement_record(by=ada, person=erin, start=stale.start, end=end, digest=stale.digest)
    assert refused.value.code == "changed"
    assert PayStatement.objects.count() == 1 and PayStatementItem.objects.count() == 3


def test_a_paid_statement_stays_as_it_was_recorded(client, a_week_of_work, ada, erin):
    start, end = period()
    statement = selectors.statement_of(erin, start, end)
    recorded = services.pay_statement_record(by=ada, person=erin, start=start, end=end, digest=statement.digest)
    file_before = recorded.csv_text
    rule(PayRole.EXPERT, PayBasis.ITEM, "10.00", by=ada)  # a new rate later
    Dialogue.objects.filter(pk=a_week_of_work[0].pk).update(incomplete=True)  # and a dialogue read differently

    client.force_login(erin)
    response = client.get(reverse("review:pay_recorded_csv", args=[recorded.pk]))
    assert response.content.decode() == file_before
    assert PayStatementItem.objects.filter(statement=recorded, amount=Decimal("3.00")).count() == 3
    page = client.get(reverse("review:pay_recorded", args=[recorded.pk])).content.decode()
    assert "9.00 GBP" in page and "10.00" not in page
    # And its items are not owed again at the new rate.
    assert selectors.statement_of(erin, start, end).owed == []


def test_an_admin_records_a_statement_from_its_page_once_they_tick_that_they_paid_it(client, a_week_of_work, ada, erin):
    start, end = period()
    statement = selectors.statement_of(erin, start, end)
    url = reverse("review:pay_statement_record", args=[erin.pk])
    form = {"start": start.isoformat(), "end": end.isoformat(), "digest": statement.digest}
    client.force_login(ada)
    client.post(url, form)
    assert not PayStatement.objects.exists()  # not ticked
    response = client.post(url, {**form, "confirm": "yes"})
    recorded = PayStatement.objects.get()
    assert response.url == reverse("review:pay_recorded", args=[recorded.pk])
    response = client.post(url, {**form, "confirm": "yes"}, follow=True)  # the page posted again
    assert PayStatement.objects.count() == 1
    assert "already recorded as paid" in response.content.decode()


# --- The file --------------------------------------------------------------------------------------------------------


def test_the_statement_csv_reaches_a_spreadsheet_as_text(client, demo_databases, ada):
    database = demo_databases["dorm_demo"]
    person = person_create(username="@mallet", role=Role.EXPERT)[0]
    names = ['=HYPERLINK("http://x")', "+1+cmd", "-2+cmd", "@SUM(A1)"]
    for index, name in enumerate(names):
        ended_dialogue(database, person, minutes=5, campaign=Campaign.objects.create(name=name), offset_minutes=index)
    rule(PayRole.EXPERT, PayBasis.ITEM, "3.00", by=ada)
    start, end = period()
    client.force_login(ada)
    response = client.get(
        reverse("review:pay_statement_csv", args=[person.pk]), {"start": start.isoformat(), "end": end.isoformat()}
    )
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [row["campaign"] for row in rows[:4]] == ["'" + name for name in names]
    assert {row["person"] for row in rows} == {"'@mallet"}
    assert rows[-1]["work"] == "Total" and rows[-1]["amount"] == "12.00" and rows[-1]["currency"] == "GBP"
    assert [row["amount"] for row in rows[:4]] == ["3.00"] * 4  # numbers stay numbers
    for row in rows:
        assert not any(cell.startswith(("=", "+", "@")) for cell in row.values())
        assert not any(
            cell.startswith("-") and not cell.lstrip("-").replace(".", "").isdigit() for cell in row.values()
        )


# --- Who sees whose pay ----------------------------------------------------------------------------------------------


@pytest.fixture
def erins_statement(a_week_of_work, ada, erin):
    start, end = period()
    statement = selectors.statement_of(erin, start, end)
    return services.pay_statement_record(by=ada, person=erin, start=start, end=end, digest=statement.digest)


def test_a_person_sees_their_own_pay_and_an_admin_everyones(client, erins_statement, ada, erin):
    start, end = period()
    query = {"start": start.isoformat(), "end": end.isoformat()}
    for person in (erin, ada):
        client.force_login(person)
        assert client.get(reverse("review:pay_statement", args=[erin.pk]), query).status_code == 200
        assert client.get(reverse("review:pay_statement_csv", args=[erin.pk]), query).status_code == 200
        assert client.get(reverse("review:pay_recorded", args=[erins_statement.pk])).status_code == 200
        assert client.get(reverse("review:pay_recorded_csv", args=[erins_statement.pk])).status_code == 200
    client.force_login(erin)
    assert client.get(reverse("review:pay_home")).url.startswith(reverse("review:pay_statement", args=[erin.pk]))
    client.force_login(ada)
    page = client.get(reverse("review:pay_home"), query).content.decode()
    assert "erin" in page and "Statement " + str(erins_statement.pk) in page


@pytest.mark.parametrize("who", ["eve", "rita", "alice"])
def test_nobody_else_sees_a_persons_pay(client, request, erins_statement, erin, who):
    """Another expert and a reviewer find no such page (404: nothing says whose pay exists); a crowd worker's role has
    no pay pages at all (403); none of them may set a rule or record a statement."""
    other = expert("eve") if who == "eve" else request.getfixturevalue(who)
    start, end = period()
    query = {"start": start.isoformat(), "end": end.isoformat()}
    expected = 403 if who == "alice" else 404
    client.force_login(other)
    for url in (
        reverse("review:pay_statement", args=[erin.pk]),
        reverse("review:pay_statement_csv", args=[erin.pk]),
        reverse("review:pay_recorded", args=[erins_statement.pk]),
        reverse("review:pay_recorded_csv", args=[erins_statement.pk]),
    ):
        response = client.get(url, query)
        assert response.status_code == expected, url
        assert b"9.00" not in response.content
    posts = {
        reverse("review:pay_rule_save"): {"role": "expert", "basis": "hour", "rate": "99", "currency": "GBP"},
        reverse("review:pay_statement_record", args=[erin.pk]): {**query, "digest": "x", "confirm": "yes"},
    }
    for url, data in posts.items():
        assert client.post(url, data).status_code == 403, url
    if who != "alice":
        assert client.get(reverse("review:pay_home")).status_code == 302  # to their own statement
    with pytest.raises(services.PayRefused):
        services.pay_rule_save(by=other, role="expert", basis="hour", rate=Decimal("99"), currency="GBP")


def test_anonymous_visitors_are_sent_to_sign_in(client, erins_statement, erin):
    for url in (reverse("review:pay_home"), reverse("review:pay_statement", args=[erin.pk])):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_an_admin_sets_a_rule_from_the_page_and_a_wrong_one_is_refused_with_the_reason(client, ada):
    client.force_login(ada)
    url = reverse("review:pay_rule_save")
    client.post(url, {"role": "reviewer", "basis": "item", "rate": "1.50", "currency": "eur"})
    (saved,) = selectors.rules_in_force().values()
    assert (saved.campaign, saved.role, saved.basis, saved.rate, saved.currency) == (
        None,
        "reviewer",
        "item",
        Decimal("1.50"),
        "EUR",
    )
    response = client.post(url, {"role": "reviewer", "basis": "item", "rate": "-1", "currency": "EUR"}, follow=True)
    assert "greater than or equal to 0" in response.content.decode()
    assert selectors.rules_in_force()[(None, "reviewer")].rate == Decimal("1.50")
    client.post(reverse("review:pay_rule_remove", args=[saved.pk]))
    assert selectors.rules_in_force() == {}


def test_practice_imported_and_crowd_work_is_not_paid_here(demo_databases, ada, erin, alice):
    database = demo_databases["dorm_demo"]
    rule(PayRole.EXPERT, PayBasis.ITEM, "1.00", by=ada)
    practice = ended_dialogue(database, erin, minutes=5)
    Dialogue.objects.filter(pk=practice.pk).update(practice=True)
    assert selectors.statement_of(erin, *period()).lines == ()
    # A crowd worker's dialogues are paid by the campaign's bonus (docs/crowd.md), never here.
    assert selectors.statement_of(alice, *period()).lines == ()
