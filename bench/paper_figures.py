"""The public samples' statistics beside the figures the papers publish (issue 39, section 4; docs/statistics.md).

Usage: .venv/bin/python bench/paper_figures.py [--shared PATH] [--format cosql|sparc|chase ...] [--json OUT]

Builds a throwaway platform (its own data folder and SQLite database, as bench/export.py does), imports each public
dev sample with the platform's own command (`manage.py import_dataset`, the Spider databases for CoSQL and SParC,
CHASE's sample tables for CHASE), computes the statistics page's figures for the imported dialogues (the page's own
function, `statistics_for`, origin "imported"), and prints each figure the papers give beside ours, with the
difference and what the paper's figure is computed on. One format at a time: the dialogues of one sample are deleted
before the next is imported (CoSQL and SParC share databases).

`PAPER` holds the papers' figures (from the papers' tables, cited by table); `comparisons` turns a statistics dict
into rows. Nothing here is tuned: the figures are whatever the platform computes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))

# What each sample is and what it is imported with: (data, tables, databases folder or None).
SAMPLES = {
    "cosql": ("samples/cosql_dev_sample.json", "spider/tables.json", "spider/database"),
    "sparc": ("samples/sparc_dev_sample.json", "spider/tables.json", "spider/database"),
    "chase": ("samples/chase_dev_sample.json", "samples/chase_tables_sample.json", None),
}

# Where a paper's figure is computed: the samples are parts of the dev sets, so only a "dev" figure is about the same
# data (and still over the whole dev set, of which the sample is a part); "all" is the whole dataset (train, dev,
# test), "train" its training part.
DEV, ALL, TRAIN = "dev set", "whole dataset", "training set"

# (figure, where it is in the papers, on what, the paper's value, the key path of ours or a function of the stats)
PAPER: dict[str, list[tuple[str, str, str, float, object]]] = {
    "sparc": [
        ("sequences", "SParC Table 5", DEV, 422, ("overview", "dialogues")),
        ("question-SQL pairs", "SParC Table 5", DEV, 1203, ("overview", "sql_turns")),
        ("databases", "SParC Table 5", DEV, 20, ("overview", "databases")),
        ("pairs per sequence", "SParC Table 5", DEV, round(1203 / 422, 2), ("overview", "avg_sql_turns_per_dialogue")),
        ("avg. question length (words)", "SParC Table 3", ALL, 8.1, ("overview", "avg_question_words")),
        ("avg. turns per sequence", "SParC Table 3", ALL, 3.0, ("overview", "avg_questions_per_dialogue")),
        ("question vocabulary", "SParC Table 3", ALL, 3794, ("overview", "question_vocabulary")),
        *(
            (f"% SQL with {name}", "SParC Table 4", ALL, value, ("sql_component_shares", "percent", keyword))
            for name, keyword, value in (
                ("WHERE", "WHERE", 42.8),
                ("AGG", "AGG", 39.8),
                ("GROUP", "GROUP BY", 20.1),
                ("ORDER", "ORDER BY", 17.0),
                ("HAVING", "HAVING", 4.7),
                ("SET", "SET OP", 3.5),
                ("JOIN", "JOIN", 35.5),
                ("Nested", "NESTED", 5.7),
            )
        ),
        *(
            (f"% hardness {level}", "CHASE Table 3 (SParC row)", ALL, value, ("hardness", level))
            for level, value in (("easy", 40.1), ("medium", 36.7), ("hard", 12.1), ("extra", 11.1))
        ),
    ],
    "cosql": [
        ("dialogues", "CoSQL Table 3", DEV, 292, ("overview", "dialogues")),
        ("databases", "CoSQL Table 3", DEV, 20, ("overview", "databases")),
        ("SQL turns (state tracking questions)", "CHASE Table 15", DEV, 1007, ("overview", "sql_turns")),
        (
            "% SQL turns folded with a clarification",
            "CHASE Table 15",
            DEV,
            round(100 * 95 / 1007, 1),
            lambda stats: _share(stats["overview"]["folded_clarifications"], stats["overview"]["sql_turns"]),
        ),
        ("avg. question length (words)", "CoSQL Table 2", ALL, 11.2, ("overview", "avg_question_words")),
        ("avg. questions per dialogue", "CoSQL Table 2", ALL, 5.2, ("overview", "avg_questions_per_dialogue")),
        *(
            (f"% hardness {level}", "CHASE Table 3 (CoSQL row)", ALL, value, ("hardness", level))
            for level, value in (("easy", 41.4), ("medium", 31.8), ("hard", 16.2), ("extra", 10.5))
        ),
    ],
    "chase": [
        ("sequences", "CHASE Table 6", DEV, 755, ("overview", "dialogues")),
        ("question-SQL pairs", "CHASE Table 6", DEV, 2494, ("overview", "sql_turns")),
        ("databases", "CHASE Table 6", DEV, 40, ("overview", "databases")),
        ("pairs per sequence", "CHASE Table 6", DEV, round(2494 / 755, 2), ("overview", "avg_sql_turns_per_dialogue")),
        ("% context independent", "CHASE Table 1", DEV, 35.3, lambda s: _phenomenon(s, "Context Independent")),
        ("% context dependent", "CHASE Table 1", DEV, 64.7, lambda s: 100 - _phenomenon(s, "Context Independent")),
        ("% coreference", "CHASE Table 1", DEV, 36.2, lambda s: _phenomenon(s, "Coreference")),
        (
            "% ellipsis",
            "CHASE Table 1",
            DEV,
            29.0,
            lambda s: _phenomenon(s, "Ellipsis Continuation") + _phenomenon(s, "Ellipsis Substitution"),
        ),
        ("avg. turns per sequence", "CHASE Table 5", ALL, 3.3, ("overview", "avg_questions_per_dialogue")),
        # CHASE does not say whether punctuation counts: both are shown.
        ("avg. question length (characters)", "CHASE Table 5", ALL, 13.0, ("overview", "avg_question_length")),
        ("avg. question length (no punctuation)", "CHASE Table 5", ALL, 13.0, ("overview", "avg_question_words")),
        *(
            (f"% hardness {level}", "CHASE Table 3", ALL, value, ("hardness", level))
            for level, value in (("easy", 27.7), ("medium", 37.5), ("hard", 18.8), ("extra", 16.0))
        ),
        ("% links exact string match", "CHASE Table 7", ALL, 48.2, ("link_matches", "percent", "exact")),
        ("% links fuzzy string match", "CHASE Table 7", ALL, 40.2, ("link_matches", "percent", "partial")),
        ("% links semantic match", "CHASE Table 7", ALL, 11.6, ("link_matches", "percent", "none")),
    ],
}


def _share(part, whole) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def _phenomenon(stats: dict, name: str) -> float:
    """The share of SQL turns labelled `name` (a turn with both ellipsis labels counts in each)."""
    return _share(stats["contextual_phenomena"].get(name, 0), stats["overview"]["sql_turns"]) or 0.0


def _hardness_share(stats: dict, level: str) -> float | None:
    """A hardness level's share of the SQL turns that have one (an SQL the Spider encoding refuses has none)."""
    levels = stats["hardness"]
    return _share(levels.get(level, 0), sum(count for name, count in levels.items() if name != "not encodable"))


