"""The official text-to-SQL scores of one predicted query against its gold: exact set match on the Spider encoding,
and equality of two query results (the execution and test-suite metrics). docs/evaluation.md says how each rule
agrees with the public evaluator the SParC and CoSQL leaderboards use; this module is written from that description,
not from its code.

Exact set match compares the two encodings clause by clause, as sets where the clause is a set (SELECT items, WHERE
conditions, keywords), with values, DISTINCT and the LIMIT value ignored, and a foreign-key column read as the
column it points to when its table is in the FROM clause. Results are equal when a reordering of the columns makes
them the same bag of rows (the same list, when the gold has ORDER BY).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from typing import Any

__all__ = [
    "EMPTY_SQL",
    "exact_match",
    "foreign_key_map",
    "order_matters",
    "prepare_for_execution",
    "results_equal",
]

# What a prediction that cannot be encoded is compared as (it then matches no gold).
EMPTY_SQL = {
    "select": [False, []],
    "from": {"table_units": [], "conds": []},
    "where": [],
    "groupBy": [],
    "having": [],
    "orderBy": [],
    "limit": None,
    "intersect": None,
    "union": None,
    "except": None,
}

_OP_IN, _OP_LIKE = 8, 9
_SET_OPS = ("intersect", "except", "union")


# ---------------------------------------------------------------------------------------------------------------
# Exact set match
# ---------------------------------------------------------------------------------------------------------------


def foreign_key_map(schema: dict) -> dict[int, int]:
    """Each column in a foreign-key group (columns linked by foreign keys, transitively) mapped to the group's
    lowest column id: two queries that join on either end of a key then read the same."""
    groups: list[set[int]] = []
    for first, second in schema.get("foreign_keys", []):
        # As the evaluator groups them: a key joins the first group that holds either end, in the order listed.
        group = next((g for g in groups if first in g or second in g), None)
        if group is None:
            group = set()
            groups.append(group)
        group.update((first, second))
    mapped: dict[int, int] = {}
    for group in groups:
        lowest = min(group)
        for column in group:
            mapped[column] = lowest
    return mapped


def exact_match(predicted: dict, gold: dict, schema: dict, keys: dict[int, int] | None = None) -> bool:
    """True when `predicted` matches `gold` (both Spider `sql` dicts of `schema`, docs/formats.md) under exact set
    match: every clause agrees, values and DISTINCT ignored."""
    keys = foreign_key_map(schema) if keys is None else keys
    return _match(_Normal(schema, keys).top(predicted), _Normal(schema, keys).top(gold))


class _Normal:
    """An encoding rewritten for comparison: tuples (hashable, comparable), column ids as the names the evaluator
    compares, values dropped, DISTINCT dropped and foreign keys mapped where the evaluator does so."""

    def __init__(self, schema: dict, keys: dict[int, int]):
        self.tables = [name.lower() for name in schema["table_names_original"]]
        self.columns = [
            "__all__" if table < 0 else f"__{self.tables[table]}.{name.lower()}__"
            for table, name in schema["column_names_original"]
        ]
        self.column_table = [table for table, _ in schema["column_names_original"]]
        self.keys = keys

    def top(self, sql: dict) -> dict:
        """The top query and its set-operation chain: columns mapped through the keys of the tables in its FROM."""
        in_from = {unit for kind, unit in sql["from"]["table_units"] if kind == "table_unit"}
        return self._rewrite(sql, in_from)

    def _rewrite(self, sql: dict, in_from: set[int]) -> dict:
        def col(unit):
            if unit is None:
                return None
            agg, column, _distinct = unit
            if column in self.keys and self.column_table[column] in in_from:
                column = self.keys[column]
            return (agg, self.columns[column], None)

        # DISTINCT dropped; the chain is rewritten with the outer FROM's tables, as the evaluator does.
        return self._shape(sql, col, distinct=lambda flag: None, chain=lambda part: self._rewrite(part, in_from))

    def _plain_value(self, value):
        """A condition's value: dropped, unless it is a subquery, which keeps its own columns and DISTINCT."""
        return self._raw(value) if isinstance(value, dict) else None

    def _raw(self, sql: dict) -> dict:
        """A condition's subquery: names as the evaluator reads them and values dropped, but DISTINCT kept and no
        foreign key mapped (the evaluator rewrites columns in the top query and its set-operation chain only)."""

        def col(unit):
            return None if unit is None else (unit[0], self.columns[unit[1]], bool(unit[2]))

        return self._shape(sql, col, distinct=bool, chain=self._raw)

    def _shape(self, sql: dict, col, *, distinct, chain) -> dict:
        """One query as exact match compares it: its columns through `col`, its DISTINCT through `distinct`, values
        dropped (subqueries kept, `_plain_value`), and its set-operation chain through `chain`."""

        def val(unit):
            return None if unit is None else (unit[0], col(unit[1]), col(unit[2]))

        def condition(items):
            return [
                (item[0], item[1], val(item[2]), self._plain_value(item[3]), self._plain_value(item[4]))
                if index % 2 == 0
                else item
                for index, item in enumerate(items)
            ]

        order = sql["orderBy"]
        return {
            "select": (distinct(sql["select"][0]), [(agg, val(unit)) for agg, unit in sql["select"][1]]),
            "from": {
                "table_units": [self._table_unit(unit) for unit in sql["from"]["table_units"]],
                "conds": condition(sql["from"]["conds"]),
            },
            "where": condition(sql["where"]),
            "groupBy": [col(unit) for unit in sql["groupBy"]],
            "having": condition(sql["having"]),
            "orderBy": (order[0], [val(unit) for unit in order[1]]) if order else (),
            "limit": sql["limit"],
            **{name: chain(sql[name]) if sql[name] else None for name in _SET_OPS},
        }

    def _table_unit(self, unit):
        kind, item = unit
        if kind == "table_unit":
            return (kind, f"__{self.tables[item]}__")
        return (kind, _freeze(item))


