"""Writes of the review passes: claiming a dialogue, correcting it, deciding, final validation, reopening.

The workflow (see docs/review.md):

- A dialogue enters review when it ends reviewable (completed, or abandoned after the minimum of answered
  questions: marked partial): its DialogueReview row is made once the end has committed (`on_dialogue_ended`, the
  receiver of `dialogs.signals.dialogue_ended`). An imported dialogue gets its row at import, approved (the release
  was reviewed by its authors) unless its import asked for review. Reads never make rows: `review_sync`
  (`manage.py review_sync`) only repairs rows that were missed.
- A reviewer claims a dialogue for its current pass. The claim is a lock with an expiry that the open screen renews;
  the dialogue's own expert never reviews it, and nobody reviews a pass after having worked on an earlier one.
- Corrections are appended to the dialogue's log (`dialogs.log.correction_payload`); nothing is overwritten.
- A pass ends with approve (on to the next pass, or to final validation after the last) or reject with a reason and
  whose work failed. A rejection before the last pass goes on to the next reviewer; it is final in the last pass or
  once two passes rejected (`review_rejection_final`).
- Final validation executes every SQL-grounded turn's final SQL in the sandbox and encodes it under the Spider
  protocol; a failure sends the dialogue to "failed validation", where a reviewer fixes it and approves again. It also
  records warnings that do not block by themselves (a query copied from the previous turn for a new question), which
  a reviewer clears.

Every refusal raises ReviewError with a stable code and a message for the person.
"""

from __future__ import annotations

import functools
import hashlib
import operator
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Case, CharField, Count, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from annotation.labels.acts import (
    LabelError,
    check_acts,
    check_ambiguity,
    check_intent,
    check_phenomena,
    check_pragmatics,
    check_question_style,
    check_schema_linking,
    check_thematic_of_turn,
    check_thematic_relations,
)
from annotation.labels.tokens import utterance_toks
from annotation.models import Role, User
from annotation.people.roles import can
from annotation.sql.check import check_queries
from annotation.sql.sandbox import not_executed
from annotation.sql.spider import SpiderEncodingError, encode_sql
from dialogs import log
from dialogs.models import Dialogue, DialogueStatus, Event, EventKind, pairing_cancelled
from dialogs.query_first import query_first_corrected
from dialogs.room import dialogue_record, sql_run_result
from review.double.selectors import blind_refusal
from review.models import (
    DialogueReview,
    RejectFault,
    RejectReason,
    ReviewPass,
    ReviewPassPool,
    ReviewStage,
    SendBack,
    ValidationWarning,
)
from review.passes.query_checks import copied_queries, correction_suite_check
from review.records import dialogue_record_of
from review.signals import review_decided_on_commit

# A reviewable dialogue keeps one of these statuses; one scored below 3 afterwards (dropped) leaves review.
REVIEWABLE_STATUSES = (DialogueStatus.COMPLETED, DialogueStatus.ABANDONED)


class ReviewError(Exception):
    """A refused review action. `code` is stable; `message` is for the person."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class NotForReview:
    """A kind of dialogue review never takes, whatever its status: `rule` names them (a Q over Dialogue, reached
    through `prefix`), `words` say what one is on its page, `label` on the dashboard's list."""

    key: str
    words: str
    label: str
    rule: Callable[[str], Q]


def _simulated(prefix: str = "") -> Q:
    return Q(**{f"{prefix}simulated": True})


def _practice(prefix: str = "") -> Q:
    return Q(**{f"{prefix}practice": True})


# What does not count for review, the one list that the queues, the counts, the claims and a dialogue's page read;
# the first kind that applies is the one a dialogue is said to be. A simulated worker's dialogue is a pilot's, no data
# to correct (docs/simulated_worker.md). A cancelled pairing, its worker sent back to the queue
# (dialogs.models.pairing_cancelled), says nothing of either person: it is not unsatisfactory either.
NOT_FOR_REVIEW = [
    # An expert's practice (docs/experts.md) is played by the simulated worker too: named for what it is, first.
    NotForReview("practice", gettext_lazy("an expert's practice dialogue"), gettext_lazy("practice"), _practice),
    NotForReview("simulated", gettext_lazy("a simulated pilot dialogue"), gettext_lazy("simulated pilot"), _simulated),
    NotForReview(
        "requeued",
        gettext_lazy("a pairing cancelled when its worker was sent back to the queue"),
        gettext_lazy("worker sent back to the queue"),
        pairing_cancelled,
    ),
]


def not_for_review_q(prefix: str = "") -> Q:
    """Dialogues of any kind in NOT_FOR_REVIEW."""
    return functools.reduce(operator.or_, (kind.rule(prefix) for kind in NOT_FOR_REVIEW))


def not_for_review_expression() -> Case:
    """The key of the NOT_FOR_REVIEW kind a dialogue is, as a database expression ("" when it counts for review)."""
    whens = [When(kind.rule(""), then=Value(kind.key)) for kind in NOT_FOR_REVIEW]
    return Case(*whens, default=Value(""), output_field=CharField())


def not_for_review(dialogue: Dialogue) -> str:
    """Why review never takes `dialogue`, in words for its pages; "" when it counts for review."""
    key = (
        Dialogue.objects.filter(pk=dialogue.pk)
        .annotate(kind=not_for_review_expression())
        .values_list("kind", flat=True)
        .first()
    )
    return next((kind.words for kind in NOT_FOR_REVIEW if kind.key == key), "")


def not_for_review_label(key: str) -> str:
    """The dashboard's short name of the NOT_FOR_REVIEW kind `key` ("" for none)."""
    return next((kind.label for kind in NOT_FOR_REVIEW if kind.key == key), "")


