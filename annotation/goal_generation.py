"""Goals sampled from a database's schema as a background job (docs/goals.md): an admin asks from the database's
page, the sampler runs in a Celery task with its progress saved as it goes, and the goals it finds are kept waiting
for a person to write their question. `manage.py goals_generate` runs the same sampler in the foreground."""

import logging
import random

from django.db import transaction
from django.utils import timezone

from annotation import services
from annotation.models import Database, GoalGeneration, User
from annotation.roles import can
from annotation.sql.goal_sampler import GoalSampler, SampledGoal, coverage_report
from annotation.sql.hardness import HARDNESS_LEVELS

logger = logging.getLogger(__name__)

# One run asks for at most this many goals: a larger set is several runs, each aiming at what the last left uncovered.
MAX_GOALS_PER_RUN = 500


class GoalGenerationError(ValueError):
    """A request the platform refuses, with the reason a person reads."""


def goal_levels(levels) -> list[str]:
    """The hardness levels asked for, in the official order; refuses an unknown one or none."""
    levels = [str(level).strip() for level in levels if str(level).strip()]
    unknown = [level for level in levels if level not in HARDNESS_LEVELS]
    if unknown or not levels:
        named = ", ".join(unknown) or "none"
        raise GoalGenerationError(f"Hardness levels are {', '.join(HARDNESS_LEVELS)}; not {named}.")
    return [level for level in HARDNESS_LEVELS if level in levels]


def _request_checked(database: Database, count: int, levels) -> list[str]:
    """What a run may be asked for (a database with its file, 1 to MAX_GOALS_PER_RUN goals, known levels): the levels
    in order, or GoalGenerationError with the reason. Checked when a run is asked for and again when it runs."""
    if not database.has_file:
        raise GoalGenerationError(f"{database.db_id} is registered without its SQLite file: goals need its data.")
    if not 1 <= count <= MAX_GOALS_PER_RUN:
        raise GoalGenerationError(f"Ask for 1 to {MAX_GOALS_PER_RUN} goals at a time.")
    return goal_levels(levels)


def goals_sample(
    *, database: Database, count: int, levels, seed: int | None, progress=None
) -> tuple[list[SampledGoal], dict]:
    """Sample up to `count` new goals for `database` aiming at what its goal set covers least; returns them with the
    coverage report (annotation.sql.goal_sampler.coverage_report) of the goal set before and after."""
    levels = _request_checked(database, count, levels)
    existing = list(database.goals.values_list("sql", "hardness"))
    sampler = GoalSampler(database.schema, database.path, random.Random(seed), existing=[sql for sql, _ in existing])
    if not sampler.tables:
        raise GoalGenerationError(
            f"No table of {database.db_id} has rows the sandbox can read: there is nothing to sample goals from."
        )
    goals = sampler.sample(count, levels=levels, progress=progress)
    return goals, coverage_report(existing, [(goal.sql, goal.hardness) for goal in goals], database.schema)


def goal_generation_start(*, database: Database, person: User, count: int, levels, seed: int | None) -> GoalGeneration:
    """Ask for a run; the Celery task starts once this commits. Refuses what the run would refuse, before queueing."""
    if not can(person, "goals.manage"):
        raise GoalGenerationError("Only admins generate goals.")
    levels = _request_checked(database, count, levels)
    run = GoalGeneration.objects.create(database=database, requested_by=person, count=count, levels=levels, seed=seed)
    from annotation.tasks import goals_generate  # the task module imports this one

    goals_generate.delay_on_commit(run.pk)
    return run


def goal_generation_run(generation_id: int) -> None:
    """The task's body: run the sampler, saving progress as goals are found, then keep the goals and the report.
    A run already finished (a redelivered task) is left as it is."""
    with transaction.atomic():
        run = GoalGeneration.objects.select_for_update().select_related("database").filter(pk=generation_id).first()
        if run is None or run.finished:
            return
        run.state, run.started_at, run.progress_done = GoalGeneration.State.RUNNING, timezone.now(), 0
        run.save(update_fields=["state", "started_at", "progress_done"])

    def progress(found: int) -> None:
        GoalGeneration.objects.filter(pk=run.pk).update(progress_done=found)

    try:
        goals, report = goals_sample(
            database=run.database, count=run.count, levels=run.levels, seed=run.seed, progress=progress
        )
        with transaction.atomic():
            saved = services.goals_save_sampled(database=run.database, goals=goals)
            message = "" if len(goals) == run.count else "The database gave no more goals of the levels asked for."
            GoalGeneration.objects.filter(pk=run.pk).update(
                state=GoalGeneration.State.SUCCEEDED,
                progress_done=len(goals),
                saved=saved,
                report=report,
                message=message,
                finished_at=timezone.now(),
            )
    except Exception as exc:  # the person who asked reads why; the log keeps the traceback
        logger.exception("goal generation %s failed", run.pk)
        reason = str(exc) if isinstance(exc, GoalGenerationError) else f"The sampler stopped: {exc}"
        GoalGeneration.objects.filter(pk=run.pk).update(
            state=GoalGeneration.State.FAILED, message=reason[:2000], finished_at=timezone.now()
        )
