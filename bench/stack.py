"""The real wozsql server for the chat benchmark and the multi-server test: migrate, seed, run Daphne processes.

Everything runs as a subprocess with its own environment (DATABASE_URL, REDIS_URL, WOZSQL_DATA_DIR, ...), exactly as
a deployment would start it, so the processes under test share nothing with the caller but PostgreSQL and Redis.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
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
    env.update({key: str(value) for key, value in overrides.items()})
    return env


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
from annotation.services import demo_load

demo_load()
prefix, count, password = os.environ["SEED_PREFIX"], int(os.environ["SEED_COUNT"]), os.environ["SEED_PASSWORD"]
hashed, now = make_password(password), timezone.now()
people = [User(username=f"{prefix}w{i}", role="worker", password=hashed, tutorial_passed_at=now) for i in range(count)]
people += [User(username=f"{prefix}e{i}", role="expert", password=hashed) for i in range(count)]
User.objects.bulk_create(people, ignore_conflicts=True)
print(User.objects.filter(username__startswith=prefix).count())
"""


def prepare(env: dict[str, str], *, accounts: int, prefix: str, password: str) -> None:
    """Migrate, load the demo databases and goals, and create `accounts` workers (tutorial passed) and as many
    experts, named PREFIXw0.. and PREFIXe0..."""
    manage(env, "migrate", "--noinput")
    seeded = manage(
        {**env, "SEED_PREFIX": prefix, "SEED_COUNT": str(accounts), "SEED_PASSWORD": password}, "shell", "-c", _SEED
    )
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
