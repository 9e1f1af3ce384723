"""Reads of the annotation app."""

import sqlite3

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, QuerySet

from annotation.models import BlockRecord, Database, Goal, Role, User


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
    connection = sqlite3.connect(f"file:{database.path}?mode=ro", uri=True)
    try:
        connection.execute("PRAGMA query_only=1")
        total = connection.execute(f"SELECT count(*) FROM {quoted}").fetchone()[0]  # noqa: S608 - name from the stored schema, quoted
        pages = max(1, -(-total // per_page))
        if not 1 <= page <= pages:
            raise ValueError(f"page must be between 1 and {pages}")
        cursor = connection.execute(f"SELECT * FROM {quoted} LIMIT ? OFFSET ?", (per_page, (page - 1) * per_page))  # noqa: S608
        columns = [description[0] for description in cursor.description]
        rows = [[_display(value) for value in row] for row in cursor.fetchall()]
    finally:
        connection.close()
    return {"table": name, "columns": columns, "rows": rows, "total": total, "page": page, "pages": pages}


def _display(value):
    if isinstance(value, bytes):
        return f"<blob {len(value)} bytes>"
    return value
