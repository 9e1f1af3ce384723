"""Benchmark: does `sql_compare` tell apart what one database cannot, with and without goals, and how long does it
take (docs/test_suites.md, "Searching for the difference"; issue 36).

A hold-out of its own, outside ../shared: four SQLite databases this script writes (a lab's inventory with `flr_no`
and `unit_prc` columns, a clinic, a bookshop, a transit network), realistic queries on each, and

- *meaning-changing mutants* of those queries (`>` made `>=` and back, `<` made `<=` and back, AND made OR, ASC made
  DESC before a LIMIT) that return the same rows as their query on the database itself: one database cannot tell
  them apart. A few mutants mean the same as their query on every database of the schema (listed in SAME_MEANING,
  with the reason); they are left out of the count, and reported if called different.
- *meaning-keeping rewrites* of the same queries (operands swapped, aliases renamed, parentheses added, `IN` written
  as `OR` of equalities and back, `JOIN ... ON` written as a `WHERE` join): any "different" is a false alarm.

Each pair is compared four ways: the suite alone and the suite with the search (SQL_COMPARE_SECONDS), once with a
suite built from the schema alone (no goal imported) and once with a suite built with the queries as goals. Prints
the share told apart, the false alarms and p50/p95 time per comparison, the load average before and after, and the
two boundary pairs (`flr_no > 3` / `>= 3`, `unit_prc > 0.5` / `>= 0.5`) with their counterexample, also on two public
Spider databases when ../shared is there.

    .venv/bin/python bench/sql_compare_search.py [--seconds 2] [--build-seconds 20] [--out /tmp/holdout]
"""

import argparse
import json
import os
import secrets
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))

# --------------------------------------------------------------------------------------------------------------------
# The hold-out databases: schema, rows, and queries people ask of them. No row sits on the queries' boundaries.
# --------------------------------------------------------------------------------------------------------------------

