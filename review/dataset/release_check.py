"""The release check: once an export's files are written, they are read back and compared with what the release
promises, and the export fails with the list of what disagrees.

What a release promises (`formats.release_records` over the plan of turns): each format holds the same dialogues
and turns in every one of its files, split by split, in the same order: the state-tracking files (CoSQL, SParC,
CHASE), the gold file that grades them, and for CoSQL the all-info, user-intent and response files; its tables file
and its database/ folder hold exactly the databases those files use; no database is in two splits; and every label
a person confirmed on a turn (intent, contextual phenomena, schema links) is in the CHASE file, the schema links
indexing the same words once the turn is folded with its clarification. Every format is compared with the same
promise, so the formats of one release agree with one another (CoSQL's leaving solo sequences out is part of it).

Each format's module says how its files are read back and compared (`Format.check`, review.dataset.formats); here is
what they share: `Reading` (the release the arguments describe, the files read from disk, the disagreements found),
the comparison of a file's interactions with the release's, the one-split-per-database rule, and the check of a
format's tables file and `database/` folder. The files are read from disk, not taken from the writer: what is
checked is what is shipped.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import ngettext

from annotation.plumbing import jsoncodec
from annotation.plumbing.gc_pause import collector_paused
from dialogs.log import DialogueRecord
from review.dataset.formats import Format, Plan, formats_written, release_formats
from review.dataset.formats.base import Key, describe, record_key
from review.dataset.splits import SPLITS

MAX_LISTED = 200


class ReleaseCheckFailed(ValidationError):
    """The files of one export disagree; `report` is the export's report, `release_check` listing what disagrees."""

    def __init__(self, report: dict):
        check = report["release_check"]
        shown = check["disagreements"][:10]
        more = check["count"] - len(shown)
        # Worded in the active language (the export job's: review.dataset.services.dataset_build); what disagrees is
        # said as the release check wrote it, in English, as in the report.
        values = {"count": check["count"], "found": "; ".join(shown), "more": more}
        if more > 0:
            message = ngettext(
                "The release check failed: %(count)s disagreement: %(found)s; … and %(more)s more (listed in "
                "export_report.json)",
                "The release check failed: %(count)s disagreements: %(found)s; … and %(more)s more (listed in "
                "export_report.json)",
                check["count"],
            )
        else:
            message = ngettext(
                "The release check failed: %(count)s disagreement: %(found)s",
                "The release check failed: %(count)s disagreements: %(found)s",
                check["count"],
            )
        super().__init__(message % values)
        self.report = report


def release_check(
    out_dir: Path,
    *,
    formats_wanted: list[str],
    records: list[DialogueRecord],
    plan: Plan,
    split_of: dict[str, str],
    databases: list,
    cosql_solo: bool = False,
) -> tuple[dict, dict]:
    """Compare the files in `out_dir` with the release the same arguments describe, format by format (each by its
    own module; a format whose files are not read back is left out). Returns (the check: {"ok", "count",
    "disagreements": readable lines, the first MAX_LISTED}, what each format's files hold: {fmt: {"dialogues",
    "turns", "databases", "splits": {split: the same three}}})."""
    reading = Reading(
        out_dir=Path(out_dir),
        records=records,
        plan=plan,
        split_of=split_of,
        has_file={database.db_id: database.has_file for database in databases},
        gold_formats=release_formats(formats_wanted)[1],
        cosql_solo=cosql_solo,
    )
    held_counts = {fmt.name: _counts(fmt.check(reading)) for fmt in formats_written(formats_wanted) if fmt.read_back}
    return {"ok": reading.count == 0, "count": reading.count, "disagreements": reading.listed}, held_counts


def _counts(splits_held: dict[str, list[Key]]) -> dict:
    def count(keys: list[Key]) -> dict:
        return {
            "dialogues": len(keys),
            "turns": sum(len(turns) for _, turns in keys),
            "databases": len({db_id for db_id, _ in keys}),
        }

    every = [key for split in SPLITS for key in splits_held.get(split, [])]
    return {**count(every), "splits": {split: count(splits_held.get(split, [])) for split in SPLITS}}


