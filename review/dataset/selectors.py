"""Reads of the dataset pages: the exports and their status, and the statistics of a selection."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.crypto import salted_hmac

from annotation.goals.tree_plan import plan
from dialogs.models import Dialogue, Event, QueryFirstItem
from review.models import DialogueReview, Evaluation, Export, TurnAnnotation
from review.records import DEFAULT_STATUSES, dialogue_records, dialogue_selection


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
    return export.status_json(
        phase=export.phase,
        attempts=export.attempts,
        stalled=export_is_stalled(export),
        can_retry=export_can_retry(export),
        download=export_file_path(export) is not None,
        file_size=export.file_size,
        counts=(export.report or {}).get("counts", {}),
        problem_count=len((export.report or {}).get("problems", [])),
        release_check=export_release_check(export),
    )


def export_release_check(export: Export) -> dict | None:
    """Whether the files of an export agreed with one another ({"ok", "count"}), or None before it was checked."""
    check = (export.report or {}).get("release_check")
    if check is None:
        return None
    return {"ok": bool(check.get("ok")), "count": check.get("count", len(check.get("disagreements", [])))}


def database_values(database) -> int | None:
    """CoSQL Table 1's "# values" of one database: its slot-value pairs, the distinct values of every column (a column
    is a slot), read from the profile kept for its current file (annotation.databases.profile.profile_database; never
    the
    file itself here). None when no profile is kept (a schema-only database, or one still being profiled)."""
    version = database.current_version
    return _profile_values(version.profile if version is not None else None)


def _profile_values(profile: dict | None) -> int | None:
    if not profile or not profile.get("columns"):
        return None
    counts = [figures.get("distinct") for figures in profile["columns"].values()]
    return sum(count for count in counts if isinstance(count, int))


def databases_values(databases: list) -> dict[str, int | None]:
    """database_values of each of `databases` by db_id, in one query (an export's report reads every database)."""
    from annotation.models import DatabaseVersion

    files = {database.pk: database.file for database in databases}
    current: dict[int, dict | None] = {}
    versions = DatabaseVersion.objects.filter(database_id__in=list(files)).order_by("database_id", "number")
    for database_id, file, profile in versions.values_list("database_id", "file", "profile"):
        if file == files[database_id]:
            current[database_id] = profile  # the newest version naming the file wins, as in current_version
    return {database.db_id: _profile_values(current.get(database.pk)) for database in databases}


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
    from review.dataset.splits import split_databases

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
    queryset = dialogue_selection(statuses=statuses, db_ids=db_ids, date_from=date_from, date_to=date_to, origin=origin)
    records = dialogue_records(queryset)
    used = sorted({record.db_id for record in records})
    if split_map:
        split_of = {db_id: split_map[db_id] for db_id in used if db_id in split_map}
    elif seed is not None:
        split_of = split_databases(used, seed=seed)
    else:
        split_of = None
    stats = records_statistics(records, databases=list(Database.objects.filter(db_id__in=used)), split_of=split_of)
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


def records_statistics(
    records: list, *, databases: list, split_of: dict[str, str] | None, encoded: dict | None = None
) -> dict:
    """compute_statistics for these records (read with their timestamps), `databases` their Database rows: what
    the statistics page shows for a selection and an export's report/ folder for the dialogues its files hold.
    `encoded`: the Spider encoding of each (db_id, sql), LIMIT values kept, when already known (an export's check
    of its SQL made them); the rest are encoded here."""
    from annotation.sql.encoding import encode_all
    from review.dataset.statistics import compute_statistics

    schemas = {database.db_id: database.schema for database in databases}
    value_counts = databases_values(databases)
    pairs = [(r.db_id, state.sql) for r in records for state in r.state_turns()]
    known = encoded or {}
    encoded = {pair: known[pair] for pair in pairs if pair in known}
    encoded.update(encode_all([pair for pair in pairs if pair not in encoded], schemas))
    phase_seconds = list(
        QueryFirstItem.objects.filter(dialogue_id__in=[r.id for r in records if r.mode == "query_first"]).values_list(
            "writing_seconds", "aligning_seconds"
        )
    )
    return compute_statistics(
        records,
        schemas=schemas,
        encoded=encoded,
        split_of=split_of,
        query_first_seconds=phase_seconds,
        value_counts=value_counts,
    )


def annotator_pseudonym(person_id: int) -> str:
    """A stable id for a person in exported files that says nothing of who they are without the server's secret."""
    return "annotator-" + salted_hmac("review.dataset.annotator", str(person_id)).hexdigest()[:12]


def query_first_work(dialogue_ids: list[int]) -> dict[int, dict]:
    """What query-first annotation recorded for each of these dialogues (dialogs.models.QueryFirstItem), as the OTTA
    file writes it: the tree, its operations, the aligned tokens and spans, each phase's pseudonymous annotator and
    time, and phase 1's question, whether it began as a draft and the filters it adapted."""
    work = {}
    items = QueryFirstItem.objects.filter(dialogue_id__in=dialogue_ids).select_related("goal__database")
    for item in items:
        work[item.dialogue_id] = {
            "tree": item.tree,
            "operations": [
                {"id": step.id, "kind": step.kind, "label": step.label}
                for step in plan(item.tree, item.goal.database.schema)
            ],
            "tokens": item.tokens,
            "alignment": item.alignment,
            "phase_1": {
                "annotator": annotator_pseudonym(item.writer_id),
                "seconds": item.writing_seconds,
                "question": item.question_written,
                "drafted": bool(item.drafted_question),
                "changes": item.changes,
            },
            "phase_2": {"annotator": annotator_pseudonym(item.aligner_id), "seconds": item.aligning_seconds},
        }
    return work


def evaluation_list(export: Export) -> QuerySet[Evaluation]:
    """The evaluations made on an export's release, newest first."""
    return export.evaluations.select_related("requested_by").defer("predictions").order_by("-created_at", "-id")


def evaluation_status(evaluation: Evaluation) -> dict:
    """What an evaluation's page polls for."""
    return evaluation.status_json()


def model_help_comparison(*, campaign_id: int | None = None, include_simulated: bool = False) -> dict:
    """The dialogues model help was given to against the control group (review.dataset.model_help): every ended
    dialogue drawn in a campaign's control-group draw (`dialogs.control_group`), of one campaign or all, but a
    cancelled pairing (`dialogs.models.pairing_cancelled`), those whose worker was the simulated worker left out
    unless asked for. Dialogues that were not drawn (no model configured when they were paired, or no campaign) are
    in neither group and only counted. Cached until the data changes."""
    from django.core.cache import cache
    from django.db.models import Count, Max

    from dialogs.log import model_draft_uses
    from dialogs.models import ENDED_STATUSES, pairing_cancelled
    from review.dataset.model_help import compare_groups, dialogue_facts

    version = (
        Event.objects.aggregate(latest=Max("id"))["latest"],
        Dialogue.objects.aggregate(latest=Max("id"), n=Count("id")),
        TurnAnnotation.objects.aggregate(latest=Max("id"))["latest"],
        DialogueReview.objects.aggregate(latest=Max("decided_at"))["latest"],  # a decision makes corrections count
    )
    key = (
        "review:model_help:"
        + hashlib.sha256(json.dumps([campaign_id, include_simulated, version], default=str).encode()).hexdigest()
    )
    cached = cache.get(key)
    if cached is not None:
        return cached
    # A cancelled pairing (its worker sent back to the queue) is no dialogue of either group: left out, and not counted.
    ended = Dialogue.objects.filter(status__in=list(ENDED_STATUSES)).exclude(pairing_cancelled())
    if campaign_id is not None:
        ended = ended.filter(campaign_id=campaign_id)
    if not include_simulated:
        ended = ended.filter(simulated=False)
    drawn = ended.filter(control_slot__isnull=False)
    helped = dict(drawn.values_list("id", "model_help"))
    reviewed = set(drawn.filter(review__decided_at__isnull=False).values_list("id", flat=True))
    uses = model_draft_uses(Event.objects.filter(dialogue_id__in=drawn.values("id")))
    facts = [
        dialogue_facts(
            record, helped=helped[record.id], reviewed=record.id in reviewed, draft_uses=uses.get(record.id, {})
        )
        for record in dialogue_records(drawn)
    ]
    result = compare_groups(facts)
    result["selection"] = {"campaign": campaign_id, "include_simulated": include_simulated}
    result["not_drawn"] = ended.filter(control_slot__isnull=True).count()
    cache.set(key, result, 600)
    return result
