"""Translation projects (docs/translation.md): a Spider database and a few SParC interactions of the public sample
imported, made a project, translated, reviewed and exported as a CHASE-format release whose every gold query runs on
the translated file and returns the translated rows of the original's result."""

import json
import sqlite3
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from annotation.models import User
from review.dataset.evaluation import release_evaluate
from review.dataset.importer import dataset_import
from review.translation import services, source
from review.translation.export import translation_export_run
from review.translation.models import (
    TranslationExport,
    TranslationInteraction,
    TranslationProjectBuild,
    TranslationUnit,
)

pytestmark = [pytest.mark.django_db]
DB_ID = "concert_singer"
INTERACTIONS = 4


def _person(username, role):
    person = User.objects.create(username=username, role=role)
    person.set_password("correct-horse-battery")
    person.save()
    return person


@pytest.fixture
def people(db):
    return {
        "admin": _person("tr-admin", "admin"),
        "translator": _person("tr-expert", "expert"),
        "reviewer": _person("tr-reviewer", "reviewer"),
        "outsider": _person("tr-other-expert", "expert"),
    }


@pytest.fixture
def project(tmp_path, shared_path, people):
    sample = json.loads(shared_path("samples", "sparc_dev_sample.json").read_text(encoding="utf-8"))
    chosen = [item for item in sample if item["database_id"] == DB_ID][:INTERACTIONS]
    data = tmp_path / "sparc_dev_concert.json"
    data.write_text(json.dumps(chosen), encoding="utf-8")
    report = dataset_import(
        fmt="sparc",
        data_path=data,
        tables_path=shared_path("spider", "tables.json"),
        databases_dir=shared_path("spider", "database"),
    )
    assert report.dialogues_created == INTERACTIONS
    (release,) = source.imported_releases()
    project = services.translation_project_create(
        admin=people["admin"], name="CHASE-T concert", release_key=release.key, db_ids=[DB_ID]
    )
    services.translation_assign(
        admin=people["admin"], project_database=project.databases.get(), people=[people["translator"]]
    )
    return project


def _translate_everything(project, person):
    """Every name to a Chinese name of its own; every value prefixed with 译 (which keeps the values' order and what
    a LIKE pattern inside them finds)."""
    project_database = project.databases.get()
    for number, unit in enumerate(project_database.units.order_by("id")):
        if unit.kind == TranslationUnit.Kind.VALUE:
            text = f"译{unit.source}"
        else:
            text = f"{'表' if unit.kind == 'table' else '列'}{number}"
        services.translation_unit_save(person=person, unit=unit, text=text)


def _translate_questions(project, translator, reviewer):
    for interaction in project.interactions.all():
        services.translation_interaction_save(
            person=translator,
            interaction=interaction,
            questions=[f"问题{index}" for index in range(len(interaction.turns))],
            final_question="最后的问题",
            submit=True,
        )
        services.translation_interaction_review(reviewer=reviewer, interaction=interaction, approve=True)


def test_a_project_holds_the_databases_names_values_and_interactions(project):
    project_database = project.databases.get()
    units = project_database.units
    assert units.filter(kind="table").count() == 4
    assert units.filter(kind="column").count() == 21
    values = set(units.filter(kind="value").values_list("source", flat=True))
    assert {"Netherlands", "Joe Sharp"} <= values
    assert not any(value.isdigit() for value in values)  # digits alone are the same in every language
    assert project.interactions.count() == INTERACTIONS
    assert all(item.turns and item.turns[0]["query"] for item in project.interactions.all())


