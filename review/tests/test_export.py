"""Exports of collected dialogues: what goes into each format, the checks on the way, splits and the job itself."""

import json
import zipfile
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.sql.spider import encode_sql
from dialogs.models import DialogueStatus, Event
from review import records
from review.dataset import selectors
from review.dataset.services import dataset_build, dataset_export_create, dataset_export_run, export_options_clean
from review.dataset.splits import split_databases
from review.models import Export

pytestmark = pytest.mark.django_db


def build(tmp_path, **options):
    cleaned = export_options_clean(**{"formats": ["cosql", "sparc", "chase", "gold"], **options})
    out = tmp_path / "out"
    report = dataset_build(options=cleaned, out_dir=out)
    return out, report


def load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def all_splits(out: Path, pattern: str) -> list:
    return [item for split in ("train", "dev", "test") for item in load(out / pattern.format(split=split))]


def test_a_dialogue_becomes_one_interaction_with_the_clarification_folded(tmp_path, dorm_dialogue):
    out, report = build(tmp_path)
    [interaction] = all_splits(out, "cosql_dataset/sql_state_tracking/cosql_{split}.json")
    assert list(interaction) == ["final", "database_id", "interaction"]
    assert interaction["database_id"] == "dorm_demo"
    assert interaction["final"] == {"utterance": dorm_dialogue.goal.question, "query": dorm_dialogue.goal.sql}
    utterances = [turn["utterance"] for turn in interaction["interaction"]]
    assert utterances == [
        "How many students are there?",
        "Which are the big dorms? | Do you mean dorms with more than 100 students capacity? | yes, those",
        "Show me the oldest student's last name",
    ]
    third = interaction["interaction"][2]
    assert third["utterance_toks"] == ["Show", "me", "the", "oldest", "student", "'s", "last", "name"]
    assert third["query_toks_no_value"][-2:] == ["limit", "value"]
    schema = dorm_dialogue.database.schema
    assert third["sql"] == encode_sql(third["query"], schema, limit_mode="one")
    assert report["counts"]["folded_clarifications"] == 1
    assert report["counts"]["turns_exported"] == 3
    assert report["problems"] == []


def test_sparc_keeps_limit_values_and_chase_sorts_keys_and_fills_empty_labels(tmp_path, dorm_dialogue):
    out, _ = build(tmp_path)
    [sparc] = all_splits(out, "sparc/{split}.json")
    assert list(sparc) == ["database_id", "interaction", "final"]
    assert list(sparc["interaction"][0]) == ["query", "utterance_toks", "utterance", "sql"]
    [chase] = all_splits(out, "chase/chase_{split}.json")
    turn = chase["interaction"][0]
    assert list(turn) == sorted(turn)
    assert turn["contextual_phenomena"] == [] and turn["schema_linking"] == [] and turn["intent"] == ""
    text = (out / "chase" / f"chase_{_split_of(out)}.json").read_text(encoding="utf-8")
    assert text.index('"database_id"') < text.index('"final"') < text.index('"interaction"')


def test_limit_mode_can_be_forced_for_every_format(tmp_path, open_room):
    room = open_room()
    turn = room.ask("Top 3 oldest students?")
    room.answer(turn, "SELECT last_name FROM student ORDER BY age DESC LIMIT 3")
    room.end()
    out, _ = build(tmp_path / "a")
    assert all_splits(out, "sparc/{split}.json")[0]["interaction"][0]["sql"]["limit"] == 3
    assert (
        all_splits(out, "cosql_dataset/sql_state_tracking/cosql_{split}.json")[0]["interaction"][0]["sql"]["limit"] == 1
    )
    out, report = build(tmp_path / "b", limit_mode="value")
    assert (
        all_splits(out, "cosql_dataset/sql_state_tracking/cosql_{split}.json")[0]["interaction"][0]["sql"]["limit"] == 3
    )
    assert report["limit_modes"] == {"cosql": "value", "sparc": "value", "chase": "value"}


