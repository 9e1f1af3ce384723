"""A sheet of drafts or suggestions to rate by hand, drawn from the CoSQL sample's turns, as a room shows them.

Usage: .venv/bin/python bench/rating_sheet.py drafts|suggestions --seed S [--count N] [--databases a,b]
       [--source cosql-sample|chase-t|goals] [--goals FILE] [--per-database K] [--code PATH] [--keep-rated]
       [--shared PATH] [--made PATH] > sheet.tsv

`--source chase-t` draws instead from CHASE-T's interactions on Spider databases outside the CoSQL sample, each turn's
SQL rebuilt in English by `bench/chase_english.py` (its literals' values drawn with seed 0, so a turn has the same SQL
in every sheet); the question column then holds CHASE's Chinese question.

`--source goals` draws turns nobody asked: the goal sampler's SQL (`annotation.goals.sampler.GoalSampler`, what
`manage.py goals_generate` calls) on each database of `--databases`, read as the hosted schema, each goal run in the
sandbox and kept when it returns rows; each goal is one turn (no question; the "has a next turn" condition does not
apply). It is a proxy for a dialogue's turn: a suggestion is rated after a query and result a room could show, not after
a question a worker asked. The goals are sampled once (`--goals-per-database`, seeded by `--seed` and the database) and
kept in `--goals FILE` (JSON lines): a later run reads that file, so `--code` versions word the same turns.
`--per-database K` keeps at most K turns of one database in a sheet (any source).
`--made PATH` reads each database of `--databases` from `PATH/<db_id>.sqlite` instead of Spider's folder (a made
database, e.g. `bench/goal_quality_db.py PATH/football.sqlite --database football`), with no release entry (no
readable names kept: the file's own names, as a database uploaded without one is hosted).

What a room shows is what is rated: each database is read as the platform hosts it (the SQLite file's own schema
with the release's readable names kept, as `annotation.databases.services.database_register` imports it:
`hosted_schema`), and
the text comes from the function the room calls (`dialogs.assist.draft_for` for a draft, `dialogs.assist.suggestion`
for a suggestion, which reads the result the worker was shown and the columns' statistics).

Drafts: N random SQL turns whose query runs; each row holds the question, the SQL and the draft, with empty
`logic_correct` (0/1) and `grammar` (1-5) columns: CoSQL's Table 6 ratings (the README's measurements say how they
were given).
Suggestions: N random turns that have a next turn and whose query runs; each row holds the turn's question and SQL,
what the result showed, and a suggestion of a category drawn among the applicable ones, with empty `reads_once`,
`applies` and `useful` columns (0/1).

`--databases` draws only from those databases (hold out by database: write rules on some, rate on the others).
Turns already in a sheet of the same kind in bench/ratings/ are left out unless `--keep-rated`. `--code PATH` imports
the platform from another checkout (e.g. `git worktree add /tmp/before HEAD~3`): the same turns, drawn the same way,
worded by the code as it was, so a "before" is rated on the turns of the "after". A rating is honest only on rows
nobody tuned the rules to: draw with a seed not used before and keep the sheet, rated, in bench/ratings/.
"""

import argparse
import csv
import importlib.util
import inspect
import json
import os
import random
import sys
from collections import Counter
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
RATINGS = PROJECT_ROOT / "bench" / "ratings"
CATEGORY_DRAW = 7919  # each turn's category is drawn with its own rng: the same turn gets the same draw in any code


def _setup(code: Path) -> None:
    # Celery's loader puts the working folder first on the path when Django starts: it must be the code's own.
    os.chdir(code)
    sys.path.insert(0, str(code))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()