@pytest.mark.conformance
def test_the_export_runs_every_gold_query_on_the_translated_file(project, people, django_capture_on_commit_callbacks):
    _translate_everything(project, people["translator"])
    _translate_questions(project, people["translator"], people["reviewer"])
    with django_capture_on_commit_callbacks(execute=True):
        export = services.translation_export_start(admin=people["admin"], project=project)
    export.refresh_from_db()  # the task ran eagerly once the request committed
    assert export.state == TranslationExport.State.SUCCEEDED, export.message
    report = export.report
    queries = report["gold_check"]["queries"]
    assert export.gold_total == len(queries) == sum(len(item.turns) for item in project.interactions.all())
    failing = [row for row in queries if row["outcome"] != "same"]
    assert export.gold_passed == export.gold_total, failing
    with zipfile.ZipFile(Path(settings.DATA_DIR) / export.file) as archive:
        names = set(archive.namelist())
        assert {
            "chase/chase_dev.json",
            "chase/chase_dev_gold.txt",
            "chase/chase_tables.json",
            f"chase/database/{DB_ID}/{DB_ID}.sqlite",
            f"chase/database/{DB_ID}/schema.sql",
            "translation_report.json",
        } <= names
        records = json.loads(archive.read("chase/chase_dev.json"))
        tables = json.loads(archive.read("chase/chase_tables.json"))
        archive.extract(f"chase/database/{DB_ID}/{DB_ID}.sqlite", Path(settings.DATA_DIR) / "unzipped")
    assert len(records) == INTERACTIONS
    turn = records[0]["interaction"][0]
    assert turn["utterance"] == "问题0" and turn["utterance_toks"] == ["问", "题", "0"]
    assert list(turn) == sorted(turn)  # CHASE's keys sorted
    assert all(name.startswith("表") for name in tables[0]["table_names_original"])
    translated = Path(settings.DATA_DIR) / "unzipped" / "chase" / "database" / DB_ID / f"{DB_ID}.sqlite"
    with sqlite3.connect(translated) as connection:
        names = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert names == set(tables[0]["table_names_original"])
        singer_table = tables[0]["table_names_original"][1]
        singer_names = {row[0] for row in connection.execute(f"SELECT * FROM {singer_table}")} | set()
        assert singer_names  # the table is there, read under its translated name
        cells = {
            value
            for (value,) in connection.execute(
                f"SELECT {tables[0]['column_names_original'][10][1]} FROM {singer_table}"
            )
        }
    assert "译Netherlands" in cells and "Netherlands" not in cells
    # The platform's evaluator (docs/evaluation.md) reads the release, and the gold scores itself in full.
    with zipfile.ZipFile(Path(settings.DATA_DIR) / export.file) as archive:
        archive.extractall(Path(settings.DATA_DIR) / "release")
        gold_lines = archive.read("chase/chase_dev_gold.txt").decode("utf-8")
    predictions = "\n".join(line.split("\t")[0] for line in gold_lines.split("\n")).encode("utf-8")
    scored = release_evaluate(Path(settings.DATA_DIR) / "release", predictions, fmt="chase", split="dev")
    assert scored["questions"] == export.gold_total and not scored["gold_problems"]
    assert scored["question"]["exact"] == scored["question"]["execution"] == 1.0, scored["question"]


@pytest.mark.conformance
def test_the_gold_check_reports_each_query_that_does_not_return_the_translated_rows(project, people, client):
    project_database = project.databases.get()
    unit = project_database.units.get(kind="value", source="France")
    services.translation_unit_save(person=people["translator"], unit=unit, text="法国")
    _translate_questions(project, people["translator"], people["reviewer"])
    interaction = project.interactions.order_by("position").first()
    # A prefix of a value is no value: the pattern cannot follow the translation, and the check says so.
    interaction.turns[0]["query"] = "SELECT name FROM singer WHERE country LIKE 'Fr%'"
    interaction.turns[1]["query"] = "SELECT nothing FROM singer"
    interaction.save()
    export = TranslationExport.objects.create(project=project, requested_by=people["admin"])
    export = translation_export_run(export_id=export.pk)
    assert export.state == TranslationExport.State.SUCCEEDED, export.message
    queries = export.report["gold_check"]["queries"]
    by_query = {row["original"]: row for row in queries}
    like = by_query["SELECT name FROM singer WHERE country LIKE 'Fr%'"]
    assert like["outcome"] == "different rows" and like["rows"] == 4
    assert like["notes"] == ["the value 'Fr%' has no translation: kept as it is"]
    assert by_query["SELECT nothing FROM singer"]["outcome"] == "does not run on the original file"
    assert by_query["select age from singer WHERE country  =  'France'"]["translated"].endswith("'法国'")
    assert export.gold_total == len(queries) and export.gold_passed == len(queries) - 2
    assert (
        export.message
        == f"{len(queries) - 2} of {len(queries)} gold queries return the translated rows of the original's."
    )
    assert export.report["gold_check"]["outcomes"] == {
        "same": len(queries) - 2,
        "different rows": 1,
        "does not run on the original file": 1,
    }
    client.force_login(people["admin"])
    page = client.get(reverse("review:translation_export", args=[export.pk])).content.decode()
    assert f"{len(queries) - 2} of {len(queries)} gold queries run on the translated file" in page
    assert "WHERE country LIKE &#x27;Fr%&#x27;" in page and "different rows" in page
    client.force_login(people["translator"])
    values = client.get(reverse("review:translation_database", args=[project.databases.get().pk]) + "?kind=value")
    assert values.status_code == 200 and "Netherlands" in values.content.decode()


