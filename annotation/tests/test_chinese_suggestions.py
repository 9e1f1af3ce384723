"""The next-question suggestion in Chinese (annotation/wording/chinese_suggestions.py, docs/i18n.md): the category,
relation and material are the English rules' choice; only the sentence is Chinese, written by rules of its own."""

import random
import re

import pytest

from annotation.wording import chinese_suggestions
from annotation.wording import suggestions as intents
from annotation.wording.suggestions.names import _vague

SCHEMA = {
    "db_id": "cities_zh",
    "table_names_original": ["省份", "城市"],
    "table_names": ["省份", "城市"],
    "column_names_original": [
        [-1, "*"],
        [0, "省份编号"],
        [0, "名称"],
        [0, "面积"],
        [1, "城市编号"],
        [1, "名称"],
        [1, "人口"],
        [1, "建城年份"],
        [1, "气候"],
        [1, "所属省份"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "省份编号"],
        [0, "名称"],
        [0, "面积"],
        [1, "城市编号"],
        [1, "名称"],
        [1, "人口"],
        [1, "建城年份"],
        [1, "气候"],
        [1, "所属省份"],
    ],
    "column_types": ["text", "number", "text", "number", "number", "text", "number", "time", "text", "number"],
    "primary_keys": [1, 4],
    "foreign_keys": [[9, 1]],
}
VALUES = {("城市", "气候"): ["湿润", "干燥"], ("城市", "名称"): ["广州", "深圳"], ("城市", "人口"): [955, 2140]}
_HAN = re.compile(r"[\u4e00-\u9fff]")


def values(table, column):
    return VALUES.get((table, column), [])


def both(sql, category, seed=1, result=None):
    """The Chinese and the English suggestion of the same draw."""
    arguments = {"category": category, "values": values, "result": result}
    chinese = chinese_suggestions.recommend(sql, SCHEMA, rng=random.Random(seed), **arguments)
    english = intents.recommend(sql, SCHEMA, rng=random.Random(seed), **arguments)
    return chinese, english


def chinese(text: str) -> bool:
    """Written in Chinese: Chinese words around the names, no English words of the rules."""
    return bool(_HAN.search(text)) and not re.search(r"\b(?:Ask|their|these|instead|the|of|by)\b", text)


LISTING = "SELECT 名称, 人口 FROM 城市 WHERE 气候 = '湿润'"
ROWS = {"rows": [["广州", 1882], ["深圳", 1779], ["杭州", 1252], ["南京", 955], ["成都", 2140], ["重庆", 3200]]}


@pytest.mark.parametrize(
    ("sql", "category"),
    [
        (LISTING, "same_instances"),
        (LISTING, "different_instances"),
        (LISTING, "different_entity"),
        (LISTING, "display"),
        (LISTING, "combination"),
        ("SELECT count(*) FROM 城市 GROUP BY 气候", "same_instances"),
    ],
)
def test_every_category_is_worded_in_chinese_as_the_english_chose_it(sql, category):
    for seed in range(6):
        zh, en = both(sql, category, seed, ROWS)
        assert chinese(zh.text), zh.text
        assert zh.category == en.category
        if category != "combination":  # a pair is offered only when one short sentence says it, in each language
            # one choice, two wordings: the same relation and the same things to use
            assert (zh.relation, zh.columns, zh.tables) == (en.relation, en.columns, en.tables)


def test_conditions_come_before_the_noun():
    texts = {both(LISTING, "different_instances", seed, ROWS)[0].text for seed in range(20)}
    assert "反过来问问其余的：气候不为湿润的城市" in texts
    assert "换一批问问：气候为干燥的城市" in texts


def test_figures_are_said_as_a_chinese_reader_says_them():
    texts = {both("SELECT avg(人口) FROM 城市", "same_instances", seed)[0].text for seed in range(20)}
    assert "改问人口总和，而不是平均人口" in texts
    assert "把每个人口都列出来，而不只是平均人口" in texts


