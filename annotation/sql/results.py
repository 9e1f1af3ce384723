"""Two query results compared the way the official test-suite evaluator compares them (docs/test_suites.md,
"Comparing results"), since releases are scored with it: a bag of rows, or a list when the first query orders its
rows; columns may come in any order; two empty results are equal.

Pure: rows in, answers out. The comparison of two queries on databases is `annotation.suites.compare.sql_compare`.
"""

from __future__ import annotations

from collections import Counter


def order_matters(sql: str) -> bool:
    """The evaluator's rule: rows are a list, not a bag, when the reference query says ORDER BY."""
    return "order by" in sql.lower()


def _row_key(value: object) -> str:
    return str(value) + type(value).__name__


def _unordered(row: tuple) -> tuple:
    return tuple(sorted(row, key=_row_key))


def results_equal(rows_a: list, rows_b: list, *, ordered: bool) -> bool:
    """True when the two results are the same denotation: equal after some reordering of the columns, as bags of rows
    (lists when `ordered`)."""
    rows_a, rows_b = [tuple(row) for row in rows_a], [tuple(row) for row in rows_b]
    if not rows_a and not rows_b:
        return True
    if len(rows_a) != len(rows_b) or len(rows_a[0]) != len(rows_b[0]):
        return False
    loose_a, loose_b = [_unordered(row) for row in rows_a], [_unordered(row) for row in rows_b]
    if (loose_a != loose_b) if ordered else (Counter(loose_a) != Counter(loose_b)):
        return False
    width = len(rows_a[0])
    # A column of B can stand for a column of A only when both hold the same bag of values.
    bags_a = [Counter(row[i] for row in rows_a) for i in range(width)]
    bags_b = [Counter(row[j] for row in rows_b) for j in range(width)]
    choices = [[j for j in range(width) if bags_b[j] == bags_a[i]] for i in range(width)]
    if any(not choice for choice in choices):
        return False
    columns_b = [tuple(row[j] for row in rows_b) for j in range(width)]
    return _assign(rows_a, rows_b, columns_b, choices, [], ordered)


def _assign(rows_a: list, rows_b: list, columns_b: list, choices: list, chosen: list, ordered: bool) -> bool:
    """Whether A's columns from len(chosen) on can be given distinct columns of B that make the results equal, the
    first ones being `chosen`. Every prefix of a working assignment already makes the projected results equal, so a
    prefix that does not is dropped with everything after it (trying every permutation took minutes on wide results
    of repeated values); two columns of B holding the same values are one choice, not two."""
    position = len(chosen)
    if position == len(choices):
        return True
    tried: set = set()
    for j in choices[position]:
        if j in chosen or columns_b[j] in tried:
            continue
        tried.add(columns_b[j])
        prefix = [*chosen, j]
        left = [row[: position + 1] for row in rows_a]
        right = [tuple(row[k] for k in prefix) for row in rows_b]
        if (left == right) if ordered else (Counter(left) == Counter(right)):
            if _assign(rows_a, rows_b, columns_b, choices, prefix, ordered):
                return True
    return False


def smallest_difference(rows_a: list, rows_b: list, *, ordered: bool) -> dict:
    """What tells the two results apart, as little of it as can be shown: the rows one has and the other has not
    (counted as bags, columns unordered), or, when both hold the same rows, the first position where the order
    differs; a different width is said as such."""
    rows_a, rows_b = [tuple(row) for row in rows_a], [tuple(row) for row in rows_b]
    if rows_a and rows_b and len(rows_a[0]) != len(rows_b[0]):
        return {"kind": "columns", "columns_a": len(rows_a[0]), "columns_b": len(rows_b[0])}
    bag_a, bag_b = Counter(_unordered(row) for row in rows_a), Counter(_unordered(row) for row in rows_b)
    only_a, only_b = bag_a - bag_b, bag_b - bag_a
    if only_a or only_b:
        first_a = [row for row in rows_a if only_a[_unordered(row)] > 0]
        first_b = [row for row in rows_b if only_b[_unordered(row)] > 0]
        return {
            "kind": "rows",
            "only_in_a": [list(row) for row in _take(first_a, only_a)],
            "only_in_b": [list(row) for row in _take(first_b, only_b)],
        }
    for position, (row_a, row_b) in enumerate(zip(rows_a, rows_b, strict=True)):
        if row_a != row_b:
            return {"kind": "order", "position": position, "row_a": list(row_a), "row_b": list(row_b)}
    return {"kind": "columns_order"}  # same rows, same order: only the columns' pairing differs


def _take(rows: list[tuple], wanted: Counter) -> list[tuple]:
    left, taken = Counter(wanted), []
    for row in rows:
        key = _unordered(row)
        if left[key] > 0:
            left[key] -= 1
            taken.append(row)
    return taken


def difference_size(difference: dict) -> int:
    """How much a difference shows: the rows it lists, or 1 for an order, a width or an error."""
    if difference["kind"] == "rows":
        return len(difference["only_in_a"]) + len(difference["only_in_b"])
    return 1
