"""Intent recommendation: which relations apply after a query, how a suggestion reads, the coverage-balanced choice
of the category, and the INTENT_TARGETS setting."""

import math
import random
import re
from collections import Counter

import pytest
from django.core.exceptions import ImproperlyConfigured

from annotation.labels.relations import CATEGORIES, CATEGORY_OF
from annotation.wording.suggestions import (
    DEFAULT_TARGETS,
    IntentError,
    applicable_categories,
    applicable_relations,
    choose_category,
    intent_targets,
    normalise_targets,
    recommend,
    suggestion_followed,
)

# The tables of CHASE's Table 12 with readable names that differ from the originals, so a text that shows an
# original name is caught: a student lives in a dorm and takes courses. Column ids: 0 *, student 1-5, dorm 6-8,
# course 9-10, student_course 11-12.
SCHOOL = {
    "db_id": "school",
    "table_names_original": ["Student", "Dorm", "Course", "Student_Course"],
    "table_names": ["student", "dorm", "course", "student course"],
    "column_names_original": [
        [-1, "*"],
        [0, "stu_id"],
        [0, "full_name"],
        [0, "stu_age"],
        [0, "home_country"],
        [0, "dorm_id"],
        [1, "dorm_id"],
        [1, "dorm_name"],
        [1, "dorm_capacity"],
        [2, "course_id"],
        [2, "course_title"],
        [3, "stu_id"],
        [3, "course_id"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "student id"],
        [0, "name"],
        [0, "age"],
        [0, "country"],
        [0, "dorm id"],
        [1, "dorm id"],
        [1, "dorm name"],
        [1, "capacity"],
        [2, "course id"],
        [2, "course title"],
        [3, "student id"],
        [3, "course id"],
    ],
    "column_types": ["text", "number", "text", "number", "text", "number", "number", "text", "number"]
    + ["number", "text", "number", "number"],
    "primary_keys": [1, 6, 9],
    "foreign_keys": [[5, 6], [11, 1], [12, 9]],
}
ORIGINAL_NAMES = {name for _, name in SCHOOL["column_names_original"][1:]} | set(SCHOOL["table_names_original"])

# Real values of some columns, as the caller would read them from the database, keyed by original names.
VALUES = {
    ("Student", "home_country"): ["France", "Peru"],
    ("Student", "stu_age"): [19, 23],
    ("Student", "full_name"): ["Ada Lovelace"],
    ("Dorm", "dorm_name"): ["Eastside Hall"],
    ("Dorm", "dorm_capacity"): [120],
    ("Course", "course_title"): ["Databases"],
}


def values(table, column):
    return VALUES.get((table, column), [])


QUERIES = [
    "select full_name from Student",
    "select full_name, stu_age from Student",
    "select * from Student",
    "select count(*) from Student",
    "select max(stu_age) from Student",
    'select full_name from Student where home_country = "France"',
    "select full_name from Student where stu_age > 20 order by stu_age desc limit 3",
    "select home_country, count(*) from Student group by home_country",
    "select distinct home_country from Student",
    "select T1.full_name from Student as T1 join Dorm as T2 on T1.dorm_id = T2.dorm_id where T2.dorm_name = 'North'",
    "select full_name from Student where stu_id not in (select stu_id from Student_Course)",
    "select full_name from Student union select course_title from Course order by full_name limit 2",
]

# Words that would show the worker SQL, and the characters SQL is written with.
SQL_WORDS = re.compile(
    r"\b(select|where|group by|order by|having|distinct|join|limit|union|count|avg|asc|desc)\b|[*=();]"
)


def texts_by_relation(sql, category, seeds=range(60), schema=SCHOOL, with_values=True):
    found = {}
    for seed in seeds:
        suggestion = recommend(
            sql, schema, category=category, rng=random.Random(seed), values=values if with_values else None
        )
        found.setdefault(suggestion.relation, set()).add(suggestion.text)
    return found


# ---------------------------------------------------------------------------------------------------------------
# Which relations apply
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "present", "absent"),
    [
        (
            "select full_name from Student",
            {"R1", "R3", "R4", "R5", "R8", "R13", "R14", "R16"},
            {"R2", "R6", "R7", "R9", "R10", "R11", "R12", "R15"},
        ),
        ("select full_name, stu_age from Student", {"R2"}, set()),
        # `*` shows every property: nothing to add, one can be kept; its rows are all different.
        ("select * from Student", {"R2"}, {"R1", "R3", "R16"}),
        # One row: nothing to sort or deduplicate; counting rows can become a statistic of the age.
        ("select count(*) from Student", {"R4", "R5", "R6", "R7"}, {"R1", "R2", "R3", "R14", "R15", "R16"}),
        ("select max(stu_age) from Student", {"R6", "R7"}, {"R14", "R16"}),
        # Counting the rows of a text column has no other sensible function.
        ("select count(home_country) from Student", {"R7"}, {"R6"}),
        # A student fixed by the primary key is one instance: there is nothing to narrow down.
        ("select full_name from Student where stu_id = 3", {"R9", "R11"}, {"R8"}),
        ('select full_name from Student where home_country = "France"', {"R8", "R9", "R10", "R11", "R12"}, set()),
        ("select full_name from Student order by stu_age", {"R15"}, {"R14"}),
        ("select full_name from Student limit 5", {"R15"}, set()),
        # A group key cannot be replaced or deduplicated; the groups can be sorted.
        ("select home_country, count(*) from Student group by home_country", {"R7", "R14"}, {"R3", "R16"}),
        ("select distinct home_country from Student", {"R14"}, {"R16"}),
        # The primary key makes every row different already.
        ("select stu_id, full_name from Student", {"R2"}, {"R16"}),
        # A subquery filter can be negated or relaxed, but has no value to swap for a disjoint one.
        (
            "select full_name from Student where stu_id not in (select stu_id from Student_Course)",
            {"R9", "R11"},
            {"R10"},
        ),
        # A join equality is not a filter.
        ("select T1.full_name from Student as T1 join Dorm as T2 on T1.dorm_id = T2.dorm_id", set(), {"R9", "R11"}),
        # The ORDER BY and LIMIT after a set operation are the whole query's.
        ("select full_name from Student union select course_title from Course order by full_name", {"R15"}, {"R14"}),
    ],
)
def test_applicable_relations_follow_the_previous_query(sql, present, absent):
    found = set(applicable_relations(sql, SCHOOL))
    assert present <= found, f"missing {sorted(present - found)}"
    assert not absent & found, f"unexpected {sorted(absent & found)}"


def test_applicable_relations_are_in_number_order():
    found = applicable_relations('select full_name from Student where home_country = "France"', SCHOOL)
    assert found == sorted(found, key=lambda name: int(name[1:]))


def test_change_entity_needs_another_table_to_name():
    assert "R13" in applicable_relations("select full_name from Student", SCHOOL)
    assert "R13" not in applicable_relations("select full_name from Student", None)
    only_students = {
        **SCHOOL,
        "table_names_original": ["Student"],
        "table_names": ["student"],
        "column_names_original": SCHOOL["column_names_original"][:6],
        "column_names": SCHOOL["column_names"][:6],
        "column_types": SCHOOL["column_types"][:6],
        "primary_keys": [1],
        "foreign_keys": [],
    }
    assert "R13" not in applicable_relations("select full_name from Student", only_students)
    assert "different_entity" not in applicable_categories("select full_name from Student", only_students)


def test_change_entity_suggests_a_linked_table_first():
    # Students are linked to dorms, and through their enrolments (a relation table, never a noun) to courses.
    texts = texts_by_relation("select full_name from Student", "different_entity")
    assert set(texts) == {"R13"}
    named = {re.match(r"Ask about the ([a-z ]+?) instead", text).group(1) for text in texts["R13"]}
    assert named == {"dorms", "courses"}


def test_a_one_row_query_has_no_display_intent():
    sql = "select count(*) from Student"
    assert "display" not in applicable_categories(sql, SCHOOL)
    with pytest.raises(IntentError, match="display.*applicable categories: same_instances"):
        recommend(sql, SCHOOL, category="display", rng=random.Random(0))


def test_counting_a_listing_is_not_combined_with_a_display_change():
    # `select count(*)` has one row: "how many are there, sorted by age" cannot be answered.
    for seed in range(200):
        suggestion = recommend("select full_name from Student", SCHOOL, category="combination", rng=random.Random(seed))
        assert not ({"R5"} & set(suggestion.relations) and {"R14", "R15", "R16"} & set(suggestion.relations))


@pytest.mark.parametrize(
    "sql",
    [
        "",
        "   ",
        "select from where",
        "select 1; select 2",
        "drop table Student",
        "select full_name from Teacher",
    ],
)
def test_an_unreadable_previous_query_is_an_intent_error(sql):
    with pytest.raises(IntentError, match="previous query"):
        applicable_relations(sql, SCHOOL)


def test_a_schema_that_is_not_a_tables_json_entry_is_an_intent_error():
    with pytest.raises(IntentError, match="schema is not a tables.json entry"):
        applicable_relations("select full_name from Student", {"db_id": "school"})


def test_an_unknown_category_is_an_intent_error():
    with pytest.raises(IntentError, match="unknown intent category 'other'"):
        recommend("select full_name from Student", SCHOOL, category="other", rng=random.Random(0))


# ---------------------------------------------------------------------------------------------------------------
# How a suggestion reads
# ---------------------------------------------------------------------------------------------------------------


def test_suggestions_use_readable_names_and_never_sql():
    for sql in QUERIES:
        for category in applicable_categories(sql, SCHOOL):
            for relation, texts in texts_by_relation(sql, category, seeds=range(25)).items():
                for text in texts:
                    assert "_" not in text, (sql, relation, text)
                    assert not SQL_WORDS.search(text.lower()), (sql, relation, text)
                    assert not {word for word in re.findall(r"\w+", text) if word in ORIGINAL_NAMES}, text
                    assert text[0].isupper() and "  " not in text, text


def test_adding_a_property_names_the_one_not_shown():
    # Of the student's descriptive columns only the age is not shown yet.
    texts = texts_by_relation("select full_name, home_country from Student", "same_instances")
    assert texts["R1"] == {"Ask for another detail of these students, such as their age"}


def test_replacing_a_property_names_both():
    texts = texts_by_relation("select full_name, home_country from Student", "same_instances")
    assert texts["R3"] == {"Ask for their age instead of their name", "Ask for their age instead of their country"}


def test_a_subset_uses_the_real_values_given():
    texts = texts_by_relation("select dorm_name from Dorm", "different_instances")
    assert texts["R8"] == {
        "Narrow it down, e.g. only those whose dorm name is Eastside Hall",
        "Narrow it down, e.g. only those whose capacity is above 120",
        "Narrow it down, e.g. only those whose capacity is below 120",
    }


def test_values_are_asked_for_by_original_names():
    asked = []

    def recording(table, column):
        asked.append((table, column))
        return values(table, column)

    for seed in range(40):
        recommend(
            'select full_name from Student where home_country = "France"',
            SCHOOL,
            category="different_instances",
            rng=random.Random(seed),
            values=recording,
        )
    assert asked
    assert set(asked) <= {(table, column) for table, column in VALUES} | {("Student", "dorm_id")}


