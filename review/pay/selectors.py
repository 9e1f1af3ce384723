"""Reads of pay (docs/pay.md): the work each person did in a period, read from the platform's own records, its time
and counts, the rule that prices it, and the statement that adds it up.

The records, per kind of work (`WorkKind`):

- a dialogue with a worker, for its expert: the log from the expert's join (their first event, when the log has no
  join of theirs) to the dialogue's end, or the expert's score when it came later;
- a solo sequence, for its author: its log from the first event to the end (a query-first item's dialogue is not a
  sequence: it is paid as the item's phase 2);
- a query-first question (phase 1, its writer) and alignment (phase 2, its aligner): the seconds the item recorded for
  the phase (from opening it to finishing it);
- a review pass, for its reviewer: from the claim to the decision (or to the pass being let go), with the reviewer's
  corrections of the dialogue in between.

Time counts from one record to the next, each gap up to PAY_IDLE_GAP_SECONDS: a tab left open is not paid.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from itertools import groupby

from django.conf import settings
from django.db.models import F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from annotation.models import Role, User
from dialogs.log import QUESTION_KINDS, answered_questions, dialogue_turns
from dialogs.models import (
    ENDED_STATUSES,
    Campaign,
    Dialogue,
    DialogueMode,
    Event,
    EventKind,
    QueryFirstItem,
    WorkAssignment,
    pairing_cancelled,
)
from review.models import ReviewPass, SendBack
from review.pay.models import (
    PayBasis,
    PayRole,
    PayRule,
    PayStatement,
    PayStatementItem,
    WorkKind,
    duration_text,
)

CENT = Decimal("0.01")
# The longest period a statement covers: a year (and a day, for a leap year).
PERIOD_MAX_DAYS = 366

ROLE_OF_KIND = {
    WorkKind.DIALOGUE: PayRole.EXPERT,
    WorkKind.SEQUENCE: PayRole.ANNOTATOR,
    WorkKind.QUERY_FIRST_QUESTION: PayRole.ANNOTATOR,
    WorkKind.QUERY_FIRST_ALIGNMENT: PayRole.ANNOTATOR,
    WorkKind.REVIEW_PASS: PayRole.REVIEWER,
}


def active_seconds(moments: Iterable[datetime], *, idle_gap: int | None = None) -> int:
    """The time worked between the first and the last of `moments` (the records of one item of work): each gap from
    one record to the next counts up to `idle_gap` seconds (PAY_IDLE_GAP_SECONDS), so a long silence counts as that
    much and no more. The one place of the rule."""
    cap = settings.PAY_IDLE_GAP_SECONDS if idle_gap is None else idle_gap
    ordered = sorted(moments)
    return round(sum(min(max((b - a).total_seconds(), 0), cap) for a, b in itertools.pairwise(ordered)))


def period_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """The instants a period of days covers, in the platform's time zone (TIME_ZONE): from `start`'s midnight to the
    midnight after `end`. An item of work is in the period when it finished in it."""
    return (
        timezone.make_aware(datetime.combine(start, time.min)),
        timezone.make_aware(datetime.combine(end + timedelta(days=1), time.min)),
    )


def week_of(day: date) -> tuple[date, date]:
    """Monday to Sunday of the week holding `day`: the period the pages open on."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


@dataclass(frozen=True)
class WorkItem:
    """One item of work of one person: what it is, when it finished, the time counted (`seconds`, idle gaps capped;
    `elapsed`, the first record to the last, uncapped), whether it counts as an item (`items`, 0 or 1) and the
    questions it holds."""

    kind: str
    object_id: int
    person_id: int
    label: str
    campaign_id: int | None
    finished_at: datetime
    seconds: int
    elapsed: int
    items: int
    questions: int
    dialogue_id: int | None = None

    @property
    def role(self) -> str:
        return ROLE_OF_KIND[self.kind]

    @property
    def key(self) -> tuple[str, int]:
        return (self.kind, self.object_id)


def _people(person_ids: Iterable[int] | None) -> Q:
    return Q() if person_ids is None else Q(pk__in=list(person_ids))


