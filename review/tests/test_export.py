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
    # The tables the worker was shown: the database's, as the release's tables.json has them.
    [dorm] = [item for item in load(out / "cosql_dataset" / "tables.json") if item["db_id"] == "dorm_demo"]
    assert dialogue["assistant_table_names"] == dorm["table_names_original"]
    assert "student" in dorm["table_names_original"]
    # has_amenity's two-column key, kept whole beside primary_keys' one number per table.
    columns = dorm["column_names_original"]
    assert [[columns[c][1] for c in key] for key in dorm["composite_primary_keys"]] == [["dorm_id", "amenity_id"]]
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
    text = (out / "sparc" / "dev_gold.txt").read_text()
    assert text == (
        "SELECT count(*) FROM student\tdorm_demo\n"
        "SELECT dorm_name FROM dorm WHERE student_capacity > 100\tdorm_demo\n"
        "SELECT last_name FROM student ORDER BY age DESC LIMIT 1\tdorm_demo\n"
        "\n"
        "SELECT count(*) FROM dorm\tdorm_demo\n"
        "\n"
    )
    assert (out / "sparc" / "train_gold.txt").read_text() == ""
    # Each format's gold, beside its files: the same interactions here (no solo sequence to leave out of CoSQL).
    assert (out / "cosql_dataset" / "sql_state_tracking" / "dev_gold.txt").read_text() == text
    assert (out / "chase" / "chase_dev_gold.txt").read_text() == text
    # Asked for alone, the gold files hold every exported dialogue.
    alone, _ = build(tmp_path / "alone", formats=["gold"], split_map={"dorm_demo": "dev"})
    assert (alone / "gold" / "dev_gold.txt").read_text() == text


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
        assert {
            "cosql_dataset/cosql_all_info_dialogs.json",
            "cosql_dataset/sql_state_tracking/dev_gold.txt",
            "export_report.json",
        } <= names
        assert archive.testzip() is None
    again = dataset_export_run(export_id=export.pk)
    assert again.attempts == 1 and again.file == export.file  # a redelivered task finds the work done
    assert not list(path.parent.glob("*.part")) and not list(path.parent.glob("*.work"))


def test_the_zip_holds_every_file_of_the_export_with_its_bytes(dorm_dialogue, ada, django_capture_on_commit_callbacks):
    # The zip is packed while the release check reads the files back, and the report is added after: nothing written
    # may be missing or differ.
    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["cosql", "sparc", "chase", "gold"])
    export.refresh_from_db()
    assert export.state == Export.State.SUCCEEDED
    with zipfile.ZipFile(selectors.export_file_path(export)) as archive:
        names = archive.namelist()
        assert len(names) == len(set(names))  # each file once
        assert set(export.report["files"]) <= set(names)
        assert any(name.endswith(".sqlite") for name in names)
        assert json.loads(archive.read("export_report.json")) == export.report


def _no_zip_thread_left() -> bool:
    import threading

    return not any(thread.name == "export-zip" for thread in threading.enumerate())


def test_an_export_failing_while_its_zip_is_packed_leaves_nothing(
    dorm_dialogue, ada, django_capture_on_commit_callbacks, monkeypatch
):
    from review.dataset import services

    def failing_check(*args, **kwargs):  # the zip's thread is packing by now
        raise OSError("the disk went away")

    monkeypatch.setattr(services, "release_check", failing_check)
    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["cosql"])
    export.refresh_from_db()
    assert export.state == Export.State.FAILED and "the disk went away" in export.message
    folder = Path(settings_data_dir()) / "exports"
    assert not list(folder.glob("*.part")) and not list(folder.glob("*.work")) and not list(folder.glob("*.zip"))
    assert _no_zip_thread_left()


def test_a_zip_that_cannot_be_written_fails_the_export(
    dorm_dialogue, ada, django_capture_on_commit_callbacks, monkeypatch
):
    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    real_close, closings = zipfile.ZipFile.close, []

    def close_on_a_full_disk(self):  # closing the abandoned zip fails too: the export says so once, not twice
        closings.append(self)
        if len(closings) == 1:
            raise OSError(28, "No space left on device")
        real_close(self)

    monkeypatch.setattr(zipfile.ZipFile, "write", full_disk)
    monkeypatch.setattr(zipfile.ZipFile, "close", close_on_a_full_disk)
    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["cosql"])
    export.refresh_from_db()
    assert export.state == Export.State.FAILED and "No space left on device" in export.message
    assert closings  # the failed close was met, and did not replace the export's own failure
    folder = Path(settings_data_dir()) / "exports"
    assert not list(folder.glob("*.part")) and not list(folder.glob("*.zip"))
    assert _no_zip_thread_left()


def settings_data_dir() -> str:
    from django.conf import settings

    return settings.DATA_DIR


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


