"""What a large database upload costs everybody else on the server: another person's page latency while an admin
uploads a big SQLite file, beside the same page's latency with nothing uploaded (the floor, measured in the same run).

    .venv/bin/python bench/upload.py [--mb 150] [--uploads 2] [--stack embedded|services]

Starts the real server (bench/stack.py: Daphne with config.asgi, the embedded defaults as `make run` has them, or
PostgreSQL + Redis with `--stack services`), signs the demo admin and the demo expert in through the login form, and
builds a SQLite file of about `--mb` MB (one table of random text, so the file is as large as it says). The expert
fetches a light page (the database list) again and again, one request after the other; for `--floor-seconds` with no
upload, then while the admin uploads the file through the upload form (the whole request: body sent, file checked,
copied, registered, its profile read). Printed: the expert's median and worst latency in each phase, and the upload's
own time. The figure that matters is the worst latency during an upload beside the floor's worst: what one upload
stalls another person's page by.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import secrets
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from bench.stack import daphne_servers, manage, stack_env  # noqa: E402
from bench.wozclient import login  # noqa: E402

ADMIN, EXPERT, PASSWORD = "ada", "erin", "wozsql-demo"  # the demo accounts (annotation.demo)
LIGHT_PAGE = "/databases/"


def build_file(path: Path, megabytes: int) -> None:
    """A SQLite file of about `megabytes` MB: rows of random text in one table (random, so nothing compresses)."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE reading (id INTEGER PRIMARY KEY, station TEXT, note TEXT)")
    connection.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
        "INSERT INTO reading SELECT i, 'station ' || (i % 50), hex(randomblob(500)) FROM n",
        (megabytes * 1024,),  # about 1 KiB per row
    )
    connection.commit()
    connection.close()


def cookie_value(cookie: str, name: str) -> str:
    return dict(part.split("=", 1) for part in cookie.split("; "))[name]


def upload(base_url: str, cookie: str, path: Path, db_id: str) -> tuple[float, int, str]:
    """POST the file through the upload form, streamed from disk; (seconds, status, where it redirected to)."""
    boundary = secrets.token_hex(16)
    token = cookie_value(cookie, "csrftoken")
    fields = {"csrfmiddlewaretoken": token, "db_id": db_id, "description": "bench upload"}
    head = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    )
    head += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{path.name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()

    def body():
        yield head
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                yield chunk
        yield tail

    parts = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
    headers = {
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Content-Length": str(len(head) + path.stat().st_size + len(tail)),
        "Cookie": cookie,
        "Referer": f"{base_url}/databases/upload/",
    }
    started = time.perf_counter()
    try:
        connection.request("POST", "/databases/upload/", body=body(), headers=headers)
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    return time.perf_counter() - started, response.status, response.headers.get("Location", "")


class Watcher(threading.Thread):
    """Fetches the light page one request after another, keeping (start, latency) of each."""

    def __init__(self, base_url: str, cookie: str):
        super().__init__(daemon=True)
        parts = urllib.parse.urlsplit(base_url)
        self.host, self.port, self.cookie = parts.hostname, parts.port, cookie
        self.samples: list[tuple[float, float]] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        while not self.stopping.is_set():
            started = time.perf_counter()
            connection.request("GET", LIGHT_PAGE, headers={"Cookie": self.cookie})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"GET {LIGHT_PAGE} answered {response.status}")
            self.samples.append((started, time.perf_counter() - started))
        connection.close()

    def between(self, start: float, end: float) -> list[float]:
        """Latencies of the requests that overlapped [start, end]."""
        return [latency for begun, latency in self.samples if begun <= end and begun + latency >= start]


def describe(label: str, latencies: list[float]) -> str:
    return f"{label:<26} {len(latencies):>6} {statistics.median(latencies) * 1000:>9.1f} {max(latencies) * 1000:>9.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=150, help="the uploaded file's size in MB")
    parser.add_argument("--uploads", type=int, default=2, help="uploads, one after the other")
    parser.add_argument("--floor-seconds", type=float, default=10)
    parser.add_argument("--stack", choices=("embedded", "services"), default="embedded")
    args = parser.parse_args()

    with contextlib.ExitStack() as resources:
        work = Path(resources.enter_context(tempfile.TemporaryDirectory(prefix="wozsql-upload-bench-")))
        env, _database_url, _redis_url = stack_env(args.stack, resources, work / "data", LOG_LEVEL="WARNING")
        manage(env, "migrate", "--noinput")
        manage(env, "load_demo")
        upload_file = work / "big.sqlite"
        build_file(upload_file, args.mb)
        size_mb = upload_file.stat().st_size / 1e6
        with daphne_servers(env, 1, work / "logs") as (server,):
            admin_cookie, expert_cookie = login(server.url, ADMIN, PASSWORD), login(server.url, EXPERT, PASSWORD)
            watcher = Watcher(server.url, expert_cookie)
            watcher.start()
            time.sleep(1)  # warm: the first requests import templates and open connections
            floor_start = time.perf_counter()
            time.sleep(args.floor_seconds)
            floor = watcher.between(floor_start, time.perf_counter())
            during, uploads = [], []
            for number in range(args.uploads):
                started = time.perf_counter()
                seconds, status, location = upload(server.url, admin_cookie, upload_file, f"bench_upload_{number}")
                if status != 302 or "bench_upload" not in location:
                    raise RuntimeError(f"the upload answered {status} ({location or 'no redirect'})")
                uploads.append(seconds)
                during += watcher.between(started, time.perf_counter())
                time.sleep(1)
            watcher.stopping.set()
            watcher.join()
    print(
        f"{args.stack} stack, a {size_mb:.0f} MB file uploaded {args.uploads} times "
        f"({', '.join(f'{seconds:.1f}' for seconds in uploads)} s each), load average {os.getloadavg()[0]:.2f}"
    )
    print(f"{'GET ' + LIGHT_PAGE:<26} {'n':>6} {'p50 ms':>9} {'worst ms':>9}")
    print(describe("floor: no upload", floor))
    print(describe("during an upload", during))
    return 0


if __name__ == "__main__":
    sys.exit(main())