def test_all_info_intents_and_responses(tmp_path, dorm_dialogue):
    out, _ = build(tmp_path)
    info = load(out / "cosql_dataset" / "cosql_all_info_dialogs.json")
    dialogue = info[str(dorm_dialogue.pk)]
    assert dialogue["db_id"] == "dorm_demo" and dialogue["score"] == 5 and dialogue["status"] == "completed"
    kinds = [("user" if t["isUser"] else "sql" if t.get("isSql") else "expert") for t in dialogue["turns"]]
    assert kinds == ["user", "sql", "expert", "user", "expert", "user", "sql", "expert", "user", "sql", "expert",
                     "user", "expert"]  # fmt: skip
    assert dialogue["turns"][1]["sql_result"]["columns"] == ["count(*)"]
    assert dialogue["turns"][4]["label"] == ["CLARIFY"]
    intents = all_splits(out, "cosql_dataset/user_intent_prediction/cosql_{split}.json")
    assert [item["intent"] for item in intents] == [["INFORM_SQL"], ["AMBIGUOUS"], ["INFORM_SQL"], ["INFORM_SQL"],
                                                    ["THANK_YOU"]]  # fmt: skip
    responses = all_splits(out, "cosql_dataset/system_response_generation/cosql_{split}.json")
    assert [item["query"] for item in responses] == [
        "SELECT count(*) FROM student",
        "SELECT dorm_name FROM dorm WHERE student_capacity > 100",
        "SELECT last_name FROM student ORDER BY age DESC LIMIT 1",
    ]
    assert responses[0]["result"]["rows"] and responses[0]["response"] == "Here is the result."


def test_gold_files_have_one_line_per_turn_and_a_blank_line_after_each_interaction(tmp_path, dorm_dialogue, open_room):
    room = open_room("dorm_demo")
    turn = room.ask("How many dorms?")
    room.answer(turn, "SELECT count(*)\nFROM dorm")
    room.end()
    out, _ = build(tmp_path, split_map={"dorm_demo": "dev"})
    text = (out / "gold" / "dev_gold.txt").read_text()
    assert text == (
        "SELECT count(*) FROM student\tdorm_demo\n"
        "SELECT dorm_name FROM dorm WHERE student_capacity > 100\tdorm_demo\n"
        "SELECT last_name FROM student ORDER BY age DESC LIMIT 1\tdorm_demo\n"
        "\n"
        "SELECT count(*) FROM dorm\tdorm_demo\n"
        "\n"
    )
    assert (out / "gold" / "train_gold.txt").read_text() == ""


def test_databases_and_tables_ship_with_each_release(tmp_path, dorm_dialogue):
    out, _ = build(tmp_path, formats=["cosql", "chase"])
    folder = out / "cosql_dataset" / "database" / "dorm_demo"
    assert (folder / "dorm_demo.sqlite").read_bytes() == dorm_dialogue.database.path.read_bytes()
    assert "CREATE TABLE student" in (folder / "schema.sql").read_text()
    assert load(out / "cosql_dataset" / "tables.json") == [dorm_dialogue.database.schema]
    assert load(out / "chase" / "chase_tables.json") == [dorm_dialogue.database.schema]


def test_a_turn_whose_sql_no_longer_runs_is_reported_and_left_out_or_kept(tmp_path, dorm_dialogue):
    # The expert's SQL ran when it was written; a review edit broke it since. "! =" is how the public releases
    # write "!=": the Spider encoder reads it, SQLite does not.
    run = Event.objects.filter(dialogue=dorm_dialogue, kind="sql_run").order_by("seq")[2]
    broken = "SELECT last_name FROM student WHERE age ! = 20 ORDER BY age DESC LIMIT 1"
    run.payload = {**run.payload, "sql": broken}
    run.save(update_fields=["payload"])
    out, report = build(tmp_path / "skip")
    [interaction] = all_splits(out, "cosql_dataset/sql_state_tracking/cosql_{split}.json")
    assert [turn["query"] for turn in interaction["interaction"]] == [
        "SELECT count(*) FROM student",
        "SELECT dorm_name FROM dorm WHERE student_capacity > 100",
    ]
    [problem] = report["problems"]
    assert (problem["action"], problem["turn"], problem["sql"]) == ("skipped", run.payload["turn"], broken)
    assert problem["problem"].startswith("does not run: syntax")
    out, report = build(tmp_path / "keep", sql_errors="keep")
    [interaction] = all_splits(out, "cosql_dataset/sql_state_tracking/cosql_{split}.json")
    assert interaction["interaction"][2]["query"] == broken
    assert interaction["interaction"][2]["sql"]["where"][0][1] == 7  # "!=" in the Spider encoding
    assert [p["action"] for p in report["problems"]] == ["kept"]