def test_a_name_that_collides_in_its_table_is_refused_with_a_clear_error(project, people):
    project_database = project.databases.get()
    name = project_database.units.get(kind="column", table="singer", column="Name")
    country = project_database.units.get(kind="column", table="singer", column="Country")
    services.translation_unit_save(person=people["translator"], unit=name, text="名字")
    with pytest.raises(ValidationError) as refused:
        services.translation_unit_save(person=people["translator"], unit=country, text="名字")
    assert "名字 is already the name of the column Name of the table singer" in refused.value.messages[0]
    # The same word in another table is fine: a column is named within its table.
    stadium_name = project_database.units.get(kind="column", table="stadium", column="Name")
    services.translation_unit_save(person=people["translator"], unit=stadium_name, text="名字")
    # An original name not yet translated counts too ("age" is singer's Age, up to case).
    with pytest.raises(ValidationError, match="already the name of the column Age"):
        services.translation_unit_save(person=people["translator"], unit=country, text="age")
    country.refresh_from_db()
    assert country.translation == ""  # nothing kept of the refused attempts


@pytest.mark.parametrize(
    ("text", "message"),
    [("歌 手", "cannot stand unquoted"), ("1号", "cannot stand unquoted"), ("select", "SQL keyword"), ("", "Write")],
)
def test_a_name_sql_cannot_hold_unquoted_is_refused(project, people, text, message):
    unit = project.databases.get().units.get(kind="table", source="singer")
    with pytest.raises(ValidationError, match=message):
        services.translation_unit_save(person=people["translator"], unit=unit, text=text)


def test_a_column_of_codes_is_kept_as_it_is_in_one_go(project, people):
    project_database = project.databases.get()
    countries = project_database.units.filter(kind="value", table="singer", column="Country")
    services.translation_unit_save(person=people["translator"], unit=countries.get(source="France"), text="法国")
    # France reads 法国 now, so another value may take its old spelling.
    services.translation_unit_save(person=people["translator"], unit=countries.get(source="Netherlands"), text="France")
    kept = services.translation_values_keep(
        person=people["translator"], project_database=project_database, table="singer", column="Country"
    )
    rows = {unit.source: unit for unit in countries.all()}
    assert kept == len(rows) - 2 > 0
    assert (rows["France"].translation, rows["Netherlands"].translation) == ("法国", "France")
    assert all(unit.translation == source for source, unit in rows.items() if source not in ("France", "Netherlands"))
    assert all(unit.translated_by == people["translator"] for unit in rows.values())
    with pytest.raises(PermissionDenied):
        services.translation_values_keep(
            person=people["outsider"], project_database=project_database, table="singer", column="Country"
        )


def test_two_values_of_one_column_may_not_become_one(project, people):
    units = project.databases.get().units.filter(kind="value")
    netherlands, france = units.get(source="Netherlands"), units.get(source="France")
    services.translation_unit_save(person=people["translator"], unit=netherlands, text="荷兰")
    with pytest.raises(ValidationError, match="already the value Netherlands in the column singer.Country"):
        services.translation_unit_save(person=people["translator"], unit=france, text="荷兰")


