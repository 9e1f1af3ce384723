"""Goals sampled from a database's schema as a background job (docs/goals.md): an admin asks from the database's
page, the sampler runs in the background with its progress saved as it goes, and the goals it finds are kept waiting
for a person to write their question. `manage.py goals_generate` runs the same sampler in the foreground.

Where a run runs: with a broker (REDIS_URL) it is a Celery task; on the embedded defaults, where Celery is eager and
the task would run inside the request that asked for it, it runs on a thread of the server process, as pilots
(dialogs.simulated.runs) and test-suite builds do. Either way the page answers at once and follows the run.

A run ends on its own, at its time bound (GOAL_GENERATION_MAX_SECONDS) or when a person cancels it, and in each case
keeps the goals it found; between two candidates of the sampler it checks the bound, and every
GOAL_GENERATION_HEARTBEAT_SECONDS it writes its progress as a sign of life and reads a cancel (`_RunWatch`). It holds
its row through a run token, as exports do: a run whose token was replaced writes nothing more. A run with no sign of
life for GOAL_GENERATION_STALE_SECONDS was left by a stopped process; whoever reads the runs next marks it failed
(`goal_generations_fail_stale`). No transaction is held around sandbox work: the claim and the final save are short
`atomic()` blocks of their own.
"""

import logging
import random
import threading
import uuid
from datetime import timedelta
from time import monotonic

from django.conf import settings
from django.db import connection, transaction
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from annotation.goals import services
from annotation.goals.sampler import GoalSampler, SampledGoal, coverage_report, refusals_report
from annotation.models import Database, GoalGeneration, User
from annotation.people.roles import can
from annotation.sql.hardness import HARDNESS_LEVELS

logger = logging.getLogger(__name__)

# One run asks for at most this many goals: a larger set is several runs, each aiming at what the last left uncovered.
MAX_GOALS_PER_RUN = 500

# Runs on threads of this process (the embedded defaults), by id, while they run.
_threads: dict[int, threading.Thread] = {}


class GoalGenerationError(ValueError):
    """A request the platform refuses, with the reason a person reads."""


def goal_levels(levels) -> list[str]:
    """The hardness levels asked for, in the official order; refuses an unknown one or none."""
    levels = [str(level).strip() for level in levels if str(level).strip()]
    unknown = [level for level in levels if level not in HARDNESS_LEVELS]
    if unknown or not levels:
        named = ", ".join(unknown) or gettext("none")
        raise GoalGenerationError(
            gettext("Hardness levels are %(levels)s; not %(named)s.")
            % {"levels": ", ".join(HARDNESS_LEVELS), "named": named}
        )
    return [level for level in HARDNESS_LEVELS if level in levels]


def _request_checked(database: Database, count: int, levels) -> list[str]:
    """What a run may be asked for (a database with its file, 1 to MAX_GOALS_PER_RUN goals, known levels): the levels
    in order, or GoalGenerationError with the reason. Checked when a run is asked for and again when it runs."""
    if not database.has_file:
        raise GoalGenerationError(
            gettext("%(db_id)s is registered without its SQLite file: goals need its data.") % {"db_id": database.db_id}
        )
    if not 1 <= count <= MAX_GOALS_PER_RUN:
        raise GoalGenerationError(gettext("Ask for 1 to %(most)s goals at a time.") % {"most": MAX_GOALS_PER_RUN})
    return goal_levels(levels)


