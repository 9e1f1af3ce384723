"""Builders shared by every app's tests (no test imports another test module's helpers)."""

import functools

PASSWORD = "correct-horse-battery"


def worker_named(username: str):
    """A crowd worker who has passed the tutorial (one of many; the root conftest's Alice is the story's worker)."""
    from django.utils import timezone

    person = _person_named(username, "worker")
    person.tutorial_passed_at = timezone.now()
    person.save(update_fields=["tutorial_passed_at"])
    return person


def expert_named(username: str):
    """A SQL expert (one of many; the root conftest's Erin is the story's expert)."""
    return _person_named(username, "expert")


def _person_named(username: str, role: str):
    """The account `username` with `role`, made if it does not exist (a browser session's stories share one platform,
    so a builder may be asked twice for the same person); an account of that name with another role is an error that
    names both, never a silent change of role."""
    from annotation.models import User
    from annotation.people.services import person_create

    existing = User.objects.filter(username=username).first()
    if existing is None:
        return person_create(username=username, role=role, password=PASSWORD)[0]
    _same_role(existing, role)
    return existing


def _same_role(person, role: str) -> None:
    """A story that takes another story's name for another role would fail later and far from here: fail now."""
    if person.role != role:
        raise ValueError(f"{person.username!r} exists as {person.role}, not {role}: give this story a name of its own")


def expert_ready(person, *, channel_name: str | None = None, **socket):
    """The expert has their desk open (a lobby socket, as the desk page keeps) and says they are ready: pairing takes
    only experts with a lobby socket open (dialogs.lobby.lobby_pair). Returns their lobby entry; pairs nobody itself
    (the tests call lobby_pair when they mean to)."""
    from dialogs.lobby import lobby_join
    from dialogs.models import LiveSocket
    from dialogs.presence import socket_opened

    socket_opened(
        channel_name=channel_name or f"desk-of-{person.pk}", person_id=person.pk, kind=LiveSocket.Kind.LOBBY, **socket
    )
    return lobby_join(person=person)


def dorm_dialogue(demo_databases, **fields):
    """A new dialogue between Alice (worker) and Erin (expert) on the dormitory database: (dialogue, alice, erin).
    `fields` are the dialogue's own (model_help=True, status="active")."""
    from django.utils import timezone

    from annotation.models import Goal
    from annotation.people.services import person_create
    from dialogs.models import Dialogue

    alice, _ = person_create(username="alice", role="worker", password="correct-horse-battery")
    alice.tutorial_passed_at = timezone.now()
    alice.save()
    erin, _ = person_create(username="erin", role="expert", password="correct-horse-battery")
    goal = Goal.objects.filter(database__db_id="dorm_demo").first() or _dorm_goal(demo_databases["dorm_demo"])
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin, **fields)
    return dialogue, alice, erin


def _dorm_goal(database):
    from annotation.goals.services import goal_create

    return goal_create(database=database, question="How many students?", sql="SELECT count(*) FROM student")


def cosql_release_file(path, database, db_id=None, copies: int = 1) -> None:
    """A CoSQL state-tracking file on `database` (as the release writes one: no question_id) of `copies` one-turn
    interactions."""
    import json

    from annotation.labels.tokens import utterance_toks
    from annotation.sql.spider import encode_sql, query_toks_no_value

    sql, question = "SELECT count(*) FROM student", "How many students are there?"
    turn = {
        "utterance": question,
        "utterance_toks": utterance_toks(question),
        "query": sql,
        "query_toks_no_value": query_toks_no_value(sql),
        "sql": encode_sql(sql, database.schema, limit_mode="one"),
    }
    item = {"final": {"utterance": question, "query": sql}, "database_id": db_id or database.db_id}
    path.write_text(json.dumps([{**item, "interaction": [turn]}] * copies))


