"""Throughput of CHASE relation detection over the follow-up pairs of the CHASE sample.

Usage: .venv/bin/python bench/relations.py [--rounds N] [--passes N] [--shared PATH]

A round runs the sample's 178 follow-up pairs (previous SQL, current SQL, schema) `--passes` times. Before each pass
the shape cache is emptied, so every distinct query is parsed once per pass: a dialogue's query is the current query
of one pair and the previous query of the next, as in a file given to `manage.py sql_relation`. Repeating a pass over
a warm cache would only measure dictionary lookups. A last line gives the worst case, both queries of every pair
parsed. Prints pairs/second per round, the best and the median round; the target is >= 5,000 pairs/s. Rounds are
short so that the best one shows the code's speed on a shared, noisy machine and the median shows the noise.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from annotation.labels.relations import clear_shape_cache, detect_relation  # noqa: E402

DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))


def load_pairs(shared: Path) -> list[tuple[str, str, dict]]:
    """(previous query, current query, schema) for every follow-up turn of the CHASE sample, in dialogue order."""
    with open(shared / "samples" / "chase_tables_sample.json", encoding="utf-8") as handle:
        schemas = {schema["db_id"]: schema for schema in json.load(handle)}
    with open(shared / "samples" / "chase_dev_sample.json", encoding="utf-8") as handle:
        interactions = json.load(handle)
    pairs = []
    for interaction in interactions:
        turns = interaction["interaction"]
        schema = schemas[interaction["database_id"]]
        follow_ups = zip(turns, turns[1:], strict=False)
        pairs.extend((previous["query"], current["query"], schema) for previous, current in follow_ups)
    return pairs


def run_round(pairs: list[tuple[str, str, dict]], passes: int, *, reuse: bool = True) -> float:
    """Detect every pair `passes` times; return pairs per second."""
    start = time.perf_counter()
    for _ in range(passes):
        clear_shape_cache()
        for previous, current, schema in pairs:
            if not reuse:
                clear_shape_cache()
            detect_relation(previous, current, schema)
    return passes * len(pairs) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()

    pairs = load_pairs(args.shared)
    run_round(pairs, 1)  # warm-up: imports, the schema index, sqlglot's first-use caches
    rates = []
    for round_number in range(1, args.rounds + 1):
        rate = run_round(pairs, args.passes)
        rates.append(rate)
        print(f"round {round_number}: {args.passes} x {len(pairs)} pairs, {rate:,.0f} pairs/s")
    print(f"best: {max(rates):,.0f} pairs/s, median {statistics.median(rates):,.0f} (target >= 5,000)")
    worst_case = max(run_round(pairs, args.passes, reuse=False) for _ in range(args.rounds))
    print(f"no reuse (both queries of every pair parsed): best {worst_case:,.0f} pairs/s")


if __name__ == "__main__":
    main()
