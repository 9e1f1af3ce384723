import json

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Database
from annotation.suites import builds as suite_builds


class Command(BaseCommand):
    help = (
        "Build the test suites of the hosted databases (all, or those named with --database), here and now, and print "
        "each one's figures as a JSON line: the pairs its goals give, how many the original tells apart and how many "
        "of the rest the suite does (docs/test_suites.md). An up-to-date suite is kept unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["build"])
        parser.add_argument("--database", action="append", default=[], help="db_id (repeat for several)")
        parser.add_argument("--force", action="store_true", help="build again even when the suite is up to date")

    def handle(self, *args, action, database, force, **options):
        if database:
            found = {db.db_id: db for db in Database.objects.filter(db_id__in=database)}
            missing = [name for name in database if name not in found]
            if missing:
                raise CommandError(f"no registered database {', '.join(map(repr, missing))}")
            schema_only = [name for name in database if not found[name].has_file]
            if schema_only:
                raise CommandError(
                    f"registered by schema only, nothing to build a suite from: {', '.join(schema_only)}"
                )
            chosen = [found[name] for name in database]
        else:
            chosen = list(Database.objects.exclude(file=""))
        failed = []
        for db in chosen:
            state = suite_builds.test_suite_build(database_id=db.pk, force=force)
            if state is None:
                self.stdout.write(json.dumps({"db_id": db.db_id, "state": "running", "message": "building elsewhere"}))
                continue
            line = {"db_id": db.db_id, "state": state.state, **state.report}
            if state.message:
                line["message"] = state.message
                failed.append(db.db_id)
            self.stdout.write(json.dumps(line, ensure_ascii=False))
        if failed:
            raise CommandError(f"could not build the suite of {', '.join(failed)}")
