"""Automatic checks of the draft responses over every SQL turn of the CoSQL sample, per database.

Usage: .venv/bin/python bench/drafts.py [--shared PATH] [--show N] [--held-out db,db,...]

Each turn's SQL runs in the sandbox as a room runs it (counted in full when cut, `annotation.sql.analysis.sql_run`)
and gets the draft a room offers (`dialogs.assist.draft_for`, with the schema the platform hosts for the file:
`bench.rating_sheet.hosted_schema`). A draft is checked for what a machine can check, which
is not whether it is good English or says the right thing (that takes a rater):
- described: a description, not the generic "Here is the result" draft;
- values: every literal of the SQL (a string without its % signs, a number other than a LIMIT) is in the draft;
- columns: every column the SQL reads (join keys aside) is named, by its readable name (`column_names`): the words
  that are not its table's name, in the singular or plural; an id column counts as named when its table is;
- no identifier: no word with an underscore;
- no hand-made plural: no relation table's name made plural ("lives ins"), no plural of a word that is one already
  ("dogss") or of a participle or measure ("total spents", "foundeds").
The databases are reported one by one, then in two groups: those the rules were written against and the held-out
ones, chosen before any rule was written and never looked at while writing them (world_1, car_1,
student_transcripts_tracking). `--show N` prints N failing drafts per check.
"""

import argparse
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

import inflect  # noqa: E402
from sqlglot import expressions as exp  # noqa: E402

from annotation.sql.analysis import sql_run  # noqa: E402
from annotation.sql.spider import parse_sql  # noqa: E402
from annotation.wording.response_drafts import GENERIC_DRAFT  # noqa: E402
from bench.rating_sheet import hosted_schema  # noqa: E402
from dialogs.assist import draft_for  # noqa: E402

DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
HELD_OUT = ("world_1", "car_1", "student_transcripts_tracking")
CHECKS = ("described", "values", "columns", "no identifier", "no hand-made plural")
ENGLISH = inflect.engine()


def word_forms(word: str) -> set[str]:
    forms = {word}
    singular = ENGLISH.singular_noun(word)
    if singular:
        forms.add(singular)
    forms.add(ENGLISH.plural_noun(word) or word)
    return forms


def draft_words(text: str) -> set[str]:
    words = set()
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        words |= word_forms(word)
    return words


class Schema:
    def __init__(self, entry: dict) -> None:
        self.tables = {name.lower(): index for index, name in enumerate(entry["table_names_original"])}
        self.table_words = [set(name.lower().split()) for name in entry["table_names"]]
        self.columns = {}
        keys = set(entry["primary_keys"]) | {index for pair in entry["foreign_keys"] for index in pair}
        for index, ((table, original), (_, readable)) in enumerate(
            zip(entry["column_names_original"], entry["column_names"], strict=True)
        ):
            if table >= 0:
                self.columns[(table, original.lower())] = (readable.lower(), index in keys)
        # Last words of column names that have no plural: participles ("founded") and measures ("total spent").
        self.no_plural = {
            readable.split()[-1].lower()
            for table, readable in entry["column_names"]
            if table >= 0
            and readable.split()
            and (readable.split()[-1].endswith(("ed", "ing")) or readable.split()[0] in ("total", "number", "average"))
            and readable.split()[-1].lower() not in {word for words in self.table_words for word in words}
        }
        self.relations = [
            name.lower()
            for name in entry["table_names"]
            if len(name.split()) > 1 and (name.split()[0] in ("has", "have", "is") or name.split()[-1] in ("in", "of"))
        ]

    def column(self, tables: list[int], name: str):
        for table in tables:
            found = self.columns.get((table, name.lower()))
            if found is not None:
                return table, *found
        return None


def read_columns(tree: exp.Expr, schema: Schema) -> list[tuple[int, str, bool]]:
    """(table index, readable name, is a key) of every column the SQL reads, join keys aside."""
    found = []
    for column in tree.find_all(exp.Column):
        if isinstance(column.this, exp.Star):
            continue
        parent = column.parent
        if isinstance(parent, exp.EQ) and isinstance(parent.left, exp.Column) and isinstance(parent.right, exp.Column):
            continue  # a join, in ON or WHERE
        select = column.find_ancestor(exp.Select)
        aliases = {}
        for table in (select or tree).find_all(exp.Table):
            index = schema.tables.get(table.name.lower())
            if index is not None:
                aliases[(table.alias or table.name).lower()] = index
                aliases.setdefault(table.name.lower(), index)
        if column.table and column.table.lower() in aliases:
            candidates = [aliases[column.table.lower()]]
        else:
            candidates = list(dict.fromkeys(aliases.values()))
        resolved = schema.column(candidates, column.name)
        if resolved is not None:
            found.append(resolved)
    return found


