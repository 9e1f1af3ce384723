"""Celery tasks of the review app. Tasks take ids and call a service; the service holds the logic.

Each task imports its service inside itself: the services queue these tasks (`delay_on_commit`), so a module-level
import would make the two import each other.
"""

import os

from celery import shared_task


# acks_late + reject_on_worker_lost: a worker killed mid-export hands the message back to the broker instead of
# acknowledging it, so the export runs again; the service is idempotent and never publishes half a file.
@shared_task(name="review.export_dataset", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def export_dataset(export_id: int) -> None:
    """Build export `export_id` (see review.dataset.services.dataset_export_run)."""
    from celery import current_task

    from review.dataset.services import dataset_export_run

    hostname = getattr(current_task.request, "hostname", None) or "local"
    dataset_export_run(export_id=export_id, worker=f"{hostname}:{os.getpid()}")


@shared_task(name="review.quality_refresh", ignore_result=True)
def quality_refresh(dialogue_ids: list[int]) -> None:
    """Fold ended or scored dialogues into their workers' quality profiles and apply the rules (see
    review.quality.services)."""
    from review.quality.services import dialogues_quality_refresh

    dialogues_quality_refresh(dialogue_ids=dialogue_ids)


@shared_task(name="review.evaluate_predictions", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def evaluate_predictions(evaluation_id: int) -> None:
    """Score evaluation `evaluation_id` (see review.dataset.evaluation_jobs.evaluation_run)."""
    from review.dataset.evaluation_jobs import evaluation_run

    evaluation_run(evaluation_id=evaluation_id)


@shared_task(name="review.double_compare", acks_late=True, ignore_result=True)
def double_compare(item_id: int) -> None:
    """Compare a double-annotation item's two queries (see review.double.services.double_item_compare)."""
    from review.double.services import double_item_compare

    double_item_compare(item_id=item_id)


@shared_task(name="review.translation_export", acks_late=True, ignore_result=True)
def translation_export(export_id: int) -> None:
    """Build translation export `export_id` (see review.translation.export.translation_export_run)."""
    from review.translation.export import translation_export_run

    translation_export_run(export_id=export_id)


@shared_task(name="review.translation_project_build", acks_late=True, ignore_result=True)
def translation_project_build(build_id: int) -> None:
    """Make translation project build `build_id` (see review.translation.build.translation_project_build_run)."""
    from review.translation.build import translation_project_build_run

    translation_project_build_run(build_id=build_id)
