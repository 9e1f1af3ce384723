"""An operation tree (docs/goals.md) written as SQL, and what its joins count.

A tree is the sampler's (annotation.goals.sampler) and query-first annotation's (annotation.goals.tree_plan) one
description of a goal: `type`, `tables` (the anchor first), `joins`, `project`, `filters`, and where present `group`,
`having`, `order`, `nested`, `set` and `distinct`. Pure: no database.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = [
    "counted_table",
    "join_directions",
    "literal",
    "lowest_table",
    "set_side",
    "tree_probe",
    "tree_sql",
    "unread_tables",
]


def _clauses(tree: dict) -> tuple[Callable[[str], str], str, Callable[[list[dict]], str]]:
    """How a tree names a column (with its table's alias when it joins), its FROM clause, and its WHERE for a list of
    filters (the nested comparison included)."""
    tables = tree["tables"]
    alias = {table: f"T{position + 1}" for position, table in enumerate(tables)} if len(tables) > 1 else {}

    def name(qualified: str) -> str:
        table, column = qualified.split(".", 1)
        return f"{alias[table]}.{column}" if alias else column

    source = tables[0] + (f" AS {alias[tables[0]]}" if alias else "")
    # A step goes from a table of the path to the next one, along a foreign key in either direction.
    for start, start_column, end, end_column in (tuple(step) for step in tree["joins"]):
        source += f" JOIN {end} AS {alias[end]} ON {alias[start]}.{start_column} = {alias[end]}.{end_column}"

    def where(filters: list[dict]) -> str:
        parts = [f"{name(item['column'])} {item['op'].upper()} {literal(item['value'])}" for item in filters]
        nested = tree.get("nested")
        if nested:
            column = name(nested["column"])
            table, bare = nested["column"].split(".", 1)
            # Identifiers come from the schema (the sampler draws only plain ones), values through literal.
            parts.append(f"{column} {nested['op']} (SELECT {nested['aggregate']}({bare}) FROM {table})")  # noqa: S608
        return f" WHERE {' AND '.join(parts)}" if parts else ""

    return name, source, where


def tree_sql(tree: dict) -> str:
    """An operation tree (docs/goals.md) written as SQL. Besides the sampler's types, "rows" selects every column:
    the plan of a tree (annotation.goals.tree_plan) shows its tables, joins and filters that way. A tree with
    `distinct` ("table.column") counts that column's different values (count(DISTINCT ...)) where it would count
    rows: a count over a join that would count a row once per match (annotation.goals.rules)."""
    name, source, where = _clauses(tree)
    kind = tree["type"]
    shown = ", ".join(name(column) for column in tree.get("project") or [])
    counted = f"count(DISTINCT {name(tree['distinct'])})" if tree.get("distinct") else "count(*)"
    if kind == "rows":
        select = "*"
    elif kind == "count":
        select = counted
    elif kind in ("sum", "avg", "min", "max"):
        select = f"{kind}({shown})"
    elif kind == "group_count":
        select = f"{name(tree['group'])}, {counted}"
    else:
        select = shown

    sql = f"SELECT {select} FROM {source}{where(tree['filters'])}"  # noqa: S608
    if kind == "group_count":
        sql += f" GROUP BY {name(tree['group'])}"
        if "having" in tree:
            sql += f" HAVING {counted} {tree['having']['op']} {tree['having']['value']}"
    order = tree.get("order")
    if order:
        by = counted if order["by"] == "count" else name(order["by"])
        sql += f" ORDER BY {by} {'DESC' if order['desc'] else 'ASC'} LIMIT {order['limit']}"
    if "set" in tree:
        sql += f" {tree['set']['op'].upper()} " + tree_sql(set_side(tree, 2))
    return sql


def set_side(tree: dict, side: int) -> dict:
    """One side of a tree's set operation (1: the main filters, 2: the set's), as a tree of its own."""
    other = {**tree, "filters": tree["set"]["filters"]} if side == 2 else dict(tree)
    other.pop("set", None)
    return other


def tree_probe(tree: dict, select: Callable[[Callable[[str], str]], str], *, filters: list[dict] | None = None) -> str:
    """An SQL over the tree's joined and filtered rows (no grouping, order or set operation) selecting what
    `select(name)` writes, `name` giving a "table.column" its alias: the rules' reads of what a tree's rows hold."""
    name, source, where = _clauses(tree)
    return f"SELECT {select(name)} FROM {source}{where(tree['filters'] if filters is None else filters)}"  # noqa: S608


def join_directions(tree: dict, schema: dict) -> list[str]:
    """Each join step of the tree as "up" (from a row to the one row its foreign key names: many to one) or "down"
    (from a row to the rows that name it: one to many), read from the schema's foreign keys."""
    originals, names = schema["table_names_original"], schema["column_names_original"]
    links = set()
    for child, parent in schema.get("foreign_keys") or []:
        (child_table, child_column), (parent_table, parent_column) = names[child], names[parent]
        child_name, parent_name = originals[child_table].lower(), originals[parent_table].lower()
        links.add((child_name, child_column.lower(), parent_name, parent_column.lower()))
    directions = []
    for start, start_column, end, end_column in (tuple(step) for step in tree.get("joins") or []):
        step = (start.lower(), start_column.lower(), end.lower(), end_column.lower())
        directions.append("up" if step in links else "down")
    return directions


def lowest_table(tree: dict, schema: dict) -> str | None:
    """The table each row of the tree's join is one row of: the lowest table of the path, met going down from the
    anchor to the rows naming it, then up to the rows it names. None when the path goes up and then down again: its
    rows are pairs of unrelated rows (a room with every other room of its hotel)."""
    directions = join_directions(tree, schema)
    if "up" in directions and "down" in directions[directions.index("up") :]:
        return None
    return tree["tables"][directions.count("down")]


def counted_table(tree: dict) -> str:
    """The table whose rows a count of the tree counts, as its question says: the anchor for a count ("how many
    hotels whose room..."), the far end of the path for a count per group ("which city has the most rooms", "which
    amenity has the most rooms" through the link table between them)."""
    return tree["tables"][-1] if tree["type"] == "group_count" else tree["tables"][0]


def unread_tables(tree: dict) -> list[str]:
    """The tables at either end of the tree's join path that nothing reads (a table between two read ones links
    them): reading is showing (for a list or an aggregate), filtering, comparing, ordering by, and counting (the
    anchor of a count). A count per group reads its whole path: it groups the anchor and counts the far end."""
    if tree["type"] == "group_count" or not tree.get("joins"):
        return []
    columns = [item["column"] for item in tree.get("filters") or []]
    columns += [item["column"] for item in (tree.get("set") or {}).get("filters") or []]
    if tree["type"] != "count":
        columns += tree.get("project") or []
    columns += [part["column"] for part in [tree.get("nested")] if part]
    columns += [part["by"] for part in [tree.get("order")] if part and part["by"] != "count"]
    read = {column.split(".", 1)[0].lower() for column in columns}
    if tree["type"] == "count":
        read.add(tree["tables"][0].lower())  # what it counts
    positions = [position for position, table in enumerate(tree["tables"]) if table.lower() in read]
    return [
        table
        for position, table in enumerate(tree["tables"])
        if not positions or not positions[0] <= position <= positions[-1]
    ]


def literal(value) -> str | None:
    """`value` as an SQL literal, or None for a value a goal does not use (empty, long, several lines, a NULL)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, float) else str(value)
    text = str(value)
    if not text.strip() or len(text) > 60 or "\n" in text or '"' in text:
        return None
    return "'" + text.replace("'", "''") + "'"