def test_without_values_a_suggestion_names_the_column_only():
    texts = texts_by_relation("select dorm_name from Dorm", "different_instances", with_values=False)
    assert texts["R8"] == {
        "Narrow it down with a condition on their dorm name",
        "Narrow it down with a condition on their capacity",
    }


def test_a_value_that_looks_like_an_identifier_is_not_shown():
    def identifiers(table, column):
        return ["north_wing", "x" * 60, "two\nlines", None]

    for seed in range(20):
        rng = random.Random(seed)
        try:
            suggestion = recommend(
                "select dorm_name from Dorm", SCHOOL, category="different_instances", rng=rng, values=identifiers
            )
        except IntentError:
            continue  # no value reads as words: nothing to narrow to is said (no "a condition on their dorm name")
        text = suggestion.text
        assert "north" not in text and "xxx" not in text and "two" not in text and "None" not in text


def test_a_disjoint_set_swaps_the_value_for_another_real_one():
    texts = texts_by_relation('select full_name from Student where home_country = "France"', "different_instances")
    assert texts["R10"] == {"Ask about other ones instead: those whose country is Peru"}
    assert texts["R11"] == {"Ask about the rest instead: those whose country is not France"}
    assert texts["R9"] == {"Widen it: also include those whose country is Peru"}


def test_another_value_of_a_joined_tables_column_is_an_overlap_not_a_disjoint_set():
    # As relations.py reads Table 12's "Python" -> "C++": the condition is on the dorm, the rows are students.
    sql = (
        "select T1.full_name from Student as T1 join Dorm as T2 on T1.dorm_id = T2.dorm_id where T2.dorm_name = 'North'"
    )
    assert "R10" not in applicable_relations(sql, SCHOOL)
    texts = texts_by_relation(sql, "different_instances", range(100))
    assert "Ask about those whose dorm name is Eastside Hall instead" in texts["R12"]


def test_a_range_is_complemented_and_disjoined_on_the_other_side():
    texts = texts_by_relation("select full_name from Student where stu_age > 20", "different_instances")
    assert texts["R11"] == {"Ask about the rest instead: those whose age is at most 20"}
    assert texts["R10"] == {"Ask about other ones instead: those whose age is below 20"}


def test_altering_the_order_flips_it_or_changes_the_key_or_the_count():
    texts = texts_by_relation("select full_name from Student order by stu_age desc limit 3", "display", range(200))
    assert texts["R15"] == {
        "Ask for the ones with the lowest age instead",
        "Ask to sort them by their name instead",
        "Ask for just the first one instead of the first 3",
        "Ask for the first 5 instead of the first 3",
        "Ask for the first 10 instead of the first 3",
    }


def test_grouped_counts_are_worded_per_group():
    texts = texts_by_relation("select home_country, count(*) from Student group by home_country", "same_instances")
    assert "Ask for just the countries, without the number of students" in texts["R7"]
    assert texts["R5"] >= {"Also ask for the average age of each country"}  # the group named, not "each group"


def test_a_combination_is_one_short_sentence_naming_both_changes():
    sql = 'select full_name from Student where home_country = "France"'
    for seed in range(100):
        suggestion = recommend(sql, SCHOOL, category="combination", rng=random.Random(seed), values=values)
        first, second = suggestion.relations
        categories = {CATEGORY_OF[first], CATEGORY_OF[second]}
        assert len(categories) == 2 and "different_entity" not in categories
        assert int(first[1:]) < int(second[1:])
        text = suggestion.text
        assert "and also" not in text and text.count(",") <= 2 and text.count("instead") <= 1, text
        assert len(text.split()) <= 16 and len(text) <= 90, text


def test_every_recommended_relation_applies_and_belongs_to_its_category():
    for sql in QUERIES:
        applicable = set(applicable_relations(sql, SCHOOL))
        for category in applicable_categories(sql, SCHOOL):
            for seed in range(15):
                suggestion = recommend(sql, SCHOOL, category=category, rng=random.Random(seed), values=values)
                assert suggestion.category == category
                assert set(suggestion.relations) <= applicable, (sql, suggestion)
                if category != "combination":
                    assert [CATEGORY_OF[name] for name in suggestion.relations] == [category]


def test_every_category_with_an_applicable_relation_is_offered():
    for sql in QUERIES:
        offered = set(applicable_categories(sql, SCHOOL))
        relations = applicable_relations(sql, SCHOOL)
        assert offered - {"combination"} == {CATEGORY_OF[name] for name in relations}


def test_without_a_schema_suggestions_still_read_well():
    for category in applicable_categories("select count(*) from student", None):
        text = recommend("select count(*) from student", None, category=category, rng=random.Random(1)).text
        assert "students" in text and "_" not in text


def test_the_same_seed_gives_the_same_suggestion_and_others_vary():
    sql = 'select full_name from Student where home_country = "France"'
    for category in applicable_categories(sql, SCHOOL):
        first = [recommend(sql, SCHOOL, category=category, rng=random.Random(7), values=values) for _ in range(3)]
        assert first[0] == first[1] == first[2]
    varied = {recommend(sql, SCHOOL, category="same_instances", rng=random.Random(seed)).text for seed in range(20)}
    assert len(varied) > 3


# ---------------------------------------------------------------------------------------------------------------
# Coverage-balanced choice of the category
# ---------------------------------------------------------------------------------------------------------------

ALL = set(CATEGORIES)


def draws(n=2000, seed=0, **kwargs):
    rng = random.Random(seed)
    return Counter(choose_category(rng=rng, **kwargs) for _ in range(n))


def test_the_most_under_represented_category_is_chosen_most():
    collected = Counter(same_instances=10, different_instances=10, different_entity=10, combination=10)
    chosen = draws(local=collected, overall=collected, targets=DEFAULT_TARGETS, available=ALL)
    assert chosen.most_common(1)[0][0] == "display"
    assert chosen["display"] / 2000 > 0.7
    assert set(chosen) > {"display"}  # but not always: the others still come up


def test_local_and_overall_shortfalls_are_averaged():
    # This database lacks display questions; the whole collection lacks combinations and has twice its share of
    # display questions, so on average only combinations are short.
    local = Counter(same_instances=4, different_instances=4, different_entity=4, combination=4)
    overall = Counter(same_instances=30, different_instances=30, different_entity=30, display=60)
    chosen = draws(local=local, overall=overall, targets=DEFAULT_TARGETS, available=ALL)
    assert chosen["combination"] / 2000 > 0.85
    assert chosen["display"] == pytest.approx(chosen["same_instances"], abs=30)
    only_local = draws(local=local, overall=Counter(), targets=DEFAULT_TARGETS, available=ALL)
    assert only_local.most_common(1)[0][0] == "display"
    assert only_local["display"] / 2000 > 0.85


def test_with_nothing_collected_the_targets_are_followed():
    targets = {"same_instances": 3, "display": 1}
    chosen = draws(n=4000, local=Counter(), overall=Counter(), targets=targets, available=ALL)
    assert set(chosen) == {"same_instances", "display"}
    assert chosen["same_instances"] / 4000 == pytest.approx(0.75, abs=0.03)


def test_only_available_categories_are_chosen():
    collected = Counter(same_instances=50)
    chosen = draws(local=collected, overall=collected, targets=DEFAULT_TARGETS, available={"same_instances", "display"})
    assert set(chosen) == {"same_instances", "display"}
    assert chosen["display"] > chosen["same_instances"]


def test_a_category_with_no_target_is_chosen_only_when_nothing_else_is_available():
    targets = {"same_instances": 1, "display": 1}
    chosen = draws(local=Counter(), overall=Counter(), targets=targets, available={"display", "different_entity"})
    assert set(chosen) == {"display"}
    only = draws(n=50, local=Counter(), overall=Counter(), targets=targets, available={"different_entity"})
    assert set(only) == {"different_entity"}


def test_choose_category_rejects_what_it_cannot_choose_from():
    with pytest.raises(IntentError, match="no intent category is available"):
        choose_category(
            local=Counter(), overall=Counter(), targets=DEFAULT_TARGETS, rng=random.Random(0), available=set()
        )
    with pytest.raises(IntentError, match="unknown intent categories"):
        choose_category(
            local=Counter(), overall=Counter(), targets=DEFAULT_TARGETS, rng=random.Random(0), available={"chitchat"}
        )


def total_variation(counts: Counter, targets: dict) -> float:
    total = sum(counts.values())
    return sum(abs(counts[name] / total - targets[name]) for name in CATEGORIES) / 2


def collect(strategy, *, seed, turns=800, ignore=0.4):
    """`turns` follow-ups on four databases; a share `ignore` of people ask what they like, mostly same instances."""
    rng = random.Random(seed)
    natural = {"same_instances": 0.6, "different_instances": 0.2, "different_entity": 0.1, "display": 0.1}
    overall = Counter()
    local = {database: Counter() for database in range(4)}
    for turn in range(turns):
        database = turn % 4
        recommended = strategy(local[database], overall, rng)
        if rng.random() < ignore:
            asked = rng.choices(list(natural), list(natural.values()))[0]
        else:
            asked = recommended
        local[database][asked] += 1
        overall[asked] += 1
    return overall


def balanced(local, overall, rng):
    return choose_category(local=local, overall=overall, targets=DEFAULT_TARGETS, rng=rng, available=ALL)


def uniform(local, overall, rng):
    return rng.choice(CATEGORIES)


def test_balanced_choice_brings_a_deviating_collection_close_to_the_target():
    targets = normalise_targets(DEFAULT_TARGETS)
    for seed in range(3):
        with_balance = total_variation(collect(balanced, seed=seed), targets)
        with_uniform = total_variation(collect(uniform, seed=seed), targets)
        # Uniform recommendations keep the deviation (0.16 expected); the best reachable is 0.04, since the 40% who
        # deviate alone ask 0.24 same-instances questions against a target of 0.2.
        assert with_balance < 0.09
        assert with_uniform > 0.12


# ---------------------------------------------------------------------------------------------------------------
# Targets and the INTENT_TARGETS setting
# ---------------------------------------------------------------------------------------------------------------


def test_default_targets_are_equal_shares_of_every_category():
    assert set(DEFAULT_TARGETS) == set(CATEGORIES)
    assert all(math.isclose(share, 1 / 5) for share in DEFAULT_TARGETS.values())
    with pytest.raises(TypeError):
        DEFAULT_TARGETS["display"] = 1  # shared by every caller: not to be changed in place


def test_intent_targets_default_when_the_setting_is_absent_or_empty(settings):
    if hasattr(settings, "INTENT_TARGETS"):
        del settings.INTENT_TARGETS
    assert intent_targets() == pytest.approx(dict(DEFAULT_TARGETS))
    settings.INTENT_TARGETS = ""
    assert intent_targets() == pytest.approx(dict(DEFAULT_TARGETS))


@pytest.mark.parametrize("setting", [{"display": 3, "same_instances": 1}, "display=3, same_instances = 1"])
def test_intent_targets_are_normalised_and_left_out_categories_get_nothing(settings, setting):
    settings.INTENT_TARGETS = setting
    assert intent_targets() == pytest.approx(
        {"same_instances": 0.25, "different_instances": 0, "different_entity": 0, "display": 0.75, "combination": 0}
    )


