"""Run one read-only SQL statement on a SQLite file, inside a pool of sandboxed worker processes.

An expert's SQL is untrusted input. ``mode=ro`` alone is not a sandbox (docs/pitfalls.md: from a read-only connection
``VACUUM INTO`` wrote files, ``ATTACH`` created files, temp tables worked, ``PRAGMA query_only=0`` was accepted), so
every layer refuses on its own:

1. the caller's process checks the length, that there is exactly one statement, and its leading keyword;
2. the statement runs in a separate worker process with its own address-space, file-size and heap limits, a private
   temp directory and an empty environment, so a memory bomb or a crash costs one worker, never the server;
3. the connection is opened ``mode=ro&immutable=1`` with ``query_only``, ``trusted_schema=OFF``, no extension loading
   and low ``setlimit`` values (no attached databases at all, which also blocks ``VACUUM INTO``);
4. an authorizer allows only SELECT, column reads, recursive CTEs, an allow-list of functions and a few schema pragmas;
5. a progress handler stops the statement at its deadline, and the caller kills the worker if even that fails.

The worker pool is created lazily and is private to the process that created it (a forked child starts its own).
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import marshal
import math
import os
import re
import resource
import select
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import quote

try:  # JSON both ways between the caller and its workers: orjson (requirements.txt) where it is installed
    import orjson
except ImportError:  # standalone use without the requirements: the json module alone
    orjson = None

# Every ``error["kind"]`` this module produces, so callers can map each one to a message or a status code.
ERROR_KINDS = (
    "syntax",  # the SQL does not parse (position where SQLite says where)
    "schema",  # unknown table, column or function, ambiguous column
    "forbidden",  # anything but a read: writes, DDL, PRAGMA, ATTACH, transactions, forbidden functions
    "too_many_statements",  # more than one statement
    "timeout",  # the time limit was reached
    "too_large",  # SQL text, a single value, the result or the memory/temp space it needs is over its limit
    "limit",  # an SQLite structural limit: expression depth, compound SELECT terms, parser stack, ...
    "not_found",  # the database file does not exist
    "busy",  # every worker stayed busy for longer than the queue allows
    "crashed",  # the worker process died while running the statement
    "runtime",  # any other error SQLite reports while running the statement
    "not_executed",  # never sent to a worker: the database is registered by schema only (see not_executed())
)

# SQLite's own maxima for structural limits (sqlite.org/limits.html), set far below the compiled defaults. Measured on
# the 539 queries of the Spider dev sample: they pass with EXPR_DEPTH >= 15, VDBE_OP >= 200, FUNCTION_ARG >= 2,
# LIKE_PATTERN_LENGTH >= 10 and need no compound SELECT; each value below leaves a wide margin for hand-written SQL.
_STRUCTURAL_LIMITS = {
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,  # also stops VACUUM INTO, which attaches its target internally
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 100,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 20,
    sqlite3.SQLITE_LIMIT_VDBE_OP: 50_000,
    sqlite3.SQLITE_LIMIT_FUNCTION_ARG: 32,
    sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 1_000,
    sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER: 0,  # nothing is ever bound: a "?" in expert SQL is a mistake
    sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH: 1,
    sqlite3.SQLITE_LIMIT_WORKER_THREADS: 0,  # no helper threads that escape the per-query accounting
}

# SQLite's built-in functions minus the ones that touch the process or its files (load_extension), hand out pointers
# (fts3_tokenizer is compiled in here and can install a tokenizer from an address) or expose other connections' state.
_ALLOWED_FUNCTIONS = frozenset(
    """
    -> ->> abs acos acosh asin asinh atan atan2 atanh avg ceil ceiling char coalesce cos cosh count cume_dist
    current_date current_time current_timestamp date datetime degrees dense_rank exp first_value floor format glob
    group_concat hex ifnull iif instr json json_array json_array_length json_extract json_group_array
    json_group_object json_insert json_object json_patch json_quote json_remove json_replace json_set json_type
    json_valid julianday lag last_value lead length like likelihood likely ln log log10 log2 lower ltrim max min mod
    nth_value ntile nullif percent_rank pi pow power printf quote radians random randomblob rank replace round
    row_number rtrim sign sin sinh soundex sqlite_version sqrt strftime substr substring sum tan tanh time total trim
    trunc typeof unicode unixepoch unlikely upper zeroblob
    """.split()
)

# Read-only schema pragmas an expert may use to look at a table (``PRAGMA table_info(singer)``).
_ALLOWED_PRAGMAS = frozenset(
    {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list"}
)

_WRITE_KEYWORDS = frozenset(
    {
        "INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "CREATE", "DROP", "ALTER", "ATTACH", "DETACH", "VACUUM",
        "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "REINDEX", "ANALYZE",
    }
)  # fmt: skip

_PROGRESS_STEPS = 1000  # VM steps between deadline checks: +2.3% on normal queries, 0.09 ms late (docs/pitfalls.md)
_BACKSTOP_MARGIN_S = 0.5  # the caller kills a worker this long after a deadline its progress handler missed
_STARTUP_TIMEOUT_S = 30.0  # a cold interpreter on a loaded CI machine can take seconds to start
_QUEUE_TIMEOUT_FACTOR = 5  # a caller waits at most this many query time limits for a free worker
_CONNECTIONS_PER_WORKER = 16  # each cached connection keeps up to 2 MB of page cache under the worker's heap limit
_INLINE_BLOB_BYTES = 256  # blobs up to this size come back as hex literals, longer ones as a placeholder
_BATCH_STATEMENTS = 64  # statements per batch request (execute_many): one round trip instead of 64
# Waiting by polling for a moment before sleeping. On the 2-vCPU VM this was measured on, sleeping and waking costs
# far more than the work: "SELECT 1" took 155 us and 68 us of caller CPU per call when both sides slept in poll(),
# 77 us when both polled first; the Spider benchmark ran 1.9x plain sqlite3 with polling, 3.4x without (load 1).
# But when every CPU is busy, polling steals the CPU the other side needs: at a load average of 9 on 2 CPUs the
# benchmark ran 3.5x slower with polling than without. So both sides poll only while a CPU is free on average (load
# average under the number of CPUs), for a bounded time, yielding the CPU at each turn (without the yield, a side
# woken on the poller's CPU waited for a scheduler tick, 3-4 ms).
_CALLER_SPIN_S = 0.0005  # and only when the caller is the pool's sole caller
_WORKER_SPIN_S = 0.001  # after each reply, for the next request of a burst
_IDLE_LOAD_PER_CPU = 1.0
_spin_state = [0.0, False]  # [next check (monotonic), polling allowed]


def _machine_idle() -> bool:
    """Whether polling is worth it: the 1-minute load average, read at most once a second."""
    now = time.monotonic()
    if now >= _spin_state[0]:
        try:
            load = os.getloadavg()[0]
        except OSError:
            load = float("inf")
        _spin_state[1] = load < (os.cpu_count() or 1) * _IDLE_LOAD_PER_CPU
        _spin_state[0] = now + 1.0
    return _spin_state[1]


# --------------------------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SandboxLimits:
    """Every bound one sandboxed statement runs under; the defaults mirror config/settings.py."""

    timeout_ms: int = 2000
    max_rows: int = 1000
    max_sql_length: int = 20_000
    max_value_length: int = 1_000_000
    max_result_bytes: int = 5_000_000
    memory_mb: int = 256
    temp_mb: int = 64
    workers: int = 2
    # Which pool of workers runs the statement: each name has workers of its own, so that work which may take long
    # (comparisons, test-suite builds: "compare") never queues the rooms' runs ("sql") behind it.
    pool: str = "sql"
    # The pool's workers lower their CPU priority by this much (os.nice): on a busy machine the rooms' runs go first.
    nice: int = 0

    @classmethod
    def from_settings(cls) -> SandboxLimits:
        """Read the SANDBOX_* settings, or return the defaults when Django is not configured (standalone use)."""
        try:
            from django.conf import settings
            from django.core.exceptions import ImproperlyConfigured
        except ImportError:
            return cls()
        if not settings.configured and not os.environ.get("DJANGO_SETTINGS_MODULE"):
            return cls()
        try:
            return cls(
                timeout_ms=settings.SANDBOX_TIMEOUT_MS,
                max_rows=settings.SANDBOX_MAX_ROWS,
                max_sql_length=settings.SANDBOX_MAX_SQL_LENGTH,
                max_value_length=settings.SANDBOX_MAX_VALUE_LENGTH,
                max_result_bytes=settings.SANDBOX_MAX_RESULT_BYTES,
                memory_mb=settings.SANDBOX_MEMORY_MB,
                temp_mb=settings.SANDBOX_TEMP_MB,
                workers=settings.SANDBOX_WORKERS,
            )
        except (AttributeError, ImproperlyConfigured):
            return cls()


@dataclass
class SandboxResult:
    """The outcome of one statement: rows (JSON-safe values) when ``ok``, else ``error``.

    ``error`` is ``{"kind", "message", "position", "line", "col"}``: ``kind`` is one of ERROR_KINDS, ``position`` the
    0-based character offset in the SQL (``line``/``col`` 1-based), all three None where unknown.
    """

    ok: bool
    columns: list[str] = field(default_factory=list)
    rows: list[list] = field(default_factory=list)
    row_count: int = 0
    truncated: bool = False
    elapsed_ms: float = 0.0
    error: dict | None = None

    def to_dict(self) -> dict:
        """Return a plain dict, ready for ``json.dumps`` (every value is already JSON-safe)."""
        return asdict(self)


class InsideTransaction(RuntimeError):
    """Sandbox work was asked for inside a database transaction: a mistake in the caller, never the SQL's."""


