"""Scoring prediction files on a release (review.dataset.evaluation, manage.py evaluate_predictions).

The damaged SParC file's figures were worked out by hand below, turn by turn, and agree with the public evaluator
(taoyds/test-suite-sql-eval) run once by hand on the same files, as docs/evaluation.md records.
"""

import io
import json
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.template.loader import render_to_string
from django.urls import reverse

from review.dataset.evaluation import METRICS, predictions_read, release_evaluate, release_load, report_table
from review.models import Evaluation

# ---------------------------------------------------------------------------------------------------------------
# A tiny release of our own: one database, two interactions
# ---------------------------------------------------------------------------------------------------------------

SHOP = {
    "db_id": "shop",
    "table_names_original": ["item"],
    "table_names": ["item"],
    "column_names_original": [[-1, "*"], [0, "id"], [0, "name"], [0, "price"]],
    "column_names": [[-1, "*"], [0, "id"], [0, "name"], [0, "price"]],
    "column_types": ["text", "number", "text", "number"],
    "primary_keys": [1],
    "foreign_keys": [],
}
SHOP_GOLD = [["SELECT name FROM item", "SELECT name FROM item WHERE price > 5"], ["SELECT count(*) FROM item"]]


def _turn(query: str) -> dict:
    return {"utterance": "?", "utterance_toks": ["?"], "query": query}


def shop_release(folder: Path, *, suite_rows: list[tuple] | None = None) -> Path:
    """A SParC-layout release of the shop database; `suite_rows` adds a suite database with those extra items."""
    database = folder / "sparc" / "database" / "shop"
    database.mkdir(parents=True)
    with sqlite3.connect(database / "shop.sqlite") as connection:
        connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price INTEGER)")
        connection.executemany("INSERT INTO item VALUES (?, ?, ?)", [(1, "pen", 2), (2, "book", 12), (3, "bag", 30)])
    connection.close()
    if suite_rows is not None:
        shutil.copyfile(database / "shop.sqlite", database / "shop_suite_1.sqlite")
        with sqlite3.connect(database / "shop_suite_1.sqlite") as connection:
            connection.executemany("INSERT INTO item VALUES (?, ?, ?)", suite_rows)
        connection.close()
    interactions = [
        {"database_id": "shop", "interaction": [_turn(q) for q in queries], "final": {"utterance": "?", "query": "?"}}
        for queries in SHOP_GOLD
    ]
    (folder / "sparc" / "dev.json").write_text(json.dumps(interactions))
    (folder / "sparc" / "tables.json").write_text(json.dumps([SHOP]))
    return folder


def rates(row: dict) -> dict:
    """A row's label, count and rates, without the per-metric counts and cells the pages read."""
    return {key: value for key, value in row.items() if key not in ("cells", "measured")}


def test_a_prediction_that_the_suite_tells_apart_scores_on_execution_only(tmp_path):
    # `price >= 6` returns what `price > 5` does on the original (prices 2, 12, 30), and not on the suite, which holds
    # an item priced 5.5. Exact match compares operators: wrong. So turn 2 is right on execution only; turns 1 and
    # 3 are the gold. Question level: exact 2/3, execution 3/3, test suite 2/3; interactions: 1/2, 2/2, 1/2.
    release = shop_release(tmp_path, suite_rows=[(4, "cup", 5.5)])
    predictions = b"SELECT name FROM item\nSELECT name FROM item WHERE price >= 6\n\nSELECT count(*) FROM item\n\n"
    report = release_evaluate(release, predictions)
    assert report["databases"] == {"shop": 2}
    assert report["question"]["measured"] == {"exact": 3, "execution": 3, "test_suite": 3}
    assert rates(report["question"]) == {
        "label": "all questions",
        "count": 3,
        "exact": 2 / 3,
        "execution": 1.0,
        "test_suite": 2 / 3,
    }
    assert rates(report["interaction"]) == {
        "label": "all interactions",
        "count": 2,
        "exact": 0.5,
        "execution": 1.0,
        "test_suite": 0.5,
    }
    turns = {row["label"]: row for row in report["strata"][0]["rows"]}
    assert rates(turns["turn 1"]) == {"label": "turn 1", "count": 2, "exact": 1.0, "execution": 1.0, "test_suite": 1.0}
    assert rates(turns["turn 2"]) == {"label": "turn 2", "count": 1, "exact": 0.0, "execution": 1.0, "test_suite": 0.0}