def goals_sample(
    *, database: Database, count: int, levels, seed: int | None, progress=None, stop=None
) -> tuple[list[SampledGoal], dict]:
    """Sample up to `count` new goals for `database` aiming at what its goal set covers least; returns them with the
    coverage report (annotation.goals.sampler.coverage_report) of the goal set before and after, and under
    "rules" what the rules refused and rewrote (goal_sampler.refusals_report). Every goal the database has, discarded
    ones too, counts as known: none is drawn again. `stop` is the sampler's (GoalSampler.sample): once it answers
    True, the goals found so far are returned."""
    levels = _request_checked(database, count, levels)
    existing = list(database.goals.values_list("sql", "hardness"))
    sampler = GoalSampler(database.schema, database.path, random.Random(seed), existing=[sql for sql, _ in existing])
    if not sampler.tables:
        raise GoalGenerationError(
            gettext("No table of %(db_id)s has rows the sandbox can read: there is nothing to sample goals from.")
            % {"db_id": database.db_id}
        )
    goals = sampler.sample(count, levels=levels, progress=progress, stop=stop)
    report = coverage_report(existing, [(goal.sql, goal.hardness) for goal in goals], database.schema)
    report["rules"] = refusals_report(sampler.refused, sampler.rules.rewritten)
    return goals, report