def refuse_inside_transaction(what: str = "a sandbox run") -> None:
    """Raise InsideTransaction when the calling thread holds a database transaction of the platform's.

    The one rule for slow work (docs/architecture.md): no sandbox or test-suite run inside a transaction. On the
    embedded default a transaction that has written holds the whole SQLite file's write lock, so seconds of untrusted
    SQL inside one stall every sign-in, message and review on the platform; on PostgreSQL it holds row locks as long.
    Callers check without a lock, run the sandbox, then record in a short transaction that checks again (as
    dialogs/room.py's `_post_sql_run` does). A test's own wrapping transaction (pytest-django's, Django's TestCase's)
    does not count. Outside Django (the benchmarks, a standalone script) there is nothing to check."""
    handler = _django_connections[0] or _connections_handler()
    if handler is None:
        return
    opened = getattr(handler, "_connections", None)  # this thread's connections, none opened on a first look
    if opened is None:
        connections = handler.all(initialized_only=True)
    else:
        # What handler.all(initialized_only=True) returns, without its second look-up per alias: 0.7 us, not 1.7, on
        # every sandbox call (bench/sandbox.py).
        connections = [getattr(opened, alias, None) for alias in handler]
    for connection in connections:
        if connection is not None and connection.atomic_blocks and _platform_block(connection):
            raise InsideTransaction(  # i18n-exempt: a programming error (RuntimeError)
                f"{what} was asked for inside a transaction on {connection.alias!r}: run it before the transaction "
                "that records it (see annotation.sql.sandbox.refuse_inside_transaction)"
            )


def _platform_block(connection) -> bool:
    return any(not getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)


_django_connections: list = [None]  # Django's connection handler, once its settings are configured


def _connections_handler():
    """Django's connection handler, or None outside Django or before its settings are configured."""
    if "django.db" not in sys.modules:
        return None
    from django.conf import settings

    if not settings.configured:
        return None
    from django.db import connections

    _django_connections[0] = connections
    return connections


def not_executed() -> dict:
    """The result stored for SQL on a database registered by schema only (no file): it was never run."""
    error = _error("not_executed", "schema-only database: there is no file to run SQL on")
    return SandboxResult(ok=False, error=error).to_dict()


def execute(db_path: str | Path, sql: str, *, limits: SandboxLimits | None = None) -> SandboxResult:
    """Run one read-only statement on the SQLite file ``db_path`` in a sandbox worker and return its result.

    Blocks the calling thread for at most about ``limits.timeout_ms`` (plus the time spent waiting for a free worker);
    never raises for anything the SQL does: every failure comes back as ``SandboxResult(ok=False, error=...)``. Raises
    InsideTransaction when called inside a database transaction (``refuse_inside_transaction``).
    """
    started = time.perf_counter()
    refuse_inside_transaction()
    limits = limits or current_limits()
    checked = _precheck(sql, limits)
    if isinstance(checked, dict):
        return _failure(checked, started, sql)
    # marshal is the fastest encoding for the trusted direction; replies, which come from the untrusted side, are JSON.
    request = marshal.dumps(
        (
            os.path.abspath(os.fspath(db_path)),
            checked,
            limits.timeout_ms,
            limits.max_rows,
            limits.max_value_length,
            limits.max_sql_length,
            limits.max_result_bytes,
        )
    )
    response = _pool_for(limits).run(request, limits)
    if isinstance(response, dict):
        return _failure(response, started, sql)
    try:
        reply = _decode_reply(response)
    except ValueError:  # UnicodeDecodeError, JSONDecodeError, a malformed envelope
        return _failure(_error("crashed", "the sandbox worker sent an unreadable reply"), started)
    if reply[0] == 0:
        return _failure(reply[1], started, sql)
    rows = reply[3]
    return SandboxResult(
        ok=True,
        columns=reply[1],
        rows=rows,
        row_count=len(rows),
        truncated=reply[2],
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )


async def execute_async(db_path: str | Path, sql: str, *, limits: SandboxLimits | None = None) -> SandboxResult:
    """Like :func:`execute`, for async code (Channels consumers): the wait happens on a thread, never on the loop."""
    limits = limits or current_limits()
    loop = asyncio.get_running_loop()
    call = functools.partial(execute, db_path, sql, limits=limits)
    return await loop.run_in_executor(_async_executor(limits.workers), call)


def execute_many(db_path: str | Path, sqls: list[str], *, limits: SandboxLimits | None = None) -> list[SandboxResult]:
    """Run several read-only statements on one SQLite file, each exactly as :func:`execute` would, in one round trip
    to one worker per batch (the export's and final validation's re-execution: thousands of short queries, where the
    round trip was the sandbox's main cost). Results come back in order.

    Every statement keeps its own time limit and result bounds, and the worker's reply for a batch is no larger than
    one statement's may be (it answers the statements that fit; the rest go in the next request). When a worker dies
    or overruns during a batch, nobody can tell which statement did it: those statements are run again one by one.
    Raises InsideTransaction when called inside a database transaction, as ``execute`` does.
    """
    started = time.perf_counter()
    refuse_inside_transaction()
    limits = limits or current_limits()
    path = os.path.abspath(os.fspath(db_path))
    results: list[SandboxResult | None] = [None] * len(sqls)
    pending: list[tuple[int, str]] = []
    for index, sql in enumerate(sqls):
        checked = _precheck(sql, limits)
        if isinstance(checked, dict):
            results[index] = _failure(checked, started, sql)
        else:
            pending.append((index, checked))
    pool = _pool_for(limits)
    while pending:
        batch, pending = pending[:_BATCH_STATEMENTS], pending[_BATCH_STATEMENTS:]
        sent = time.perf_counter()
        request = marshal.dumps(
            (
                _BATCH,
                path,
                [sql for _, sql in batch],
                limits.timeout_ms,
                limits.max_rows,
                limits.max_value_length,
                limits.max_sql_length,
                limits.max_result_bytes,
            )
        )
        response = pool.run(request, limits, statements=len(batch))
        replies = None
        if not isinstance(response, dict):
            try:
                replies = _decode_batch_reply(response, len(batch))
            except ValueError:
                replies = None
        if replies is None:  # busy, timeout or crash: which statement caused it is unknown, so run each alone
            for index, sql in batch:
                results[index] = execute(db_path, sql, limits=limits)
            continue
        each_ms = (time.perf_counter() - sent) * 1000 / max(len(replies), 1)
        for (index, sql), reply in zip(batch, replies, strict=False):
            if reply[0] == 0:
                results[index] = _failure(reply[1], time.perf_counter() - each_ms / 1000, sql)
            else:
                rows = reply[3]
                results[index] = SandboxResult(
                    ok=True, columns=reply[1], rows=rows, row_count=len(rows), truncated=reply[2], elapsed_ms=each_ms
                )
        pending = batch[len(replies) :] + pending  # what did not fit in this reply goes first in the next
    return results  # type: ignore[return-value]


