import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from review.dataset.importer import dataset_import
from review.management.progress import ProgressBar
from review.models import IMPORT_FORMATS


class Command(BaseCommand):
    help = (
        "Import a CoSQL state-tracking, SParC or CHASE file (with its tables.json and databases) as dialogues, "
        "so that a released dataset can be audited and exported again."
    )

    def add_arguments(self, parser):
        parser.add_argument("--format", required=True, choices=[str(name) for name in IMPORT_FORMATS])
        parser.add_argument("--data", required=True, type=Path, help="the interactions file, e.g. cosql_dev.json")
        parser.add_argument("--tables", required=True, type=Path, help="tables.json (chase_tables.json for CHASE)")
        parser.add_argument(
            "--databases",
            type=Path,
            default=None,
            help="folder with <db_id>/<db_id>.sqlite; databases without a file are registered by schema only",
        )
        parser.add_argument(
            "--review",
            dest="for_review",
            action="store_true",
            help="send the imported dialogues to review pass 1 (an audit) instead of taking them as approved",
        )
        parser.add_argument("--json", dest="as_json", action="store_true", help="print the full report as JSON")

    def handle(self, *args, format, data, tables, databases, as_json, for_review=False, **options):
        for path in (data, tables):
            if not path.is_file():
                raise CommandError(f"{path} is not a file")
        if databases is not None and not databases.is_dir():
            raise CommandError(f"{databases} is not a folder")
        bar = ProgressBar(self.stderr._out)
        try:
            report = dataset_import(
                fmt=format,
                data_path=data,
                tables_path=tables,
                databases_dir=databases,
                progress=lambda done, total: bar.update("Importing", done / total),
                for_review=for_review,
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        finally:
            bar.close()
        if as_json:
            self.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False, indent=1))
            return
        for item in report.skipped:
            self.stderr.write(f"skipped interaction {item['position']} on {item['db_id']}: {item['reason']}")
        for failure in report.sql_failures[:20]:
            self.stderr.write(
                f"SQL fails on {failure['db_id']}: {failure['sql'][:100]!r}: {failure['error']['message']}"
            )
        if len(report.sql_failures) > 20:
            self.stderr.write(f"... and {len(report.sql_failures) - 20} more failing queries (see --json)")
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {report.dialogues_created} dialogues ({report.turns} turns, "
                f"{report.folded_clarifications} clarifications unfolded); {report.already_imported} already there, "
                f"{len(report.skipped)} skipped. Databases: {len(report.databases_registered)} registered, "
                f"{len(report.databases_schema_only)} schema only, {len(report.databases_reused)} reused. "
                f"SQL: {len(report.sql_failures)} failing, {report.sql_not_executed} not executed (schema only)."
            )
        )
