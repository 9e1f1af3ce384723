"""What a campaign owes its crowd workers, as the files the platforms take: the completion codes with how each task
ended, and the bonuses; and the record of the bonuses paid, so that none is paid twice. The bonus rule is here, in
review, because a dialogue rejected in review earns none. The layouts and why they are so: docs/crowd.md, "Bonuses
and the payment files" and "Recording what was paid".
"""

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from itertools import groupby

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from annotation.models import User
from dialogs.log import QUESTION_KINDS, answered_questions, dialogue_turns
from dialogs.models import (
    ENDED_STATUSES,
    Campaign,
    CrowdPlatform,
    Dialogue,
    DialogueStatus,
    Event,
    LobbyEntry,
)
from review.models import BonusPaidDialogue, BonusPayout, BonusPayoutRow, ReviewStage
from review.payments.csv_files import csv_text


@dataclass(frozen=True)
class CompletionRow:
    """One completion code a crowd worker was given: for a dialogue, or for a wait that ended without one."""

    platform: str
    external_id: str
    batch_id: str
    session_id: str
    dialogue_id: int | None
    outcome: str
    code: str
    ended_at: datetime | None


def campaign_completions(campaign: Campaign) -> list[CompletionRow]:
    """Every completion code given in the campaign, by worker and time: dialogues (completed, abandoned, terminated,
    dropped) and lobby waits (released after the wait limit, or no goal left). Two queries."""
    rows = []
    dialogues = (
        Dialogue.objects.filter(crowd_assignment__campaign=campaign)
        .exclude(completion_code="")
        .values_list(
            "crowd_assignment__crowd_worker__platform",
            "crowd_assignment__crowd_worker__external_id",
            "crowd_assignment__batch_id",
            "crowd_assignment__session_id",
            "id",
            "status",
            "completion_code",
            "ended_at",
        )
    )
    rows.extend(CompletionRow(*row) for row in dialogues)
    waits = (
        LobbyEntry.objects.filter(crowd_assignment__campaign=campaign)
        .exclude(completion_code="")
        .values_list(
            "crowd_assignment__crowd_worker__platform",
            "crowd_assignment__crowd_worker__external_id",
            "crowd_assignment__batch_id",
            "crowd_assignment__session_id",
            "outcome",
            "completion_code",
            "ended_at",
        )
    )
    rows.extend(CompletionRow(p, e, b, s, None, outcome, code, at) for p, e, b, s, outcome, code, at in waits)
    return sorted(rows, key=lambda row: (row.platform, row.external_id, row.ended_at or datetime.min, row.code))


@dataclass(frozen=True)
class BonusRow:
    """What one worker earned in one study (Prolific) or HIT (MTurk) of a campaign, and what of it is still owed."""

    platform: str
    external_id: str
    batch_id: str
    session_id: str  # the newest task with an owed dialogue (MTurk pays a bonus against an assignment)
    dialogues: int  # ended dialogues
    earning: int  # of those, the ones that earn the bonus (paid or not)
    amount: Decimal  # owed: the earning dialogues not paid yet, `bonus_amount` each
    reason: str
    owed: tuple[int, ...] = ()  # the ids of those dialogues, oldest first
    paid: Decimal = Decimal("0.00")  # paid in earlier payouts
    # Paid, but no longer earning (rejected in review or dropped after the payout): (dialogue id, payout id) pairs.
    paid_in_error: tuple[tuple[int, int], ...] = ()


def dialogue_good_questions(*, status: str, review_stage: str | None, answered: int, after_review: bool) -> int:
    """The good questions of an ended dialogue, the bonus rule's measure: answered, not dropped (both as the room
    counts them), in a dialogue neither dropped by its expert's score nor rejected in review (nor, with
    `after_review`, waiting for review)."""
    if status == DialogueStatus.DROPPED or review_stage == ReviewStage.REJECTED:
        return 0
    if after_review and review_stage != ReviewStage.APPROVED:
        return 0
    return answered


@dataclass
class _Tally:
    """One worker's dialogues in one study or HIT, as `campaign_bonuses` adds them up."""

    dialogues: int = 0
    earning: int = 0
    owed: list[int] = field(default_factory=list)
    session_id: str = ""
    paid_rows: dict[int, Decimal] = field(default_factory=dict)  # payout row → its amount
    paid_in_error: list[tuple[int, int]] = field(default_factory=list)