def start_workers(limits: SandboxLimits | None = None) -> threading.Thread:
    """Start the pool's workers now, on a thread of their own, rather than on the first run: a server calls this as it
    starts (config/asgi.py), so the first expert to run SQL does not wait for processes to start. Returns the thread."""
    pool = _pool_for(limits or current_limits())
    thread = threading.Thread(target=pool.prestart, name="sql-sandbox-start", daemon=True)
    thread.start()
    return thread


def worker_pids(limits: SandboxLimits | None = None) -> list[int]:
    """Return the process ids of the live workers of the pool ``limits`` selects (health checks, tests)."""
    return _pool_for(limits or current_limits()).pids()


def busy_workers(limits: SandboxLimits | None = None) -> int:
    """Return how many workers of the pool ``limits`` selects hold a statement now (health checks, tests)."""
    return _pool_for(limits or current_limits()).busy()


_cached_limits: SandboxLimits | None = None


def current_limits() -> SandboxLimits:
    """Return the limits execute() applies when given none: SandboxLimits.from_settings(), cached.

    Settings only change at run time under override_settings, which sends setting_changed; reading them on every call
    cost 7.5 us, a tenth of a typical Spider query.
    """
    global _cached_limits
    limits = _cached_limits
    if limits is None:
        limits = _cached_limits = SandboxLimits.from_settings()
        try:
            from django.core.signals import setting_changed
        except ImportError:
            pass
        else:
            setting_changed.connect(_forget_cached_limits, dispatch_uid="annotation.sql.sandbox.limits")
    return limits


def _forget_cached_limits(*, setting: str, **kwargs) -> None:
    global _cached_limits
    if setting.startswith("SANDBOX_"):
        _cached_limits = None


def shutdown() -> None:
    """Stop every worker of this process's pools (called at exit; the next :func:`execute` starts new ones)."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()


# --------------------------------------------------------------------------------------------------------------------
# Checks in the caller's process: cheap, and they save a round trip for the commonest refusals
# --------------------------------------------------------------------------------------------------------------------

# Tokens inside which a ";" or a keyword does not count: strings, quoted identifiers, comments.
_OPAQUE_RE = re.compile(
    r"'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?|`(?:[^`]|``)*`?|\[[^\]]*\]?|--[^\n]*|/\*.*?(?:\*/|\Z)|;", re.S
)
_LEADING_RE = re.compile(r"(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?(?:\*/|\Z))*", re.S)
_WORD_RE = re.compile(r"[^\W\d]\w*")
_FILLER_RE = re.compile(r"(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?(?:\*/|\Z)|;)*\Z", re.S)


def _precheck(sql: object, limits: SandboxLimits) -> str | dict:
    """Return the SQL to send to a worker (a trailing filler cut off), or an error dict."""
    if not isinstance(sql, str):
        return _error("syntax", "the SQL must be a string")
    if len(sql) > limits.max_sql_length:
        return _error("too_large", f"the SQL is {len(sql):,} characters long; the limit is {limits.max_sql_length:,}")
    start = _LEADING_RE.match(sql).end()
    if start == len(sql):
        return _error("syntax", "the SQL is empty")
    word = _WORD_RE.match(sql, start)
    keyword = word.group().upper() if word else ""
    if keyword in _WRITE_KEYWORDS:
        return _error(
            "forbidden",
            f"{keyword} statements are not allowed: the sandbox only runs read-only SELECT (or WITH ... SELECT)",
            start,
        )
    if ";" in sql:
        for match in _OPAQUE_RE.finditer(sql, start):
            if match.group() != ";":
                continue
            rest = match.end()
            if _FILLER_RE.match(sql, rest):
                return sql[:rest]  # "SELECT 1; -- done" or "SELECT 1;;" is one statement
            second = _LEADING_RE.match(sql, rest).end()
            while sql[second] == ";":
                second = _LEADING_RE.match(sql, second + 1).end()
            return _error("too_many_statements", "only one statement can run at a time; remove the second one", second)
    return sql


def _error(kind: str, message: str, position: int | None = None) -> dict:
    return {"kind": kind, "message": message, "position": position, "line": None, "col": None}


def _failure(error: dict, started: float, sql: str | None = None) -> SandboxResult:
    position = error.get("position")
    if isinstance(sql, str) and position is not None and error.get("line") is None:
        error["line"], error["col"] = _line_col(sql, position)
    return SandboxResult(ok=False, elapsed_ms=(time.perf_counter() - started) * 1000, error=error)


def _line_col(sql: str, position: int) -> tuple[int, int]:
    line_start = sql.rfind("\n", 0, position) + 1
    return sql.count("\n", 0, position) + 1, position - line_start + 1


# --------------------------------------------------------------------------------------------------------------------
# The pool, in the caller's process
# --------------------------------------------------------------------------------------------------------------------

_FRAME_HEADER = struct.Struct("!I")
_BATCH = "batch"  # first item of a batch request; a single request starts with the database path
# The scanner behind json.loads without its per-call wrappers; replies are produced by our own encoder, no padding.
_scan_reply = json.JSONDecoder().scan_once


def _decode_reply(text: bytes | str) -> list:
    """Parse and check a worker's reply: ``[1, columns, truncated, rows]`` or ``[0, error]``.

    The worker runs untrusted SQL, so its reply is data to verify: JSON (never pickle or marshal, which could run or
    crash code if a compromised worker crafted them) and a checked shape.
    """
    return _checked_reply(_parse_reply(text))


def _decode_batch_reply(text: bytes | str, asked: int) -> list[list]:
    """Parse and check a worker's reply to a batch: a list of 1 to ``asked`` single replies, in order."""
    value = _parse_reply(text)
    if not 1 <= len(value) <= asked:
        raise ValueError("malformed batch reply")  # i18n-exempt: caught: a generic crash message is shown
    return [_checked_reply(item) for item in value]


def _parse_reply(text: bytes | str) -> list:
    if orjson is not None:
        # 1.2 us per reply of the Spider sample instead of 1.9 (bench/sandbox.py). Strict: one value, valid UTF-8, no
        # NaN, nesting bounded; every refusal is a ValueError (orjson.JSONDecodeError).
        value = orjson.loads(text)
        if type(value) is not list:
            raise ValueError("malformed reply")  # i18n-exempt: caught: a generic crash message is shown
        return value
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError
    try:
        value, end = _scan_reply(text, 0)
    except StopIteration:
        raise ValueError("empty reply") from None  # i18n-exempt: caught: a generic crash message is shown
    if end != len(text) or type(value) is not list:
        raise ValueError("malformed reply")  # i18n-exempt: caught: a generic crash message is shown
    return value


