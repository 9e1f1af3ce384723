"""Searching for a database that tells two queries apart (docs/test_suites.md, "Searching for the difference").

A kept test suite was distilled for the neighbours of a database's goals; a pair a reviewer writes may differ where
none of its databases look. So a comparison also searches, for a bounded time, among small databases made for this
pair (`annotation.suites.small_databases`): the original's tables, keys and types, each column's values from its own
domain and from around the literals the two queries compare it with. A database counts only when both queries run on
it and each returns one answer there: a LIMIT or an ORDER BY that cuts through rows tied on their sort keys lets
SQLite pick any of them, and a difference that comes from that pick is no difference in meaning. The first database
found is then cut down, row by row, to the smallest that still shows the difference.

Every query runs in the sandbox; this module only writes the small files it asks about, in a scratch folder of its own.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import sqlglot
from sqlglot import exp

from annotation.sql.results import order_matters, results_equal
from annotation.sql.sandbox import SandboxLimits, SandboxResult, execute_many
from annotation.suites.small_databases import (
    Shape,
    World,
    WorldMaker,
    focus_of,
    plainer_values,
    quote,
    read_shape,
    read_values,
    with_value,
    without_row,
    world_bytes,
)

# The share of a search's time kept for cutting a found database down (the rest looks for one).
CUTTING_SHARE = 0.25
# A statement on a small database that takes longer than this proves nothing quickly: it counts as not run.
_SMALL_STATEMENT_MS = 500


@dataclass
class Found:
    world: World  # the smallest rows found that show the difference, table by table
    a: SandboxResult
    b: SandboxResult
    tables: list[dict] = field(default_factory=list)  # the same rows as a person reads them (`world_tables`)


@dataclass
class SearchReport:
    databases: int = 0  # small databases on which both queries ran and were compared
    seconds: float = 0.0
    undecided: int = 0  # databases on which a query could pick among tied rows: not counted either way
    found: Found | None = None


# --------------------------------------------------------------------------------------------------------------------
# One answer or several: ties under a LIMIT or an ORDER BY
# --------------------------------------------------------------------------------------------------------------------


@dataclass
class _Probe:
    """A SELECT of a query with its sort keys added to the result and its LIMIT taken off: its rows say whether the
    rows the LIMIT keeps (or their order) are decided by the keys alone."""

    sql: str
    keys: int  # how many columns at the end are sort keys
    start: int  # the rows the SELECT keeps: [start, stop)
    stop: int | None
    whole: bool  # the order of every kept row counts (the query's own ORDER BY, compared as a list)


def probes_of(sql: str, *, ordered: bool) -> list[_Probe]:
    """The probes of every SELECT of `sql` whose rows are cut by a LIMIT, and of the query's own ORDER BY when the
    comparison is ordered. A SELECT that cannot be probed alone (it reads columns of an outer query) is left out."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except (sqlglot.errors.SqlglotError, ValueError):
        return []
    probes = []
    for select in tree.find_all(exp.Select) if tree else ():
        limit, offset = select.args.get("limit"), select.args.get("offset")
        order = select.args.get("order")
        top = select is tree
        if limit is None and not (top and ordered and order is not None):
            continue
        count = _number(limit.expression) if limit is not None else None
        skip = _number(offset.expression) if offset is not None else 0
        if (limit is not None and count is None) or skip is None:
            continue
        keys = [_key(select, ordered_key.this) for ordered_key in (order.expressions if order else [])]
        probe = select.copy()
        probe.set("limit", None)
        probe.set("offset", None)
        if keys:
            probe = probe.select(*(key.copy() for key in keys), append=True)
        stop = skip + count if count is not None else None
        try:
            text = probe.sql(dialect="sqlite")
        except (sqlglot.errors.SqlglotError, ValueError):
            continue
        probes.append(_Probe(text, len(keys), skip, stop, top and ordered and order is not None))
    return probes


def _number(node) -> int | None:
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(float(node.this))
        except ValueError:
            return None
    return None


def _key(select: exp.Select, key: exp.Expression) -> exp.Expression:
    """A sort key as an expression of the SELECT's rows: ORDER BY 2 and ORDER BY an alias name the selected item."""
    if isinstance(key, exp.Literal) and not key.is_string:
        position = _number(key)
        if position and 0 < position <= len(select.expressions):
            return select.expressions[position - 1].unalias()
    if isinstance(key, exp.Column) and not key.table:
        for item in select.expressions:
            if isinstance(item, exp.Alias) and item.alias.lower() == key.name.lower():
                return item.this
    return key


