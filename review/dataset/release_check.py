"""The release check: once an export's files are written, they are read back and compared with what the release
promises, and the export fails with the list of what disagrees.

What a release promises (`formats.release_records` over the plan of turns): each format holds the same dialogues
and turns in every one of its files, split by split, in the same order: the state-tracking files (CoSQL, SParC,
CHASE), the gold file that grades them, and for CoSQL the all-info, user-intent and response files; its tables file
and its database/ folder hold exactly the databases those files use; no database is in two splits; and every label
a person confirmed on a turn (intent, contextual phenomena, schema links) is in the CHASE file, the schema links
indexing the same words once the turn is folded with its clarification. Every format is compared with the same
promise, so the formats of one release agree with one another (CoSQL's leaving solo sequences out is part of it).

The files are read from disk, not taken from the writer: what is checked is what is shipped.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

from django.core.exceptions import ValidationError

from annotation.labels.acts import CHASE_INTENT_LABELS
from annotation.labels.tokens import utterance_toks
from annotation.plumbing import jsoncodec
from annotation.plumbing.gc_pause import collector_paused
from dialogs.log import DialogueRecord
from review.dataset import formats
from review.dataset.splits import SPLITS
from review.dataset.writer import (
    COSQL_ALL_INFO,
    COSQL_SPLIT_FILES,
    FOLDERS,
    GOLD_FILES,
    STATE_FILES,
    TABLES_FILES,
    release_formats,
)

MAX_LISTED = 200

# An interaction as the files can be compared on it: its database and its turns' (utterance, SQL).
Key = tuple[str, tuple]


class ReleaseCheckFailed(ValidationError):
    """The files of one export disagree; `report` is the export's report, `release_check` listing what disagrees."""

    def __init__(self, report: dict):
        check = report["release_check"]
        shown = check["disagreements"][:10]
        more = check["count"] - len(shown)
        message = f"The release check failed: {check['count']} disagreement{'s' * (check['count'] != 1)}: " + "; ".join(
            shown
        )
        super().__init__(message + (f"; … and {more} more (listed in export_report.json)" if more > 0 else ""))
        self.report = report


class _Disagreements:
    def __init__(self):
        self.listed: list[str] = []
        self.count = 0

    def add(self, text: str) -> None:
        self.count += 1
        if len(self.listed) < MAX_LISTED:
            self.listed.append(text)


def release_check(
    out_dir: Path,
    *,
    formats_wanted: list[str],
    records: list[DialogueRecord],
    plan: formats.Plan,
    split_of: dict[str, str],
    databases: list,
    cosql_solo: bool = False,
) -> tuple[dict, dict]:
    """Compare the files in `out_dir` with the release the same arguments describe. Returns (the check:
    {"ok", "count", "disagreements": readable lines, the first MAX_LISTED}, what each format's files hold:
    {fmt: {"dialogues", "turns", "databases", "splits": {split: the same three}}})."""
    out_dir = Path(out_dir)
    found = _Disagreements()
    has_file = {database.db_id: database.has_file for database in databases}
    interaction_formats, gold_formats = release_formats(formats_wanted)
    held_counts: dict[str, dict] = {}
    for fmt in dict.fromkeys([*interaction_formats, *gold_formats]):
        held = formats.release_records(fmt, records, plan, cosql_solo=cosql_solo)
        expected: dict[str, list[DialogueRecord]] = {split: [] for split in SPLITS}
        for record in held:
            expected[split_of[record.db_id]].append(record)
        splits_held: dict[str, list[Key]] = {}
        for split in SPLITS:
            want = [_key(record, plan) for record in expected[split]]
            if fmt in STATE_FILES:
                name = STATE_FILES[fmt].format(split=split)
                items = _read_json(out_dir, name, found) or []
                got = [_file_key(item) for item in items]
                _compare(found, name, want, got, expected[split])
                splits_held[split] = got
                if fmt == "chase":
                    _check_labels(found, name, items, got, want, expected[split], plan)
                if fmt == "cosql":
                    _check_cosql_items(found, split, expected[split], plan, out_dir)
            if fmt in gold_formats:
                name = GOLD_FILES[fmt].format(split=split)
                got = _read_gold(out_dir, name, found)
                gold_want = [(db_id, tuple(formats.one_line(sql) for _, sql in turns)) for db_id, turns in want]
                gold_got = [(db_id, tuple(sql for sql in queries)) for db_id, queries in got]
                _compare(found, name, gold_want, gold_got, expected[split])
                splits_held.setdefault(split, [(db_id, tuple((None, sql) for sql in sqls)) for db_id, sqls in got])
        _check_one_split_per_database(found, fmt, splits_held)
        if fmt == "cosql":
            _check_all_info(found, out_dir, held)
        if fmt in TABLES_FILES:
            used = {db_id for keys in splits_held.values() for db_id, _ in keys}
            _check_databases(found, out_dir, fmt, used, has_file)
        held_counts[fmt] = _counts(splits_held)
    return {"ok": found.count == 0, "count": found.count, "disagreements": found.listed}, held_counts


