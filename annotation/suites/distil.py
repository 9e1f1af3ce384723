"""Distilled test suites: small databases, generated from a hosted one, on which queries that differ in meaning return
different rows (docs/test_suites.md).

Paths and SQL in; files and figures out. It knows no model. The databases are made by
`annotation.suites.small_databases`, every query runs in the sandbox's "compare" pool.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import sqlglot
from sqlglot import exp

from annotation.sql.results import order_matters, results_equal
from annotation.sql.sandbox import SandboxLimits, execute_many
from annotation.suites.compare import compare_limits
from annotation.suites.difference_search import pair_decided, pair_of
from annotation.suites.small_databases import Shape, WorldMaker, focus_of, quote, read_shape, read_values

SUITES_FOLDER = "test_suites"


def original_path(data_dir: Path | str, db_id: str) -> Path:
    """Where `annotation.databases.services.database_register` keeps a hosted database's file."""
    return Path(data_dir) / "databases" / db_id / f"{db_id}.sqlite"


def suite_dir(data_dir: Path | str, db_id: str) -> Path:
    """The folder holding a database's generated suite: `DATA_DIR/test_suites/<db_id>/`."""
    return Path(data_dir) / SUITES_FOLDER / db_id


def suite_paths(data_dir: Path | str, db_id: str, original: Path | str | None = None) -> list[Path]:
    """Every database a query pair is checked on, the original first, then the suite's generated databases in a stable
    order. Without a built suite this is the original alone, so callers work (on one database) before it is built.
    `original` is the database's current file where it is not the upload's place (a curated version, an import)."""
    generated = sorted(suite_dir(data_dir, db_id).glob("*.sqlite"))
    return [Path(original) if original is not None else original_path(data_dir, db_id), *generated]


# --------------------------------------------------------------------------------------------------------------------
# Neighbour queries: one small change each, of the kinds that slip past a single database (docs/test_suites.md)
# --------------------------------------------------------------------------------------------------------------------

_COMPARISON_SWAPS = {
    exp.GT: (exp.GTE, exp.LT),
    exp.GTE: (exp.GT, exp.LTE),
    exp.LT: (exp.LTE, exp.GT),
    exp.LTE: (exp.LT, exp.GTE),
    exp.EQ: (exp.NEQ, exp.GTE),
    exp.NEQ: (exp.EQ,),
}
_AGGREGATE_SWAPS = {exp.Max: (exp.Min,), exp.Min: (exp.Max,), exp.Avg: (exp.Sum,), exp.Sum: (exp.Avg, exp.Count)}
_SET_OPERATIONS = (exp.Union, exp.Intersect, exp.Except)


def _node_mutations(node: exp.Expression) -> list:
    """The changes one node allows, each a function that edits that node (in a copy of the tree) in place."""
    return [change for mutations in _MUTATIONS for change in mutations(node)]


def _swap_mutations(node: exp.Expression) -> list:
    """Another comparison operator, another aggregate, or a count of distinct values."""
    changes = []
    for new_class in _COMPARISON_SWAPS.get(type(node), ()):
        changes.append(lambda n, c=new_class: n.replace(c(this=n.this, expression=n.expression)))
    for new_class in _AGGREGATE_SWAPS.get(type(node), ()):
        changes.append(lambda n, c=new_class: n.replace(c(this=n.this)))
    if isinstance(node, exp.Count) and not isinstance(node.this, exp.Star | exp.Distinct):
        changes.append(lambda n: n.set("this", exp.Distinct(expressions=[n.this])))
    return changes


def _select_mutations(node: exp.Expression) -> list:
    """DISTINCT switched, and a condition that the first column shown be known (a SELECT without WHERE)."""
    if not isinstance(node, exp.Select) or _one_row(node):
        return []
    changes = [lambda n: n.set("distinct", None if n.args.get("distinct") else exp.Distinct())]
    if node.args.get("where") is None and node.expressions:
        first = node.expressions[0]
        if isinstance(first, exp.Column):  # an added condition: the selected column must be known
            changes.append(lambda n, c=first: n.where(exp.Not(this=exp.Is(this=c.copy(), expression=exp.Null()))))
    return changes


