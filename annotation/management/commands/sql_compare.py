import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Database
from annotation.suites.builds import suite_compare
from annotation.suites.compare import CompareError


class Command(BaseCommand):
    help = (
        "Look for a database on which two queries return different rows: the database's test suite, then a search for "
        "this pair within --seconds (SQL_COMPARE_SECONDS). Prints one JSON object: `verdict` ('different' or 'no "
        "difference found'), `equivalent` (false when a difference was found), `checked_databases` (the suite's), "
        "`searched_databases` (made for this pair), `seconds` and, when they differ, a `counterexample` (the database "
        "and its fewest rows that show it, both results and the smallest difference). SQL_A plays the reference: its "
        "ORDER BY decides whether row order counts. With --file (lines db_id<TAB>SQL_A<TAB>SQL_B) print one JSON "
        "object per line (docs/test_suites.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("sql_a", nargs="?", default=None)
        parser.add_argument("sql_b", nargs="?", default=None)
        parser.add_argument("--database", default=None, help="db_id of a registered database")
        parser.add_argument("--file", type=Path, default=None, help="TSV file: db_id<TAB>SQL_A<TAB>SQL_B per line")
        parser.add_argument(
            "--seconds",
            type=float,
            default=None,
            help="time for each comparison (default SQL_COMPARE_SECONDS); 0 compares on the kept suite alone",
        )
        parser.add_argument(
            "--databases",
            type=int,
            default=None,
            help="stop each search once it compared this many databases, within its time: the same on every machine",
        )

    def handle(self, *args, sql_a, sql_b, database, file, seconds, databases, **options):
        if seconds is not None and seconds < 0:
            raise CommandError("--seconds must be 0 or more")
        if databases is not None and databases < 1:
            raise CommandError("--databases must be 1 or more")
        self.seconds, self.databases = seconds, databases
        if file is not None:
            if sql_a is not None or database is not None:
                raise CommandError("give either --database with two queries or --file, not both")
            failed = self._compare_file(file)
            if failed:
                raise CommandError(f"{failed} line(s) could not be compared (see their error objects above)")
            return
        if sql_a is None or sql_b is None or database is None:
            raise CommandError(
                'usage: sql_compare --database <db_id> "<SQL_A>" "<SQL_B>"  or  sql_compare --file <tsv>'
            )
        db = _hosted(database)
        if isinstance(db, str):
            raise CommandError(db)
        try:
            report = suite_compare(db, sql_a, sql_b, seconds=seconds, databases=databases)
        except CompareError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(json.dumps(report, ensure_ascii=False))

    def _compare_file(self, file: Path) -> int:
        if not file.is_file():
            raise CommandError(f"{file} is not a file")
        failed = 0
        with open(file, encoding="utf-8", errors="replace") as handle:
            for number, raw in enumerate(handle, start=1):
                line = raw.rstrip("\n").rstrip("\r")
                if not line.strip():
                    continue
                report = _compare_line(number, line, self.seconds, self.databases)
                failed += "error" in report
                self.stdout.write(json.dumps(report, ensure_ascii=False))
        return failed


def _hosted(db_id: str) -> Database | str:
    db = Database.objects.filter(db_id=db_id.strip()).first()
    if db is None:
        return f"no registered database {db_id!r}"
    if not db.has_file:
        return f"{db_id!r} is registered by schema only: there is no database to run queries on"
    return db


def _compare_line(number: int, line: str, seconds: float | None, databases: int | None) -> dict:
    # A bad line becomes an error object on its own output line: the output stays aligned with the input.
    parts = line.split("\t")
    if len(parts) != 3:
        return {"line": number, "error": "expected db_id<TAB>SQL_A<TAB>SQL_B"}
    db = _hosted(parts[0])
    if isinstance(db, str):
        return {"line": number, "db_id": parts[0], "error": db}
    try:
        report = suite_compare(db, parts[1], parts[2], seconds=seconds, databases=databases)
        return {"line": number, "db_id": db.db_id, **report}
    except CompareError as exc:
        return {"line": number, "db_id": db.db_id, "error": str(exc)}
