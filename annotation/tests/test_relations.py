"""CHASE intent relations between two queries: Table 12's own examples, edge cases, the command, and conformance with
the `intent` labels of the CHASE sample."""

import io
import json
import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from annotation.labels.relations import CATEGORIES, CATEGORY_OF, RELATION_NAMES, RelationError, detect_relation
from annotation.models import Database
from bench.relation_folds import (
    LabelledPair,
    agreed,
    confusion_of,
    database_folds,
    detected_category,
    fold_report,
    labelled_pairs,
)

SHARED_DIR = Path(os.environ.get("WOZSQL_SHARED_DIR", Path(__file__).resolve().parents[2].parent / "shared"))

# Table 12's tables in a schema of their own: a student lives in a dorm (student -> dorm is many-to-one) and takes
# courses (student_course -> student is one-to-many). Column ids: 0 *, student 1-5, dorm 6-7, course 8-9,
# student_course 10-11.
SCHOOL = {
    "db_id": "school",
    "table_names_original": ["student", "dorm", "course", "student_course"],
    "table_names": ["student", "dorm", "course", "student course"],
    "column_names_original": [
        [-1, "*"],
        [0, "student_id"],
        [0, "name"],
        [0, "age"],
        [0, "country"],
        [0, "dorm_id"],
        [1, "dorm_id"],
        [1, "dorm_name"],
        [2, "course_id"],
        [2, "course_name"],
        [3, "student_id"],
        [3, "course_name"],
    ],
    "column_types": ["text", "number", "text", "number", "text", "number", "number", "text", "number", "text"]
    + ["number", "text"],
    "primary_keys": [1, 6, 8],
    "foreign_keys": [[5, 6], [10, 1]],
}


def relation(previous, current, schema=SCHOOL):
    found = detect_relation(previous, current, schema)
    return found.category, list(found.relations)


# ---------------------------------------------------------------------------------------------------------------
# Table 12, one example per relation (the paper's SQL, on the schema above)
# ---------------------------------------------------------------------------------------------------------------

TABLE_12 = [
    ("R1", "select name from student;", "select name, age from student;"),
    ("R2", "select name, age from student;", "select name from student;"),
    ("R3", "select name from student;", "select country from student;"),
    ("R4", "select count(*) from student;", "select country, count(*) from student group by country;"),
    ("R5", "select name from student;", "select count(*) from student"),
    ("R6", "select max(age) from student;", "select avg(age) from student;"),
    ("R7", "select count(*) from student;", "select name from student;"),
    ("R8", "select name from student;", 'select name from student where country = "US";'),
    (
        "R9",
        'select name from student where country = "US";',
        'select name from student where country = "US" or country = "China"',
    ),
    ("R10", 'select name from student where country = "US";', 'select name from student where country = "China";'),
    ("R11", 'select name from student where country = "US";', 'select name from student where country != "US";'),
    (
        "R12",
        'select name from student join student_course where course_name = "Python";',
        'select name from student join student_course where course_name = "C++";',
    ),
    ("R13", "select name from student;", "select course_name from course;"),
    (
        "R14",
        "select country, count(*) from student group by country;",
        "select country, count(*) from student group by country order by count(*) ;",
    ),
    (
        "R15",
        "select country, count(*) from student group by country order by count(*) asc;",
        "select country, count(*) from student group by country order by count(*) desc;",
    ),
    ("R16", "select country from student;", "select distinct country from student;"),
]


@pytest.mark.parametrize(("expected", "previous", "current"), TABLE_12, ids=[row[0] for row in TABLE_12])
def test_table_12_example_has_exactly_its_relation(expected, previous, current):
    assert relation(previous, current) == (CATEGORY_OF[expected], [expected])


@pytest.mark.parametrize(("expected", "previous", "current"), TABLE_12, ids=[row[0] for row in TABLE_12])
def test_table_12_example_holds_without_a_schema_too(expected, previous, current):
    assert relation(previous, current, schema=None) == (CATEGORY_OF[expected], [expected])


