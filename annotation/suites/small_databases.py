"""Small databases with a hosted database's schema, filled for some queries (docs/test_suites.md, "Generated
databases").

The test-suite build and the search for a pair's difference (`annotation.suites.difference_search`) both make their
databases here. The hosted file is hostile, so its schema and values are read through the sandbox, and the schema is
rebuilt from its parts (each table's columns with their declared types, NOT NULL, collation, primary key and UNIQUE
constraints): nothing of the file's own SQL runs in this process. Views and virtual tables are not rebuilt.

A column draws its values from its own domain only: its values in the original, their neighbours and its
boundaries, and the values around each literal the queries compare *that column* with (a literal compared with
another column never lands here). Foreign keys are kept: a child row takes its key from a row its parent table got.
Columns the queries join without a declared key share a small palette, so that some rows join and some do not. Tables
hold 0 to about 8 rows, more when a LIMIT or a HAVING count asks for it; NULLs, duplicates, empty and one-row tables
come with the draws.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp

from annotation.plumbing.i18n import gettext
from annotation.sql.sandbox import SandboxLimits, execute, execute_many

# How many different values of each column are read from the original: the column's own domain.
VALUES_PER_COLUMN = 40
# A candidate's tables: most rows counts are small, so that a counterexample stays readable.
_ROW_COUNTS = (0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8)
# The sizes a LIMIT n or a HAVING count(*) > n asks for are capped here (a group of 200 rows is made when asked); a
# suite's databases are kept, so a build caps them lower (`annotation.suites.distil.SUITE_MOST_ROWS`).
_MAX_ROWS = 500
# How often a column a query compares with a literal draws around it, one database drawing more, another less.
_FOCUS_SHARES = (0.3, 0.45, 0.45, 0.7)
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(.*)$")
_DIGITS = re.compile(r"^-?\d+$")
_TYPE_CHARACTERS = re.compile(r"[^A-Za-z0-9_ (),.]")
_COLLATIONS = ("BINARY", "NOCASE", "RTRIM")


def quote(name: str) -> str:
    """An identifier, double-quoted."""
    return '"' + name.replace('"', '""') + '"'


# --------------------------------------------------------------------------------------------------------------------
# The shape of the original: read through the sandbox, rebuilt from its parts
# --------------------------------------------------------------------------------------------------------------------


@dataclass
class ColumnShape:
    name: str
    declared: str
    affinity: str  # SQLite's: integer, real, numeric, text, blob
    not_null: bool
    collation: str = ""
    values: tuple = ()  # its own values in the original (read on demand)
    low: object = None  # its smallest and largest value in the original
    high: object = None

    @property
    def kind(self) -> str:
        """How its values are made: int, real, date (text holding dates), digits (text holding whole numbers), text."""
        numbers = [value for value in self.values if _is_number(value)]
        texts = [value for value in self.values if isinstance(value, str)]
        if numbers and len(numbers) >= len(texts):
            if all(isinstance(value, int) for value in numbers) and self.affinity != "real":
                return "int"
            return "real"
        if texts:
            if sum(bool(_DATE.match(value)) for value in texts) * 2 > len(texts):
                return "date"
            if sum(bool(_DIGITS.match(value)) for value in texts) * 2 > len(texts):
                return "digits"  # whole numbers kept as text, a stray "null" or "-" among them
            return "text"
        if self.affinity == "integer":
            return "int"
        if self.affinity in ("real", "numeric"):
            return "real" if "int" not in self.declared.lower() else "int"
        if re.search(r"date|time", self.declared, re.I):
            return "date"
        return "text"


@dataclass
class ForeignKey:
    columns: tuple[str, ...]  # the child's columns
    parent: str  # the parent table, as the shape names it
    parent_columns: tuple[str, ...]


@dataclass
class TableShape:
    name: str
    columns: list[ColumnShape]
    primary_key: tuple[str, ...] = ()
    uniques: list[tuple[str, ...]] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    without_rowid: bool = False
    values_read: bool = False

    def position(self, column: str) -> int | None:
        lowered = column.lower()
        for index, item in enumerate(self.columns):
            if item.name.lower() == lowered:
                return index
        return None

    @property
    def rowid_key(self) -> int | None:
        """The position of an INTEGER PRIMARY KEY (an alias of the rowid: it holds integers only)."""
        if len(self.primary_key) != 1 or self.without_rowid:
            return None
        position = self.position(self.primary_key[0])
        if position is not None and self.columns[position].declared.strip().upper() == "INTEGER":
            return position
        return None

    def create_sql(self, *, with_types: bool = True) -> str:
        parts = []
        for column in self.columns:
            declared = _TYPE_CHARACTERS.sub("", column.declared)[:60].strip() if with_types else ""
            if declared.count("(") != declared.count(")"):
                declared = declared.split("(")[0].strip()
            part = quote(column.name) + (f" {declared}" if declared else "")
            if column.not_null:
                part += " NOT NULL"
            if column.collation:
                part += f" COLLATE {column.collation}"
            parts.append(part)
        if self.primary_key:
            parts.append(f"PRIMARY KEY ({', '.join(quote(name) for name in self.primary_key)})")
        for unique in self.uniques:
            parts.append(f"UNIQUE ({', '.join(quote(name) for name in unique)})")
        suffix = " WITHOUT ROWID" if self.without_rowid and self.primary_key else ""
        return f"CREATE TABLE {quote(self.name)} ({', '.join(parts)}){suffix}"


@dataclass
class Shape:
    """The tables of a hosted database, parents first, and an empty database with that schema (its bytes)."""

    tables: list[TableShape]
    not_rebuilt: list[str]  # views and virtual tables: a query using them does not run on a small database
    template: bytes = b""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def table(self, name: str) -> TableShape | None:
        lowered = name.lower()
        return next((table for table in self.tables if table.name.lower() == lowered), None)


def _affinity(declared: str) -> str:
    """SQLite's rules for a column's affinity from its declared type (sqlite.org/datatype3.html, 3.1)."""
    upper = declared.upper()
    if "INT" in upper:
        return "integer"
    if any(word in upper for word in ("CHAR", "CLOB", "TEXT")):
        return "text"
    if "BLOB" in upper or not upper:
        return "blob"
    if any(word in upper for word in ("REAL", "FLOA", "DOUB")):
        return "real"
    return "numeric"


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_SHAPES: OrderedDict = OrderedDict()
_SHAPES_KEPT = 32
_shapes_lock = threading.Lock()


def read_shape(path, limits: SandboxLimits) -> Shape:
    """The shape of the SQLite file at `path`, read through the sandbox; kept per file state (path, size, time)."""
    info = os.stat(path)
    key = (str(path), info.st_size, info.st_mtime_ns, info.st_ino)
    with _shapes_lock:
        if key in _SHAPES:
            _SHAPES.move_to_end(key)
            return _SHAPES[key]
    shape = _read_shape(path, limits)
    with _shapes_lock:
        _SHAPES[key] = shape
        while len(_SHAPES) > _SHAPES_KEPT:
            _SHAPES.popitem(last=False)
    return shape


def _read_shape(path, limits: SandboxLimits) -> Shape:
    names, not_rebuilt, sources = _listed_tables(path, limits)
    statements = []
    for name in names:
        quoted = quote(name)
        statements += [f"PRAGMA table_info({quoted})", f"PRAGMA foreign_key_list({quoted})"]
        statements.append(f"PRAGMA index_list({quoted})")
    results = execute_many(path, statements, limits=limits) if statements else []
    tables, unique_indexes = [], []
    for number, name in enumerate(names):
        info, keys, indexes = results[3 * number : 3 * number + 3]
        if not info.ok:
            not_rebuilt.append(name)
            continue
        table = _table_shape(name, sources[name], info, keys)
        for row in indexes.rows if indexes.ok else []:
            # (seq, name, unique, origin, partial): a UNIQUE constraint or a unique index over whole rows
            if row[2] and row[3] != "pk" and not row[4]:
                unique_indexes.append((table, row[1]))
        tables.append(table)
    if unique_indexes:
        _add_uniques(path, unique_indexes, limits)
    shape = Shape(_parents_first(tables), not_rebuilt)
    _resolve_foreign_keys(shape)
    shape.template = _template(shape)
    return shape


def _listed_tables(path, limits: SandboxLimits) -> tuple[list[str], list[str], dict[str, str]]:
    """The tables a build rebuilds (their names and CREATE statements), and the names of those it does not (views
    and virtual tables)."""
    listed = execute(
        path,
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite%' "
        "ORDER BY rowid",
        limits=limits,
    )
    if not listed.ok:
        raise ValueError(gettext("the schema cannot be read: %(error)s") % {"error": listed.error["message"]})
    names, not_rebuilt, sources = [], [], {}
    for kind, name, sql in listed.rows:
        if kind == "table" and not re.match(r"\s*CREATE\s+VIRTUAL", sql or "", re.I):
            names.append(name)
            sources[name] = sql or ""
        else:
            not_rebuilt.append(name)
    return names, not_rebuilt, sources


def _table_shape(name: str, source: str, info, keys) -> TableShape:
    """A table from its CREATE statement and its PRAGMA table_info and foreign_key_list results."""
    collations = _collations(source)
    columns, primary = [], []
    for _, column, declared, not_null, _, key_position in info.rows:
        declared = declared or ""
        columns.append(
            ColumnShape(column, declared, _affinity(declared), bool(not_null), collations.get(column.lower(), ""))
        )
        if key_position:
            primary.append((key_position, column))
    table = TableShape(name, columns, tuple(column for _, column in sorted(primary)))
    table.without_rowid = bool(re.search(r"\)\s*WITHOUT\s+ROWID\s*;?\s*$", source, re.I))
    grouped: dict[int, list] = {}
    for row in keys.rows if keys.ok else []:
        grouped.setdefault(row[0], []).append(row)
    for rows in grouped.values():
        rows.sort(key=lambda row: row[1])
        table.foreign_keys.append(ForeignKey(tuple(row[3] for row in rows), rows[0][2], tuple(row[4] for row in rows)))
    return table


def _add_uniques(path, unique_indexes: list[tuple[TableShape, str]], limits: SandboxLimits) -> None:
    """The columns of each unique index, added to its table's uniques when the table has them all."""
    infos = execute_many(path, [f"PRAGMA index_info({quote(index)})" for _, index in unique_indexes], limits=limits)
    for (table, _), info in zip(unique_indexes, infos, strict=True):
        columns = tuple(row[2] for row in info.rows) if info.ok else ()
        if columns and all(column is not None and table.position(column) is not None for column in columns):
            table.uniques.append(columns)