def _checked_reply(value) -> list:
    if type(value) is not list:
        raise ValueError("malformed reply")  # i18n-exempt: caught: a generic crash message is shown
    if len(value) == 4 and value[0] == 1:
        if type(value[1]) is list and type(value[2]) is bool and type(value[3]) is list:
            return value
    elif len(value) == 2 and value[0] == 0 and type(value[1]) is dict and type(value[1].get("kind")) is str:
        error = value[1]
        position = error.get("position")
        if position is None or (type(position) is int and 0 <= position):
            return [0, _error(error["kind"], str(error.get("message", "")), position)]
    raise ValueError("malformed reply")  # i18n-exempt: caught: a generic crash message is shown


_PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
# Where orjson is installed: the worker, which starts without site-packages, finds it there (after the stdlib).
_ORJSON_DIR = str(Path(orjson.__file__).resolve().parents[1]) if orjson is not None else None


class _WorkerGone(Exception):
    """The worker closed its pipe: it crashed, was killed, or broke the protocol."""

    def __init__(self, reason: str, *, before_request: bool = False):
        super().__init__(reason)
        self.before_request = before_request  # it never saw the request, so running it elsewhere is safe


class _WorkerLate(Exception):
    """The worker did not answer before the backstop deadline."""


class _Worker:
    """One sandbox process and its two pipe ends; used by one caller thread at a time."""

    def __init__(self, memory_mb: int, temp_mb: int, nice: int = 0):
        # A private, empty temp directory: SQLite spills big sorts to files even with temp_store=MEMORY (measured),
        # and the worker's RLIMIT_FSIZE bounds each file in it.
        self.tmpdir = tempfile.mkdtemp(prefix="wozsql-sandbox-")
        found = f"sys.path.append({_ORJSON_DIR!r}); " if _ORJSON_DIR else ""
        code = (
            f"import sys; sys.path.insert(0, {_PROJECT_ROOT!r}); {found}"
            "import annotation.sql.sandbox as s; s._worker_main()"
        )
        try:
            self.process = subprocess.Popen(
                # -I: no PYTHON* variables, no user site; -S: no site-packages (the worker needs the stdlib and
                # orjson, whose folder it is given).
                [sys.executable, "-I", "-S", "-c", code, str(memory_mb), str(temp_mb), str(nice)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                cwd=self.tmpdir,
                # Nothing of the server's environment (secret key, database URL) reaches the untrusted side.
                env={"SQLITE_TMPDIR": self.tmpdir, "TMPDIR": self.tmpdir, "LC_ALL": "C.UTF-8"},
                close_fds=True,
                start_new_session=True,  # a Ctrl-C meant for the server does not hit a worker mid-protocol
            )
        except BaseException:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            raise
        self.pid = self.process.pid
        self._write_fd = self.process.stdin.fileno()
        self._read_fd = self.process.stdout.fileno()
        self._poller = select.poll()
        self._poller.register(self._read_fd, select.POLLIN)
        self._ready = False

    def alive(self) -> bool:
        return self.process.poll() is None

    def request(self, payload: bytes, timeout_s: float, max_reply: int, spin: bool) -> bytes:
        """Send one request and wait for its reply; raise _WorkerGone or _WorkerLate."""
        if not self._ready:
            try:
                ready = self._receive(time.monotonic() + _STARTUP_TIMEOUT_S, 64, False)
            except (_WorkerGone, _WorkerLate) as exc:
                raise _WorkerGone(  # i18n-exempt: internal: the pool words the crash
                    "it did not start", before_request=True
                ) from exc
            if ready != b'"ready"':
                raise _WorkerGone(  # i18n-exempt: internal: the pool words the crash
                    "it did not start", before_request=True
                )
            self._ready = True
        deadline = time.monotonic() + timeout_s
        view = memoryview(_FRAME_HEADER.pack(len(payload)) + payload)
        try:
            while view:
                view = view[os.write(self._write_fd, view) :]
        except OSError as exc:  # EPIPE: it died while idle
            raise _WorkerGone(str(exc), before_request=True) from exc
        return self._receive(deadline, max_reply, spin)

    def _receive(self, deadline: float, max_size: int, spin: bool) -> bytes:
        buffer = b""
        needed = _FRAME_HEADER.size
        header_done = False
        spin_until = time.monotonic() + _CALLER_SPIN_S if spin and _machine_idle() else 0.0
        while True:
            while len(buffer) < needed:
                _wait_readable(self._poller, spin_until, deadline)
                # Small replies (nearly all) arrive whole with their header: one read.
                chunk = os.read(self._read_fd, needed - len(buffer) if header_done else 65536)
                if not chunk:
                    raise _WorkerGone("end of file")  # i18n-exempt: internal: the pool words the crash
                buffer += chunk
            if header_done:
                return buffer[_FRAME_HEADER.size :]
            (size,) = _FRAME_HEADER.unpack_from(buffer)
            needed = _FRAME_HEADER.size + size
            if size > max_size or len(buffer) > needed:
                raise _WorkerGone("it broke the protocol")  # i18n-exempt: internal: the pool words the crash
            header_done = True

    def stop(self) -> None:
        """Stop the process, leaving its pipes to the caller waiting on them."""
        try:
            self.process.kill()
        except OSError:
            pass

    def kill(self) -> None:
        """Stop the process for good and remove its temp directory."""
        try:
            self.process.kill()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.close_pipes()
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    def close_pipes(self) -> None:
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def exit_description(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "it stopped answering"
        if code < 0:
            try:
                return f"it was stopped by {signal.Signals(-code).name}"
            except ValueError:
                return f"it was stopped by signal {-code}"
        return f"it exited with status {code}"


def _wait_readable(poller: select.poll, spin_until: float, deadline: float | None) -> None:
    """Return once the polled pipe is readable (or closed); raise _WorkerLate at ``deadline`` (None: never)."""
    poll = poller.poll
    monotonic = time.monotonic
    yield_cpu = os.sched_yield  # if the other side was woken on this CPU, let it run now rather than at the next tick
    while monotonic() < spin_until:
        if poll(0):
            return
        yield_cpu()
    while True:
        if deadline is None:
            if poll():
                return
            continue
        remaining = deadline - monotonic()
        if remaining <= 0:
            raise _WorkerLate()
        if poll(math.ceil(remaining * 1000)):
            return


class _Pool:
    """Up to ``size`` workers, started on demand; idle ones are reused last-in first-out so caches stay warm."""

    def __init__(self, size: int, memory_mb: int, temp_mb: int, nice: int = 0):
        self.size = size
        self.memory_mb = memory_mb
        self.temp_mb = temp_mb
        self.nice = nice
        self._idle: list[_Worker] = []
        self._workers: set[_Worker] = set()
        self._starting = 0
        self._busy = 0  # requests in flight, read without the lock: it only decides whether the caller polls first
        self._waiting = 0
        self._lock = threading.Lock()  # the fast paths take the bare lock; Condition's own methods are Python code
        self._condition = threading.Condition(self._lock)
        self._closed = False

    def run(self, request: bytes, limits: SandboxLimits, *, statements: int = 1) -> bytes | dict:
        """Run one request (of ``statements`` statements, each with its own time limit) on a worker; return the reply
        frame, or an error dict for busy/timeout/crash."""
        timeout_s = limits.timeout_ms / 1000 * statements
        queue_deadline = time.monotonic() + limits.timeout_ms / 1000 * _QUEUE_TIMEOUT_FACTOR
        max_reply = limits.max_result_bytes + 1_000_000  # rows plus column names and the envelope
        for attempt in range(2):
            worker = self._acquire(queue_deadline)
            if worker is None:
                return _error("busy", "every sandbox worker is busy; try again in a moment")
            try:
                reply = worker.request(request, timeout_s + _BACKSTOP_MARGIN_S, max_reply, self._busy == 1)
            except _WorkerLate:
                self._discard(worker)
                return _error(
                    "timeout",
                    f"the query did not stop at its {limits.timeout_ms:,} ms time limit; its worker was stopped",
                )
            except _WorkerGone as exc:
                description = worker.exit_description()
                self._discard(worker)
                if exc.before_request and attempt == 0:
                    continue  # it died before it saw this query (killed while idle): retry once on a fresh worker
                if exc.before_request:
                    return _error("crashed", f"the sandbox worker could not start ({description})")
                return _error(
                    "crashed",
                    f"the sandbox worker running this query died ({description}); it may have exceeded the "
                    f"{limits.memory_mb} MB memory limit. The next query runs on a fresh worker.",
                )
            except BaseException:  # KeyboardInterrupt and the like: the worker's state is unknown, never reuse it
                self._discard(worker)
                raise
            self._release(worker)
            return reply
        raise AssertionError("unreachable")

    def _acquire(self, deadline: float) -> _Worker | None:
        with self._lock:
            while True:
                if self._closed:
                    return None  # shut down (sandbox.shutdown): it hands out no worker any more
                if self._idle:
                    # A worker that died while idle is noticed by the write (EPIPE) and replaced, see run().
                    self._busy += 1
                    return self._idle.pop()
                if len(self._workers) + self._starting < self.size:
                    self._starting += 1  # reserve the slot; the process starts outside the lock
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._waiting += 1
                try:
                    self._condition.wait(remaining)
                finally:
                    self._waiting -= 1
        worker = late = None
        try:
            worker = _Worker(self.memory_mb, self.temp_mb, self.nice)
        finally:
            with self._lock:
                self._starting -= 1
                if worker is not None and self._closed:
                    worker, late = None, worker  # shut down while it started: nobody would ever stop it
                elif worker is not None:
                    self._workers.add(worker)
                    self._busy += 1
                elif self._waiting:
                    self._condition.notify()
        if late is not None:
            _reap_later(late)
        return worker

    def prestart(self) -> None:
        """Start workers until the pool is full, all idle: a server's first run then finds one ready instead of
        waiting for a process to start. A worker that fails to start is left to the first run to try again."""
        while True:
            with self._lock:
                if self._closed or len(self._workers) + self._starting >= self.size:
                    return
                self._starting += 1
            worker = None
            try:
                worker = _Worker(self.memory_mb, self.temp_mb, self.nice)
            except Exception:  # noqa: BLE001 - the run that needs a worker reports why it cannot start
                return
            finally:
                with self._lock:
                    self._starting -= 1
                    if worker is not None and not self._closed:
                        self._workers.add(worker)
                        self._idle.append(worker)
                        if self._waiting:
                            self._condition.notify()
                    elif worker is not None:
                        _reap_later(worker)

    def _release(self, worker: _Worker) -> None:
        with self._lock:
            self._busy -= 1
            if not self._closed:
                self._idle.append(worker)
                if self._waiting:
                    self._condition.notify()
                return
        _reap_later(worker)

    def _discard(self, worker: _Worker) -> None:
        with self._lock:
            self._busy -= 1
            self._workers.discard(worker)
            if self._waiting:
                self._condition.notify()
        worker.kill()

    def pids(self) -> list[int]:
        with self._lock:
            return [worker.pid for worker in self._workers if worker.alive()]

    def busy(self) -> int:
        with self._lock:
            return self._busy

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._condition.notify_all()  # callers waiting for a worker hear at once that none will come
            workers = list(self._workers)
            idle = set(self._idle)
            self._idle.clear()
            self._workers.clear()
        for worker in workers:
            if worker in idle:
                worker.kill()
            else:
                # A caller is waiting on this worker's pipe: closing it here would free its descriptor for the next
                # process's pipe, and the caller would wait on that one. Stopped, its caller sees the end of file
                # and discards it (closing the pipe) itself.
                worker.stop()

    def forget(self) -> None:
        """In a forked child: drop the parent's workers without touching them, closing only our pipe copies."""
        for worker in self._workers:
            worker.close_pipes()


def _reap_later(worker: _Worker) -> None:
    threading.Thread(target=worker.kill, name="sql-sandbox-reaper", daemon=True).start()


_pools: dict[tuple, _Pool] = {}
_pools_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def _pool_for(limits: SandboxLimits) -> _Pool:
    key = (limits.pool, limits.workers, limits.memory_mb, limits.temp_mb, limits.nice)
    pool = _pools.get(key)
    if pool is None:
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = _Pool(limits.workers, limits.memory_mb, limits.temp_mb, limits.nice)
    return pool


def _async_executor(workers: int) -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        with _pools_lock:
            if _executor is None:
                # Threads only wait on pipes; a few more than workers keeps the queue in the executor, not in threads.
                _executor = ThreadPoolExecutor(max_workers=workers + 2, thread_name_prefix="sql-sandbox")
    return _executor


def _after_fork_in_child() -> None:
    global _pools_lock, _executor
    for pool in _pools.values():
        pool.forget()
    _pools.clear()
    _pools_lock = threading.Lock()
    _executor = None


atexit.register(shutdown)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


# --------------------------------------------------------------------------------------------------------------------
# The worker process
# --------------------------------------------------------------------------------------------------------------------


def _worker_main() -> None:
    """Entry point of a sandbox process: set its limits, then answer requests on stdin/stdout until end of file."""
    memory_mb, temp_mb = int(sys.argv[1]), int(sys.argv[2])
    nice = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if nice > 0:
        os.nice(nice)
    in_fd, out_fd = os.dup(0), os.dup(1)
    # Anything printed by accident goes to stderr instead of corrupting the protocol on stdout.
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Past RLIMIT_FSIZE a write fails with EFBIG (SQLite: "database or disk is full") instead of killing the worker.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    _limit_worker_resources(memory_mb, temp_mb)
    worker = _SandboxWorker(memory_mb, temp_mb)
    poller = select.poll()
    poller.register(in_fd, select.POLLIN)
    _write_frame(out_fd, b'"ready"')
    while True:
        frame = _read_frame(in_fd, poller)
        if frame is None:
            return
        try:
            reply = worker.handle(frame)
        except MemoryError:
            reply = worker.memory_error()
        except Exception as exc:  # a bug here must not look like a crash caused by the query
            traceback.print_exc()
            reply = worker.reply_error("runtime", f"internal sandbox error: {type(exc).__name__}: {exc}")
        _write_frame(out_fd, reply)


def _limit_worker_resources(memory_mb: int, temp_mb: int) -> None:
    megabyte = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (temp_mb * megabyte, temp_mb * megabyte))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64 + _CONNECTIONS_PER_WORKER, 64 + _CONNECTIONS_PER_WORKER))
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb * megabyte, memory_mb * megabyte))
    # SQLite's own heap gets half the address space: its allocations then fail cleanly (SQLITE_NOMEM, MemoryError)
    # while Python keeps room to build the reply and report the error. The limit is process-wide, hence per worker.
    heap = memory_mb * megabyte // 2
    probe = sqlite3.connect(":memory:")
    probe.execute(f"PRAGMA hard_heap_limit = {heap}")
    probe.execute(f"PRAGMA soft_heap_limit = {heap * 3 // 4}")
    probe.close()


