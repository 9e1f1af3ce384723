"""Fixtures shared by every app's tests.

The conformance suite reads the real public data in ../shared. On a user's machine without it those tests skip with
a clear reason; CI sets WOZSQL_REQUIRE_SHARED=1 so that missing data fails the run instead of passing it silently.
"""

import os
from pathlib import Path

import pytest

SHARED_DIR = Path(os.environ.get("WOZSQL_SHARED_DIR", Path(__file__).resolve().parent.parent / "shared"))


def _shared_path(*parts: str) -> Path:
    path = SHARED_DIR.joinpath(*parts)
    if not path.exists():
        message = f"conformance data missing: {path} (the public samples live in ../shared beside the project)"
        if os.environ.get("WOZSQL_REQUIRE_SHARED") == "1":
            pytest.fail(message + "; WOZSQL_REQUIRE_SHARED=1 makes this a failure", pytrace=False)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_path():
    """Return a function that resolves a path under ../shared, skipping (or failing in CI) when it is absent."""
    return _shared_path


@pytest.fixture(autouse=True)
def _isolated_data_dir(settings, tmp_path_factory):
    """Every test gets its own data folder, so registered database files never leak between tests."""
    settings.DATA_DIR = tmp_path_factory.mktemp("data")
    # Passwords are hashed for real in the browser tests' server; here a fast hasher keeps fixtures cheap.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A comparison that finds no difference searches for its whole time: short here, so that the many stories that
    # compare queries on the way (goal matching, corrections, final validation) stay quick. Tests of the search set
    # their own.
    settings.SQL_COMPARE_SECONDS = 0.3


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The process cache outlives a test (the hourly cap on new crowd accounts counts in it, review's figures are kept
    in it): every test starts with it empty, whatever ran before."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _no_sockets_held():
    """The sockets this process holds (dialogs.presence) outlive a test whose socket never closed: a later test's
    background loop would vouch for them and write their rows back into its own database, under whoever has the same
    id there (a room test found its people's lobby rows of an earlier lobby test). Every test starts holding none."""
    from dialogs import presence

    with presence._held_lock:
        presence._held.clear()


def _person(username: str, role: str, **extra):
    from annotation.people.services import person_create

    user, _ = person_create(username=username, role=role, password="correct-horse-battery")
    for name, value in extra.items():
        setattr(user, name, value)
    if extra:
        user.save()
    return user


# Named personas, one per role: tests read as stories about people.
@pytest.fixture
def alice(db):
    """Alice is a crowd worker who has passed the tutorial."""
    from django.utils import timezone

    return _person("alice", "worker", tutorial_passed_at=timezone.now())


@pytest.fixture
def erin(db):
    """Erin is a SQL expert."""
    return _person("erin", "expert")


@pytest.fixture
def rita(db):
    """Rita is a reviewer."""
    return _person("rita", "reviewer")


@pytest.fixture
def ada(db):
    """Ada is an admin."""
    return _person("ada", "admin")


@pytest.fixture
def mallory(db):
    """Mallory was a worker and is blocked."""
    return _person("mallory", "worker", blocked=True, blocked_reason="copied questions")


@pytest.fixture(scope="session")
def demo_files(tmp_path_factory):
    """The demo SQLite files, built once per test session by the project's code."""
    from annotation import demo

    return demo.build_demo_databases(tmp_path_factory.mktemp("demo-build"))


@pytest.fixture
def demo_databases(db, demo_files):
    """The three demo databases, registered (each test gets its own copies in its data folder)."""
    from annotation.databases.services import database_register

    return {db_id: database_register(db_id=db_id, source_path=path) for db_id, path in demo_files.items()}


@pytest.fixture
def short_busy_timeout():
    """A writer that finds SQLite's write lock taken gives up after a second instead of SQLITE_BUSY_TIMEOUT_SECONDS:
    a test in which a lock is held across slow work (a whole import, a follow-up's computation) fails at once."""
    from django.db import connection, connections

    options = connections.settings["default"].setdefault("OPTIONS", {})
    before = options.get("timeout")
    if connection.vendor == "sqlite":
        options["timeout"] = 1
    yield
    if before is not None:
        options["timeout"] = before


@pytest.fixture(autouse=True)
def _eager_celery(request):
    """Tasks run in-process unless a test drives a real worker (marked `services`): with REDIS_URL set, the settings
    turn eager mode off, and a task sent to a broker nobody listens to would never run."""
    if request.node.get_closest_marker("services"):
        yield
        return
    from config.celery_app import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(scope="session")
def model_server():
    """The test model server (tools/model_server.py) in its own process on a free loopback port, answering from
    tests/fixtures/model_answers.json, for the whole session: tests switch its mode (slow, error, hold) as they go."""
    from tools.model_server import model_server as started

    with started(Path(__file__).resolve().parent / "tests" / "fixtures" / "model_answers.json") as server:
        yield server


@pytest.fixture
def model_on(settings, model_server):
    """The platform pointed at the test model server, which answers normally and has forgotten earlier requests."""
    settings.MODEL_BASE_URL = model_server.url
    settings.MODEL_NAME = "fixture-model"
    settings.MODEL_API_KEY = ""
    model_server.reset()
    yield model_server
    model_server.reset()  # a held request still waiting is answered, so no thread of the server waits for ever


@pytest.fixture(scope="session")
def prolific_server():
    """The loopback stand-in for Prolific's API (tools/prolific_server.py) in its own process on a free port, for the
    whole session; it accepts tools.prolific_server.TEST_TOKEN. Tests reset it, add participants and inject failures
    as they go (dialogs/tests/test_prolific.py, tests/browser/test_prolific.py)."""
    from tools.prolific_server import TEST_TOKEN
    from tools.prolific_server import prolific_server as started

    with started(token=TEST_TOKEN) as server:
        yield server


# Fixtures through which a test reaches the database (pytest-django's) or the stack the services pass starts.
_STACK_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}
)
# Modules whose tests read the stack from the environment themselves (servers of their own on DATABASE_URL and
# REDIS_URL, the channel layer's settings, the settings module as the environment makes it): they run in both passes
# whether or not they ask pytest-django for the database.
_STACK_MODULES = frozenset(
    {
        "annotation/tests/test_settings.py",
        "annotation/tests/test_env_example.py",
        "dialogs/tests/test_channel_layer.py",
        "dialogs/tests/test_daphne_frames.py",
        "dialogs/tests/test_multi_server.py",
        "dialogs/tests/test_faults.py",
        "dialogs/tests/test_simulated_live.py",
        "dialogs/tests/test_bench_statements.py",
    }
)


def touches_the_stack(item) -> bool:
    """Whether a test can differ between the embedded defaults and PostgreSQL + Redis: it uses the database, a
    channel layer or a Celery broker, or is marked as needing them."""
    if item.get_closest_marker("django_db") or item.get_closest_marker("services") or item.get_closest_marker("stack"):
        return True
    if _STACK_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    path = Path(str(item.fspath)).resolve()
    try:
        relative = path.relative_to(Path(__file__).resolve().parent).as_posix()
    except ValueError:
        return True
    return relative in _STACK_MODULES


def pytest_collection_modifyitems(config, items):
    """In the services pass (WOZSQL_PASS=services, set by `make test`), a test that touches neither the database nor
    the channel layer is left out: it ran in the embedded pass already, and would run the same code again."""
    if os.environ.get("WOZSQL_PASS") != "services":
        return
    kept, left = [], []
    for item in items:
        (kept if touches_the_stack(item) else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
