"""Static checks of an expert's SQL against a Spider-style schema, fast enough to run on every keystroke.

``validate_sql`` parses with sqlglot (SQLite dialect) and resolves every table and column reference scope by scope:
aliases (``T1.name``), CTEs, derived tables, correlated subqueries, output aliases (SQLite accepts them in WHERE,
GROUP BY, HAVING and ORDER BY), ``*`` and ``T1.*``, quoted identifiers, all case-insensitively as SQLite does. It never
touches a database: the sandbox (annotation.sql.sandbox) stays the authority on what actually runs.

Error kinds: ``syntax``, ``statement`` (not a single SELECT), ``unknown_table``, ``unknown_column``,
``ambiguous_column``. Warning kinds: ``string_literal`` (a double-quoted "name" that SQLite will read as a string, as
Spider's gold SQL often does), ``unchecked`` (a shape sqlglot cannot scope). Positions are character offsets into the
SQL (``end`` exclusive) with 1-based line/col.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.optimizer.scope import Scope, traverse_scope
from sqlglot.tokens import TokenType

from annotation.plumbing.i18n import gettext
from annotation.sql.sandbox import current_limits
from annotation.sql.spider import parsing_tools, plain_error_text

# SQLite's own tables: always readable, never in a Spider schema.
_INTERNAL_TABLES = {
    "sqlite_master": ("type", "name", "tbl_name", "rootpage", "sql"),
    "sqlite_schema": ("type", "name", "tbl_name", "rootpage", "sql"),
    "sqlite_temp_master": ("type", "name", "tbl_name", "rootpage", "sql"),
    "sqlite_sequence": ("name", "seq"),
    "sqlite_stat1": ("tbl", "idx", "stat"),
}
_ROWID_NAMES = frozenset({"rowid", "oid", "_rowid_"})
_SUGGESTIONS = 3
_SIMILARITY_CUTOFF = 0.6
_QUERY_KEYWORDS = frozenset({"SELECT", "WITH", "VALUES"})
_LEADING_RE = re.compile(r"(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?(?:\*/|\Z))*", re.S)
_WORD_RE = re.compile(r"[^\W\d]\w*")


@dataclass(frozen=True)
class _SchemaIndex:
    """Lower-cased lookups built once per schema: table -> original name, table -> {column -> original name}."""

    tables: dict[str, str]
    columns: dict[str, dict[str, str]]
    column_tables: dict[str, list[str]]  # column -> original names of the tables that have it


_index_cache: OrderedDict[int, tuple[dict, _SchemaIndex]] = OrderedDict()
_index_lock = threading.Lock()
_INDEX_CACHE_SIZE = 64


def _schema_index(schema: dict) -> _SchemaIndex:
    """Index ``schema`` once; later calls with the same dict object are a dictionary lookup.

    The cache keeps a reference to the schema dict, so its id cannot be reused by another object while cached.
    Schemas are treated as immutable: build a new dict rather than editing one in place.
    """
    key = id(schema)
    with _index_lock:
        entry = _index_cache.get(key)
        if entry is not None and entry[0] is schema:
            _index_cache.move_to_end(key)
            return entry[1]
    tables: dict[str, str] = {}
    columns: dict[str, dict[str, str]] = {}
    for name in schema.get("table_names_original", []):
        tables[name.lower()] = name
        columns[name.lower()] = {}
    for name, table_columns in _INTERNAL_TABLES.items():
        tables.setdefault(name, name)
        columns.setdefault(name, {column: column for column in table_columns})
    table_names = schema.get("table_names_original", [])
    column_tables: dict[str, list[str]] = {}
    for table_index, column in schema.get("column_names_original", []):
        if table_index < 0 or table_index >= len(table_names):
            continue  # [-1, "*"]
        table = table_names[table_index]
        columns[table.lower()][column.lower()] = column
        column_tables.setdefault(column.lower(), []).append(table)
    index = _SchemaIndex(tables=tables, columns=columns, column_tables=column_tables)
    with _index_lock:
        _index_cache[key] = (schema, index)
        while len(_index_cache) > _INDEX_CACHE_SIZE:
            _index_cache.popitem(last=False)
    return index


_SQLITE = Dialect.get_or_raise("sqlite")
# Deeper nesting is refused before parsing: SQLite's own parser stack overflows well before it (the sandbox also
# limits expression depth to 100), and how deep sqlglot gets before a RecursionError depends on whether its compiled
# modules (sqlglotc) are installed, so the rule is stated here rather than left to the parser.
MAX_NESTING = 100


def _deepest_nesting(tokens) -> int:
    depth = deepest = 0
    for token in tokens:
        if token.token_type == TokenType.L_PAREN:
            depth += 1
            deepest = max(deepest, depth)
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1
    return deepest


def validate_sql(sql: str, schema: dict) -> dict:
    """Check one SELECT statement against a Spider tables.json entry; never raises for bad SQL.

    Returns ``{"ok", "errors", "warnings"}``; each error or warning is ``{"kind", "message", "line", "col", "start",
    "end", "suggestions"}`` where ``suggestions`` lists the closest existing names for unknown ones.
    """
    if not isinstance(sql, str):
        sql = ""
    report = _Report(sql)
    if not sql.strip():
        report.error("syntax", gettext("the SQL is empty"), None)
        return report.result()
    max_length = current_limits().max_sql_length  # the sandbox would refuse it anyway; parsing it could take seconds
    if len(sql) > max_length:
        report.error(
            "statement",
            gettext("the SQL is %(length)s characters long; the limit is %(limit)s")
            % {"length": f"{len(sql):,}", "limit": f"{max_length:,}"},
            None,
        )
        return report.result()
    start = _LEADING_RE.match(sql).end()
    word = _WORD_RE.match(sql, start)
    if word is None:
        report.error("syntax", gettext("a query starts with SELECT, WITH or VALUES"), (start, start + 1))
        return report.result()
    if word.group().upper() not in _QUERY_KEYWORDS:
        found = word.group().upper()
        report.error(
            "statement",
            gettext("only SELECT queries are allowed; this is %(kind)s") % {"kind": found},
            (start, start + len(found)),
        )
        return report.result()
    statements = _statements(sql, report)
    if statements is None:
        return report.result()
    if len(statements) != 1:
        report.error("statement", gettext("only one statement can run at a time"), _second_statement_span(sql))
        return report.result()
    statement = statements[0]
    if not isinstance(statement, (exp.Select, exp.SetOperation, exp.Values, exp.Subquery)):
        # WITH ... DELETE / INSERT / UPDATE: the leading WITH passed the keyword check above.
        report.error(
            "statement",
            gettext("only SELECT queries are allowed; this is %(kind)s") % {"kind": statement.key.upper()},
            (start, len(sql.rstrip())),
        )
        return report.result()
    if isinstance(statement, exp.Select) and not statement.expressions:
        report.error(
            "syntax", gettext("SELECT needs at least one result column"), (len(sql.rstrip()), len(sql.rstrip()))
        )
        return report.result()
    _Resolver(sql, _schema_index(schema), report).check(statement)
    return report.result()


def _statements(sql: str, report: _Report) -> list | None:
    """The statements `sql` parses into; None when it does not parse, with the reason in `report`."""
    try:
        tokenizer, parser = parsing_tools(_SQLITE)
        tokens = tokenizer.tokenize(sql)
        if _deepest_nesting(tokens) > MAX_NESTING:
            raise RecursionError
        return [statement for statement in parser.parse(tokens, sql) if statement is not None]
    except ParseError as exc:
        _report_parse_error(report, sql, exc)
    except TokenError:
        report.error("syntax", gettext("unterminated string, quoted name or comment"), _unterminated_span(sql))
    except RecursionError:
        report.error("syntax", gettext("the query is nested too deeply (SQLite refuses this depth too)"), None)
    return None


class _Report:
    """Collects errors and warnings, with positions and suggestions, without duplicates."""

    def __init__(self, sql: str):
        self.sql = sql
        self.errors: list[dict] = []
        self.warnings: list[dict] = []
        self._seen: set[tuple] = set()

    def error(self, kind: str, message: str, span: tuple[int, int] | None, suggestions: list[str] | None = None):
        self._add(self.errors, kind, message, span, suggestions)

    def warning(self, kind: str, message: str, span: tuple[int, int] | None, suggestions: list[str] | None = None):
        self._add(self.warnings, kind, message, span, suggestions)

    def _add(self, target: list, kind: str, message: str, span, suggestions) -> None:
        key = (kind, message, span)
        if key in self._seen:
            return
        self._seen.add(key)
        line = col = start = end = None
        if span is not None:
            start, end = span
            line = self.sql.count("\n", 0, start) + 1
            col = start - (self.sql.rfind("\n", 0, start) + 1) + 1
        target.append(
            {
                "kind": kind,
                "message": message,
                "line": line,
                "col": col,
                "start": start,
                "end": end,
                "suggestions": suggestions or [],
            }
        )

    def result(self) -> dict:
        self.errors.sort(key=lambda item: (item["start"] is None, item["start"] or 0))
        return {"ok": not self.errors, "errors": self.errors, "warnings": self.warnings}


def _report_parse_error(report: _Report, sql: str, exc: ParseError) -> None:
    details = exc.errors[0] if exc.errors else {}
    highlight = details.get("highlight") or ""
    line, col = details.get("line"), details.get("col")
    span = None
    if line and col:
        # sqlglot's col is the 1-based column of the highlighted token's last character.
        line_start = 0
        for _ in range(line - 1):
            line_start = sql.find("\n", line_start) + 1
        end = min(len(sql), line_start + col)
        span = (max(0, end - len(highlight)), end)
    description = details.get("description") or plain_error_text(exc)
    description = description.replace("Invalid expression / Unexpected token", "unexpected token")
    if description.startswith("Required keyword:"):
        description = gettext("incomplete expression")
    if highlight:
        message = gettext('syntax error near "%(token)s": %(description)s') % {
            "token": highlight,
            "description": description,
        }
    else:
        message = gettext("syntax error: %(description)s") % {"description": description}
    report.error("syntax", message, span)


def _unterminated_span(sql: str) -> tuple[int, int] | None:
    """Where an unterminated string, quoted identifier or block comment starts."""
    for match in re.finditer(
        r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\[[^\]]*\]|--[^\n]*|/\*.*?\*/|['\"`\[]|/\*", sql, re.S
    ):
        text = match.group()
        if text in ("'", '"', "`", "[", "/*"):
            return match.start(), len(sql)
    return None


def _second_statement_span(sql: str) -> tuple[int, int] | None:
    for match in re.finditer(
        r"'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?|`[^`]*`?|\[[^\]]*\]?|--[^\n]*|/\*.*?(?:\*/|\Z)|;", sql, re.S
    ):
        if match.group() == ";":
            rest = _LEADING_RE.match(sql, match.end()).end()
            while rest < len(sql) and sql[rest] == ";":
                rest = _LEADING_RE.match(sql, rest + 1).end()
            if rest < len(sql):
                return rest, len(sql)
    return None


def _closest(name: str, candidates: dict[str, str]) -> list[str]:
    """The closest original names to ``name`` among ``candidates`` (lower-cased name -> original)."""
    matches = difflib.get_close_matches(name.lower(), list(candidates), n=_SUGGESTIONS, cutoff=_SIMILARITY_CUTOFF)
    return [candidates[match] for match in matches]


def _span(node: exp.Expression | None) -> tuple[int, int] | None:
    """The character span sqlglot recorded for an identifier, or a column's or table's name (``end`` exclusive)."""
    if node is not None and not isinstance(node, exp.Identifier):
        node = node.this
    meta = node.meta if isinstance(node, exp.Identifier) else None
    if not meta or "start" not in meta:
        return None
    return meta["start"], meta["end"] + 1  # sqlglot's end is inclusive


_UNKNOWN = None  # the column set of a source we cannot know (an unknown table): accept any column of it


class _Resolver:
    """Resolves the table and column references of one statement, scope by scope."""

    def __init__(self, sql: str, index: _SchemaIndex, report: _Report):
        self.sql = sql
        self.index = index
        self.report = report
        self.output_cache: dict[int, dict[str, str] | None] = {}

    def check(self, statement: exp.Expression) -> None:
        try:
            scopes = traverse_scope(statement)
            for scope in scopes:
                self.check_tables(scope)
            for scope in scopes:
                if isinstance(scope.expression, exp.Select):
                    self.check_columns(scope)
        except (RecursionError, sqlglot.errors.SqlglotError) as exc:
            # Exotic or very deep shapes sqlglot cannot scope: say so rather than guess; the sandbox will judge them.
            self.report.warning(
                "unchecked",
                gettext("names in this query could not be checked (%(error)s)") % {"error": type(exc).__name__},
                None,
            )

    # --- tables -------------------------------------------------------------------------------------------------

    def check_tables(self, scope: Scope) -> None:
        for table in scope.tables:
            if not isinstance(table.this, exp.Identifier):
                continue  # table-valued functions (json_each(...)) are the sandbox's business
            name = table.name.lower()
            ctes = self.visible_ctes(scope)
            if name in self.index.tables or name in ctes:
                continue
            candidates = {key: value for key, value in self.index.tables.items() if key not in _INTERNAL_TABLES}
            candidates.update(ctes)
            suggestions = _closest(name, candidates)
            said = {"name": table.name, "names": ", ".join(suggestions)}
            if suggestions:
                message = gettext("no table named %(name)s; did you mean %(names)s?") % said
            else:
                message = gettext("no table named %(name)s") % said
            self.report.error("unknown_table", message, _span(table.this), suggestions)

    @staticmethod
    def visible_ctes(scope: Scope) -> dict[str, str]:
        """CTE names (lower -> original) defined by this scope's query or any enclosing one."""
        names: dict[str, str] = {}
        current = scope
        while current is not None:
            if isinstance(current.expression, exp.Query):
                for cte in current.expression.ctes:
                    names.setdefault(cte.alias.lower(), cte.alias)
            current = current.parent
        return names

    # --- columns ------------------------------------------------------------------------------------------------

    def source_columns(self, source) -> dict[str, str] | None:
        """Column names (lower -> original) a FROM source provides, or _UNKNOWN when they cannot be known."""
        if isinstance(source, exp.Table):
            if not isinstance(source.this, exp.Identifier):
                return _UNKNOWN
            return self.index.columns.get(source.name.lower(), _UNKNOWN)
        if isinstance(source, Scope):
            return self.output_columns(source)
        return _UNKNOWN

    def output_columns(self, scope: Scope) -> dict[str, str] | None:
        key = id(scope)
        if key in self.output_cache:
            return self.output_cache[key]
        self.output_cache[key] = _UNKNOWN  # guards against cycles (recursive CTEs)
        expression = scope.expression
        if isinstance(expression, exp.SetOperation):
            expression = expression.left
            while isinstance(expression, exp.SetOperation):
                expression = expression.left
        if not isinstance(expression, exp.Select):
            return _UNKNOWN
        columns: dict[str, str] | None = {}
        for projection in expression.expressions:
            if isinstance(projection, exp.Star) or (
                isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star)
            ):
                starred = self.star_columns(scope, projection)
                if starred is _UNKNOWN:
                    columns = _UNKNOWN
                    break
                columns.update(starred)
            else:
                name = projection.alias_or_name
                if name:
                    columns[name.lower()] = name
        cte = scope.expression.parent if isinstance(scope.expression.parent, exp.CTE) else None
        if columns is not _UNKNOWN and cte is not None and cte.args.get("alias") and cte.args["alias"].columns:
            columns = {column.name.lower(): column.name for column in cte.args["alias"].columns}  # WITH t(a, b) AS
        self.output_cache[key] = columns
        return columns

    def star_columns(self, scope: Scope, projection: exp.Expr) -> dict[str, str] | None:
        """The columns `*` (or `t.*`) shows in `scope`, _UNKNOWN when one of its sources' columns cannot be known."""
        qualifier = projection.table.lower() if isinstance(projection, exp.Column) else ""
        columns: dict[str, str] = {}
        for name, (_, source) in self.selected(scope).items():
            if qualifier and name != qualifier:
                continue
            provided = self.source_columns(source)
            if provided is _UNKNOWN:
                return _UNKNOWN
            columns.update(provided)
        return columns

    @staticmethod
    def selected(scope: Scope) -> dict[str, tuple]:
        return {name.lower(): value for name, value in scope.selected_sources.items()}

    def check_columns(self, scope: Scope) -> None:
        selected = self.selected(scope)
        select = scope.expression
        output_aliases = {
            projection.alias.lower()
            for projection in select.expressions
            if isinstance(projection, exp.Alias) and projection.alias
        }
        using = self.using_columns(select)
        for column in scope.walk():
            if not isinstance(column, exp.Column) or column.find_ancestor(exp.Select) is not select:
                continue
            self.check_column(scope, selected, column, output_aliases, using)

    @staticmethod
    def using_columns(select: exp.Select) -> set[str]:
        names: set[str] = set()
        for join in select.args.get("joins") or []:
            for identifier in join.args.get("using") or []:
                names.add(identifier.name.lower())
            if join.args.get("kind") == "NATURAL" or join.args.get("method") == "NATURAL":
                names.add("*")
        return names

    def check_column(self, scope: Scope, selected: dict, column: exp.Column, output_aliases: set, using: set) -> None:
        if column.table:
            self.check_qualified_column(scope, selected, column)
        elif not (isinstance(column.this, exp.Star) or column.name.lower() in _ROWID_NAMES):
            self.check_plain_column(scope, selected, column, output_aliases, using)

    def check_qualified_column(self, scope: Scope, selected: dict, column: exp.Column) -> None:
        """`t.c`: t must name a source of this query, and c be one of its columns."""
        name = column.name.lower()
        source, owner = self.find_source(scope, column.table.lower())
        if owner is None:
            self.report_unknown_qualifier(selected, column)
            return
        if isinstance(column.this, exp.Star) or name in _ROWID_NAMES:
            return
        provided = self.source_columns(source)
        if provided is _UNKNOWN or name in provided:
            return
        suggestions = _closest(name, provided)
        said = {"table": column.table, "name": column.name, "names": ", ".join(suggestions)}
        if suggestions:
            message = gettext("%(table)s has no column named %(name)s; did you mean %(names)s?") % said
        else:
            message = gettext("%(table)s has no column named %(name)s") % said
        self.report.error("unknown_column", message, _span(column), suggestions)

    def report_unknown_qualifier(self, selected: dict, column: exp.Column) -> None:
        qualifier = column.table.lower()
        candidates = {key: node.alias_or_name or key for key, (node, _) in selected.items()}
        # Aliases are short (T1, T2): too short for similarity, and few, so all of them are the suggestions.
        suggestions = _closest(qualifier, candidates) or sorted(candidates.values())[:_SUGGESTIONS]
        said = {"name": column.table, "names": ", ".join(suggestions)}
        if suggestions:
            message = gettext("no table or alias named %(name)s in this query; this query names %(names)s") % said
        else:
            message = gettext("no table or alias named %(name)s in this query") % said
        table_identifier = column.args.get("table")
        self.report.error(
            "unknown_table",
            message,
            _span(table_identifier),
            suggestions,
        )

    def check_plain_column(
        self, scope: Scope, selected: dict, column: exp.Column, output_aliases: set, using: set
    ) -> None:
        """An unqualified column: exactly one source of this query must have it (or a USING or NATURAL join share
        it), else an alias of the output or an enclosing query's column; a double-quoted unknown name is a string."""
        name = column.name.lower()
        owners = []
        unknown_source = False
        for key, (node, source) in selected.items():
            provided = self.source_columns(source)
            if provided is _UNKNOWN:
                unknown_source = True
            elif name in provided:
                owners.append(node.alias_or_name or key)
        if len(owners) == 1 or (owners and ("*" in using or name in using)):
            return
        if len(owners) > 1:
            self.report.error(
                "ambiguous_column",
                gettext("%(name)s is in %(tables)s: qualify it (for example %(example)s)")
                % {"name": column.name, "tables": ", ".join(owners), "example": f"{owners[0]}.{column.name}"},
                _span(column),
                [f"{owner}.{column.name}" for owner in owners],
            )
            return
        if unknown_source or name in output_aliases or self.found_outside(scope, name):
            return
        span = _span(column)
        if span and self.sql[span[0] : span[0] + 1] == '"':
            self.report.warning(
                "string_literal",
                gettext(
                    "\"%(name)s\" is not a column, so SQLite reads it as the string '%(name)s'; write strings in "
                    "single quotes"
                )
                % {"name": column.name},
                span,
            )
            return
        self.report_unknown_column(selected, column, span)

    def report_unknown_column(self, selected: dict, column: exp.Column, span) -> None:
        name = column.name.lower()
        candidates: dict[str, str] = {}
        for _, source in selected.values():
            provided = self.source_columns(source)
            if provided:
                candidates.update(provided)
        suggestions = _closest(name, candidates) if candidates else _closest(name, self.all_columns())
        elsewhere = self.index.column_tables.get(name)
        said = {"name": column.name, "names": ", ".join(suggestions), "tables": ", ".join(elsewhere or ())}
        if suggestions and elsewhere:
            message = gettext(
                "no column named %(name)s; did you mean %(names)s? (%(name)s is a column of %(tables)s, not of this "
                "FROM clause)"
            )
        elif suggestions:
            message = gettext("no column named %(name)s; did you mean %(names)s?")
        elif elsewhere:
            message = gettext("no column named %(name)s (%(name)s is a column of %(tables)s, not of this FROM clause)")
        else:
            message = gettext("no column named %(name)s")
        self.report.error("unknown_column", message % said, span, suggestions)

    def find_source(self, scope: Scope, qualifier: str):
        """The source a qualifier names in this scope or an enclosing one (correlated subqueries)."""
        current = scope
        while current is not None:
            for key, value in current.sources.items():
                if key.lower() == qualifier:
                    return value, current
            current = current.parent
        return None, None

    def found_outside(self, scope: Scope, name: str) -> bool:
        current = scope.parent
        while current is not None:
            for _, source in self.selected(current).values():
                provided = self.source_columns(source)
                if provided is _UNKNOWN or name in provided:
                    return True
            current = current.parent
        return False

    def all_columns(self) -> dict[str, str]:
        merged: dict[str, str] = {}
        for table, columns in self.index.columns.items():
            if table not in _INTERNAL_TABLES:
                merged.update(columns)
        return merged
