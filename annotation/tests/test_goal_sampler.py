"""Goals sampled from a database's schema and data (annotation.goals.sampler, manage.py goals_generate): each runs,
returns rows and encodes, the coverage control reaches what a goal set lacks, and bad input is refused clearly."""

import json
import random
import re
from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from annotation.goals.sampler import GoalSampler, coverage
from annotation.models import Goal
from annotation.sql.hardness import HARDNESS_LEVELS, hardness
from annotation.sql.sandbox import execute
from annotation.sql.spider import encode_sql

SAMPLE_DATABASES = (
    "concert_singer",
    "pets_1",
    "car_1",
    "flight_2",
    "world_1",
    "dog_kennels",
    "student_transcripts_tracking",
)


def generate(*args):
    out, err = StringIO(), StringIO()
    call_command("goals_generate", *args, stdout=out, stderr=err)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.django_db
def test_every_generated_goal_runs_returns_rows_and_encodes_at_its_level(demo_databases):
    database = demo_databases["dorm_demo"]
    goals = generate("--database", "dorm_demo", "--count", "12", "--seed", "3")
    assert len(goals) == 12
    assert len({goal["sql"] for goal in goals}) == 12
    for goal in goals:
        result = execute(database.path, goal["sql"])
        assert result.ok and result.rows, goal["sql"]
        assert hardness(encode_sql(goal["sql"], database.schema)) == goal["hardness"]
        assert goal["tree"]["tables"], goal


