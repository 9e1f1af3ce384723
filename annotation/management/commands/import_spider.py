from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from annotation.databases.services import databases_import_spider


class Command(BaseCommand):
    help = "Register the databases of a Spider-style release: tables.json plus database/<db_id>/<db_id>.sqlite."

    def add_arguments(self, parser):
        parser.add_argument("--tables", required=True, type=Path, help="the release's tables.json")
        parser.add_argument("--databases", required=True, type=Path, help="folder holding <db_id>/<db_id>.sqlite")
        parser.add_argument(
            "--only", nargs="+", action="extend", default=None, metavar="DB_ID", help="import only these databases"
        )
        parser.add_argument("--replace", action="store_true", help="update databases that are already registered")

    def handle(self, *args, tables, databases, only, replace, **options):
        if not tables.is_file():
            raise CommandError(f"{tables} is not a file")
        if not databases.is_dir():
            raise CommandError(f"{databases} is not a folder")
        try:
            report = databases_import_spider(tables_path=tables, databases_dir=databases, only=only, replace=replace)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        for db_id, reason in report.skipped:
            self.stderr.write(f"skipped {db_id}: {reason}")
        for db_id, note in report.notes:
            self.stderr.write(f"{db_id}: {note}")
        self.stdout.write(
            self.style.SUCCESS(f"Registered {len(report.registered)} databases; skipped {len(report.skipped)}.")
        )