def test_an_export_asked_in_chinese_writes_its_phase_and_message_in_chinese(db, ada, settings, monkeypatch):
    """The run speaks the language of the person who asked (docs/i18n.md), whatever the worker's is."""
    from django.utils import translation

    from review.dataset import services

    settings.EXPORT_MAX_ATTEMPTS = 2
    with translation.override("zh-hans"):
        retried = Export.objects.create(requested_by=ada, formats=["gold"], options={}, state=Export.State.FAILED)
        dying = Export.objects.create(requested_by=ada, formats=["gold"], options={}, attempts=2)
    monkeypatch.setattr(services, "gettext", lambda text: f"[{translation.get_language()}] {text}")
    monkeypatch.setattr(services, "ngettext", lambda one, many, n: f"[{translation.get_language()}] {many}")
    monkeypatch.setattr("review.tasks.export_dataset.delay_on_commit", lambda *args: None)
    with translation.override("en"):
        assert services.dataset_export_retry(export=retried).phase == "[zh-hans] Queued again"
        assert dataset_export_run(export_id=dying.pk).message.startswith("[zh-hans] Stopped after 2 attempts")


def _split_of(out: Path) -> str:
    return next(iter(load(out / "export_report.json")["split_of"].values()))


# --------------------------------------------------------------------------------------------------------------------
# One release, one set of dialogues: every format's files, its gold and its databases agree
# --------------------------------------------------------------------------------------------------------------------


def _solo_sequence(db_id: str, questions: list[tuple[str, str]]):
    """A finished solo sequence (one expert writes both sides) on `db_id`."""
    from annotation.models import Database, User
    from dialogs import room, solo

    erin = User.objects.get(username="erin")
    sequence = solo.solo_create(expert=erin, database=Database.objects.get(db_id=db_id))
    for question, sql in questions:
        solo.solo_turn_add(dialogue=sequence, person=erin, question=question, sql=sql, request_id=question[:40])
    room.dialogue_post(dialogue=sequence, person=erin, message={"id": f"end-{sequence.pk}", "type": "end"})
    return sequence


def test_solo_sequences_left_out_of_cosql_are_left_out_of_its_gold_tables_and_databases(
    tmp_path, dorm_dialogue, settings
):
    settings.SOLO_MIN_QUESTIONS = 1
    _solo_sequence("library_demo", [("How many books are there?", "SELECT count(*) FROM book")])
    split_map = {"dorm_demo": "train", "library_demo": "test"}
    out, report = build(tmp_path, statuses=["completed"], split_map=split_map)
    cosql = out / "cosql_dataset"
    # CoSQL (no solo sequence by default): its test split is empty, and so is everything that goes with it.
    assert load(cosql / "sql_state_tracking" / "cosql_test.json") == []
    assert [schema["db_id"] for schema in load(cosql / "tables.json")] == ["dorm_demo"]
    assert not (cosql / "database" / "library_demo").exists()
    assert (cosql / "sql_state_tracking" / "test_gold.txt").read_text() == ""
    assert (cosql / "sql_state_tracking" / "train_gold.txt").read_text().count("\tdorm_demo\n") == 3
    assert list(load(cosql / "cosql_all_info_dialogs.json")) == [str(dorm_dialogue.pk)]
    # SParC and CHASE hold the solo sequence, with its gold and its database.
    for folder, tables, gold in (("sparc", "tables.json", "test_gold.txt"), ("chase", "chase_tables.json",
                                                                           "chase_test_gold.txt")):  # fmt: skip
        assert [schema["db_id"] for schema in load(out / folder / tables)] == ["dorm_demo", "library_demo"]
        assert (out / folder / gold).read_text() == "SELECT count(*) FROM book\tlibrary_demo\n\n"
        assert (out / folder / "database" / "library_demo" / "library_demo.sqlite").is_file()
    assert not (out / "gold").exists()  # the gold of a release goes with each format
    # The report counts what each format holds.
    assert report["formats"]["cosql"]["splits"]["test"] == {"dialogues": 0, "turns": 0, "databases": 0}
    assert report["formats"]["cosql"]["databases"] == 1
    assert report["formats"]["sparc"]["splits"]["test"] == {"dialogues": 1, "turns": 1, "databases": 1}
    assert report["release_check"] == {"ok": True, "count": 0, "disagreements": []}


def _tampered(monkeypatch, tamper):
    """Make every export run `tamper(out_dir)` on its files once they are written (and before they are checked)."""
    from review.dataset import writer

    real = writer.write_export

    def write_then_tamper(out_dir, **kwargs):
        files = real(out_dir, **kwargs)
        tamper(Path(out_dir))
        return files

    monkeypatch.setattr(writer, "write_export", write_then_tamper)


def _edit_json(path: Path, change) -> None:
    data = load(path)
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _drop_last_turn(out):
    _edit_json(out / "sparc" / "dev.json", lambda data: data[-1]["interaction"].pop())


def _drop_interaction(out):
    _edit_json(out / "chase" / "chase_dev.json", lambda data: data.pop())


def _drop_gold_interaction(out):
    path = out / "cosql_dataset" / "sql_state_tracking" / "dev_gold.txt"
    path.write_text(path.read_text().split("\n\n")[0] + "\n\n")


def _list_another_database(out):
    _edit_json(out / "sparc" / "tables.json", lambda data: data.append({**data[0], "db_id": "flights_demo"}))


