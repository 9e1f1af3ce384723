"""A pilot by simulated workers from start to end (docs/simulated_worker.md): the accounts it plays, their sessions,
the run's row and seats, and the run itself, each worker (and scripted expert) a client of the platform at
`server_url`.

The accounts are made on demand (`sim-worker-N`, `sim-expert-N`) with no usable password: nobody signs in as them.
The run writes each one's session into the session store the platform reads, so its clients open the lobby and the
room with a session cookie, as a browser does after signing in.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from annotation.model_client import model_configured
from annotation.models import Goal, Role, User
from dialogs.models import Campaign, Dialogue, SimulationRun, SimulationSeat
from dialogs.simulated import play
from dialogs.simulated.client import RoomSocket, SimulationError, lobby_paired
from dialogs.simulated.questions import MODEL_PROMPT_VERSION, scripted_questions

logger = logging.getLogger(__name__)

MAX_WORKERS = 50
DEFAULT_TIME_LIMIT_SECONDS = 900


class SimulationRefused(ValueError):
    """A run that cannot start as asked; the message says why, for the person who asked."""


def simulated_account(*, role: str, number: int) -> User:
    """The simulated account `sim-<role>-<number>`, made on first use: no usable password, the tutorial counted as
    passed (a worker waits in the lobby only after it)."""
    username = f"sim-{role}-{number}"
    person = User.objects.filter(username=username).first()
    if person is None:
        person = User(username=username, role=role, simulated=True, tutorial_passed_at=timezone.now())
        person.set_unusable_password()
        person.save()
    elif not person.simulated:
        raise SimulationRefused(
            gettext("%(name)s is an account of a person, not a simulated one.") % {"name": username}
        )
    return person


def session_cookie(person: User) -> str:
    """A signed-in session for `person` in the platform's session store, as the Cookie header value."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(person.pk)
    # The first backend that loads a person by id (a sign-in throttle listed before it loads nobody).
    store[BACKEND_SESSION_KEY] = next(
        path for path in settings.AUTHENTICATION_BACKENDS if hasattr(load_backend(path), "get_user")
    )
    store[HASH_SESSION_KEY] = person.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def simulation_goals(*, campaign: Campaign | None = None, goal: Goal | None = None) -> list[Goal]:
    """The goals a pilot may play: the one named, or the campaign's open goals (active, with a question)."""
    if goal is not None:
        if not goal.active or goal.waiting_for_question:
            raise SimulationRefused(
                gettext("Goal %(goal)s is not open: it is inactive or still has no question.") % {"goal": goal.pk}
            )
        return [goal]
    goals = list(campaign.goal_pool().filter(active=True).exclude(question="").order_by("id"))
    if not goals:
        raise SimulationRefused(gettext("Campaign “%(name)s” has no open goals to pilot.") % {"name": campaign.name})
    return goals


def simulation_create(
    *,
    count: int,
    server_url: str,
    campaign: Campaign | None = None,
    goal: Goal | None = None,
    expert: str = SimulationRun.Expert.SCRIPTED,
    follow_suggestions: float = 0.5,
    seed: int | None = None,
    requested_by: User | None = None,
    time_limit_seconds: int = DEFAULT_TIME_LIMIT_SECONDS,
) -> SimulationRun:
    """A queued run with one seat per worker, the goals dealt round-robin; SimulationRefused for a bad request."""
    if (campaign is None) == (goal is None):
        raise SimulationRefused(gettext("Name either a campaign or a goal."))
    if not 1 <= count <= MAX_WORKERS:
        raise SimulationRefused(
            gettext("The number of simulated workers must be from 1 to %(most)s.") % {"most": MAX_WORKERS}
        )
    if not 0 <= follow_suggestions <= 1:
        raise SimulationRefused(gettext("The share of suggestions followed must be from 0 to 1."))
    if expert not in SimulationRun.Expert.values:
        raise SimulationRefused(
            gettext("The expert must be one of: %(choices)s.") % {"choices": ", ".join(SimulationRun.Expert.values)}
        )
    if not server_url.startswith(("http://", "https://")):
        raise SimulationRefused(
            gettext("The server address must start with http:// or https://, not “%(address)s”.")
            % {"address": server_url}
        )
    goals = simulation_goals(campaign=campaign, goal=goal)
    with transaction.atomic():
        run = SimulationRun.objects.create(
            campaign=campaign,
            requested_by=requested_by,
            count=count,
            progress_total=count,
            expert=expert,
            follow_suggestions=follow_suggestions,
            seed=seed,
            server_url=server_url.rstrip("/"),
            time_limit_seconds=time_limit_seconds,
        )
        busy = set(
            SimulationSeat.objects.filter(run__state__in=[SimulationRun.State.QUEUED, SimulationRun.State.RUNNING])
            .exclude(run=run)
            .values_list("worker__username", flat=True)
        )
        number = 0
        for index in range(count):
            number += 1
            while f"sim-{Role.WORKER}-{number}" in busy:
                number += 1
            worker = simulated_account(role=Role.WORKER, number=number)
            SimulationSeat.objects.create(run=run, worker=worker, goal=goals[index % len(goals)])
    return run