LAB = {
    "schema": """
        CREATE TABLE room (room_id INTEGER PRIMARY KEY, bldg_cd CHAR(2) NOT NULL, flr_no INTEGER, room_nm VARCHAR(40));
        CREATE TABLE drug (drug_id INTEGER PRIMARY KEY, drug_nm VARCHAR(40) NOT NULL, recv_dt DATE,
                           unit_prc REAL, stock_qty INTEGER, room_id INTEGER REFERENCES room (room_id));
        CREATE TABLE order_line (line_id INTEGER PRIMARY KEY, drug_id INTEGER NOT NULL REFERENCES drug (drug_id),
                                 ord_dt DATE NOT NULL, qty INTEGER NOT NULL);
    """,
    "rows": {
        "room": [
            (1, "A", 1, "Cold store"),
            (2, "A", 2, "Prep room"),
            (3, "B", 4, "Bench 1"),
            (4, "B", 5, "Bench 2"),
            (5, "C", 2, "Office"),
            (6, "C", 6, "Archive"),
        ],
        "drug": [
            (1, "Aspirin", "2019-06-17", 0.25, 400, 1),
            (2, "Ibuprofen", "2020-01-02", 0.75, 120, 1),
            (3, "Paracetamol", "2021-03-04", 0.4, 800, 2),
            (4, "Codeine", "2021-05-06", 1.2, 30, 3),
            (5, "Morphine", "2022-07-08", 2.5, 12, 4),
            (6, "Insulin", "2022-09-10", 12.0, 60, None),
            (7, "Amoxicillin", "2023-02-11", 0.9, 240, 5),
        ],
        "order_line": [
            (1, 1, "2023-01-05", 100),
            (2, 1, "2023-02-07", 40),
            (3, 3, "2023-02-09", 300),
            (4, 4, "2023-03-01", 5),
            (5, 7, "2023-03-15", 60),
            (6, 2, "2023-04-20", 25),
        ],
    },
    "queries": [
        "SELECT room_nm FROM room WHERE flr_no > 3",
        "SELECT drug_nm FROM drug WHERE unit_prc > 0.5",
        "SELECT drug_nm FROM drug WHERE unit_prc < 1 AND stock_qty > 100",
        "SELECT T1.drug_nm FROM drug AS T1 JOIN room AS T2 ON T1.room_id = T2.room_id WHERE T2.flr_no > 3",
        "SELECT T2.room_nm, count(*) FROM drug AS T1 JOIN room AS T2 ON T1.room_id = T2.room_id "
        "GROUP BY T2.room_id HAVING count(*) > 1",
        "SELECT drug_nm FROM drug ORDER BY unit_prc DESC LIMIT 1",
        "SELECT drug_nm, recv_dt FROM drug WHERE recv_dt > '2021-01-01' AND unit_prc < 2",
        "SELECT count(*) FROM drug WHERE stock_qty < 50",
        "SELECT T1.drug_nm FROM drug AS T1 JOIN order_line AS T2 ON T1.drug_id = T2.drug_id WHERE T2.qty > 50",
        "SELECT sum(T2.qty) FROM drug AS T1 JOIN order_line AS T2 ON T1.drug_id = T2.drug_id "
        "WHERE T1.unit_prc > 0.3 AND T2.ord_dt > '2023-02-01'",
        "SELECT room_nm FROM room WHERE bldg_cd = 'B' AND flr_no >= 5",
        "SELECT drug_nm FROM drug WHERE room_id IN (SELECT room_id FROM room WHERE flr_no < 2)",
        "SELECT bldg_cd, max(flr_no) FROM room GROUP BY bldg_cd",
        "SELECT drug_nm FROM drug WHERE unit_prc BETWEEN 0.3 AND 1 ORDER BY recv_dt ASC LIMIT 2",
        "SELECT room_nm FROM room WHERE bldg_cd = 'C' AND flr_no > 4 ORDER BY flr_no DESC LIMIT 1",
        "SELECT drug_nm FROM drug WHERE stock_qty > 200 AND recv_dt < '2022-01-01'",
        "SELECT T1.drug_nm, T2.qty FROM drug AS T1 JOIN order_line AS T2 ON T1.drug_id = T2.drug_id "
        "WHERE T2.qty < 50 AND T1.unit_prc > 0.5 ORDER BY T2.qty ASC LIMIT 1",
        "SELECT count(*) FROM order_line WHERE qty >= 60 AND ord_dt < '2023-03-31'",
        "SELECT room_nm, flr_no FROM room WHERE flr_no <= 2 AND bldg_cd = 'A' ORDER BY flr_no DESC LIMIT 1",
        "SELECT room_nm FROM room WHERE bldg_cd IN ('A', 'C') AND flr_no > 1",
    ],
}