def _read_frame(fd: int, poller: select.poll) -> bytes | None:
    data = b""
    needed = _FRAME_HEADER.size
    header_done = False
    spin = _machine_idle()
    spin_until = time.monotonic() + _WORKER_SPIN_S if spin else 0.0
    while True:
        while len(data) < needed:
            if spin:
                _wait_readable(poller, spin_until, None)
            # Otherwise a plain blocking read: one system call instead of poll + read.
            chunk = os.read(fd, needed - len(data) if header_done else 65536)
            if not chunk:
                return None
            data += chunk
        if header_done:
            return data[_FRAME_HEADER.size :]
        (size,) = _FRAME_HEADER.unpack_from(data)
        needed = _FRAME_HEADER.size + size
        header_done = True


def _write_frame(fd: int, payload: bytes) -> None:
    view = memoryview(_FRAME_HEADER.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view) :]


class _Guard:
    """The per-connection state the authorizer, the progress handler and the printf guard share with the request
    being run."""

    __slots__ = ("deadline", "denied", "limits", "too_large")

    def __init__(self):
        self.deadline = 0.0
        self.denied: tuple[str, str | None] | None = None  # (message, name to point at in the SQL)
        self.limits: tuple[int, int] | None = None
        self.too_large: str | None = None  # why a guarded function refused its arguments