def _collations(create_sql: str) -> dict[str, str]:
    try:
        tree = sqlglot.parse_one(create_sql, read="sqlite")
    except (sqlglot.errors.SqlglotError, ValueError):
        return {}
    found = {}
    for definition in tree.find_all(exp.ColumnDef) if tree else ():
        for constraint in definition.args.get("constraints") or []:
            kind = constraint.args.get("kind")
            if isinstance(kind, exp.CollateColumnConstraint):
                collation = kind.this.name.upper() if kind.this else ""
                if collation in _COLLATIONS:
                    found[definition.name.lower()] = collation
    return found


def _resolve_foreign_keys(shape: Shape) -> None:
    """Keep the keys whose parent and columns exist; a key naming only its parent points at its primary key."""
    for table in shape.tables:
        kept = []
        for key in table.foreign_keys:
            parent = shape.table(key.parent)
            if parent is None or any(table.position(column) is None for column in key.columns):
                continue
            columns = key.parent_columns
            if any(column is None for column in columns):
                columns = parent.primary_key
            if len(columns) != len(key.columns) or any(parent.position(column) is None for column in columns):
                continue
            kept.append(ForeignKey(key.columns, parent.name, tuple(columns)))
        table.foreign_keys = kept


def _parents_first(tables: list[TableShape]) -> list[TableShape]:
    by_name = {table.name.lower() for table in tables}
    ordered, placed, remaining = [], set(), list(tables)
    while remaining:
        for table in remaining:
            parents = {key.parent.lower() for key in table.foreign_keys} - {table.name.lower()}
            if all(parent in placed or parent not in by_name for parent in parents):
                break
        else:
            table = remaining[0]  # a cycle of keys: its first table goes first
        remaining.remove(table)
        placed.add(table.name.lower())
        ordered.append(table)
    return ordered


