"""Benchmark: test-suite builds and `sql_compare` on the seven public sample databases (docs/test_suites.md).

For each database the sample queries (Spider, SParC and CoSQL gold) are the goal set. It builds the suite with the
platform's bounds (TEST_SUITE_* settings), then times `sql_compare` on the suite alone on pairs of a sample query and
one of its neighbours (half of them told apart, half not, as they come), beside a floor measured in the same run: the
same query run once on the original alone through the sandbox. Then the meaning-changing mutants of the sample
queries (`>` made `>=`, AND made OR, ASC made DESC before a LIMIT: bench/sql_compare_search.py) that the original
cannot tell apart: how many the suite tells apart, and how many the search tells apart with no suite and no goal
(SQL_COMPARE_SECONDS each). Prints one line per database and the machine's load average.

    .venv/bin/python bench/suite_build.py [--databases car_1,world_1] [--pairs 60] [--out /tmp/suites] [--no-search]
"""

import argparse
import json
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
SAMPLE_DATABASES = "car_1,concert_singer,dog_kennels,flight_2,pets_1,student_transcripts_tracking,world_1"


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    import django

    django.setup()


def sample_queries(db_id: str) -> list[str]:
    samples = SHARED / "samples"
    spider = json.loads((samples / "spider_dev_sample.json").read_text())
    queries = [item["query"] for item in spider if item["db_id"] == db_id]
    for name in ("sparc_dev_sample.json", "cosql_dev_sample.json"):
        for dialogue in json.loads((samples / name).read_text()):
            if dialogue["database_id"] == db_id:
                queries.extend(turn["query"] for turn in dialogue["interaction"])
    return list(dict.fromkeys(queries))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default=SAMPLE_DATABASES)
    parser.add_argument("--pairs", type=int, default=60, help="sql_compare pairs timed per database")
    parser.add_argument("--out", type=Path, default=None, help="keep the suites here (default: a temporary folder)")
    parser.add_argument("--no-search", action="store_true", help="leave out the mutants told apart by the search")
    args = parser.parse_args()
    setup()
    from django.conf import settings

    from annotation.sql.results import order_matters, results_equal
    from annotation.sql.sandbox import execute, execute_many
    from annotation.suites.builds import suite_bounds
    from annotation.suites.compare import CompareError, sql_compare
    from annotation.suites.distil import build_suite, mutants
    from bench.sql_compare_search import meaning_changing

    out = args.out or Path(tempfile.mkdtemp(prefix="suites-"))
    bounds = suite_bounds()
    print(f"bounds: {bounds}; load average before: {os.getloadavg()}")
    rows = []
    for db_id in args.databases.split(","):
        original = SHARED / "spider" / "database" / db_id / f"{db_id}.sqlite"
        queries = sample_queries(db_id)
        target = out / db_id
        shutil.rmtree(target, ignore_errors=True)
        started = time.perf_counter()
        report = build_suite(original, target, queries, bounds=bounds)
        build_seconds = time.perf_counter() - started
        paths = [original, *(target / name for name in report.files)]
        compare_ms, floor_ms, differ = [], [], 0
        for sql in queries:
            if len(compare_ms) >= args.pairs:
                break
            for neighbour in mutants(sql)[:1]:
                try:
                    began = time.perf_counter()
                    result = sql_compare(paths, sql, neighbour)
                    compare_ms.append((time.perf_counter() - began) * 1000)
                except CompareError:
                    continue
                differ += not result["equivalent"]
                began = time.perf_counter()
                execute(original, sql)
                floor_ms.append((time.perf_counter() - began) * 1000)
        hidden = []
        for sql in queries:
            try:
                candidates = [mutant for _, mutant in meaning_changing(sql)]
            except Exception:  # noqa: BLE001 - sqlglot cannot read it: no mutants
                continue
            ran = execute_many(original, [sql, *candidates])
            if not ran[0].ok or ran[0].truncated:
                continue
            for mutant, result in zip(candidates, ran[1:], strict=True):
                if result.ok and results_equal(ran[0].rows, result.rows, ordered=order_matters(sql)):
                    hidden.append((sql, mutant))
        by_suite = sum(not sql_compare(paths, sql, mutant)["equivalent"] for sql, mutant in hidden)
        by_search, search_ms = 0, []
        if not args.no_search:
            for sql, mutant in hidden:
                began = time.perf_counter()
                found = sql_compare([original], sql, mutant, seconds=settings.SQL_COMPARE_SECONDS)
                by_search += not found["equivalent"]
                search_ms.append((time.perf_counter() - began) * 1000)
        figures = report.figures()
        row = {
            "db_id": db_id,
            "queries": figures["queries"],
            "build_s": round(build_seconds, 1),
            "databases": figures["databases"],
            "size_kb": round(figures["size_bytes"] / 1024),
            "power": figures["power"],
            "hidden": figures["hidden_on_original"],
            "told_apart": figures["told_apart_by_suite"],
            "pairs_timed": len(compare_ms),
            "pairs_different": differ,
            "compare_median_ms": round(statistics.median(compare_ms), 1) if compare_ms else None,
            "compare_p95_ms": round(percentile(compare_ms, 0.95), 1) if compare_ms else None,
            "floor_one_run_median_ms": round(statistics.median(floor_ms), 2) if floor_ms else None,
            "stopped_by": figures["stopped_by"],
            "mutants_hidden_on_original": len(hidden),
            "told_apart_by_suite": by_suite,
            "told_apart_by_search_alone": None if args.no_search else by_search,
            "search_median_ms": round(statistics.median(search_ms), 1) if search_ms else None,
            "search_p95_ms": round(percentile(search_ms, 0.95), 1) if search_ms else None,
            "load": [round(value, 2) for value in os.getloadavg()],
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    builds = [row["build_s"] for row in rows]
    compares = [row["compare_median_ms"] for row in rows if row["compare_median_ms"] is not None]
    print(
        f"build: median {statistics.median(builds):.1f} s, max {max(builds):.1f} s; "
        f"compare: median of medians {statistics.median(compares):.1f} ms; load average after: {os.getloadavg()}"
    )
    if args.out is None:
        shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
