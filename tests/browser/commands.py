"""Management commands against the browser tests' platform, run by one long-lived process instead of one each.

A `manage.py` process costs about half a second of CPU before it does anything (Django, the apps, the SQL core), and
the browser stories ran some sixty of them. The runner is started once per session with the platform's environment
(its database, its data folder, its settings) and runs each command as `manage.py` would: `call_command` with the
same arguments, what it prints captured, every database connection closed afterwards (no transaction or lock is left
open between commands). The platform's own background threads are daemons (a suite build, a simulation, the
export's packer), as they would die with a `manage.py` process; thread pools (the SQL comparison's) stay idle
between commands, as in a server. Its local-memory cache is emptied
before each command, as a new process would find it.

    python tests/browser/commands.py        # reads one JSON list of arguments per line, answers one JSON object
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND_TIMEOUT_S = 300.0  # a whole migration on a loaded machine fits in it; a hung command does not hang the suite


class CommandFailed(RuntimeError):
    """A command the runner ran raised: the message holds its traceback and what it printed."""


class CommandRunner:
    """The test side: starts the runner with `env` and sends it commands, one at a time."""

    def __init__(self, env: dict, log_path: Path):
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve())],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
        )  # fmt: skip
        self.log_path = log_path
        self.lock = threading.Lock()

    def run(self, *args: str) -> str:
        """Run `manage.py <args>` in the runner and return what it printed; raise CommandFailed if it failed."""
        with self.lock:
            if self.process.poll() is not None:
                raise CommandFailed(f"the command runner has exited ({self.process.returncode}): {self._log_tail()}")
            self.process.stdin.write(json.dumps(list(args)).encode() + b"\n")
            self.process.stdin.flush()
            line = self._read_line(time.monotonic() + COMMAND_TIMEOUT_S, args)
        reply = json.loads(line)
        if not reply["ok"]:
            raise CommandFailed(f"manage.py {' '.join(args)[:200]} failed:\n{reply['error']}\n{reply['stdout']}")
        return reply["stdout"]

    def _read_line(self, deadline: float, args: tuple) -> bytes:
        stream = self.process.stdout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.process.kill()
                raise CommandFailed(f"manage.py {' '.join(args)[:200]} did not answer in {COMMAND_TIMEOUT_S:.0f} s")
            ready, _, _ = select.select([stream], [], [], min(left, 1.0))
            if ready:
                line = stream.readline()
                if not line:
                    raise CommandFailed(f"the command runner exited during {args[:1]}: {self._log_tail()}")
                return line

    def _log_tail(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-3000:]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.log.close()


def _serve() -> None:
    """The runner's side: answer commands from stdin until it closes."""
    import contextlib
    import io
    import traceback

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache
    from django.core.management import call_command
    from django.db import connections

    # Replies go out on a private copy of stdout; anything else printed to fd 1 (a child process, a stray print
    # outside a command) goes to the log instead of corrupting the replies.
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    for line in sys.stdin:
        args = json.loads(line)
        for cache in caches.all(initialized_only=True):
            if isinstance(cache, LocMemCache):
                cache.clear()
        printed = io.StringIO()
        ok, error = True, ""
        try:
            with contextlib.redirect_stdout(printed):
                call_command(*args)
        except BaseException:  # noqa: BLE001 - SystemExit and CommandError too: the test gets the reason
            ok, error = False, traceback.format_exc()
        connections.close_all()
        replies.write(json.dumps({"ok": ok, "stdout": printed.getvalue(), "error": error}) + "\n")
        replies.flush()


if __name__ == "__main__":
    _serve()
