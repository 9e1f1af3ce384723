"""A query moved onto a translated database (docs/translation.md): its table and column names through a name map,
its string literals through a value map. Pure: a schema, maps and SQL in, SQL out; it knows no model.

The query is rewritten in place, not printed again: each name or literal the parse finds is replaced where it stands
in the text, so the query keeps its own spelling, spacing and quotes (the releases' queries are lower case, with
double-quoted strings, which a printer would change). A column is found in the tables of its own SELECT (through
its alias, or the one table there that has it) and, failing that, in the enclosing SELECTs'. A string literal is
translated when the value map holds it exactly (SQLite's = tells case apart, so 'Germany' is not the cell
'germany': translating it would change what the query finds); a LIKE pattern when what its wildcards surround is a
value, exactly or in one spelling up to case (LIKE does not tell ASCII case apart). Anything else is kept, and said
in `notes` (a literal the map does not hold: no cell's text, or one not translated yet) or `problems` (a name the
schema does not have).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlglot import exp

from annotation.sql.spider import SpiderEncodingError, parse_sql

# A translated name must stand in a query as the releases write names: unquoted. Letters of any script, digits and
# underscores, not starting with a digit (CHASE's names: 书名, 电子书售价, 作者id).
IDENTIFIER = re.compile(r"^[^\W\d]\w*$", re.UNICODE)
MAX_NAME_LENGTH = 64
# Words a bare name may not be: the SQL the releases write would read them as keywords.
RESERVED = frozenset(
    """select from where group by order having limit join on as and or not in like between is null union intersect
    except distinct count sum avg min max asc desc case when then else end exists all any inner left right outer
    cross natural using values table index create drop insert update delete set into primary key foreign references
    default check unique collate glob match regexp escape cast""".split()
)


def name_error(name: str) -> str | None:
    """Why `name` cannot be a translated table or column name, or None."""
    if not name:
        return "A name cannot be empty."
    if len(name) > MAX_NAME_LENGTH:
        return f"A name has at most {MAX_NAME_LENGTH} characters."
    if not IDENTIFIER.match(name):
        return (
            f"{name!r} cannot stand unquoted in SQL: use letters, digits and underscores only (no spaces or "
            "punctuation), not starting with a digit."
        )
    if name.lower() in RESERVED:
        return f"{name!r} is an SQL keyword."
    return None


@dataclass(frozen=True)
class NameMap:
    """The translated names of one database: `tables` maps a table's name (lower case) to its translation, `columns`
    maps (table, column) (lower case) to the column's; `schema_columns` lists each table's columns (lower case), to
    find the table of an unqualified column. A name with no translation keeps its own."""

    tables: dict[str, str]
    columns: dict[tuple[str, str], str]
    schema_columns: dict[str, frozenset[str]]

    @classmethod
    def of(cls, schema: dict, tables: dict[str, str], columns: dict[tuple[str, str], str]) -> NameMap:
        """The map of a tables.json entry, with translations keyed by original names (any case)."""
        names = schema["table_names_original"]
        by_table: dict[str, set[str]] = {name.lower(): set() for name in names}
        for table_index, column in schema["column_names_original"][1:]:
            by_table[names[table_index].lower()].add(column.lower())
        return cls(
            tables={name.lower(): new for name, new in tables.items() if new},
            columns={(table.lower(), column.lower()): new for (table, column), new in columns.items() if new},
            schema_columns={table: frozenset(columns) for table, columns in by_table.items()},
        )

    def table(self, name: str) -> str:
        return self.tables.get(name.lower(), name)

    def column(self, table: str, name: str) -> str:
        return self.columns.get((table.lower(), name.lower()), name)


@dataclass(frozen=True)
class ValueMap:
    """The translated text values of one database: `exact` maps a cell's text to its translation; `get(text,
    fold=True)` also finds a text up to case, when that finds one spelling only (for LIKE, which folds case)."""

    exact: dict[str, str]
    folded: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def of(cls, values: dict[str, str]) -> ValueMap:
        exact = {source: target for source, target in values.items() if target}
        folded: dict[str, str | None] = {}
        for source, target in exact.items():
            key = source.casefold()
            folded[key] = target if key not in folded else None
        return cls(exact=exact, folded=folded)

    def get(self, text: str, *, fold: bool = False) -> str | None:
        if text in self.exact:
            return self.exact[text]
        return self.folded.get(text.casefold()) if fold else None


@dataclass
class Rewrite:
    sql: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # (literal as written, as translated) of each string literal translated, in the query's order, each once: what a
    # question about the query should call the values.
    values: list = field(default_factory=list)


_LIKE_EDGES = re.compile(r"^([%_]*)(.*?)([%_]*)$", re.DOTALL)


def rewrite_sql(sql: str, names: NameMap, values: ValueMap) -> Rewrite:
    """`sql` with every table and column name through `names` and every string literal through `values` (see the
    module's docstring). A query that does not parse comes back unchanged with the parse error in `problems`."""
    try:
        tree = parse_sql(sql)
    except SpiderEncodingError as error:
        return Rewrite(sql, problems=[str(error)])
    rewrite = Rewrite(sql)
    edits: list[tuple[int, int, str]] = []
    for node in tree.walk():
        if isinstance(node, exp.Table):
            _table_edit(node, names, edits)
        elif isinstance(node, exp.Column):
            _column_edits(node, names, edits, rewrite)
        elif isinstance(node, exp.Literal) and node.is_string:
            _literal_edit(node, sql, values, edits, rewrite)
    rewrite.sql = _apply(sql, edits, rewrite)
    # In the order the query writes them, each once.
    rewrite.values = list(dict.fromkeys((text, new) for _start, text, new in sorted(rewrite.values)))
    return rewrite


def _span(node: exp.Expression) -> tuple[int, int] | None:
    meta = node.meta
    if "start" not in meta or "end" not in meta:
        return None
    return meta["start"], meta["end"] + 1


def _identifier_edit(identifier: exp.Expression | None, new: str, edits: list) -> None:
    if not isinstance(identifier, exp.Identifier) or identifier.this == new:
        return
    span = _span(identifier)
    if span is not None:
        edits.append((*span, new))


def _table_edit(node: exp.Table, names: NameMap, edits: list) -> None:
    name = node.name
    if name.lower() in names.schema_columns:
        _identifier_edit(node.this, names.table(name), edits)


def _scopes(node: exp.Expression):
    """The SELECTs around `node`, innermost first, each as {alias or name (lower case): table name (lower case)}."""
    select = node.find_ancestor(exp.Select)
    while select is not None:
        tables = {}
        sources = [select.args.get("from_") or select.args.get("from"), *(select.args.get("joins") or [])]
        for source in sources:
            if source is None:
                continue
            table = source.this
            if isinstance(table, exp.Table):
                tables[(table.alias_or_name or table.name).lower()] = table.name.lower()
        yield tables
        select = select.find_ancestor(exp.Select)


def _column_table(node: exp.Column, names: NameMap) -> tuple[str | None, bool]:
    """The table (lower case) `node` reads, and whether its qualifier is the table's own name (not an alias)."""
    qualifier = node.table.lower()
    column = node.name.lower()
    for tables in _scopes(node):
        if qualifier:
            if qualifier in tables:
                table = tables[qualifier]
                return table, qualifier == table and table in names.schema_columns
            continue
        holding = [table for table in set(tables.values()) if column in names.schema_columns.get(table, ())]
        if len(holding) == 1:
            return holding[0], False
    if qualifier in names.schema_columns:  # a table named without an alias, outside any FROM we read
        return qualifier, True
    return None, False


def _column_edits(node: exp.Column, names: NameMap, edits: list, rewrite: Rewrite) -> None:
    if isinstance(node.this, exp.Star):
        table, own_name = _column_table(node, names)
        if table and own_name:
            _identifier_edit(node.args.get("table"), names.table(table), edits)
        return
    table, own_name = _column_table(node, names)
    if table is None:
        # A SELECT alias (ORDER BY total) or a name the schema does not have.
        if not any(node.name.lower() in columns for columns in names.schema_columns.values()):
            return
        rewrite.problems.append(f"cannot tell which table the column {node.sql()!r} belongs to")
        return
    if node.name.lower() not in names.schema_columns.get(table, ()):
        rewrite.problems.append(f"the table {table!r} has no column {node.name!r}")
        return
    _identifier_edit(node.this, names.column(table, node.name), edits)
    if own_name:
        _identifier_edit(node.args.get("table"), names.table(table), edits)


def _literal_edit(node: exp.Literal, sql: str, values: ValueMap, edits: list, rewrite: Rewrite) -> None:
    text = node.this
    span = _span(node)
    if span is None:
        return
    quote = sql[span[0]] if sql[span[0]] in "'\"" else "'"
    like = isinstance(node.parent, exp.Like)
    new = values.get(text, fold=like)
    if new is None and like:
        prefix, core, suffix = _LIKE_EDGES.match(text).groups()
        found = values.get(core, fold=True) if core else None
        new = f"{prefix}{found}{suffix}" if found is not None else None
    if new is None:
        if any(character.isalpha() for character in text):
            rewrite.notes.append(f"the value {text!r} has no translation: kept as it is")
        return
    if new != text:
        edits.append((*span, quote + new.replace(quote, quote * 2) + quote))
        rewrite.values.append((span[0], text, new))


def _apply(sql: str, edits: list[tuple[int, int, str]], rewrite: Rewrite) -> str:
    """`sql` with each (start, end, text) span replaced, right to left; overlapping spans (a parse that placed two
    nodes on the same text) are not applied and said in `problems`."""
    out = sql
    last_start = len(sql) + 1
    for start, end, text in sorted(set(edits), key=lambda edit: edit[0], reverse=True):
        if end > last_start:
            rewrite.problems.append(f"two edits overlap at character {start}")
            continue
        out = out[:start] + text + out[end:]
        last_start = start
    return out


def translated_schema(schema: dict, names: NameMap, *, readable: dict | None = None) -> dict:
    """The tables.json entry of the translated database: the `*_original` names through `names`, and the readable
    names (`table_names`, `column_names`) the same, unless `readable` gives others ({"tables": {...}, "columns":
    {(table, column): ...}}, keyed by original names). Indices, types and keys are the original's."""
    readable = readable or {"tables": {}, "columns": {}}
    tables = schema["table_names_original"]
    entry = dict(schema)
    entry["table_names_original"] = [names.table(name) for name in tables]
    entry["table_names"] = [readable["tables"].get(name) or names.table(name) for name in tables]
    columns_original = [[-1, "*"]]
    columns_readable = [[-1, "*"]]
    for table_index, column in schema["column_names_original"][1:]:
        table = tables[table_index]
        new = names.column(table, column)
        columns_original.append([table_index, new])
        columns_readable.append([table_index, readable["columns"].get((table, column)) or new])
    entry["column_names_original"] = columns_original
    entry["column_names"] = columns_readable
    return entry
