"""The real wozsql server for the chat benchmark, the replay and the multi-server test: migrate, seed, run Daphne.

Everything runs as a subprocess with its own environment (DATABASE_URL, REDIS_URL, WOZSQL_DATA_DIR, ...), exactly as
a deployment would start it, so the processes under test share nothing with the caller but PostgreSQL and Redis.
Two stacks: `server_env` (PostgreSQL + Redis, DEBUG off, as deployed) and `embedded_env` (what `make run` starts:
SQLite in the data folder, the in-memory channel layer, eager Celery, DEBUG=1, one process).
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
if str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))

from tools.test_stack import free_port, wait_for_port  # noqa: E402

BIN = Path(sys.executable).parent


def dialogue_min_questions() -> int:
    """The questions a dialogue needs before its worker may end it, as the servers started from this environment
    apply it (DIALOGUE_MIN_QUESTIONS, whose default in config/settings.py is 3)."""
    return int(os.environ.get("DIALOGUE_MIN_QUESTIONS") or 3)


def server_env(*, database_url: str, redis_url: str, data_dir: str | Path, **overrides: str) -> dict[str, str]:
    """The environment of a wozsql process on the given stack. Overrides are setting names → values."""
    env = {key: value for key, value in os.environ.items() if key not in ("DJANGO_SETTINGS_MODULE",)}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # The servers run with DEBUG off, as deployed, so they need a key: the caller's, else one for this run
            # (every process of one stack gets the same, so a session signed by one server is valid on the others).
            "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "WOZSQL_DATA_DIR": str(data_dir),
            # No collectstatic here: serve static files from the finders, without the manifest.
            "STATIC_MANIFEST": "0",
            "LOG_LEVEL": "WARNING",
            # Plain HTTP on loopback: no redirect to HTTPS, cookies that a client over http:// gets back.
            "HTTPS": "0",
            "PYTHONUNBUFFERED": "1",
        }
    )
    # The seed's experts (`prepare`) are never onboarded: they take rooms without practice (docs/experts.md).
    env.setdefault("EXPERT_PRACTICE_DIALOGUES", "0")
    env.update({key: str(value) for key, value in overrides.items()})
    return env


# Settings that switch the embedded defaults to something else: left out of an embedded environment even when the
# caller's own environment has them (`make test`'s second pass sets DATABASE_URL and REDIS_URL for its children).
_STACK_SETTINGS = (
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CELERY_TASK_ALWAYS_EAGER",
    "HOUSEKEEPING_IN_PROCESS",
    "DJANGO_SETTINGS_MODULE",
)


def embedded_env(*, data_dir: str | Path, **overrides: str) -> dict[str, str]:
    """The environment `make run` gives its processes: DEBUG=1 and nothing else set, so the platform runs on its
    embedded defaults (SQLite in WOZSQL_DATA_DIR, the in-memory channel layer, eager Celery, housekeeping in the
    process). Only one server process can run on it: the in-memory layer does not reach another process. Creates the
    data folder (SQLite does not create the folder of its file)."""
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    env = {key: value for key, value in os.environ.items() if key not in _STACK_SETTINGS}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "1",
            "WOZSQL_DATA_DIR": str(data_dir),
            "PYTHONUNBUFFERED": "1",
        }
    )
    # The seed's experts (`prepare`) are never onboarded: they take rooms without practice (docs/experts.md).
    env.setdefault("EXPERT_PRACTICE_DIALOGUES", "0")
    env.update({key: str(value) for key, value in overrides.items()})
    return env


def stack_env(
    kind: str,
    resources: contextlib.ExitStack,
    data_dir: str | Path,
    *,
    conn_max_age: int = 60,
    postgres_settings: dict[str, str] | None = None,
    **settings: str,
) -> tuple[dict[str, str], str | None, str | None]:
    """The servers' environment for `kind` and the stores it runs on: (env, database URL, Redis URL).

    "embedded" is the platform as `make run` starts it: DEBUG=1, SQLite in the data folder, the in-memory channel
    layer, eager Celery (no URLs). "services" starts a throwaway PostgreSQL and Redis, kept until `resources` closes,
    and keeps each server thread's PostgreSQL connection `conn_max_age` seconds (a new one per consumer call costs a
    backend fork). `postgres_settings` are the PostgreSQL server's own (tools/test_stack.PostgresCluster)."""
    from tools.test_stack import create_database, postgres_server, redis_server

    if kind == "embedded":
        return embedded_env(data_dir=data_dir, **settings), None, None
    if kind == "sqlite-url":
        # The embedded stack with the SQLite file where a lab puts it, named by DATABASE_URL (the platform must give
        # it the embedded default's SQLite options: config/settings.py, SQLITE_OPTIONS).
        elsewhere = Path(data_dir).parent / "elsewhere"
        elsewhere.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{elsewhere / 'lab.sqlite3'}"
        return embedded_env(data_dir=data_dir, DATABASE_URL=url, **settings), url, None
    database_url = resources.enter_context(postgres_server(settings=postgres_settings))
    redis_url = resources.enter_context(redis_server())
    create_database(database_url)
    env = server_env(
        database_url=database_url, redis_url=redis_url, data_dir=data_dir, DB_CONN_MAX_AGE=conn_max_age, **settings
    )
    return env, database_url, redis_url


