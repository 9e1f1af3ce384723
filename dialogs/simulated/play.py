"""The two sides of a simulated dialogue, over `dialogs.simulated.client` (docs/simulated_worker.md).

The worker asks its way toward the goal (`questions.scripted_questions`, or a model's question at each step when a
model is configured), waits for each answer, takes the platform's suggestion for the next question some of the time
(seeded), and ends once the minimum is answered and the goal question has been asked, or its questions run out. Every
question passes the leak guard; each utterance says where it came from (`simulated`: mode, step, model and prompt
version, guard hits), which the room stores with the utterance when the dialogue is simulated.

The scripted expert labels each question INFORM_SQL, runs the step's SQL (the goal's when the step has none or its
SQL fails), shares the result, answers with the draft the platform offers (CONFIRM_SQL), and scores the worker at the
end. The worker scores nothing: that is the expert's.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext

from dialogs.simulated.client import Refused, RoomSocket, SimulationError, client_id, is_event, is_state
from dialogs.simulated.questions import (
    MODEL_PROMPT_VERSION,
    Question,
    leak_reasons,
    model_messages,
    model_question_text,
    schema_names_used,
    scripted_questions,
    suggestion_question,
)

# How long the worker looks for the platform's suggestion after an answer before asking its own next question: the
# suggestion is worked out after the answer is passed on (docs/protocol.md), a moment later.
SUGGESTION_WAIT_SECONDS = 5.0
# How long the scripted expert waits for the platform's draft response after sharing a result.
DRAFT_WAIT_SECONDS = 15.0
FALLBACK_ANSWER = "Here is the result of your question."
SCRIPTED_SCORE = 4


@dataclass
class Goal:
    question: str
    sql: str
    schema: dict | None


@dataclass
class WorkerOutcome:
    dialogue: int
    status: str = ""
    questions: list[dict] = field(default_factory=list)  # {step, mode, text}
    answered: int = 0
    suggestions_followed: int = 0
    guard_hits: int = 0
    error: str = ""

    def as_dict(self) -> dict:
        return {
            "dialogue": self.dialogue,
            "status": self.status,
            "questions": len(self.questions),
            "answered": self.answered,
            "suggestions_followed": self.suggestions_followed,
            "guard_hits": self.guard_hits,
            "error": self.error,
        }


ModelAsk = Callable[[list[dict]], "tuple[str, str]"]  # messages -> (reply text, model name); blocking


def _worker_event(frame: dict, turn: int) -> bool:
    if frame.get("type") != "event":
        return False
    payload = frame.get("payload") or {}
    return frame["kind"] == "end" or (frame["kind"] in ("response", "drop") and payload.get("turn") == turn)


@dataclass
class _WorkerScript:
    """What the simulated worker keeps between its questions (play_worker)."""

    goal: Goal
    plan: list[Question]
    names_used: list
    rng: random.Random
    follow_suggestions: float
    model_ask: ModelAsk | None
    outcome: WorkerOutcome
    history: list[tuple[str, str]] = field(default_factory=list)
    suggestion: str | None = None
    shown: list[str] = field(default_factory=list)  # every suggestion shown: the words it names are the worker's
    dropped: list[str] = field(default_factory=list)  # why the last suggestion taken did not pass the guard
    asked_goal: bool = False
    position: int = 0

    def guarded(self, text: str) -> list[str]:
        goal = self.goal
        return leak_reasons(text, goal_question=goal.question, goal_sql=goal.sql, schema=goal.schema, shown=self.shown)

    def suggested(self) -> tuple[str, dict] | None:
        """The suggestion, when the worker takes it (seeded) and it passes the guard; None otherwise. A suggestion
        the guard stops is said (`dropped`) with the next question, which is the script's."""
        if self.suggestion is None or self.asked_goal or self.rng.random() >= self.follow_suggestions:
            return None
        text = suggestion_question(self.suggestion)
        hits = self.guarded(text) if text else ["empty"]
        self.suggestion = None
        if hits:
            self.outcome.guard_hits += 1
            self.dropped = hits[:5]
            return None
        step = self.plan[self.position].step if self.position < len(self.plan) else "more"
        self.outcome.suggestions_followed += 1
        return text, {"mode": "suggestion", "step": step}

    async def next_question(self) -> tuple[str, dict] | None:
        """The next question and where it came from; None when the script's questions ran out."""
        taken = self.suggested()
        if taken is None and self.position >= len(self.plan):
            return None
        if taken is None:
            question = self.plan[self.position]
            self.position += 1
            taken = await _question_for(
                question, self.goal, self.names_used, self.history, self.model_ask, self.guarded, self.outcome
            )
        text, origin = taken
        self.suggestion = None
        if self.dropped and "guard" not in origin:
            origin = {**origin, "guard": ["suggestion", *self.dropped]}
        self.dropped = []
        self.asked_goal = self.asked_goal or origin["step"] == "goal"
        return text, origin

    async def suggestion_after(self, room: RoomSocket, turn: int) -> None:
        """The platform's suggestion after the answer to `turn`, when it comes in time (kept for the next question)."""
        if self.follow_suggestions <= 0:
            return
        try:
            found = await room.next(
                is_event("recommendation", turn=turn), gettext("a suggestion"), timeout=SUGGESTION_WAIT_SECONDS
            )
        except SimulationError:
            self.suggestion = None
            return
        self.suggestion = found["payload"].get("text")
        if self.suggestion:
            self.shown.append(self.suggestion)