def test_table_12_covers_every_relation_and_category():
    assert [row[0] for row in TABLE_12] == list(RELATION_NAMES)
    assert set(CATEGORY_OF.values()) | {"combination"} == set(CATEGORIES)


def test_table_4_combination_adds_a_property_and_takes_a_subset():
    assert relation("select name from student;", 'select name, age from student where country = "US";') == (
        "combination",
        ["R1", "R8"],
    )


def test_display_and_same_instances_combine():
    assert relation("select name from student", "select name, age from student order by age desc") == (
        "combination",
        ["R1", "R14"],
    )


# ---------------------------------------------------------------------------------------------------------------
# The paper's definitions where they leave no doubt, on a schema of our own (not the sample's)
# ---------------------------------------------------------------------------------------------------------------

# A lending library: a book has one author (book -> author is many-to-one), a loan is of one book (loan -> book).
# Column ids: 0 *, author 1-4, book 5-10, loan 11-14.
LIBRARY = {
    "db_id": "library",
    "table_names_original": ["author", "book", "loan"],
    "table_names": ["author", "book", "loan"],
    "column_names_original": [
        [-1, "*"],
        [0, "author_id"],
        [0, "name"],
        [0, "country"],
        [0, "born"],
        [1, "book_id"],
        [1, "title"],
        [1, "pages"],
        [1, "year"],
        [1, "genre"],
        [1, "author_id"],
        [2, "loan_id"],
        [2, "book_id"],
        [2, "member"],
        [2, "loan_date"],
    ],
    "column_types": ["text", "number", "text", "text", "number", "number", "text", "number", "number", "text"]
    + ["number", "number", "number", "text", "time"],
    "primary_keys": [1, 5, 11],
    "foreign_keys": [[10, 1], [12, 5]],
}
BOOK_AUTHOR = "from book as B join author as A on B.author_id = A.author_id"
LOAN_BOOK = "from loan as L join book as B on L.book_id = B.book_id"
AUTHOR_BOOK = "from author as A join book as B on A.author_id = B.author_id"

# R3: the SELECT shows other properties; FROM and WHERE (the instances) are the same.
COLUMN_SWAPS = [
    ("select title from book", "select year from book"),
    ("select title from book where pages > 300", "select genre from book where pages > 300"),
    ("select title, year from book where genre = 'poetry'", "select title, pages from book where genre = 'poetry'"),
    (
        f"select B.title {BOOK_AUTHOR} where A.country = 'France'",
        f"select B.pages {BOOK_AUTHOR} where A.country = 'France'",
    ),
    (
        f"select L.member {LOAN_BOOK} where B.genre = 'poetry'",
        f"select L.loan_date {LOAN_BOOK} where B.genre = 'poetry'",
    ),
    ("select title from book order by year desc", "select pages from book order by year desc"),
    ("select title from book where year > 2000", "SELECT T1.genre FROM book AS T1 WHERE T1.year > 2000"),
    ("select distinct genre from book", "select distinct year from book"),
    ("select avg(pages) from book where genre = 'poetry'", "select avg(year) from book where genre = 'poetry'"),
]