@pytest.mark.parametrize(
    ("setting", "problem"),
    [
        ({"chitchat": 1}, "unknown intent category 'chitchat'"),
        ({"display": -1}, "finite number >= 0"),
        ({"display": float("nan")}, "finite number >= 0"),
        ({"display": True}, "finite number >= 0"),
        ({"display": "1"}, "finite number >= 0"),
        ({"display": 0, "combination": 0}, "positive sum"),
        (["display"], "must be a mapping"),
        ("display", "expected category=weight"),
        ("display=x", "not a number"),
        ("display=1, display=2", "given twice"),
    ],
)
def test_invalid_intent_targets_are_a_configuration_error(settings, setting, problem):
    settings.INTENT_TARGETS = setting
    with pytest.raises(ImproperlyConfigured, match=rf"INTENT_TARGETS: .*{re.escape(problem)}"):
        intent_targets()


# ---------------------------------------------------------------------------------------------------------------
# Suggestions a worker reads once: relation tables, coded values, one short sentence
# ---------------------------------------------------------------------------------------------------------------

# A campus of our own: halls have amenities through a relation table named as a verb (has_amenity, only foreign
# keys), residents live in halls through one named as a clause (lives_in, with a room number), and a resident's sex
# and a hall's code are coded values. Column ids: resident 1-4, hall 5-8, amenity 9-10, has_amenity 11-12,
# lives_in 13-15.
CAMPUS = {
    "db_id": "campus",
    "table_names_original": ["resident", "hall", "amenity", "has_amenity", "lives_in"],
    "table_names": ["resident", "hall", "amenity", "has amenity", "lives in"],
    "column_names_original": [
        [-1, "*"],
        [0, "resident_id"],
        [0, "full_name"],
        [0, "sex"],
        [0, "age"],
        [1, "hall_id"],
        [1, "hall_name"],
        [1, "hall_code"],
        [1, "capacity"],
        [2, "amenity_id"],
        [2, "amenity_name"],
        [3, "hall_id"],
        [3, "amenity_id"],
        [4, "resident_id"],
        [4, "hall_id"],
        [4, "room_number"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "resident id"],
        [0, "name"],
        [0, "sex"],
        [0, "age"],
        [1, "hall id"],
        [1, "hall name"],
        [1, "hall code"],
        [1, "student capacity"],
        [2, "amenity id"],
        [2, "amenity name"],
        [3, "hall id"],
        [3, "amenity id"],
        [4, "resident id"],
        [4, "hall id"],
        [4, "room number"],
    ],
    "column_types": ["text", "number", "text", "text", "number", "number", "text", "text", "number"]
    + ["number", "text", "number", "number", "number", "number", "number"],
    "primary_keys": [1, 5, 9, 13],
    "foreign_keys": [[11, 5], [12, 9], [13, 1], [14, 5]],
}
CAMPUS_VALUES = {
    ("resident", "sex"): ["F", "M", "X"],
    ("resident", "full_name"): ["Ada Lovelace"],
    ("resident", "age"): [19, 23],
    ("resident", "resident_id"): [1, 2, 3],
    ("hall", "hall_code"): ["BK", "A320", "NW"],
    ("hall", "hall_name"): ["Granite Court", "TV"],
    ("hall", "capacity"): [120],
    ("amenity", "amenity_name"): ["TV Lounge", "Gym"],
}
CAMPUS_QUERIES = [
    # The dorms with a given amenity, as the live dialogue asked it.
    "select sum(T1.capacity) from hall as T1 join has_amenity as T2 on T1.hall_id = T2.hall_id "
    "join amenity as T3 on T2.amenity_id = T3.amenity_id where T3.amenity_name = 'TV Lounge'",
    "select count(*) from lives_in",
    "select T1.full_name, T2.room_number from resident as T1 join lives_in as T2 on T1.resident_id = T2.resident_id",
    "select full_name from resident where sex = 'F'",
    "select hall_name, hall_code from hall",
    "select full_name, age from resident",
    "select sex, count(*) from resident group by sex",
    "select full_name from resident where age > 20 order by age desc limit 3",
]


def campus_values(table, column):
    return CAMPUS_VALUES.get((table, column), [])


def recommend_or_none(sql, schema, category, seed, values):
    """A suggestion, or None for a combination that no short sentence can say (left out, never chained)."""
    try:
        return recommend(sql, schema, category=category, rng=random.Random(seed), values=values)
    except IntentError:
        if category != "combination":
            raise
        return None


def campus_texts(sql, categories=None, seeds=range(40)):
    for category in categories or applicable_categories(sql, CAMPUS):
        for seed in seeds:
            found = recommend_or_none(sql, CAMPUS, category, seed, campus_values)
            if found is not None:
                yield found


def test_a_relation_table_is_never_named_as_a_thing():
    for sql in CAMPUS_QUERIES:
        for suggestion in campus_texts(sql):
            text = suggestion.text.lower()
            assert "has amenit" not in text and "lives in" not in text and "lives ins" not in text, (sql, text)


def test_the_things_behind_a_relation_table_are_the_entities_it_links():
    texts = {s.text for s in campus_texts(CAMPUS_QUERIES[0], ["same_instances"])}
    assert "Ask for the student capacity of each hall instead of the total student capacity" in texts
    assert any("halls" in text for text in texts) or texts  # the halls are what is counted and listed
    counted = {s.text for s in campus_texts("select count(*) from lives_in", ["same_instances"])}
    assert not any("lives" in text for text in counted)
    # A relation table is no entity to change to either.
    changed = {s.text for s in campus_texts("select full_name from resident", ["different_entity"])}
    assert changed and all(re.match(r"Ask about the (halls|amenities) instead", text) for text in changed), changed


def test_coded_values_are_never_shown():
    codes = re.compile(r"\b(F|M|X|BK|NW|A320)\b|\bid is\b")
    for sql in CAMPUS_QUERIES:
        for suggestion in campus_texts(sql):
            assert not codes.search(suggestion.text), (sql, suggestion.text)
            assert not {"F", "M", "X", "BK", "NW", "A320", "1", "2", "3"} & set(suggestion.values), suggestion
    # A column that holds only codes gets a suggestion without a value; one with words gets a word.
    texts = {s.text for s in campus_texts("select full_name from resident where sex = 'F'", ["different_instances"])}
    assert "Ask about the rest instead: those that do not meet the condition on their sex" in texts
    assert "Ask the same about another sex" in texts
    halls = {s.text for s in campus_texts("select hall_name from hall", ["different_instances"])}
    assert "Narrow it down, e.g. only those whose hall name is Granite Court" in halls
    assert not any("hall code is" in text or "is TV" in text for text in halls)


def test_every_suggestion_is_one_short_sentence():
    for sql in [*CAMPUS_QUERIES, *QUERIES]:
        schema = CAMPUS if sql in CAMPUS_QUERIES else SCHOOL
        for category in applicable_categories(sql, schema):
            for seed in range(30):
                found = recommend_or_none(sql, schema, category, seed, campus_values if schema is CAMPUS else values)
                text = found.text if found is not None else ""
                assert "and also" not in text and not re.search(r"[.;!?] +[A-Z]", text), (sql, text)
                assert len(text.split()) <= 16 and len(text) <= 90, (sql, text)


def test_a_count_becomes_a_statistic_of_the_counted_things_only():
    # The halls are counted: a resident's age describes other things than those counted.
    sql = "select count(*) from hall as T1 join lives_in as T2 on T1.hall_id = T2.hall_id"
    texts = {s.text for s in campus_texts(sql, ["same_instances"], range(80)) if s.relation == "R6"}
    assert texts == {
        f"Ask for the {word} student capacity instead of the number of halls"
        for word in ("highest", "lowest", "average", "total")
    }


# ---------------------------------------------------------------------------------------------------------------
# Whether a question followed the suggestion
# ---------------------------------------------------------------------------------------------------------------


def test_a_suggestion_names_what_the_next_query_should_use():
    sql = 'select full_name from Student where home_country = "France"'
    found = texts = None
    for seed in range(40):
        found = recommend(sql, SCHOOL, category="different_instances", rng=random.Random(seed), values=values)
        if found.relation == "R10":
            break
    texts = found.text
    assert texts == "Ask about other ones instead: those whose country is Peru"
    assert found.columns == (("Student", "home_country"),) and found.values == ("Peru",)


def test_same_category_but_another_relation_is_not_followed():
    suggestion = {"category": "different_instances", "relation": "R10", "columns": [["Student", "home_country"]]}
    # Narrowed down (R8) instead of swapping the value (R10): same category, not what was suggested.
    assert not suggestion_followed(suggestion, ["R8"], 'select full_name from Student where home_country = "Peru"')
    assert not suggestion_followed({"category": "display", "relation": "R14"}, ["R15"])


def test_the_suggested_relation_with_the_suggested_value_is_followed():
    suggestion = {
        "category": "different_instances",
        "relation": "R10",
        "columns": [["Student", "home_country"]],
        "values": ["Peru"],
    }
    assert suggestion_followed(suggestion, ["R10"], "select full_name from Student where home_country = 'peru'")
    # The suggested relation, but on another value than the one suggested: not what was suggested.
    assert not suggestion_followed(suggestion, ["R10"], "select full_name from Student where home_country = 'Chile'")
    # What was suggested and something of another kind besides is a combination, not the suggestion.
    assert not suggestion_followed(
        suggestion, ["R10", "R14"], "select full_name from Student where home_country = 'Peru' order by full_name"
    )


def test_an_old_suggestion_without_names_is_judged_on_the_relation_alone():
    old = {"category": "same_instances", "relation": "R1", "text": "Ask for another detail of these students"}
    assert suggestion_followed(old, ["R1"], "select full_name, stu_age from Student")
    assert suggestion_followed(old, ["R1"])
    assert not suggestion_followed(old, ["R3"])
    combined = {"category": "combination", "relation": "R1+R14"}
    assert suggestion_followed(combined, ["R1", "R14"]) and not suggestion_followed(combined, ["R1"])


# ---------------------------------------------------------------------------------------------------------------
# A suggestion a worker reads once (rules from the relations' definitions and plain English, not from sample pairs)
# ---------------------------------------------------------------------------------------------------------------

# Flights with an identifier-like number, a catch-all column and a coded column; a table named for how it keeps rows
# and one written as a single word. Column ids: 0 *, flight 1-5, plane_data 6-8, flightroute 9-10.
FLEET = {
    "db_id": "fleet",
    "table_names_original": ["Flight", "plane_data", "flightroute"],
    "table_names": ["flight", "plane data", "flightroute"],
    "column_names_original": [
        [-1, "*"],
        [0, "flight_id"],
        [0, "flight_number"],
        [0, "origin"],
        [0, "other_details"],
        [0, "code2"],
        [1, "plane_id"],
        [1, "seats"],
        [1, "maker"],
        [2, "flight_id"],
        [2, "route"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "flight id"],
        [0, "flight number"],
        [0, "origin"],
        [0, "other details"],
        [0, "code2"],
        [1, "plane id"],
        [1, "seats"],
        [1, "maker"],
        [2, "flight id"],
        [2, "route"],
    ],
    "column_types": ["text", "number", "number", "text", "text", "text", "number", "number", "text", "number", "text"],
    "primary_keys": [1, 6],
    "foreign_keys": [[9, 1]],
}


