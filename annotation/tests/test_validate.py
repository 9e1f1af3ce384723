"""validate_sql: syntax errors with positions, unknown names with suggestions, scoping rules, non-SELECT refused."""

import pytest

from annotation.sql.validate import validate_sql

# A Spider tables.json entry, in the shape the platform stores (concert_singer, trimmed).
SCHEMA = {
    "db_id": "concert_singer",
    "table_names_original": ["stadium", "singer", "concert", "singer_in_concert"],
    "column_names_original": [
        [-1, "*"],
        [0, "Stadium_ID"],
        [0, "Location"],
        [0, "Name"],
        [0, "Capacity"],
        [1, "Singer_ID"],
        [1, "Name"],
        [1, "Country"],
        [1, "Age"],
        [2, "concert_ID"],
        [2, "concert_Name"],
        [2, "Stadium_ID"],
        [2, "Year"],
        [3, "concert_ID"],
        [3, "Singer_ID"],
    ],
}


def only_error(sql: str) -> dict:
    result = validate_sql(sql, SCHEMA)
    assert not result["ok"], result
    assert len(result["errors"]) == 1, result["errors"]
    return result["errors"][0]


def assert_valid(sql: str) -> dict:
    result = validate_sql(sql, SCHEMA)
    assert result["ok"], result["errors"]
    assert result["errors"] == []
    return result


def text_at(sql: str, error: dict) -> str:
    return sql[error["start"] : error["end"]]


# --- Valid queries stay valid -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM singer",
        "select name, country from SINGER where AGE > 20 order by Age desc limit 3",
        "SELECT T2.Name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.Singer_ID = T2.Singer_ID",
        "SELECT t1.name FROM stadium t1 JOIN concert t2 ON t1.stadium_id = t2.stadium_id GROUP BY t1.name",
        'SELECT "Name", [Country], `Age` FROM "singer"',
        "SELECT T1.* FROM singer AS T1",
        "SELECT country, count(*) AS n FROM singer GROUP BY country HAVING n > 1 ORDER BY n",
        "SELECT name AS who FROM singer WHERE who LIKE 'J%'",
        "SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)",
        "SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM singer_in_concert c WHERE c.singer_id = s.singer_id)",
        "SELECT sub.n FROM (SELECT name AS n FROM singer) AS sub",
        "SELECT s.age FROM (SELECT * FROM singer) AS s",
        "WITH young AS (SELECT name, age FROM singer WHERE age < 30) SELECT name FROM young ORDER BY age",
        "WITH a(x) AS (SELECT name FROM singer) SELECT x FROM a",
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5) SELECT i FROM r",
        "SELECT name FROM singer UNION SELECT name FROM stadium",
        "SELECT concert_name FROM concert JOIN stadium USING (stadium_id)",
        "SELECT stadium_id FROM concert JOIN stadium USING (stadium_id)",
        "SELECT name, rank() OVER (PARTITION BY country ORDER BY age) FROM singer",
        "SELECT rowid, name FROM singer",
        "SELECT name FROM sqlite_master WHERE type = 'table'",
        "SELECT name FROM singer; ",
    ],
)
def test_valid_queries_have_no_errors(sql):
    assert_valid(sql)


def test_a_double_quoted_string_is_a_warning_not_an_unknown_column():
    # Spider writes strings in double quotes; SQLite falls back to reading an unknown "name" as a string literal.
    sql = 'SELECT name FROM singer WHERE country = "France"'
    result = assert_valid(sql)
    (warning,) = result["warnings"]
    assert warning["kind"] == "string_literal"
    assert text_at(sql, warning) == '"France"'


# --- Syntax errors carry a position -----------------------------------------------------------------------------------


def test_a_syntax_error_points_at_the_offending_token():
    sql = "SELECT name FROM singer\nWHERE age >> > 3"
    error = only_error(sql)
    assert error["kind"] == "syntax"
    assert error["line"] == 2
    assert error["start"] is not None and error["end"] > error["start"]
    assert sql[error["start"] : error["end"]].strip() in {">>", ">"}


