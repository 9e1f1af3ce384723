"""bench/chase_english.py: CHASE's Spider-format parses written back as SQL with Spider's names, translated literals
replaced by real values of their column, and databases whose two schemas do not line up refused."""

import sqlite3

import pytest

from bench.chase_english import Unrebuildable, _Values, aligned, rebuild

SCHEMA = {
    "table_names_original": ["city", "country"],
    "column_names_original": [[-1, "*"], [0, "id"], [0, "name"], [0, "country_id"], [1, "id"], [1, "name"]],
    "column_types": ["text", "number", "text", "number", "number", "text"],
}
NAME_IS = {
    "table_units": [["table_unit", 0], ["table_unit", 1]],
    "conds": [[False, 2, [0, [0, 3, False], None], [0, 4, False], None]],
}


def parse(**parts):
    base = {
        "select": [False, [[0, [0, [0, 2, False], None]]]],
        "from": {"table_units": [["table_unit", 0]], "conds": []},
        "where": [],
        "groupBy": [],
        "having": [],
        "orderBy": [],
        "limit": None,
        "intersect": None,
        "union": None,
        "except": None,
    }
    return base | parts


def test_a_join_with_a_string_filter_and_a_count_is_written_back_with_aliases():
    sql = rebuild(
        parse(
            select=[False, [[3, [0, [0, 0, False], None]]]],
            **{"from": NAME_IS},
            where=[
                [False, 2, [0, [0, 5, False], None], '"法国"', None],
                "and",
                [True, 8, [0, [0, 1, False], None], parse(), None],
            ],
        ),
        SCHEMA,
    )
    assert sql == (
        "SELECT count(*) FROM city AS T1 JOIN country AS T2 ON T1.country_id = T2.id "
        "WHERE T2.name = '法国' AND T1.id NOT IN (SELECT name FROM city)"
    )


def test_the_same_table_twice_is_refused():
    with pytest.raises(Unrebuildable):
        rebuild(parse(**{"from": {"table_units": [["table_unit", 0], ["table_unit", 0]], "conds": []}}), SCHEMA)


def test_a_translated_literal_becomes_a_real_value_the_same_each_time_and_a_real_one_stays():
    connection = sqlite3.connect(":memory:")
    connection.execute("create table country (id number, name text)")
    connection.executemany("insert into country values (?, ?)", [(1, "France"), (2, "Japan"), (3, "Peru")])
    values = _Values(connection, SCHEMA, seed=0, key="x")
    first, second = values("法国", 5, "="), values("日本", 5, "=")
    assert first in ("'France'", "'Japan'", "'Peru'") and second != first
    assert values("法国", 5, "=") == first
    assert values("Japan", 5, "=") == "'Japan'" and values("12", 5, "=") == "'12'"
    assert values("%国%", 5, "like").strip("'%") in ("France", "Japan", "Peru")


def test_schemas_line_up_by_table_count_column_tables_and_types():
    assert aligned(SCHEMA, SCHEMA)
    assert not aligned(SCHEMA, SCHEMA | {"column_types": ["text"] * 6})