def _decided(result: SandboxResult, probe: _Probe) -> bool:
    """Whether the probe's rows leave one answer: no run of rows tied on the keys both crosses the cut and holds
    different rows (or, when the whole order counts, lies inside it with different rows)."""
    if not result.ok or result.truncated:
        return True  # nothing to read: the query's own run decides
    rows = [tuple(row) for row in result.rows]
    stop = len(rows) if probe.stop is None else probe.stop
    if probe.keys == 0:  # a LIMIT without ORDER BY: SQLite picks the rows, unless it keeps them all or all are alike
        return (len(rows) <= stop and probe.start == 0) or len(set(rows)) <= 1
    start = 0
    while start < len(rows):
        end = start
        keys = rows[start][-probe.keys :]
        while end + 1 < len(rows) and rows[end + 1][-probe.keys :] == keys:
            end += 1
        if end > start and len({row[: -probe.keys] for row in rows[start : end + 1]}) > 1:
            inside = [index for index in range(start, end + 1) if probe.start <= index < stop]
            crosses = inside and len(inside) < end - start + 1
            if crosses or (inside and probe.whole):
                return False
        start = end + 1
    return True


# --------------------------------------------------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------------------------------------------------


def _scratch_root() -> str | None:
    shared_memory = "/dev/shm"  # noqa: S108 - tiny files written once and read at once: memory is the right place
    return shared_memory if os.path.isdir(shared_memory) and os.access(shared_memory, os.W_OK) else None


@dataclass
class _Pair:
    sql_a: str
    sql_b: str
    ordered: bool
    probes: list[_Probe] = field(default_factory=list)
    top_ordered: bool = False  # the reference query's own SELECT says ORDER BY


