"""Real PostgreSQL and Redis servers for the test suite and the benchmarks, started on loopback and thrown away.

    python tools/test_stack.py ensure-system-packages      # apt-get install what is missing (when root)
    python tools/test_stack.py with-services -- CMD ...     # run CMD with DATABASE_URL and REDIS_URL set

Importable too: `postgres_server()` and `redis_server()` are context managers yielding a URL, used by the benchmarks
and by tests that start several Daphne processes on one stack; `postgres_cluster()` and `redis_instance()` yield
servers that can be stopped and started again on the same port (the fault-injection tests restart them). Nothing here
is mocked: these are the Debian servers.
"""

import contextlib
import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

# gettext: the test that every marked string is in the committed catalogue extracts them with xgettext (docs/i18n.md).
SYSTEM_PACKAGES = {
    "postgresql": "initdb",
    "redis-server": "redis-server",
    "chromium": "/usr/bin/chromium",
    "gettext": "xgettext",
}


def _find_pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def missing_packages() -> list[str]:
    missing = []
    for package, probe in SYSTEM_PACKAGES.items():
        present = os.path.exists(probe) if probe.startswith("/") else bool(_find_pg_bin(probe) or shutil.which(probe))
        if not present:
            missing.append(package)
    return missing


def ensure_system_packages() -> int:
    missing = missing_packages()
    if not missing:
        return 0
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(
            f"test_stack: missing {', '.join(missing)}; install them (apt-get install {' '.join(missing)}) "
            "to run the PostgreSQL/Redis/browser tests.",
            file=sys.stderr,
        )
        return 0
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"test_stack: installing {', '.join(missing)} with apt-get", file=sys.stderr)
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True, env=env, stdout=subprocess.DEVNULL)
    return 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def _as_postgres_user():
    """PostgreSQL refuses to run as root: drop to the `postgres` account when we are root."""
    if os.geteuid() != 0:
        return None, None
    entry = pwd.getpwnam("postgres")
    return entry.pw_uid, entry.pw_gid


class PostgresCluster:
    """A throwaway PostgreSQL cluster on a free loopback port (superuser, trust auth), that can be stopped and started
    again on the same data folder and port, as a database server restarts under a running application."""

    def __init__(self, max_connections: int = 300, settings: dict[str, str] | None = None):
        # More server settings (e.g. a library to preload): pg_ctl hands its options to a shell, so only plain names
        # and values are taken.
        extra = ""
        for name, value in (settings or {}).items():
            if not re.fullmatch(r"[\w.]+", name) or not re.fullmatch(r"[\w.,-]+", value):
                raise ValueError(f"PostgreSQL setting {name}={value!r}: only letters, digits, _ . , - are passed on")
            extra += f" -c {name}={value}"
        self.initdb, self.pg_ctl = _find_pg_bin("initdb"), _find_pg_bin("pg_ctl")
        if not self.initdb or not self.pg_ctl:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.uid, self.gid = _as_postgres_user()
        self.folder = tempfile.mkdtemp(prefix="wozsql-pg-")
        if self.uid is not None:
            os.chown(self.folder, self.uid, self.gid)
        self.data, self.port = os.path.join(self.folder, "data"), free_port()
        self.options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
            f"-c full_page_writes=off -c max_connections={max_connections}{extra}"
        )
        self._run([self.initdb, "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/wozsql"

    def _run(self, args: list[str], check: bool = True) -> None:
        done = subprocess.run(args, user=self.uid, group=self.gid, capture_output=True, text=True)
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} ... failed ({done.returncode}):\n{done.stdout}{done.stderr}")

    def start(self) -> None:
        """Start the server and return once it accepts connections (`pg_ctl -w`)."""
        log = os.path.join(self.folder, "log")
        self._run([self.pg_ctl, "-D", self.data, "-o", self.options, "-l", log, "-w", "start"])

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: `fast` ends every session (clients see their connection terminated), `immediate` is a
        crash (recovery runs at the next start)."""
        self._run([self.pg_ctl, "-D", self.data, "-m", mode, "-w", "stop"])

    def restart(self, mode: str = "fast") -> None:
        self.stop(mode)
        self.start()

    def remove(self) -> None:
        self._run([self.pg_ctl, "-D", self.data, "-m", "immediate", "stop"], check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def postgres_cluster(max_connections: int = 300, settings: dict[str, str] | None = None) -> Iterator[PostgresCluster]:
    """A started `PostgresCluster`, removed (stopped and deleted) on exit."""
    cluster = PostgresCluster(max_connections, settings)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@contextlib.contextmanager
def postgres_server(max_connections: int = 300, settings: dict[str, str] | None = None) -> Iterator[str]:
    """Start a throwaway PostgreSQL cluster on a free loopback port; yield its URL (superuser, trust auth)."""
    with postgres_cluster(max_connections, settings) as cluster:
        yield cluster.url


def create_database(url: str) -> None:
    """Create the database named in `url` (the cluster starts with only `postgres`)."""
    import psycopg2

    base, name = url.rsplit("/", 1)
    connection = psycopg2.connect(base + "/postgres")
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if not cursor.fetchone():
            cursor.execute(f'CREATE DATABASE "{name}"')
    connection.close()


class RedisServer:
    """A throwaway Redis (no persistence) on a free loopback port, that can be stopped and started again on the same
    port: what a restarted Redis looks like to its clients (connections dropped, every subscription gone)."""

    def __init__(self):
        self.binary = shutil.which("redis-server")
        if not self.binary:
            raise RuntimeError("Redis is not installed (apt-get install redis-server)")
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server and return once it listens."""
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen([self.binary, *args, "--maxclients", "10000"], stdout=subprocess.DEVNULL)
        wait_for_port(self.port)

    def stop(self, kill: bool = False) -> None:
        """Stop the server (SIGTERM, or SIGKILL with `kill`) and wait until it has exited."""
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        self.process.wait(timeout=10)
        self.process = None

    def restart(self, kill: bool = False) -> None:
        self.stop(kill)
        self.start()


@contextlib.contextmanager
def redis_instance() -> Iterator[RedisServer]:
    """A started `RedisServer`, stopped on exit."""
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """Start a throwaway Redis (no persistence) on a free loopback port; yield its URL."""
    with redis_instance() as server:
        yield server.url


def with_services(command: list[str]) -> int:
    with postgres_server() as database_url, redis_server() as redis_url:
        create_database(database_url)
        env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url}
        print(f"test_stack: PostgreSQL at {database_url}, Redis at {redis_url}", file=sys.stderr)
        return subprocess.run(command, env=env).returncode


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "ensure-system-packages":
        return ensure_system_packages()
    if argv[0] == "with-services":
        command = argv[2:] if len(argv) > 1 and argv[1] == "--" else argv[1:]
        return with_services(command)
    print(f"unknown command {argv[0]!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
