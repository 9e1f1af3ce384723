"""Writes of registered databases: a SQLite file checked and registered (copied once into the data folder, its
schema read), a schema-only entry from a Spider `tables.json`, a Spider release imported.

Each service takes keyword arguments, validates, then writes. Errors a person can fix are raised as
`django.core.exceptions.ValidationError` with a message meant for them. Curation's writes are `curation.py` beside this
one; what a file holds, as people see it, is `profile.py`.
"""

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from annotation.databases.curation import database_version_add, next_version_file
from annotation.databases.curation import file_sha256 as _sha256
from annotation.databases.profile import curated_schema
from annotation.models import Database, User
from annotation.plumbing.jsonfile import read_json_file
from annotation.sql.schema import introspect_sqlite, release_names_kept

SQLITE_HEADER = b"SQLite format 3\x00"


# Spider and CHASE ids: letters (any script), digits and underscores. No dots or slashes: the id names a folder.
DB_ID_PATTERN = re.compile(r"^[^\W][\w-]{0,99}$", re.UNICODE)


def database_check_file(path: Path) -> None:
    """Refuse anything that is not a readable SQLite database file, with a message saying why."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise ValidationError(_("Cannot read the database file: %(reason)s.") % {"reason": exc.strerror}) from exc
    if header != SQLITE_HEADER:
        raise ValidationError(_("This is not a SQLite database file (the file does not start with the SQLite header)."))
    limit = settings.MAX_DATABASE_UPLOAD_MB * 1024 * 1024
    if path.stat().st_size > limit:
        raise ValidationError(
            _("The database is larger than the %(limit)s MB limit.") % {"limit": settings.MAX_DATABASE_UPLOAD_MB}
        )


def database_register(
    *,
    db_id: str,
    source_path: Path,
    description: str = "",
    created_by: User | None = None,
    replace: bool = False,
    release_entry: dict | None = None,
) -> Database:
    """Copy a SQLite file into the data folder, read its schema and register it under `db_id`.

    The copy is written to a temporary file and renamed into place, so a failed import never leaves half a file
    behind a registered database. With `replace=True` an existing registration gets the file as its next version
    (its goals keep pointing at it, its dialogues at the version they were created on, and its curation applies to
    the new file's schema). Each file is recorded as a version (annotation.databases.curation, docs/curation.md).
    `release_entry`: the file's entry in the tables.json of the release it comes from, whose readable names are kept
    when it describes the same tables and columns (annotation.sql.schema.release_names_kept).
    """

    db_id = db_id.strip()
    if not DB_ID_PATTERN.match(db_id):
        raise ValidationError(
            _("%(db_id)s is not a valid database id: use letters, digits and underscores.") % {"db_id": repr(db_id)}
        )
    source_path = Path(source_path)
    database_check_file(source_path)
    existing = Database.objects.filter(db_id=db_id).first()
    if existing and not replace:
        raise ValidationError(_("A database with the id %(db_id)s is already registered.") % {"db_id": repr(db_id)})

    if existing:
        number, relative = next_version_file(existing)
    else:
        number, relative = 1, Path("databases") / db_id / f"{db_id}.sqlite"
    target = Path(settings.DATA_DIR) / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(dir=target.parent, suffix=".part")
    os.close(handle)
    try:
        shutil.copyfile(source_path, temp_name)
        try:
            schema = introspect_sqlite(temp_name, db_id)
        except Exception as exc:  # a damaged file fails here with sqlite3.DatabaseError and friends
            raise ValidationError(_("Could not read the schema of this database: %(error)s") % {"error": exc}) from exc
        if not schema["table_names_original"]:
            raise ValidationError(_("The database has no tables."))
        schema, names_note = release_names_kept(schema, release_entry)
        os.replace(temp_name, target)
    finally:
        if os.path.exists(temp_name):
            os.unlink(temp_name)

    values = {
        "file": relative.as_posix(),
        "schema": curated_schema(schema, existing.curation) if existing else schema,
        "size_bytes": target.stat().st_size,
        "sha256": _sha256(target),
        "description": description,
    }
    with transaction.atomic():
        if existing:
            for name, value in values.items():
                setattr(existing, name, value)
            existing.save(update_fields=[*values])
            database = existing
        else:
            database = Database.objects.create(db_id=db_id, created_by=created_by, **values)
        database_version_add(
            database=database,
            number=number,
            file=relative,
            sha256=values["sha256"],
            size_bytes=values["size_bytes"],
            schema=schema,
            by=created_by,
            note=("replaced" if existing else "registered") + (f"; {names_note}" if names_note else ""),
        )
    return database


TABLES_JSON_KEYS = (
    "db_id",
    "table_names_original",
    "table_names",
    "column_names_original",
    "column_names",
    "column_types",
    "primary_keys",
    "foreign_keys",
)


def database_register_schema(*, schema: dict, description: str = "") -> Database:
    """Register a database from its tables.json entry alone, without a SQLite file.

    Some releases (CHASE) publish schemas but not their databases. A schema-only database can hold imported
    dialogues, encode their SQL and be exported, but its SQL cannot be executed; it is registered inactive, so no
    new dialogue is ever started on it. Registering the same db_id twice is refused.
    """
    missing = [key for key in TABLES_JSON_KEYS if key not in schema]
    if missing:
        raise ValidationError(_("Not a tables.json entry: missing %(keys)s.") % {"keys": ", ".join(missing)})
    db_id = str(schema["db_id"]).strip()
    if not DB_ID_PATTERN.match(db_id):
        raise ValidationError(
            _("%(db_id)s is not a valid database id: use letters, digits and underscores.") % {"db_id": repr(db_id)}
        )
    columns = schema["column_names_original"]
    if not schema["table_names_original"] or not columns or list(columns[0]) != [-1, "*"]:
        raise ValidationError(
            _('The schema of %(db_id)s has no tables, or its first column is not [-1, "*"].') % {"db_id": repr(db_id)}
        )
    if Database.objects.filter(db_id=db_id).exists():
        raise ValidationError(_("A database with the id %(db_id)s is already registered.") % {"db_id": repr(db_id)})
    entry = {key: schema[key] for key in TABLES_JSON_KEYS}
    return Database.objects.create(db_id=db_id, file="", schema=entry, description=description, active=False)


@dataclass
class SpiderImportReport:
    registered: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # Registered, with something to say: (db_id, note), e.g. the release's readable names could not be kept.
    notes: list[tuple[str, str]] = field(default_factory=list)


def databases_import_spider(
    *, tables_path: Path, databases_dir: Path, only: list[str] | None = None, replace: bool = False
) -> SpiderImportReport:
    """Register every database of a Spider-style release (tables.json + database/<db_id>/<db_id>.sqlite).

    The schema is read from each SQLite file, so that what the platform stores is what the file holds; tables.json
    says which databases exist and gives their readable names (kept when its entry describes the same tables and
    columns as the file: a re-export then says "airline id" where the release did, not the file's "uid").
    """
    entries = read_json_file(tables_path)
    if not isinstance(entries, list):
        raise ValidationError(  # i18n-exempt: the import_spider command's, which prints it untranslated
            f"{tables_path} is not a tables.json file: it holds no list of database entries."
        )
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("db_id"), str):
            raise ValidationError(  # i18n-exempt: the import_spider command's, which prints it untranslated
                f"{tables_path} is not a tables.json file: entry {index} has no db_id."
            )
    wanted = set(only) if only else None
    report = SpiderImportReport()
    for entry in entries:
        db_id = entry["db_id"]
        if wanted is not None and db_id not in wanted:
            continue
        path = Path(databases_dir) / db_id / f"{db_id}.sqlite"
        if not path.exists():
            report.skipped.append((db_id, f"no file at {path}"))
            continue
        if Database.objects.filter(db_id=db_id).exists() and not replace:
            report.skipped.append((db_id, "already registered (use --replace to update)"))
            continue
        try:
            database = database_register(db_id=db_id, source_path=path, replace=replace, release_entry=entry)
        except ValidationError as exc:
            report.skipped.append((db_id, " ".join(exc.messages)))
            continue
        report.registered.append(db_id)
        note = database.versions.order_by("-number").values_list("note", flat=True).first() or ""
        if "; " in note:
            report.notes.append((db_id, note.split("; ", 1)[1]))
    if wanted:
        known = {entry["db_id"] for entry in entries}
        report.skipped.extend((db_id, "not in tables.json") for db_id in sorted(wanted - known))
    return report
