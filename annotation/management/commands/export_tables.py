import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.databases.selectors import database_tables_json


class Command(BaseCommand):
    help = "Write the Spider tables.json of all registered databases (or --only some)."

    def add_arguments(self, parser):
        parser.add_argument("--out", required=True, type=Path)
        # "extend": --only a --only b keeps both.
        parser.add_argument("--only", nargs="+", action="extend", default=None, metavar="DB_ID")

    def handle(self, *args, out, only, **options):
        entries = database_tables_json(only=only)
        if only:
            missing = sorted(set(only) - {entry["db_id"] for entry in entries})
            if missing:
                raise CommandError(f"not registered: {', '.join(missing)}")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(entries, ensure_ascii=False, indent=2), encoding="utf-8")
        self.stdout.write(self.style.SUCCESS(f"Wrote {len(entries)} databases to {out}"))
