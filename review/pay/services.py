"""Writes of pay (docs/pay.md): the rules an admin sets, and a person's statement recorded as paid, once.

A statement is recorded the way crowd bonus payouts are (review.payments.services.bonus_payout_record): only while
what is owed is what the page showed (its digest), under a lock, and each item of work in one recorded statement at
most (the database's key), so an item is never paid again in a later or overlapping period.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from annotation.models import User
from annotation.people.roles import can
from dialogs.models import Campaign
from review.pay.models import PayBasis, PayRole, PayRule, PayStatement, PayStatementItem
from review.pay.selectors import Statement, StatementLine, statement_of
from review.payments.csv_files import csv_text

MANAGE_PERMISSION = "pay.manage"
RATE_MAX = Decimal("999999.99")


class PayRefused(Exception):
    """A pay action refused. `code`: "forbidden", "invalid", "already" (recorded before, as `statement`), "changed"
    (what is owed is not what the page showed any more), "nothing" (nothing is owed); `message` is for the person."""

    def __init__(self, code: str, message: str, statement: PayStatement | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.statement = statement


def _manager(person: User) -> None:
    if not can(person, MANAGE_PERMISSION):
        raise PayRefused("forbidden", gettext("Only an admin sets pay rules and records statements as paid."))


def pay_rule_save(
    *, by: User, role: str, basis: str, rate: Decimal, currency: str, campaign: Campaign | None = None
) -> PayRule:
    """Set how `role` is paid in `campaign` (None: the default rule, for work of no campaign and for campaigns without
    a rule of their own): `rate` in `currency` per hour, item or question. Replaces the rule there was. Statements
    recorded before keep what they paid; the items not paid yet are priced by the new rule."""
    _manager(by)
    currency = (currency or "").strip().upper()
    if role not in PayRole.values:
        raise PayRefused("invalid", gettext("%(role)r is not a role that is paid.") % {"role": role})
    if basis not in PayBasis.values:
        raise PayRefused(
            "invalid", gettext("%(basis)r is not a way to pay (per hour, item or question).") % {"basis": basis}
        )
    if not re.fullmatch(r"[A-Z]{3}", currency):
        raise PayRefused("invalid", gettext("The currency is a three-letter code such as GBP or USD."))
    if not isinstance(rate, Decimal) or not rate.is_finite() or not Decimal(0) <= rate <= RATE_MAX:
        raise PayRefused("invalid", gettext("The rate is an amount from 0 to %(max)s.") % {"max": RATE_MAX})
    with transaction.atomic():
        rule, _ = PayRule.objects.select_for_update().update_or_create(
            campaign=campaign,
            role=role,
            defaults={"basis": basis, "rate": rate.quantize(Decimal("0.01")), "currency": currency, "updated_by": by},
        )
    return rule


def pay_rule_remove(*, by: User, rule: PayRule) -> None:
    """Remove a rule: its campaign's work is priced by the default rule again (or by none, for a default rule)."""
    _manager(by)
    PayRule.objects.filter(pk=rule.pk).delete()


# --- The statement's file --------------------------------------------------------------------------------------------

STATEMENT_HEADER = [
    "person",
    "period_start",
    "period_end",
    "statement",
    "finished_at",
    "work",
    "kind",
    "id",
    "campaign",
    "seconds",
    "hours",
    "items",
    "questions",
    "basis",
    "rate",
    "currency",
    "amount",
]


def statement_csv(
    *, person: User, start: date, end: date, lines: list[StatementLine], statement_id: int | None = None
) -> str:
    """The statement as CSV: one row per item it pays (owed now, or paid by statement `statement_id`), then one total
    row per currency. Every cell through `spreadsheet_cell` (review.payments.csv_files): a username or a campaign name
    that looks like a formula reaches the spreadsheet as text."""
    common = [person.username, start.isoformat(), end.isoformat(), statement_id or ""]
    rows = [
        [
            *common,
            line.work.finished_at.isoformat(),
            line.work.label,
            line.work.kind,
            line.work.object_id,
            line.campaign_name,
            line.work.seconds,
            f"{line.hours:.2f}",
            line.work.items,
            line.work.questions,
            line.basis,
            f"{line.rate:.2f}",
            line.currency,
            f"{line.amount:.2f}",
        ]
        for line in lines
    ]
    totals: dict[str, Decimal] = {}
    for line in lines:
        totals[line.currency] = totals.get(line.currency, Decimal("0.00")) + line.amount
    for currency, total in sorted(totals.items()):
        rows.append([*common, "", "Total", "", "", "", "", "", "", "", "", "", currency, f"{total:.2f}"])
    return csv_text(rows, STATEMENT_HEADER)


# --- Recording a statement as paid -----------------------------------------------------------------------------------


def pay_statement_record(*, by: User, person: User, start: date, end: date, digest: str) -> PayStatement:
    """Record that the admin `by` paid `person`'s statement for the period, as the page showed it (`digest`): the
    statement, each item it paid with its time, count, rule and amount, and the file as it is now. Those items are
    never owed again, in this period or any other. Refused (PayRefused) when the owed lines are not those any more: a
    second click finds the statement of the first ("already"); a rule changed, a pass was decided or another
    statement paid some of the items in between ("changed"). Recordings for one person take turns (a lock on their
    row), and an item is in one statement at most (the database's key), so two clicks at the same instant record one
    statement."""
    _manager(by)
    statement: Statement | None = None
    try:
        with transaction.atomic():
            User.objects.select_for_update().get(pk=person.pk)
            statement = statement_of(person, start, end)
            if statement.owed and statement.digest == digest:
                return _statement_create(statement, digest, by)
    except IntegrityError:  # another recording paid one of these items first
        statement = None
    earlier = PayStatement.objects.filter(digest=digest).first()
    if earlier is not None:
        raise PayRefused(
            "already",
            gettext("This statement is already recorded as paid (statement %(number)s).") % {"number": earlier.pk},
            earlier,
        )
    if statement is not None and not statement.owed:
        raise PayRefused("nothing", gettext("Nothing is owed for this period any more: there is nothing to record."))
    raise PayRefused(
        "changed",
        gettext(
            "What is owed has changed since the page was shown (a rule changed, work finished or another statement "
            "was recorded): nothing was recorded. Check the statement again."
        ),
    )


def _statement_create(statement: Statement, digest: str, by: User) -> PayStatement:
    owed = statement.owed
    recorded = PayStatement.objects.create(
        person=statement.person,
        start=statement.start,
        end=statement.end,
        totals={currency: f"{total:.2f}" for currency, total in statement.totals.items()},
        digest=digest,
        csv_text="",
        paid_by=by,
    )
    recorded.csv_text = statement_csv(
        person=statement.person, start=statement.start, end=statement.end, lines=owed, statement_id=recorded.pk
    )
    recorded.save(update_fields=["csv_text"])
    PayStatementItem.objects.bulk_create(
        PayStatementItem(
            statement=recorded,
            kind=line.work.kind,
            object_id=line.work.object_id,
            role=line.work.role,
            label=line.work.label,
            campaign_name=line.campaign_name,
            finished_at=line.work.finished_at,
            seconds=line.work.seconds,
            items=line.work.items,
            questions=line.work.questions,
            basis=line.basis,
            rate=line.rate,
            currency=line.currency,
            amount=line.amount,
        )
        for line in owed
    )
    return recorded
