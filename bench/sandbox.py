"""Benchmark: the SQL sandbox against plain sqlite3 on the Spider dev sample.

Runs every query of the sample through plain ``sqlite3`` (one connection per database, opened once and reused,
``fetchall``) and through ``annotation.sql.sandbox.execute``, alternating the two in the same run after a warm-up,
and reports the median total of each and their ratio. Exits 1 when the ratio is above the target.

    .venv/bin/python bench/sandbox.py [--reps 9] [--target 1.3] [--sample PATH] [--databases DIR]
"""

import argparse
import json
import os
import sqlite3
import statistics
import sys
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))

from annotation.sql.sandbox import SandboxLimits, execute, shutdown  # noqa: E402


def load_limits() -> SandboxLimits:
    """The project's settings when Django loads, else the built-in defaults (same values)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        import django

        django.setup()
    except Exception as exc:  # the benchmark must also run where Django or its settings are unavailable
        print(f"(Django settings unavailable: {exc}; using SandboxLimits defaults)")
        return SandboxLimits()
    return SandboxLimits.from_settings()


def run_plain(queries, connections) -> float:
    started = time.perf_counter()
    for path, sql in queries:
        connections[path].execute(sql).fetchall()
    return time.perf_counter() - started


def run_sandbox(queries, limits) -> tuple[float, list]:
    started = time.perf_counter()
    results = [execute(path, sql, limits=limits) for path, sql in queries]
    return time.perf_counter() - started, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--target", type=float, default=1.3)
    parser.add_argument("--sample", type=Path, default=SHARED / "samples" / "spider_dev_sample.json")
    parser.add_argument("--databases", type=Path, default=SHARED / "spider" / "database")
    args = parser.parse_args()

    limits = load_limits()
    records = json.loads(args.sample.read_text())
    queries = [(str(args.databases / r["db_id"] / f"{r['db_id']}.sqlite"), r["query"]) for r in records]
    connections = {path: sqlite3.connect(path) for path in {path for path, _ in queries}}

    # Warm-up: page caches, statement caches and the worker pool on both sides; also the correctness check.
    expected = [len(connections[path].execute(sql).fetchall()) for path, sql in queries]
    _, results = run_sandbox(queries, limits)
    failures = [(q, r.error) for q, r in zip(queries, results) if not r.ok]
    mismatches = [
        q for q, r, n in zip(queries, results, expected) if r.ok and r.row_count != min(n, limits.max_rows)
    ]
    run_plain(queries, connections)

    plain_times, sandbox_times = [], []
    for _ in range(args.reps):
        plain_times.append(run_plain(queries, connections))
        sandbox_times.append(run_sandbox(queries, limits)[0])
    shutdown()

    plain = statistics.median(plain_times)
    sandbox = statistics.median(sandbox_times)
    ratio = sandbox / plain
    n = len(queries)
    print(f"queries: {n} on {len(connections)} databases, {args.reps} repetitions (median of totals)")
    print(f"limits: timeout {limits.timeout_ms} ms, {limits.max_rows} rows, {limits.workers} workers")
    print(f"plain sqlite3: {plain * 1000:8.1f} ms  ({plain / n * 1e6:6.1f} us/query)")
    print(f"sandbox:       {sandbox * 1000:8.1f} ms  ({sandbox / n * 1e6:6.1f} us/query)")
    print(f"overhead:      {(sandbox - plain) / n * 1e6:6.1f} us/query")
    print(f"ratio:         {ratio:.3f}  (target <= {args.target})")
    print(f"sandbox errors: {len(failures)}, row-count mismatches: {len(mismatches)}")
    for query, error in failures[:5]:
        print("  error:", query[1][:80], error)
    ok = ratio <= args.target and not failures and not mismatches
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
