"""Spider hardness levels (easy / medium / hard / extra) of a parsed `sql` dict.

The level comes from three counts over the top-level query:

- components: WHERE, GROUP BY, ORDER BY, LIMIT, each extra FROM table, each "or" and each LIKE in the
  FROM/WHERE/HAVING conditions;
- nested queries: subqueries used as condition values, plus INTERSECT/UNION/EXCEPT (a FROM subquery does not count);
- "others": more than one aggregation, select item, WHERE condition or GROUP BY column, one point each.

The aggregation count reproduces the official tool, which tests "is the first element non-zero" on items that are not
all col_units: a NOT WHERE condition counts as an aggregation, and in HAVING so does every NOT condition and every
"and"/"or" connector. Matching those quirks is what makes the levels comparable with published results.
"""

from __future__ import annotations

__all__ = ["HARDNESS_LEVELS", "hardness"]

HARDNESS_LEVELS = ("easy", "medium", "hard", "extra")

_LIKE_OP = 9


def hardness(sql_dict: dict) -> str:
    """Return "easy", "medium", "hard" or "extra" for a Spider `sql` dict, as the official evaluation does."""
    components = _count_components(sql_dict)
    nested = _count_nested(sql_dict)
    others = _count_others(sql_dict)
    if components <= 1 and others == 0 and nested == 0:
        return "easy"
    if nested == 0 and ((others <= 2 and components <= 1) or (components <= 2 and others < 2)):
        return "medium"
    if (
        (others > 2 and components <= 2 and nested == 0)
        or (2 < components <= 3 and others <= 2 and nested == 0)
        or (components <= 1 and others == 0 and nested <= 1)
    ):
        return "hard"
    return "extra"


def _condition_lists(sql_dict: dict) -> tuple[list, list, list]:
    return sql_dict["from"]["conds"], sql_dict["where"], sql_dict["having"]


def _count_components(sql_dict: dict) -> int:
    count = sum(1 for key in ("where", "groupBy", "orderBy") if sql_dict[key])
    if sql_dict["limit"] is not None:
        count += 1
    count += max(len(sql_dict["from"]["table_units"]) - 1, 0)
    for conditions in _condition_lists(sql_dict):
        count += sum(1 for connector in conditions[1::2] if connector == "or")
        count += sum(1 for cond_unit in conditions[::2] if cond_unit[1] == _LIKE_OP)
    return count


def _count_nested(sql_dict: dict) -> int:
    count = 0
    for conditions in _condition_lists(sql_dict):
        for cond_unit in conditions[::2]:
            count += isinstance(cond_unit[3], dict) + isinstance(cond_unit[4], dict)
    return count + sum(1 for key in ("intersect", "union", "except") if sql_dict[key] is not None)


def _first_is_set(items) -> int:
    # Deliberately generic: the official count applies "first element != 0" to col_units, select items, cond_units
    # and bare "and"/"or" strings alike (False == 0 in Python, so only NOT conditions and connectors slip through).
    return sum(1 for item in items if item[0] != 0)


def _count_others(sql_dict: dict) -> int:
    aggregations = _first_is_set(sql_dict["select"][1])
    aggregations += _first_is_set(sql_dict["where"][::2])
    aggregations += _first_is_set(sql_dict["groupBy"])
    if sql_dict["orderBy"]:
        val_units = sql_dict["orderBy"][1]
        aggregations += _first_is_set([unit[1] for unit in val_units if unit[1]])
        aggregations += _first_is_set([unit[2] for unit in val_units if unit[2]])
    aggregations += _first_is_set(sql_dict["having"])
    count = 1 if aggregations > 1 else 0
    count += len(sql_dict["select"][1]) > 1
    count += len(sql_dict["where"]) > 1
    count += len(sql_dict["groupBy"]) > 1
    return count
