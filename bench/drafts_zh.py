"""A sheet of Chinese drafts of the expert's response over held-out CHASE training turns, to rate by hand.

Usage: .venv/bin/python bench/drafts_zh.py [--shared PATH] [--turns 60] [--seed 4028] [--databases-only]
       [--out bench/ratings/drafts-zh-2026-11-28-heldout.tsv]

The held-out databases are drawn by `--seed` from the databases of corpora/chase_train.json (sorted by name, then
shuffled), before any Chinese rule was written and never read while writing them; each gives at most
`PER_DATABASE` turns, the first whose SQL the platform reads (`annotation.sql.spider.parse_sql`), in the file's
order, until `--turns` are drawn. `--databases-only` prints the draw's databases and nothing of their turns.
`--exclude` leaves databases out of the draw: the second held-out set (seed 5040) leaves out the first's 8 and the
11 read while writing the rules (`--exclude seen`); the third (seed 6040) the second's 8 too (`--exclude seen2`).

CHASE ships no SQLite file for its databases (the Spider files of CHASE-T have the English names, not the
translated ones the SQL uses), so each turn's result comes from a synthetic database: the schema's tables built in
SQLite and filled with `ROWS` rows each (keys 1..ROWS, numbers, dates, and the SQL's own string literals among the
texts), the SQL run on it in the sandbox as a room runs it (`annotation.sql.analysis.sql_run`). The draft is the
room's (`dialogs.assist.draft_for` in Chinese). The sheet has one row per turn; the rater fills `logic` (yes/no),
`grammar` (1-5) and `note`.
"""

import argparse
import csv
import json
import os
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from sqlglot import expressions as exp  # noqa: E402

from annotation.sql.analysis import sql_run  # noqa: E402
from annotation.sql.spider import parse_sql  # noqa: E402

DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
SEED = 4028
# The databases whose turns were read while the rules were written, and the first held-out draw's (seed 4028).
SEEN = (
    "中国城市,大麦网演唱会,soccer_2,gas_company,body_builder,college_2,bike_1,phone_1,storm_record,network_2,"
    "manufactory_1,customer_deliveries,medicine_enzyme_interaction,中国景点,department_store,behavior_monitoring,"
    "inn_1,wine_1,饭店预订"
)
# ... and the second held-out draw's (seed 5040), left out of the third (seed 6040): `--exclude seen2`.
SEEN2 = SEEN + (
    ",世界旅游城市,music_4,products_gen_characteristics,musical,university_basketball,tracking_grants_for_research,"
    "hr_1,solvency_ii"
)
PER_DATABASE = 8
ROWS = 6
_TYPES = {"number": "NUMERIC", "time": "TEXT", "boolean": "INTEGER"}


def readable(sql: str) -> bool:
    try:
        parse_sql(sql)
    except Exception:  # noqa: BLE001 - a turn the platform cannot read is left out of the draw
        return False
    return True


def draw(dialogues: list[dict], turns: int, seed: int, exclude: frozenset = frozenset()) -> list[tuple[str, dict]]:
    """(database, turn) pairs of the held-out draw, from databases not in `exclude`."""
    by_database: dict[str, list[dict]] = {}
    for dialogue in dialogues:
        if dialogue["database_id"] in exclude:
            continue
        by_database.setdefault(dialogue["database_id"], []).extend(dialogue["interaction"])
    names = sorted(by_database)
    random.Random(seed).shuffle(names)
    drawn: list[tuple[str, dict]] = []
    for name in names:
        taken = [turn for turn in by_database[name] if readable(turn["query"])][:PER_DATABASE]
        drawn += [(name, turn) for turn in taken[: turns - len(drawn)]]
        if len(drawn) >= turns:
            break
    return drawn


def _string_literals(sqls: list[str]) -> list[str]:
    found = []
    for sql in sqls:
        try:
            tree = parse_sql(sql)
        except Exception:  # noqa: BLE001, S112 - only readable turns are drawn; this is belt and braces
            continue
        found += [node.this.strip("%") for node in tree.find_all(exp.Literal) if node.is_string]
    return sorted({value for value in found if value})


