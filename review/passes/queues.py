"""Reads of the review dashboard: which queue each dialogue is in, the counts, and the filtered, sorted list.

Every dialogue is in exactly one queue, decided by one expression (`queue_expression`) over the dialogue's status and
its review row, so the counts, the filters and the list can never disagree. The list page costs a fixed number of
queries whatever the number of dialogues: the queue counts (one aggregate), the page's count and the page itself.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
from dataclasses import dataclass

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Case, CharField, Count, Q, QuerySet, Value, When
from django.utils import timezone

from annotation.acts import INTENT_CATEGORY_NAMES
from annotation.sql.relations import RELATION_NAMES
from annotation.tokens import utterance_toks
from dialogs.models import Dialogue, DialogueStatus
from review.models import ReviewStage


@dataclass(frozen=True)
class Queue:
    key: str
    label: str
    help: str


def queues() -> list[Queue]:
    """The queues in the order a dialogue moves through them (the passes come from REVIEW_PASSES)."""
    items = [
        Queue("in_progress", "In progress", "Waiting for both people, or under way."),
        Queue(
            "unsatisfactory",
            "Unsatisfactory",
            "Scored below 3, terminated by the expert, or abandoned before the minimum of questions.",
        ),
    ]
    for number in range(1, settings.REVIEW_PASSES + 1):
        waiting = "To review (pass 1)" if number == 1 else f"Awaiting pass {number}"
        items.append(Queue(f"pass{number}", waiting, f"Waiting for a reviewer to take pass {number}."))
        items.append(Queue(f"in_pass{number}", f"In pass {number}", f"A reviewer holds it for pass {number}."))
    items += [
        Queue("failed_validation", "Failed validation", "Approved, but a final SQL does not run or does not encode."),
        Queue("approved", "Approved", "Through every pass and final validation: what an export takes."),
        Queue("rejected", "Rejected", "Rejected in review (an admin can reopen it)."),
    ]
    return items


def queue_expression(now=None) -> Case:
    """The queue of a dialogue, as a database expression (annotate a Dialogue queryset with it). Order matters: the
    dialogue's own status first (a dialogue dropped by its score leaves review whatever its review row says)."""
    now = now or timezone.now()
    live = Q(review__stage=ReviewStage.CLAIMED, review__claim_expires_at__gt=now)
    whens = [
        When(status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE], then=Value("in_progress")),
        When(
            Q(status__in=[DialogueStatus.DROPPED, DialogueStatus.TERMINATED])
            | Q(status=DialogueStatus.ABANDONED, incomplete=True),
            then=Value("unsatisfactory"),
        ),
        When(review__stage=ReviewStage.APPROVED, then=Value("approved")),
        When(review__stage=ReviewStage.REJECTED, then=Value("rejected")),
    ]
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
        .annotate(queue=queue_expression())
        .select_related("database", "goal", "expert", "worker", "review", "review__claimed_by", "dataset_import")
    )
    by_id = {row.pk: row for row in rows}
    current.object_list = [by_id[pk] for pk in ids if pk in by_id]
    return current


# --- The review screen -----------------------------------------------------------------------------------------------


def word_diff(old, new) -> list[tuple[str, str]]:
    """A word-level diff of two values as (op, text) pieces, op in "same", "del", "ins" (lists are compared as their
    space-joined items, so an act set reads as words)."""

    def words(value) -> list[str]:
        if value is None:
            return []
        if isinstance(value, bool):
            return ["DROP"] if value else ["(kept)"]
        if isinstance(value, list | tuple):
            return [str(item) for item in value]
        return str(value).split()

    before, after = words(old), words(new)
    pieces: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append(("same", " ".join(before[i1:i2])))
        if op in ("delete", "replace"):
            pieces.append(("del", " ".join(before[i1:i2])))
        if op in ("insert", "replace"):
            pieces.append(("ins", " ".join(after[j1:j2])))
    return pieces


FIELD_LABELS = {
    "utterance": "Utterance",
    "user_acts": "User acts",
    "query": "SQL",
    "response": "Response",
    "system_acts": "System acts",
    "drop": "DROP",
    "intent": "Intent (CHASE)",
    "contextual_phenomena": "Contextual phenomena",
    "schema_linking": "Schema linking",
}


def label_text(field: str, value, schema: dict | None = None, tokens: list[str] | None = None):
    """A CHASE label as a reviewer reads it: an intent as its category and relations, schema links as the words and
    what they name; other values unchanged."""
    if value is None:
        return None
    if field == "intent":
        relations = ", ".join(f"{name} {RELATION_NAMES[name]}" for name in value.get("relations", []))
        return f"{INTENT_CATEGORY_NAMES[value['category']]}" + (f" · {relations}" if relations else "")
    if field == "schema_linking":
        return [_link_text(span, schema, tokens) for span in value]
    return value


