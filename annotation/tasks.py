"""Celery tasks of the annotation app."""

from celery import shared_task


@shared_task(name="annotation.database_version_profile", ignore_result=True, acks_late=True)
def database_version_profile(version_id: int) -> None:
    """Read what a database version's file holds, once, for the curation page (annotation.curation)."""
    from annotation.curation import database_version_profile as profile
    from annotation.models import DatabaseVersion

    version = DatabaseVersion.objects.filter(pk=version_id).first()
    if version is not None:
        profile(version=version)