# R8-R12: the same properties of other instances, the filters changed as Table 12 defines each relation.
FILTER_CHANGES = [
    ("select title from book", "select title from book where year > 2000", "R8"),
    (
        "select title from book where genre = 'poetry'",
        "select title from book where genre = 'poetry' and pages < 100",
        "R8",
    ),
    (f"select B.title {BOOK_AUTHOR}", f"select B.title {BOOK_AUTHOR} where A.country = 'France'", "R8"),
    ("select title from book where year > 2000", "select title from book where year > 2010", "R8"),
    (
        "select title from book where genre in ('poetry', 'drama')",
        "select title from book where genre = 'poetry'",
        "R8",
    ),
    (
        "select genre, count(*) from book group by genre",
        "select genre, count(*) from book group by genre having count(*) > 10",
        "R8",
    ),
    ("select title from book where year > 2000", "select title from book", "R9"),
    ("select title from book where genre = 'poetry' and pages < 100", "select title from book where pages < 100", "R9"),
    (
        "select title from book where genre = 'poetry'",
        "select title from book where genre = 'poetry' or genre = 'drama'",
        "R9",
    ),
    ("select title from book where year > 2010", "select title from book where year >= 2000", "R9"),
    ("select title from book where genre = 'poetry'", "select title from book where genre = 'drama'", "R10"),
    ("select title from book where year < 1900", "select title from book where year > 2000", "R10"),
    # A book has one author, so books by French authors and books by Spanish authors share none.
    (
        f"select B.title {BOOK_AUTHOR} where A.country = 'France'",
        f"select B.title {BOOK_AUTHOR} where A.country = 'Spain'",
        "R10",
    ),
    ("select title from book where genre = 'poetry'", "select title from book where genre != 'poetry'", "R11"),
    ("select title from book where year > 2000", "select title from book where year <= 2000", "R11"),
    ("select title from book where title like 'The%'", "select title from book where title not like 'The%'", "R11"),
    ("select title from book where genre = 'poetry'", "select title from book where year > 2000", "R12"),
    # An author writes many books: authors of poetry and authors of drama may be the same people.
    (
        f"select A.name {AUTHOR_BOOK} where B.genre = 'poetry'",
        f"select A.name {AUTHOR_BOOK} where B.genre = 'drama'",
        "R12",
    ),
]

# R5: an aggregate added over the same instances.
ADDED_AGGREGATES = [
    ("select pages from book", "select avg(pages) from book"),
    ("select title from book where year > 2000", "select count(*) from book where year > 2000"),
    (
        "select count(*) from book where genre = 'poetry'",
        "select count(*), avg(pages) from book where genre = 'poetry'",
    ),
    ("select max(pages) from book", "select max(pages), min(pages) from book"),
    ("select genre, count(*) from book group by genre", "select genre, count(*), max(pages) from book group by genre"),
    (
        f"select B.title {BOOK_AUTHOR} where A.country = 'France'",
        f"select count(*) {BOOK_AUTHOR} where A.country = 'France'",
    ),
]

# R14: the same result, ordered or cut.
ADDED_ORDERS = [
    ("select title, year from book", "select title, year from book order by year"),
    ("select title, year from book", "select title, year from book order by year desc limit 3"),
    (
        "select title from book where genre = 'poetry'",
        "select title from book where genre = 'poetry' order by pages desc limit 1",
    ),
    (
        "select genre, count(*) from book group by genre",
        "select genre, count(*) from book group by genre order by count(*) desc",
    ),
    ("select title from book", "select title from book limit 5"),
    (f"select B.title, A.name {BOOK_AUTHOR}", f"select B.title, A.name {BOOK_AUTHOR} order by A.born"),
]

# R13: another table's instances.
ENTITY_SWITCHES = [
    ("select title from book", "select name from author"),
    ("select title from book where year > 2000", "select name from author where country = 'France'"),
    ("select count(*) from book", "select count(*) from author"),
    ("select genre, count(*) from book group by genre", "select country, count(*) from author group by country"),
    ("select title from book order by year", "select member from loan order by loan_date"),
    ("select name, born from author", "select title, pages from book"),
]

DEFINITIONS = (
    [(previous, current, "R3") for previous, current in COLUMN_SWAPS]
    + FILTER_CHANGES
    + [(previous, current, "R5") for previous, current in ADDED_AGGREGATES]
    + [(previous, current, "R14") for previous, current in ADDED_ORDERS]
    + [(previous, current, "R13") for previous, current in ENTITY_SWITCHES]
)


@pytest.mark.parametrize(("previous", "current", "expected"), DEFINITIONS)
def test_a_change_the_definitions_name_is_read_as_that_relation_alone(previous, current, expected):
    assert relation(previous, current, schema=LIBRARY) == (CATEGORY_OF[expected], [expected])


@pytest.mark.parametrize(("previous", "current", "expected"), DEFINITIONS)
def test_without_a_schema_the_category_of_a_defined_change_holds(previous, current, expected):
    # Without keys the direction of a join is unknown (R10 on a parent's column reads as R12), not the category.
    assert detect_relation(previous, current, None).category == CATEGORY_OF[expected]