def is_embedded(env: dict[str, str]) -> bool:
    """Whether the stack is one process on SQLite (the embedded default, or a sqlite:// DATABASE_URL)."""
    return sqlite_file(env) is not None


def sqlite_file(env: dict[str, str]) -> Path | None:
    """The platform's SQLite file on this stack, or None on PostgreSQL."""
    url = env.get("DATABASE_URL")
    if not url:
        return Path(env["WOZSQL_DATA_DIR"]) / "wozsql.sqlite3"
    if url.startswith("sqlite:///"):
        return Path("/" + url[len("sqlite:///") :].lstrip("/"))  # sqlite:////abs/path and sqlite:///abs/path alike
    return None


def read_rows(env: dict[str, str], sql: str, params: list) -> list[tuple]:
    """Run one statement on the stack's database from outside the project (sqlite3, read-only; or psycopg2, on its
    own: autocommit, so no BEGIN of the bench's among the statements a round counts), for the checks after a run;
    its rows (none for a statement that returns none). `sql` uses %s placeholders; `IN %s` with a list expands to one
    placeholder per item."""

    def expand(mark: str) -> tuple[str, list]:
        flat, out = [], sql
        for value in params:
            if isinstance(value, (list, tuple)):
                out = out.replace("IN %s", "IN (" + ", ".join(["%s"] * max(len(value), 1)) + ")", 1)
                flat.extend(value or [None])
            else:
                flat.append(value)
        return out.replace("%s", mark), flat

    if is_embedded(env):
        query, flat = expand("?")
        connection = sqlite3.connect(f"file:{sqlite_file(env)}?mode=ro", uri=True)
        try:
            return connection.execute(query, flat).fetchall()
        finally:
            connection.close()
    import psycopg2

    query, flat = expand("%s")
    connection = psycopg2.connect(env["DATABASE_URL"])
    try:
        connection.autocommit = True
        with connection.cursor() as cursor:
            cursor.execute(query, flat)
            return cursor.fetchall() if cursor.description else []
    finally:
        connection.close()


# What counts as a server failure in a Daphne log.
LOG_PROBLEMS = ("Traceback", "OperationalError", "database is locked")


def log_problems(text: str) -> tuple[list[str], list[str]]:
    """The problems in a server log: (one summary per traceback: its exception line and its innermost frames,
    every line naming one of LOG_PROBLEMS outside a traceback)."""
    tracebacks, lines = [], []
    rows = text.splitlines()
    index = 0
    while index < len(rows):
        row = rows[index]
        if row.startswith("Traceback (most recent call last)"):
            frames = []
            index += 1
            while index < len(rows) and (rows[index].startswith((" ", "\t")) or not rows[index].strip()):
                found = re.match(r'\s+File "([^"]+)", line (\d+), in (.+)', rows[index])
                if found:
                    path = found.group(1).replace(str(PROJECT_ROOT) + "/", "")
                    frames.append(f"{path}:{found.group(2)} {found.group(3)}")
                index += 1
            exception = rows[index].strip() if index < len(rows) else "(no exception line)"
            # A chained traceback ("During handling ...", "The above exception ...") is summarised on its own.
            tracebacks.append(f"{exception[:300]}  <- " + " <- ".join(reversed(frames[-4:])))
            index += 1
            continue
        if any(problem in row for problem in LOG_PROBLEMS):
            lines.append(row.strip()[:300])
        index += 1
    return tracebacks, lines