def _template(shape: Shape) -> bytes:
    connection = sqlite3.connect(":memory:")
    try:
        connection.execute("PRAGMA page_size = 512")  # small tables, small files
        connection.execute("PRAGMA user_version = 0")  # a first page even for a schema of no tables
        for table in list(shape.tables):
            try:
                connection.execute(table.create_sql())
            except sqlite3.Error:
                try:  # an odd declared type: the column keeps its name, constraints and values without it
                    connection.execute(table.create_sql(with_types=False))
                except sqlite3.Error:
                    shape.tables.remove(table)
                    shape.not_rebuilt.append(table.name)
        connection.commit()
        return connection.serialize()
    finally:
        connection.close()


def read_values(path, shape: Shape, tables: list[TableShape], limits: SandboxLimits) -> None:
    """Read the own values (up to VALUES_PER_COLUMN different ones) and bounds of each column of `tables` that has not
    been read yet, through the sandbox, in one batch."""
    with shape.lock:
        wanted = [table for table in tables if not table.values_read]
        statements = []
        for table in wanted:
            for column in table.columns:
                name, source = quote(column.name), quote(table.name)
                statements.append(
                    f"SELECT DISTINCT {name} FROM {source} WHERE {name} IS NOT NULL LIMIT {VALUES_PER_COLUMN}"  # noqa: S608
                )
                statements.append(f"SELECT min({name}), max({name}) FROM {source}")  # noqa: S608
        results = execute_many(path, statements, limits=limits) if statements else []
        position = 0
        for table in wanted:
            for column in table.columns:
                own, bounds = results[position], results[position + 1]
                position += 2
                if own.ok:
                    column.values = tuple(row[0] for row in own.rows if not isinstance(row[0], bool))
                if bounds.ok and bounds.rows:
                    column.low, column.high = bounds.rows[0]
            table.values_read = True


# --------------------------------------------------------------------------------------------------------------------
# What the queries look at: the literals each column is compared with, joins, orders, limits
# --------------------------------------------------------------------------------------------------------------------

_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Like, exp.ILike, exp.Glob)
_PATTERNS = (exp.Like, exp.ILike, exp.Glob)


@dataclass
class Focus:
    tables: set[str] = field(default_factory=set)  # lower-case names of the tables the queries read
    literals: dict[tuple[str, str], list] = field(default_factory=dict)  # (table, column) -> [(value, pattern?)]
    links: list[tuple[tuple[str, str], tuple[str, str]]] = field(default_factory=list)  # columns compared together
    ordered: set[tuple[str, str]] = field(default_factory=set)
    grouped: set[tuple[str, str]] = field(default_factory=set)
    sizes: set[int] = field(default_factory=set)  # row counts a LIMIT or a HAVING count asks for
    everything: bool = False  # a query reads something not rebuilt (a view): fill every table

    def add_literal(self, column: tuple[str, str], value: object, pattern: str = "") -> None:
        self.literals.setdefault(column, []).append((value, pattern))


