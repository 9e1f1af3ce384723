"""Celery tasks of the annotation app. Tasks take ids and call the job's module; the module holds the logic."""

from celery import shared_task


# acks_late + reject_on_worker_lost: a worker killed mid-build hands the message back; a build is idempotent.
@shared_task(name="annotation.test_suite_build", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def test_suite_build(database_id: int, force: bool = False) -> None:
    """Build the test suite of database `database_id` (annotation.suite_builds.test_suite_build)."""
    from annotation.suite_builds import test_suite_build as build

    build(database_id=database_id, force=force)


@shared_task(name="annotation.test_suites_schedule", ignore_result=True)
def test_suites_schedule() -> None:
    """Send a build for every missing or stale suite (run by Celery beat with a broker)."""
    from django.conf import settings

    from annotation.suite_builds import test_suites_schedule as schedule

    if settings.TEST_SUITES_AUTOBUILD:
        schedule()