# printf()/format() conversions: %[flags][width][.precision][length]type, the width and precision either digits or
# "*" (taken from the next argument). SQLite's own printf cannot be trusted with a huge width or precision: past
# SQLITE_LIMIT_LENGTH it gives up on the text but goes on counting, so printf('%.*c', 1e9, 'x') spends seconds in one
# call that the progress handler cannot interrupt, and then returns NULL as if nothing had happened. The guard below
# refuses such a call before it starts, and a result SQLite dropped for its length, with a clear reason either way.
_PRINTF_CONVERSION = re.compile(r"%([-+ #0,!]*)(\*|\d+)?(?:\.(\*|\d*))?(?:ll|l)?(.)", re.DOTALL)
_PRINTF_TRUNCATING = frozenset("sqQwz")  # a precision cuts these strings short: it adds nothing to the length


def _printf_width_argument(value: object) -> int:
    """A "*" argument as SQLite reads it (an integer; negative means left-justified, so its size is the absolute)."""
    if isinstance(value, bool | int):
        return abs(int(value))
    if isinstance(value, float):
        return abs(int(value)) if math.isfinite(value) else sys.maxsize
    if isinstance(value, str):
        try:
            number = float(value.strip() or 0)
        except ValueError:
            return 0
        return abs(int(number)) if math.isfinite(number) else sys.maxsize
    return 0


def _printf_oversized(arguments: tuple, limit: int) -> str | None:
    """Why a printf() call with these arguments would write a value over ``limit`` bytes, or None."""
    template = arguments[0] if arguments else None
    if isinstance(template, bytes):
        template = template.decode("utf-8", "replace")
    if not isinstance(template, str):
        return None
    position = 1
    for match in _PRINTF_CONVERSION.finditer(template):
        _, width, precision, kind = match.groups()
        if kind == "%":
            continue
        sizes = []
        for part in (width, precision):
            if part == "*":
                sizes.append(_printf_width_argument(arguments[position] if position < len(arguments) else 0))
                position += 1
            else:
                sizes.append(int(part) if part else 0)
        position += 1  # the value converted
        size = sizes[0] if kind in _PRINTF_TRUNCATING else max(sizes)
        if size >= limit:
            return (
                f"{match.group(0)!r} in printf() asks for {size:,} characters; a value in the sandbox is at most "
                f"{limit:,} bytes"
            )
    return None


def _guard_printf(connection: sqlite3.Connection, guard: _Guard) -> None:
    """Put a guarded printf() and format() in place of SQLite's on ``connection``: the arguments are checked first
    (see _PRINTF_CONVERSION), then SQLite's own printf() formats them on a private in-memory connection, with the same
    length limit, so every result is SQLite's."""
    formatter = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    statements: dict[int, str] = {}

    def printf(*arguments):
        limit = guard.limits[0] if guard.limits else connection.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)
        reason = _printf_oversized(arguments, limit)
        if reason is None:
            formatter.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, limit)
            if len(arguments) not in statements:
                statements[len(arguments)] = f"SELECT printf({', '.join('?' * len(arguments))})"
            value = formatter.execute(statements[len(arguments)], arguments).fetchone()[0]
            if value is not None or not arguments or arguments[0] is None:
                return value
            # printf() is NULL only for a NULL format; otherwise SQLite dropped a text longer than the limit.
            reason = f"printf() would write a value longer than the sandbox allows ({limit:,} bytes)"
        guard.too_large = reason
        raise ValueError(reason)

    for name in ("printf", "format"):
        connection.create_function(name, -1, printf, deterministic=True)


_AUTH_OK, _AUTH_DENY = sqlite3.SQLITE_OK, sqlite3.SQLITE_DENY
# Python 3.11 also exports result codes as SQLITE_* (SQLITE_ERROR == SQLITE_CREATE_INDEX == 1): name actions explicitly.
_ACTION_NAMES = {
    getattr(sqlite3, f"SQLITE_{name}"): name.replace("_", " ")
    for name in (
        "CREATE_INDEX CREATE_TABLE CREATE_TEMP_INDEX CREATE_TEMP_TABLE CREATE_TEMP_TRIGGER CREATE_TEMP_VIEW "
        "CREATE_TRIGGER CREATE_VIEW DELETE DROP_INDEX DROP_TABLE DROP_TEMP_INDEX DROP_TEMP_TABLE DROP_TEMP_TRIGGER "
        "DROP_TEMP_VIEW DROP_TRIGGER DROP_VIEW INSERT PRAGMA READ SELECT TRANSACTION UPDATE ATTACH DETACH ALTER_TABLE "
        "REINDEX ANALYZE CREATE_VTABLE DROP_VTABLE FUNCTION SAVEPOINT RECURSIVE"
    ).split()
}


def _make_authorizer(guard: _Guard):
    select_, read, function, recursive, pragma = (
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_FUNCTION,
        sqlite3.SQLITE_RECURSIVE,
        sqlite3.SQLITE_PRAGMA,
    )
    allowed_functions = _ALLOWED_FUNCTIONS

    def authorize(action, arg1, arg2, db_name, source):
        # Ordered by frequency: column reads and function calls dominate, and only run when a statement is prepared.
        if action == read or action == select_ or action == recursive:
            return _AUTH_OK
        if action == function:
            if arg2 in allowed_functions:
                return _AUTH_OK
            guard.denied = (f"the function {arg2}() is not allowed in the sandbox", arg2)
            return _AUTH_DENY
        if action == pragma:
            if arg1 and arg1.lower() in _ALLOWED_PRAGMAS:
                return _AUTH_OK
            guard.denied = (
                f"PRAGMA {arg1} is not allowed; the sandbox only permits {', '.join(sorted(_ALLOWED_PRAGMAS))}",
                None,
            )
            return _AUTH_DENY
        guard.denied = (_denial_message(action, arg1), None)
        return _AUTH_DENY

    return authorize


def _denial_message(action: int, arg1: str | None) -> str:
    if action == sqlite3.SQLITE_UPDATE and arg1 in ("sqlite_master", "sqlite_schema"):
        # Using a table-valued function for the first time registers it in the schema, which arrives here as an update.
        return "table-valued functions and virtual tables (json_each, pragma_..., dbstat) are not allowed"
    if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
        return "ATTACH, DETACH and VACUUM are not allowed: the sandbox sees exactly one database"
    if action in (sqlite3.SQLITE_TRANSACTION, sqlite3.SQLITE_SAVEPOINT):
        return "transaction control (BEGIN, COMMIT, SAVEPOINT, ...) is not allowed"
    name = _ACTION_NAMES.get(action, f"action {action}")
    target = f" on {arg1}" if arg1 else ""
    return f"{name}{target} is not allowed: the sandbox only runs read-only SELECT statements"


