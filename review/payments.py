"""What a campaign owes its crowd workers, as the files the platforms take: the completion codes with how each task
ended, and the bonuses. The bonus rule is here, in review, because a dialogue rejected in review earns none. The
layouts and why they are so: docs/crowd.md, "Payment files".
"""

import csv
import io
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from itertools import groupby

from dialogs.log import answered_questions, dialogue_turns
from dialogs.models import (
    ENDED_STATUSES,
    Campaign,
    CrowdPlatform,
    Dialogue,
    DialogueStatus,
    Event,
    EventKind,
    LobbyEntry,
)
from review.models import ReviewStage

# The events a question's standing is read from (its acts, its answer, a drop, a reviewer's correction of those):
# what `answered_questions` reads. Result tables, the bulk of a log, are left in the database.
_QUESTION_KINDS = (EventKind.UTTERANCE, EventKind.USER_ACTS, EventKind.RESPONSE, EventKind.DROP, EventKind.CORRECTION)


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
    """What one worker earned in one study (Prolific) or HIT (MTurk) of a campaign."""

    platform: str
    external_id: str
    batch_id: str
    session_id: str  # the newest task of theirs that earned it (MTurk pays a bonus against an assignment)
    dialogues: int  # ended dialogues
    earning: int  # of those, the ones that earn the bonus
    amount: Decimal
    reason: str


def dialogue_good_questions(*, status: str, review_stage: str | None, answered: int, after_review: bool) -> int:
    """The good questions of an ended dialogue, the bonus rule's measure: answered, not dropped (both as the room
    counts them), in a dialogue neither dropped by its expert's score nor rejected in review (nor, with
    `after_review`, waiting for review)."""
    if status == DialogueStatus.DROPPED or review_stage == ReviewStage.REJECTED:
        return 0
    if after_review and review_stage != ReviewStage.APPROVED:
        return 0
    return answered


def campaign_bonuses(campaign: Campaign) -> list[BonusRow]:
    """The campaign's bonus list: per worker and study/HIT, the ended dialogues, those with at least
    `bonus_min_questions` good questions, and what they earn (`bonus_amount` each). Rows earning nothing are kept,
    with 0 (the list shows who did not qualify); the platform files leave them out. Three queries, whatever the
    number of dialogues."""
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
        )
    )
    answered = _answered_per_dialogue([row[0] for row in dialogues])
    per_worker: dict[tuple, list] = {}
    for dialogue_id, status, stage, platform, external_id, batch_id, session_id in dialogues:
        good = dialogue_good_questions(
            status=status,
            review_stage=stage,
            answered=answered.get(dialogue_id, 0),
            after_review=campaign.bonus_after_review,
        )
        entry = per_worker.setdefault((platform, external_id, batch_id), [0, 0, ""])
        entry[0] += 1
        if good >= campaign.bonus_min_questions:
            entry[1] += 1
            entry[2] = session_id  # dialogues in id order: the newest earning one's task is kept
    rows = []
    for (platform, external_id, batch_id), (count, earning, session_id) in sorted(per_worker.items()):
        amount = (campaign.bonus_amount * earning).quantize(Decimal("0.01"))
        rows.append(
            BonusRow(
                platform=platform,
                external_id=external_id,
                batch_id=batch_id,
                session_id=session_id,
                dialogues=count,
                earning=earning,
                amount=amount,
                reason=bonus_reason(campaign, earning) if amount else "",
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
        Event.objects.filter(dialogue_id__in=dialogue_ids, kind__in=_QUESTION_KINDS)
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
BONUS_LIST_HEADER = ["platform", "external_id", "study_or_hit_id", "dialogues", "bonus_dialogues", "amount", "reason"]
# The names of MTurk's SendBonus parameters, so that each row is one call (docs/crowd.md).
MTURK_BONUS_HEADER = ["WorkerId", "AssignmentId", "BonusAmount", "Reason", "UniqueRequestToken"]


def _csv(rows: list[list], header: list[str] | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if header:
        writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def completions_csv(rows: list[CompletionRow]) -> str:
    return _csv(
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
    """Every worker of the campaign with their dialogues and bonus: the platform-neutral list, for people."""
    return _csv(
        [
            [row.platform, row.external_id, row.batch_id, row.dialogues, row.earning, f"{row.amount:.2f}", row.reason]
            for row in rows
        ],
        BONUS_LIST_HEADER,
    )


def prolific_bonus_csv(rows: list[BonusRow]) -> str:
    """Prolific's bulk bonus: one `participant_id,amount` line per participant, no header, the amount in the study's
    currency with two decimals. Only Prolific workers who earned something."""
    return _csv(
        [
            [row.external_id, f"{row.amount:.2f}"]
            for row in rows
            if row.platform == CrowdPlatform.PROLIFIC and row.amount
        ]
    )


def mturk_bonus_csv(rows: list[BonusRow], campaign: Campaign) -> str:
    """MTurk bonuses, one row per SendBonus call. The request token repeats for the same campaign, assignment and
    number of earning dialogues, so sending a file twice pays once (MTurk refuses a token it has just seen)."""
    return _csv(
        [
            [
                row.external_id,
                row.session_id,
                f"{row.amount:.2f}",
                row.reason,
                f"wozsql-{campaign.pk}-{row.session_id}-{row.earning}",
            ]
            for row in rows
            if row.platform == CrowdPlatform.MTURK and row.amount
        ],
        MTURK_BONUS_HEADER,
    )
