"""Writes of a database's curation (docs/curation.md): readable names, foreign keys, hidden tables and columns,
checks kept as they are, and filling empty entries into a new version of the file.

Every edit is one `CurationEdit` row (who, when, which field, before, after), written with the change in one
transaction. `Database.curation` holds the decisions by original name and `Database.schema` is always the current
version's own entry with them applied (`annotation.databases.profile.curated_schema`), so everything that reads the
schema (the rooms, the goal sampler, exports) sees the curated one. A registered file is never changed: a fill
copies it into a new version. Errors a person can fix are `ValidationError`s with a message for them; nothing is
written when one is raised.
"""

import hashlib
import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from annotation.databases import profile as rules
from annotation.models import CurationEdit, Database, DatabaseVersion, User
from annotation.people.roles import can
from annotation.sql.sandbox import refuse_inside_transaction
from annotation.sql.schema import introspect_sqlite

MAX_READABLE_NAME = 100
MAX_REASON = 300


def file_sha256(path: Path) -> str:
    """The digest a registered file is known by (`Database.sha256`, `DatabaseVersion.sha256`)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _check_admin(by: User | None) -> None:
    if by is None or not can(by, "databases.manage"):
        raise ValidationError(gettext("Only an admin curates a database."))


def _source_schema(database: Database) -> dict:
    """The current file's own entry: the version's, or (a database registered before versions) the stored schema,
    which then has no curation applied yet (`_locked` records it as version 1 before the first edit)."""
    version = database.current_version
    return version.schema if version is not None else database.schema


def _save(database: Database, curation: dict, edits: list[tuple[str, str, object, object]], by: User) -> None:
    """Store `curation`, rebuild the schema people see from it, and record `edits` (field, target, before, after)."""
    database.curation = curation
    database.schema = rules.curated_schema(_source_schema(database), curation)
    database.save(update_fields=["curation", "schema"])
    CurationEdit.objects.bulk_create(
        CurationEdit(database=database, by=by, field=field, target=target, before=before, after=after)
        for field, target, before, after in edits
    )


def _locked(database: Database) -> tuple[Database, dict]:
    """The database's row, locked for the edit, with its curation. A database without a recorded version (registered
    by its schema alone, or before versions were kept) gets its file and uncurated entry recorded as version 1
    first, so that the entry every edit starts from is never one an earlier edit already changed."""
    locked = Database.objects.select_for_update().get(pk=database.pk)
    if locked.current_version is None and not locked.versions.exists():
        database_version_add(
            database=locked,
            number=1,
            file=locked.file,
            sha256=locked.sha256,
            size_bytes=locked.size_bytes,
            schema=locked.schema,
            by=None,
            note="registered",
        )
    return locked, dict(locked.curation or {})


def _table(source: dict, table: str) -> str:
    if table not in source["table_names_original"]:
        raise ValidationError(gettext("The database has no table %(table)s.") % {"table": repr(table)})
    return table


def _column(source: dict, key: str) -> tuple[str, str, str]:
    """(table, column, type) of "table.column" in the file's entry; a clear error for a column that is not there."""
    for _index, table, name, kind in rules.columns_of(source):
        if rules.column_key(table, name) == key:
            return table, name, kind
    raise ValidationError(gettext("The database has no column %(key)s.") % {"key": repr(key)})


def database_names_set(
    *, database: Database, by: User, tables: dict[str, str] | None = None, columns: dict[str, str] | None = None
) -> int:
    """Give readable names (tables.json `table_names` / `column_names`) to tables and columns, by original name
    ("table" / "table.column"); an empty name goes back to the automatic one. Returns how many names changed: one
    recorded edit each; a name given as it already is records nothing."""
    _check_admin(by)
    tables, columns = tables or {}, columns or {}
    with transaction.atomic():
        database, curation = _locked(database)
        source = _source_schema(database)
        table_names = dict(curation.get("table_names", {}))
        column_names = dict(curation.get("column_names", {}))
        edits = []
        for kind, given, names, check in (
            (CurationEdit.Field.TABLE_NAME, tables, table_names, _table),
            (CurationEdit.Field.COLUMN_NAME, columns, column_names, _column),
        ):
            for target, name in given.items():
                check(source, target)
                name = " ".join(str(name).split())
                if len(name) > MAX_READABLE_NAME:
                    raise ValidationError(
                        gettext("The readable name of %(target)s is longer than %(count)s letters.")
                        % {"target": target, "count": MAX_READABLE_NAME}
                    )
                before = names.get(target, "")
                if name == before:
                    continue
                if name:
                    names[target] = name
                else:
                    names.pop(target, None)
                edits.append((kind, target, before or None, name or None))
        if edits:
            _save(database, {**curation, "table_names": table_names, "column_names": column_names}, edits, by)
    return len(edits)


