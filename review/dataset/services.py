"""Writes of the datasets: exports, built by a Celery task (imports of released datasets are review.dataset.importer).

`dataset_export_create` validates the request and queues the task after commit; the task calls
`dataset_export_run`, which holds the export through a run token, builds the files in a private work folder,
validates each against its JSON Schema, zips them and publishes the zip by an atomic rename. A run that dies
leaves no file behind its export; a redelivered or retried run starts over (the task is idempotent).
`dataset_build` is the part shared with `manage.py export_dataset`, which writes the folder tree directly.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import shutil
import socket
import threading
import time
import uuid
import zipfile
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop, ngettext

from annotation.models import Database, User
from annotation.plumbing.gc_pause import collector_paused
from annotation.sql.check import check_queries
from annotation.sql.spider import LIMIT_MODES
from dialogs.log import DialogueRecord
from review.dataset import formats as dataset_formats
from review.dataset import report_folder, selectors, validation, writer
from review.dataset.release_check import ReleaseCheckFailed, release_check
from review.dataset.splits import SPLITS, SplitError, check_split_map, split_databases
from review.double.selectors import release_rounds
from review.models import DatasetFormat, Export
from review.records import DEFAULT_STATUSES, ORIGINS, SELECTION_STATUS_VALUES, dialogue_records, dialogue_selection

logger = logging.getLogger(__name__)

EXPORT_FORMATS = tuple(DatasetFormat.values)
Progress = Callable[[str, float], None]

# Share of the progress bar each phase of an export takes (checking SQL dominates the time).
# The names are the phases' keys, worded in the language of the person who asked when the run writes them.
_PHASES = {
    gettext_noop("Reading dialogues"): (0, 5),
    gettext_noop("Checking SQL"): (5, 80),
    gettext_noop("Writing files"): (80, 95),
    gettext_noop("Packing the zip"): (95, 100),
}


# --------------------------------------------------------------------------------------------------------------------
# Export options
# --------------------------------------------------------------------------------------------------------------------


# The report of an export: written last in its folder, after the files it describes and their check.
REPORT_NAME = "export_report.json"


def export_options_clean(
    *,
    formats: list[str],
    statuses: list[str] | None = None,
    db_ids: list[str] | None = None,
    date_from: str | dt.date | None = None,
    date_to: str | dt.date | None = None,
    origin: str = "all",
    seed: int = 0,
    split_map: dict | None = None,
    limit_mode: str | None = None,
    sql_errors: str = "skip",
    cosql_solo: bool = False,
    include_simulated: bool = False,
    report: bool = True,
) -> dict:
    """Check an export request and return it as plain JSON-able options (what an Export stores and a task reads).

    Raises ValidationError with a message for the person asking. Defaults: completed dialogues (not dropped), every
    database, both origins, seed 0, the per-format LIMIT encoding, turns whose SQL fails left out, and solo
    sequences in the SParC and CHASE files only (`cosql_solo` adds them to CoSQL's too: they have no real user), and
    no simulated worker's dialogues (`include_simulated` adds them; the report's options say so), and the report/
    folder (the statistics of the dialogues the release holds, each figure as SVG with its table; `report=False`
    leaves it out: drawing the figures takes seconds on a large release).
    """
    wanted = _formats_checked(formats)
    statuses = _statuses_checked(statuses)
    _choices_checked(origin=origin, limit_mode=limit_mode, sql_errors=sql_errors)
    dates = {name: _date_checked(name, value) for name, value in (("date_from", date_from), ("date_to", date_to))}
    if split_map is not None:
        try:
            split_map = check_split_map(split_map)
        except SplitError as exc:
            raise ValidationError(str(exc))
    try:
        seed = int(seed)
    except (TypeError, ValueError):
        raise ValidationError(gettext("The seed must be a whole number."))
    db_ids = _databases_checked(db_ids)
    return {
        "formats": wanted,
        "statuses": statuses,
        "db_ids": db_ids,
        **dates,
        "origin": origin,
        "seed": seed,
        "split_map": split_map,
        "limit_mode": limit_mode,
        "sql_errors": sql_errors,
        "cosql_solo": bool(cosql_solo),
        "include_simulated": bool(include_simulated),
        "report": bool(report),
    }


def _formats_checked(formats: list[str]) -> list[str]:
    wanted = list(dict.fromkeys(formats or []))
    if not wanted:
        raise ValidationError(gettext("Choose at least one format."))
    unknown = [name for name in wanted if name not in EXPORT_FORMATS]
    if unknown:
        raise ValidationError(
            gettext("Unknown format %(names)s (choose from %(choices)s).")
            % {"names": ", ".join(unknown), "choices": ", ".join(EXPORT_FORMATS)}
        )
    return wanted


def _statuses_checked(statuses: list[str] | None) -> list[str]:
    statuses = list(dict.fromkeys(statuses or DEFAULT_STATUSES))
    bad = [status for status in statuses if status not in SELECTION_STATUS_VALUES]
    if bad:
        raise ValidationError(
            gettext("Unknown status %(names)s (choose from %(choices)s).")
            % {"names": ", ".join(bad), "choices": ", ".join(SELECTION_STATUS_VALUES)}
        )
    return statuses


def _choices_checked(*, origin: str, limit_mode: str | None, sql_errors: str) -> None:
    if origin not in ORIGINS:
        raise ValidationError(gettext("origin must be one of %(choices)s.") % {"choices": ", ".join(ORIGINS)})
    if limit_mode not in (None, *LIMIT_MODES):
        raise ValidationError(gettext("limit mode must be one of %(choices)s.") % {"choices": ", ".join(LIMIT_MODES)})
    if sql_errors not in dataset_formats.SQL_ERROR_POLICIES:
        raise ValidationError(gettext("sql_errors must be 'skip' or 'keep'."))


def _date_checked(name: str, value: str | dt.date | None) -> str | None:
    if isinstance(value, str) and value:
        try:
            value = dt.date.fromisoformat(value)
        except ValueError:
            raise ValidationError(gettext("%(name)s must be a date like 2026-11-21.") % {"name": name})
    return value.isoformat() if value else None


def _databases_checked(db_ids: list[str] | None) -> list[str]:
    db_ids = sorted(set(db_ids or []))
    if db_ids:
        known = set(Database.objects.filter(db_id__in=db_ids).values_list("db_id", flat=True))
        missing = [db_id for db_id in db_ids if db_id not in known]
        if missing:
            raise ValidationError(gettext("No database registered as %(names)s.") % {"names": ", ".join(missing)})
    return db_ids


def export_limit_modes(options: dict) -> dict[str, str]:
    """The LIMIT encoding of each format: the one asked for, else the format's own (see review.dataset.formats)."""
    return {name: options.get("limit_mode") or mode for name, mode in dataset_formats.DEFAULT_LIMIT_MODES.items()}