def _key(record: DialogueRecord, plan: formats.Plan) -> Key:
    return record.db_id, tuple((turn.state.utterance, turn.state.sql) for turn in plan.turns[record.id])


def _file_key(item) -> Key:
    if not isinstance(item, dict):
        return "", ()
    turns = item.get("interaction") or []
    return item.get("database_id"), tuple(
        (turn.get("utterance"), turn.get("query")) if isinstance(turn, dict) else (None, None) for turn in turns
    )


def _counts(splits_held: dict[str, list[Key]]) -> dict:
    def count(keys: list[Key]) -> dict:
        return {
            "dialogues": len(keys),
            "turns": sum(len(turns) for _, turns in keys),
            "databases": len({db_id for db_id, _ in keys}),
        }

    every = [key for split in SPLITS for key in splits_held.get(split, [])]
    return {**count(every), "splits": {split: count(splits_held.get(split, [])) for split in SPLITS}}


def _read_json(out_dir: Path, name: str, found: _Disagreements):
    path = out_dir / name
    try:
        # Without the cyclic collector while parsing: the many containers a CoSQL-sized file makes set off
        # collections that walk the export's records again and again (annotation/plumbing/gc_pause.py).
        with collector_paused():
            return jsoncodec.loads(path.read_bytes())
    except FileNotFoundError:
        found.add(f"{name}: missing")
    except (OSError, ValueError) as exc:
        found.add(f"{name}: cannot be read ({exc})")
    return None


def _read_gold(out_dir: Path, name: str, found: _Disagreements) -> list[tuple[str, list[str]]]:
    """The interactions of a gold file: (db_id, its SQL lines), as an evaluator groups them (blank-line separated)."""
    try:
        text = (out_dir / name).read_text(encoding="utf-8")
    except FileNotFoundError:
        found.add(f"{name}: missing")
        return []
    blocks: list[tuple[str, list[str]]] = []
    current: list[tuple[str, str]] = []
    for line in text.split("\n"):
        if line:
            sql, _, db_id = line.rpartition("\t")
            current.append((db_id, sql))
            continue
        if current:
            databases = {db_id for db_id, _ in current}
            if len(databases) > 1:
                found.add(f"{name}: one interaction mixes databases {', '.join(sorted(databases))}")
            blocks.append((current[0][0], [sql for _, sql in current]))
            current = []
    if current:
        found.add(f"{name}: the last interaction is not followed by an empty line")
        blocks.append((current[0][0], [sql for _, sql in current]))
    return blocks


def _describe(record: DialogueRecord) -> str:
    return f"dialogue {record.id} ({record.db_id})"


