"""The lowest read of review: which dialogues a selection covers, and their replayed records.

Everything in review that reads dialogues as data stands on this module: the export and the statistics
(review.dataset), the review screen, final validation and the agreement figures (review.passes), and the quality
folds and pages (review.quality). It imports nothing else of review but its models.

`dialogue_records` loads any selection with a fixed number of queries (dialogues, events, annotations), whatever
its size.
"""

from __future__ import annotations

import datetime as dt
import heapq
from itertools import groupby
from operator import itemgetter

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from annotation.models import Role
from annotation.plumbing import jsoncodec
from dialogs.log import DialogueRecord, LogEvent, dialogue_replay, runs_summarised
from dialogs.models import Dialogue, DialogueStatus, Event, EventKind
from review.models import ReviewStage, TurnAnnotation

# A selection names dialogue statuses, or "approved": through every review pass and final validation (whatever the
# dialogue's status). What an export and the statistics take when nobody says otherwise is the approved set.
APPROVED = "approved"
SELECTION_STATUSES = [(APPROVED, gettext_lazy("Approved in review")), *DialogueStatus.choices]
SELECTION_STATUS_VALUES = tuple(value for value, _ in SELECTION_STATUSES)
DEFAULT_STATUSES = (APPROVED,)
# Where a dialogue comes from: collected here, or imported from a release (the forms show the labels).
ORIGIN_CHOICES = [
    ("all", gettext_lazy("Collected and imported")),
    ("collected", gettext_lazy("Collected here")),
    ("imported", gettext_lazy("Imported")),
]
ORIGINS = tuple(value for value, _ in ORIGIN_CHOICES)


def dialogue_selection(
    *,
    statuses=DEFAULT_STATUSES,
    db_ids=None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    origin: str = "all",
    simulated: bool = False,
) -> QuerySet[Dialogue]:
    """Dialogues by status (or approved in review), database (ids), creation date (both ends included) and origin
    (collected here or imported from a release). A simulated worker's dialogues (docs/simulated_worker.md) are a
    pilot's, not data: left out unless `simulated` asks for them. An expert's practice dialogues (docs/experts.md)
    are never data: left out whatever is asked."""
    wanted = Q(status__in=[status for status in statuses if status != APPROVED])
    if APPROVED in statuses:
        wanted |= Q(review__stage=ReviewStage.APPROVED) & ~Q(status__in=[DialogueStatus.DROPPED])
    queryset = Dialogue.objects.filter(wanted).exclude(practice=True)
    if not simulated:
        queryset = queryset.filter(simulated=False)
    if db_ids:
        queryset = queryset.filter(database__db_id__in=list(db_ids))
    zone = timezone.get_current_timezone()
    if date_from:
        queryset = queryset.filter(created_at__gte=dt.datetime.combine(date_from, dt.time.min, tzinfo=zone))
    if date_to:
        queryset = queryset.filter(
            created_at__lt=dt.datetime.combine(date_to + dt.timedelta(days=1), dt.time.min, zone)
        )
    if origin == "collected":
        queryset = queryset.filter(dataset_import__isnull=True)
    elif origin == "imported":
        queryset = queryset.filter(dataset_import__isnull=False)
    return queryset.order_by("id")


