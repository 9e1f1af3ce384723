"""Spider `sql` encoding: constructs on a hand-written schema, then conformance with the public releases."""

import json
from pathlib import Path

import pytest

from annotation.sql.spider import SpiderEncodingError, encode_sql, query_toks_no_value

# Column ids: 0 *, singer 1-5, concert 6-9, singer_in_concert 10-11, stadium 12-14.
CONCERTS = {
    "db_id": "concerts",
    "table_names_original": ["Singer", "concert", "singer_in_concert", "stadium"],
    "table_names": ["singer", "concert", "singer in concert", "stadium"],
    "column_names_original": [
        [-1, "*"],
        [0, "Singer_ID"],
        [0, "Name"],
        [0, "Country"],
        [0, "Age"],
        [0, "Home Town"],
        [1, "concert_id"],
        [1, "concert_name"],
        [1, "stadium_id"],
        [1, "year"],
        [2, "concert_id"],
        [2, "singer_id"],
        [3, "stadium_id"],
        [3, "name"],
        [3, "capacity"],
    ],
    "column_types": ["text"] * 15,
    "primary_keys": [1, 6, 12],
    "foreign_keys": [[8, 12], [10, 6], [11, 1]],
}
STAR, SINGER_ID, SINGER_NAME, COUNTRY, AGE, HOME_TOWN = 0, 1, 2, 3, 4, 5
CONCERT_ID, CONCERT_NAME, CONCERT_STADIUM, YEAR = 6, 7, 8, 9
SIC_CONCERT, SIC_SINGER = 10, 11
STADIUM_ID, STADIUM_NAME, CAPACITY = 12, 13, 14
SINGER, CONCERT, SINGER_IN_CONCERT, STADIUM = 0, 1, 2, 3


def col(column_id, agg=0, distinct=False):
    return [agg, column_id, distinct]


def val(column_id, agg=0, distinct=False):
    return [0, col(column_id, agg, distinct), None]


def item(column_id, agg=0, distinct=False):
    return [agg, val(column_id, distinct=distinct)]


def cond(op, left, value, value2=None, negated=False):
    return [negated, op, left, value, value2]


def query(tables, select, *, distinct=False, conds=(), **clauses):
    encoded = {
        "from": {"table_units": [["table_unit", table] for table in tables], "conds": list(conds)},
        "select": [distinct, select],
        "where": [],
        "groupBy": [],
        "having": [],
        "orderBy": [],
        "limit": None,
        "intersect": None,
        "union": None,
        "except": None,
    }
    encoded.update(clauses)
    return encoded


def encode(sql, **options):
    return encode_sql(sql, CONCERTS, **options)


# --- SELECT and names --------------------------------------------------------------------------------------------


def test_count_star_is_the_whole_dict():
    assert encode("SELECT count(*) FROM singer") == query([SINGER], [[3, val(STAR)]])


def test_names_match_case_insensitively_and_distinct_sets_the_select_flag():
    assert encode("select DISTINCT NAME, country from SINGER") == query(
        [SINGER], [item(SINGER_NAME), item(COUNTRY)], distinct=True
    )


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT T1.name FROM singer AS T1",
        "SELECT t1.Name FROM singer t1",
        "SELECT singer.name FROM singer",
        "SELECT singer.name FROM singer AS T1",
    ],
)
def test_aliases_with_or_without_as_and_table_names_qualify_columns(sql):
    assert encode(sql)["select"] == [False, [item(SINGER_NAME)]]


def test_quoted_identifiers_name_columns_with_spaces():
    assert encode("SELECT `Home Town` FROM singer")["select"][1] == [item(HOME_TOWN)]
    assert encode('SELECT "Home Town" FROM singer WHERE "Home Town" = "Oslo"')["where"] == [
        cond(2, val(HOME_TOWN), '"Oslo"')
    ]


def test_star_and_qualified_star_are_column_zero():
    assert encode("SELECT * FROM singer")["select"][1] == [item(STAR)]
    assert encode("SELECT count(T1.*) FROM singer AS T1")["select"][1] == [[3, val(STAR)]]


