"""Goals a person would ask: a sheet of sampled goals and drafted questions to rate by hand (docs/goals.md, "Goals a
person would ask").

Usage: .venv/bin/python bench/goal_quality.py
           [--database hotel|football|clinic|library|logistics|museum|school|transit|grants|<spider db_id>] [--count 40]
           [--seed 35] [--rev REV | --code PATH] [--spider] [--drafts 10] [--label after] > rows.jsonl

Samples --count goals with a fixed seed on a database of bench/goal_quality_db.py (built
afresh in a temporary folder) or on a Spider database of ../shared, runs each and prints one JSON line per goal: its
SQL, hardness, tree, a summary of its result (row count and first values), and for the first --drafts goals the
question query-first annotation would draft from its tree (annotation.goals.tree_plan.draft_question). With --rev the
whole platform is that git revision's (a clean checkout made for the run and removed after it; `--code PATH`: a
checkout of your own), so the code before a change is measured on the same database and seed as the code after it,
with every module a goal passes through (the sampler, its rules, the drafter, the English they share) of the same
revision. The databases are always this checkout's. The sampler's refusals by rule, when
it keeps them, go to standard error.

The judgement (fine / needs a fix / pointless, and why) is a person's: bench/ratings/goals_<date>.csv holds them.
"""

import argparse
import contextlib
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))


def _setup(code: Path) -> None:
    """Import the platform from checkout `code` (this one by default): every module a goal passes through, the
    sampler, its rules, the drafter and the English they share, is that checkout's."""
    os.chdir(code)  # Celery's loader puts the working folder first on the path when Django starts
    sys.path.insert(0, str(code))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()


@contextlib.contextmanager
def _checkout(rev: str):
    """A clean checkout of git revision `rev` in a temporary folder (a detached worktree), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="goal-quality-")) / "code"
    git = ["git", "-C", str(PROJECT_ROOT)]
    subprocess.run([*git, "worktree", "add", "--detach", "--quiet", str(folder), rev], check=True)  # noqa: S603
    try:
        yield folder
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(folder)], check=False)  # noqa: S603


def _made_databases():
    """bench/goal_quality_db.py of this checkout, read by its path: the databases are today's whatever the code."""
    spec = importlib.util.spec_from_file_location("goal_quality_db", PROJECT_ROOT / "bench" / "goal_quality_db.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BUILDERS


def summary(result) -> str:
    if not result.ok:
        return f"error: {result.error['message']}"
    first = "; ".join(", ".join(str(value) for value in row) for row in result.rows[:4])
    more = f" ... ({result.row_count}{'+' if result.truncated else ''} rows)" if result.row_count > 4 else ""
    return f"{result.row_count} row{'s' if result.row_count != 1 else ''}: {first}{more}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default="hotel")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--rev", default=None, help="the code of this git revision (a clean checkout made for the run)")
    parser.add_argument("--code", type=Path, default=None, help="the code of this checkout (default: this one)")
    parser.add_argument("--spider", action="store_true", help="Spider's database of that name (a made one has it)")
    parser.add_argument("--drafts", type=int, default=10)
    parser.add_argument("--label", default=None, help="the value of each line's 'run' field (default: the rev)")
    options = parser.parse_args()
    if options.rev is not None and options.code is not None:
        parser.error("give --rev or --code, not both")
    if options.rev is None:
        sheet(options, (options.code or PROJECT_ROOT).resolve())
        return
    with _checkout(options.rev) as code:
        sheet(options, code)


def sheet(options, code: Path) -> None:
    builders = _made_databases()
    _setup(code)
    from annotation.goals import sampler as goal_sampler
    from annotation.goals import tree_plan
    from annotation.sql.sandbox import execute
    from annotation.sql.schema import introspect_sqlite
    from dialogs import assist

    reads_flags = hasattr(assist, "schema_with_flags")

    spider_path = SHARED / "spider" / "database" / options.database / f"{options.database}.sqlite"
    if options.database in builders and not options.spider:
        if spider_path.exists():
            print(
                f"{options.database}: the made database of bench/goal_quality_db.py; --spider for Spider's",
                file=sys.stderr,
            )
        folder = Path(tempfile.mkdtemp(prefix=f"{options.database}-"))
        path = builders[options.database](folder / f"{options.database}.sqlite")
        schema = introspect_sqlite(path, options.database)
    else:
        entries = {entry["db_id"]: entry for entry in json.loads((SHARED / "spider" / "tables.json").read_text())}
        schema = entries[options.database]
        path = spider_path
    sampler = goal_sampler.GoalSampler(schema, path, random.Random(options.seed))
    goals = sampler.sample(options.count)
    run = options.label or options.rev or ("working tree" if options.code is None else str(options.code))
    for number, goal in enumerate(goals, start=1):
        line = {
            "database": options.database,
            "run": run,
            "n": number,
            "hardness": goal.hardness,
            "sql": goal.sql,
            "result": summary(execute(path, goal.sql)),
            "tree": goal.tree,
        }
        if number <= options.drafts:
            # The flags read from the file's values, as a room drafts it (code before that reading: the schema)
            flagged = assist.schema_with_flags(schema, goal.sql, str(path)) if reads_flags else schema
            line["draft"] = tree_plan.draft_question(goal.tree, flagged)
        print(json.dumps(line, ensure_ascii=False))
    if hasattr(sampler, "refused"):
        acted = goal_sampler.refusals_report(sampler.refused, sampler.rules.rewritten)
        said = "; ".join(f"{item['rule']} refused {item['refused']}, rewrote {item['rewritten']}" for item in acted)
    else:
        said = "no rules in this revision"
    print(f"{len(goals)} goals; {said}", file=sys.stderr)


if __name__ == "__main__":
    main()