CLINIC = {
    "schema": """
        CREATE TABLE dept (dept_cd TEXT PRIMARY KEY, dept_nm TEXT NOT NULL, floor INTEGER);
        CREATE TABLE patient (pat_id INTEGER PRIMARY KEY, pat_nm TEXT NOT NULL, birth_yr INTEGER, sex CHAR(1),
                              city TEXT);
        CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, pat_id INTEGER NOT NULL REFERENCES patient (pat_id),
                            dept_cd TEXT REFERENCES dept (dept_cd), visit_dt DATE NOT NULL, fee REAL);
    """,
    "rows": {
        "dept": [
            ("CAR", "Cardiology", 3),
            ("DER", "Dermatology", 1),
            ("PED", "Paediatrics", 2),
            ("ORT", "Orthopaedics", 4),
        ],
        "patient": [
            (1, "Ana Silva", 1956, "F", "Porto"),
            (2, "Ben Okafor", 1988, "M", "Leeds"),
            (3, "Chen Wei", 2012, "M", "Leeds"),
            (4, "Dana Kovac", 1971, "F", "Graz"),
            (5, "Eli Haddad", 1994, "M", "Porto"),
            (6, "Fay Moreau", 2016, "F", None),
        ],
        "visit": [
            (1, 1, "CAR", "2024-01-10", 120.0),
            (2, 1, "CAR", "2024-03-02", 80.0),
            (3, 2, "ORT", "2024-02-14", 150.5),
            (4, 3, "PED", "2024-02-20", 60.0),
            (5, 4, "DER", "2024-04-01", 95.0),
            (6, 6, "PED", "2024-04-11", 60.0),
            (7, 5, "ORT", "2024-05-05", 210.0),
            (8, 2, "CAR", "2024-05-30", None),
        ],
    },
    "queries": [
        "SELECT pat_nm FROM patient WHERE birth_yr < 1980",
        "SELECT pat_nm FROM patient WHERE birth_yr > 2000 AND city = 'Leeds'",
        "SELECT T1.pat_nm FROM patient AS T1 JOIN visit AS T2 ON T1.pat_id = T2.pat_id WHERE T2.fee > 100",
        "SELECT T2.dept_nm, count(*) FROM visit AS T1 JOIN dept AS T2 ON T1.dept_cd = T2.dept_cd GROUP BY T2.dept_nm",
        "SELECT avg(fee) FROM visit WHERE visit_dt >= '2024-03-01'",
        "SELECT pat_nm FROM patient ORDER BY birth_yr ASC LIMIT 1",
        "SELECT dept_nm FROM dept WHERE floor > 2",
        "SELECT count(*) FROM visit WHERE fee < 90 AND dept_cd = 'PED'",
        "SELECT T1.pat_nm, T2.visit_dt FROM patient AS T1 JOIN visit AS T2 ON T1.pat_id = T2.pat_id "
        "WHERE T2.visit_dt < '2024-03-01' ORDER BY T2.visit_dt DESC LIMIT 3",
        "SELECT city, count(*) FROM patient GROUP BY city HAVING count(*) >= 2",
        "SELECT pat_nm FROM patient WHERE pat_id NOT IN (SELECT pat_id FROM visit WHERE fee > 100)",
        "SELECT dept_cd FROM visit GROUP BY dept_cd HAVING sum(fee) > 200",
        "SELECT pat_nm FROM patient WHERE sex = 'F' AND birth_yr < 1975 ORDER BY birth_yr DESC LIMIT 1",
        "SELECT visit_dt FROM visit WHERE fee > 100 AND dept_cd = 'ORT'",
        "SELECT T1.pat_nm FROM patient AS T1 JOIN visit AS T2 ON T1.pat_id = T2.pat_id "
        "WHERE T2.dept_cd = 'CAR' AND T2.fee < 130 ORDER BY T2.fee DESC LIMIT 1",
        "SELECT count(*) FROM patient WHERE city = 'Porto' AND birth_yr <= 1994",
        "SELECT dept_nm FROM dept WHERE floor >= 3 AND dept_cd <> 'DER' ORDER BY floor ASC LIMIT 1",
        "SELECT pat_nm FROM patient WHERE city IN ('Leeds', 'Graz') AND birth_yr > 1970",
    ],
}

