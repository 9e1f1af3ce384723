"""JSON Schema validation of every file an export writes (and of every file an import reads).

The schemas live in `review/schemas/*.json`, one per file kind; `spider_sql.json` is the shared definition of the
parsed `sql` field, referenced by the others through its `$id`. Gold files are text: `gold_errors` checks them.

The validator is jsonschema-rs (Draft 2020-12, compiled). The pure-Python `jsonschema` package validated about 400
state-tracking turns per second here, some 25 s for a CoSQL-sized export; jsonschema-rs takes well under a second.
Tests check the schemas themselves against the 2020-12 meta-schema.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema_rs
from django.utils.translation import gettext

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"

# File kind → schema file name.
SCHEMAS = {
    "tables": "tables.json",
    "sparc": "sparc.json",
    "cosql_state_tracking": "cosql_state_tracking.json",
    "cosql_all_info": "cosql_all_info.json",
    "cosql_user_intent": "cosql_user_intent.json",
    "cosql_response_generation": "cosql_response_generation.json",
    "chase": "chase.json",
    "spider": "spider.json",
    "otta": "otta.json",
}
MAX_ERRORS = 10


class SchemaViolation(ValueError):
    """A file does not match its format's schema; the message names the first problems and where they are."""


def load_schema(kind: str) -> dict:
    return json.loads((SCHEMA_DIR / SCHEMAS[kind]).read_text(encoding="utf-8"))


@cache
def _registry() -> jsonschema_rs.Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], schema))
    return jsonschema_rs.Registry(resources)


@cache
def validator(kind: str) -> jsonschema_rs.Draft202012Validator:
    """The validator of one file kind (compiled once per process)."""
    return jsonschema_rs.Draft202012Validator(load_schema(kind), registry=_registry())


def schema_errors(kind: str, data, *, first: int = 0) -> list[str]:
    """Up to MAX_ERRORS readable problems of `data` against the schema of `kind` (empty when it is valid). `first`:
    the position in its file of `data`'s first item, when `data` is a part of a list written a part at a time
    (review/dataset/writer.py), so that a problem is placed where it is in the file."""
    checker = validator(kind)
    if checker.is_valid(data):
        return []
    problems = []
    for error in checker.iter_errors(data):
        path = list(error.instance_path)
        if path and isinstance(path[0], int):
            path[0] += first
        where = "/".join(str(part) for part in path) or "(top)"
        problems.append(f"{where}: {error.message[:300]}")
        if len(problems) >= MAX_ERRORS:
            break
    return problems


def check(kind: str, data, *, name: str, first: int = 0) -> None:
    """Raise SchemaViolation when `data` (the content of file `name`, or the part of it from item `first` on) does not
    match its schema."""
    problems = schema_errors(kind, data, first=first)
    if problems:
        raise SchemaViolation(
            gettext("%(file)s does not match the %(kind)s schema: %(problems)s")
            % {"file": name, "kind": kind, "problems": "; ".join(problems)}
        )


def gold_errors(text: str) -> list[str]:
    """Problems of a gold file: each line `SQL<TAB>db_id`, blank lines between interactions, a trailing blank line."""
    problems = []
    if text and not text.endswith("\n\n"):
        problems.append("the file must end with an empty line")
    for number, line in enumerate(text.split("\n")[:-1], start=1):
        if line == "":
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
            problems.append(f"line {number}: expected 'SQL<TAB>db_id'")
        if len(problems) >= MAX_ERRORS:
            break
    return problems
