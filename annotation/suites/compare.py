"""Whether two queries mean the same on a database, and if not, a database that shows it (docs/test_suites.md).

A comparison has a time budget (`seconds`) and two steps inside it:

1. the databases it is given (the original and its kept test suite, as `suite_paths` lists them), side by side;
2. when none of them tells the two apart, a search among small databases made for this pair
   (`annotation.suites.difference_search`), until the budget is spent.

A caller that already has step 1's answer (the room's goal match, whose first label ran the suite without a budget)
asks for step 2 alone (`sql_compare_search_only`) instead of running the suite again.

A pair that nothing told apart is reported as that: no difference found on so many databases, in so much time. It is
never called proven the same. Results are compared as the official evaluator compares them (`annotation.sql.results`).
All of it runs on the sandbox's "compare" pool (`compare_limits`): workers of its own, at a lower CPU priority, so
that a slow comparison never holds up a room's run.
"""

from __future__ import annotations

import functools
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import sqlglot
import sqlglot.errors
from sqlglot import exp

from annotation.plumbing.i18n import gettext as _
from annotation.sql.results import difference_size, order_matters, results_equal, smallest_difference
from annotation.sql.sandbox import SandboxLimits, SandboxResult, current_limits, execute_many
from annotation.suites.difference_search import cut_down_file, pair_decided, pair_of, search_difference

__all__ = [
    "CompareError",
    "compare_limits",
    "order_matters",
    "results_equal",
    "smallest_difference",
    "sql_compare",
    "sql_compare_search_only",
]

COMPARE_POOL = "compare"
# Comparisons and suite builds give the CPU to the rooms' runs when both want it (os.nice of their workers).
COMPARE_NICE = 10
NO_DIFFERENCE, DIFFERENT, SAME_QUERY = "no difference found", "different", "the same query"
# A statement stopped this close to the comparison's deadline was stopped by the deadline, not by its own time limit.
_GRACE_S = 0.05


def compare_limits() -> SandboxLimits:
    """The sandbox limits of comparisons and test-suite builds: the platform's, on the "compare" pool of
    SQL_COMPARE_WORKERS workers."""
    workers = 2
    try:
        from django.conf import settings

        if settings.configured:
            workers = getattr(settings, "SQL_COMPARE_WORKERS", workers)
    except ImportError:
        pass
    return replace(current_limits(), pool=COMPARE_POOL, workers=workers, nice=COMPARE_NICE)


def _executor() -> ThreadPoolExecutor:
    return _executor_of(os.getpid())  # a forked child (a Celery worker) makes its own: threads do not survive a fork


@functools.cache
def _executor_of(pid: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=max(compare_limits().workers, 2), thread_name_prefix="sql-compare")


class CompareError(ValueError):
    """The first query cannot be checked: it fails on a database of the suite, or not within the time."""