def dialogue_records(
    queryset: QuerySet[Dialogue], *, timestamps: bool = True, keep_events: bool = True, pack_tables: bool = False
) -> list[DialogueRecord]:
    """Replay every dialogue of `queryset` (in id order) in four queries: dialogues, events, runs, annotations.

    Without `timestamps` the events' times are not read (None): exports do not need them, and converting tens of
    thousands of datetimes is a noticeable part of reading a large selection. Without `keep_events` each record's
    `events` is empty once replayed: an export reads only what the replay folded (the raw events were a third of
    the records' memory on a CoSQL-size release). With `pack_tables` each result table the worker was shown (a
    turn's `shown`, a message's) is kept as its JSON text (`jsoncodec.Packed`, read like the dict): a release reads
    each once or twice, and as dicts they were over a quarter of the records' memory at ten times CoSQL's size."""
    # The replay reads the database's id and the goal's text, never their JSON: a schema decoded again for each of
    # 3,000 dialogues was half of a CoSQL-size export's read.
    dialogues = list(
        queryset.select_related("database", "goal", "dataset_import")
        .defer("database__schema", "database__curation", "goal__tree")
        .order_by("id")
    )
    ids = queryset.values("id")
    annotations: dict[int, dict[int, TurnAnnotation]] = {}
    for annotation in TurnAnnotation.objects.filter(dialogue_id__in=ids):
        annotations.setdefault(annotation.dialogue_id, {})[annotation.turn] = annotation
    base = Event.objects.filter(dialogue_id__in=ids).order_by("dialogue_id", "seq")
    moment = "created_at" if timestamps else "seq"  # seq stands in: a cheap integer instead of a datetime
    light = base.exclude(kind=EventKind.SQL_RUN).values_list(
        "dialogue_id", "seq", "kind", "payload", "author_role", moment, "author_id"
    )
    # A run's result table is only needed as the worker was shown it (in result_shared): leaving the copy in the
    # run's payload in the database halves the JSON to decode.
    run_rows = runs_summarised(base.filter(kind=EventKind.SQL_RUN).exclude(author_role=Role.REVIEWER), moment=moment)
    # A reviewer's run of a corrected query is read whole: its table replaces the one the worker was shown.
    reviewer_runs = base.filter(kind=EventKind.SQL_RUN, author_role=Role.REVIEWER).values_list(
        "dialogue_id", "seq", "kind", "payload", "author_role", moment, "author_id"
    )
    ordered = heapq.merge(
        light.iterator(chunk_size=5000),
        run_rows,
        reviewer_runs.iterator(chunk_size=1000),
        key=lambda row: (row[0], row[1]),
    )
    order = [dialogue.pk for dialogue in dialogues]
    waiting = {dialogue.pk: dialogue for dialogue in dialogues}  # each row let go once its dialogue is replayed
    del dialogues
    replayed: dict[int, DialogueRecord] = {}

    def replay(dialogue: Dialogue, events: list[LogEvent]) -> None:
        source = getattr(dialogue, "dataset_import", None)
        record = dialogue_replay(
            dialogue=dialogue,
            events=events,
            annotations=annotations.get(dialogue.pk),
            imported=source is not None,
            interaction_id=source.interaction_id if source is not None else None,
        )
        if not keep_events:
            record.events = []
        if pack_tables:
            _tables_packed(record)
        replayed[dialogue.pk] = record

    # The events come in dialogue order: each dialogue is replayed once its last one is read, so that the raw events
    # of the whole selection are never held at once (only the records' are, with `keep_events`).
    for dialogue_id, rows in groupby(ordered, key=itemgetter(0)):
        dialogue = waiting.pop(dialogue_id, None)
        if dialogue is not None:
            events = [
                LogEvent(seq, kind, payload, role, created_at if timestamps else None, author_id)
                for _, seq, kind, payload, role, created_at, author_id in rows
            ]
            replay(dialogue, events)
    for dialogue in waiting.values():  # a dialogue without events
        replay(dialogue, [])
    return [replayed[pk] for pk in order]


def _tables_packed(record: DialogueRecord) -> None:
    """Each result table of `record` as the worker was shown it, packed; one table held by a turn and its message
    stays one object."""
    packed: dict[int, jsoncodec.Packed] = {}

    def pack(table):
        if table is None or isinstance(table, jsoncodec.Packed):
            return table
        if id(table) not in packed:
            packed[id(table)] = jsoncodec.Packed(table)
        return packed[id(table)]

    for kind, item in record.messages:
        if kind == "sql":
            item["shown"] = pack(item["shown"])
    for turn in record.user_turns:
        turn.shown = pack(turn.shown)


def dialogue_record_of(dialogue: Dialogue) -> DialogueRecord:
    """One dialogue folded at its latest revision (the review screen's and final validation's read)."""
    return dialogue_records(Dialogue.objects.filter(pk=dialogue.pk))[0]