def campaign_bonuses(campaign: Campaign) -> list[BonusRow]:
    """The campaign's bonus list: per worker and study/HIT, the ended dialogues, those with at least
    `bonus_min_questions` good questions, and what is owed: `bonus_amount` for each of those not paid yet (a dialogue
    is paid once, by the payout that recorded it, at that payout's amount). Rows owing nothing are kept, with 0
    (the list shows who did not qualify, or was paid); the platform files leave them out. A dialogue paid that no
    longer earns (rejected in review, or dropped, after its payout) is listed as paid in error. Two queries, whatever
    the number of dialogues."""
    dialogues = list(
        Dialogue.objects.filter(crowd_assignment__campaign=campaign, status__in=ENDED_STATUSES)
        .order_by("id")
        .values_list(
            "id",
            "status",
            "review__stage",
            "crowd_assignment__crowd_worker__platform",
            "crowd_assignment__crowd_worker__external_id",
            "crowd_assignment__batch_id",
            "crowd_assignment__session_id",
            "bonus_paid__row_id",
            "bonus_paid__row__amount",
            "bonus_paid__row__payout_id",
        )
    )
    answered = _answered_per_dialogue([row[0] for row in dialogues])
    per_worker: dict[tuple, _Tally] = {}
    for dialogue_id, status, stage, platform, external_id, batch_id, session_id, paid_row, paid, payout in dialogues:
        tally = per_worker.setdefault((platform, external_id, batch_id), _Tally())
        tally.dialogues += 1
        if paid_row is not None:
            tally.paid_rows[paid_row] = paid  # a row paid for all its dialogues at once
        good = dialogue_good_questions(
            status=status,
            review_stage=stage,
            answered=answered.get(dialogue_id, 0),
            after_review=campaign.bonus_after_review,
        )
        if campaign.bonus_earned(good):
            tally.earning += 1
            if paid_row is None:
                tally.owed.append(dialogue_id)
                tally.session_id = session_id  # dialogues in id order: the newest owed one's task is kept
        elif paid_row is not None and (status == DialogueStatus.DROPPED or stage == ReviewStage.REJECTED):
            # Paid, then rejected or dropped: not owed back by the platform, but the admin must see it. (A paid
            # dialogue merely waiting for review again, after a reopening, is not an error yet.)
            tally.paid_in_error.append((dialogue_id, payout))
    rows = []
    for (platform, external_id, batch_id), tally in sorted(per_worker.items()):
        amount = (campaign.bonus_amount * len(tally.owed)).quantize(Decimal("0.01"))
        rows.append(
            BonusRow(
                platform=platform,
                external_id=external_id,
                batch_id=batch_id,
                session_id=tally.session_id,
                dialogues=tally.dialogues,
                earning=tally.earning,
                amount=amount,
                reason=bonus_reason(campaign, len(tally.owed)) if amount else "",
                owed=tuple(tally.owed) if amount else (),
                paid=sum(tally.paid_rows.values(), Decimal("0.00")),
                paid_in_error=tuple(tally.paid_in_error),
            )
        )
    return rows


def bonus_reason(campaign: Campaign, earning: int) -> str:
    """The reason sent with a bonus (MTurk shows it to the worker): the campaign's own words, else the rule."""
    if campaign.bonus_reason:
        return campaign.bonus_reason
    dialogues = "dialogue" if earning == 1 else "dialogues"
    return f"Bonus for {earning} {dialogues} with at least {campaign.bonus_min_questions} good related questions."


def _answered_per_dialogue(dialogue_ids: list[int]) -> dict[int, int]:
    """Dialogue id → its answered questions (`dialogs.log.answered_questions`), from one streamed read of the logs."""
    events = (
        Event.objects.filter(dialogue_id__in=dialogue_ids, kind__in=QUESTION_KINDS)
        .order_by("dialogue_id", "seq")
        .only("dialogue_id", "seq", "kind", "payload")
    )
    return {
        dialogue_id: answered_questions(dialogue_turns(None, events=list(group)))
        for dialogue_id, group in groupby(events.iterator(chunk_size=2000), key=lambda event: event.dialogue_id)
    }