def test_unqualified_column_belongs_to_the_first_from_table_that_has_it():
    # stadium.name and singer.name both exist: FROM order decides, as in the releases.
    assert encode("SELECT name FROM stadium JOIN singer")["select"][1] == [item(STADIUM_NAME)]
    assert encode("SELECT name FROM singer JOIN stadium")["select"][1] == [item(SINGER_NAME)]


def test_aggregates_in_select_carry_the_agg_outside_and_distinct_inside():
    assert encode("SELECT max(age), min(age), count(DISTINCT country), sum(age), avg(age) FROM singer")["select"] == [
        False,
        [item(AGE, 1), item(AGE, 2), item(COUNTRY, 3, distinct=True), item(AGE, 4), item(AGE, 5)],
    ]


def test_arithmetic_becomes_a_unit_op():
    encoded = encode("SELECT age - singer_id, avg(age * singer_id) FROM singer WHERE age / singer_id > 2")
    assert encoded["select"][1][0] == [0, [1, col(AGE), col(SINGER_ID)]]
    assert encoded["select"][1][1] == [5, [3, col(AGE), col(SINGER_ID)]]
    assert encoded["where"] == [cond(3, [4, col(AGE), col(SINGER_ID)], 2.0)]


def test_arithmetic_with_a_literal_operand_is_rejected():
    with pytest.raises(SpiderEncodingError, match="expected a column"):
        encode("SELECT age + 1 FROM singer")


# --- FROM ----------------------------------------------------------------------------------------------------


def test_join_conditions_of_every_join_go_into_from_conds_joined_by_and():
    encoded = encode(
        "SELECT T3.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id "
        "JOIN concert AS T4 ON T2.concert_id = T4.concert_id AND T4.year = 2014 JOIN stadium AS T3 "
        "ON T4.stadium_id = T3.stadium_id"
    )
    assert encoded["from"] == {
        "table_units": [["table_unit", SINGER], ["table_unit", SINGER_IN_CONCERT], ["table_unit", CONCERT],
                        ["table_unit", STADIUM]],
        "conds": [
            cond(2, val(SINGER_ID), col(SIC_SINGER)), "and",
            cond(2, val(SIC_CONCERT), col(CONCERT_ID)), "and",
            cond(2, val(YEAR), 2014.0), "and",
            cond(2, val(CONCERT_STADIUM), col(STADIUM_ID)),
        ],
    }  # fmt: skip


def test_join_without_on_and_comma_join_have_no_conditions():
    for sql in ("SELECT count(*) FROM singer JOIN concert", "SELECT count(*) FROM singer, concert"):
        assert encode(sql)["from"] == {"table_units": [["table_unit", SINGER], ["table_unit", CONCERT]], "conds": []}


def test_subquery_in_from_is_a_sql_table_unit():
    encoded = encode("SELECT count(*) FROM (SELECT country FROM singer GROUP BY country)")
    assert encoded["from"]["table_units"] == [
        ["sql", query([SINGER], [item(COUNTRY)], groupBy=[col(COUNTRY)])],
    ]


# --- conditions and values -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("operator", "op_id"),
    [("=", 2), (">", 3), ("<", 4), (">=", 5), ("<=", 6), ("!=", 7), ("<>", 7), ("! =", 7), ("> =", 5), ("< =", 6)],
)
def test_comparison_operators_including_the_spaced_forms_of_the_releases(operator, op_id):
    assert encode(f"SELECT name FROM singer WHERE age {operator} 30")["where"] == [cond(op_id, val(AGE), 30.0)]


def test_values_numbers_are_floats_and_strings_keep_double_quotes():
    encoded = encode("SELECT name FROM singer WHERE country = 'France' OR country = \"Norway\" AND age > -1.5")
    assert encoded["where"] == [
        cond(2, val(COUNTRY), '"France"'),
        "or",
        cond(2, val(COUNTRY), '"Norway"'),
        "and",
        cond(3, val(AGE), -1.5),
    ]


