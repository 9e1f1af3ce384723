"""Comparisons that search for the difference (docs/test_suites.md, "Searching for the difference").

A lab's database on its first day: no goals, no suite, and a database on which `flr_no > 3` and `flr_no >= 3` return
the same rooms. The comparison must find the database that tells them apart, show its fewest rows with each value from
its own column, never call a rewrite different, stay within its time, and hold up no room while it runs.
"""

import sqlite3
import threading
import time
from dataclasses import replace

import pytest

from annotation.sql import sandbox
from annotation.suites.compare import compare_limits, sql_compare
from annotation.suites.distil import build_suite

ROOMS = [(1, "A", 1, "Cold store"), (2, "A", 2, "Prep room"), (3, "B", 4, "Bench 1"), (4, "B", 5, "Bench 2")]
DRUGS = [
    (1, "Aspirin", "1976-06-17", 0.25, 1),
    (2, "Ibuprofen", "1980-01-02", 0.75, 1),
    (3, "Paracetamol", "1999-03-04", 0.4, 2),
    (4, "Codeine", "2001-05-06", 1.2, 3),
    (5, "Insulin", "2011-09-10", 12.0, None),
]


@pytest.fixture
def lab(tmp_path):
    """A lab's inventory: rooms on floors 1, 2, 4 and 5 (none on 3), drugs whose unit prices miss 0.5."""
    path = tmp_path / "lab.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE room (room_id INTEGER PRIMARY KEY, bldg_cd TEXT NOT NULL, flr_no INTEGER, room_nm TEXT);
        CREATE TABLE drug (drug_id INTEGER PRIMARY KEY, drug_nm TEXT NOT NULL, recv_dt DATE, unit_prc REAL,
                           room_id INTEGER REFERENCES room (room_id));
        """
    )
    connection.executemany("INSERT INTO room VALUES (?, ?, ?, ?)", ROOMS)
    connection.executemany("INSERT INTO drug VALUES (?, ?, ?, ?, ?)", DRUGS)
    connection.commit()
    connection.close()
    return path


# A search that stops at its first difference (or at a bound on databases) gets this much: a ceiling that a loaded
# machine may need, never a wait when the work is done.
CEILING = 10.0

BOUNDARIES = [
    ("SELECT room_nm FROM room WHERE flr_no > 3", "SELECT room_nm FROM room WHERE flr_no >= 3", "room", "flr_no", 3),
    (
        "SELECT T1.drug_nm FROM drug AS T1 JOIN room AS T2 ON T1.room_id = T2.room_id WHERE T1.unit_prc > 0.5",
        "SELECT T1.drug_nm FROM drug AS T1 JOIN room AS T2 ON T1.room_id = T2.room_id WHERE T1.unit_prc >= 0.5",
        "drug",
        "unit_prc",
        0.5,
    ),
]


@pytest.mark.parametrize(("sql_a", "sql_b", "table", "column", "boundary"), BOUNDARIES)
def test_a_boundary_one_database_cannot_tell_is_found_with_the_fewest_rows_that_show_it(
    lab, sql_a, sql_b, table, column, boundary
):
    alone = sql_compare([lab], sql_a, sql_b)  # the lab's own database cannot tell them apart
    assert alone["equivalent"] is True and alone["searched_databases"] == 0

    # The search ends at its first difference, cut down: its time is a ceiling with room for a loaded machine.
    report = sql_compare([lab], sql_a, sql_b, seconds=CEILING)
    assert report["equivalent"] is False and report["verdict"] == "different"
    counterexample = report["counterexample"]
    assert counterexample["database"] == "searched"
    tables = {item["name"]: item for item in counterexample["tables"]}
    shown = tables[table]
    assert len(shown["rows"]) == 1  # one row shows it, and only that row is left
    assert shown["rows"][0][shown["columns"].index(column)] == boundary
    # Each value comes from its own column's domain: a drug's name is a drug name, never a date or a building.
    for name, item in tables.items():
        for row in item["rows"]:
            record = dict(zip(item["columns"], row, strict=True))
            if name == "drug":
                assert record["drug_nm"] in {drug[1] for drug in DRUGS}
                assert record["recv_dt"] is None or record["recv_dt"][:2] in ("19", "20")
            else:
                assert record["bldg_cd"] in {"A", "B"}
                assert record["room_nm"] is None or record["room_nm"] in {room[3] for room in ROOMS}
    # Both results, side by side: the boundary row is in the second query's only.
    difference = counterexample["difference"]
    assert difference["kind"] == "rows" and difference["only_in_a"] == [] and len(difference["only_in_b"]) == 1
    assert counterexample["a"]["rows"] == [] and counterexample["b"]["rows"] == difference["only_in_b"]


PUBLIC = [
    (
        "concert_singer",
        "SELECT Name FROM stadium WHERE Capacity > 5000",
        "SELECT Name FROM stadium WHERE Capacity >= 5000",
    ),
    ("pets_1", "SELECT PetID FROM Pets WHERE weight > 10", "SELECT PetID FROM Pets WHERE weight >= 10"),
]


@pytest.mark.conformance
@pytest.mark.parametrize(("db_id", "sql_a", "sql_b"), PUBLIC)
def test_on_public_databases_a_hidden_boundary_is_found_with_a_row_of_their_own_values(
    shared_path, db_id, sql_a, sql_b
):
    original = shared_path("spider", "database", db_id, f"{db_id}.sqlite")
    assert sql_compare([original], sql_a, sql_b)["equivalent"] is True  # no stadium of 5,000, no pet of 10 kg
    report = sql_compare([original], sql_a, sql_b, seconds=CEILING)
    assert report["equivalent"] is False
    [table] = report["counterexample"]["tables"]  # one table, one row, its values from its own columns
    assert len(table["rows"]) == 1
    connection = sqlite3.connect(f"file:{original}?mode=ro", uri=True)
    for column, value in zip(table["columns"], table["rows"][0], strict=True):
        own = {row[0] for row in connection.execute(f'SELECT DISTINCT "{column}" FROM "{table["name"]}"')}
        numbers = [item for item in own if isinstance(item, int | float)]
        near = numbers and isinstance(value, int | float) and min(numbers) - 1 <= value <= max(numbers) + 1
        assert value in own or value in (5000, 10.0) or near, (column, value)  # its own, the literal, a neighbour
    connection.close()


REWRITES = [
    ("SELECT room_nm FROM room WHERE flr_no > 3", "SELECT room_nm FROM room WHERE 3 < flr_no"),  # operands swapped
    (
        "SELECT T1.drug_nm FROM drug AS T1 JOIN room AS T2 ON T1.room_id = T2.room_id WHERE T2.flr_no > 3",
        "SELECT d.drug_nm FROM drug AS d JOIN room AS r ON d.room_id = r.room_id WHERE r.flr_no > 3",  # aliases
    ),
    (
        "SELECT drug_nm FROM drug WHERE unit_prc > 0.5 AND recv_dt > '2000-01-01' OR room_id = 2",
        "SELECT drug_nm FROM drug WHERE ((unit_prc > 0.5) AND (recv_dt > '2000-01-01')) OR (room_id = 2)",  # parens
    ),
    (
        "SELECT room_nm FROM room WHERE flr_no IN (2, 3)",
        "SELECT room_nm FROM room WHERE flr_no = 2 OR flr_no = 3",  # IN and OR of equalities
    ),
    (
        "SELECT T1.drug_nm, T2.room_nm FROM drug AS T1 JOIN room AS T2 ON T1.room_id = T2.room_id",
        "SELECT drug.drug_nm, room.room_nm FROM drug, room WHERE drug.room_id = room.room_id",  # JOIN ON and WHERE
    ),
]


def test_meaning_keeping_rewrites_are_never_told_apart_however_long_the_search(lab):
    # Bounded by databases, not by time: the same twenty-five on any machine (0.4 s made 25 to 46 at a load of 14).
    for sql_a, sql_b in REWRITES:
        report = sql_compare([lab], sql_a, sql_b, seconds=CEILING, databases=25)
        assert report["equivalent"] is True, (sql_a, sql_b, report.get("counterexample"))
        assert report["verdict"] == "no difference found" and report["searched_databases"] == 25


def test_a_pick_among_rows_tied_under_a_limit_is_no_difference(tmp_path):
    # Two rooms on the first floor: which one `ORDER BY flr_no LIMIT 1` returns is SQLite's pick, and a query that
    # breaks the tie picks one of them too. The results differ here, and that proves nothing about their meaning.
    path = tmp_path / "tied.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE room (room_id INTEGER PRIMARY KEY, flr_no INTEGER, room_nm TEXT)")
    connection.executemany("INSERT INTO room VALUES (?, ?, ?)", [(1, 1, "Alpha"), (2, 1, "Zulu"), (3, 2, "Mike")])
    connection.commit()
    connection.close()
    first = "SELECT room_nm FROM room ORDER BY flr_no LIMIT 1"
    tie_broken = "SELECT room_nm FROM room ORDER BY flr_no, room_nm DESC LIMIT 1"
    report = sql_compare([path], first, tie_broken, seconds=0.4)
    assert report["equivalent"] is True and report["checked_databases"] == 0  # the original decides nothing
    other = sql_compare([path], first, "SELECT room_nm FROM room ORDER BY flr_no DESC LIMIT 1", seconds=CEILING)
    assert other["equivalent"] is False  # a real difference still shows: the top floor is not the bottom one


def test_a_comparison_keeps_to_its_time_and_says_how_far_it_searched(lab):
    report = sql_compare([lab], *REWRITES[0], seconds=0.5)
    assert report["verdict"] == "no difference found" and report["searched_databases"] > 0
    # Nothing found: the search stops at three quarters of the time, kept for cutting a found database down.
    assert report["seconds"] <= 0.5 + 0.5  # its time, and a loaded machine's margin


def test_a_suite_with_no_pairs_to_tell_apart_claims_no_power(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")  # a database of no tables: nothing to ask, nothing to tell apart
    nothing = build_suite(empty, tmp_path / "nothing", []).figures()
    assert nothing["pairs"] == 0 and nothing["power"] is None and nothing["stopped_by"] == "no pairs to tell apart"


SLOW = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"


def test_two_slow_comparisons_hold_up_no_experts_run(lab):
    """Two comparisons take every worker of the compare pool and keep them; an expert's run, on the rooms' pool,
    finishes meanwhile. The comparisons are then stopped (their workers with them), not waited for."""
    limits = replace(compare_limits(), timeout_ms=120_000)  # slow: they hold their workers until stopped
    room = sandbox.current_limits()
    assert sandbox.execute(lab, "SELECT 1").ok  # the rooms' pool is up, as a server starts it
    outcomes, threads = [], []

    def compare():
        try:
            # Not the same query (which is never run): the comparison runs both.
            outcomes.append(sql_compare([lab], SLOW, SLOW + " LIMIT 1", seconds=120, limits=limits))
        except Exception as exc:  # noqa: BLE001 - stopped under it: what it says is not the point
            outcomes.append(exc)

    for _ in range(limits.workers):
        threads.append(threading.Thread(target=compare, daemon=True))
        threads[-1].start()
    deadline = time.monotonic() + 60
    while sandbox.busy_workers(limits) < limits.workers:  # the condition: every compare worker holds a comparison
        assert time.monotonic() < deadline, "the comparisons never started"
        time.sleep(0.01)
    began = time.perf_counter()
    run = sandbox.execute(lab, "SELECT room_nm FROM room WHERE flr_no > 3")
    waited_ms = (time.perf_counter() - began) * 1000
    assert run.ok and [row[0] for row in run.rows] == ["Bench 1", "Bench 2"]
    # Done while both comparisons still hold their workers: the run never queued behind them.
    assert sandbox.busy_workers(limits) == limits.workers and all(thread.is_alive() for thread in threads)
    assert sandbox.busy_workers(room) == 0
    print(f"\nthe expert's run took {waited_ms:.1f} ms beside {limits.workers} slow comparisons")
    while any(thread.is_alive() for thread in threads):
        sandbox.shutdown()  # stops every worker; a statement killed in a batch is run again alone, so until none is
        for thread in threads:
            thread.join(timeout=0.5)
    assert len(outcomes) == limits.workers


def test_set_operations_share_their_columns_values_and_literals_are_drawn_as_written(lab):
    from annotation.suites.small_databases import domain_of, focus_of, read_shape

    shape = read_shape(lab, compare_limits())
    focus = focus_of(
        shape, ["SELECT room_id FROM room WHERE flr_no > 3 EXCEPT SELECT room_id FROM drug WHERE unit_prc < 1"]
    )
    # The two sides' columns hold each other's values, so some rows are on both sides and some on one only.
    assert {(("room", "room_id"), ("drug", "room_id")), (("drug", "room_id"), ("room", "room_id"))} & set(focus.links)
    floors = domain_of(shape.table("room").columns[2], focus.literals[("room", "flr_no")])
    assert floors.exact == [3] and {2, 3, 4} <= set(floors.focus)  # the literal itself, and its neighbours


def test_many_rows_a_having_count_asks_for_point_at_one_or_two_parents(lab):
    import random

    from annotation.suites.small_databases import WorldMaker, focus_of, read_shape, read_values

    shape = read_shape(lab, compare_limits())
    sql = "SELECT room_id FROM drug GROUP BY room_id HAVING count(*) > 12"
    maker = WorldMaker(shape, focus_of(shape, [sql]), random.Random(0))
    read_values(lab, shape, maker.tables, compare_limits())
    maker = WorldMaker(shape, focus_of(shape, [sql]), random.Random(0))
    large = 0
    for _ in range(300):
        world, _ = maker.make()
        if len(world["drug"]) > 8 and len(world["room"]) > 2:
            large += 1
            assert len({row[4] for row in world["drug"] if row[4] is not None}) <= 2  # one or two big groups
    assert large >= 3


def test_a_group_as_large_as_a_having_count_asks_is_made_along_a_key(lab):
    # GROUP BY a foreign key: the drugs of a group must all point at one room, and there must be exactly 12 of them.
    sql_a = "SELECT T2.room_nm FROM drug AS T1 JOIN room AS T2 ON T1.room_id = T2.room_id GROUP BY T2.room_id "
    # 0.94 s to find and cut down at a load of 14: the ceiling leaves room, the search ends at its difference.
    report = sql_compare([lab], sql_a + "HAVING count(*) >= 12", sql_a + "HAVING count(*) > 12", seconds=CEILING)
    assert report["equivalent"] is False
    tables = {item["name"]: item for item in report["counterexample"]["tables"]}
    drugs = tables["drug"]
    rooms = [row[drugs["columns"].index("room_id")] for row in drugs["rows"]]
    assert len(rooms) == 12 and len(set(rooms)) == 1  # the fewest rows that show it: one room's twelve drugs
    assert report["counterexample"]["b"]["rows"] == [] and len(report["counterexample"]["a"]["rows"]) == 1


def test_a_counterexample_keeps_no_parent_row_its_difference_does_not_need(lab):
    # The drug that shows `unit_prc > 0.5` against `>= 0.5` needs no room: its room is let go (its room_id may be
    # NULL), rather than kept because the drug pointed at it. Whichever database each seed finds first.
    sql_a, sql_b = "SELECT drug_nm FROM drug WHERE unit_prc > 0.5", "SELECT drug_nm FROM drug WHERE unit_prc >= 0.5"
    for seed in range(6):
        tables = sql_compare([lab], sql_a, sql_b, seconds=CEILING, seed=seed)["counterexample"]["tables"]
        assert [table["name"] for table in tables] == ["drug"] and len(tables[0]["rows"]) == 1, (seed, tables)
        drug = dict(zip(tables[0]["columns"], tables[0]["rows"][0], strict=True))
        assert drug["unit_prc"] == 0.5 and drug["drug_nm"] in {item[1] for item in DRUGS}
    from annotation.suites.small_databases import read_shape, without_row

    shape = read_shape(lab, compare_limits())
    room = without_row(shape, {"room": [(1, "A", 1, "x")], "drug": [(1, "Aspirin", None, 0.5, 1)]}, "room", 0)
    assert room == {"room": [], "drug": []}
    detached = without_row(
        shape, {"room": [(1, "A", 1, "x")], "drug": [(1, "Aspirin", None, 0.5, 1)]}, "room", 0, detach=True
    )
    assert detached == {"room": [], "drug": [(1, "Aspirin", None, 0.5, None)]}