# --- The files -------------------------------------------------------------------------------------------------------

COMPLETIONS_HEADER = [
    "platform",
    "external_id",
    "study_or_hit_id",
    "session_or_assignment_id",
    "dialogue",
    "outcome",
    "completion_code",
    "ended_at",
]
BONUS_LIST_HEADER = [
    "platform",
    "external_id",
    "study_or_hit_id",
    "dialogues",
    "bonus_dialogues",
    "amount",
    "currency",
    "reason",
    "paid",
    "paid_in_error",
]
# The names of MTurk's SendBonus parameters, so that each row is one call (docs/crowd.md).
MTURK_BONUS_HEADER = ["WorkerId", "AssignmentId", "BonusAmount", "Reason", "UniqueRequestToken"]


def completions_csv(rows: list[CompletionRow]) -> str:
    return csv_text(
        [
            [
                row.platform,
                row.external_id,
                row.batch_id,
                row.session_id,
                row.dialogue_id or "",
                row.outcome,
                row.code,
                row.ended_at.isoformat() if row.ended_at else "",
            ]
            for row in rows
        ],
        COMPLETIONS_HEADER,
    )


def bonus_list_csv(rows: list[BonusRow]) -> str:
    """Every worker of the campaign with their dialogues and bonus: the platform-neutral list, for people. `amount`
    is what is owed now (as the platform files have it), `paid` what earlier payouts paid, both in `currency`
    (BONUS_CURRENCY), `paid_in_error` the dialogues among those paid that earn no bonus any more (rejected in review
    or dropped after their payout)."""
    return csv_text(
        [
            [
                row.platform,
                row.external_id,
                row.batch_id,
                row.dialogues,
                row.earning,
                f"{row.amount:.2f}",
                settings.BONUS_CURRENCY,
                row.reason,
                f"{row.paid:.2f}",
                paid_in_error_text(row.paid_in_error),
            ]
            for row in rows
        ],
        BONUS_LIST_HEADER,
    )


def paid_in_error_text(pairs) -> str:
    """Dialogues paid in error as a person reads them: "dialogue 12 (payout 3); dialogue 15 (payout 3)"."""
    return "; ".join(f"dialogue {dialogue_id} (payout {payout_id})" for dialogue_id, payout_id in pairs)


def prolific_bonus_csv(rows: list[BonusRow]) -> str:
    """Prolific's bulk bonus: one `participant_id,amount` line per participant, no header, the amount in the study's
    currency with two decimals. Only Prolific workers who earned something."""
    return csv_text(
        [
            [row.external_id, f"{row.amount:.2f}"]
            for row in rows
            if row.platform == CrowdPlatform.PROLIFIC and row.amount
        ]
    )


def mturk_bonus_csv(rows: list[BonusRow], campaign: Campaign) -> str:
    """MTurk bonuses, one row per SendBonus call. The request token names the campaign and the row's first owed
    dialogue, which no other payout's row can hold (a dialogue is paid once): a file sent twice, or a later one that
    holds the same unpaid bonus again, is refused by MTurk for a day rather than paid twice."""
    return csv_text(
        [
            [
                row.external_id,
                row.session_id,
                f"{row.amount:.2f}",
                row.reason,
                f"wozsql-{campaign.pk}-{row.owed[0]}",
            ]
            for row in rows
            if row.platform == CrowdPlatform.MTURK and row.amount
        ],
        MTURK_BONUS_HEADER,
    )


def bonus_file(campaign: Campaign, platform: str, rows: list[BonusRow]) -> str:
    """The platform's bonus file of `rows` (Prolific's bulk bonus lines, or MTurk's SendBonus rows)."""
    if platform == CrowdPlatform.PROLIFIC:
        return prolific_bonus_csv(rows)
    return mturk_bonus_csv(rows, campaign)


# --- Recording what was paid -----------------------------------------------------------------------------------------


def bonus_owed(campaign: Campaign, *, platform: str, batch_id: str = "") -> list[BonusRow]:
    """The rows a platform's bonus file holds now (`owed_rows` of the campaign's bonus list)."""
    return owed_rows(campaign_bonuses(campaign), platform=platform, batch_id=batch_id)


