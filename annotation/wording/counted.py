"""Which table a grouped count(*) counts, for the suggestion writers of both languages (docs/chase.md,
"Recommending the next question").

The rule is kept here once; `annotation.wording.suggestions` says the table in English ("the number of flights"),
`annotation.wording.chinese_suggestions` in Chinese. Both pass their query's facts (`_Facts`: `group`, `tables`) and
the schema's names (`_Names`: `links`, `linked`, `references`, `labels`, `known`); this module imports neither writer.
"""

from __future__ import annotations


def grouped_counted(facts, names) -> str | None:
    """The table whose rows a grouped count(*) counts, or None when the group's own rows are counted:
    - grouped by a link table's key (minor_in's department), the one other thing it links (students minoring);
    - grouped by a foreign key alone (endowment.school_id), the rows holding the key (endowments), not its parent;
    - grouped in a join, the last joined table that is neither grouped nor a link (flights per city);
    - grouped through a link table, its other things when they are one table (aircraft of employees' certificates).
    """
    if not facts.group:
        return None
    keys = list(dict.fromkeys(facts.group))
    linked = _through_link_key(keys, names)
    if linked is not None:
        return linked
    holder = _holding_foreign_key(keys, names)
    if holder is not None:
        return holder
    grouped = {column.table for column in keys}
    others = [table for table in facts.tables if table not in grouped and table not in names.links]
    if others and names.known:
        return others[-1]
    through = {
        table
        for link in facts.tables
        if link in names.links
        for table in names.linked.get(link, [])
        if table not in grouped
    }
    return through.pop() if len(through) == 1 else None


def _through_link_key(keys: list, names) -> str | None:
    on_link = [column for column in keys if column.table in names.links]
    if len(on_link) != 1:
        return None
    key = on_link[0]
    named = names.references.get((key.table, key.original.lower()))
    others = [table for table in names.linked.get(key.table, []) if table != named]
    return others[0] if named is not None and len(others) == 1 else None


def _holding_foreign_key(keys: list, names) -> str | None:
    if len(keys) != 1 or keys[0].table in names.links or keys[0].table not in names.labels:
        return None
    parent = names.references.get((keys[0].table, keys[0].original.lower()))
    return keys[0].table if parent not in (None, keys[0].table) else None


def key_counted(column, names) -> str | None:
    """The table whose rows a count of `column` counts when it is a key: its own table for its primary key
    (count(DISTINCT customers.customer_id) counts customers), the table a foreign key names otherwise; None for any
    other column."""
    if column is None or not column.is_key or column.table is None:
        return None
    if column.is_primary:
        return column.table
    return names.references.get((column.table, column.original.lower()))


def count_shown(facts, names) -> bool:
    """Whether a grouped query already shows how many of the things count(*) would count: count(*) itself, or a
    count of those things' key ("how many customers each city has" after count(DISTINCT customer_id) per city)."""
    counts = [aggregate.column for aggregate in facts.aggregates if aggregate.function == "count"]
    if None in counts:
        return True
    counted = grouped_counted(facts, names)
    return counted is not None and any(key_counted(column, names) == counted for column in counts)
