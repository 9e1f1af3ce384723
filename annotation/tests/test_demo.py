"""The demo databases and goals: they build, carry keys, answer every goal, and come out the same every time."""

import sqlite3
from contextlib import closing

import pytest

from annotation.demo import DEMO_GOALS, build_demo_databases
from annotation.sql.schema import describe_tables, introspect_sqlite

DEMO_DB_IDS = {"dorm_demo", "library_demo", "flights_demo"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_demo_databases(tmp_path_factory.mktemp("demo"))


def test_builds_the_three_databases_in_their_own_folders(built):
    assert set(built) == DEMO_DB_IDS
    for db_id, path in built.items():
        assert path.name == f"{db_id}.sqlite"
        assert path.parent.name == db_id
        assert path.read_bytes().startswith(b"SQLite format 3\x00")
        assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no journal or partial file left


@pytest.mark.parametrize(
    ("db_id", "child", "parent"),
    [
        ("dorm_demo", "has_amenity.dorm_id", "dorm.dorm_id"),
        ("dorm_demo", "has_amenity.amenity_id", "dorm_amenity.amenity_id"),
        ("dorm_demo", "lives_in.student_id", "student.student_id"),
        ("dorm_demo", "lives_in.dorm_id", "dorm.dorm_id"),
        ("library_demo", "book.author_id", "author.author_id"),
        ("library_demo", "loan.book_id", "book.book_id"),
        ("library_demo", "loan.member_id", "member.member_id"),
        ("flights_demo", "flight.airline_id", "airline.airline_id"),
        ("flights_demo", "flight.origin", "airport.airport_code"),
        ("flights_demo", "flight.destination", "airport.airport_code"),
    ],
)
def test_introspection_finds_the_foreign_keys(built, db_id, child, parent):
    tables = describe_tables(introspect_sqlite(built[db_id], db_id))

    targets = {
        f"{table['name']}.{column['name']}": column["foreign_key"] for table in tables for column in table["columns"]
    }
    assert targets[child] == parent


def test_every_table_has_a_primary_key_and_rows(built):
    for db_id, path in built.items():
        schema = introspect_sqlite(path, db_id)
        keyed_tables = {schema["column_names_original"][i][0] for i in schema["primary_keys"]}
        assert keyed_tables == set(range(len(schema["table_names_original"]))), db_id
        with closing(sqlite3.connect(path)) as connection:
            for table in schema["table_names_original"]:
                assert connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] > 0, f"{db_id}.{table}"


def test_the_dorm_database_is_big_enough_to_browse(built):
    with closing(sqlite3.connect(built["dorm_demo"])) as connection:
        students = connection.execute("SELECT count(*) FROM student").fetchone()[0]
        residents = connection.execute("SELECT count(*) FROM lives_in").fetchone()[0]
        overfull = connection.execute(
            "SELECT count(*) FROM dorm AS d WHERE student_capacity < (SELECT count(*) FROM lives_in AS l "
            "WHERE l.dorm_id = d.dorm_id)"
        ).fetchone()[0]
        wrong_gender = connection.execute(
            "SELECT count(*) FROM lives_in JOIN student USING (student_id) JOIN dorm USING (dorm_id) "
            "WHERE dorm.gender != 'X' AND dorm.gender != student.sex"
        ).fetchone()[0]
    assert students >= 36
    assert 0 < residents < students  # some students live off campus
    assert overfull == 0
    assert wrong_gender == 0


def test_each_database_has_about_five_goals():
    per_database = {db_id: sum(goal["db_id"] == db_id for goal in DEMO_GOALS) for db_id in DEMO_DB_IDS}

    assert all(count >= 4 for count in per_database.values()), per_database
    assert {goal["db_id"] for goal in DEMO_GOALS} == DEMO_DB_IDS
    assert len({(goal["db_id"], goal["question"]) for goal in DEMO_GOALS}) == len(DEMO_GOALS)


@pytest.mark.parametrize("goal", DEMO_GOALS, ids=lambda goal: f"{goal['db_id']}: {goal['question'][:40]}")
def test_every_goal_executes_with_a_non_empty_result(built, goal):
    with closing(sqlite3.connect(f"file:{built[goal['db_id']]}?mode=ro", uri=True)) as connection:
        rows = connection.execute(goal["sql"]).fetchall()

    assert rows, goal["sql"]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The CoSQL paper's Figure 1 dialogue ends on exactly one dorm.
        ("Which dorms have a TV lounge but no study room?", [("Granite Court",)]),
        ("Which airports have no departing flights?", [("Ted Stevens Anchorage International Airport",)]),
    ],
)
def test_goals_with_a_designed_answer(built, question, expected):
    goal = next(goal for goal in DEMO_GOALS if goal["question"] == question)
    with closing(sqlite3.connect(built[goal["db_id"]])) as connection:
        assert connection.execute(goal["sql"]).fetchall() == expected


@pytest.mark.parametrize("goal", [g for g in DEMO_GOALS if "LIMIT 1" in g["sql"]], ids=lambda g: g["question"][:40])
def test_top_one_goals_have_no_tie(built, goal):
    # "Which X has the most Y?" is only a fair goal when the top count is unique.
    counted = goal["sql"].replace("SELECT ", "SELECT count(*), ", 1).replace("LIMIT 1", "LIMIT 2")
    with closing(sqlite3.connect(built[goal["db_id"]])) as connection:
        top = connection.execute(counted).fetchall()

    assert len(top) == 1 or top[0][0] != top[1][0], top


def test_building_twice_gives_identical_files(tmp_path):
    first = build_demo_databases(tmp_path / "first")
    second = build_demo_databases(tmp_path / "second")
    contents = {db_id: path.read_bytes() for db_id, path in first.items()}

    assert {db_id: path.read_bytes() for db_id, path in second.items()} == contents

    # Building again over existing files replaces them with the same content.
    again = build_demo_databases(tmp_path / "first")
    assert {db_id: path.read_bytes() for db_id, path in again.items()} == contents


@pytest.mark.parametrize("goal", DEMO_GOALS, ids=lambda goal: f"{goal['db_id']}: {goal['question'][:40]}")
def test_every_goal_encodes_under_the_spider_protocol_and_is_not_easy(built, goal):
    # The demo loader registers goals through goal_create, which refuses SQL the Spider encoder cannot encode.
    from annotation.sql.hardness import hardness
    from annotation.sql.spider import encode_sql

    encoded = encode_sql(goal["sql"], introspect_sqlite(built[goal["db_id"]], goal["db_id"]))

    assert hardness(encoded) in {"medium", "hard", "extra"}
