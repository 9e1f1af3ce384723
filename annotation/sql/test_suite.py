"""Distilled test suites: small databases, generated from a hosted one, on which queries that differ in meaning return
different rows (docs/test_suites.md).

Pure logic: paths, a Spider schema and SQL in; files and values out. It knows no model.
"""

from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

import sqlglot
from sqlglot import exp

from annotation.sql.compare import order_matters, results_equal
from annotation.sql.sandbox import execute_many

SUITES_FOLDER = "test_suites"


def original_path(data_dir: Path | str, db_id: str) -> Path:
    """Where `annotation.services.database_register` keeps a hosted database's file."""
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
    changes = []
    for new_class in _COMPARISON_SWAPS.get(type(node), ()):
        changes.append(lambda n, c=new_class: n.replace(c(this=n.this, expression=n.expression)))
    for new_class in _AGGREGATE_SWAPS.get(type(node), ()):
        changes.append(lambda n, c=new_class: n.replace(c(this=n.this)))
    if isinstance(node, exp.Count) and not isinstance(node.this, exp.Star | exp.Distinct):
        changes.append(lambda n: n.set("this", exp.Distinct(expressions=[n.this])))
    if isinstance(node, exp.Select) and not _one_row(node):
        changes.append(lambda n: n.set("distinct", None if n.args.get("distinct") else exp.Distinct()))
        if node.args.get("where") is None and node.expressions:
            first = node.expressions[0]
            if isinstance(first, exp.Column):  # an added condition: the selected column must be known
                changes.append(lambda n, c=first: n.where(exp.Not(this=exp.Is(this=c.copy(), expression=exp.Null()))))
    if isinstance(node, exp.Join):
        side = (node.args.get("side") or "").upper()
        if side == "LEFT":
            changes.append(lambda n: n.set("side", None))
        elif not side and node.args.get("kind") not in ("CROSS",):
            changes.append(lambda n: (n.set("side", "LEFT"), n.set("kind", None)))
    if isinstance(node, exp.Limit) and isinstance(node.expression, exp.Literal) and node.expression.is_int:
        changes.append(lambda n: n.set("expression", exp.Literal.number(int(n.expression.this) + 1)))
        changes.append(lambda n: n.pop())
    if isinstance(node, exp.Ordered):
        # SQLite's own NULL placement for the new direction, so that only the direction changes
        desc = bool(node.args.get("desc"))
        changes.append(lambda n, d=desc: (n.set("desc", not d), n.set("nulls_first", d)))
    if isinstance(node, exp.And | exp.Or):
        other = exp.Or if isinstance(node, exp.And) else exp.And
        changes.append(lambda n, c=other: n.replace(c(this=n.this, expression=n.expression)))
        changes.append(lambda n: n.replace(n.this))  # a dropped condition
        changes.append(lambda n: n.replace(n.expression))
    if isinstance(node, exp.Where | exp.Having) and not isinstance(node.this, exp.And | exp.Or):
        changes.append(lambda n: n.pop())  # the only condition dropped
    if isinstance(node, _SET_OPERATIONS):
        for new_class in _SET_OPERATIONS:
            if new_class is not type(node):
                changes.append(lambda n, c=new_class: n.replace(c(this=n.this, expression=n.expression, distinct=True)))
        if isinstance(node, exp.Union):
            changes.append(lambda n: n.set("distinct", not n.args.get("distinct")))
    return changes


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
# Generated databases: the original's schema and keys, values from each column's own domain
# --------------------------------------------------------------------------------------------------------------------


@dataclass
class Column:
    name: str
    declared: str
    not_null: bool
    primary: bool
    values: list  # the column's own values in the original
    extra: list  # their neighbours and the boundaries: drawn less often
    literals: list  # the queries' literals of the column's kind (number or text) and their neighbours
    parent: tuple[str, str] | None = None  # (table, column) a foreign key points at


@dataclass
class Table:
    name: str
    columns: list[Column]
    sql: str

    @property
    def single_key(self) -> Column | None:
        keys = [column for column in self.columns if column.primary]
        return keys[0] if len(keys) == 1 else None