@pytest.mark.parametrize(("previous", "current"), COLUMN_SWAPS)
def test_a_pure_column_swap_is_never_different_instances_in_either_direction(previous, current):
    assert relation(current, previous, schema=LIBRARY) == ("same_instances", ["R3"])


# ---------------------------------------------------------------------------------------------------------------
# No change, aliases, unqualified columns
# ---------------------------------------------------------------------------------------------------------------


def test_the_same_query_written_differently_is_no_change():
    previous = (
        "SELECT T1.name FROM student AS T1 JOIN student_course AS T2 ON T1.student_id = T2.student_id "
        "WHERE T2.course_name = 'Python' AND T1.age > 20"
    )
    current = (
        "select s.NAME from student s join student_course c on c.student_id = s.student_id "
        'where s.age > 20.0 and c.course_name = "Python";'
    )
    assert relation(previous, current) == ("same_instances", [])


def test_swapped_aliases_resolve_to_the_same_tables():
    previous = "select T1.name from student as T1 join student_course as T2 on T1.student_id = T2.student_id"
    swapped = "select T2.name from student_course as T1 join student as T2 on T2.student_id = T1.student_id"
    assert relation(previous, swapped) == ("same_instances", [])
    # Alias names alone do not decide: T2.name here would be the other table's column, which it does not have.
    with pytest.raises(RelationError, match="unknown column"):
        detect_relation(previous, "select T2.name from student as T1 join student_course as T2", SCHOOL)


def test_an_aliased_column_replaced_by_a_column_of_another_table_is_a_replacement():
    # The course rows (the listed table) were read all along; the reverse direction, to the parent's names only, is a
    # new entity (test_showing_only_an_already_joined_parents_columns_lists_the_parents).
    previous = "select T1.name from student as T1 join student_course as T2 on T1.student_id = T2.student_id"
    current = "select T2.course_name from student as T1 join student_course as T2 on T1.student_id = T2.student_id"
    assert relation(previous, current) == ("same_instances", ["R3"])


def test_the_schema_finds_the_table_of_an_unqualified_column():
    base = "select T1.name from student as T1 join student_course as T2 on T1.student_id = T2.student_id"
    # `course_name` belongs to student_course, already read: a property of the same rows.
    with_course = base.replace("select T1.name", "select T1.name, course_name")
    assert relation(base, with_course) == ("same_instances", ["R1"])


def test_output_aliases_in_order_by_mean_their_expressions():
    previous = "select country, count(*) as total from student group by country order by total desc"
    current = "select country, count(*) from student group by country order by count(*) desc"
    assert relation(previous, current) == ("same_instances", [])


# ---------------------------------------------------------------------------------------------------------------
# Entity
# ---------------------------------------------------------------------------------------------------------------


def test_joining_a_parent_table_adds_a_property_of_the_same_rows():
    current = "select T1.name, T2.dorm_name from student as T1 join dorm as T2 on T1.dorm_id = T2.dorm_id"
    assert relation("select name from student", current) == ("same_instances", ["R1"])


def test_showing_only_the_parent_tables_columns_changes_the_entity():
    current = "select T2.dorm_name from student as T1 join dorm as T2 on T1.dorm_id = T2.dorm_id"
    assert relation("select name from student", current) == ("different_entity", ["R13"])


STUDENT_DORM = "from student as T1 join dorm as T2 on T1.dorm_id = T2.dorm_id where T1.age > 20"
STUDENT_COURSE = "from student as T1 join student_course as T2 on T1.student_id = T2.student_id"


@pytest.mark.parametrize(
    ("previous", "current"),
    [
        # The dorm was joined before, but only its students were shown; now the dorms are what the answer lists.
        (f"select T1.name {STUDENT_DORM}", f"select T2.dorm_name {STUDENT_DORM}"),
        # The enrolments' courses -> the students taking them (CHASE: "the dramas Beijing TV shows" -> "the
        # stations showing them", over a table of airings).
        (f"select T2.course_name {STUDENT_COURSE}", f"select T1.name {STUDENT_COURSE}"),
        # Every branch of a set operation shows only the parent.
        (
            f"select T1.name {STUDENT_DORM} union select T1.name {STUDENT_DORM.replace('> 20', '< 10')}",
            f"select T2.dorm_name {STUDENT_DORM} union select T2.dorm_name {STUDENT_DORM.replace('> 20', '< 10')}",
        ),
    ],
)
def test_showing_only_an_already_joined_parents_columns_lists_the_parents(previous, current):
    assert relation(previous, current) == ("different_entity", ["R13"])