def test_a_prediction_that_does_not_run_or_parse_is_wrong_and_nothing_else_is_touched(tmp_path):
    release = shop_release(tmp_path)
    report = release_evaluate(release, b"SELECT nme FROM item\nSELECT FROM\n\nSELECT count(*) FROM item\n")
    assert [(t["exact"], t["execution"], t["test_suite"]) for t in report["turns"]] == [
        (False, False, False),
        (False, False, False),
        (True, True, True),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "predictions is empty: it needs one line per gold turn (3)"),
        (b"SELECT 1\n\nSELECT 1\n", "predictions, line 2: interaction 1 has 1 predicted query, the gold has 2 turns"),
        (
            b"SELECT 1\nSELECT 1\nSELECT 1\n\n",
            "predictions, line 3: interaction 1 has 3 predicted queries, the gold has 2 turns",
        ),
        (b"SELECT 1\nSELECT 1\n\n\nSELECT 1\n", "predictions, line 4: a second empty line in a row"),
        (b"\nSELECT 1\nSELECT 1\n\nSELECT 1\n", "predictions, line 1: the file starts with an empty line"),
        (b"SELECT 1\nSELECT 1\n", "predictions ends after 1 interactions (line 2); the gold has 2"),
        (b"SELECT 1\nSELECT 1\n\nSELECT 1\n\nSELECT 1\n", "predictions, line 6: the gold has 2 interactions"),
        (b"SELECT 1\n\xff\n\nSELECT 1\n", "predictions is not UTF-8"),
    ],
)
def test_a_prediction_file_that_does_not_follow_the_gold_is_refused_with_its_line(tmp_path, content, message):
    release = release_load(shop_release(tmp_path))
    with pytest.raises(ValidationError) as refused:
        predictions_read(content, release)
    assert message in refused.value.messages[0]


def test_a_release_file_that_is_not_what_its_name_says_is_refused_with_the_reason(tmp_path):
    release = shop_release(tmp_path)
    (release / "sparc" / "dev.json").write_text(json.dumps([{"database_id": "shop"}]))
    with pytest.raises(
        ValidationError, match="sparc/dev.json is not a sparc file: interaction 1 needs a database_id and turns"
    ):
        release_load(release)
    (release / "sparc" / "dev.json").write_text("[")
    with pytest.raises(ValidationError, match="dev.json"):
        release_load(release)