def test_only_assigned_translators_translate_and_nobody_reviews_their_own(project, people):
    unit = project.databases.get().units.get(kind="table", source="singer")
    with pytest.raises(PermissionDenied):
        services.translation_unit_save(person=people["outsider"], unit=unit, text="歌手")
    interaction = project.interactions.first()
    questions = ["问"] * len(interaction.turns)
    with pytest.raises(ValidationError, match="every question"):
        services.translation_interaction_save(
            person=people["translator"], interaction=interaction, questions=questions, final_question="", submit=True
        )
    services.translation_interaction_save(
        person=people["admin"], interaction=interaction, questions=questions, final_question="问", submit=True
    )
    with pytest.raises(ValidationError, match="someone else reviews it"):
        services.translation_interaction_review(reviewer=people["admin"], interaction=interaction, approve=True)
    with pytest.raises(ValidationError, match="Say what to change"):
        services.translation_interaction_review(reviewer=people["reviewer"], interaction=interaction, approve=False)
    sent = services.translation_interaction_review(
        reviewer=people["reviewer"], interaction=interaction, approve=False, note="第二句不通顺"
    )
    assert sent.state == TranslationInteraction.State.SENT_BACK and sent.review_note == "第二句不通顺"
    with pytest.raises(PermissionDenied):
        services.translation_interaction_review(reviewer=people["translator"], interaction=interaction, approve=True)


def test_a_model_proposal_is_recorded_and_never_kept_silently(project, people, monkeypatch):
    from annotation.model_client import ModelReply

    def answer(messages, **kwargs):
        assert "singer" in messages[-1]["content"]
        return ModelReply(text="歌手\n", model="test-model-1", prompt_version=kwargs["prompt_version"], seconds=0.1)

    monkeypatch.setattr(services, "model_chat", answer)
    unit = project.databases.get().units.get(kind="table", source="singer")
    unit = services.translation_unit_propose(person=people["translator"], unit=unit)
    assert (unit.proposal, unit.proposal_model, unit.translation) == ("歌手", "test-model-1", "")
    accepted = services.translation_unit_save(person=people["translator"], unit=unit, text=unit.proposal)
    assert accepted.translation == "歌手" and accepted.translated_by == people["translator"]


def test_a_batch_proposal_asks_once_and_records_proposals_only(project, people, monkeypatch):
    from annotation.model_client import ModelError, ModelReply

    calls = []

    def answer(messages, **kwargs):
        calls.append(messages[-1]["content"])
        # The untranslated tables in order (singer is translated below): concert, singer_in_concert, stadium.
        text = 'Here you are: {"1": "演唱会", "2": "演出", "3": "", "9": "多余"}'
        return ModelReply(text=text, model="test-model-2", prompt_version=kwargs["prompt_version"], seconds=0.2)

    monkeypatch.setattr(services, "model_chat", answer)
    project_database = project.databases.get()
    services.translation_unit_save(
        person=people["translator"], unit=project_database.units.get(kind="table", source="singer"), text="歌手"
    )
    count = services.translation_units_propose(
        person=people["translator"], project_database=project_database, kind="table"
    )
    assert count == 2 and len(calls) == 1
    assert calls[0].splitlines() == [
        "1. the table name concert",
        "2. the table name singer_in_concert",
        "3. the table name stadium",
    ]
    tables = {unit.source: unit for unit in project_database.units.filter(kind="table")}
    assert (tables["concert"].proposal, tables["concert"].proposal_model, tables["concert"].translation) == (
        "演唱会",
        "test-model-2",
        "",
    )
    assert tables["stadium"].proposal == "" and tables["singer"].proposal == ""
    monkeypatch.setattr(services, "model_chat", lambda messages, **kwargs: ModelReply("sorry", "m", "p", 0.1))
    with pytest.raises(ModelError, match="no JSON object"):
        services.translation_units_propose(person=people["translator"], project_database=project_database, kind="table")


# ---------------------------------------------------------------------------------------------------------------
# The pages: every URL checks the role, and the screens do what the services do
# ---------------------------------------------------------------------------------------------------------------