def _open_readonly(path: str, limits: tuple[int, int]) -> sqlite3.Connection:
    """Open ``path`` read-only with every connection-level guard except the authorizer and the progress handler."""
    # immutable=1: the platform never writes the databases experts query, and SQLite then takes no locks and creates
    # no -journal/-wal/-shm files. A file that does change is noticed by its stat signature and reopened.
    uri = f"file:{quote(path)}?mode=ro&immutable=1"
    connection = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False, cached_statements=256)
    if hasattr(connection, "enable_load_extension"):
        connection.enable_load_extension(False)
    for statement in (
        "PRAGMA query_only = ON",
        "PRAGMA trusted_schema = OFF",  # no functions or virtual tables run from views/triggers in the file itself
        "PRAGMA temp_store = MEMORY",  # temp b-trees stay in memory, under the worker's heap limit
        "PRAGMA cell_size_check = ON",  # a corrupt or crafted file fails cleanly (sqlite.org/security.html)
        "PRAGMA mmap_size = 0",
    ):
        connection.execute(statement)
    for category, value in _STRUCTURAL_LIMITS.items():
        connection.setlimit(category, value)
    _apply_request_limits(connection, limits)
    return connection


def _apply_request_limits(connection: sqlite3.Connection, limits: tuple[int, int]) -> None:
    max_value_length, max_sql_length = limits
    connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max_value_length)
    # In bytes, and probing an error position prefixes "EXPLAIN ": leave room for UTF-8 and that prefix.
    connection.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, max_sql_length * 4 + 64)


def _open_guarded(path: str, limits: tuple[int, int]) -> tuple[sqlite3.Connection, _Guard]:
    """Open ``path`` with every guard: the read-only connection, the authorizer and the progress handler."""
    connection = _open_readonly(path, limits)
    guard = _Guard()
    guard.limits = limits
    connection.set_authorizer(_make_authorizer(guard))
    monotonic = time.monotonic

    def past_deadline():
        return monotonic() > guard.deadline

    connection.set_progress_handler(past_deadline, _PROGRESS_STEPS)
    _guard_printf(connection, guard)
    return connection, guard


def _file_signature(path: str) -> tuple[int, int, int, int]:
    info = os.stat(path)
    return info.st_ino, info.st_dev, info.st_size, info.st_mtime_ns