def rated_before(kind: str) -> set[tuple[str, str]]:
    """(db_id, SQL on one line) of every turn in an earlier sheet of `kind`."""
    seen = set()
    for path in RATINGS.glob(f"{kind}-*.tsv"):
        with open(path, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                seen.add((row.get("db_id", ""), " ".join((row.get("sql") or "").split())))
    return seen


def hosted_schema(path: Path, db_id: str, entry: dict | None) -> dict:
    """The schema a room reads (`Database.schema`) for the file at `path` imported with its release's entry: what
    `annotation.databases.services.database_register` stores, before any curation."""
    from annotation.sql.schema import introspect_sqlite, release_names_kept

    return release_names_kept(introspect_sqlite(path, db_id), entry)[0]


def shown(result: dict) -> str:
    """The result the worker saw, shortly: its size and first rows."""
    rows = result.get("rows") or []
    total = result.get("total_rows") or len(rows)
    cells = "; ".join(", ".join(str(value) for value in row) for row in rows[:4])
    return f"{total} row{'s' if total != 1 else ''}: {cells}{' ...' if total > 4 else ''}"


def suggestion_drawn(assist, intents, analysis, schema, path: Path, sql: str, result: dict, rng):
    """A suggestion as a room draws one: a category among those that apply after what the worker saw, another one
    when no sentence can be written for it (`dialogs.assist.recommendation_next`, drawn uniformly here instead of by
    the collection's coverage); None when none applies. With the code before `assist.suggestion`, as that code did."""
    current = hasattr(assist, "suggestion")
    try:
        if current:
            statistics = assist.column_statistics_at(str(path))
            categories = intents.applicable_categories(sql, schema, result=result, statistics=statistics)
        else:
            categories = intents.applicable_categories(sql, schema)
    except intents.IntentError:
        return None

    def values(table, column):
        return list(analysis.column_values(str(path), table, column, assist.VALUES_PER_COLUMN))

    while categories:
        category = rng.choice(categories)
        try:
            if current:
                return assist.suggestion(
                    schema=schema, path=str(path), sql=sql, result=result, category=category, rng=rng
                )
            return intents.recommend(sql, schema, category=category, rng=rng, values=values)
        except intents.IntentError:
            categories = [name for name in categories if name != category]
    return None


def source_dialogues(source: str, shared: Path, wanted: set[str]) -> list[dict]:
    """The dialogues to draw from, in the CoSQL sample's shape (`database_id`, `interaction` of turns with `query` and
    `utterance`)."""
    if source == "cosql-sample":
        with open(shared / "samples" / "cosql_dev_sample.json", encoding="utf-8") as handle:
            return json.load(handle)
    # Read from this checkout by its path, whatever `--code` put first on the import path.
    spec = importlib.util.spec_from_file_location("chase_english", PROJECT_ROOT / "bench" / "chase_english.py")
    chase_english = sys.modules.setdefault("chase_english", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(chase_english)
    return [
        {
            "database_id": interaction.db_id,
            "interaction": [{"query": turn.sql, "utterance": turn.question_zh} for turn in interaction.turns],
        }
        for interaction in chase_english.english_interactions(shared, seed=0, databases=wanted or None)
    ]


def database_file(shared: Path, db_id: str, made: Path | None = None) -> Path:
    """The SQLite file of `db_id`: Spider's, or the made one in `made` (`--made`)."""
    if made is not None:
        return made / f"{db_id}.sqlite"
    return shared / "spider" / "database" / db_id / f"{db_id}.sqlite"


def goal_dialogues(
    shared: Path, wanted: set[str], seed: int, per_database: int, keep: Path, made: Path | None = None
) -> list[dict]:
    """The goal sampler's SQL on each database of `wanted` as one-turn dialogues (`source_dialogues`' shape), drawn
    once and kept in `keep` (read back when it exists)."""
    if keep.exists():
        lines = [json.loads(line) for line in keep.read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        from annotation.goals.sampler import GoalSampler

        with open(shared / "spider" / "tables.json", encoding="utf-8") as handle:
            entries = {entry["db_id"]: entry for entry in json.load(handle)}
        lines = []
        for db_id in sorted(wanted):
            path = database_file(shared, db_id, made)
            rng = random.Random(f"{seed}:{db_id}")
            try:
                entry = None if made else entries.get(db_id)
                goals = GoalSampler(hosted_schema(path, db_id, entry), path, rng).sample(per_database)
            except Exception as exc:  # noqa: BLE001 - a database the sampler cannot read gives no turn, said so
                print(f"{db_id}: no goals ({exc})", file=sys.stderr)
                continue
            lines += [{"db_id": db_id, "sql": goal.sql, "hardness": goal.hardness} for goal in goals]
        keep.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return [
        {"database_id": line["db_id"], "interaction": [{"query": line["sql"], "utterance": ""}], "goal": True}
        for line in lines
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=("drafts", "suggestions"))
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--databases", default="", help="draw only from these databases (comma-separated)")
    parser.add_argument("--code", type=Path, default=PROJECT_ROOT, help="the checkout whose code writes the texts")
    parser.add_argument("--keep-rated", action="store_true", help="also draw turns of earlier sheets")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--source", choices=("cosql-sample", "chase-t", "goals"), default="cosql-sample")
    parser.add_argument("--goals", type=Path, help="--source goals: the sampled goals' file (written when absent)")
    parser.add_argument("--goals-per-database", type=int, default=12)
    parser.add_argument("--per-database", type=int, default=0, help="at most this many turns of one database")
    parser.add_argument("--made", type=Path, help="read the databases from PATH/<db_id>.sqlite (made databases)")
    options = parser.parse_args()
    options.shared = options.shared.resolve()
    options.goals = options.goals.resolve() if options.goals else None
    options.made = options.made.resolve() if options.made else None
    _setup(options.code.resolve())
    from annotation.sql import analysis
    from annotation.wording import suggestions as intents
    from dialogs import assist

    with open(options.shared / "spider" / "tables.json", encoding="utf-8") as handle:
        entries = {entry["db_id"]: entry for entry in json.load(handle)}
    wanted = set(filter(None, options.databases.split(",")))
    if options.source == "goals" and not (wanted and options.goals):
        parser.error("--source goals needs --databases and --goals")
    dialogues = (
        goal_dialogues(options.shared, wanted, options.seed, options.goals_per_database, options.goals, options.made)
        if options.source == "goals"
        else source_dialogues(options.source, options.shared, wanted)
    )
    skipped = set() if options.keep_rated else rated_before(options.kind)
    turns = [
        (dialogue["database_id"], dialogue["interaction"], index, dialogue.get("goal", False))
        for dialogue in dialogues
        for index in range(len(dialogue["interaction"]))
    ]
    random.Random(options.seed).shuffle(turns)
    writer = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    if options.kind == "drafts":
        writer.writerow(["n", "db_id", "question", "sql", "draft", "logic_correct", "grammar", "note"])
    else:
        columns = ["shown", "category", "relation", "suggestion", "reads_once", "applies", "useful", "note"]
        writer.writerow(["n", "db_id", "question", "sql", *columns])
    schemas: dict[str, dict] = {}
    written, drawn, per_database = 0, set(), Counter()
    for db_id, interaction, index, goal in turns:
        if written == options.count:
            break
        turn = interaction[index]
        sql = " ".join(turn["query"].split())
        full = options.per_database and per_database[db_id] >= options.per_database
        if full or (wanted and db_id not in wanted) or (db_id, sql) in skipped or (db_id, sql) in drawn:
            continue
        if options.kind == "suggestions" and not goal and index + 1 >= len(interaction):
            continue
        path = database_file(options.shared, db_id, options.made)
        if db_id not in schemas:
            schemas[db_id] = hosted_schema(path, db_id, None if options.made else entries.get(db_id))
        schema = schemas[db_id]
        result = analysis.sql_run(path, turn["query"], count=True)
        if not result["ok"]:
            continue  # a room shares no failed result
        drawn.add((db_id, sql))
        per_database[db_id] += 1
        question = " | ".join(" ".join(part.split()) for part in turn["utterance"].split("|"))
        if options.kind == "drafts":
            if hasattr(assist, "draft_for"):
                reads_file = "path" in inspect.signature(assist.draft_for).parameters  # older code did not
                extra = {"path": str(path)} if reads_file else {}
                draft = assist.draft_for(schema=schema, sql=turn["query"], result=result, **extra)
            else:  # the code before assist.draft_for: the room called draft_response with the hosted schema
                from annotation.wording.response_drafts import draft_response

                draft = draft_response(turn["query"], result, schema)
            row = [db_id, question, sql, draft, "", "", ""]
        else:
            rng = random.Random(CATEGORY_DRAW * options.seed + written)
            found = suggestion_drawn(assist, intents, analysis, schema, path, turn["query"], result, rng)
            texts = [found.category, found.relation, found.text] if found else ["", "", "(no suggestion)"]
            row = [db_id, question, sql, shown(result), *texts, "", "", "", ""]
        written += 1
        writer.writerow([written, *row])


if __name__ == "__main__":
    main()