@pytest.mark.django_db
def test_the_same_seed_gives_the_same_goals_and_hardness_limits_the_levels(demo_databases, tmp_path):
    first = generate("--database", "dorm_demo", "--count", "6", "--seed", "9")
    again = generate("--database", "dorm_demo", "--count", "6", "--seed", "9")
    assert first == again
    out = tmp_path / "goals.jsonl"
    call_command(
        "goals_generate", "--database", "dorm_demo", "--count", "5", "--hardness", "easy,medium", "--out", str(out)
    )
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert written and {goal["hardness"] for goal in written} <= {"easy", "medium"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--database", "nowhere", "--count", "3"], "no registered database"),
        (["--database", "dorm_demo", "--count", "0"], "Ask for 1 to 500 goals"),
        (
            ["--database", "dorm_demo", "--count", "3", "--hardness", "trivial"],
            "Hardness levels are easy, medium, hard, extra; not trivial",
        ),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(demo_databases, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("goals_generate", *args, stdout=StringIO(), stderr=StringIO())


@pytest.mark.django_db
def test_the_sampler_aims_at_the_tables_the_goal_set_uses_least(demo_databases):
    database = demo_databases["dorm_demo"]
    schema = database.schema
    tables = [name for name in schema["table_names_original"] if name.lower() != "sqlite_sequence"]
    # A goal set that reads only the first table: the first goals drawn go elsewhere.
    existing = [f"SELECT count(*) FROM {tables[0]}"] * 5
    sampler = GoalSampler(schema, database.path, random.Random(1), existing=existing)
    goals = sampler.sample(len(tables) - 1)
    anchors = Counter(goal.tree["tables"][0] for goal in goals)
    assert tables[0] not in anchors, anchors


@pytest.mark.conformance
@pytest.mark.django_db
def test_generated_goals_cover_the_public_databases_about_as_much_as_their_public_goals(shared_path):
    """On the public Spider databases of the samples: as many generated goals as the public sample has different
    queries for each (it holds each twice, under two phrasings), all running, returning rows and encoding; their
    coverage of tables and columns against the public goals'."""
    entries = {entry["db_id"]: entry for entry in json.loads(shared_path("spider", "tables.json").read_text())}
    public = json.loads(shared_path("samples", "spider_dev_sample.json").read_text())
    report = []
    for db_id in SAMPLE_DATABASES:
        schema, path = entries[db_id], shared_path("spider", "database", db_id, f"{db_id}.sqlite")
        public_sqls = [item["query"] for item in public if item["db_id"] == db_id]
        asked = len(set(public_sqls))
        goals = GoalSampler(schema, path, random.Random(2026)).sample(asked)
        # Nearly as many as asked: flight_2's three tables (every airport in one country, its names nearly unique)
        # give 38 of 40 different goals the rules keep.
        assert asked >= len(goals) >= 0.75 * asked, (db_id, len(goals), asked)
        for goal in goals:
            result = execute(path, goal.sql)
            assert result.ok and result.rows, (db_id, goal.sql)
            assert hardness(encode_sql(goal.sql, schema)) == goal.hardness
        ours, theirs = coverage([goal.sql for goal in goals], schema), coverage(public_sqls, schema)
        report.append((db_id, len(goals), theirs, ours, Counter(goal.hardness for goal in goals)))
        assert ours["tables"] >= theirs["tables"], (db_id, ours, theirs)
        # Nearly as many columns: id numbers, phones and e-mails are shown only for rows a name picks and are in no
        # condition or group of the rules' (docs/goals.md); flight_2's countries hold one value each, which no goal
        # shows but in a look-up (11 of 13 columns against 12).
        assert ours["columns"] >= theirs["columns"] - 0.1, (db_id, ours, theirs)
    for db_id, n, theirs, ours, mix in report:
        levels = " ".join(f"{level} {mix[level]}" for level in HARDNESS_LEVELS)
        print(
            f"{db_id}: {n} goals; tables {theirs['tables']:.0%} public -> {ours['tables']:.0%} generated, "
            f"columns {theirs['columns']:.0%} -> {ours['columns']:.0%}; {levels}"
        )


def _goals_saved(*, seed: int) -> StringIO:
    """goals_generate --save of four goals on dorm_demo; what it wrote to stderr."""
    err = StringIO()
    call_command(
        "goals_generate", "--database", "dorm_demo", "--count", "4", "--seed", str(seed), "--save",
        stdout=StringIO(), stderr=err,
    )  # fmt: skip
    return err


@pytest.mark.django_db
def test_saved_goals_wait_for_a_person_to_write_the_question_and_are_offered_to_nobody_until_then(
    demo_databases, client, ada
):
    database = demo_databases["dorm_demo"]
    before = set(Goal.objects.filter(database=database).values_list("id", flat=True))
    err = _goals_saved(seed=5)
    saved = Goal.objects.filter(database=database).exclude(id__in=before)
    assert saved.count() == 4 and "saved 4 goals" in err.getvalue()
    assert all(goal.source == Goal.Source.GENERATED and not goal.active and goal.tree for goal in saved)
    assert not Goal.objects.filter(active=True, question="").exists()
    # Another run aims elsewhere (the saved goals count as covered) and never saves an SQL the database has. Seeded:
    # unseeded, a draw now and then found fewer than four new goals on this small database (a flaky count below).
    _goals_saved(seed=6)
    sqls = list(Goal.objects.filter(database=database).values_list("sql", flat=True))
    assert len(sqls) == len(set(sqls)) > len(before) + 4

    client.force_login(ada)
    listed = client.get(reverse("annotation:goal_list") + "?waiting=1").content.decode()
    assert listed.count('data-testid="waiting"') == Goal.objects.filter(question="").count() >= 8
    goal = saved.first()
    page = client.get(reverse("annotation:goal_edit", args=[goal.id])).content.decode()
    assert 'data-testid="goal-waiting"' in page and "a starting point" in page
    refused = client.post(
        reverse("annotation:goal_edit", args=[goal.id]), {"question": "", "sql": goal.sql, "active": "on"}
    )
    assert refused.status_code == 200
    goal.refresh_from_db()
    assert not goal.active
    client.post(
        reverse("annotation:goal_edit", args=[goal.id]),
        {"question": "Which students live there?", "sql": goal.sql, "active": "on"},
    )
    goal.refresh_from_db()
    assert goal.active and goal.question == "Which students live there?" and not goal.waiting_for_question


@pytest.mark.django_db
def test_the_command_says_what_the_rules_refused_and_why(demo_databases):
    err = StringIO()
    call_command(
        "goals_generate", "--database", "dorm_demo", "--count", "12", "--seed", "3", stdout=StringIO(), stderr=err
    )
    said = err.getvalue()
    assert "refused by the rules: " in said
    # Each count with its reason, in words (annotation.goals.rules.RULES).
    assert re.search(r"refused by the rules: \d+ [a-z]", said), said


def test_a_lone_empty_text_is_no_answer():
    from annotation.goals.sampler import _has_answer

    assert not _has_answer([[""]]) and not _has_answer([["  "]]) and not _has_answer([[None]])
    assert not _has_answer([[0]]) and not _has_answer([])
    assert _has_answer([["Purchase"]]) and _has_answer([[7]]) and _has_answer([[""], ["x"]])
