"""Reads of registered databases: the list, a release's `tables.json` entries, one page of a table's content and the
curation page. Reads never write."""

from django.conf import settings
from django.db.models import Count, QuerySet
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from annotation.databases import profile as rules
from annotation.databases.table_page import read_table_page
from annotation.models import CurationEdit, Database
from annotation.sql.schema import describe_tables


def database_tables_json(*, only: list[str] | None = None) -> list[dict]:
    """The Spider tables.json entries of the registered databases, in db_id order."""
    queryset = Database.objects.order_by("db_id")
    if only:
        queryset = queryset.filter(db_id__in=only)
    return [db.schema for db in queryset.only("schema")]


def database_list() -> QuerySet[Database]:
    return Database.objects.annotate(goal_count=Count("goals")).select_related("test_suite").order_by("db_id")


def database_table_page(*, database: Database, table_index: int, page: int | str = 1, per_page: int = 25) -> dict:
    """One page of one table's rows, read from the registered file as a hostile one, every cell and the page bounded
    (annotation.databases.table_page: TABLE_CELL_MAX_CHARS, TABLE_PAGE_MAX_BYTES).

    `page` may be the raw `?page=` text. Raises IndexError for a table that does not exist, and ValueError (with a
    message for the caller) for a page that is not a whole number from 1 to the last page (an empty table has one,
    empty, page; a number past the last page could otherwise reach SQLite as an OFFSET beyond its 64-bit integers),
    or for a file that refuses to give the page. The names come from the stored schema, never from the request.
    """
    tables = database.schema["table_names_original"]
    if not 0 <= table_index < len(tables):
        raise IndexError("no such table")
    try:
        page = int(page)
    except (TypeError, ValueError):
        raise ValueError(_("The page must be a whole number.")) from None
    # Only the columns people see: a column hidden by curation stays out of the viewer too.
    schema = database.schema
    shown = [column for table, column in schema["column_names_original"] if table == table_index]
    data = read_table_page(
        database.path,
        tables[table_index],
        shown,
        page=page,
        per_page=per_page,
        cut_chars=settings.TABLE_CELL_MAX_CHARS,
        max_bytes=settings.TABLE_PAGE_MAX_BYTES,
    )
    # The readable names beside the real ones (curation's, or a release's): the worker's room heads the table with
    # them; the screens where SQL is written show the real ones.
    readable_columns = schema.get("column_names") or schema["column_names_original"]
    data["readable_table"] = (schema.get("table_names") or tables)[table_index]
    data["readable_columns"] = [name for table, name in readable_columns if table == table_index]
    return data


HISTORY_SHOWN = 200


# The curation page shows this many tables at a time, with a filter by name: a lab's file can hold thousands of
# tables, and one page of them all was 20 MB (docs/curation.md, "A large database").
CURATION_TABLES_PER_PAGE = 50
# The database page lists its tables a page at a time too (a file of 2,000 tables is not one list).
BROWSER_TABLES_PER_PAGE = 100


# Open checks, kept checks and proposals shown at once; the rest are counted, and the filter by name reaches them.
CURATION_ITEMS_SHOWN = 100


def _whole_number(text, default: int = 1) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        return default


