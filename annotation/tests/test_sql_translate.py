"""A query moved onto a translated database (annotation.sql.translate): names through the name map, string literals
through the value map, the query's own text kept around them. Real sqlglot parses, schemas of our own."""

import pytest

from annotation.sql.translate import NameMap, ValueMap, name_error, rewrite_sql, translated_schema

SCHEMA = {
    "db_id": "music",
    "table_names_original": ["singer", "concert", "singer_in_concert"],
    "table_names": ["singer", "concert", "singer in concert"],
    "column_names_original": [
        [-1, "*"],
        [0, "Singer_ID"],
        [0, "Name"],
        [0, "Country"],
        [1, "concert_ID"],
        [1, "Name"],
        [2, "concert_ID"],
        [2, "Singer_ID"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "singer id"],
        [0, "name"],
        [0, "country"],
        [1, "concert id"],
        [1, "name"],
        [2, "concert id"],
        [2, "singer id"],
    ],
    "column_types": ["text", "number", "text", "text", "number", "text", "number", "number"],
    "primary_keys": [1, 4],
    "foreign_keys": [[6, 4], [7, 1]],
}
NAMES = NameMap.of(
    SCHEMA,
    {"singer": "歌手", "concert": "演唱会", "singer_in_concert": "演出"},
    {
        ("singer", "Singer_ID"): "歌手id",
        ("singer", "Name"): "姓名",
        ("singer", "Country"): "国家",
        ("concert", "concert_ID"): "演唱会id",
        ("concert", "Name"): "名称",  # the same original name in two tables, two translations
        ("singer_in_concert", "concert_ID"): "演唱会id",
        ("singer_in_concert", "Singer_ID"): "歌手id",
    },
)
VALUES = ValueMap.of({"France": "法国", "Joe Sharp": "乔·夏普", "It's": "它的"})


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT name FROM singer", "SELECT 姓名 FROM 歌手"),
        ("SELECT name FROM concert", "SELECT 名称 FROM 演唱会"),
        # Aliases are kept; each qualified column goes through its own table.
        (
            "SELECT T1.name ,  T2.name FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.concert_id",
            "SELECT T1.姓名 ,  T2.名称 FROM 歌手 AS T1 JOIN 演唱会 AS T2 ON T1.歌手id = T2.演唱会id",
        ),
        # An unqualified column is the one table of its SELECT that has it; a subquery has its own FROM.
        (
            "select name from singer where singer_id not in (select singer_id from singer_in_concert)",
            "select 姓名 from 歌手 where 歌手id not in (select 歌手id from 演出)",
        ),
        # A column of the outer query read inside a subquery.
        (
            "select name from singer as s where exists (select * from singer_in_concert where singer_id = s.singer_id)",
            "select 姓名 from 歌手 as s where exists (select * from 演出 where 歌手id = s.歌手id)",
        ),
        # A table's own name as qualifier is translated with the table.
        ("SELECT singer.name FROM singer", "SELECT 歌手.姓名 FROM 歌手"),
        # Values: the query's quotes kept, the value translated; up to case when one spelling matches.
        ('SELECT name FROM singer WHERE country = "France"', 'SELECT 姓名 FROM 歌手 WHERE 国家 = "法国"'),
        # Up to case for LIKE only, which folds case; = tells 'france' from the cell 'France'.
        ("SELECT name FROM singer WHERE country LIKE 'france'", "SELECT 姓名 FROM 歌手 WHERE 国家 LIKE '法国'"),
        ("SELECT name FROM singer WHERE country = 'france'", "SELECT 姓名 FROM 歌手 WHERE 国家 = 'france'"),
        # A LIKE pattern whose wildcards surround a value.
        (
            'SELECT country FROM singer WHERE name LIKE "%Joe Sharp%"',
            'SELECT 国家 FROM 歌手 WHERE 姓名 LIKE "%乔·夏普%"',
        ),
        # A SELECT alias is not a column.
        (
            "SELECT country, count(*) AS total FROM singer GROUP BY country ORDER BY total DESC LIMIT 1",
            "SELECT 国家, count(*) AS total FROM 歌手 GROUP BY 国家 ORDER BY total DESC LIMIT 1",
        ),
        # Set operations: each side its own scope.
        (
            "SELECT name FROM singer UNION SELECT name FROM concert",
            "SELECT 姓名 FROM 歌手 UNION SELECT 名称 FROM 演唱会",
        ),
    ],
)
def test_names_and_values_follow_the_maps(sql, expected):
    rewrite = rewrite_sql(sql, NAMES, VALUES)
    assert rewrite.sql == expected
    assert rewrite.problems == []