class _Files:
    """The scratch folder of one search: every file gets a new name (the sandbox's workers keep files open by name)."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="wozsql-search-", dir=_scratch_root()))
        self.count = 0

    def write(self, data: bytes) -> Path:
        self.count += 1
        path = self.folder / f"{self.count:06d}.sqlite"
        path.write_bytes(data)
        return path

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _limits(limits: SandboxLimits, deadline: float) -> SandboxLimits | None:
    left_ms = int((deadline - time.monotonic()) * 1000)
    if left_ms < 10:
        return None
    return replace(limits, timeout_ms=min(limits.timeout_ms, _SMALL_STATEMENT_MS, left_ms))


def _verdict(pair: _Pair, path: Path, limits: SandboxLimits, deadline: float):
    """Run the pair on one small database: None when it cannot be told there (a query fails, time is up), else
    (differs, decided, result_a, result_b)."""
    bounded = _limits(limits, deadline)
    if bounded is None:
        return None
    result_a, result_b = execute_many(path, [pair.sql_a, pair.sql_b], limits=bounded)
    if not (result_a.ok and result_b.ok) or result_a.truncated or result_b.truncated:
        return None
    if results_equal(result_a.rows, result_b.rows, ordered=pair.ordered):
        return False, True, result_a, result_b
    bounded = _limits(limits, deadline)
    if bounded is None:
        return None
    return True, pair_decided(path, pair, result_a, result_b, bounded), result_a, result_b


def pair_decided(path: Path, pair: _Pair, result_a: SandboxResult, result_b: SandboxResult, limits) -> bool:
    """Whether two results that differ on the database at `path` are each the one answer of its query there, rather
    than SQLite's pick among rows tied under a LIMIT or an ORDER BY (`probes_of`); an order that differs where the
    reference orders nothing itself is no answer either."""
    if pair.ordered and not pair.top_ordered and results_equal(result_a.rows, result_b.rows, ordered=False):
        return False
    if not pair.probes:
        return True
    probed = execute_many(path, [probe.sql for probe in pair.probes], limits=limits)
    return all(_decided(result, probe) for result, probe in zip(probed, pair.probes, strict=True))


def _top_ordered(sql: str) -> bool:
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except (sqlglot.errors.SqlglotError, ValueError):
        return True
    return tree is not None and tree.args.get("order") is not None


def pair_of(sql_a: str, sql_b: str) -> _Pair:
    """Two queries to compare, with what deciding a difference between them needs."""
    ordered = order_matters(sql_a)
    probes = probes_of(sql_a, ordered=ordered) + probes_of(sql_b, ordered=ordered)
    return _Pair(sql_a, sql_b, ordered, probes, _top_ordered(sql_a))


def search_difference(
    original: Path,
    sql_a: str,
    sql_b: str,
    *,
    deadline: float,
    limits: SandboxLimits,
    seed: int = 0,
    databases: int | None = None,
) -> SearchReport:
    """Look for a small database on which `sql_a` and `sql_b` return different rows, until `deadline` (monotonic
    seconds) or, given `databases`, once that many were compared (a bound that is the same on every machine); the last
    CUTTING_SHARE of the time is kept for cutting a found one down. `original` gives the schema and the columns' own
    values."""
    started = time.monotonic()
    report = SearchReport()
    shape = read_shape(original, limits)
    focus = focus_of(shape, [sql_a, sql_b])
    maker = WorldMaker(shape, focus, random.Random(seed))
    read_values(original, shape, maker.tables, limits)
    maker = WorldMaker(shape, focus, random.Random(seed))  # again, now that the columns' own values are known
    pair = pair_of(sql_a, sql_b)
    stop_looking = deadline - (deadline - started) * CUTTING_SHARE
    seen: set[bytes] = set()
    files = _Files()
    try:
        while time.monotonic() < stop_looking and (databases is None or report.databases < databases):
            world, data = maker.make()
            digest = hashlib.blake2b(data, digest_size=16).digest()
            if digest in seen:
                continue
            seen.add(digest)
            path = files.write(data)
            verdict = _verdict(pair, path, limits, stop_looking)
            path.unlink()
            if verdict is None:
                continue
            differs, decided, result_a, result_b = verdict
            if not decided:
                report.undecided += 1
                continue
            report.databases += 1
            if differs:
                report.found = _cut_down(shape, pair, Found(world, result_a, result_b), files, limits, deadline)
                break
    finally:
        files.close()
        report.seconds = time.monotonic() - started
    return report


def cut_down_file(
    original: Path, path: Path, sql_a: str, sql_b: str, *, deadline: float, limits: SandboxLimits
) -> Found | None:
    """A database of a kept suite on which the pair differs, read back (the tables the pair reads) and cut down to
    the smallest rows that still show the difference; None when its rows, written again, do not show it."""
    shape = read_shape(original, limits)
    focus = focus_of(shape, [sql_a, sql_b])
    tables = WorldMaker(shape, focus, random.Random(0)).tables
    bounded = _limits(limits, deadline)
    if bounded is None or not tables:
        return None
    names = [table.name for table in tables]
    statements = [
        f"SELECT {', '.join(quote(column.name) for column in table.columns)} FROM {quote(table.name)}"  # noqa: S608
        for table in tables
    ]
    read = execute_many(path, statements, limits=bounded)
    if not all(result.ok and not result.truncated for result in read):
        return None
    world = {name: [tuple(row) for row in result.rows] for name, result in zip(names, read, strict=True)}
    pair = pair_of(sql_a, sql_b)
    files = _Files()
    try:
        verdict = _verdict(pair, files.write(world_bytes(shape, world)), limits, deadline)
        if not verdict or not verdict[0] or not verdict[1]:
            return None
        return _cut_down(shape, pair, Found(world, verdict[2], verdict[3]), files, limits, deadline)
    finally:
        files.close()


def _cut_down(shape: Shape, pair: _Pair, found: Found, files: _Files, limits: SandboxLimits, deadline: float) -> Found:
    """Take rows away one at a time (with the rows whose keys pointed at them) while the difference stays, children
    before parents, until no row can go or the time is up; then give cells the column's own plain value where the
    difference stays."""
    order = [table.name for table in reversed(shape.tables) if found.world.get(table.name)]
    changed = True
    while changed and time.monotonic() < deadline:
        changed = False
        for name in order:
            index = 0
            while index < len(found.world.get(name, [])) and time.monotonic() < deadline:
                smaller = _without(shape, pair, found.world, name, index, files, limits, deadline)
                if smaller is not None:
                    found = smaller
                    changed = True
                else:
                    index += 1
    # Then the cells that hold a neighbour, a literal or nothing, where the column's own value shows it as well.
    for name, index, position, value in plainer_values(shape, found.world):
        if time.monotonic() >= deadline:
            break
        plainer = with_value(found.world, name, index, position, value)
        path = files.write(world_bytes(shape, plainer))
        verdict = _verdict(pair, path, limits, deadline)
        path.unlink()
        if verdict and verdict[0] and verdict[1]:
            found = Found(plainer, verdict[2], verdict[3])
    found.tables = world_tables(shape, found.world)
    return found


def _without(shape, pair: _Pair, world: World, name: str, index: int, files: _Files, limits, deadline) -> Found | None:
    """`world` without one row of `name`, where the pair still differs there: first with the rows that pointed at it
    kept and pointing at nothing (where their key may be NULL), then without them; None when neither shows it."""
    tried = []
    for detach in (True, False):
        smaller = without_row(shape, world, name, index, detach=detach)
        if smaller in tried:
            continue
        tried.append(smaller)
        path = files.write(world_bytes(shape, smaller))
        verdict = _verdict(pair, path, limits, deadline)
        path.unlink()
        if verdict and verdict[0] and verdict[1]:
            return Found(smaller, verdict[2], verdict[3])
    return None


def world_tables(shape: Shape, world: World) -> list[dict]:
    """The non-empty tables of a small database as a person reads them, parents first: name, columns, rows."""
    return [
        {"name": table.name, "columns": [column.name for column in table.columns], "rows": [list(row) for row in rows]}
        for table in shape.tables
        if (rows := world.get(table.name))
    ]
