"""Registering databases, creating and importing goals, creating people."""

import json
import sqlite3

import pytest
from django.core.exceptions import ValidationError

from annotation.databases.services import database_register, databases_import_spider
from annotation.goals.services import goal_create, goal_update, goals_import
from annotation.models import Database, Goal, User
from annotation.people.services import person_create
from annotation.sql.schema import introspect_sqlite

pytestmark = pytest.mark.django_db


def _make_sqlite(path, statements):
    connection = sqlite3.connect(path)
    connection.executescript(statements)
    connection.commit()
    connection.close()
    return path


@pytest.fixture
def pets_file(tmp_path):
    return _make_sqlite(
        tmp_path / "pets.sqlite",
        """
        CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT, city VARCHAR(30));
        CREATE TABLE pet (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owner(id), kind TEXT, age INT);
        INSERT INTO owner VALUES (1, 'Ann', 'Oslo'), (2, 'Ben', 'Rome');
        INSERT INTO pet VALUES (1, 1, 'dog', 3), (2, 1, 'cat', 5), (3, 2, 'dog', 1);
        """,
    )


def test_register_reads_the_schema_and_copies_the_file(pets_file, settings):
    database = database_register(db_id="pets", source_path=pets_file)
    assert database.schema["table_names_original"] == ["owner", "pet"]
    assert database.schema["foreign_keys"] == [[5, 1]]
    assert database.path.is_file() and database.path.is_relative_to(settings.DATA_DIR)
    assert database.path.read_bytes() == pets_file.read_bytes()
    assert len(database.sha256) == 64


def test_register_refuses_what_is_not_sqlite(tmp_path):
    fake = tmp_path / "fake.sqlite"
    fake.write_text("id,name\n1,Ann\n")
    with pytest.raises(ValidationError, match="not a SQLite database"):
        database_register(db_id="fake", source_path=fake)
    assert not Database.objects.exists()


def test_register_refuses_bad_ids_and_duplicates(pets_file):
    for bad in ["../etc", "a/b", "", "has space"]:
        with pytest.raises(ValidationError, match="not a valid database id"):
            database_register(db_id=bad, source_path=pets_file)
    database_register(db_id="pets", source_path=pets_file)
    with pytest.raises(ValidationError, match="already registered"):
        database_register(db_id="pets", source_path=pets_file)


def test_replace_updates_in_place(pets_file, tmp_path):
    first = database_register(db_id="pets", source_path=pets_file)
    bigger = _make_sqlite(tmp_path / "b.sqlite", "CREATE TABLE vet (id INTEGER PRIMARY KEY, name TEXT);")
    second = database_register(db_id="pets", source_path=bigger, replace=True)
    assert second.pk == first.pk
    assert second.schema["table_names_original"] == ["vet"]


def test_unicode_ids_are_allowed(pets_file):
    # CHASE database ids are Chinese.
    assert database_register(db_id="购书平台", source_path=pets_file).db_id == "购书平台"


def test_goal_hardness_is_computed_and_bad_sql_refused(pets_file):
    database = database_register(db_id="pets", source_path=pets_file)
    goal = goal_create(
        database=database,
        question="Which owners have more than one pet?",
        sql="SELECT T1.name FROM owner AS T1 JOIN pet AS T2 ON T1.id = T2.owner_id GROUP BY T1.id HAVING count(*) > 1",
    )
    assert goal.hardness == "medium" or goal.hardness == "hard"
    with pytest.raises(ValidationError, match="cannot be encoded|fails"):
        goal_create(database=database, question="?", sql="SELECT nope FROM owner")
    with pytest.raises(ValidationError):
        goal_create(database=database, question="", sql="SELECT name FROM owner")
    with pytest.raises(ValidationError, match="already exists"):
        goal_create(database=database, question=goal.question, sql=goal.sql)
    goal_update(goal=goal, question="All owner names", sql="SELECT name FROM owner", active=False)
    goal.refresh_from_db()
    assert (goal.hardness, goal.active) == ("easy", False)