def database_hidden_set(*, database: Database, by: User, target: str, hidden: bool) -> bool:
    """Hide a table ("table") or a column ("table.column") from people and exports, or show it again. Returns
    False when it already was so (nothing recorded)."""
    _check_admin(by)
    with transaction.atomic():
        database, curation = _locked(database)
        source = _source_schema(database)
        if target in source["table_names_original"]:
            field = "hidden_tables"
        else:
            _column(source, target)
            field = "hidden_columns"
        current = list(curation.get(field, []))
        if (target in current) == hidden:
            return False
        current = [*current, target] if hidden else [item for item in current if item != target]
        if field == "hidden_tables" and len(current) == len(source["table_names_original"]):
            raise ValidationError(gettext("At least one table must stay visible."))
        _save(database, {**curation, field: current}, [(CurationEdit.Field.HIDDEN, target, not hidden, hidden)], by)
    return True


def database_foreign_key_set(*, database: Database, by: User, child: str, parent: str, confirmed: bool) -> None:
    """Confirm a foreign key from `child` to `parent` ("table.column" each: a proposal, or one an admin adds by
    hand), or dismiss a proposal (`confirmed=False`). A bad pair is refused: a column that does not exist, a column
    joined to its own table, types that cannot hold the same values, a key the schema already has."""
    _check_admin(by)
    with transaction.atomic():
        database, curation = _locked(database)
        source = _source_schema(database)
        child_table, child_column, child_type = _column(source, child)
        parent_table, parent_column, parent_type = _column(source, parent)
        if child_table == parent_table:
            raise ValidationError(
                gettext("A foreign key joins two tables: both columns are in %(table)s.") % {"table": child_table}
            )
        if not rules.types_compatible(child_type, parent_type):
            raise ValidationError(
                gettext(
                    "%(child)s holds %(child_type)s values and %(parent)s holds %(parent_type)s values: "
                    "they cannot be joined."
                )
                % {"child": child, "child_type": child_type, "parent": parent, "parent_type": parent_type}
            )
        key = [child_table, child_column, parent_table, parent_column]
        confirmed_keys = [list(item) for item in curation.get("foreign_keys", [])]
        dismissed = [list(item) for item in curation.get("dismissed", [])]
        if confirmed:
            originals = source["column_names_original"]
            declared = {
                (
                    rules.column_key(source["table_names_original"][originals[a][0]], originals[a][1]),
                    rules.column_key(source["table_names_original"][originals[b][0]], originals[b][1]),
                )
                for a, b in source.get("foreign_keys", [])
            }
            if key in confirmed_keys or (child, parent) in declared:
                raise ValidationError(
                    gettext("%(child)s → %(parent)s already is a foreign key.") % {"child": child, "parent": parent}
                )
            confirmed_keys.append(key)
            dismissed = [item for item in dismissed if item != key]
            edit = (CurationEdit.Field.FOREIGN_KEY, f"{child} → {parent}", None, "confirmed")
        else:
            if key in dismissed:
                return
            dismissed.append(key)
            before = "confirmed" if key in confirmed_keys else "proposed"
            confirmed_keys = [item for item in confirmed_keys if item != key]
            edit = (CurationEdit.Field.FOREIGN_KEY, f"{child} → {parent}", before, "dismissed")
        _save(database, {**curation, "foreign_keys": confirmed_keys, "dismissed": dismissed}, [edit], by)


def database_check_keep(*, database: Database, by: User, key: str, reason: str) -> None:
    """Mark a check of the list "kept as is", with the reason (it then leaves the list of checks to work through)."""
    _check_admin(by)
    reason = " ".join(reason.split())
    if not reason:
        raise ValidationError(gettext("Say why this is kept as it is."))
    if len(reason) > MAX_REASON:
        raise ValidationError(gettext("The reason is longer than %(count)s letters.") % {"count": MAX_REASON})
    with transaction.atomic():
        database, curation = _locked(database)
        kept = dict(curation.get("kept", {}))
        if key not in {item["key"] for item in _current_checks(database, curation)}:
            raise ValidationError(gettext("There is no such check on this database."))
        before = kept.get(key)
        kept[key] = reason
        _save(database, {**curation, "kept": kept}, [(CurationEdit.Field.KEPT, key, before, reason)], by)


def _current_checks(database: Database, curation: dict) -> list[dict]:
    version = database.current_version
    source = _source_schema(database)
    profile = version.profile if version is not None else None
    return rules.checks(source, rules.curated_schema(source, curation), profile, curation)


def _relative_path(db_id: str, number: int) -> Path:
    """Where version `number` of a database's file lives: the first where registration always put it."""
    if number == 1:
        return Path("databases") / db_id / f"{db_id}.sqlite"
    return Path("databases") / db_id / f"v{number}" / f"{db_id}.sqlite"


