"""A translated SQLite file, built from the original (docs/translation.md): the original is copied, its text values
replaced through the value map (one UPDATE per text column, through a temporary map table), then its columns and
tables renamed with ALTER TABLE (SQLite rewrites the foreign keys, views and triggers that name them). The original
file is never opened for writing.

File work only: call it outside any transaction. `stop()` is asked between steps; it raises to stop the build (a
cancel, a time bound), and the half-built copy is removed.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from django.utils.translation import gettext

from annotation.sql.schema import introspect_sqlite
from annotation.sql.translate import NameMap, ValueMap, translated_schema

# The prefix of the names each renamed column and table takes between its two renames (a translated name with it
# would have to be typed on purpose).
TEMPORARY = "wozsql_renaming_8f3a_"


class CopyError(Exception):
    """The translated file could not be built; the message says which step failed."""


def internal(table: str) -> bool:
    """SQLite's own tables (sqlite_sequence) are never renamed nor rewritten: SQLite keeps them itself."""
    return table.lower().startswith("sqlite_")


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def build_translated_copy(
    original: Path, target: Path, *, schema: dict, names: NameMap, values: ValueMap, stop: Callable[[], None]
) -> dict:
    """Write the translated copy of `original` (whose tables.json entry is `schema`) at `target`; return what it
    changed: {"values_changed": cells rewritten, "columns_renamed", "tables_renamed"}. CopyError when a step fails."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(original, target)
    try:
        with closing(sqlite3.connect(target, isolation_level=None)) as connection:
            connection.execute("PRAGMA foreign_keys = OFF")
            # A scratch copy until it is whole (a failed build deletes it): no journal on disk, no fsync per step. With
            # them, each ALTER TABLE was a transaction of its own waiting on the disk (2 minutes for Spider's 163 files
            # on a busy machine).
            connection.execute("PRAGMA journal_mode = MEMORY")
            connection.execute("PRAGMA synchronous = OFF")
            connection.execute("PRAGMA legacy_alter_table = OFF")
            # A CHECK constraint that lists allowed values (college_2's semester IN ('Fall', ...)) would refuse their
            # translations; its text is not rewritten, and the report names the tables that have one.
            connection.execute("PRAGMA ignore_check_constraints = ON")
            checked = [
                name
                for name, sql in connection.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
                if sql and "check" in sql.lower()
            ]
            changed = _values(connection, schema, values, stop)
            columns, tables = _names(connection, schema, names, stop)
        keys = _check_names(target, schema, names)
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    return {
        "values_changed": changed,
        "columns_renamed": columns,
        "tables_renamed": tables,
        "check_constraints_kept": checked,
        "foreign_keys_read_back": keys,
    }


def _rollback(connection: sqlite3.Connection) -> None:
    """Roll back what is open (an error may have ended the transaction already)."""
    if connection.in_transaction:
        connection.execute("ROLLBACK")


def _values(connection: sqlite3.Connection, schema: dict, values: ValueMap, stop) -> int:
    if not values.exact:
        return 0
    connection.execute("CREATE TEMP TABLE translation_map (source TEXT PRIMARY KEY, target TEXT NOT NULL)")
    connection.executemany("INSERT INTO temp.translation_map VALUES (?, ?)", list(values.exact.items()))
    tables = schema["table_names_original"]
    changed = 0
    connection.execute("BEGIN")
    try:
        for index, column in schema["column_names_original"][1:]:
            stop()
            if internal(tables[index]):
                continue
            table, name = _quoted(tables[index]), _quoted(column)
            cursor = connection.execute(
                # Names quoted by _quoted; the values go through the map table, never into the text.
                f"UPDATE {table} SET {name} = (SELECT target FROM temp.translation_map WHERE source = {name}) "  # noqa: S608
                f"WHERE typeof({name}) = 'text' AND {name} IN (SELECT source FROM temp.translation_map)"
            )
            changed += max(cursor.rowcount, 0)
        connection.execute("COMMIT")
    except sqlite3.Error as error:
        _rollback(connection)
        raise CopyError(gettext("rewriting the text values failed: %(error)s") % {"error": error}) from error
    except BaseException:
        _rollback(connection)
        raise
    connection.execute("DROP TABLE temp.translation_map")
    return changed


def _names(connection: sqlite3.Connection, schema: dict, names: NameMap, stop) -> tuple[int, int]:
    """Rename columns, then tables; each through a temporary name first, so that two names swapped never meet."""
    tables = schema["table_names_original"]
    renames: list[tuple[str, str, str]] = []  # (table, column or "", new name)
    for index, column in schema["column_names_original"][1:]:
        new = names.column(tables[index], column)
        if new != column:
            renames.append((tables[index], column, new))
    table_renames = [(table, "", names.table(table)) for table in tables if names.table(table) != table]
    connection.execute("BEGIN")
    try:
        for step, (table, column, _new) in enumerate(renames):
            stop()
            connection.execute(
                f"ALTER TABLE {_quoted(table)} RENAME COLUMN {_quoted(column)} TO {_quoted(f'{TEMPORARY}{step}')}"
            )
        for step, (table, _column, new) in enumerate(renames):
            connection.execute(
                f"ALTER TABLE {_quoted(table)} RENAME COLUMN {_quoted(f'{TEMPORARY}{step}')} TO {_quoted(new)}"
            )
        for step, (table, _column, _new) in enumerate(table_renames):
            stop()
            connection.execute(f"ALTER TABLE {_quoted(table)} RENAME TO {_quoted(f'{TEMPORARY}t{step}')}")
        for step, (_table, _column, new) in enumerate(table_renames):
            connection.execute(f"ALTER TABLE {_quoted(f'{TEMPORARY}t{step}')} RENAME TO {_quoted(new)}")
        connection.execute("COMMIT")
    except sqlite3.Error as error:
        _rollback(connection)
        raise CopyError(gettext("renaming tables and columns failed: %(error)s") % {"error": error}) from error
    except BaseException:
        _rollback(connection)
        raise
    return len(renames), len(table_renames)


def _check_names(target: Path, schema: dict, names: NameMap) -> str:
    """The copy's own schema names what the translated tables.json entry names (CopyError otherwise); returns whether
    its foreign keys, read back as the original's were, are the original's ("same") or not ("differ": a reference
    the original's reading dropped, such as one spelt in another case, reads as a key once SQLite rewrote it)."""
    got = introspect_sqlite(target, schema["db_id"])
    want = translated_schema(schema, names)
    for key in ("table_names_original", "column_names_original"):
        if [list(item) if isinstance(item, list) else item for item in got[key]] != want[key]:
            raise CopyError(gettext("the translated file's %(key)s is not the translated schema's") % {"key": key})
    same = [list(pair) for pair in got["foreign_keys"]] == [list(pair) for pair in schema["foreign_keys"]]
    return "same" if same else "differ"
