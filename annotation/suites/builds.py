"""Building and keeping each hosted database's test suite (docs/test_suites.md).

The generation itself is pure (`annotation.suites.distil`); this module decides when a suite is stale (its
fingerprint: the database file and its goals' SQL), claims a build so that two processes never build the same suite,
publishes the new files in one rename, and records the state shown on the databases pages.

Where a build runs: with a broker (REDIS_URL) it is a Celery task; on the embedded defaults, where Celery is eager
and a task would run inside the request or the server's start, it runs on one background thread of the server
process, started by the server's background loop (`dialogs.background`). Either way no page waits for it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import threading
import uuid
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone, translation

from annotation.models import Database, DatabaseTestSuite
from annotation.suites import distil as suites
from annotation.suites.compare import sql_compare

logger = logging.getLogger(__name__)

# Bumped when generation changes, so every suite built by an older generator is rebuilt.
GENERATOR_VERSION = "2"
# A build whose row has not moved for this long was left by a stopped process and may be claimed again.
STALE_BUILD = timedelta(minutes=10)
# How many of the pairs only a generated database tells apart the manifest lists.
MANIFEST_PAIRS = 200


# The collected queries of a database (the SQL people wrote on it), from the apps above this one: annotation knows
# nothing of dialogues, so `dialogs` registers where they are (dialogs.apps). Each source takes a database and a limit.
_COLLECTED_SOURCES: list = []
# How many collected queries a build reads (the newest): a suite tells apart the neighbours of each, so they bound
# the build's work with the goals.
COLLECTED_QUERIES_READ = 300


def suite_collected_source(source) -> None:
    """Register a source of a database's collected queries: `source(database, limit) -> list of SQL texts`."""
    if source not in _COLLECTED_SOURCES:
        _COLLECTED_SOURCES.append(source)


def collected_queries(database: Database) -> list[str]:
    """The queries collected on `database` that the registered sources give, distinct, in a stable order."""
    found: set[str] = set()
    for source in _COLLECTED_SOURCES:
        found.update(sql for sql in source(database, COLLECTED_QUERIES_READ) if sql)
    return sorted(found)


def suite_queries(database: Database) -> list[str]:
    """The queries a database's suite must tell apart from their neighbours: its goals' SQL and the queries collected
    on it, in a stable order."""
    goals = set(database.goals.exclude(sql="").values_list("sql", flat=True))
    return sorted(goals | set(collected_queries(database)))


def suite_fingerprint(database: Database) -> str:
    """What a suite is built from: the generator, the database file, the goal set, and how many collected queries
    there are to the nearest power of two below. A change means a rebuild: every goal counts, while collected queries
    (one more after every answer) rebuild the suite each time they double, not after each dialogue."""
    digest = hashlib.sha256()
    goals = sorted(set(database.goals.exclude(sql="").values_list("sql", flat=True)))
    collected = len(collected_queries(database))
    scale = str(collected.bit_length())  # 0 for none, then 1, 2-3, 4-7, 8-15, ...
    for part in (GENERATOR_VERSION, database.sha256 or database.file, scale, *goals):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def database_suite_paths(database: Database) -> list:
    """The databases a query pair of `database` is checked on: its current file, then its suite's (none until built)."""
    return suites.suite_paths(settings.DATA_DIR, database.db_id, database.path)


def suite_compare(
    database: Database, sql_a: str, sql_b: str, *, seconds: float | None = None, databases: int | None = None
) -> dict:
    """Compare two queries on a database's suite as it stands (the original alone until one is built), then search
    for a database that tells them apart, within `seconds` (SQL_COMPARE_SECONDS when not given; 0: the suite alone)
    and, given `databases`, until it compared that many: see `annotation.suites.compare.sql_compare`. Raises
    CompareError when `sql_a` does not run."""
    budget = settings.SQL_COMPARE_SECONDS if seconds is None else seconds
    return sql_compare(database_suite_paths(database), sql_a, sql_b, seconds=budget or None, databases=databases)


