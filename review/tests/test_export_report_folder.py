"""An export's report/ folder: every figure of the statistics page as SVG with the table behind it (CSV) and
statistics.json, for the dialogues the release holds; a figure that cannot be drawn is reported, not fatal."""

import csv
import io
import json
import zipfile

import pytest

from annotation.models import Database
from annotation.sql.encoding import encode_all
from review.dataset import figures, selectors
from review.dataset.services import dataset_build, dataset_export_create, export_options_clean
from review.dataset.statistics import compute_statistics
from review.models import Export
from review.records import dialogue_records, dialogue_selection

pytestmark = pytest.mark.django_db


def _table(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def _statistics_of_selection(options: dict, report: dict) -> dict:
    """compute_statistics on the dialogues the release holds, read as the statistics page reads them."""
    held = {int(dialogue_id) for dialogue_id in report["revisions"]}
    selection = dialogue_selection(statuses=options["statuses"], origin=options["origin"])
    records = [record for record in dialogue_records(selection) if record.id in held]
    databases = Database.objects.filter(db_id__in={record.db_id for record in records})
    schemas = {database.db_id: database.schema for database in databases}
    stats = compute_statistics(
        records,
        schemas=schemas,
        encoded=encode_all([(r.db_id, s.sql) for r in records for s in r.state_turns()], schemas),
        split_of={db_id: split for db_id, split in report["split_of"].items() if db_id in schemas},
        value_counts={database.db_id: selectors.database_values(database) for database in databases},
    )
    return json.loads(json.dumps(stats))


def test_an_export_holds_every_figure_its_table_and_the_statistics_of_its_dialogues(tmp_path, dorm_dialogue):
    options = export_options_clean(formats=["cosql", "sparc"])
    out = tmp_path / "out"
    report = dataset_build(options=options, out_dir=out)
    assert report["counts"]["dialogues"] == 1
    assert report["report_folder"] == {"failed": []}
    report_files = [name for name in report["files"] if name.startswith("report/")]
    # After the formats' files, in FIGURES' order: each table, then its figure.
    assert report["files"][-len(report_files) :] == report_files
    assert report_files == ["report/statistics.json"] + [
        f"report/{name}.{suffix}" for name in figures.FIGURES for suffix in ("csv", "svg")
    ]
    for name in figures.FIGURES:
        assert (out / "report" / f"{name}.svg").read_bytes().lstrip().startswith((b"<?xml", b"<svg"))

    stats = json.loads((out / "report" / "statistics.json").read_text(encoding="utf-8"))
    assert stats == _statistics_of_selection(options, report)
    assert stats["overview"]["dialogues"] == 1 and stats["overview"]["sql_turns"] == 3
    assert stats["timing"]["dialogues_timed"] == 1  # read with the events' times, as the page reads them

    def table(name):
        return _table((out / "report" / f"{name}.csv").read_text(encoding="utf-8"))

    assert {row["turns"]: int(row["dialogues"]) for row in table("dialogue_lengths")} == stats["dialogue_lengths"]
    for name in ("user_acts", "system_acts"):
        assert {row["act"]: int(row["count"]) for row in table(name)} == stats[name]
    assert {row["keyword"]: int(row["count"]) for row in table("sql_keywords")} == stats["sql_keywords"]
    assert {row["hardness"]: int(row["sql_turns"]) for row in table("hardness")} == stats["hardness"]
    [coverage] = table("coverage")
    [expected] = stats["coverage"]["databases"]
    assert coverage["number"] == "1" and coverage["db_id"] == expected["db_id"] == "dorm_demo"
    assert float(coverage["table_coverage"]) == expected["table_coverage"]
    by_turn = table("keywords_by_turn")
    assert [int(row["sql_turn"]) for row in by_turn] == stats["keywords_by_turn"]["turns"]
    assert [float(row["percent WHERE"]) for row in by_turn] == stats["keywords_by_turn"]["percent"]["WHERE"]
    intents = table("intents")
    assert {row["intent"]: int(row["asked"]) for row in intents} == stats["intents"]["asked"]
    links = {row["item"]: row for row in table("link_matches")}
    assert int(links["all"]["exact"]) == stats["link_matches"]["all"]["exact"]
    [mode] = table("otta_by_collection")
    assert int(mode["sql_turns"]) == stats["otta_by_collection"][0]["sql_turns"]
    overlap = table("question_overlap")
    turns = stats["question_overlap"]["turns"]
    assert len(overlap) == len(turns) * (len(turns) - 1) // 2


def test_the_zip_holds_the_report_folder(dorm_dialogue, ada, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["cosql"])
    export.refresh_from_db()
    assert export.state == Export.State.SUCCEEDED, export.message
    with zipfile.ZipFile(selectors.export_file_path(export)) as archive:
        names = archive.namelist()
        assert "report/statistics.json" in names and "report/hardness.svg" in names
        assert set(export.report["files"]) <= set(names)
        assert json.loads(archive.read("report/statistics.json"))["overview"]["dialogues"] == 1


def test_a_figure_that_fails_is_reported_and_the_export_still_succeeds(
    dorm_dialogue, ada, django_capture_on_commit_callbacks, monkeypatch
):
    drawn = figures.render

    def render(name, stats, fmt):
        if name == "hardness":
            raise RuntimeError("no font for this")
        return drawn(name, stats, fmt)

    monkeypatch.setattr(figures, "render", render)
    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["cosql"])
    export.refresh_from_db()
    assert export.state == Export.State.SUCCEEDED, export.message
    assert export.report["report_folder"]["failed"] == [
        {"figure": "hardness", "file": "report/hardness.svg", "error": "RuntimeError: no font for this"}
    ]
    assert "report/hardness.svg" not in export.report["files"]
    assert "report/hardness.csv" in export.report["files"]  # the table is still there
    with zipfile.ZipFile(selectors.export_file_path(export)) as archive:
        names = archive.namelist()
    assert "report/hardness.svg" not in names and "report/user_acts.svg" in names


def test_an_export_without_the_report_has_no_report_folder(tmp_path, dorm_dialogue):
    out = tmp_path / "out"
    report = dataset_build(options=export_options_clean(formats=["cosql"], report=False), out_dir=out)
    assert report["report_folder"] is None
    assert not [name for name in report["files"] if name.startswith("report/")]
    assert not (out / "report").exists()


def test_a_table_cell_that_looks_like_a_formula_is_escaped():
    from review.dataset.report_folder import figure_table
    from review.payments.csv_files import csv_text

    header, rows = figure_table("dialogue_lengths", {"dialogue_lengths": {"=1+1": 2}})
    assert csv_text(rows, header).splitlines()[1] == "'=1+1,2"


def test_statistics_that_fail_leave_the_folder_out_and_the_export_whole(tmp_path, dorm_dialogue, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("bad record")

    monkeypatch.setattr(selectors, "records_statistics", broken)
    report = dataset_build(options=export_options_clean(formats=["cosql"]), out_dir=tmp_path / "out")
    assert report["release_check"]["ok"]
    assert report["report_folder"] == {
        "failed": [{"figure": None, "file": "report/statistics.json", "error": "ValueError: bad record"}]
    }
    assert not [name for name in report["files"] if name.startswith("report/")]
