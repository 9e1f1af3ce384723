"""Spider hardness levels: the counting rules with their official quirks, then all 1,171 official values."""

import csv
import json
from collections import Counter

import pytest

from annotation.sql.hardness import HARDNESS_LEVELS, hardness
from annotation.sql.spider import encode_sql
from annotation.tests.test_spider_encoding import CONCERTS


def level(sql):
    return hardness(encode_sql(sql, CONCERTS))


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT count(*) FROM singer", "easy"),
        ("SELECT name FROM singer WHERE age > 20", "easy"),
        # one component plus several select columns
        ("SELECT name, country, age FROM singer ORDER BY age DESC", "medium"),
        # ORDER BY and LIMIT are two components
        ("SELECT name FROM singer ORDER BY age LIMIT 1", "medium"),
        # a join counts one component per extra table
        ("SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 JOIN concert AS T3 WHERE T3.year = 1", "hard"),
        # where + group by, and three "others": several select columns, where conditions, group-by columns
        ("SELECT name, country FROM singer WHERE age > 1 AND age < 5 GROUP BY name, country", "hard"),
        # LIKE and OR are components too: where + or + like = 3
        ("SELECT name FROM singer WHERE name LIKE 'a%' OR country = 'x'", "hard"),
        ("SELECT name FROM singer WHERE age > 1 GROUP BY name ORDER BY age LIMIT 1", "extra"),
    ],
)
def test_components_and_others(sql, expected):
    assert level(sql) == expected


def test_a_nested_condition_value_makes_an_easy_query_hard_and_a_medium_one_extra():
    assert level("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)") == "hard"
    assert level("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer) ORDER BY age") == "extra"


def test_set_operations_are_nested_queries():
    assert level("SELECT name FROM singer UNION SELECT name FROM stadium") == "hard"
    # only the outer query is counted: one where component still allows hard, a second select column does not
    assert level("SELECT name FROM singer WHERE age > 1 EXCEPT SELECT name FROM stadium") == "hard"
    assert level("SELECT name, age FROM singer EXCEPT SELECT name, age FROM singer WHERE age > 1") == "extra"


def test_a_from_subquery_is_not_a_nested_query():
    assert level("SELECT count(*) FROM (SELECT country FROM singer GROUP BY country)") == "easy"


def test_a_not_where_condition_counts_as_an_aggregation():
    assert level("SELECT max(age) FROM singer WHERE age BETWEEN 1 AND 3") == "easy"
    assert level("SELECT max(age) FROM singer WHERE age NOT BETWEEN 1 AND 3") == "medium"


def test_having_counts_connectors_as_aggregations_but_not_its_own_aggregates():
    assert level("SELECT count(*) FROM singer GROUP BY country HAVING max(age) > 1") == "easy"
    assert level("SELECT count(*) FROM singer GROUP BY country HAVING max(age) > 1 AND min(age) < 5") == "medium"


def test_order_by_aggregates_count_as_aggregations():
    assert level("SELECT max(age) FROM singer ORDER BY age") == "easy"
    assert level("SELECT max(age) FROM singer ORDER BY count(*)") == "medium"
    # group by + order by with two "others" (two aggregations, two select items) is past hard
    assert level("SELECT max(age), country FROM singer GROUP BY country ORDER BY count(*)") == "extra"


def test_hardness_reads_a_plain_dict():
    sql = {
        "from": {"table_units": [["table_unit", 0]], "conds": []},
        "select": [False, [[3, [0, [0, 0, False], None]]]],
        "where": [],
        "groupBy": [],
        "having": [],
        "orderBy": [],
        "limit": None,
        "intersect": None,
        "union": None,
        "except": None,
    }
    assert hardness(sql) == "easy"
    assert hardness({**sql, "limit": 1, "orderBy": ["asc", [[0, [0, 1, False], None]]]}) == "medium"
    assert hardness(sql) in HARDNESS_LEVELS


@pytest.mark.conformance
def test_every_official_hardness_value_is_reproduced(shared_path, conformance_rates):
    with open(shared_path("spider", "tables.json"), encoding="utf-8") as handle:
        schemas = {schema["db_id"]: schema for schema in json.load(handle)}
    with open(shared_path("samples", "hardness_oracle.tsv"), encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert len(rows) == 1171
    matched = Counter()
    mismatches = []
    for row in rows:
        computed = hardness(encode_sql(row["query"], schemas[row["db_id"]], limit_mode="value"))
        if computed == row["hardness"]:
            matched[row["source"]] += 1
        else:
            mismatches.append(f"{row['source']} {row['db_id']}: {row['hardness']} != {computed}: {row['query']}")
    per_source = ", ".join(f"{source} {count}" for source, count in sorted(matched.items()))
    rate = f"hardness_oracle.tsv: {sum(matched.values())}/{len(rows)} ({per_source})"
    conformance_rates.append(rate)
    print(rate)
    assert not mismatches, f"{rate}; mismatches:\n" + "\n".join(mismatches[:10])
