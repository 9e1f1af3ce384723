"""Build a translated copy of every Spider database and time it (docs/translation.md, "The translated SQLite file").

Usage: .venv/bin/python bench/translation_copies.py [--shared PATH] [--values-per-column 200]

Every table and column name of each file gets a suffix (`_中`, `_列`), and up to --values-per-column distinct text
values with a letter in each column get one too (`译`); the copy is built with review.translation.sqlite_copy, as the
export builds it, and its schema is checked against the translated tables.json entry. Prints how many built, the
ones that did not with the reason, and the seconds in all (reading values and building).
"""

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--values-per-column", type=int, default=200)
    args = parser.parse_args()
    sys.path.insert(0, str(PROJECT_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    import django

    django.setup()
    from annotation.sql.schema import introspect_sqlite
    from annotation.sql.translate import NameMap, ValueMap
    from review.translation.sqlite_copy import build_translated_copy, internal

    built, failed, keys_differ, started = 0, [], [], time.perf_counter()
    building = 0.0
    for folder in sorted((args.shared / "spider" / "database").iterdir()):
        path = folder / f"{folder.name}.sqlite"
        if not path.exists():
            continue
        schema = introspect_sqlite(path, folder.name)
        tables = schema["table_names_original"]
        columns = [(tables[i], c) for i, c in schema["column_names_original"][1:] if not internal(tables[i])]
        names = NameMap.of(
            schema, {t: f"{t}_中" for t in tables if not internal(t)}, {(t, c): f"{c}_列" for t, c in columns}
        )
        values = {}
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
            connection.text_factory = lambda raw: raw.decode("utf-8", "replace")
            for table, column in columns:
                query = f'SELECT DISTINCT "{column}" FROM "{table}" WHERE typeof("{column}") = \'text\' LIMIT ?'  # noqa: S608
                for (text,) in connection.execute(query, (args.values_per_column,)):
                    if any(character.isalpha() for character in text):
                        values[text] = f"{text}译"
        with tempfile.TemporaryDirectory() as work:
            try:
                began = time.perf_counter()
                result = build_translated_copy(
                    path,
                    Path(work) / "copy.sqlite",
                    schema=schema,
                    names=names,
                    values=ValueMap.of(values),
                    stop=lambda: None,
                )
                building += time.perf_counter() - began
                built += 1
                if result["foreign_keys_read_back"] != "same":
                    keys_differ.append(folder.name)
            except Exception as error:  # noqa: BLE001 -- every failure is listed, none stops the run
                failed.append((folder.name, str(error)[:200]))
    print(
        f"{built} built, {len(failed)} failed, {time.perf_counter() - started:.1f} s in all, {building:.1f} s building"
    )
    print(f"foreign keys read back otherwise than the original's: {len(keys_differ)} {keys_differ}")
    for name, reason in failed:
        print(f"  {name}: {reason}")


if __name__ == "__main__":
    main()
