"""Settings come from the environment with strict parsing; unset means embedded defaults."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import SettingError, env_bool, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def _settings_in_subprocess(env: dict) -> dict:
    """The settings a process started with `env` gets (a None value unsets the variable)."""
    code = (
        "import json, django; from django.conf import settings; "
        "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'], "
        "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], 'eager': settings.CELERY_TASK_ALWAYS_EAGER, "
        "'broker': settings.CELERY_BROKER_URL, 'timeout': settings.SANDBOX_TIMEOUT_MS, "
        "'hosts': settings.ALLOWED_HOSTS, 'debug': settings.DEBUG, 'secret_key': settings.SECRET_KEY, "
        "'options': settings.DATABASES['default'].get('OPTIONS', {})}))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER"}}
    merged = {**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={name: value for name, value in merged.items() if value is not None},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if result.returncode:
        raise SettingError(result.stderr.strip().splitlines()[-1])
    return json.loads(result.stdout)


def test_nothing_set_means_embedded_defaults():
    values = _settings_in_subprocess({})
    assert values["engine"] == "django.db.backends.sqlite3"
    assert values["layer"] == "channels.layers.InMemoryChannelLayer"
    assert values["eager"] is True
    assert values["timeout"] == 2000


def test_a_sqlite_url_gets_the_embedded_defaults_sqlite_options(tmp_path):
    # A lab that puts the file elsewhere with DATABASE_URL=sqlite:///... got none of them, and lost endings to
    # "database is locked" where the embedded default lost none.
    embedded = _settings_in_subprocess({})["options"]
    assert embedded["transaction_mode"] == "IMMEDIATE" and "journal_mode=WAL" in embedded["init_command"]
    elsewhere = _settings_in_subprocess({"DATABASE_URL": f"sqlite:///{tmp_path / 'lab.sqlite3'}"})
    assert elsewhere["engine"] == "django.db.backends.sqlite3" and elsewhere["options"] == embedded


def test_urls_switch_to_postgres_and_redis():
    values = _settings_in_subprocess(
        {"DATABASE_URL": "postgres://u:p@db.example:5432/wozsql", "REDIS_URL": "redis://cache.example:6379/0"}
    )
    assert values["engine"] == "django.db.backends.postgresql"
    assert values["layer"] == "dialogs.channel_layer.BatchingPubSubChannelLayer"
    assert values["eager"] is False
    assert values["broker"] == "redis://cache.example:6379/0"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "ture"}, "DEBUG='ture' is not a boolean"),
        ({"SANDBOX_TIMEOUT_MS": "2s"}, "SANDBOX_TIMEOUT_MS='2s' is not an integer"),
        ({"SANDBOX_TIMEOUT_MS": "1"}, "below the minimum"),
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must be"),
        ({"REDIS_URL": "localhost:6379"}, "REDIS_URL must start with"),
    ],
)
def test_malformed_values_stop_start_up_with_a_message(env, message):
    with pytest.raises(SettingError, match=message):
        _settings_in_subprocess(env)


def test_parsers(monkeypatch):
    monkeypatch.setenv("X_BOOL", "Yes")
    monkeypatch.setenv("X_INT", " 42 ")
    monkeypatch.setenv("X_LIST", "a, b,,c ")
    assert env_bool("X_BOOL") is True
    assert env_int("X_INT", 0) == 42
    assert env_list("X_LIST", []) == ["a", "b", "c"]
    assert env_int("X_MISSING", 7) == 7
    with pytest.raises(SettingError):
        env_int("X_INT", 0, maximum=10)


def test_a_server_without_its_own_secret_key_refuses_to_start():
    with pytest.raises(SettingError, match="SECRET_KEY is not set"):
        _settings_in_subprocess({"DEBUG": "0", "SECRET_KEY": None})
    with pytest.raises(SettingError, match="SECRET_KEY is not set"):
        _settings_in_subprocess({"DEBUG": None, "SECRET_KEY": ""})


def test_only_debug_falls_back_to_the_development_key():
    development = _settings_in_subprocess({"DEBUG": "1", "SECRET_KEY": None})
    assert development["debug"] is True and development["secret_key"].startswith("wozsql-insecure-development-key")
    own = _settings_in_subprocess({"DEBUG": "0", "SECRET_KEY": "a-key-of-this-server"})
    assert own["debug"] is False and own["secret_key"] == "a-key-of-this-server"


def test_a_server_refuses_the_repositorys_development_key():
    """Someone copies the key they saw in config/settings.py into SECRET_KEY: anyone can read it, so a server
    (DEBUG off) will not start with it; `make run` (DEBUG=1) still does."""
    development = _settings_in_subprocess({"DEBUG": "1", "SECRET_KEY": None})["secret_key"]
    with pytest.raises(SettingError, match="development key"):
        _settings_in_subprocess({"DEBUG": "0", "SECRET_KEY": development})
    assert _settings_in_subprocess({"DEBUG": "1", "SECRET_KEY": development})["debug"] is True


def deploy_check(env: dict) -> str:
    """The output of `manage.py check --deploy` run with `env` alone (nothing of the suite's own environment but the
    basics: the suite's key and HTTPS=0 would hide what a deployer gets); fails the test if it does not run."""
    base = {name: value for name, value in os.environ.items() if name in {"PATH", "HOME", "LANG", "TMPDIR"}}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    return output


def assert_quiet(output: str):
    assert "System check identified no issues (0 silenced)." in output, output
    assert "WARNINGS" not in output and "?: (" not in output, output


def test_deploy_check_is_quiet_with_production_settings():
    """`manage.py check --deploy` as a deployer runs it: DEBUG off and a key of their own, nothing else set. The
    production defaults (HTTPS only, secure cookies, HSTS) need no variable."""
    assert_quiet(deploy_check({"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50)}))


def test_https_off_is_for_a_laptop_and_says_so():
    """HTTPS=0 (a laptop without TLS) turns the HTTPS-only settings off, and check --deploy names what is missing."""
    output = deploy_check({"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "HTTPS": "0"})
    for warning in ["security.W004", "security.W008", "security.W012", "security.W016"]:
        assert warning in output, output


def test_the_served_application_keeps_its_start_up_heap_out_of_the_collectors_sight():
    """config/asgi.py, what Daphne loads, freezes what it loaded: a full collection then walks only what the process
    made since (the event loop stalled 90–270 ms per full collection before). It also takes the interpreter lock's
    switch interval from SERVER_SWITCH_INTERVAL_SECONDS (Python's own is 5 ms)."""
    code = (
        "import gc, sys; before = gc.get_freeze_count(); import config.asgi; "
        "print(before, gc.get_freeze_count(), len(gc.get_objects()), sys.getswitchinterval())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "SERVER_SWITCH_INTERVAL_SECONDS": "0.002"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    *counts, switch = result.stdout.split()
    before, frozen, in_sight = map(int, counts)
    assert float(switch) == pytest.approx(0.002)
    assert before == 0
    # Django and the apps are tens of thousands of objects: nearly all of them frozen, few left in sight.
    assert frozen > 50_000 and in_sight < frozen / 10, (frozen, in_sight)


def test_production_static_files_import_each_other_by_hashed_name(tmp_path):
    """collectstatic with the production storage (STATIC_MANIFEST=1): the expert room's entry module and the modules
    it imports are hashed, and every relative `import` in them names a hashed file that was written, so a browser
    never runs a cached module of one deploy beside a module of another."""
    import re

    root = tmp_path / "static"
    base = {name: value for name, value in os.environ.items() if name in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env = {**base, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0", "STATIC_MANIFEST": "1"}
    env |= {"SECRET_KEY": secrets.token_urlsafe(50), "STATIC_ROOT": str(root)}
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    entry = root / manifest["js/expert_room.js"]
    seen, waiting = set(), [entry]
    while waiting:
        module = waiting.pop()
        if module in seen:
            continue
        seen.add(module)
        for target in re.findall(r"""from\s+["'](\.{1,2}/[^"']+)["']""", module.read_text()):
            imported = (module.parent / target).resolve()
            assert re.search(r"\.[0-9a-f]{12}\.js$", imported.name), f"{module.name} imports {target} unhashed"
            assert imported.exists(), f"{module.name} imports {target}, which was not written"
            waiting.append(imported)
    assert len(seen) > 5, "the expert room is a tree of modules"