@pytest.mark.parametrize(
    ("previous", "current", "expected"),
    [
        # A parent's property shown beside the listed table's adds to the same rows.
        (f"select T1.name {STUDENT_DORM}", f"select T1.name, T2.dorm_name {STUDENT_DORM}", ["R1"]),
        # The parent was already shown: its property is no new entity.
        (f"select T1.name, T2.dorm_name {STUDENT_DORM}", f"select T2.dorm_name {STUDENT_DORM}", ["R2"]),
        (f"select T1.name, T2.course_name {STUDENT_COURSE}", f"select T1.name, T1.age {STUDENT_COURSE}", ["R3"]),
        # A grouped query lists its groups, whatever table they come from.
        (
            f"select count(*) {STUDENT_DORM} group by T2.dorm_name",
            f"select T2.dorm_name, count(*) {STUDENT_DORM} group by T2.dorm_name",
            ["R1"],
        ),
    ],
)
def test_a_parents_property_beside_others_or_shown_before_is_the_same_instances(previous, current, expected):
    assert relation(previous, current) == ("same_instances", expected)


def test_without_a_schema_an_already_joined_tables_column_is_a_replacement():
    # The direction of the join is unknown, so the dorm cannot be told from a child table.
    assert relation(f"select T1.name {STUDENT_DORM}", f"select T2.dorm_name {STUDENT_DORM}", schema=None) == (
        "same_instances",
        ["R3"],
    )


def test_joining_a_child_table_lists_the_childs_rows():
    current = (
        "select T1.name, T2.course_name from student as T1 join student_course as T2 on T1.student_id = T2.student_id"
    )
    assert relation("select name from student", current) == ("different_entity", ["R13"])


def test_without_a_schema_a_new_tables_column_is_a_new_entity():
    current = "select T1.name, T2.dorm_name from student as T1 join dorm as T2 on T1.dorm_id = T2.dorm_id"
    assert relation("select name from student", current, schema=None) == ("different_entity", ["R13"])


def test_a_grouped_query_lists_its_groups():
    previous = "select country, count(*) from student group by country"
    current = (
        "select T1.country, count(*) from student as T1 join student_course as T2 on T1.student_id = T2.student_id "
        "group by T1.country"
    )
    # Same groups; the join only restricts the rows counted (students who take a course).
    assert relation(previous, current) == ("different_instances", ["R8"])


def test_counting_another_table_is_another_entity():
    assert relation("select count(*) from student", "select count(*) from course") == ("different_entity", ["R13"])


def test_change_entity_is_never_combined():
    current = "select course_name from course where course_id > 3 order by course_name"
    assert relation("select name from student", current) == ("different_entity", ["R13"])


# ---------------------------------------------------------------------------------------------------------------
# Same instances
# ---------------------------------------------------------------------------------------------------------------


def test_star_covers_the_columns_it_replaces():
    assert relation("select name from student", "select * from student") == ("same_instances", ["R1"])
    assert relation("select * from student", "select name, age from student") == ("same_instances", ["R2"])


def test_aggregates_over_other_columns_replace_a_property():
    assert relation("select avg(age) from student", "select max(student_id) from student") == (
        "same_instances",
        ["R3", "R6"],
    )


def test_a_group_key_entering_the_select_is_part_of_add_group():
    previous = "select name from student"
    current = "select country, count(*) from student group by country"
    assert relation(previous, current) == ("same_instances", ["R4", "R5"])


def test_a_property_leaving_the_select_for_a_filter_is_still_removed():
    # R2 is read off the SELECT list; that the filter now uses the column does not put it back (an earlier rule
    # said it did, for one pair of the CHASE sample; no definition of the paper does).
    previous = "select name, age from student"
    current = "select name from student where age = (select max(age) from student)"
    assert relation(previous, current) == ("combination", ["R2", "R8"])