def suite_bounds() -> suites.SuiteBounds:
    return suites.SuiteBounds(
        max_databases=settings.TEST_SUITE_MAX_DATABASES,
        max_bytes=settings.TEST_SUITE_MAX_KB * 1024,
        max_candidates=settings.TEST_SUITE_MAX_CANDIDATES,
        max_seconds=float(settings.TEST_SUITE_MAX_SECONDS),
    )


def test_suites_stale() -> list[int]:
    """Ids of the hosted databases (with a file) whose suite is missing or built from something else, and not being
    built now (a build left by a stopped process counts as not being built). A failed build is not retried on its own
    until the database or its goals change: an admin rebuilds it."""
    stale = []
    waiting = (DatabaseTestSuite.State.QUEUED, DatabaseTestSuite.State.RUNNING)
    for database in Database.objects.exclude(file="").select_related("test_suite"):
        state = getattr(database, "test_suite", None)
        if state is None:
            stale.append(database.pk)
        elif state.state in waiting:
            if state.updated_at < timezone.now() - STALE_BUILD:
                stale.append(database.pk)
        elif state.fingerprint != suite_fingerprint(database):
            stale.append(database.pk)
    return stale


def test_suites_schedule(*, database_ids: list[int] | None = None, force: bool = False) -> list[int]:
    """Mark the given databases' suites (default: every stale one) as waiting and hand them to the builder; with
    `force`, they are built even when up to date. Returns the ids handed over."""
    ids = test_suites_stale() if database_ids is None else list(database_ids)
    for database_id in ids:
        DatabaseTestSuite.objects.update_or_create(
            database_id=database_id,
            # The language of whoever asked now (a person's change, or the schedule's default outside a request).
            defaults={
                "state": DatabaseTestSuite.State.QUEUED,
                "progress_done": 0,
                "message": "",
                "message_language": translation.get_language() or "",
            },
        )
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        from annotation.tasks import test_suite_build as task

        for database_id in ids:
            task.delay_on_commit(database_id, force)
    elif ids or DatabaseTestSuite.objects.filter(state=DatabaseTestSuite.State.QUEUED).exists():
        # Also after a restart: suites left waiting by the previous process are picked up by this one.
        transaction.on_commit(lambda: _BackgroundBuilder.wake(force=set(ids) if force else set()))
    return ids


def test_suite_request_rebuild(*, database: Database) -> None:
    """An admin's "rebuild": build this database's suite again now, whatever its state."""
    test_suites_schedule(database_ids=[database.pk], force=True)


class _BackgroundBuilder:
    """One thread per process that builds every waiting suite, one after another, then stops."""

    _lock = threading.Lock()
    _thread: threading.Thread | None = None

    _forced: set[int] = set()

    @classmethod
    def wake(cls, *, force: set[int]) -> None:
        with cls._lock:
            cls._forced |= force
            if cls._thread is not None and cls._thread.is_alive():
                return  # it looks for waiting suites again before it stops
            cls._thread = threading.Thread(target=cls._run, name="test-suite-builder", daemon=True)
            cls._thread.start()

    @classmethod
    def _run(cls) -> None:
        try:
            while True:
                waiting = list(
                    DatabaseTestSuite.objects.filter(state=DatabaseTestSuite.State.QUEUED).values_list(
                        "database_id", flat=True
                    )
                )
                if not waiting:
                    return
                for database_id in waiting:
                    with cls._lock:
                        forced = database_id in cls._forced
                        cls._forced.discard(database_id)
                    if test_suite_build(database_id=database_id, force=forced) is None:
                        return  # another process builds it: leave the rest to the next round
        except Exception:  # a thread has nobody to tell: log it, the next schedule round starts another
            logger.exception("test-suite builder stopped")
        finally:
            connections.close_all()  # this thread's own connections: a thread's connection is never reused


def _claim(database_id: int) -> bool:
    """Take the build of this suite for this call; False when another process holds a live claim."""
    fresh = timezone.now() - STALE_BUILD
    with transaction.atomic():
        state, _ = DatabaseTestSuite.objects.select_for_update().get_or_create(database_id=database_id)
        if state.state == DatabaseTestSuite.State.RUNNING and state.updated_at >= fresh:
            return False
        state.state = DatabaseTestSuite.State.RUNNING
        state.progress_done, state.message = 0, ""
        state.started_at, state.finished_at = timezone.now(), None
        state.save(update_fields=["state", "progress_done", "message", "started_at", "finished_at", "updated_at"])
    return True


