"""The README as a newcomer reads it: the demo accounts it lists are the ones `load_demo` makes, and its command-line
examples run as written in a development checkout, with no DEBUG or SECRET_KEY set."""

import os
import re
import subprocess
import sys
from pathlib import Path

from annotation.demo import DEMO_ACCOUNTS

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_lists_every_demo_account():
    text = (ROOT / "README.md").read_text()
    paragraph = text[text.index("demo accounts (password") :].split("\n\n")[0]
    listed = set(re.findall(r"`([a-z]+)`", paragraph))
    assert {username for username, _ in DEMO_ACCOUNTS} <= listed, paragraph


def _manage(*args: str, **env: str | None) -> subprocess.CompletedProcess:
    """`manage.py args` in a shell with neither DEBUG nor SECRET_KEY set, plus `env` (a None value unsets)."""
    merged = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}}
    merged.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={name: value for name, value in merged.items() if value is not None},
        capture_output=True,
        text=True,
    )


def test_manage_py_runs_as_the_readme_writes_it_in_a_development_checkout(tmp_path):
    result = _manage("sql_inspect", "--help", WOZSQL_DATA_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "running as a development checkout (DEBUG=1)" in result.stderr


def test_a_server_with_its_own_key_keeps_debug_off(tmp_path):
    code = "from django.conf import settings; print(settings.DEBUG)"
    result = _manage("shell", "-c", code, SECRET_KEY="a-key-of-this-server", WOZSQL_DATA_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "False" and "development checkout" not in result.stderr


def test_every_manage_py_command_the_readme_names_exists(tmp_path):
    text = (ROOT / "README.md").read_text()
    commands = sorted(set(re.findall(r"manage\.py (\w+)", text)))
    assert "load_demo" in commands and "export_dataset" in commands
    result = _manage("help", "--commands", WOZSQL_DATA_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert set(commands) <= set(result.stdout.split()), set(commands) - set(result.stdout.split())


def test_migrate_makes_the_data_folder_it_is_given(tmp_path):
    # A lab points WOZSQL_DATA_DIR at a folder that does not exist yet: SQLite made no folder, and migrate failed.
    folder = tmp_path / "new" / "data"
    result = _manage("migrate", "--noinput", WOZSQL_DATA_DIR=str(folder), DATABASE_URL=None, REDIS_URL=None)
    assert result.returncode == 0, result.stderr
    assert (folder / "wozsql.sqlite3").is_file()
