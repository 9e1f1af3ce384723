"""Practice dialogues (docs/experts.md): an expert answers the simulated worker (docs/simulated_worker.md) on a goal
kept for practice, in a real room, and sees afterwards how each answer compared with the gold.

The simulated worker asks the goal's scripted questions (no model, no suggestions followed: every expert meets the
same questions for a goal), each of which carries the SQL of its result: that is the gold of the turn. The plan is
kept with the dialogue when it begins (`PracticeDialogue.plan`). Once the dialogue has ended, each planned question is
scored (`practice_score`): the SQL of the result the expert shared compared with the gold on the database's test suite
(on the database alone while its suite is not built: `annotation.suites.checks.suite_check`), and the acts the expert
gave compared with the ones a scripted question calls for (INFORM_SQL, answered with CONFIRM_SQL). A question never
asked, or never answered with a result, counts as not equivalent. The comparisons run in no transaction.

A practice dialogue is marked (`Dialogue.practice`, and `simulated`: its worker is a script) and is never data:
review, releases and statistics leave it out (review.passes.services.NOT_FOR_REVIEW, review.records), pairing never
hands out a practice goal (dialogs.lobby), and no campaign counts it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from annotation.models import Goal, Role, User
from annotation.people.roles import can
from annotation.suites.checks import SuiteCheckError, checked_on_text, suite_check
from dialogs.log import LogEvent, dialogue_replay
from dialogs.models import ENDED_STATUSES, Dialogue, DialogueStatus, EventKind
from dialogs.onboarding.guidelines import guidelines_unread
from dialogs.onboarding.models import PracticeDialogue, PracticeGoal
from dialogs.onboarding.qualification import expert_qualification_refresh
from dialogs.simulated import play
from dialogs.simulated.client import RoomSocket
from dialogs.simulated.questions import scripted_questions
from dialogs.simulated.runs import session_cookie

logger = logging.getLogger(__name__)

# The acts a scripted question calls for: it asks for data (INFORM_SQL), and the answer confirms the SQL with its
# result (CONFIRM_SQL), as CoSQL's response guide has it.
EXPECTED_USER_ACTS = ["INFORM_SQL"]
EXPECTED_SYSTEM_ACTS = ["CONFIRM_SQL"]
# A person learning takes their time over a question: the simulated worker waits this long for each answer (the
# pilots' scripted expert answers in seconds), and gives the whole dialogue this long.
ANSWER_WAIT_SECONDS = 20 * 60
PRACTICE_TIME_LIMIT_SECONDS = 2 * 60 * 60
# The script's follow-ups that only fill the minimum (dialogs.simulated.questions: "more-1", ...).
FILLER_STEP = "more-"


class PracticeRefused(ValueError):
    """A practice dialogue that cannot begin; the message says why."""


def practice_goals():
    """The goals kept for practice that can be played: active, with a question, on an active database."""
    return (
        Goal.objects.filter(practice_mark__isnull=False, active=True, database__active=True)
        .exclude(question="")
        .exclude(database__file="")
    )


def practice_goal_choose(expert: User) -> Goal | None:
    """The practice goal `expert` has practised least (a new one first), then the oldest."""
    return (
        practice_goals()
        .annotate(mine=Count("dialogues", filter=Q(dialogues__expert=expert, dialogues__practice=True)))
        .select_related("database")
        .order_by("mine", "id")
        .first()
    )


def practice_open(expert: User) -> Dialogue | None:
    """The expert's practice dialogue under way, if any."""
    return (
        Dialogue.objects.filter(
            expert=expert, practice=True, status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE]
        )
        .order_by("-id")
        .first()
    )


