"""Writing an export's folder tree, one sub-folder per format, each file checked against its schema as written.

    cosql_dataset/ cosql_all_info_dialogs.json, sql_state_tracking/, user_intent_prediction/,
                   system_response_generation/ (cosql_{train,dev,test}.json each), tables.json, database/
    sparc/         train.json, dev.json, test.json, tables.json, database/
    chase/         chase_{train,dev,test}.json, chase_tables.json, database/ (for databases that have a file)
    gold/          {train,dev,test}_gold.txt
    export_report.json

`database/<db_id>/` holds `<db_id>.sqlite` and `schema.sql`, as in the releases.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from annotation.sql.schema import schema_sql
from dialogs.log import DialogueRecord
from review.dataset import formats, validation
from review.dataset.splits import SPLITS

FOLDERS = {"cosql": "cosql_dataset", "sparc": "sparc", "chase": "chase", "gold": "gold"}


def write_json(path: Path, data, *, kind: str | None, sort_keys: bool = False, indent: int | None = 1) -> None:
    """Validate `data` against the schema of `kind` (when given), then write it (UTF-8, not ASCII-escaped)."""
    if kind is not None:
        validation.check(kind, data, name=path.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    # dumps, not dump: only the one-shot, unindented path uses the C encoder (dump always takes the Python one).
    path.write_text(json.dumps(data, ensure_ascii=False, indent=indent, sort_keys=sort_keys), encoding="utf-8")


def write_databases(folder: Path, databases: list) -> int:
    """Copy each database that has a file to database/<db_id>/<db_id>.sqlite with its schema.sql; return how many."""
    copied = 0
    for database in databases:
        if not database.has_file:
            continue
        target = folder / "database" / database.db_id
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(database.path, target / f"{database.db_id}.sqlite")
        (target / "schema.sql").write_text(schema_sql(database.path), encoding="utf-8")
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
) -> list[str]:
    """Write every wanted format into `out_dir`; return the written files (relative paths). Raises
    validation.SchemaViolation if anything built does not match its schema: nothing invalid is ever offered."""
    out_dir = Path(out_dir)
    written: list[str] = []
    by_split: dict[str, list[DialogueRecord]] = {split: [] for split in SPLITS}
    for record in records:
        by_split[split_of[record.db_id]].append(record)
    tables = [database.schema for database in sorted(databases, key=lambda db: db.db_id)]
    steps = len(formats_wanted) + 1
    step = 0

    def done(path: Path) -> None:
        written.append(path.relative_to(out_dir).as_posix())

    def advance() -> None:
        nonlocal step
        step += 1
        if progress:
            progress(step, steps)

    for fmt in formats_wanted:
        folder = out_dir / FOLDERS[fmt]
        if fmt == "gold":
            for split in SPLITS:
                pairs = [
                    (record.db_id, [turn.state.sql for turn in plan.turns[record.id]])
                    for record in by_split[split]
                    if plan.turns[record.id]
                ]
                text = formats.gold_text(pairs)
                problems = validation.gold_errors(text)
                if problems:
                    raise validation.SchemaViolation(f"{split}_gold.txt: " + "; ".join(problems))
                path = folder / f"{split}_gold.txt"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                done(path)
            advance()
            continue
        build = formats.INTERACTION_BUILDERS[fmt]
        limit_mode = limit_modes[fmt]
        # A solo sequence has no real user: CoSQL's files (dialogue acts, responses) take it only when asked.
        leave_out_solo = fmt == "cosql" and not cosql_solo
        for split in SPLITS:
            kept = [record for record in by_split[split] if not (leave_out_solo and record.mode == "solo")]
            interactions = [
                build(record, plan.turns[record.id], limit_mode=limit_mode) for record in kept if plan.turns[record.id]
            ]
            if fmt == "cosql":
                path = folder / "sql_state_tracking" / f"cosql_{split}.json"
                write_json(path, interactions, kind="cosql_state_tracking")
                done(path)
                intents = [item for record in kept for item in formats.user_intent_items(record)]
                path = folder / "user_intent_prediction" / f"cosql_{split}.json"
                write_json(path, intents, kind="cosql_user_intent", indent=None)
                done(path)
                responses = [item for record in kept for item in formats.response_items(record, plan.turns[record.id])]
                path = folder / "system_response_generation" / f"cosql_{split}.json"
                # Compact, like the all-info file: it holds result tables, and only the unindented path of the json
                # module is written in C (indenting these took seconds on a CoSQL-sized corpus).
                write_json(path, responses, kind="cosql_response_generation", indent=None)
                done(path)
            elif fmt == "sparc":
                path = folder / f"{split}.json"
                write_json(path, interactions, kind="sparc")
                done(path)
            else:
                path = folder / f"chase_{split}.json"
                write_json(path, interactions, kind="chase", sort_keys=True)
                done(path)
        if fmt == "cosql":
            # The largest file (every result table): written compactly, which also keeps it on the fast C encoder.
            path = folder / "cosql_all_info_dialogs.json"
            write_json(
                path,
                {str(r.id): formats.all_info_dialogue(r) for r in records if not (leave_out_solo and r.mode == "solo")},
                kind="cosql_all_info",
                indent=None,
            )
            done(path)
        path = folder / ("chase_tables.json" if fmt == "chase" else "tables.json")
        write_json(path, tables, kind="tables")
        done(path)
        write_databases(folder, databases)
        written.extend(
            path.relative_to(out_dir).as_posix() for path in sorted((folder / "database").rglob("*")) if path.is_file()
        )
        advance()
    return written