def _compare(found: _Disagreements, name: str, want: list[Key], got: list[Key], records: list[DialogueRecord]):
    """Report how the interactions `got` from file `name` differ from those the release holds (`want`, of
    `records`): interaction by interaction when there are as many, else which are missing and which are extra."""
    if want == got:
        return
    if len(want) == len(got):
        for record, wanted, there in zip(records, want, got, strict=True):
            if wanted == there:
                continue
            if wanted[0] != there[0]:
                found.add(f"{name}: {_describe(record)} is on database {there[0]!r} in the file")
            elif len(wanted[1]) != len(there[1]):
                found.add(f"{name}: {_describe(record)} has {len(there[1])} turns, the release {len(wanted[1])}")
            else:
                index = next(i for i, (a, b) in enumerate(zip(wanted[1], there[1], strict=True)) if a != b)
                found.add(f"{name}: {_describe(record)}, turn {index + 1} differs from the release's")
        return
    found.add(f"{name}: {len(got)} interactions, the release has {len(want)}")
    missing = Counter(want) - Counter(got)
    extra = Counter(got) - Counter(want)
    for record, key in zip(records, want, strict=True):
        if missing[key] > 0:
            missing[key] -= 1
            found.add(f"{name}: {_describe(record)} ({len(key[1])} turns) is missing")
    for (db_id, turns), times in extra.items():
        first = next((utterance for utterance, _ in turns if utterance), "")
        for _ in range(times):
            found.add(f"{name}: an interaction on {db_id!r} ({len(turns)} turns) is in no dialogue of the release"
                      + (f" (first turn: {first[:80]!r})" if first else ""))  # fmt: skip


def _check_labels(found, name, items, got, want, records, plan) -> None:
    """Every label a person confirmed on an exported turn is in the CHASE file (where the interaction itself
    agrees: a missing one is reported already)."""
    for index, record in enumerate(records):
        if index >= len(got) or got[index] != want[index]:
            continue
        file_turns = items[index]["interaction"]
        for planned, file_turn in zip(plan.turns[record.id], file_turns, strict=True):
            turn = planned.state.turn
            carried = formats.carried_labels(turn)
            if not carried:
                continue
            where = f"{name}: {_describe(record)}, turn {turn.seq}"
            if planned.state.folded:
                where += " (folded with its clarification)"
            labels = turn.labels
            if "intent" in carried and labels.get("intent"):
                if file_turn.get("intent") != CHASE_INTENT_LABELS[labels["intent"]["category"]]:
                    found.add(f"{where}: the confirmed intent is not in the file")
            if "contextual_phenomena" in carried:
                if file_turn.get("contextual_phenomena") != list(labels.get("contextual_phenomena") or []):
                    found.add(f"{where}: the confirmed contextual phenomena are not in the file")
            if "schema_linking" in carried:
                lost = _links_lost(labels.get("schema_linking") or [], turn.text, file_turn)
                if lost:
                    found.add(f"{where}: {lost} confirmed schema link{'s' * (lost != 1)} not in the file")


def _links_lost(confirmed: list[dict], text: str, file_turn: dict) -> int:
    """How many `confirmed` spans (over the tokens of the turn's own text) have no span in the file that links the
    same words to the same entity."""
    own = utterance_toks(text)
    tokens = file_turn.get("utterance_toks") or []
    there = Counter(
        (tuple(tokens[span["beg"] : span["end"] + 1]), span.get("type"), json.dumps(span.get("entity"), sort_keys=True))
        for span in file_turn.get("schema_linking") or []
        if isinstance(span, dict) and isinstance(span.get("beg"), int) and isinstance(span.get("end"), int)
    )
    lost = 0
    for span in confirmed:
        key = (tuple(own[span["beg"] : span["end"] + 1]), span["type"], json.dumps(span["entity"], sort_keys=True))
        if there[key] > 0:
            there[key] -= 1
        else:
            lost += 1
    return lost


def _check_cosql_items(found, split, records, plan, out_dir) -> None:
    """CoSQL's user-intent and response files of a split hold items of that split's dialogues only, and a response
    only for an exported turn's SQL."""
    exported = {str(record.id): {turn.state.sql for turn in plan.turns[record.id]} for record in records}
    db_of = {str(record.id): record.db_id for record in records}
    for kind, template in COSQL_SPLIT_FILES.items():
        name = template.format(split=split)
        items = _read_json(out_dir, name, found) or []
        strays: Counter = Counter()
        for item in items:
            dialogue = str(item.get("dialogue_id")) if isinstance(item, dict) else ""
            if dialogue not in exported or item.get("database_id") != db_of[dialogue]:
                strays[dialogue] += 1
            elif kind == "cosql_response_generation" and item.get("query") not in exported[dialogue]:
                found.add(f"{name}: a response of dialogue {dialogue} answers SQL that is not among its turns")
        for dialogue, times in strays.items():
            found.add(f"{name}: {times} item{'s' * (times != 1)} of dialogue {dialogue!r}, which this split lacks")