def _freeze(value: Any):
    """Lists as tuples and dicts as sorted item tuples, all the way down: comparable and hashable."""
    if isinstance(value, dict):
        return tuple(sorted((key, _freeze(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(item) for item in value)
    return value


def _same_bag(first, second) -> bool:
    return Counter(map(_freeze, first)) == Counter(map(_freeze, second))


def _match(pred: dict, gold: dict) -> bool:
    return (
        _same_bag(pred["select"][1], gold["select"][1])
        and _same_bag(pred["where"][::2], gold["where"][::2])
        and _same_grouping(pred, gold)
        and _same_ordering(pred, gold)
        and set(pred["where"][1::2]) == set(gold["where"][1::2])
        and _same_set_operations(pred, gold)
        and _keywords(pred) == _keywords(gold)
        and (not gold["from"]["table_units"] or _same_bag(pred["from"]["table_units"], gold["from"]["table_units"]))
    )


def _same_grouping(pred: dict, gold: dict) -> bool:
    # GROUP BY without HAVING compares column names alone (the table is not read), as a bag.
    if not _same_bag(map(_column_name, pred["groupBy"]), map(_column_name, gold["groupBy"])):
        return False
    if bool(pred["groupBy"]) != bool(gold["groupBy"]):
        return False
    return not gold["groupBy"] or (
        [unit[1] for unit in pred["groupBy"]] == [unit[1] for unit in gold["groupBy"]]
        and _freeze(pred["having"]) == _freeze(gold["having"])
    )


def _same_ordering(pred: dict, gold: dict) -> bool:
    if bool(pred["orderBy"]) != bool(gold["orderBy"]):
        return False
    return not gold["orderBy"] or (
        _freeze(pred["orderBy"]) == _freeze(gold["orderBy"]) and (pred["limit"] is None) == (gold["limit"] is None)
    )


def _same_set_operations(pred: dict, gold: dict) -> bool:
    for name in _SET_OPS:
        if (pred[name] is None) != (gold[name] is None):
            return False
        if gold[name] is not None and not _match(pred[name], gold[name]):
            return False
    return True


def _column_name(unit) -> str:
    name = unit[1]
    return name.split(".")[1] if "." in name else name


def _keywords(sql: dict) -> set[str]:
    found = {name for name, clause in (("where", "where"), ("group", "groupBy"), ("having", "having")) if sql[clause]}
    if sql["orderBy"]:
        found.update(("order", sql["orderBy"][0]))
    if sql["limit"] is not None:
        found.add("limit")
    found.update(name for name in _SET_OPS if sql[name] is not None)
    connectors = sql["from"]["conds"][1::2] + sql["where"][1::2] + sql["having"][1::2]
    if "or" in connectors:
        found.add("or")
    units = sql["from"]["conds"][::2] + sql["where"][::2] + sql["having"][::2]
    if any(unit[0] for unit in units):
        found.add("not")
    if any(unit[1] == _OP_IN for unit in units):
        found.add("in")
    if any(unit[1] == _OP_LIKE for unit in units):
        found.add("like")
    return found


# ---------------------------------------------------------------------------------------------------------------
# Execution: what is run, and when two results are equal
# ---------------------------------------------------------------------------------------------------------------

# A string literal (either quote, doubled quotes inside) or the word DISTINCT.
_LITERAL_OR_DISTINCT = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\bdistinct\b", re.IGNORECASE)
_SPACED_OPERATORS = (("> =", ">="), ("< =", "<="), ("! =", "!="))
_CURRENT_YEAR = re.compile(r"YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*", re.IGNORECASE)


def prepare_for_execution(sql: str, *, keep_distinct: bool = False) -> str:
    """The query as the evaluator runs it: operators written with a space joined (`> =`), MySQL's current year
    read as 2020, and DISTINCT removed unless asked to keep it (outside string literals)."""
    for spaced, joined in _SPACED_OPERATORS:
        sql = sql.replace(spaced, joined)
    if not keep_distinct:
        sql = _LITERAL_OR_DISTINCT.sub(lambda m: m.group(0) if m.group(0)[0] in "'\"" else "", sql)
    return _CURRENT_YEAR.sub("2020", sql)


def order_matters(gold_sql: str) -> bool:
    """Rows are compared in order when the gold query sorts them."""
    return "order by" in gold_sql.lower()


def _sort_key(value) -> str:
    return str(value) + str(type(value))


def results_equal(gold_rows: list, predicted_rows: list, *, ordered: bool) -> bool:
    """True when some order of the predicted columns gives the gold's rows: the same bag of rows, or the same list
    when `ordered`. Two empty results are equal whatever their columns."""
    gold = [tuple(row) for row in gold_rows]
    pred = [tuple(row) for row in predicted_rows]
    if not gold and not pred:
        return True
    if len(gold) != len(pred) or len(gold[0]) != len(pred[0]):
        return False
    # Each row's values sorted: necessary for equality under any column order, and it settles most cases at once.
    gold_loose = [tuple(sorted(row, key=_sort_key)) for row in gold]
    pred_loose = [tuple(sorted(row, key=_sort_key)) for row in pred]
    if (gold_loose != pred_loose) if ordered else (set(gold_loose) != set(pred_loose)):
        return False
    width = len(gold[0])
    gold_columns = [{row[i] for row in gold} for i in range(width)]
    pred_columns = [{row[j] for row in pred} for j in range(width)]
    # Predicted column j can stand for gold column i only if every value of j occurs in i.
    candidates = [[j for j in range(width) if pred_columns[j] <= gold_columns[i]] for i in range(width)]
    gold_bag = None if ordered else Counter(gold)
    for order in itertools.product(*candidates):
        if len(set(order)) != width:
            continue
        moved = [tuple(row[j] for j in order) for row in pred]
        if ordered:
            if moved == gold:
                return True
        elif Counter(moved) == gold_bag:
            return True
    return False