def test_the_command_prints_the_table_or_json_and_names_the_bad_line(tmp_path):
    release = shop_release(tmp_path)
    good = tmp_path / "good.txt"
    good.write_text("SELECT name FROM item\nSELECT name FROM item WHERE price > 5\n\nSELECT count(*) FROM item\n")
    out = io.StringIO()
    call_command("evaluate_predictions", release=str(release), predictions=str(good), stdout=out)
    assert "all questions                           3                   1.000                   1.000" in out.getvalue()
    out = io.StringIO()
    call_command("evaluate_predictions", release=str(release), predictions=str(good), as_json=True, stdout=out)
    assert json.loads(out.getvalue())["question"]["test_suite"] == 1.0
    bad = tmp_path / "bad.txt"
    bad.write_text("SELECT 1\n\nSELECT 1\n")
    with pytest.raises(CommandError, match="bad.txt, line 2: interaction 1 has 1 predicted query"):
        call_command("evaluate_predictions", release=str(release), predictions=str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("evaluate_predictions", release=str(release), predictions=str(tmp_path / "missing.txt"))
    with pytest.raises(CommandError, match="holds no chase dev file"):
        call_command("evaluate_predictions", release=str(release), predictions=str(good), format="chase")


# ---------------------------------------------------------------------------------------------------------------
# The public samples
# ---------------------------------------------------------------------------------------------------------------

SAMPLES = {
    "sparc": ("sparc_dev_sample.json", "sparc", "sparc/dev.json", "sparc/tables.json"),
    "cosql": (
        "cosql_dev_sample.json",
        "cosql_dataset",
        "cosql_dataset/sql_state_tracking/cosql_dev.json",
        "cosql_dataset/tables.json",
    ),
    "chase": ("chase_dev_sample.json", "chase", "chase/chase_dev.json", "chase/chase_tables.json"),
}


def sample_release(folder: Path, fmt: str, shared_path, *, copy_databases: bool = False) -> list:
    """A release in our layout holding one public sample (its Spider databases linked, or copied to be changed);
    returns the sample's interactions. CHASE's databases are not public: its release has tables only."""
    sample, format_folder, state, tables_file = SAMPLES[fmt]
    data = json.loads(shared_path("samples", sample).read_text(encoding="utf-8"))
    (folder / state).parent.mkdir(parents=True, exist_ok=True)
    (folder / state).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    if fmt == "chase":
        shutil.copyfile(shared_path("samples", "chase_tables_sample.json"), folder / tables_file)
        return data
    spider = {entry["db_id"]: entry for entry in json.loads(shared_path("spider", "tables.json").read_text())}
    used = sorted({item["database_id"] for item in data})
    (folder / tables_file).write_text(json.dumps([spider[db_id] for db_id in used]))
    for db_id in used:
        target = folder / format_folder / "database" / db_id
        target.mkdir(parents=True)
        source = shared_path("spider", "database", db_id, f"{db_id}.sqlite")
        if copy_databases:
            shutil.copyfile(source, target / f"{db_id}.sqlite")
        else:
            (target / f"{db_id}.sqlite").symlink_to(source)
    return data


def gold_lines(data: list) -> bytes:
    return "".join("".join(" ".join(t["query"].split()) + "\n" for t in i["interaction"]) + "\n" for i in data).encode()


@pytest.mark.conformance
@pytest.mark.parametrize("fmt", ["sparc", "cosql", "chase"])
def test_the_gold_scores_one_on_every_metric_and_stratum(tmp_path, shared_path, fmt):
    data = sample_release(tmp_path, fmt, shared_path)
    report = release_evaluate(tmp_path, gold_lines(data), fmt=fmt)
    assert report["questions"] == sum(len(item["interaction"]) for item in data)
    rows = [report["question"], report["interaction"]] + [row for s in report["strata"] for row in s["rows"]]
    executed = fmt != "chase"  # no CHASE database is public: exact match only
    for row in rows:
        assert row["exact"] == 1.0, row
        assert (row["execution"], row["test_suite"]) == ((1.0, 1.0) if executed else (None, None)), row
    names = [stratum["name"] for stratum in report["strata"]]
    assert names == (["turn", "hardness"] + (["contextual_phenomenon", "intent"] if fmt == "chase" else []))
    if fmt == "cosql":
        # One gold query of the CoSQL sample does not run (a stray closing parenthesis): named, and left out.
        assert report["gold_problems"] == [
            "cosql_dataset/sql_state_tracking/cosql_dev.json, interaction 59, turn 2: the gold query fails on "
            'car_1/car_1.sqlite: syntax error near ")"'
        ]
        # ... and the rates say over how many questions they were measured: one fewer for execution.
        overall = report["question"]
        assert overall["measured"] == {
            "exact": overall["count"],
            "execution": overall["count"] - 1,
            "test_suite": overall["count"] - 1,
        }
        assert f"1.000 of {overall['count'] - 1}" in report_table(report).splitlines()[5]
        cells = render_to_string("review/_evaluation_cells.html", {"row": overall})  # the evaluation page's cells
        assert cells.count(f"of {overall['count'] - 1}") == 2 and 'data-metric="exact">1.000</td>' in cells
    else:
        assert report["question"]["measured"]["exact"] == report["question"]["count"]


def damaged_sparc(data: list) -> str:
    """The SParC sample's gold as predictions, with seven turns changed (interaction and turn numbers from 1)."""
    lines = [[" ".join(t["query"].split()) for t in item["interaction"]] for item in data]

    def change(interaction: int, turn: int, old: str, new: str) -> None:
        text = lines[interaction - 1][turn - 1]
        assert old in text, text
        lines[interaction - 1][turn - 1] = text.replace(old, new, 1)

    first = lines[0]
    first[0], first[1] = first[1], first[0]  # A: interaction 1, turns 1 and 2 swapped
    change(3, 2, 'Country = "USA"', 'Country != "USA"')  # B: an operator
    change(32, 1, "SELECT DISTINCT Airline", "SELECT Airline")  # C: a DISTINCT dropped
    change(8, 2, '"UAL"', '"XXX"')  # D: a value
    change(5, 2, "count(*)", "count(uid)")  # E: the same count, another column
    change(7, 2, "FROM FLIGHTS", "FROM FLIGHTS WHERE FlightNo >= 0")  # F: a condition true on the original only
    change(10, 1, "SELECT City , Country FROM AIRPORTS", "SELECT City , Country FROM")  # G: does not parse
    return "".join("".join(line + "\n" for line in turns) + "\n" for turns in lines)


@pytest.mark.conformance
def test_a_damaged_prediction_file_scores_what_was_worked_out_by_hand(tmp_path, shared_path):
    data = sample_release(tmp_path, "sparc", shared_path, copy_databases=True)
    # flight_2's test suite: the original with one more flight, numbered -1 (F's condition is false there).
    suite = tmp_path / "sparc" / "database" / "flight_2" / "flight_2_suite.sqlite"
    shutil.copyfile(tmp_path / "sparc" / "database" / "flight_2" / "flight_2.sqlite", suite)
    with sqlite3.connect(suite) as connection:
        connection.execute("INSERT INTO flights VALUES (1, -1, ' APG', ' ABR')")
    connection.close()
    report = release_evaluate(tmp_path, damaged_sparc(data).encode(), fmt="sparc")
    # The sample: 614 questions in 222 interactions; by position 222, 222, 122, 47 and 1.
    # Per changed turn (exact, execution, test suite):
    #   A  1.1 and 1.2 each ask the other's question: wrong, wrong, wrong (twice);
    #   B  3.2 `!=` returns no airline where `=` returns all twelve: wrong, wrong, wrong;
    #   C  32.1 without DISTINCT: right, right, right (both ignore DISTINCT, as the evaluator does by default);
    #   D  8.2 another value: right (values are not compared), wrong, wrong;
    #   E  5.2 count(uid) counts what count(*) does (uid is the key): wrong (another column), right, right;
    #   F  7.2 `FlightNo >= 0` holds for every flight of the original (lowest 2) but not the suite's -1: wrong,
    #      right, wrong;
    #   G  10.1 does not parse: wrong, wrong, wrong.
    # Wrong: exact A A B E F G = 6, execution A A B D G = 5, test suite A A B D F G = 6.
    assert rates(report["question"]) == {
        "label": "all questions",
        "count": 614,
        "exact": 608 / 614,
        "execution": 609 / 614,
        "test_suite": 608 / 614,
    }
    # Interactions wrong: exact 1 3 5 7 10 = 5; execution 1 3 8 10 = 4; test suite 1 3 7 8 10 = 5.
    assert rates(report["interaction"]) == {
        "label": "all interactions",
        "count": 222,
        "exact": 217 / 222,
        "execution": 218 / 222,
        "test_suite": 217 / 222,
    }
    turns = {row["label"]: row for row in report["strata"][0]["rows"]}
    # Turn 1: A G wrong on every metric. Turn 2: exact A B E F, execution A B D, test suite A B D F.
    assert rates(turns["turn 1"]) == {
        "label": "turn 1",
        "count": 222,
        **dict.fromkeys(["exact", "execution", "test_suite"], 220 / 222),
    }
    assert rates(turns["turn 2"]) == {
        "label": "turn 2",
        "count": 222,
        "exact": 218 / 222,
        "execution": 219 / 222,
        "test_suite": 218 / 222,
    }
    for label, count in (("turn 3", 122), ("turn 4", 47), ("turn > 4", 1)):
        assert rates(turns[label]) == {"label": label, "count": count, **dict.fromkeys(METRICS, 1.0)}
    assert report["databases"]["flight_2"] == 2


# ---------------------------------------------------------------------------------------------------------------
# A release of ours ships each database's test suite, and is scored with it
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_release_ships_each_test_suite_beside_its_database_and_is_scored_on_it(tmp_path, dorm_dialogue, monkeypatch):
    from review.dataset import writer
    from review.dataset.release_check import ReleaseCheckFailed
    from review.dataset.services import dataset_build, export_options_clean

    original = dorm_dialogue.database.path
    suite = tmp_path / "suite" / "dorm_demo_1.sqlite"
    suite.parent.mkdir()
    shutil.copyfile(original, suite)
    with sqlite3.connect(suite) as connection:
        connection.execute("DELETE FROM student WHERE rowid % 2 = 0")
    connection.close()
    monkeypatch.setattr(writer, "suite_paths", lambda data_dir, db_id: [original, suite])
    options = export_options_clean(formats=["sparc", "gold"], split_map={"dorm_demo": "dev"})
    report = dataset_build(options=options, out_dir=tmp_path / "release")
    assert report["release_check"]["ok"]
    folder = tmp_path / "release" / "sparc" / "database" / "dorm_demo"
    assert sorted(path.name for path in folder.glob("*.sqlite")) == ["dorm_demo.sqlite", "dorm_demo_1.sqlite"]
    gold = (tmp_path / "release" / "sparc" / "dev_gold.txt").read_text()
    predictions = "".join(line.split("\t")[0] + "\n" for line in gold.splitlines(keepends=False)).encode()
    scored = release_evaluate(tmp_path / "release", predictions)
    assert scored["databases"] == {"dorm_demo": 2}
    assert (scored["question"]["exact"], scored["question"]["test_suite"]) == (1.0, 1.0)

    # A file in the folder that is no database of the suite fails the release check.
    broken = tmp_path / "suite" / "broken.sqlite"
    broken.write_bytes(b"not a database")
    monkeypatch.setattr(writer, "suite_paths", lambda data_dir, db_id: [original, broken])
    with pytest.raises(ReleaseCheckFailed) as caught:
        dataset_build(options=options, out_dir=tmp_path / "broken-release")
    assert "sparc/database/dorm_demo: broken.sqlite is not a database of its test suite" in "\n".join(
        caught.value.report["release_check"]["disagreements"]
    )


# ---------------------------------------------------------------------------------------------------------------
# The page: upload, the job, the table and charts, the list of past evaluations
# ---------------------------------------------------------------------------------------------------------------


@pytest.fixture
def scored_export(dorm_dialogue, ada, django_capture_on_commit_callbacks):
    """A finished SParC + gold export of the dorm dialogue, and its gold as a prediction file."""
    from review.dataset import selectors
    from review.dataset.services import dataset_export_create

    with django_capture_on_commit_callbacks(execute=True):
        export = dataset_export_create(requested_by=ada, formats=["sparc", "gold"], split_map={"dorm_demo": "dev"})
    export.refresh_from_db()
    with zipfile.ZipFile(selectors.export_file_path(export)) as archive:
        gold = archive.read("sparc/dev_gold.txt").decode()
    predictions = "".join(line.split("\t")[0] + "\n" for line in gold.splitlines())
    return export, predictions


@pytest.mark.django_db
def test_only_admins_reach_the_evaluation_pages(client, alice, erin, rita, ada, scored_export):
    export, _ = scored_export
    url = reverse("review:evaluations", args=[export.pk])
    assert client.get(url).status_code == 302
    for person in (alice, erin, rita):
        client.force_login(person)
        assert client.get(url).status_code == 403
        assert client.post(url).status_code == 403
    client.force_login(ada)
    assert client.get(url).status_code == 200
    assert url in client.get(reverse("review:export_detail", args=[export.pk])).content.decode()


@pytest.mark.django_db
def test_an_uploaded_file_is_scored_by_the_job_and_shown_with_a_chart_per_stratum(
    client, ada, rita, scored_export, django_capture_on_commit_callbacks
):
    export, predictions = scored_export
    client.force_login(ada)
    url = reverse("review:evaluations", args=[export.pk])
    upload = SimpleUploadedFile("model.txt", predictions.encode())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"fmt": "sparc", "split": "dev", "predictions": upload})
    evaluation = Evaluation.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "review:evaluation_detail", args=[evaluation.pk]
    )
    evaluation.refresh_from_db()
    assert evaluation.state == Evaluation.State.SUCCEEDED and evaluation.percent == 100
    assert evaluation.report["question"]["test_suite"] == 1.0
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="evaluation-scores"' in page and "all interactions" in page
    figure_url = reverse("review:evaluation_figure", args=[evaluation.pk, "turn", "svg"])
    assert figure_url in page
    svg = client.get(figure_url)
    assert svg["Content-Type"] == "image/svg+xml" and b"Turn position" in svg.content
    assert client.get(reverse("review:evaluation_figure", args=[evaluation.pk, "nothing", "svg"])).status_code == 404
    status = client.get(reverse("review:evaluation_status", args=[evaluation.pk])).json()
    assert (status["state"], status["percent"]) == ("succeeded", 100)
    listing = client.get(url).content.decode()
    assert "model.txt" in listing and "1.000" in listing
    client.force_login(rita)
    for page_url in (response["Location"], figure_url, reverse("review:evaluation_status", args=[evaluation.pk])):
        assert client.get(page_url).status_code == 403, page_url


