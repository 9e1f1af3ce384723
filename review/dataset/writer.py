"""Writing an export's folder tree, one sub-folder per format, each file checked against its schema as written.

    cosql_dataset/ cosql_all_info_dialogs.json, sql_state_tracking/ (cosql_{train,dev,test}.json, and with gold
                   {train,dev,test}_gold.txt), user_intent_prediction/, system_response_generation/
                   (cosql_{train,dev,test}.json each), tables.json, database/
    sparc/         train.json, dev.json, test.json (+ {train,dev,test}_gold.txt), tables.json, database/
    chase/         chase_{train,dev,test}.json (+ chase_{train,dev,test}_gold.txt), chase_tables.json, database/
    gold/          {train,dev,test}_gold.txt: only when gold is the one format asked for (every exported dialogue)
    otta/          {train,dev,test}.json (Spider's layout) and otta_{train,dev,test}.json (tree and alignment) of the
                   query-first items, tables.json, database/
    export_report.json

Each format's files, its gold, its tables and its database/ hold the same dialogues and databases
(formats.release_records): the gold goes with the format it grades, beside the tables and databases an evaluator
is given with it. `database/<db_id>/` holds `<db_id>.sqlite` and `schema.sql`, as in the releases, for every
database the format's files use that has a file (a schema-only one is in the tables file only), and the databases of
its test suite beside them: the public evaluator's test-suite layout, where every `.sqlite` file of the folder is run.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from annotation.plumbing import jsoncodec
from annotation.sql.schema import schema_sql
from annotation.suites.distil import suite_paths
from dialogs.log import DialogueRecord
from review.dataset import formats, validation
from review.dataset.splits import SPLITS

FOLDERS = {"cosql": "cosql_dataset", "sparc": "sparc", "chase": "chase", "gold": "gold", "otta": "otta"}
OTTA_FILES = {"spider": "otta/{split}.json", "otta": "otta/otta_{split}.json", "tables": "otta/tables.json"}
STATE_FILES = {
    "cosql": "cosql_dataset/sql_state_tracking/cosql_{split}.json",
    "sparc": "sparc/{split}.json",
    "chase": "chase/chase_{split}.json",
}
GOLD_FILES = {
    "cosql": "cosql_dataset/sql_state_tracking/{split}_gold.txt",
    "sparc": "sparc/{split}_gold.txt",
    "chase": "chase/chase_{split}_gold.txt",
    "gold": "gold/{split}_gold.txt",
}
TABLES_FILES = {"cosql": "cosql_dataset/tables.json", "sparc": "sparc/tables.json", "chase": "chase/chase_tables.json"}
COSQL_SPLIT_FILES = {
    "cosql_user_intent": "cosql_dataset/user_intent_prediction/cosql_{split}.json",
    "cosql_response_generation": "cosql_dataset/system_response_generation/cosql_{split}.json",
}
COSQL_ALL_INFO = "cosql_dataset/cosql_all_info_dialogs.json"


def release_formats(formats_wanted: list[str]) -> tuple[list[str], list[str]]:
    """(the interaction formats of a release, the formats whose gold it holds). Gold files grade one format's
    interactions, so they go with each interaction format asked for; asked for alone, they hold every exported
    dialogue."""
    interactions = [fmt for fmt in formats_wanted if fmt in STATE_FILES]
    if "gold" not in formats_wanted:
        return interactions, []
    return interactions, interactions or ["gold"]


def write_json(path: Path, data, *, kind: str | None, sort_keys: bool = False, indent: bool = True) -> None:
    """Validate `data` against the schema of `kind` (when given), then write it (UTF-8, not ASCII-escaped). Indented
    files have the public releases' layout byte for byte (the json module's, one space per level); the compact ones
    hold the result tables. Both are written by orjson (annotation/plumbing/jsoncodec.py)."""
    if kind is not None:
        validation.check(kind, data, name=path.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    if indent:
        path.write_bytes(jsoncodec.dumps_indented(data, sort_keys=sort_keys))
    else:
        path.write_text(jsoncodec.dumps(data, sort_keys=sort_keys), encoding="utf-8")


def suite_files(db_id: str) -> list[Path]:
    """The generated databases of `db_id`'s test suite (the original not included; none before its suite is built)."""
    return [Path(path) for path in suite_paths(Path(settings.DATA_DIR), db_id)[1:]]


def write_databases(folder: Path, databases: list) -> int:
    """Copy each database that has a file to database/<db_id>/<db_id>.sqlite with its schema.sql, and its test
    suite's databases beside it (the public evaluator runs every .sqlite file of the folder); return how many
    databases."""
    copied = 0
    for database in databases:
        if not database.has_file:
            continue
        target = folder / "database" / database.db_id
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(database.path, target / f"{database.db_id}.sqlite")
        (target / "schema.sql").write_text(schema_sql(database.path), encoding="utf-8")
        for number, path in enumerate(suite_files(database.db_id), start=1):
            name = path.name
            if not name.endswith(".sqlite") or name == f"{database.db_id}.sqlite":
                name = f"{database.db_id}_suite_{number}.sqlite"
            shutil.copyfile(path, target / name)
        copied += 1
    return copied