def all_texts(sql, schema=FLEET):
    texts = []
    for category in applicable_categories(sql, schema):
        for seed in range(40):
            try:
                texts.append(recommend(sql, schema, category=category, rng=random.Random(seed)).text)
            except IntentError:
                continue
    return texts


def test_a_catch_all_or_digit_named_column_is_never_suggested():
    texts = all_texts("SELECT origin FROM Flight")
    assert texts
    assert not [text for text in texts if "other details" in text or "code2" in text]


def test_narrowing_never_uses_an_identifier_or_a_column_an_equality_already_fixes():
    for sql in ("SELECT origin FROM Flight WHERE flight_number = 28", "SELECT flight_number FROM Flight"):
        narrowed = texts_by_relation(sql, "different_instances", schema=FLEET, with_values=False).get("R8", set())
        assert not [text for text in narrowed if "flight number" in text], narrowed


def test_no_repeats_are_offered_for_a_single_row():
    texts = texts_by_relation("SELECT origin FROM Flight ORDER BY flight_number LIMIT 1", "display", schema=FLEET)
    assert "R16" not in texts


def test_tables_are_named_as_the_drafts_name_them():
    texts = all_texts("SELECT maker FROM plane_data")
    assert any("planes" in text for text in texts)
    assert not [text for text in texts if "plane data" in text or "flightroute" in text]


def test_a_combination_never_sorts_by_the_column_it_asks_to_replace():
    seen = 0
    for seed in range(200):
        rng = random.Random(seed)
        found = recommend("SELECT full_name, stu_age FROM Student", SCHOOL, category="combination", rng=rng)
        if found.relation != "R3+R14":
            continue
        seen += 1
        replaced = re.search(r"instead of their (\w+)", found.text).group(1)
        assert f"by their {replaced}" not in found.text, found.text
    assert seen, "no draw gave a column swap with a sort"


# --- Issue 35, part 3: suggestions worth following, read from what the worker was shown -------------------------------

# Figures of each column as the room reads them (dialogs.assist.column_statistics_at): full names are unique, countries
# repeat, ages run from 18 to 26.
FIGURES = {
    ("Student", "full_name"): {"rows": 30, "distinct": 30, "min": "Ann", "max": "Zoe"},
    ("Student", "home_country"): {"rows": 30, "distinct": 6, "min": "Chile", "max": "Peru"},
    ("Student", "stu_age"): {"rows": 30, "distinct": 9, "min": 18, "max": 26},
    ("Dorm", "dorm_name"): {"rows": 5, "distinct": 5, "min": "A", "max": "E"},
    ("Dorm", "dorm_capacity"): {"rows": 5, "distinct": 5, "min": 100, "max": 400},
}
CLUB = {
    "db_id": "club",
    "table_names_original": ["member"],
    "table_names": ["member"],
    "column_names_original": [[-1, "*"], [0, "member_id"], [0, "Name"], [0, "is_full_time"], [0, "Level"]],
    "column_names": [[-1, "*"], [0, "member id"], [0, "name"], [0, "is full time"], [0, "level"]],
    "column_types": ["text", "number", "text", "others", "number"],
    "primary_keys": [1],
    "foreign_keys": [],
}
CLUB_FIGURES = {
    ("member", "Name"): {"rows": 12, "distinct": 12},
    ("member", "Level"): {"rows": 12, "distinct": 3, "min": 1, "max": 3},
    ("member", "is_full_time"): {"rows": 12, "distinct": 2},
}


def seen_texts(sql, schema, rows, figures, *, category=None, truncated=False):
    """Every suggestion a room could show after `sql` returned `rows`, over many draws."""
    result = {"rows": rows, "truncated": truncated}

    def statistics(table, column):
        return figures.get((table, column))

    texts = []
    for name in [category] if category else applicable_categories(sql, schema, result=result, statistics=statistics):
        for seed in range(40):
            try:
                found = recommend(
                    sql,
                    schema,
                    category=name,
                    rng=random.Random(seed),
                    result=result,
                    statistics=statistics,
                    values=lambda table, column: {("Student", "stu_age"): [18, 26], ("member", "Level"): [1, 3]}.get(
                        (table, column), []
                    ),
                )
            except IntentError:
                continue
            texts.append(found.text)
    return texts


def test_no_group_by_a_column_whose_values_are_all_different():
    # a name is never grouped by (test_intents_seen): the dorms' capacities, all different, are the unique column here
    for sql, schema, figures, rows, unique in (("SELECT count(*) FROM Dorm", SCHOOL, FIGURES, [[5]], "per capacity"),):
        before = seen_texts(sql, schema, rows, {}, category="same_instances")
        after = seen_texts(sql, schema, rows, figures, category="same_instances")
        assert any(unique in text for text in before)  # without figures the unique column was offered
        assert not any(unique in text for text in after) and after


def test_without_repeats_only_when_the_shown_rows_repeat():
    sql = "SELECT home_country FROM Student"
    distinct_rows = [["Chile"], ["Peru"], ["Spain"]]
    assert not any("repeats" in text for text in seen_texts(sql, SCHOOL, distinct_rows, FIGURES, category="display"))
    repeated = [["Chile"], ["Peru"], ["Chile"]]
    assert any("repeats" in text for text in seen_texts(sql, SCHOOL, repeated, FIGURES, category="display"))
    one_row = seen_texts("SELECT Name FROM member WHERE member_id = 3", CLUB, [["Ann"]], CLUB_FIGURES)
    assert not any("repeats" in text or "sort" in text or "Narrow" in text for text in one_row)


def test_no_range_that_the_columns_lowest_or_highest_value_leaves_empty():
    sql = "SELECT full_name FROM Student WHERE stu_age >= 18"
    texts = seen_texts(sql, SCHOOL, [["Ann"], ["Bob"]], FIGURES, category="different_instances")
    assert not any("below 18" in text for text in texts)
    club = seen_texts("SELECT Name FROM member WHERE Level <= 3", CLUB, [["Ann"], ["Bob"]], CLUB_FIGURES)
    assert not any("above 3" in text for text in club)


def test_a_flag_is_a_condition_in_words_never_a_raw_name():
    rows = [[f"M{n}"] for n in range(8)]  # a handful is read at once, not narrowed
    texts = seen_texts("SELECT Name FROM member", CLUB, rows, CLUB_FIGURES)
    assert any("those that are full time" in text for text in texts)
    assert not any("flag" in text for text in texts)


def test_after_an_empty_result_only_other_rows_are_suggested():
    texts = seen_texts("SELECT full_name FROM Student WHERE home_country = 'Peru'", SCHOOL, [], FIGURES)
    assert texts and not any(text.startswith(("Ask to sort", "Ask for another detail")) for text in texts)


def test_a_count_per_group_of_a_join_counts_the_joined_rows():
    sql = (
        "SELECT T1.dorm_name FROM Dorm AS T1 JOIN Student AS T2 ON T1.dorm_id = T2.dorm_id "
        "GROUP BY T1.dorm_name ORDER BY count(*) DESC LIMIT 1"
    )
    texts = seen_texts(sql, SCHOOL, [["A"]], FIGURES, category="display")
    assert texts and not any("number of dorms" in text for text in texts)


# Countries name their capital by a city's id (a number, no foreign key declared); cities have ids 1 to 100.
ATLAS = {
    "db_id": "atlas",
    "table_names_original": ["country", "city"],
    "table_names": ["country", "city"],
    "column_names_original": [
        [-1, "*"],
        [0, "code"],
        [0, "name"],
        [0, "continent"],
        [0, "population"],
        [0, "capital"],
        [0, "founded_year"],
        [0, "horsepower"],
        [1, "id"],
        [1, "name"],
        [1, "country_code"],
        [1, "population"],
    ],
    "column_names": [
        [-1, "*"],
        [0, "code"],
        [0, "name"],
        [0, "continent"],
        [0, "population"],
        [0, "capital"],
        [0, "founded year"],
        [0, "horsepower"],
        [1, "id"],
        [1, "name"],
        [1, "country code"],
        [1, "population"],
    ],
    "column_types": ["text", "text", "text", "text", "number", "number", "number", "text", "number", "text"]
    + ["text", "number"],
    "primary_keys": [1, 8],
    "foreign_keys": [[10, 1]],
}
ATLAS_FIGURES = {
    ("country", "name"): {"rows": 40, "distinct": 40, "min": "Aruba", "max": "Zambia"},
    ("country", "continent"): {"rows": 40, "distinct": 5, "min": "Africa", "max": "Oceania"},
    ("country", "population"): {"rows": 40, "distinct": 40, "min": 1000, "max": 900000},
    ("country", "capital"): {"rows": 40, "distinct": 40, "min": 2, "max": 97},
    ("country", "founded_year"): {"rows": 40, "distinct": 30, "min": 1800, "max": 1990},
    ("country", "horsepower"): {"rows": 40, "distinct": 35, "min": "100", "max": "null"},
    ("city", "id"): {"rows": 100, "distinct": 100, "min": 1, "max": 100},
    ("city", "name"): {"rows": 100, "distinct": 100, "min": "Aba", "max": "Zug"},
    ("city", "population"): {"rows": 4079, "distinct": 3897, "min": 42, "max": 9000000},
}
MANY_NAMES = [[f"Country {index}"] for index in range(40)]


def test_a_number_that_is_another_tables_key_is_never_sorted_by_or_summed():
    texts = seen_texts("SELECT name FROM country", ATLAS, MANY_NAMES, ATLAS_FIGURES)
    texts += seen_texts("SELECT count(*) FROM country", ATLAS, [[40]], ATLAS_FIGURES)
    assert texts and not any("capital" in text for text in texts), [t for t in texts if "capital" in t]
    # Without the figures the capital's numbers are not known to be keys.
    assert any("capital" in text for text in seen_texts("SELECT count(*) FROM country", ATLAS, [[40]], {}))


def test_never_sorted_by_an_identifier():
    texts = seen_texts("SELECT id FROM city", ATLAS, [[n] for n in range(1, 101)], ATLAS_FIGURES, category="display")
    assert not any("by their id" in text or "highest id" in text or "lowest id" in text for text in texts)


def test_rows_read_at_a_glance_are_not_sorted():
    rows = [["Peru"], ["Chile"], ["Spain"], ["Italy"]]
    texts = seen_texts("SELECT name FROM country WHERE continent = 'Europe'", ATLAS, rows, ATLAS_FIGURES)
    assert texts and not any("sort" in text.lower() for text in texts)
    assert any("sort" in text for text in seen_texts("SELECT name FROM country", ATLAS, MANY_NAMES, ATLAS_FIGURES))


