"""A sheet of Chinese next-question suggestions over held-out CHASE training turns, to rate by hand.

Usage: .venv/bin/python bench/suggestions_zh.py [--databases a,b,...] [--seed 40112826] [--per-database 4]
       [--out bench/ratings/suggestions-zh-2026-11-28-heldout.tsv]

The held-out databases (docs/i18n.md): the training databases of corpora/chase_train.json outside every Chinese
drafts sheet and the databases read while the drafts' rules were written (`drafts_zh.SEEN2` and the third sheet's
8), sorted and shuffled by `random.Random(seed)`, the first ten (set 1, decided before any Chinese suggestion rule
was written), or ten from `--skip` (set 2: `--skip 10`, decided before the second round of rules). Each gives
`--per-database` turns, a seeded sample of those whose SQL the platform reads. The result is the
turn's SQL run on a synthetic SQLite database built from the schema (`drafts_zh.synthetic_database`); the suggestion
is the room's (`dialogs.assist.suggestion` in Chinese, with the file's values and figures and the result shown), its
category drawn uniformly among those that apply, another when none can be worded (as `bench/rating_sheet.py`).
The rater fills `reads`, `applies`, `useful` (1/0) and `note`.
"""

import argparse
import csv
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import drafts_zh  # noqa: E402 - sets Django up

from annotation.sql.analysis import sql_run  # noqa: E402

HELD_OUT_SEEN = drafts_zh.SEEN2 + (
    ",coffee_shop,store_product,game_injury,cre_Doc_Tracking_DB,wrestler,北京驾校,performance_attendance,driving_school"
)
SEED = 40112826
DATABASES = 10


def held_out(dialogues: list[dict], seed: int, skip: int = 0) -> list[str]:
    names = sorted({dialogue["database_id"] for dialogue in dialogues} - set(HELD_OUT_SEEN.split(",")))
    random.Random(seed).shuffle(names)
    return names[skip : skip + DATABASES]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=drafts_zh.DEFAULT_SHARED)
    parser.add_argument("--databases", default="", help="comma-separated; default: the held-out draw of --seed")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--per-database", type=int, default=4)
    parser.add_argument("--skip", type=int, default=0, help="held-out draw: start at this position of the shuffle")
    parser.add_argument("--out", type=Path, default=drafts_zh.PROJECT_ROOT / "bench/ratings/suggestions-zh.tsv")
    options = parser.parse_args()
    from annotation.wording import suggestions as intents
    from dialogs import assist

    corpora = options.shared / "corpora"
    dialogues = json.loads((corpora / "chase_train.json").read_text(encoding="utf-8"))
    schemas = {entry["db_id"]: entry for entry in json.loads((corpora / "chase_tables.json").read_text("utf-8"))}
    databases = options.databases.split(",") if options.databases else held_out(dialogues, options.seed, options.skip)
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for number, name in enumerate(databases):
            turns = [turn for d in dialogues if d["database_id"] == name for turn in d["interaction"]]
            readable = [turn for turn in turns if drafts_zh.readable(turn["query"])]
            # the turns by their own rng (the first sheet's shared one with the suggestions: b1ec5c7 reproduces it), so
            # that two versions of the rules word the same turns
            drawn = random.Random(f"{options.seed}:{name}").sample(readable, min(options.per_database, len(readable)))
            path = Path(directory) / f"{number}.sqlite"
            drafts_zh.synthetic_database(path, schemas[name], [turn["query"] for turn in drawn], options.seed)
            for turn in drawn:
                result = sql_run(path, turn["query"], count=True)
                if not result["ok"]:
                    result = {"ok": True, "columns": [], "rows": [], "row_count": 0, "truncated": False}
                rng = random.Random(f"{options.seed}:{turn['query']}")
                found = _drawn(assist, intents, schemas[name], path, turn["query"], result, rng)
                shown = json.dumps(result["rows"][:4], ensure_ascii=False) + f" ({len(result['rows'])} rows)"
                category, relation, text = (found.category, found.relation, found.text) if found else ("", "", "")
                rows.append([name, turn["utterance"], turn["query"], shown, category, relation, text, "", "", "", ""])
    options.out.parent.mkdir(parents=True, exist_ok=True)
    with options.out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(
            ["database", "question", "sql", "result", "category", "relation", "suggestion"]
            + ["reads", "applies", "useful", "note"]
        )
        writer.writerows(rows)
    print(f"{len(rows)} suggestions from {len(databases)} databases written to {options.out}")


def _drawn(assist, intents, schema, path, sql, result, rng):
    statistics = assist.column_statistics_at(str(path))
    try:
        categories = intents.applicable_categories(sql, schema, result=result, statistics=statistics)
    except intents.IntentError:
        return None
    while categories:
        category = rng.choice(categories)
        try:
            return assist.suggestion(
                schema=schema, path=str(path), sql=sql, result=result, category=category, rng=rng, language="zh-hans"
            )
        except intents.IntentError:
            categories = [other for other in categories if other != category]
    return None


if __name__ == "__main__":
    main()
