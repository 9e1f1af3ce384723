"""The command-line tools, run as a dataset builder would run them."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotation.demo import DEMO_ACCOUNTS
from annotation.models import Database, Goal, User

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_add_person_with_and_without_password():
    out, _ = run("add_person", "--role", "expert", "--username", "erin", "--password", "long-password-1")
    assert "Created erin" in out and "Password" not in out
    assert User.objects.get(username="erin").check_password("long-password-1")
    out, _ = run("add_person", "--role", "worker", "--username", "walt")
    password = out.split("Password: ")[1].strip()
    assert User.objects.get(username="walt").check_password(password)
    with pytest.raises(CommandError, match="taken"):
        run("add_person", "--role", "worker", "--username", "walt")


def test_load_demo_is_idempotent():
    out, _ = run("load_demo")
    assert "Demo data ready" in out
    counts = (Database.objects.count(), Goal.objects.count(), User.objects.count())
    assert counts[0] == 3 and counts[1] >= 9 and counts[2] == len(DEMO_ACCOUNTS) == 7
    run("load_demo")
    assert (Database.objects.count(), Goal.objects.count(), User.objects.count()) == counts
    for role in ("worker", "expert", "reviewer", "admin"):
        assert User.objects.filter(role=role).exists()
    assert set(Goal.objects.values_list("hardness", flat=True)) & {"medium", "hard", "extra"}


def test_sql_inspect_prints_one_json_object(demo_databases):
    out, _ = run("sql_inspect", "--database", "dorm_demo", "SELECT count(*) FROM student")
    report = json.loads(out)
    assert report["ok"] is True
    assert report["hardness"] == "easy"
    assert report["query_toks_no_value"] == ["select", "count", "(", "*", ")", "from", "student"]
    assert report["sql"]["select"][1][0][0] == 3  # count
    assert report["execution"]["row_count"] == 1
    with pytest.raises(CommandError, match="no registered database"):
        run("sql_inspect", "--database", "nope", "SELECT 1")


def test_sql_inspect_file_never_stops_on_a_bad_line(demo_databases, tmp_path):
    lines = [
        "dorm_demo\tSELECT count(*) FROM student",
        "no tab on this line",
        "ghost_db\tSELECT 1",
        "dorm_demo\tSELECT nonsense FROM nowhere",
        "dorm_demo\tDELETE FROM student",
        "dorm_demo\tSELECT first_name FROM student WHERE age > 20",
    ]
    tsv = tmp_path / "queries.tsv"
    tsv.write_text("\n".join(lines) + "\n")
    out, _ = run("sql_inspect", "--file", str(tsv))
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in reports] == [1, 2, 3, 4, 5, 6]
    assert [r["ok"] for r in reports] == [True, False, False, False, False, True]
    assert reports[3]["validation"]["errors"][0]["kind"] == "unknown_table"
    assert reports[4]["execution"]["error"]["kind"] in {"forbidden", "statement"}
    assert Database.objects.get(db_id="dorm_demo").path.exists()


def test_export_tables_writes_the_registered_schemas(demo_databases, tmp_path):
    out_file = tmp_path / "out" / "tables.json"
    run("export_tables", "--out", str(out_file))
    entries = json.loads(out_file.read_text())
    assert [entry["db_id"] for entry in entries] == sorted(demo_databases)
    assert entries[0] == Database.objects.get(db_id=entries[0]["db_id"]).schema
    run("export_tables", "--out", str(out_file), "--only", "dorm_demo")
    assert [entry["db_id"] for entry in json.loads(out_file.read_text())] == ["dorm_demo"]
    with pytest.raises(CommandError, match="not registered"):
        run("export_tables", "--out", str(out_file), "--only", "ghost")


def test_import_goals_command_reports_and_filters(demo_databases, tmp_path):
    goals = [
        {"db_id": "dorm_demo", "question": "How many students?", "query": "SELECT count(*) FROM student"},
        {"db_id": "dorm_demo", "question": "Bad", "query": "SELECT x FROM y"},
    ]
    path = tmp_path / "goals.json"
    path.write_text(json.dumps(goals))
    out, err = run("import_goals", str(path), "--hardness", "easy")
    assert "Created 1 goals" in out
    assert "skipped [dorm_demo] 'Bad'" in err
    with pytest.raises(CommandError, match="unknown hardness"):
        run("import_goals", str(path), "--hardness", "trivial")


@pytest.mark.conformance
def test_import_spider_then_export_tables_round_trips_the_public_schemas(shared_path, tmp_path):
    tables = shared_path("spider", "tables.json")
    wanted = ["concert_singer", "pets_1", "car_1", "flight_2", "world_1", "dog_kennels", "student_transcripts_tracking"]
    out, _ = run(
        "import_spider",
        "--tables",
        str(tables),
        "--databases",
        str(shared_path("spider", "database")),
        "--only",
        *wanted,
    )
    assert f"Registered {len(wanted)} databases" in out
    exported = tmp_path / "tables.json"
    run("export_tables", "--out", str(exported))
    public = {entry["db_id"]: entry for entry in json.loads(tables.read_text())}
    for entry in json.loads(exported.read_text()):
        # The readable names too: the release's own ("airline id" for flight_2's uid), not re-read from the file.
        for key in ("table_names_original", "column_names_original", "table_names", "column_names", "primary_keys",
                    "foreign_keys"):  # fmt: skip
            assert entry[key] == public[entry["db_id"]][key], (entry["db_id"], key)


@pytest.mark.conformance
def test_import_goals_from_the_public_samples(shared_path):
    run(
        "import_spider",
        "--tables",
        str(shared_path("spider", "tables.json")),
        "--databases",
        str(shared_path("spider", "database")),
        "--only",
        "concert_singer",
        "pets_1",
    )
    out, err = run(
        "import_goals", str(shared_path("samples", "cosql_dev_sample.json")), "--hardness", "medium,hard,extra"
    )
    created = Goal.objects.count()
    assert created > 0 and f"Created {created} goals" in out
    assert set(Goal.objects.values_list("hardness", flat=True)) <= {"medium", "hard", "extra"}
    assert set(Goal.objects.values_list("source", flat=True)) == {"cosql"}


# Broken files as people pass them by mistake: each must stop the command with one line, not a traceback.
BROKEN_JSON = {
    "truncated": (b'[{"db_id": "dorm_demo", "table_names_original": ["dorm", "stu', "cut short"),
    "not UTF-8": ('[{"db_id": "caf\u00e9", "question": "Qui?", "query": "SELECT 1"}]'.encode("latin-1"), "not UTF-8"),
    "not JSON": (b"db_id,question,query\ndorm_demo,How many?,SELECT 1\n", "not valid JSON"),
    # 60 KB that Python's parser cannot descend into, and a nesting it can parse but later recursive code cannot walk.
    "nested 30,000 deep": (b"[" * 30_000 + b"]" * 30_000, "nested deeper than"),
    "nested 500 deep": (b"[" * 500 + b"]" * 500, "nested deeper than"),
}


def assert_one_line_refusal(excinfo, path, expected: str):
    message = str(excinfo.value)
    assert "\n" not in message and str(path) in message and expected in message, message


@pytest.mark.parametrize("case", BROKEN_JSON)
def test_import_spider_refuses_a_broken_tables_file_in_one_line(tmp_path, case):
    content, expected = BROKEN_JSON[case]
    tables = tmp_path / "tables.json"
    tables.write_bytes(content)
    with pytest.raises(CommandError) as excinfo:
        run("import_spider", "--tables", str(tables), "--databases", str(tmp_path))
    assert_one_line_refusal(excinfo, tables, expected)
    assert not Database.objects.exists()


@pytest.mark.parametrize(
    "content", [{"db_id": "dorm_demo"}, ["dorm_demo"], [{"table_names_original": ["dorm"]}], [{"db_id": 7}]]
)
def test_import_spider_refuses_a_file_that_is_not_a_tables_file(tmp_path, content):
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps(content))
    with pytest.raises(CommandError) as excinfo:
        run("import_spider", "--tables", str(tables), "--databases", str(tmp_path))
    assert_one_line_refusal(excinfo, tables, "is not a tables.json file")


@pytest.mark.parametrize("case", BROKEN_JSON)
def test_import_goals_refuses_a_broken_file_in_one_line(demo_databases, tmp_path, case):
    content, expected = BROKEN_JSON[case]
    goals = tmp_path / "goals.json"
    goals.write_bytes(content)
    before = Goal.objects.count()
    with pytest.raises(CommandError) as excinfo:
        run("import_goals", str(goals))
    assert_one_line_refusal(excinfo, goals, expected)
    assert Goal.objects.count() == before


@pytest.mark.parametrize(
    "content",
    [
        {"db_id": "dorm_demo", "question": "How many?", "query": "SELECT 1"},
        [{"database_id": "dorm_demo", "final": ["How many?", "SELECT count(*) FROM student"], "interaction": []}],
        [{"database_id": "dorm_demo", "final": {"utterance": "How many?", "query": 7}, "interaction": []}],
        [{"db_id": "dorm_demo", "question": ["How", "many?"], "query": "SELECT count(*) FROM student"}],
    ],
)
def test_import_goals_refuses_a_file_of_the_wrong_shape(demo_databases, tmp_path, content):
    goals = tmp_path / "goals.json"
    goals.write_text(json.dumps(content))
    before = Goal.objects.count()
    with pytest.raises(CommandError) as excinfo:
        run("import_goals", str(goals))
    assert_one_line_refusal(excinfo, goals, "")
    assert Goal.objects.count() == before


@pytest.mark.conformance
def test_only_given_twice_keeps_both_databases_in_import_and_export(shared_path, tmp_path):
    # argparse's nargs="+" alone kept the last --only and dropped the first without a word.
    run(
        "import_spider",
        "--tables", str(shared_path("spider", "tables.json")),
        "--databases", str(shared_path("spider", "database")),
        "--only", "concert_singer",
        "--only", "pets_1",
    )  # fmt: skip
    assert sorted(Database.objects.values_list("db_id", flat=True)) == ["concert_singer", "pets_1"]
    exported = tmp_path / "tables.json"
    run("export_tables", "--out", str(exported), "--only", "pets_1", "--only", "concert_singer")
    assert sorted(entry["db_id"] for entry in json.loads(exported.read_text())) == ["concert_singer", "pets_1"]
