"""How often the thematic-relation proposal agrees with a person's labels (docs/chase.md).

Usage: .venv/bin/python bench/thematic_proposal.py [--sheet bench/ratings/thematic-2026-11-28-sparc-sample.tsv]
                                                    [--tables ../shared/spider/tables.json]

The sheet holds follow-up pairs of the public SParC sample (40 drawn with random.Random(3939) among its 392 follow-ups)
with SParC's thematic relations as one person gave them, reading the two questions and the two queries, before any
proposal was computed (column `labels`, a note for each unsure one). For each pair the proposal is made as the room
makes it: the detected intent (`relation_model.label_intent` with both questions, the rules' relations of its
category) read by `annotation.labels.acts.thematic_proposal`. The mapping from relations to thematic relations was
written from the definitions (SParC Table 2, CHASE Table 12) before the sheet was labelled and was not changed after.
Prints the share of pairs where the proposal equals the labels, where it holds at least one of them, where it is
empty, and per relation the precision and recall of the proposal.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHEET = PROJECT_ROOT / "bench" / "ratings" / "thematic-2026-11-28-sparc-sample.tsv"
DEFAULT_TABLES = PROJECT_ROOT.parent / "shared" / "spider" / "tables.json"


def proposal_of(row: dict, schema: dict) -> list[str]:
    from annotation.labels.acts import thematic_proposal
    from annotation.labels.relation_model import label_intent
    from annotation.labels.relations import RelationError

    try:
        intent = label_intent(
            row["previous_sql"],
            row["sql"],
            schema,
            previous_question=row["previous_question"],
            current_question=row["question"],
        )
    except RelationError:
        return []
    return thematic_proposal(intent.as_dict())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheet", type=Path, default=DEFAULT_SHEET)
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(PROJECT_ROOT))
    from annotation.labels.acts import THEMATIC_RELATIONS

    schemas = {entry["db_id"]: entry for entry in json.loads(args.tables.read_text(encoding="utf-8"))}
    with args.sheet.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    equal = some = empty = 0
    counts = {name: Counter() for name in THEMATIC_RELATIONS}
    for row in rows:
        labels = set(row["labels"].split())
        proposed = set(proposal_of(row, schemas[row["db_id"]]))
        equal += proposed == labels
        some += bool(proposed & labels)
        empty += not proposed
        for name in THEMATIC_RELATIONS:
            counts[name]["both"] += name in labels and name in proposed
            counts[name]["labelled"] += name in labels
            counts[name]["proposed"] += name in proposed
        if proposed != labels:
            print(f"#{row['n']:>2} labels {sorted(labels)} proposed {sorted(proposed)}: {row['question']}")
    total = len(rows)
    print(f"\n{total} pairs: proposal equals the labels {equal} ({100 * equal / total:.1f}%), holds one of them {some} "
          f"({100 * some / total:.1f}%), empty {empty}")  # fmt: skip
    for name, count in counts.items():
        precision = f"{count['both'] / count['proposed']:.2f}" if count["proposed"] else "—"
        recall = f"{count['both'] / count['labelled']:.2f}" if count["labelled"] else "—"
        print(f"{name:24} labelled {count['labelled']:>2} proposed {count['proposed']:>2} precision {precision} "
              f"recall {recall}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
