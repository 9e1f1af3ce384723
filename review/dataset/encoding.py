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

# Below this many queries a pool costs more (process start-up, about 0.3 s) than it saves.
POOL_THRESHOLD = 400
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

    Workers are spawned, not forked: the caller may be a Celery worker or a server with threads and open database
    connections, none of which a child should inherit.
    """
    workers = min(os.cpu_count() or 1, 4)
    if query_count < POOL_THRESHOLD or workers < 2:
        return _InlineExecutor()
    try:
        return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    except (OSError, ValueError, AssertionError):  # no processes allowed here: encode inline instead
        return _InlineExecutor()
