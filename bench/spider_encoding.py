"""Throughput of Spider encoding + hardness on the 1,171 oracle queries.

Usage: .venv/bin/python bench/spider_encoding.py [--rounds N] [--shared PATH]
Prints queries/second for each round and the best one; the target is >= 1,000 queries/s.
"""

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from annotation.sql.hardness import hardness  # noqa: E402
from annotation.sql.spider import encode_sql  # noqa: E402

DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))


def load_oracle(shared: Path) -> list[tuple[str, dict, str]]:
    """Return (query, schema, expected hardness) for every oracle row."""
    with open(shared / "spider" / "tables.json", encoding="utf-8") as handle:
        schemas = {schema["db_id"]: schema for schema in json.load(handle)}
    with open(shared / "samples" / "hardness_oracle.tsv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [(row["query"], schemas[row["db_id"]], row["hardness"]) for row in rows]


def run_round(cases: list[tuple[str, dict, str]]) -> float:
    """Encode and grade every case once; return queries per second. Fails loudly on a wrong level."""
    start = time.perf_counter()
    for query, schema, expected in cases:
        level = hardness(encode_sql(query, schema, limit_mode="value"))
        if level != expected:
            raise SystemExit(f"hardness mismatch ({level} != {expected}): {query}")
    return len(cases) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()

    cases = load_oracle(args.shared)
    rates = []
    for round_number in range(1, args.rounds + 1):
        rate = run_round(cases)
        rates.append(rate)
        print(f"round {round_number}: {len(cases)} queries, {rate:,.0f} queries/s")
    print(f"best: {max(rates):,.0f} queries/s (target >= 1,000)")


if __name__ == "__main__":
    main()
