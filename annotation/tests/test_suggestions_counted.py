"""Which table a grouped count counts (annotation/wording/counted.py, docs/chase.md, "Recommending the next
question"): one rule, worded by the English and the Chinese suggestion writers alike."""

import random

import pytest

from annotation.tests.test_intents import SCHOOL
from annotation.wording import chinese_suggestions
from annotation.wording.counted import count_shown, grouped_counted
from annotation.wording.suggestions import recommend
from annotation.wording.suggestions.reading import _Analysis


@pytest.mark.parametrize(
    ("sql", "table"),
    [
        # a link table's key: the other thing it links is counted (students per course), not the courses
        ("select course_id, count(*) from Student_Course group by course_id", "student"),
        # a foreign key alone: the rows holding it (students per dorm), not the dorms it names
        ("select dorm_id, count(*) from Student group by dorm_id", "student"),
        # a join: the table that is not grouped
        (
            "select T2.dorm_name, count(*) from Student as T1 join Dorm as T2 on T1.dorm_id = T2.dorm_id"
            " group by T2.dorm_name",
            "student",
        ),
        # grouped by its own detail: the group's own rows, said by the writer
        ("select home_country, count(*) from Student group by home_country", None),
        ("select count(*) from Student", None),
    ],
)
def test_the_counted_table_is_decided_once(sql, table):
    analysis = _Analysis(sql, SCHOOL)
    found = grouped_counted(analysis.facts, analysis.names)
    assert (found and analysis.names.labels[found]) == table


def test_both_writers_count_the_linked_things_of_a_link_tables_key():
    sql = "select course_id, count(*) from Student_Course group by course_id"
    english = {recommend(sql, SCHOOL, category="display", rng=random.Random(seed)).text for seed in range(10)}
    chinese = {
        chinese_suggestions.recommend(sql, SCHOOL, category="display", rng=random.Random(seed)).text
        for seed in range(10)
    }
    assert "Ask to sort them by the number of students, highest first" in english
    assert "让结果按 student 数量从高到低排列" in chinese
    assert not any("number of course" in text for text in english)


@pytest.mark.parametrize(
    ("sql", "shown"),
    [
        ("select dorm_id, count(*) from Student group by dorm_id", True),
        # count(DISTINCT stu_id) per dorm already says how many students each dorm has
        (
            "select T2.dorm_name, count(distinct T1.stu_id) from Student as T1 join Dorm as T2"
            " on T1.dorm_id = T2.dorm_id group by T2.dorm_name",
            True,
        ),
        # a count of the dorms' key per dorm name counts dorms, not the students count(*) would count
        (
            "select T2.dorm_name, count(distinct T2.dorm_id) from Student as T1 join Dorm as T2"
            " on T1.dorm_id = T2.dorm_id group by T2.dorm_name",
            False,
        ),
        ("select home_country, max(stu_age) from Student group by home_country", False),
    ],
)
def test_a_count_of_the_counted_things_key_is_the_count_already_shown(sql, shown):
    analysis = _Analysis(sql, SCHOOL)
    assert count_shown(analysis.facts, analysis.names) is shown
    texts = {recommend(sql, SCHOOL, category="same_instances", rng=random.Random(seed)).text for seed in range(30)}
    assert any("how many students each" in text for text in texts) is not shown
