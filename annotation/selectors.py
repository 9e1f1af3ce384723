"""Reads of the annotation app."""

import sqlite3

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, QuerySet

from annotation.models import BlockRecord, CurationEdit, Database, Goal, Hardness, Role, User
from annotation.sql import curation as rules
from annotation.sql.schema import describe_tables


def database_tables_json(*, only: list[str] | None = None) -> list[dict]:
    """The Spider tables.json entries of the registered databases, in db_id order."""
    queryset = Database.objects.order_by("db_id")
    if only:
        queryset = queryset.filter(db_id__in=only)
    return [db.schema for db in queryset.only("schema")]


def database_list() -> QuerySet[Database]:
    return Database.objects.annotate(goal_count=Count("goals")).select_related("test_suite").order_by("db_id")


def goal_list(
    *, database: Database | None = None, hardness: str | None = None, waiting: bool = False
) -> QuerySet[Goal]:
    queryset = Goal.objects.select_related("database")
    if waiting:
        queryset = queryset.filter(question="")
    if database is not None:
        queryset = queryset.filter(database=database)
    if hardness:
        queryset = queryset.filter(hardness=hardness)
    return queryset


# People per page of the people list: a crowd collection has thousands of workers.
PEOPLE_PER_PAGE = 100


def people_page(*, role: str | None = None, page: int | str = 1) -> Page:
    """One page of people (by role, then name), each with their block history, newest first, in a fixed number of
    queries: the count, the page, and the history of the people on it."""
    queryset = User.objects.order_by("role", "username")
    if role in Role.values:
        queryset = queryset.filter(role=role)
    history = BlockRecord.objects.select_related("by").order_by("-created_at", "-id")
    return Paginator(queryset.prefetch_related(Prefetch("block_records", queryset=history)), PEOPLE_PER_PAGE).get_page(
        page
    )