def _record(run_id: int, **fields) -> None:
    SimulationRun.objects.filter(pk=run_id).update(**fields)


def simulation_run(*, run_id: int) -> SimulationRun:
    """Play a queued run to its end (blocking for as long as its dialogues take, up to its time limit): each worker
    joins the lobby, is paired, and holds its dialogue; with a scripted expert, one expert account per worker answers.
    Records progress after each worker and a report at the end."""
    run = SimulationRun.objects.get(pk=run_id)
    if run.state != SimulationRun.State.QUEUED:
        return run
    # Its note (and the clients' errors it quotes, made on this thread's context) in the asker's language.
    with run.speaking():
        return _simulation_play(run)


def _simulation_play(run: SimulationRun) -> SimulationRun:
    run_id = run.pk
    _record(run_id, state=SimulationRun.State.RUNNING, started_at=timezone.now())
    seats = list(run.seats.select_related("worker", "goal__database").order_by("id"))
    workers = [(seat, session_cookie(seat.worker)) for seat in seats]
    experts = []
    if run.expert == SimulationRun.Expert.SCRIPTED:
        experts = [session_cookie(simulated_account(role=Role.EXPERT, number=n + 1)) for n in range(len(seats))]
    try:
        report = asyncio.run(_play_all(run, workers, experts))
    except Exception as error:  # the run's failure is shown on its page; the process goes on
        logger.exception("simulation %s failed", run_id)
        _record(run_id, state=SimulationRun.State.FAILED, message=str(error)[:2000], finished_at=timezone.now())
        return SimulationRun.objects.get(pk=run_id)
    failed = [item for item in report if item.get("error")]
    message = (
        ngettext(
            "%(ended)s of %(total)s simulated dialogue ended.",
            "%(ended)s of %(total)s simulated dialogues ended.",
            len(report),
        )
        % {"ended": len(report) - len(failed), "total": len(report)}
        if not failed
        else "; ".join(
            gettext("worker %(name)s: %(error)s") % {"name": item["worker"], "error": item["error"]} for item in failed
        )[:2000]
    )
    _record(
        run_id,
        state=SimulationRun.State.FAILED if failed and len(failed) == len(report) else SimulationRun.State.SUCCEEDED,
        report={"workers": report, "prompt_version": MODEL_PROMPT_VERSION if model_configured() else None},
        message=message,
        finished_at=timezone.now(),
    )
    return SimulationRun.objects.get(pk=run_id)


async def _play_all(run: SimulationRun, workers, experts) -> list[dict]:
    rng = random.Random(run.seed)
    seeds = [rng.randrange(1 << 30) for _ in workers]
    tasks = [
        _play_worker(run, seat, cookie, random.Random(seed))
        for (seat, cookie), seed in zip(workers, seeds, strict=True)
    ]
    tasks += [_play_scripted_expert(run, cookie) for cookie in experts]
    try:
        async with asyncio.timeout(run.time_limit_seconds):
            results = await asyncio.gather(*tasks, return_exceptions=True)
    except TimeoutError:
        raise SimulationError(
            gettext("the pilot did not finish within %(seconds)s s") % {"seconds": run.time_limit_seconds}
        ) from None
    report = []
    for (seat, _), result in zip(workers, results[: len(workers)], strict=True):
        if isinstance(result, BaseException):
            report.append({"worker": seat.worker.username, "goal": seat.goal_id, "error": str(result) or repr(result)})
        else:
            report.append({"worker": seat.worker.username, "goal": seat.goal_id, **result})
    for result in results[len(workers) :]:
        if isinstance(result, BaseException):
            logger.warning("a scripted expert of simulation %s stopped: %s", run.pk, result)
    return report