def reviewable_q(prefix: str = "") -> Q:
    """Dialogues that enter review: completed, or abandoned with at least the minimum of answered questions; never one
    `not_for_review_q` names (a simulated pilot's, a cancelled pairing)."""
    ended = Q(**{f"{prefix}status": DialogueStatus.COMPLETED}) | Q(
        **{f"{prefix}status": DialogueStatus.ABANDONED, f"{prefix}incomplete": False}
    )
    return ended & ~not_for_review_q(prefix)


def on_dialogue_ended(sender, *, dialogue: Dialogue, **kwargs) -> None:
    """dialogs.signals.dialogue_ended: the dialogue enters review once its end has committed (the signal may come
    while a caller's transaction is still open). Making the row must never undo or interrupt the end: a failure is
    logged, not raised, and `manage.py review_sync` makes the missing row."""
    dialogue_id = dialogue.pk
    transaction.on_commit(lambda: review_enter(dialogue_id=dialogue_id), robust=True)


def review_enter(*, dialogue_id: int) -> bool:
    """Give one ended dialogue its review row if it ended reviewable and has none; whether a row was made."""
    return _review_rows_add(Dialogue.objects.filter(pk=dialogue_id)) > 0


def review_sync() -> int:
    """Repair: give every reviewable dialogue without a review row its row; returns how many were added.

    Rows are made when a dialogue ends (`on_dialogue_ended`) and when it is imported (`review_rows_for_import`); this
    catches what those missed (a dialogue that ended before this existed, a failure after the end committed). Only
    `manage.py review_sync` calls it: no read does."""
    return _review_rows_add(Dialogue.objects.all())


