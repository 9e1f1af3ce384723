import datetime as dt
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Database
from review.dataset import figures
from review.dataset.selectors import statistics_for
from review.dataset.splits import SplitError, read_split_file
from review.passes.agreement import review_agreement
from review.records import DEFAULT_STATUSES, ORIGINS, SELECTION_STATUS_VALUES


class Command(BaseCommand):
    help = (
        "Print the statistics of a selection of dialogues as JSON (CoSQL Tables 1-3 and Figures 2-5, hardness, "
        "coverage, timing); optionally write the figures as SVG and PDF."
    )

    def add_arguments(self, parser):
        parser.add_argument("--status", dest="statuses", action="append", choices=SELECTION_STATUS_VALUES)
        parser.add_argument("--database", dest="db_ids", action="append", help="only these db_ids (repeatable)")
        parser.add_argument("--from", dest="date_from", type=dt.date.fromisoformat, help="YYYY-MM-DD")
        parser.add_argument("--to", dest="date_to", type=dt.date.fromisoformat, help="YYYY-MM-DD")
        parser.add_argument("--origin", choices=ORIGINS, default="all")
        split = parser.add_mutually_exclusive_group()
        split.add_argument("--seed", type=int, default=None, help="split by database with this seed (Table 3 rows)")
        split.add_argument("--split-file", type=Path, help="db_id → split, as JSON or 'db_id split' lines")
        parser.add_argument("--out", type=Path, help="write statistics.json here instead of printing it")
        parser.add_argument(
            "--figures", dest="figure_dir", type=Path, help="also write every figure as SVG and PDF into this folder"
        )

    def handle(self, *args, statuses, db_ids, date_from, date_to, origin, seed, split_file, out, **options):
        if db_ids:
            known = set(Database.objects.filter(db_id__in=db_ids).values_list("db_id", flat=True))
            missing = sorted(set(db_ids) - known)
            if missing:
                raise CommandError(f"no database registered as {', '.join(missing)}")
        split_map = None
        if split_file:
            try:
                split_map = read_split_file(split_file)
            except (OSError, SplitError) as exc:
                raise CommandError(str(exc)) from exc
        stats = statistics_for(
            statuses=statuses or DEFAULT_STATUSES,
            db_ids=db_ids,
            date_from=date_from,
            date_to=date_to,
            origin=origin,
            seed=seed,
            split_map=split_map,
        )
        # How the review passes measured themselves (change rates, execution match, kappa, rejections).
        stats = {**stats, "review": review_agreement()}
        text = json.dumps(stats, ensure_ascii=False, indent=1)
        if out:
            out.write_text(text + "\n", encoding="utf-8")
        else:
            self.stdout.write(text)
        figure_dir = options["figure_dir"]
        if figure_dir:
            figure_dir.mkdir(parents=True, exist_ok=True)
            for name in figures.FIGURES:
                for fmt in ("svg", "pdf"):
                    (figure_dir / f"{name}.{fmt}").write_bytes(figures.render(name, stats, fmt))
            self.stderr.write(f"figures written to {figure_dir}")
