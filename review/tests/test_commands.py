"""The dataset commands: export_dataset, import_dataset, dataset_stats."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.builders import cosql_release_file

pytestmark = pytest.mark.django_db


def test_export_dataset_writes_the_folder_tree(tmp_path, dorm_dialogue, capsys):
    split = tmp_path / "split.tsv"
    split.write_text("# db_id split\ndorm_demo\ttest\n")
    out = tmp_path / "release"
    call_command(
        "export_dataset", "--format", "sparc", "--format", "gold", "--out", str(out), "--split-file", str(split)
    )
    captured = capsys.readouterr()
    assert "Exported 1 dialogues (train 0, dev 0, test 1) on 1 databases" in captured.out
    assert "Writing files" in captured.err  # the progress (plain lines when stderr is not a terminal)
    assert json.loads((out / "sparc" / "test.json").read_text())[0]["database_id"] == "dorm_demo"
    assert (out / "sparc" / "database" / "dorm_demo" / "dorm_demo.sqlite").exists()
    assert not list(tmp_path.glob(".*partial"))


def test_an_export_whose_files_disagree_is_not_published_and_its_report_is_kept(tmp_path, dorm_dialogue, monkeypatch):
    from review.dataset import services
    from review.dataset.release_check import release_check

    def one_file_short(out_dir, **kwargs):
        (out_dir / "sparc" / "tables.json").write_text("[]")  # as if a database went missing from the release
        return release_check(out_dir, **kwargs)

    monkeypatch.setattr(services, "release_check", one_file_short)
    out = tmp_path / "release"
    with pytest.raises(CommandError, match=r"The release check failed: .*kept in .*\.release\.partial") as refused:
        call_command("export_dataset", "--format", "sparc", "--out", str(out), "--quiet")
    assert "tables.json" in str(refused.value)
    assert not out.exists()
    report = json.loads((tmp_path / ".release.partial" / "export_report.json").read_text())
    assert report["release_check"]["ok"] is False and report["release_check"]["count"] >= 1


def test_export_dataset_refuses_a_folder_in_use_and_bad_options(tmp_path, dorm_dialogue):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "file").write_text("x")
    with pytest.raises(CommandError, match="not an empty folder"):
        call_command("export_dataset", "--format", "cosql", "--out", str(tmp_path / "busy"))
    with pytest.raises(CommandError, match="No database registered as atlantis"):
        call_command("export_dataset", "--format", "cosql", "--out", str(tmp_path / "x"), "--database", "atlantis")


def test_the_progress_bar_draws_on_a_terminal():
    import io

    from review.management.progress import ProgressBar

    stream = io.StringIO()
    bar = ProgressBar(stream, interactive=True)
    bar.update("Checking SQL", 0.5)
    bar.update("Writing files", 1.0)
    bar.close()
    assert "\rChecking SQL         [###############---------------]  50.0%" in stream.getvalue()
    assert stream.getvalue().endswith("100.0%\n")


@pytest.mark.conformance
def test_import_dataset_then_stats(tmp_path, shared_path, capsys):
    call_command(
        "import_dataset",
        "--format",
        "chase",
        "--data",
        str(shared_path("samples", "chase_dev_sample.json")),
        "--tables",
        str(shared_path("samples", "chase_tables_sample.json")),
    )
    assert "Imported 60 dialogues (238 turns" in capsys.readouterr().out
    out = tmp_path / "stats.json"
    call_command("dataset_stats", "--origin", "imported", "--out", str(out), "--figures", str(tmp_path / "figures"))
    stats = json.loads(out.read_text())
    assert stats["overview"]["dialogues"] == 60 and stats["overview"]["sql_turns"] == 238
    assert sum(stats["contextual_phenomena"].values()) >= 238
    assert (tmp_path / "figures" / "keywords_by_turn.pdf").read_bytes().startswith(b"%PDF")


def test_import_dataset_refuses_a_file_of_another_format(tmp_path, db):
    data = tmp_path / "spider.json"
    data.write_text(json.dumps([{"db_id": "x", "question": "q", "query": "SELECT 1"}]))
    tables = tmp_path / "tables.json"
    tables.write_text("[]")
    with pytest.raises(CommandError, match="is not a sparc file: 0: "):
        call_command("import_dataset", "--format", "sparc", "--data", str(data), "--tables", str(tables))


def _counts():
    from annotation.models import Database, Goal, User
    from dialogs.models import Dialogue

    return {model.__name__: model.objects.count() for model in (Database, Goal, User, Dialogue)}


BROKEN_JSON = {
    "truncated": (b'[{"final": {"utterance": "How many students', "cut short"),
    "not UTF-8": ('[{"final": {"utterance": "Combien d\u2019\u00e9tudiants ?"}}]'.encode("cp1252"), "not UTF-8"),
    "not JSON": (b"database_id\tutterance\ndorm_demo\tHow many?\n", "not valid JSON"),
    "nested 30,000 deep": (b"[" * 30_000 + b"]" * 30_000, "nested deeper than"),
    "nested 500 deep": (b"[" * 500 + b"]" * 500, "nested deeper than"),
}


@pytest.mark.parametrize("broken", ["data", "tables"])
@pytest.mark.parametrize("case", BROKEN_JSON)
def test_import_dataset_refuses_a_broken_file_in_one_line(tmp_path, db, case, broken):
    content, expected = BROKEN_JSON[case]
    files = {"data": tmp_path / "cosql_dev.json", "tables": tmp_path / "tables.json"}
    for name, path in files.items():
        path.write_bytes(content if name == broken else b"[]")
    before = _counts()
    with pytest.raises(CommandError) as excinfo:
        call_command(
            "import_dataset", "--format", "cosql", "--data", str(files["data"]), "--tables", str(files["tables"])
        )
    message = str(excinfo.value)
    assert "\n" not in message and str(files[broken]) in message and expected in message, message
    assert _counts() == before


@pytest.mark.parametrize("content", [{"interactions": []}, ["How many students?"], [{"database_id": "dorm_demo"}]])
def test_import_dataset_refuses_a_file_of_the_wrong_shape_in_one_line(tmp_path, db, content):
    data, tables = tmp_path / "cosql_dev.json", tmp_path / "tables.json"
    data.write_text(json.dumps(content))
    tables.write_text("[]")
    with pytest.raises(CommandError) as excinfo:
        call_command("import_dataset", "--format", "cosql", "--data", str(data), "--tables", str(tables))
    assert "\n" not in str(excinfo.value) and "is not a cosql file" in str(excinfo.value)


def test_import_dataset_as_chase_refuses_acosql_release_file(tmp_path, demo_databases):
    data, tables = tmp_path / "cosql_dev.json", tmp_path / "tables.json"
    cosql_release_file(data, demo_databases["dorm_demo"])
    tables.write_text(json.dumps([demo_databases["dorm_demo"].schema]))
    before = _counts()
    with pytest.raises(CommandError, match="is not a chase file: .*question_id"):
        call_command("import_dataset", "--format", "chase", "--data", str(data), "--tables", str(tables))
    assert _counts() == before
    # The very same file is a CoSQL file: as such it imports.
    call_command("import_dataset", "--format", "cosql", "--data", str(data), "--tables", str(tables))
    assert _counts()["Dialogue"] == before["Dialogue"] + 1


def test_an_import_refuses_what_the_room_would_refuse_and_says_which_interaction_field_and_limit(
    tmp_path, demo_databases, settings, capsys
):
    from dialogs.models import Dialogue

    settings.UTTERANCE_MAX_CHARS = 200  # the room's own setting: the import follows it wherever it is set
    data, tables = tmp_path / "cosql_dev.json", tables_file(tmp_path, demo_databases["dorm_demo"])
    cosql_release_file(data, demo_databases["dorm_demo"])
    [good] = json.loads(data.read_text())

    def with_turn(**changes):
        return {**good, "interaction": [{**good["interaction"][0], **changes}]}

    clarified = "How many students? | " + "Do you mean those living in the dorms? " * 6 + "| Yes."
    released = [
        good,
        with_turn(utterance="How many " + "very " * 600_000 + "old students?"),  # 3,000,014 characters
        with_turn(utterance="x" * 201),
        {**good, "interaction": []},
        with_turn(utterance="   "),
        with_turn(utterance=clarified),
        with_turn(query="SELECT count(*) FROM student WHERE name = '" + "x" * 20_000 + "'"),
        {**good, "final": {"utterance": "y" * 201, "query": good["final"]["query"]}},
    ]
    data.write_text(json.dumps(released))
    before = Dialogue.objects.count()
    call_command("import_dataset", "--format", "cosql", "--data", str(data), "--tables", str(tables), "--json")
    report = json.loads(capsys.readouterr().out)
    assert report["dialogues_created"] == 1 and Dialogue.objects.count() == before + 1
    reasons = {item["position"]: item["reason"] for item in report["skipped"]}
    assert sorted(reasons) == [1, 2, 3, 4, 5, 6, 7]
    # Turns are counted from 0, as the interactions are and as apply_corrections counts them.
    assert "turn 0's utterance is longer than 200 characters (UTTERANCE_MAX_CHARS)" in reasons[1]
    assert "turn 0's utterance is longer than 200" in reasons[2]
    assert "no turns" in reasons[3]
    assert "turn 0's utterance must not be empty" in reasons[4]
    assert "turn 0's clarification 1 is longer than 200" in reasons[5]
    assert "turn 0's query is longer than 20000 characters (SANDBOX_MAX_SQL_LENGTH)" in reasons[6]
    assert "final utterance is longer than 200" in reasons[7]


def tables_file(folder, database):
    path = folder / "tables.json"
    path.write_text(json.dumps([database.schema]))
    return path


def test_an_import_that_imports_nothing_creates_nothing(tmp_path, demo_databases):
    data, tables = tmp_path / "cosql_dev.json", tmp_path / "tables.json"
    # Every interaction is on a database that is neither in the tables file nor registered: all are skipped.
    cosql_release_file(data, demo_databases["dorm_demo"], db_id="atlantis")
    tables.write_text("[]")
    before = _counts()
    call_command("import_dataset", "--format", "cosql", "--data", str(data), "--tables", str(tables))
    assert _counts() == before


def test_export_summary_counts_what_the_files_hold_and_the_report_is_plain_text(tmp_path, dorm_dialogue, open_room):
    # A second dialogue whose only SQL ran in the sandbox but cannot be encoded (sqlglot refuses it, with its
    # message coloured for a terminal): that turn is left out, and so is the dialogue, from every SQL file.
    room = open_room("dorm_demo")
    room.answer(room.ask("How old are they?"), "SELECT CAST(age AS) FROM student")
    room.end(approve=False)  # review would refuse it; the export takes completed dialogues here (--status)
    split = tmp_path / "split.tsv"
    split.write_text("dorm_demo\ttest\n")
    out, stdout = tmp_path / "release", StringIO()
    call_command(
        "export_dataset", "--format", "sparc", "--format", "gold", "--status", "completed",
        "--out", str(out), "--split-file", str(split), "--quiet", stdout=stdout,
    )  # fmt: skip
    summary = stdout.getvalue()
    assert len(json.loads((out / "sparc" / "test.json").read_text())) == 1
    assert "Exported 1 dialogues (train 0, dev 0, test 1) on 1 databases" in summary
    assert "1 selected dialogue had no SQL turn left to export." in summary
    report = (out / "export_report.json").read_text()
    assert "cannot be encoded" in report
    assert "\x1b" not in report and "\\u001b" not in report
