"""Reads of the review dashboard: which queue each dialogue is in, the counts, and the filtered, sorted list.

Every dialogue is in exactly one queue, decided by one expression (`queue_expression`) over the dialogue's status and
its review row, so the counts, the filters and the list can never disagree. The list page costs a fixed number of
queries whatever the number of dialogues: the queue counts (one aggregate), the page's count and the page itself.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Case, CharField, Count, Exists, OuterRef, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from dialogs.models import Dialogue, DialogueStatus
from review.models import ReviewStage, SendBack
from review.passes.services import NOT_FOR_REVIEW, not_for_review_expression, not_for_review_q


@dataclass(frozen=True)
class Queue:
    key: str
    label: str
    help: str


def queues() -> list[Queue]:
    """The queues in the order a dialogue moves through them (the passes come from REVIEW_PASSES), labelled in the
    page's language (docs/i18n.md)."""
    items = [
        Queue("in_progress", _("In progress"), _("Waiting for both people, or under way.")),
        Queue(
            "unsatisfactory",
            _("Unsatisfactory"),
            _("Scored below 3, terminated by the expert, or abandoned before the minimum of questions."),
        ),
    ]
    for number in range(1, settings.REVIEW_PASSES + 1):
        n = {"number": number}
        waiting = _("To review (pass 1)") if number == 1 else _("Awaiting pass %(number)s") % n
        items.append(Queue(f"pass{number}", waiting, _("Waiting for a reviewer to take pass %(number)s.") % n))
        items.append(
            Queue(f"in_pass{number}", _("In pass %(number)s") % n, _("A reviewer holds it for pass %(number)s.") % n)
        )
    never = "; ".join(str(k.words) for k in NOT_FOR_REVIEW)
    items += [
        Queue(
            "with_author", _("With its author"), _("Sent back to its expert to fix; back in its pass when returned.")
        ),
        Queue(
            "failed_validation", _("Failed validation"), _("Approved, but a final SQL does not run or does not encode.")
        ),
        Queue("approved", _("Approved"), _("Through every pass and final validation: what an export takes.")),
        Queue("rejected", _("Rejected"), _("Rejected in review (an admin can reopen it).")),
        # Outside review altogether, counted apart so that every dialogue is still in exactly one queue.
        Queue("not_for_review", _("Not for review"), _("Never reviewed: %(what)s.") % {"what": never}),
    ]
    return items


def queue_expression(now=None) -> Case:
    """The queue of a dialogue, as a database expression (annotate a Dialogue queryset with it). Order matters: what
    never counts for review first (`not_for_review_q`, whatever its status or review row), then the dialogue's own
    status (a dialogue dropped by its score leaves review whatever its review row says)."""
    now = now or timezone.now()
    live = Q(review__stage=ReviewStage.CLAIMED, review__claim_expires_at__gt=now)
    whens = [
        When(not_for_review_q(), then=Value("not_for_review")),
        When(status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE], then=Value("in_progress")),
        When(
            Q(status__in=[DialogueStatus.DROPPED, DialogueStatus.TERMINATED])
            | Q(status=DialogueStatus.ABANDONED, incomplete=True),
            then=Value("unsatisfactory"),
        ),
        When(review__stage=ReviewStage.APPROVED, then=Value("approved")),
        When(review__stage=ReviewStage.REJECTED, then=Value("rejected")),
    ]
    with_author = Exists(SendBack.objects.filter(review__dialogue=OuterRef("pk"), returned_at__isnull=True))
    whens.append(When(with_author, then=Value("with_author")))
    for number in range(1, settings.REVIEW_PASSES + 1):
        whens.append(When(live & Q(review__pass_number=number), then=Value(f"in_pass{number}")))
    # Waiting to be fixed, or a fix whose claim ran out.
    whens.append(When(review__needs_fix=True, then=Value("failed_validation")))
    whens.append(When(review__stage=ReviewStage.FAILED_VALIDATION, then=Value("failed_validation")))
    for number in range(2, settings.REVIEW_PASSES + 1):
        whens.append(When(review__pass_number=number, then=Value(f"pass{number}")))
    return Case(*whens, default=Value("pass1"), output_field=CharField())


def queue_counts() -> dict[str, int]:
    """How many dialogues are in each queue (one query, grouped by the queue expression: evaluated once per row)."""
    counted = dict(
        Dialogue.objects.annotate(_queue=queue_expression())
        .order_by()
        .values_list("_queue")
        .annotate(n=Count("id"))
        .values_list("_queue", "n")
    )
    return {queue.key: counted.get(queue.key, 0) for queue in queues()}


def dialogue_queue(dialogue: Dialogue) -> str:
    """The queue one dialogue is in now."""
    return Dialogue.objects.filter(pk=dialogue.pk).annotate(queue=queue_expression()).values_list("queue", flat=True)[0]


SORTS = {
    "newest": ("-created_at", "-id"),
    "oldest": ("created_at", "id"),
    "database": ("database__db_id", "id"),
    "expert": ("expert__username", "id"),
    "worker": ("worker__username", "id"),
    "hardness": ("goal__hardness", "id"),
    "priority": ("-review__early", "review__pass_number", "ended_at", "id"),
}


def dashboard_list(
    *,
    queue: str | None = None,
    db_id: str | None = None,
    expert: str | None = None,
    worker: str | None = None,
    hardness: str | None = None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    origin: str = "all",
    sort: str = "priority",
    page: int = 1,
    per_page: int = 50,
):
    """One page of the dashboard's list: dialogues with their queue, filtered and sorted. Returns a Django Page."""
    queryset: QuerySet[Dialogue] = Dialogue.objects.annotate(queue=queue_expression())
    if queue:
        queryset = queryset.filter(queue=queue)
    if db_id:
        queryset = queryset.filter(database__db_id=db_id)
    if expert:
        queryset = queryset.filter(expert__username=expert)
    if worker:
        queryset = queryset.filter(worker__username=worker)
    if hardness:
        queryset = queryset.filter(goal__hardness=hardness)
    zone = timezone.get_current_timezone()
    if date_from:
        queryset = queryset.filter(created_at__gte=dt.datetime.combine(date_from, dt.time.min, tzinfo=zone))
    if date_to:
        queryset = queryset.filter(
            created_at__lt=dt.datetime.combine(date_to + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
        )
    if origin == "collected":
        queryset = queryset.filter(dataset_import__isnull=True)
    elif origin == "imported":
        queryset = queryset.filter(dataset_import__isnull=False)
    # Two steps: sort and cut the page on the narrow rows (ids) first, then read the page's 50 rows with everything
    # they show. Sorting the wide joined rows of every dialogue to keep 50 of them cost most of the page's time.
    ordered = queryset.order_by(*SORTS.get(sort, SORTS["priority"])).values_list("id", flat=True)
    current = Paginator(ordered, per_page).get_page(page)
    ids = list(current.object_list)
    rows = (
        Dialogue.objects.filter(id__in=ids)
        .annotate(queue=queue_expression(), not_for_review=not_for_review_expression())
        .select_related("database", "goal", "expert", "worker", "review", "review__claimed_by", "dataset_import")
    )
    by_id = {row.pk: row for row in rows}
    current.object_list = [by_id[pk] for pk in ids if pk in by_id]
    return current