def _campaign_of_dialogue(prefix: str = ""):
    """The campaign a dialogue's work belongs to: its own (a campaign's goal, a crowd task), else the campaign of the
    deal it was dealt in (docs/dealing.md), else none."""
    return Coalesce(F(f"{prefix}campaign_id"), F(f"{prefix}work_assignment__deal__campaign_id"))


def _payable_dialogues():
    """Dialogues that are work done here: not imported from a release, not an expert's practice, not a pairing
    cancelled before it began."""
    return Dialogue.objects.filter(practice=False, dataset_import__isnull=True).exclude(pairing_cancelled())


def work_items(start: date, end: date, person_ids: Iterable[int] | None = None) -> list[WorkItem]:
    """Every item of work finished in the period (of `person_ids`, or of everyone paid: people who are not crowd
    workers and not simulated), oldest first. A fixed number of queries, whatever the number of items."""
    lo, hi = period_bounds(start, end)
    paid_people = User.objects.filter(_people(person_ids), simulated=False).exclude(role=Role.WORKER)
    dialogues = list(
        _payable_dialogues()
        .filter(
            mode__in=(DialogueMode.CHAT, DialogueMode.SOLO),
            status__in=ENDED_STATUSES,
            ended_at__gte=lo,
            ended_at__lt=hi,
            expert__in=paid_people,
        )
        .annotate(work_campaign=_campaign_of_dialogue())
        .values_list("id", "mode", "expert_id", "database__db_id", "incomplete", "ended_at", "work_campaign")
    )
    passes = list(
        ReviewPass.objects.filter(finished_at__gte=lo, finished_at__lt=hi, reviewer__in=paid_people)
        .exclude(decision=ReviewPass.Decision.OPEN)
        .annotate(work_campaign=_campaign_of_dialogue("review__dialogue__"))
        .values_list(
            "id",
            "number",
            "reviewer_id",
            "review_id",
            "review__dialogue_id",
            "decision",
            "started_at",
            "finished_at",
            "work_campaign",
        )
    )
    questions = _answered_per_dialogue({row[0] for row in dialogues} | {row[4] for row in passes})
    items = [
        *_dialogue_items(dialogues, questions),
        *_pass_items(passes, questions),
        *_query_first_items(lo, hi, paid_people),
    ]
    return sorted(items, key=lambda item: (item.finished_at, item.kind, item.object_id))


def _answered_per_dialogue(dialogue_ids: set[int]) -> dict[int, int]:
    """Dialogue id → its answered questions as the log stands (dialogs.log.answered_questions, the bonus's count)."""
    events = (
        Event.objects.filter(dialogue_id__in=dialogue_ids, kind__in=QUESTION_KINDS)
        .order_by("dialogue_id", "seq")
        .only("dialogue_id", "seq", "kind", "payload")
    )
    return {
        dialogue_id: answered_questions(dialogue_turns(None, events=list(group)))
        for dialogue_id, group in groupby(events.iterator(chunk_size=2000), key=lambda event: event.dialogue_id)
    }


def _dialogue_items(rows: list[tuple], questions: dict[int, int]) -> list[WorkItem]:
    """Dialogues with a worker (their expert's) and solo sequences (their author's), timed from their logs."""
    events = (
        Event.objects.filter(dialogue_id__in=[row[0] for row in rows])
        .exclude(kind=EventKind.CORRECTION)
        .order_by("dialogue_id", "seq")
        .values_list("dialogue_id", "kind", "author_id", "created_at")
    )
    logs = {dialogue_id: list(group) for dialogue_id, group in groupby(events.iterator(), key=lambda row: row[0])}
    items = []
    for dialogue_id, mode, expert_id, db_id, incomplete, ended_at, campaign_id in rows:
        log = logs.get(dialogue_id, [])
        theirs = [index for index, (_, _, author, _) in enumerate(log) if author == expert_id]
        if not theirs:
            continue  # the expert never wrote to this log: no work of theirs to pay
        joins = [index for index in theirs if log[index][1] == EventKind.JOIN]
        first = joins[0] if joins else theirs[0]
        ends = [index for index, row in enumerate(log) if row[1] == EventKind.END]
        last = ends[-1] if ends else len(log) - 1
        scores = [index for index in theirs if log[index][1] == EventKind.SCORE]
        last = max([last, *scores])
        # An expert whose first record came after the end (they joined a dialogue already over) worked no time in it.
        moments = [row[3] for row in log[first : max(first, last) + 1]]
        solo = mode == DialogueMode.SOLO
        items.append(
            WorkItem(
                kind=WorkKind.SEQUENCE if solo else WorkKind.DIALOGUE,
                object_id=dialogue_id,
                person_id=expert_id,
                label=f"{'Solo sequence' if solo else 'Dialogue'} {dialogue_id} on {db_id}",
                campaign_id=campaign_id,
                finished_at=ended_at,
                seconds=active_seconds(moments),
                elapsed=round((moments[-1] - moments[0]).total_seconds()),
                # An item when it reached its minimum of answered questions: one ended below it is paid by its time.
                items=0 if incomplete else 1,
                questions=questions.get(dialogue_id, 0),
                dialogue_id=dialogue_id,
            )
        )
    return items