def _join_mutations(node: exp.Expression) -> list:
    if not isinstance(node, exp.Join):
        return []
    side = (node.args.get("side") or "").upper()
    if side == "LEFT":
        return [lambda n: n.set("side", None)]
    if not side and node.args.get("kind") not in ("CROSS",):
        return [lambda n: (n.set("side", "LEFT"), n.set("kind", None))]
    return []


def _limit_mutations(node: exp.Expression) -> list:
    if isinstance(node, exp.Limit) and isinstance(node.expression, exp.Literal) and node.expression.is_int:
        return [lambda n: n.set("expression", exp.Literal.number(int(n.expression.this) + 1)), lambda n: n.pop()]
    return []


def _order_mutations(node: exp.Expression) -> list:
    if not isinstance(node, exp.Ordered):
        return []
    # SQLite's own NULL placement for the new direction, so that only the direction changes
    desc = bool(node.args.get("desc"))
    return [lambda n, d=desc: (n.set("desc", not d), n.set("nulls_first", d))]


def _condition_mutations(node: exp.Expression) -> list:
    """AND for OR and the other way round, and a condition dropped."""
    changes = []
    if isinstance(node, exp.And | exp.Or):
        other = exp.Or if isinstance(node, exp.And) else exp.And
        changes.append(lambda n, c=other: n.replace(c(this=n.this, expression=n.expression)))
        changes.append(lambda n: n.replace(n.this))  # a dropped condition
        changes.append(lambda n: n.replace(n.expression))
    if isinstance(node, exp.Where | exp.Having) and not isinstance(node.this, exp.And | exp.Or):
        changes.append(lambda n: n.pop())  # the only condition dropped
    return changes


def _set_mutations(node: exp.Expression) -> list:
    """Another set operation, and UNION ALL for UNION or the other way round."""
    if not isinstance(node, _SET_OPERATIONS):
        return []
    changes = []
    for new_class in _SET_OPERATIONS:
        if new_class is not type(node):
            changes.append(lambda n, c=new_class: n.replace(c(this=n.this, expression=n.expression, distinct=True)))
    if isinstance(node, exp.Union):
        changes.append(lambda n: n.set("distinct", not n.args.get("distinct")))
    return changes


# In this order: a query's neighbours are listed in it.
_MUTATIONS = (
    _swap_mutations,
    _select_mutations,
    _join_mutations,
    _limit_mutations,
    _order_mutations,
    _condition_mutations,
    _set_mutations,
)


def _one_row(select: exp.Select) -> bool:
    """An aggregate without GROUP BY returns one row, where DISTINCT changes nothing."""
    return not select.args.get("group") and all(isinstance(item.unalias(), exp.AggFunc) for item in select.expressions)