def test_a_turn_that_runs_but_cannot_be_encoded_is_always_left_out(tmp_path, open_room):
    room = open_room()
    turn = room.ask("Ages plus one?")
    room.answer(turn, "SELECT age + 1 FROM student")
    ok = room.ask("How many students?")
    room.answer(ok, "SELECT count(*) FROM student")
    room.end(approve=False)  # final validation would refuse it (tested in test_review_passes.py)
    out, report = build(tmp_path, sql_errors="keep", statuses=["completed"])
    [interaction] = all_splits(out, "sparc/{split}.json")
    assert [t["query"] for t in interaction["interaction"]] == ["SELECT count(*) FROM student"]
    assert report["problems"][0]["action"] == "skipped"
    assert "Spider format" in report["problems"][0]["problem"]


def test_a_changed_result_is_reported_but_kept(tmp_path, dorm_dialogue):
    shared = Event.objects.filter(dialogue=dorm_dialogue, kind="result_shared").order_by("seq").first()
    shared.payload = {**shared.payload, "rows": [[999]]}
    shared.save(update_fields=["payload"])
    _, report = build(tmp_path)
    [problem] = report["problems"]
    assert problem["action"] == "kept" and "differs" in problem["problem"]
    assert report["counts"]["turns_exported"] == 3


def test_selection_by_status_database_date_and_origin(tmp_path, dorm_dialogue, open_room):
    room = open_room("library_demo")
    turn = room.ask("How many books?")
    room.answer(turn, "SELECT count(*) FROM book")
    dropped = room.end(score=2)
    assert dropped.status == DialogueStatus.DROPPED
    assert list(records.dialogue_selection()) == [dorm_dialogue]
    assert set(records.dialogue_selection(statuses=["completed", "dropped"])) == {dorm_dialogue, dropped}
    assert list(records.dialogue_selection(statuses=["dropped"], db_ids=["dorm_demo"])) == []
    today = dorm_dialogue.created_at.date()
    assert list(records.dialogue_selection(date_from=today, date_to=today)) == [dorm_dialogue]
    assert list(records.dialogue_selection(date_from=today.replace(year=today.year + 1))) == []
    assert list(records.dialogue_selection(origin="imported")) == []
    _, report = build(tmp_path, statuses=["dropped"])
    assert report["counts"]["dialogues"] == 1 and report["split_of"] == {
        "library_demo": report["split_of"]["library_demo"]
    }


def test_splits_are_by_database_deterministic_and_seven_one_two():
    ids = [f"db{i:03d}" for i in range(200)]
    first = split_databases(ids, seed=7)
    assert first == split_databases(list(reversed(ids)), seed=7)
    assert first != split_databases(ids, seed=8)
    counts = {split: list(first.values()).count(split) for split in ("train", "dev", "test")}
    assert counts == {"train": 140, "dev": 20, "test": 40}
    assert set(split_databases(["a", "b", "c"], seed=0).values()) == {"train", "dev", "test"}


def test_a_split_file_must_place_every_database(tmp_path, dorm_dialogue):
    with pytest.raises(ValidationError, match="does not place these databases: dorm_demo"):
        build(tmp_path, split_map={"library_demo": "train"})
    with pytest.raises(ValidationError, match="unknown split"):
        export_options_clean(formats=["cosql"], split_map={"dorm_demo": "validation"})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"formats": []}, "at least one format"),
        ({"formats": ["atis"]}, "Unknown format atis"),
        ({"formats": ["cosql"], "statuses": ["accepted"]}, "Unknown status accepted"),
        ({"formats": ["cosql"], "db_ids": ["nowhere"]}, "No database registered as nowhere"),
        ({"formats": ["cosql"], "date_from": "21/11/2026"}, "must be a date"),
        ({"formats": ["cosql"], "limit_mode": "two"}, "limit mode"),
    ],
)
def test_bad_export_requests_are_refused_with_a_reason(db, options, message):
    with pytest.raises(ValidationError, match=message):
        export_options_clean(**options)