def test_goals_import_reads_all_three_frames_and_filters(pets_file, tmp_path):
    database_register(db_id="pets", source_path=pets_file)
    spider = [
        {"db_id": "pets", "question": "How many pets?", "query": "SELECT count(*) FROM pet"},
        {
            "db_id": "pets",
            "question": "Names of owners with a dog?",
            "query": "SELECT T1.name FROM owner AS T1 JOIN pet AS T2 ON T1.id = T2.owner_id WHERE T2.kind = 'dog'",
        },
        {"db_id": "pets", "question": "Broken", "query": "SELECT missing FROM pet"},
        {"db_id": "unknown_db", "question": "Elsewhere", "query": "SELECT 1"},
    ]
    path = tmp_path / "spider.json"
    path.write_text(json.dumps(spider))
    report = goals_import(path=path, hardness=["medium", "hard", "extra"])
    assert report.created == 1 and report.filtered_out == 1
    assert {reason.split(":")[0] for _, _, reason in report.skipped} == {"cannot encode", "database not registered"}
    again = goals_import(path=path, hardness=["medium", "hard", "extra"])
    assert again.created == 0 and again.duplicates == 1

    sparc = [
        {
            "database_id": "pets",
            "final": {"utterance": "Oldest pet kind?", "query": "SELECT kind FROM pet ORDER BY age DESC LIMIT 1"},
            "interaction": [],
        }
    ]
    path = tmp_path / "cosql_goals.json"
    path.write_text(json.dumps(sparc))
    assert goals_import(path=path).created == 1
    assert Goal.objects.get(question="Oldest pet kind?").source == "cosql"

    chase = [
        {
            "database_id": "pets",
            "final": {"utterance": "Youngest pet kind?", "query": "SELECT kind FROM pet ORDER BY age LIMIT 1"},
            "interaction": [{"question_id": "x1", "utterance": "?", "query": "SELECT kind FROM pet"}],
        }
    ]
    path = tmp_path / "goals.json"
    path.write_text(json.dumps(chase))
    assert goals_import(path=path).created == 1
    assert Goal.objects.get(question="Youngest pet kind?").source == "chase"


def test_goals_import_refuses_unknown_frames(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps([{"foo": 1}]))
    with pytest.raises(ValidationError, match="Record 0"):
        goals_import(path=path)
    path.write_text("{not json")
    with pytest.raises(ValidationError, match="not valid JSON"):
        goals_import(path=path)


def test_goal_whose_sql_fails_in_the_sandbox_is_skipped(tmp_path, settings):
    settings.SANDBOX_TIMEOUT_MS = 200
    path = _make_sqlite(
        tmp_path / "n.sqlite",
        "CREATE TABLE n (x INTEGER);"
        "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) INSERT INTO n SELECT i FROM c;",
    )
    database_register(db_id="nums", source_path=path)
    # Encodes fine under the Spider protocol, but 2000^4 rows never finish inside the time limit.
    goals = [
        {
            "db_id": "nums",
            "question": "Endless",
            "query": "SELECT count(*) FROM n AS a JOIN n AS b JOIN n AS c JOIN n AS d",
        }
    ]
    file = tmp_path / "g.json"
    file.write_text(json.dumps(goals))
    report = goals_import(path=file)
    assert report.created == 0
    assert "fails in the sandbox" in report.skipped[0][2]


def test_spider_import_reports_missing_files(pets_file, tmp_path):
    folder = tmp_path / "database" / "pets"
    folder.mkdir(parents=True)
    (folder / "pets.sqlite").write_bytes(pets_file.read_bytes())
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps([{"db_id": "pets"}, {"db_id": "ghost"}]))
    report = databases_import_spider(tables_path=tables, databases_dir=tmp_path / "database")
    assert report.registered == ["pets"]
    assert report.skipped[0][0] == "ghost"
    report = databases_import_spider(tables_path=tables, databases_dir=tmp_path / "database", only=["pets", "nope"])
    assert ("nope", "not in tables.json") in report.skipped


def test_spider_import_keeps_the_releases_readable_names_only_when_they_describe_the_file(pets_file, tmp_path):
    folder = tmp_path / "database" / "pets"
    folder.mkdir(parents=True)
    (folder / "pets.sqlite").write_bytes(pets_file.read_bytes())
    read = introspect_sqlite(folder / "pets.sqlite", "pets")
    named = {**read, "table_names": [f"the {name}" for name in read["table_names"]]}
    named["column_names"] = [[table, f"{name} (release)"] for table, name in read["column_names"]]
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps([named]))
    report = databases_import_spider(tables_path=tables, databases_dir=tmp_path / "database")
    assert report.registered == ["pets"] and report.notes == []
    schema = Database.objects.get(db_id="pets").schema
    assert schema["table_names"] == named["table_names"] and schema["column_names"][1][1].endswith("(release)")
    # An entry that lists another column than the file has: the file's own names, and the import says why.
    other = {**named, "column_names_original": [*named["column_names_original"][:-1], [0, "elsewhere"]]}
    tables.write_text(json.dumps([other]))
    report = databases_import_spider(tables_path=tables, databases_dir=tmp_path / "database", replace=True)
    assert report.registered == ["pets"] and "names read from the file" in report.notes[0][1]
    assert Database.objects.get(db_id="pets").schema["table_names"] == read["table_names"]


def test_person_create_generates_a_password():
    person, password = person_create(username="zoe", role="expert")
    assert len(password) >= 12 and person.check_password(password)
    with pytest.raises(ValidationError, match="taken"):
        person_create(username="zoe", role="worker")
    with pytest.raises(ValidationError, match="Unknown role"):
        person_create(username="yan", role="wizard")
    admin, _ = person_create(username="root", role="admin", password="long-enough-pw")
    assert User.objects.get(username="root").is_staff and admin.is_superuser
