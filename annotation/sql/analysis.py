"""One call for everything the platform wants to know about a piece of SQL on a database.

Validation (sqlglot, against the schema), the Spider encoding, `query_toks_no_value`, hardness and, when a database
file is given, a sandboxed execution. `manage.py sql_inspect`, goal import and the expert's editor all come here.
"""

from pathlib import Path

from annotation.sql.hardness import hardness as _hardness
from annotation.sql.sandbox import execute
from annotation.sql.spider import SpiderEncodingError, encode_sql, query_toks_no_value
from annotation.sql.validate import validate_sql


class SqlAnalysisError(ValueError):
    """The SQL cannot be encoded under the Spider annotation protocol."""


def hardness_of(sql: str, schema: dict) -> str:
    """Spider hardness (easy/medium/hard/extra) of `sql` on `schema`; SqlAnalysisError when it cannot be encoded."""
    try:
        return _hardness(encode_sql(sql, schema))
    except SpiderEncodingError as exc:
        raise SqlAnalysisError(str(exc)) from exc


def inspect_sql(
    sql: str, schema: dict, *, db_path: Path | str | None = None, limit_mode: str = "value", rows_shown: int | None = 5
) -> dict:
    """Validation, Spider `sql`, tokens, hardness and (with `db_path`) an execution summary, as one JSON-safe dict.

    Each part is computed independently, so a query that fails validation still gets its tokens, and one that cannot
    be encoded still gets executed: the reader sees every problem at once. `rows_shown` caps the rows copied into the
    report (None: all the sandbox returned).
    """
    report: dict = {"db_id": schema.get("db_id"), "query": sql}
    report["validation"] = validate_sql(sql, schema)
    try:
        report["query_toks_no_value"] = query_toks_no_value(sql)
    except Exception as exc:  # tokenising is best effort: a report line must never be lost to it
        report["query_toks_no_value"] = None
        report["tokenize_error"] = str(exc)
    try:
        encoded = encode_sql(sql, schema, limit_mode=limit_mode)
        report["sql"] = encoded
        report["hardness"] = _hardness(encoded)
        report["encoding_error"] = None
    except SpiderEncodingError as exc:
        report["sql"] = None
        report["hardness"] = None
        report["encoding_error"] = str(exc)
    if db_path is not None:
        result = execute(db_path, sql)
        report["execution"] = {
            "ok": result.ok,
            "columns": result.columns,
            "row_count": result.row_count,
            "truncated": result.truncated,
            "elapsed_ms": round(result.elapsed_ms, 2),
            "rows": result.rows if rows_shown is None else result.rows[:rows_shown],
            "error": result.error,
        }
    report["ok"] = bool(
        report["validation"]["ok"] and report["sql"] is not None and report.get("execution", {"ok": True})["ok"]
    )
    return report