def synthetic_database(path: Path, schema: dict, sqls: list[str], seed: int) -> None:
    """A SQLite file with `schema`'s tables, ROWS rows each, keys joining, the SQL's strings among the texts."""
    rng = random.Random(seed)
    literals = _string_literals(sqls)
    tables = schema["table_names_original"]
    columns = schema["column_names_original"]
    types = schema["column_types"]
    keys = set(schema.get("primary_keys") or []) | {pair[0] for pair in schema.get("foreign_keys") or []}
    keys |= {index for index, (_, name) in enumerate(columns) if str(name).lower().endswith(("id", "编号"))}
    connection = sqlite3.connect(path)
    for table_index, table in enumerate(tables):
        own = [(index, name) for index, (owner, name) in enumerate(columns) if owner == table_index]
        declared = ", ".join(f'"{name}" {_TYPES.get(types[index], "TEXT")}' for index, name in own)
        connection.execute(f'CREATE TABLE "{table}" ({declared})')
        for row in range(1, ROWS + 1):
            values = [_cell(index, name, types[index], row, index in keys, literals, rng) for index, name in own]
            marks = ", ".join("?" for _ in own)
            connection.execute(f'INSERT INTO "{table}" VALUES ({marks})', values)  # noqa: S608
    connection.commit()
    connection.close()


def _cell(index: int, name: str, kind: str, row: int, key: bool, literals: list[str], rng: random.Random):
    if key:
        return row if kind == "number" else str(row)
    if kind == "number":
        return rng.choice([rng.randint(1, 100), round(rng.uniform(1, 1000), 1)])
    if kind == "time":
        return f"20{rng.randint(10, 22)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if literals and rng.random() < 0.5:
        return rng.choice(literals)
    return f"{name}{row}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--databases-only", action="store_true")
    parser.add_argument("--exclude", default="", help="databases left out of the draw (comma-separated, or 'seen')")
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "bench/ratings/drafts-zh-2026-11-28-heldout.tsv")
    options = parser.parse_args()
    corpora = options.shared / "corpora"
    dialogues = json.loads((corpora / "chase_train.json").read_text(encoding="utf-8"))
    exclude = {"seen": SEEN, "seen2": SEEN2}.get(options.exclude, options.exclude)  # the databases read so far
    drawn = draw(dialogues, options.turns, options.seed, frozenset(filter(None, exclude.split(","))))
    databases = list(dict.fromkeys(name for name, _ in drawn))
    if options.databases_only:
        print(f"seed {options.seed}: {len(drawn)} turns from {', '.join(databases)}")
        return
    from dialogs.assist import draft_for  # the room's own call

    schemas = {entry["db_id"]: entry for entry in json.loads((corpora / "chase_tables.json").read_text("utf-8"))}
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for number, name in enumerate(databases):
            path = Path(directory) / f"{number}.sqlite"
            synthetic_database(path, schemas[name], [turn["query"] for db, turn in drawn if db == name], options.seed)
            for db, turn in drawn:
                if db != name:
                    continue
                result = sql_run(path, turn["query"], count=True)
                if not result["ok"]:
                    result = {"ok": True, "columns": [], "rows": [], "row_count": 0, "truncated": False}
                    shown = "failed on the synthetic database: empty result"
                else:
                    shown = json.dumps(result["rows"][:4], ensure_ascii=False) + f" ({len(result['rows'])} rows)"
                draft = draft_for(schema=schemas[name], sql=turn["query"], result=result, language="zh-hans")
                rows.append([name, turn["utterance"], turn["query"], shown, draft, "", "", ""])
    options.out.parent.mkdir(parents=True, exist_ok=True)
    with options.out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["database", "question", "sql", "result", "draft", "logic", "grammar", "note"])
        writer.writerows(rows)
    print(f"{len(rows)} drafts from {len(databases)} databases written to {options.out}")


if __name__ == "__main__":
    main()
