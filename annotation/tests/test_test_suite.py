"""Test suites: the paths other code finds them by, generation, distillation and comparison (docs/test_suites.md)."""

import io
import json

import pytest
from django.core.management import call_command

from annotation.demo import DEMO_GOALS
from annotation.models import DatabaseTestSuite, Goal
from annotation.suites import builds as suite_builds
from annotation.suites.builds import suite_fingerprint
from annotation.suites.compare import results_equal, smallest_difference
from annotation.suites.distil import mutants, original_path, suite_dir, suite_paths

# The job's functions are named for their entity, "test suite": used through the module, pytest never takes them
# for tests.
build, stale = suite_builds.test_suite_build, suite_builds.test_suites_stale


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
    assert state.state == "succeeded" and state.fingerprint == suite_fingerprint(dorm)
    paths = suite_paths(settings.DATA_DIR, dorm.db_id)
    assert paths[0] == dorm.path and len(paths) == 1 + state.databases >= 2
    assert state.size_bytes == sum(path.stat().st_size for path in paths[1:]) <= settings.TEST_SUITE_MAX_KB * 1024
    manifest = json.loads((suite_dir(settings.DATA_DIR, dorm.db_id) / "manifest.json").read_text())
    assert manifest["fingerprint"] == state.fingerprint and manifest["files"] == [path.name for path in paths[1:]]
    assert state.report["told_apart_by_suite"] > 0
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

    monkeypatch.setattr(suite_builds.suites, "build_suite", broken)
    state = build(database_id=dorm.pk, force=True)
    assert state.state == "failed" and "disk full" in state.message
    assert suite_paths(settings.DATA_DIR, dorm.db_id) == before
    assert dorm.pk not in stale()  # not retried on its own: an admin rebuilds it


def test_a_build_asked_in_chinese_says_why_it_failed_in_chinese(dorm, monkeypatch):
    """The build speaks the language of whoever asked for it (docs/i18n.md): its failure is worded under it."""
    from django.utils import translation

    with translation.override("zh-hans"):
        DatabaseTestSuite.objects.create(database=dorm)

    def broken(*args, **kwargs):
        raise OSError(f"worded in {translation.get_language()}")

    monkeypatch.setattr(suite_builds.suites, "build_suite", broken)
    with translation.override("en"):
        state = build(database_id=dorm.pk, force=True)
    assert state.state == "failed" and state.message == "worded in zh-hans"


# --- comparing results the way the official evaluator does ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rows_a", "rows_b", "ordered", "equal"),
    [
        ([], [], True, True),
        ([(1, "a"), (2, "b")], [(2, "b"), (1, "a")], False, True),  # a bag: the order is free
        ([(1, "a"), (2, "b")], [(2, "b"), (1, "a")], True, False),  # ORDER BY: a list
        ([(1, "a"), (2, "b")], [("a", 1), ("b", 2)], True, True),  # the columns may come in any order
        ([(1, 2), (2, 1)], [(1, 1), (2, 2)], False, False),  # but one order for every row
        ([(1,), (1,), (2,)], [(1,), (2,), (2,)], False, False),  # bags count duplicates
        ([(1,)], [(1,), (1,)], False, False),
        ([(1, 2)], [(1,)], False, False),
    ],
)
def test_results_compare_as_bags_or_lists_with_columns_in_any_order(rows_a, rows_b, ordered, equal):
    assert results_equal(rows_a, rows_b, ordered=ordered) is equal


def test_the_smallest_difference_names_the_rows_one_result_has_and_the_other_has_not():
    assert smallest_difference([(1, "a"), (2, "b"), (2, "b")], [(2, "b"), (3, "c")], ordered=False) == {
        "kind": "rows",
        "only_in_a": [[1, "a"], [2, "b"]],
        "only_in_b": [[3, "c"]],
    }
    assert smallest_difference([(1,), (2,)], [(2,), (1,)], ordered=True) == {
        "kind": "order",
        "position": 0,
        "row_a": [1],
        "row_b": [2],
    }


def test_neighbour_queries_change_one_thing_each():
    found = mutants("SELECT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age LIMIT 3")
    assert "SELECT name FROM singer WHERE age >= 20 AND country = 'France' ORDER BY age LIMIT 3" in found
    assert "SELECT DISTINCT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age LIMIT 3" in found
    assert "SELECT name FROM singer WHERE age > 20 OR country = 'France' ORDER BY age LIMIT 3" in found
    assert "SELECT name FROM singer WHERE age > 20 ORDER BY age LIMIT 3" in found
    assert "SELECT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age DESC LIMIT 3" in found
    assert "SELECT name FROM singer WHERE age > 20 AND country = 'France' ORDER BY age LIMIT 4" in found
    joined = mutants("SELECT max(a.x) FROM a JOIN b ON a.id = b.id UNION SELECT 1")
    assert "SELECT MIN(a.x) FROM a JOIN b ON a.id = b.id UNION SELECT 1" in joined
    assert "SELECT MAX(a.x) FROM a LEFT JOIN b ON a.id = b.id UNION SELECT 1" in joined
    assert "SELECT MAX(a.x) FROM a JOIN b ON a.id = b.id INTERSECT SELECT 1" in joined
    assert mutants("not sql at all (") == []