@dataclass
class Layout:
    """What generation needs of the original: its tables in an order where parents come first, and the statements that
    recreate its schema (tables, then indexes)."""

    tables: list[Table]
    schema_sql: list[str] = field(default_factory=list)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _neighbours(value: object) -> list:
    if isinstance(value, int):
        return [value - 1, value + 1]
    if isinstance(value, float):
        return [value - 0.5, value + 0.5]
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return [str(int(value) - 1), str(int(value) + 1)]  # a number kept as text (a year) has numeric neighbours
    if isinstance(value, str) and value:
        return [value[:-1], value + "a"]
    return []


def _literals(queries: list[str]) -> tuple[list, list]:
    """The numbers and strings the queries compare with: a generated database holds them and their neighbours, so
    that `>` and `>=` (or `=` and `LIKE`) meet a row on which they disagree."""
    numbers, strings = [], []
    for sql in queries:
        try:
            tree = sqlglot.parse_one(sql, read="sqlite")
        except sqlglot.errors.SqlglotError:
            continue
        for literal in tree.find_all(exp.Literal) if tree else ():
            if literal.is_string:
                text = literal.this.strip("%")
                strings.extend([text, literal.this] if "%" in literal.this else [text])
            else:
                try:
                    number = float(literal.this)
                except ValueError:
                    continue
                number = int(number) if number.is_integer() else number
                numbers.extend([number, *_neighbours(number)])
    return numbers, strings