async def play_worker(
    room: RoomSocket,
    goal: Goal,
    *,
    rng: random.Random,
    follow_suggestions: float,
    model_ask: ModelAsk | None = None,
) -> WorkerOutcome:
    """Hold the worker's side of the dialogue until it ends; see the module's docstring."""
    outcome = WorkerOutcome(dialogue=room.dialogue)
    state = await room.next(is_state, gettext("the room's state"))
    if state["status"] not in ("waiting", "active"):
        outcome.status = state["status"]
        return outcome
    if state["status"] == "waiting":
        await room.next(is_event("join", author_role="expert"), gettext("the expert"))
    min_questions = int(state.get("min_questions") or 1)
    script = _WorkerScript(
        goal=goal,
        plan=scripted_questions(
            goal_question=goal.question, goal_sql=goal.sql, schema=goal.schema, min_questions=min_questions
        ),
        names_used=schema_names_used(goal.question, goal.schema),
        rng=rng,
        follow_suggestions=follow_suggestions,
        model_ask=model_ask,
        outcome=outcome,
    )
    while not (script.asked_goal and outcome.answered >= min_questions):
        asked = await script.next_question()
        if asked is None:
            break  # the questions ran out before the goal was reached
        text, origin = asked
        turn = await room.post({"type": "utterance", "id": client_id("u"), "text": text, "simulated": origin})
        outcome.questions.append({"step": origin["step"], "mode": origin["mode"], "text": text})
        answer = await room.next(
            lambda frame, t=turn: _worker_event(frame, t), gettext("the answer to turn %(turn)s") % {"turn": turn}
        )
        if answer["kind"] == "end":
            outcome.status = answer["payload"].get("status", "")
            return outcome
        if answer["kind"] == "response":
            outcome.answered += 1
            script.history.append((text, answer["payload"].get("text", "")))
            await script.suggestion_after(room, turn)
    try:
        await room.post({"type": "end", "id": client_id("end")})
    except Refused as refused:
        outcome.error = gettext("could not end: %(error)s") % {"error": refused}
        return outcome
    end = await room.next(is_event("end"), gettext("the end of the dialogue"))
    outcome.status = end["payload"].get("status", "")
    return outcome


async def _question_for(question: Question, goal: Goal, names_used, history, model_ask, guarded, outcome):
    """The step's question: the model's when one is configured and its question passes the guard, else the script's.
    The goal step is always the goal question itself."""
    origin = {"mode": "scripted", "step": question.step}
    if model_ask is None or question.step == "goal":
        return question.text, origin
    messages = model_messages(goal_question=goal.question, names_used=names_used, history=history)
    try:
        reply, model = await asyncio.to_thread(model_ask, messages)
    except Exception as error:  # the model's failure is the script's turn, never the dialogue's end
        return question.text, {**origin, "model_error": str(getattr(error, "code", "")) or type(error).__name__}
    text = model_question_text(reply)
    hits = guarded(text) if text else ["empty"]
    if hits:
        outcome.guard_hits += 1
        return question.text, {**origin, "model": model, "prompt_version": MODEL_PROMPT_VERSION, "guard": hits[:5]}
    return text, {"mode": "model", "step": question.step, "model": model, "prompt_version": MODEL_PROMPT_VERSION}


def _question_or_end(frame: dict) -> bool:
    """The worker's next question, or the end of the dialogue (whoever ended it)."""
    if frame.get("type") != "event":
        return False
    return frame["kind"] == "end" or (frame["kind"] == "utterance" and frame.get("author_role") == "worker")


async def play_expert(room: RoomSocket, *, step_sql: Callable[[str | None], str | None]) -> int:
    """Answer every question until the dialogue ends, then score; the number of questions answered.

    `step_sql(step)` gives the SQL for a simulated question's step (None: the goal's)."""
    state = await room.next(is_state, gettext("the room's state"))
    goal_sql = state.get("goal_sql") or ""
    answered = 0
    while True:
        frame = await room.next(_question_or_end, gettext("a question or the end"))
        if frame["kind"] == "end":
            break
        turn = frame["seq"]
        step = (frame["payload"].get("simulated") or {}).get("step")
        await room.post({"type": "user_acts", "id": client_id("acts"), "turn": turn, "acts": ["INFORM_SQL"]})
        result_run = None
        for sql in dict.fromkeys(filter(None, (step_sql(step), goal_sql))):
            run = await room.post({"type": "sql_run", "id": client_id("sql"), "turn": turn, "sql": sql})
            ran = await room.next(is_event("sql_run", seq=run), gettext("the run %(run)s") % {"run": run})
            if ran["payload"]["result"].get("ok"):
                result_run = run
                break
        if result_run is None:
            await room.post({"type": "drop", "id": client_id("drop"), "turn": turn, "warning": "I could not answer."})
            continue
        await room.post({"type": "share_result", "id": client_id("share"), "turn": turn, "run": result_run})
        try:
            labels = await room.next(
                lambda f, t=turn: is_event("turn_labels", turn=t)(f) and f["payload"].get("source") == "detected",
                gettext("the draft answer"),
                timeout=DRAFT_WAIT_SECONDS,
            )
            text = labels["payload"].get("draft") or FALLBACK_ANSWER
        except SimulationError:
            text = FALLBACK_ANSWER
        await room.post(
            {"type": "response", "id": client_id("resp"), "turn": turn, "text": text, "acts": ["CONFIRM_SQL"]}
        )
        answered += 1
    await room.post({"type": "score", "id": client_id("score"), "score": SCRIPTED_SCORE, "comment": "Scripted expert."})
    return answered
