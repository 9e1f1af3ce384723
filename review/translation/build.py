"""The making of a translation project as a background job (docs/translation.md): a large release's files take tens
of seconds to read, which no request should wait for.

Claimed in a short transaction; each database's file read (its names and text values) and the release's dialogues
replayed outside any, progress written after each; a time bound (TRANSLATION_PROJECT_MAX_SECONDS) and a cancel read
between steps; then the project written in one transaction of writes only (review.translation.services.project_write).
Nothing of the project exists unless the job finishes.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from review.translation import runs, services, source
from review.translation.models import TranslationProjectBuild, TranslationUnit

logger = logging.getLogger(__name__)
Build = TranslationProjectBuild


def _run(build: TranslationProjectBuild) -> runs.Run:
    return runs.Run(
        build,
        max_seconds=settings.TRANSLATION_PROJECT_MAX_SECONDS,
        setting="TRANSLATION_PROJECT_MAX_SECONDS",
        out_of_time=gettext_lazy("Stopped after %(seconds)s s (%(setting)s): no project was made."),
        cancelled=gettext_lazy("Cancelled: no project was made."),
    )


def _make(build: TranslationProjectBuild, run: runs.Run):
    admin = build.requested_by
    with build.speaking():  # its refusals, in the language of the person who asked
        release, wanted, databases = services.project_request(
            admin=admin, name=build.name, release_key=build.release_key, db_ids=build.db_ids, split=build.split
        )
    total = len(databases) + 1  # each file, then the dialogues' replay
    run.progress(0, total)
    read = {}
    for done, database in enumerate(databases, 1):
        read[database.pk] = services.read_database(database)
        run.progress(done, total)
    interactions = source.release_interactions(release, wanted)
    run.progress(total, total)
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
    build = runs.claim(Build, build_id, max_seconds=settings.TRANSLATION_PROJECT_MAX_SECONDS)
    if build is None:
        return Build.objects.get(pk=build_id)
    try:
        project = _make(build, _run(build))
    except runs.Stopped as stopped:
        state = Build.State.CANCELLED if stopped.cancelled else Build.State.FAILED
        runs.finish(Build, build_id, state, str(stopped))
    except (ValidationError, PermissionDenied) as refused:  # the release or a file went away since it was asked
        runs.finish(Build, build_id, Build.State.FAILED, " ".join(getattr(refused, "messages", [str(refused)])))
    except Exception as error:  # say what happened; the traceback goes to the log
        logger.exception("translation project build %s failed", build_id)
        with build.speaking():
            failed = gettext("The project could not be made: %(error)s") % {"error": f"{type(error).__name__}: {error}"}
        runs.finish(Build, build_id, Build.State.FAILED, failed)
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
