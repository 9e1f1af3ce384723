"""Real-browser tests: the platform as `make run` starts it (Daphne, migrated, demo data), driven by Chromium.

The server runs in its own process on its own data folder, with whatever DATABASE_URL/REDIS_URL the test run has,
so the second `make test` pass drives the browser against PostgreSQL and Redis too.
"""

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.commands import CommandRunner
from tools.prolific_server import TEST_TOKEN
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
    def __init__(self, url: str, env: dict, commands: CommandRunner):
        self.url = url
        self.env = env
        self.commands = commands

    def manage(self, *args: str) -> str:
        """Run a management command against the running platform's database (in the session's command runner, as
        `manage.py <args>` would) and return what it printed."""
        return self.commands.run(*args)

    def build(self, builder: str, *args):
        """Call `tests.builders.<builder>(*args)` against the platform's database and return its result (JSON)."""
        script = f"import json; from tests.builders import {builder} as b; print(json.dumps(b(*{args!r})))"
        return json.loads(self.manage("shell", "-c", script).strip().splitlines()[-1])


@pytest.fixture(scope="session")
def platform(tmp_path_factory, model_server, prolific_server):
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
        # A comparison that finds no difference searches for its whole time: short, as in the other tests.
        "SQL_COMPARE_SECONDS": "0.5",
        # The model is the test model server (tools/model_server.py): on for every browser test, used only in the
        # dialogues with model help (tests/browser/test_model_drafts.py makes one).
        "MODEL_BASE_URL": model_server.url,
        "MODEL_NAME": "fixture-model",
        "MODEL_API_KEY": "",
        # Prolific is the loopback stand-in (tools/prolific_server.py): the campaign page's Prolific section is on
        # for every browser test, and only tests/browser/test_prolific.py calls it.
        "PROLIFIC_API_URL": prolific_server.url,
        "PROLIFIC_API_TOKEN": TEST_TOKEN,
        "PROLIFIC_TIMEOUT_SECONDS": "5",
    }
    if env.get("DATABASE_URL"):
        # Its own database in the throwaway cluster, apart from pytest-django's test database.
        from tools.test_stack import create_database

        env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + "/wozsql_browser"
        create_database(env["DATABASE_URL"])
    commands = CommandRunner(env, data_dir / "commands.log")
    commands.run("migrate", "--noinput")
    commands.run("load_demo")
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
    yield Platform(url, env, commands)
    commands.close()
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
    """Open a fresh browser context (its own cookies) and return a function that signs someone in.

    The sign-in form is a screen of its own, with its own stories (test_foundation_screens.py): elsewhere the person
    is signed in by a session cookie made on the server, and the page opens their home, where the form would have
    sent them. A password other than the demo one, or `via_form=True`, goes through the form."""
    contexts = []

    def open_as(username: str | None = None, password: str = DEMO_PASSWORD, via_form: bool = False, **context_options):
        # context_options: Playwright's, e.g. viewport={"width": 390, "height": 844} and is_mobile=True for a phone.
        context = browser.new_context(base_url=platform.url, **context_options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        if username and (via_form or password != DEMO_PASSWORD):
            page.goto("/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", password)
            page.click("button[type=submit]")
            page.wait_for_load_state()
        elif username:
            name, value = platform.build("session_cookie", username)
            context.add_cookies([{"name": name, "value": value, "url": platform.url}])
            page.goto("/")
        return page

    yield open_as
    for context in contexts:
        context.close()


@pytest.fixture
def people(platform):
    """Make the named accounts (demo ones exist already; the password is the demo one) and empty the lobby of anyone
    another test left ready."""

    def make(worker: str, expert: str):
        platform.build("browser_people", worker, expert, DEMO_PASSWORD)

    return make


@pytest.fixture
def paired(platform, new_page, people):
    """A worker and an expert in a new room, reached by the service layer (the tutorial passed, the expert ready, the
    lobby's pairing) instead of the screens that do it: the stories of the tutorial, the lobby and a crowd worker's
    whole path go through those (`pair` in test_rooms.py). Returns (worker page, expert page, dialogue id), both pages
    open on the room."""

    def make(worker: str, expert: str, *, worker_page=None, expert_page=None):
        # worker_page/expert_page: a page made by the test (a phone's, one with a network it controls), signed in.
        people(worker, expert)
        dialogue = platform.build("browser_pair", worker, expert)
        expert_page = expert_page or new_page(expert)
        worker_page = worker_page or new_page(worker)
        expert_page.goto(f"/dialogues/{dialogue}/")
        worker_page.goto(f"/dialogues/{dialogue}/")
        expect(expert_page.get_by_test_id("partner")).to_have_text("Worker: connected", timeout=15_000)
        return worker_page, expert_page, dialogue

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
