""".env.example is the list of settings: every one the settings read or the documents name is there, with its
default and a comment, and everything there is read by someone."""

import ast
import re
from pathlib import Path

import pytest

from annotation.labels.acts import SYSTEM_ACTS, USER_ACTS

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", ROOT / "docs" / "protocol.md"]
ENV_PARSERS = {"env_str", "env_bool", "env_int", "env_float", "env_list", "env_networks", "env_weights"}
# Names the documents give in `code` that are not settings of the platform, and the file that reads each.
READ_ELSEWHERE = {"WOZSQL_REQUIRE_SHARED": "conftest.py"}


def env_example() -> dict[str, tuple[str, str]]:
    """NAME → (value, comment) of every `NAME=value  # comment` line of .env.example."""
    entries = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        match = re.fullmatch(r"([A-Z][A-Z0-9_]*)=(\S*)\s*(?:#\s*(.*))?", line)
        if match:
            name, value, comment = match.groups()
            assert name not in entries, f"{name} is in .env.example twice"
            entries[name] = (value, (comment or "").strip())
    return entries


def _constant(node):
    """The value of a default written as a constant expression (2000, 64 * 1024, ["a"]); raises ValueError if not."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult, ast.Sub)):
        left, right = _constant(node.left), _constant(node.right)
        return {ast.Add: left + right, ast.Mult: left * right, ast.Sub: left - right}[type(node.op)]
    return ast.literal_eval(node)


def settings_reads() -> dict[str, tuple[str, object]]:
    """NAME → (parser, default) of every variable config/settings.py reads; the default is ... when computed."""
    tree = ast.parse((ROOT / "config" / "settings.py").read_text())
    reads = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ENV_PARSERS:
            name = ast.literal_eval(node.args[0])
            parser = node.func.id
            if len(node.args) > 1:
                try:
                    default = _constant(node.args[1])
                except ValueError:
                    default = ...
            else:
                default = {"env_bool": False, "env_list": []}.get(parser, "")
            reads[name] = (parser, default)
    return reads


def documented_names() -> set[str]:
    """Every `NAME` in code quotes of the documents that is not a dialogue act label."""
    names = set()
    for document in DOCUMENTS:
        for quoted in re.findall(r"`([^`\n]+)`", document.read_text()):
            match = re.fullmatch(r"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(=.*)?", quoted)
            if match:
                names.add(match.group(1))
    return names - set(USER_ACTS) - set(SYSTEM_ACTS)


def _parsed(parser: str, value: str):
    if parser == "env_int":
        return int(value) if value else None
    if parser == "env_float":
        return float(value) if value else None
    if parser == "env_bool":
        return {"1": True, "0": False}.get(value)
    if parser == "env_list":
        return [item for item in value.split(",") if item]
    return value


def test_the_parsers_of_this_test_read_the_files():
    """The checks below are only as good as these readers: they must find what is known to be there."""
    assert env_example()["SANDBOX_TIMEOUT_MS"][0] == "2000"
    assert env_example()["SANDBOX_WORKERS"] == ("2", "sandbox worker processes per server process")
    assert settings_reads()["WS_MAX_MESSAGE_BYTES"] == ("env_int", 65536)
    assert settings_reads()["CELERY_BROKER_URL"] == ("env_str", ...)
    assert {"DIALOGUE_MIN_QUESTIONS", "WS_RATE_PER_MINUTE", "LOBBY_WAIT_LIMIT_SECONDS"} <= documented_names()
    assert "CONFIRM_SQL" not in documented_names()


def test_every_setting_the_documents_name_is_in_env_example():
    entries = env_example()
    missing = sorted(name for name in documented_names() - set(READ_ELSEWHERE) if name not in entries)
    assert missing == [], f"named in README.md or docs/protocol.md, missing from .env.example: {missing}"
    for name, reader in READ_ELSEWHERE.items():
        assert name in (ROOT / reader).read_text(), f"{name} is said to be read by {reader}"


def test_every_variable_the_settings_read_is_in_env_example_with_its_default():
    entries = env_example()
    missing = sorted(set(settings_reads()) - set(entries))
    assert missing == [], f"read by config/settings.py, missing from .env.example: {missing}"
    wrong = []
    for name, (parser, default) in settings_reads().items():
        value, _ = entries[name]
        if default is not ... and _parsed(parser, value) != default:
            wrong.append(f"{name}={value} (default {default!r})")
        if default is ... and value:
            # A computed default (from REDIS_URL, the project folder) is left empty; a value there must be one the
            # code computes for a fresh checkout, which only a relative path can be.
            assert value.startswith("./"), f"{name}={value}: write the computed default in the comment instead"
    assert wrong == [], f".env.example does not show these defaults: {wrong}"


@pytest.mark.parametrize("name", sorted(env_example()))
def test_every_entry_of_env_example_is_read_and_explained(name):
    value, comment = env_example()[name]
    assert comment, f"{name} has no comment in .env.example"
    read_by_settings = name in settings_reads()
    read_by_compose = f"${{{name}" in (ROOT / "docker-compose.yml").read_text()
    assert read_by_settings or read_by_compose, f"{name} is in .env.example but nothing reads it"