def database_version_add(
    *,
    database: Database,
    number: int,
    file: Path | str,
    sha256: str,
    size_bytes: int,
    schema: dict,
    by: User | None,
    note: str = "",
) -> DatabaseVersion:
    """Record a file of the database as its version `number` (registration, a fill); its profile is read after
    commit, in the background."""
    version = DatabaseVersion.objects.create(
        database=database,
        number=number,
        file=Path(file).as_posix() if str(file) else "",  # "": a schema-only registration
        sha256=sha256,
        size_bytes=size_bytes,
        schema=schema,
        note=note,
        created_by=by,
    )
    if version.file:  # a schema-only registration has no file to read
        transaction.on_commit(lambda: _profile_later(version.pk))
    return version


def _profile_later(version_id: int) -> None:
    from annotation.tasks import database_version_profile

    database_version_profile.delay(version_id)


def database_version_profile(*, version: DatabaseVersion) -> DatabaseVersion:
    """Read what the version's file holds (annotation.databases.profile.profile_database) and store it on the version.
    Reading the same file again gives the same figures, so a repeated run is harmless."""
    version.profile = rules.profile_database(version.path, version.schema)
    version.save(update_fields=["profile"])
    return version


def next_version_file(database: Database) -> tuple[int, Path]:
    """The number and relative path of the database's next version."""
    last = database.versions.order_by("-number").values_list("number", flat=True).first() or 0
    if last == 0 and database.has_file:
        last = 1  # a database registered before versions: its file is version 1 in all but the row
    return last + 1, _relative_path(database.db_id, last + 1)


# A fill may take this long on the platform's copy of a file; past it the fill is refused and the copy thrown away.
FILL_SECONDS = 60


def _update_without_triggers(path: str, statement: str, parameters: list, *, table: str) -> int:
    """Run one UPDATE of `table` on `path`, the platform's own copy of an uploaded file, and return the rows changed.

    The file is hostile (docs/curation.md): its triggers are taken out before the update and put back as they were
    after it, so none of them runs (one emptied an unrelated table); nothing but reading and updating `table` (and
    SQLite's own schema table, for the triggers) is authorised; foreign-key actions are off, untrusted schema
    functions too; and the work stops after FILL_SECONDS. Like the sandbox, it refuses to run inside a transaction
    (seconds of work on a hostile file may not hold the platform's write lock)."""
    refuse_inside_transaction("work on an uploaded file")
    deadline = time.monotonic() + FILL_SECONDS
    allowed = {
        sqlite3.SQLITE_READ, sqlite3.SQLITE_SELECT, sqlite3.SQLITE_TRANSACTION, sqlite3.SQLITE_DROP_TRIGGER,
        sqlite3.SQLITE_CREATE_TRIGGER, sqlite3.SQLITE_FUNCTION,
    }  # fmt: skip
    schema_tables = {"sqlite_master", "sqlite_schema", "sqlite_temp_master"}

    def authorize(action, first, second, database, source):
        if action in allowed:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_UPDATE and first == table:
            return sqlite3.SQLITE_OK
        if action in (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_DELETE, sqlite3.SQLITE_UPDATE) and first in schema_tables:
            return sqlite3.SQLITE_OK  # what DROP TRIGGER and CREATE TRIGGER write
        return sqlite3.SQLITE_DENY

    connection = sqlite3.connect(path, isolation_level=None)
    try:
        if hasattr(connection, "enable_load_extension"):
            connection.enable_load_extension(False)
        connection.execute("PRAGMA trusted_schema = OFF")
        connection.execute("PRAGMA foreign_keys = OFF")
        connection.execute("PRAGMA recursive_triggers = OFF")
        connection.set_progress_handler(lambda: time.monotonic() > deadline, 1000)
        connection.set_authorizer(authorize)
        connection.execute("BEGIN IMMEDIATE")
        triggers = connection.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL"
        ).fetchall()
        for name, text in triggers:
            if not text.lstrip().upper().startswith("CREATE"):
                raise ValidationError(
                    gettext("The file's trigger %(name)s is not a CREATE TRIGGER statement: not filled.")
                    % {"name": repr(name)}
                )
            connection.execute(f"DROP TRIGGER {rules._quote(name)}")
        changed = connection.execute(statement, parameters).rowcount
        for _, text in triggers:
            connection.execute(text)
        connection.execute("COMMIT")
        return changed
    except sqlite3.Error as exc:
        if str(exc) == "interrupted":
            raise ValidationError(
                gettext("Filling the entries took longer than %(seconds)s s: nothing was changed.")
                % {"seconds": FILL_SECONDS}
            ) from exc
        raise ValidationError(gettext("The entries could not be filled: %(exc)s.") % {"exc": exc}) from exc
    finally:
        connection.close()