def test_a_property_leaving_the_select_for_the_order_is_still_removed():
    previous = "select name, age from student"
    current = "select name from student order by age desc limit 1"
    assert relation(previous, current) == ("combination", ["R2", "R14"])


# ---------------------------------------------------------------------------------------------------------------
# Different instances
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous_filter", "current_filter", "expected"),
    [
        ("age > 20", "age > 30", "R8"),
        ("age > 30", "age >= 20", "R9"),
        ("age > 30", "age < 20", "R10"),
        ("age > 20", "age < 30", "R12"),
        ("age > 30", "age <= 30", "R11"),
        ("age > 30", "not age > 30", "R11"),
        ('name like "A%"', 'name not like "A%"', "R11"),
        ("age = 20", "age >= 20", "R9"),
        ("age in (20, 21, 22)", "age in (20, 21)", "R8"),
        ("age in (20, 21)", "age in (22, 23)", "R10"),
        ('country = "US" or country = "China"', 'country = "US"', "R8"),
        ('country = "US"', "age > 20", "R12"),
        ("age > (select avg(age) from student)", "age < (select avg(age) from student)", "R10"),
        ("age > (select avg(age) from student)", "age <= (select avg(T9.age) from student as T9)", "R11"),
        (
            "age > (select avg(age) from student)",
            'age > (select avg(age) from student where country = "US")',
            "R12",
        ),
    ],
)
def test_filters_compare_as_sets_of_instances(previous_filter, current_filter, expected):
    previous = f"select name from student where {previous_filter}"
    current = f"select name from student where {current_filter}"
    assert relation(previous, current) == ("different_instances", [expected])


def test_dropping_a_condition_is_a_superset():
    previous = 'select name from student where country = "US" and age > 20'
    assert relation(previous, "select name from student where age > 20") == ("different_instances", ["R9"])


def test_having_filters_groups():
    previous = "select country, count(*) from student group by country"
    current = "select country, count(*) from student group by country having count(*) > 5"
    assert relation(previous, current) == ("different_instances", ["R8"])


def test_a_join_that_nothing_reads_keeps_the_rows_with_a_match():
    previous = "select name from student"
    current = "select T1.name from student as T1 join dorm as T2 on T1.dorm_id = T2.dorm_id"
    assert relation(previous, current) == ("different_instances", ["R8"])
    assert relation(current, previous) == ("different_instances", ["R9"])


def test_a_child_join_lists_the_childs_rows_even_when_only_filtering():
    # One row per student and course: CHASE labels "dramas shown at 21:00" after "dramas" a different entity.
    previous = "select name from student"
    current = (
        "select T1.name from student as T1 join student_course as T2 on T1.student_id = T2.student_id "
        'where T2.course_name = "Python"'
    )
    assert relation(previous, current) == ("different_entity", ["R13"])


# ---------------------------------------------------------------------------------------------------------------
# Display
# ---------------------------------------------------------------------------------------------------------------


def test_order_changes_and_removal_alter_the_order():
    ordered = "select name, age from student order by age desc limit 3"
    assert relation(ordered, "select name, age from student order by age desc limit 1") == ("display", ["R15"])
    assert relation(ordered, "select name, age from student") == ("display", ["R15"])


def test_dropping_distinct_counts_only_when_the_list_stays():
    assert relation("select distinct country from student", "select country from student") == ("display", ["R16"])
    assert relation("select distinct country from student", "select age from student") == ("same_instances", ["R3"])


# ---------------------------------------------------------------------------------------------------------------
# Nested queries and set operations
# ---------------------------------------------------------------------------------------------------------------


def test_set_operations_compare_branch_by_branch():
    previous = 'select name from student where country = "US" union select name from student where age > 30'
    current = 'select name, age from student where country = "US" union select name, age from student where age > 30'
    assert relation(previous, current) == ("same_instances", ["R1"])