# --------------------------------------------------------------------------------------------------------------------
# Building an export (shared by the task and the command)
# --------------------------------------------------------------------------------------------------------------------


@collector_paused()  # it holds every record to the end: see annotation/plumbing/gc_pause.py
def dataset_build(
    *,
    options: dict,
    out_dir: Path,
    progress: Progress | None = None,
    written: Callable[[], None] | None = None,
    speaking: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext,
) -> dict:
    """Select, replay, re-check and write the dialogues `options` asks for into `out_dir`; return the report.

    Every SQL-grounded turn's SQL is re-encoded and re-executed in the sandbox first; turns that fail are reported
    (and left out unless `sql_errors` is "keep"). Every file is validated against its schema before it is written.
    Then the release check reads the files back (review.dataset.release_check): when they disagree with one another
    the report, written all the same, lists how, and ReleaseCheckFailed (a ValidationError) carries it.
    Raises ValidationError when the request cannot be met (e.g. a split file that misses a database) and
    validation.SchemaViolation if something built does not match its schema. `written()` is called once every file
    but the report is in `out_dir`, before the release check reads them back (the export's run starts its zip then).
    `speaking()`: the language its refusals are worded in (an export job's `speaking`); the files are never worded.
    """
    started = time.perf_counter()
    timings: dict[str, float] = {}

    def phase(name: str, fraction: float) -> None:
        if progress:
            low, high = _PHASES[name]
            progress(name, (low + (high - low) * min(max(fraction, 0.0), 1.0)) / 100)

    phase("Reading dialogues", 0)
    queryset = dialogue_selection(
        statuses=options["statuses"],
        db_ids=options.get("db_ids") or None,
        date_from=dt.date.fromisoformat(options["date_from"]) if options.get("date_from") else None,
        date_to=dt.date.fromisoformat(options["date_to"]) if options.get("date_to") else None,
        origin=options.get("origin", "all"),
        simulated=options.get("include_simulated", False),
    )
    with_report = options.get("report", True)
    # The report's statistics time the dialogues (docs/statistics.md): only they need the events' times.
    records = dialogue_records(queryset, timestamps=with_report, keep_events=False, pack_tables=True)
    db_ids = sorted({record.db_id for record in records})
    databases = list(Database.objects.filter(db_id__in=db_ids))
    by_id = {database.db_id: database for database in databases}
    timings["read_s"] = time.perf_counter() - started
    phase("Reading dialogues", 1)

    if options.get("split_map"):
        split_of = dict(options["split_map"])
        missing = [db_id for db_id in db_ids if db_id not in split_of]
        if missing:
            with speaking():
                raise ValidationError(
                    gettext("The split file does not place these databases: %(names)s.") % {"names": ", ".join(missing)}
                )
    else:
        split_of = split_databases(db_ids, seed=options.get("seed", 0))

    mark = time.perf_counter()
    queries = [(record.db_id, state.sql) for record in records for state in record.state_turns()]
    checks = check_queries(
        queries,
        schemas={db_id: by_id[db_id].schema for db_id in db_ids},
        paths={db_id: by_id[db_id].path if by_id[db_id].has_file else None for db_id in db_ids},
        progress=lambda done, total: phase("Checking SQL", done / total if total else 1),
        pack=True,  # as JSON text until written: the dicts of every query at once were most of a large export's memory
    )
    timings["check_sql_s"] = time.perf_counter() - mark
    plan = dataset_formats.plan_turns(records, checks, sql_errors=options.get("sql_errors", "skip"))

    mark = time.perf_counter()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = writer.write_export(
        out_dir,
        formats_wanted=options["formats"],
        records=records,
        plan=plan,
        split_of=split_of,
        databases=databases,
        limit_modes=export_limit_modes(options),
        cosql_solo=options.get("cosql_solo", False),
        progress=lambda done, total: phase("Writing files", done / total),
        query_first=selectors.query_first_work([r.id for r in records if r.mode == "query_first"])
        if "otta" in options["formats"]
        else None,
    )
    timings["write_s"] = time.perf_counter() - mark
    dataset_formats.forget_tokens()
    exported = _exported_records(options, records, plan)
    folder_report = None
    if with_report:
        # Before the zip's thread starts (written()): it must never pack a file being written.
        mark = time.perf_counter()
        encoded = {pair: (check.encoding(), check.encode_error) for pair, check in checks.items()}
        folder_report = _write_report_folder(out_dir, list(exported.values()), databases, split_of, encoded)
        files.extend(folder_report.pop("files"))
        timings["report_s"] = time.perf_counter() - mark
    if written:
        written()
    mark = time.perf_counter()
    check, held = release_check(
        out_dir,
        formats_wanted=options["formats"],
        records=records,
        plan=plan,
        split_of=split_of,
        databases=databases,
        cosql_solo=options.get("cosql_solo", False),
    )
    timings["check_release_s"] = time.perf_counter() - mark
    # Counts of what the files hold (`exported`: _exported_records).
    used = {record.db_id for record in exported.values()}
    split_counts = {split: {"dialogues": 0, "databases": 0, "selected": 0} for split in SPLITS}
    for db_id in used:
        split_counts[split_of[db_id]]["databases"] += 1
    for record in records:
        split_counts[split_of[record.db_id]]["selected"] += 1
    for record in exported.values():
        split_counts[split_of[record.db_id]]["dialogues"] += 1
    report = {
        "options": options,
        "limit_modes": {name: mode for name, mode in export_limit_modes(options).items() if name in options["formats"]},
        "counts": {
            "dialogues": len(exported),
            "dialogues_selected": len(records),
            "databases": len(used),
            "databases_selected": len(db_ids),
            "distinct_sql": len(checks),
            "schema_only_databases": sum(1 for db_id in used if not by_id[db_id].has_file),
            **plan.counts,
        },
        "splits": split_counts,
        # What each format's files hold, as read back by the release check.
        "formats": held,
        "release_check": check,
        "split_of": split_of,
        # Which revision of each dialogue the release holds: the sequence number of the newest event of its log
        # (corrections included) when it was read.
        "revisions": {str(record.id): record.revision for record in exported.values()},
        "problems": plan.problems,
        # The report/ folder: which figures could not be drawn, and why (None when the export has no such folder).
        "report_folder": folder_report,
        "files": files,
        "timings": {**timings, "total_s": time.perf_counter() - started},
    }
    writer.write_json(out_dir / REPORT_NAME, report, kind=None)
    if not check["ok"]:
        with speaking():
            raise ReleaseCheckFailed(report)
    return report