BOOKSHOP = {
    "schema": """
        CREATE TABLE author (author_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, born INTEGER);
        CREATE TABLE book (book_id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER NOT NULL
                           REFERENCES author (author_id), price REAL, pub_year INTEGER, genre TEXT);
        CREATE TABLE sale (sale_id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES book (book_id),
                           sold_on DATE NOT NULL, qty INTEGER NOT NULL);
    """,
    "rows": {
        "author": [
            (1, "Toni Morrison", "USA", 1931),
            (2, "Chinua Achebe", "Nigeria", 1930),
            (3, "Italo Calvino", "Italy", 1923),
            (4, "Olga Tokarczuk", "Poland", 1962),
            (5, "Haruki Murakami", "Japan", 1949),
        ],
        "book": [
            (1, "Beloved", 1, 14.99, 1987, "novel"),
            (2, "Things Fall Apart", 2, 9.5, 1958, "novel"),
            (3, "Invisible Cities", 3, 12.0, 1972, "fiction"),
            (4, "Flights", 4, 18.75, 2007, "novel"),
            (5, "Kafka on the Shore", 5, 16.2, 2002, "novel"),
            (6, "Sula", 1, 11.25, 1973, "novel"),
            (7, "If on a winter's night", 3, 13.4, 1979, "fiction"),
        ],
        "sale": [
            (1, 1, "2024-01-03", 2),
            (2, 2, "2024-01-04", 1),
            (3, 4, "2024-02-11", 3),
            (4, 5, "2024-02-12", 1),
            (5, 1, "2024-03-09", 4),
            (6, 7, "2024-03-21", 2),
        ],
    },
    "queries": [
        "SELECT title FROM book WHERE price > 15",
        "SELECT title FROM book WHERE pub_year < 1980 AND genre = 'novel'",
        "SELECT T2.name FROM book AS T1 JOIN author AS T2 ON T1.author_id = T2.author_id WHERE T1.pub_year > 2000",
        "SELECT T2.name, count(*) FROM book AS T1 JOIN author AS T2 ON T1.author_id = T2.author_id "
        "GROUP BY T2.name HAVING count(*) > 1",
        "SELECT title FROM book ORDER BY price DESC LIMIT 2",
        "SELECT name FROM author WHERE born > 1940 OR country = 'Italy'",
        "SELECT sum(T1.qty) FROM sale AS T1 JOIN book AS T2 ON T1.book_id = T2.book_id WHERE T2.price < 15",
        "SELECT title FROM book WHERE book_id NOT IN (SELECT book_id FROM sale)",
        "SELECT genre, avg(price) FROM book GROUP BY genre",
        "SELECT title, pub_year FROM book WHERE price < 12.5 ORDER BY pub_year ASC LIMIT 1",
        "SELECT count(*) FROM sale WHERE qty > 1 AND sold_on < '2024-03-01'",
        "SELECT name FROM author WHERE author_id IN (SELECT author_id FROM book WHERE price > 13)",
        "SELECT title FROM book WHERE genre = 'fiction' AND pub_year > 1970 ORDER BY price DESC LIMIT 1",
        "SELECT name FROM author WHERE country = 'Japan' AND born < 1960",
        "SELECT T1.title FROM book AS T1 JOIN sale AS T2 ON T1.book_id = T2.book_id "
        "WHERE T2.qty >= 3 AND T1.price > 14 ORDER BY T2.sold_on ASC LIMIT 1",
        "SELECT count(*) FROM book WHERE price < 10 AND pub_year < 1960",
        "SELECT title FROM book WHERE author_id = 1 AND price > 12 ORDER BY pub_year DESC LIMIT 1",
        "SELECT title FROM book WHERE genre IN ('fiction', 'poetry') AND price < 13",
    ],
}

