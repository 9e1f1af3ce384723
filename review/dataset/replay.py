"""From a dialogue's event log to what a dataset holds: user turns, the expert's messages and the SQL-grounded turns.

`dialogs.services.dialogue_turns` decides the state of each user turn (its acts, the run whose result was shared,
whether it was dropped); this module adds the text of the responses and runs and applies the dataset's rules:

- a turn's SQL is the SQL of the run whose result was shared last for it;
- a turn answered with CLARIFY and no SQL is folded into the next user turn, as the CoSQL release writes it:
  "question | clarification | answer" (a chain of clarifications folds into one turn);
- a dropped turn never reaches a dataset file, and breaks a pending clarification chain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from dialogs.models import EventKind
from dialogs.services import dialogue_turns

CLARIFY = "CLARIFY"
FOLD_SEPARATOR = " | "


class LogEvent:
    """The fields of an event a replay reads; built from `values_list` rows, which is much cheaper than models."""

    __slots__ = ("seq", "kind", "payload", "author_role", "created_at")

    def __init__(self, seq: int, kind: str, payload: dict, author_role: str, created_at: datetime):
        self.seq, self.kind, self.payload, self.author_role, self.created_at = (
            seq,
            kind,
            payload,
            author_role,
            created_at,
        )


@dataclass
class Response:
    seq: int
    text: str
    acts: list[str]
    created_at: datetime


@dataclass
class UserTurn:
    seq: int
    text: str
    created_at: datetime
    acts: list[str] | None
    dropped: bool
    run_seq: int | None  # the shared run, if any
    sql: str | None
    shown: dict | None  # the result_shared payload: what the worker saw
    responses: list[Response] = field(default_factory=list)

    @property
    def clarified(self) -> bool:
        return self.sql is None and any(CLARIFY in response.acts for response in self.responses)

    def answered_at(self) -> datetime | None:
        """When the expert first responded to this turn (None when nobody did)."""
        return self.responses[0].created_at if self.responses else None


@dataclass
class StateTurn:
    """One SQL-grounded turn of the state-tracking files: possibly several user turns folded into one."""

    turn: UserTurn  # the user turn that carries the SQL
    parts: list[str]  # question, clarification, answer, ... (one element when nothing was folded)

    @property
    def utterance(self) -> str:
        return FOLD_SEPARATOR.join(self.parts)

    @property
    def sql(self) -> str:
        return self.turn.sql or ""

    @property
    def folded(self) -> bool:
        return len(self.parts) > 1


@dataclass
class DialogueRecord:
    """A dialogue as the exporters and the statistics see it."""

    id: int
    db_id: str
    status: str
    goal_question: str
    goal_sql: str
    score: int | None
    score_comment: str
    created_at: datetime
    ended_at: datetime | None
    imported: bool
    interaction_id: int | None
    user_turns: list[UserTurn]
    messages: list[tuple[str, object]]  # ("user", UserTurn) | ("sql", dict) | ("response", Response) | ("drop", str)
    runs: list[dict]  # every SQL run: {"seq", "turn", "sql", "ok", "row_count", "shared"}
    annotations: dict[int, object]  # utterance seq -> review.models.TurnAnnotation
    events: list[LogEvent]

    def state_turns(self) -> list[StateTurn]:
        """The SQL-grounded turns in order, with clarification exchanges folded into the turn they resolve."""
        folded: list[StateTurn] = []
        pending: list[str] = []
        for turn in self.user_turns:
            if turn.dropped:
                pending = []
                continue
            if turn.sql is not None:
                folded.append(StateTurn(turn=turn, parts=[*pending, turn.text]))
                pending = []
            elif turn.clarified:
                clarification = next(r.text for r in turn.responses if CLARIFY in r.acts)
                pending = [*pending, turn.text, clarification]
            else:
                pending = []
        return folded

    def message_count(self) -> int:
        """Messages in the sense of the CoSQL paper's turn count: user utterances plus the expert's responses and
        warnings (result tables travel with a response and are not counted apart)."""
        return sum(1 for kind, _ in self.messages if kind in ("user", "response", "drop"))


def dialogue_replay(
    *,
    dialogue,
    events: list[LogEvent],
    annotations: dict[int, object] | None = None,
    imported: bool = False,
    interaction_id: int | None = None,
) -> DialogueRecord:
    """Replay one dialogue's log (events in sequence order) into a DialogueRecord. No database access: the caller
    passes the dialogue with its database and goal already loaded, and its events."""
    states = dialogue_turns(dialogue, events)
    runs_by_seq: dict[int, LogEvent] = {}
    turns: dict[int, UserTurn] = {}
    messages: list[tuple[str, object]] = []
    runs: list[dict] = []
    shared_seqs: set[int] = set()
    for event in events:
        kind, payload = event.kind, event.payload
        if kind == EventKind.UTTERANCE:
            state = states[event.seq]
            turn = UserTurn(
                seq=event.seq,
                text=payload["text"],
                created_at=event.created_at,
                acts=state.user_acts,
                dropped=state.dropped,
                run_seq=state.shared_run,
                sql=None,
                shown=None,
            )
            turns[event.seq] = turn
            messages.append(("user", turn))
        elif kind == EventKind.SQL_RUN:
            runs_by_seq[event.seq] = event
        elif kind == EventKind.RESULT_SHARED:
            shared_seqs.add(payload["run"])
            turn = turns.get(payload["turn"])
            run = runs_by_seq.get(payload["run"])
            if turn is not None and run is not None and turn.run_seq == event.payload["run"]:
                # The last share of a turn wins; an earlier share of the same turn is replaced, as in the room.
                turn.sql, turn.shown = run.payload["sql"], payload
            if run is not None:
                messages.append(("sql", {"seq": event.seq, "sql": run.payload["sql"], "shown": payload}))
        elif kind == EventKind.RESPONSE:
            response = Response(seq=event.seq, text=payload["text"], acts=payload["acts"], created_at=event.created_at)
            if payload["turn"] in turns:
                turns[payload["turn"]].responses.append(response)
            messages.append(("response", response))
        elif kind == EventKind.DROP:
            messages.append(("drop", payload.get("warning", "")))
    for seq, run in runs_by_seq.items():
        result = run.payload.get("result") or {}
        runs.append(
            {
                "seq": seq,
                "turn": run.payload.get("turn"),
                "sql": run.payload["sql"],
                "ok": bool(result.get("ok")),
                "row_count": result.get("row_count", 0),
                "shared": seq in shared_seqs,
            }
        )
    return DialogueRecord(
        id=dialogue.pk,
        db_id=dialogue.database.db_id,
        status=dialogue.status,
        goal_question=dialogue.goal.question,
        goal_sql=dialogue.goal.sql,
        score=dialogue.score,
        score_comment=dialogue.score_comment,
        created_at=dialogue.created_at,
        ended_at=dialogue.ended_at,
        imported=imported,
        interaction_id=interaction_id,
        user_turns=list(turns.values()),
        messages=messages,
        runs=runs,
        annotations=annotations or {},
        events=events,
    )