def sql_compare(
    paths: list[Path],
    sql_a: str,
    sql_b: str,
    *,
    seconds: float | None = None,
    limits: SandboxLimits | None = None,
    seed: int = 0,
    databases: int | None = None,
) -> dict:
    """Compare `sql_a` (in the reference's place: its ORDER BY decides whether order counts) with `sql_b` on every
    database of a suite (`paths`, the original first, as `annotation.suites.distil.suite_paths` lists them), then,
    with a budget of `seconds`, search for a small database that tells them apart (none without a budget); given
    `databases`, the search also stops once it compared that many (a bound that is the same on every machine).

    Returns `{"equivalent", "verdict", "checked_databases", "searched_databases", "seconds"}`: `equivalent` is
    False when a database told them apart, and True only in the sense of `verdict` "no difference found" (on
    `checked_databases` of the suite and `searched_databases` made for this pair, in `seconds`). When they differ,
    `"counterexample"`: the database, both results and the smallest difference, and for a generated database the
    fewest of its rows that still show it (`tables`). A database on which a query picks among rows tied under its
    LIMIT or ORDER BY counts neither way. Raises CompareError when `sql_a` fails (a reference that does not run
    proves nothing) or does not finish within the budget; `sql_b` failing where `sql_a` runs is a difference.

    Two queries that are one query written twice (`same_query`) are not run: verdict "the same query", with
    `same_query` True and no database checked or searched (a search could only spend its whole budget finding nothing).
    """
    started = time.monotonic()
    if same_query(sql_a, sql_b):
        return {
            "equivalent": True,
            "verdict": SAME_QUERY,
            "same_query": True,
            "checked_databases": 0,
            "searched_databases": 0,
            "seconds": round(time.monotonic() - started, 2),
        }
    deadline = started + seconds if seconds else None
    limits = limits or compare_limits()
    pair = pair_of(sql_a, sql_b)
    best: dict | None = None
    checked = 0
    # One round trip per database; the compare pool's workers take them side by side.
    outcomes = list(_executor().map(lambda path: _kept_run(path, pair, limits, deadline), paths))
    for path, outcome in zip(paths, outcomes, strict=True):
        if outcome is None:
            continue  # the time ran out before this database's turn
        result_a, result_b, decided = outcome
        if not result_a.ok:
            _reference_failed(path, path == paths[0], result_a, deadline, seconds)
            continue  # this database was not compared in time: checked_databases says how many were
        if result_a.truncated or result_b.truncated or not decided:
            continue  # a cut result, or a pick among tied rows, proves nothing either way
        checked += 1
        if result_b.ok and results_equal(result_a.rows, result_b.rows, ordered=pair.ordered):
            continue
        found = _counterexample("original" if path == paths[0] else path.name, result_a, result_b, pair.ordered)
        found["path"] = path
        if best is None or (found["size"], found["rows"]) < (best["size"], best["rows"]):
            best = found
    best, searched = _sharpened(best, paths[0], sql_a, sql_b, pair.ordered, deadline, limits, (seed, databases))
    return _report(best, checked=checked, searched=searched, started=started)


def _report(best: dict | None, *, checked: int, searched: int, started: float) -> dict:
    """What `sql_compare` and `sql_compare_search_only` return: the verdict, the databases checked on the suite and
    searched, the seconds since `started`, and the smallest counterexample when one was found."""
    report = {
        "equivalent": best is None,
        "verdict": NO_DIFFERENCE if best is None else DIFFERENT,
        "checked_databases": checked,
        "searched_databases": searched,
        "seconds": round(time.monotonic() - started, 2),
    }
    if best is not None:
        report["counterexample"] = best["counterexample"]
    return report


def sql_compare_search_only(
    original: Path,
    sql_a: str,
    sql_b: str,
    *,
    checked_databases: int,
    seconds: float,
    limits: SandboxLimits | None = None,
    seed: int = 0,
) -> dict:
    """The second step of `sql_compare` alone: for a pair an earlier `sql_compare` without a budget already compared on
    the suite and told nothing apart (on `checked_databases` of its databases), search for a small database made for
    the pair that tells them apart, within `seconds`; the suite is not run again. `original` gives the schema and the
    columns' values, as the suite's first path does. Returns what `sql_compare` returns, `checked_databases` being the
    earlier count."""
    started = time.monotonic()
    ordered = pair_of(sql_a, sql_b).ordered
    best, searched = _searched(
        original, sql_a, sql_b, ordered, started + seconds, limits or compare_limits(), (seed, None)
    )
    return _report(best, checked=checked_databases, searched=searched, started=started)


def same_query(sql_a: str, sql_b: str) -> bool:
    """Whether two queries are one query written twice: the same tree once parsed, whatever the spacing, the case of
    keywords and names (SQLite reads names without case) and the quotes around names. Literals keep their case."""
    if sql_a == sql_b:
        return True
    try:
        trees = [sqlglot.parse_one(sql, read="sqlite") for sql in (sql_a, sql_b)]
    except sqlglot.errors.SqlglotError:
        return False
    for tree in trees:
        for name in tree.find_all(exp.Identifier):
            name.set("quoted", False)
    written = [tree.sql(dialect="sqlite", normalize=True) for tree in trees]
    return written[0] == written[1]