def _urls(project):
    project_database = project.databases.get()
    unit = project_database.units.get(kind="table", source="singer")
    interaction = project.interactions.order_by("position").first()
    export = TranslationExport.objects.create(project=project)
    build = TranslationProjectBuild.objects.create(name="a build", release_key="sparc:none")
    return {
        # name: (url, method, who may: "work" any translator-role person who sees it, "assigned", "review", "admin")
        "home": (reverse("review:translation_home"), "get", "work"),
        "create": (reverse("review:translation_project_create"), "post", "admin"),
        "project": (reverse("review:translation_project", args=[project.pk]), "get", "sees"),
        "export_start": (reverse("review:translation_export_start", args=[project.pk]), "post", "admin"),
        "database": (reverse("review:translation_database", args=[project_database.pk]), "get", "assigned"),
        "assign": (reverse("review:translation_assign", args=[project_database.pk]), "post", "admin"),
        "unit_save": (reverse("review:translation_unit_save", args=[unit.pk]), "post", "assigned"),
        "unit_propose": (reverse("review:translation_unit_propose", args=[unit.pk]), "post", "assigned"),
        "units_propose": (reverse("review:translation_units_propose", args=[project_database.pk]), "post", "assigned"),
        "values_keep": (reverse("review:translation_values_keep", args=[project_database.pk]), "post", "assigned"),
        "interaction": (reverse("review:translation_interaction", args=[interaction.pk]), "get", "assigned_or_review"),
        "interaction_save": (reverse("review:translation_interaction_save", args=[interaction.pk]), "post", "assigned"),
        "sql_correct": (reverse("review:translation_sql_correct", args=[interaction.pk]), "post", "assigned"),
        "interaction_review": (
            reverse("review:translation_interaction_review", args=[interaction.pk]),
            "post",
            "review",
        ),
        "build": (reverse("review:translation_build", args=[build.pk]), "get", "admin"),
        "build_status": (reverse("review:translation_build_status", args=[build.pk]), "get", "admin"),
        "build_cancel": (reverse("review:translation_build_cancel", args=[build.pk]), "post", "admin"),
        "export": (reverse("review:translation_export", args=[export.pk]), "get", "admin"),
        "export_status": (reverse("review:translation_export_status", args=[export.pk]), "get", "admin"),
        "export_cancel": (reverse("review:translation_export_cancel", args=[export.pk]), "post", "admin"),
        "export_download": (reverse("review:translation_export_download", args=[export.pk]), "get", "admin"),
    }


ALLOWED = {
    # rule: the people (of the fixture) it lets through
    "work": {"admin", "translator", "reviewer", "outsider"},
    "sees": {"admin", "translator", "reviewer"},
    "assigned": {"admin", "translator"},
    "assigned_or_review": {"admin", "translator", "reviewer"},
    "review": {"admin", "reviewer"},
    "admin": {"admin"},
}


def test_every_url_checks_the_role(project, people):
    from django.test import Client

    urls = _urls(project)
    # One client per person, signed in once (anonymous: none); the worker is refused everything.
    clients = {"anonymous": Client(), "worker": Client()}
    clients["worker"].force_login(_person("tr-worker", "worker"))
    for who, person in people.items():
        clients[who] = Client()
        clients[who].force_login(person)
    # The assignment posted keeps the translator assigned, so the URLs after it still see them assigned.
    assigned = {f"db{project.databases.get().pk}-translators": [people["translator"].pk]}
    for name, (url, method, rule) in urls.items():
        data = assigned if name == "assign" else {}
        for who, client in clients.items():
            response = getattr(client, method)(url, data)
            if who == "anonymous":
                assert response.status_code == 302 and "/login" in response.url, (name, who)
            elif who in ALLOWED[rule]:
                assert response.status_code != 403, (name, who, response.status_code)
            else:
                assert response.status_code == 403, (name, who, response.status_code)