def test_column_on_the_right_hand_side_is_a_col_unit():
    encoded = encode("SELECT T1.name FROM singer AS T1 JOIN stadium AS T2 WHERE T1.name = T2.name")
    assert encoded["where"] == [cond(2, val(SINGER_NAME), col(STADIUM_NAME))]


def test_between_like_not_like_in_not_in():
    encoded = encode(
        "SELECT name FROM singer WHERE age BETWEEN 20 AND 30 AND name LIKE '%a%' AND name NOT LIKE 'b%' "
        "AND singer_id IN (SELECT singer_id FROM singer_in_concert) "
        "AND singer_id NOT IN (SELECT singer_id FROM singer_in_concert)"
    )
    subquery = query([SINGER_IN_CONCERT], [item(SIC_SINGER)])
    assert encoded["where"] == [
        cond(1, val(AGE), 20.0, 30.0), "and",
        cond(9, val(SINGER_NAME), '"%a%"'), "and",
        cond(9, val(SINGER_NAME), '"b%"', negated=True), "and",
        cond(8, val(SINGER_ID), subquery), "and",
        cond(8, val(SINGER_ID), subquery, negated=True),
    ]  # fmt: skip


def test_not_between_and_is_null_and_is_not_null():
    encoded = encode("SELECT name FROM singer WHERE age NOT BETWEEN 1 AND 2 AND country IS NULL OR name IS NOT NULL")
    assert encoded["where"] == [
        cond(1, val(AGE), 1.0, 2.0, negated=True), "and",
        cond(10, val(COUNTRY), "null"), "or",
        cond(10, val(SINGER_NAME), "null", negated=True),
    ]  # fmt: skip


def test_exists_and_not_exists_hold_the_subquery_as_value():
    encoded = encode(
        "SELECT name FROM singer AS T1 WHERE NOT EXISTS (SELECT * FROM singer_in_concert AS T2 "
        "WHERE T2.singer_id = T1.singer_id)"
    )
    correlated = query([SINGER_IN_CONCERT], [item(STAR)], where=[cond(2, val(SIC_SINGER), col(SINGER_ID))])
    assert encoded["where"] == [cond(11, val(STAR), correlated, negated=True)]


def test_scalar_subquery_value_and_aggregate_in_where():
    encoded = encode("SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)")
    assert encoded["where"] == [cond(3, val(AGE), query([SINGER], [item(AGE, 5)]))]


def test_parenthesised_condition_groups_are_flattened_in_written_order():
    encoded = encode("SELECT name FROM singer WHERE (age > 20 OR age < 10) AND country = 'France'")
    assert encoded["where"] == [
        cond(3, val(AGE), 20.0),
        "or",
        cond(4, val(AGE), 10.0),
        "and",
        cond(2, val(COUNTRY), '"France"'),
    ]


def test_or_after_a_column_valued_condition_is_swallowed_as_in_the_releases():
    encoded = encode(
        "SELECT T1.name FROM stadium AS T1 JOIN concert AS T2 ON T1.stadium_id = T2.stadium_id "
        "OR T1.stadium_id = T2.concert_id WHERE T1.name = T2.concert_name OR T2.year = 1 AND T2.year > 2"
    )
    assert encoded["from"]["conds"] == [cond(2, val(STADIUM_ID), col(CONCERT_STADIUM))]
    # AND ends the swallowed stretch; a literal value never starts one.
    assert encoded["where"] == [cond(2, val(STADIUM_NAME), col(CONCERT_NAME)), "and", cond(3, val(YEAR), 2.0)]
    literal = encode("SELECT name FROM stadium WHERE capacity = 1 OR capacity = 2")
    assert literal["where"] == [cond(2, val(CAPACITY), 1.0), "or", cond(2, val(CAPACITY), 2.0)]


# --- GROUP BY, HAVING, ORDER BY, LIMIT -----------------------------------------------------------------------