@dataclass
class Reading:
    """One export's files being read back, as each format's `check` is given it: the release they should hold (the
    records, the plan of their turns, each database's split, which databases have a file, the formats whose gold
    was written, whether CoSQL keeps solo sequences) and the disagreements found (`add`; the first MAX_LISTED
    listed, all counted)."""

    out_dir: Path
    records: list[DialogueRecord]
    plan: Plan
    split_of: dict[str, str]
    has_file: dict[str, bool]
    gold_formats: list[str]
    cosql_solo: bool = False
    listed: list[str] = field(default_factory=list)
    count: int = 0

    def add(self, text: str) -> None:
        self.count += 1
        if len(self.listed) < MAX_LISTED:
            self.listed.append(text)

    def graded(self, fmt: str) -> bool:
        """Whether the export has a gold file for `fmt`'s interactions."""
        return fmt in self.gold_formats

    def by_split(self, held: list[DialogueRecord]) -> dict[str, list[DialogueRecord]]:
        expected: dict[str, list[DialogueRecord]] = {split: [] for split in SPLITS}
        for record in held:
            expected[self.split_of[record.db_id]].append(record)
        return expected

    def key(self, record: DialogueRecord) -> Key:
        return record_key(record, self.plan)

    def json(self, name: str, *, quiet: bool = False):
        """The JSON file `name` of the export, or None (a disagreement unless `quiet`) when it is missing or cannot be
        read."""
        path = self.out_dir / name
        try:
            # Without the cyclic collector while parsing: the many containers a CoSQL-sized file makes set off
            # collections that walk the export's records again and again (annotation/plumbing/gc_pause.py).
            with collector_paused():
                return jsoncodec.loads(path.read_bytes())
        except FileNotFoundError:
            if not quiet:
                self.add(f"{name}: missing")
        except (OSError, ValueError) as exc:
            if not quiet:
                self.add(f"{name}: cannot be read ({exc})")
        return None

    def items(self, name: str, *, opening: str = "[") -> FileItems:
        """The items of the JSON file `name` (a list's, or an object's (key, value) pairs: `opening` "{"), read one at
        a time as they are iterated: see FileItems."""
        return FileItems(self, name, opening)

    def compare(self, name: str, want: list[Key], got: list[Key], records: list[DialogueRecord]) -> None:
        """Report how the interactions `got` from file `name` differ from those the release holds (`want`, of
        `records`): interaction by interaction when there are as many, else which are missing and which are extra."""
        if want == got:
            return
        if len(want) == len(got):
            for record, wanted, there in zip(records, want, got, strict=True):
                if wanted == there:
                    continue
                if wanted[0] != there[0]:
                    self.add(f"{name}: {describe(record)} is on database {there[0]!r} in the file")
                elif len(wanted[1]) != len(there[1]):
                    self.add(f"{name}: {describe(record)} has {len(there[1])} turns, the release {len(wanted[1])}")
                else:
                    index = next(i for i, (a, b) in enumerate(zip(wanted[1], there[1], strict=True)) if a != b)
                    self.add(f"{name}: {describe(record)}, turn {index + 1} differs from the release's")
            return
        self.add(f"{name}: {len(got)} interactions, the release has {len(want)}")
        missing = Counter(want) - Counter(got)
        extra = Counter(got) - Counter(want)
        for record, key in zip(records, want, strict=True):
            if missing[key] > 0:
                missing[key] -= 1
                self.add(f"{name}: {describe(record)} ({len(key[1])} turns) is missing")
        for (db_id, turns), times in extra.items():
            first = next((utterance for utterance, _ in turns if utterance), "")
            for _ in range(times):
                self.add(f"{name}: an interaction on {db_id!r} ({len(turns)} turns) is in no dialogue of the release"
                         + (f" (first turn: {first[:80]!r})" if first else ""))  # fmt: skip

    def one_split_per_database(self, folder: str, splits_held: dict[str, list[Key]]) -> None:
        """No database of the format's files (in `folder`) is in two splits."""
        seen: dict[str, set[str]] = {}
        for split, keys in splits_held.items():
            for db_id, _ in keys:
                seen.setdefault(db_id, set()).add(split)
        for db_id, splits in sorted(seen.items()):
            if len(splits) > 1:
                self.add(f"{folder}: database {db_id!r} is in {' and '.join(s for s in SPLITS if s in splits)}")

    def databases_used(self, fmt: Format, used: set[str]) -> None:
        """The tables file of `fmt` lists exactly the databases its files use (`used`), each once; its database/
        holds exactly those of them that have a file, each with its SQLite file, and any other SQLite file beside it
        (its test suite) has the same tables."""
        name = fmt.tables_file
        tables = self.json(name)
        if tables is not None:
            listed = Counter(item.get("db_id") if isinstance(item, dict) else None for item in tables)
            for db_id, times in sorted(listed.items(), key=lambda pair: str(pair[0])):
                if times > 1:
                    self.add(f"{name}: {db_id!r} is listed {times} times")
            for db_id in sorted(used - set(listed)):
                self.add(f"{name}: {db_id!r} is used but not listed")
            for db_id in sorted(set(listed) - used, key=str):
                self.add(f"{name}: {db_id!r} is listed but no interaction uses it")
        self._database_folder(fmt.folder, {db_id for db_id in used if self.has_file.get(db_id)})

    def _database_folder(self, folder_name: str, with_file: set[str]) -> None:
        folder = self.out_dir / folder_name / "database"
        present = {path.name for path in folder.iterdir() if path.is_dir()} if folder.is_dir() else set()
        where = f"{folder_name}/database"
        for db_id in sorted(with_file - present):
            self.add(f"{where}: {db_id!r} is used but missing")
        for db_id in sorted(present - with_file):
            self.add(f"{where}: {db_id!r} is there but no interaction uses it")
        for db_id in sorted(with_file & present):
            original = folder / db_id / f"{db_id}.sqlite"
            if not original.is_file():
                self.add(f"{where}/{db_id}: {db_id}.sqlite is missing")
                continue
            tables = _table_names(original)
            for path in sorted(folder.joinpath(db_id).glob("*.sqlite")):
                if path != original and _table_names(path) != tables:
                    self.add(f"{where}/{db_id}: {path.name} is not a database of its test suite (other tables)")