def test_the_screens_translate_review_and_show_progress(project, people, client):
    project_database = project.databases.get()
    unit = project_database.units.get(kind="column", table="singer", column="Name")
    other = project_database.units.get(kind="column", table="singer", column="Country")
    client.force_login(people["translator"])
    page = client.get(reverse("review:translation_database", args=[project_database.pk]) + "?kind=column")
    assert page.status_code == 200 and "Song_Name" in page.content.decode()
    client.post(reverse("review:translation_unit_save", args=[unit.pk]), {"text": "姓名", "back": "kind=column"})
    refused = client.post(
        reverse("review:translation_unit_save", args=[other.pk]), {"text": "姓名", "back": "kind=column"}, follow=True
    )
    assert "姓名 is already the name of the column Name of the table singer" in refused.content.decode()
    interaction = project.interactions.order_by("position").get(position=1)
    page = client.get(reverse("review:translation_interaction", args=[interaction.pk])).content.decode()
    assert "SELECT 姓名 FROM singer" in page  # the SQL as it reads on the translated schema
    france = project_database.units.get(kind="value", source="France")
    services.translation_unit_save(person=people["translator"], unit=france, text="法国")
    with_value = project.interactions.get(position=2)
    page = client.get(reverse("review:translation_interaction", args=[with_value.pk])).content.decode()
    assert "=  &#x27;法国&#x27;" in page and "France → 法国" in page  # the value as the question should call it
    form = {f"question-{index}": f"问题{index}" for index in range(len(interaction.turns))}
    client.post(
        reverse("review:translation_interaction_save", args=[interaction.pk]),
        {**form, "final_question": "目标", "submit": "1"},
    )
    interaction.refresh_from_db()
    assert interaction.state == TranslationInteraction.State.SUBMITTED
    client.force_login(people["reviewer"])
    client.post(reverse("review:translation_interaction_review", args=[interaction.pk]), {"decision": "send_back"})
    interaction.refresh_from_db()
    assert interaction.state == TranslationInteraction.State.SUBMITTED  # a send-back needs its note
    client.post(
        reverse("review:translation_interaction_review", args=[interaction.pk]),
        {"decision": "send_back", "note": "再通顺些"},
    )
    interaction.refresh_from_db()
    assert interaction.state == TranslationInteraction.State.SENT_BACK
    client.force_login(people["admin"])
    page = client.get(reverse("review:translation_project", args=[project.pk])).content.decode()
    assert 'data-testid="progress-person-tr-expert"' in page and 'data-testid="progress-person-tr-reviewer"' in page
    assert ">1 / 25<" in page  # one name of 4 tables and 21 columns


@pytest.mark.conformance
def test_the_command_exports_and_says_how_many_gold_queries_pass(project, people, tmp_path):
    from io import StringIO

    from django.core.management import call_command

    _translate_everything(project, people["translator"])
    interaction = project.interactions.order_by("position").first()
    services.translation_interaction_save(
        person=people["translator"],
        interaction=interaction,
        questions=["问"] * len(interaction.turns),
        final_question="问",
        submit=False,
    )
    out = StringIO()
    call_command(
        "translation_export", "--project", str(project.pk), "--all", "--out", str(tmp_path / "r.zip"), stdout=out
    )
    turns = len(interaction.turns)
    assert f"1 interactions, {turns} turns; {turns} of {turns} gold queries return" in out.getvalue()
    assert zipfile.ZipFile(tmp_path / "r.zip").testzip() is None


def test_an_export_is_cancelled_between_steps_or_stopped_by_its_time_bound_and_publishes_nothing(
    project, people, settings, monkeypatch
):
    from review.translation import export as export_module

    empty = translation_export_run(export_id=TranslationExport.objects.create(project=project).pk)
    assert (empty.state, empty.message) == ("failed", "No interaction to export: none is approved yet.")
    _translate_questions(project, people["translator"], people["reviewer"])
    real_build = export_module.build_translated_copy

    def cancelled_meanwhile(*args, **kwargs):
        TranslationExport.objects.filter(project=project).update(cancel_requested_at=timezone.now())
        return real_build(*args, **kwargs)

    monkeypatch.setattr(export_module, "build_translated_copy", cancelled_meanwhile)
    cancelled = translation_export_run(export_id=TranslationExport.objects.create(project=project).pk)
    assert (cancelled.state, cancelled.message, cancelled.file) == (
        "cancelled",
        "Cancelled: nothing was published.",
        "",
    )
    monkeypatch.setattr(export_module, "build_translated_copy", real_build)
    settings.TRANSLATION_EXPORT_MAX_SECONDS = 0
    late = translation_export_run(export_id=TranslationExport.objects.create(project=project).pk)
    assert late.state == "failed" and late.message.startswith("Stopped after 0 s") and not late.file
    assert not list(export_module.exports_dir().iterdir())  # no zip, no work folder left


