"""Spider encoding of many queries, and the LIMIT quirk of the SParC/CoSQL releases.

Encoding is pure CPU in this process (sqlglot parsing, about 2,500 queries/s here). A process pool was tried and
dropped: on the 2-vCPU machines this project runs on, two busy processes got about 1.2 times the throughput of
one, and pool workers encoded several times slower than the parent (start-up, pickling, cold caches), so the pool
cost more than it saved. What does run in parallel is execution: the sandbox's worker processes run queries while
this process encodes (see annotation.sql.check).
"""

from __future__ import annotations

import gc

from annotation.sql.spider import SpiderEncodingError, encode_sql


def encode_chunk(schema: dict, sqls: list[str]) -> list[tuple[dict | None, str | None]]:
    """Encode each SQL of one database with the LIMIT values kept; errors come back as messages, never raised.

    sqlglot's trees are reference cycles (each node links its parent), freed only by the cyclic collector: an export
    pauses it (annotation/plumbing/gc_pause.py), and the trees of a hundred thousand queries were then all held to
    its end (more than half a GB). The youngest generation, where the chunk's trees are, is collected after each
    chunk: a pass over what was made since the last one, not over everything held."""
    encoded: list[tuple[dict | None, str | None]] = []
    for sql in sqls:
        try:
            encoded.append((encode_sql(sql, schema, limit_mode="value"), None))
        except SpiderEncodingError as exc:
            encoded.append((None, str(exc)))
        except Exception as exc:  # an encoder bug must cost one turn, not the whole export
            encoded.append((None, f"encoder failure: {type(exc).__name__}: {exc}"))
    gc.collect(0)
    return encoded


def encode_all(pairs, schemas: dict[str, dict]) -> dict[tuple[str, str], tuple[dict | None, str | None]]:
    """Encode every distinct (db_id, sql) pair (LIMIT values kept)."""
    by_db: dict[str, list[str]] = {}
    for db_id, sql in dict.fromkeys(pairs):
        by_db.setdefault(db_id, []).append(sql)
    encoded: dict[tuple[str, str], tuple[dict | None, str | None]] = {}
    for db_id, sqls in by_db.items():
        for sql, outcome in zip(sqls, encode_chunk(schemas[db_id], sqls), strict=True):
            encoded[(db_id, sql)] = outcome
    return encoded


def limit_as_one(sql: dict | None) -> dict | None:
    """The same encoding with every LIMIT written as 1, the quirk of the SParC/CoSQL releases (nested queries too).

    Copies only the dicts on the way to a nested query and shares everything else with the input, which must
    therefore not be mutated afterwards (exports only serialise it)."""
    if sql is None:
        return None
    copy = dict(sql)
    if copy["limit"] is not None:
        copy["limit"] = 1
    units = sql["from"]["table_units"]
    if any(kind == "sql" for kind, _ in units):
        copy["from"] = {**sql["from"], "table_units": [[k, limit_as_one(v) if k == "sql" else v] for k, v in units]}
    for clause in ("where", "having"):
        if any(_has_nested(item) for item in sql[clause]):
            copy[clause] = [_cond_limit_as_one(item) if isinstance(item, list) else item for item in sql[clause]]
    conds = sql["from"]["conds"]
    if any(_has_nested(item) for item in conds):
        copy["from"] = {**copy["from"], "conds": [_cond_limit_as_one(i) if isinstance(i, list) else i for i in conds]}
    for name in ("intersect", "union", "except"):
        if sql[name] is not None:
            copy[name] = limit_as_one(sql[name])
    return copy


def _has_nested(item) -> bool:
    return isinstance(item, list) and (isinstance(item[3], dict) or isinstance(item[4], dict))


def _cond_limit_as_one(cond: list) -> list:
    return [*cond[:3], *(limit_as_one(v) if isinstance(v, dict) else v for v in cond[3:])]