TRANSIT = {
    "schema": """
        CREATE TABLE station (st_id INTEGER PRIMARY KEY, st_nm TEXT NOT NULL, zone INTEGER NOT NULL, opened INTEGER);
        CREATE TABLE route (rt_id INTEGER PRIMARY KEY, rt_nm TEXT NOT NULL, mode TEXT NOT NULL);
        CREATE TABLE stop (rt_id INTEGER NOT NULL REFERENCES route (rt_id),
                           st_id INTEGER NOT NULL REFERENCES station (st_id), seq INTEGER NOT NULL,
                           PRIMARY KEY (rt_id, st_id));
        CREATE TABLE ride (ride_id INTEGER PRIMARY KEY, rt_id INTEGER NOT NULL REFERENCES route (rt_id),
                           day DATE NOT NULL, riders INTEGER NOT NULL);
    """,
    "rows": {
        "station": [
            (1, "Harbour", 1, 1901),
            (2, "Market", 1, 1903),
            (3, "Museum", 2, 1950),
            (4, "Airport", 4, 1999),
            (5, "University", 2, 1972),
            (6, "Stadium", 3, 2010),
        ],
        "route": [(1, "Red", "metro"), (2, "Blue", "metro"), (3, "Airport Express", "rail"), (4, "Night 7", "bus")],
        "stop": [(1, 1, 1), (1, 2, 2), (1, 3, 3), (2, 2, 1), (2, 5, 2), (2, 6, 3), (3, 1, 1), (3, 4, 2), (4, 3, 1)],
        "ride": [
            (1, 1, "2024-06-01", 5200),
            (2, 1, "2024-06-02", 4800),
            (3, 2, "2024-06-01", 3100),
            (4, 3, "2024-06-01", 900),
            (5, 4, "2024-06-01", 150),
            (6, 2, "2024-06-02", 2950),
        ],
    },
    "queries": [
        "SELECT st_nm FROM station WHERE zone > 2",
        "SELECT st_nm FROM station WHERE opened < 1960 AND zone = 1",
        "SELECT T3.st_nm FROM route AS T1 JOIN stop AS T2 ON T1.rt_id = T2.rt_id JOIN station AS T3 "
        "ON T2.st_id = T3.st_id WHERE T1.rt_nm = 'Red' AND T2.seq > 1",
        "SELECT T1.rt_nm, sum(T2.riders) FROM route AS T1 JOIN ride AS T2 ON T1.rt_id = T2.rt_id GROUP BY T1.rt_nm",
        "SELECT rt_nm FROM route WHERE rt_id IN (SELECT rt_id FROM ride WHERE riders > 3000)",
        "SELECT T1.rt_nm FROM route AS T1 JOIN ride AS T2 ON T1.rt_id = T2.rt_id ORDER BY T2.riders DESC LIMIT 1",
        "SELECT count(*) FROM stop WHERE seq >= 3",
        "SELECT mode, count(*) FROM route GROUP BY mode HAVING count(*) > 1",
        "SELECT st_nm FROM station WHERE st_id NOT IN (SELECT st_id FROM stop)",
        "SELECT avg(riders) FROM ride WHERE day = '2024-06-01' AND riders > 500",
        "SELECT T1.st_nm, count(*) FROM station AS T1 JOIN stop AS T2 ON T1.st_id = T2.st_id "
        "GROUP BY T1.st_nm HAVING count(*) >= 2",
        "SELECT st_nm FROM station ORDER BY opened ASC LIMIT 2",
        "SELECT st_nm FROM station WHERE zone = 2 AND opened > 1960 ORDER BY opened ASC LIMIT 1",
        "SELECT rt_nm FROM route WHERE mode = 'rail' AND rt_id > 2",
        "SELECT T1.rt_nm FROM route AS T1 JOIN ride AS T2 ON T1.rt_id = T2.rt_id "
        "WHERE T2.riders < 1000 AND T1.mode = 'bus' ORDER BY T2.riders DESC LIMIT 1",
        "SELECT count(*) FROM ride WHERE riders > 4000 AND day < '2024-06-03'",
        "SELECT st_nm FROM station WHERE zone >= 3 AND opened > 2000",
        "SELECT st_nm FROM station WHERE zone IN (1, 4) AND opened < 1990",
    ],
}

HOLDOUT = {"lab_inventory": LAB, "clinic": CLINIC, "bookshop": BOOKSHOP, "transit": TRANSIT}

# Mutants that mean the same as their query on every database of its schema, each with the reason: left out of the
# count. None so far: every mutant below was told apart by some database (the run prints any that is not).
SAME_MEANING: dict[str, str] = {}