def write_export(
    out_dir: Path,
    *,
    formats_wanted: list[str],
    records: list[DialogueRecord],
    plan: formats.Plan,
    split_of: dict[str, str],
    databases: list,
    limit_modes: dict[str, str],
    cosql_solo: bool = False,
    progress: Callable[[int, int], None] | None = None,
    query_first: dict[int, dict] | None = None,
) -> list[str]:
    """Write every wanted format into `out_dir`; return the written files (relative paths). Raises
    validation.SchemaViolation if anything built does not match its schema: nothing invalid is ever offered.
    `query_first` (dialogue id -> what its annotation recorded) serves the OTTA files."""
    out_dir = Path(out_dir)
    written: list[str] = []
    by_id = {database.db_id: database for database in databases}
    interaction_formats, gold_formats = release_formats(formats_wanted)
    steps = len(interaction_formats) + (1 if gold_formats == ["gold"] else 0) + ("otta" in formats_wanted)
    step = 0

    def done(path: Path) -> None:
        written.append(path.relative_to(out_dir).as_posix())

    def advance() -> None:
        nonlocal step
        step += 1
        if progress:
            progress(step, steps)

    def by_split(held: list[DialogueRecord]) -> dict[str, list[DialogueRecord]]:
        split = {name: [] for name in SPLITS}
        for record in held:
            split[split_of[record.db_id]].append(record)
        return split

    def write_gold(fmt: str, held: dict[str, list[DialogueRecord]]) -> None:
        for split in SPLITS:
            pairs = [(record.db_id, [turn.state.sql for turn in plan.turns[record.id]]) for record in held[split]]
            text = formats.gold_text(pairs)
            path = out_dir / GOLD_FILES[fmt].format(split=split)
            problems = validation.gold_errors(text)
            if problems:
                raise validation.SchemaViolation(f"{path.name}: " + "; ".join(problems))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            done(path)

    if gold_formats == ["gold"]:
        write_gold("gold", by_split(formats.release_records("gold", records, plan)))
        advance()
    for fmt in interaction_formats:
        folder = out_dir / FOLDERS[fmt]
        build = formats.INTERACTION_BUILDERS[fmt]
        limit_mode = limit_modes[fmt]
        held = formats.release_records(fmt, records, plan, cosql_solo=cosql_solo)
        held_by_split = by_split(held)
        for split in SPLITS:
            kept = held_by_split[split]
            interactions = [build(record, plan.turns[record.id], limit_mode=limit_mode) for record in kept]
            path = out_dir / STATE_FILES[fmt].format(split=split)
            if fmt == "cosql":
                write_json(path, interactions, kind="cosql_state_tracking")
                done(path)
                intents = [item for record in kept for item in formats.user_intent_items(record)]
                path = out_dir / COSQL_SPLIT_FILES["cosql_user_intent"].format(split=split)
                write_json(path, intents, kind="cosql_user_intent", indent=False)
                done(path)
                responses = [item for record in kept for item in formats.response_items(record, plan.turns[record.id])]
                path = out_dir / COSQL_SPLIT_FILES["cosql_response_generation"].format(split=split)
                # Compact, like the all-info file: it holds result tables, a line for each of their cells would
                # be most of the file.
                write_json(path, responses, kind="cosql_response_generation", indent=False)
                done(path)
            elif fmt == "sparc":
                write_json(path, interactions, kind="sparc")
                done(path)
            else:
                write_json(path, interactions, kind="chase", sort_keys=True)
                done(path)
        if fmt in gold_formats:
            write_gold(fmt, held_by_split)
        if fmt == "cosql":
            # The largest file (every result table): written compactly.
            path = out_dir / COSQL_ALL_INFO
            write_json(
                path,
                {str(r.id): formats.all_info_dialogue(r, by_id[r.db_id].schema["table_names_original"]) for r in held},
                kind="cosql_all_info",
                indent=False,
            )
            done(path)
        used = [by_id[db_id] for db_id in sorted({record.db_id for record in held})]
        path = out_dir / TABLES_FILES[fmt]
        write_json(path, [database.schema for database in used], kind="tables")
        done(path)
        write_databases(folder, used)
        written.extend(
            path.relative_to(out_dir).as_posix() for path in sorted((folder / "database").rglob("*")) if path.is_file()
        )
        advance()
    if "otta" in formats_wanted:
        held = formats.query_first_records(records, plan)
        works = query_first or {}
        for split, kept in by_split(held).items():
            items = [item for record in kept for item in formats.spider_items(record, plan.turns[record.id])]
            path = out_dir / OTTA_FILES["spider"].format(split=split)
            write_json(path, items, kind="spider")
            done(path)
            otta = [
                formats.otta_item(record, plan.turns[record.id], works[record.id])
                for record in kept
                if record.id in works
            ]
            path = out_dir / OTTA_FILES["otta"].format(split=split)
            write_json(path, otta, kind="otta")
            done(path)
        used = [by_id[db_id] for db_id in sorted({record.db_id for record in held})]
        path = out_dir / OTTA_FILES["tables"]
        write_json(path, [database.schema for database in used], kind="tables")
        done(path)
        write_databases(out_dir / FOLDERS["otta"], used)
        written.extend(
            path.relative_to(out_dir).as_posix()
            for path in sorted((out_dir / FOLDERS["otta"] / "database").rglob("*"))
            if path.is_file()
        )
        advance()
    return written