def _typed(value: str, kind: str):
    if kind != "number":
        return value
    for convert in (int, float):
        try:
            return convert(value)
        except ValueError:
            continue
    raise ValidationError(gettext("This column holds numbers: %(value)s is not a number.") % {"value": repr(value)})


def database_fill_empty(
    *, database: Database, by: User, column: str, value: str, row_id: int | None = None
) -> DatabaseVersion:
    """Fill the empty cells (NULL or '') of `column` ("table.column") with `value`, or only the one in row `row_id`
    (SQLite's rowid), in a new version of the file: the current file is copied, the copy changed, and the database
    moves on to it. Dialogues already created keep their version. Returns the new version."""
    _check_admin(by)
    if not database.has_file:
        raise ValidationError(gettext("This database is registered by its schema only: there is no file to fill."))
    value = str(value).strip()
    if not value:
        raise ValidationError(gettext("Give the value to fill the empty entries with."))
    source = _source_schema(database)
    table, name, kind = _column(source, column)
    typed = _typed(value, kind)
    quoted_table, quoted_column = rules._quote(table), rules._quote(name)
    where = f"({quoted_column} IS NULL OR {quoted_column} = '')"
    parameters: list = []
    if row_id is not None:
        where += " AND rowid = ?"
        parameters.append(int(row_id))

    # The file work comes first, outside any transaction: the copy, the fill and reading the copy back may take
    # seconds on a big file, and an uploaded file is hostile (_update_without_triggers). Only the move to the new
    # version is done under the database's row lock, after checking nobody moved it on meanwhile.
    copied_from = database.file
    folder = (Path(settings.DATA_DIR) / _relative_path(database.db_id, 1)).parent
    made_folder = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(dir=folder, suffix=".part")
    os.close(handle)
    try:
        shutil.copyfile(database.path, temp_name)
        changed = _update_without_triggers(
            temp_name,
            f"UPDATE {quoted_table} SET {quoted_column} = ? WHERE {where}",  # noqa: S608 - quoted names
            [typed, *parameters],
            table=table,
        )
        if not changed:
            where_said = (
                gettext("row %(row)s of %(column)s") % {"row": row_id, "column": column}
                if row_id is not None
                else column
            )
            raise ValidationError(gettext("There is no empty entry in %(where)s to fill.") % {"where": where_said})
        schema = introspect_sqlite(temp_name, database.db_id)
        sha = file_sha256(temp_name)
        with transaction.atomic():
            database = Database.objects.select_for_update().get(pk=database.pk)
            if database.file != copied_from:
                raise ValidationError(
                    gettext("The database moved on to another version meanwhile: fill the entries again.")
                )
            previous = database.current_version
            number, relative = next_version_file(database)
            target = Path(settings.DATA_DIR) / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(temp_name, target)  # a rename in one folder: instant
            version = _fill_recorded(
                database=database, by=by, previous=previous, number=number, relative=relative, sha=sha,
                size=target.stat().st_size, schema=schema, source=source, changed=changed, column=column,
                value=value, typed=typed, row_id=row_id,
            )  # fmt: skip
    finally:
        if os.path.exists(temp_name):
            os.unlink(temp_name)
            if made_folder and not any(folder.iterdir()):
                folder.rmdir()  # a refused fill leaves no trace on disk
    return version


def _fill_recorded(
    *, database, by, previous, number, relative, sha, size, schema, source, changed, column, value, typed, row_id
) -> DatabaseVersion:
    """The rows of a fill whose file is in place (in the caller's transaction): the new version, the database moved
    on to it, the curation edit."""
    if previous is None:
        # A database registered before versions were kept: its own file becomes version 1 first.
        previous = database_version_add(
            database=database,
            number=1,
            file=Path(database.file),
            sha256=database.sha256,
            size_bytes=database.size_bytes,
            schema=source,
            by=None,
            note="registered",
        )
    version = database_version_add(
        database=database,
        number=number,
        file=relative,
        sha256=sha,
        size_bytes=size,
        schema=schema,
        by=by,
        note=f"{changed} empty entr{'y' if changed == 1 else 'ies'} of {column} filled with {value}",
    )
    database.file, database.sha256, database.size_bytes = relative.as_posix(), sha, version.size_bytes
    database.schema = rules.curated_schema(schema, database.curation or {})
    database.save(update_fields=["file", "sha256", "size_bytes", "schema"])
    CurationEdit.objects.create(
        database=database,
        by=by,
        field=CurationEdit.Field.FILL,
        target=column if row_id is None else f"{column} row {row_id}",
        before={"version": previous.number, "empty": changed},
        after={"version": version.number, "value": typed, "filled": changed},
    )
    return version