def _exported_records(options: dict, records: list[DialogueRecord], plan) -> dict[int, DialogueRecord]:
    """The records the release's files hold, by id, in the selection's order: a selected dialogue none of whose SQL
    turns could be exported is in none of them, and one a format leaves out (a solo sequence in CoSQL's) only in the
    others."""
    held: set[int] = set()
    interaction_formats, gold_formats = writer.release_formats(options["formats"])
    cosql_solo = options.get("cosql_solo", False)
    for fmt in dict.fromkeys([*interaction_formats, *gold_formats]):
        held.update(r.id for r in dataset_formats.release_records(fmt, records, plan, cosql_solo=cosql_solo))
    return {record.id: record for record in records if record.id in held}


def _write_report_folder(
    out_dir: Path, exported: list[DialogueRecord], databases: list, split_of: dict, encoded: dict
) -> dict:
    """report/ (review/dataset/report_folder.py) for the dialogues the release holds; {"files", "failed"}."""
    used = {record.db_id for record in exported}
    try:
        stats = selectors.records_statistics(
            exported,
            databases=[database for database in databases if database.db_id in used],
            split_of={db_id: split for db_id, split in split_of.items() if db_id in used},
            encoded=encoded,
        )
    except Exception as exc:  # the release's own files are whole: the report says what is missing, and why
        logger.exception("export report: the statistics failed")
        error = f"{type(exc).__name__}: {exc}"
        return {"files": [], "failed": [{"figure": None, "file": report_folder.STATISTICS_NAME, "error": error}]}
    # A release's report is the dataset's, in English whoever asked for it (docs/i18n.md): its figures' words too.
    with translation.override("en"):
        files, failed = report_folder.write_report_folder(out_dir, stats, write_json=writer.write_json)
    try:
        rounds = release_rounds([record.id for record in exported])
    except Exception as exc:  # as the statistics: the report says what is missing, the release is whole
        logger.exception("export report: the double-annotation rounds failed")
        failed.append({"figure": "double_annotation", "file": None, "error": f"{type(exc).__name__}: {exc}"})
        rounds = []
    with translation.override("en"):
        double_files, double_failed = report_folder.write_double_annotation(
            out_dir, rounds, write_json=writer.write_json
        )
    return {"files": files + double_files, "failed": failed + double_failed}


