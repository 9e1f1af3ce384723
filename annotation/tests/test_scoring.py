"""The official metrics' rules on one query pair: exact set match on the Spider encoding, and equal results."""

import pytest

from annotation.sql.scoring import (
    exact_match,
    foreign_key_map,
    order_matters,
    prepare_for_execution,
    results_equal,
)
from annotation.sql.spider import encode_sql

# Two tables joined by a key: singer.id <- song.singer_id. Column ids: 0 *, 1 singer.id, 2 singer.name,
# 3 singer.age, 4 song.id, 5 song.singer_id, 6 song.title.
SCHEMA = {
    "db_id": "music",
    "table_names_original": ["singer", "song"],
    "table_names": ["singer", "song"],
    "column_names_original": [[-1, "*"], [0, "id"], [0, "name"], [0, "age"], [1, "id"], [1, "singer_id"], [1, "title"]],
    "column_names": [[-1, "*"], [0, "id"], [0, "name"], [0, "age"], [1, "id"], [1, "singer id"], [1, "title"]],
    "column_types": ["text", "number", "text", "number", "number", "number", "text"],
    "primary_keys": [1, 4],
    "foreign_keys": [[5, 1]],
}


def match(predicted: str, gold: str) -> bool:
    return exact_match(encode_sql(predicted, SCHEMA), encode_sql(gold, SCHEMA), SCHEMA)


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        # Values, DISTINCT and the LIMIT value are not compared; SELECT items and conditions are sets.
        ("SELECT name FROM singer WHERE age > 30", "SELECT name FROM singer WHERE age > 40"),
        ("SELECT DISTINCT name FROM singer", "SELECT name FROM singer"),
        ("SELECT count(DISTINCT name) FROM singer", "SELECT count(name) FROM singer"),
        ("SELECT name, age FROM singer", "SELECT age, name FROM singer"),
        (
            "SELECT name FROM singer WHERE age > 3 AND name = 'x'",
            "SELECT name FROM singer WHERE name = 'y' AND age > 9",
        ),
        ("SELECT name FROM singer ORDER BY age LIMIT 3", "SELECT name FROM singer ORDER BY age LIMIT 1"),
        # Either end of the foreign key reads as the same column once both tables are in FROM.
        (
            "SELECT T2.singer_id FROM singer AS T1 JOIN song AS T2 ON T1.id = T2.singer_id",
            "SELECT T1.id FROM singer AS T1 JOIN song AS T2 ON T1.id = T2.singer_id",
        ),
        # Tables are a set too.
        (
            "SELECT T1.name FROM song AS T2 JOIN singer AS T1 ON T1.id = T2.singer_id",
            "SELECT T1.name FROM singer AS T1 JOIN song AS T2 ON T1.id = T2.singer_id",
        ),
    ],
)
def test_what_exact_match_ignores(predicted, gold):
    assert match(predicted, gold)


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        ("SELECT name FROM singer WHERE age >= 30", "SELECT name FROM singer WHERE age > 30"),
        ("SELECT count(*) FROM singer", "SELECT count(id) FROM singer"),
        ("SELECT name FROM singer WHERE age > 3 OR name = 'x'", "SELECT name FROM singer WHERE age > 3 AND name = 'x'"),
        ("SELECT name FROM singer ORDER BY age DESC", "SELECT name FROM singer ORDER BY age"),
        ("SELECT name FROM singer ORDER BY age", "SELECT name FROM singer ORDER BY age LIMIT 1"),
        ("SELECT name FROM singer", "SELECT name FROM singer UNION SELECT title FROM song"),
        (
            "SELECT name FROM singer WHERE id IN (SELECT singer_id FROM song WHERE title = 'a')",
            "SELECT name FROM singer WHERE id NOT IN (SELECT singer_id FROM song WHERE title = 'a')",
        ),
        ("SELECT age FROM singer GROUP BY age HAVING count(*) > 1", "SELECT age FROM singer GROUP BY age"),
        ("SELECT title FROM song", "SELECT name FROM singer"),
    ],
)
def test_what_exact_match_tells_apart(predicted, gold):
    assert not match(predicted, gold)


def test_a_subquery_keeps_its_distinct_as_the_evaluator_compares_it():
    # Only the top query and its set-operation chain lose DISTINCT; a condition's subquery is compared as written.
    assert not match(
        "SELECT name FROM singer WHERE id IN (SELECT DISTINCT singer_id FROM song)",
        "SELECT name FROM singer WHERE id IN (SELECT singer_id FROM song)",
    )


def test_foreign_keys_group_transitively_onto_the_lowest_column():
    schema = {**SCHEMA, "foreign_keys": [[5, 1], [6, 5]]}
    assert foreign_key_map(schema) == {1: 1, 5: 1, 6: 1}


def test_results_are_equal_up_to_column_order_and_as_bags_unless_ordered():
    gold = [(1, "a"), (2, "b"), (2, "b")]
    assert results_equal(gold, [("b", 2), ("a", 1), ("b", 2)], ordered=False)
    assert not results_equal(gold, [("b", 2), ("a", 1)], ordered=False)  # a bag, not a set
    assert not results_equal(gold, [("a", 1), ("a", 1), ("b", 2)], ordered=False)
    assert results_equal(gold, [("a", 1), ("b", 2), ("b", 2)], ordered=True)
    assert not results_equal(gold, [("b", 2), ("a", 1), ("b", 2)], ordered=True)
    assert results_equal([], [], ordered=False)
    assert not results_equal([(1,)], [(1, 1)], ordered=False)


def test_a_column_permutation_must_hold_for_every_row():
    # Every row's values agree as sorted tuples, yet no one column order fits both rows.
    gold = [(1, 2, 3, 4), (5, 6, 7, 8)]
    assert not results_equal(gold, [(2, 1, 3, 4), (5, 6, 8, 7)], ordered=False)
    assert results_equal(gold, [(2, 1, 4, 3), (6, 5, 8, 7)], ordered=False)


def test_what_is_run_drops_distinct_outside_strings_and_joins_spaced_operators():
    sql = "SELECT DISTINCT name FROM t WHERE note = 'distinct' AND a > = 1 AND count(distinct b) ! = 2"
    assert prepare_for_execution(sql) == "SELECT  name FROM t WHERE note = 'distinct' AND a >= 1 AND count( b) != 2"
    assert prepare_for_execution("SELECT DISTINCT a FROM t", keep_distinct=True) == "SELECT DISTINCT a FROM t"
    assert order_matters("select a from t Order By a") and not order_matters("select a from t")