def literals(tree: exp.Expr) -> list[str]:
    values = []
    for literal in tree.find_all(exp.Literal):
        if isinstance(literal.parent, exp.Limit):
            continue
        text = literal.this.strip("%") if literal.is_string else literal.this
        text = " ".join(str(text).split())
        if not literal.is_string:
            number = float(text)
            text = str(int(number)) if number.is_integer() else f"{number:.2f}".rstrip("0").rstrip(".")
        if text:
            values.append(text)
    return values


def hand_made_plurals(text: str, schema: Schema) -> list[str]:
    found = []
    lower = text.lower()
    for name in schema.relations:
        words = name.split()
        plural = " ".join([*words[:-1], words[-1] + "s"])
        if re.search(rf"\b{re.escape(plural)}\b", lower):
            found.append(plural)
    for word in re.findall(r"[a-z]+", lower):
        stem = word[:-1]
        if not word.endswith("s") or len(stem) < 3:
            continue
        if stem in schema.no_plural:
            found.append(word)  # "foundeds", "spents": a participle or a measure made plural
        elif stem.endswith("s") and ENGLISH.singular_noun(word) and ENGLISH.plural_noun(stem) == word:
            found.append(word)  # "dogss": the plural of a plural
    return found


def check(sql: str, text: str, schema: Schema) -> dict[str, bool]:
    tree = parse_sql(sql)
    words = draft_words(text) | ({"name"} if " named " in text else set())
    columns_named = True
    for table, readable, is_key in read_columns(tree, schema):
        own = set(readable.split()) - schema.table_words[table]
        needed = own if own and not (is_key and own <= {"id", "code", "no", "number"}) else schema.table_words[table]
        if not all(word_forms(word) & words for word in needed):
            columns_named = False
    return {
        "described": not text.startswith(GENERIC_DRAFT),
        "values": all(value.lower() in text.lower() for value in literals(tree)),
        "columns": columns_named,
        "no identifier": "_" not in text,
        "no hand-made plural": not hand_made_plurals(text, schema),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--show", type=int, default=0, help="print this many failing drafts per check")
    parser.add_argument("--held-out", default=",".join(HELD_OUT))
    options = parser.parse_args()
    held_out = set(options.held_out.split(","))
    with open(options.shared / "spider" / "tables.json", encoding="utf-8") as handle:
        entries = {entry["db_id"]: entry for entry in json.load(handle)}
    with open(options.shared / "samples" / "cosql_dev_sample.json", encoding="utf-8") as handle:
        dialogues = json.load(handle)
    passed: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    turns: dict[str, int] = defaultdict(int)
    failures: dict[str, list] = defaultdict(list)
    skipped = 0
    hosted: dict[str, dict] = {}  # the schema the platform keeps for each file, as a room reads it
    for dialogue in dialogues:
        db_id = dialogue["database_id"]
        schema = Schema(entries[db_id])
        path = options.shared / "spider" / "database" / db_id / f"{db_id}.sqlite"
        if db_id not in hosted:
            hosted[db_id] = hosted_schema(path, db_id, entries[db_id])
        for turn in dialogue["interaction"]:
            sql = turn["query"]
            result = sql_run(path, sql, count=True)
            if not result["ok"]:
                skipped += 1  # a room shares no failed result, so it offers no draft for one
                continue
            text = draft_for(schema=hosted[db_id], sql=sql, result=result, path=str(path))
            turns[db_id] += 1
            for name, ok in check(sql, text, schema).items():
                passed[db_id][name] += ok
                if not ok:
                    failures[name].append((db_id, sql, text))
    print(f"{sum(turns.values())} drafts for the SQL turns of {len(dialogues)} dialogues ({skipped} turns not run)")
    header = f"{'database':40}{'turns':>6}" + "".join(f"{name:>21}" for name in CHECKS)
    print(header)

    def row(label: str, databases: list[str]) -> None:
        total = sum(turns[db] for db in databases)
        cells = ""
        for name in CHECKS:
            good = sum(passed[db][name] for db in databases)
            cells += f"{good}/{total} {100 * good / max(total, 1):3.0f}%".rjust(21)
        print(f"{label:40}{total:>6}{cells}")

    for db_id in sorted(turns):
        row(db_id + (" (held out)" if db_id in held_out else ""), [db_id])
    row("seen while writing rules", [db for db in turns if db not in held_out])
    row("held out", [db for db in turns if db in held_out])
    row("all", list(turns))
    for name in CHECKS:
        for db_id, sql, text in failures[name][: options.show]:
            print(f"\n[{name}] {db_id}: {sql}\n  -> {text}")


if __name__ == "__main__":
    main()