def test_after_a_limit_only_the_highest_or_latest_of_something_is_asked():
    sql = "SELECT name FROM country ORDER BY horsepower DESC LIMIT 1"
    texts = seen_texts(sql, ATLAS, [["Peru"]], ATLAS_FIGURES, category="display")
    assert texts and not any("sort them" in text or "sorted" in text for text in texts)
    # horsepower is kept as text, but its lowest value reads as a number: the other end is "the lowest".
    assert any("the lowest horsepower" in text for text in texts)


def test_a_column_the_question_fixed_is_not_asked_for():
    sql = "SELECT population FROM country WHERE name = 'Peru'"
    texts = seen_texts(sql, ATLAS, [[30000]], ATLAS_FIGURES, category="same_instances")
    assert texts and not any("their name" in text for text in texts)


def test_a_figure_of_thousands_of_rows_is_not_listed():
    texts = seen_texts("SELECT avg(population) FROM city", ATLAS, [[5000.5]], ATLAS_FIGURES, category="same_instances")
    assert texts and not any("list each" in text for text in texts)
    few = seen_texts("SELECT max(population) FROM country", ATLAS, [[900000]], ATLAS_FIGURES, category="same_instances")
    assert any("the population of each country" in text for text in few)  # 40 countries can be listed


def test_no_group_by_a_number_with_many_values_nor_a_total_of_years():
    texts = seen_texts("SELECT count(*) FROM country", ATLAS, [[40]], ATLAS_FIGURES, category="same_instances")
    assert texts and not any("per founded year" in text or "per horsepower" in text for text in texts)
    assert not any(re.search(r"(total|average) founded year", text) for text in texts)
    assert any("per continent" in text for text in texts)


def test_one_column_is_not_both_changes_of_a_combination():
    texts = seen_texts("SELECT count(*) FROM country", ATLAS, [[40]], ATLAS_FIGURES, category="combination")
    for text in texts:
        match = re.search(r"per (\w+), .*their (\w+)", text)
        assert not (match and match.group(1) == match.group(2)), text


def test_a_count_of_a_set_operation_or_of_groups_names_what_it_counts():
    union = "SELECT name FROM country UNION SELECT name FROM city"
    # cut without its total: how many is not in view (a result shown whole or with its total says how many)
    texts = seen_texts(union, ATLAS, MANY_NAMES, ATLAS_FIGURES, category="same_instances", truncated=True)
    assert any("how many names there are" in text for text in texts)
    assert not any("how many countries" in text for text in texts)
    grouped = "SELECT count(*) FROM (SELECT continent FROM country GROUP BY continent)"
    texts = seen_texts(grouped, ATLAS, [[5]], ATLAS_FIGURES, category="same_instances")
    assert any("the number of continents" in text for text in texts)
    assert not any("countries" in text or "population" in text for text in texts)


def test_a_listed_column_is_not_narrowed_to_one_of_its_words_and_a_range_splits_what_was_shown():
    rows = [[name] for name in ("Africa", "Asia", "Europe", "Oceania", "America", "Africa")]
    texts = seen_texts("SELECT continent FROM country", ATLAS, rows, ATLAS_FIGURES, category="different_instances")
    assert not any("whose continent is" in text for text in texts)
    shown = [["Peru", 18], ["Chile", 19]] * 3
    values_texts = seen_texts("SELECT full_name, stu_age FROM Student", SCHOOL, shown, FIGURES)
    ranges = [text for text in values_texts if "age is" in text]
    assert ranges and all("above 18" in text for text in ranges), ranges  # 26 would keep both, 18 below keeps none


def test_a_yes_no_condition_is_not_swapped_for_another_flag():
    texts = seen_texts(
        "SELECT Name FROM member WHERE is_full_time = 1",
        CLUB,
        [["Ann"], ["Bob"], ["Cid"]],
        CLUB_FIGURES,
        category="different_instances",
    )
    assert texts and not any("flag" in text for text in texts)


def test_another_entity_is_not_described_by_its_own_name():
    schema = {
        "db_id": "lands",
        "table_names_original": ["continent", "country"],
        "table_names": ["continent", "country"],
        "column_names_original": [[-1, "*"], [0, "cont_id"], [0, "continent"], [1, "id"], [1, "name"], [1, "cont"]],
        "column_names": [[-1, "*"], [0, "cont id"], [0, "continent"], [1, "id"], [1, "name"], [1, "cont"]],
        "column_types": ["text", "number", "text", "number", "text", "number"],
        "primary_keys": [1, 3],
        "foreign_keys": [[5, 1]],
    }
    texts = seen_texts("SELECT count(*) FROM country", schema, [[40]], {}, category="different_entity")
    assert texts and not any("their continent" in text for text in texts)
    assert "Ask about the continents instead, such as their name" in texts  # the continent's "continent" is its name


def test_a_count_of_distinct_keys_counts_what_the_key_names():
    sql = "SELECT count(*) FROM (SELECT DISTINCT country_code FROM city)"
    texts = seen_texts(sql, ATLAS, [[12]], ATLAS_FIGURES, category="same_instances")
    assert any("the number of countries" in text for text in texts), set(texts)
    assert not any("cities" in text for text in texts)


def test_no_identifier_is_added_as_a_detail_and_no_condition_on_a_name_that_says_nothing():
    texts = seen_texts("SELECT name FROM city", ATLAS, [[f"City {n}"] for n in range(100)], ATLAS_FIGURES)
    assert not any("their id" in text or "their country code" in text for text in texts)
    schema = {
        "db_id": "venues",
        "table_names_original": ["stadium"],
        "table_names": ["stadium"],
        "column_names_original": [[-1, "*"], [0, "stadium_id"], [0, "name"], [0, "Average"], [0, "Capacity"]],
        "column_names": [[-1, "*"], [0, "stadium id"], [0, "name"], [0, "average"], [0, "capacity"]],
        "column_types": ["text", "number", "text", "number", "number"],
        "primary_keys": [1],
        "foreign_keys": [],
    }
    texts = seen_texts("SELECT count(*) FROM stadium WHERE Average > 1000", schema, [[2]], {})
    assert texts and not any("whose average" in text or "their average" in text for text in texts)


def test_the_one_row_of_a_top_group_is_not_narrowed_and_each_group_is_one_thing():
    sql = "SELECT home_country FROM Student GROUP BY home_country ORDER BY count(*) DESC LIMIT 1"
    texts = seen_texts(sql, SCHOOL, [["Peru"]], FIGURES, category="different_instances")
    assert not any(text.startswith("Narrow") for text in texts)
    many = seen_texts(
        sql.replace(" LIMIT 1", ""), SCHOOL, [["Peru"], ["Chile"]], FIGURES, category="different_instances"
    )
    assert any(text.startswith("Narrow") for text in many)
    per_student = seen_texts(
        # ">= 2": with "= 2" each count is 2, which the HAVING says (test_intents_shown_more)
        "SELECT stu_id FROM Student_Course GROUP BY stu_id HAVING count(*) >= 2",
        SCHOOL,
        [[1], [2], [3]],
        FIGURES,
        category="same_instances",
    )
    assert not any("each student course" in text for text in per_student)
    assert any("each student has" in text for text in per_student), set(per_student)


def test_a_year_is_the_latest_or_earliest_never_the_highest():
    texts = seen_texts("SELECT count(*) FROM country", ATLAS, [[40]], ATLAS_FIGURES, category="same_instances")
    # a participle and "year" in a response's order, as the drafts say it (`english.column_name`)
    assert any("latest year founded" in text or "earliest year founded" in text for text in texts), set(texts)
    assert not any("highest year founded" in text or "lowest year founded" in text for text in texts)
    assert not any("founded year" in text for text in texts)


def test_no_count_per_value_of_distinct_values_shown_nor_of_counted_groups():
    rows = [["Peru"], ["Chile"]]
    texts = seen_texts("SELECT home_country FROM Student WHERE stu_age > 20", SCHOOL, rows, FIGURES)
    assert texts and not any("per country" in text for text in texts)
    grouped = "SELECT count(*) FROM (SELECT continent FROM country GROUP BY continent)"
    assert not any(" per " in text for text in seen_texts(grouped, ATLAS, [[5]], ATLAS_FIGURES))


def test_the_rows_of_a_set_operation_over_two_tables_have_no_details_of_one():
    union = "SELECT name FROM country UNION SELECT name FROM city"
    texts = seen_texts(union, ATLAS, MANY_NAMES, ATLAS_FIGURES, category="same_instances", truncated=True)
    assert texts and all(text == "Ask how many names there are" for text in texts), set(texts)


def test_a_distinct_listing_is_counted_by_its_values_and_rows_in_view_are_not_counted():
    rows = [[f"Continent {n}"] for n in range(8)]
    texts = seen_texts(
        "SELECT DISTINCT continent FROM country", ATLAS, rows, ATLAS_FIGURES, category="same_instances", truncated=True
    )
    assert any("how many continents there are" in text for text in texts)
    shown = seen_texts("SELECT DISTINCT continent FROM country", ATLAS, rows, ATLAS_FIGURES, category="same_instances")
    assert not any("how many" in text for text in shown)  # the room says how many rows came back
    few = seen_texts(
        "SELECT DISTINCT continent FROM country", ATLAS, rows[:3], ATLAS_FIGURES, category="same_instances"
    )
    assert not any("how many" in text for text in few)


def test_narrowing_needs_a_detail_and_never_uses_a_column_a_condition_already_bounds():
    texts = seen_texts("SELECT count(*) FROM Student WHERE stu_age > 20", SCHOOL, [[7]], FIGURES)
    assert not any(re.search(r"only those whose age|narrowed down by their age", text) for text in texts)
    schema = {
        "db_id": "flights",
        "table_names_original": ["flight"],
        "table_names": ["flight"],
        "column_names_original": [[-1, "*"], [0, "flight_no"]],
        "column_names": [[-1, "*"], [0, "flight no"]],
        "column_types": ["text", "number"],
        "primary_keys": [1],
        "foreign_keys": [],
    }
    rows = [[n] for n in range(30)]
    assert not any("only some" in text for text in seen_texts("SELECT flight_no FROM flight", schema, rows, {}))


def test_a_group_of_values_has_no_details_and_a_swap_keeps_what_a_group_is():
    by_value = seen_texts(
        "SELECT home_country, max(stu_age) FROM Student GROUP BY home_country",
        SCHOOL,
        [["Peru", 20], ["Chile", 22], ["Spain", 21], ["Italy", 23], ["France", 19], ["Cuba", 24]],
        FIGURES,
        category="same_instances",
    )
    assert by_value and not any("such as their" in text or "instead of their" in text for text in by_value)
    by_key = seen_texts(
        "SELECT T1.dorm_name, count(*) FROM Dorm AS T1 JOIN Student AS T2 ON T1.dorm_id = T2.dorm_id "
        "GROUP BY T1.dorm_id",
        SCHOOL,
        [["A", 3], ["B", 4], ["C", 5], ["D", 6], ["E", 7], ["F", 8]],
        FIGURES,
        category="same_instances",
    )
    swaps = [text for text in by_key if "instead of their" in text]
    assert swaps and all("capacity instead of their dorm name" in text for text in swaps), swaps


