"""Worker quality: what each dialogue says about its worker, the worker's profile and quality score, and the rules that
block a worker (CoSQL section 3, "User quality control"; the README's "Worker quality" gives the formula and rules).

The writes, and when they happen (no nightly batch):

- a dialogue's DialogueQuality row is folded from its log (`dialogs.log`, at its latest revision) when it ends
  (`dialogs.signals.dialogue_ended`, after commit), again when it is scored (`dialogue_scored`, inside the scoring
  transaction) and when review decides it or reopens it (`review.signals.review_decided`, after commit);
- each time, its worker's WorkerQuality row is rebuilt from their DialogueQuality rows (one query: a page never
  replays a log), with the quality score (`quality_score`, the one place of the formula);
- then the blocking rules (`rule_crossed`) run on the worker's dialogues since their last unblock, and a rule that
  is crossed blocks them through `annotation.people.services.person_set_blocked`, with the rule and the evidence.

A row that was missed (a dialogue that ended before this existed, a refresh that failed after its commit) is folded
the next time its worker is refreshed; `manage.py quality_refresh` rebuilds every row.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from statistics import median

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext, gettext_noop, ngettext

from annotation.labels.acts import SOCIAL_USER_ACTS
from annotation.labels.tokens import utterance_toks
from annotation.models import BlockRecord, Role, User
from annotation.people.services import person_set_blocked
from dialogs.log import TURN_KINDS, DialogueRecord, answered_questions, dialogue_turns
from dialogs.models import ENDED_STATUSES, Dialogue, DialogueStatus, EventKind, score_drops
from review.models import DialogueQuality, DialogueReview, RejectFault, ReviewStage, WorkerQuality
from review.records import dialogue_records

logger = logging.getLogger(__name__)

# User acts that say the worker was not asking about the database, or could not be understood (CoSQL appendix A.1).
OFF_TASK_ACTS = frozenset({"NOT_RELATED", "CANNOT_UNDERSTAND"})

# A question whose words (lower-cased, punctuation left out) match an earlier question of the same dialogue this
# closely is a near-duplicate: "how many students are there" and "How many students are there?" are; "how many
# students" and "how many teachers" (0.67) are not.
NEAR_DUPLICATE_SIMILARITY = 0.9

# The quality score's parts and their weights (out of 100). Each part is a value from 0 (worst) to 1 (best); a part
# the worker has nothing to be judged on yet (no score, no question, no dialogue decided in review) is left out and
# the others share its weight. The README's "Worker quality" states the same formula.
QUALITY_WEIGHTS = {
    "expert_score": 40,  # (mean expert score - 1) / 4
    "drop": 20,  # 1 - DROP turns per question
    "off_task": 10,  # 1 - NOT_RELATED / CANNOT_UNDERSTAND turns per question
    "near_duplicates": 10,  # 1 - near-duplicate questions per question
    "finished": 10,  # 1 - dialogues abandoned while away or terminated, per dialogue
    "review": 10,  # 1 - dialogues rejected in review, per dialogue decided in review
}


def _complement(rate: float | None) -> float | None:
    return None if rate is None else 1 - min(rate, 1.0)


def quality_parts(profile: WorkerQuality) -> dict[str, float | None]:
    """The value (0 to 1, or None when there is nothing to judge by) of each part of the quality score."""
    return {
        "expert_score": None if profile.score_mean is None else (profile.score_mean - 1) / 4,
        "drop": _complement(profile.drop_rate),
        "off_task": _complement(profile.off_task_rate),
        "near_duplicates": _complement(profile.duplicate_rate),
        "finished": _complement(profile.unfinished_rate),
        "review": _complement(profile.rejected_rate),
    }


def quality_score(profile: WorkerQuality) -> float | None:
    """The worker's quality, 0-100 (one decimal): the weighted mean of the parts that can be judged; None before the
    worker has held a dialogue. The one place of the formula."""
    judged = {name: value for name, value in quality_parts(profile).items() if value is not None}
    if not judged:
        return None
    weight = sum(QUALITY_WEIGHTS[name] for name in judged)
    return round(100 * sum(QUALITY_WEIGHTS[name] * value for name, value in judged.items()) / weight, 1)


# --- What one dialogue says about its worker -------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return [token.lower() for token in utterance_toks(text) if any(char.isalnum() for char in token)]


def near_duplicates(questions: list[str]) -> int:
    """How many questions nearly repeat an earlier one of the same list (NEAR_DUPLICATE_SIMILARITY)."""
    seen: list[list[str]] = []
    repeated = 0
    for words in map(_words, questions):
        if any(
            SequenceMatcher(None, earlier, words, autojunk=False).ratio() >= NEAR_DUPLICATE_SIMILARITY
            for earlier in seen
        ):
            repeated += 1
        seen.append(words)
    return repeated


def _is_question(turn) -> bool:
    """A user turn that asked something: not labelled as mere courtesy ("Hi", "Thanks"). An unlabelled turn counts
    (the expert labels a turn before answering it), and so does a dropped one."""
    return turn.acts is None or turn.dropped or not set(turn.acts) <= SOCIAL_USER_ACTS


def dialogue_signals(record: DialogueRecord) -> dict:
    """The DialogueQuality fields (but the worker, the score and the review's) of one dialogue, from its replay.

    Utterances are read as the worker wrote them; acts and DROP labels as they stand after review's corrections.
    """
    joined: dict[str, object] = {}  # side -> when it first joined
    worker_sockets, worker_left, end = 0, False, None
    for event in record.events:
        if event.kind == EventKind.JOIN:
            joined.setdefault(event.author_role, event.created_at)
            worker_sockets += event.author_role == Role.WORKER
        elif event.kind == EventKind.LEAVE and event.author_role == Role.WORKER:
            worker_sockets = max(worker_sockets - 1, 0)
        elif event.kind == EventKind.END and end is None:
            end = event.payload
            # Away when it ended: the worker's sockets all closed (or never opened: paired, and never came).
            worker_left = end.get("status") == DialogueStatus.ABANDONED and worker_sockets == 0
    questions = [turn for turn in record.user_turns if _is_question(turn)]
    started = max(joined.values()) if {Role.WORKER, Role.EXPERT} <= set(joined) else None
    first = questions[0].created_at if questions else None
    compared = [turn for turn in questions if turn.followed is not None and not turn.dropped]
    return {
        # A dialogue its expert never joined went back to the queue (`requeued`): it says nothing about the worker.
        "held": end is not None and not end.get("requeued"),
        "ended_at": record.ended_at,
        "end_status": (end or {}).get("status", ""),
        "worker_left": worker_left,
        "questions": len(questions),
        "answered": answered_questions(dialogue_turns(None, [e for e in record.events if e.kind in TURN_KINDS])),
        "dropped_turns": sum(1 for turn in questions if turn.dropped),
        "off_task_turns": sum(1 for turn in questions if set(turn.acts or ()) & OFF_TASK_ACTS),
        "near_duplicates": near_duplicates([turn.original_value("utterance") for turn in questions]),
        "first_question_seconds": max((first - started).total_seconds(), 0.0) if started and first else None,
        "recommended": len(compared),
        "followed": sum(1 for turn in compared if turn.followed),
    }


def _worker_dialogues():
    """Ended dialogues a crowd worker held here: not a solo sequence (its author is an expert), not an imported
    dialogue (its worker is a stand-in for a release's crowd), and not a simulated worker's (no person to judge)."""
    return Dialogue.objects.filter(
        status__in=ENDED_STATUSES, worker__role=Role.WORKER, dataset_import__isnull=True, simulated=False
    )


def dialogues_fold(*, dialogue_ids: Iterable[int], scores: dict[int, int] | None = None) -> set[int]:
    """Fold the dialogues' logs into their DialogueQuality rows (written in one statement); returns their workers.

    `scores` gives a score that is being recorded and is not in the dialogue's row yet (`dialogue_scored`)."""
    selection = _worker_dialogues().filter(pk__in=list(dialogue_ids))
    workers = dict(selection.values_list("id", "worker_id"))
    if not workers:
        return set()
    decided = {
        dialogue_id: (stage, fault)
        for dialogue_id, stage, fault in DialogueReview.objects.filter(
            dialogue_id__in=list(workers), stage__in=[ReviewStage.APPROVED, ReviewStage.REJECTED]
        ).values_list("dialogue_id", "stage", "fault")
    }
    rows = []
    for record in dialogue_records(selection):
        score = (scores or {}).get(record.id, record.score)
        rows.append(
            DialogueQuality(
                dialogue_id=record.id,
                worker_id=workers[record.id],
                score=score,
                reviewed=record.id in decided,
                # Only a rejection that names the worker's questions counts against the worker (docs/review.md).
                rejected=record.id in decided
                and decided[record.id][0] == ReviewStage.REJECTED
                and RejectFault.counts_against(decided[record.id][1], "worker"),
                **dialogue_signals(record),
            )
        )
    # A fold never writes a score back to empty: one that read the dialogue just before its score was recorded
    # (the end's fold, racing the expert's score) would otherwise erase it. A known score is written apart, one
    # statement per value (1 to 5).
    fields = [field.name for field in DialogueQuality._meta.concrete_fields if field.name not in ("dialogue", "score")]
    DialogueQuality.objects.bulk_create(rows, update_conflicts=True, unique_fields=["dialogue"], update_fields=fields)
    by_score: dict[int, list[int]] = {}
    for row in rows:
        if row.score is not None:
            by_score.setdefault(row.score, []).append(row.dialogue_id)
    for score, ids in by_score.items():
        DialogueQuality.objects.filter(dialogue_id__in=ids).exclude(score=score).update(score=score)
    return set(workers.values())


# --- A worker's profile ---------------------------------------------------------------------------------------------


def profile_from(rows: list[DialogueQuality], *, worker_id: int) -> WorkerQuality:
    """A worker's profile (unsaved) from their held dialogues' rows, with its quality score."""
    rows = sorted(rows, key=lambda row: (row.ended_at is None, row.ended_at, row.dialogue_id))
    scores = [row.score for row in rows if row.score is not None]
    waits = [row.first_question_seconds for row in rows if row.first_question_seconds is not None]
    profile = WorkerQuality(
        worker_id=worker_id,
        dialogues=len(rows),
        scored=len(scores),
        score_mean=round(sum(scores) / len(scores), 2) if scores else None,
        score_last=scores[-1] if scores else None,
        low_scores=sum(1 for score in scores if score_drops(score)),
        questions=sum(row.questions for row in rows),
        answered=sum(row.answered for row in rows),
        dropped_turns=sum(row.dropped_turns for row in rows),
        off_task_turns=sum(row.off_task_turns for row in rows),
        near_duplicates=sum(row.near_duplicates for row in rows),
        first_question_seconds=round(median(waits), 1) if waits else None,
        abandoned=sum(1 for row in rows if row.worker_left),
        terminated=sum(1 for row in rows if row.end_status == DialogueStatus.TERMINATED),
        reviewed=sum(1 for row in rows if row.reviewed),
        rejected=sum(1 for row in rows if row.rejected),
        recommended=sum(row.recommended for row in rows),
        followed=sum(row.followed for row in rows),
    )
    profile.quality = quality_score(profile)
    return profile


def worker_quality_refresh(*, worker_id: int, apply_rules: bool = True) -> WorkerQuality | None:
    """Rebuild a crowd worker's profile from their dialogues' rows (folding any ended dialogue that has none), then
    apply the blocking rules. None for anyone who is not a crowd worker."""
    worker = User.objects.filter(pk=worker_id, role=Role.WORKER).only("id", "role", "blocked").first()
    if worker is None:
        return None
    missing = _worker_dialogues().filter(worker_id=worker_id, quality__isnull=True).values_list("id", flat=True)
    if missing_ids := list(missing):
        dialogues_fold(dialogue_ids=missing_ids)
    rows = list(DialogueQuality.objects.filter(worker_id=worker_id, held=True))
    profile = profile_from(rows, worker_id=worker_id)
    fields = {field.attname: getattr(profile, field.attname) for field in WorkerQuality._meta.concrete_fields}
    fields.pop("worker_id")
    fields.pop("updated_at")
    stored, _ = WorkerQuality.objects.update_or_create(worker_id=worker_id, defaults=fields)
    if apply_rules and not worker.blocked:
        worker_rules_apply(worker=worker, rows=rows)
    return stored


def dialogues_quality_refresh(*, dialogue_ids: Iterable[int], scores: dict[int, int] | None = None) -> None:
    """Fold the dialogues, then refresh the profile of each of their workers and apply the rules: what every hook
    calls (a dialogue ended, was scored, was decided in review)."""
    for worker_id in sorted(dialogues_fold(dialogue_ids=dialogue_ids, scores=scores)):
        worker_quality_refresh(worker_id=worker_id)


def dialogues_quality_refresh_on_commit(*, dialogue_ids: Iterable[int]) -> None:
    """The same as a Celery task, sent once the caller's transaction has committed: reading a dialogue's log is no
    work for the thread a room's websocket waits on (eager, so inline, on the embedded defaults). A failure is logged,
    never raised: it must not undo or interrupt what the caller did, and the worker's next refresh folds whatever it
    missed."""
    from review.tasks import quality_refresh

    ids = list(dialogue_ids)
    transaction.on_commit(lambda: quality_refresh.delay(ids), robust=True)


def quality_rebuild(*, apply_rules: bool = False, chunk: int = 500) -> tuple[int, int]:
    """Fold every ended dialogue of every crowd worker again and rebuild every profile (after an upgrade, or to
    apply a changed definition). The rules run only with `apply_rules`: a rebuild must not block a crowd for its past
    unless asked to. Returns (dialogues folded, workers refreshed)."""
    ids = list(_worker_dialogues().order_by("id").values_list("id", flat=True))
    for start in range(0, len(ids), chunk):
        dialogues_fold(dialogue_ids=ids[start : start + chunk])
    workers = list(User.objects.filter(role=Role.WORKER).order_by("id").values_list("id", flat=True))
    for worker_id in workers:
        worker_quality_refresh(worker_id=worker_id, apply_rules=apply_rules)
    return len(ids), len(workers)


# --- Blocking rules --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RateRule:
    """Block when a rate of the profile passes a threshold over at least QUALITY_RULE_MIN_DIALOGUES dialogues.

    `name` is the WorkerQuality property the rate is read from; `base` the count the minimum applies to; `setting`
    the threshold's setting (0 turns the rule off); `evidence` which dialogues' rows show what the rule counts."""

    name: str
    label: str
    setting: str
    base: str
    evidence: str

    @property
    def threshold(self) -> float:
        return getattr(settings, self.setting)


RATE_RULES = (
    RateRule(
        "drop_rate", gettext_noop("DROP turns per question"), "QUALITY_BLOCK_DROP_RATE", "dialogues", "dropped_turns"
    ),
    RateRule(
        "off_task_rate",
        gettext_noop("NOT_RELATED / CANNOT_UNDERSTAND turns per question"),
        "QUALITY_BLOCK_OFF_TASK_RATE",
        "dialogues",
        "off_task_turns",
    ),
    RateRule(
        "unfinished_rate",
        gettext_noop("dialogues abandoned or terminated"),
        "QUALITY_BLOCK_UNFINISHED_RATE",
        "dialogues",
        "unfinished",
    ),
    RateRule(
        "rejected_rate",
        gettext_noop("dialogues rejected in review"),
        "QUALITY_BLOCK_REJECTED_RATE",
        "reviewed",
        "rejected",
    ),
)
LOW_SCORES_RULE = "low_scores"


@dataclass(frozen=True)
class Crossing:
    """A rule a worker crossed: its name, why (for the record and the worker's admin), and the dialogue ids."""

    rule: str
    reason: str
    evidence: list[int]


def rule_crossed(rows: list[DialogueQuality], *, worker_id: int) -> Crossing | None:
    """The first rule that the worker's dialogues `rows` cross, or None. Pure: the rules' one place."""
    profile = profile_from(rows, worker_id=worker_id)
    limit = settings.QUALITY_BLOCK_LOW_SCORES
    if limit and profile.low_scores >= limit:
        return Crossing(
            LOW_SCORES_RULE,
            f"{profile.low_scores} expert score(s) below 3 (the rule blocks at {limit})",
            [row.dialogue_id for row in rows if row.score is not None and score_drops(row.score)],
        )
    minimum = settings.QUALITY_RULE_MIN_DIALOGUES
    for rule in RATE_RULES:
        rate, base = getattr(profile, rule.name), getattr(profile, rule.base)
        if not rule.threshold or rate is None or base < minimum or rate <= rule.threshold:
            continue
        return Crossing(
            rule.name,
            f"{rule.label}: {rate:.0%} over {base} dialogues (the rule blocks above {rule.threshold:.0%} over at "
            f"least {minimum})",
            [row.dialogue_id for row in rows if getattr(row, rule.evidence)],
        )
    return None


def rules_in_force() -> list[str]:
    """The rules as the settings make them, in words (for the quality page, in its language). A block's record says
    why in English (`rule_crossed`), as the log does."""
    described = []
    limit = settings.QUALITY_BLOCK_LOW_SCORES
    if limit:
        described.append(
            ngettext(
                "%(rule)s: block after %(count)s expert score below 3",
                "%(rule)s: block after %(count)s expert scores below 3",
                limit,
            )
            % {"rule": LOW_SCORES_RULE, "count": limit}
        )
    minimum = settings.QUALITY_RULE_MIN_DIALOGUES
    for rule in RATE_RULES:
        if rule.threshold:
            if rule.base == "reviewed":
                text = gettext(
                    "%(rule)s: block when %(what)s pass %(threshold)s over at least %(minimum)s dialogues decided in "
                    "review"
                )
            else:
                text = gettext("%(rule)s: block when %(what)s pass %(threshold)s over at least %(minimum)s dialogues")
            values = {"rule": rule.name, "what": gettext(rule.label), "threshold": f"{rule.threshold:.0%}"}
            described.append(text % {**values, "minimum": minimum})
    return described


def worker_rules_apply(*, worker: User, rows: list[DialogueQuality]) -> BlockRecord | None:
    """Block the worker when their dialogues since their last unblock cross a rule (an admin's unblock is a fresh
    start: the evidence it overruled does not block them again). Returns the block's record, or None."""
    since = (
        BlockRecord.objects.filter(person=worker, blocked=False)
        .order_by("-created_at", "-id")
        .values_list("created_at", flat=True)
        .first()
    )
    window = [row for row in rows if since is None or (row.ended_at is not None and row.ended_at > since)]
    crossing = rule_crossed(window, worker_id=worker.pk)
    if crossing is None:
        return None
    return person_set_blocked(
        person=worker, blocked=True, reason=crossing.reason, rule=crossing.rule, evidence=crossing.evidence
    )


# --- Hooks ------------------------------------------------------------------------------------------------------------


def on_dialogue_ended(sender, *, dialogue: Dialogue, **kwargs) -> None:
    """dialogs.signals.dialogue_ended: fold the dialogue once its end is committed."""
    dialogues_quality_refresh_on_commit(dialogue_ids=[dialogue.pk])


def on_review_decided(sender, *, dialogue_id: int, **kwargs) -> None:
    """review.signals.review_decided: fold the dialogue again (review rejected it, approved it with its corrections,
    or reopened a rejection) and refresh its worker's profile."""
    dialogues_quality_refresh_on_commit(dialogue_ids=[dialogue_id])


def on_dialogue_scored(sender, *, dialogue: Dialogue, score: int, **kwargs) -> None:
    """dialogs.signals.dialogue_scored: record the score in the profile and apply the rules, in the scoring
    transaction (a block for a low score commits with the score). A failure here is logged and its savepoint rolled
    back, never raised: the expert's score must be recorded whatever happens to the profile, which the worker's next
    refresh rebuilds."""
    if not score_drops(score):
        # Nothing to block for: the profile is brought up to date off the room's thread.
        dialogues_quality_refresh_on_commit(dialogue_ids=[dialogue.pk])
        return
    try:
        with transaction.atomic():
            dialogues_quality_refresh(dialogue_ids=[dialogue.pk], scores={dialogue.pk: score})
    except Exception:
        logger.exception("quality refresh failed for scored dialogue %s", dialogue.pk)
