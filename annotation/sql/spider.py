"""Encode SQL into the Spider annotation protocol (the `sql` field of Spider, SParC, CoSQL and CHASE).

The format is documented in docs/formats.md ("Parsed SQL"). Parsing is done by sqlglot; this module only walks the
syntax tree and maps names to the integer ids of one `tables.json` entry. The format is flatter than SQL, so a few
SQL shapes are folded the way the public releases fold them:

- conditions are a flat list joined by "and"/"or" with no grouping, so parentheses around boolean groups are dropped;
- ORDER BY keeps one direction for all keys: the last one written, "asc" when none is;
- set operations chain to the right (`A UNION B EXCEPT C` is A.union = B, B.except = C), and an ORDER BY/LIMIT after
  the last SELECT of a set operation belongs to that SELECT;
- `a != b` may be written `! =`, `> =`, `< =` (spaces inside the operator occur in the CoSQL/SParC releases), and
  unmatched closing parentheses at the end of a query are ignored;
- after a condition whose right-hand side is a column, OR branches up to the next AND are dropped, as the releases
  and the official evaluator do (see `_drop_or_after_column_value`);
- `IS NULL` has the value "null" (no quotes inside), EXISTS has `*` as its left operand, and a subquery in FROM is a
  `["sql", {...}]` table unit whose columns cannot be referenced from outside.

Double-quoted text is a string value, as in the datasets; quote identifiers with backticks or brackets. Where only a
column can stand (SELECT items, GROUP BY, left-hand sides), a string that names a column is read as that column.
Anything else the format cannot hold raises `SpiderEncodingError`.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from sqlglot import expressions as exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.dialects.sqlite import SQLite
from sqlglot.errors import ParseError, TokenError
from sqlglot.parser import Parser
from sqlglot.tokens import Token, Tokenizer, TokenType

from annotation.plumbing.i18n import gettext as _

__all__ = [
    "or_branches",
    "unwrap_paren",
    "AGG_OPS",
    "DIALECT",
    "LIMIT_MODES",
    "UNIT_OPS",
    "WHERE_OPS",
    "SpiderEncodingError",
    "encode_sql",
    "parse_sql",
    "query_toks_no_value",
]

AGG_OPS = ("none", "max", "min", "count", "sum", "avg")
UNIT_OPS = ("none", "-", "+", "*", "/")
WHERE_OPS = ("not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists")
LIMIT_MODES = ("value", "one")

_AGG_IDS = {
    node: AGG_OPS.index(name)
    for node, name in ((exp.Max, "max"), (exp.Min, "min"), (exp.Count, "count"), (exp.Sum, "sum"), (exp.Avg, "avg"))
}
_UNIT_OP_IDS = {
    node: UNIT_OPS.index(op) for node, op in ((exp.Sub, "-"), (exp.Add, "+"), (exp.Mul, "*"), (exp.Div, "/"))
}
_COMPARISON_OP_IDS = {
    node: WHERE_OPS.index(op)
    for node, op in ((exp.EQ, "="), (exp.GT, ">"), (exp.LT, "<"), (exp.GTE, ">="), (exp.LTE, "<="), (exp.NEQ, "!="))
}
_OP_BETWEEN, _OP_IN, _OP_LIKE, _OP_IS, _OP_EXISTS = (
    WHERE_OPS.index(op) for op in ("between", "in", "like", "is", "exists")
)
_SET_OPS = {exp.Intersect: "intersect", exp.Union: "union", exp.Except: "except"}
_SELECT_ARGS_WE_ENCODE = frozenset(
    {"expressions", "distinct", "from_", "joins", "where", "group", "having", "order", "limit"}
)


class SpiderEncodingError(ValueError):
    """The SQL cannot be written in the Spider `sql` format (syntax error, unknown name or unsupported construct)."""


class _SpiderDialect(SQLite):
    # The datasets write string values in double quotes ("France"), which SQLite would read as identifiers.
    class Tokenizer(SQLite.Tokenizer):
        QUOTES = ["'", '"']
        IDENTIFIERS = ["`", ("[", "]")]


_DIALECT = _SpiderDialect()
_TOOLS = threading.local()


def parsing_tools(dialect: Dialect = _DIALECT) -> tuple[Tokenizer, Parser]:
    """This thread's tokenizer and parser of `dialect` (the releases' by default). Both keep per-call state, so they
    are not shared between threads; building them costs more than tokenizing a short query (a fresh tokenizer per
    query was 4 % of a CoSQL-size export), so they are not built per call either."""
    tools = getattr(_TOOLS, "by_dialect", None)
    if tools is None:
        tools = _TOOLS.by_dialect = {}
    pair = tools.get(id(dialect))
    if pair is None:
        pair = tools[id(dialect)] = (dialect.tokenizer(), dialect.parser())
    return pair


# ---------------------------------------------------------------------------------------------------------------
# Schema lookup
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _SchemaIndex:
    db_id: str
    table_ids: dict[str, int]
    column_ids: dict[tuple[int, str], int]


# Keyed by id() with the schema kept alive in the value, so the id cannot be reused by another dict while cached.
_SCHEMA_CACHE: dict[int, tuple[dict, _SchemaIndex]] = {}
_SCHEMA_CACHE_SIZE = 512
_SCHEMA_CACHE_LOCK = threading.Lock()


def _schema_index(schema: dict) -> _SchemaIndex:
    cached = _SCHEMA_CACHE.get(id(schema))
    if cached is not None and cached[0] is schema:
        return cached[1]
    try:
        table_names = schema["table_names_original"]
        column_names = schema["column_names_original"]
    except (KeyError, TypeError) as error:
        raise SpiderEncodingError(
            _("the schema is not a tables.json entry (it has no %(field)s)") % {"field": error}
        ) from None
    table_ids: dict[str, int] = {}
    for table_id, name in enumerate(table_names):
        table_ids.setdefault(name.lower(), table_id)
    column_ids: dict[tuple[int, str], int] = {}
    for column_id, (table_id, name) in enumerate(column_names):
        if table_id >= 0:
            column_ids.setdefault((table_id, name.lower()), column_id)
    index = _SchemaIndex(schema.get("db_id", "?"), table_ids, column_ids)
    with _SCHEMA_CACHE_LOCK:
        if len(_SCHEMA_CACHE) >= _SCHEMA_CACHE_SIZE:
            _SCHEMA_CACHE.pop(next(iter(_SCHEMA_CACHE)))
        _SCHEMA_CACHE[id(schema)] = (schema, index)
    return index


@dataclass
class _Scope:
    """Names visible inside one SELECT: its FROM tables (in order) and, for correlated subqueries, the outer ones."""

    index: _SchemaIndex
    parent: _Scope | None = None
    names: dict[str, int] = field(default_factory=dict)
    table_order: list[int] = field(default_factory=list)
    select_aliases: dict[str, exp.Expr] = field(default_factory=dict)

    def table_for(self, qualifier: str) -> int:
        scope: _Scope | None = self
        while scope is not None:
            table_id = scope.names.get(qualifier)
            if table_id is not None:
                return table_id
            scope = scope.parent
        raise SpiderEncodingError(
            _("unknown table or alias %(name)s in database %(db_id)s")
            % {"name": repr(qualifier), "db_id": repr(self.index.db_id)}
        )

    def column_id(self, name: str, qualifier: str | None) -> int:
        if name == "*":
            return 0
        column_ids = self.index.column_ids
        if qualifier is not None:
            table_id = self.table_for(qualifier)
            column_id = column_ids.get((table_id, name))
            if column_id is None:
                raise SpiderEncodingError(
                    _("unknown column %(name)s in database %(db_id)s")
                    % {"name": f"{qualifier}.{name}", "db_id": repr(self.index.db_id)}
                )
            return column_id
        # An unqualified name belongs to the first FROM table that has it, then to enclosing queries.
        scope: _Scope | None = self
        while scope is not None:
            for table_id in scope.table_order:
                column_id = column_ids.get((table_id, name))
                if column_id is not None:
                    return column_id
            scope = scope.parent
        raise SpiderEncodingError(
            _("unknown column %(name)s in the FROM tables (database %(db_id)s)")
            % {"name": repr(name), "db_id": repr(self.index.db_id)}
        )


# ---------------------------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------------------------

_SPLIT_OPERATORS = {
    (TokenType.NOT, TokenType.EQ): (TokenType.NEQ, "!="),
    (TokenType.GT, TokenType.EQ): (TokenType.GTE, ">="),
    (TokenType.LT, TokenType.EQ): (TokenType.LTE, "<="),
    (TokenType.LT, TokenType.GT): (TokenType.NEQ, "<>"),
}


def _repair_tokens(tokens: list[Token]) -> list[Token]:
    repaired: list[Token] = []
    for token in tokens:
        if repaired and token.token_type in (TokenType.EQ, TokenType.GT):
            previous = repaired[-1]
            merged = _SPLIT_OPERATORS.get((previous.token_type, token.token_type))
            # Only adjacent symbols merge: "NOT =" written as a keyword is not "!=".
            if merged is not None and (previous.token_type != TokenType.NOT or previous.text == "!"):
                repaired[-1] = Token(merged[0], merged[1], previous.line, previous.col, previous.start, token.end)
                continue
        repaired.append(token)
    while repaired and repaired[-1].token_type == TokenType.SEMICOLON:
        repaired.pop()
    depth = 0
    for token in repaired:
        if token.token_type == TokenType.L_PAREN:
            depth += 1
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1
    while depth < 0 and repaired and repaired[-1].token_type == TokenType.R_PAREN:
        repaired.pop()
        depth += 1
    return repaired


# sqlglot underlines the offending token of a syntax error with terminal colour codes (ESC [4m ... ESC [0m).
_TERMINAL_CODES = re.compile(r"\x1b\[[0-9;]*m")


def plain_error_text(error: Exception) -> str:
    """The message of a sqlglot error without its terminal colour codes: the message ends up in JSON reports
    (export_report.json), web pages and the chat, where the codes are garbage."""
    return _TERMINAL_CODES.sub("", str(error))


# The dialect the releases' SQL is read in (SQLite with the releases' quirks), for other readers of that SQL.
DIALECT = _DIALECT


def parse_sql(sql: str) -> exp.Expr:
    """Parse one statement of dataset SQL into a sqlglot tree, as the encoder reads it; SpiderEncodingError for a
    syntax error or anything but exactly one statement."""
    return _parse(sql)


# An operator written with a space or a comment inside (`! =`, `> =`, `< >`): such a query fails to parse unrepaired,
# so it goes to the repair at once.
_SPLIT_OPERATOR = re.compile(r"[!<>]\s+[=>]|[!<>]\s*(?:--|/\*)")


def _parse(sql: str) -> exp.Expr:
    """Most queries parse as written. The repair (merging `! =`, dropping trailing `;` and unmatched `)`) walks every
    token in Python and costs a third of a parse, so it runs only for a query with a split operator or one that fails
    to parse unrepaired; that path also words every error, so trees and messages are those of the repaired parse
    (the samples' 1,385 queries without a split operator give equal trees both ways)."""
    tokenizer, parser = parsing_tools()
    if _SPLIT_OPERATOR.search(sql) is None:
        try:
            statements = [tree for tree in parser.parse(tokenizer.tokenize(sql), sql) if tree is not None]
        except (ParseError, TokenError):
            statements = []
        if len(statements) == 1:
            return statements[0]
    try:
        tokens = _repair_tokens(tokenizer.tokenize(sql))
        statements = parser.parse(tokens, sql)
    except (ParseError, TokenError) as error:
        raise SpiderEncodingError(_("SQL syntax error: %(error)s") % {"error": plain_error_text(error)}) from None
    statements = [statement for statement in statements if statement is not None]
    if len(statements) != 1:
        raise SpiderEncodingError(_("expected one SQL statement, found %(count)d") % {"count": len(statements)})
    return statements[0]


# ---------------------------------------------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------------------------------------------


def encode_sql(sql: str, schema: dict, *, limit_mode: str = "value") -> dict:
    """Return the Spider `sql` dict of `sql` on the database described by `schema` (one tables.json entry).

    Names match case-insensitively. `limit_mode="value"` writes the LIMIT integer (Spider dev.json);
    `limit_mode="one"` writes 1 whenever a LIMIT exists (the SParC/CoSQL releases). Raises SpiderEncodingError when
    the SQL does not parse, names an unknown table or column, or uses a construct the format cannot hold.
    The name lookup built from `schema` is cached per dict object, so pass a new dict after changing a schema.
    """
    if limit_mode not in LIMIT_MODES:
        raise ValueError(f"limit_mode must be one of {LIMIT_MODES}, not {limit_mode!r}")  # i18n-exempt: a caller's bug
    index = _schema_index(schema)
    tree = _parse(sql)
    return _Encoder(index, limit_mode == "one").query(tree, None)


class _Encoder:
    def __init__(self, index: _SchemaIndex, limit_is_one: bool) -> None:
        self.index = index
        self.limit_is_one = limit_is_one

    # -- queries ------------------------------------------------------------------------------------------------

    def query(self, node: exp.Expr, parent: _Scope | None) -> dict:
        while isinstance(node, exp.Subquery):
            self._reject_extra_args(node, {"this"}, "subquery")
            node = node.this
        if isinstance(node, exp.Select):
            return self.select(node, parent, None, None)
        if type(node) in _SET_OPS:
            return self.set_operation(node, parent)
        raise SpiderEncodingError(_("expected a SELECT query, found %(kind)s") % {"kind": node.key.upper()})

    def set_operation(self, node: exp.Expr, parent: _Scope | None) -> dict:
        selects: list[exp.Expr] = []
        operators: list[str] = []
        self._flatten_set_operation(node, selects, operators, is_root=True)
        # An ORDER BY/LIMIT written after the last SELECT is attached by sqlglot to the set operation itself.
        order, limit = node.args.get("order"), node.args.get("limit")
        encoded = self.select(selects[-1], parent, order, limit)
        for select, operator in zip(reversed(selects[:-1]), reversed(operators), strict=True):
            outer = self.select(select, parent, None, None)
            outer[operator] = encoded
            encoded = outer
        return encoded

    def _flatten_set_operation(self, node: exp.Expr, selects: list, operators: list, *, is_root: bool) -> None:
        while isinstance(node, exp.Subquery):
            node = node.this
        operator = _SET_OPS.get(type(node))
        if operator is None:
            if not isinstance(node, exp.Select):
                raise SpiderEncodingError(
                    _("expected a SELECT in a set operation, found %(kind)s") % {"kind": node.key.upper()}
                )
            selects.append(node)
            return
        if not is_root and (node.args.get("order") or node.args.get("limit")):
            # The chain has one place for them: the last SELECT. A grouped inner set operation has none.
            raise SpiderEncodingError(_("ORDER BY or LIMIT on a nested set operation is not supported"))
        self._reject_extra_args(node, {"this", "expression", "distinct", "order", "limit"}, operator)
        if not node.args.get("distinct"):
            # The format has no ALL; encoding it as a plain set operation would change the result.
            raise SpiderEncodingError(_("%(operator)s ALL is not supported") % {"operator": operator.upper()})
        self._flatten_set_operation(node.this, selects, operators, is_root=False)
        operators.append(operator)
        self._flatten_set_operation(node.expression, selects, operators, is_root=False)

    def select(self, node: exp.Select, parent: _Scope | None, order: exp.Expr | None, limit: exp.Expr | None) -> dict:
        self._reject_extra_args(node, _SELECT_ARGS_WE_ENCODE, "SELECT")
        if (order is not None and node.args.get("order")) or (limit is not None and node.args.get("limit")):
            raise SpiderEncodingError(_("ORDER BY or LIMIT both inside and after a set operation is not supported"))
        order = order if order is not None else node.args.get("order")
        limit = limit if limit is not None else node.args.get("limit")

        scope = _Scope(self.index, parent)
        table_units, from_conds = self.from_clause(node, scope)
        distinct = node.args.get("distinct")
        if distinct is not None and distinct.args.get("on"):
            raise SpiderEncodingError(_("DISTINCT ON is not supported"))
        select_items = []
        for item in node.expressions:
            if isinstance(item, exp.Alias):
                scope.select_aliases[item.alias.lower()] = item.this
                item = item.this
            select_items.append(self.select_item(item, scope))
        where = node.args.get("where")
        group = node.args.get("group")
        having = node.args.get("having")
        return {
            "from": {"table_units": table_units, "conds": from_conds},
            "select": [distinct is not None, select_items],
            "where": self.conditions(where.this, scope) if where is not None else [],
            "groupBy": self.group_by(group, scope) if group is not None else [],
            "having": self.conditions(having.this, scope) if having is not None else [],
            "orderBy": self.order_by(order, scope) if order is not None else [],
            "limit": self.limit(limit) if limit is not None else None,
            "intersect": None,
            "union": None,
            "except": None,
        }

    def from_clause(self, node: exp.Select, scope: _Scope) -> tuple[list, list]:
        from_ = node.args.get("from_")
        if from_ is None:
            raise SpiderEncodingError(_("a SELECT without FROM cannot be encoded"))
        sources = [(from_.this, None)]
        for join in node.args.get("joins") or ():
            self._reject_extra_args(join, {"this", "on", "kind", "side"}, "JOIN")
            if join.args.get("side") or join.args.get("kind") not in (None, "INNER", "CROSS"):
                # The format has no join type; an outer join would silently read as an inner one.
                raise SpiderEncodingError(
                    _("%(kind)s JOIN is not supported") % {"kind": join.args.get("side") or join.args.get("kind")}
                )
            on = join.args.get("on")
            # sqlglot writes a JOIN without ON as `ON TRUE`; both mean "no join condition" here.
            if isinstance(on, exp.Boolean) and on.this:
                on = None
            sources.append((join.this, on))

        table_units: list = []
        conds: list = []
        for source, on in sources:
            if isinstance(source, exp.Table):
                self._reject_extra_args(source, {"this", "alias"}, "table")
                name = source.name.lower()
                table_id = self.index.table_ids.get(name)
                if table_id is None:
                    raise SpiderEncodingError(
                        _("unknown table %(name)s in database %(db_id)s")
                        % {"name": repr(source.name), "db_id": repr(self.index.db_id)}
                    )
                scope.names[name] = table_id
                if source.alias:
                    scope.names[source.alias.lower()] = table_id
                scope.table_order.append(table_id)
                table_units.append(["table_unit", table_id])
            elif isinstance(source, exp.Subquery):
                # A derived table's columns have no ids, so only the subquery itself is encoded.
                table_units.append(["sql", self.query(source.this, scope.parent)])
            else:
                raise SpiderEncodingError(_("unsupported FROM item %(sql)s") % {"sql": repr(source.sql())})
            if on is not None:
                join_conds = self.conditions(on, scope)
                if conds:
                    conds.append("and")
                conds.extend(join_conds)
        return table_units, conds

    # -- clauses ------------------------------------------------------------------------------------------------

    def select_item(self, node: exp.Expr, scope: _Scope) -> list:
        node = unwrap_paren(node)
        agg_id = _AGG_IDS.get(type(node))
        if agg_id is None:
            return [0, self.val_unit(node, scope)]
        argument, distinct = self._aggregate_argument(node)
        val_unit = self.val_unit(argument, scope)
        if distinct:
            val_unit[1][2] = True
        return [agg_id, val_unit]

    def group_by(self, node: exp.Group, scope: _Scope) -> list:
        self._reject_extra_args(node, {"expressions"}, "GROUP BY")
        return [self.col_unit(item, scope) for item in node.expressions]

    def order_by(self, node: exp.Order, scope: _Scope) -> list:
        direction = "asc"
        val_units = []
        for ordered in node.expressions:
            # desc is None when no direction is written; the format keeps only the last written one.
            if ordered.args.get("desc") is not None:
                direction = "desc" if ordered.args["desc"] else "asc"
            target = ordered.this
            if isinstance(target, exp.Column) and not target.table:
                aliased = scope.select_aliases.get(target.name.lower())
                if aliased is not None and not self._is_column(target, scope):
                    target = aliased
            val_units.append(self.val_unit(target, scope))
        return [direction, val_units]

    def limit(self, node: exp.Limit) -> int:
        if node.args.get("offset"):
            raise SpiderEncodingError(_("LIMIT with OFFSET is not supported"))
        value = node.expression
        if not isinstance(value, exp.Literal) or value.is_string:
            raise SpiderEncodingError(_("LIMIT must be an integer, found %(value)s") % {"value": repr(value.sql())})
        try:
            number = int(value.this)
        except ValueError:
            raise SpiderEncodingError(
                _("LIMIT must be an integer, found %(value)s") % {"value": repr(value.this)}
            ) from None
        return 1 if self.limit_is_one else number

    # -- conditions ---------------------------------------------------------------------------------------------

    def conditions(self, node: exp.Expr, scope: _Scope) -> list:
        flat: list = []
        self._flatten_conditions(node, scope, flat)
        return _drop_or_after_column_value(flat)

    def _flatten_conditions(self, node: exp.Expr, scope: _Scope, flat: list) -> None:
        node = unwrap_paren(node)
        if isinstance(node, exp.And | exp.Or):
            self._flatten_conditions(node.this, scope, flat)
            flat.append("and" if isinstance(node, exp.And) else "or")
            self._flatten_conditions(node.expression, scope, flat)
        else:
            flat.append(self.cond_unit(node, scope, False))

    def cond_unit(self, node: exp.Expr, scope: _Scope, negated: bool) -> list:
        node = unwrap_paren(node)
        if isinstance(node, exp.Not):
            return self.cond_unit(node.this, scope, not negated)
        op_id = _COMPARISON_OP_IDS.get(type(node))
        if op_id is not None:
            return [negated, op_id, self.val_unit(node.this, scope), self.value(node.expression, scope), None]
        if isinstance(node, exp.Like):
            negated ^= bool(node.args.get("negate"))
            if node.args.get("escape"):
                raise SpiderEncodingError(_("LIKE ... ESCAPE is not supported"))
            return [negated, _OP_LIKE, self.val_unit(node.this, scope), self.value(node.expression, scope), None]
        if isinstance(node, exp.In):
            return [negated, _OP_IN, self.val_unit(node.this, scope), self._in_value(node, scope), None]
        if isinstance(node, exp.Between):
            low = self.value(node.args["low"], scope)
            high = self.value(node.args["high"], scope)
            return [negated, _OP_BETWEEN, self.val_unit(node.this, scope), low, high]
        if isinstance(node, exp.Is):
            return [negated, _OP_IS, self.val_unit(node.this, scope), self.value(node.expression, scope), None]
        if isinstance(node, exp.Exists):
            # EXISTS has no left operand; the format still needs a val_unit there, so `*` stands in for it.
            return [negated, _OP_EXISTS, [0, [0, 0, False], None], self.query(node.this, scope), None]
        raise SpiderEncodingError(_("unsupported condition %(sql)s") % {"sql": repr(node.sql())})

    def _in_value(self, node: exp.In, scope: _Scope) -> dict:
        query = node.args.get("query")
        if query is not None:
            return self.query(query, scope)
        items = node.expressions
        if len(items) == 1 and isinstance(unwrap_paren(items[0]), exp.Select | exp.Subquery | exp.SetOperation):
            return self.query(unwrap_paren(items[0]), scope)
        raise SpiderEncodingError(_("IN with a list of values is not supported: %(sql)s") % {"sql": repr(node.sql())})

    def value(self, node: exp.Expr, scope: _Scope):
        """Right-hand side of a condition: a float, a quoted string, a nested sql dict or a col_unit."""
        if isinstance(node, exp.Paren):
            return self.value(node.this, scope)
        if isinstance(node, exp.Literal):
            if node.is_string:
                return f'"{node.this}"'
            return float(node.this)
        if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
            return -float(node.this.this)
        if isinstance(node, exp.Subquery | exp.Select | exp.SetOperation):
            return self.query(node, scope)
        if isinstance(node, exp.Null):
            # The releases have no NULL value; a bare word keeps it apart from the string '"null"'.
            return "null"
        if isinstance(node, exp.Boolean):
            # SQLite stores TRUE/FALSE as 1/0.
            return 1.0 if node.this else 0.0
        return self.col_unit(node, scope)

    # -- units --------------------------------------------------------------------------------------------------

    def val_unit(self, node: exp.Expr, scope: _Scope) -> list:
        node = unwrap_paren(node)
        unit_op = _UNIT_OP_IDS.get(type(node))
        if unit_op is None:
            return [0, self.col_unit(node, scope), None]
        return [unit_op, self.col_unit(node.this, scope), self.col_unit(node.expression, scope)]

    def col_unit(self, node: exp.Expr, scope: _Scope) -> list:
        node = unwrap_paren(node)
        agg_id = _AGG_IDS.get(type(node))
        if agg_id is not None:
            argument, distinct = self._aggregate_argument(node)
            return [agg_id, self.column(unwrap_paren(argument), scope), distinct]
        if isinstance(node, exp.Distinct):
            return [0, self.column(self._only(node.expressions, "DISTINCT"), scope), True]
        return [0, self.column(node, scope), False]

    def column(self, node: exp.Expr, scope: _Scope) -> int:
        if isinstance(node, exp.Star):
            return 0
        if isinstance(node, exp.Column):
            if node.args.get("db") or node.args.get("catalog"):
                raise SpiderEncodingError(_("unsupported column reference %(sql)s") % {"sql": repr(node.sql())})
            if isinstance(node.this, exp.Star):
                if node.table:
                    scope.table_for(node.table.lower())
                return 0
            qualifier = node.table.lower() if node.table else None
            return scope.column_id(node.name.lower(), qualifier)
        if isinstance(node, exp.Literal) and node.is_string:
            # "Home Town" is a string in the datasets' dialect, but where only a column can stand it names one.
            return scope.column_id(node.this.lower(), None)
        if isinstance(node, exp.Anonymous | exp.Func):
            raise SpiderEncodingError(
                _("unsupported function %(sql)s (only max, min, count, sum and avg)") % {"sql": repr(node.sql())}
            )
        raise SpiderEncodingError(_("expected a column, found %(sql)s") % {"sql": repr(node.sql())})

    # -- helpers ------------------------------------------------------------------------------------------------

    def _aggregate_argument(self, node: exp.Expr) -> tuple[exp.Expr, bool]:
        self._reject_extra_args(node, {"this", "big_int"}, node.key.upper())
        argument = node.this
        if argument is None:
            raise SpiderEncodingError(_("%(function)s needs an argument") % {"function": node.key.upper()})
        if isinstance(argument, exp.Distinct):
            return self._only(argument.expressions, "DISTINCT"), True
        return argument, False

    def _is_column(self, node: exp.Column, scope: _Scope) -> bool:
        try:
            self.column(node, scope)
        except SpiderEncodingError:
            return False
        return True

    @staticmethod
    def _only(items: list, what: str) -> exp.Expr:
        if len(items) != 1:
            raise SpiderEncodingError(_("%(what)s over several expressions is not supported") % {"what": what})
        return items[0]

    @staticmethod
    def _reject_extra_args(node: exp.Expr, allowed: set | frozenset, what: str) -> None:
        for key, value in node.args.items():
            if value and key not in allowed:
                raise SpiderEncodingError(
                    _("%(part)s in %(what)s is not supported: %(sql)s")
                    % {"part": key, "what": what, "sql": repr(node.sql())}
                )


def _drop_or_after_column_value(conditions: list) -> list:
    # The releases, and the official evaluator that re-parses gold SQL, read a column on the right-hand side greedily
    # up to the next AND, comma, parenthesis or keyword, so `ON a.x = b.y OR a.x = b.z` keeps only `a.x = b.y`.
    # Keeping the OR branch would break hardness and exact-match parity with the official tools.
    kept: list = []
    swallowing = False
    for position, item in enumerate(conditions):
        if position % 2:
            swallowing = swallowing and item == "or"
            if not swallowing:
                kept.append(item)
            continue
        if swallowing:
            continue
        kept.append(item)
        right_hand_side = item[4] if item[1] == _OP_BETWEEN else item[3]
        swallowing = isinstance(right_hand_side, list)
    return kept


def unwrap_paren(node: exp.Expr) -> exp.Expr:
    """The expression inside any number of parentheses (every reader of the parsed SQL looks through them)."""
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def or_branches(node: exp.Expr) -> list[exp.Expr]:
    """The disjuncts of a chain of ORs, left to right, each without its parentheses: `a OR (b OR c)` gives a, b, c."""
    branches = []
    pending = [node]
    while pending:
        current = unwrap_paren(pending.pop())
        if isinstance(current, exp.Or):
            pending.extend((current.expression, current.this))
        else:
            branches.append(current)
    return branches


# ---------------------------------------------------------------------------------------------------------------
# query_toks_no_value
# ---------------------------------------------------------------------------------------------------------------

# Quoted strings and numbers become "value"; words stay whole; every other character (operators included, so `>=`
# is two tokens) is a token by itself. This is what the public releases hold.
_QUERY_TOKEN = re.compile(r"""\s*(?:("[^"]*"|'[^']*')|(\d+(?:\.\d+)?)(?!\w)|(\w+)|(\S))""")


def query_toks_no_value(sql: str) -> list[str]:
    """Return the `query_toks_no_value` tokens of `sql`: lower-cased, with string and number literals as "value"."""
    tokens = []
    for match in _QUERY_TOKEN.finditer(sql.strip().rstrip(";").rstrip()):
        quoted, number, word, other = match.groups()
        if quoted is not None or number is not None:
            tokens.append("value")
        else:
            tokens.append((word or other).lower())
    return tokens


# Spider's `query_toks` keep a qualified column ("T1.stuid") whole and words in their own case.
_KEPT_TOKEN = re.compile(r"""\s*(?:("[^"]*"|'[^']*')|(\d+(?:\.\d+)?)(?!\w)|(\w+\.\w+|\w+)|(\S))""")


def query_toks(sql: str) -> list[str]:
    """Return the `query_toks` of `sql` as Spider's files hold them (words in their own case, "T1.name" whole), with
    one difference measured on the public sample: a quoted literal is one token with its quotes, where Spider's
    tokeniser split it at its closing quote ("'F", "'")."""
    return [
        next(part for part in match.groups() if part is not None)
        for match in _KEPT_TOKEN.finditer(sql.strip().rstrip(";").rstrip())
    ]