# --- sql_compare and test_suite build, as a person runs them ---------------------------------------------------------


def _manage(*args) -> tuple[list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_sql_compare_finds_a_database_where_a_neighbour_differs_and_agrees_on_a_rewrite(dorm, settings):
    settings.TEST_SUITE_MAX_CANDIDATES, settings.SQL_COMPARE_SECONDS = 40, 1.0
    goal = dorm.goals.first().sql
    _manage("suites", "build", "--database", "dorm_demo")
    checked = len(suite_paths(settings.DATA_DIR, "dorm_demo"))
    # An alias renamed: nothing tells them apart, and nothing is claimed beyond that: the suite's databases, then a
    # search for this pair.
    [same], _ = _manage("sql_compare", "--database", "dorm_demo", goal, goal.replace("T1", "D1"))
    assert same["equivalent"] is True and same["verdict"] == "no difference found"
    assert same["checked_databases"] == checked
    assert 0 < same["seconds"] <= settings.SQL_COMPARE_SECONDS + 1  # its time, and a loaded machine's margin
    # How far a search gets in its time depends on the machine (once slowed, none in 1 s); bounded by databases it
    # searches as far on every machine, and its time is only a ceiling.
    rewrite = ("--database", "dorm_demo", goal, goal.replace("T1", "D1"))
    [counted], _ = _manage("sql_compare", "--seconds", "10", "--databases", "5", *rewrite)
    assert counted["equivalent"] is True and counted["searched_databases"] == 5
    [alone], _ = _manage("sql_compare", "--seconds", "0", "--database", "dorm_demo", goal, goal.replace("T2", "H2"))
    assert alone["checked_databases"] == checked and alone["searched_databases"] == 0
    # The query written again (other case, other spacing) is the same query: nothing is run or searched.
    [again], _ = _manage("sql_compare", "--database", "dorm_demo", goal, "  " + goal.replace("SELECT", "select", 1))
    assert again["verdict"] == "the same query" and again["equivalent"] is True
    assert again["checked_databases"] == 0 and again["searched_databases"] == 0
    manifest = json.loads((suite_dir(settings.DATA_DIR, "dorm_demo") / "manifest.json").read_text())
    hidden = manifest["told_apart"][0]  # a pair only a generated database tells apart
    assert hidden["database"] != "original"
    [differ], _ = _manage("sql_compare", "--database", "dorm_demo", hidden["query"], hidden["neighbour"])
    assert differ["equivalent"] is False and differ["verdict"] == "different"
    assert differ["checked_databases"] == checked and differ["searched_databases"] == 0
    counterexample = differ["counterexample"]
    assert counterexample["database"].endswith(".sqlite")  # a generated database: the original cannot tell
    assert counterexample["difference"]["kind"] in ("rows", "order", "error", "columns")
    assert {"database", "a", "b", "difference"} <= set(counterexample)


def test_bad_input_gets_a_clear_error_and_a_bad_line_keeps_its_place(dorm, tmp_path):
    from django.core.management.base import CommandError

    for args, message in [
        (("sql_compare", "--database", "nowhere", "SELECT 1", "SELECT 1"), "no registered database 'nowhere'"),
        (("sql_compare", "--database", "dorm_demo", "SELECT 1"), "usage: sql_compare"),
        (("sql_compare", "--database", "dorm_demo", "SELECT nope FROM dorm", "SELECT 1"), "the first query fails"),
        (("sql_compare", "--file", str(tmp_path / "absent.tsv")), "is not a file"),
        (("suites", "build", "--database", "nowhere"), "no registered database 'nowhere'"),
    ]:
        with pytest.raises(CommandError, match=message):
            _manage(*args)
    lines = tmp_path / "pairs.tsv"
    lines.write_text(
        "dorm_demo\tSELECT count(*) FROM dorm\tSELECT count(dorm_id) FROM dorm\n"
        "just one column\n"
        "nowhere\tSELECT 1\tSELECT 1\n"
        "dorm_demo\tSELECT count(*) FROM dorm\tSELECT count(*) FROM nope\n"
    )
    out = io.StringIO()
    with pytest.raises(CommandError, match="2 line"):
        call_command("sql_compare", "--file", str(lines), stdout=out)
    first, second, third, fourth = [json.loads(line) for line in out.getvalue().splitlines()]
    assert first["line"] == 1 and first["db_id"] == "dorm_demo" and first["verdict"] == "no difference found"
    assert first["checked_databases"] == 1 and first["equivalent"] is True
    assert second == {"line": 2, "error": "expected db_id<TAB>SQL_A<TAB>SQL_B"}
    assert third["line"] == 3 and "no registered database" in third["error"]
    assert fourth["equivalent"] is False and fourth["counterexample"]["difference"]["kind"] == "error"


# --- the databases pages and the admin's rebuild ---------------------------------------------------------------------


def test_the_databases_pages_show_each_suite_and_only_an_admin_may_rebuild_it(client, dorm, ada, erin, settings):
    settings.TEST_SUITE_MAX_CANDIDATES = 20
    client.force_login(erin)
    assert "no suite yet" in client.get("/databases/").content.decode()
    state = build(database_id=dorm.pk)
    listing = client.get("/databases/").content.decode()
    assert f"{state.databases} database" in listing and "ready" in listing  # "1 database", "5 databases"
    page = client.get(f"/databases/{dorm.db_id}/").content.decode()
    assert f"this database alone tells {state.report['told_apart_by_original']} apart" in page
    assert "Rebuild the test suite" not in page
    rebuild = f"/databases/{dorm.db_id}/test-suite/rebuild/"
    assert client.post(rebuild).status_code == 403
    client.force_login(ada)
    assert "Rebuild the test suite" in client.get(f"/databases/{dorm.db_id}/").content.decode()
    assert client.get(rebuild).status_code == 405
    response = client.post(rebuild, follow=True)
    assert "will be rebuilt in the background" in response.content.decode()
    assert "waiting to be built" in response.content.decode()
    dorm.test_suite.refresh_from_db()
    assert dorm.test_suite.state == "queued"


def test_a_database_without_goals_gets_a_suite_from_its_schema_and_its_page_says_so(
    client, demo_databases, erin, settings
):
    # Stopped by the databases kept, with time to reach them on a loaded machine (two seconds kept none there, once).
    settings.TEST_SUITE_MAX_SECONDS, settings.TEST_SUITE_MAX_DATABASES = 60, 3
    library = demo_databases["library_demo"]
    assert not library.goals.exists()
    [line], _ = _manage("suites", "build", "--database", "library_demo")
    assert line["state"] == "succeeded" and line["from_schema"] is True and line["queries"] > 10
    # Generic neighbours the database alone cannot tell apart, told apart by the suite.
    assert line["hidden_on_original"] > 0 and line["told_apart_by_suite"] > 0 and line["databases"] >= 1
    assert 0 < line["power"] < 1
    assert line["stopped_by"] in ("time", "databases", "size", "every pair told apart")
    client.force_login(erin)
    page = client.get("/databases/library_demo/").content.decode()
    assert "Built from the schema alone: this database has no goals or collected queries yet" in page
    assert f"neighbour queries of its {line['queries']} generic queries" in page
    assert "The build stopped" in page and "candidate databases in" in page


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_stale_suite_is_built_on_a_thread_and_the_caller_does_not_wait(settings, demo_files):
    from annotation.databases.services import database_register

    settings.TEST_SUITE_MAX_CANDIDATES = 20
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded defaults, also when the tests run beside a real broker
    database = database_register(db_id="library_demo", source_path=demo_files["library_demo"])
    assert suite_builds.test_suites_schedule() == [database.pk]
    assert DatabaseTestSuite.objects.get(database=database).state in ("queued", "running")
    thread = suite_builds._BackgroundBuilder._thread
    thread.join(timeout=120)  # the condition waited for: the builder has finished its work
    assert not thread.is_alive()
    state = DatabaseTestSuite.objects.get(database=database)
    assert state.state == "succeeded" and state.fingerprint == suite_fingerprint(database)
    assert suite_builds.test_suites_schedule() == []  # up to date: nothing handed over again


def test_with_a_broker_each_stale_suite_is_sent_to_a_worker(dorm, demo_databases, settings, monkeypatch):
    from annotation import tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(tasks.test_suite_build, "delay_on_commit", lambda *args: sent.append(args))
    every = sorted(database.pk for database in demo_databases.values())
    assert sorted(suite_builds.test_suites_schedule()) == every
    assert sorted(sent) == [(pk, False) for pk in every]
    assert DatabaseTestSuite.objects.get(database=dorm).state == "queued"
    assert suite_builds.test_suites_schedule() == []  # waiting already: not sent twice
    suite_builds.test_suite_request_rebuild(database=dorm)
    assert sent[-1] == (dorm.pk, True) and len(sent) == len(every) + 1