def test_another_entity_is_not_one_the_result_shows_and_a_count_is_not_narrowed_to_one_of_its_values():
    sql = (
        "SELECT T1.name FROM country AS T1 JOIN city AS T2 ON T1.code = T2.country_code "
        "GROUP BY T2.country_code ORDER BY count(*) DESC LIMIT 1"
    )
    texts = seen_texts(sql, ATLAS, [["China"]], ATLAS_FIGURES, category="different_entity")
    assert not any("the countries" in text for text in texts), set(texts)
    counted = seen_texts(
        "SELECT count(DISTINCT continent) FROM country", ATLAS, [[5]], ATLAS_FIGURES, category="different_instances"
    )
    assert not any("continent" in text for text in counted), set(counted)


def test_a_combination_never_ends_in_a_rest_it_cannot_name():
    sql = "SELECT continent FROM country GROUP BY continent HAVING avg(population) > 1000"
    rows = [[f"Continent {n}"] for n in range(6)]
    texts = seen_texts(sql, ATLAS, rows, ATLAS_FIGURES, category="combination")
    assert not any(text.endswith("for the rest instead") for text in texts)


# A student has allergies (Has_Allergy links students to allergy types); a university was founded in a year.
ALLERGIES = {
    "db_id": "allergies",
    "table_names_original": ["Student", "Has_Allergy", "University"],
    "table_names": ["student", "has allergy", "university"],
    "column_names_original": [[-1, "*"], [0, "StuID"], [0, "LName"], [0, "Sex"], [0, "Initial"]]
    + [[1, "StuID"], [1, "AllergyType"], [2, "School"], [2, "Founded"]],
    "column_names": [[-1, "*"], [0, "stuid"], [0, "last name"], [0, "sex"], [0, "initial"]]
    + [[1, "stuid"], [1, "allergy type"], [2, "school"], [2, "founded"]],
    "column_types": ["text", "number", "text", "text", "text", "number", "text", "text", "number"],
    "primary_keys": [1],
    "foreign_keys": [[5, 1]],
}
ALLERGY_FIGURES = {
    ("Student", "Sex"): {"rows": 30, "distinct": 2, "min": "F", "max": "M"},
    ("Student", "LName"): {"rows": 30, "distinct": 30, "min": "Apap", "max": "Zhu"},
    ("Student", "Initial"): {"rows": 30, "distinct": 8, "min": "A", "max": "T"},
    ("Has_Allergy", "AllergyType"): {"rows": 50, "distinct": 6, "min": "animal", "max": "food"},
}


def test_an_id_hidden_in_a_readable_name_is_a_key_and_counts_what_it_names():
    sql = (
        "SELECT StuID FROM Has_Allergy WHERE AllergyType = 'food' "
        "INTERSECT SELECT StuID FROM Has_Allergy WHERE AllergyType = 'animal'"
    )
    texts = seen_texts(sql, ALLERGIES, [[1007], [1010], [1023], [1030], [1031], [1040]], ALLERGY_FIGURES)
    assert texts and not any("stuids" in text or "by their stuid" in text for text in texts), set(texts)


def test_a_participle_alone_is_said_as_its_year_and_a_fixed_column_is_no_group():
    texts = seen_texts("SELECT School FROM University WHERE Founded < 1800", ALLERGIES, [["A"], ["B"]], {})
    # a number named by a verb of coming about is the year it happened, as the drafts name it (`english.column_name`)
    assert any("year founded" in text for text in texts), set(texts)
    assert not any(f"{word} founded" in text for text in texts for word in ("whose", "their", "the")), set(texts)
    rows = [[f"Name {n}"] for n in range(10)]
    by_sex = seen_texts("SELECT LName FROM Student WHERE Sex = 'F'", ALLERGIES, rows, ALLERGY_FIGURES)
    assert not any("per sex" in text for text in by_sex)


def test_a_distinct_listing_of_values_has_no_details_or_groups():
    rows = [["food"], ["animal"], ["drug"], ["pollen"], ["mold"], ["dust"]]
    texts = seen_texts(
        "SELECT DISTINCT AllergyType FROM Has_Allergy",
        ALLERGIES,
        rows,
        ALLERGY_FIGURES,
        category="same_instances",
        truncated=True,
    )
    assert texts and not any("instead of their" in text or "such as their" in text or " per " in text for text in texts)


def test_narrowing_by_a_column_with_a_value_comes_before_one_in_no_words():
    rows = [[f"Name {n}"] for n in range(10)]
    found = []
    for seed in range(30):
        found.append(
            recommend(
                "SELECT LName FROM Student",
                ALLERGIES,
                category="different_instances",
                rng=random.Random(seed),
                values=lambda table, column: {("Student", "Sex"): ["female"]}.get((table, column), []),
                result={"rows": rows},
                statistics=lambda table, column: ALLERGY_FIGURES.get((table, column)),
            ).text
        )
    assert found and not any("initial" in text for text in found), set(found)


def test_groups_are_not_narrowed_to_one_of_their_keys_and_a_swap_stays_with_the_entity():
    rows = [[f"Continent {n}", n] for n in range(6)]
    sql = "SELECT continent, max(population) FROM country GROUP BY continent"
    texts = seen_texts(sql, ATLAS, rows, ATLAS_FIGURES, category="different_instances")
    assert not any("whose continent is" in text or "condition on their continent" in text for text in texts)
    joined = (
        "SELECT T2.name FROM country AS T1 JOIN city AS T2 ON T1.code = T2.country_code WHERE T1.continent = 'Asia'"
    )
    swaps = seen_texts(joined, ATLAS, [[f"City {n}"] for n in range(30)], ATLAS_FIGURES, category="same_instances")
    assert not any("instead of their name" in text and "population" not in text for text in swaps), set(swaps)


def test_a_combination_never_narrows_by_a_column_in_no_words_and_distinct_codes_are_values():
    rows = [[f"Name {n}"] for n in (3, 7, 1, 9, 0, 5, 2, 8, 6, 4)]  # not already A to Z: sorting them is a change
    texts = seen_texts("SELECT LName FROM Student", ALLERGIES, rows, ALLERGY_FIGURES, category="combination")
    assert texts and not any("narrowed down by" in text for text in texts), set(texts)
    codes = [["BAL"], ["HKG"], ["WAS"], ["CHI"], ["PIT"], ["NYC"]]
    schema = {
        "db_id": "homes",
        "table_names_original": ["Student"],
        "table_names": ["student"],
        "column_names_original": [[-1, "*"], [0, "StuID"], [0, "Sex"], [0, "city_code"]],
        "column_names": [[-1, "*"], [0, "stuid"], [0, "sex"], [0, "city code"]],
        "column_types": ["text", "number", "text", "text"],
        "primary_keys": [1],
        "foreign_keys": [],
    }
    texts = seen_texts(
        "SELECT DISTINCT city_code FROM Student", schema, codes, {}, category="same_instances", truncated=True
    )
    assert texts and all(text == "Ask how many cities there are" for text in texts), set(texts)


def test_names_that_read_as_clauses_or_carry_a_unit_are_said_as_nouns_or_not_at_all():
    schema = {
        "db_id": "firms",
        "table_names_original": ["company", "debate"],
        "table_names": ["company", "debate"],
        "column_names_original": [[-1, "*"], [0, "id"], [0, "Name"], [0, "Profits_billion"], [0, "Continuation_of"]]
        + [[1, "id"], [1, "If_Affirmative_Win"], [1, "Paid_in_full_yn"]],
        "column_names": [[-1, "*"], [0, "id"], [0, "name"], [0, "profits billion"], [0, "continuation of"]]
        + [[1, "id"], [1, "if affirmative win"], [1, "paid in full yn"]],
        "column_types": ["text", "number", "text", "number", "text", "number", "others", "text"],
        "primary_keys": [1, 5],
        "foreign_keys": [],
    }
    rows = [[f"Firm {n}"] for n in range(10)]
    texts = seen_texts("SELECT Name FROM company", schema, rows, {})
    assert any("profits" in text for text in texts)
    assert not any(re.search(r"billion|continuation|affirmative|yn\b", text) for text in texts), set(texts)
    texts = seen_texts("SELECT count(*) FROM debate", schema, [[9]], {})
    assert not any(re.search(r"affirmative|paid in full", text) for text in texts), set(texts)


def test_a_row_of_a_join_is_described_by_what_it_points_to_never_by_what_points_to_it():
    schema = {
        "db_id": "docs",
        "table_names_original": ["Ref_Status", "Documents"],
        "table_names": ["status", "documents"],
        "column_names_original": [[-1, "*"], [0, "status_code"], [0, "status_description"]]
        + [[1, "document_id"], [1, "status_code"], [1, "receipt_date"]],
        "column_names": [[-1, "*"], [0, "status code"], [0, "status description"]]
        + [[1, "document id"], [1, "status code"], [1, "receipt date"]],
        "column_types": ["text", "text", "text", "number", "text", "time"],
        "primary_keys": [1, 3],
        "foreign_keys": [[4, 1]],
    }
    sql = (
        "SELECT T1.status_description FROM Ref_Status AS T1 JOIN Documents AS T2 "
        "ON T1.status_code = T2.status_code WHERE T2.document_id = 2"
    )
    texts = seen_texts(sql, schema, [["mailed"]], {}, category="same_instances")
    assert not any("statuses, such as their receipt date" in text for text in texts), set(texts)
    group = seen_texts(
        "SELECT status_description, count(*) FROM Ref_Status GROUP BY status_description",
        {**schema, "column_names": [[-1, "*"], [0, "status code"], [0, "status details"]] + schema["column_names"][3:]},
        [[f"S{n}", n] for n in range(8)],
        {},
        category="same_instances",
    )
    assert not any("each status details" in text for text in group), set(group)


# Students minor in departments (Minor_in links them); a department has a phone number; a user's login is 0 or 1.
MINORS = {
    "db_id": "minors",
    "table_names_original": ["Student", "Department", "Minor_in", "Users"],
    "table_names": ["student", "department", "minor in", "users"],
    "column_names_original": [[-1, "*"], [0, "StuID"], [0, "LName"], [0, "Rating"], [0, "Registered"]]
    + [[1, "DNO"], [1, "DName"], [1, "DPhone"], [1, "Building"], [2, "StuID"], [2, "DNO"]]
    + [[3, "user_id"], [3, "role"], [3, "user_login"]],
    "column_names": [[-1, "*"], [0, "stuid"], [0, "last name"], [0, "rating"], [0, "registration date"]]
    + [[1, "dno"], [1, "name"], [1, "phone"], [1, "building"], [2, "stuid"], [2, "dno"]]
    + [[3, "user id"], [3, "role"], [3, "user login"]],
    "column_types": ["text", "number", "text", "number", "time", "number", "text", "number", "text", "number", "number"]
    + ["number", "text", "number"],
    "primary_keys": [1, 5, 11],
    "foreign_keys": [[9, 1], [10, 5]],
}
MINOR_FIGURES = {
    ("Student", "Rating"): {"rows": 40, "distinct": 9, "min": 1, "max": 9},
    ("Student", "Registered"): {"rows": 40, "distinct": 12, "min": "2019-01-01", "max": "2020-01-01"},
    ("Department", "DPhone"): {"rows": 20, "distinct": 20, "min": 2000, "max": 9999},
    ("Department", "Building"): {"rows": 20, "distinct": 6, "min": "Gilman", "max": "Wyman"},
    ("Users", "user_login"): {"rows": 15, "distinct": 2, "min": 0, "max": 1},
    ("Users", "role"): {"rows": 15, "distinct": 3, "min": "DBA", "max": "PM"},
}


