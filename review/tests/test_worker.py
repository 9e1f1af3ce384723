"""Exports through a real Celery worker (Redis broker, PostgreSQL), not eager mode: a worker process killed in the
middle of an export leaves no half-written download, and the export still completes.

Run with the real stack: `.venv/bin/python tools/test_stack.py with-services -- .venv/bin/pytest review -m services`.
"""

import os
import signal
import subprocess
import sys
import time
import uuid
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from dialogs.models import Event
from review.dataset import selectors
from review.dataset.services import dataset_export_create, dataset_export_retry
from review.models import Export

ROOT = Path(__file__).resolve().parents[2]
# Runs for the sandbox's whole time limit, then fails: a slow step in the middle of the export, without any hook in
# the code under test.
SLOW_SQL = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c WHERE x = {n}"

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_env():
    if not os.environ.get("REDIS_URL") or connection.vendor != "postgresql":
        pytest.skip(
            "needs the real stack (REDIS_URL and a PostgreSQL DATABASE_URL): run it through tools/test_stack.py"
        )
    db = connection.settings_dict
    url = f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return {
        **os.environ,
        "DATABASE_URL": url,  # the test database, which this test commits to (transaction=True)
        "WOZSQL_DATA_DIR": str(settings.DATA_DIR),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "SANDBOX_TIMEOUT_MS": "3000",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


class Worker:
    """`celery worker` in its own process group (prefork pool, one child), logging to a file."""

    def __init__(self, env: dict, log: Path):
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork", "--concurrency=1",
             "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", f"export-{uuid.uuid4().hex[:8]}@%h"],
            cwd=ROOT, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        wait_for(lambda: "ready." in log.read_text(errors="replace"), 60, "the worker to start", self)

    def kill_all(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


def wait_for(condition, timeout: float, what: str, worker: Worker | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    log = worker.log.read_text(errors="replace")[-3000:] if worker else ""
    raise AssertionError(f"timed out waiting for {what}\n{log}")


@pytest.fixture
def slow_dialogue(dorm_dialogue):
    """The dorm dialogue, with two of its runs edited into queries that each take the sandbox's full time limit."""
    runs = list(Event.objects.filter(dialogue=dorm_dialogue, kind="sql_run").order_by("seq"))
    for number, run in enumerate(runs[:2]):
        run.payload = {**run.payload, "sql": SLOW_SQL.format(n=number)}
        run.save(update_fields=["payload"])
    return dorm_dialogue


def _running(export: Export):
    export.refresh_from_db()
    return export.state == Export.State.RUNNING and export.phase == "Checking SQL" and export.worker


def _published_zips(export: Export) -> list[Path]:
    return list((Path(settings.DATA_DIR) / "exports").glob(f"export-{export.pk}-*.zip"))


def _assert_whole(export: Export) -> None:
    path = selectors.export_file_path(export)
    assert path is not None and _published_zips(export) == [path]
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        assert "cosql_dataset/sql_state_tracking/cosql_train.json" in archive.namelist()
    leftovers = [p for p in path.parent.iterdir() if p.name.endswith((".part", ".work"))]
    assert leftovers == []


def test_a_killed_worker_process_leaves_no_download_and_the_export_completes(slow_dialogue, ada, worker_env, tmp_path):
    worker = Worker(worker_env, tmp_path / "worker.log")
    try:
        export = dataset_export_create(requested_by=ada, formats=["cosql", "gold"])
        wait_for(lambda: _running(export), 60, "the export to start", worker)
        host, pid = export.worker.rsplit(":", 1)
        # Killed while the SQL is being checked: the slow queries keep it there far longer than this takes.
        os.kill(int(pid), signal.SIGKILL)  # the pool process running the task
        export.refresh_from_db()
        assert export.state == Export.State.RUNNING and export.file == ""
        assert selectors.export_file_path(export) is None and _published_zips(export) == []
        # acks_late + reject_on_worker_lost: the message goes back to the broker and the task runs again.
        wait_for(lambda: Export.objects.get(pk=export.pk).state == Export.State.SUCCEEDED, 90, "the rerun", worker)
        export.refresh_from_db()
        assert export.attempts == 2 and export.worker != f"{host}:{pid}"
        _assert_whole(export)
        assert {p["action"] for p in export.report["problems"]} == {"skipped"}
        assert len(export.report["problems"]) == 2  # the two slow queries ran out of time and were reported
    finally:
        worker.kill_all()


def test_a_dead_worker_stalls_the_export_and_a_retry_completes_it(slow_dialogue, ada, worker_env, tmp_path, settings):
    settings.EXPORT_STALL_SECONDS = 2
    first = Worker(worker_env, tmp_path / "first.log")
    try:
        export = dataset_export_create(requested_by=ada, formats=["cosql"])
        wait_for(lambda: _running(export), 60, "the export to start", first)
    finally:
        first.kill_all()  # the whole worker, main process included: nobody hands the message back
    assert selectors.export_file_path(export) is None and _published_zips(export) == []
    wait_for(lambda: selectors.export_can_retry(Export.objects.get(pk=export.pk)), 10, "the export to show as stalled")
    dataset_export_retry(export=Export.objects.get(pk=export.pk))
    second = Worker(worker_env, tmp_path / "second.log")
    try:
        wait_for(lambda: Export.objects.get(pk=export.pk).state == Export.State.SUCCEEDED, 90, "the retry", second)
        export.refresh_from_db()
        _assert_whole(export)
    finally:
        second.kill_all()