# ---------------------------------------------------------------------------------------------------------------
# Making a project is a background job (review.translation.build)
# ---------------------------------------------------------------------------------------------------------------


def _imported_release(tmp_path, shared_path) -> str:
    sample = json.loads(shared_path("samples", "sparc_dev_sample.json").read_text(encoding="utf-8"))
    data = tmp_path / "sparc_dev_build.json"
    data.write_text(json.dumps([item for item in sample if item["database_id"] == DB_ID][:2]), encoding="utf-8")
    dataset_import(
        fmt="sparc",
        data_path=data,
        tables_path=shared_path("spider", "tables.json"),
        databases_dir=shared_path("spider", "database"),
    )
    return source.imported_releases()[0].key


def test_the_screen_makes_a_project_as_a_job_reading_files_outside_any_transaction(
    tmp_path, shared_path, people, monkeypatch, client, django_capture_on_commit_callbacks
):
    from django.db import connection

    from review.translation.models import TranslationProjectBuild

    key = _imported_release(tmp_path, shared_path)
    depth = len(connection.atomic_blocks)  # the test's own transaction
    read, reads = services.read_database, []

    def read_outside(database):
        reads.append(len(connection.atomic_blocks) - depth)
        return read(database)

    monkeypatch.setattr(services, "read_database", read_outside)
    client.force_login(people["admin"])
    post = {"name": "Made by a job", "release": key, "db_ids": DB_ID, "split": "dev", "language": "zh-hans"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("review:translation_project_create"), post)
    build = TranslationProjectBuild.objects.get()
    assert response.status_code == 302 and response.url == reverse("review:translation_build", args=[build.pk])
    assert reads == [0]  # the file was read by the job, in no transaction
    assert build.state == "succeeded" and build.project is not None and build.percent == 100
    assert build.project.databases.get().units.filter(kind="table").count() == 4
    assert "interactions" in build.message
    status = client.get(reverse("review:translation_build_status", args=[build.pk])).json()
    assert status["finished"] and status["project_url"] == reverse(
        "review:translation_project", args=[build.project_id]
    )
    page = client.get(reverse("review:translation_build", args=[build.pk]))
    assert page.status_code == 302 and page.url == status["project_url"]
    # A refused request is refused at once, with its reason, and no job is queued.
    refused = client.post(reverse("review:translation_project_create"), {**post, "db_ids": "no_such_db"})
    assert refused.status_code == 400 and TranslationProjectBuild.objects.count() == 1


def test_a_project_build_stops_when_cancelled_or_out_of_time(tmp_path, shared_path, people, settings):
    from review.translation.build import translation_project_build_run
    from review.translation.models import TranslationProject, TranslationProjectBuild

    key = _imported_release(tmp_path, shared_path)
    asked = {"requested_by": people["admin"], "name": "Never made", "release_key": key, "db_ids": [DB_ID]}
    queued = TranslationProjectBuild.objects.create(**asked)
    services.translation_project_build_cancel(admin=people["admin"], build=queued)
    queued.refresh_from_db()
    assert queued.state == "cancelled" and queued.finished
    assert translation_project_build_run(build_id=queued.pk).state == "cancelled"
    with pytest.raises(PermissionDenied):
        services.translation_project_build_cancel(admin=people["translator"], build=queued)
    settings.TRANSLATION_PROJECT_MAX_SECONDS = 0
    late = translation_project_build_run(build_id=TranslationProjectBuild.objects.create(**asked).pk)
    assert late.state == "failed" and "TRANSLATION_PROJECT_MAX_SECONDS" in late.message
    assert not TranslationProject.objects.exists()