class FileItems:
    """The items of one JSON file of an export, parsed one at a time as they are iterated (jsoncodec.iter_items):
    a release's large files are never all held as objects at once. A file that is missing or cannot be read is a
    disagreement, as with `Reading.json`, and `ok` is False once iterated: what came before the place it breaks
    must then be set aside by the caller, as if the file had held nothing. A file whose text is not the container
    asked for is parsed whole and iterated as it is (as a check of a whole parsed file would)."""

    def __init__(self, reading: Reading, name: str, opening: str) -> None:
        self.reading, self.name, self.opening, self.ok = reading, name, opening, True

    def __iter__(self):
        try:
            with open(self.reading.out_dir / self.name, "rb") as handle:
                if _first_character(handle) != self.opening.encode():
                    yield from self._whole(handle.read())
                    return
                with collector_paused():  # see Reading.json
                    yield from jsoncodec.iter_items(handle, opening=self.opening)
        except FileNotFoundError:
            self.ok = False
            self.reading.add(f"{self.name}: missing")
        except (OSError, ValueError) as exc:
            self.ok = False
            self.reading.add(f"{self.name}: cannot be read ({exc})")

    def _whole(self, data: bytes):
        try:
            value = jsoncodec.loads(data)
        except ValueError as exc:
            self.ok = False
            self.reading.add(f"{self.name}: cannot be read ({exc})")
            return
        if self.opening == "{":  # an object's pairs, or anything else as one item (the caller sees it is no pair)
            yield from value.items() if isinstance(value, dict) else [value]
        else:
            yield from value or []


def _first_character(handle) -> bytes:
    """The first byte of an open file that is not whitespace (b"" for none); the file is read from its start again."""
    while chunk := handle.read(4096):
        stripped = chunk.lstrip()
        if stripped:
            handle.seek(0)
            return stripped[:1]
    handle.seek(0)
    return b""


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
