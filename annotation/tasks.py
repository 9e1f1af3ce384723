"""The Celery face of the annotation app: tasks take ids and call the job's module."""

from celery import shared_task


@shared_task(name="annotation.goals_generate", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def goals_generate(generation_id: int) -> None:
    from annotation.goal_generation import goal_generation_run

    goal_generation_run(generation_id)


@shared_task(name="annotation.database_version_profile", ignore_result=True, acks_late=True)
def database_version_profile(version_id: int) -> None:
    """Read what a database version's file holds, once, for the curation page (annotation.curation)."""
    from annotation.curation import database_version_profile as profile
    from annotation.models import DatabaseVersion

    version = DatabaseVersion.objects.filter(pk=version_id).first()
    if version is not None:
        profile(version=version)
