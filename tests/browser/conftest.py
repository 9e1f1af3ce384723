"""Real-browser tests: the platform as `make run` starts it (Daphne, migrated, demo data), driven by Chromium.

The server runs in its own process on its own data folder, with whatever DATABASE_URL/REDIS_URL the test run has,
so the second `make test` pass drives the browser against PostgreSQL and Redis too.
"""

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tools.test_stack import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WOZSQL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEMO_PASSWORD = "wozsql-demo"


# The browser files whose screens depend on the stack under them: the rooms and the supervisor's view (websockets
# over the channel layer, pairing in the database) and the screens that follow a Celery job. They run in both passes
# of `make test`; the other screens are the same HTML on either stack and run on the embedded defaults only, while
# their views' reads and writes are tested on PostgreSQL by the plain tests.
STACK_FILES = {
    "test_rooms.py",
    "test_supervision.py",
    "test_export.py",
    "test_curation.py",
    "test_model_drafts.py",
    "test_simulated_worker.py",
}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            if Path(str(item.fspath)).name in STACK_FILES:
                item.add_marker(pytest.mark.stack)


class Platform:
    def __init__(self, url: str, env: dict):
        self.url = url
        self.env = env

    def manage(self, *args: str) -> str:
        """Run a management command against the running platform's database."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, check=True
        )
        return result.stdout


@pytest.fixture(scope="session")
def platform(tmp_path_factory, model_server):
    if not os.path.exists(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("WOZSQL_REQUIRE_SHARED") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    data_dir = tmp_path_factory.mktemp("platform")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "WOZSQL_DATA_DIR": str(data_dir),
        "DEBUG": "0",
        "STATIC_MANIFEST": "0",
        # Plain HTTP on loopback: no redirect to HTTPS, cookies that a page over http:// keeps.
        "HTTPS": "0",
        # A suite an admin asks for is built on a thread of the server: small, so it does not slow the other tests.
        "TEST_SUITE_MAX_CANDIDATES": "20",
        # The model is the test model server (tools/model_server.py): on for every browser test, used only in the
        # dialogues with model help (tests/browser/test_model_drafts.py makes one).
        "MODEL_BASE_URL": model_server.url,
        "MODEL_NAME": "fixture-model",
        "MODEL_API_KEY": "",
    }
    if env.get("DATABASE_URL"):
        # Its own database in the throwaway cluster, apart from pytest-django's test database.
        from tools.test_stack import create_database

        env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + "/wozsql_browser"
        create_database(env["DATABASE_URL"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    subprocess.run([sys.executable, "manage.py", "load_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    log = open(data_dir / "daphne.log", "wb")
    server = subprocess.Popen(
        [
            shutil.which("daphne") or str(Path(sys.executable).parent / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    # On the services stack Celery is not eager: the platform's tasks (exports, goal generation) need a worker, as in
    # production. On the embedded defaults they run in the request.
    worker = None
    if env.get("REDIS_URL"):
        worker_log = open(data_dir / "worker.log", "wb")
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=WARNING"],
            cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    # A deadline for a server that will never answer (it crashed, or hangs): on a loaded 2-core machine a healthy one
    # can take half a minute to import Django and open its database.
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1)
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise RuntimeError((data_dir / "daphne.log").read_text()[-3000:]) from None
            time.sleep(0.1)
    yield Platform(url, env)
    server.terminate()
    server.wait(timeout=10)
    log.close()
    if worker is not None:
        worker.terminate()
        worker.wait(timeout=20)
        worker_log.close()


@pytest.fixture(scope="session")
def browser(platform):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


@pytest.fixture
def new_page(browser, platform):
    """Open a fresh browser context (its own cookies) and return a function that signs someone in."""
    contexts = []

    def open_as(username: str | None = None, password: str = DEMO_PASSWORD, **context_options):
        # context_options: Playwright's, e.g. viewport={"width": 390, "height": 844} and is_mobile=True for a phone.
        context = browser.new_context(base_url=platform.url, **context_options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        if username:
            page.goto("/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", password)
            page.click("button[type=submit]")
            page.wait_for_load_state()
        return page

    yield open_as
    for context in contexts:
        context.close()


CLEAR_LOBBY = (
    "from dialogs.models import LobbyEntry; LobbyEntry.objects.filter(outcome='waiting').update(outcome='left')"
)


@pytest.fixture
def people(platform):
    """Make the named accounts (demo ones exist already) and empty the lobby of anyone another test left ready."""

    def make(worker: str, expert: str):
        for username, role in ((worker, "worker"), (expert, "expert")):
            if username not in {"alice", "bob", "erin", "ethan"}:
                platform.manage("add_person", "--role", role, "--username", username, "--password", "wozsql-demo")
        platform.manage("shell", "-c", CLEAR_LOBBY)

    return make


@pytest.fixture(scope="session")
def scored_evaluation(platform) -> tuple[int, int]:
    """(export id, evaluation id) of a prediction file scored on a small release (tests.builders)."""
    out = platform.manage(
        "shell", "-c", "from tests.builders import scored_release_evaluation; print(*scored_release_evaluation())"
    )
    # The last line: the shell may say what it imported first.
    export_id, evaluation_id = out.strip().splitlines()[-1].split()
    return int(export_id), int(evaluation_id)