def test_adding_a_set_operation_is_outside_the_sixteen_relations():
    previous = "select name from student"
    current = 'select name from student except select name from student where country = "US"'
    assert relation(previous, current) == ("combination", [])


def test_a_subquery_in_from_is_read_like_a_table():
    previous = "select d.name from (select name, age from student) as d"
    current = "select d.name from (select name, age from student) as d where d.age > 20"
    assert relation(previous, current) == ("different_instances", ["R8"])
    renamed = "select x.name from (select name, age from student) as x"
    assert relation(previous, renamed) == ("same_instances", [])
    assert relation(previous, "select d.name, d.age from (select name, age from student) as d") == (
        "same_instances",
        ["R1"],
    )


def test_a_subquery_in_from_stands_for_its_rows():
    previous = "select count(*) from (select country from student group by country having count(*) > 1)"
    current = "select count(*) from (select country from student group by country having count(*) > 2)"
    assert relation(previous, current) == ("different_instances", ["R8"])
    assert relation("select name from student", "select count(*) from (select name from student)") == (
        "same_instances",
        ["R5"],
    )


# ---------------------------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "current", "message"),
    [
        ("", "select name from student", "previous query is empty"),
        ("select name from student", "   ", "current query is empty"),
        (None, "select name from student", "previous query is not text"),
        ("select name from", "select name from student", "previous query: SQL syntax error"),
        ("select name from student", "select", "current query: SQL syntax error"),
        ("select name from student", 'select name from student where name = "open', "current query: SQL syntax error"),
        ("select name from student; select age from student", "select name from student", "one SQL statement"),
        ("delete from student", "select name from student", "expected a SELECT query"),
        ("select name from pupil", "select name from student", "unknown table 'pupil'"),
        ("select name from student", "select height from student", "unknown column 'height'"),
        ("select T3.name from student as T1", "select name from student", "unknown table or alias 't3'"),
    ],
)
def test_a_pair_that_cannot_be_read_is_an_error_not_a_guess(previous, current, message):
    with pytest.raises(RelationError, match=message.replace("(", r"\(")):
        detect_relation(previous, current, SCHOOL)


def test_without_a_schema_names_are_not_checked():
    assert relation("select name from pupil", "select name, height from pupil", schema=None) == (
        "same_instances",
        ["R1"],
    )


def test_a_schema_that_is_not_a_tables_entry_is_an_error():
    with pytest.raises(RelationError, match="schema is not a tables.json entry"):
        detect_relation("select a from t", "select b from t", {"db_id": "broken"})


# ---------------------------------------------------------------------------------------------------------------
# manage.py sql_relation
# ---------------------------------------------------------------------------------------------------------------


def run_relation(*args, stdin=None, monkeypatch=None) -> list[dict]:
    out = StringIO()
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    call_command("sql_relation", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


PAIRS_FILE = "\n".join(
    [
        "select name from student\tselect name, age from student",
        "",
        "no tab on this line",
        "select name from\tselect name from student",
        "select name from student\tselect height from student",
        "select a\tselect b\tselect c",
        "select name from student\tselect course_name from course",
    ]
)


@pytest.mark.django_db
def test_sql_relation_prints_one_line_per_input_line_and_never_stops(tmp_path):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(PAIRS_FILE + "\n", encoding="utf-8")
    lines = run_relation("--file", str(pairs))
    assert [line["line"] for line in lines] == [1, 2, 3, 4, 5, 6, 7]
    assert lines[0] == {"line": 1, "category": "same_instances", "relations": ["R1"]}
    assert lines[1]["error"].startswith("blank line")
    assert "exactly one TAB" in lines[2]["error"] and "found 0" in lines[2]["error"]
    assert lines[3]["error"].startswith("previous query: SQL syntax error")
    # Without --database no schema is known, so an unknown column is not an error.
    assert lines[4] == {"line": 5, "category": "same_instances", "relations": ["R3"]}
    assert "found 2" in lines[5]["error"]
    assert lines[6] == {"line": 7, "category": "different_entity", "relations": ["R13"]}


@pytest.mark.django_db
def test_sql_relation_uses_a_registered_databases_schema(tmp_path):
    Database.objects.create(db_id="school", file="", schema=SCHOOL)
    pairs = tmp_path / "pairs.tsv"
    joined = "select T1.name, T2.dorm_name from student as T1 join dorm as T2 on T1.dorm_id = T2.dorm_id"
    pairs.write_text(
        f"select name from student\t{joined}\nselect name from student\tselect height from student\n", encoding="utf-8"
    )
    lines = run_relation("--file", str(pairs), "--database", "school")
    assert lines[0] == {"line": 1, "category": "same_instances", "relations": ["R1"]}
    assert lines[1] == {"line": 2, "error": "current query: unknown column 'height'"}
    with pytest.raises(CommandError, match="no registered database"):
        run_relation("--file", str(pairs), "--database", "nope")


@pytest.mark.django_db
def test_sql_relation_reads_standard_input(monkeypatch):
    lines = run_relation(
        "--file",
        "-",
        stdin="select country from student\tselect distinct country from student\n",
        monkeypatch=monkeypatch,
    )
    assert lines == [{"line": 1, "category": "display", "relations": ["R16"]}]


@pytest.mark.django_db
def test_sql_relation_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="is not a file"):
        run_relation("--file", str(tmp_path / "absent.tsv"))


