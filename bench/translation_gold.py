"""The gold check of a translation export, measured on the SParC dev sample (docs/translation.md, "The gold check").

Usage: .venv/bin/python bench/translation_gold.py [--shared PATH] [--scheme prefix|opaque] [--list N]

For every database the sample uses, every table and column name is translated (a Chinese name of its own) and every
distinct text value with a letter: `prefix` writes 译 before it (the values keep their order and what a LIKE pattern
inside them finds: what a careful translation of a pattern's word would keep), `opaque` gives each value a number in
a shuffled order (seed 0; nothing of the original's order or spelling survives, the worst case for ORDER BY, MIN/MAX
and LIKE over text). The translated copy is built as the export builds it (review.translation.sqlite_copy), each gold
query rewritten (annotation.sql.translate) and run on both files in the sandbox, and compared as the export compares
them. Prints the outcomes, per scheme, and the first --list queries that do not pass.

The platform's models are not used: the maps are made here from the files, as a project would hold them once every
unit is translated.
"""

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))


def _maps(path: Path, db_id: str, scheme: str, rng: random.Random):
    from annotation.sql.schema import introspect_sqlite
    from annotation.sql.translate import NameMap, ValueMap
    from review.translation.sqlite_copy import internal

    schema = introspect_sqlite(path, db_id)
    tables = schema["table_names_original"]
    columns = [(tables[i], c) for i, c in schema["column_names_original"][1:] if not internal(tables[i])]
    names = NameMap.of(
        schema,
        {table: f"表{index}" for index, table in enumerate(tables) if not internal(table)},
        {(table, column): f"列{index}" for index, (table, column) in enumerate(columns)},
    )
    texts = set()
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
        connection.text_factory = lambda raw: raw.decode("utf-8", "replace")
        for table, column in columns:
            query = f'SELECT DISTINCT "{column}" FROM "{table}" WHERE typeof("{column}") = \'text\''  # noqa: S608
            texts |= {text for (text,) in connection.execute(query) if any(ch.isalpha() for ch in text)}
    ordered = sorted(texts)
    if scheme == "prefix":
        values = {text: f"译{text}" for text in ordered}
    else:
        numbers = list(range(len(ordered)))
        rng.shuffle(numbers)
        values = {text: f"值{number}" for text, number in zip(ordered, numbers, strict=True)}
    return schema, names, ValueMap.of(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--scheme", choices=["prefix", "opaque"], default="prefix")
    parser.add_argument("--list", type=int, default=15)
    args = parser.parse_args()
    sys.path.insert(0, str(PROJECT_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    import django

    django.setup()
    from annotation.sql.results import order_matters, results_equal
    from annotation.sql.sandbox import execute_many
    from annotation.sql.translate import rewrite_sql
    from annotation.suites.compare import compare_limits
    from review.translation.sqlite_copy import build_translated_copy

    sample = json.loads((args.shared / "samples" / "sparc_dev_sample.json").read_text(encoding="utf-8"))
    by_db: dict[str, list[str]] = {}
    for item in sample:
        by_db.setdefault(item["database_id"], []).extend(turn["query"] for turn in item["interaction"])
    rng, outcomes, failing, started = random.Random(0), Counter(), [], time.perf_counter()
    limits = compare_limits()
    with tempfile.TemporaryDirectory() as work:
        for db_id in sorted(by_db):
            original = args.shared / "spider" / "database" / db_id / f"{db_id}.sqlite"
            schema, names, values = _maps(original, db_id, args.scheme, rng)
            copy = Path(work) / db_id / f"{db_id}.sqlite"
            build_translated_copy(original, copy, schema=schema, names=names, values=values, stop=lambda: None)
            queries = by_db[db_id]
            rewrites = [rewrite_sql(sql, names, values) for sql in queries]
            before = execute_many(original, queries, limits=limits)
            after = execute_many(copy, [rewrite.sql for rewrite in rewrites], limits=limits)
            for sql, rewrite, old, new in zip(queries, rewrites, before, after, strict=True):
                if not old.ok:
                    outcome = "does not run on the original file"
                elif not new.ok:
                    outcome = "does not run on the translated file"
                else:
                    expected = [[values.exact.get(c, c) if isinstance(c, str) else c for c in row] for row in old.rows]
                    ordered = order_matters(sql)
                    if results_equal(expected, new.rows, ordered=ordered):
                        outcome = "same"
                    elif ordered and results_equal(expected, new.rows, ordered=False):
                        outcome = "same rows, another order"
                    else:
                        outcome = "different rows"
                outcomes[outcome] += 1
                if outcome != "same":
                    failing.append((db_id, outcome, sql, rewrite.sql, rewrite.problems + rewrite.notes))
    total = sum(outcomes.values())
    print(f"scheme {args.scheme}: {len(by_db)} databases, {total} gold queries, {time.perf_counter() - started:.1f} s")
    for outcome, count in outcomes.most_common():
        print(f"  {outcome}: {count} ({100 * count / total:.1f}%)")
    for db_id, outcome, sql, rewritten, said in failing[: args.list]:
        print(f"- {db_id}: {outcome}\n    {sql}\n    {rewritten}" + (f"\n    {'; '.join(said)}" if said else ""))


if __name__ == "__main__":
    main()