@pytest.mark.django_db
def test_a_project_build_asked_in_chinese_writes_its_message_in_chinese():
    """A build's message is worded in the language of the person who asked (docs/i18n.md), whatever the worker's."""
    from django.utils import translation

    from review.translation import build
    from review.translation.models import TranslationProjectBuild

    with translation.override("zh-hans"):
        asked = TranslationProjectBuild.objects.create(
            name="never made", release_key="sparc:none", cancel_requested_at=timezone.now()
        )
    with translation.override("en"):
        assert build.translation_project_build_run(build_id=asked.pk).message == "已取消。"  # "Cancelled."


# ---------------------------------------------------------------------------------------------------------------
# The SQL corrected by hand on the translated schema (TranslationSqlCorrection)
# ---------------------------------------------------------------------------------------------------------------


def test_a_translator_corrects_a_turns_sql_checked_on_the_translated_copy_and_the_export_uses_it(
    project, people, client, django_capture_on_commit_callbacks
):
    from annotation.sql.translate import rewrite_sql
    from review.translation.maps import maps_of
    from review.translation.models import TranslationSqlCorrection, corrected_sql

    _translate_everything(project, people["translator"])
    interaction = project.interactions.order_by("position").first()
    imported = [dict(turn) for turn in interaction.turns]
    maps = maps_of(project.databases.get())
    counted = rewrite_sql("SELECT count(*) FROM singer", maps.names, maps.values).sql
    assert "singer" not in counted  # the table has its translated name
    # On the original's names the query does not run on the translated copy: refused, with why, and nothing kept.
    with pytest.raises(ValidationError, match="does not run on the translated database"):
        services.translation_sql_correct(
            person=people["translator"], interaction=interaction, turn=0, sql="SELECT count(*) FROM singer"
        )
    with pytest.raises(PermissionDenied):
        services.translation_sql_correct(person=people["outsider"], interaction=interaction, turn=0, sql=counted)
    assert not TranslationSqlCorrection.objects.exists()
    client.force_login(people["translator"])
    url = reverse("review:translation_sql_correct", args=[interaction.pk])
    response = client.post(url, {"turn": "0", "sql": counted}, follow=True)
    assert "ran on the translated database (1 row) and is kept" in response.content.decode()
    assert counted in response.content.decode()  # the page shows the correction
    services.translation_sql_correct(person=people["translator"], interaction=interaction, turn=0, sql=counted + " ")
    final = rewrite_sql("SELECT name FROM singer", maps.names, maps.values).sql
    services.translation_sql_correct(person=people["translator"], interaction=interaction, turn=-1, sql=final)
    interaction.refresh_from_db()
    assert interaction.turns == imported  # the imported SQL is never changed
    assert TranslationSqlCorrection.objects.filter(turn=0).count() == 2  # nothing overwritten
    assert corrected_sql(interaction)[0].sql == counted and corrected_sql(interaction)[0].rewritten
    _translate_questions(project, people["translator"], people["reviewer"])
    with pytest.raises(ValidationError, match="with review"):
        services.translation_sql_correct(person=people["translator"], interaction=interaction, turn=0, sql=counted)
    with django_capture_on_commit_callbacks(execute=True):
        export = services.translation_export_start(admin=people["admin"], project=project)
    export.refresh_from_db()
    assert export.state == TranslationExport.State.SUCCEEDED, export.message
    with zipfile.ZipFile(Path(settings.DATA_DIR) / export.file) as archive:
        records = json.loads(archive.read("chase/chase_dev.json"))
    first = next(record for record in records if record["interaction"][0]["question_id"].endswith("t0"))
    assert first["interaction"][0]["query"] == counted and first["final"]["query"] == final
    checked = next(row for row in export.report["gold_check"]["queries"] if row["translated"] == counted)
    assert checked["outcome"] != "same"  # a count of singers is not the first turn's rows: the check says so
