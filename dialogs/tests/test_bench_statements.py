"""bench/chat_load.py --statements: PostgreSQL started with pg_stat_statements, its counts zeroed and read back per
statement; and the test tooling refuses a server setting it could not pass on safely."""

import glob
import tempfile

import psycopg2
import pytest

from bench import chat_load
from tools.test_stack import PostgresCluster, create_database, postgres_cluster


def test_a_setting_a_shell_would_read_is_refused_before_anything_is_made():
    before = set(glob.glob(f"{tempfile.gettempdir()}/wozsql-pg-*"))
    for settings in ({"shared_preload_libraries": "x; touch /tmp/owned"}, {"a b": "1"}, {"work_mem": "$(id)"}):
        with pytest.raises(ValueError, match="only letters, digits"):
            PostgresCluster(settings=settings)
    assert set(glob.glob(f"{tempfile.gettempdir()}/wozsql-pg-*")) == before


def test_statements_are_counted_from_the_reset_on(capsys):
    with postgres_cluster(settings={"shared_preload_libraries": "pg_stat_statements"}) as cluster:
        create_database(cluster.url)
        chat_load.create_extension(cluster.url, "pg_stat_statements")
        target = chat_load.WozsqlTarget([], {"DATABASE_URL": cluster.url}, {}, statements=True)
        connection = psycopg2.connect(cluster.url)
        connection.autocommit = True
        try:
            with connection.cursor() as cursor:
                cursor.execute("CREATE TABLE numbers (n integer)")
                cursor.execute("INSERT INTO numbers VALUES (1)")  # before the reset: not counted
                assert target.statements_reset()
                for value in (2, 3, 4):
                    cursor.execute("INSERT INTO numbers VALUES (%s)", [value])
                cursor.execute("SELECT count(*) FROM numbers")
        finally:
            connection.close()
        rows = target.statements()
    counted = {query: calls for calls, _, query in rows}
    # The values are parameters ($1) in the counts: three inserts are one statement called three times.
    assert counted == {"INSERT INTO numbers VALUES ($1)": 3, "SELECT count(*) FROM numbers": 1}
    assert rows[0][2] == "INSERT INTO numbers VALUES ($1)"  # the most frequent first
    chat_load.print_statements(rows, frames=2)
    printed = capsys.readouterr().out
    assert "4 statements, 2.00 per frame in" in printed
    assert " 1.50/frame" in printed and "INSERT INTO numbers VALUES ($1)" in printed


def test_without_the_counts_nothing_is_reset():
    target = chat_load.WozsqlTarget([], {"DATABASE_URL": "postgres://nowhere/none"}, {}, statements=False)
    assert target.statements_reset() is False


def test_the_pairing_phase_is_counted_per_pair(capsys):
    rows = [(6, 1.5, "BEGIN"), (2, 0.5, "SELECT 1")]
    chat_load.print_statements(rows, frames=2, shown=1, per="pair", phase="until every room was open")
    printed = capsys.readouterr().out
    assert "PostgreSQL until every room was open: 8 statements, 4.00 per pair, " in printed
    assert " 3.00/pair" in printed and "BEGIN" in printed
    assert "SELECT 1" not in printed  # only the `shown` most frequent


def test_every_lobby_frame_is_counted_and_a_worker_settles_on_their_first_place():
    burst = chat_load._Burst(rooms=2, tells_ready=True)
    expert, worker = burst.frames("expert", 0), burst.frames("worker", 0)
    expert.append({"type": "status", "ready": True})
    worker.append({"type": "status", "position": None})  # no place yet: not settled
    assert 0 not in burst.settled
    worker.append({"type": "status", "position": 3})
    settled = burst.settled[0]
    worker.append({"type": "paired", "dialogue": 7})
    assert burst.settled[0] == settled  # the first moment counts
    assert burst.lobby_frames == 4
