"""A translation export read by a public evaluator from PyPI (docs/translation.md, "A public evaluator").

Usage, with a Python that has the evaluator installed apart from the platform (its requirements are not the
platform's):
    python3 -m venv /tmp/evalenv && /tmp/evalenv/bin/pip install nl2sql360==1.1.0 nltk sqlparse
    /tmp/evalenv/bin/python bench/translation_public_evaluator.py EXPORT.zip

nl2sql360 ships the test-suite evaluator of Spider, SParC and CoSQL as a module. Its execution check is run here on
the export's CHASE files, each gold query as its own prediction (`chase/chase_<split>_gold.txt` twice): it reads the
translated SQLite files and the tables file, runs every gold query on the translated file and compares; every turn
must come out `exec` 1. The exact-set-match half is not run: its parser tokenizes with NLTK's punkt data, which is not
on PyPI. The package's command line passes file paths where its `evaluate` reads lines, so it is called from here.
Prints how many turns pass of how many; exits 1 unless all do.
"""

import sys
import tempfile
import zipfile
from pathlib import Path


def main(export: str) -> int:
    from nl2sql360.evaluator.test_suite_sql_eval.evaluation import evaluate

    with tempfile.TemporaryDirectory() as folder:
        with zipfile.ZipFile(export) as archive:
            archive.extractall(folder)
        chase = Path(folder) / "chase"
        (gold,) = sorted(chase.glob("chase_*_gold.txt"))
        lines = gold.read_text(encoding="utf-8").splitlines(keepends=True)
        rows = evaluate(lines, list(lines), str(chase / "database"), "exec", None, False, False, False)
    passed = sum(1 for row in rows if row.get("exec") == 1)
    print(f"{passed} of {len(rows)} gold queries pass the public evaluator's execution check on the translated files")
    return 0 if rows and passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