def _link_text(span: dict, schema: dict | None, tokens: list[str] | None) -> str:
    words = " ".join(tokens[span["beg"] : span["end"] + 1]) if tokens else f"tokens {span['beg']}-{span['end']}"
    entity = span["entity"]
    if schema is None:
        named = entity.get("value", "")
    elif span["type"] == "table":
        named = f"table {schema['table_names'][entity['tableId']]}"
    else:
        table, column = schema["column_names"][entity["columnId"]]
        where = f"{schema['table_names'][table]}.{column}"
        named = f"value {entity['value']} of {where}" if span["type"] == "value" else f"column {where}"
    return f"“{words}” → {named}"


def _labels_view(turn, schema: dict, tokens: list[str]) -> dict:
    """The CHASE labels of a turn as the review screen shows and edits them."""
    labels, detected, recommended = turn.labels, turn.detected, turn.recommended
    view = {
        "intent": label_text("intent", labels.get("intent")),
        "intent_json": json.dumps(labels.get("intent") or detected.get("intent")),
        "intent_detected": label_text("intent", detected.get("intent")),
        "phenomena": labels.get("contextual_phenomena"),
        "links": label_text("schema_linking", labels.get("schema_linking") or [], schema, tokens),
        "links_json": json.dumps(labels.get("schema_linking") or []),
        "links_confirmed": "schema_linking" in turn.confirmed,
        "tokens_json": json.dumps(tokens, ensure_ascii=False),
        "recommended": None,
    }
    if recommended:
        asked = (labels.get("intent") or {}).get("category")
        view["recommended"] = {
            "text": recommended["text"],
            "category": INTENT_CATEGORY_NAMES[recommended["category"]],
            "followed": None if asked is None else asked == recommended["category"],
        }
    return view


def review_screen(dialogue: Dialogue) -> dict:
    """What the review screen shows: the dialogue at its latest revision, turn by turn, with each field's original,
    what each pass changed (as word diffs) and the history of every field. A fixed number of queries."""
    from annotation.models import User
    from review.models import DialogueReview, ReviewPass
    from review.selectors import dialogue_record_of

    record = dialogue_record_of(dialogue)
    review = DialogueReview.objects.select_related("claimed_by").filter(dialogue=dialogue).first()
    passes = list(ReviewPass.objects.filter(review=review).select_related("reviewer")) if review else []
    people = {
        person.pk: person.username
        for person in User.objects.filter(pk__in={c.reviewer_id for c in record.corrections if c.reviewer_id})
    }
    turns = []
    schema = dialogue.database.schema
    for index, turn in enumerate(record.user_turns):
        tokens = utterance_toks(turn.text)
        history: dict[str, list[dict]] = {}
        by_pass: dict[int, list[dict]] = {}
        for correction in turn.corrections:
            entry = {
                "seq": correction.seq,
                "field": correction.field,
                "label": FIELD_LABELS[correction.field],
                "old": label_text(correction.field, correction.old, schema, tokens),
                "new": label_text(correction.field, correction.new, schema, tokens),
                "pass": correction.review_pass,
                "reason": correction.reason,
                "reviewer": people.get(correction.reviewer_id, "?"),
                "at": correction.created_at,
                "diff": word_diff(
                    label_text(correction.field, correction.old, schema, tokens),
                    label_text(correction.field, correction.new, schema, tokens),
                ),
            }
            history.setdefault(correction.field, []).append(entry)
            by_pass.setdefault(correction.review_pass, []).append(entry)
        annotation = record.annotations.get(turn.seq)
        turns.append(
            {
                "turn": turn,
                "index": index,
                "response": turn.response,
                # The table the current SQL gives, for the editor's before/after comparison (first rows only).
                "shown_json": json.dumps(
                    {
                        "columns": (turn.shown or {}).get("columns") or [],
                        "rows": ((turn.shown or {}).get("rows") or [])[:50],
                    },
                    default=str,
                ),
                "changed": sorted(history),
                "history": [
                    {"field": name, "label": FIELD_LABELS[name], "entries": entries}
                    for name, entries in history.items()
                ],
                "by_pass": [{"pass": number, "entries": entries} for number, entries in sorted(by_pass.items())],
                "annotation": annotation,
                "labels": _labels_view(turn, schema, tokens),
            }
        )
    return {"record": record, "review": review, "passes": passes, "turns": turns}
