"""Celery tasks of the annotation app. Tasks take ids and call the job's module; the module holds the logic."""

from celery import shared_task


@shared_task(name="annotation.goals_generate", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def goals_generate(generation_id: int) -> None:
    from annotation.goals.generation import goal_generation_run

    goal_generation_run(generation_id)


@shared_task(name="annotation.database_version_profile", ignore_result=True, acks_late=True)
def database_version_profile(version_id: int) -> None:
    """Read what a database version's file holds, once, for the curation page (annotation.databases.curation)."""
    from annotation.databases.curation import database_version_profile as profile
    from annotation.models import DatabaseVersion

    version = DatabaseVersion.objects.filter(pk=version_id).first()
    if version is not None:
        profile(version=version)


# acks_late + reject_on_worker_lost: a worker killed mid-build hands the message back; a build is idempotent.
@shared_task(name="annotation.test_suite_build", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def test_suite_build(database_id: int, force: bool = False) -> None:
    """Build the test suite of database `database_id` (annotation.suites.builds.test_suite_build)."""
    from annotation.suites.builds import test_suite_build as build

    build(database_id=database_id, force=force)


@shared_task(name="annotation.test_suites_schedule", ignore_result=True)
def test_suites_schedule() -> None:
    """Send a build for every missing or stale suite (run by Celery beat with a broker)."""
    from django.conf import settings

    from annotation.suites.builds import test_suites_schedule as schedule

    if settings.TEST_SUITES_AUTOBUILD:
        schedule()