def focus_of(shape: Shape, queries: list[str]) -> Focus:
    """What `queries` compare, join, order and group, with each column resolved to the table(s) it may belong to."""
    focus = Focus()
    not_rebuilt = {name.lower() for name in shape.not_rebuilt}
    for sql in queries:
        try:
            tree = sqlglot.parse_one(sql, read="sqlite")
        except (sqlglot.errors.SqlglotError, ValueError):
            focus.everything = True
            continue
        if tree is None:
            continue
        _Reader(shape, focus, tree, not_rebuilt).read()
    return focus


class _Reader:
    def __init__(self, shape: Shape, focus: Focus, tree: exp.Expression, not_rebuilt: set[str]):
        self.shape, self.focus, self.tree = shape, focus, tree
        self.aliases: dict[str, set[str]] = {}
        self.read_tables: set[str] = set()
        for table in tree.find_all(exp.Table):
            name = table.name.lower()
            if name in not_rebuilt:
                focus.everything = True
            if self.shape.table(name) is None:
                continue
            self.read_tables.add(name)
            self.aliases.setdefault(table.alias_or_name.lower(), set()).add(name)
            self.aliases.setdefault(name, set()).add(name)
        focus.tables |= self.read_tables

    def columns(self, node: exp.Expression) -> list[tuple[str, str]]:
        """The (table, column) pairs a column reference may name."""
        if not isinstance(node, exp.Column) or not node.name:
            return []
        name = node.name.lower()
        tables = self.aliases.get(node.table.lower(), set()) if node.table else self.read_tables
        return [(table, name) for table in sorted(tables) if self.shape.table(table).position(name) is not None]

    def read(self) -> None:
        focus = self.focus
        for node in self.tree.walk():
            if isinstance(node, _COMPARISONS):
                self.pair(node.this, node.expression, isinstance(node, _PATTERNS))
            elif isinstance(node, exp.In):
                self.pair_in(node)
            elif isinstance(node, exp.Union | exp.Intersect | exp.Except):
                self.pair_columns(node.this, node.expression)
            elif isinstance(node, exp.Between):
                self.pair(node.this, node.args.get("low"), False)
                self.pair(node.this, node.args.get("high"), False)
            elif isinstance(node, exp.Ordered):
                focus.ordered.update(self.columns(_bare(node.this)))
            elif isinstance(node, exp.Group):
                for item in node.expressions:
                    focus.grouped.update(self.columns(_bare(item)))
            elif isinstance(node, exp.Limit | exp.Offset):
                number = _literal(node.expression)
                if _is_number(number):
                    focus.sizes.update({int(number) + 1, int(number) + 2})

    def pair_in(self, node: exp.In) -> None:
        """`x IN (1, 2)` compares x with each value; `x IN (SELECT y ...)` compares x with y."""
        for item in node.expressions:
            self.pair(node.this, item, False)
        query = node.args.get("query")
        inner = query.this if isinstance(query, exp.Subquery) else query
        if isinstance(inner, exp.Select) and inner.expressions:
            self.pair(node.this, inner.expressions[0].unalias(), False)

    def pair_columns(self, left, right) -> None:
        """The columns a set operation sets side by side (position by position) hold each other's values."""
        sides = []
        for side in (left, right):
            while isinstance(side, exp.Subquery | exp.Union | exp.Intersect | exp.Except):
                side = side.this  # a chain of set operations: its first SELECT gives the columns
            sides.append(side.expressions if isinstance(side, exp.Select) else [])
        for one, other in zip(*sides, strict=False):
            self.pair(one.unalias(), other.unalias(), False)

    def as_literal(self, node) -> object:
        """A literal's value; also a double-quoted name that names no column, which SQLite reads as a string."""
        value = _literal(node)
        if value is None and isinstance(node, exp.Column) and not node.table and node.this.args.get("quoted"):
            if not self.columns(node):
                return node.name
        return value

    def pair(self, left, right, pattern: bool) -> None:
        if left is None or right is None:
            return
        left, right = _bare(left), _bare(right)
        if self.as_literal(left) is not None and self.as_literal(right) is None:
            left, right = right, left
        value = self.as_literal(right)
        if value is not None:
            if isinstance(left, exp.Count):
                if _is_number(value):
                    self.focus.sizes.update({int(value), int(value) + 1, int(value) + 2})
                return
            if isinstance(left, exp.AggFunc):
                left = _bare(left.this) if left.this is not None else None
            for column in self.columns(left):
                self.focus.add_literal(column, value, "pattern" if pattern else "")
            return
        for one in self.columns(left):
            for other in self.columns(right):
                if one != other:
                    self.focus.links.append((one, other))


def _bare(node):
    while isinstance(node, exp.Paren | exp.Cast):
        node = node.this
    return node


