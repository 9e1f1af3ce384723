"""Reads of the review app: which dialogues an export or a statistic covers, their replayed records, exports.

`dialogue_records` loads any selection with a fixed number of queries (dialogues, events, annotations), whatever
its size: the exporter and the statistics page both stand on it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import heapq
import json
from pathlib import Path

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils import timezone

from annotation.models import BlockRecord, Database, Role, User
from annotation.tokens import utterance_toks
from dialogs.log import DialogueRecord, LogEvent, dialogue_replay
from dialogs.models import ENDED_STATUSES, Dialogue, DialogueStatus, Event, EventKind
from review.models import Export, ReviewPass, ReviewStage, TurnAnnotation

# A selection names dialogue statuses, or "approved": through every review pass and final validation (whatever the
# dialogue's status). What an export and the statistics take when nobody says otherwise is the approved set.
APPROVED = "approved"
SELECTION_STATUSES = [(APPROVED, "Approved in review"), *DialogueStatus.choices]
SELECTION_STATUS_VALUES = tuple(value for value, _ in SELECTION_STATUSES)
DEFAULT_STATUSES = (APPROVED,)
ORIGINS = ("all", "collected", "imported")


def dialogue_selection(
    *,
    statuses=DEFAULT_STATUSES,
    db_ids=None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    origin: str = "all",
) -> QuerySet[Dialogue]:
    """Dialogues by status (or approved in review), database (ids), creation date (both ends included) and origin
    (collected here or imported from a release)."""
    wanted = Q(status__in=[status for status in statuses if status != APPROVED])
    if APPROVED in statuses:
        wanted |= Q(review__stage=ReviewStage.APPROVED) & ~Q(status__in=[DialogueStatus.DROPPED])
    queryset = Dialogue.objects.filter(wanted)
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


def dialogue_records(queryset: QuerySet[Dialogue], *, timestamps: bool = True) -> list[DialogueRecord]:
    """Replay every dialogue of `queryset` (in id order) in four queries: dialogues, events, runs, annotations.

    Without `timestamps` the events' times are not read (None): exports do not need them, and converting tens of
    thousands of datetimes is a noticeable part of reading a large selection."""
    dialogues = list(queryset.select_related("database", "goal", "dataset_import").order_by("id"))
    ids = queryset.values("id")
    events: dict[int, list[LogEvent]] = {dialogue.pk: [] for dialogue in dialogues}
    base = Event.objects.filter(dialogue_id__in=ids).order_by("dialogue_id", "seq")
    moment = "created_at" if timestamps else "seq"  # seq stands in: a cheap integer instead of a datetime
    light = base.exclude(kind=EventKind.SQL_RUN).values_list(
        "dialogue_id", "seq", "kind", "payload", "author_role", moment, "author_id"
    )
    # A run's result table is only needed as the worker was shown it (in result_shared): leaving the copy in the
    # run's payload in the database halves the JSON to decode.
    runs = base.filter(kind=EventKind.SQL_RUN).exclude(author_role=Role.REVIEWER).values_list(
        "dialogue_id", "seq", "kind", "payload__sql", "payload__turn", "payload__result__ok",
        "payload__result__row_count", "author_role", moment, "author_id",
    )  # fmt: skip
    run_rows = (
        (dialogue_id, seq, kind, {"sql": sql, "turn": turn, "result": {"ok": ok, "row_count": count}}, role, at, who)
        for dialogue_id, seq, kind, sql, turn, ok, count, role, at, who in runs.iterator(chunk_size=5000)
    )
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
    for dialogue_id, seq, kind, payload, author_role, created_at, author_id in ordered:
        bucket = events.get(dialogue_id)
        if bucket is not None:
            bucket.append(LogEvent(seq, kind, payload, author_role, created_at if timestamps else None, author_id))
    annotations: dict[int, dict[int, TurnAnnotation]] = {}
    for annotation in TurnAnnotation.objects.filter(dialogue_id__in=ids):
        annotations.setdefault(annotation.dialogue_id, {})[annotation.turn] = annotation
    records = []
    for dialogue in dialogues:
        source = getattr(dialogue, "dataset_import", None)
        records.append(
            dialogue_replay(
                dialogue=dialogue,
                events=events[dialogue.pk],
                annotations=annotations.get(dialogue.pk),
                imported=source is not None,
                interaction_id=source.interaction_id if source is not None else None,
            )
        )
    return records


def dialogue_record_of(dialogue: Dialogue) -> DialogueRecord:
    """One dialogue folded at its latest revision (the review screen's and final validation's read)."""
    return dialogue_records(Dialogue.objects.filter(pk=dialogue.pk))[0]


def export_list() -> QuerySet[Export]:
    return Export.objects.select_related("requested_by").order_by("-created_at", "-id")


def export_file_path(export: Export) -> Path | None:
    """The zip of a finished export, or None: only a published, whole file is ever offered for download."""
    if export.state != Export.State.SUCCEEDED or not export.file:
        return None
    path = Path(settings.DATA_DIR) / export.file
    return path if path.is_file() else None


def export_is_stalled(export: Export, *, now=None) -> bool:
    """Queued or running with no sign of life for EXPORT_STALL_SECONDS: its worker is gone (or none is running)."""
    if export.state not in (Export.State.QUEUED, Export.State.RUNNING):
        return False
    now = now or timezone.now()
    last = export.heartbeat_at or export.created_at
    return (now - last).total_seconds() > settings.EXPORT_STALL_SECONDS


def export_can_retry(export: Export) -> bool:
    return export.state == Export.State.FAILED or export_is_stalled(export)


def export_status(export: Export) -> dict:
    """What the progress page polls for."""
    return {
        "id": export.pk,
        "state": export.state,
        "state_label": export.get_state_display(),
        "phase": export.phase,
        "percent": export.percent,
        "message": export.message,
        "attempts": export.attempts,
        "stalled": export_is_stalled(export),
        "can_retry": export_can_retry(export),
        "download": export_file_path(export) is not None,
        "file_size": export.file_size,
        "counts": (export.report or {}).get("counts", {}),
        "problem_count": len((export.report or {}).get("problems", [])),
    }


def statistics_for(
    *,
    statuses=DEFAULT_STATUSES,
    db_ids=None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    origin: str = "all",
    seed: int | None = None,
    split_map: dict | None = None,
) -> dict:
    """The statistics of a selection (see review.dataset.statistics), cached until the data changes.

    Encoding every SQL for hardness and coverage is the costly part; the cache key holds the newest event and
    dialogue ids, which move whenever anything that counts changes (every status change comes with an event).
    """
    from django.core.cache import cache
    from django.db.models import Count, Max

    from annotation.models import Database
    from annotation.sql.encoding import encode_all
    from review.dataset.splits import split_databases
    from review.dataset.statistics import compute_statistics

    version = (
        Event.objects.aggregate(latest=Max("id"))["latest"],
        Dialogue.objects.aggregate(latest=Max("id"), n=Count("id")),
        TurnAnnotation.objects.aggregate(latest=Max("id"))["latest"],
    )
    key_data = [list(statuses), sorted(db_ids or []), str(date_from), str(date_to), origin, seed, split_map, version]
    key = "review:statistics:" + hashlib.sha256(json.dumps(key_data, sort_keys=True, default=str).encode()).hexdigest()
    cached = cache.get(key)
    if cached is not None:
        return cached
    from review.passes.services import review_sync

    review_sync()
    queryset = dialogue_selection(statuses=statuses, db_ids=db_ids, date_from=date_from, date_to=date_to, origin=origin)
    records = dialogue_records(queryset)
    used = sorted({record.db_id for record in records})
    schemas = {database.db_id: database.schema for database in Database.objects.filter(db_id__in=used)}
    encoded = encode_all([(r.db_id, state.sql) for r in records for state in r.state_turns()], schemas)
    if split_map:
        split_of = {db_id: split_map[db_id] for db_id in used if db_id in split_map}
    elif seed is not None:
        split_of = split_databases(used, seed=seed)
    else:
        split_of = None
    stats = compute_statistics(records, schemas=schemas, encoded=encoded, split_of=split_of)
    stats["selection"] = {
        "statuses": list(statuses),
        "db_ids": sorted(db_ids or []),
        "date_from": str(date_from) if date_from else None,
        "date_to": str(date_to) if date_to else None,
        "origin": origin,
        "seed": seed,
    }
    cache.set(key, stats, 600)
    return stats


# --- Worker and expert quality (review.quality writes the profiles) ----------------------------------------------

# The orders the worker quality page offers: key -> (label, ORDER BY). Lowest quality first by default: the workers to
# look at. Workers without a profile yet (no dialogue held) come last in every order.
WORKER_SORTS = {
    "quality": ("Quality, lowest first", (F("quality__quality").asc(nulls_last=True), "username")),
    "-quality": ("Quality, highest first", (F("quality__quality").desc(nulls_last=True), "username")),
    "dialogues": ("Most dialogues", (F("quality__dialogues").desc(nulls_last=True), "username")),
    "score": ("Mean expert score, lowest first", (F("quality__score_mean").asc(nulls_last=True), "username")),
    "low_scores": ("Most scores below 3", (F("quality__low_scores").desc(nulls_last=True), "username")),
    "rejected": ("Most rejected in review", (F("quality__rejected").desc(nulls_last=True), "username")),
    "username": ("Username", ("username",)),
}
WORKERS_PER_PAGE = 100


def worker_quality_page(*, sort: str = "quality", page: int | str = 1) -> Page:
    """One page of crowd workers with their quality profile and block history, in a fixed number of queries (the
    count, the page joined with the profiles, the page's block records), however many workers there are."""
    ordering = WORKER_SORTS.get(sort, WORKER_SORTS["quality"])[1]
    history = BlockRecord.objects.select_related("by").order_by("-created_at", "-id")
    workers = (
        # Active accounts: the stand-in author of imported dialogues is a worker that never signs in.
        User.objects.filter(role=Role.WORKER, is_active=True)
        .select_related("quality")
        .prefetch_related(Prefetch("block_records", queryset=history))
        .order_by(*ordering)
    )
    return Paginator(workers, WORKERS_PER_PAGE).get_page(page)


def expert_quality_rows() -> list[dict]:
    """Every expert with the dialogues they ended and what review changed in them (review.agreement's per-expert
    figures: share of turns whose acts, SQL, response or utterance a decided pass changed; execution match of the
    corrected queries; rejections)."""
    return _expert_rows(User.objects.filter(role=Role.EXPERT))


def expert_quality_row(expert: User) -> dict:
    """One person's row of the expert quality page, read the same way (the expert's own page shows it)."""
    return _expert_rows(User.objects.filter(pk=expert.pk))[0]


def _expert_rows(people: QuerySet[User]) -> list[dict]:
    from review.passes.agreement import review_agreement

    reviewed = {row["expert"]: row for row in review_agreement()["experts"]}
    experts = people.annotate(
        ended=Count("dialogues_as_expert", filter=Q(dialogues_as_expert__status__in=ENDED_STATUSES))
    ).order_by("username")
    return [{"expert": expert, "ended": expert.ended, "review": reviewed.get(expert.username)} for expert in experts]


EXPERT_WORK_PER_PAGE = 20
DECIDED = (ReviewPass.Decision.APPROVED, ReviewPass.Decision.REJECTED)


def expert_work_page(expert: User, *, page: int | str = 1, reviewer_names: bool = False) -> Page:
    """One page of `expert`'s dialogues that review decided (a pass approved or rejected them), newest decision
    first, each with its decided passes and, per turn, the corrections those passes made (the corrections that
    review.agreement counts in the expert's figures).

    An item is {"dialogue", "record", "passes", "turns"}; a turn is {"index", "text", "corrections"}, a correction
    {"field", "label", "old", "new", "before" (None: the expert's value; else the pass whose value it replaced),
    "pass", "reason", "reviewer"}. Reviewers' names are read only with `reviewer_names` (an admin's view: experts
    see pass numbers). Only the page's dialogues are folded, in a fixed number of queries however many there are.
    """
    from review.passes.agreement import judged_corrections
    from review.passes.queues import FIELD_LABELS, label_text

    last_decision = (
        ReviewPass.objects.filter(review__dialogue=OuterRef("pk"), decision__in=DECIDED)
        .order_by("-finished_at", "-id")
        .values("finished_at")[:1]
    )
    dialogues = (
        Dialogue.objects.filter(expert=expert)
        .annotate(decided_at=Subquery(last_decision))
        .filter(decided_at__isnull=False)
        .select_related("review")
        .order_by("-decided_at", "-id")
    )
    page = Paginator(dialogues, EXPERT_WORK_PER_PAGE).get_page(page)
    ids = [dialogue.pk for dialogue in page.object_list]
    if not ids:
        return page
    records = {record.id: record for record in dialogue_records(Dialogue.objects.filter(pk__in=ids), timestamps=False)}
    decided = ReviewPass.objects.filter(review__dialogue_id__in=ids, decision__in=DECIDED).annotate(
        dialogue_id=F("review__dialogue_id")
    )
    passes: dict[int, list[ReviewPass]] = {pk: [] for pk in ids}
    for item in decided.select_related("reviewer") if reviewer_names else decided:
        passes[item.dialogue_id].append(item)
    names: dict[int, str] = {}
    if reviewer_names:
        who = {c.reviewer_id for record in records.values() for c in record.corrections}
        names = dict(User.objects.filter(pk__in=who).values_list("pk", "username"))
    # Schema links read as the words and the names they link (for the rare correction of one): schemas on demand.
    linked = {records[pk].db_id for pk in ids if any(c.field == "schema_linking" for c in records[pk].corrections)}
    schemas = dict(Database.objects.filter(db_id__in=linked).values_list("db_id", "schema")) if linked else {}

    items = []
    for dialogue in page.object_list:
        record = records[dialogue.pk]
        numbers = {item.number for item in passes[dialogue.pk]}
        turns = []
        for index, turn in enumerate(record.user_turns):
            tokens = utterance_toks(turn.text) if any(c.field == "schema_linking" for c in turn.corrections) else None
            corrections, last_pass = [], {}
            for correction in judged_corrections(turn, numbers):
                name = correction.field
                corrections.append(
                    {
                        "field": name,
                        "label": FIELD_LABELS[name],
                        "old": label_text(name, correction.old, schemas.get(record.db_id), tokens),
                        "new": label_text(name, correction.new, schemas.get(record.db_id), tokens),
                        "before": last_pass.get(name),
                        "pass": correction.review_pass,
                        "reason": correction.reason,
                        "reviewer": names.get(correction.reviewer_id, "?") if reviewer_names else None,
                    }
                )
                last_pass[name] = correction.review_pass
            if corrections:
                turns.append({"index": index, "text": turn.text, "corrections": corrections})
        items.append({"dialogue": dialogue, "record": record, "passes": passes[dialogue.pk], "turns": turns})
    page.object_list = items
    return page
