"""Test suites: the paths other code finds them by, generation, distillation and comparison (docs/test_suites.md)."""

import json

import pytest

from annotation import test_suites
from annotation.demo import DEMO_GOALS
from annotation.models import Goal
from annotation.sql.test_suite import original_path, suite_dir, suite_paths
from annotation.test_suites import suite_fingerprint

# The job's functions are named for their entity, "test suite": used through the module, pytest never takes them
# for tests.
build, stale = test_suites.test_suite_build, test_suites.test_suites_stale


def test_suite_paths_is_the_original_alone_before_a_suite_is_built(tmp_path):
    assert suite_paths(tmp_path, "concert_singer") == [
        tmp_path / "databases" / "concert_singer" / "concert_singer.sqlite"
    ]


def test_suite_paths_lists_the_original_first_then_the_generated_databases_in_order(tmp_path):
    folder = suite_dir(tmp_path, "concert_singer")
    folder.mkdir(parents=True)
    for name in ("0002.sqlite", "0001.sqlite", "manifest.json"):
        (folder / name).write_text("")
    assert suite_paths(tmp_path, "concert_singer") == [
        original_path(tmp_path, "concert_singer"),
        folder / "0001.sqlite",
        folder / "0002.sqlite",
    ]


# --- the job: building, publishing, staleness -------------------------------------------------------------------


@pytest.fixture
def dorm(demo_databases):
    """The demo's dorm database with its demo goals."""
    database = demo_databases["dorm_demo"]
    for goal in DEMO_GOALS:
        if goal["db_id"] == database.db_id:
            Goal.objects.create(database=database, question=goal["question"], sql=goal["sql"], hardness="medium")
    return database


def test_a_build_publishes_a_suite_that_tells_apart_what_the_original_cannot(dorm, settings):
    settings.TEST_SUITE_MAX_CANDIDATES = 40
    state = build(database_id=dorm.pk)
    assert state.status == "ready" and state.fingerprint == suite_fingerprint(dorm)
    paths = suite_paths(settings.DATA_DIR, dorm.db_id)
    assert paths[0] == dorm.path and len(paths) == 1 + state.databases >= 2
    assert state.size_bytes == sum(path.stat().st_size for path in paths[1:]) <= settings.TEST_SUITE_MAX_KB * 1024
    manifest = json.loads((suite_dir(settings.DATA_DIR, dorm.db_id) / "manifest.json").read_text())
    assert manifest["fingerprint"] == state.fingerprint and manifest["files"] == [path.name for path in paths[1:]]
    assert state.figures["told_apart_by_suite"] > 0
    assert not [p for p in suite_dir(settings.DATA_DIR, dorm.db_id).parent.iterdir() if p.name.startswith(".")]


def test_a_suite_is_stale_when_the_goals_change_and_not_before(dorm, settings):
    settings.TEST_SUITE_MAX_CANDIDATES = 5
    assert dorm.pk in stale()
    build(database_id=dorm.pk)
    assert dorm.pk not in stale()
    Goal.objects.create(database=dorm, question="How many rooms?", sql="SELECT count(*) FROM room", hardness="easy")
    assert dorm.pk in stale()


def test_a_failed_build_keeps_the_old_suite_and_says_why(dorm, settings, monkeypatch):
    settings.TEST_SUITE_MAX_CANDIDATES = 5
    build(database_id=dorm.pk)
    before = suite_paths(settings.DATA_DIR, dorm.db_id)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(test_suites.suites, "build_suite", broken)
    state = build(database_id=dorm.pk, force=True)
    assert state.status == "failed" and "disk full" in state.error
    assert suite_paths(settings.DATA_DIR, dorm.db_id) == before
    assert dorm.pk not in stale()  # not retried on its own: an admin rebuilds it