def database_table_page(*, database: Database, table_index: int, page: int | str = 1, per_page: int = 25) -> dict:
    """One page of one table's rows, read from the registered file over a read-only connection.

    `page` may be the raw `?page=` text. Raises IndexError for a table that does not exist, and ValueError (with a
    message for the caller) for a page that is not a whole number from 1 to the last page: an empty table has one,
    empty, page. A number past the last page could otherwise reach SQLite as an OFFSET beyond its 64-bit integers.
    The table name comes from the stored schema (never from the request), so it is safe to quote into the query.
    """
    tables = database.schema["table_names_original"]
    if not 0 <= table_index < len(tables):
        raise IndexError("no such table")
    try:
        page = int(page)
    except (TypeError, ValueError):
        raise ValueError("page must be a whole number") from None
    name = tables[table_index]
    quoted = '"' + name.replace('"', '""') + '"'
    # Only the columns people see: a column hidden by curation stays out of the viewer too.
    shown = [column for table, column in database.schema["column_names_original"] if table == table_index]
    selected = ", ".join('"' + column.replace('"', '""') + '"' for column in shown) or "*"
    connection = sqlite3.connect(f"file:{database.path}?mode=ro", uri=True)
    try:
        connection.execute("PRAGMA query_only=1")
        total = connection.execute(f"SELECT count(*) FROM {quoted}").fetchone()[0]  # noqa: S608 - name from the stored schema, quoted
        pages = max(1, -(-total // per_page))
        if not 1 <= page <= pages:
            raise ValueError(f"page must be between 1 and {pages}")
        cursor = connection.execute(
            f"SELECT {selected} FROM {quoted} LIMIT ? OFFSET ?",  # noqa: S608 - names from the stored schema, quoted
            (per_page, (page - 1) * per_page),
        )
        columns = [description[0] for description in cursor.description]
        rows = [[_display(value) for value in row] for row in cursor.fetchall()]
    finally:
        connection.close()
    return {"table": name, "columns": columns, "rows": rows, "total": total, "page": page, "pages": pages}


def _display(value):
    if isinstance(value, bytes):
        return f"<blob {len(value)} bytes>"
    return value


def goal_generation_figures(run) -> dict:
    """A finished goal-generation run's report (annotation.sql.goal_sampler.coverage_report), shaped for its page:
    coverage and hardness mix before and after, and how many goals read each table, as shares a bar can draw."""
    before, after = run.report["before"], run.report["after"]
    names = dict(
        zip(run.database.schema["table_names_original"], run.database.schema.get("table_names") or [], strict=False)
    )
    widest = max([*after["per_table"].values(), 1])

    return {
        "coverage": [
            {
                "what": what,
                "before": round(100 * before[key]),
                "after": round(100 * after[key]),
                "before_count": before[f"{key}_covered"],
                "after_count": after[f"{key}_covered"],
                "total": after[f"{key}_total"],
            }
            for what, key in (("Tables", "tables"), ("Columns", "columns"))
        ],
        "hardness": [
            {
                "level": level,
                "label": Hardness(level).label,
                "before": before["hardness"][level],
                "after": after["hardness"][level],
                "before_percent": round(100 * before["hardness"][level] / max(before["goals"], 1)),
                "after_percent": round(100 * after["hardness"][level] / max(after["goals"], 1)),
            }
            for level in after["hardness"]
        ],
        "goals": {"before": before["goals"], "after": after["goals"]},
        "tables": [
            {
                "name": table,
                "readable": names.get(table, table),
                "before": before["per_table"].get(table, 0),
                "after": count,
                "before_percent": round(100 * before["per_table"].get(table, 0) / widest),
                "after_percent": round(100 * count / widest),
            }
            for table, count in after["per_table"].items()
        ],
    }


HISTORY_SHOWN = 200


def database_curation(*, database: Database, posted=None) -> dict:
    """Everything the curation page shows (docs/curation.md): each table and column of the current file with its
    type, keys, figures from the stored profile, readable name and whether it is hidden; the proposals waiting; the
    checks, open and kept; the versions; and the history of edits. Reads only: the profile is read by a task when a
    version is made, and a page without one says so. `posted` (a refused form's data) refills the name inputs, so a
    person's typing is not lost to an error."""
    versions = list(database.versions.select_related("created_by").order_by("-number"))
    version = next((item for item in versions if item.file == database.file), None)
    curation = database.curation or {}
    source = version.schema if version is not None else database.schema
    profile = version.profile if version is not None else None
    hidden_tables = set(curation.get("hidden_tables", []))
    hidden_columns = set(curation.get("hidden_columns", []))
    # Every table and column, with names and keys as curated: the curation page shows the hidden ones too.
    everything = rules.curated_schema(source, {**curation, "hidden_tables": [], "hidden_columns": []})
    curated = rules.curated_schema(source, curation)
    given_tables = curation.get("table_names", {})
    given_columns = curation.get("column_names", {})
    posted = posted or {}
    identical: dict[str, list[str]] = {}
    for table, first, second in (profile or {}).get("identical", []):
        identical.setdefault(rules.column_key(table, first), []).append(second)
        identical.setdefault(rules.column_key(table, second), []).append(first)
    tables = describe_tables(everything)
    for table in tables:
        name = table["name"]
        figures = (profile or {}).get("tables", {}).get(name, {})
        table["rows"] = figures.get("rows")
        table["hidden"] = name in hidden_tables
        table["given_name"] = (
            posted.get("name", given_tables.get(name, ""))
            if posted.get("table") == name
            else (given_tables.get(name, ""))
        )
        by_norm: dict[str, list[str]] = {}
        for column in table["columns"]:
            by_norm.setdefault(column["name"].replace("_", "").lower(), []).append(column["name"])
        for column in table["columns"]:
            key = rules.column_key(name, column["name"])
            column["key"] = key
            column["hidden"] = key in hidden_columns
            given = given_columns.get(key, "")
            column["given_name"] = (
                posted.get(f"column-{column['index']}", given) if posted.get("table") == name else given
            )
            column_figures = (profile or {}).get("columns", {}).get(key)
            column["figures"] = column_figures
            if column_figures and column_figures.get("empty") is not None and table["rows"]:
                column["empty_share"] = round(100 * column_figures["empty"] / table["rows"])
            else:
                column["empty_share"] = None
            same_name = [other for other in by_norm[column["name"].replace("_", "").lower()] if other != column["name"]]
            column["duplicates"] = sorted(set(same_name + identical.get(key, [])))
    checks = rules.checks(source, curated, profile, curation)
    columns = [rules.column_key(table, name) for _i, table, name, _t in rules.columns_of(source)]
    return {
        "version": version,
        "versions": versions,
        "profile_ready": profile is not None,
        "tables": tables,
        "columns": columns,
        "proposals": rules.proposals_waiting(profile, curation, curated) if profile else [],
        "confirmed_keys": [
            (rules.column_key(a, b), rules.column_key(c, d)) for a, b, c, d in curation.get("foreign_keys", [])
        ],
        "checks_open": [item for item in checks if item["kept"] is None],
        "checks_kept": [item for item in checks if item["kept"] is not None],
        "history": list(
            CurationEdit.objects.filter(database=database)
            .select_related("by")
            .order_by("-created_at", "-id")[:HISTORY_SHOWN]
        ),
    }