def test_the_number_of_queries_does_not_grow_with_the_number_of_dialogues(tmp_path, dorm_dialogue, open_room):
    with CaptureQueriesContext(connection) as one:
        build(tmp_path / "one")
    for _ in range(3):
        room = open_room("flights_demo")
        turn = room.ask("How many airlines?")
        room.answer(turn, "SELECT count(*) FROM airline")
        room.end()
    with CaptureQueriesContext(connection) as four:
        build(tmp_path / "four")
    assert len(four.captured_queries) == len(one.captured_queries)


def test_the_export_job_publishes_a_zip_and_is_idempotent(dorm_dialogue, ada, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["cosql", "gold"])
    export.refresh_from_db()
    assert export.state == Export.State.SUCCEEDED and export.attempts == 1
    path = selectors.export_file_path(export)
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        assert {"cosql_dataset/cosql_all_info_dialogs.json", "gold/dev_gold.txt", "export_report.json"} <= names
        assert archive.testzip() is None
    again = dataset_export_run(export_id=export.pk)
    assert again.attempts == 1 and again.file == export.file  # a redelivered task finds the work done
    assert not list(path.parent.glob("*.part")) and not list(path.parent.glob("*.work"))


def test_a_failed_export_says_why_and_can_be_retried(dorm_dialogue, ada, django_capture_on_commit_callbacks, settings):
    from review.dataset.services import dataset_export_retry

    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["sparc"], split_map={"library_demo": "dev"})
    export.refresh_from_db()
    assert export.state == Export.State.FAILED
    assert "does not place these databases: dorm_demo" in export.message
    assert selectors.export_file_path(export) is None and selectors.export_can_retry(export)
    export.options = {**export.options, "split_map": None}
    export.save(update_fields=["options"])
    with django_capture_on_commit_callbacks(execute=True):
        dataset_export_retry(export=export)
    export.refresh_from_db()
    assert export.state == Export.State.SUCCEEDED and selectors.export_file_path(export) is not None


def test_a_run_that_lost_its_export_publishes_nothing(dorm_dialogue, ada, monkeypatch):
    from review.dataset import services

    export = Export.objects.create(requested_by=ada, formats=["gold"], options=export_options_clean(formats=["gold"]))
    real_build = services.dataset_build

    def build_then_lose(**kwargs):
        report = real_build(**kwargs)
        Export.objects.filter(pk=export.pk).update(run_token="someone-else")  # a retry took the export over
        return report

    monkeypatch.setattr(services, "dataset_build", build_then_lose)
    result = dataset_export_run(export_id=export.pk)
    assert result.state == Export.State.RUNNING and result.file == ""
    folder = Path(services.settings.DATA_DIR) / "exports"
    assert not list(folder.glob(f"export-{export.pk}-*"))


def test_what_a_dying_run_wrote_while_the_retry_ran_is_removed_when_the_retry_publishes(
    dorm_dialogue, ada, monkeypatch
):
    """A run that lost the export (its worker was dying) still wrote its folder after the retry had started and
    cleaned up: the retry removes it once it has published, leaving only the published zip."""
    from review.dataset import services

    export = Export.objects.create(requested_by=ada, formats=["gold"], options=export_options_clean(formats=["gold"]))
    real_build = services.dataset_build
    folder = Path(services.settings.DATA_DIR) / "exports"

    def build_while_another_run_writes(**kwargs):
        stray = folder / f"export-{export.pk}-0dying0run0.work"
        (stray / "gold").mkdir(parents=True)
        (stray / "gold" / "dev_gold.txt").write_text("half")
        (folder / f"export-{export.pk}-0dying0run0.zip.part").write_bytes(b"PK")
        return real_build(**kwargs)

    monkeypatch.setattr(services, "dataset_build", build_while_another_run_writes)
    result = dataset_export_run(export_id=export.pk)
    assert result.state == Export.State.SUCCEEDED
    assert [path.name for path in folder.glob(f"export-{export.pk}-*")] == [Path(result.file).name]


def test_an_export_whose_worker_kept_dying_is_failed_for_good(db, ada, settings):
    settings.EXPORT_MAX_ATTEMPTS = 2
    export = Export.objects.create(
        requested_by=ada, formats=["gold"], options=export_options_clean(formats=["gold"]), attempts=2
    )
    result = dataset_export_run(export_id=export.pk)
    assert result.state == Export.State.FAILED and "Stopped after 2 attempts" in result.message


def _split_of(out: Path) -> str:
    return next(iter(load(out / "export_report.json")["split_of"].values()))