def test_suite_build(*, database_id: int, force: bool = False) -> DatabaseTestSuite | None:
    """Build (or rebuild) the suite of database `database_id` and publish it. Returns its state, or None when another
    process is building it. An up-to-date suite is left as it is unless `force`. The new files are made in a scratch
    folder and swapped in by renames, so a reader sees the old suite or the new one, never half of one; a failure
    keeps the old files and records why."""
    database = Database.objects.get(pk=database_id)
    fingerprint = suite_fingerprint(database)
    state = DatabaseTestSuite.objects.filter(database_id=database_id).first()
    if not force and state and state.state == DatabaseTestSuite.State.SUCCEEDED and state.fingerprint == fingerprint:
        return state  # a message delivered twice: the suite is built already
    if not database.has_file or not _claim(database_id):
        return None
    data_dir = Path(settings.DATA_DIR)
    final = suites.suite_dir(data_dir, database.db_id)
    scratch = final.parent / f".{database.db_id}.build-{uuid.uuid4().hex[:8]}"
    bounds = suite_bounds()
    DatabaseTestSuite.objects.filter(database_id=database_id).update(progress_total=int(bounds.max_seconds))

    def progress(seconds: int, max_seconds: int) -> None:  # about once a second: the time spent of the time allowed
        DatabaseTestSuite.objects.filter(database_id=database_id).update(
            progress_done=seconds, progress_total=max_seconds, updated_at=timezone.now()
        )

    # Why a build failed is written in the language of the person whose change asked for it (docs/i18n.md).
    with DatabaseTestSuite.objects.get(database_id=database_id).speaking():
        return _build(database, fingerprint, scratch, final, bounds, progress)


def _build(database: Database, fingerprint: str, scratch: Path, final: Path, bounds, progress) -> DatabaseTestSuite:
    database_id = database.pk
    try:
        report = suites.build_suite(
            database.path,
            scratch,
            suite_queries(database),
            bounds=bounds,
            seed=int(fingerprint[:8], 16),
            progress=progress,
        )
        figures = report.figures()
        # Which pair each generated database was kept for (a bounded sample): what a reader checks the suite by.
        told_apart = [
            {"database": pair.told_by, "query": report.queries[pair.query], "neighbour": pair.sql}
            for pair in report.pairs
            if pair.told_by not in (None, "original")
        ][:MANIFEST_PAIRS]
        manifest = {
            "db_id": database.db_id,
            "fingerprint": fingerprint,
            "files": report.files,
            **figures,
            "told_apart": told_apart,
        }
        (scratch / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
        _publish(scratch, final)
    except Exception as exc:
        shutil.rmtree(scratch, ignore_errors=True)
        logger.exception("test suite of %s failed", database.db_id)
        DatabaseTestSuite.objects.filter(database_id=database_id).update(
            state=DatabaseTestSuite.State.FAILED,
            fingerprint=fingerprint,
            message=str(exc)[:2000],
            finished_at=timezone.now(),
        )
        return DatabaseTestSuite.objects.get(database_id=database_id)
    now = timezone.now()
    DatabaseTestSuite.objects.filter(database_id=database_id).update(
        state=DatabaseTestSuite.State.SUCCEEDED,
        progress_done=int(report.seconds),
        progress_total=int(bounds.max_seconds),
        databases=len(report.files),
        size_bytes=report.size_bytes,
        fingerprint=fingerprint,
        report=figures,
        message="",
        built_at=now,
        finished_at=now,
    )
    return DatabaseTestSuite.objects.get(database_id=database_id)


def _publish(scratch: Path, final: Path) -> None:
    old = final.parent / f".{final.name}.old-{uuid.uuid4().hex[:8]}"
    if final.exists():
        os.replace(final, old)
    os.replace(scratch, final)
    shutil.rmtree(old, ignore_errors=True)