def _pass_items(rows: list[tuple], questions: dict[int, int]) -> list[WorkItem]:
    """Review passes, timed from the claim to the decision (or the pass let go) through the reviewer's corrections
    made in between. A pass counts as an item when it ended in a decision, or in sending the dialogue back to its
    author; a pass let go (released, or its claim taken by someone else after it expired) is paid by its time only."""
    corrections = (
        Event.objects.filter(
            kind=EventKind.CORRECTION,
            dialogue_id__in={row[4] for row in rows},
            author_id__in={row[2] for row in rows},
        )
        .order_by("dialogue_id", "author_id", "created_at")
        .values_list("dialogue_id", "author_id", "created_at")
    )
    made: dict[tuple[int, int], list[datetime]] = {}
    for dialogue_id, author_id, created_at in corrections:
        made.setdefault((dialogue_id, author_id), []).append(created_at)
    sent_back: dict[tuple[int, int, int], list[datetime]] = {}
    for review_id, number, reviewer_id, created_at in SendBack.objects.filter(
        review_id__in={row[3] for row in rows}
    ).values_list("review_id", "pass_number", "reviewer_id", "created_at"):
        sent_back.setdefault((review_id, number, reviewer_id), []).append(created_at)
    decided = (ReviewPass.Decision.APPROVED, ReviewPass.Decision.REJECTED)
    items = []
    for pass_id, number, reviewer_id, review_id, dialogue_id, decision, started, finished, campaign_id in rows:
        during = [moment for moment in made.get((dialogue_id, reviewer_id), ()) if started <= moment <= finished]
        sent = any(started <= moment <= finished for moment in sent_back.get((review_id, number, reviewer_id), ()))
        outcome = "sent back" if sent else ReviewPass.Decision(decision).label.lower()
        items.append(
            WorkItem(
                kind=WorkKind.REVIEW_PASS,
                object_id=pass_id,
                person_id=reviewer_id,
                label=f"Review pass {number} of dialogue {dialogue_id} ({outcome})",
                campaign_id=campaign_id,
                finished_at=finished,
                seconds=active_seconds([started, *during, finished]),
                elapsed=round((finished - started).total_seconds()),
                items=1 if decision in decided or sent else 0,
                questions=questions.get(dialogue_id, 0),
                dialogue_id=dialogue_id,
            )
        )
    return items