def _check_all_info(found, out_dir, held) -> None:
    data = _read_json(out_dir, COSQL_ALL_INFO, found)
    if data is None:
        return
    want = {str(record.id): record.db_id for record in held}
    if not isinstance(data, dict):
        found.add(f"{COSQL_ALL_INFO}: not an object keyed by dialogue")
        return
    for dialogue in sorted(set(want) - set(data), key=_numeric):
        found.add(f"{COSQL_ALL_INFO}: dialogue {dialogue} ({want[dialogue]}) is missing")
    for dialogue in sorted(set(data) - set(want), key=_numeric):
        found.add(f"{COSQL_ALL_INFO}: dialogue {dialogue} is not in the CoSQL state-tracking files")
    # The tables the worker was shown are the database's tables as the release's own tables.json lists them.
    listed = _read_json(out_dir, TABLES_FILES["cosql"], _Disagreements()) or []  # a missing one: _check_databases
    tables = {item.get("db_id"): item.get("table_names_original") for item in listed if isinstance(item, dict)}
    for dialogue in sorted(set(data) & set(want), key=_numeric):
        if not isinstance(data[dialogue], dict):
            continue
        if data[dialogue].get("db_id") != want[dialogue]:
            found.add(f"{COSQL_ALL_INFO}: dialogue {dialogue} is on {data[dialogue].get('db_id')!r}")
        elif data[dialogue].get("assistant_table_names") != tables.get(want[dialogue]):
            found.add(
                f"{COSQL_ALL_INFO}: dialogue {dialogue}'s assistant_table_names are not the tables of "
                f"{want[dialogue]!r} in {TABLES_FILES['cosql']}"
            )


def _numeric(text: str):
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _check_one_split_per_database(found, fmt, splits_held) -> None:
    seen: dict[str, set[str]] = {}
    for split, keys in splits_held.items():
        for db_id, _ in keys:
            seen.setdefault(db_id, set()).add(split)
    for db_id, splits in sorted(seen.items()):
        if len(splits) > 1:
            found.add(f"{FOLDERS[fmt]}: database {db_id!r} is in {' and '.join(s for s in SPLITS if s in splits)}")


def _check_databases(found, out_dir, fmt, used: set[str], has_file: dict[str, bool]) -> None:
    """The tables file lists exactly the databases the format's files use, each once; database/ holds exactly those
    of them that have a file, each with its SQLite file, and any other SQLite file beside it (its test suite) has the
    same tables."""
    name = TABLES_FILES[fmt]
    tables = _read_json(out_dir, name, found)
    if tables is not None:
        listed = Counter(item.get("db_id") if isinstance(item, dict) else None for item in tables)
        for db_id, times in sorted(listed.items(), key=lambda pair: str(pair[0])):
            if times > 1:
                found.add(f"{name}: {db_id!r} is listed {times} times")
        for db_id in sorted(used - set(listed)):
            found.add(f"{name}: {db_id!r} is used but not listed")
        for db_id in sorted(set(listed) - used, key=str):
            found.add(f"{name}: {db_id!r} is listed but no interaction uses it")
    folder = out_dir / FOLDERS[fmt] / "database"
    present = {path.name for path in folder.iterdir() if path.is_dir()} if folder.is_dir() else set()
    with_file = {db_id for db_id in used if has_file.get(db_id)}
    where = f"{FOLDERS[fmt]}/database"
    for db_id in sorted(with_file - present):
        found.add(f"{where}: {db_id!r} is used but missing")
    for db_id in sorted(present - with_file):
        found.add(f"{where}: {db_id!r} is there but no interaction uses it")
    for db_id in sorted(with_file & present):
        original = folder / db_id / f"{db_id}.sqlite"
        if not original.is_file():
            found.add(f"{where}/{db_id}: {db_id}.sqlite is missing")
            continue
        tables = _table_names(original)
        for path in sorted(folder.joinpath(db_id).glob("*.sqlite")):
            if path != original and _table_names(path) != tables:
                found.add(f"{where}/{db_id}: {path.name} is not a database of its test suite (other tables)")


def _table_names(path: Path) -> set[str] | None:
    """The tables of the SQLite file at `path`, or None when it cannot be read as one."""
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    return {name.lower() for (name,) in rows}