# An operation tree on the dormitory database (docs/goals.md): how many students older than 20 live in Harbor View
# Hall (7 of them). Two filters, two joins: what query-first annotation shows and aligns.
DORM_TREE = {
    "type": "count",
    "tables": ["student", "lives_in", "dorm"],
    "joins": [["student", "student_id", "lives_in", "student_id"], ["lives_in", "dorm_id", "dorm", "dorm_id"]],
    "project": ["student.first_name"],
    "filters": [
        {"column": "dorm.dorm_name", "op": "=", "value": "Harbor View Hall"},
        {"column": "student.age", "op": ">", "value": 20},
    ],
}


def sampled_goals(database, trees=(DORM_TREE,)):
    """Goals saved as `manage.py goals_generate --save` saves them (inactive, without a question, with their tree)
    for these operation trees, in order."""
    from annotation.goals.sampler import SampledGoal, tree_sql
    from annotation.goals.services import goals_save_sampled
    from annotation.models import Goal
    from annotation.sql.hardness import hardness
    from annotation.sql.spider import encode_sql

    sqls = [tree_sql(tree) for tree in trees]
    goals_save_sampled(
        database=database,
        goals=[
            SampledGoal(sql, hardness(encode_sql(sql, database.schema)), tree)
            for sql, tree in zip(sqls, trees, strict=True)
        ],
    )
    by_sql = {goal.sql: goal for goal in Goal.objects.filter(database=database, sql__in=sqls)}
    return [by_sql[sql] for sql in sqls]


def goal_sampled_waiting(capacity: int = 100) -> int:
    """A goal sampled from the dormitory database and waiting for its question (the dorms for more than `capacity`
    students), apart from DORM_TREE's which the query-first stories take: its id."""
    from annotation.models import Database

    tree = {
        "type": "list", "tables": ["dorm"], "joins": [], "project": ["dorm.dorm_name"],
        "filters": [{"column": "dorm.student_capacity", "op": ">", "value": capacity}],
    }  # fmt: skip
    return sampled_goals(Database.objects.get(db_id="dorm_demo"), [tree])[0].pk


def scored_release_evaluation(db_id: str = "dorm_demo") -> tuple[int, int]:
    """A finished SParC export of two interactions on the registered database `db_id` (its zip as a release writes
    it) and a prediction file scored on it, one turn of three wrong: (export id, evaluation id). For pages that show
    an evaluation without walking an export first."""
    import io
    import json
    import zipfile
    from pathlib import Path

    from django.conf import settings

    from annotation.models import Database
    from review.dataset.evaluation_jobs import evaluation_run
    from review.models import Evaluation, Export

    database = Database.objects.get(db_id=db_id)
    gold = [["SELECT count(*) FROM student", "SELECT count(*) FROM dorm"], ["SELECT count(*) FROM student"]]
    interactions = [
        {
            "database_id": db_id,
            "interaction": [{"utterance": "?", "utterance_toks": ["?"], "query": sql} for sql in queries],
            "final": {"utterance": "?", "query": queries[-1]},
        }
        for queries in gold
    ]
    folder = Path(settings.DATA_DIR) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("sparc/dev.json", json.dumps(interactions))
        archive.writestr("sparc/tables.json", json.dumps([database.schema]))
        archive.write(database.path, f"sparc/database/{db_id}/{db_id}.sqlite")
    export = Export.objects.create(formats=["sparc", "gold"], state=Export.State.SUCCEEDED)
    export.file = f"exports/export-{export.pk}-built.zip"
    (Path(settings.DATA_DIR) / export.file).write_bytes(buffer.getvalue())
    export.save(update_fields=["file"])
    predictions = "SELECT count(*) FROM student\nSELECT count(*) FROM student\n\nSELECT count(*) FROM student\n\n"
    evaluation = Evaluation.objects.create(
        export=export, fmt="sparc", split="dev", predictions_name="model.txt", predictions=predictions
    )
    evaluation_run(evaluation_id=evaluation.pk)
    return export.pk, evaluation.pk