def test_numbers_that_name_and_measures_that_do_not_add_up_are_no_figures():
    texts = seen_texts("SELECT count(*) FROM Department", MINORS, [[20]], MINOR_FIGURES, category="same_instances")
    texts += seen_texts("SELECT count(*) FROM Student", MINORS, [[40]], MINOR_FIGURES, category="same_instances")
    assert texts and not any("phone" in text or "total rating" in text for text in texts), set(texts)
    assert any("average rating" in text for text in texts)


def test_a_count_per_key_of_a_link_table_counts_what_it_links_and_a_name_is_its_thing():
    sql = "SELECT T1.DName FROM Department AS T1 JOIN Minor_in AS T2 ON T1.DNO = T2.DNO GROUP BY T2.DNO"
    rows = [[f"D{n}"] for n in range(8)]
    texts = seen_texts(sql, MINORS, rows, MINOR_FIGURES, category="same_instances")
    assert not any("departments each" in text for text in texts), set(texts)
    assert any("how many students each department has" in text for text in texts), set(texts)
    widen = seen_texts("SELECT Building FROM Department WHERE DName = 'Math'", MINORS, [["Gilman"]], {})
    assert not any("another name" in text for text in widen)
    assert any("another department" in text for text in widen), set(widen)


def test_no_group_by_a_date_or_by_zeros_and_ones():
    texts = seen_texts("SELECT count(*) FROM Student", MINORS, [[40]], MINOR_FIGURES, category="same_instances")
    assert not any("per registration date" in text for text in texts)
    users = seen_texts("SELECT role FROM Users GROUP BY role", MINORS, [["DBA"], ["PM"]], MINOR_FIGURES)
    assert not any("per user login" in text for text in users), set(users)


# Tracks and their races (set 5 of the CHASE-T sheets' causes, written as general rules): a track's name names it; a
# height in feet; a place's latitude; a column named with a typo ("shaff") or as a clause ("how to get there"); races
# are held in numbered rooms and have a prize and a race class; race notes are long texts.
TRACKS = {
    "db_id": "tracks",
    "table_names_original": ["track", "race"],
    "table_names": ["track", "race"],
    "column_names_original": [[-1, "*"], [0, "track_id"], [0, "name"], [0, "location"], [0, "seating"]]
    + [[0, "height_feet"], [0, "latitude"], [0, "how_to_get_there"], [0, "shaff_in_charge"]]
    + [[1, "race_id"], [1, "track_id"], [1, "class_room"], [1, "prize"], [1, "race_class"], [1, "notes"]],
    "column_names": [[-1, "*"], [0, "track id"], [0, "name"], [0, "location"], [0, "seating"]]
    + [[0, "height feet"], [0, "latitude"], [0, "how to get there"], [0, "shaff in charge"]]
    + [[1, "race id"], [1, "track id"], [1, "class room"], [1, "prize"], [1, "race class"], [1, "notes"]],
    "column_types": ["text", "number", "text", "text", "number", "number", "number", "text", "number"]
    + ["number", "number", "number", "number", "text", "text"],
    "primary_keys": [1, 9],
    "foreign_keys": [[10, 1]],
}
TRACK_FIGURES = {
    ("track", "name"): {"rows": 30, "distinct": 30},
    ("track", "location"): {"rows": 30, "distinct": 12},
    ("track", "seating"): {"rows": 30, "distinct": 10, "min": 1000, "max": 90000},
    ("track", "height_feet"): {"rows": 30, "distinct": 20, "min": 10, "max": 300},
    ("track", "latitude"): {"rows": 30, "distinct": 30, "min": 25.1, "max": 48.2},
    ("race", "class_room"): {"rows": 60, "distinct": 8, "min": 101, "max": 112},
    ("race", "prize"): {"rows": 60, "distinct": 40, "min": 100, "max": 9000},
    ("race", "race_class"): {"rows": 60, "distinct": 4, "min": "A", "max": "D"},
}
TRACK_VALUES = {
    ("track", "location"): ["Fontana", "Joliet"],
    ("track", "how_to_get_there"): ["bus", "walk"],
    ("race", "class_room"): [101, 110, 112],
    ("race", "race_class"): ["Sprint", "Endurance"],
    ("race", "notes"): ["A long note about the race that no one would type again in a question " * 2],
}


def track_texts(sql, rows, category=None, *, values=True, schema=TRACKS, known=TRACK_VALUES):
    result = {"rows": rows, "truncated": False}
    texts = []
    for name in [category] if category else CATEGORIES:
        for seed in range(60):
            try:
                found = recommend(
                    sql,
                    schema,
                    category=name,
                    rng=random.Random(seed),
                    result=result,
                    statistics=lambda table, column: TRACK_FIGURES.get((table, column)),
                    values=(lambda table, column: known.get((table, column), [])) if values else None,
                )
            except IntentError:
                continue
            texts.append(found.text)
    return texts


def test_a_listing_keeps_the_column_that_names_its_rows():
    rows = [[f"Track {n}", f"Town {n}", 1000 * n] for n in range(1, 7)]
    texts = track_texts("SELECT name, location, seating FROM track", rows, "same_instances")
    assert not any("without their name" in text or "instead of their name" in text for text in texts), set(texts)
    assert any("without their location" in text or "instead of their location" in text for text in texts)


def test_a_name_a_worker_cannot_read_is_never_said():
    rows = [[f"Track {n}"] for n in range(1, 31)]
    texts = track_texts("SELECT name FROM track", rows)
    texts += track_texts("SELECT name FROM track WHERE how_to_get_there = 'walk'", rows[:3])
    assert texts and not any("how to get there" in text or "shaff" in text for text in texts), set(texts)


def test_a_unit_is_no_part_of_a_measure_and_a_latitude_has_no_total():
    rows = [[f"Track {n}"] for n in range(1, 31)]
    texts = track_texts("SELECT name FROM track", rows, "same_instances")
    assert any(" height" in text for text in texts), set(texts)
    assert not any("height feet" in text or "total latitude" in text for text in texts), set(texts)
    assert not any("average latitude" in text for text in texts), set(texts)  # a place has no average


def test_a_room_number_names_a_room():
    texts = track_texts("SELECT DISTINCT class_room FROM race WHERE prize > 500", [[101], [110], [112]])
    assert not any("class room is above" in text or "class room is below" in text for text in texts), set(texts)


def test_a_condition_against_a_subquery_is_not_said_of_its_column():
    sql = "SELECT name FROM track WHERE track_id NOT IN (SELECT track_id FROM race)"
    texts = track_texts(sql, [["Track 1"], ["Track 2"]], "different_instances")
    assert not any("condition on their track" in text for text in texts), set(texts)


def test_the_first_few_rows_are_a_few_of_many():
    few = track_texts("SELECT name, seating FROM track", [[f"T{n}", n] for n in range(6)], "display")
    many = track_texts("SELECT name, seating FROM track", [[f"T{n}", n] for n in range(30)], "display")
    assert not any("the 5 with" in text or "the 3 with" in text for text in few), set(few)
    assert any("the 5 with" in text or "the 3 with" in text for text in many), set(many)


def test_another_entity_is_not_asked_for_what_the_result_already_figures_and_its_detail_says_it_once():
    sql = (
        "SELECT T1.name, sum(T2.prize) FROM track AS T1 JOIN race AS T2 ON T1.track_id = T2.track_id"
        " GROUP BY T1.track_id"
    )
    texts = track_texts(sql, [[f"T{n}", n] for n in range(10)], "different_entity")
    assert texts and not any("their prize" in text for text in texts), set(texts)
    assert any(text.endswith("such as their class") for text in texts), set(texts)
    assert not any("their race class" in text for text in texts), set(texts)


def test_a_narrowing_names_a_value_when_values_can_be_read():
    # Values are read and none reads as words: "a condition on their seating" is not said.
    rows = [[f"Town {n}"] for n in range(12)]
    texts = track_texts("SELECT location FROM track", rows, "different_instances", known={})
    assert not any("a condition on their" in text for text in texts), set(texts)
    # Without the database's values the worker picks the value: the column alone is said.
    unvalued = track_texts("SELECT location FROM track", rows, "different_instances", values=False)
    assert any("a condition on their" in text for text in unvalued), set(unvalued)
    # Nor as a combination's first change, worded again without values when it runs long ("Narrow it down by their …").
    combined = track_texts("SELECT location FROM track", rows, "combination", known={})
    assert not any(text.startswith("Narrow it down by") for text in combined), set(combined)


def test_another_of_a_named_thing_is_another_thing():
    names = [[-1, "*"], [0, "track id"], [0, "track name"]] + TRACKS["column_names"][3:]
    texts = track_texts(
        "SELECT location FROM track WHERE name = 'Track 1'",
        [["Town 1"]],
        "different_instances",
        schema={**TRACKS, "column_names": names},
    )
    assert not any("another track name" in text for text in texts), set(texts)
    assert any("another track" in text for text in texts), set(texts)


# Offices (all listed in a table named "All_Offices"), their staff, enrolments (rows with no name) and "cmi" references.
OFFICES = {
    "db_id": "offices",
    "table_names_original": ["All_Offices", "cmi_refs", "Enrolment", "staff"],
    "table_names": ["all offices", "cmi refs", "enrolment", "staff"],
    "column_names_original": [[-1, "*"], [0, "office_id"], [0, "office_name"], [0, "office_details"]]
    + [[0, "Number_of_desk"], [0, "lng"], [0, "cust_count"], [1, "cmi_id"], [1, "office_id"], [1, "source"]]
    + [[2, "enrolment_id"], [2, "office_id"], [2, "enrolled_on"], [3, "staff_id"], [3, "office_id"], [3, "age"]],
    "column_names": [[-1, "*"], [0, "office id"], [0, "office name"], [0, "office details"]]
    + [[0, "number of desk"], [0, "lng"], [0, "cust count"], [1, "cmi id"], [1, "office id"], [1, "source"]]
    + [[2, "enrolment id"], [2, "office id"], [2, "enrolled on"], [3, "staff id"], [3, "office id"], [3, "age"]],
    "column_types": ["text", "number", "text", "text", "number", "number", "number", "number", "number", "text"]
    + ["number", "number", "time", "number", "number", "number"],
    "primary_keys": [1, 7, 10, 13],
    "foreign_keys": [[8, 1], [11, 1], [14, 1]],
}


def office_texts(sql, rows, category=None):
    texts = []
    for name in [category] if category else CATEGORIES:
        for seed in range(60):
            try:
                found = recommend(
                    sql,
                    OFFICES,
                    category=name,
                    rng=random.Random(seed),
                    result={"rows": rows, "truncated": False},
                    statistics=lambda table, column: None,
                    values=lambda table, column: [],
                )
            except IntentError:
                continue
            texts.append(found.text)
    return texts