BOUNDARY_PAIRS = [
    ("lab_inventory", "SELECT room_nm FROM room WHERE flr_no > 3", "SELECT room_nm FROM room WHERE flr_no >= 3"),
    (
        "lab_inventory",
        "SELECT drug_nm FROM drug WHERE unit_prc > 0.5",
        "SELECT drug_nm FROM drug WHERE unit_prc >= 0.5",
    ),
]
PUBLIC_PAIRS = [
    (
        "concert_singer",
        "SELECT Name FROM stadium WHERE Capacity > 5000",
        "SELECT Name FROM stadium WHERE Capacity >= 5000",
    ),
    ("pets_1", "SELECT PetID FROM Pets WHERE weight > 10", "SELECT PetID FROM Pets WHERE weight >= 10"),
]


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    import django

    django.setup()


def write_database(path: Path, spec: dict) -> None:
    connection = sqlite3.connect(path)
    connection.executescript(spec["schema"])
    for table, rows in spec["rows"].items():
        marks = ", ".join("?" for _ in rows[0])
        connection.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)  # noqa: S608 - the script's own names
    connection.commit()
    connection.close()


# --------------------------------------------------------------------------------------------------------------------
# Mutants and rewrites, on sqlglot's tree
# --------------------------------------------------------------------------------------------------------------------


def meaning_changing(sql: str) -> list[tuple[str, str]]:
    """(kind, mutant) for each `>`/`>=`, `<`/`<=` swap, AND made OR, and ASC/DESC swap under a LIMIT."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    swaps = {exp.GT: exp.GTE, exp.GTE: exp.GT, exp.LT: exp.LTE, exp.LTE: exp.LT}
    found = []
    for index, node in enumerate(tree.walk()):
        copy = tree.copy()
        target = list(copy.walk())[index]
        if type(node) in swaps:
            target.replace(swaps[type(node)](this=target.this, expression=target.expression))
            found.append(("comparison", copy.sql(dialect="sqlite")))
        elif isinstance(node, exp.And):
            target.replace(exp.Or(this=target.this, expression=target.expression))
            found.append(("and_or", copy.sql(dialect="sqlite")))
        elif isinstance(node, exp.Ordered) and node.parent and node.parent.parent is not None:
            if node.parent.parent.args.get("limit") is not None:
                desc = bool(target.args.get("desc"))
                target.set("desc", not desc)
                target.set("nulls_first", desc)
                found.append(("order_limit", copy.sql(dialect="sqlite")))
    return found


def meaning_keeping(sql: str) -> list[tuple[str, str]]:
    """(kind, rewrite) of `sql`: operands swapped, table aliases renamed, parentheses, IN as OR (and OR of
    equalities on one column as IN), JOIN ... ON as a WHERE join."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(sql, read="sqlite")
    found = []
    mirror = {exp.GT: exp.LT, exp.GTE: exp.LTE, exp.LT: exp.GT, exp.LTE: exp.GTE, exp.EQ: exp.EQ, exp.NEQ: exp.NEQ}

    copy = tree.copy()
    changed = False
    for node in list(copy.find_all(*mirror)):
        if isinstance(node.expression, exp.Literal | exp.Neg) and isinstance(node.this, exp.Column):
            node.replace(mirror[type(node)](this=node.expression.copy(), expression=node.this.copy()))
            changed = True
    if changed:
        found.append(("operands_swapped", copy.sql(dialect="sqlite")))

    aliases = {
        table.alias: f"{table.name[:1].lower()}{number}"
        for number, table in enumerate(tree.find_all(exp.Table))
        if table.alias
    }
    if aliases:
        copy = tree.copy()
        for table in copy.find_all(exp.Table):
            if table.alias in aliases:
                table.set("alias", exp.TableAlias(this=exp.to_identifier(aliases[table.alias])))
        for column in copy.find_all(exp.Column):
            if column.table in aliases:
                column.set("table", exp.to_identifier(aliases[column.table]))
        found.append(("aliases_renamed", copy.sql(dialect="sqlite")))

    where = tree.args.get("where")
    if where is not None:
        copy = tree.copy()
        for node in list(copy.args["where"].find_all(*mirror, exp.In, exp.Between)):
            node.replace(exp.Paren(this=node.copy()))
        copy.args["where"].set("this", exp.Paren(this=copy.args["where"].this))
        found.append(("parentheses", copy.sql(dialect="sqlite")))

    for node in tree.find_all(exp.In):
        if node.expressions and not node.args.get("query"):
            copy = tree.copy()
            target = next(item for item in copy.find_all(exp.In) if item.sql() == node.sql())
            terms = [exp.EQ(this=target.this.copy(), expression=value.copy()) for value in target.expressions]
            ored = terms[0]
            for term in terms[1:]:
                ored = exp.Or(this=ored, expression=term)
            target.replace(exp.Paren(this=ored))
            found.append(("in_as_or", copy.sql(dialect="sqlite")))

    joins = tree.args.get("joins") or []
    if joins and all(join.args.get("on") is not None and not join.args.get("side") for join in joins):
        copy = tree.copy()
        conditions = []
        for join in copy.args["joins"]:
            conditions.append(join.args["on"].copy())
            join.set("on", None)
            join.set("kind", None)
        tables = [copy.args["from_"].this.copy(), *(join.this.copy() for join in copy.args["joins"])]
        copy.set("joins", None)
        copy.set("from_", exp.From(this=tables[0]))
        for table in tables[1:]:
            copy.append("joins", exp.Join(this=table))
        where_now = copy.args.get("where")
        condition = conditions[0]
        for other in conditions[1:]:
            condition = exp.And(this=condition, expression=other)
        if where_now is not None:
            condition = exp.And(this=condition, expression=exp.Paren(this=where_now.this))
        copy.set("where", exp.Where(this=condition))
        text = copy.sql(dialect="sqlite").replace(" CROSS JOIN ", ", ").replace(" JOIN ", ", ")
        found.append(("join_as_where", text))
    return found