def _literal(node) -> object:
    """The value of a literal (a number, a string, a negative number), or None."""
    node = _bare(node)
    if isinstance(node, exp.Neg):
        inner = _literal(node.this)
        return -inner if _is_number(inner) else None
    if not isinstance(node, exp.Literal):
        return None
    if node.is_string:
        return node.this
    try:
        number = float(node.this)
    except ValueError:
        return None
    return int(number) if number.is_integer() and "." not in node.this and "e" not in node.this.lower() else number


# --------------------------------------------------------------------------------------------------------------------
# A column's domain: its own values, their neighbours, and the values around the literals it is compared with
# --------------------------------------------------------------------------------------------------------------------


@dataclass
class Domain:
    focus: list  # around the queries' literals for this column
    own: list  # its values in the original
    near: list  # their neighbours and the column's boundaries
    exact: list = field(default_factory=list)  # the literals themselves, as the column stores them (part of focus)


def _coerce(value: object, kind: str) -> object | None:
    """A literal as the column's kind stores it, or None when the column cannot hold it."""
    if kind in ("int", "real"):
        if isinstance(value, str):
            try:
                number = float(value.strip())
            except ValueError:
                return None
            value = int(number) if number.is_integer() and kind == "int" else number
        if kind == "int" and isinstance(value, float) and value.is_integer():
            return int(value)
        return value
    if _is_number(value):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return value


def _step(value: float) -> float:
    text = repr(float(value))
    decimals = len(text.split(".")[1]) if "." in text and "e" not in text else 1
    return 10.0 ** -min(max(decimals, 1), 6)


def neighbours(value: object, kind: str) -> list:
    """Values next to `value` in a column of `kind`, readable as that column's: a number +-1 (or +- its last decimal),
    a date +-1 day, a whole number kept as text +-1 (and written with ".0"), a text one character shorter and one
    longer."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        return [value - 1, value + 1]
    if isinstance(value, float):
        if kind == "int":
            return [int(value // 1), int(value // 1) + 1]
        step = _step(value)
        digits = max(len(repr(step)) - 2, 1)
        return [round(value - step, digits), round(value + step, digits)]
    if not isinstance(value, str):
        return []
    match = _DATE.match(value)
    if match:
        try:
            day = datetime.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return []
        return [(day + datetime.timedelta(days=delta)).isoformat() + match[4] for delta in (-1, 1)]
    if _DIGITS.match(value):
        # A whole number kept as text compares as text with a number computed from it: avg() of "130" is 130.0,
        # which SQLite compares as the text "130.0", so that text is a neighbour too.
        width = len(value.lstrip("-"))
        return [str(int(value) + delta).zfill(width) for delta in (-1, 1)] + [f"{value}.0"]
    if len(value) > 1:
        return [value[:-1], value + value[-1]]
    return [value + value] if value else []


def _pattern_values(pattern: str, own: list) -> list:
    """Texts that a LIKE or GLOB pattern matches and nearly matches: its fixed part alone, with another case, and
    inside one of the column's own values where the pattern leaves room."""
    core = pattern.replace("%", "").replace("*", "").replace("_", "a").replace("?", "a")
    if not core:
        return []
    found = [core, core.upper(), core.lower(), core.capitalize()]
    host = next((value for value in own if isinstance(value, str) and value), "")
    if pattern.startswith(("%", "*")) and host:
        found.append(host + core)
    if pattern.endswith(("%", "*")) and host:
        found.append(core + host)
    if len(core) > 1:
        found.append(core[:-1])
    return found


def domain_of(column: ColumnShape, literals: list) -> Domain:
    kind = column.kind
    own = [value for value in column.values if value is not None]
    focus: list = []
    exact: list = []
    for value, pattern in literals:
        if pattern and isinstance(value, str):
            focus.extend(_pattern_values(value, own))
            continue
        stored = _coerce(value, kind)
        if stored is None:
            continue
        if isinstance(stored, float) and kind == "int" and not stored.is_integer():
            focus.extend(neighbours(stored, kind))  # x > 3.5 on whole numbers: 3 and 4
            continue
        focus.append(stored)
        exact.append(stored)
        focus.extend(neighbours(stored, kind))
        if isinstance(stored, str) and stored.upper() != stored.lower():
            focus.extend([stored.lower(), stored.upper()])  # = and LIKE part on the case
    # A text's neighbours ("Aspiri", "Aspirinn") matter only where a query compares the column with a literal, and
    # the focus has those: elsewhere they would only make a counterexample harder to read.
    near = [item for value in own[:20] for item in neighbours(value, kind)] if kind != "text" else []
    if _is_number(column.low) and _is_number(column.high) and kind in ("int", "real"):
        near.extend([column.low, column.high, *neighbours(column.low, kind)[:1], *neighbours(column.high, kind)[1:]])
    if not own and not focus:
        own = _invented(column, kind)
    return Domain(
        focus=list(dict.fromkeys(focus)),
        own=list(dict.fromkeys(own)),
        near=[value for value in dict.fromkeys(near) if value not in own],
        exact=list(dict.fromkeys(exact)),
    )