@pytest.mark.django_db
def test_a_file_that_does_not_fit_the_gold_is_refused_on_the_form_and_nothing_is_recorded(client, ada, scored_export):
    export, predictions = scored_export
    client.force_login(ada)
    url = reverse("review:evaluations", args=[export.pk])
    upload = SimpleUploadedFile("short.txt", predictions.split("\n\n")[0].encode() + b"\nSELECT 1\n")
    response = client.post(url, {"fmt": "sparc", "split": "dev", "predictions": upload})
    assert response.status_code == 200
    assert "short.txt, line" in response.content.decode()
    assert not Evaluation.objects.exists()


@pytest.mark.django_db
def test_a_release_that_is_gone_fails_the_job_with_its_reason(ada, scored_export, django_capture_on_commit_callbacks):
    from review.dataset import selectors
    from review.dataset.evaluation_jobs import evaluation_create, evaluation_run

    export, predictions = scored_export
    evaluation = evaluation_create(
        export=export,
        requested_by=ada,
        fmt="sparc",
        split="dev",
        predictions_name="model.txt",
        predictions=predictions.encode(),
    )
    selectors.export_file_path(export).unlink()
    evaluation = evaluation_run(evaluation_id=evaluation.pk)
    assert evaluation.state == Evaluation.State.FAILED
    assert evaluation.message == "The export's release is gone: export it again to score on it."


@pytest.mark.django_db
def test_a_cosql_release_is_scored_by_the_user_act_of_each_question(tmp_path, dorm_dialogue):
    from review.dataset.services import dataset_build, export_options_clean

    options = export_options_clean(formats=["cosql", "gold"], split_map={"dorm_demo": "dev"})
    dataset_build(options=options, out_dir=tmp_path / "release")
    gold = (tmp_path / "release" / "cosql_dataset" / "sql_state_tracking" / "dev_gold.txt").read_text()
    lines = [line.split("\t")[0] for line in gold.splitlines()]
    lines[0] = "SELECT count(*) FROM dorm"  # the first question wrong
    report = release_evaluate(tmp_path / "release", ("\n".join(lines) + "\n").encode())
    acts = {row["label"]: (row["count"], row["exact"]) for row in _stratum(report, "user_act")}
    # Three questions, each asked with the act INFORM_SQL (the clarified one by its answer "yes, those"); the first
    # is wrong: 2 of 3.
    assert acts == {"INFORM_SQL": (3, 2 / 3)}


def _stratum(report: dict, name: str) -> list[dict]:
    return next(stratum["rows"] for stratum in report["strata"] if stratum["name"] == name)
