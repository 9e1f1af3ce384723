"""One call for everything the platform wants to know about a piece of SQL on a database.

Validation (sqlglot, against the schema), the Spider encoding, `query_toks_no_value`, hardness and, when a database
file is given, a sandboxed execution. `manage.py sql_inspect`, goal import and the expert's editor all come here.

`sql_run` is the one way the platform runs a person's SQL: the inspection's execution, and a room's or a
reviewer's run (`dialogs.room.sql_run_result`, which cuts the table to what a room stores and sends).
"""

from functools import lru_cache
from pathlib import Path

from sqlglot import expressions as exp

from annotation.sql.hardness import hardness as _hardness
from annotation.sql.sandbox import execute
from annotation.sql.spider import SpiderEncodingError, encode_sql, parse_sql, query_toks_no_value
from annotation.sql.validate import validate_sql


class SqlAnalysisError(ValueError):
    """The SQL cannot be encoded under the Spider annotation protocol."""


def hardness_of(sql: str, schema: dict) -> str:
    """Spider hardness (easy/medium/hard/extra) of `sql` on `schema`; SqlAnalysisError when it cannot be encoded."""
    try:
        return _hardness(encode_sql(sql, schema))
    except SpiderEncodingError as exc:
        raise SqlAnalysisError(str(exc)) from exc


def sql_run(db_path: Path | str, sql: str, *, schema: dict | None = None, count: bool = False) -> dict:
    """Run `sql` in the sandbox and return the result as a JSON-safe dict (SandboxResult.to_dict()).

    With `count`, a truncated result is counted in full (`total_rows`; None when counting fails) so screens can say
    "showing N of M". With `schema`, a query that runs but cannot be encoded under the Spider protocol carries
    `spider_error`: final validation would refuse it, so the person writing it is told now rather than at review.
    Blocks for as long as the SQL runs (up to SANDBOX_TIMEOUT_MS, once more for the count).
    """
    result = execute(db_path, sql).to_dict()
    if count and result["ok"] and result["truncated"]:
        # The person's own SQL, counted in the same read-only sandbox: nothing is injected that they could not run.
        counted = execute(db_path, f"SELECT count(*) FROM ({sql.rstrip().rstrip(';')})")  # noqa: S608
        result["total_rows"] = counted.rows[0][0] if counted.ok else None
    if schema is not None and result["ok"]:
        try:
            encode_sql(sql, schema)
        except SpiderEncodingError as exc:
            result["spider_error"] = str(exc)
    return result


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
        result = sql_run(db_path, sql)  # encoded above already, and a report shows no full count
        report["execution"] = {
            "ok": result["ok"],
            "columns": result["columns"],
            "row_count": result["row_count"],
            "truncated": result["truncated"],
            "elapsed_ms": round(result["elapsed_ms"], 2),
            "rows": result["rows"] if rows_shown is None else result["rows"][:rows_shown],
            "error": result["error"],
        }
    report["ok"] = bool(
        report["validation"]["ok"] and report["sql"] is not None and report.get("execution", {"ok": True})["ok"]
    )
    return report


@lru_cache(maxsize=4096)
def column_values(db_path: str, table: str, column: str, limit: int) -> tuple:
    """Up to `limit` different non-empty values of `table.column`, read in the sandbox (empty when it cannot be read).
    The one reading behind the values a suggestion shows, a sampled goal filters on and a rating sheet draws; cached
    per file, table, column and limit for the life of the process."""
    quoted_table, quoted_column = '"' + table.replace('"', '""') + '"', '"' + column.replace('"', '""') + '"'
    result = execute(
        db_path,
        f"SELECT DISTINCT {quoted_column} FROM {quoted_table} WHERE {quoted_column} IS NOT NULL "  # noqa: S608
        f"LIMIT {int(limit)}",
    )
    return tuple(row[0] for row in result.rows) if result.ok else ()


def row_values_sql(sql: str, table: str, column: str) -> str | None:
    """A query for the values `table.column` holds in the rows `sql` reads: its tables, joins, conditions, order and
    limit kept, what it shows replaced by that column (an INTERSECT or EXCEPT read as its first SELECT's rows,
    `_left_rows`). None when they cannot be told so: any other set operation, a grouped
    query (HAVING picks groups, not rows), a query that reads `table` more than once or not at all in its own FROM."""
    try:
        tree = _left_rows(parse_sql(sql))
    except (SpiderEncodingError, RecursionError):
        return None
    if not isinstance(tree, exp.Select) or tree.args.get("group") is not None or tree.args.get("having") is not None:
        return None
    sources = [tree.args["from_"].this] if tree.args.get("from_") is not None else []
    sources += [join.this for join in tree.args.get("joins") or ()]
    found = [source for source in sources if isinstance(source, exp.Table) and source.name.lower() == table.lower()]
    if len(found) != 1 or (tree.args.get("distinct") is not None and tree.args.get("limit") is not None):
        return None  # the first rows of a DISTINCT listing are not the first rows it reads
    query = tree.copy()
    query.set("expressions", [exp.column(column, table=found[0].alias_or_name, quoted=True)])
    query.set("distinct", None)
    if any(isinstance(item.unalias(), exp.AggFunc) for item in tree.expressions):
        query.set("order", None)  # one row of figures: its rows are every row the conditions keep
        query.set("limit", None)
    return query.sql(dialect="sqlite")


def _left_rows(tree: exp.Expression) -> exp.Expression:
    """An INTERSECT or EXCEPT of two plain SELECTs showing one column, as the rows of its first SELECT whose value is
    (or is not) among the second's: every condition of both holds for them ("branches not franchised INTERSECT
    branches not at an airport" are all off airports). Any other query as it is."""
    if not isinstance(tree, (exp.Intersect, exp.Except)) or tree.args.get("order") or tree.args.get("limit"):
        return tree
    left, right = tree.this, tree.expression
    if not (isinstance(left, exp.Select) and isinstance(right, exp.Select)) or len(left.expressions) != 1:
        return tree
    if left.args.get("group") is not None or left.args.get("limit") is not None:
        return tree
    member = left.expressions[0].unalias().copy().isin(query=right.copy())
    return left.copy().where(member if isinstance(tree, exp.Intersect) else exp.not_(member))


def row_values(db_path: str, sql: str, table: str, column: str, limit: int) -> tuple | None:
    """Up to `limit` different non-empty values of `table.column` in the rows `sql` reads (`row_values_sql`), read in
    the sandbox; None when they cannot be told."""
    query = row_values_sql(sql, table, column)
    if query is None:
        return None
    result = execute(db_path, f"SELECT DISTINCT * FROM ({query}) AS shown_rows LIMIT {int(limit)}")  # noqa: S608
    return tuple(row[0] for row in result.rows if row[0] is not None) if result.ok else None