def _live_states() -> list[str]:
    """The states of a run some process should be giving signs of life for. A queued run counts only where runs are
    threads of the server (the embedded defaults), which start them at once; with a broker a queued run may wait for
    a free worker as long as the queue is."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return [GoalGeneration.State.QUEUED, GoalGeneration.State.RUNNING]
    return [GoalGeneration.State.RUNNING]


def goal_generations_fail_stale(*, database_id: int | None = None) -> int:
    """Mark failed every live run (of one database, or all) with no sign of life for GOAL_GENERATION_STALE_SECONDS:
    the process running it stopped (killed, restarted, out of memory) and nothing else will end it. Called wherever
    runs are read and before a new one starts. Returns how many it marked."""
    cutoff = timezone.now() - timedelta(seconds=settings.GOAL_GENERATION_STALE_SECONDS)
    runs = GoalGeneration.objects.filter(state__in=_live_states())
    if database_id is not None:
        runs = runs.filter(database_id=database_id)
    # A run from before heartbeats were written counts from when it started (or was asked for).
    stale = runs.annotate(last_sign=Coalesce("heartbeat_at", "started_at", "created_at")).filter(last_sign__lt=cutoff)
    marked = 0
    for pk, state, token, heartbeat, last_sign, language in stale.values_list(
        "pk", "state", "run_token", "heartbeat_at", "last_sign", "message_language"
    ):
        when = timezone.localtime(last_sign).strftime("%Y-%m-%d %H:%M:%S %Z")
        with translation.override(language or None):  # the language of the person who asked for the run
            if state == GoalGeneration.State.QUEUED:
                message = gettext(
                    "The process that was to run it stopped before it started (queued since %(when)s)."
                ) % {"when": when}
            else:
                message = gettext("The process running it stopped (no sign of life since %(when)s).") % {"when": when}
        # Only if nothing moved since it was read: a run that just gave a sign of life is left alone.
        marked += GoalGeneration.objects.filter(pk=pk, state=state, run_token=token, heartbeat_at=heartbeat).update(
            state=GoalGeneration.State.FAILED, message=message, finished_at=timezone.now(), run_token=""
        )
    if marked:
        logger.warning("marked %s goal generation run(s) failed: no sign of life", marked)
    return marked


def goal_generation_start(*, database: Database, person: User, count: int, levels, seed: int | None) -> GoalGeneration:
    """Ask for a run; it starts once this commits (`_dispatch`). Refuses what the run would refuse, and a second run
    on a database that has one under way, before queueing."""
    if not can(person, "goals.manage"):
        raise GoalGenerationError(gettext("Only admins generate goals."))
    levels = _request_checked(database, count, levels)
    goal_generations_fail_stale(database_id=database.pk)
    under_way = database.goal_generations.filter(
        state__in=[GoalGeneration.State.QUEUED, GoalGeneration.State.RUNNING]
    ).first()
    if under_way is not None:
        raise GoalGenerationError(
            gettext("A run of %(count)s goals is under way on %(db_id)s: wait for it to end or cancel it.")
            % {"count": under_way.count, "db_id": database.db_id}
        )
    run = GoalGeneration.objects.create(
        database=database,
        requested_by=person,
        count=count,
        progress_total=count,
        levels=levels,
        seed=seed,
        heartbeat_at=timezone.now(),
    )
    run_id = run.pk
    transaction.on_commit(lambda: _dispatch(run_id))
    return run


def _dispatch(run_id: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        thread = threading.Thread(target=_run_in_thread, args=(run_id,), name=f"goal-generation-{run_id}", daemon=True)
        _threads[run_id] = thread
        thread.start()
    else:
        from annotation.tasks import goals_generate  # the task module imports this one

        goals_generate.delay(run_id)


def _run_in_thread(run_id: int) -> None:
    try:
        goal_generation_run(run_id)
    except Exception:  # a thread has nobody to tell: the run's row says what it could, the log keeps the rest
        logger.exception("goal generation %s stopped", run_id)
    finally:
        connection.close()  # this thread's own connection: the server's threads keep theirs
        _threads.pop(run_id, None)


def goal_generation_cancel(*, generation: GoalGeneration, person: User) -> str:
    """Ask a run to stop; returns what happened, in words for the person who asked. A queued run is cancelled at
    once; a running one is marked and stops at its next check, keeping the goals it found; a run that has ended is
    left as it is (cancelling it does nothing, and says so)."""
    if not can(person, "goals.manage"):
        raise GoalGenerationError(gettext("Only admins cancel goal generation."))
    goal_generations_fail_stale(database_id=generation.database_id)
    now = timezone.now()
    with transaction.atomic():
        run = GoalGeneration.objects.select_for_update().get(pk=generation.pk)
        if run.finished:
            return gettext("That run had already ended (%(state)s): there was nothing to cancel.") % {
                "state": run.get_state_display()
            }
        if run.cancel_requested_at is not None:
            return gettext("That run was already asked to stop: it stops at its next check.")
        run.cancel_requested_at, run.cancel_requested_by = now, person
        fields = ["cancel_requested_at", "cancel_requested_by"]
        if run.state == GoalGeneration.State.QUEUED:
            # No process holds it yet; the one that picks it up finds it ended and leaves it.
            run.state, run.finished_at = GoalGeneration.State.CANCELLED, now
            with run.speaking():  # the run's page speaks the language of the person who asked for it
                run.message = gettext("Cancelled by %(person)s before it started.") % {"person": person.username}
            run.save(update_fields=[*fields, "state", "finished_at", "message"])
            return gettext("Cancelled the run before it started.")
        run.save(update_fields=fields)
    return gettext("Asked the run to stop: it stops within seconds and keeps the goals it found.")


class _RunWatch:
    """What a run checks between two candidates of the sampler (its `stop`): the time bound, and every heartbeat
    period a sign of life carrying the progress, which also finds a cancel or a row this run no longer holds."""

    BOUND, CANCELLED, LOST = "bound", "cancelled", "lost"

    def __init__(self, run: GoalGeneration, token: str) -> None:
        self.run_id, self.token = run.pk, token
        self.bound = settings.GOAL_GENERATION_MAX_SECONDS
        self.every = settings.GOAL_GENERATION_HEARTBEAT_SECONDS
        self.started = self.last_sign = monotonic()
        self.found = 0
        self.reason: str | None = None

    def progress(self, found: int) -> None:
        self.found = found

    def stop(self) -> bool:
        now = monotonic()
        if now - self.started >= self.bound:
            self.reason = self.BOUND
        elif now - self.last_sign >= self.every:
            self.last_sign = now
            self.reason = self._sign_of_life()
        return self.reason is not None

    def _sign_of_life(self) -> str | None:
        held = GoalGeneration.objects.filter(pk=self.run_id, run_token=self.token, state=GoalGeneration.State.RUNNING)
        sign = {"heartbeat_at": timezone.now(), "progress_done": self.found}
        if held.filter(cancel_requested_at__isnull=True).update(**sign):
            return None
        return self.CANCELLED if held.update(**sign) else self.LOST


def goal_generation_run(generation_id: int) -> None:
    """The background job's body: take the run, sample with its checks (`_RunWatch`), then keep the goals it found
    and the report, whether it ended on its own, at its time bound or cancelled. A run already ended (a redelivered
    task) is left as it is; a run whose row another run took over stops without writing."""
    token = uuid.uuid4().hex
    now = timezone.now()
    with transaction.atomic():
        run = GoalGeneration.objects.select_for_update().select_related("database").filter(pk=generation_id).first()
        if run is None or run.finished:
            return
        if run.cancel_requested_at is not None:  # asked to stop while no process held it (its task is redelivered)
            run.state, run.finished_at, run.run_token = GoalGeneration.State.CANCELLED, now, ""
            with run.speaking():
                run.message = gettext("Cancelled before it started again.")
            run.save(update_fields=["state", "finished_at", "run_token", "message"])
            return
        run.state, run.started_at, run.progress_done = GoalGeneration.State.RUNNING, now, 0
        run.run_token, run.heartbeat_at = token, now
        run.save(update_fields=["state", "started_at", "progress_done", "run_token", "heartbeat_at"])

    watch = _RunWatch(run, token)
    held = GoalGeneration.objects.filter(pk=run.pk, run_token=token, state=GoalGeneration.State.RUNNING)
    with run.speaking():  # its refusals and messages in the language of the person who asked (docs/i18n.md)
        _sample_and_keep(run, watch, held)


def _sample_and_keep(run: GoalGeneration, watch: _RunWatch, held) -> None:
    try:
        goals, report = goals_sample(
            database=run.database,
            count=run.count,
            levels=run.levels,
            seed=run.seed,
            progress=watch.progress,
            stop=watch.stop,
        )
        if watch.reason == _RunWatch.LOST:
            logger.info("goal generation %s: another run took it over or it was failed; this one stops", run.pk)
            return
        state, message = _outcome(run, watch, found=len(goals))
        with transaction.atomic():
            saved = services.goals_save_sampled(database=run.database, goals=goals)
            ended = held.update(
                state=state,
                progress_done=len(goals),
                saved=saved,
                report=report,
                message=message,
                finished_at=timezone.now(),
                heartbeat_at=timezone.now(),
            )
            if not ended:  # lost the row since the last check: what this run found is not the row's to keep
                transaction.set_rollback(True)
    except Exception as exc:  # the person who asked reads why; the log keeps the traceback
        logger.exception("goal generation %s failed", run.pk)
        reason = (
            str(exc)
            if isinstance(exc, GoalGenerationError)
            else gettext("The sampler stopped: %(error)s") % {"error": exc}
        )
        held.update(state=GoalGeneration.State.FAILED, message=reason[:2000], finished_at=timezone.now())


def _outcome(run: GoalGeneration, watch: _RunWatch, *, found: int) -> tuple[str, str]:
    """The state a run that kept its goals ends in, and the message its page shows."""
    of = ngettext("%(found)s of %(count)s goal", "%(found)s of %(count)s goals", run.count) % {
        "found": found,
        "count": run.count,
    }
    if watch.reason == _RunWatch.CANCELLED:
        who = GoalGeneration.objects.filter(pk=run.pk).values_list("cancel_requested_by__username", flat=True).first()
        if who:
            message = gettext("Cancelled by %(person)s with %(found)s found; what it found is kept.")
        else:
            message = gettext("Cancelled with %(found)s found; what it found is kept.")
        return GoalGeneration.State.CANCELLED, message % {"person": who, "found": of}
    if watch.reason == _RunWatch.BOUND:
        return (
            GoalGeneration.State.SUCCEEDED,
            gettext(
                "Stopped after %(seconds)s s (GOAL_GENERATION_MAX_SECONDS) with %(found)s found; what it found is kept."
            )
            % {"seconds": watch.bound, "found": of},
        )
    if found < run.count:
        return GoalGeneration.State.SUCCEEDED, gettext("The database gave no more goals of the levels asked for.")
    return GoalGeneration.State.SUCCEEDED, ""
