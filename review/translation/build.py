"""The making of a translation project as a background job (docs/translation.md): a large release's files take tens
of seconds to read, which no request should wait for.

Claimed in a short transaction; each database's file read (its names and text values) and the release's dialogues
replayed outside any, progress written after each; a time bound (TRANSLATION_PROJECT_MAX_SECONDS) and a cancel read
between steps; then the project written in one transaction of writes only (review.translation.services.project_write).
Nothing of the project exists unless the job finishes.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from review.translation import services, source
from review.translation.models import TranslationProjectBuild, TranslationUnit

logger = logging.getLogger(__name__)
Build = TranslationProjectBuild


class Stopped(Exception):
    """The run stopped early: cancelled (`cancelled`) or out of time; the message says which."""

    def __init__(self, message: str, *, cancelled: bool = False):
        super().__init__(message)
        self.cancelled = cancelled


def _claim(build_id: int) -> TranslationProjectBuild | None:
    with transaction.atomic():
        build = Build.objects.select_for_update().get(pk=build_id)
        # A run past its time bound by a minute died with its worker: a redelivered task takes it over.
        abandoned = (
            build.state == Build.State.RUNNING
            and build.started_at is not None
            and (timezone.now() - build.started_at).total_seconds() > settings.TRANSLATION_PROJECT_MAX_SECONDS + 60
        )
        if build.state != Build.State.QUEUED and not abandoned:
            return None
        if build.cancel_requested_at is not None:
            with build.speaking():
                build.state, build.finished_at, build.message = (
                    Build.State.CANCELLED,
                    timezone.now(),
                    gettext("Cancelled."),
                )
            build.save(update_fields=["state", "finished_at", "message"])
            return None
        build.state, build.started_at = Build.State.RUNNING, timezone.now()
        build.save(update_fields=["state", "started_at"])
    return build


class _Run:
    def __init__(self, build: TranslationProjectBuild):
        self.build = build
        self.deadline = time.monotonic() + settings.TRANSLATION_PROJECT_MAX_SECONDS

    def step(self, done: int, total: int) -> None:
        """Write the progress, then stop past the deadline or once a cancel was asked for."""
        Build.objects.filter(pk=self.build.pk).update(progress_done=done, progress_total=total)
        if time.monotonic() > self.deadline:
            with self.build.speaking():
                raise Stopped(
                    gettext("Stopped after %(seconds)s s (%(setting)s): no project was made.")
                    % {
                        "seconds": settings.TRANSLATION_PROJECT_MAX_SECONDS,
                        "setting": "TRANSLATION_PROJECT_MAX_SECONDS",
                    }
                )
        if Build.objects.filter(pk=self.build.pk, cancel_requested_at__isnull=False).exists():
            with self.build.speaking():
                raise Stopped(gettext("Cancelled: no project was made."), cancelled=True)


def _make(build: TranslationProjectBuild, run: _Run):
    admin = build.requested_by
    with build.speaking():  # its refusals, in the language of the person who asked
        release, wanted, databases = services.project_request(
            admin=admin, name=build.name, release_key=build.release_key, db_ids=build.db_ids, split=build.split
        )
    total = len(databases) + 1  # each file, then the dialogues' replay
    run.step(0, total)
    read = {}
    for done, database in enumerate(databases, 1):
        read[database.pk] = services.read_database(database)
        run.step(done, total)
    interactions = source.release_interactions(release, wanted)
    run.step(total, total)
    return services.project_write(
        admin=admin,
        name=build.name,
        release=release,
        split=build.split,
        language=build.language,
        databases=databases,
        read=read,
        interactions=interactions,
    )


def translation_project_build_run(*, build_id: int) -> TranslationProjectBuild:
    """Run one build to the end (the body of the Celery task)."""
    build = _claim(build_id)
    if build is None:
        return Build.objects.get(pk=build_id)
    try:
        project = _make(build, _Run(build))
    except Stopped as stopped:
        state = Build.State.CANCELLED if stopped.cancelled else Build.State.FAILED
        _finish(build_id, state, str(stopped))
    except (ValidationError, PermissionDenied) as refused:  # the release or a file went away since it was asked
        _finish(build_id, Build.State.FAILED, " ".join(getattr(refused, "messages", [str(refused)])))
    except Exception as error:  # say what happened; the traceback goes to the log
        logger.exception("translation project build %s failed", build_id)
        with build.speaking():
            failed = gettext("The project could not be made: %(error)s") % {"error": f"{type(error).__name__}: {error}"}
        _finish(build_id, Build.State.FAILED, failed)
    else:
        units = TranslationUnit.objects.filter(project_database__project=project).count()
        databases, interactions = project.databases.count(), project.interactions.count()
        with build.speaking():
            made = gettext("Made: %(databases)s, %(units)s, %(interactions)s.") % {
                "databases": ngettext("%(count)s database", "%(count)s databases", databases) % {"count": databases},
                "units": ngettext("%(count)s unit", "%(count)s units", units) % {"count": units},
                "interactions": ngettext("%(count)s interaction", "%(count)s interactions", interactions)
                % {"count": interactions},
            }
        Build.objects.filter(pk=build_id).update(
            state=Build.State.SUCCEEDED,
            project=project,
            message=made,
            report={"project": project.pk},
            finished_at=timezone.now(),
        )
    return Build.objects.get(pk=build_id)


def _finish(build_id: int, state: str, message: str) -> None:
    Build.objects.filter(pk=build_id).update(state=state, message=message[:5000], finished_at=timezone.now())
