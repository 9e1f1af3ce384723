import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Database
from annotation.sql.analysis import inspect_sql, sql_run
from annotation.wording.response_drafts import draft_response


class Command(BaseCommand):
    help = (
        "Print one JSON object about a SQL query on a registered database (validation, Spider sql, "
        "query_toks_no_value, hardness, execution). With --file (lines db_id<TAB>SQL) print one JSON line per line. "
        "With --draft, each object also holds the draft response a room would offer for the result."
    )

    def add_arguments(self, parser):
        parser.add_argument("sql", nargs="?", default=None)
        parser.add_argument("--database", default=None, help="db_id of a registered database")
        parser.add_argument("--file", type=Path, default=None, help="TSV file: db_id<TAB>SQL per line")
        parser.add_argument("--limit-mode", choices=["value", "one"], default="value")
        parser.add_argument(
            "--draft", action="store_true", help="add the draft response (CONFIRM_SQL) for the query's result"
        )

    def handle(self, *args, sql, database, file, limit_mode, draft, **options):
        if file is not None:
            if sql is not None:
                raise CommandError("give either SQL or --file, not both")
            self._inspect_file(file, limit_mode, draft)
            return
        if sql is None or database is None:
            raise CommandError('usage: sql_inspect --database <db_id> "<SQL>"  or  sql_inspect --file <tsv>')
        db = Database.objects.filter(db_id=database).first()
        if db is None:
            raise CommandError(f"no registered database {database!r}")
        report = inspect_sql(sql, db.schema, db_path=db.path, limit_mode=limit_mode)
        if draft:
            report["draft"] = _draft(db, sql)
        self.stdout.write(json.dumps(report, ensure_ascii=False))

    def _inspect_file(self, file: Path, limit_mode: str, draft: bool) -> None:
        if not file.is_file():
            raise CommandError(f"{file} is not a file")
        databases = {db.db_id: db for db in Database.objects.all()}
        with open(file, encoding="utf-8", errors="replace") as handle:
            for number, raw in enumerate(handle, start=1):
                line = raw.rstrip("\n").rstrip("\r")
                self.stdout.write(
                    json.dumps(self._inspect_line(number, line, databases, limit_mode, draft), ensure_ascii=False)
                )

    @staticmethod
    def _inspect_line(number: int, line: str, databases: dict, limit_mode: str, draft: bool = False) -> dict:
        # A bad line becomes an error object on its own output line: the output stays aligned with the input.
        if "\t" not in line:
            return {"line": number, "ok": False, "error": "expected db_id<TAB>SQL"}
        db_id, sql = line.split("\t", 1)
        db = databases.get(db_id.strip())
        if db is None:
            return {
                "line": number,
                "db_id": db_id,
                "query": sql,
                "ok": False,
                "error": f"no registered database {db_id!r}",
            }
        try:
            report = inspect_sql(sql, db.schema, db_path=db.path, limit_mode=limit_mode)
            if draft:
                report["draft"] = _draft(db, sql)
        except Exception as exc:  # never stop on one line
            return {"line": number, "db_id": db_id, "query": sql, "ok": False, "error": f"{type(exc).__name__}: {exc}"}
        return {"line": number, **report}


def _draft(db, sql: str) -> str | None:
    """The draft a room offers once this result is shared: the result run in the sandbox as a room runs it (counted
    in full when cut), so the draft sees the whole count rather than the report's first rows. None when the query
    does not run: a room shares no failed result, so it drafts nothing for one."""
    result = sql_run(db.path, sql, schema=db.schema, count=True)
    return draft_response(sql, result, db.schema) if result["ok"] else None