def _seat_paired(seat_id: int, dialogue_id: int) -> play.Goal:
    SimulationSeat.objects.filter(pk=seat_id).update(dialogue_id=dialogue_id)
    dialogue = Dialogue.objects.select_related("goal", "database").get(pk=dialogue_id)
    return play.Goal(question=dialogue.goal.question, sql=dialogue.goal.sql, schema=dialogue.database.schema)


def _worker_done(run_id: int) -> None:
    SimulationRun.objects.filter(pk=run_id).update(progress_done=F("progress_done") + 1)


async def _play_worker(run: SimulationRun, seat: SimulationSeat, cookie: str, rng: random.Random) -> dict:
    dialogue = await lobby_paired(run.server_url, cookie, role=Role.WORKER)
    goal = await sync_to_async(_seat_paired)(seat.pk, dialogue)
    room = RoomSocket(run.server_url, dialogue, cookie)
    await room.start()
    try:
        outcome = await play.play_worker(
            room, goal, rng=rng, follow_suggestions=run.follow_suggestions, model_ask=_model_ask()
        )
    finally:
        await room.close()
        await sync_to_async(_worker_done)(run.pk)
    return outcome.as_dict()


async def _play_scripted_expert(run: SimulationRun, cookie: str) -> int:
    dialogue = await lobby_paired(run.server_url, cookie, role=Role.EXPERT)
    steps = await sync_to_async(_step_sqls)(dialogue)
    room = RoomSocket(run.server_url, dialogue, cookie)
    await room.start()
    try:
        return await play.play_expert(room, step_sql=steps.get)
    finally:
        await room.close()


def _step_sqls(dialogue_id: int) -> dict[str, str]:
    """The SQL of each scripted step of the dialogue's goal: the steps the simulated worker's questions name."""
    dialogue = Dialogue.objects.select_related("goal", "database").get(pk=dialogue_id)
    questions = scripted_questions(
        goal_question=dialogue.goal.question,
        goal_sql=dialogue.goal.sql,
        schema=dialogue.database.schema,
        min_questions=settings.DIALOGUE_MIN_QUESTIONS,
    )
    return {question.step: question.sql for question in questions}


def _model_ask():
    """The blocking call that asks the model for a question, or None when no model is configured."""
    if not model_configured():
        return None
    from annotation import model_client

    def ask(messages: list[dict]) -> tuple[str, str]:
        reply = model_client.model_chat(messages, prompt_version=MODEL_PROMPT_VERSION, max_tokens=120)
        return reply.text, reply.model

    return ask


def simulation_start(**request) -> SimulationRun:
    """Queue a run (`simulation_create`'s arguments) and start it once committed, as a background job: a Celery task
    with a broker; on the embedded defaults, where Celery is eager and would run the whole pilot inside the request,
    a thread of the server's process. Either way no page waits for the dialogues."""
    run = simulation_create(**request)
    run_id = run.pk
    transaction.on_commit(lambda: _dispatch(run_id))
    return run


def _dispatch(run_id: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        threading.Thread(target=_run_in_thread, args=(run_id,), name=f"simulation-{run_id}", daemon=True).start()
    else:
        from dialogs.tasks import simulate_workers

        simulate_workers.delay(run_id)


def _run_in_thread(run_id: int) -> None:
    try:
        simulation_run(run_id=run_id)
    finally:
        connection.close()  # this thread's own connection: the server's threads keep theirs


def simulation_status(run: SimulationRun) -> dict:
    """A run's state as its page shows it (and polls it, as JSON)."""
    return run.status_json(
        count=run.count,
        dialogues=[item.get("dialogue") for item in run.report.get("workers", []) if item.get("dialogue")],
    )
