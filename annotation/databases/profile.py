"""Curation of a database's schema before collection (docs/curation.md): what a file holds, what people see of it.

Pure on a schema and a curation, except `profile_database`, which reads a file in the sandbox. Knows no model.

A *curation* is a plain dict keyed by original names (they survive a new version of the file, indexes do not):

    {"table_names": {"TBL_EMP": "employee"},            # readable names given by a person
     "column_names": {"TBL_EMP.EMP_NM": "name"},         # key: "<table>.<column>"
     "foreign_keys": [["TBL_EMP", "dept", "dept", "id"]], # confirmed: child table, child column, parent table, column
     "dismissed": [[...]],                               # proposals a person said no to
     "hidden_tables": ["audit"], "hidden_columns": ["TBL_EMP.ssn"],
     "kept": {"<check key>": "reason"}}                  # checks a person keeps as they are
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from itertools import chain

from annotation.plumbing.i18n import gettext
from annotation.sql.sandbox import execute, execute_many
from annotation.wording.english import identifier_like, singular_word, words_of

SAMPLES_PER_COLUMN = 5
# Pairs of columns compared row by row for identical values: a wider table compares its first columns only.
MAX_COMPARED_COLUMNS = 40
# A proposal whose child values are found in the parent less often than this is not offered (a name that matches by
# chance); an empty child column is offered, since nothing contradicts it.
PROPOSAL_MIN_SHARE = 0.5


def column_key(table: str, column: str) -> str:
    return f"{table}.{column}"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _norm(name: str) -> str:
    return name.replace("_", "").replace(" ", "").lower()


def curated_schema(source: dict, curation: dict) -> dict:
    """The tables.json entry people see and exports write: `source` (the file's own entry) with the readable names
    and confirmed foreign keys of `curation`, and without its hidden tables and columns.

    Leaving columns out moves the indexes: `column_names`, `column_types`, `primary_keys` and `foreign_keys` are
    rebuilt together on the remaining columns, so every index points where it did before, by name.
    """
    tables = source["table_names_original"]
    originals = source["column_names_original"]
    readable_tables = source.get("table_names") or tables
    readable_columns = source.get("column_names") or originals
    table_names = curation.get("table_names", {})
    column_names = curation.get("column_names", {})
    hidden_tables = set(curation.get("hidden_tables", []))
    hidden_columns = set(curation.get("hidden_columns", []))

    table_map: dict[int, int] = {}
    entry = {key: source[key] for key in ("db_id",)}
    entry["table_names_original"], entry["table_names"] = [], []
    for index, name in enumerate(tables):
        if name in hidden_tables:
            continue
        table_map[index] = len(entry["table_names_original"])
        entry["table_names_original"].append(name)
        entry["table_names"].append(table_names.get(name) or readable_tables[index])

    column_map: dict[int, int] = {}
    by_name: dict[tuple[str, str], int] = {}
    entry["column_names_original"], entry["column_names"], entry["column_types"] = [], [], []
    for index, (table, name) in enumerate(originals):
        if table >= 0:
            key = column_key(tables[table], name)
            if table not in table_map or key in hidden_columns:
                continue
            by_name[(tables[table], name)] = index
        column_map[index] = len(entry["column_names_original"])
        new_table = table_map[table] if table >= 0 else -1
        readable = column_names.get(column_key(tables[table], name)) if table >= 0 else None
        entry["column_names_original"].append([new_table, name])
        entry["column_names"].append([new_table, readable or readable_columns[index][1]])
        entry["column_types"].append(source["column_types"][index])

    entry["primary_keys"] = [column_map[key] for key in source.get("primary_keys", []) if key in column_map]
    # A key with a hidden column is no key of what is shown; an entry with no composite key has no such list.
    composite = [
        [column_map[column] for column in key]
        for key in source.get("composite_primary_keys", [])
        if all(column in column_map for column in key)
    ]
    if composite:
        entry["composite_primary_keys"] = composite
    foreign_keys = [
        [column_map[child], column_map[parent]]
        for child, parent in source.get("foreign_keys", [])
        if child in column_map and parent in column_map
    ]
    for child_table, child, parent_table, parent in curation.get("foreign_keys", []):
        pair = [by_name.get((child_table, child)), by_name.get((parent_table, parent))]
        if None in pair or pair[0] not in column_map or pair[1] not in column_map:
            continue
        mapped = [column_map[pair[0]], column_map[pair[1]]]
        if mapped not in foreign_keys:
            foreign_keys.append(mapped)
    entry["foreign_keys"] = foreign_keys
    return entry


def columns_of(schema: dict) -> list[tuple[int, str, str, str]]:
    """(index, table, column, type) of every real column of a schema, in order."""
    tables = schema["table_names_original"]
    return [
        (index, tables[table], name, schema["column_types"][index])
        for index, (table, name) in enumerate(schema["column_names_original"])
        if table >= 0
    ]


def types_compatible(first: str, second: str) -> bool:
    """Whether two Spider column types can hold the same values (a key joins them): equal, or one of them untyped."""
    return first == second or "others" in (first, second)


def name_matches(schema: dict) -> list[tuple[int, int]]:
    """(child, parent) column pairs a missing foreign key may join, by name alone.

    The parent is a table's primary key (a table without one: its column called `id`); the child is a column of
    another table, of a compatible type, named like the parent (`singer_id` ~ `singer.singer_id`, case and
    underscores aside; a bare `id` matches nothing by itself) or like the parent's table with `id`
    (`employee_id` ~ `employees.id`). Pairs the schema already joins, either way round, are left out.
    """
    tables = schema["table_names_original"]
    columns = columns_of(schema)
    # A column of a key of several columns identifies nothing alone: no foreign key is proposed to point at it.
    in_composite = {column for key in schema.get("composite_primary_keys", []) for column in key}
    primary = set(schema.get("primary_keys", [])) - in_composite
    keyed_tables = {schema["column_names_original"][key][0] for key in primary | in_composite}
    parents = [
        (index, table, name, kind)
        for index, table, name, kind in columns
        if index in primary or (tables.index(table) not in keyed_tables and _norm(name) == "id")
    ]
    joined = {tuple(pair) for pair in schema.get("foreign_keys", [])}
    joined |= {(parent, child) for child, parent in joined}
    found = []
    for parent, parent_table, parent_name, parent_type in parents:
        table_words = words_of(parent_table).split()
        table_forms = {_norm(parent_table), _norm(" ".join([*table_words[:-1], singular_word(table_words[-1])]))}
        for child, child_table, child_name, child_type in columns:
            if (
                child_table == parent_table
                or (child, parent) in joined
                or not types_compatible(child_type, parent_type)
            ):
                continue
            if child in primary and _norm(child_name) == "id":
                continue
            same_name = _norm(child_name) == _norm(parent_name) and _norm(parent_name) != "id"
            table_id = _norm(child_name) in {form + "id" for form in table_forms}
            if same_name or table_id:
                found.append((child, parent))
    return found


def profile_database(path, schema: dict) -> dict:
    """What the file at `path` holds, per table and column of `schema` (the file's own, uncurated entry), read in the
    sandbox: rows, empty cells (NULL or ''), distinct values, a few samples, columns whose values are identical on
    every row, and the foreign keys `name_matches` proposes with the share of the child's values found in the parent.

    A JSON-safe dict, stored once per version of the file (a large database is not read again on each page view).
    A query that fails or runs out of time leaves None where its figures would be.
    """
    tables = schema["table_names_original"]
    by_table: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for index, table, name, _kind in columns_of(schema):
        by_table[table].append((index, name))
    profile: dict = {"tables": {}, "columns": {}, "identical": [], "proposals": []}
    _count_figures(path, tables, by_table, profile)
    _sample_figures(path, tables, by_table, profile["columns"])
    profile["identical"] = _identical_columns(path, tables, by_table, profile)
    profile["proposals"] = _key_proposals(path, schema)
    return profile


def _count_figures(path, tables: list[str], by_table: dict, profile: dict) -> None:
    """Each table's rows and each column's empty cells and distinct values, into `profile` (one query a table)."""
    statements = []
    for table in tables:
        quoted = _quote(table)
        parts = ["count(*)"]
        for _index, name in by_table[table]:
            column = _quote(name)
            parts += [f"sum({column} IS NULL OR {column} = '')", f"count(DISTINCT {column})"]
        statements.append(f"SELECT {', '.join(parts)} FROM {quoted}")  # noqa: S608 - names from the file's schema, quoted
    for table, result in zip(tables, execute_many(path, statements), strict=True):
        row = result.rows[0] if result.ok and result.rows else None
        profile["tables"][table] = {"rows": row[0] if row else None}
        for position, (_index, name) in enumerate(by_table[table]):
            empty = row[1 + 2 * position] if row else None
            distinct = row[2 + 2 * position] if row else None
            profile["columns"][column_key(table, name)] = {
                "empty": (empty or 0) if row else None,  # sum() of no rows is NULL
                "distinct": distinct,
            }


def _sample_figures(path, tables: list[str], by_table: dict, columns: dict) -> None:
    """A few distinct values of each column, into its entry of `columns`."""
    sample_statements = [
        f"SELECT DISTINCT {_quote(name)} FROM {_quote(table)} WHERE {_quote(name)} IS NOT NULL "  # noqa: S608
        f"AND {_quote(name)} <> '' LIMIT {SAMPLES_PER_COLUMN}"
        for table in tables
        for _index, name in by_table[table]
    ]
    keys = [column_key(table, name) for table in tables for _index, name in by_table[table]]
    for key, result in zip(keys, execute_many(path, sample_statements) if sample_statements else [], strict=True):
        columns[key]["samples"] = [_shown(row[0]) for row in result.rows] if result.ok else []


def _identical_columns(path, tables: list[str], by_table: dict, profile: dict) -> list[list[str]]:
    """[table, a, b] for two columns of a table (of its first MAX_COMPARED_COLUMNS not empty on every row) that are
    equal on every row."""
    identical = []
    for table in tables:
        rows = profile["tables"][table]["rows"]
        compared = [
            name
            for _index, name in by_table[table][:MAX_COMPARED_COLUMNS]
            if profile["columns"][column_key(table, name)]["empty"] != rows
        ]
        pairs = [(a, b) for position, a in enumerate(compared) for b in compared[position + 1 :]]
        if not rows or not pairs:
            continue
        parts = ", ".join(f"sum({_quote(a)} IS NOT {_quote(b)})" for a, b in pairs)
        result = execute(path, f"SELECT {parts} FROM {_quote(table)}")  # noqa: S608
        if result.ok and result.rows:
            identical += [[table, a, b] for (a, b), differ in zip(pairs, result.rows[0], strict=True) if differ == 0]
    return identical


def _key_proposals(path, schema: dict) -> list[dict]:
    """The foreign keys `name_matches` proposes, each with the share of the child's values found in the parent."""
    tables = schema["table_names_original"]
    originals = schema["column_names_original"]
    matches = name_matches(schema)
    share_statements = []
    for child, parent in matches:
        child_table, child_name = tables[originals[child][0]], originals[child][1]
        parent_table, parent_name = tables[originals[parent][0]], originals[parent][1]
        column = _quote(child_name)
        share_statements.append(
            f"SELECT count(DISTINCT {column}), count(DISTINCT CASE WHEN {column} IN "  # noqa: S608
            f"(SELECT {_quote(parent_name)} FROM {_quote(parent_table)}) THEN {column} END) "
            f"FROM {_quote(child_table)} WHERE {column} IS NOT NULL AND {column} <> ''"
        )
    results = execute_many(path, share_statements) if share_statements else []
    proposals = []
    for (child, parent), result in zip(matches, results, strict=True):
        share = None
        if result.ok and result.rows and result.rows[0][0]:
            share = round(result.rows[0][1] / result.rows[0][0], 3)
        proposals.append(
            {
                "child": [tables[originals[child][0]], originals[child][1]],
                "parent": [tables[originals[parent][0]], originals[parent][1]],
                "share": share,
            }
        )
    return proposals


def _shown(value):
    if isinstance(value, str) and len(value) > 60:
        return value[:57] + "..."
    return value


def _fk_key(fk) -> tuple:
    return tuple(fk)


def proposals_waiting(profile: dict, curation: dict, curated: dict) -> list[dict]:
    """The name-and-value proposals of `profile` a person has not answered yet: not confirmed, not dismissed, not
    already a key of the curated schema, on columns people see, and with enough of the child's values in the
    parent (PROPOSAL_MIN_SHARE; an empty child column is offered)."""
    answered = {_fk_key(fk) for fk in curation.get("foreign_keys", []) + curation.get("dismissed", [])}
    tables = curated["table_names_original"]
    originals = curated["column_names_original"]
    visible = {(tables[table], name): index for index, (table, name) in enumerate(originals) if table >= 0}
    joined = {tuple(pair) for pair in curated.get("foreign_keys", [])}
    waiting = []
    for proposal in profile.get("proposals", []):
        child, parent = tuple(proposal["child"]), tuple(proposal["parent"])
        if (*child, *parent) in answered or child not in visible or parent not in visible:
            continue
        if (visible[child], visible[parent]) in joined or (visible[parent], visible[child]) in joined:
            continue
        if proposal["share"] is not None and proposal["share"] < PROPOSAL_MIN_SHARE:
            continue
        waiting.append(proposal)
    return waiting


def unreachable_tables(curated: dict) -> list[str]:
    """Tables no join reaches: outside the largest group of tables connected by foreign keys (a one-table database
    has none). Ties go to the group holding the first table."""
    tables = curated["table_names_original"]
    if len(tables) < 2:
        return []
    originals = curated["column_names_original"]
    parent = list(range(len(tables)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for child, target in curated.get("foreign_keys", []):
        parent[root(originals[child][0])] = root(originals[target][0])
    groups: dict[int, list[int]] = defaultdict(list)
    for index in range(len(tables)):
        groups[root(index)].append(index)
    largest = max(groups.values(), key=lambda members: (len(members), -members[0]))
    return [tables[index] for index in range(len(tables)) if index not in largest]


def checks(source: dict, curated: dict, profile: dict | None, curation: dict) -> list[dict]:
    """What a lab wants fixed before collecting, as a list to work through (docs/curation.md, "Checks").

    Each item: `key` (stable, for "kept as is"), `kind`, `text`, `anchor` (where on the curation page it is fixed),
    `table` (the table it is about, for a page that shows some tables only) and `kept` (the reason a person gave for
    keeping it, or None). Only what people see is checked: a hidden table or
    column needs no readable name. Without a profile, the checks that need the data are left out.
    """
    kept = curation.get("kept", {})
    source_tables = source["table_names_original"]
    table_anchor = {name: f"table-{index}" for index, name in enumerate(source_tables)}
    column_anchor = {column_key(table, name): f"column-{index}" for index, table, name, _kind in columns_of(source)}
    visible_columns = columns_of(curated)
    found = [
        _unreachable_checks(curated, table_anchor),
        _name_checks(curated, curation, visible_columns, table_anchor, column_anchor),
        _same_name_checks(visible_columns, column_anchor),
    ]
    if profile is not None:
        found += [
            _data_checks(profile, visible_columns, column_anchor),
            _identical_checks(profile, visible_columns, column_anchor),
            _proposal_checks(profile, curation, curated),
        ]
    items: list[dict] = []
    added: set[str] = set()  # a set, not a scan of the list: a file of 2,000 tables has thousands of checks
    for key, kind, text, anchor, table in chain.from_iterable(found):
        if key in added:
            continue  # two columns both named alike and equal on every row: one check
        added.add(key)
        items.append({"key": key, "kind": kind, "text": text, "anchor": anchor, "table": table, "kept": kept.get(key)})
    return items


# What each of the checks below yields: (key, kind, text, anchor, table), as `checks` lists them.
_Check = tuple[str, str, str, str, str]


def _unreachable_checks(curated: dict, table_anchor: dict[str, str]) -> Iterator[_Check]:
    for table in unreachable_tables(curated):
        yield (
            f"unreachable:{table}",
            "unreachable",
            gettext("Table %(table)s is reached by no join.") % {"table": table},
            table_anchor[table],
            table,
        )


def _name_checks(
    curated: dict, curation: dict, visible_columns: list, table_anchor: dict[str, str], column_anchor: dict[str, str]
) -> Iterator[_Check]:
    """Tables and visible columns named like identifiers that have no readable name."""
    named_tables = curation.get("table_names", {})
    named_columns = curation.get("column_names", {})
    for table in curated["table_names_original"]:
        if identifier_like(table) and not named_tables.get(table):
            yield (
                f"name:{table}",
                "name",
                gettext("Table %(table)s has no readable name.") % {"table": table},
                table_anchor[table],
                table,
            )
    for _index, table, name, _kind in visible_columns:
        key = column_key(table, name)
        if identifier_like(name) and not named_columns.get(key):
            yield (
                f"name:{key}",
                "name",
                gettext("Column %(column)s has no readable name.") % {"column": key},
                column_anchor[key],
                table,
            )


def _same_name_checks(visible_columns: list, column_anchor: dict[str, str]) -> Iterator[_Check]:
    """Two visible columns of a table whose names differ only in case or separators."""
    by_table: dict[str, list[str]] = defaultdict(list)
    for _index, table, name, _kind in visible_columns:
        by_table[table].append(name)
    for table, names in by_table.items():
        seen: dict[str, str] = {}
        for name in names:
            if _norm(name) in seen:
                first = seen[_norm(name)]
                yield (
                    f"duplicate:{table}.{first}|{name}",
                    "duplicate",
                    gettext("%(first)s and %(second)s have the same name.")
                    % {"first": f"{table}.{first}", "second": f"{table}.{name}"},
                    column_anchor[column_key(table, name)],
                    table,
                )
            seen.setdefault(_norm(name), name)


def _data_checks(profile: dict, visible_columns: list, column_anchor: dict[str, str]) -> Iterator[_Check]:
    """Visible columns empty on every row, or holding one value on every row (of a table with rows)."""
    for _index, table, name, _kind in visible_columns:
        key = column_key(table, name)
        figures = profile["columns"].get(key)
        rows = profile["tables"].get(table, {}).get("rows")
        if not figures or not rows or figures["empty"] is None:
            continue
        if figures["empty"] == rows:
            yield (
                f"empty:{key}",
                "empty",
                gettext("Column %(column)s is empty on every row.") % {"column": key},
                column_anchor[key],
                table,
            )
        elif figures["empty"] == 0 and figures["distinct"] == 1 and rows > 1:
            yield (
                f"equal:{key}",
                "equal",
                gettext("Column %(column)s holds the same value on every row.") % {"column": key},
                column_anchor[key],
                table,
            )


def _identical_checks(profile: dict, visible_columns: list, column_anchor: dict[str, str]) -> Iterator[_Check]:
    """Two visible columns of a table equal on every row."""
    visible = {column_key(table, name) for _index, table, name, _kind in visible_columns}
    for table, first, second in profile.get("identical", []):
        if column_key(table, first) in visible and column_key(table, second) in visible:
            yield (
                f"duplicate:{table}.{first}|{second}",
                "duplicate",
                gettext("%(first)s and %(second)s hold the same values on every row.")
                % {"first": f"{table}.{first}", "second": f"{table}.{second}"},
                column_anchor[column_key(table, second)],
                table,
            )


def _proposal_checks(profile: dict, curation: dict, curated: dict) -> Iterator[_Check]:
    for proposal in proposals_waiting(profile, curation, curated):
        child, parent = column_key(*proposal["child"]), column_key(*proposal["parent"])
        text = gettext("Proposed key: %(child)s → %(parent)s.") % {"child": child, "parent": parent}
        yield f"proposal:{child}>{parent}", "proposal", text, "proposals", proposal["child"][0]