def _review_rows_add(dialogues) -> int:
    """The missing review rows of the reviewable `dialogues`, written in one statement; how many were added.

    A dialogue is `early` when it is among its expert's first REVIEW_EARLY_DIALOGUES dialogues: those are reviewed
    first, to catch a bad habit early. An imported dialogue found here (imported before review existed) is as
    released: approved."""
    earlier = (
        Dialogue.objects.filter(expert_id=OuterRef("expert_id"), id__lt=OuterRef("id"))
        .order_by()
        .values("expert_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    missing = list(
        dialogues.filter(reviewable_q(), review__isnull=True)
        .annotate(earlier=Coalesce(Subquery(earlier), 0))
        .values_list("id", "status", "earlier", "dataset_import__id")
    )
    if not missing:
        return 0
    rows = []
    for dialogue_id, status, before, imported in missing:
        if imported is not None:
            # Imported before review existed, or imported without asking for review: as released.
            rows.append(DialogueReview(dialogue_id=dialogue_id, stage=ReviewStage.APPROVED, decided_at=timezone.now()))
            continue
        rows.append(
            DialogueReview(
                dialogue_id=dialogue_id,
                early=before < settings.REVIEW_EARLY_DIALOGUES,
                partial=status == DialogueStatus.ABANDONED,
            )
        )
    DialogueReview.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def review_rows_for_import(*, dialogue_ids: list[int], for_review: bool) -> None:
    """Review rows of freshly imported dialogues: approved as released, or waiting for pass 1 of an audit."""
    stage = ReviewStage.PENDING if for_review else ReviewStage.APPROVED
    now = timezone.now()
    DialogueReview.objects.bulk_create(
        [DialogueReview(dialogue_id=pk, stage=stage, decided_at=None if for_review else now) for pk in dialogue_ids],
        ignore_conflicts=True,
    )


# --- Claims ----------------------------------------------------------------------------------------------------------


def claim_live(review: DialogueReview | None, now=None) -> bool:
    """Whether someone holds the dialogue now (a claim past its expiry holds nothing)."""
    if review is None:
        return False
    now = now or timezone.now()
    return review.stage == ReviewStage.CLAIMED and review.claim_expires_at is not None and review.claim_expires_at > now


def _earlier_reviewers(review: DialogueReview) -> set[int]:
    """Everyone who worked on an earlier pass of this dialogue (claimed it or corrected it): they may not review a
    later one."""
    people = set(
        ReviewPass.objects.filter(review=review, number__lt=review.pass_number).values_list("reviewer_id", flat=True)
    )
    corrections = log.correction_passes(Event.objects.filter(dialogue_id=review.dialogue_id))
    people.update(author for author, number in corrections if number is not None and number < review.pass_number)
    return people


def pass_pool_refusal(number: int, reviewer: User) -> str | None:
    """Why `reviewer` may not take pass `number` by its pool (ReviewPassPool), or None: a pass with a pool is its
    members'; a pass without a pool, or whose pool is empty (the dashboard warns of it), is any reviewer's."""
    members = _pool_members().get(number)
    if not members or reviewer.pk in members:
        return None
    return gettext(
        "Pass %(number)s is taken by the reviewers in its pool, which an admin keeps; you are not in it."
    ) % {"number": number}


def _pool_members() -> dict[int, set[int]]:
    """Each pass that has a pool: the ids of its members (empty: the pool is empty)."""
    members: dict[int, set[int]] = {pool.number: set() for pool in ReviewPassPool.objects.all()}
    for number, person in ReviewPassPool.members.through.objects.values_list("reviewpasspool__number", "user_id"):
        members[number].add(person)
    return members


def pass_pools() -> list[dict]:
    """Every review pass and who may take it: `number`, `members` (usernames, for a pass with a pool), `open` (any
    reviewer may take it) and `warning` (a pool with nobody in it: said on the dashboard)."""
    pools = {pool.number: pool for pool in ReviewPassPool.objects.prefetch_related("members")}
    listed = []
    for number in range(1, settings.REVIEW_PASSES + 1):
        pool = pools.get(number)
        names = sorted(person.username for person in pool.members.all()) if pool else []
        warning = (
            gettext(
                "Pass %(number)s has a pool with nobody in it: any reviewer may take pass %(number)s until an admin "
                "adds someone."
            )
            % {"number": number}
            if pool and not names
            else ""
        )
        listed.append(
            {"number": number, "pooled": pool is not None, "members": names, "open": not names, "warning": warning}
        )
    return listed


def pass_pool_set(*, number: int, members, by: User) -> ReviewPassPool | None:
    """Give pass `number` a pool of `members` (reviewers or admins), or none (`members` is None: any reviewer takes
    it). Admins only. Claims already made stay; the next claims follow the new pool."""
    if not can(by, "review.manage"):
        raise ReviewError("not_allowed", gettext("Only an admin keeps the review pools."))
    if not 1 <= number <= settings.REVIEW_PASSES:
        raise ReviewError(
            "invalid",
            gettext("There is no review pass %(number)s (passes 1 to %(passes)s).")
            % {"number": number, "passes": settings.REVIEW_PASSES},
        )
    if members is None:
        ReviewPassPool.objects.filter(number=number).delete()
        return None
    people = list(members)
    wrong = [person.username for person in people if not can(person, "review.work")]
    if wrong:
        raise ReviewError("invalid", gettext("Not a reviewer: %(names)s.") % {"names": ", ".join(sorted(wrong))})
    with transaction.atomic():
        pool, _ = ReviewPassPool.objects.select_for_update().get_or_create(number=number)
        pool.updated_by = by
        pool.save(update_fields=["updated_by", "updated_at"])
        pool.members.set(people)
    return pool


def review_may_take(review: DialogueReview, reviewer: User) -> str | None:
    """Why `reviewer` may not take this dialogue's current pass, or None when they may."""
    if not can(reviewer, "review.work"):
        return gettext("Your role may not review dialogues.")
    pooled = pass_pool_refusal(review.pass_number, reviewer)
    if pooled:
        return pooled
    if review.dialogue.expert_id == reviewer.pk:
        return gettext("You were the expert of this dialogue: someone else reviews it.")
    if reviewer.pk in _earlier_reviewers(review):
        return gettext("You worked on an earlier pass of this dialogue: pass %(number)s needs another reviewer.") % {
            "number": review.pass_number
        }
    # A person labelling this dialogue blind (docs/double_annotation.md) sees none of its labels until they are done.
    return blind_refusal(reviewer, review.dialogue_id)


def _claimable(review: DialogueReview, now) -> bool:
    if review.stage in (ReviewStage.PENDING, ReviewStage.FAILED_VALIDATION):
        return True
    return review.stage == ReviewStage.CLAIMED and not claim_live(review, now)


def review_claim(*, reviewer: User, dialogue: Dialogue) -> DialogueReview:
    """Claim a chosen dialogue for its current pass (or renew one's own claim). Under the review row's lock, so of
    two reviewers claiming at once exactly one gets it."""
    now = timezone.now()
    why_not = not_for_review(dialogue)
    if why_not:  # whatever its review row says (one made before the rule said so)
        raise ReviewError("not_reviewable", gettext("This dialogue is not reviewed: %(why)s.") % {"why": why_not})
    with transaction.atomic():
        review = DialogueReview.objects.select_for_update().select_related("dialogue").filter(dialogue=dialogue).first()
        if review is None:
            raise ReviewError(
                "not_reviewable", gettext("This dialogue is not in review (it is in progress or unsatisfactory).")
            )
        if claim_live(review, now) and review.claimed_by_id == reviewer.pk:
            return _renew(review, now)
        if claim_live(review, now):
            holder = User.objects.get(pk=review.claimed_by_id)
            until = timezone.localtime(review.claim_expires_at)
            raise ReviewError(
                "locked",
                gettext("%(name)s is reviewing this dialogue (until %(time)s).")
                % {"name": holder.username, "time": until.strftime("%H:%M")},
            )
        if not _claimable(review, now):
            raise ReviewError(
                "decided", gettext("This dialogue is %(stage)s.") % {"stage": review.get_stage_display().lower()}
            )
        if review.dialogue.status not in REVIEWABLE_STATUSES:
            raise ReviewError("not_reviewable", gettext("This dialogue was dropped after it entered review."))
        if SendBack.objects.filter(review=review, returned_at__isnull=True).exists():
            raise ReviewError("with_author", gettext("This dialogue is with its author, to fix what review asked."))
        refusal = review_may_take(review, reviewer)
        if refusal:
            raise ReviewError("not_allowed", refusal)
        return _take(review, reviewer, now)


def review_claim_next(*, reviewer: User, review_pass: int | None = None) -> DialogueReview | None:
    """Claim the next dialogue waiting for `review_pass` (any pass when None, earliest pass first) that `reviewer`
    may take: failed validations first, then each new expert's first dialogues, then the oldest. None when there is
    nothing for them."""
    now = timezone.now()
    waiting = Q(stage__in=[ReviewStage.PENDING, ReviewStage.FAILED_VALIDATION]) | Q(
        stage=ReviewStage.CLAIMED, claim_expires_at__lte=now
    )
    candidates = (
        DialogueReview.objects.filter(waiting, dialogue__status__in=REVIEWABLE_STATUSES)
        .exclude(not_for_review_q("dialogue__"))  # a row made before the rule said so
        .exclude(dialogue__expert=reviewer)
        .exclude(pk__in=SendBack.objects.filter(returned_at__isnull=True).values("review_id"))
        .order_by("pass_number", "-needs_fix", "-early", "dialogue__ended_at", "dialogue_id")
    )
    if review_pass is not None:
        candidates = candidates.filter(pass_number=review_pass)
    closed = [number for number, members in _pool_members().items() if members and reviewer.pk not in members]
    if closed:  # passes whose pool this reviewer is not in: never theirs to take
        candidates = candidates.exclude(pass_number__in=closed)
    # Look at a page of candidates at a time: the ones this reviewer may not take (an earlier pass was theirs) are
    # skipped; a row another reviewer is claiming right now is skipped too (skip_locked) rather than waited for.
    offset = 0
    while True:
        ids = list(candidates.values_list("id", flat=True)[offset : offset + 50])
        if not ids:
            return None
        for review_id in ids:
            with transaction.atomic():
                review = (
                    DialogueReview.objects.select_for_update(skip_locked=True)
                    .select_related("dialogue")
                    .filter(pk=review_id)
                    .first()
                )
                if review is None or not _claimable(review, timezone.now()):
                    continue
                if review_may_take(review, reviewer) is not None:
                    continue
                return _take(review, reviewer, timezone.now())
        offset += 50


def _take(review: DialogueReview, reviewer: User, now) -> DialogueReview:
    ReviewPass.objects.filter(review=review, decision="", finished_at__isnull=True).exclude(reviewer=reviewer).update(
        decision=ReviewPass.Decision.RELEASED, finished_at=now
    )
    if review.stage == ReviewStage.FAILED_VALIDATION:
        review.needs_fix = True
    review.stage = ReviewStage.CLAIMED
    review.claimed_by = reviewer
    review.claim_expires_at = now + timedelta(seconds=settings.REVIEW_CLAIM_SECONDS)
    review.save(update_fields=["stage", "claimed_by", "claim_expires_at", "needs_fix"])
    ReviewPass.objects.get_or_create(
        review=review, number=review.pass_number, reviewer=reviewer, decision="", defaults={}
    )
    return review


def _renew(review: DialogueReview, now) -> DialogueReview:
    review.claim_expires_at = now + timedelta(seconds=settings.REVIEW_CLAIM_SECONDS)
    review.save(update_fields=["claim_expires_at"])
    return review


def _held(dialogue: Dialogue, reviewer: User) -> DialogueReview:
    """The review row, locked, when `reviewer` holds a live claim on it; ReviewError otherwise."""
    review = DialogueReview.objects.select_for_update().select_related("dialogue").filter(dialogue=dialogue).first()
    now = timezone.now()
    if review is None or not claim_live(review, now) or review.claimed_by_id != reviewer.pk:
        raise ReviewError("not_claimed", gettext("Claim this dialogue first (your claim may have expired)."))
    return review


def review_renew(*, reviewer: User, dialogue: Dialogue) -> DialogueReview:
    """Extend one's own live claim (the open review screen calls this)."""
    with transaction.atomic():
        return _renew(_held(dialogue, reviewer), timezone.now())


def review_release(*, person: User, dialogue: Dialogue) -> DialogueReview:
    """Let a claim go: the holder, or an admin (who may release anyone's). The dialogue goes back to its queue."""
    with transaction.atomic():
        review = DialogueReview.objects.select_for_update().filter(dialogue=dialogue).first()
        if review is None or review.stage != ReviewStage.CLAIMED:
            raise ReviewError("not_claimed", gettext("Nobody holds this dialogue."))
        if review.claimed_by_id != person.pk and not can(person, "review.manage"):
            raise ReviewError(
                "not_allowed", gettext("Only the reviewer holding it or an admin can release this dialogue.")
            )
        _back_to_queue(review)
        ReviewPass.objects.filter(review=review, decision="", finished_at__isnull=True).update(
            decision=ReviewPass.Decision.RELEASED, finished_at=timezone.now()
        )
    return review


def _back_to_queue(review: DialogueReview) -> None:
    review.stage = ReviewStage.FAILED_VALIDATION if review.needs_fix else ReviewStage.PENDING
    review.claimed_by, review.claim_expires_at = None, None
    review.save(update_fields=["stage", "claimed_by", "claim_expires_at"])


# --- Sent back to the author ----------------------------------------------------------------------------------------


def send_back_open(dialogue: Dialogue) -> SendBack | None:
    """The dialogue's send-back its author has not returned yet, if any."""
    return (
        SendBack.objects.filter(review__dialogue=dialogue, returned_at__isnull=True).select_related("reviewer").first()
    )


def review_send_back(*, reviewer: User, dialogue: Dialogue, note: str = "", turn_notes: dict | None = None) -> SendBack:
    """The reviewer holding the dialogue sends it back to its author (the expert; a solo sequence's writer) with what
    to fix: a note, a note per turn, or both. The claim is let go and the dialogue waits in no queue until the author
    returns it; it stays in the same pass."""
    note = (note or "").strip()[:2000]
    cleaned = {}
    for key, text in (turn_notes or {}).items():
        text = (str(text) if text is not None else "").strip()[:1000]
        if not text:
            continue
        try:
            cleaned[str(int(key))] = text
        except (TypeError, ValueError):
            raise ReviewError("invalid", gettext("%(key)r is not a turn of this dialogue.") % {"key": key}) from None
    if not note and not cleaned:
        raise ReviewError("invalid", gettext("Say what the author should fix: a note, or a note on a turn."))
    turns = {turn.seq for turn in dialogue_record_of(dialogue).user_turns}
    unknown = sorted(int(key) for key in cleaned if int(key) not in turns)
    if unknown:
        raise ReviewError(
            "invalid", gettext("There is no user turn #%(turn)s in this dialogue.") % {"turn": unknown[0]}
        )
    with transaction.atomic():
        review = _held(dialogue, reviewer)
        if review.dialogue.expert_id == reviewer.pk:
            raise ReviewError("not_allowed", gettext("You are this dialogue's author."))
        sent = SendBack.objects.create(
            review=review,
            pass_number=review.pass_number,
            reviewer=reviewer,
            author=review.dialogue.expert,
            note=note,
            turn_notes=cleaned,
        )
        _back_to_queue(review)
        ReviewPass.objects.filter(review=review, decision="", finished_at__isnull=True).update(
            decision=ReviewPass.Decision.RELEASED,
            finished_at=timezone.now(),
            note=f"Sent back to the author: {note}"[:2000],
        )
    return sent


def author_correct(*, author: User, dialogue: Dialogue, turn: int, field: str, value, reason: str = "") -> Event:
    """The author's fix of one field of a dialogue sent back to them: a correction of theirs, in the pass that sent
    it back, checked and recorded as a reviewer's is (review_correct)."""
    return review_correct(
        reviewer=author, dialogue=dialogue, turn=turn, field=field, value=value, reason=reason, as_author=True
    )


def send_back_return(*, author: User, dialogue: Dialogue, note: str = "") -> SendBack:
    """The author has fixed what they could: the dialogue goes back to its pass's queue, with how many fixes."""
    with transaction.atomic():
        sent = SendBack.objects.select_for_update().filter(review__dialogue=dialogue, returned_at__isnull=True).first()
        if sent is None or sent.author_id != author.pk:
            raise ReviewError("not_allowed", gettext("This dialogue is not waiting for your fixes."))
        sent.fixes = Event.objects.filter(
            dialogue=dialogue, kind=EventKind.CORRECTION, author=author, created_at__gte=sent.created_at
        ).count()
        sent.returned_at = timezone.now()
        if note.strip():
            sent.note = f"{sent.note}\n\nThe author: {note.strip()[:1000]}".strip()
        sent.save(update_fields=["fixes", "returned_at", "note"])
    return sent


def sent_back_to(author: User) -> list[SendBack]:
    """What waits for `author`'s fixes, oldest first (their desk lists it)."""
    return list(
        SendBack.objects.filter(author=author, returned_at__isnull=True)
        .select_related("review__dialogue__database", "reviewer")
        .order_by("created_at")
    )


# --- Corrections -------------------------------------------------------------------------------------------------


def _check_value(field: str, value, database):
    """The cleaned new value of a field, or ReviewError. Acts follow the room's label rules; text the room's limits."""
    if field in ("utterance", "response"):
        try:
            name = gettext("The new utterance") if field == "utterance" else gettext("The new response")
            return log.text_checked(value, name=name, limit=settings.UTTERANCE_MAX_CHARS)
        except log.TextRefused as exc:
            raise ReviewError(exc.code, exc.message) from None
    if field in ("user_acts", "system_acts"):
        try:
            return check_acts(value, side="user" if field == "user_acts" else "system")
        except LabelError as exc:
            raise ReviewError("labels", str(exc)) from exc
    if field == "drop":
        if not isinstance(value, bool):
            raise ReviewError("invalid", gettext("'drop' takes true or false."))
        return value
    if field == "query":
        try:
            return log.text_checked(value, name=gettext("The new query"), limit=settings.SANDBOX_MAX_SQL_LENGTH)
        except log.TextRefused as exc:
            raise ReviewError(exc.code, exc.message) from None
    if field in (*log.LABEL_FIELDS, "ambiguity"):
        return value  # checked against the turn's text once it is read (_check_label, _check_ambiguity)
    raise ReviewError(
        "invalid",
        gettext("Unknown field %(field)r (one of %(fields)s).")
        % {"field": field, "fields": ", ".join(log.CORRECTABLE_FIELDS)},
    )


def _check_label(field: str, value, database, text: str):
    """A CHASE label, checked as the room checks the expert's (annotation.labels.acts); schema links against the tokens
    of the turn's current text."""
    try:
        if field == "intent":
            return check_intent(value)
        if field == "contextual_phenomena":
            return check_phenomena(value)
        if field == "pragmatics":
            return check_pragmatics(value)
        if field == "question_style":
            return check_question_style(value)
        if field == "thematic_relations":
            return check_thematic_relations(value)
        return check_schema_linking(value, tokens=utterance_toks(text), schema=database.schema)
    except LabelError as exc:
        raise ReviewError("labels", str(exc)) from exc


def _check_ambiguity(value, turn) -> dict | None:
    """A turn's ambiguity label (or None, to remove it), checked as the room checks the expert's: against the turn's
    acts and the tokens of its current text."""
    if value is None:
        return None
    try:
        return check_ambiguity(
            value,
            acts=turn.acts or [],
            tokens=utterance_toks(turn.text),
            max_sql_length=settings.SANDBOX_MAX_SQL_LENGTH,
        )
    except LabelError as exc:
        raise ReviewError("labels", str(exc)) from exc


def review_correct(
    *,
    reviewer: User,
    dialogue: Dialogue,
    turn: int,
    field: str,
    value,
    reason: str = "",
    record=None,
    require_claim: bool = True,
    as_author: bool = False,
) -> Event:
    """Record one correction of one field of one user turn (`turn`: the utterance's sequence number).

    The screen's reviewer must hold the claim; a scripted audit (`apply_corrections`) need not, but may not write
    while somebody else holds it. A new query must run in the sandbox (or, on a schema-only database, encode under
    the Spider protocol); its run is stored as the reviewer's and its table replaces the one the worker was shown.
    `record` may be the dialogue's current fold (saves reading the log again). Nothing is overwritten: the old value
    stays in the log and in the correction.
    """
    if not as_author and not can(reviewer, "review.work"):
        raise ReviewError("not_allowed", gettext("Your role may not review dialogues."))
    value = _check_value(field, value, dialogue.database)
    reason = (reason or "").strip()[:500]
    checks = dict(
        reviewer=reviewer, dialogue=dialogue, turn=turn, field=field, require_claim=require_claim, as_author=as_author
    )
    run, check = None, None
    if field == "query":
        # A new query runs in the sandbox and on the test suite: seconds of work that may not hold a transaction
        # (annotation.sql.sandbox.refuse_inside_transaction). Checked first in a short one, so that a refused
        # correction costs no run; run; then checked again where it is recorded.
        with transaction.atomic():
            _, current, value, old = _correction_checked(**checks, value=value, record=record)
        run = _reviewer_run(dialogue, value)
        # Kept with the correction: the screen and the agreement figures read it, never run it again.
        check = correction_suite_check(
            database=dialogue.database, original_sql=current.original_value("query"), corrected_sql=value
        )
        record = None  # read the log again below: another correction may have been saved while the query ran
    with transaction.atomic():
        review, current, value, now = _correction_checked(**checks, value=value, record=record)
        if run is not None and now != old:
            raise ReviewError(
                "changed", gettext("The query of this turn changed while yours ran: read it again first.")
            )
        run_seq = None
        if run is not None:
            event, _ = dialogue_record(
                dialogue=dialogue,
                author=reviewer,
                kind=EventKind.SQL_RUN,
                payload=log.sql_run_payload(turn, value, run),
                role=Role.REVIEWER,
            )
            run_seq = event.seq
        payload = log.correction_payload(
            turn=turn,
            field=field,
            old=now,
            new=value,
            review_pass=review.pass_number,
            reason=reason,
            run=run_seq,
            suite_check=check,
        )
        if as_author:
            payload["by_author"] = True  # the author's fix of a dialogue sent back to them (docs/review.md)
        event, _ = dialogue_record(
            dialogue=dialogue,
            author=reviewer,
            kind=EventKind.CORRECTION,
            payload=payload,
            role=Role.EXPERT if as_author else Role.REVIEWER,
        )
        query_first_corrected(dialogue=dialogue, field=field, value=value)
    return event


def _correction_checked(
    *, reviewer: User, dialogue: Dialogue, turn: int, field: str, value, record, require_claim, as_author=False
):
    """Every check a correction passes, inside the caller's transaction (the review's row is locked): who may write,
    that the turn and the field exist, the label's rules. Returns (review, the turn, the value as checked, the value it
    replaces); raises ReviewError. `as_author`: the dialogue's author fixing it while it is sent back to them."""
    review = _review_to_correct(reviewer, dialogue, require_claim=require_claim, as_author=as_author)
    if record is None:
        record = dialogue_record_of(dialogue)
    current = next((t for t in record.user_turns if t.seq == turn), None)
    if current is None:
        raise ReviewError("invalid", gettext("There is no user turn #%(turn)s in this dialogue.") % {"turn": turn})
    value = _correction_value(dialogue, current, field, value)
    if field == "thematic_relations":
        try:
            value = check_thematic_of_turn(value, follow_up=log.follows_a_query(record.user_turns, current.seq))
        except LabelError as exc:
            raise ReviewError("labels", str(exc)) from exc
    old = current.value(field)
    if old == value:
        raise ReviewError("unchanged", gettext("The %(field)s already reads so.") % {"field": field.replace("_", " ")})
    return review, current, value, old


def _review_to_correct(reviewer: User, dialogue: Dialogue, *, require_claim, as_author) -> DialogueReview:
    """The dialogue's review (its row locked), once `reviewer` may correct it: as its author while it is sent back to
    them, as the reviewer holding it, or (without `require_claim`) as one who could claim it."""
    if as_author:
        review = DialogueReview.objects.select_for_update().select_related("dialogue").filter(dialogue=dialogue).first()
        sent = send_back_open(dialogue)
        if review is None or sent is None or sent.author_id != reviewer.pk:
            raise ReviewError("not_allowed", gettext("This dialogue is not waiting for your fixes."))
        return review
    if require_claim:
        return _held(dialogue, reviewer)
    review = DialogueReview.objects.select_for_update().select_related("dialogue").filter(dialogue=dialogue).first()
    if review is None:
        raise ReviewError("not_reviewable", gettext("This dialogue is not in review."))
    if claim_live(review, timezone.now()) and review.claimed_by_id != reviewer.pk:
        raise ReviewError("locked", gettext("Another reviewer holds this dialogue; try again when they are done."))
    # Without a claim, the rule that decides who may claim it: the script may not do what the screen refuses.
    refusal = review_may_take(review, reviewer)
    if refusal:
        raise ReviewError("not_allowed", refusal)
    return review


def _correction_value(dialogue: Dialogue, current, field: str, value):
    """`value` as checked for `field` of the turn `current` (a label's and an ambiguity's rules); raises ReviewError."""
    if field in ("response", "system_acts") and current.response is None:
        raise ReviewError("invalid", gettext("This turn has no response to correct."))
    if field in log.LABEL_FIELDS:
        if field == "intent" and current.sql is None:
            raise ReviewError(
                "invalid", gettext("An intent is the relation between two SQL turns; this turn has no SQL.")
            )
        value = _check_label(field, value, dialogue.database, current.text)
    if field == "ambiguity":
        value = _check_ambiguity(value, current)
    return value


def _reviewer_run(dialogue: Dialogue, sql: str) -> dict:
    """Run a corrected query (refused if it fails) and return its result, to be stored as the reviewer's run. A
    schema-only database has no file to run on: the query must then at least encode under the Spider protocol."""
    database = dialogue.database
    if not database.has_file:
        try:
            encode_sql(sql, database.schema)
        except SpiderEncodingError as exc:
            raise ReviewError(
                "sql", gettext("The query cannot be encoded under the Spider protocol: %(error)s") % {"error": exc}
            ) from exc
        return not_executed()
    result = sql_run_result(dialogue, sql)
    if not result["ok"]:
        error = result.get("error") or {}
        message = error.get("message") or gettext("it failed")
        raise ReviewError("sql", gettext("The query does not run: %(error)s") % {"error": message})
    return result


# --- Decisions -----------------------------------------------------------------------------------------------------


def review_decide(
    *, reviewer: User, dialogue: Dialogue, approve: bool, reason: str = "", fault: str = "", note: str = ""
) -> DialogueReview:
    """End the reviewer's pass: approve (on to the next pass, or through final validation to approved) or reject
    with a reason from the list ("other" needs a note) and whose work failed (`fault`: the worker's, the expert's or
    both).

    One reviewer's rejection is not the last word while a pass remains: a rejection before the last pass sends the
    dialogue on to the next pass, as an approval does, and the next reviewer sees it. A rejection is final when an
    earlier pass already rejected the dialogue (two reviewers agree) or in the last pass; only then does it count
    against anyone (`review_decided`)."""
    note = (note or "").strip()[:2000]
    if not approve:
        _rejection_check(reason, fault, note)
    # Final validation runs every query in the sandbox and on the test suite: before the transaction that records the
    # decision (annotation.sql.sandbox.refuse_inside_transaction), on the revision it was made for, checked again there.
    validation = None
    if approve:
        with transaction.atomic():
            review = _held(dialogue, reviewer)
            final = review.pass_number >= settings.REVIEW_PASSES or review.needs_fix
        if final:
            validation = final_validation(dialogue)
    now = timezone.now()
    with transaction.atomic():
        review = _held(dialogue, reviewer)
        current = ReviewPass.objects.filter(review=review, reviewer=reviewer, decision="").order_by("-id").first()
        if current is None:  # pragma: no cover - a claim always opens a pass
            current = ReviewPass.objects.create(review=review, number=review.pass_number, reviewer=reviewer)
        current.finished_at, current.note = now, note
        review.claimed_by, review.claim_expires_at = None, None
        if not approve:
            current.decision, current.reason, current.fault = ReviewPass.Decision.REJECTED, reason, fault
            if review_rejection_final(review):
                review.stage, review.decided_at, review.fault = ReviewStage.REJECTED, now, fault
            else:
                review.stage, review.pass_number = ReviewStage.PENDING, review.pass_number + 1
        elif review.pass_number < settings.REVIEW_PASSES and not review.needs_fix:
            current.decision = ReviewPass.Decision.APPROVED
            review.stage, review.pass_number = ReviewStage.PENDING, review.pass_number + 1
        else:
            _final_approval(dialogue, review, current, validation, now)
        current.save(update_fields=["finished_at", "note", "decision", "reason", "fault", "validation_failed"])
        review.save(
            update_fields=[
                "stage", "pass_number", "claimed_by", "claim_expires_at", "problems", "needs_fix", "decided_at",
                "revision", "fault",
            ]
        )  # fmt: skip
        if review.stage in (ReviewStage.APPROVED, ReviewStage.REJECTED):
            # What is built on the decision (the quality counts a rejection against the party it names, DROP labels
            # as corrected).
            review_decided_on_commit(dialogue_id=dialogue.pk, stage=review.stage)
    return review


def _rejection_check(reason: str, fault: str, note: str) -> None:
    """A rejection names a reason from the list (with a note for "other") and whose work failed."""
    if reason not in RejectReason.values:
        raise ReviewError("invalid", gettext("Choose why the dialogue is rejected."))
    if reason == RejectReason.OTHER and not note:
        raise ReviewError("invalid", gettext("Say why the dialogue is rejected."))
    if not fault or fault not in RejectFault.values:
        raise ReviewError(
            "invalid", gettext("Say whose work failed: the worker's questions, the expert's SQL or both.")
        )


def _final_approval(dialogue: Dialogue, review: DialogueReview, current: ReviewPass, validation, now) -> None:
    """The last pass's approval, with the final validation made before the transaction (for this revision, else
    ReviewError): approved, or failed validation and to be fixed. The caller saves `review` and `current`."""
    dialogue.refresh_from_db(fields=["last_seq"])
    if validation is None or validation.revision != dialogue.last_seq:
        raise ReviewError("changed", gettext("The dialogue changed while it was validated: approve it again."))
    current.decision = ReviewPass.Decision.APPROVED
    problems = validation.problems
    review.problems = problems
    validation_warnings_record(review=review, found=validation.copied)
    if problems:
        current.validation_failed = True
        review.stage, review.needs_fix = ReviewStage.FAILED_VALIDATION, True
    else:
        review.stage, review.needs_fix, review.decided_at = ReviewStage.APPROVED, False, now
        review.revision = dialogue.last_seq


def review_rejection_final(review: DialogueReview) -> bool:
    """Whether a rejection in the review's current pass is final: in the last pass (or while fixing a failed
    validation, which comes after it), or when an earlier pass already rejected the dialogue."""
    if review.pass_number >= settings.REVIEW_PASSES or review.needs_fix:
        return True
    return ReviewPass.objects.filter(
        review=review, number__lt=review.pass_number, decision=ReviewPass.Decision.REJECTED
    ).exists()


def review_reopen(*, admin: User, dialogue: Dialogue, note: str = "") -> DialogueReview:
    """Send a rejected dialogue back to the pass that rejected it (admins only)."""
    if not can(admin, "review.manage"):
        raise ReviewError("not_allowed", gettext("Only an admin can reopen a rejected dialogue."))
    with transaction.atomic():
        review = DialogueReview.objects.select_for_update().filter(dialogue=dialogue).first()
        if review is None or review.stage != ReviewStage.REJECTED:
            raise ReviewError("invalid", gettext("Only a rejected dialogue can be reopened."))
        review.stage, review.decided_at, review.fault = ReviewStage.PENDING, None, ""
        review.save(update_fields=["stage", "decided_at", "fault"])
        review_decided_on_commit(dialogue_id=dialogue.pk, stage=review.stage)  # no longer rejected
        ReviewPass.objects.create(
            review=review,
            number=review.pass_number,
            reviewer=admin,
            decision=ReviewPass.Decision.RELEASED,
            finished_at=timezone.now(),
            note=f"Reopened by {admin.username}" + (f": {note}" if note else ""),
        )
    return review


@dataclass(frozen=True)
class FinalValidation:
    """What final validation found on one revision of a dialogue (`revision`: its last sequence number then)."""

    revision: int
    problems: list[dict]  # review_validate's
    copied: list[dict]  # copied_queries' findings, the warnings


def final_validation(dialogue: Dialogue) -> FinalValidation:
    """Final validation's sandbox and suite work on the dialogue as it stands, outside any transaction."""
    dialogue.refresh_from_db(fields=["last_seq"])
    revision = dialogue.last_seq
    record = dialogue_record_of(dialogue)
    return FinalValidation(revision, review_validate(dialogue, record), copied_queries(record, dialogue.database))


def review_validate(dialogue: Dialogue, record=None) -> list[dict]:
    """Final validation: every SQL-grounded turn's final SQL must execute in the sandbox and encode under the Spider
    protocol. Returns the failures, one per turn: {"turn", "index", "sql", "reason"} (empty when all pass). A
    schema-only database cannot execute anything: there, encoding is all that is checked. `record` may be the
    dialogue's current fold."""
    record = record or dialogue_record_of(dialogue)
    database = dialogue.database
    states = record.state_turns()
    checks = check_queries(
        [(record.db_id, state.sql) for state in states],
        schemas={record.db_id: database.schema},
        paths={record.db_id: dialogue.database_path if database.has_file else None},
    )
    problems = []
    for index, state in enumerate(states):
        check = checks[(record.db_id, state.sql)]
        reasons = []
        if check.encode_error:
            reasons.append(
                gettext("does not encode under the Spider protocol: %(error)s") % {"error": check.encode_error}
            )
        if database.has_file and not check.runs:
            reasons.append(
                gettext("does not execute: %(error)s") % {"error": check.exec_error or gettext("it was not run")}
            )
        if reasons:
            problems.append({"turn": state.turn.seq, "index": index, "sql": state.sql, "reason": "; ".join(reasons)})
    return problems


# --- Warnings of final validation ----------------------------------------------------------------------------------


def _warning_key(finding: dict) -> str:
    return hashlib.sha256(f"{finding['previous_sql']}\0{finding['sql']}".encode()).hexdigest()


def validation_warnings_record(*, review: DialogueReview, found: list[dict] | None = None) -> list[ValidationWarning]:
    """Final validation's warnings for a dialogue, found again on its latest revision: a turn that asks something
    new answered with a query meaning the same as the previous turn's on the test suite
    (`review.passes.query_checks.copied_queries`). A warning found before on the same queries is kept as it is
    (cleared or not); an open one that no longer applies (the query was corrected since) is removed; a cleared one
    stays, with who cleared it. Returns the review's warnings. Nothing here blocks the dialogue. `found`: the findings
    made already (`final_validation`, outside the transaction this records in); without it they are made here, which
    runs the suite and so may not be inside a transaction."""
    dialogue = review.dialogue
    if found is None:
        found = copied_queries(dialogue_record_of(dialogue), dialogue.database)
    kind = ValidationWarning.Kind.COPIED_QUERY
    keys = set()
    for finding in found:
        key = _warning_key(finding)
        keys.add((finding["turn"], key))
        ValidationWarning.objects.get_or_create(
            review=review, kind=kind, turn=finding["turn"], key=key, defaults={"detail": finding}
        )
    stale = [
        warning.pk
        for warning in ValidationWarning.objects.filter(review=review, kind=kind, cleared_at__isnull=True)
        if (warning.turn, warning.key) not in keys
    ]
    ValidationWarning.objects.filter(pk__in=stale).delete()
    return list(ValidationWarning.objects.filter(review=review))


def validation_warning_clear(*, reviewer: User, dialogue: Dialogue, warning_id: int) -> ValidationWarning:
    """A reviewer has read a warning and clears it; who and when are kept. The dialogue's own expert may not clear a
    warning about their work."""
    if not can(reviewer, "review.work"):
        raise ReviewError("not_allowed", gettext("Your role may not review dialogues."))
    if dialogue.expert_id == reviewer.pk:
        raise ReviewError(
            "not_allowed", gettext("You were the expert of this dialogue: another reviewer clears its warnings.")
        )
    with transaction.atomic():
        warning = ValidationWarning.objects.select_for_update().filter(pk=warning_id, review__dialogue=dialogue).first()
        if warning is None:
            raise ReviewError("invalid", gettext("There is no such warning on this dialogue."))
        if warning.cleared_at is not None:
            raise ReviewError("unchanged", gettext("This warning was cleared already."))
        warning.cleared_by, warning.cleared_at = reviewer, timezone.now()
        warning.save(update_fields=["cleared_by", "cleared_at"])
    return warning