def suite_beside(database, *changes: str) -> list:
    """A hand-made test suite for `database`, laid out where `annotation.suites.distil.suite_paths` finds one: one
    generated database per statement in `changes`, each a copy of the original with that statement run on it (say, a
    row whose value sits on a boundary the original never holds). Returns the suite's paths, the original first."""
    import shutil
    import sqlite3

    from django.conf import settings

    from annotation.suites.distil import suite_dir, suite_paths

    folder = suite_dir(settings.DATA_DIR, database.db_id)
    folder.mkdir(parents=True, exist_ok=True)
    for number, statement in enumerate(changes, 1):
        target = folder / f"{number:04d}.sqlite"
        shutil.copyfile(database.path, target)
        connection = sqlite3.connect(target)
        with connection:
            connection.execute(statement)
        connection.close()
    return suite_paths(settings.DATA_DIR, database.db_id)


# A student whose age is not a whole number: `age > 20` and `age >= 21` agree on the demo's dormitory database, whose
# ages are whole, and differ on a suite database holding this row.
HALF_AGE = "UPDATE student SET age = 20.5 WHERE student_id = (SELECT min(student_id) FROM student)"


def control_group_campaign(holdback_percent: int = 30, count: int = 10) -> int:
    """A campaign with `count` ended dialogues of Alice and Erin, drawn into its control group as pairing draws them
    (dialogs.control_group), each with one question answered: in 20 s and more when the model helped (with a draft,
    kept or edited), 45 s and more when it did not. Returns the campaign's id. It has not opened, so it hands out no
    goal; `control_group_campaign_delete` removes it with its dialogues."""

    import secrets
    from datetime import timedelta

    from django.utils import timezone

    from annotation.models import Goal, User
    from dialogs import log
    from dialogs.control_group import slot_held_back
    from dialogs.models import Campaign, Dialogue, Event, EventKind

    now = timezone.now()
    goal = Goal.objects.filter(active=True, database__db_id="dorm_demo").first() or Goal.objects.filter(active=True)[0]
    worker, expert = User.objects.get(username="alice"), User.objects.get(username="erin")
    campaign = Campaign.objects.create(
        name=f"Control group {secrets.token_hex(3)}",
        model_holdback_percent=holdback_percent,
        opens_at=now + timedelta(days=365),
    )
    campaign.databases.set([goal.database])
    run = {"ok": True, "columns": ["n"], "rows": [[1]], "row_count": 1, "truncated": False}
    for slot in range(count):
        helped = not slot_held_back(campaign_id=campaign.pk, percent=holdback_percent, slot=slot)
        dialogue = Dialogue.objects.create(
            database=goal.database, goal=goal, worker=worker, expert=expert, campaign=campaign, status="completed",
            control_slot=slot, model_help=helped, ended_at=now,
        )  # fmt: skip
        answered = (20 if helped else 45) + slot
        events = [
            (EventKind.UTTERANCE, log.utterance_payload(goal.question), 0),
            (EventKind.USER_ACTS, log.user_acts_payload(1, ["INFORM_SQL"]), 2),
        ]
        if helped:
            events.append((EventKind.MODEL_SQL, {"turn": 1, "sql": goal.sql, "model": "test-model"}, 3))
            payload = {**log.sql_run_payload(1, goal.sql, run), "model_draft": {"event": 3, "use": "kept"}}
            if slot % 2:
                payload["model_draft"]["use"] = "edited"
            events.append((EventKind.SQL_RUN, payload, 8))
        else:
            events.append((EventKind.SQL_RUN, log.sql_run_payload(1, goal.sql, run), 30))
        events += [
            (EventKind.RESULT_SHARED, log.result_shared_payload(1, len(events), run), answered - 1),
            (EventKind.RESPONSE, log.response_payload(1, "Here it is.", ["CONFIRM_SQL"], len(events)), answered),
        ]
        for seq, (kind, payload, seconds) in enumerate(events, start=1):
            event = Event.objects.create(dialogue=dialogue, seq=seq, kind=kind, payload=payload, author_role="expert")
            Event.objects.filter(pk=event.pk).update(created_at=now - timedelta(minutes=5) + timedelta(seconds=seconds))
        Dialogue.objects.filter(pk=dialogue.pk).update(last_seq=len(events))
    return campaign.pk


