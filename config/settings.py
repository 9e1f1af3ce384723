"""wozsql settings: one module, every value from the environment (see .env.example).

With nothing set the platform runs on embedded defaults: SQLite, the in-memory channel layer and eager Celery.
Setting DATABASE_URL switches to PostgreSQL, REDIS_URL to Redis for the channel layer and the Celery broker.
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url

from config.env import SettingError, env_bool, env_float, env_int, env_list, env_networks, env_str, env_weights

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
# The key `make run` signs with (DEBUG=1), in the repository for everyone to read: a server refuses it, even copied
# into SECRET_KEY by hand, because anyone could forge its sessions.
DEVELOPMENT_SECRET_KEY = "wozsql-insecure-development-key-change-me-0123456789abcdefghijklmnop"
if SECRET_KEY.startswith("wozsql-insecure-") and not DEBUG:
    raise SettingError(
        "SECRET_KEY is the repository's development key, which anyone can read: set it to a long random string of "
        "your own, e.g. the output of `python -c 'import secrets; print(secrets.token_urlsafe(50))'`"
    )
if not SECRET_KEY:
    if not DEBUG:
        # A server must never sign sessions with a key that is in the repository: anyone could forge them.
        raise SettingError(
            "SECRET_KEY is not set. Set it to a long random string, e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'` (or set DEBUG=1 on a development machine)"
        )
    # Development only (DEBUG=1, as `make run` sets it): nothing signed with this key leaves the machine.
    SECRET_KEY = DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "annotation",
    "dialogs",
    "review",
]

MIDDLEWARE = [
    # First: whatever counts or logs by address after it sees the client's (TRUSTED_PROXIES).
    "config.client_address.ClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The page's language (docs/i18n.md): after sessions and authentication, which it reads; in place of Django's
    # LocaleMiddleware, which knows nothing of the language chosen on an account.
    "config.language.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.content_security_policy.ContentSecurityPolicyMiddleware",
    # Last, as django-axes asks: it turns a sign-in refused for too many failures into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "annotation.context_processors.role",
            ],
        },
    },
]

# --- Data stores -------------------------------------------------------------------------------------------------
DATA_DIR = Path(env_str("WOZSQL_DATA_DIR", str(BASE_DIR / "var")))
DATABASE_URL = env_str("DATABASE_URL")
# SQLite must not lose a write to "database is locked" (docs/pitfalls.md): every transaction takes the write lock when
# it begins (IMMEDIATE: one that read first and then wanted to write could only fail, never wait), a writer waits up
# to `timeout` seconds for the lock, and in WAL mode readers and the writer do not block each other, so the lock is
# only ever held for a write's own duration. The embedded default and a sqlite:// DATABASE_URL both get these (a
# SQLite URL without them lost endings to "database is locked" in a replayed campaign day).
SQLITE_OPTIONS = {
    "timeout": env_int("SQLITE_BUSY_TIMEOUT_SECONDS", 20, minimum=1),
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
if DATABASE_URL:
    if not DATABASE_URL.startswith(("postgres://", "postgresql://", "sqlite://")):
        raise SettingError(f"DATABASE_URL must be a postgres:// or sqlite:// URL, got {DATABASE_URL.split(':')[0]}://")
    # With DB_CONN_MAX_AGE > 0 a process keeps its connections, and after a database restart they are dead: the
    # first query on each failed, taking down the consumer that made it (dialogs/tests/test_faults.py). With health
    # checks Django replaces a dead one before using it, at the cost of a `SELECT 1` per reuse of a kept connection.
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0, minimum=0), conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
else:
    # SQLite creates a missing file but not a missing folder: a WOZSQL_DATA_DIR that does not exist yet is made here,
    # so `migrate` (or any command) on a new data folder works the first time.
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "wozsql.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),  # a copy of its own: a test may change this connection's timeout
            # A file, not the default shared in-memory database: consumer tests write from several threads, and
            # in-memory SQLite answers "table is locked" at once where a file waits for the lock (busy timeout).
            # One file per test run (process id): two runs at once in one checkout must not flush each other's.
            "TEST": {"NAME": str(DATA_DIR / f"test-wozsql-{os.getpid()}.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "annotation.User"

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise SettingError("REDIS_URL must start with redis://, rediss:// or unix://")

if REDIS_URL:
    # The Pub/Sub layer: no per-process capacity budget that silently drops group messages, and measured faster
    # than the core layer (docs/pitfalls.md); its publishes sent in batches (dialogs.channel_layer). redis-py's async
    # pool defaults to 100 connections, too few for a crowd.
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "dialogs.channel_layer.BatchingPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": env_int("REDIS_MAX_CONNECTIONS", 1000, minimum=10),
                        # After a Redis restart every pooled connection is dead, and redis-py does not retry by
                        # default: the first broadcast on each failed, taking its consumer down with it
                        # (dialogs/tests/test_faults.py). With retries it reconnects, and so does the subscription
                        # after a short restart; while Redis stays down, a broadcast still fails.
                        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
                    }
                ],
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Celery ----------------------------------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", REDIS_URL or "cache+memory://")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

# --- The SQL sandbox (annotation.sql.sandbox reads these; one place for every limit) ---------------------------------
SANDBOX_TIMEOUT_MS = env_int("SANDBOX_TIMEOUT_MS", 2000, minimum=10)
SANDBOX_MAX_ROWS = env_int("SANDBOX_MAX_ROWS", 1000, minimum=1)
SANDBOX_MAX_SQL_LENGTH = env_int("SANDBOX_MAX_SQL_LENGTH", 20_000, minimum=100)
SANDBOX_MAX_VALUE_LENGTH = env_int("SANDBOX_MAX_VALUE_LENGTH", 1_000_000, minimum=1000)
SANDBOX_MAX_RESULT_BYTES = env_int("SANDBOX_MAX_RESULT_BYTES", 5_000_000, minimum=10_000)
SANDBOX_MEMORY_MB = env_int("SANDBOX_MEMORY_MB", 256, minimum=32)
SANDBOX_TEMP_MB = env_int("SANDBOX_TEMP_MB", 64, minimum=1)
SANDBOX_WORKERS = env_int("SANDBOX_WORKERS", 2, minimum=1, maximum=64)

# --- Dialogues, the lobby and websockets (dialogs.lobby, .room, .presence) --------------------------------------------
DIALOGUE_MIN_QUESTIONS = env_int("DIALOGUE_MIN_QUESTIONS", 3, minimum=1)
# Questions an expert writes in a solo sequence before finishing it (CHASE asked for 3 to 5).
SOLO_MIN_QUESTIONS = env_int("SOLO_MIN_QUESTIONS", 3, minimum=1, maximum=20)
# Query-first annotation (docs/goals.md): after this many people skipped a sampled goal, it is offered to nobody.
QUERY_FIRST_MAX_SKIPS = env_int("QUERY_FIRST_MAX_SKIPS", 3, minimum=1, maximum=50)
# Good questions a dialogue needs for the bonus: the default of a new campaign's rule (CoSQL: more than four).
DIALOGUE_BONUS_QUESTIONS = env_int("DIALOGUE_BONUS_QUESTIONS", 5, minimum=1)
LOBBY_WAIT_LIMIT_SECONDS = env_int("LOBBY_WAIT_LIMIT_SECONDS", 600, minimum=5)
# The tutorial's quiz (dialogs.tutorial): its bank of questions (a JSON file an admin can extend), how many of them a
# worker answers, and how many wrong tries they have before a cool-down of QUIZ_COOLDOWN_MINUTES.
QUIZ_FILE = env_str("QUIZ_FILE") or str(BASE_DIR / "dialogs" / "quiz.json")
QUIZ_QUESTIONS = env_int("QUIZ_QUESTIONS", 3, minimum=1, maximum=20)
QUIZ_TRIES = env_int("QUIZ_TRIES", 3, minimum=1)
QUIZ_COOLDOWN_MINUTES = env_int("QUIZ_COOLDOWN_MINUTES", 15, minimum=0)
PRESENCE_GRACE_SECONDS = env_int("PRESENCE_GRACE_SECONDS", 90, minimum=1)
# A lobby entry whose person has no lobby socket open this long expires (a closed tab is never paired).
LOBBY_RECONNECT_GRACE_SECONDS = env_int("LOBBY_RECONNECT_GRACE_SECONDS", 30, minimum=1)
# A new dialogue whose expert has not joined after this long goes back to the queue, its worker first.
EXPERT_JOIN_LIMIT_SECONDS = env_int("EXPERT_JOIN_LIMIT_SECONDS", 60, minimum=5)
# Each server process renews its lease this often; a lease older than SERVER_LEASE_SECONDS marks a stopped process.
SERVER_HEARTBEAT_SECONDS = env_int("SERVER_HEARTBEAT_SECONDS", 5, minimum=1)
SERVER_LEASE_SECONDS = env_int("SERVER_LEASE_SECONDS", 20, minimum=2)
# Housekeeping (releasing long waits, expiring stale lobby entries, abandoning rooms, reaping stopped servers) runs
# this often: as a Celery beat task with REDIS_URL, else in each server process.
HOUSEKEEPING_SECONDS = env_int("HOUSEKEEPING_SECONDS", 5, minimum=1)
HOUSEKEEPING_IN_PROCESS = env_bool("HOUSEKEEPING_IN_PROCESS", not REDIS_URL)
# Run by `celery beat` (docker-compose's beat service); an expired round is dropped, the next one does the same work.
CELERY_BEAT_SCHEDULE = {
    "housekeeping": {
        "task": "dialogs.housekeeping",
        "schedule": float(HOUSEKEEPING_SECONDS),
        "options": {"expires": float(HOUSEKEEPING_SECONDS)},
    },
    "test-suites": {"task": "annotation.test_suites_schedule", "schedule": 60.0, "options": {"expires": 60.0}},
}
# --- Test suites (annotation.suites.builds; docs/test_suites.md) ------------------------------------------------
# Each hosted database gets a suite of generated databases; a build stops at whichever bound it meets first.
TEST_SUITE_MAX_DATABASES = env_int("TEST_SUITE_MAX_DATABASES", 40, minimum=1, maximum=1000)
TEST_SUITE_MAX_KB = env_int("TEST_SUITE_MAX_KB", 400, minimum=16)
TEST_SUITE_MAX_SECONDS = env_int("TEST_SUITE_MAX_SECONDS", 60, minimum=1)
# A backstop far above what the time allows: the build's report says which bound stopped it.
TEST_SUITE_MAX_CANDIDATES = env_int("TEST_SUITE_MAX_CANDIDATES", 100_000, minimum=1)
# --- Comparing two queries (annotation.suites.compare; docs/test_suites.md) -------------------------------------------
# A comparison checks the database's kept suite, then searches for a database that tells the pair apart: all of it
# within this many seconds (the command, the review screen, the compare box, goal matching).
SQL_COMPARE_SECONDS = env_float("SQL_COMPARE_SECONDS", 2.0, minimum=0.05, maximum=120)
# What one person's compare box may spend in a minute, all their comparisons together (at once or one after another).
SQL_COMPARE_BOX_SECONDS_PER_MINUTE = env_float("SQL_COMPARE_BOX_SECONDS_PER_MINUTE", 10.0, minimum=0.1, maximum=600)
# Sandbox workers of the comparisons' own pool (shared with suite builds), beside SANDBOX_WORKERS: a slow comparison
# waits for these, never for the rooms'.
SQL_COMPARE_WORKERS = env_int("SQL_COMPARE_WORKERS", 2, minimum=1, maximum=16)
# Build missing or stale suites on their own (a Celery beat task with REDIS_URL, else a thread of the server process
# started by its background loop). Off, they are built by `manage.py suites build` or an admin's button only.
TEST_SUITES_AUTOBUILD = env_bool("TEST_SUITES_AUTOBUILD", True)
# --- Goal generation from a database's page (annotation.goals.generation; docs/goals.md) -------------------------
# A run stops at this bound and keeps the goals it found; a larger set is several runs.
GOAL_GENERATION_MAX_SECONDS = env_int("GOAL_GENERATION_MAX_SECONDS", 120, minimum=1, maximum=3600)
# A run writes its progress (and reads a cancel) this often; one whose last sign of life is older than
# GOAL_GENERATION_STALE_SECONDS was left by a stopped process and is marked failed. Between two signs lie the
# heartbeat plus one candidate's work (a few sandbox statements, each within SANDBOX_TIMEOUT_MS).
GOAL_GENERATION_HEARTBEAT_SECONDS = env_int("GOAL_GENERATION_HEARTBEAT_SECONDS", 2, minimum=1, maximum=60)
GOAL_GENERATION_STALE_SECONDS = env_int("GOAL_GENERATION_STALE_SECONDS", 60, minimum=10)
if GOAL_GENERATION_STALE_SECONDS < 3 * GOAL_GENERATION_HEARTBEAT_SECONDS:
    raise SettingError(
        f"GOAL_GENERATION_STALE_SECONDS ({GOAL_GENERATION_STALE_SECONDS}) must be at least three heartbeats "
        f"(3 x GOAL_GENERATION_HEARTBEAT_SECONDS = {3 * GOAL_GENERATION_HEARTBEAT_SECONDS}): a live run would be "
        "taken for a stopped one"
    )
EXPERT_MAX_DIALOGUES = env_int("EXPERT_MAX_DIALOGUES", 1, minimum=1, maximum=20)
# Expert onboarding (dialogs.onboarding; docs/experts.md): before the desk lets an expert be ready, they complete this
# many practice dialogues with the simulated worker (0: none) with at least this share (%) of their answers meaning the
# same as the gold query. A campaign may set its own rule; experts meet every open campaign's.
EXPERT_PRACTICE_DIALOGUES = env_int("EXPERT_PRACTICE_DIALOGUES", 3, minimum=0, maximum=20)
EXPERT_PRACTICE_MIN_PERCENT = env_int("EXPERT_PRACTICE_MIN_PERCENT", 80, minimum=0, maximum=100)
WS_MAX_MESSAGE_BYTES = env_int("WS_MAX_MESSAGE_BYTES", 64 * 1024, minimum=1024)
WS_RATE_PER_MINUTE = env_int("WS_RATE_PER_MINUTE", 120, minimum=10)
# Sockets (lobby and room) one person may open per minute; more are closed with 4429, which clients retry later. A
# reload or a dropped line costs one; a client reconnecting in a tight loop is held to this many state changes.
WS_OPENS_PER_MINUTE = env_int("WS_OPENS_PER_MINUTE", 30, minimum=1)
# What a room stores and sends of an SQL run's table (the run event, a shared result): the first rows within both
# caps, with the full count kept ("showing N of M"). Every frame must fit Daphne's 1 MiB message limit, and the table
# shares it with the SQL (SANDBOX_MAX_SQL_LENGTH) and the envelope.
RUN_STORED_MAX_ROWS = env_int("RUN_STORED_MAX_ROWS", 1000, minimum=1)
RUN_STORED_MAX_BYTES = env_int("RUN_STORED_MAX_BYTES", 256 * 1024, minimum=1024, maximum=512 * 1024)
UTTERANCE_MAX_CHARS = env_int("UTTERANCE_MAX_CHARS", 2000, minimum=50)
# How long a thread of a server process may run Python before another waiting for the interpreter lock takes it
# (`sys.setswitchinterval`, set by config/asgi.py). Python's 5 ms let a database thread busy with a room's follow-up
# (labels, a suggestion, a parse) hold the event loop, and with it every socket of the process, for up to 5 ms a turn:
# at 1 ms the p99 of rounds run beside other work halved with no more CPU per frame (docs/benchmark_history.md,
# "Where a message's CPU goes"; on a quiet machine no change).
SERVER_SWITCH_INTERVAL_SECONDS = env_float("SERVER_SWITCH_INTERVAL_SECONDS", 0.001, minimum=0.0001, maximum=0.1)
# The live operations board (/manage/live/) is refreshed this often while an admin watches it.
OPERATIONS_REFRESH_SECONDS = env_float("OPERATIONS_REFRESH_SECONDS", 2.0, minimum=0.2)

# --- Campaigns and crowd platforms (dialogs.crowd; docs/crowd.md) ----------------------------------------------------
# New crowd accounts one address may make through join links per hour (0: no cap). A brake on a script inventing
# worker ids; a lab or a campus behind one address makes many real ones, so keep it generous.
CROWD_JOIN_ACCOUNTS_PER_HOUR = env_int("CROWD_JOIN_ACCOUNTS_PER_HOUR", 60, minimum=0)
# Seconds the worker's page shows the completion code before taking them back to the campaign's completion URL.
CROWD_RETURN_DELAY_SECONDS = env_int("CROWD_RETURN_DELAY_SECONDS", 5, minimum=0, maximum=60)
# The currency of every bonus amount (campaigns' bonuses, the payment files, the payouts): the crowd platform pays in
# it (a Prolific study's currency; MTurk pays in USD), so the payment screens and the bonus list name it.
BONUS_CURRENCY = env_str("BONUS_CURRENCY", "GBP").strip().upper()
if not re.fullmatch(r"[A-Z]{3}", BONUS_CURRENCY):
    raise SettingError(
        f"BONUS_CURRENCY must be a three-letter currency code such as GBP or USD, not {BONUS_CURRENCY!r}"
    )
# Pay for the lab's own people (review.pay; docs/pay.md): a stretch of this many seconds with nothing in the records (no
# event, no correction) counts as this long at most, so a tab left open is not paid by the hour.
PAY_IDLE_GAP_SECONDS = env_int("PAY_IDLE_GAP_SECONDS", 600, minimum=60, maximum=7200)
# Prolific's researcher API, driven from a campaign's page (dialogs.crowd.prolific; docs/crowd.md, "The Prolific
# API"): off while the token is empty. The URL is Prolific's own unless a rehearsal or the tests point it at the
# loopback stand-in (tools/prolific_server.py).
PROLIFIC_API_TOKEN = env_str("PROLIFIC_API_TOKEN")
PROLIFIC_API_URL = env_str("PROLIFIC_API_URL", "https://api.prolific.com")
# One request's limit; a request is tried at most three times, so a page waits at most about three times this.
PROLIFIC_TIMEOUT_SECONDS = env_float("PROLIFIC_TIMEOUT_SECONDS", 20.0, minimum=1, maximum=120)
# Prolific pays a bulk bonus in the minutes after it accepts it: after a payment whose answer was lost, its records
# must show nothing paid for this long before the same bonuses may be paid again.
PROLIFIC_BONUS_SETTLE_SECONDS = env_int("PROLIFIC_BONUS_SETTLE_SECONDS", 900, minimum=0)

# --- Intent recommendation and CHASE turn labels (dialogs.assist) ---------------------------------------------------
# Recommend the worker an intent for each next question (CHASE section 3.1), chosen by coverage of INTENT_TARGETS.
INTENT_RECOMMENDATIONS = env_bool("INTENT_RECOMMENDATIONS", True)
# Target shares of the intent categories, e.g. "same_instances=2,display=1" (unnamed ones get 0); empty: equal shares.
INTENT_TARGETS = env_weights(
    "INTENT_TARGETS",
    allowed=("same_instances", "different_instances", "different_entity", "display", "combination"),
)
# How many recommendations a worker may ask for before one question (the first one included).
INTENT_RECOMMENDATIONS_PER_TURN = env_int("INTENT_RECOMMENDATIONS_PER_TURN", 5, minimum=1, maximum=20)
# Whether the expert must set the contextual phenomena of a question before confirming its SQL.
CHASE_PHENOMENA_REQUIRED = env_bool("CHASE_PHENOMENA_REQUIRED", False)

# --- Model assistance (annotation.model_client; README "Model assistance"), off unless MODEL_BASE_URL is set -------
# An OpenAI-compatible chat-completions endpoint: a local server (vLLM, Ollama, llama.cpp's server) or a provider.
MODEL_BASE_URL = env_str("MODEL_BASE_URL")
MODEL_API_KEY = env_str("MODEL_API_KEY")
MODEL_NAME = env_str("MODEL_NAME")
# One call's limit: a model that has not answered by then is given up, with a note to the person who asked.
MODEL_TIMEOUT_SECONDS = env_float("MODEL_TIMEOUT_SECONDS", 30.0, minimum=1, maximum=600)
# Calls one person may start per minute (SQL drafts an expert asks for, a simulated worker's questions).
MODEL_RATE_PER_MINUTE = env_int("MODEL_RATE_PER_MINUTE", 10, minimum=1)

# --- Dataset exports (review.dataset.services) ------------------------------------------------------------------
# A running export whose heartbeat is older than this is shown as stalled and may be retried by hand.
EXPORT_STALL_SECONDS = env_int("EXPORT_STALL_SECONDS", 300, minimum=5)
# Deliveries of one export before it is failed for good (a worker that dies mid-export has its task redelivered).
EXPORT_MAX_ATTEMPTS = env_int("EXPORT_MAX_ATTEMPTS", 3, minimum=1, maximum=20)
# Translation projects (docs/translation.md): an export's time bound, and the distinct text values listed per database.
TRANSLATION_EXPORT_MAX_SECONDS = env_int("TRANSLATION_EXPORT_MAX_SECONDS", 900, minimum=5, maximum=86400)
TRANSLATION_PROJECT_MAX_SECONDS = env_int("TRANSLATION_PROJECT_MAX_SECONDS", 900, minimum=5, maximum=86400)
TRANSLATION_MAX_VALUES = env_int("TRANSLATION_MAX_VALUES", 20000, minimum=1, maximum=1_000_000)

# --- Review passes (review.passes) --------------------------------------------------------------------------------
# Passes a dialogue goes through before final validation (CoSQL ran two: correction, then a second look).
REVIEW_PASSES = env_int("REVIEW_PASSES", 2, minimum=1, maximum=5)
# A reviewer's claim on a dialogue lasts this long; the open review screen renews it every third of it.
REVIEW_CLAIM_SECONDS = env_int("REVIEW_CLAIM_SECONDS", 900, minimum=30)
# The first dialogues of each expert are reviewed before the others (CHASE and SParC did the same).
REVIEW_EARLY_DIALOGUES = env_int("REVIEW_EARLY_DIALOGUES", 5, minimum=0)

# --- Worker quality: the blocking rules (review.quality; README "Worker quality") -----------------------------------
# Block a worker after this many expert scores below 3 (CoSQL blocked at the first); 0 turns the rule off.
QUALITY_BLOCK_LOW_SCORES = env_int("QUALITY_BLOCK_LOW_SCORES", 1, minimum=0)
# The rate rules below judge a worker only over at least this many dialogues (dialogues decided in review, for the
# rejection rate).
QUALITY_RULE_MIN_DIALOGUES = env_int("QUALITY_RULE_MIN_DIALOGUES", 5, minimum=1)
# Block when a rate passes its threshold (a share from 0 to 1; 0 turns the rule off).
QUALITY_BLOCK_DROP_RATE = env_float("QUALITY_BLOCK_DROP_RATE", 0.3, minimum=0, maximum=1)
QUALITY_BLOCK_OFF_TASK_RATE = env_float("QUALITY_BLOCK_OFF_TASK_RATE", 0.3, minimum=0, maximum=1)
QUALITY_BLOCK_UNFINISHED_RATE = env_float("QUALITY_BLOCK_UNFINISHED_RATE", 0.5, minimum=0, maximum=1)
QUALITY_BLOCK_REJECTED_RATE = env_float("QUALITY_BLOCK_REJECTED_RATE", 0.5, minimum=0, maximum=1)

# --- Uploads ----------------------------------------------------------------------------------------------------------
# The largest database file an admin may upload; a larger one is refused on the form before its body is parsed
# (docs/curation.md, "Uploading a file"). Every upload goes to a temporary file on disk, off the event loop.
MAX_DATABASE_UPLOAD_MB = env_int("MAX_DATABASE_UPLOAD_MB", 200, minimum=1)
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# --- Table content (annotation/databases/table_page.py; docs/curation.md, "Table content")
# -----------------------------
# A cell of a table page longer than this many characters is cut, with its size; a page's JSON stays under the bytes.
TABLE_CELL_MAX_CHARS = env_int("TABLE_CELL_MAX_CHARS", 2000, minimum=20)
TABLE_PAGE_MAX_BYTES = env_int("TABLE_PAGE_MAX_BYTES", 500_000, minimum=200_000)

# --- The client's address (config/client_address.py) -------------------------------------------------------------
# The reverse proxies in front of the servers (addresses or networks, comma-separated): from them, and only from
# them, X-Forwarded-For names the client. Empty (the default): nothing is in front, the connection's address is the
# client's. docker-compose.yml sets its own network, where nginx is the only one that forwards.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")

# --- Auth, i18n, static --------------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Sign-in throttling (django-axes; annotation/people/throttle.py). Failed sign-ins are counted three ways, each with its
# own
# limit; once one count reaches its limit, every sign-in it covers is refused, even with the right password, until
# LOGIN_LOCKOUT_MINUTES pass without another try (a failure counts that long after the last one). One person's typos
# lock their account at their address only (LOGIN_FAILURE_LIMIT), not the lab or campus that shares the address;
# guesses at one account from many addresses stop at LOGIN_ACCOUNT_FAILURE_LIMIT; a spray over many accounts from one
# address at LOGIN_ADDRESS_FAILURE_LIMIT (a lab of more people than that signing in at once behind one address may
# need it higher). The counts are rows in the database, shared by every server process. The address is REMOTE_ADDR,
# the client's own behind TRUSTED_PROXIES (config/client_address.py).
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_ACCOUNT_FAILURE_LIMIT = env_int("LOGIN_ACCOUNT_FAILURE_LIMIT", 10, minimum=1)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20, minimum=1)
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1)
LOGIN_FAILURE_LIMITS = {
    ("username", "ip_address"): LOGIN_FAILURE_LIMIT,
    ("username",): LOGIN_ACCOUNT_FAILURE_LIMIT,
    ("ip_address",): LOGIN_ADDRESS_FAILURE_LIMIT,
}
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = "annotation.people.throttle.SignInThrottle"
AXES_LOCKOUT_PARAMETERS = [list(parameters) for parameters in LOGIN_FAILURE_LIMITS]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT  # the scale SignInThrottle reports on; each count has its own limit above
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_CALLABLE = "annotation.views.login_locked_out"
# Its start-up banner would print on every manage.py command.
AXES_VERBOSE = False

# The languages of every screen (docs/i18n.md): English, the language of the code's strings, and Simplified Chinese,
# whose catalogue is locale/zh_Hans/LC_MESSAGES/django.po (compiled and committed: `make messages`).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Each language's short date and time (config/formats/<language>/formats.py): English keeps the ISO order.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "var" / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# whitenoise warns on every start when the collected folder is missing; `make run` serves from the finders.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if not env_bool("STATIC_MANIFEST", False)
        else "config.static_storage.ModuleManifestStorage"
    },
}
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", True)
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security: production values unless DEBUG; `manage.py check --deploy` stays quiet (config/tests) -----------------
# The platform is reached over HTTPS (directly, or through a proxy that terminates TLS, as docker-compose.yml's nginx
# does): cookies are sent over HTTPS only, plain HTTP is redirected, and browsers are told to use HTTPS for a year
# (HSTS). HTTPS=0 turns all of it off for a server reached over plain HTTP (a laptop; the tests' and benchmarks'
# servers on loopback); each can be set on its own too.
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
# docker-compose.yml's health check asks each server directly, over HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", False) else None
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# config/content_security_policy.py; off with DEBUG, whose error pages run inline script.
CONTENT_SECURITY_POLICY = env_bool("CONTENT_SECURITY_POLICY", not DEBUG)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"skip_ordinary_refusals": {"()": "config.log_filters.SkipOrdinaryRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        # A refused page (PermissionDenied) is answered by templates/403.html; it is not a warning with a traceback.
        "django.request": {"filters": ["skip_ordinary_refusals"]},
    },
}