def practice_account(expert: User) -> User:
    """The simulated worker who practises with `expert`: `sim-practice-<expert id>`, made on first use with no usable
    password and the tutorial counted as passed, like the pilots' accounts (dialogs.simulated.runs)."""
    username = f"sim-practice-{expert.pk}"
    person = User.objects.filter(username=username).first()
    if person is None:
        person = User(username=username, role=Role.WORKER, simulated=True, tutorial_passed_at=timezone.now())
        person.set_unusable_password()
        person.save()
    elif not person.simulated:
        raise PracticeRefused(
            gettext("%(name)s is an account of a person: an admin must rename it before practice.") % {"name": username}
        )
    return person


def practice_plan(goal: Goal) -> list[dict]:
    """The questions the simulated worker will ask on `goal`, each with its gold query (the SQL of its result). A
    follow-up the script adds only to reach the minimum ("How many of them are there?") carries the rows asked about
    so far, not an answer to its own words: it is asked and its acts are checked, but its SQL is not scored.
    PracticeRefused when the goal's questions cannot be written."""
    try:
        questions = scripted_questions(
            goal_question=goal.question,
            goal_sql=goal.sql,
            schema=goal.database.schema,
            min_questions=settings.DIALOGUE_MIN_QUESTIONS,  # a chat's minimum: the simulated worker reads the room's
        )
    except Exception as exc:  # the script reads any goal's SQL; one it cannot read is no practice goal
        logger.warning("no practice questions for goal %s: %r", goal.pk, exc)
        raise PracticeRefused(
            gettext("The simulated worker cannot ask its way toward goal %(goal)s.") % {"goal": goal.pk}
        ) from exc
    if not questions:
        raise PracticeRefused(
            gettext("The simulated worker has no question to ask for goal %(goal)s.") % {"goal": goal.pk}
        )
    return [
        {
            "step": item.step,
            "text": item.text,
            "sql": item.sql or goal.sql,
            "scored": not item.step.startswith(FILLER_STEP),
        }
        for item in questions
    ]


def practice_start(*, expert: User, server_url: str) -> Dialogue:
    """Begin a practice dialogue for `expert` with the simulated worker, on the practice goal they have practised
    least; the one under way when there is one. The simulated worker joins the room from a background job once this
    commits (a Celery task with a broker; a thread of the server on the embedded defaults), as a client of the
    platform at `server_url`. PracticeRefused: no permission, guidelines not read yet, or no practice goal."""
    if not can(expert, "chat.as_expert"):
        raise PracticeRefused(gettext("Your account may not take dialogues."))
    if guidelines_unread(expert) is not None:
        raise PracticeRefused(gettext("Read the guidelines and confirm them first: practice follows them."))
    under_way = practice_open(expert)
    if under_way is not None:
        return under_way
    goal = practice_goal_choose(expert)
    if goal is None:
        raise PracticeRefused(gettext("There is no practice goal yet: an admin chooses them on the experts' page."))
    plan = practice_plan(goal)
    worker = practice_account(expert)
    with transaction.atomic():
        dialogue = Dialogue.objects.create(
            database_id=goal.database_id,
            database_version=goal.database.current_version,
            goal=goal,
            worker=worker,
            expert=expert,
            simulated=True,
            practice=True,
        )
        PracticeDialogue.objects.create(dialogue=dialogue, plan=plan)
        dialogue_id, url = dialogue.pk, server_url.rstrip("/")
        transaction.on_commit(lambda: _dispatch(dialogue_id, url))
    return dialogue


def _dispatch(dialogue_id: int, server_url: str) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # An eager task would hold the request for the whole dialogue: a thread of the server plays it instead.
        threading.Thread(
            target=_play_in_thread, args=(dialogue_id, server_url), name=f"practice-{dialogue_id}", daemon=True
        ).start()
    else:
        from dialogs.tasks import practice_play as task

        task.delay(dialogue_id, server_url)


def _play_in_thread(dialogue_id: int, server_url: str) -> None:
    try:
        practice_play(dialogue_id=dialogue_id, server_url=server_url)
    finally:
        connection.close()  # this thread's own connection: the server's threads keep theirs


