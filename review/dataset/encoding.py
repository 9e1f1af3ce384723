"""Spider encoding of many queries at once, spread over processes.

Encoding is pure CPU (sqlglot parsing, about 1,000 queries/s on one core), so a CoSQL-sized export spends most of
its time here; a process pool uses the other cores. This module imports nothing from Django, so that a pool worker
starts with only the SQL core loaded. Results are plain tuples: (encoded sql dict or None, error message or None).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Executor, Future, ProcessPoolExecutor

from annotation.sql.spider import SpiderEncodingError, encode_sql

# Below this many queries a pool costs more than it saves: forking a large server process and its copy-on-write
# page faults cost about as much as encoding 1,500 queries in place (measured on 2 cores).
POOL_THRESHOLD = 3000
CHUNK_SIZE = 200


def encode_chunk(schema: dict, sqls: list[str]) -> list[tuple[dict | None, str | None]]:
    """Encode each SQL of one database with the LIMIT values kept; errors come back as messages, never raised."""
    encoded: list[tuple[dict | None, str | None]] = []
    for sql in sqls:
        try:
            encoded.append((encode_sql(sql, schema, limit_mode="value"), None))
        except SpiderEncodingError as exc:
            encoded.append((None, str(exc)))
        except Exception as exc:  # an encoder bug must cost one turn, not the whole export
            encoded.append((None, f"encoder failure: {type(exc).__name__}: {exc}"))
    return encoded


def limit_as_one(encoded):
    """The same encoding with every LIMIT written as 1, the quirk of the SParC/CoSQL releases (nested queries too)."""
    if isinstance(encoded, dict):
        copy = {key: limit_as_one(value) for key, value in encoded.items()}
        if "select" in encoded and encoded.get("limit") is not None:
            copy["limit"] = 1
        return copy
    if isinstance(encoded, list):
        return [limit_as_one(item) for item in encoded]
    return encoded


class _InlineExecutor(Executor):
    """Runs submitted work at once in this process (small batches, and where no pool may be started)."""

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future, as a pool would
            future.set_exception(exc)
        return future


def encoder_pool(query_count: int) -> Executor:
    """A process pool for `query_count` queries, or an inline executor when a pool would not pay off.

    Workers are forked: a spawned worker would re-run the caller's main script (an unguarded one starts the export
    again), and a forked one starts with the SQL core already imported. The children only encode (pure Python, no
    database, no locks the caller holds: callers create the pool before starting any thread of their own) and
    leave through os._exit, so the connections they inherit are never touched.
    """
    workers = min(os.cpu_count() or 1, 4)
    if query_count < POOL_THRESHOLD or workers < 2:
        return _InlineExecutor()
    try:
        return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
    except (OSError, ValueError, AssertionError):  # no processes allowed here: encode inline instead
        return _InlineExecutor()


def encode_all(pairs, schemas: dict[str, dict]) -> dict[tuple[str, str], tuple[dict | None, str | None]]:
    """Encode every distinct (db_id, sql) pair (LIMIT values kept); in a process pool when there are many."""
    pairs = list(dict.fromkeys(pairs))
    by_db: dict[str, list[str]] = {}
    for db_id, sql in pairs:
        by_db.setdefault(db_id, []).append(sql)
    encoded: dict[tuple[str, str], tuple[dict | None, str | None]] = {}
    pool = encoder_pool(len(pairs))
    try:
        futures = []
        for db_id, sqls in by_db.items():
            for start in range(0, len(sqls), CHUNK_SIZE):
                chunk = sqls[start : start + CHUNK_SIZE]
                futures.append((db_id, chunk, pool.submit(encode_chunk, schemas[db_id], chunk)))
        for db_id, chunk, future in futures:
            for sql, outcome in zip(chunk, future.result(), strict=True):
                encoded[(db_id, sql)] = outcome
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return encoded