def _invented(column: ColumnShape, kind: str) -> list:
    """Values for a column the original leaves empty: numbers, dates, or its name numbered."""
    if kind == "int":
        return [1, 2, 3]
    if kind == "real":
        return [1.5, 2.5, 10.0]
    if kind == "date":
        return ["2020-01-01", "2020-01-02", "2021-06-30"]
    if kind == "digits":
        return ["1", "2", "3"]
    return [f"{column.name} {number}" for number in (1, 2, 3)]


# --------------------------------------------------------------------------------------------------------------------
# Making a small database
# --------------------------------------------------------------------------------------------------------------------

World = dict  # table name -> list of rows (tuples in the table's column order), as stored


class WorldMaker:
    """Makes small databases for a focus: the tables the queries read (and their keys' parents) get rows; the others
    stay empty (unless a query reads something that is not rebuilt, then every table gets rows)."""

    def __init__(self, shape: Shape, focus: Focus, rng: random.Random, *, most_rows: int = _MAX_ROWS):
        self.shape, self.focus, self.rng = shape, focus, rng
        wanted = {table.name.lower() for table in shape.tables} if focus.everything else set(focus.tables)
        changed = True
        while changed:  # the parents of every wanted table, so that its keys have rows to point at
            changed = False
            for table in shape.tables:
                if table.name.lower() in wanted:
                    for key in table.foreign_keys:
                        if key.parent.lower() not in wanted:
                            wanted.add(key.parent.lower())
                            changed = True
        self.tables = [table for table in shape.tables if table.name.lower() in wanted]
        self.groups = self._link_groups()
        literals = self._shared_literals()
        self.domains = {
            (table.name.lower(), column.name.lower()): domain_of(
                column, literals.get((table.name.lower(), column.name.lower()), [])
            )
            for table in self.tables
            for column in table.columns
        }
        self.sizes = sorted(size for size in focus.sizes if 0 < size <= most_rows)
        self.focus_share = 0.45  # how often a column of the focus draws around a literal: set anew per database

    def _shared_literals(self) -> dict[tuple[str, str], list]:
        """The literals of each column, with those of the columns it holds the values of: a key's parent column gets
        the literals compared with its child (`flights.SourceAirport = 'CVO'` needs an airport coded CVO for a
        flight to come from), and columns the queries compare with each other get each other's."""
        literals = {column: list(values) for column, values in self.focus.literals.items()}
        for table in self.tables:
            for key in table.foreign_keys:
                for child, column in zip(key.columns, key.parent_columns, strict=True):
                    found = self.focus.literals.get((table.name.lower(), child.lower()), [])
                    if found:
                        literals.setdefault((key.parent.lower(), column.lower()), []).extend(found)
        members: dict = {}
        for column, group in self.groups.items():
            members.setdefault(group, []).append(column)
        for columns in members.values():
            together = [value for column in columns for value in self.focus.literals.get(column, [])]
            for column in columns:
                literals[column] = together
        return literals

    def _link_groups(self) -> dict[tuple[str, str], tuple[str, str]]:
        known = {(table.name.lower(), column.name.lower()) for table in self.tables for column in table.columns}
        parent: dict = {}

        def root(item):
            while parent.setdefault(item, item) != item:
                item = parent[item]
            return item

        for one, other in self.focus.links:
            if one in known and other in known:
                parent[root(one)] = root(other)
        return {item: root(item) for item in parent}

    def make(self) -> tuple[World, bytes]:
        """A new small database: its rows, table by table, and its file's bytes."""
        rng = self.rng
        connection = sqlite3.connect(":memory:")
        try:
            connection.deserialize(self.shape.template)
            world: World = {}
            self.focus_share = rng.choice(_FOCUS_SHARES)
            shared = self._shared_palettes()
            null_share = rng.choice((0.0, 0.0, 0.15, 0.4))
            for table in self.tables:
                rows = self._rows(table, world, shared, null_share)
                stored = _insert(connection, table, rows)
                world[table.name] = stored
            connection.commit()
            return world, connection.serialize()
        finally:
            connection.close()

    def _shared_palettes(self) -> dict:
        """For each group of columns the queries compare with each other: a few values they share this time."""
        palettes: dict = {}
        members: dict = {}
        for column, group in self.groups.items():
            members.setdefault(group, []).append(column)
        for group, columns in members.items():
            size = self.rng.choice((1, 2, 2, 3, 4))
            palettes[group] = [self._draw(self.domains[self.rng.choice(columns)]) for _ in range(size)]
        return palettes

    def _draw(self, domain: Domain) -> object:
        """A value of the column's domain: around the queries' literals (the literal itself half of the time: an
        equality, or a boundary that another condition must also meet, needs that very value), its own values, or
        their neighbours. How much the literals weigh changes from one database to the next (`focus_share`)."""
        roll, rng = self.rng.random(), self.rng
        if domain.focus and roll < self.focus_share:
            if domain.exact and rng.random() < 0.5:
                return rng.choice(domain.exact)
            return rng.choice(domain.focus)
        if domain.own and roll < self.focus_share + (1 - self.focus_share) * 0.73:
            return rng.choice(domain.own)
        pool = domain.near or domain.own or domain.focus
        return rng.choice(pool) if pool else None

    def _count(self) -> int:
        if self.sizes and self.rng.random() < 0.2:
            return self.rng.choice(self.sizes)
        return self.rng.choice(_ROW_COUNTS)

    def _rows(self, table: TableShape, world: World, shared: dict, null_share: float) -> list[tuple]:
        count = self._count()
        key_columns = set()
        for key in table.foreign_keys:
            key_columns.update(column.lower() for column in key.columns)
        unique_sets = [tuple(table.position(name) for name in table.primary_key)] if table.primary_key else []
        unique_sets += [tuple(table.position(name) for name in unique) for unique in table.uniques]
        single_keys = {positions[0] for positions in unique_sets if len(positions) == 1}
        # The last column of a key of several, unless a parent gives it: drawn afresh, so that a group of many rows
        # (a HAVING count asks for one) can share the other columns and still have distinct keys.
        fresh = single_keys | {
            positions[-1]
            for positions in unique_sets
            if len(positions) > 1 and table.columns[positions[-1]].name.lower() not in key_columns
        }
        palettes = [self._palette(table, position, count, shared, fresh) for position in range(len(table.columns))]
        narrow = self._narrow_keys(table, count)
        rows, seen = [], [set() for _ in unique_sets]
        for _ in range(count):
            for attempt in range(4):
                row = self._row(table, world, palettes, rows, null_share, key_columns, narrow)
                if row is None:
                    break
                if attempt == 3:  # the domain ran out of distinct keys: a whole number past the largest one drawn
                    row = self._past_the_largest(table, row, rows, fresh)
                keys = [tuple(row[i] for i in positions) for positions in unique_sets]
                if any(None not in key and key in taken for key, taken in zip(keys, seen, strict=True)):
                    continue
                for key, taken in zip(keys, seen, strict=True):
                    taken.add(key)
                rows.append(row)
                break
        return rows

    def _palette(self, table: TableShape, position: int, count: int, shared: dict, fresh: set) -> list | None:
        """The values one column's rows draw from in one table (None: a new value per row)."""
        rng = self.rng
        where = (table.name.lower(), table.columns[position].name.lower())
        domain = self.domains[where]
        one_group = where in self.focus.grouped and count > _ROW_COUNTS[-1]  # a HAVING count asked for many rows
        if where in self.groups and rng.random() < 0.85:
            palette = list(shared[self.groups[where]])
            if one_group:
                return palette[: rng.choice((1, 1, 2))]  # most of them in one group
            if rng.random() < 0.4:  # a value only this side has: rows that do not join
                palette.append(self._draw(domain))
            return palette
        if position in fresh or (where in self.focus.ordered and rng.random() < 0.6):
            return None  # drawn afresh for each row: keys stay distinct, orders have fewer ties
        size = rng.choice((1, 1, 2)) if one_group else rng.choice((1, 2, 2, 3, 3, 4, max(count, 1)))
        palette = [self._draw(domain) for _ in range(size)]
        if len(domain.exact) > 1 and not one_group and rng.random() < 0.3:
            palette += domain.exact  # each literal the column is compared with, on rows of its own
        return palette

    def _narrow_keys(self, table: TableShape, count: int) -> dict[int, int]:
        """For a table asked for many rows (a HAVING count or a LIMIT), the keys the queries group by point at only
        one or two parent rows, so that one group holds most of them: {key's index: how many parent rows}."""
        if count <= _ROW_COUNTS[-1]:
            return {}
        narrow = {}
        for index, key in enumerate(table.foreign_keys):
            sides = [(table.name.lower(), name.lower()) for name in key.columns]
            sides += [(key.parent.lower(), name.lower()) for name in key.parent_columns]
            if any(side in self.focus.grouped for side in sides):
                narrow[index] = self.rng.choice((1, 1, 2))
        return narrow

    def _past_the_largest(self, table: TableShape, row: tuple, rows: list, fresh: set) -> tuple:
        changed = list(row)
        for position in fresh:
            if isinstance(row[position], int) and not isinstance(row[position], bool):
                taken = [other[position] for other in rows if isinstance(other[position], int)]
                changed[position] = max(taken, default=row[position]) + 1
        return tuple(changed)

    def _row(self, table, world, palettes, rows, null_share, key_columns, narrow) -> tuple | None:
        rng = self.rng
        row = []
        key_positions = set(table.position(name) for name in table.primary_key)
        rowid_key = table.rowid_key
        for position, (column, palette) in enumerate(zip(table.columns, palettes, strict=True)):
            where = (table.name.lower(), column.name.lower())
            nullable = not column.not_null and position not in key_positions
            if nullable and rng.random() < null_share:
                value = None
            elif palette:
                value = rng.choice(palette)
            else:
                value = self._draw(self.domains[where])
            if position == rowid_key and not isinstance(value, int):
                value = len(rows) + 1
            row.append(value)
        for index, key in enumerate(table.foreign_keys):
            if not self._point(table, key, world, rows, row, null_share, narrow.get(index)):
                return None  # nothing to point at, and the key may not be empty: no such row
        return tuple(row)

    def _point(self, table, key: ForeignKey, world: World, rows: list, row: list, null_share: float, narrow) -> bool:
        """Give `row`'s key columns the key of a row its parent got (of the first `narrow` of them, when given), or
        NULL where allowed; False when there is nothing to point at and the key may not be empty."""
        rng = self.rng
        key_positions = set(table.position(name) for name in table.primary_key)
        positions = [table.position(name) for name in key.columns]
        parent = self.shape.table(key.parent)
        targets = rows if parent is table else world.get(parent.name, [])
        choices = [tuple(other[parent.position(name)] for name in key.parent_columns) for other in targets]
        choices = [choice for choice in choices if None not in choice]
        if narrow and parent is not table:
            choices = choices[:narrow]
        nullable = all(not table.columns[i].not_null and i not in key_positions for i in positions)
        if choices and not (nullable and rng.random() < null_share):
            for position, value in zip(positions, rng.choice(choices), strict=True):
                row[position] = value
        elif nullable:
            for position in positions:
                row[position] = None
        elif parent is not table:
            return False
        # else: the first rows of a table that points at itself keep their own drawn values
        return True


