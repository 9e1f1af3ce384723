"""Goals a person would ask: a sheet of sampled goals and drafted questions to rate by hand (docs/goals.md, "Goals a
person would ask").

Usage: .venv/bin/python bench/goal_quality.py
           [--database hotel|football|clinic|library|logistics|museum|school|transit|grants|<spider db_id>] [--count 40]
           [--seed 35] [--rev REV] [--drafts 10] [--label after] > rows.jsonl

Samples --count goals with a fixed seed on a database of bench/goal_quality_db.py (built
afresh in a temporary folder) or on a Spider database of ../shared, runs each and prints one JSON line per goal: its
SQL, hardness, tree, a summary of its result (row count and first values), and for the first --drafts goals the
question query-first annotation would draft from its tree (annotation.goals.tree_plan.draft_question). With --rev the
sampler, its rules and the drafter are read from that git revision (`git show REV:annotation/goals/...`), so the code
before a change is measured on the same database and seed as the code after it. The sampler's refusals by rule, when
it keeps them, go to standard error.

The judgement (fine / needs a fix / pointless, and why) is a person's: bench/ratings/goals_<date>.csv holds them.
"""

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from annotation.sql.sandbox import execute  # noqa: E402
from annotation.sql.schema import introspect_sqlite  # noqa: E402
from bench.goal_quality_db import BUILDERS  # noqa: E402

SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))


_REV_MODULES = ("operation_tree", "rules", "sampler", "tree_plan")  # annotation/goals/, in the order they import


def _modules_at(rev: str | None):
    """(sampler, tree_plan) of the working tree, or of git revision `rev`: the modules of annotation/goals/ read at
    that revision and loaded under names of their own (rev_sampler...), importing each other, so the sampler, its
    rules and the drafter measured are all the revision's."""
    if rev is None:
        from annotation.goals import sampler as goal_sampler
        from annotation.goals import tree_plan

        return goal_sampler, tree_plan
    folder = Path(tempfile.mkdtemp(prefix="goal-quality-"))
    loaded = {}
    for name in _REV_MODULES:
        source = subprocess.run(
            ["git", "show", f"{rev}:annotation/goals/{name}.py"],  # noqa: S607
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for other in _REV_MODULES:
            source = source.replace(f"from annotation.goals.{other} import", f"from rev_{other} import")
        file = folder / f"rev_{name}.py"
        file.write_text(source)
        spec = importlib.util.spec_from_file_location(f"rev_{name}", file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[f"rev_{name}"] = module
        spec.loader.exec_module(module)
        loaded[name] = module
    return loaded["sampler"], loaded["tree_plan"]


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
    parser.add_argument("--rev", default=None)
    parser.add_argument("--drafts", type=int, default=10)
    parser.add_argument("--label", default=None, help="the value of each line's 'run' field (default: the rev)")
    options = parser.parse_args()
    goal_sampler, tree_plan = _modules_at(options.rev)
    if options.database in BUILDERS:
        folder = Path(tempfile.mkdtemp(prefix=f"{options.database}-"))
        path = BUILDERS[options.database](folder / f"{options.database}.sqlite")
        schema = introspect_sqlite(path, options.database)
    else:
        entries = {entry["db_id"]: entry for entry in json.loads((SHARED / "spider" / "tables.json").read_text())}
        schema = entries[options.database]
        path = SHARED / "spider" / "database" / options.database / f"{options.database}.sqlite"
    sampler = goal_sampler.GoalSampler(schema, path, random.Random(options.seed))
    goals = sampler.sample(options.count)
    run = options.label or options.rev or "working tree"
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
            line["draft"] = tree_plan.draft_question(goal.tree, schema)
        print(json.dumps(line, ensure_ascii=False))
    if hasattr(sampler, "refused"):
        acted = goal_sampler.refusals_report(sampler.refused, sampler.rules.rewritten)
        said = "; ".join(f"{item['rule']} refused {item['refused']}, rewrote {item['rewritten']}" for item in acted)
    else:
        said = "no rules in this revision"
    print(f"{len(goals)} goals; {said}", file=sys.stderr)


if __name__ == "__main__":
    main()
