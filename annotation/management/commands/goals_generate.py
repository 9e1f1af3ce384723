import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.goals import services
from annotation.goals.generation import GoalGenerationError, goals_sample
from annotation.models import Database
from annotation.sql.hardness import HARDNESS_LEVELS


class Command(BaseCommand):
    help = (
        "Sample goal queries for a registered database from its schema and data (docs/goals.md): each runs in the "
        "sandbox, returns rows and encodes under the Spider protocol. Prints (or writes to --out) one JSON line per "
        "goal: sql, hardness, tree; the coverage of tables and columns before and after goes to standard error."
    )

    def add_arguments(self, parser):
        parser.add_argument("--database", required=True, help="db_id of a registered database with its file")
        parser.add_argument("--count", type=int, required=True)
        parser.add_argument(
            "--hardness", default=",".join(HARDNESS_LEVELS), help="comma-separated levels (default: all four)"
        )
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--out", type=Path, default=None, help="write the JSON lines to this file")
        parser.add_argument(
            "--save",
            action="store_true",
            help="also keep them as goals of the database, inactive and waiting for a person to write the question",
        )

    def handle(self, *args, database, count, hardness, seed, out, save, **options):
        db = Database.objects.filter(db_id=database).first()
        if db is None:
            raise CommandError(f"no registered database {database!r}")
        try:
            goals, report = goals_sample(database=db, count=count, levels=hardness.split(","), seed=seed)
        except GoalGenerationError as exc:
            raise CommandError(str(exc)) from None
        lines = "".join(json.dumps(goal.as_line(), ensure_ascii=False) + "\n" for goal in goals)
        if out is not None:
            out.write_text(lines, encoding="utf-8")
        else:
            self.stdout.write(lines, ending="")
        before, after = report["before"], report["after"]
        mix = {level: sum(goal.hardness == level for goal in goals) for level in HARDNESS_LEVELS}
        self.stderr.write(
            f"{len(goals)} of {count} goals for {database} ({', '.join(f'{k} {v}' for k, v in mix.items())}); "
            f"coverage of tables {before['tables']:.0%} -> {after['tables']:.0%}, "
            f"of columns {before['columns']:.0%} -> {after['columns']:.0%}"
        )
        if report.get("rules"):
            self.stderr.write(
                "refused by the rules: "
                + "; ".join(
                    f"{row['refused']} {row['reason']}"
                    + (f" ({row['rewritten']} rewritten)" if row["rewritten"] else "")
                    for row in report["rules"]
                )
            )
        if save:
            saved = services.goals_save_sampled(database=db, goals=goals)
            self.stderr.write(f"saved {saved} goals waiting for a question (the goals page lists them)")
        if len(goals) < count:
            self.stderr.write("the database gave no more goals of the levels asked for\n")
