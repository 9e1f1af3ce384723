import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from annotation.goals.services import goals_import
from annotation.models import Goal, Hardness


class Command(BaseCommand):
    help = "Import reference goals from a Spider (question/query), SParC, CoSQL or CHASE (final) file."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--hardness", default=None, help="comma-separated levels to keep, e.g. medium,hard,extra (default: all)"
        )
        parser.add_argument("--source", choices=Goal.Source.values, default=None, help="default: detected")

    def handle(self, *args, file, hardness, source, **options):
        levels = None
        if hardness:
            levels = [level.strip() for level in hardness.split(",") if level.strip()]
            unknown = sorted(set(levels) - set(Hardness.values))
            if unknown:
                raise CommandError(f"unknown hardness {', '.join(unknown)}; choose from {', '.join(Hardness.values)}")
        if not file.is_file():
            raise CommandError(f"{file} is not a file")
        show_progress = sys.stderr.isatty()

        def progress(done, total):
            if show_progress and (done % 25 == 0 or done == total):
                self.stderr.write(f"\r{done}/{total} goals read", ending="")

        try:
            report = goals_import(path=file, hardness=levels, source=source, progress=progress)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        if show_progress:
            self.stderr.write("")
        for db_id, question, reason in report.skipped:
            self.stderr.write(f"skipped [{db_id}] {question[:80]!r}: {reason}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {report.created} goals; {report.duplicates} already present, "
                f"{report.filtered_out} outside the hardness filter, {len(report.skipped)} skipped."
            )
        )
