"""`make test`: the two passes of the suite side by side, each in its own process, and one verdict.

    python tools/run_tests.py [--serial] [--only embedded|services] [-- extra pytest arguments]

- the embedded pass: every test on the defaults `make run` uses (SQLite, the in-memory channel layer, eager Celery,
  one Daphne), the browser stories and the conformance tests included;
- the services pass: on PostgreSQL and Redis started for it (tools/test_stack.py), every test that touches the
  database or the channel layer, and the browser stories whose screens depend on the stack (WOZSQL_PASS=services:
  conftest.py leaves out the rest, which ran in the embedded pass).

Most of either pass waits (on a browser, a server, a socket, PostgreSQL), so on two cores they take little longer
side by side than the longer one alone. Each line a pass prints is shown as it comes, after the pass's name; each
pass's whole output is kept in var/test-<pass>.log; the end repeats each pass's summary and its wall time. Both
passes always run to the end: a failure in one does not hide the other's.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "var"
SERVICES_MARKERS = "not conformance and (not browser or stack)"


def basetemp(name: str) -> Path:
    """Each pass's own temporary folder, outside the checkout (a test that walks the checkout's files must not meet
    the other pass's folders coming and going) and apart from another checkout's run at the same time."""
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]
    return Path(tempfile.gettempdir()) / f"wozsql-tests-{checkout}-{name}"


def passes(extra: list[str]) -> dict[str, list[str]]:
    pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--durations=30", *extra]
    return {
        "embedded": [*pytest, "--basetemp", str(basetemp("embedded"))],
        "services": [
            sys.executable, str(ROOT / "tools" / "test_stack.py"), "with-services", "--",
            *pytest, "-m", SERVICES_MARKERS, "--basetemp", str(basetemp("services")),
        ],
    }  # fmt: skip


class Pass:
    def __init__(self, name: str, command: list[str], lock: threading.Lock):
        self.name, self.command, self.lock = name, command, lock
        self.log_path = LOGS / f"test-{name}.log"
        self.returncode: int | None = None
        self.seconds = 0.0
        self.lines: list[str] = []

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "WOZSQL_PASS": self.name}
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            self.command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            errors="replace", bufsize=1,
        )  # fmt: skip
        self.reader = threading.Thread(target=self._relay, daemon=True)
        self.reader.start()

    def _relay(self) -> None:
        with open(self.log_path, "w") as log:
            for line in self.process.stdout:
                log.write(line)
                self.lines.append(line)
                with self.lock:
                    sys.stdout.write(f"[{self.name}] {line}")
                    sys.stdout.flush()
        self.seconds = time.monotonic() - self.started  # its output ended: the pass is over

    def wait(self) -> int:
        self.returncode = self.process.wait()
        self.reader.join()
        return self.returncode

    def summary(self) -> list[str]:
        """The pass's own summary: pytest's short summary and its last line."""
        for index, line in enumerate(self.lines):
            if "short test summary info" in line:
                return self.lines[index:]
        return self.lines[-1:]


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    options = argv[: argv.index("--")] if "--" in argv else argv
    serial = "--serial" in options
    chosen = passes(extra)
    if "--only" in options:
        name = options[options.index("--only") + 1] if options.index("--only") + 1 < len(options) else ""
        if name not in chosen:
            print(f"run_tests: --only takes one of {', '.join(chosen)}", file=sys.stderr)
            return 2
        chosen = {name: chosen[name]}
    LOGS.mkdir(exist_ok=True)
    lock = threading.Lock()
    runs = [Pass(name, command, lock) for name, command in chosen.items()]
    started = time.monotonic()
    if serial:
        for run in runs:
            run.start()
            run.wait()
    else:
        for run in runs:
            run.start()
        for run in runs:
            run.wait()
    print(f"\n{'=' * 40} both passes {'=' * 40}")
    for run in runs:
        verdict = "passed" if run.returncode == 0 else f"FAILED (exit {run.returncode})"
        print(f"\n[{run.name}] {verdict} in {run.seconds:.0f} s; the whole output is in {run.log_path}")
        for line in run.summary():
            sys.stdout.write(f"[{run.name}] {line}")
    print(f"\nmake test: {time.monotonic() - started:.0f} s of wall time")
    return 0 if all(run.returncode == 0 for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
