"""Asking whether two queries mean the same on a hosted database, as the room and the review ask it
(docs/test_suites.md, "Where the platform uses them").

The comparison itself is `annotation.suites.compare.sql_compare`: the database's test suite (the original alone until
one
is built), then a search for a database that tells this pair apart, within SQL_COMPARE_SECONDS. This module adds what
every caller shows or keeps: where the answer was checked (`checked_on`: "suite" once the database's suite is built,
"original" before), how much was searched, and a counterexample cut to a size that may be kept in a dialogue's log.
"""

from __future__ import annotations

from django.conf import settings

from annotation.models import Database
from annotation.plumbing.i18n import gettext as _
from annotation.suites.builds import database_suite_paths
from annotation.suites.compare import CompareError, sql_compare, sql_compare_search_only

# What a kept counterexample holds of each result table: enough to see the difference, never a whole table.
KEPT_ROWS = 20

ON_SUITE, ON_ORIGINAL = "suite", "original"
ORIGINAL_ONLY_NOTE = "checked on the original database only: its test suite is not built yet"


class SuiteCheckError(ValueError):
    """The comparison cannot be made: no database file, or the first query does not run."""


def suite_check(database: Database, sql_a: str, sql_b: str, *, seconds: float | None = None) -> dict:
    """Compare `sql_a` (the reference: its ORDER BY decides whether order counts) with `sql_b` on `database`'s test
    suite (or the original alone while it has none), then search for a database that tells them apart, for at most
    `seconds` in all (SQL_COMPARE_SECONDS when not given).

    Returns `{"equivalent", "verdict", "checked_databases", "searched_databases", "seconds", "checked_on"}` and, when
    they differ, a `counterexample` (the database, both results and the smallest difference, each table cut to
    KEPT_ROWS rows with its full row count, and for a generated database its fewest rows that show it). `equivalent`
    True means no difference was found, nothing more. Raises SuiteCheckError when it cannot be told."""
    if not database.has_file:
        raise SuiteCheckError(_("This database is registered without data: queries cannot be compared on it."))
    paths = database_suite_paths(database)
    budget = settings.SQL_COMPARE_SECONDS if seconds is None else seconds
    try:
        report = sql_compare(paths, sql_a, sql_b, seconds=budget)
    except CompareError as exc:
        raise SuiteCheckError(str(exc)) from exc
    return _check(report, ON_SUITE if len(paths) > 1 else ON_ORIGINAL)


def suite_search(
    database: Database, sql_a: str, sql_b: str, *, checked_on: str, checked_databases: int, seconds: float | None = None
) -> dict:
    """The search of `suite_check` alone, for a pair a `suite_check` without a budget (`seconds` 0) already compared
    on `checked_databases` databases (`checked_on`) and told nothing apart: its suite is not run again. Returns what
    `suite_check` returns, with those two values. Raises SuiteCheckError as `suite_check` does."""
    if not database.has_file:
        raise SuiteCheckError(_("This database is registered without data: queries cannot be compared on it."))
    budget = settings.SQL_COMPARE_SECONDS if seconds is None else seconds
    try:
        report = sql_compare_search_only(
            database.path, sql_a, sql_b, checked_databases=checked_databases, seconds=budget
        )
    except CompareError as exc:
        raise SuiteCheckError(str(exc)) from exc
    return _check(report, checked_on)


def _check(report: dict, checked_on: str) -> dict:
    check = {
        "equivalent": report["equivalent"],
        "verdict": report["verdict"],
        "checked_databases": report["checked_databases"],
        "searched_databases": report["searched_databases"],
        "seconds": report["seconds"],
        "checked_on": checked_on,
    }
    if report.get("same_query"):
        check["same_query"] = True  # one query written twice: nothing was run (sql_compare)
    if "counterexample" in report:
        check["counterexample"] = _kept(report["counterexample"])
    return check


def _kept(counterexample: dict) -> dict:
    kept = dict(counterexample)
    for side in ("a", "b"):
        table = dict(counterexample[side])
        if "rows" in table:
            table["row_count"] = len(table["rows"])
            table["rows"] = table["rows"][:KEPT_ROWS]
        kept[side] = table
    difference = dict(counterexample["difference"])
    for name in ("only_in_a", "only_in_b"):
        if name in difference:
            difference[name] = difference[name][:KEPT_ROWS]
    kept["difference"] = difference
    if "tables" in counterexample:
        kept["tables"] = [{**table, "rows": table["rows"][:KEPT_ROWS]} for table in counterexample["tables"]]
    return kept


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def checked_on_text(check: dict) -> str:
    """Where a check was made, as a person reads it: the test suite's databases (or the original alone) and the
    databases the search made for this pair. A check kept before searches existed names the suite's alone."""
    if check.get("same_query"):
        return "the same query written twice: nothing to run"
    count = check.get("checked_databases", 0)
    searched = check.get("searched_databases")
    if check.get("checked_on") == ON_SUITE:
        kept = f"{_plural(count, 'database')} of the test suite"
    elif searched is None:
        return ORIGINAL_ONLY_NOTE
    else:
        kept = "the original database (its test suite is not built yet)"
    if searched is None:
        return f"checked on {kept}"
    if not searched:
        return kept
    return f"{kept}, {searched:,} made for this pair"


def verdict_text(check: dict) -> str:
    """The verdict in honest words: a difference was shown, or none was found on so many databases in so long."""
    if not check.get("equivalent"):
        return "Different"
    if check.get("same_query"):
        return "The same query"
    total = check.get("checked_databases", 0) + (check.get("searched_databases") or 0)
    if check.get("searched_databases") is None:
        return f"No difference found on {_plural(total, 'database')}"
    return f"No difference found on {_plural(total, 'database')} (searched for {check.get('seconds', 0):g} s)"