def test_a_misspelt_keyword_is_a_syntax_error_at_that_word():
    sql = "SELECT name FROM singer GROUP name"
    error = only_error(sql)
    assert error["kind"] == "syntax"
    assert text_at(sql, error) == "name"
    assert (error["line"], error["col"]) == (1, sql.rindex("name") + 1)


def test_an_unterminated_string_points_at_its_quote():
    sql = "SELECT name FROM singer WHERE name = 'Joe"
    error = only_error(sql)
    assert error["kind"] == "syntax"
    assert error["start"] == sql.index("'")


def test_a_select_without_columns_is_a_syntax_error():
    assert only_error("SELECT")["kind"] == "syntax"


def test_empty_sql_is_a_syntax_error():
    assert only_error("   ")["kind"] == "syntax"


# --- Unknown tables and columns get suggestions -----------------------------------------------------------------------


def test_an_unknown_table_suggests_the_closest_names():
    sql = "SELECT * FROM singers"
    error = only_error(sql)
    assert error["kind"] == "unknown_table"
    assert text_at(sql, error) == "singers"
    assert error["suggestions"][0] == "singer"
    assert "singer_in_concert" not in error["suggestions"][:1]


def test_an_unknown_column_suggests_the_closest_names_with_its_position():
    sql = "SELECT nme FROM singer"
    error = only_error(sql)
    assert error["kind"] == "unknown_column"
    assert (error["start"], error["end"]) == (7, 10)
    assert (error["line"], error["col"]) == (1, 8)
    assert error["suggestions"] == ["Name"]


def test_an_unknown_column_behind_an_alias_is_checked_against_that_table():
    sql = "SELECT T1.capacity FROM singer AS T1 JOIN stadium AS T2 ON T1.singer_id = T2.stadium_id"
    error = only_error(sql)
    assert error["kind"] == "unknown_column"
    assert text_at(sql, error) == "capacity"
    assert "T1" in error["message"]


def test_an_unknown_alias_is_reported_with_the_aliases_in_scope():
    sql = "SELECT T3.name FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.concert_id"
    error = only_error(sql)
    assert error["kind"] == "unknown_table"
    assert text_at(sql, error) == "T3"
    assert set(error["suggestions"]) <= {"T1", "T2"} and error["suggestions"]


def test_a_table_name_hidden_by_its_alias_is_unknown_as_in_sqlite():
    sql = "SELECT singer.name FROM singer AS T1"
    assert only_error(sql)["kind"] == "unknown_table"


def test_a_column_of_a_table_not_joined_is_named_in_the_message():
    error = only_error("SELECT capacity FROM singer")
    assert error["kind"] == "unknown_column"
    assert "stadium" in error["message"]


def test_names_are_case_insensitive_and_quoted_names_resolve():
    assert_valid('SELECT "NAME", t1."Age" FROM SINGER AS t1 WHERE T1.COUNTRY = \'France\'')


def test_an_ambiguous_column_lists_its_qualified_candidates():
    sql = "SELECT name FROM singer JOIN stadium ON singer.singer_id = stadium.stadium_id"
    error = only_error(sql)
    assert error["kind"] == "ambiguous_column"
    assert set(error["suggestions"]) == {"singer.name", "stadium.name"}


def test_the_same_table_twice_makes_its_columns_ambiguous():
    error = only_error("SELECT name FROM singer AS a JOIN singer AS b ON a.singer_id = b.singer_id")
    assert error["kind"] == "ambiguous_column"
    assert set(error["suggestions"]) == {"a.name", "b.name"}


# --- Subqueries and CTEs resolve in their own scope -------------------------------------------------------------------


def test_a_subquery_column_is_checked_against_the_subquery_output():
    sql = "SELECT sub.name FROM (SELECT name AS n FROM singer) AS sub"
    error = only_error(sql)
    assert error["kind"] == "unknown_column"
    assert text_at(sql, error) == "name"