def test_group_by_having_order_by_limit():
    encoded = encode(
        "SELECT country, count(*) FROM singer GROUP BY country HAVING count(*) > 2 ORDER BY count(*) DESC LIMIT 3"
    )
    assert encoded == query(
        [SINGER],
        [item(COUNTRY), [3, val(STAR)]],
        groupBy=[col(COUNTRY)],
        having=[cond(3, val(STAR, agg=3), 2.0)],
        orderBy=["desc", [val(STAR, agg=3)]],
        limit=3,
    )


@pytest.mark.parametrize(
    ("order_by", "direction"),
    [("age", "asc"), ("age DESC", "desc"), ("age DESC, name", "desc"), ("age DESC, name ASC", "asc")],
)
def test_order_direction_is_the_last_one_written(order_by, direction):
    assert encode(f"SELECT name FROM singer ORDER BY {order_by}")["orderBy"][0] == direction


def test_order_by_a_select_alias_uses_the_aliased_expression():
    encoded = encode("SELECT country, count(*) AS total FROM singer GROUP BY country ORDER BY total DESC")
    assert encoded["orderBy"] == ["desc", [val(STAR, agg=3)]]


def test_limit_modes():
    sql = "SELECT name FROM singer ORDER BY age LIMIT 5"
    assert encode(sql)["limit"] == 5
    assert encode(sql, limit_mode="value")["limit"] == 5
    assert encode(sql, limit_mode="one")["limit"] == 1
    assert encode("SELECT name FROM singer", limit_mode="one")["limit"] is None
    with pytest.raises(ValueError, match="limit_mode"):
        encode(sql, limit_mode="two")


# --- set operations ------------------------------------------------------------------------------------------


def test_set_operations_chain_to_the_right():
    encoded = encode(
        "SELECT name FROM singer UNION SELECT name FROM stadium EXCEPT SELECT concert_name FROM concert "
        "INTERSECT SELECT name FROM singer WHERE age > 1"
    )
    assert encoded["union"]["select"][1] == [item(STADIUM_NAME)]
    assert encoded["union"]["except"]["select"][1] == [item(CONCERT_NAME)]
    assert encoded["union"]["except"]["intersect"]["where"] == [cond(3, val(AGE), 1.0)]
    assert encoded["except"] is None and encoded["intersect"] is None


def test_order_by_and_limit_after_a_set_operation_belong_to_the_last_select():
    encoded = encode("SELECT name FROM singer INTERSECT SELECT name FROM stadium ORDER BY name LIMIT 2")
    assert encoded["orderBy"] == [] and encoded["limit"] is None
    assert encoded["intersect"]["orderBy"] == ["asc", [val(STADIUM_NAME)]]
    assert encoded["intersect"]["limit"] == 2


def test_set_operation_inside_a_value():
    encoded = encode(
        "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert "
        "EXCEPT SELECT singer_id FROM singer WHERE age > 30)"
    )
    value = encoded["where"][0][3]
    assert value["select"][1] == [item(SIC_SINGER)]
    assert value["except"]["where"] == [cond(3, val(AGE), 30.0)]


def test_trailing_semicolon_and_unmatched_closing_parenthesis_are_ignored():
    expected = encode("SELECT name FROM singer WHERE age = 1 OR age = 2")
    assert encode("SELECT name FROM singer WHERE age = 1 or age = 2 ) ;") == expected