# ---------------------------------------------------------------------------------------------------------------
# Conformance: CHASE's own `intent` labels, database by database (bench/relation_folds.py)
# ---------------------------------------------------------------------------------------------------------------

# Measured 129/178 = 72.5% once the rule fitted to one sample pair was removed (74.2% before). The sample is a floor
# that catches a regression, not a target: its labels are noisy (a careful annotator agreed with CHASE's on 73%), and
# every database of it was read while the rules were written, so this figure says nothing about unseen data. A margin
# of four pairs lets a change made for the definitions cost a little here.
CHASE_AGREEMENT_FLOOR = 0.70


def test_database_folds_keep_each_database_whole():
    pairs = [
        LabelledPair(db_id, "select a from t", "select b from t", {}, "same_instances")
        for db_id, size in (("big", 6), ("mid", 4), ("small", 3), ("tiny", 1))
        for _ in range(size)
    ]
    assert database_folds(pairs) == [("big",), ("mid",), ("small",), ("tiny",)]
    folds = database_folds(pairs, 2)
    assert sorted(db_id for fold in folds for db_id in fold) == ["big", "mid", "small", "tiny"]
    assert folds == [("big", "tiny"), ("mid", "small")]  # 7 pairs each: the largest first into the smallest fold
    assert database_folds(pairs, 9) == database_folds(pairs)


def test_the_fold_report_gives_every_fold_and_the_pooled_matrix():
    school = [
        LabelledPair("a", "select name from student", "select age from student", SCHOOL, "same_instances"),
        LabelledPair("a", "select name from student", "select name from student limit 1", SCHOOL, "display"),
        LabelledPair("b", "select name from student", "select course_name from course", SCHOOL, "same_instances"),
    ]
    report = fold_report(school, database_folds(school), held_out=1)
    assert "fold  1 (unseen  )   2/2   = 100.0%  a" in report
    assert "fold  2 (held out)   0/1   =   0.0%  b" in report
    assert "pooled: 2/3 = 66.7%" in report
    assert "mean of 2 folds: 50.0%" in report


@pytest.mark.conformance
def test_detected_categories_agree_with_chase_intent_labels():
    # Fails, never skips, without ../shared: a conformance figure measured on nothing must not pass.
    for name in ("chase_tables_sample.json", "chase_dev_sample.json"):
        if not (SHARED_DIR / "samples" / name).is_file():
            pytest.fail(f"conformance data missing: {SHARED_DIR / 'samples' / name}", pytrace=False)
    pairs = labelled_pairs(SHARED_DIR)
    assert len(pairs) > 150
    print("\n" + fold_report(pairs, database_folds(pairs)))
    confusion = confusion_of(pairs)
    assert [pair for pair in pairs if detected_category(pair) == "error"] == []
    assert agreed(confusion) / len(pairs) >= CHASE_AGREEMENT_FLOOR
