"""Writes of the evaluations: a prediction file scored on an export's release, by a Celery task.

The file predicts one task: the SQL of each question (every format; review.dataset.evaluation), or, on a CoSQL
release, the system's responses or the user's dialogue acts, scored by the functions `manage.py evaluate_predictions
--task response|user_acts` calls (review.dataset.cosql_tasks), so the page and the command give the same figures.

`evaluation_create` checks the file against the release's gold at once (a file that does not fit is refused with
its line, and nothing is recorded), then records it and queues the task after commit; the task calls
`evaluation_run`, which unpacks the release into a private folder, scores, and keeps the report on the row.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation.models import User
from annotation.plumbing.jsonfile import decoded_text
from review.dataset import selectors
from review.dataset.cosql_tasks import score_responses, score_user_acts
from review.dataset.evaluation import predictions_read, release_evaluate, release_extract, release_load
from review.models import Evaluation, EvaluationTask, Export

logger = logging.getLogger(__name__)

MAX_UPLOAD_BYTES = 5_000_000


def evaluation_formats(export: Export) -> list[str]:
    """The formats of an export that a prediction file can be scored on."""
    return [fmt for fmt in export.formats if fmt in ("cosql", "sparc", "chase")]


# CoSQL's other two tasks: the same scoring functions as the command's.
TASK_SCORERS = {EvaluationTask.RESPONSE: score_responses, EvaluationTask.USER_ACTS: score_user_acts}


def evaluation_tasks(fmt: str) -> list[str]:
    """The tasks a prediction file can predict on a release of `fmt`: SQL on every format; CoSQL's responses and
    user acts on CoSQL's only."""
    if fmt == "cosql":
        return list(EvaluationTask.values)
    return [EvaluationTask.SQL]


def _task_score(release: Path, *, task: str, predictions: bytes, split: str, source: str) -> dict:
    return TASK_SCORERS[task](release, predictions, split=split, source=source)


def evaluation_create(
    *,
    export: Export,
    requested_by: User | None,
    fmt: str,
    split: str,
    predictions_name: str,
    predictions: bytes,
    keep_distinct: bool = False,
    task: str = EvaluationTask.SQL,
) -> Evaluation:
    """Check `predictions` against the gold of `fmt`/`split` in the export's release, record the evaluation and
    queue its scoring. ValidationError (naming the file's line where it can) when the file or the choice does not
    fit; nothing is recorded then."""
    from review.tasks import evaluate_predictions

    zip_path = selectors.export_file_path(export)
    if zip_path is None:
        raise ValidationError(gettext("This export has no finished release to score on."))
    if fmt not in evaluation_formats(export):
        raise ValidationError(gettext("This export has no %(format)s files.") % {"format": fmt})
    if task not in evaluation_tasks(fmt):
        raise ValidationError(
            gettext("%(task)s is scored on CoSQL releases only, not on %(format)s.")
            % {"task": EvaluationTask(task).label, "format": fmt}
        )
    if len(predictions) > MAX_UPLOAD_BYTES:
        raise ValidationError(
            gettext("%(file)s is larger than %(megabytes)s MB.")
            % {"file": predictions_name, "megabytes": MAX_UPLOAD_BYTES // 1_000_000}
        )
    with tempfile.TemporaryDirectory(prefix="wozsql-evaluation-") as folder:
        extracted = release_extract(zip_path, Path(folder), fmt=fmt, with_databases=False)
        if task == EvaluationTask.SQL:
            predictions_read(predictions, release_load(extracted, fmt=fmt, split=split), source=predictions_name)
        else:  # the scoring checks the file (lines, acts) and needs no database: a refusal comes before a record
            _task_score(extracted, task=task, predictions=predictions, split=split, source=predictions_name)
    evaluation = Evaluation.objects.create(
        export=export,
        requested_by=requested_by,
        fmt=fmt,
        task=task,
        split=split,
        keep_distinct=keep_distinct and task == EvaluationTask.SQL,
        predictions_name=predictions_name[:200],
        predictions=decoded_text(predictions, source=predictions_name),
    )
    evaluate_predictions.delay_on_commit(evaluation.pk)
    return evaluation


def evaluation_run(*, evaluation_id: int) -> Evaluation:
    """Score evaluation `evaluation_id` (idempotent: a scored one is left as it is). A failure is kept on the row
    with its reason."""
    with transaction.atomic():
        evaluation = Evaluation.objects.select_for_update().get(pk=evaluation_id)
        if evaluation.state == Evaluation.State.SUCCEEDED:
            return evaluation
        evaluation.state, evaluation.message = Evaluation.State.RUNNING, ""
        evaluation.progress_done = evaluation.progress_total = 0
        evaluation.started_at, evaluation.finished_at = timezone.now(), None
        fields = ["state", "message", "progress_done", "progress_total", "started_at", "finished_at"]
        evaluation.save(update_fields=fields)

    def progress(done: int, total: int) -> None:
        Evaluation.objects.filter(pk=evaluation_id).update(progress_done=done, progress_total=total)

    # Its refusals and its report are worded in the language of the person who asked (docs/i18n.md).
    with evaluation.speaking():
        return _scored(evaluation, progress)


def _scored(evaluation: Evaluation, progress) -> Evaluation:
    evaluation_id = evaluation.pk
    zip_path = selectors.export_file_path(evaluation.export)
    try:
        if zip_path is None:
            raise ValidationError(gettext("The export's release is gone: export it again to score on it."))
        with tempfile.TemporaryDirectory(prefix="wozsql-evaluation-") as folder:
            if evaluation.task == EvaluationTask.SQL:
                release = release_extract(zip_path, Path(folder), fmt=evaluation.fmt, with_databases=True)
                report = release_evaluate(
                    release,
                    evaluation.predictions.encode("utf-8"),
                    fmt=evaluation.fmt,
                    split=evaluation.split,
                    keep_distinct=evaluation.keep_distinct,
                    source=evaluation.predictions_name,
                    progress=progress,
                )
            else:  # CoSQL's responses or user acts: no database to run, one step
                release = release_extract(zip_path, Path(folder), fmt=evaluation.fmt, with_databases=False)
                report = _task_score(
                    release,
                    task=evaluation.task,
                    predictions=evaluation.predictions.encode("utf-8"),
                    split=evaluation.split,
                    source=evaluation.predictions_name,
                )
                progress(report["items"], report["items"])
    except ValidationError as exc:
        return _finish(evaluation_id, state=Evaluation.State.FAILED, message=" ".join(exc.messages))
    except Exception as exc:  # kept on the row for the person who asked, and logged for whoever runs the platform
        logger.exception("evaluation %s failed", evaluation_id)
        return _finish(
            evaluation_id,
            state=Evaluation.State.FAILED,
            message=gettext("Scoring stopped: %(error)s.") % {"error": type(exc).__name__},
        )
    return _finish(evaluation_id, state=Evaluation.State.SUCCEEDED, report=report)


def _finish(evaluation_id: int, *, state: str, message: str = "", report: dict | None = None) -> Evaluation:
    evaluation = Evaluation.objects.get(pk=evaluation_id)
    evaluation.state, evaluation.message, evaluation.finished_at = state, message, timezone.now()
    fields = ["state", "message", "finished_at"]
    if report is not None:
        evaluation.report = report
        fields.append("report")
    evaluation.save(update_fields=fields)
    return evaluation