def test_tables_and_columns_are_named_as_a_reader_reads_them():
    texts = office_texts("SELECT count(*) FROM Enrolment", [[40]])
    texts += office_texts("SELECT source FROM cmi_refs", [[f"S{n}"] for n in range(30)])
    assert any("the offices" in text for text in texts), set(texts)
    assert not any("all offices" in text or "lng" in text or " cust " in text for text in texts), set(texts)
    assert not any("about the cmi" in text for text in texts), set(texts)  # never another entity a worker cannot read


def test_a_word_newer_than_the_word_counts_still_names_a_table():
    tweets = {**OFFICES, "table_names": ["all offices", "cmi refs", "tweets", "staff"]}
    texts = []
    for seed in range(60):
        try:
            texts.append(
                recommend(
                    "SELECT count(*) FROM All_Offices",
                    tweets,
                    category="different_entity",
                    rng=random.Random(seed),
                    result={"rows": [[40]], "truncated": False},
                    statistics=lambda table, column: None,
                ).text
            )
        except IntentError:
            continue
    assert any("the tweets" in text for text in texts), set(texts)
    assert not any("the cmi" in text for text in texts), set(texts)
    assert not any("such as their details" in text for text in texts), set(texts)  # the offices' details, said whole
    listing = office_texts("SELECT office_name FROM All_Offices", [[f"O{n}"] for n in range(30)], "same_instances")
    assert any("number of desks" in text for text in listing), set(listing)


def test_rows_without_a_name_are_not_listed_themselves_and_a_detail_kept_alone_is_the_name():
    counted = office_texts("SELECT count(*) FROM Enrolment", [[40]], "same_instances")
    assert not any("themselves" in text for text in counted), set(counted)
    offices = office_texts("SELECT count(*) FROM All_Offices", [[40]], "same_instances")
    assert any("themselves" in text for text in offices), set(offices)
    kept = office_texts(
        "SELECT * FROM All_Offices", [[n, f"O{n}", "d", 3, 1.5, 2] for n in range(30)], "same_instances"
    )
    kept = [text for text in kept if "instead of every detail" in text]
    assert kept and all("just their office name" in text for text in kept), set(kept)


def test_a_joined_tables_detail_is_said_as_that_tables():
    # Enrolments and staff of each office: the rows are enrolments; the age is the staff's.
    sql = (
        "SELECT T1.enrolled_on, T2.office_name FROM Enrolment AS T1 JOIN All_Offices AS T2"
        " ON T1.office_id = T2.office_id JOIN staff AS T3 ON T3.office_id = T2.office_id"
    )
    texts = office_texts(sql, [[f"2020-01-{n:02}", f"O{n}"] for n in range(1, 30)], "same_instances")
    assert not any(text.endswith("such as their age") or "their age too" in text for text in texts), set(texts)
    assert any("the staff's age" in text for text in texts), set(texts)


def test_a_count_grouped_by_a_foreign_key_counts_the_rows_that_hold_it():
    # staff.office_id names an office: counted per office, the rows are staff, not offices.
    sql = "SELECT T2.office_name, count(*) FROM staff AS T1 JOIN All_Offices AS T2 ON T1.office_id = T2.office_id"
    texts = office_texts(sql + " GROUP BY T1.office_id", [[f"O{n}", n] for n in range(30)])
    assert not any("number of offices" in text or "how many offices" in text for text in texts), set(texts)
    assert any("number of staff" in text or "how many staff" in text for text in texts), set(texts)
    assert not any("office ids" in text for text in texts), set(texts)  # "just the offices, without …"


def test_a_choice_between_values_is_no_detail():
    schema = {**TRACKS, "column_names": TRACKS["column_names"][:3] + [[0, "day or night"]] + TRACKS["column_names"][4:]}
    texts = track_texts("SELECT name FROM track", [[f"T{n}"] for n in range(30)], schema=schema)
    assert not any("day or night" in text for text in texts), set(texts)


# Members of a club with counts, spans, units and a record's bookkeeping among their columns; "works on" is named by
# a verb and linked by no declared key, as award is. Column ids: 0 *, member 1-10, works_on 11-12, visit 13-15,
# award 16-17, member_details 18-19 (said "members" too).
MEMBERS = {
    "db_id": "members",
    "table_names_original": ["member", "works_on", "visit", "award", "member_details"],
    "table_names": ["member", "works on", "visit", "award", "member details"],
    "column_names_original": [[-1, "*"], [0, "member_id"], [0, "name"], [0, "email"], [0, "followers"]]
    + [[0, "Year_working"], [0, "milliseconds"], [0, "last_update"], [0, "budget_percent_invested"]]
    + [[0, "join_date"], [0, "hair_color"], [1, "member_no"], [1, "hours"], [2, "visit_id"], [2, "member_id"]]
    + [[2, "visit_date"], [3, "award_id"], [3, "title"], [4, "member_id"], [4, "hobby"]],
    "column_names": [[-1, "*"], [0, "member id"], [0, "name"], [0, "email"], [0, "followers"]]
    + [[0, "year working"], [0, "milliseconds"], [0, "last update"], [0, "budget percent invested"]]
    + [[0, "join date"], [0, "hair color"], [1, "member no"], [1, "hours"], [2, "visit id"], [2, "member id"]]
    + [[2, "visit date"], [3, "award id"], [3, "title"], [4, "member id"], [4, "hobby"]],
    "column_types": ["text", "number", "text", "text", "number", "number", "number", "time", "number", "time"]
    + ["text", "number", "number", "number", "number", "time", "number", "text", "number", "text"],
    "primary_keys": [1, 13, 16, 18],
    "foreign_keys": [[14, 1], [18, 1]],
}
MEMBER_VALUES = {
    ("member", "name"): ["Ann", "Bob", "Cy"],
    ("member", "email"): ["ann@x.org", "bob@x.org"],
    ("member", "hair_color"): ["red", "brown"],
}


def member_texts(sql, rows, category=None, *, values=True, schema=MEMBERS):
    texts = []
    for name in [category] if category else CATEGORIES:
        for seed in range(60):
            try:
                found = recommend(
                    sql,
                    schema,
                    category=name,
                    rng=random.Random(seed),
                    result={"rows": rows, "truncated": False},
                    statistics=lambda table, column: None,
                    values=(lambda table, column: MEMBER_VALUES.get((table, column), [])) if values else None,
                )
            except IntentError:
                continue
            texts.append(found.text)
    return texts


def test_a_count_in_a_column_is_of_many_or_few_never_high():
    texts = member_texts("SELECT count(*) FROM member", [[40]], "same_instances")
    assert any("the most followers" in text or "the fewest followers" in text for text in texts), set(texts)
    assert any("number of followers" in text for text in texts), set(texts)  # "the average number of followers"
    assert not any(re.search(r"(highest|lowest|average|total) followers", text) for text in texts), set(texts)
    assert any("years working" in text for text in texts), set(texts)  # a span, never "the lowest year working"
    assert not any("year working" in text for text in texts), set(texts)
    rows = [[f"M{n}", n] for n in range(30)]
    ranked = member_texts("SELECT name, followers FROM member ORDER BY followers DESC LIMIT 3", rows, "display")
    assert not any("highest followers" in text or "lowest followers" in text for text in ranked), set(ranked)


def test_a_unit_a_bookkeeping_date_or_a_share_of_unsaid_order_is_no_detail():
    texts = member_texts("SELECT name FROM member", [[f"M{n}"] for n in range(30)])
    texts += member_texts("SELECT count(*) FROM visit", [[40]], "different_entity")
    said = " | ".join(texts)
    assert "milliseconds" not in said and "last update" not in said and "percent invested" not in said, set(texts)


def test_a_table_named_by_a_verb_is_no_other_entity():
    texts = member_texts("SELECT title FROM award", [[f"A{n}"] for n in range(12)], "different_entity")
    assert any("the members" in text for text in texts), set(texts)
    assert not any("works on" in text for text in texts), set(texts)


def test_e_mails_and_colours_are_not_sorted_alphabetically():
    rows = [[f"M{n}", f"m{n}@x.org", "red"] for n in range(12)]
    texts = member_texts("SELECT name, email, hair_color FROM member", rows, "display")
    assert any("alphabetically by their name" in text for text in texts), set(texts)
    assert not any("by their email" in text or "by their hair color" in text for text in texts), set(texts)


def test_the_first_rows_by_a_date_are_the_latest_or_the_earliest():
    rows = [["Ann"]]
    texts = member_texts("SELECT name FROM member ORDER BY join_date DESC LIMIT 1", rows, "display")
    assert any("earliest join date" in text for text in texts), set(texts)
    assert not any("highest join date" in text or "lowest join date" in text for text in texts), set(texts)


def test_a_condition_moved_to_another_column_names_a_value_when_values_can_be_read():
    rows = [[f"M{n}"] for n in range(12)]
    texts = member_texts("SELECT name FROM member WHERE followers > 10", rows, "different_instances")
    assert texts and not any(
        "condition to one on their" in text or "with the condition on their" in text for text in texts
    ), set(texts)
    assert any("whose followers are" in text for text in texts), set(texts)
    unread = member_texts("SELECT name FROM member WHERE followers > 10", rows, "different_instances", values=False)
    assert any("condition to one on their" in text for text in unread), set(unread)  # the worker picks a value


def test_another_entity_is_never_the_rows_own_things():
    texts = member_texts("SELECT * FROM member ORDER BY followers DESC LIMIT 1", [[1] * 10], "different_entity")
    assert any("the visits" in text for text in texts), set(texts)
    assert not any("the members" in text for text in texts), set(texts)  # member details are the members'


def test_money_and_a_rank_in_a_series_are_high_or_low():
    names = [[-1, "*"], *MEMBERS["column_names"][1:4], [0, "earnings"], [0, "rank in series"]]
    schema = {**MEMBERS, "column_names": names + MEMBERS["column_names"][6:]}
    texts = []
    for sql in (
        "SELECT count(*) FROM member",
        "SELECT max(followers) FROM member",
        "SELECT max(Year_working) FROM member",
    ):
        found = member_texts(sql, [[40]], "same_instances", schema=schema)
        texts += found
    assert any(re.search(r"(highest|lowest) (earnings|rank in series)", text) for text in texts), set(texts)
    assert not any(re.search(r"(most|fewest) (earnings|rank)", text) for text in texts), set(texts)


def test_another_value_than_a_like_pattern_is_one_it_does_not_match():
    rows = [["Ann"]]
    texts = member_texts("SELECT name FROM member WHERE name LIKE '%an%'", rows, "different_instances")
    assert any("whose name is Bob" in text or "whose name is Cy" in text for text in texts), set(texts)
    assert not any("is Ann" in text for text in texts), set(texts)


def test_the_only_condition_is_not_one_of_several():
    rows = [["red", 3]]
    sql = "SELECT hair_color, count(*) FROM member GROUP BY hair_color HAVING count(*) >= 2"
    texts = member_texts(sql, rows, "different_instances")
    assert any("drop or relax the condition" in text for text in texts), set(texts)
    assert not any("one of the conditions" in text for text in texts), set(texts)