def control_group_campaign_delete(pk: int) -> None:
    """Remove a campaign made by `control_group_campaign`, with its dialogues: other tests count dialogues."""
    from dialogs.models import Campaign, Dialogue

    Dialogue.objects.filter(campaign_id=pk).delete()
    Campaign.objects.filter(pk=pk).delete()


def real_services(more: str = "") -> tuple[str, str]:
    """The run's PostgreSQL and Redis URLs, for a test that starts servers of its own on them; without both, the
    test is skipped with how to run it (`more` says what else it needs them for)."""
    import os

    import pytest

    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url.startswith(
        ("redis://", "unix://")
    ):
        pytest.skip(
            "needs real PostgreSQL and Redis (DATABASE_URL=postgres://..., REDIS_URL=redis://...): run it through "
            f"`tools/test_stack.py with-services -- pytest ...`, as the second pass of `make test` does{more}"
        )
    return database_url, redis_url


def database_rows(database_url: str, query: str, params=()) -> list[tuple]:
    """Run one statement on a PostgreSQL database from outside the platform's processes (autocommit); its rows."""
    import psycopg2

    connection = psycopg2.connect(database_url)
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(query, params)
            return cursor.fetchall() if cursor.description else []
    finally:
        connection.close()


# The browser tests' builders (tests/browser/conftest.py calls them in the platform's command runner): each reaches a
# state the stories under test start from, by the service layer, without the screens that lead there.


@functools.cache
def _password_hash(password: str) -> str:
    """The hash of `password`, made once per process: the platform hashes for real (about half a second of CPU each)
    and the browser tests make some sixty accounts with the same password."""
    from django.contrib.auth.hashers import make_password

    return make_password(password)


def browser_people(worker: str, expert: str, password: str) -> None:
    """A worker and an expert with `password` (either may exist already, as the demo accounts do), and a lobby with
    nobody left waiting or ready by an earlier story. The expert has read the guidelines an earlier story may have
    written (docs/experts.md): the stories' experts take rooms."""
    from annotation.models import User
    from dialogs.onboarding.guidelines import guidelines_confirm, guidelines_current

    for username, role in ((worker, "worker"), (expert, "expert")):
        existing = User.objects.filter(username=username).first()
        if existing is None:
            User.objects.create(username=username, role=role, password=_password_hash(password))
        else:
            _same_role(existing, role)
    if (current := guidelines_current()) is not None:
        guidelines_confirm(person=User.objects.get(username=expert), version_id=current.pk)
    browser_lobby_cleared()


def browser_lobby_cleared() -> None:
    """Nobody left waiting or ready in the lobby by an earlier story (the browser session shares one platform)."""
    from dialogs.models import LobbyEntry

    LobbyEntry.objects.filter(outcome=LobbyEntry.Outcome.WAITING).update(outcome=LobbyEntry.Outcome.LEFT)


def browser_tutorial_passed(username: str) -> None:
    """`username` (a worker) has passed the tutorial: their home is the lobby, which queues them at once."""
    from django.utils import timezone

    from annotation.models import User

    User.objects.filter(username=username, tutorial_passed_at=None).update(tutorial_passed_at=timezone.now())


def session_cookie(username: str) -> tuple[str, str]:
    """(name, value) of a session cookie that signs `username` in, as the sign-in form's would."""
    from django.conf import settings
    from django.test import Client

    from annotation.models import User

    client = Client()
    client.force_login(User.objects.get(username=username), backend="django.contrib.auth.backends.ModelBackend")
    return settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value