def _reference_failed(path: Path, original: bool, result_a, deadline: float | None, seconds: float | None) -> None:
    """The first query failed on `path`: CompareError, unless a database other than the original was not compared in
    time (out of time, or every worker busy), which the comparison passes by."""
    kind = result_a.error["kind"]
    out_of_time = deadline is not None and kind == "timeout" and time.monotonic() >= deadline - _GRACE_S
    if (out_of_time or kind == "busy") and not original:
        return
    if out_of_time:
        raise CompareError(
            _("the first query did not finish on %(file)s within the comparison's %(seconds)s s")
            % {"file": path.name, "seconds": f"{seconds:g}"}
        )
    if kind == "busy":
        raise CompareError(_("every process running comparisons is busy: try again in a moment"))
    raise CompareError(
        _("the first query fails on %(file)s: %(error)s") % {"file": path.name, "error": result_a.error["message"]}
    )


def _sharpened(
    best: dict | None,
    original: Path,
    sql_a: str,
    sql_b: str,
    ordered: bool,
    deadline: float | None,
    limits: SandboxLimits,
    search: tuple[int, int | None],
) -> tuple[dict | None, int]:
    """(best, databases searched) after the suite, with time left: a difference on a generated database cut down to the
    fewest of its rows that still show it; no difference, one searched for on small databases made for the pair."""
    if (
        best is not None
        and best["path"] != original
        and deadline is not None
        and best["counterexample"]["b"].get("rows") is not None
    ):
        cut = cut_down_file(original, best["path"], sql_a, sql_b, deadline=deadline, limits=limits)
        if cut is not None:
            best = _counterexample(best["counterexample"]["database"], cut.a, cut.b, ordered, cut.tables)
        return best, 0
    if best is None and deadline is not None:
        return _searched(original, sql_a, sql_b, ordered, deadline, limits, search)
    return best, 0


def _searched(
    original: Path,
    sql_a: str,
    sql_b: str,
    ordered: bool,
    deadline: float,
    limits: SandboxLimits,
    search: tuple[int, int | None],
) -> tuple[dict | None, int]:
    """(the difference found or None, databases searched): the search on small databases made for the pair, with
    its seed and its bound on databases (`search`)."""
    if time.monotonic() >= deadline:
        return None, 0
    seed, databases = search
    report = search_difference(original, sql_a, sql_b, deadline=deadline, limits=limits, seed=seed, databases=databases)
    if report.found is None:
        return None, report.databases
    found = report.found
    return _counterexample("searched", found.a, found.b, ordered, found.tables), report.databases


def _kept_run(path: Path, pair, limits: SandboxLimits, deadline: float | None):
    """(result_a, result_b, decided) on one database of the suite; None when no time is left for it."""
    if deadline is not None:
        left_ms = int((deadline - time.monotonic()) * 1000)
        if left_ms < 10:
            return None
        limits = replace(limits, timeout_ms=min(limits.timeout_ms, left_ms))
    result_a, result_b = execute_many(path, [pair.sql_a, pair.sql_b], limits=limits)
    decided = True
    if result_a.ok and result_b.ok and not results_equal(result_a.rows, result_b.rows, ordered=pair.ordered):
        decided = pair_decided(path, pair, result_a, result_b, limits)
    return result_a, result_b, decided


def _counterexample(
    name: str, result_a: SandboxResult, result_b: SandboxResult, ordered: bool, tables: list | None = None
) -> dict:
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
    if tables is not None:
        counterexample["tables"] = tables  # the fewest rows of that database that still show the difference
    return {
        "counterexample": counterexample,
        "size": difference_size(difference),
        "rows": len(result_a.rows) + len(result_b.rows),
    }
