import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from review.dataset.cosql_tasks import score_responses, score_user_acts, task_table
from review.dataset.evaluation import release_evaluate, report_table
from review.dataset.formats import STATE_FILES
from review.dataset.splits import SPLITS


class Command(BaseCommand):
    help = (
        "Score a prediction file on a release with the official metrics (exact match, execution, test-suite "
        "execution; per question and per interaction), by turn position, hardness, user act and CHASE labels "
        "(docs/evaluation.md). The file is the public evaluator's: one predicted SQL per line, an empty line after "
        "each interaction. With --task response or --task user_acts, CoSQL's other two tasks: one predicted response "
        "(or set of user acts) per line, in the order of the release's file for that task."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", required=True, type=Path, help="an export folder, or one format's folder")
        parser.add_argument("--predictions", required=True, type=Path, help="the prediction file")
        parser.add_argument("--format", choices=sorted(STATE_FILES), help="which format (when the release has several)")
        parser.add_argument("--split", choices=SPLITS, default="dev", help="which split's gold (default: dev)")
        parser.add_argument(
            "--keep-distinct", action="store_true", help="run DISTINCT as written (the evaluator drops it by default)"
        )
        parser.add_argument(
            "--task",
            choices=["sql", "response", "user_acts"],
            default="sql",
            help="sql (state tracking, every format), or CoSQL's response generation or user dialogue act prediction",
        )
        parser.add_argument("--json", dest="as_json", action="store_true", help="print the scores as one JSON object")

    def handle(self, *args, release, predictions, format, split, keep_distinct, task, as_json, **options):
        release, predictions = Path(release), Path(predictions)
        try:
            raw = predictions.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {predictions}: {exc.strerror}") from exc
        try:
            if task == "sql":
                report = release_evaluate(
                    release, raw, fmt=format, split=split, keep_distinct=keep_distinct, source=predictions.name
                )
            else:
                score = score_responses if task == "response" else score_user_acts
                report = score(release, raw, split=split, source=predictions.name)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        if as_json:
            self.stdout.write(json.dumps(report, ensure_ascii=False))
        else:
            self.stdout.write((report_table if task == "sql" else task_table)(report), ending="")