def browser_pair(worker: str, expert: str) -> int:
    """Pair `worker` (the tutorial passed now if it was not) with `expert` (ready, with a desk socket for the moment
    pairing needs one) through the lobby's own pairing; returns the new dialogue's id."""
    from django.utils import timezone

    from annotation.models import User
    from dialogs.lobby import lobby_join, lobby_leave, lobby_pair
    from dialogs.models import LobbyEntry
    from dialogs.presence import socket_closed

    person = User.objects.get(username=worker)
    if person.tutorial_passed_at is None:
        person.tutorial_passed_at = timezone.now()
        person.save(update_fields=["tutorial_passed_at"])
    wizard = User.objects.get(username=expert)
    # The browser stories share one platform: an expert or a worker an earlier story left waiting (a desk tab whose
    # socket's close the server has not handled yet on a loaded machine) would be paired instead of these two.
    waiting = LobbyEntry.objects.filter(outcome=LobbyEntry.Outcome.WAITING).exclude(person__in=[person, wizard])
    for entry in waiting.select_related("person"):
        lobby_leave(person=entry.person)
    desk = f"browser-desk-{wizard.pk}"
    expert_ready(wizard, channel_name=desk)
    lobby_join(person=person)
    made = lobby_pair()
    socket_closed(channel_name=desk)  # the expert stays ready, as the switch on the desk leaves them
    (dialogue,) = [d for d in made if d.worker_id == person.pk and d.expert_id == wizard.pk]
    return dialogue.pk


def database_slow_to_read(db_id: str = "slow_reads") -> int:
    """A registered database (its id returned) whose one table says at once that it has rows, while any query that
    reads it through runs into the sandbox's time limit: the table is a view counting to 10^8 before its second row.
    Every goal the sampler tries on it costs a whole time limit and gives nothing, so a goal-generation run on it goes
    on until its time bound or a cancel, as on a big file. Made once; asked again, it gives the same database."""
    import sqlite3
    import tempfile
    from pathlib import Path

    from annotation.databases.services import database_register
    from annotation.models import Database

    existing = Database.objects.filter(db_id=db_id).first()
    if existing is not None:
        return existing.pk
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{db_id}.sqlite"
        with sqlite3.connect(path) as connection:
            connection.executescript(
                """
                CREATE TABLE note (id INTEGER PRIMARY KEY);
                CREATE VIEW reading AS
                  WITH RECURSIVE tick(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM tick WHERE n < 100000000)
                  SELECT n AS id, n % 7 AS level FROM tick WHERE n = 1 OR n > 99999990;
                """
            )
        connection.close()
        database = database_register(db_id=db_id, source_path=path)
    # A view is not a table of the file's own schema: the database is registered as the view alone.
    names = [[-1, "*"], [0, "id"], [0, "level"]]
    database.schema = {
        "db_id": db_id,
        "table_names_original": ["reading"],
        "table_names": ["reading"],
        "column_names_original": names,
        "column_names": names,
        "column_types": ["text", "number", "number"],
        "primary_keys": [],
        "foreign_keys": [],
    }
    database.save(update_fields=["schema"])
    return database.pk


def _suite_left_unbuilt(database) -> None:
    """Keep the browser session's server from building a test suite for a large database: recorded as failed for its
    current file and goals, a suite is not built again on its own (annotation.suites.builds.test_suites_stale)."""
    from annotation.models import DatabaseTestSuite
    from annotation.suites.builds import suite_fingerprint

    DatabaseTestSuite.objects.update_or_create(
        database=database,
        defaults={
            "state": DatabaseTestSuite.State.FAILED,
            "fingerprint": suite_fingerprint(database),
            "message": "not built for the browser stories",
        },
    )