# --- errors --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT name FROM singers", "unknown table 'singers'"),
        ("SELECT nickname FROM singer", "unknown column 'nickname'"),
        ("SELECT T9.name FROM singer AS T1", "unknown table or alias 't9'"),
        ("SELECT T1.capacity FROM singer AS T1", "unknown column t1.capacity"),
        ("SELECT capacity FROM singer", "unknown column 'capacity'"),
        ("SELECT lower(name) FROM singer", "unsupported function"),
        ("SELECT name FROM singer WHERE age IN (1, 2)", "IN with a list of values"),
        ("SELECT T1.name FROM singer AS T1 LEFT JOIN concert AS T2", "LEFT JOIN is not supported"),
        ("SELECT name FROM singer UNION ALL SELECT name FROM stadium", "UNION ALL is not supported"),
        ("SELECT name FROM singer LIMIT 1 OFFSET 2", "OFFSET"),
        ("SELECT name FROM singer WHERE", "SQL syntax error"),
        ("SELECT 1", "without FROM"),
        ("SELECT name FROM singer; SELECT age FROM singer", "one SQL statement"),
        ("SELECT CASE WHEN age > 1 THEN name END FROM singer", "unsupported function 'CASE"),
        ("WITH s AS (SELECT name FROM singer) SELECT name FROM s", "not supported"),
        ("DELETE FROM singer", "expected a SELECT"),
    ],
)
def test_unencodable_sql_raises_a_clear_error(sql, message):
    with pytest.raises(SpiderEncodingError, match=message):
        encode(sql)


def test_encoding_error_is_a_value_error():
    assert issubclass(SpiderEncodingError, ValueError)


def test_a_schema_that_is_not_a_tables_json_entry_is_rejected():
    with pytest.raises(SpiderEncodingError, match="tables.json"):
        encode_sql("SELECT name FROM singer", {"db_id": "broken"})


def test_two_schemas_with_the_same_db_id_do_not_share_a_cached_lookup():
    renamed = {**CONCERTS, "table_names_original": ["artist", "concert", "singer_in_concert", "stadium"]}
    assert encode_sql("SELECT name FROM artist", renamed)["select"][1] == [item(SINGER_NAME)]
    with pytest.raises(SpiderEncodingError, match="unknown table 'artist'"):
        encode("SELECT name FROM artist")


# --- query_toks_no_value -------------------------------------------------------------------------------------


def test_query_toks_no_value_lowercases_splits_and_hides_values():
    assert query_toks_no_value("SELECT T1.Name FROM singer AS T1 WHERE T1.age >= 20 AND T1.country = 'New York';") == [
        "select", "t1", ".", "name", "from", "singer", "as", "t1", "where", "t1", ".", "age", ">", "=", "value",
        "and", "t1", ".", "country", "=", "value",
    ]  # fmt: skip


def test_query_toks_no_value_keeps_names_that_start_with_digits_whole():
    assert query_toks_no_value("SELECT `18_49_Rating_Share` FROM tv WHERE x > 1.5") == [
        "select", "`", "18_49_rating_share", "`", "from", "tv", "where", "x", ">", "value",
    ]  # fmt: skip


def test_query_toks_no_value_handles_double_quotes_limits_and_chinese_names():
    assert query_toks_no_value('select 平台名 from 平台 where 是否自营 = "是" order by 会员费 desc limit 1') == [
        "select", "平台名", "from", "平台", "where", "是否自营", "=", "value", "order", "by", "会员费", "desc",
        "limit", "value",
    ]  # fmt: skip


# --- conformance with the public releases ---------------------------------------------------------------------

KNOWN_DIFFERENCES_PATH = Path(__file__).parent / "fixtures" / "spider_encoding_known_differences.json"

# (file, limit mode, tables file). SParC keeps LIMIT values in this sample (7 turns have LIMIT 2-5), CoSQL writes 1
# for every LIMIT (3 turns would differ with "value"); every CHASE LIMIT is 1, so both modes match there.
RELEASES = [
    ("spider_dev_sample.json", "value", ("spider", "tables.json")),
    ("sparc_dev_sample.json", "value", ("spider", "tables.json")),
    ("cosql_dev_sample.json", "one", ("spider", "tables.json")),
    ("chase_dev_sample.json", "one", ("samples", "chase_tables_sample.json")),
]


def _load_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _release_turns(shared_path, filename):
    """Yield (db_id, turn) for every turn of a sample: Spider records or the interaction turns of the others."""
    for record in _load_json(shared_path("samples", filename)):
        if "interaction" in record:
            for turn in record["interaction"]:
                yield record["database_id"], turn
        else:
            yield record["db_id"], record


