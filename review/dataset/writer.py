"""Writing an export's folder: one sub-folder per format asked for, each written by its format's module
(review.dataset.formats, whose docstrings list the files), and export_report.json beside them.

What here is shared by every format: `write_export`, the loop over the formats asked for; `Writing`, what a format
writes with (the release's records, plan and splits, its files recorded as written); each JSON file checked against
its schema as it is written (`write_json`); and each format's tables file and `database/` folder, holding exactly the
databases its files use (`Format.held`). `database/<db_id>/` holds `<db_id>.sqlite` and `schema.sql`, as in the
releases, for every database the format's files use that has a file (a schema-only one is in the tables file only),
and the databases of its test suite beside them: the public evaluator's test-suite layout, where every `.sqlite`
file of the folder is run.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

from annotation.plumbing import jsoncodec
from annotation.sql.schema import schema_sql
from annotation.suites.distil import suite_paths
from dialogs.log import DialogueRecord
from review.dataset import validation
from review.dataset.formats import Format, Plan, formats_written, release_formats
from review.dataset.splits import SPLITS


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


def write_json_parts(
    path: Path,
    parts: Iterable[list | dict],
    *,
    kind: str | None,
    sort_keys: bool = False,
    indent: bool = True,
    container: type = list,
) -> None:
    """Write one JSON list (or object: `container` dict) given as consecutive parts, lists (or objects whose keys no
    other part has),
    each validated against the schema of `kind` and written as it comes: the file has the bytes `write_json` gives
    the whole (`sort_keys` sorts the keys inside items; an object's own keys stay in the order of its parts), and
    no more than one part is held at a time. An export writes its large files so (a release ten times CoSQL's size
    held each one whole, twice over as text, at once). The file appears under its name only once it is whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    if container is dict and sort_keys:
        raise ValueError(
            "an object written in parts keeps its parts' order: no sort_keys"
        )  # i18n-exempt: a caller's bug
    empty, separator = (b"{", b"}") if container is dict else (b"[", b"]"), b",\n" if indent else b","
    first = 0
    try:
        with open(partial, "wb") as handle:
            for part in parts:
                if not isinstance(part, container):
                    raise TypeError(f"{path.name}: a part is a {type(part).__name__}, not a {container.__name__}")
                if not part:
                    continue
                if kind is not None:
                    validation.check(kind, part, name=path.name, first=first)
                text = _json_bytes(part, sort_keys=sort_keys, indent=indent)
                # "[\n item,\n item\n]" indented, "[item,item]" compact: the part's items without its brackets.
                body = memoryview(text)[2:-2] if indent else memoryview(text)[1:-1]
                handle.write(separator if first else (empty[0] + b"\n" if indent else empty[0]))
                handle.write(body)
                first += len(part)
                del text, body, part
            handle.write((b"\n" + empty[1] if indent else empty[1]) if first else empty[0] + empty[1])
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def _json_bytes(data, *, sort_keys: bool, indent: bool) -> bytes:
    if indent:
        return jsoncodec.dumps_indented(data, sort_keys=sort_keys)
    return jsoncodec.dumps(data, sort_keys=sort_keys).encode("utf-8")


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


@dataclass
class Writing:
    """One export being written, as each format's `write` is given it: what the release holds (the records, the plan
    of their turns, each database's split, the databases by db_id, the LIMIT encoding of each format, whether CoSQL
    keeps solo sequences, the formats whose gold is written, the query-first work) and the files written so far
    (relative paths, in order)."""

    out_dir: Path
    records: list[DialogueRecord]
    plan: Plan
    split_of: dict[str, str]
    by_id: dict[str, object]
    limit_modes: dict[str, str]
    gold_formats: list[str]
    cosql_solo: bool = False
    query_first: dict[int, dict] | None = None
    written: list[str] = field(default_factory=list)

    def graded(self, fmt: str) -> bool:
        """Whether the export writes a gold file for `fmt`'s interactions."""
        return fmt in self.gold_formats

    def by_split(self, held: list[DialogueRecord]) -> dict[str, list[DialogueRecord]]:
        split = {name: [] for name in SPLITS}
        for record in held:
            split[self.split_of[record.db_id]].append(record)
        return split

    def json(self, name: str, data, *, kind: str, sort_keys: bool = False, indent: bool = True) -> None:
        """Validate and write the JSON file `name` (relative to the export's folder): see write_json."""
        write_json(self.out_dir / name, data, kind=kind, sort_keys=sort_keys, indent=indent)
        self.written.append(name)

    def json_parts(self, name: str, parts: Iterable[list | dict], *, kind: str, **options) -> None:
        """Validate and write the JSON file `name` a part at a time: see write_json_parts (`options`: its
        sort_keys, indent, container)."""
        write_json_parts(self.out_dir / name, parts, kind=kind, **options)
        self.written.append(name)

    def text(self, name: str, text: str) -> None:
        path = self.out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.written.append(name)

    def databases_used(self, fmt: Format, held: list[DialogueRecord]) -> None:
        """The tables file of `fmt` and its database/ folder: exactly the databases its files use (`held`)."""
        used = [self.by_id[db_id] for db_id in sorted({record.db_id for record in held})]
        self.json(fmt.tables_file, [database.schema for database in used], kind="tables")
        folder = self.out_dir / fmt.folder
        write_databases(folder, used)
        self.written.extend(
            path.relative_to(self.out_dir).as_posix()
            for path in sorted((folder / "database").rglob("*"))
            if path.is_file()
        )


def write_export(
    out_dir: Path,
    *,
    formats_wanted: list[str],
    records: list[DialogueRecord],
    plan: Plan,
    split_of: dict[str, str],
    databases: list,
    limit_modes: dict[str, str],
    cosql_solo: bool = False,
    progress: Callable[[int, int], None] | None = None,
    query_first: dict[int, dict] | None = None,
) -> list[str]:
    """Write every wanted format into `out_dir`, each by its own module (review.dataset.formats); return the written
    files (relative paths). Raises validation.SchemaViolation if anything built does not match its schema: nothing
    invalid is ever offered. `query_first` (dialogue id -> what its annotation recorded) serves the OTTA files."""
    writing = Writing(
        out_dir=Path(out_dir),
        records=records,
        plan=plan,
        split_of=split_of,
        by_id={database.db_id: database for database in databases},
        limit_modes=limit_modes,
        gold_formats=release_formats(formats_wanted)[1],
        cosql_solo=cosql_solo,
        query_first=query_first,
    )
    steps = formats_written(formats_wanted)
    for step, fmt in enumerate(steps, start=1):
        fmt.write(writing)
        if progress:
            progress(step, len(steps))
    return writing.written
