"""Hostile SQL against the sandbox: every guard of annotation.sql.sandbox, each test able to fail.

The suite runs on a small database it builds itself. A module fixture hashes that file first and, when the module is
done, checks it is byte-identical, that nothing was created beside it, and that a normal query still answers fast.
"""

import asyncio
import hashlib
import json
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from annotation.sql import sandbox
from annotation.sql.sandbox import SandboxLimits, execute, execute_async

# Short limits keep the hostile cases fast; each pool is keyed by (workers, memory_mb, temp_mb), so tests that kill
# or freeze workers use their own memory_mb and never disturb the others.
LIMITS = SandboxLimits(timeout_ms=400, max_rows=1000, workers=2, memory_mb=256, temp_mb=64)
TIMEOUT_SLACK_MS = 500  # scheduling noise on a loaded CI machine; the progress handler itself stops within ~0.1 ms
BIG_ROWS = 1500


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """A small database: ``small`` (100 rows), ``big`` (1,500 rows), ``odd`` (a blob and an infinity)."""
    directory = tmp_path_factory.mktemp("sandbox")
    path = directory / "shop.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE small (i INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE big (i INTEGER PRIMARY KEY, label TEXT, filler TEXT);
        CREATE TABLE odd (id INTEGER, data BLOB, amount REAL, note TEXT);
        CREATE VIEW small_names AS SELECT name FROM small;
        """
    )
    connection.executemany("INSERT INTO small VALUES (?, ?)", [(i, f"item {i}") for i in range(100)])
    connection.executemany("INSERT INTO big VALUES (?, ?, ?)", [(i, f"row {i}", "x" * 2000) for i in range(BIG_ROWS)])
    connection.execute("INSERT INTO odd VALUES (1, x'00ff10', 1e999, 'plain')")
    connection.execute("INSERT INTO odd VALUES (2, randomblob(5000), -1e999, NULL)")
    connection.commit()
    connection.close()
    before = _sha256(path)
    files_before = sorted(os.listdir(directory))
    yield path
    # The whole hostile suite has run against this file: it must be byte-identical, alone, and still fast to query.
    assert _sha256(path) == before, "the sandboxed database changed"
    assert sorted(os.listdir(directory)) == files_before, "files appeared beside the database"
    started = time.perf_counter()
    result = execute(path, "SELECT count(*) FROM small", limits=LIMITS)
    assert result.ok and result.rows == [[100]]
    assert time.perf_counter() - started < 1.0
    sandbox.shutdown()  # this module started several small pools; later users start their own on demand


def run(database: Path, sql: str, **limits) -> sandbox.SandboxResult:
    chosen = SandboxLimits(**{**LIMITS.__dict__, **limits}) if limits else LIMITS
    return execute(database, sql, limits=chosen)


def assert_refused(result, kind: str) -> None:
    assert not result.ok, result
    assert result.error["kind"] == kind, result.error
    assert result.error["message"]
    assert result.rows == []


def assert_still_answers(database: Path) -> None:
    result = run(database, "SELECT count(*) FROM small")
    assert result.ok and result.rows == [[100]], result.error


# --- The baseline the refusals are measured against ----------------------------------------------------------------


def test_a_select_answers_with_columns_and_rows(database):
    result = run(database, "SELECT i, name FROM small WHERE i < 3 ORDER BY i")
    assert result.ok, result.error
    assert result.columns == ["i", "name"]
    assert result.rows == [[0, "item 0"], [1, "item 1"], [2, "item 2"]]
    assert result.row_count == 3 and result.truncated is False
    assert result.elapsed_ms > 0


def test_a_trailing_semicolon_and_comments_are_one_statement(database):
    result = run(database, "-- count\nSELECT count(*) FROM small; /* done */ ;")
    assert result.ok, result.error
    assert result.rows == [[100]]


def test_a_semicolon_inside_a_string_is_not_a_second_statement(database):
    result = run(database, "SELECT ';DELETE FROM small' AS text")
    assert result.ok, result.error
    assert result.rows == [[";DELETE FROM small"]]


def test_a_view_and_sqlite_master_are_readable(database):
    # Reading the schema is allowed: the expert sees the schema anyway, and sqlite_master holds no data.
    assert run(database, "SELECT count(*) FROM small_names").rows == [[100]]
    result = run(database, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    assert result.ok and result.rows == [["big"], ["odd"], ["small"]]


def test_schema_pragmas_on_the_allow_list_answer(database):
    result = run(database, "PRAGMA table_info(small)")
    assert result.ok, result.error
    assert [row[1] for row in result.rows] == ["i", "name"]


# --- Writes, schema changes, transactions: refused ------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO small VALUES (1000, 'x')",
        "UPDATE small SET name = 'x'",
        "DELETE FROM small",
        "REPLACE INTO small VALUES (1, 'x')",
        "INSERT OR REPLACE INTO small VALUES (1, 'x')",
        "CREATE TABLE evil (x)",
        "CREATE INDEX evil ON small (name)",
        "CREATE VIEW evil AS SELECT 1",
        "CREATE TRIGGER evil AFTER INSERT ON small BEGIN SELECT 1; END",
        "CREATE VIRTUAL TABLE evil USING fts5 (x)",
        "DROP TABLE small",
        "DROP VIEW small_names",
        "ALTER TABLE small ADD COLUMN evil TEXT",
        "ALTER TABLE small RENAME TO evil",
        "CREATE TEMP TABLE evil (x)",
        "CREATE TEMPORARY TABLE evil AS SELECT * FROM small",
        "CREATE TEMP VIEW evil AS SELECT 1",
        "REINDEX",
        "ANALYZE",
        "BEGIN",
        "BEGIN IMMEDIATE",
        "COMMIT",
        "END",
        "ROLLBACK",
        "SAVEPOINT s1",
        "RELEASE s1",
        "VACUUM",
        "DETACH main",
    ],
)
def test_writes_schema_changes_and_transactions_are_forbidden(database, sql):
    assert_refused(run(database, sql), "forbidden")


@pytest.mark.parametrize(
    "sql",
    [
        "WITH x AS (SELECT 1) DELETE FROM small",
        "WITH x AS (SELECT 1) INSERT INTO small SELECT 5000, 'x' FROM x",
        "WITH x AS (SELECT 1) UPDATE small SET name = 'x'",
        "EXPLAIN DELETE FROM small",
    ],
)
def test_writes_behind_a_read_keyword_reach_the_authorizer_and_are_forbidden(database, sql):
    # These start with WITH or EXPLAIN, so the keyword check lets them through: the worker's authorizer refuses them.
    result = run(database, sql)
    assert_refused(result, "forbidden")
    assert "not allowed" in result.error["message"]


def test_vacuum_into_creates_no_file(database, tmp_path):
    target = tmp_path / "copy.sqlite"
    assert_refused(run(database, f"VACUUM INTO '{target}'"), "forbidden")
    assert not target.exists()


def test_attach_creates_no_file(database, tmp_path):
    target = tmp_path / "attached.sqlite"
    assert_refused(run(database, f"ATTACH DATABASE '{target}' AS other"), "forbidden")
    assert_refused(run(database, f"ATTACH '{target}' AS other"), "forbidden")
    assert not target.exists()


@pytest.mark.parametrize(
    "sql",
    [
        "PRAGMA writable_schema = 1",
        "PRAGMA writable_schema = ON",
        "PRAGMA query_only = 0",
        "PRAGMA query_only = OFF",
        "PRAGMA trusted_schema = ON",
        "PRAGMA journal_mode = WAL",
        "PRAGMA user_version = 7",
        "PRAGMA schema_version = 99",
        "PRAGMA temp_store = FILE",
        "PRAGMA cache_size = -1000000",
        "PRAGMA mmap_size = 1000000000",
        "PRAGMA main.query_only = 0",
        "PRAGMA query_only",
    ],
)
def test_pragmas_off_the_allow_list_are_forbidden(database, sql):
    result = run(database, sql)
    assert_refused(result, "forbidden")
    assert "PRAGMA" in result.error["message"]


def test_the_refused_pragmas_left_the_connection_read_only(database):
    # If "PRAGMA query_only = 0" had slipped through on the cached connection, this temp table would now be created.
    run(database, "PRAGMA query_only = 0")
    assert_refused(run(database, "CREATE TEMP TABLE evil (x)"), "forbidden")
    assert_refused(run(database, "WITH x AS (SELECT 1) INSERT INTO small SELECT 7000, 'x' FROM x"), "forbidden")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT load_extension('/tmp/evil.so')",
        "SELECT load_extension('/tmp/evil.so', 'entry')",
        "SELECT fts3_tokenizer('simple')",
        "SELECT * FROM pragma_table_info('small')",
        "SELECT * FROM json_each('[1, 2]')",
        "SELECT * FROM dbstat",
    ],
)
def test_dangerous_functions_and_virtual_tables_are_forbidden(database, sql):
    assert_refused(run(database, sql), "forbidden")


def test_several_statements_are_refused_and_the_second_never_runs(database):
    result = run(database, "SELECT 1; DELETE FROM small")
    assert_refused(result, "too_many_statements")
    assert result.error["position"] == len("SELECT 1; ")
    assert_refused(run(database, "SELECT 1;\n-- sneaky\nSELECT 2"), "too_many_statements")
    assert_still_answers(database)


# --- Time, memory and size limits ------------------------------------------------------------------------------------


def test_an_endless_recursive_cte_stops_at_the_time_limit(database):
    assert_still_answers(database)
    workers_before = set(sandbox.worker_pids(LIMITS))
    started = time.perf_counter()
    result = run(database, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r")
    elapsed_ms = (time.perf_counter() - started) * 1000
    assert_refused(result, "timeout")
    assert LIMITS.timeout_ms <= elapsed_ms < LIMITS.timeout_ms + TIMEOUT_SLACK_MS
    # Stopped inside SQLite by the progress handler, not by the caller's backstop killing the worker.
    assert set(sandbox.worker_pids(LIMITS)) == workers_before
    assert_still_answers(database)


def test_a_huge_cross_join_stops_at_the_time_limit(database):
    started = time.perf_counter()
    result = run(database, "SELECT count(*) FROM small a, small b, small c, small d, small e")
    elapsed_ms = (time.perf_counter() - started) * 1000
    assert_refused(result, "timeout")
    assert elapsed_ms < LIMITS.timeout_ms + TIMEOUT_SLACK_MS


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT randomblob(1e9)",
        "SELECT length(randomblob(1000000000))",
        "SELECT zeroblob(1e9)",
        "SELECT replace(hex(zeroblob(400000)), '0', 'xxxxxxxxxx')",
        "SELECT length(group_concat(filler)) FROM big",
        "WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM r) SELECT length(s) FROM r",
    ],
)
def test_memory_bombs_fail_fast_with_a_structured_error(database, sql):
    started = time.perf_counter()
    result = run(database, sql)
    assert time.perf_counter() - started < 1.0
    assert_refused(result, "too_large")
    assert "longer than" in result.error["message"]  # SQLITE_LIMIT_LENGTH caught it, before any heap limit had to
    assert_still_answers(database)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT printf('%1000000000s', 'x')",
        "SELECT printf('%.*c', 2000000, 'x')",
        "SELECT printf('%.*c', 1e9, 'x')",  # SQLite alone spent seconds here, out of the progress handler's reach
        "SELECT format('%-*d', -5000000, 1)",
        "SELECT printf('%.*c%.*c', 600000, 'x', 600000, 'y')",  # each part fits, the whole does not
    ],
)
def test_an_oversized_printf_is_refused_at_once_with_its_reason(database, sql):
    started = time.perf_counter()
    result = run(database, sql)
    assert time.perf_counter() - started < 1.0
    assert_refused(result, "too_large")  # SQLite's own printf answered NULL, as if the value were missing
    assert "printf()" in result.error["message"] and "1,000,000" in result.error["message"]
    assert result.error["position"] == sql.index("printf" if "printf" in sql else "format")
    assert_still_answers(database)


def test_printf_within_its_bounds_answers_as_sqlite_does(database):
    sql = "SELECT format('%05.1f|%d|%s|%-5s|%%|%.2s', 3.14159, i, name, 'z', 'abc'), printf(NULL) FROM small LIMIT 2"
    expected = sqlite3.connect(database).execute(sql).fetchall()
    result = run(database, sql)
    assert result.ok, result.error
    assert (
        [tuple(row) for row in result.rows]
        == expected
        == [("003.1|0|item 0|z    |%|ab", None), ("003.1|1|item 1|z    |%|ab", None)]
    )
    assert run(database, "SELECT length(printf('%.*c', 999999, 'x'))").rows == [[999_999]]


# One function call the progress handler cannot interrupt (it only runs between VM steps): instr() looking for a
# 500,000-character needle that is not there compares about 2.5e11 bytes inside one call, seconds of CPU. Four in one
# expression need several times the backstop's deadline, however fast or idle the machine is.
_NEEDLE_NOT_THERE = "instr(printf('%.*c', 999000, 'a'), printf('%.*c', 499999, 'a') || 'b')"
UNINTERRUPTIBLE = "SELECT " + " + ".join([_NEEDLE_NOT_THERE] * 4)


def test_a_call_the_progress_handler_cannot_reach_is_stopped_by_the_backstop(database):
    started = time.perf_counter()
    result = run(database, UNINTERRUPTIBLE)
    elapsed = time.perf_counter() - started
    assert_refused(result, "timeout")
    assert "worker was stopped" in result.error["message"]
    assert elapsed < LIMITS.timeout_ms / 1000 + sandbox._BACKSTOP_MARGIN_S + TIMEOUT_SLACK_MS / 1000
    assert_still_answers(database)


def test_a_memory_hungry_sort_is_bounded_by_the_worker_limits(database):
    # DISTINCT over 300 half-megabyte blobs needs 150 MB of temp b-tree, past a 64 MB worker's heap limit.
    limits = dict(memory_mb=64, temp_mb=8, timeout_ms=3000)
    sql = (
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r LIMIT 300) "
        "SELECT count(DISTINCT randomblob(500000)) FROM r"
    )
    result = run(database, sql, **limits)
    assert_refused(result, "too_large")
    assert "memory" in result.error["message"] or "temporary" in result.error["message"]
    assert run(database, "SELECT count(*) FROM small", **limits).rows == [[100]]


def test_deep_expression_nesting_hits_a_limit(database):
    # 300 levels: past the sandbox's EXPR_DEPTH of 100, well within SQLite's compiled default of 1,000.
    result = run(database, "SELECT " + "1+" * 300 + "1")
    assert_refused(result, "limit")
    assert "Expression tree is too large" in result.error["message"]
    assert_refused(run(database, "SELECT " + "(" * 5000 + "1" + ")" * 5000), "limit")


def test_the_limits_leave_room_for_realistic_queries(database):
    conditions = " AND ".join(f"i <> {n}" for n in range(40))
    nested = "SELECT count(*) FROM small WHERE i IN (SELECT i FROM small WHERE i IN (SELECT i FROM small))"
    assert run(database, f"SELECT count(*) FROM small WHERE {conditions}").rows == [[60]]
    assert run(database, nested).rows == [[100]]
    union = " UNION ".join(f"SELECT {n}" for n in range(10))
    assert run(database, f"SELECT count(*) FROM ({union})").rows == [[10]]


def test_sql_over_the_length_limit_is_refused_before_it_runs(database):
    padded = "SELECT 1 -- " + "x" * LIMITS.max_sql_length
    result = run(database, padded)
    assert_refused(result, "too_large")
    at_limit = "SELECT 1 --"
    at_limit += "x" * (LIMITS.max_sql_length - len(at_limit))
    assert run(database, at_limit).ok


def test_rows_are_capped_and_flagged_truncated(database):
    result = run(database, "SELECT i FROM big ORDER BY i")
    assert result.ok, result.error
    assert result.row_count == LIMITS.max_rows == len(result.rows)
    assert result.truncated is True
    assert result.rows[-1] == [LIMITS.max_rows - 1]
    exact = run(database, f"SELECT i FROM big LIMIT {LIMITS.max_rows}")
    assert exact.row_count == LIMITS.max_rows and exact.truncated is False


def test_a_result_over_the_byte_limit_is_refused(database):
    result = run(database, "SELECT filler FROM big", max_result_bytes=100_000)
    assert_refused(result, "too_large")
    assert "larger than" in result.error["message"]


# --- Results are JSON-safe -------------------------------------------------------------------------------------------


def test_blobs_and_infinities_come_back_json_safe(database):
    result = run(database, "SELECT id, data, amount, note, 0.5 FROM odd ORDER BY id")
    assert result.ok, result.error
    text = json.dumps(result.to_dict(), allow_nan=False)
    assert json.loads(text)["rows"] == [
        [1, "x'00ff10'", "Infinity", "plain", 0.5],
        [2, "<blob 5,000 bytes>", "-Infinity", None, 0.5],
    ]


def test_latin1_text_is_returned_with_replacement_characters(tmp_path):
    path = tmp_path / "latin1.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (name TEXT)")
    connection.execute("INSERT INTO t VALUES (CAST(x'4d7573e9' AS TEXT))")  # "Musé" in Latin-1
    connection.commit()
    connection.close()
    result = execute(path, "SELECT name FROM t", limits=LIMITS)
    assert result.ok, result.error
    assert result.rows == [["Mus\ufffd"]]


# --- Errors say what and where ---------------------------------------------------------------------------------------


def test_a_syntax_error_reports_its_position(database):
    result = run(database, "SELECT i FRM small")
    assert_refused(result, "syntax")
    assert result.error["position"] == len("SELECT i FRM ")
    assert (result.error["line"], result.error["col"]) == (1, len("SELECT i FRM ") + 1)


def test_a_syntax_error_position_skips_earlier_valid_occurrences_of_its_token(database):
    sql = "SELECT i FROM small WHERE i IN (1, 2)\n  AND i IN (3,, 4)"
    result = run(database, sql)
    assert_refused(result, "syntax")
    assert result.error["position"] == sql.index(",,") + 1
    assert result.error["line"] == 2


def test_unknown_names_are_schema_errors_with_a_position(database):
    result = run(database, "SELECT nme FROM small")
    assert_refused(result, "schema")
    assert result.error["position"] == len("SELECT ")
    assert_refused(run(database, "SELECT * FROM nowhere"), "schema")


def test_a_missing_database_file_is_not_found(tmp_path):
    assert_refused(execute(tmp_path / "absent.sqlite", "SELECT 1", limits=LIMITS), "not_found")


def test_a_database_file_that_changes_is_reopened(tmp_path):
    path = tmp_path / "changing.sqlite"
    for value in (1, 2):
        replacement = tmp_path / f"next-{value}.sqlite"
        connection = sqlite3.connect(replacement)
        connection.execute("CREATE TABLE t (v INTEGER)")
        connection.execute("INSERT INTO t VALUES (?)", (value,))
        connection.commit()
        connection.close()
        os.replace(replacement, path)
        assert execute(path, "SELECT v FROM t", limits=LIMITS).rows == [[value]]


# --- The worker process: isolation, crashes, the backstop, concurrency -----------------------------------------------


def test_workers_run_with_their_limits_and_without_the_server_environment(database):
    limits = SandboxLimits(**{**LIMITS.__dict__, "memory_mb": 200, "temp_mb": 16, "workers": 1})
    assert execute(database, "SELECT 1", limits=limits).ok
    (pid,) = sandbox.worker_pids(limits)
    assert pid != os.getpid()
    environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert not any(
        item.startswith((b"DJANGO_SETTINGS_MODULE=", b"SECRET_KEY=", b"DATABASE_URL=")) for item in environment
    )
    process_limits = Path(f"/proc/{pid}/limits").read_text()
    assert f"Max address space         {200 * 1024 * 1024}" in process_limits
    assert f"Max file size             {16 * 1024 * 1024}" in process_limits


def test_a_worker_killed_while_idle_is_replaced_transparently(database):
    limits = SandboxLimits(**{**LIMITS.__dict__, "memory_mb": 201, "workers": 1})
    assert execute(database, "SELECT 1", limits=limits).ok
    (pid,) = sandbox.worker_pids(limits)
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.1)
    result = execute(database, "SELECT count(*) FROM small", limits=limits)
    assert result.ok and result.rows == [[100]], result.error
    assert sandbox.worker_pids(limits) != [pid]


def test_a_worker_that_dies_mid_query_gives_a_structured_error_and_the_pool_recovers(database):
    limits = SandboxLimits(**{**LIMITS.__dict__, "memory_mb": 202, "workers": 1, "timeout_ms": 5000})
    assert execute(database, "SELECT 1", limits=limits).ok
    (pid,) = sandbox.worker_pids(limits)
    threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()
    result = execute(
        database, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT max(i) FROM r", limits=limits
    )
    assert_refused(result, "crashed")
    assert "SIGKILL" in result.error["message"]
    assert execute(database, "SELECT count(*) FROM small", limits=limits).rows == [[100]]


def test_the_backstop_stops_a_worker_that_does_not_answer(database):
    # A frozen worker cannot run its progress handler: the caller must give up at timeout + margin and replace it.
    limits = SandboxLimits(**{**LIMITS.__dict__, "memory_mb": 203, "workers": 1, "timeout_ms": 200})
    assert execute(database, "SELECT 1", limits=limits).ok
    (pid,) = sandbox.worker_pids(limits)
    os.kill(pid, signal.SIGSTOP)
    started = time.perf_counter()
    result = execute(database, "SELECT 1", limits=limits)
    elapsed = time.perf_counter() - started
    assert_refused(result, "timeout")
    assert elapsed < (limits.timeout_ms / 1000) + sandbox._BACKSTOP_MARGIN_S + TIMEOUT_SLACK_MS / 1000
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
    assert execute(database, "SELECT count(*) FROM small", limits=limits).rows == [[100]]


def test_concurrent_queries_from_threads_all_get_their_own_answer(database):
    results: dict[int, list] = {}
    errors: list = []

    def ask(n: int) -> None:
        for _ in range(5):
            result = run(database, f"SELECT name FROM small WHERE i = {n}")
            if not result.ok or result.rows != [[f"item {n}"]]:
                errors.append((n, result))
        results[n] = result.rows

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    assert results == {n: [[f"item {n}"]] for n in range(8)}


async def test_execute_async_does_not_block_the_event_loop(database):
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        result = await execute_async(
            database,
            "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r",
            limits=LIMITS,
        )
    finally:
        task.cancel()
    assert_refused(result, "timeout")
    assert ticks >= 10  # the loop kept running for the whole 400 ms query
    answer = await execute_async(database, "SELECT count(*) FROM small", limits=LIMITS)
    assert answer.rows == [[100]]


# --- Each layer refuses on its own (defence in depth) ----------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO small VALUES (1000, 'x')",
        "CREATE TEMP TABLE evil (x)",
        "CREATE TEMP VIEW evil AS SELECT 1",
        "VACUUM INTO '{target}'",
        "ATTACH '{target}' AS other",
    ],
)
def test_the_connection_alone_refuses_without_the_authorizer(database, tmp_path, sql):
    # mode=ro, query_only and ATTACHED=0 must hold even if the authorizer had a hole.
    target = tmp_path / "escape.sqlite"
    connection = sandbox._open_readonly(str(database), (LIMITS.max_value_length, LIMITS.max_sql_length))
    try:
        with pytest.raises(sqlite3.Error):
            connection.execute(sql.format(target=target))
    finally:
        connection.close()
    assert not target.exists()


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO t VALUES (1)",
        "CREATE TEMP TABLE evil (x)",
        "DROP TABLE t",
        "PRAGMA writable_schema = 1",
        "PRAGMA query_only = 0",
        "VACUUM INTO '{target}'",
        "ATTACH '{target}' AS other",
        "BEGIN",
        "SELECT load_extension('x')",
    ],
)
def test_the_authorizer_alone_refuses_on_a_writable_connection(tmp_path, sql):
    target = tmp_path / "escape.sqlite"
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.execute("CREATE TABLE t (x)")
    guard = sandbox._Guard()
    connection.set_authorizer(sandbox._make_authorizer(guard))
    try:
        with pytest.raises(sqlite3.DatabaseError, match="not authorized|authorization denied"):
            connection.execute(sql.format(target=target))
        assert guard.denied is not None
    finally:
        connection.close()
    assert not target.exists()


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "[1, [], false]",
        '[1, "a", false, []]',
        "[1, [], 0, []]",
        "[0, {}]",
        '[0, {"kind": 1}]',
        "[1, [], false, []] x",
    ],
)
def test_a_malformed_reply_from_a_worker_is_rejected(reply):
    # The worker runs untrusted SQL: the caller checks the shape of what it says before believing it.
    with pytest.raises(ValueError):
        sandbox._decode_reply(reply)
    assert sandbox._decode_reply('[1, ["a"], false, [[1]]]') == [1, ["a"], False, [[1]]]


def test_the_reply_encoder_refuses_floats_json_cannot_say_and_keeps_text_and_blobs():
    # orjson would write an infinity as null, as if NULL: the encoder must refuse it, so that the worker spells it out.
    encode = sandbox._make_json_encoder()
    for value in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(ValueError):
            encode([1, ["x"], False, [[value, None]]])
        with pytest.raises(ValueError):
            encode([1, ["x"], False, [[value]]])
    document = [1, ["名前", "x"], False, [["a\u20ac\nb", 1.5, 2**62, b"\x00\xff", None]]]
    assert sandbox._decode_reply(encode(document)) == [
        1,
        ["名前", "x"],
        False,
        [["a\u20ac\nb", 1.5, 2**62, "x'00ff'", None]],
    ]


# --- execute_many: one round trip for many statements ----------------------------------------------------------------

MIXED = [
    "SELECT count(*) FROM small",
    "SELECT name FROM small WHERE i < 3 ORDER BY i",
    "SELEC 1",
    "DELETE FROM small",
    "SELECT 1; SELECT 2",
    "SELECT nope FROM small",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
    "SELECT i FROM small ORDER BY i",
]


def _shape(result: sandbox.SandboxResult):
    return (result.ok, result.columns, result.rows, result.truncated, (result.error or {}).get("kind"))


def test_a_batch_answers_each_statement_as_a_single_call_would(database):
    batch = sandbox.execute_many(database, MIXED, limits=LIMITS)
    single = [execute(database, sql, limits=LIMITS) for sql in MIXED]
    assert [_shape(result) for result in batch] == [_shape(result) for result in single]
    assert [(result.error or {}).get("kind") for result in batch] == [
        None, None, "syntax", "forbidden", "too_many_statements", "schema", "timeout", None,
    ]  # fmt: skip


def test_a_batch_reply_is_no_bigger_than_one_statements_may_be(database):
    # Each result is ~1.3 MB of the 1,500 big rows' filler; a batch of five would make a 6.5 MB reply.
    limits = SandboxLimits(**{**LIMITS.__dict__, "max_rows": 2000, "max_result_bytes": 3_500_000})
    sqls = ["SELECT filler FROM big WHERE i < 600"] * 5
    results = sandbox.execute_many(database, sqls, limits=limits)
    assert [result.row_count for result in results] == [600] * 5


def test_a_worker_killed_mid_batch_costs_a_rerun_one_by_one_and_nothing_else(database):
    # The statement in the middle is only stopped by the backstop, which kills the worker with the rest of the batch
    # unanswered.
    limits = SandboxLimits(**{**LIMITS.__dict__, "memory_mb": 250})  # a pool of its own
    sqls = ["SELECT count(*) FROM small", UNINTERRUPTIBLE, "SELECT max(i) FROM small"]
    results = sandbox.execute_many(database, sqls, limits=limits)
    assert [_shape(result) for result in results] == [
        (True, ["count(*)"], [[100]], False, None),
        (False, [], [], False, "timeout"),
        (True, ["max(i)"], [[99]], False, None),
    ]


def test_a_server_starts_its_workers_before_the_first_run_which_then_uses_them(database):
    limits = SandboxLimits(**{**LIMITS.__dict__, "memory_mb": 249})  # a pool of its own, empty so far
    assert sandbox.worker_pids(limits) == []
    sandbox.start_workers(limits).join(timeout=60)
    started = sorted(sandbox.worker_pids(limits))
    assert len(started) == limits.workers  # all of them, before any run
    assert execute(database, "SELECT count(*) FROM small", limits=limits).rows == [[100]]
    assert sorted(sandbox.worker_pids(limits)) == started  # the run took one of them: none started for it
    sandbox.start_workers(limits).join(timeout=60)
    assert sorted(sandbox.worker_pids(limits)) == started  # a full pool starts nothing more