# --------------------------------------------------------------------------------------------------------------------
# Exports as background jobs
# --------------------------------------------------------------------------------------------------------------------


def dataset_export_create(*, requested_by: User | None, **options) -> Export:
    """Record an export request and queue its task once the transaction commits (the worker must see the row)."""
    from review.tasks import export_dataset

    cleaned = export_options_clean(**options)
    export = Export.objects.create(requested_by=requested_by, formats=cleaned["formats"], options=cleaned)
    export_dataset.delay_on_commit(export.pk)
    return export


def dataset_export_retry(*, export: Export) -> Export:
    """Queue a failed or stalled export again. The old run, if it still lives, loses the export (its token is
    cleared) and will not publish anything; the new run starts from scratch."""
    from review.tasks import export_dataset

    with transaction.atomic():
        locked = Export.objects.select_for_update().get(pk=export.pk)
        if not selectors.export_can_retry(locked):
            raise ValidationError(gettext("Only a failed or stalled export can be retried."))
        with locked.speaking():
            locked.state, locked.phase, locked.message = Export.State.QUEUED, gettext("Queued again"), ""
        locked.progress_done = locked.progress_total = 0
        locked.run_token, locked.worker, locked.attempts = "", "", 0
        locked.heartbeat_at = timezone.now()
        locked.save(
            update_fields=[
                "state", "phase", "message", "progress_done", "progress_total", "run_token", "worker", "attempts",
                "heartbeat_at",
            ]
        )  # fmt: skip
    export_dataset.delay_on_commit(locked.pk)
    return locked