def database_with_a_huge_cell(db_id: str = "archive") -> str:
    """A registered database whose table `scan` holds, in its first row, a 40 MB text (`body`, "ab" repeated) and a
    40 MB BLOB (`image`); its second row is small. Made once; asked again, it gives the same database."""
    import sqlite3
    import tempfile
    from pathlib import Path

    from annotation.databases.services import database_register
    from annotation.models import Database

    if not Database.objects.filter(db_id=db_id).exists():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{db_id}.sqlite"
            with sqlite3.connect(path) as connection:
                connection.execute("CREATE TABLE scan (id INTEGER PRIMARY KEY, title TEXT, body TEXT, image BLOB)")
                connection.execute(
                    "INSERT INTO scan VALUES (1, 'letter', ?, ?), (2, 'note', 'short', NULL)",
                    ("ab" * (20 * 1024 * 1024), b"\x89PNG" * (10 * 1024 * 1024)),
                )
            connection.close()
            _suite_left_unbuilt(database_register(db_id=db_id, source_path=path))
    return db_id


def database_of_many_tables(db_id: str = "warehouse", count: int = 2000) -> str:
    """A registered database of `count` tables TBL_0000, TBL_0001, ... (identifier-like names, each a check; no keys,
    so every table but the first is reached by no join), two rows each, its file read. Made once."""
    import sqlite3
    import tempfile
    from pathlib import Path

    from annotation.databases.services import database_register
    from annotation.models import Database

    if not Database.objects.filter(db_id=db_id).exists():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{db_id}.sqlite"
            with sqlite3.connect(path) as connection:
                connection.executescript(
                    "".join(
                        f"CREATE TABLE TBL_{n:04d} (id INTEGER PRIMARY KEY, item_name TEXT, QTY INTEGER);"
                        f"INSERT INTO TBL_{n:04d} VALUES (1, 'first {n}', 3), (2, 'second {n}', 4);"
                        for n in range(count)
                    )
                )
            connection.close()
            _suite_left_unbuilt(database_register(db_id=db_id, source_path=path))
    return db_id


def reviewable_dialogue(db_id: str, questions: list) -> int:
    """An ended dialogue on the registered database `db_id`, waiting in the first review pass: Wendy asks each
    question of `questions` ((utterance, SQL) pairs) and Eddie answers it with that SQL, through the rooms' own
    protocol service; then Wendy ends it and Eddie scores it. Returns the dialogue's id."""
    import itertools

    from annotation.models import Database, Goal
    from dialogs.models import Dialogue
    from dialogs.room import dialogue_post
    from review.passes.services import review_sync

    worker, expert = worker_named("wendy"), expert_named("eddie")
    database = Database.objects.get(db_id=db_id)
    goal = Goal.objects.filter(database=database).first()
    dialogue = Dialogue.objects.create(database=database, goal=goal, worker=worker, expert=expert)
    ids = itertools.count(1)

    def send(person, **message):
        return dialogue_post(dialogue=dialogue, person=person, message={"id": f"b{next(ids)}", **message})[0][0]

    for utterance, sql in questions:
        turn = send(worker, type="utterance", text=utterance).seq
        send(expert, type="user_acts", turn=turn, acts=["INFORM_SQL"])
        run = send(expert, type="sql_run", turn=turn, sql=sql)
        send(expert, type="share_result", turn=turn, run=run.seq)
        send(expert, type="response", turn=turn, text="Here they are.", acts=["CONFIRM_SQL"])
    send(worker, type="end")
    send(expert, type="score", score=5, comment="fine")
    review_sync()
    return dialogue.pk


# A small database with Chinese table and column names and values (the story of a dialogue in Chinese).
CITIES_ZH = (
    "CREATE TABLE 城市 (编号 INTEGER PRIMARY KEY, 名称 TEXT NOT NULL, 省份 TEXT NOT NULL, 人口 INTEGER NOT NULL)",
    "INSERT INTO 城市 VALUES (1, '广州', '广东', 1882), (2, '深圳', '广东', 1779), (3, '杭州', '浙江', 1252),"
    " (4, '南京', '江苏', 955), (5, '成都', '四川', 2140)",
)