def _insert(connection: sqlite3.Connection, table: TableShape, rows: list[tuple]) -> list[tuple]:
    names = ", ".join(quote(column.name) for column in table.columns)
    marks = ", ".join("?" for _ in table.columns)
    statement = f"INSERT OR IGNORE INTO {quote(table.name)} ({names}) VALUES ({marks})"  # noqa: S608
    for row in rows:
        try:
            connection.execute(statement, row)
        except (sqlite3.Error, OverflowError):
            continue  # a text for an INTEGER PRIMARY KEY, a number too large: not a row of this schema
    return [tuple(row) for row in connection.execute(f"SELECT {names} FROM {quote(table.name)}")]  # noqa: S608


def world_bytes(shape: Shape, world: World) -> bytes:
    """The file of a small database holding exactly `world`'s rows (in that order)."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(shape.template)
        for table in shape.tables:
            if world.get(table.name):
                _insert(connection, table, world[table.name])
        connection.commit()
        return connection.serialize()
    finally:
        connection.close()


def without_row(shape: Shape, world: World, table_name: str, index: int, *, detach: bool = False) -> World:
    """`world` without one row of `table_name`, and without the rows whose keys pointed only at it (and so on). With
    `detach`, a row whose key may be NULL keeps its place and points at nothing instead."""
    smaller = {name: list(rows) for name, rows in world.items()}
    del smaller[table_name][index]
    changed = True
    while changed:
        changed = False
        for table in shape.tables:
            for key in table.foreign_keys:
                rows = smaller.get(table.name)
                parent = shape.table(key.parent)
                if not rows or parent is None:
                    continue
                kept = _pointing(table, key, parent, rows, smaller.get(parent.name, []), detach)
                if kept != rows:
                    smaller[table.name] = kept
                    changed = True
    return smaller


def _pointing(table: TableShape, key: ForeignKey, parent: TableShape, rows: list, parents: list, detach: bool) -> list:
    """The rows of `table` whose key points at a row of `parents` (or at nothing); with `detach`, the others point at
    nothing where their key may be NULL."""
    targets = {tuple(row[parent.position(name)] for name in key.parent_columns) for row in parents}
    positions = [table.position(name) for name in key.columns]
    primary = {table.position(name) for name in table.primary_key}
    nullable = all(not table.columns[i].not_null and i not in primary for i in positions)
    kept = []
    for row in rows:
        value = tuple(row[i] for i in positions)
        if None in value or value in targets or parent is table:
            kept.append(row)
        elif detach and nullable:
            kept.append(tuple(None if i in positions else cell for i, cell in enumerate(row)))
    return kept


def plainer_values(shape: Shape, world: World) -> list[tuple[str, int, int, object]]:
    """Ways to make a small database easier to read, one cell at a time: a cell that is not part of a key, holding a
    value the original's column does not hold (a neighbour, a literal) or nothing, could hold the column's first own
    value instead. Each is (table, row, column position, value)."""
    changes = []
    for table in shape.tables:
        rows = world.get(table.name) or []
        keyed = {name.lower() for name in table.primary_key}
        for unique in table.uniques:
            keyed.update(name.lower() for name in unique)
        for key in table.foreign_keys:
            keyed.update(name.lower() for name in key.columns)
        for position, column in enumerate(table.columns):
            if column.name.lower() in keyed or not column.values:
                continue
            plain = column.values[0]
            for index, row in enumerate(rows):
                if row[position] != plain and row[position] not in column.values:
                    changes.append((table.name, index, position, plain))
    return changes


def with_value(world: World, table_name: str, index: int, position: int, value: object) -> World:
    """`world` with one cell changed."""
    changed = dict(world)
    rows = list(changed[table_name])
    row = list(rows[index])
    row[position] = value
    rows[index] = tuple(row)
    changed[table_name] = rows
    return changed