def test_a_column_inside_a_subquery_is_checked_against_its_own_tables():
    sql = "SELECT name FROM singer WHERE age > (SELECT avg(capacty) FROM stadium)"
    error = only_error(sql)
    assert error["kind"] == "unknown_column"
    assert error["suggestions"] == ["Capacity"]


def test_a_correlated_reference_to_an_outer_alias_is_checked():
    sql = "SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM concert AS c WHERE c.stadium_id = s.singer_idd)"
    error = only_error(sql)
    assert error["kind"] == "unknown_column"
    assert error["suggestions"] == ["Singer_ID"]


def test_a_cte_is_a_table_and_exposes_only_its_columns():
    sql = "WITH young AS (SELECT name FROM singer) SELECT age FROM young"
    error = only_error(sql)
    assert error["kind"] == "unknown_column"
    assert text_at(sql, error) == "age"


def test_a_misspelt_cte_name_is_suggested():
    sql = "WITH young AS (SELECT name FROM singer) SELECT name FROM yung"
    error = only_error(sql)
    assert error["kind"] == "unknown_table"
    assert error["suggestions"] == ["young"]


def test_a_cte_column_list_renames_its_columns():
    error = only_error("WITH a(x) AS (SELECT name FROM singer) SELECT name FROM a")
    assert error["kind"] == "unknown_column"


def test_a_union_branch_is_checked():
    error = only_error("SELECT name FROM singer UNION SELECT nam FROM stadium")
    assert error["kind"] == "unknown_column"
    assert error["suggestions"] == ["Name"]


def test_several_errors_are_all_reported_in_order():
    sql = "SELECT nme, agee FROM singer"
    result = validate_sql(sql, SCHEMA)
    assert [text_at(sql, error) for error in result["errors"]] == ["nme", "agee"]


# --- Only one SELECT --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM singer",
        "INSERT INTO singer (name) VALUES ('x')",
        "UPDATE singer SET age = 1",
        "DROP TABLE singer",
        "CREATE TABLE x (a)",
        "ATTACH 'x.db' AS x",
        "PRAGMA table_info(singer)",
        "VACUUM",
        "BEGIN",
        "EXPLAIN SELECT 1",
        "WITH x AS (SELECT 1) DELETE FROM singer",
        "SELECT 1; DELETE FROM singer",
        "SELECT name FROM singer; SELECT name FROM stadium",
    ],
)
def test_anything_but_one_select_is_a_statement_error(sql):
    error = only_error(sql)
    assert error["kind"] == "statement"
    assert error["start"] is not None


def test_the_second_statement_is_located():
    sql = "SELECT 1;\nDELETE FROM singer"
    error = only_error(sql)
    assert error["line"] == 2 and text_at(sql, error).startswith("DELETE")


# --- Speed: it runs on every keystroke --------------------------------------------------------------------------------


def test_validation_is_fast_enough_for_every_keystroke():
    import time

    sql = (
        "SELECT T2.name, count(*) FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id "
        "WHERE T2.age > (SELECT avg(age) FROM singer) GROUP BY T2.name ORDER BY count(*) DESC LIMIT 5"
    )
    validate_sql(sql, SCHEMA)
    started = time.perf_counter()
    for _ in range(50):
        assert validate_sql(sql, SCHEMA)["ok"]
    assert (time.perf_counter() - started) / 50 < 0.02  # 20 ms; about 1 ms measured


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT " + "(" * 3000 + "1" + ")" * 3000,
        "SELECT name FROM singer WHERE age IN " + "(SELECT age FROM singer WHERE age IN " * 200 + "(1)" + ")" * 200,
    ],
)
def test_pathologically_deep_sql_is_an_error_not_an_exception(sql):
    result = validate_sql(sql, SCHEMA)
    assert not result["ok"]
    assert result["errors"][0]["kind"] == "syntax"


def test_sql_over_the_sandbox_length_limit_is_refused_without_parsing():
    error = only_error("SELECT name FROM singer WHERE " + " AND ".join(f"age <> {n}" for n in range(3000)))
    assert error["kind"] == "statement"
    assert "limit" in error["message"]