class _LeaseLost(Exception):
    """Another run took this export over (a retry, or a redelivered task): stop without publishing anything."""


def _exports_dir() -> Path:
    folder = Path(settings.DATA_DIR) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def dataset_export_run(*, export_id: int, worker: str | None = None) -> Export:
    """Run one export to the end (the body of the Celery task). Idempotent: a finished export is left as it is.

    The run takes the export with a fresh token; progress updates double as heartbeats and as checks that the
    token still holds. The zip is written under a temporary name and renamed into place, then the row is marked
    ready in the same step that checks the token, so a download is only ever offered for a whole file.
    """
    token = uuid.uuid4().hex
    now = timezone.now()
    with transaction.atomic():
        export = Export.objects.select_for_update().get(pk=export_id)
        if export.state == Export.State.SUCCEEDED and selectors.export_file_path(export):
            return export
        if export.attempts >= settings.EXPORT_MAX_ATTEMPTS:
            export.state, export.finished_at = Export.State.FAILED, now
            with export.speaking():
                export.message = ngettext(
                    "Stopped after %(attempts)s attempt: the process running it stopped (it was killed or ran out of "
                    "memory) before the export was done. Retry to try again.",
                    "Stopped after %(attempts)s attempts: the process running it stopped (it was killed or ran out of "
                    "memory) each time before the export was done. Retry to try again.",
                    export.attempts,
                ) % {"attempts": export.attempts}
            export.save(update_fields=["state", "finished_at", "message"])
            return export
        with export.speaking():
            export.state, export.phase, export.message = Export.State.RUNNING, gettext("Starting"), ""
        export.attempts += 1
        export.run_token = token
        export.worker = worker or f"{socket.gethostname()}:{os.getpid()}"
        export.started_at = export.heartbeat_at = now
        export.progress_done, export.progress_total = 0, 1000
        export.file, export.file_size, export.finished_at = "", 0, None
        export.save()
    folder = _exports_dir()
    _remove_leftovers(folder, export_id, token)
    work = folder / f"export-{export_id}-{token}.work"
    last = {"at": 0.0, "phase": "", "fraction": -1.0}

    def progress(phase: str, fraction: float) -> None:
        # Written when the phase changes or the bar moves by 1%, and at least every 30 s as a heartbeat: a bounded
        # number of writes however many dialogues there are.
        moment = time.monotonic()
        if phase == last["phase"] and fraction - last["fraction"] < 0.01 and moment - last["at"] < 30:
            return
        last.update(at=moment, phase=phase, fraction=fraction)
        with export.speaking():
            worded = gettext(phase)
        updated = Export.objects.filter(pk=export_id, run_token=token).update(
            phase=worded, progress_done=int(fraction * 1000), heartbeat_at=timezone.now()
        )
        if not updated:
            raise _LeaseLost()

    final = folder / f"export-{export_id}-{token}.zip"
    packer = _Packer(work, folder / f"export-{export_id}-{token}.zip.part")
    try:
        report = dataset_build(
            options=export.options, out_dir=work, progress=progress, written=packer.start, speaking=export.speaking
        )
        progress(gettext_noop("Packing the zip"), 0)
        packer.finish()
        os.replace(packer.target, final)
        # Gone before the export shows as done: whoever sees it succeed finds nothing but its zip. Once more what other
        # runs left, too: a run that lost the export may have been writing its folder while this one started (a dead
        # worker's run does not always die at once), and it never publishes or cleans up.
        shutil.rmtree(work, ignore_errors=True)
        _remove_leftovers(folder, export_id, token)
        relative = final.relative_to(Path(settings.DATA_DIR)).as_posix()
        with export.speaking():
            ready = gettext("Ready")
        with transaction.atomic():
            published = Export.objects.filter(pk=export_id, run_token=token).update(
                state=Export.State.SUCCEEDED,
                phase=ready,
                progress_done=1000,
                file=relative,
                file_size=final.stat().st_size,
                report=report,
                finished_at=timezone.now(),
                heartbeat_at=timezone.now(),
            )
        if not published:
            final.unlink(missing_ok=True)
            raise _LeaseLost()
        _remove_older_zips(folder, export_id, keep=final)
    except _LeaseLost:
        logger.info("export %s: another run took over; this one stops", export_id)
    except ReleaseCheckFailed as exc:
        # The report goes with the failure: the page lists what disagrees (no zip is published).
        _fail(export_id, token, exc.messages[0], report=exc.report)
    except (ValidationError, validation.SchemaViolation, SplitError) as exc:
        _fail(export_id, token, " ".join(getattr(exc, "messages", [str(exc)])))
    except Exception as exc:  # anything else: say what happened, keep the traceback in the log
        logger.exception("export %s failed", export_id)
        with export.speaking():
            failed = gettext("The export failed: %(error)s") % {"error": f"{type(exc).__name__}: {exc}"}
        _fail(export_id, token, failed)
    finally:
        packer.stop()  # before the folder it reads goes
        shutil.rmtree(work, ignore_errors=True)
        for leftover in folder.glob(f"export-{export_id}-{token}.zip.part"):
            leftover.unlink(missing_ok=True)
    return Export.objects.get(pk=export_id)