def _query_first_items(lo: datetime, hi: datetime, people) -> list[WorkItem]:
    """Query-first phases (docs/goals.md): phase 1's question (or skip) for its writer, phase 2's alignment for its
    aligner. The item records each phase's seconds and no moment in between: the phase is one gap, capped like any."""
    campaign = Subquery(
        WorkAssignment.objects.filter(query_first_item=OuterRef("pk"), deal__campaign__isnull=False).values(
            "deal__campaign_id"
        )[:1]
    )
    cap = settings.PAY_IDLE_GAP_SECONDS
    items = []
    written = (
        QueryFirstItem.objects.filter(written_at__gte=lo, written_at__lt=hi, writer__in=people)
        .exclude(stage=QueryFirstItem.Stage.WRITING)
        .values_list("id", "goal_id", "goal__database__db_id", "writer_id", "stage", "opened_at", "written_at")
        .annotate(work_campaign=campaign)
    )
    for item_id, goal_id, db_id, writer_id, stage, opened_at, written_at, campaign_id in written:
        seconds = max(0, round((written_at - opened_at).total_seconds()))
        done = stage in QueryFirstItem.WRITTEN
        items.append(
            WorkItem(
                kind=WorkKind.QUERY_FIRST_QUESTION,
                object_id=item_id,
                person_id=writer_id,
                label=f"Question for goal {goal_id} on {db_id}" + ("" if done else " (skipped)"),
                campaign_id=campaign_id,
                finished_at=written_at,
                seconds=min(seconds, cap),
                elapsed=seconds,
                # A skip is paid by its time only: no question came of it.
                items=1 if done else 0,
                questions=1 if done else 0,
            )
        )
    aligned = (
        QueryFirstItem.objects.filter(
            stage=QueryFirstItem.Stage.DONE, aligned_at__gte=lo, aligned_at__lt=hi, aligner__in=people
        )
        .values_list("id", "goal_id", "goal__database__db_id", "aligner_id", "aligning_seconds", "aligned_at")
        .annotate(work_campaign=campaign)
    )
    for item_id, goal_id, db_id, aligner_id, seconds, aligned_at, campaign_id in aligned:
        items.append(
            WorkItem(
                kind=WorkKind.QUERY_FIRST_ALIGNMENT,
                object_id=item_id,
                person_id=aligner_id,
                label=f"Alignment of goal {goal_id} on {db_id}",
                campaign_id=campaign_id,
                finished_at=aligned_at,
                seconds=min(seconds or 0, cap),
                elapsed=seconds or 0,
                items=1,
                questions=1,
            )
        )
    return items


# --- Rules and statements --------------------------------------------------------------------------------------------


def rule_for(rules: dict[tuple[int | None, str], PayRule], item: WorkItem) -> PayRule | None:
    """The rule that prices `item`: its campaign's for its role, else the default rule of its role, else none."""
    return rules.get((item.campaign_id, item.role)) or rules.get((None, item.role))


def rules_in_force() -> dict[tuple[int | None, str], PayRule]:
    """(campaign id or None, role) → the rule."""
    return {(rule.campaign_id, rule.role): rule for rule in PayRule.objects.all()}


def rule_amount(*, basis: str, rate: Decimal, item: WorkItem) -> Decimal:
    """What `item` earns at `rate` on `basis`, to the cent (half up): per hour of its counted time, per item, or per
    question. Each line is rounded, so a statement's total is the sum of the amounts it shows."""
    if basis == PayBasis.HOUR:
        raw = rate * Decimal(item.seconds) / Decimal(3600)
    elif basis == PayBasis.ITEM:
        raw = rate * item.items
    else:
        raw = rate * item.questions
    return raw.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class PaidBefore:
    """How a statement recorded earlier paid an item."""

    statement_id: int
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class StatementLine:
    """One item of work on a statement: its rule's basis, rate and currency and its amount (None: no rule prices it
    yet, so it is not owed), or the statement that paid it already (`paid`)."""

    work: WorkItem
    campaign_name: str
    basis: str | None = None
    rate: Decimal | None = None
    currency: str | None = None
    amount: Decimal | None = None
    paid: PaidBefore | None = None

    @property
    def state(self) -> str:
        """ "paid" (by an earlier statement), "unpriced" (no rule) or "owed"."""
        if self.paid is not None:
            return "paid"
        return "unpriced" if self.amount is None else "owed"

    @property
    def duration(self) -> str:
        return duration_text(self.work.seconds)

    @property
    def hours(self) -> Decimal:
        return (Decimal(self.work.seconds) / Decimal(3600)).quantize(CENT, rounding=ROUND_HALF_UP)

    @property
    def basis_label(self) -> str:
        return PayBasis(self.basis).label if self.basis else ""