def read_layout(path: Path | str, column_values, queries: list[str] = ()) -> Layout:
    """Read the schema of the SQLite file at `path` and each column's value domain. `column_values(table, column)`
    returns up to a few dozen different non-empty values of a column (the caller decides how it reads them)."""
    numbers, strings = _literals(list(queries))
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    connection = sqlite3.connect(uri, uri=True)
    try:
        rows = connection.execute(
            "SELECT type, name, sql FROM sqlite_master "
            "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        ).fetchall()
        tables, schema_sql, indexes = [], [], []
        for kind, name, sql in rows:
            if kind == "index":
                indexes.append(sql)
            if kind != "table":
                continue
            schema_sql.append(sql)
            keys = {
                row[3]: (row[2], row[4])
                for row in connection.execute(f"PRAGMA foreign_key_list({_quote(name)})")  # noqa: S608
            }
            columns = []
            for _, column, declared, not_null, _, primary in connection.execute(f"PRAGMA table_info({_quote(name)})"):
                own = list(dict.fromkeys(column_values(name, column)))
                extra = [near for value in own[:20] for near in _neighbours(value)]
                literals = []
                if own and all(_is_number(value) for value in own):
                    low, high = min(own), max(own)
                    extra.extend([low, high, low - 1, high + 1, 0])
                    literals = numbers
                elif own:
                    literals = strings
                extra = [value for value in dict.fromkeys(extra) if value is not None and value not in own]
                literals = [value for value in dict.fromkeys(literals) if value not in own]
                columns.append(
                    Column(
                        column, declared or "", bool(not_null), bool(primary), own, extra, literals, keys.get(column)
                    )
                )
            tables.append(Table(name, columns, sql))
    finally:
        connection.close()
    return Layout(_parents_first(tables), schema_sql + indexes)


def _parents_first(tables: list[Table]) -> list[Table]:
    by_name = {table.name.lower(): table for table in tables}
    ordered, placed = [], set()
    remaining = list(tables)
    while remaining:
        for table in remaining:
            parents = {c.parent[0].lower() for c in table.columns if c.parent} - {table.name.lower()}
            if all(parent in placed or parent not in by_name for parent in parents):
                break
        else:
            table = remaining[0]  # a cycle of keys: its first table goes first, its keys draw from the domain
        remaining.remove(table)
        placed.add(table.name.lower())
        ordered.append(table)
    return ordered


def _parent_column(layout: Layout, parent: tuple[str, str | None]) -> tuple[str, str] | None:
    table_name, column_name = parent
    for table in layout.tables:
        if table.name.lower() == table_name.lower():
            if column_name is None:  # a key that names only the table points at its primary key
                key = table.single_key
                return (table.name, key.name) if key else None
            return (table.name, column_name)
    return None


def generate_database(layout: Layout, target: Path, rng: random.Random, *, max_rows: int = 8) -> None:
    """Write a database with the original's schema at `target`: a few rows per table, each column drawing from a small
    palette of its domain (so that groups, joins and duplicates happen), foreign keys from the rows their parent got,
    NULL now and then where the column allows it."""
    connection = sqlite3.connect(target)
    try:
        connection.execute("PRAGMA page_size = 512")  # small tables, small files: the suite's size is bounded
        connection.execute("PRAGMA journal_mode = OFF")
        for sql in layout.schema_sql:
            connection.execute(sql)
        drawn: dict[tuple[str, str], list] = {}
        for table in layout.tables:
            rows = _table_rows(layout, table, rng, drawn, max_rows)
            names = ", ".join(_quote(column.name) for column in table.columns)
            marks = ", ".join("?" for _ in table.columns)
            insert = f"INSERT OR IGNORE INTO {_quote(table.name)} ({names}) VALUES ({marks})"  # noqa: S608
            for row in rows:
                try:
                    connection.execute(insert, row)
                except sqlite3.IntegrityError:  # OR IGNORE does not cover a text for an INTEGER PRIMARY KEY: skip it
                    continue
            for column in table.columns:
                kept = connection.execute(
                    f"SELECT DISTINCT {_quote(column.name)} FROM {_quote(table.name)} "  # noqa: S608
                    f"WHERE {_quote(column.name)} IS NOT NULL"
                )
                drawn[(table.name.lower(), column.name.lower())] = [value for (value,) in kept]
        connection.commit()
    finally:
        connection.close()


def _draw(column: Column, rng: random.Random) -> object:
    roll = rng.random()
    for pool, share in ((column.values, 0.6), (column.literals, 0.85), (column.extra, 1.0)):
        if pool and roll < share:
            return rng.choice(pool)
    return rng.choice(column.values or column.literals or column.extra)


def _table_rows(layout: Layout, table: Table, rng: random.Random, drawn: dict, max_rows: int) -> list[tuple]:
    count = rng.choice([0, 1, 2]) if rng.random() < 0.15 else rng.randint(2, max_rows)
    palettes = []
    for column in table.columns:
        parent = _parent_column(layout, column.parent) if column.parent else None
        parent_values = drawn.get((parent[0].lower(), parent[1].lower())) if parent else None
        if parent_values is not None and parent[0].lower() != table.name.lower():
            palettes.append(list(parent_values))
        elif column.values or column.extra or column.literals:
            size = rng.randint(1, min(max(count, 1) + 1, 6))
            palettes.append([_draw(column, rng) for _ in range(size)])
        else:
            palettes.append([])
    rows, seen_keys = [], set()
    key_positions = [i for i, column in enumerate(table.columns) if column.primary]
    for _ in range(count):
        row = []
        for column, palette in zip(table.columns, palettes, strict=True):
            if column.primary and len(key_positions) == 1 and not column.parent and palette:
                value = _draw(column, rng)  # a single key draws from the whole domain: duplicates are rare
            elif not palette or (not column.not_null and not column.primary and rng.random() < 0.1):
                value = None
            else:
                value = rng.choice(palette)
            row.append(value)
        key = tuple(row[i] for i in key_positions)
        if key_positions and key in seen_keys:
            continue
        seen_keys.add(key)
        rows.append(tuple(row))
    return rows


# --------------------------------------------------------------------------------------------------------------------
# Distillation: keep a generated database only when it tells apart a pair the kept ones do not
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SuiteBounds:
    """When a build stops: enough databases, enough bytes, enough tries or enough time, whichever comes first."""

    max_databases: int = 40
    max_bytes: int = 400_000
    max_candidates: int = 300
    max_seconds: float = 60.0
    max_rows: int = 8


@dataclass
class Pair:
    query: int  # index into the queries
    sql: str  # the neighbour
    told_by: str | None = None  # "original", a generated file's name, or None while nobody tells them apart


@dataclass
class SuiteReport:
    """What a build did: the pairs it was asked to tell apart and who told each apart, the files it kept."""

    queries: list[str]
    pairs: list[Pair]
    files: list[str] = field(default_factory=list)
    size_bytes: int = 0
    candidates: int = 0
    seconds: float = 0.0
    failing_queries: list[int] = field(default_factory=list)

    def figures(self) -> dict:
        """The suite's power: of the pairs the original cannot tell apart, how many the suite can."""
        hidden = [pair for pair in self.pairs if pair.told_by != "original"]
        caught = [pair for pair in hidden if pair.told_by is not None]
        return {
            "queries": len(self.queries) - len(self.failing_queries),
            "pairs": len(self.pairs),
            "told_apart_by_original": len(self.pairs) - len(hidden),
            "hidden_on_original": len(hidden),
            "told_apart_by_suite": len(caught),
            "power": round(len(caught) / len(hidden), 4) if hidden else 1.0,
            "databases": len(self.files),
            "size_bytes": self.size_bytes,
            "candidates": self.candidates,
            "seconds": round(self.seconds, 2),
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


def build_suite(
    original: Path,
    target: Path,
    queries: list[str],
    *,
    column_values,
    bounds: SuiteBounds = SuiteBounds(),
    seed: int = 0,
    progress=None,
) -> SuiteReport:
    """Generate and distil a test suite for the database at `original` into the (new, empty) folder `target`.

    `queries` are the database's goal and collected queries; their neighbours (`mutants`) are the pairs to tell apart.
    A generated database is kept only when it tells apart a pair that the original and the databases kept so far do
    not, and only when every query that runs on the original runs on it too (the official evaluator requires the
    reference to run on every database of a suite). `progress(done, total)` is called after each try.
    """
    started = time.monotonic()
    queries = list(dict.fromkeys(queries))  # a query asked twice is one query to tell apart from its neighbours
    target.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    on_original = execute_many(original, queries)
    failing = [i for i, result in enumerate(on_original) if not result.ok]
    pairs = [Pair(i, neighbour) for i, sql in enumerate(queries) if on_original[i].ok for neighbour in mutants(sql)]
    report = SuiteReport(queries=list(queries), pairs=pairs, failing_queries=failing)
    neighbour_results = execute_many(original, [pair.sql for pair in pairs]) if pairs else []
    for pair, result in zip(pairs, neighbour_results, strict=True):
        if _told_apart(queries[pair.query], on_original[pair.query], result):
            pair.told_by = "original"
    runnable = [i for i, result in enumerate(on_original) if result.ok]
    layout = read_layout(original, column_values, [queries[i] for i in runnable])
    scratch = target / "candidate.tmp"
    while report.candidates < bounds.max_candidates:
        open_pairs = [pair for pair in pairs if pair.told_by is None]
        if not open_pairs or len(report.files) >= bounds.max_databases:
            break
        if report.size_bytes >= bounds.max_bytes or time.monotonic() - started >= bounds.max_seconds:
            break
        report.candidates += 1
        if scratch.exists():
            scratch.unlink()
        generate_database(layout, scratch, rng, max_rows=bounds.max_rows)
        # A fresh name for every try: the sandbox's workers keep connections open by file.
        candidate = target / f"candidate-{report.candidates:05d}.sqlite"
        scratch.rename(candidate)
        asked = sorted({pair.query for pair in open_pairs})
        results = execute_many(candidate, [queries[i] for i in asked] + [pair.sql for pair in open_pairs])
        query_results = dict(zip(asked, results[: len(asked)], strict=True))
        newly = [
            pair
            for pair, result in zip(open_pairs, results[len(asked) :], strict=True)
            if _told_apart(queries[pair.query], query_results[pair.query], result)
        ]
        if newly and _all_run(candidate, queries, runnable, query_results):
            name = f"{len(report.files) + 1:04d}.sqlite"
            candidate.rename(target / name)
            report.files.append(name)
            report.size_bytes += (target / name).stat().st_size
            for pair in newly:
                pair.told_by = name
        else:
            candidate.unlink()
        if progress:
            progress(report.candidates, bounds.max_candidates)
    report.seconds = time.monotonic() - started
    return report


def _all_run(candidate: Path, queries: list[str], runnable: list[int], known: dict) -> bool:
    if any(not result.ok for result in known.values()):
        return False
    rest = [i for i in runnable if i not in known]
    return all(result.ok for result in execute_many(candidate, [queries[i] for i in rest])) if rest else True