def _copy_another_database(out):
    (out / "cosql_dataset" / "database" / "library_demo").mkdir()


def _move_a_dialogue_to_train(out):
    _edit_json(out / "sparc" / "train.json", lambda data: data.append(load(out / "sparc" / "dev.json")[0]))


def _response_of_another_dialogue(out):
    path = out / "cosql_dataset" / "system_response_generation" / "cosql_dev.json"
    _edit_json(path, lambda data: data.append({**data[0], "dialogue_id": "999"}))


def _drop_a_shown_table(out):
    path = out / "cosql_dataset" / "cosql_all_info_dialogs.json"
    _edit_json(path, lambda data: [dialogue["assistant_table_names"].pop() for dialogue in data.values()])


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (_drop_last_turn, "sparc/dev.json: dialogue {pk} (dorm_demo) has 1 turns, the release 2"),
        (_drop_interaction, "chase/chase_dev.json: dialogue {pk} (dorm_demo) (2 turns) is missing"),
        (_drop_gold_interaction, "cosql_dataset/sql_state_tracking/dev_gold.txt: 1 interactions, the release has 2"),
        (_list_another_database, "sparc/tables.json: 'flights_demo' is listed but no interaction uses it"),
        (_copy_another_database, "cosql_dataset/database: 'library_demo' is there but no interaction uses it"),
        (_move_a_dialogue_to_train, "sparc: database 'dorm_demo' is in train and dev"),
        (_response_of_another_dialogue, "of dialogue '999', which this split lacks"),
        (_drop_a_shown_table, "dialogue {pk}'s assistant_table_names are not the tables of 'dorm_demo'"),
    ],
    ids=lambda value: getattr(value, "__name__", "")[1:],
)
def test_the_release_check_fails_an_export_whose_files_disagree(tmp_path, dorm_dialogue, open_room, monkeypatch,
                                                                tamper, expected):  # fmt: skip
    from review.dataset.release_check import ReleaseCheckFailed

    room = open_room("dorm_demo")
    first = room.ask("How many dorms?")
    room.answer(first, "SELECT count(*) FROM dorm")
    second = room.ask("And students?")
    room.answer(second, "SELECT count(*) FROM student")
    last = room.end()
    out, report = build(tmp_path / "as-written", split_map={"dorm_demo": "dev"})
    assert report["release_check"]["ok"]  # the same export, untouched, agrees with itself
    _tampered(monkeypatch, tamper)
    with pytest.raises(ReleaseCheckFailed) as caught:
        build(tmp_path / "tampered", split_map={"dorm_demo": "dev"})
    check = caught.value.report["release_check"]
    assert not check["ok"] and expected.format(pk=last.pk) in "\n".join(check["disagreements"])
    on_disk = load(tmp_path / "tampered" / "out" / "export_report.json")["release_check"]
    assert on_disk == check
    assert "The release check failed" in caught.value.messages[0]


def test_a_failed_release_check_fails_the_job_and_the_page_lists_what_disagrees(
    client, dorm_dialogue, ada, monkeypatch, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    _tampered(monkeypatch, lambda out: _edit_json(out / "sparc" / "tables.json", lambda data: data.clear()))
    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["sparc", "gold"])
    export.refresh_from_db()
    assert export.state == Export.State.FAILED and selectors.export_file_path(export) is None
    assert export.message.startswith("The release check failed: 1 disagreement:")
    assert export.report["release_check"]["disagreements"] == ["sparc/tables.json: 'dorm_demo' is used but not listed"]
    client.force_login(ada)
    page = client.get(reverse("review:export_detail", args=[export.pk])).content.decode()
    assert 'data-testid="release-check"' in page and "sparc/tables.json: &#x27;dorm_demo&#x27; is used but not" in page
    listing = client.get(reverse("review:datasets")).content.decode()
    assert "Release check failed (1)" in listing
    status = client.get(reverse("review:export_status", args=[export.pk])).json()
    assert status["release_check"] == {"ok": False, "count": 1}


def test_a_report_being_written_while_the_zip_is_packed_goes_in_whole(tmp_path):
    # The packer's thread packs what the folder holds while the export goes on; the report is written after. On a
    # loaded machine the thread reached the report's file while it was still empty, packed that, and the finished zip
    # held an empty report (the services pass of 28 Nov). Here the thread runs to its end while the report is empty.
    from review.dataset.services import _Packer

    folder = tmp_path / "work"
    (folder / "cosql_dataset").mkdir(parents=True)
    (folder / "cosql_dataset" / "dev.json").write_text("[]")
    (folder / "export_report.json").write_text("")  # opened by the writer, nothing written yet
    packer = _Packer(folder, tmp_path / "export.zip")
    packer.start()
    packer._join()  # the thread has packed everything it would
    (folder / "export_report.json").write_text('{"ok": true}')
    packer.finish()
    with zipfile.ZipFile(tmp_path / "export.zip") as archive:
        assert sorted(archive.namelist()) == ["cosql_dataset/dev.json", "export_report.json"]
        assert json.loads(archive.read("export_report.json")) == {"ok": True}
