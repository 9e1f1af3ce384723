"""Test suites on the public data: the seven Spider databases the dev samples use, with every sample query (Spider,
SParC and CoSQL turns) as the goal set (docs/test_suites.md, "What a suite is worth").

Two figures: of the pairs (sample query, neighbour) that the original database cannot tell apart, the share a suite
tells apart; and that no pair of truly equivalent queries (a sample query and sqlglot's optimizer normal form of it) is
ever reported different. The builds here are smaller than a real one (TRY candidates instead of the time bound,
TEST_SUITE_MAX_SECONDS) to keep the run short; `bench/suite_build.py` measures the real bound.
"""

import json
import sqlite3
from contextlib import closing

import pytest
import sqlglot
from sqlglot.optimizer import optimize

from annotation.suites.compare import CompareError, sql_compare
from annotation.suites.distil import SuiteBounds, build_suite

pytestmark = pytest.mark.conformance

SAMPLE_DATABASES = (
    "car_1",
    "concert_singer",
    "dog_kennels",
    "flight_2",
    "pets_1",
    "student_transcripts_tracking",
    "world_1",
)
TRY = 60
# Measured with TRY candidates on 2026-11-29 (the figures the test prints; docs/test_suites.md), less three points.
# Generation is seeded, so the figures repeat from run to run on the same data; the margin is for other versions of
# SQLite and sqlglot. Measured: car_1 0.479, concert_singer 0.749, dog_kennels 0.478, flight_2 0.566, pets_1 0.414,
# student_transcripts_tracking 0.416, world_1 0.447 (with the time bound of a real build instead, 60 s, car_1 gets
# 0.544: bench/suite_build.py). Since literals are drawn as written half of the time and set operations share their
# columns' values (28 Nov): car_1 0.502, concert_singer 0.808, dog_kennels 0.508, flight_2 0.685, pets_1 0.428,
# student_transcripts_tracking 0.453, world_1 0.521; the floors are kept.
POWER_FLOOR = {
    "car_1": 0.44,
    "concert_singer": 0.71,
    "dog_kennels": 0.44,
    "flight_2": 0.53,
    "pets_1": 0.38,
    "student_transcripts_tracking": 0.38,
    "world_1": 0.41,
}


def sample_queries(shared_path, db_id: str) -> list[str]:
    """Every gold query of the three samples on `db_id`, in the samples' order."""
    queries = [
        item["query"]
        for item in json.loads(shared_path("samples", "spider_dev_sample.json").read_text())
        if item["db_id"] == db_id
    ]
    for name in ("sparc_dev_sample.json", "cosql_dev_sample.json"):
        for dialogue in json.loads(shared_path("samples", name).read_text()):
            if dialogue["database_id"] == db_id:
                queries.extend(turn["query"] for turn in dialogue["interaction"])
    return queries


def test_the_seven_sample_databases_are_the_ones_the_samples_use(shared_path):
    used = {item["db_id"] for item in json.loads(shared_path("samples", "spider_dev_sample.json").read_text())}
    for name in ("sparc_dev_sample.json", "cosql_dev_sample.json"):
        used |= {dialogue["database_id"] for dialogue in json.loads(shared_path("samples", name).read_text())}
    hosted = {db_id for db_id in used if shared_path("spider", "database", db_id, f"{db_id}.sqlite").is_file()}
    assert hosted == set(SAMPLE_DATABASES)


def _types(path) -> dict:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            table: {row[1]: row[2] or "TEXT" for row in connection.execute(f'PRAGMA table_info("{table}")')}
            for table in tables
        }


@pytest.mark.parametrize("db_id", SAMPLE_DATABASES)
def test_a_suite_tells_apart_what_the_original_cannot_and_never_separates_equivalent_queries(
    db_id, shared_path, tmp_path
):
    original = shared_path("spider", "database", db_id, f"{db_id}.sqlite")
    queries = sample_queries(shared_path, db_id)
    report = build_suite(
        original,
        tmp_path / db_id,
        queries,
        bounds=SuiteBounds(max_candidates=TRY, max_seconds=600),
    )
    figures = report.figures()
    paths = [original, *(tmp_path / db_id / name for name in report.files)]

    rewrites = separated = 0
    for sql in dict.fromkeys(queries):
        try:
            normal = optimize(sqlglot.parse_one(sql, read="sqlite"), schema=_types(original), dialect="sqlite")
            compared = sql_compare(paths, sql, normal.sql(dialect="sqlite"))
        except (sqlglot.errors.SqlglotError, CompareError):
            continue  # the optimizer cannot read it, or the query itself fails on the original
        rewrites += 1
        separated += not compared["equivalent"]
    print(f"\n{db_id}: {json.dumps(figures)}; equivalent rewrites checked {rewrites}, reported different {separated}")

    assert figures["hidden_on_original"] > 0 and figures["told_apart_by_suite"] > 0
    assert figures["power"] >= POWER_FLOOR[db_id]
    assert report.size_bytes <= SuiteBounds().max_bytes
    assert rewrites >= 40  # sqlglot reads most; it takes a double-quoted string (flight_2 has many) for a column
    assert separated == 0
