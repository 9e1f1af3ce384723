import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.labels.relation_model import label_intent
from annotation.labels.relations import RelationError, detect_relation
from annotation.models import Database


class Command(BaseCommand):
    help = (
        "Print the CHASE intent category and relations (R1-R16) of query pairs: reads lines "
        "previous SQL<TAB>current SQL[<TAB>previous question<TAB>current question] from --file (or - for standard "
        "input) and prints one JSON line per input line. With --learned each line also gets the learned model's "
        "category (`learned`), which reads the questions' words when a line has them."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--file",
            required=True,
            help="TSV of previous SQL<TAB>current SQL lines, optionally followed by <TAB>previous question<TAB>current "
            "question; - for stdin",
        )
        parser.add_argument("--database", default=None, help="db_id of a registered database whose schema to use")
        parser.add_argument(
            "--learned",
            action="store_true",
            help="add the learned intent category (annotation/labels/relation_model.py) as `learned`",
        )

    def handle(self, *args, file, database, learned, **options):
        schema = None
        if database is not None:
            db = Database.objects.filter(db_id=database).first()
            if db is None:
                raise CommandError(f"no registered database {database!r}")
            schema = db.schema
        if file == "-":
            self._relate_lines(sys.stdin, schema, learned)
            return
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"{path} is not a file")
        with open(path, encoding="utf-8", errors="replace") as handle:
            self._relate_lines(handle, schema, learned)

    def _relate_lines(self, lines, schema: dict | None, learned: bool) -> None:
        for number, raw in enumerate(lines, start=1):
            line = raw.rstrip("\n").rstrip("\r")
            self.stdout.write(
                json.dumps({"line": number, **self._relate_line(line, schema, learned)}, ensure_ascii=False)
            )

    @staticmethod
    def _relate_line(line: str, schema: dict | None, learned: bool = False) -> dict:
        # A bad line, a blank one included, becomes an error object on its own output line: the output stays aligned
        # with the input, and the run goes on.
        if not line.strip():
            return {"error": "blank line: expected previous SQL<TAB>current SQL"}
        tabs = line.count("\t")
        if tabs not in (1, 3):
            # SQL may hold a TAB as white space, but then the split is a guess: the line is refused instead.
            return {
                "error": "expected previous SQL<TAB>current SQL (exactly one TAB), or the two questions after them "
                f"(three TABs), found {tabs}"
            }
        previous, current, *questions = line.split("\t")
        previous_question, current_question = questions or (None, None)
        try:
            found = detect_relation(previous, current, schema).as_dict()
            if learned:
                label = label_intent(
                    previous,
                    current,
                    schema,
                    previous_question=previous_question,
                    current_question=current_question,
                )
                found["learned"] = {"category": label.category, "source": label.source}
            return found
        except RelationError as exc:
            return {"error": str(exc)}
        except Exception as exc:  # never stop on one line
            return {"error": f"{type(exc).__name__}: {exc}"}