def _fail(export_id: int, token: str, message: str, *, report: dict | None = None) -> None:
    extra = {"report": report} if report is not None else {}
    Export.objects.filter(pk=export_id, run_token=token).update(
        state=Export.State.FAILED, message=message[:5000], finished_at=timezone.now(), **extra
    )


def _remove_leftovers(folder: Path, export_id: int, token: str) -> None:
    """Remove what other runs of this export left (work folders, partial zips; never a published zip): a killed
    worker cannot clean up after itself."""
    for stale in folder.glob(f"export-{export_id}-*"):
        if token not in stale.name and not stale.name.endswith(".zip"):
            shutil.rmtree(stale, ignore_errors=True) if stale.is_dir() else stale.unlink(missing_ok=True)


def _remove_older_zips(folder: Path, export_id: int, *, keep: Path) -> None:
    for path in folder.glob(f"export-{export_id}-*.zip"):
        if path != keep:
            path.unlink(missing_ok=True)


class _Packer:
    """The zip of an export's folder (paths inside relative to it), at the fastest deflate level: it is built on every
    export and read once.

    `start()` packs what the folder holds in a thread of its own while the release check reads the files back:
    deflating and file reads let go of the interpreter, so on two cores the zip costs the export little time of its
    own. `finish()` waits for it, adds what came since (the report) and fsyncs, so that a crash cannot leave a file
    that looks whole once it is renamed into place. `stop()` ends it early (a failed export). Without `start()`,
    `finish()` packs everything itself."""

    def __init__(self, source: Path, target: Path, *, last: tuple[str, ...] = (REPORT_NAME,)) -> None:
        # `last`: files written after start() (the report): the thread must never pack one while it is being
        # written (it packed a half-written, even empty, report on a loaded machine, and finish() then skipped it).
        self.source, self.target, self.last = source, target, frozenset(last)
        self._archive: zipfile.ZipFile | None = None
        self._packed: set[Path] = set()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._failure: BaseException | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._pack_in_thread, name="export-zip", daemon=True)
        self._thread.start()

    def finish(self) -> None:
        self._join()
        if self._failure is not None:
            raise self._failure
        self._pack()
        self._archive.close()
        self._archive = None
        with open(self.target, "rb") as handle:
            os.fsync(handle.fileno())

    def stop(self) -> None:
        self._stopping.set()
        self._join()
        if self._archive is not None:
            archive, self._archive = self._archive, None
            with contextlib.suppress(Exception):  # an abandoned zip (its file is removed next): the export's own
                archive.close()  # error is the one to report, not a second one from the same full disk

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _pack_in_thread(self) -> None:
        try:
            self._pack(skip=self.last)
        except BaseException as exc:  # raised again by finish(), in the export's own thread
            self._failure = exc

    def _pack(self, skip: frozenset[str] = frozenset()) -> None:
        if self._archive is None:
            self._archive = zipfile.ZipFile(self.target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1)
        for path in sorted(self.source.rglob("*")):
            if self._stopping.is_set():
                return
            if path.is_file() and path not in self._packed and path.relative_to(self.source).as_posix() not in skip:
                self._archive.write(path, path.relative_to(self.source).as_posix())
                self._packed.add(path)