def ours(stats: dict, where) -> float | None:
    """Our value of one figure: a function of the stats, or a key path into them (a hardness level as a share)."""
    if callable(where):
        value = where(stats)
    elif where[0] == "hardness":
        value = _hardness_share(stats, where[1])
    else:
        value = stats
        for key in where:
            value = value[key]
    return round(value, 2) if isinstance(value, float) else value


def comparisons(fmt: str, stats: dict) -> list[dict]:
    """Each figure of PAPER[fmt] with ours and the difference (ours − paper; relative for counts)."""
    rows = []
    for figure, source, scope, paper, where in PAPER[fmt]:
        value = ours(stats, where)
        difference = round(value - paper, 2) if value is not None else None
        rows.append(
            {
                "figure": figure,
                "source": source,
                "scope": scope,
                "paper": paper,
                "ours": value,
                "difference": difference,
            }
        )
    return rows


def print_table(fmt: str, rows: list[dict], stats: dict) -> None:
    overview = stats["overview"]
    print(f"\n{fmt}: {overview['dialogues']} interactions, {overview['sql_turns']} SQL turns, "
          f"{overview['databases']} databases imported, {stats['hardness'].get('not encodable', 0)} SQL turns "
          "without a Spider encoding (left out of the hardness shares)")  # fmt: skip
    print(f"{'figure':42} {'paper':>9} {'ours':>9} {'ours-paper':>10}  paper's figure is over")
    for row in rows:
        ours_text = "—" if row["ours"] is None else f"{row['ours']:g}"
        difference = "—" if row["difference"] is None else f"{row['difference']:+g}"
        where = f"{row['scope']} ({row['source']})"
        print(f"{row['figure']:42} {row['paper']:>9g} {ours_text:>9} {difference:>10}  {where}")


def statistics_of_sample(shared: Path, fmt: str) -> dict:
    """Import one sample with the platform's command and return the statistics of the imported dialogues."""
    from django.core.management import call_command

    from dialogs.models import Dialogue
    from review.dataset.selectors import statistics_for
    from review.records import SELECTION_STATUS_VALUES

    data, tables, databases = SAMPLES[fmt]
    arguments = ["--format", fmt, "--data", str(shared / data), "--tables", str(shared / tables)]
    if databases:
        arguments += ["--databases", str(shared / databases)]
    Dialogue.objects.all().delete()
    call_command("import_dataset", *arguments)
    return statistics_for(statuses=SELECTION_STATUS_VALUES, origin="imported")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--format", action="append", choices=list(SAMPLES), dest="formats")
    parser.add_argument("--json", type=Path, help="also write every row as JSON here")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(PROJECT_ROOT))
    from bench.export import setup_django

    report = {}
    with tempfile.TemporaryDirectory(prefix="wozsql-paper-figures-") as folder:
        setup_django(Path(folder))
        for fmt in args.formats or list(SAMPLES):
            stats = statistics_of_sample(args.shared, fmt)
            rows = comparisons(fmt, stats)
            print_table(fmt, rows, stats)
            report[fmt] = rows
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
