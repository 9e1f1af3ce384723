"""The first SQL run after a server starts, beside the runs after it: a sandbox pool started with the server (config/
asgi.py) answers the first run as fast as the next ones; started on the first run, it made that run wait for the
workers to start (11.3 s was measured on a loaded machine).

    .venv/bin/python bench/first_run.py [--starts 3]

Each start is `make run`'s platform (one Daphne, DEBUG=1, SQLite in a throwaway data folder, the demo loaded). As soon
as /healthz answers, an expert signs in through the form and runs one query on the database page's endpoint; then
the same query five times more. Printed per start: the first run's time and the median of the later ones (the floor,
measured in the same run), with the load average.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from bench import stack  # noqa: E402
from bench.wozclient import login  # noqa: E402

SQL = "SELECT count(*) FROM student"


def run_once(port: int, cookie: str) -> float:
    token = next(part.split("=", 1)[1] for part in cookie.split("; ") if part.startswith("csrftoken="))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    connection.request(
        "POST",
        "/databases/dorm_demo/sql/run/",
        body=json.dumps({"sql": SQL}),
        headers={
            "Content-Type": "application/json",
            "Cookie": cookie,
            "X-CSRFToken": token,
            "Referer": f"http://127.0.0.1:{port}/databases/dorm_demo/",
        },
    )
    response = connection.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    if response.status != 200 or not json.loads(body).get("execution", {}).get("ok"):
        raise RuntimeError(f"the run answered {response.status}: {body[:300]!r}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wozsql-first-run-") as folder:
        env = stack.embedded_env(data_dir=folder)
        stack.prepare(env, accounts=1, prefix="fr", password="first-run-password")
        print(f"{'start':>5} {'first run (ms)':>15} {'later runs, median (ms)':>24} {'load average':>13}")
        for start in range(1, args.starts + 1):
            with stack.daphne_servers(env, 1, Path(folder) / "logs") as (server,):
                cookie = login(server.url, stack.expert_name("fr", 0), "first-run-password")
                first = run_once(server.port, cookie)
                later = [run_once(server.port, cookie) for _ in range(5)]
                load = os.getloadavg()[0]
                print(f"{start:>5} {first * 1000:>15.1f} {statistics.median(later) * 1000:>24.1f} {load:>13.2f}")


if __name__ == "__main__":
    main()
