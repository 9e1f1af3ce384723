"""Benchmark: goals sampled per second (annotation.goals.sampler) for a typical Spider database and the largest.

Usage: .venv/bin/python bench/goals.py [--count 100] [--seed 1] [--databases concert_singer,world_1,sakila_1,formula_1]

For each database: the time to sample --count goals (each drawn, written as SQL, run in the sandbox, checked for
rows and encoded), goals per second, the share of draws kept, and beside it the floor: the same number of the kept
goals' SQL run once more through the sandbox alone (what execution by itself costs), so a reader sees how much of the
time is drawing and encoding. Also the coverage of tables and columns the goals reach and their hardness mix.
Defaults: concert_singer and world_1 (typical sizes), sakila_1 (the largest file of ../shared) and formula_1 (the most
columns of those whose file is there, and tables of hundreds of thousands of rows).
"""

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from annotation.goals.sampler import GoalSampler, coverage  # noqa: E402
from annotation.sql.sandbox import execute_many  # noqa: E402

SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--databases", default="concert_singer,world_1,sakila_1,formula_1")
    options = parser.parse_args()
    entries = {entry["db_id"]: entry for entry in json.loads((SHARED / "spider" / "tables.json").read_text())}
    header = f"{'database':<16} {'tables':>6} {'columns':>7} {'goals':>6} {'seconds':>8} {'goals/s':>8} {'floor s':>8}"
    print(header + "  coverage  mix")
    for db_id in options.databases.split(","):
        schema, path = entries[db_id], SHARED / "spider" / "database" / db_id / f"{db_id}.sqlite"
        sampler = GoalSampler(schema, path, random.Random(options.seed))
        started = time.perf_counter()
        goals = sampler.sample(options.count)
        elapsed = time.perf_counter() - started
        started = time.perf_counter()
        execute_many(path, [goal.sql for goal in goals])
        floor = time.perf_counter() - started
        reach = coverage([goal.sql for goal in goals], schema)
        mix = Counter(goal.hardness for goal in goals)
        print(
            f"{db_id:<16} {len(schema['table_names_original']):>6} {len(schema['column_names_original']) - 1:>7} "
            f"{len(goals):>6} {elapsed:>8.2f} {len(goals) / elapsed:>8.1f} {floor:>8.2f}  "
            f"t {reach['tables']:.0%} c {reach['columns']:.0%}  "
            + " ".join(f"{level} {mix[level]}" for level in ("easy", "medium", "hard", "extra"))
        )


if __name__ == "__main__":
    main()