def test_the_values_translated_are_listed_for_the_question():
    rewrite = rewrite_sql(
        "SELECT name FROM singer WHERE country = 'France' OR country = 'France' OR name LIKE '%Joe Sharp%'",
        NAMES,
        VALUES,
    )
    assert rewrite.values == [("France", "法国"), ("%Joe Sharp%", "%乔·夏普%")]


def test_a_translated_value_with_the_query_quote_in_it_is_escaped():
    values = ValueMap.of({"France": "l'Hexagone"})
    assert rewrite_sql("SELECT name FROM singer WHERE country = 'France'", NAMES, values).sql == (
        "SELECT 姓名 FROM 歌手 WHERE 国家 = 'l''Hexagone'"
    )


def test_what_the_maps_do_not_hold_is_kept_and_said():
    rewrite = rewrite_sql("SELECT name FROM singer WHERE country = 'Atlantis' AND name LIKE 'Jo%'", NAMES, VALUES)
    assert rewrite.sql == "SELECT 姓名 FROM 歌手 WHERE 国家 = 'Atlantis' AND 姓名 LIKE 'Jo%'"
    assert rewrite.notes == [
        "the value 'Atlantis' has no translation: kept as it is",
        "the value 'Jo%' has no translation: kept as it is",
    ]
    # Numbers and dates are the same in every language: nothing to say.
    assert rewrite_sql("SELECT name FROM singer WHERE singer_id = '12'", NAMES, VALUES).notes == []


def test_an_ambiguous_spelling_is_not_guessed():
    values = ValueMap.of({"Male": "男", "male": "男性"})
    assert rewrite_sql("SELECT name FROM singer WHERE country LIKE 'MALE'", NAMES, values).sql.endswith("'MALE'")
    assert rewrite_sql("SELECT name FROM singer WHERE country LIKE 'male'", NAMES, values).sql.endswith("'男性'")


def test_a_column_no_table_of_its_select_has_is_a_problem():
    rewrite = rewrite_sql("SELECT country FROM concert", NAMES, VALUES)
    assert rewrite.problems == ["cannot tell which table the column 'country' belongs to"]
    assert rewrite.sql == "SELECT country FROM 演唱会"


def test_a_query_that_does_not_parse_comes_back_unchanged():
    rewrite = rewrite_sql("SELEC name FROM", NAMES, VALUES)
    assert rewrite.sql == "SELEC name FROM" and rewrite.problems


def test_untranslated_names_keep_their_own():
    names = NameMap.of(SCHEMA, {"singer": "歌手"}, {})
    assert rewrite_sql("SELECT Name FROM singer", names, ValueMap.of({})).sql == "SELECT Name FROM 歌手"


def test_the_translated_schema_keeps_indices_types_and_keys():
    entry = translated_schema(SCHEMA, NAMES)
    assert entry["table_names_original"] == ["歌手", "演唱会", "演出"] == entry["table_names"]
    assert entry["column_names_original"][2] == [0, "姓名"] and entry["column_names_original"][5] == [1, "名称"]
    assert entry["column_names"] == entry["column_names_original"]
    for key in ("column_types", "primary_keys", "foreign_keys", "db_id"):
        assert entry[key] == SCHEMA[key]


@pytest.mark.parametrize(
    ("name", "fine"),
    [
        ("歌手", True),
        ("歌手id", True),
        ("书名_2", True),
        ("歌 手", False),
        ("1号", False),
        ("名字!", False),
        ("select", False),
        ("", False),
        ("x" * 65, False),
    ],
)
def test_a_translated_name_must_stand_unquoted(name, fine):
    assert (name_error(name) is None) == fine