def chinese_dialogue(worker: str, expert: str, reviewer: str, password: str) -> int:
    """A worker, an expert and a reviewer whose accounts say zh-hans, and a new room of the first two on `cities_zh`
    (registered through the platform's own registration, from a file made here) in which two questions have been
    asked and answered in Chinese through the rooms' protocol service: the third, the end and the score are the
    story's. Returns the dialogue's id."""
    import itertools
    import sqlite3
    import tempfile
    from pathlib import Path

    from annotation.databases.services import database_register
    from annotation.models import Database, Goal, User
    from dialogs.models import Dialogue
    from dialogs.room import dialogue_post

    browser_people(worker, expert, password)
    if not User.objects.filter(username=reviewer).exists():
        User.objects.create(username=reviewer, role="reviewer", password=_password_hash(password))
    _same_role(User.objects.get(username=reviewer), "reviewer")
    User.objects.filter(username__in=[worker, expert, reviewer]).update(language="zh-hans")
    browser_tutorial_passed(worker)
    database = Database.objects.filter(db_id="cities_zh").first()
    if database is None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "cities_zh.sqlite"
            with sqlite3.connect(path) as connection:
                for statement in CITIES_ZH:
                    connection.execute(statement)
            connection.close()
            database = database_register(db_id="cities_zh", source_path=path)
    goal, _ = Goal.objects.get_or_create(
        database=database,
        question="广东省人口最多的城市是哪个？",
        sql="SELECT 名称 FROM 城市 WHERE 省份 = '广东' ORDER BY 人口 DESC LIMIT 1",
        defaults={"hardness": "medium"},
    )
    people = User.objects.in_bulk([worker, expert], field_name="username")
    dialogue = Dialogue.objects.create(database=database, goal=goal, worker=people[worker], expert=people[expert])
    ids = itertools.count(1)

    def send(person, **message):
        return dialogue_post(dialogue=dialogue, person=person, message={"id": f"zh{next(ids)}", **message})[0][0]

    for question, sql, answer in (
        ("一共有几个城市？", "SELECT count(*) FROM 城市", "一共有 5 个城市。"),
        ("广东有哪些城市？", "SELECT 名称 FROM 城市 WHERE 省份 = '广东'", "广东有广州和深圳。"),
    ):
        turn = send(people[worker], type="utterance", text=question).seq
        send(people[expert], type="user_acts", turn=turn, acts=["INFORM_SQL"])
        run = send(people[expert], type="sql_run", turn=turn, sql=sql)
        send(people[expert], type="share_result", turn=turn, run=run.seq)
        send(people[expert], type="response", turn=turn, text=answer, acts=["CONFIRM_SQL"])
    return dialogue.pk


def review_finished(dialogue_id: int, reviewer: str, password: str) -> str:
    """Take `dialogue_id` through its remaining review passes as `reviewer` (made if missing): claimed and approved
    through final validation by the services, so that a story which reviewed one pass on its screens leaves no
    dialogue waiting in the shared platform's queues (the review story claims the next one of pass 2). Returns the
    dialogue's review stage."""
    from django.conf import settings

    from annotation.models import User
    from dialogs.models import Dialogue
    from review.passes.services import review_claim, review_decide

    if not User.objects.filter(username=reviewer).exists():
        User.objects.create(username=reviewer, role="reviewer", password=_password_hash(password))
    person = User.objects.get(username=reviewer)
    _same_role(person, "reviewer")
    dialogue = Dialogue.objects.get(pk=dialogue_id)
    for _ in range(settings.REVIEW_PASSES):
        review = review_claim(reviewer=person, dialogue=dialogue)
        review = review_decide(reviewer=person, dialogue=dialogue, approve=True)
        if review.stage != "pending":  # approved, or failed final validation: no pass left to take
            break
    return review.stage
