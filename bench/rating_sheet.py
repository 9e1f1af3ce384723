"""A sheet of drafts or suggestions to rate by hand, drawn at random from the CoSQL sample's turns.

Usage: .venv/bin/python bench/rating_sheet.py drafts|suggestions [--count N] [--seed S] [--shared PATH] > sheet.tsv

Drafts: N random SQL turns whose query runs; each row holds the question, the SQL and the draft a room would offer
for its result (`annotation.sql.drafts.draft_response`), with empty `logic_correct` (0/1) and `grammar` (1-5)
columns: the CoSQL paper's two human ratings of a response (docs/formats.md, "Rating drafts").
Suggestions: N random turns that have a next turn; each row holds the turn's question and SQL and a suggestion for
the next question of a random applicable category (`annotation.sql.intents.recommend`, values read from the database
as a room reads them), with empty `reads_once` and `applies` columns (0/1).
A rating is honest only on rows nobody tuned the rules to: draw with a seed not used before and keep the sheet, rated,
in bench/ratings/.
"""

import argparse
import csv
import json
import os
import random
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from annotation.sql import analysis, intents  # noqa: E402
from annotation.sql.analysis import sql_run  # noqa: E402
from annotation.sql.drafts import draft_response  # noqa: E402

DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
VALUES_PER_COLUMN = 5  # as a room reads them (dialogs.assist)


def column_values(path: Path):
    return lambda table, column: list(analysis.column_values(str(path), table, column, VALUES_PER_COLUMN))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=("drafts", "suggestions"))
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    options = parser.parse_args()
    with open(options.shared / "spider" / "tables.json", encoding="utf-8") as handle:
        entries = {entry["db_id"]: entry for entry in json.load(handle)}
    with open(options.shared / "samples" / "cosql_dev_sample.json", encoding="utf-8") as handle:
        dialogues = json.load(handle)
    turns = [
        (dialogue["database_id"], dialogue["interaction"], index)
        for dialogue in dialogues
        for index in range(len(dialogue["interaction"]))
    ]
    rng = random.Random(options.seed)
    rng.shuffle(turns)
    writer = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    if options.kind == "drafts":
        writer.writerow(["n", "db_id", "question", "sql", "draft", "logic_correct", "grammar", "note"])
    else:
        columns = ["category", "relation", "suggestion", "reads_once", "applies", "note"]
        writer.writerow(["n", "db_id", "question", "sql", *columns])
    written = 0
    for db_id, interaction, index in turns:
        if written == options.count:
            break
        turn, schema = interaction[index], entries[db_id]
        path = options.shared / "spider" / "database" / db_id / f"{db_id}.sqlite"
        question = " | ".join(" ".join(part.split()) for part in turn["utterance"].split("|"))
        sql = " ".join(turn["query"].split())
        if options.kind == "drafts":
            result = sql_run(path, turn["query"], count=True)
            if not result["ok"]:
                continue
            draft = draft_response(turn["query"], result, schema)
            row = [db_id, question, sql, draft, "", "", ""]
        else:
            categories = intents.applicable_categories(turn["query"], schema)
            if index + 1 >= len(interaction) or not categories:
                continue
            category = rng.choice(categories)
            try:
                found = intents.recommend(turn["query"], schema, category=category, rng=rng, values=column_values(path))
            except intents.IntentError:
                continue  # a room offers nothing for this draw either (dialogs.assist tries another turn's category)
            row = [db_id, question, sql, category, found.relation, found.text, "", "", ""]
        written += 1
        writer.writerow([written, *row])


if __name__ == "__main__":
    main()
