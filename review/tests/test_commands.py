"""The dataset commands: export_dataset, import_dataset, dataset_stats."""

import json

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_export_dataset_writes_the_folder_tree(tmp_path, dorm_dialogue, capsys):
    split = tmp_path / "split.tsv"
    split.write_text("# db_id split\ndorm_demo\ttest\n")
    out = tmp_path / "release"
    call_command(
        "export_dataset", "--format", "sparc", "--format", "gold", "--out", str(out), "--split-file", str(split)
    )
    captured = capsys.readouterr()
    assert "Exported 1 dialogues (train 0, dev 0, test 1)" in captured.out
    assert "Writing files" in captured.err  # the progress (plain lines when stderr is not a terminal)
    assert json.loads((out / "sparc" / "test.json").read_text())[0]["database_id"] == "dorm_demo"
    assert (out / "sparc" / "database" / "dorm_demo" / "dorm_demo.sqlite").exists()
    assert not list(tmp_path.glob(".*partial"))


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
