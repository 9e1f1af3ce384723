"""Asking whether two queries mean the same on a hosted database's test suite, as the room and the review ask it
(docs/test_suites.md, "Where the platform uses them").

The comparison itself is `annotation.sql.compare.sql_compare`; this module adds what every caller shows or keeps:
where the answer was checked (`checked_on`: "suite" once the database's suite is built, "original" before, when the
hosted database alone was compared) and a counterexample cut to a size that may be kept in a dialogue's log.
"""

from __future__ import annotations

from annotation.models import Database
from annotation.sql.compare import CompareError, sql_compare
from annotation.suite_builds import database_suite_paths

# What a kept counterexample holds of each result table: enough to see the difference, never a whole table.
KEPT_ROWS = 20

ON_SUITE, ON_ORIGINAL = "suite", "original"
ORIGINAL_ONLY_NOTE = "checked on the original database only: its test suite is not built yet"


class SuiteCheckError(ValueError):
    """The comparison cannot be made: no database file, or the first query does not run."""


def suite_check(database: Database, sql_a: str, sql_b: str) -> dict:
    """Compare `sql_a` (the reference: its ORDER BY decides whether order counts) with `sql_b` on `database`'s test
    suite, or on the original alone while it has none.

    Returns `{"equivalent", "checked_databases", "checked_on"}` and, when they differ, a `counterexample` (the
    database, both results and the smallest difference, each table cut to KEPT_ROWS rows with its full row count).
    Raises SuiteCheckError when it cannot be told."""
    if not database.has_file:
        raise SuiteCheckError("This database is registered without data: queries cannot be compared on it.")
    paths = database_suite_paths(database)
    try:
        report = sql_compare(paths, sql_a, sql_b)
    except CompareError as exc:
        raise SuiteCheckError(str(exc)) from exc
    check = {
        "equivalent": report["equivalent"],
        "checked_databases": report["checked_databases"],
        "checked_on": ON_SUITE if len(paths) > 1 else ON_ORIGINAL,
    }
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
    return kept


def checked_on_text(check: dict) -> str:
    """Where a check was made, as a person reads it."""
    if check.get("checked_on") == ON_SUITE:
        count = check.get("checked_databases", 0)
        return f"checked on {count} database{'s' if count != 1 else ''} of the test suite"
    return ORIGINAL_ONLY_NOTE