def mutants(sql: str) -> list[str]:
    """The neighbour queries of `sql`: each differs from it by one change (a comparison operator, DISTINCT, the join
    type, an aggregate, LIMIT, the ORDER direction, a dropped or added condition, AND/OR, the set operation). Empty
    when sqlglot cannot read the query. Neighbours that print the same as the query or each other are dropped."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return []
    if tree is None:
        return []
    original = tree.sql(dialect="sqlite")
    found: dict[str, None] = {}
    nodes = list(tree.walk())
    for index, node in enumerate(nodes):
        for change in _node_mutations(node):
            copy = tree.copy()
            target = list(copy.walk())[index]
            try:
                result = change(target)
                root = result if (target is copy and isinstance(result, exp.Expression)) else copy
                text = root.sql(dialect="sqlite")
            except Exception:  # noqa: BLE001 - a change sqlglot cannot print is simply not a neighbour
                continue
            if text != original:
                found.setdefault(text)
    return list(found)


# --------------------------------------------------------------------------------------------------------------------
# A database without goals: generic queries from its schema alone
# --------------------------------------------------------------------------------------------------------------------

# Generic queries are written for this many tables at most (a schema of hundreds of tables gets the first ones).
SCHEMA_TABLES = 40


def _sql_value(value: object) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def schema_queries(shape: Shape) -> list[str]:
    """Queries a database's schema alone suggests, for a suite built before it has goals: per table a count, a
    comparison with a middle value of each number column, its aggregates, the top row by it, an equality and a
    grouping on its text columns, NULL tests, and per foreign key a join (with a grouping, and a comparison on the
    parent's numbers). Their neighbours are the usual ones: operators, joins, aggregates, NULLs, DISTINCT, orders."""
    queries = []
    for table in shape.tables[:SCHEMA_TABLES]:
        name = quote(table.name)
        keys = {column.lower() for column in table.primary_key}
        texts = [column for column in table.columns if column.kind in ("text", "date") and column.values]
        numbers = [
            column
            for column in table.columns
            if column.kind in ("int", "real") and column.values and column.name.lower() not in keys
        ]
        label = quote((texts[0] if texts else table.columns[0]).name)
        queries.append(f"SELECT count(*) FROM {name}")  # noqa: S608
        for column in numbers[:3]:
            field_name = quote(column.name)
            middle = sorted(column.values)[len(column.values) // 2]
            queries += [
                f"SELECT {label} FROM {name} WHERE {field_name} > {_sql_value(middle)}",  # noqa: S608
                f"SELECT max({field_name}), min({field_name}), avg({field_name}), "  # noqa: S608
                f"count(DISTINCT {field_name}) FROM {name}",
                f"SELECT {label} FROM {name} ORDER BY {field_name} DESC LIMIT 1",  # noqa: S608
            ]
        for column in texts[:2]:
            field_name = quote(column.name)
            queries += [
                f"SELECT count(*) FROM {name} WHERE {field_name} = {_sql_value(column.values[0])}",  # noqa: S608
                f"SELECT {field_name}, count(*) FROM {name} GROUP BY {field_name}",  # noqa: S608
            ]
        for column in [column for column in table.columns if not column.not_null and column.name.lower() not in keys][
            :2
        ]:
            queries.append(f"SELECT count(*) FROM {name} WHERE {quote(column.name)} IS NULL")  # noqa: S608
        for key in table.foreign_keys:
            parent = shape.table(key.parent)
            if parent is None or parent is table:
                continue
            on = " AND ".join(
                f"T1.{quote(child)} = T2.{quote(column)}"
                for child, column in zip(key.columns, key.parent_columns, strict=True)
            )
            parent_texts = [column for column in parent.columns if column.kind in ("text", "date") and column.values]
            parent_label = quote((parent_texts[0] if parent_texts else parent.columns[0]).name)
            source = f"{name} AS T1 JOIN {quote(parent.name)} AS T2 ON {on}"
            queries.append(f"SELECT T2.{parent_label}, count(*) FROM {source} GROUP BY T2.{parent_label}")  # noqa: S608
            parent_numbers = [column for column in parent.columns if column.kind in ("int", "real") and column.values]
            for column in parent_numbers[:1]:
                middle = sorted(column.values)[len(column.values) // 2]
                queries.append(
                    f"SELECT T1.{label} FROM {source} WHERE T2.{quote(column.name)} > {_sql_value(middle)}"  # noqa: S608
                )
    return list(dict.fromkeys(queries))


# --------------------------------------------------------------------------------------------------------------------
# Distillation: keep a generated database only when it tells apart a pair the kept ones do not
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SuiteBounds:
    """When a build stops: enough databases, enough bytes, enough tries or enough time, whichever comes first. Time is
    meant to be the bound that binds: the tries are a backstop far above what the time allows."""

    max_databases: int = 40
    max_bytes: int = 400_000
    max_candidates: int = 100_000
    max_seconds: float = 60.0


@dataclass
class Pair:
    query: int  # index into the queries
    sql: str  # the neighbour
    told_by: str | None = None  # "original", a generated file's name, or None while nobody tells them apart


# A kept database's tables hold at most this many rows, also where a LIMIT or a HAVING count asks for more: a suite's
# size is bounded (TEST_SUITE_MAX_KB), and a comparison's own search makes the bigger ones when a pair needs them.
SUITE_MOST_ROWS = 30
# A round of distillation tries at most this many candidates before it keeps its best.
_ROUND_MOST = 64
# What stopped a build, as its report says it.
STOPPED_ALL_TOLD = "every pair told apart"
STOPPED_NO_PAIRS = "no pairs to tell apart"
STOPPED_TIME = "time"
STOPPED_CANDIDATES = "candidates"
STOPPED_DATABASES = "databases"
STOPPED_SIZE = "size"


@dataclass
class SuiteReport:
    """What a build did: the pairs it was asked to tell apart and who told each apart, the files it kept, what
    stopped it."""

    queries: list[str]
    pairs: list[Pair]
    files: list[str] = field(default_factory=list)
    size_bytes: int = 0
    candidates: int = 0
    seconds: float = 0.0
    failing_queries: list[int] = field(default_factory=list)
    from_schema: bool = False  # the queries were made from the schema alone (the database had none)
    stopped_by: str = ""

    def figures(self) -> dict:
        """The suite's power: of the pairs the original cannot tell apart, how many the suite can. With no such pair
        there is no power to tell (None), never a perfect one."""
        hidden = [pair for pair in self.pairs if pair.told_by != "original"]
        caught = [pair for pair in hidden if pair.told_by is not None]
        return {
            "queries": len(self.queries) - len(self.failing_queries),
            "from_schema": self.from_schema,
            "pairs": len(self.pairs),
            "told_apart_by_original": len(self.pairs) - len(hidden),
            "hidden_on_original": len(hidden),
            "told_apart_by_suite": len(caught),
            "power": round(len(caught) / len(hidden), 4) if hidden else None,
            "databases": len(self.files),
            "size_bytes": self.size_bytes,
            "candidates": self.candidates,
            "seconds": round(self.seconds, 2),
            "stopped_by": self.stopped_by,
        }


def _outcome(result) -> tuple | None:
    """A result in the form pairs are compared in; None when it proves nothing (cut at the row limit)."""
    if result.truncated:
        return None
    return ("ok", result.rows) if result.ok else ("error", None)


def _told_apart(query_sql: str, query_result, neighbour_result) -> bool:
    query, neighbour = _outcome(query_result), _outcome(neighbour_result)
    if query is None or neighbour is None or query[0] != "ok":
        return False
    if neighbour[0] != "ok":
        return True
    return not results_equal(query[1], neighbour[1], ordered=order_matters(query_sql))


def _stop_reason(report: SuiteReport, bounds: SuiteBounds, started: float, open_pairs: list) -> str:
    if not report.pairs:
        return STOPPED_NO_PAIRS
    if not open_pairs:
        return STOPPED_ALL_TOLD
    if len(report.files) >= bounds.max_databases:
        return STOPPED_DATABASES
    if report.size_bytes >= bounds.max_bytes:
        return STOPPED_SIZE
    if time.monotonic() - started >= bounds.max_seconds:
        return STOPPED_TIME
    if report.candidates >= bounds.max_candidates:
        return STOPPED_CANDIDATES
    return ""


def build_suite(
    original: Path,
    target: Path,
    queries: list[str],
    *,
    bounds: SuiteBounds = SuiteBounds(),
    seed: int = 0,
    progress=None,
    limits: SandboxLimits | None = None,
) -> SuiteReport:
    """Generate and distil a test suite for the database at `original` into the (new, empty) folder `target`.

    `queries` are the database's goal and collected queries; their neighbours (`mutants`) are the pairs to tell apart.
    Without any, the schema's own generic queries (`schema_queries`) stand in, and the report says so. Each candidate
    database is made for one pair still open (its literals, joins and limits), and kept only when it tells apart a
    pair that the original and the databases kept so far do not (each query giving one answer there, not a pick among
    tied rows), and only when every query that runs on the original runs on it too (the official evaluator requires
    the reference to run on every database of a suite). `progress(seconds, max_seconds)` is called about once a
    second. The report says which bound stopped the build.
    """
    started = time.monotonic()
    limits = limits or compare_limits()
    queries = list(dict.fromkeys(queries))  # a query asked twice is one query to tell apart from its neighbours
    target.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    shape = read_shape(original, limits)
    queries, on_original, report = _suite_pairs(original, shape, queries, limits)
    pairs = report.pairs
    runnable = [i for i, result in enumerate(on_original) if result.ok]
    neighbours_of: dict[int, list[str]] = {}
    for pair in pairs:
        neighbours_of.setdefault(pair.query, []).append(pair.sql)
    every = focus_of(shape, [sql for i in runnable for sql in (queries[i], *neighbours_of.get(i, []))])
    broad = WorldMaker(shape, every, random.Random(rng.random()), most_rows=SUITE_MOST_ROWS)
    read_values(original, shape, broad.tables, limits)
    # Again, now that the columns' values are known.
    broad = WorldMaker(shape, every, random.Random(rng.random()), most_rows=SUITE_MOST_ROWS)
    makers: dict[int, WorldMaker] = {}
    seen: set[bytes] = set()
    last_progress = started
    trying = 0.0  # seconds spent on candidates: how long one takes decides how many a round may try
    while True:
        open_pairs = [pair for pair in pairs if pair.told_by is None]
        report.stopped_by = _stop_reason(report, bounds, started, open_pairs)
        if report.stopped_by:
            break
        # A round tries several candidates and keeps the one that tells apart the most open pairs: the time (and the
        # tries) left, shared among the database slots left, decide how many, so that time, not the slots, runs out
        # first.
        round_size = _round_size(report, bounds, started, trying)
        best: tuple[Path, list[Pair], dict] | None = None
        for _ in range(round_size):
            if report.candidates >= bounds.max_candidates or time.monotonic() - started >= bounds.max_seconds:
                break
            began = time.monotonic()
            report.candidates += 1
            open_now = [pair for pair in open_pairs if pair.told_by is None]
            if rng.random() < 0.5:
                maker = broad
            else:
                maker = _focused_maker(rng.choice(open_now), makers, shape, queries, neighbours_of, rng)
            _, data = maker.make()
            digest = hashlib.blake2b(data, digest_size=16).digest()
            if digest in seen:
                trying += time.monotonic() - began
                continue
            seen.add(digest)
            # A fresh name for every try: the sandbox's workers keep connections open by file.
            candidate = target / f"candidate-{report.candidates:06d}.sqlite"
            candidate.write_bytes(data)
            newly, query_results = _told_by(candidate, queries, open_now, limits)
            if newly and (best is None or len(newly) > len(best[1])):
                if best is not None:
                    best[0].unlink()
                best = (candidate, newly, query_results)
            else:
                candidate.unlink()
            trying += time.monotonic() - began
        if best is not None:
            _keep_best(best, target, queries, runnable, report, limits)
        if progress and time.monotonic() - last_progress >= 1.0:
            last_progress = time.monotonic()
            progress(int(last_progress - started), int(bounds.max_seconds))
    report.seconds = time.monotonic() - started
    return report


def _suite_pairs(original: Path, shape: Shape, queries: list[str], limits) -> tuple[list[str], list, SuiteReport]:
    """(the queries to tell apart: the schema's own without any, their results on the original, the report holding
    their pairs with a neighbour each, those the original tells apart already marked)."""
    from_schema = not queries
    if from_schema:
        read_values(original, shape, shape.tables[:SCHEMA_TABLES], limits)
        queries = schema_queries(shape)
    on_original = execute_many(original, queries, limits=limits) if queries else []
    failing = [i for i, result in enumerate(on_original) if not result.ok]
    pairs = [Pair(i, neighbour) for i, sql in enumerate(queries) if on_original[i].ok for neighbour in mutants(sql)]
    report = SuiteReport(queries=list(queries), pairs=pairs, failing_queries=failing, from_schema=from_schema)
    neighbour_results = execute_many(original, [pair.sql for pair in pairs], limits=limits) if pairs else []
    for pair, result in zip(pairs, neighbour_results, strict=True):
        if _told_apart(queries[pair.query], on_original[pair.query], result):
            pair.told_by = "original"
    return queries, on_original, report


def _round_size(report: SuiteReport, bounds: SuiteBounds, started: float, trying: float) -> int:
    """How many candidates the next round tries: the time (and the tries) left, shared among the database slots left,
    at the pace of the candidates so far."""
    slots = max(bounds.max_databases - len(report.files), 1)
    left = bounds.max_seconds - (time.monotonic() - started)
    each = trying / report.candidates if report.candidates else 0.05
    tries_left = (bounds.max_candidates - report.candidates) // slots
    return max(1, min(_ROUND_MOST, tries_left, int(left / slots / max(each, 0.001))))


def _focused_maker(
    aim: Pair, makers: dict[int, WorldMaker], shape, queries: list[str], neighbours_of: dict, rng: random.Random
) -> WorldMaker:
    """The maker of databases for the query of pair `aim` and its neighbours, made the first time it is asked for."""
    if aim.query not in makers:
        focus = focus_of(shape, [queries[aim.query], *neighbours_of[aim.query]])
        makers[aim.query] = WorldMaker(shape, focus, random.Random(rng.random()), most_rows=SUITE_MOST_ROWS)
    return makers[aim.query]


def _told_by(candidate: Path, queries: list[str], open_now: list[Pair], limits) -> tuple[list, dict]:
    """The open pairs the candidate tells apart, each with its neighbour's result there, and the results of their
    queries there (by query index)."""
    asked = sorted({pair.query for pair in open_now})
    results = execute_many(candidate, [queries[i] for i in asked] + [pair.sql for pair in open_now], limits=limits)
    query_results = dict(zip(asked, results[: len(asked)], strict=True))
    newly = [
        (pair, result)
        for pair, result in zip(open_now, results[len(asked) :], strict=True)
        if _told_apart(queries[pair.query], query_results[pair.query], result)
    ]
    return newly, query_results


def _keep_best(best: tuple, target: Path, queries: list[str], runnable: list[int], report: SuiteReport, limits) -> None:
    """Keep a round's best candidate as the suite's next database when it decides a pair and runs every query that
    runs on the original; else delete it."""
    candidate, newly, query_results = best
    told = [
        pair
        for pair, result in newly
        if _decided(candidate, queries[pair.query], pair.sql, query_results[pair.query], result, limits)
    ]
    if told and _all_run(candidate, queries, runnable, query_results, limits):
        name = f"{len(report.files) + 1:04d}.sqlite"
        candidate.rename(target / name)
        report.files.append(name)
        report.size_bytes += (target / name).stat().st_size
        for pair in told:
            pair.told_by = name
    else:
        candidate.unlink()


def _decided(candidate: Path, query: str, neighbour: str, query_result, neighbour_result, limits) -> bool:
    """A pair told apart by a failing neighbour is told apart; by rows, only when each query gives one answer there."""
    if not neighbour_result.ok:
        return True
    return pair_decided(candidate, pair_of(query, neighbour), query_result, neighbour_result, limits)


def _all_run(candidate: Path, queries: list[str], runnable: list[int], known: dict, limits) -> bool:
    if any(not result.ok for result in known.values()):
        return False
    rest = [i for i in runnable if i not in known]
    if not rest:
        return True
    return all(result.ok for result in execute_many(candidate, [queries[i] for i in rest], limits=limits))