@dataclass(frozen=True)
class Statement:
    """One person's work in a period (`start` to `end`, both days included), each item priced by its rule."""

    person: User
    start: date
    end: date
    lines: tuple[StatementLine, ...]

    @property
    def owed(self) -> list[StatementLine]:
        return [line for line in self.lines if line.state == "owed"]

    @property
    def unpriced(self) -> list[StatementLine]:
        return [line for line in self.lines if line.state == "unpriced"]

    @property
    def paid(self) -> list[StatementLine]:
        return [line for line in self.lines if line.state == "paid"]

    @property
    def totals(self) -> dict[str, Decimal]:
        """Currency → the total owed in it (rules may name different currencies)."""
        return currency_totals((line.currency, line.amount) for line in self.owed)

    @property
    def seconds(self) -> int:
        return sum(line.work.seconds for line in self.owed)

    @property
    def duration(self) -> str:
        return duration_text(self.seconds)

    @property
    def digest(self) -> str:
        """A fingerprint of what would be recorded as paid: the person, the period and every owed line as priced. The
        statement page carries it in its "record as paid" form: only the lines the page showed are recorded."""
        content = [
            self.person.pk,
            self.start.isoformat(),
            self.end.isoformat(),
            [
                [line.work.kind, line.work.object_id, line.work.seconds, line.work.items, line.work.questions]
                + [line.basis, str(line.rate), line.currency, str(line.amount)]
                for line in self.owed
            ],
        ]
        return hashlib.sha256(json.dumps(content).encode()).hexdigest()


def currency_totals(amounts: Iterable[tuple[str, Decimal]]) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = {}
    for currency, amount in amounts:
        totals[currency] = totals.get(currency, Decimal("0.00")) + amount
    return dict(sorted(totals.items()))


def statements(start: date, end: date, people: Iterable[User] | None = None) -> dict[int, Statement]:
    """Person id → their statement for the period, for `people` (everyone paid with work in the period when None):
    each item of work with the rule in force now, or the statement that paid it already. A fixed number of queries,
    however many people and items."""
    chosen = None if people is None else {person.pk: person for person in people}
    work = work_items(start, end, None if chosen is None else list(chosen))
    rules = rules_in_force()
    paid = _paid_before(work)
    names = dict(Campaign.objects.filter(pk__in={item.campaign_id for item in work}).values_list("pk", "name"))
    persons = chosen if chosen is not None else User.objects.in_bulk({item.person_id for item in work})
    lines: dict[int, list[StatementLine]] = {pk: [] for pk in persons}
    for item in work:
        name = names.get(item.campaign_id, "")
        before = paid.get(item.key)
        rule = rule_for(rules, item)
        if before is not None:
            line = StatementLine(item, name, paid=before)
        elif rule is None:
            line = StatementLine(item, name)
        else:
            amount = rule_amount(basis=rule.basis, rate=rule.rate, item=item)
            line = StatementLine(item, name, rule.basis, rule.rate, rule.currency, amount)
        lines[item.person_id].append(line)
    return {
        pk: Statement(person=persons[pk], start=start, end=end, lines=tuple(lines[pk]))
        for pk in sorted(persons, key=lambda pk: persons[pk].username)
    }


def statement_of(person: User, start: date, end: date) -> Statement:
    """`person`'s statement for the period (`statements` for one person)."""
    return statements(start, end, [person])[person.pk]


def _paid_before(work: list[WorkItem]) -> dict[tuple[str, int], PaidBefore]:
    """(kind, id) → how a recorded statement paid it, for the items of `work` that one did. One query."""
    if not work:
        return {}
    wanted = Q()
    for kind, ids in groupby(sorted(item.key for item in work), key=lambda key: key[0]):
        wanted |= Q(kind=kind, object_id__in=[object_id for _, object_id in ids])
    return {
        (kind, object_id): PaidBefore(statement_id, amount, currency)
        for kind, object_id, statement_id, amount, currency in PayStatementItem.objects.filter(wanted).values_list(
            "kind", "object_id", "statement_id", "amount", "currency"
        )
    }


def statements_recorded(person: User | None = None):
    """Recorded statements, newest first (of `person`, or everyone's), with whom they paid and who recorded them."""
    recorded = PayStatement.objects.select_related("person", "paid_by")
    return recorded.filter(person=person) if person is not None else recorded