def tables_page(described: list[dict], *, page: int | str = 1, query: str = "", per_page: int) -> dict:
    """One page of a list of tables (describe_tables' entries, in schema order), those whose real or readable name
    holds `query` when one is given: `tables` (the page), `matching` (every table the filter leaves), `query` (as
    cleaned), `page` ({number, count, previous, next}), `table_count` and `tables_matching`. A page out of range is
    the nearest one; a filter matching nothing gives an empty first page."""
    query = " ".join(str(query or "").split())[:100]
    needle = query.casefold()
    matching = [
        table
        for table in described
        if needle in table["name"].casefold() or needle in str(table["readable_name"]).casefold()
    ]
    pages = max(1, -(-len(matching) // per_page))
    number = min(max(_whole_number(page), 1), pages)
    return {
        "tables": matching[(number - 1) * per_page : number * per_page],
        "matching": matching,
        "query": query,
        "page": {
            "number": number,
            "count": pages,
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if number < pages else None,
        },
        "table_count": len(described),
        "tables_matching": len(matching),
    }


def database_curation(*, database: Database, posted=None, page: int | str = 1, query: str = "") -> dict:
    """Everything the curation page shows (docs/curation.md): the tables of one page (CURATION_TABLES_PER_PAGE, in
    the file's order, those whose name holds `query` when one is given), each column with its type, keys, figures
    from the stored profile, readable name and whether it is hidden; the proposals waiting; the checks, open and
    kept, with a link to the page where each is fixed; the versions; and the history of edits. Long lists are cut at
    CURATION_ITEMS_SHOWN, with their counts. Reads only: the profile is read by a task when a version is made, and a
    page without one says so. `posted` (a refused form's data) refills the name inputs, so a person's typing is not
    lost to an error."""
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

    listing = tables_page(describe_tables(everything), page=page, query=query, per_page=CURATION_TABLES_PER_PAGE)
    tables, matching, query = listing["tables"], listing["matching"], listing["query"]
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

    # The tables the filter leaves (every table without one), and the page of the list each is on: a check about a
    # table on another page links to that page.
    shown = {table["name"] for table in tables}
    page_of = {table["name"]: position // CURATION_TABLES_PER_PAGE + 1 for position, table in enumerate(matching)}
    proposals = [
        proposal
        for proposal in (rules.proposals_waiting(profile, curation, curated) if profile else [])
        if proposal["child"][0] in page_of or proposal["parent"][0] in page_of
    ]
    proposals_shown = {
        f"proposal:{rules.column_key(*proposal['child'])}>{rules.column_key(*proposal['parent'])}"
        for proposal in proposals[:CURATION_ITEMS_SHOWN]
    }

    def link(item: dict) -> str:
        if item["kind"] == "proposal":  # the proposals are listed on every page, filtered like the tables
            return "#proposals" if item["key"] in proposals_shown else f"?{urlencode({'q': item['table']})}#proposals"
        if item["table"] in shown:
            return f"#{item['anchor']}"
        there = {"q": query, "page": page_of[item["table"]]} if query else {"page": page_of[item["table"]]}
        return f"?{urlencode(there)}#{item['anchor']}"

    checks = [item for item in rules.checks(source, curated, profile, curation) if item["table"] in page_of]
    checks_open = [item for item in checks if item["kept"] is None]
    checks_kept = [item for item in checks if item["kept"] is not None]
    for item in checks_open[:CURATION_ITEMS_SHOWN]:
        item["href"] = link(item)

    # The key form's choices: every column of the tables shown, and as the key's target also every primary key (the
    # usual parent); the form takes any "table.column" typed, and the filter brings two tables onto one page.
    primary = set(everything.get("primary_keys", []))
    originals, names = everything["column_names_original"], everything["table_names_original"]
    children = [column["key"] for table in tables for column in table["columns"]]
    listed = set(children)
    parents = children + [
        key
        for index, (table, name) in enumerate(originals)
        if index in primary and table >= 0
        for key in [rules.column_key(names[table], name)]
        if key not in listed
    ]
    return {
        "version": version,
        "versions": versions,
        "profile_ready": profile is not None,
        "tables": tables,
        "query": query,
        "page": listing["page"],
        "table_count": listing["table_count"],
        "tables_matching": listing["tables_matching"],
        "key_children": children,
        "key_parents": parents,
        "proposals": proposals[:CURATION_ITEMS_SHOWN],
        "proposals_count": len(proposals),
        "confirmed_keys": [
            (rules.column_key(a, b), rules.column_key(c, d)) for a, b, c, d in curation.get("foreign_keys", [])
        ],
        "checks_open": checks_open[:CURATION_ITEMS_SHOWN],
        "checks_open_count": len(checks_open),
        "checks_kept": checks_kept[:CURATION_ITEMS_SHOWN],
        "checks_kept_count": len(checks_kept),
        "history": list(
            CurationEdit.objects.filter(database=database)
            .select_related("by")
            .order_by("-created_at", "-id")[:HISTORY_SHOWN]
        ),
    }