def _known_differences(filename):
    return {entry["query"] for entry in _load_json(KNOWN_DIFFERENCES_PATH) if entry["file"] == filename}


def test_known_differences_fixture_gives_a_reason_for_every_entry():
    entries = _load_json(KNOWN_DIFFERENCES_PATH)
    assert entries, "the fixture should list the Spider multi-join quirk"
    for entry in entries:
        assert set(entry) == {"file", "db_id", "query", "reason"}
        assert entry["file"] in {release[0] for release in RELEASES}
        assert len(entry["reason"]) > 40


@pytest.mark.conformance
@pytest.mark.parametrize(("filename", "limit_mode", "tables_file"), RELEASES, ids=[r[0] for r in RELEASES])
def test_sql_field_matches_the_release(shared_path, conformance_rates, filename, limit_mode, tables_file):
    schemas = {schema["db_id"]: schema for schema in _load_json(shared_path(*tables_file))}
    known = _known_differences(filename)
    matched = total = 0
    unexpected, still_different = [], set()
    for db_id, turn in _release_turns(shared_path, filename):
        total += 1
        try:
            encoded = encode_sql(turn["query"], schemas[db_id], limit_mode=limit_mode)
        except SpiderEncodingError as error:
            encoded = f"error: {error}"
        if encoded == turn["sql"]:
            matched += 1
        elif turn["query"] in known:
            still_different.add(turn["query"])
        else:
            unexpected.append(f"{db_id}: {turn['query']}\n  release: {turn['sql']}\n  encoded: {encoded}")
    listed = total - matched - len(unexpected)
    rate = (
        f"{filename} sql: {matched}/{total} ({100 * matched / total:.1f}%); {listed} turns "
        f"({len(still_different)} distinct queries) differ as listed in the known differences"
    )
    conformance_rates.append(rate)
    print(rate)
    assert not unexpected, f"{rate}; {len(unexpected)} unlisted mismatches:\n" + "\n".join(unexpected[:10])
    assert still_different == known, f"stale known differences (they match now): {sorted(known - still_different)}"


@pytest.mark.conformance
@pytest.mark.parametrize("filename", ["spider_dev_sample.json", "cosql_dev_sample.json", "chase_dev_sample.json"])
def test_query_toks_no_value_matches_the_release(shared_path, conformance_rates, filename):
    turns = [turn for _, turn in _release_turns(shared_path, filename) if "query_toks_no_value" in turn]
    assert turns, f"{filename} has no query_toks_no_value"
    mismatches = [turn["query"] for turn in turns if query_toks_no_value(turn["query"]) != turn["query_toks_no_value"]]
    rate = f"{filename} query_toks_no_value: {len(turns) - len(mismatches)}/{len(turns)}"
    conformance_rates.append(rate)
    print(rate)
    assert not mismatches, f"{rate}; first mismatches: {mismatches[:5]}"


def test_parsing_tools_are_kept_per_thread_and_survive_an_error():
    import threading

    from sqlglot.dialects.dialect import Dialect

    from annotation.sql.spider import parsing_tools

    mine = parsing_tools()
    assert parsing_tools() is mine  # built once per thread, not per query
    assert parsing_tools(Dialect.get_or_raise("sqlite")) is not mine  # one pair per dialect
    theirs = []
    thread = threading.Thread(target=lambda: theirs.append(parsing_tools()))
    thread.start()
    thread.join()
    assert theirs[0][0] is not mine[0] and theirs[0][1] is not mine[1]  # tokenizers and parsers keep per-call state
    with pytest.raises(SpiderEncodingError):
        encode_sql("SELECT name FROM singer WHERE (", CONCERTS)
    # The same tools read the next query as a fresh pair would.
    assert encode_sql("SELECT name FROM singer", CONCERTS) == encode_sql("select NAME from SINGER", CONCERTS)
