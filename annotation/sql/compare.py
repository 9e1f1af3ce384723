"""Whether two queries mean the same on a test suite, and if not, a database that shows it (docs/test_suites.md).

Results are compared the way the official test-suite evaluator compares them (docs/test_suites.md, "Comparing
results"), since releases are scored with it: a bag of rows, or a list when the first query orders its rows; columns
may come in any order; two empty results are equal.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from annotation.sql.sandbox import SandboxResult, current_limits, execute_many


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
    for permutation in itertools.product(*choices):
        if len(set(permutation)) != width:
            continue
        moved = [tuple(row[j] for j in permutation) for row in rows_b]
        if (rows_a == moved) if ordered else (Counter(rows_a) == Counter(moved)):
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


def _size(difference: dict) -> int:
    if difference["kind"] == "rows":
        return len(difference["only_in_a"]) + len(difference["only_in_b"])
    return 1


def _executor() -> ThreadPoolExecutor:
    return _executor_of(os.getpid())  # a forked child (a Celery worker) makes its own: threads do not survive a fork


@functools.cache
def _executor_of(pid: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=current_limits().workers, thread_name_prefix="sql-compare")


class CompareError(ValueError):
    """The first query cannot be checked: it fails on a database of the suite."""


def sql_compare(paths: list[Path], sql_a: str, sql_b: str) -> dict:
    """Compare `sql_a` (in the reference's place: its ORDER BY decides whether order counts) with `sql_b` on every
    database of a suite (`paths`, the original first, as `annotation.sql.test_suite.suite_paths` lists them).

    Returns `{"equivalent", "checked_databases"}` and, when they differ, `"counterexample"`: the database
    with the smallest difference, both results and that difference. Raises CompareError when `sql_a` fails, since a
    reference that does not run proves nothing; `sql_b` failing where `sql_a` runs is a difference.
    """
    ordered = order_matters(sql_a)
    best: dict | None = None
    checked = 0
    # One round trip per database; the sandbox's workers take them side by side (as many as there are workers).
    outcomes = list(_executor().map(lambda path: execute_many(path, [sql_a, sql_b]), paths))
    for path, (result_a, result_b) in zip(paths, outcomes, strict=True):
        if not result_a.ok:
            raise CompareError(f"the first query fails on {path.name}: {result_a.error['message']}")
        if result_a.truncated or result_b.truncated:
            continue  # a cut result proves nothing either way
        checked += 1
        if result_b.ok and results_equal(result_a.rows, result_b.rows, ordered=ordered):
            continue
        found = _counterexample(path, paths, result_a, result_b, ordered)
        if best is None or (found["size"], found["rows"]) < (best["size"], best["rows"]):
            best = found
    report = {"equivalent": best is None, "checked_databases": checked}
    if best is not None:
        report["counterexample"] = best["counterexample"]
    return report


def _counterexample(path: Path, paths: list[Path], result_a: SandboxResult, result_b: SandboxResult, ordered: bool):
    name = "original" if path == paths[0] else path.name
    counterexample = {
        "database": name,
        "a": {"columns": result_a.columns, "rows": result_a.rows},
        "b": {"columns": result_b.columns, "rows": result_b.rows}
        if result_b.ok
        else {"error": result_b.error["message"]},
    }
    if result_b.ok:
        difference = smallest_difference(result_a.rows, result_b.rows, ordered=ordered)
    else:
        difference = {"kind": "error", "message": result_b.error["message"]}
    counterexample["difference"] = difference
    return {
        "counterexample": counterexample,
        "size": _size(difference),
        "rows": len(result_a.rows) + len(result_b.rows),
    }