# --------------------------------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------------------------------


def figures_row(
    suite: str, search, told: int, mutants: int, alarms: int, rewrites: int, times: list, kept_times: list
) -> dict:
    """One printed line of figures: mutants told apart, rewrites called different, times in ms (p50, p95)."""
    return {
        "suite": suite,
        "search_s": search,
        "told_apart": f"{told}/{mutants}",
        "share": round(told / mutants, 4) if mutants else None,
        "false_alarms": f"{alarms}/{rewrites}",
        "mutants_p50_ms": round(statistics.median(times), 1),
        "mutants_p95_ms": round(percentile(times, 0.95), 1),
        "rewrites_p50_ms": round(statistics.median(kept_times), 1),
        "rewrites_p95_ms": round(percentile(kept_times, 0.95), 1),
        "all_p50_ms": round(statistics.median(times + kept_times), 1),
        "all_p95_ms": round(percentile(times + kept_times, 0.95), 1),
        "load": [round(value, 2) for value in os.getloadavg()],
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def timed(compare, paths, sql_a, sql_b, seconds):
    began = time.perf_counter()
    report = compare(paths, sql_a, sql_b, seconds=seconds or None)
    return report, time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=None, help="time per comparison (default SQL_COMPARE_SECONDS)")
    parser.add_argument("--build-seconds", type=float, default=20.0, help="time of each suite build")
    parser.add_argument("--out", type=Path, default=None, help="keep the databases and suites here")
    args = parser.parse_args()
    setup()
    from django.conf import settings

    from annotation.sql.results import order_matters, results_equal
    from annotation.sql.sandbox import execute_many
    from annotation.suites.compare import sql_compare
    from annotation.suites.distil import SuiteBounds, build_suite

    seconds = args.seconds if args.seconds is not None else settings.SQL_COMPARE_SECONDS
    out = args.out or Path(tempfile.mkdtemp(prefix="holdout-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"search time per comparison {seconds} s; suite builds {args.build_seconds} s; load before {os.getloadavg()}")
    mutants, rewrites, originals, suites = [], [], {}, {}
    for db_id, spec in HOLDOUT.items():
        path = out / f"{db_id}.sqlite"
        if path.exists():
            path.unlink()
        write_database(path, spec)
        originals[db_id] = path
        for sql in spec["queries"]:
            candidates = meaning_changing(sql)
            ran = execute_many(path, [sql] + [mutant for _, mutant in candidates])
            assert ran[0].ok, (sql, ran[0].error)
            for (kind, mutant), result in zip(candidates, ran[1:], strict=True):
                hidden = result.ok and results_equal(ran[0].rows, result.rows, ordered=order_matters(sql))
                if hidden and mutant not in SAME_MEANING:
                    mutants.append((db_id, kind, sql, mutant))
            rewrites.extend((db_id, kind, sql, rewrite) for kind, rewrite in meaning_keeping(sql))
        for goals in ("schema", "goals"):
            target = out / "suites" / goals / db_id
            shutil.rmtree(target, ignore_errors=True)
            report = build_suite(
                path,
                target,
                [] if goals == "schema" else spec["queries"],
                bounds=SuiteBounds(max_seconds=args.build_seconds),
            )
            suites[(goals, db_id)] = [path, *(target / name for name in report.files)]
            print(f"{db_id} suite from {goals}: {json.dumps(report.figures())}")
    kinds = {kind: sum(item[1] == kind for item in mutants) for kind in ("comparison", "and_or", "order_limit")}
    rewrite_kinds = {kind: sum(item[1] == kind for item in rewrites) for kind in {item[1] for item in rewrites}}
    print(f"hold-out: {len(mutants)} meaning-changing mutants one database cannot tell apart {kinds}, ")
    print(f"{len(rewrites)} meaning-keeping rewrites {rewrite_kinds}")

    rows = []
    for goals in ("schema", "goals"):
        for search in (0.0, seconds):
            told, alarms, times, kept_times, missed, alarmed = 0, 0, [], [], [], []
            for db_id, kind, sql, mutant in mutants:
                report, spent = timed(sql_compare, suites[(goals, db_id)], sql, mutant, search)
                times.append(spent * 1000)
                if report["equivalent"]:
                    missed.append((db_id, kind, sql, mutant))
                else:
                    told += 1
            for db_id, kind, sql, rewrite in rewrites:
                report, spent = timed(sql_compare, suites[(goals, db_id)], sql, rewrite, search)
                kept_times.append(spent * 1000)
                if not report["equivalent"]:
                    alarms += 1
                    alarmed.append((db_id, kind, sql, rewrite, report["counterexample"]))
            suite = "from the schema alone (no goal)" if goals == "schema" else "built with the queries as goals"
            row = figures_row(suite, search, told, len(mutants), alarms, len(rewrites), times, kept_times)
            rows.append(row)
            print(json.dumps(row), flush=True)
            for item in missed:
                print("   not told apart:", item)
            for item in alarmed:
                print("   FALSE ALARM:", item)

    print("\nthe boundary pairs, searched with no goal and no suite:")
    pairs = [(originals[db_id], sql_a, sql_b) for db_id, sql_a, sql_b in BOUNDARY_PAIRS]
    pairs += [
        (SHARED / "spider" / "database" / db_id / f"{db_id}.sqlite", sql_a, sql_b)
        for db_id, sql_a, sql_b in PUBLIC_PAIRS
        if (SHARED / "spider" / "database" / db_id / f"{db_id}.sqlite").is_file()
    ]
    for path, sql_a, sql_b in pairs:
        report, spent = timed(sql_compare, [path], sql_a, sql_b, seconds)
        counterexample = report.get("counterexample", {})
        print(f"{path.stem}: {sql_a}  vs  {sql_b}: {report['verdict']} in {spent * 1000:.0f} ms")
        for table in counterexample.get("tables", []):
            print(f"   table {table['name']} {table['columns']}: {table['rows']}")
        if counterexample:
            print(f"   first: {counterexample['a']['rows']}  second: {counterexample['b']['rows']}")
    print(f"load average after: {os.getloadavg()}")
    if args.out is None:
        shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
