import shutil
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from review.translation.export import translation_export_run
from review.translation.models import TranslationExport, TranslationProject


class Command(BaseCommand):
    help = (
        "Export a translation project as a CHASE-format release (docs/translation.md): the files, the translated "
        "SQLite files, and the gold check of every query (how many return the translated rows of the original's)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--project", type=int, required=True, help="the translation project's id")
        parser.add_argument("--all", dest="everything", action="store_true", help="also interactions not approved yet")
        parser.add_argument("--out", type=Path, default=None, help="copy the zip here as well")

    def handle(self, *args, project, everything, out, **options):
        found = TranslationProject.objects.filter(pk=project).first()
        if found is None:
            raise CommandError(f"No translation project {project}.")
        export = TranslationExport.objects.create(project=found, only_approved=not everything)
        export = translation_export_run(export_id=export.pk)
        if export.state != TranslationExport.State.SUCCEEDED:
            raise CommandError(f"Export {export.pk} {export.state}: {export.message}")
        gold = export.report["gold_check"]
        for row in gold["queries"]:
            if row["outcome"] != "same" or row.get("left_out"):
                reason = row.get("left_out") or row.get("error") or "; ".join(row["notes"] + row["problems"])
                self.stderr.write(
                    f"{row['db_id']} interaction {row['interaction']} turn {row['turn']}: {row['outcome']}: "
                    f"{row['translated']}" + (f" ({reason})" if reason else "")
                )
        path = Path(settings.DATA_DIR) / export.file
        if out is not None:
            shutil.copyfile(path, out)
            path = out
        self.stdout.write(
            self.style.SUCCESS(
                f"Export {export.pk}: {export.report['interactions']} interactions, {export.report['turns']} turns; "
                f"{export.message} Zip: {path}"
            )
        )