def test_another_entity_and_an_order():
    texts = {both(LISTING, "different_entity", seed, ROWS)[0].text for seed in range(10)}
    assert texts == {"换个对象，问问省份的面积", "换个对象，问问省份的名称"}
    orders = {both(LISTING, "display", seed, ROWS)[0].text for seed in range(20)}
    assert "让结果按人口从高到低排列" in orders


def test_a_year_named_in_chinese_has_no_total():
    for seed in range(30):
        zh, _ = both("SELECT 名称 FROM 城市", "same_instances", seed, ROWS)
        assert "建城年份总和" not in zh.text and "平均建城年份" not in zh.text


def test_a_chinese_name_is_no_unread_english_word():
    # the English rules judged a Chinese name of three characters or more by English word counts: "unread"
    assert not _vague("建城年份")


def test_each_and_another_take_the_measure_word():
    texts = {
        both("SELECT 气候, count(*) FROM 城市 GROUP BY 气候", "same_instances", seed)[0].text for seed in range(30)
    }
    assert not any("每个城市" in text for text in texts)
    sql = "SELECT 人口 FROM 城市 WHERE 名称 = '广州'"  # without the database's values: another city, unnamed
    others = {
        chinese_suggestions.recommend(sql, SCHEMA, category="different_instances", rng=random.Random(seed)).text
        for seed in range(30)
    }
    assert "对广州以外的另一座城市问同样的问题" in others


def test_a_joined_tables_condition_names_its_table():
    sql = "SELECT T1.名称 FROM 省份 AS T1 JOIN 城市 AS T2 ON T1.省份编号 = T2.所属省份 WHERE T2.气候 = '湿润'"
    texts = {both(sql, "different_instances", seed)[0].text for seed in range(30)}
    assert "改问城市气候为干燥的省份" in texts  # not "气候为干燥的省份": the climate is the cities'


def test_a_listing_keeps_its_name_and_no_catch_all_is_offered():
    schema_columns = [column for _, column in SCHEMA["column_names"]]
    assert "名称" in schema_columns
    for seed in range(30):
        zh, _ = both(LISTING, "same_instances", seed, ROWS)
        assert "去掉名称" not in zh.text and "不显示名称" not in zh.text and "名称换成" not in zh.text
    writer = chinese_suggestions._ChineseWriter  # noqa: SLF001
    assert writer._said.__doc__  # noqa: SLF001
    names = {"其他帐户详细信息", "客户密码", "备注"}
    column = type("Column", (), {"table": "城市", "original": "x", "label": "x"})
    for name in names:
        instance = writer.__new__(writer)
        instance.readable = {("城市", "x"): name}
        assert not instance._said(column)  # noqa: SLF001


def test_the_widening_and_narrowing_are_the_english_choice_a_yes_nos_rest_is_the_condition_dropped():
    """One choice of what a widening or a narrowing says, for both languages (`_Writer._widening`, `_narrowing`):
    the other value of a yes/no is every other row, so the Chinese widening drops the condition as the English one
    does, never "把 chronic 为 0 的也包括进来"."""
    from annotation.tests.test_intents_names import CLINIC, CLINIC_FIGURES

    found = set()
    for seed in range(60):
        arguments = {
            "category": "different_instances",
            "result": {"rows": [["Circulatory"], ["Skin"], ["Respiratory"]], "truncated": False, "total_rows": None},
            "statistics": lambda table, column: CLINIC_FIGURES.get((table, column)),
            "values": lambda table, column: [0, 1] if column == "chronic" else [],
        }
        sql = "SELECT chapter FROM diagnosis WHERE chronic = 1"
        try:
            zh = chinese_suggestions.recommend(sql, CLINIC, rng=random.Random(seed), **arguments)
        except intents.IntentError:
            continue
        en = intents.recommend(sql, CLINIC, rng=random.Random(seed), **arguments)
        assert (zh.relation, zh.columns, zh.values) == (en.relation, en.columns, en.values)
        found.add(zh.text)
    assert "放宽范围：去掉或放宽是否 chronic 的条件" in found, found
    assert not any("为 0" in text for text in found), found
