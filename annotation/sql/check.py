"""Re-execute and re-encode many SQL queries at once: what a dataset export checks before it writes its files, and
what final validation checks of one reviewed dialogue.

Each distinct (database, SQL) pair is checked once: encoded under the Spider protocol here and executed in the
sandbox, whose worker processes run the queries while this process encodes. A database registered without a file
(schema only) cannot execute anything: its queries are marked "not executed", which the caller reports instead of
failing.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from itertools import groupby

from annotation.plumbing import jsoncodec
from annotation.sql.encoding import encode_chunk
from annotation.sql.sandbox import SandboxLimits, execute_many

CHUNK_SIZE = 200
BATCH_SIZE = 64  # queries per execution task: one sandbox round trip each (execute_many)


@dataclass
class SqlCheck:
    # LIMIT values kept (see encoding.limit_as_one for the releases' quirk); its compact JSON text when check_queries
    # packed it: read it through `encoding()`.
    encoded: dict | str | None = None
    encode_error: str | None = None
    executed: bool = False
    exec_error: str | None = None
    result_digest: str | None = None

    @property
    def runs(self) -> bool:
        return self.executed and self.exec_error is None

    def encoding(self) -> dict | None:
        """The Spider encoding (a fresh dict each time when it is packed)."""
        return jsoncodec.loads(self.encoded) if isinstance(self.encoded, str) else self.encoded


def result_digest(columns, rows) -> str:
    """A fingerprint of a result table, to tell whether re-execution shows what the worker was shown."""
    text = json.dumps([list(columns or []), rows or []], separators=(",", ":"), sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def check_queries(
    queries: Iterable[tuple[str, str]],
    *,
    schemas: dict[str, dict],
    paths: dict[str, object | None],
    progress: Callable[[int, int], None] | None = None,
    pack: bool = False,
) -> dict[tuple[str, str], SqlCheck]:
    """Check every distinct (db_id, sql): `schemas[db_id]` is its tables.json entry, `paths[db_id]` its SQLite file
    (None for schema-only databases). Returns a SqlCheck per pair; `progress(done, total)` is called as work ends.
    With `pack` each encoding is kept as its compact JSON text (SqlCheck.encoding() reads it): a tenth of the memory
    of the dicts, which an export of a hundred thousand queries cannot all hold at once."""
    pairs = list(dict.fromkeys(queries))
    checks = {pair: SqlCheck() for pair in pairs}
    by_db: dict[str, list[str]] = {}
    for db_id, sql in pairs:
        by_db.setdefault(db_id, []).append(sql)
    # Sorted by database: each sandbox worker keeps a few connections open, and runs of queries on the same file
    # reuse them (interleaved databases made execution twice as slow).
    executable = sorted((db_id, sql) for db_id, sql in pairs if paths.get(db_id) is not None)
    total = len(pairs) + len(executable)
    done = 0
    last_report = 0.0

    def report(force: bool = False) -> None:
        nonlocal last_report
        now = time.monotonic()
        if progress and (force or now - last_report > 0.25):
            last_report = now
            progress(done, total)

    limits = SandboxLimits.from_settings()
    # Execution runs in the sandbox's processes; its caller threads mostly wait on pipes, so they overlap with the
    # encoding, which keeps this thread busy meanwhile.
    threads = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="export-sql")
    try:
        running = {}
        for start in range(0, len(executable), BATCH_SIZE):
            batch = executable[start : start + BATCH_SIZE]
            running[threads.submit(_execute_batch, batch, paths, limits)] = batch
        for db_id, sqls in by_db.items():
            for start in range(0, len(sqls), CHUNK_SIZE):
                chunk = sqls[start : start + CHUNK_SIZE]
                for sql, (encoded, error) in zip(chunk, encode_chunk(schemas[db_id], chunk), strict=True):
                    check = checks[(db_id, sql)]
                    packed = jsoncodec.dumps(encoded) if pack and encoded is not None else encoded
                    check.encoded, check.encode_error = packed, error
                done += len(chunk)
                done += _collect(running, checks, block=False)
                report()
        while running:
            done += _collect(running, checks, block=True)
            report()
    finally:
        threads.shutdown(wait=True, cancel_futures=True)
    report(force=True)
    return checks


def _collect(running: dict, checks: dict, *, block: bool) -> int:
    """Record the finished execution batches (waiting for one if `block`); return how many queries they held."""
    finished = wait(running, timeout=None if block else 0, return_when=FIRST_COMPLETED)[0]
    count = 0
    for future in finished:
        batch = running.pop(future)
        for pair, (error, digest) in zip(batch, future.result(), strict=True):
            check = checks[pair]
            check.executed, check.exec_error, check.result_digest = True, error, digest
        count += len(batch)
    return count


def _execute_batch(batch, paths, limits) -> list[tuple[str | None, str | None]]:
    """Execute a batch (sorted by database) with one sandbox round trip per database in it."""
    outcomes = []
    for db_id, group in groupby(batch, key=lambda pair: pair[0]):
        sqls = [sql for _, sql in group]
        for result in execute_many(paths[db_id], sqls, limits=limits):
            if result.ok:
                outcomes.append((None, result_digest(result.columns, result.rows)))
            else:
                error = result.error or {}
                outcomes.append((f"{error.get('kind', 'error')}: {error.get('message', 'failed')}", None))
    return outcomes