class _SandboxWorker:
    """Runs requests inside a worker; keeps one guarded connection per recently used database file."""

    def __init__(self, memory_mb: int, temp_mb: int):
        self.memory_mb = memory_mb
        self.temp_mb = temp_mb
        self.connections: OrderedDict[str, tuple[sqlite3.Connection, _Guard, tuple]] = OrderedDict()
        self.encode = _make_json_encoder()

    def memory_error(self) -> bytes:
        self.connections.clear()  # give SQLite's caches back before anything else
        return self.reply_error(
            "too_large", f"the query needs more memory than the sandbox allows ({self.memory_mb} MB per worker)"
        )

    @staticmethod
    def reply_error(kind: str, message: str, position: int | None = None) -> bytes:
        return json.dumps([0, _error(kind, message, position)]).encode()

    def handle(self, frame: bytes) -> bytes:
        """Run one request (a marshalled tuple) and return the JSON reply. A batch request runs its statements one
        after the other, each with its own deadline, and answers as many as fit in one statement's reply size."""
        request = marshal.loads(frame)
        if request[0] != _BATCH:
            return self.handle_one(*request)
        _, path, sqls, timeout_ms, max_rows, max_value_length, max_sql_length, max_result_bytes = request
        replies: list[bytes] = []
        size = 2
        for sql in sqls:
            reply = self.handle_one(path, sql, timeout_ms, max_rows, max_value_length, max_sql_length, max_result_bytes)
            if replies and size + len(reply) + 1 > max_result_bytes + 1_000_000:
                break  # the caller sends the rest again
            replies.append(reply)
            size += len(reply) + 1
        return b"[" + b",".join(replies) + b"]"

    def handle_one(self, path, sql, timeout_ms, max_rows, max_value_length, max_sql_length, max_result_bytes) -> bytes:
        """Run one statement and return its JSON reply."""
        deadline = time.monotonic() + timeout_ms / 1000
        try:
            connection, guard = self.connection_for(path, (max_value_length, max_sql_length))
        except FileNotFoundError:
            return self.reply_error("not_found", f"the database file {os.path.basename(path)} does not exist")
        except (OSError, sqlite3.Error) as exc:
            return self.reply_error("not_found", f"the database file cannot be opened: {exc}")
        guard.deadline = deadline
        guard.denied = None
        guard.too_large = None
        try:
            try:
                reply = self.run(connection, sql, max_rows, max_result_bytes)
            except sqlite3.OperationalError as exc:
                if "Could not decode to UTF-8" not in str(exc):
                    raise
                # A few real databases hold Latin-1 text; show it with replacement characters rather than fail.
                connection.text_factory = _lenient_text
                try:
                    reply = self.run(connection, sql, max_rows, max_result_bytes)
                finally:
                    connection.text_factory = str
        except _ResultTooLarge:
            return self.reply_error(
                "too_large",
                f"the result is larger than {max_result_bytes:,} bytes; select fewer columns or add a LIMIT",
            )
        except MemoryError:
            return self.memory_error()
        except (sqlite3.Error, sqlite3.Warning, UnicodeError, OverflowError, ValueError) as exc:
            error = self.classify(exc, connection, guard, sql, timeout_ms)
            return json.dumps([0, error]).encode()
        return reply

    def connection_for(self, path: str, limits: tuple[int, int]) -> tuple[sqlite3.Connection, _Guard]:
        signature = _file_signature(path)
        entry = self.connections.get(path)
        if entry is not None and entry[2] == signature:
            self.connections.move_to_end(path)
            connection, guard, _ = entry
            if guard.limits != limits:
                _apply_request_limits(connection, limits)
                guard.limits = limits
            return connection, guard
        if entry is not None:
            entry[0].close()  # the file changed under an immutable connection: never read it again
            del self.connections[path]
        connection, guard = _open_guarded(path, limits)
        self.connections[path] = (connection, guard, signature)
        while len(self.connections) > _CONNECTIONS_PER_WORKER:
            _, (old, _, _) = self.connections.popitem(last=False)
            old.close()
        return connection, guard

    def run(self, connection: sqlite3.Connection, sql: str, max_rows: int, max_result_bytes: int) -> bytes:
        """Execute and fetch at most ``max_rows`` rows; return the reply ``[1, columns, truncated, rows]`` as JSON."""
        cursor = connection.execute(sql)
        description = cursor.description
        columns = [column[0] for column in description] if description else []
        # Small first batch: it tells how big rows are, so a result of huge values is refused early instead of being
        # fetched whole into memory. Nearly every result fits in it: one fetch, one encoding.
        batch_size = min(max_rows, 64)
        batch = cursor.fetchmany(batch_size)
        if len(batch) < batch_size:
            reply = self.encode_rows([1, columns, False, batch], batch)
            if len(reply) > max_result_bytes:
                raise _ResultTooLarge()
            return reply
        pieces: list[bytes] = []
        size = 0
        count = 0
        while batch:
            text = self.encode_rows(batch, batch)
            size += len(text) - 1
            if size > max_result_bytes:
                raise _ResultTooLarge()
            pieces.append(text[1:-1])
            count += len(batch)
            if len(batch) < batch_size or count >= max_rows:
                break
            per_row = max(1, len(text) // len(batch))
            batch_size = max(1, min(max_rows - count, (max_result_bytes - size) // per_row + 1, 1000))
            batch = cursor.fetchmany(batch_size)
        truncated = count >= max_rows and cursor.fetchone() is not None
        head = self.encode([1, columns, truncated])
        return head[:-1] + b",[" + b",".join(pieces) + b"]]"

    def encode_rows(self, document: list, rows: list[tuple]) -> bytes:
        """Encode ``document``, which holds ``rows``; floats JSON cannot express are replaced by strings."""
        try:
            return self.encode(document)
        except ValueError:  # inf, -inf (SQLite stores NaN as NULL): JSON has no literal for them
            rows[:] = [[_finite(value) for value in row] for row in rows]
            return self.encode(document)

    def classify(self, exc: Exception, connection, guard: _Guard, sql: str, timeout_ms: int) -> dict:
        message = str(exc)
        return (
            _refusal_error(exc, message, guard, sql, timeout_ms)
            or self._size_error(message, connection)
            or _syntax_error(message, connection, sql)
            or _schema_error(message, sql)
            or _error("runtime", message)
        )

    def _size_error(self, message: str, connection) -> dict | None:
        """A value, the temporary space, or the statement's nesting over the sandbox's limits."""
        if "string or blob too big" in message or "statement too long" in message:
            return _error(
                "too_large",
                f"a value would be longer than the sandbox allows ({connection.getlimit(sqlite3.SQLITE_LIMIT_LENGTH):,}"
                " bytes); randomblob, zeroblob, printf widths and long concatenations are bounded",
            )
        if "database or disk is full" in message or "disk I/O error" in message:
            return _error(
                "too_large", f"the query needs more temporary space than the sandbox allows ({self.temp_mb} MB)"
            )
        if message.startswith(_LIMIT_MESSAGES):
            return _error("limit", f"{message}: the query is nested or compounded more deeply than the sandbox allows")
        return None


def _refusal_error(exc: Exception, message: str, guard: _Guard, sql: str, timeout_ms: int) -> dict | None:
    """What the sandbox refuses: an output too large, the time limit, a statement not allowed or that would write, more
    than one statement, text that is not Unicode."""
    if guard.too_large is not None:
        position = _find_name(sql, "printf")
        return _error("too_large", guard.too_large, _find_name(sql, "format") if position is None else position)
    if isinstance(exc, sqlite3.OperationalError) and message == "interrupted":
        return _error("timeout", f"the query ran longer than its {timeout_ms:,} ms time limit and was stopped")
    if guard.denied is not None or message.startswith("not authorized"):
        text, name = guard.denied or ("this statement is not allowed in the sandbox", None)
        return _error("forbidden", text, _find_name(sql, name) if name else None)
    if "readonly database" in message or "too many attached databases" in message:
        return _error("forbidden", "the sandbox is read-only: this statement would write or attach a database")
    if message == "You can only execute one statement at a time.":
        return _error("too_many_statements", "only one statement can run at a time")
    if isinstance(exc, UnicodeError):
        return _error("syntax", "the SQL contains characters that are not valid Unicode text")
    return None


def _syntax_error(message: str, connection, sql: str) -> dict | None:
    if message.startswith("near ") and message.endswith(": syntax error"):
        token = message[len('near "') : -len('": syntax error')]
        return _error("syntax", f'syntax error near "{token}"', _find_syntax_error(connection, sql, token, message))
    if message == "incomplete input":
        return _error("syntax", "the statement ends too early (incomplete input)", len(sql.rstrip()))
    if message.startswith("unrecognized token: "):
        token = message[len('unrecognized token: "') : -1]
        position = sql.find(token)
        return _error("syntax", f"unrecognized token {token!r}", position if position >= 0 else None)
    return None


def _schema_error(message: str, sql: str) -> dict | None:
    for prefix in _SCHEMA_MESSAGES:
        if message.startswith(prefix):
            return _error("schema", message, _find_name(sql, message[len(prefix) :]))
    return None


class _ResultTooLarge(Exception):
    pass


_LIMIT_MESSAGES = (
    "Expression tree is too large",
    "parser stack overflow",
    "too many terms in compound SELECT",
    "too many SQL variables",
    "too many columns",
    "too many arguments on function",
    "too many FROM clause terms",
    "LIKE or GLOB pattern too complex",
    "too many references to",
    "at most 64 tables in a join",
)
_SCHEMA_MESSAGES = (
    "no such table: ",
    "no such column: ",
    "ambiguous column name: ",
    "no such function: ",
    "wrong number of arguments to function ",
    "misuse of aggregate: ",
    "misuse of aggregate function ",
)


def _make_json_encoder():
    """A compact, NaN-refusing JSON encoder to UTF-8 bytes, built once (json.dumps builds one per call)."""
    standard = _make_standard_encoder()
    if orjson is None:
        return standard
    dumps, refused = orjson.dumps, orjson.JSONEncodeError

    def encode(document) -> bytes:
        # orjson: 0.3 us per result of the Spider sample, the json module 3.1 (bench/sandbox.py). But orjson writes
        # NaN and the infinities as null, as if NULL, where the json module refuses them (encode_rows then spells
        # them out); a result with a null in it (rare: no NULL, no NaN) is encoded by the json module instead.
        try:
            text = dumps(document, default=_json_default)
        except refused:  # a lone surrogate: the json module escapes it
            return standard(document)
        return standard(document) if b"null" in text else text

    return encode


def _make_standard_encoder():
    """The json module's encoder, compact, ASCII-only and NaN-refusing, to bytes."""
    encoder = json.JSONEncoder(allow_nan=False, separators=(",", ":"), default=_json_default)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return lambda document: encoder.encode(document).encode("ascii")
    # Same arguments JSONEncoder.iterencode passes; markers=None skips the cycle check (rows hold no containers).
    encode_one = make(None, _json_default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, False)

    def encode(document) -> bytes:
        return "".join(encode_one(document, 0)).encode("ascii")

    return encode


def _json_default(value: object) -> str:
    if isinstance(value, bytes):
        if len(value) <= _INLINE_BLOB_BYTES:
            return f"x'{value.hex()}'"
        return f"<blob {len(value):,} bytes>"
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _finite(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


# SQLite-like tokens, enough to find where an error message's token sits in the SQL.
_TOKEN_RE = re.compile(
    r"""\s+|--[^\n]*|/\*.*?(?:\*/|\Z)
    |'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`(?:[^`]|``)*`?|\[[^\]]*\]?
    |[xX]'[^']*'?
    |0[xX][0-9a-fA-F]+|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?
    |[^\W\d]\w*|[$@:#?]\w*
    |\|\||<<|>>|<=|>=|==|!=|<>|->>|->|.""",
    re.S | re.X,
)


def _tokens(sql: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in _TOKEN_RE.finditer(sql) if not m.group()[:1].isspace()]


def _find_syntax_error(connection: sqlite3.Connection, sql: str, token: str, message: str) -> int | None:
    """Offset of the token SQLite stopped at (Python 3.11 has no sqlite3_error_offset).

    The parser stops at the first occurrence of ``token`` where the statement can no longer be valid, so the answer is
    the first occurrence whose prefix, compiled alone, fails with the same message. EXPLAIN compiles without running.
    """
    candidates = [start for start, text in _tokens(sql) if text == token]
    first_word = _WORD_RE.match(sql, _LEADING_RE.match(sql).end())
    if len(candidates) <= 1 or (first_word and first_word.group().upper() == "EXPLAIN"):
        return candidates[0] if candidates else None
    for start in candidates:
        try:
            connection.execute("EXPLAIN " + sql[: start + len(token)]).fetchone()
        except sqlite3.Error as exc:
            if str(exc) == message:
                return start
    return candidates[0]


def _find_name(sql: str, name: str) -> int | None:
    """Offset of the first identifier (or qualified ``a.b``) equal to ``name``, ignoring case and quotes."""
    parts = [part.strip('"`[]').lower() for part in name.strip().split(".")]
    tokens = _tokens(sql)
    words = [text.strip('"`[]').lower() if text[0] not in "'" else None for _, text in tokens]
    for index in range(len(tokens)):
        if words[index] != parts[0]:
            continue
        if all(
            index + 2 * k < len(tokens) and tokens[index + 2 * k - 1][1] == "." and words[index + 2 * k] == part
            for k, part in enumerate(parts[1:], start=1)
        ):
            return tokens[index][0]
    return None