def manage(env: dict[str, str], *args: str, timeout: float = 900) -> str:
    """Run `manage.py ARGS` in a subprocess; return its output, or raise with it on failure."""
    done = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "manage.py"), *args],
        env=env,
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args[:2])} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


# Run by `manage.py shell -c`: the project's own services create the demo data; the scripted accounts share one
# password hash because hashing it (about 0.4 s each with Django's PBKDF2 defaults) per account would dominate setup.
_SEED = """
import os
from django.contrib.auth.hashers import make_password
from django.utils import timezone
from annotation.models import User
from annotation.demo import demo_load

if os.environ.get("SEED_DEMO", "1") == "1":
    demo_load()
prefix, count, password = os.environ["SEED_PREFIX"], int(os.environ["SEED_COUNT"]), os.environ["SEED_PASSWORD"]
hashed, now = make_password(password), timezone.now()
people = [User(username=f"{prefix}w{i}", role="worker", password=hashed, tutorial_passed_at=now) for i in range(count)]
people += [User(username=f"{prefix}e{i}", role="expert", password=hashed) for i in range(count)]
User.objects.bulk_create(people, ignore_conflicts=True)
print(User.objects.filter(username__startswith=prefix).count())
"""


def prepare(env: dict[str, str], *, accounts: int, prefix: str, password: str, demo: bool = True) -> None:
    """Migrate, load the demo databases and goals (unless not `demo`), and create `accounts` workers (tutorial
    passed) and as many experts, named PREFIXw0.. and PREFIXe0..."""
    manage(env, "migrate", "--noinput")
    seed_env = {**env, "SEED_PREFIX": prefix, "SEED_COUNT": str(accounts), "SEED_PASSWORD": password}
    seeded = manage({**seed_env, "SEED_DEMO": "1" if demo else "0"}, "shell", "-c", _SEED)
    if int(seeded.strip().splitlines()[-1]) != 2 * accounts:
        raise RuntimeError(f"seeding created {seeded.strip()} accounts, expected {2 * accounts}")


def worker_name(prefix: str, index: int) -> str:
    return f"{prefix}w{index}"


def expert_name(prefix: str, index: int) -> str:
    return f"{prefix}e{index}"


def _healthy(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        finally:
            connection.close()
        if time.monotonic() > deadline:
            raise TimeoutError(f"Daphne on port {port} never answered /healthz")
        time.sleep(0.1)


class Server:
    """One Daphne process on a port of its own. It can be killed (SIGKILL: no goodbye to anyone) and started again on
    the same port, so clients that fail over by URL find it again."""

    def __init__(self, env: dict[str, str], port: int, log: Path):
        self.env, self.port, self.log = env, port, log
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def start(self) -> None:
        """Spawn the process (its output appended to `log`); `wait_ready` waits until it serves."""
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
                env=self.env,
                cwd=PROJECT_ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        try:
            wait_for_port(self.port, timeout)
            _healthy(self.port, timeout)
        except TimeoutError:
            raise RuntimeError(f"Daphne did not start ({self.url}); its log:\n{self.log.read_text()[-4000:]}")

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill: the process closes nothing and tells nobody."""
        self.process.kill()
        self.process.wait()

    def terminate(self) -> None:
        """SIGTERM; `wait_stopped` waits for the exit (several servers stop in parallel)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def wait_stopped(self, timeout: float = 15) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextlib.contextmanager
def daphne_servers(env: dict[str, str], count: int, log_dir: str | Path, timeout: float = 60) -> Iterator[list[Server]]:
    """Start `count` Daphne processes on the same stack; yield them once each answers /healthz. Each is stopped on
    exit, including one that was killed and started again meanwhile."""
    Path(log_dir).mkdir(parents=True, exist_ok=True)
    servers = [Server(env, free_port(), Path(log_dir) / f"daphne-{number}.log") for number in range(count)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready(timeout)
        yield servers
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait_stopped()