def practice_play(*, dialogue_id: int, server_url: str) -> None:
    """Play the simulated worker's side of a practice dialogue until it ends, then score it. A failure is logged: the
    room then ends as any room whose worker left, and the expert begins another."""
    dialogue = Dialogue.objects.select_related("goal", "database", "worker").get(pk=dialogue_id)
    if dialogue.is_over:
        return
    goal = play.Goal(question=dialogue.goal.question, sql=dialogue.goal.sql, schema=dialogue.database.schema)
    cookie = session_cookie(dialogue.worker)

    async def worker_side():
        room = RoomSocket(server_url, dialogue_id, cookie, reply_timeout=ANSWER_WAIT_SECONDS)
        await room.start()
        try:
            async with asyncio.timeout(PRACTICE_TIME_LIMIT_SECONDS):
                # The script alone (no model, no suggestion taken): the questions the plan holds, in its order.
                return await play.play_worker(room, goal, rng=random.Random(dialogue_id), follow_suggestions=0.0)
        finally:
            await room.close()

    try:
        asyncio.run(worker_side())
    except Exception:
        logger.exception("the simulated worker of practice dialogue %s stopped", dialogue_id)
    try:
        practice_score(dialogue_id=dialogue_id)
    except PracticeRefused:
        pass  # not ended yet (the worker's side stopped early): scored when the expert's pages ask
    except Exception:
        logger.exception("practice dialogue %s could not be scored", dialogue_id)


# --- Scoring ---------------------------------------------------------------------------------------------------------


def _steps(events: list[LogEvent]) -> dict[int, str]:
    """Each simulated question's step, by its sequence number (the room keeps it with a simulated dialogue's
    utterances: dialogs.log.utterance_payload)."""
    return {
        event.seq: (event.payload.get("simulated") or {}).get("step", "")
        for event in events
        if event.kind == EventKind.UTTERANCE
    }


def _turn_score(database, planned: dict, turn) -> dict:
    """One planned question: what the expert gave for it, the gold, and how they compare."""
    score = {
        "step": planned["step"],
        "question": turn.text if turn is not None else planned["text"],
        "asked": turn is not None,
        "gold_sql": planned["sql"],
        "sql": turn.sql if turn is not None else None,
        "user_acts": list(turn.acts or []) if turn is not None else [],
        "system_acts": list(turn.response.acts) if turn is not None and turn.response else [],
        "expected_user_acts": EXPECTED_USER_ACTS,
        "expected_system_acts": EXPECTED_SYSTEM_ACTS,
        "equivalent": False,
        "counts": True,
    }
    score["acts_right"] = sorted(score["user_acts"]) == sorted(EXPECTED_USER_ACTS) and sorted(
        score["system_acts"]
    ) == sorted(EXPECTED_SYSTEM_ACTS)
    if not planned.get("scored", True):
        score.update(counts=False, gold_sql="", note="a follow-up that only keeps the dialogue going: not scored")
    elif turn is None:
        score["note"] = "never asked: the dialogue ended before this question"
    elif turn.dropped:
        score["note"] = "dropped"
    elif not turn.sql:
        score["note"] = "no result was shared for this question"
    else:
        try:
            check = suite_check(database, planned["sql"], turn.sql)
        except SuiteCheckError as exc:
            # The gold itself cannot be checked (it fails, or there is no file): the question does not count.
            score.update(counts=False, note=f"could not be compared: {exc}")
        else:
            score["equivalent"] = check["equivalent"]
            score["checked_on"] = checked_on_text(check)
            if "counterexample" in check:
                score["counterexample"] = check["counterexample"]
    return score


