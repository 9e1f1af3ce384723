"""A translation export read by a public evaluator from PyPI (docs/translation.md, "A public evaluator").

Usage, with a Python that has the evaluator installed apart from the platform (its requirements are not the
platform's):
    python3 -m venv /tmp/evalenv && /tmp/evalenv/bin/pip install nl2sql360==1.1.0 nltk sqlparse
    /tmp/evalenv/bin/python bench/translation_public_evaluator.py EXPORT.zip

nl2sql360 ships the test-suite evaluator of Spider, SParC and CoSQL as a module. It is run here on the export's CHASE
files, each gold query as its own prediction (`chase/chase_<split>_gold.txt` twice), in three checks:
- **parse**: the evaluator's own SQL parser (`process_sql.get_sql`) reads every gold query against the translated
  SQLite file's schema. The evaluator itself swallows a gold query it cannot parse (it scores it as an empty query,
  which then "matches" the prediction's equally empty parse), so this is checked apart and one unread query fails.
- **exec**: every gold query runs on the translated file and returns what it returns (`exec` 1).
- **exact**: the exact-set-match half (the tables file's foreign keys as its key map), `exact` 1 for every turn.

The parser tokenizes with NLTK's `word_tokenize`, which first splits sentences with NLTK's punkt parameters; NLTK
fetches those from its own server, and they are on no package index this machine reaches. Where they are missing, an
empty parameter set is written to a temporary folder (no abbreviations, collocations or sentence starters learnt):
punkt then splits only at a full stop followed by a space, which a SQL query has nowhere outside its quoted values
(the parser takes those out before tokenizing), so each query is tokenized as one sentence either way.

The package's command line passes file paths where its `evaluate` reads lines, so it is called from here. Prints each
check's count; exits 1 unless every turn passes all three (the evaluator itself stops at the first gold query
that does not run).
"""

import sys
import tempfile
import zipfile
from pathlib import Path

PUNKT_FILES = ("collocations.tab", "sent_starters.txt", "abbrev_types.txt", "ortho_context.tab")


def _punkt_available(folder: Path) -> str:
    """Where NLTK finds punkt's English parameters: its own data if installed, else an empty set written under
    `folder` (see the module's docstring). Returns which one."""
    import nltk

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
        return "NLTK's punkt parameters"
    except LookupError:
        english = folder / "tokenizers" / "punkt_tab" / "english"
        english.mkdir(parents=True)
        for name in PUNKT_FILES:
            (english / name).write_text("", encoding="utf-8")
        nltk.data.path.insert(0, str(folder))
        return "an empty punkt parameter set (none installed)"


def _unparsed(lines: list[str], databases: Path) -> list[str]:
    """The gold queries the evaluator's parser cannot read, each with why."""
    from nl2sql360.evaluator.test_suite_sql_eval.process_sql import Schema, get_schema, get_sql

    schemas, failed = {}, []
    for line in lines:
        if not line.strip():
            continue
        sql, db_id = line.rstrip("\n").split("\t")
        if db_id not in schemas:
            schemas[db_id] = Schema(get_schema(str(databases / db_id / f"{db_id}.sqlite")))
        try:
            get_sql(schemas[db_id], sql)
        except Exception as exc:  # the parser raises whatever it meets first
            failed.append(f"{db_id}: {sql}  ({type(exc).__name__}: {exc})")
    return failed


def main(export: str) -> int:
    from nl2sql360.evaluator.test_suite_sql_eval.evaluation import build_foreign_key_map_from_json, evaluate

    with tempfile.TemporaryDirectory() as folder:
        with zipfile.ZipFile(export) as archive:
            archive.extractall(Path(folder) / "export")
        punkt = _punkt_available(Path(folder) / "nltk")
        chase = Path(folder) / "export" / "chase"
        (gold,) = sorted(chase.glob("chase_*_gold.txt"))
        lines = gold.read_text(encoding="utf-8").splitlines(keepends=True)
        turns = sum(1 for line in lines if line.strip())
        unparsed = _unparsed(lines, chase / "database")
        print(f"tokenized with {punkt}")
        print(f"parse: {turns - len(unparsed)} of {turns} gold queries read by the evaluator's SQL parser")
        for failure in unparsed:
            print(f"  not read: {failure}", flush=True)
        key_maps = build_foreign_key_map_from_json(str(chase / "chase_tables.json"))
        rows = evaluate(lines, list(lines), str(chase / "database"), "all", key_maps, False, False, False)
    executed = sum(1 for row in rows if row.get("exec") == 1)
    matched = sum(1 for row in rows if row.get("exact") == 1)
    print(f"exec:  {executed} of {turns} gold queries pass its execution check on the translated files")
    print(f"exact: {matched} of {turns} gold queries pass its exact-set-match check")
    return 0 if rows and not unparsed and executed == matched == len(rows) == turns else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
