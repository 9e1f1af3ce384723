"""What a query asks, read from the syntax tree (`_QueryBuilder`) into the described query of `query.py`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sqlglot import expressions as exp

from annotation.sql.spider import unwrap_paren
from annotation.wording.english import word_set as _word_set
from annotation.wording.english import words_of as _words_of
from annotation.wording.response_drafts.items import (
    _AGGREGATES,
    _ARITHMETIC,
    _COMPARISONS,
    _Cond,
    _Item,
    _item_words,
    _literal,
)
from annotation.wording.response_drafts.names import _Col, _Names, _role, _Table
from annotation.wording.response_drafts.query import _Select, _SetQuery

_SELECT_PARTS = frozenset(
    {"expressions", "distinct", "from_", "from", "joins", "where", "group", "having", "order", "limit"}
)


@dataclass
class _Scope:
    names: _Names
    parent: _Scope | None
    tables: list[_Table] = field(default_factory=list)
    aliases: dict[str, _Table] = field(default_factory=dict)
    select_aliases: dict[str, exp.Expr] = field(default_factory=dict)

    def table_named(self, qualifier: str) -> _Table | None:
        scope: _Scope | None = self
        while scope is not None:
            table = scope.aliases.get(qualifier.lower())
            if table is not None:
                return table
            scope = scope.parent
        return None

    def table_of_column(self, name: str) -> _Table | None:
        scope: _Scope | None = self
        while scope is not None:
            for table in scope.tables:
                if table.sub is None and self.names.has_column(table, name):
                    return table
            scope = scope.parent
        return self.tables[0] if self.tables else None


class _QueryBuilder:
    def __init__(self, names: _Names) -> None:
        self.names = names

    def query(self, node: exp.Expr, parent: _Scope | None, *, in_set: bool = False):
        while isinstance(node, exp.Subquery | exp.Paren):
            node = node.this
        if isinstance(node, exp.Select):
            return self.select(node, parent, in_set=in_set)
        operator = {exp.Union: "union", exp.Intersect: "intersect", exp.Except: "except"}.get(type(node))
        if operator is None:
            raise ValueError(f"not a query: {node.key}")  # i18n-exempt: the generic draft is given instead
        described = _SetQuery(
            operator, self.query(node.this, parent, in_set=True), self.query(node.expression, parent, in_set=True)
        )
        described.order, described.limit = self._order_and_limit(node, None)
        return described

    def select(self, node: exp.Select, parent: _Scope | None, *, in_set: bool = False) -> _Select:
        unread = [key for key, value in node.args.items() if value and key not in _SELECT_PARTS]
        if unread:
            # WITH, OFFSET, window clauses...: describing the rest would leave something out, which is worse than
            # the generic draft.
            raise ValueError(f"cannot describe {', '.join(unread)}")  # i18n-exempt: the generic draft is given instead
        scope = _Scope(self.names, parent)
        from_ = node.args.get("from_") or node.args.get("from")
        sources = [from_.this] if from_ is not None else []
        sources += [join.this for join in node.args.get("joins") or []]
        for position, source in enumerate(sources):
            table = self._source(source, scope, position)
            scope.tables.append(table)
            alias = source.alias if isinstance(source, exp.Table | exp.Subquery) else ""
            scope.aliases[(alias or table.key).lower()] = table
            scope.aliases.setdefault(table.key, table)
        described = _Select(scope.tables, names=self.names, in_set=in_set)
        for join in node.args.get("joins") or []:
            self._read_join(join.args.get("on"), scope, described)
        for expression in node.expressions:
            if isinstance(expression, exp.Alias):
                scope.select_aliases[expression.alias.lower()] = expression.this
                expression = expression.this
            described.items.append(self.item(expression, scope))
        distinct = node.args.get("distinct")
        described.distinct = distinct is not None
        where = node.args.get("where")
        if where is not None:
            described.where = self.conditions(where.this, scope)
        group = node.args.get("group")
        if group is not None:
            for expression in group.expressions:
                item = self.item(expression, scope)
                if item.column is not None:
                    described.group.append(item.column)
        having = node.args.get("having")
        if having is not None:
            described.having = self.conditions(having.this, scope)
        described.order, described.limit = self._order_and_limit(node, scope)
        if not described.tables or not described.items:
            raise ValueError(  # i18n-exempt: the generic draft is given instead
                "a query without tables has nothing to describe"
            )
        described.settle()
        return described

    def _read_join(self, on: exp.Expr | None, scope: _Scope, described: _Select) -> None:
        """What a join's ON says beyond the declared keys: which side refers to which (a column equal to the other
        table's own key refers to it, declared or not), and the role a joined row plays when the referring column
        names one ("destination airport" for airports joined on flights.DestAirport)."""
        for equal in on.find_all(exp.EQ) if on is not None else []:
            left, right = unwrap_paren(equal.this), unwrap_paren(equal.expression)
            if not isinstance(left, exp.Column) or not isinstance(right, exp.Column):
                continue
            pair = (self.column(left, scope), self.column(right, scope))
            for (child, parent), parent_node in ((pair, right), (pair[::-1], left)):
                if child.table is None or parent.table is None or child.table.sub or parent.table.sub:
                    continue
                if child.table is parent.table or parent.identifies is not parent.table:
                    continue
                if child.identifies is child.table and not set(child.name.split()) <= _word_set(parent.table.name):
                    continue  # key to key: only a key named after the other table (flights.airline) refers to it
                described.on_refs.add((child.table.key, parent.table.key))
                role = _role(child.name, parent.table)
                if role and not parent.table.role:
                    self._give_role(scope, parent_node, parent.table, role)
                elif child.via and not parent.table.via:
                    self._give_role(scope, parent_node, parent.table, "", via=child.via)

    @staticmethod
    def _give_role(scope: _Scope, node: exp.Column, table: _Table, role: str, via: str = "") -> None:
        """`table` plays `role` in this query (or is reached `via` a verb phrase): every name it goes by in the scope
        now gives it."""
        named = replace(table, role=role) if role else replace(table, via=via)
        for alias, value in list(scope.aliases.items()):
            if value is table:
                scope.aliases[alias] = named
        scope.tables[:] = [named if value is table else value for value in scope.tables]

    def _source(self, source: exp.Expr, scope: _Scope, position: int) -> _Table:
        if isinstance(source, exp.Table) and isinstance(source.this, exp.Identifier):
            return self.names.table(source.name)
        if isinstance(source, exp.Subquery):
            inner = self.query(source.this, scope)
            return _Table(f"(nested {position})", "row", inner)
        raise ValueError(f"unsupported FROM item: {source.key}")  # i18n-exempt: the generic draft is given instead

    def _order_and_limit(self, node: exp.Expr, scope: _Scope | None) -> tuple[list, int | None]:
        order = []
        clause = node.args.get("order")
        for ordered in clause.expressions if clause is not None else []:
            target = ordered.this
            if scope is not None and isinstance(target, exp.Column) and not target.table:
                target = scope.select_aliases.get(target.name.lower(), target)
            item = self.item(target, scope) if scope is not None else self._set_order_item(target)
            order.append((item, bool(ordered.args.get("desc"))))
        limit = None
        limit_clause = node.args.get("limit")
        if limit_clause is not None:
            amount = limit_clause.expression
            if isinstance(amount, exp.Literal) and not amount.is_string and amount.this.isdigit():
                limit = int(amount.this)
        return order, limit

    def _set_order_item(self, node: exp.Expr) -> _Item:
        """An ORDER BY after a set operation: a column of the result, named as the schema names it."""
        if not isinstance(node, exp.Column) or isinstance(node.this, exp.Star):
            raise ValueError("cannot say this order in words")  # i18n-exempt: the generic draft is given instead
        tables = [self.names.table(name) for name in self.names.tables]
        owner = next((table for table in tables if self.names.has_column(table, node.name)), None)
        return _Item("column", self.names.column(owner, node.name))

    # -- expressions --------------------------------------------------------------------------------------------

    def item(self, node: exp.Expr, scope: _Scope) -> _Item:
        node = unwrap_paren(node)
        if isinstance(node, exp.Star):
            return _Item("star")
        if isinstance(node, exp.Column):
            if isinstance(node.this, exp.Star):
                return _Item("star")
            return _Item("column", self.column(node, scope))
        if isinstance(node, exp.Literal) and node.is_string:
            # A double-quoted name where only a column can stand names a column in the datasets' dialect.
            table = scope.table_of_column(node.this)
            return _Item("column", self.names.column(table, node.this) if table else _Col(_words_of(node.this), None))
        function = _AGGREGATES.get(type(node))
        if function is not None:
            argument = node.this
            distinct = isinstance(argument, exp.Distinct)
            if distinct:
                argument = argument.expressions[0] if argument.expressions else exp.Star()
            inner = self.item(argument, scope) if argument is not None else _Item("star")
            return _Item("aggregate", inner.column, function, distinct, inner.text)
        if isinstance(node, exp.Distinct) and node.expressions:
            inner = self.item(node.expressions[0], scope)
            inner.distinct = True
            return inner
        operator = _ARITHMETIC.get(type(node))
        if operator is not None:
            left, right = self.item(node.this, scope), self.item(node.expression, scope)
            return _Item("computed", left.column, text=f"{_item_words(left)} {operator} {_item_words(right)}")
        if isinstance(node, exp.Literal | exp.Neg):
            return _Item("computed", text=_literal(node))
        columns = list(node.find_all(exp.Column))
        if columns:
            column = self.column(columns[0], scope)
            return _Item("computed", column, text=f"value computed from the {column.name}")
        return _Item("computed", text="a computed value")

    def column(self, node: exp.Column, scope: _Scope) -> _Col:
        table = scope.table_named(node.table) if node.table else scope.table_of_column(node.name)
        if node.table and table is None:
            table = self.names.table(node.table)
        if table is not None and table.sub is not None:
            return _Col(_words_of(node.name), table)
        return self.names.column(table, node.name)

    def conditions(self, node: exp.Expr, scope: _Scope) -> list:
        """A flat list `[cond, "and"|"or", cond, ...]`: the Spider format is flat too, and so are most sentences."""
        node = unwrap_paren(node)
        if isinstance(node, exp.And | exp.Or):
            left = self.conditions(node.this, scope)
            right = self.conditions(node.expression, scope)
            if not left or not right:
                return left or right
            return [*left, "and" if isinstance(node, exp.And) else "or", *right]
        condition = self.condition(node, scope, negated=False)
        return [condition] if condition is not None else []

    def condition(self, node: exp.Expr, scope: _Scope, *, negated: bool) -> _Cond | None:
        node = unwrap_paren(node)
        if isinstance(node, exp.Not):
            return self.condition(node.this, scope, negated=not negated)
        if isinstance(node, exp.Boolean):
            return None
        op = _COMPARISONS.get(type(node))
        if op is not None:
            right = node.expression
            right = unwrap_paren(right)
            if isinstance(right, exp.Column):
                left = self.item(node.this, scope)
                other = self.item(right, scope)
                if left.column is not None and other.column is not None and left.column.table != other.column.table:
                    return None  # a join written in WHERE: how tables connect, not a filter on the rows
                return _Cond(left, op, [f"the {_item_words(other)}"], negated=negated)
            return self._compare(self.item(node.this, scope), op, right, scope, negated)
        if isinstance(node, exp.Like):
            pattern = _literal(node.expression)
            return _Cond(
                self.item(node.this, scope), "like", like=pattern, negated=negated ^ bool(node.args.get("negate"))
            )
        if isinstance(node, exp.Between):
            values = [_literal(node.args["low"]), _literal(node.args["high"])]
            return _Cond(self.item(node.this, scope), "between", values, negated=negated)
        if isinstance(node, exp.Is):
            return _Cond(self.item(node.this, scope), "is", negated=negated)
        if isinstance(node, exp.In):
            return self._membership(node, scope, negated)
        if isinstance(node, exp.Exists):
            return _Cond(None, "exists", negated=negated, subquery=self.query(node.this, scope))
        raise ValueError(  # i18n-exempt: the generic draft is given instead
            f"cannot say the condition {node.key} in words"
        )

    def _compare(self, item: _Item, op: str, right: exp.Expr, scope: _Scope, negated: bool) -> _Cond:
        if isinstance(right, exp.Subquery | exp.Select | exp.SetOperation):
            return _Cond(item, op, negated=negated, subquery=self.query(right, scope))
        return _Cond(item, op, [_literal(right)], negated=negated)

    def _membership(self, node: exp.In, scope: _Scope, negated: bool) -> _Cond:
        item = self.item(node.this, scope)
        query = node.args.get("query")
        if query is None and len(node.expressions) == 1:
            only = node.expressions[0]
            only = unwrap_paren(only)
            if isinstance(only, exp.Select | exp.Subquery | exp.SetOperation):
                query = only
        if query is None:
            return _Cond(item, "in", [_literal(value) for value in node.expressions], negated=negated)
        inner = self.query(query, scope)
        side_of = None
        if isinstance(inner, _Select) and len(inner.items) == 1 and inner.items[0].column is not None:
            selected = inner.items[0].column
            if selected.table is not None and self.names.second_side(selected.table, selected) is not None:
                side_of = selected.identifies
        return _Cond(item, "in", negated=negated, subquery=inner, have=self._had_table(item, inner), side_of=side_of)

    def _had_table(self, item: _Item, inner) -> _Table | None:
        """`key IN (SELECT key FROM other ...)` asks which rows have a matching row in `other`: the table to say
        "that have a ..." of, or None when the subquery is not that shape."""
        if not isinstance(inner, _Select) or inner.group or len(inner.items) != 1 or item.column is None:
            return None
        selected = inner.items[0].column
        if inner.items[0].kind != "column" or selected is None:
            return None
        outer = item.column.table
        if not (item.column.identifies or selected.identifies or selected == item.column):
            return None
        others = [table for table in inner.tables if table != outer and table.sub is None]
        had = self.names.as_rows_of(others[-1], outer) if others else None
        if had is not None and item.column.identifies == had and not had.role:
            role = _role(item.column.name, had)  # routes whose dst_apid is among airports': "a destination airport"
            return replace(had, role=role) if role else had
        return had