def owed_rows(rows: list[BonusRow], *, platform: str, batch_id: str = "") -> list[BonusRow]:
    """Of a bonus list, the rows a platform's bonus file holds: the workers of `platform` owed something, in one
    study or HIT (`batch_id`), or in all of them (empty)."""
    return [
        row for row in rows if row.platform == platform and row.amount and (not batch_id or row.batch_id == batch_id)
    ]


def bonus_digest(campaign: Campaign, platform: str, batch_id: str, rows: list[BonusRow]) -> str:
    """A fingerprint of a bonus file's rows: every value the file is written from, with the dialogues each row pays
    for. The payments page carries it in its "mark paid" form and download links: a file is recorded as paid only
    while the rows are still those the page showed."""
    content = [
        campaign.pk,
        platform,
        batch_id,
        [
            [row.external_id, row.batch_id, row.session_id, list(row.owed), f"{row.amount:.2f}", row.reason]
            for row in rows
        ],
    ]
    return hashlib.sha256(json.dumps(content).encode()).hexdigest()


class PayoutRefused(Exception):
    """A bonus file that cannot be recorded as paid. `code`: "already" (recorded before, as `payout`), "changed"
    (the owed rows are not those shown any more), "nothing" (nothing is owed); `message` is for the admin."""

    def __init__(self, code: str, message: str, payout: BonusPayout | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.payout = payout


def bonus_payout_record(*, campaign: Campaign, platform: str, batch_id: str, digest: str, by: User) -> BonusPayout:
    """Record that the admin `by` paid the bonus file whose rows have `digest` (uploaded to Prolific, or sent to
    MTurk): the payout, its rows and the dialogues each row paid, with the file as it was. Those dialogues are never
    owed again. Refused (PayoutRefused) when the owed rows are not those any more: a second click finds the payout
    of the first ("already"); a review that decided in between, or another admin's payout, changed them ("changed").
    Recordings of one campaign take turns (a lock on its row), and a dialogue can be in one payout only (the
    database's key), so two clicks at the same instant record one payout."""
    rows: list[BonusRow] = []
    try:
        with transaction.atomic():
            Campaign.objects.select_for_update().get(pk=campaign.pk)
            rows = bonus_owed(campaign, platform=platform, batch_id=batch_id)
            if rows and bonus_digest(campaign, platform, batch_id, rows) == digest:
                return _payout_create(campaign, platform, batch_id, digest, rows, by)
    except IntegrityError:  # another recording paid one of these dialogues first
        pass
    earlier = BonusPayout.objects.filter(digest=digest).first()
    if earlier is not None:
        raise PayoutRefused(
            "already",
            gettext("This file is already recorded as paid (payout %(number)s).") % {"number": earlier.pk},
            earlier,
        )
    if not rows:
        raise PayoutRefused("nothing", gettext("Nothing is owed in this file any more: there is nothing to record."))
    raise PayoutRefused(
        "changed",
        gettext(
            "The bonuses owed have changed since the page was shown (a review decided, or a payout was recorded): "
            "nothing was recorded. Download the file again before you pay it."
        ),
    )


def _payout_create(campaign, platform, batch_id, digest, rows: list[BonusRow], by) -> BonusPayout:
    payout = BonusPayout.objects.create(
        campaign=campaign,
        platform=platform,
        batch_id=batch_id,
        paid_by=by,
        total=sum((row.amount for row in rows), Decimal("0.00")),
        digest=digest,
        file_text=bonus_file(campaign, platform, rows),
    )
    paid_rows = BonusPayoutRow.objects.bulk_create(
        BonusPayoutRow(
            payout=payout,
            external_id=row.external_id,
            batch_id=row.batch_id,
            session_id=row.session_id,
            amount=row.amount,
            reason=row.reason,
        )
        for row in rows
    )
    BonusPaidDialogue.objects.bulk_create(
        BonusPaidDialogue(dialogue_id=dialogue_id, row=paid_row)
        for paid_row, row in zip(paid_rows, rows, strict=True)
        for dialogue_id in row.owed
    )
    return payout