def practice_score(*, dialogue_id: int) -> PracticeDialogue:
    """Score an ended practice dialogue against its plan (once: a scored one is returned as it is), then bring the
    expert's qualification up to date. The comparisons run first, in no transaction (the sandbox's rule); the scores
    are then written in a short one. PracticeRefused while the dialogue is under way."""
    record = PracticeDialogue.objects.select_related("dialogue__database", "dialogue__goal", "dialogue__expert").get(
        dialogue_id=dialogue_id
    )
    if record.scored_at is not None:
        return record
    dialogue = record.dialogue
    if not dialogue.is_over:
        raise PracticeRefused(gettext("The practice dialogue is still under way."))
    rows = dialogue.events.order_by("seq").values_list("seq", "kind", "payload", "author_role", "created_at")
    events = [LogEvent(*row) for row in rows]
    turns = dialogue_replay(dialogue=dialogue, events=events).user_turns
    steps = _steps(events)
    by_step: dict[str, object] = {}
    for turn in turns:
        by_step.setdefault(steps.get(turn.seq, ""), turn)
    scores = [_turn_score(dialogue.database, planned, by_step.get(planned["step"])) for planned in record.plan]
    counted = [score for score in scores if score["counts"]]
    with transaction.atomic():
        locked = PracticeDialogue.objects.select_for_update().get(pk=record.pk)
        if locked.scored_at is None:
            locked.turns = scores
            locked.questions = len(counted)
            locked.equivalent = sum(1 for score in counted if score["equivalent"])
            locked.acts_right = sum(1 for score in scores if score["acts_right"])
            locked.scored_at = timezone.now()
            locked.save(update_fields=["turns", "questions", "equivalent", "acts_right", "scored_at"])
    expert_qualification_refresh(dialogue.expert)
    return locked


def practice_scored_now(expert: User) -> None:
    """Score the expert's ended practice dialogues that have no score yet (the simulated worker's job scores each one
    when it ends; this catches one whose job stopped). Called by pages, outside any transaction."""
    waiting = PracticeDialogue.objects.filter(
        dialogue__expert=expert, scored_at__isnull=True, dialogue__status__in=list(ENDED_STATUSES)
    ).values_list("dialogue_id", flat=True)
    for dialogue_id in list(waiting):
        try:
            practice_score(dialogue_id=dialogue_id)
        except Exception:
            logger.exception("practice dialogue %s could not be scored", dialogue_id)


# --- The goals an admin keeps for practice ---------------------------------------------------------------------


def practice_goal_mark(*, goal: Goal, admin: User) -> PracticeGoal:
    """Keep `goal` for practice: pairing never hands it out again. Refused for a goal that cannot be practised (no
    question, inactive) or that the collection already used (its dialogues are data)."""
    if not goal.active or not goal.question:
        raise PracticeRefused(
            gettext("Goal %(goal)s is inactive or has no question yet: nobody can practise on it.") % {"goal": goal.pk}
        )
    collected = Dialogue.objects.filter(goal=goal, practice=False).count()
    if collected:
        raise PracticeRefused(
            ngettext(
                "Goal %(goal)s already has %(count)s dialogue of the collection: a practice goal must be one nobody "
                "collects on.",
                "Goal %(goal)s already has %(count)s dialogues of the collection: a practice goal must be one nobody "
                "collects on.",
                collected,
            )
            % {"goal": goal.pk, "count": collected}
        )
    practice_plan(goal)  # the simulated worker must be able to ask its way toward it
    mark, _ = PracticeGoal.objects.get_or_create(goal=goal, defaults={"marked_by": admin})
    return mark


def practice_goal_unmark(*, goal: Goal) -> None:
    """Give a practice goal back to the collection, while nobody has practised on it (a goal used for practice never
    enters the dataset)."""
    used = Dialogue.objects.filter(goal=goal, practice=True).count()
    if used:
        raise PracticeRefused(
            ngettext(
                "Goal %(goal)s was practised %(count)s time: it stays a practice goal (deactivate it on the goals "
                "page if it should no longer be used).",
                "Goal %(goal)s was practised %(count)s times: it stays a practice goal (deactivate it on the goals "
                "page if it should no longer be used).",
                used,
            )
            % {"goal": goal.pk, "count": used}
        )
    PracticeGoal.objects.filter(goal=goal).delete()
