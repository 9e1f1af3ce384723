"""A dialogue's event log: the payload of every event kind, and the fold of the log into turns.

This module is the one home of both. The room writes events with these payloads (`dialogs.room`), the dataset
import writes them the same way (`review.dataset.importer`), review corrections are appended as events of their own,
and everything that reads a dialogue folds the log here:

- `turns_apply` / `dialogue_turns`: the state of each user turn that the room's rules need (acts labelled? result
  shared? answered? dropped?), applied event by event by a room socket as the log grows;
- `dialogue_replay`: the whole dialogue at its latest revision (corrections applied) with the original values and
  every correction kept beside them. The review screen, the exporters and the statistics all read this.

A correction never overwrites anything: it is an event (`correction`) naming the turn, the field, the old and the new
value, the reviewer's pass and reason. Folding the log up to any sequence number gives the dialogue as it was then.
The folds read no database: callers pass the events (any object with seq, kind, payload, author_role, created_at).

Reads that pick a value out of stored payloads in the database (a run's SQL, a correction's pass, the intent
labels collected) take it from the last section here, so that no module outside this one spells a payload's path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from difflib import SequenceMatcher

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.utils.translation import gettext

from annotation.labels.acts import AMBIGUITY_ACT_OF_TYPE, SOCIAL_USER_ACTS
from annotation.plumbing.prepared import PreparedModels
from annotation.wording.suggestions import suggestion_followed
from dialogs.models import Event, EventKind, score_drops

CLARIFY = "CLARIFY"
FOLD_SEPARATOR = " | "

# The fields of a turn a reviewer can correct, in the order the review screen shows them. The last six are the turn
# labels (LABEL_FIELDS): CHASE's, and SParC's thematic relations (docs/chase.md).
LABEL_FIELDS = (
    "intent",
    "contextual_phenomena",
    "schema_linking",
    "pragmatics",
    "question_style",
    "thematic_relations",
)
CORRECTABLE_FIELDS = ("utterance", "user_acts", "ambiguity", "query", "response", "system_acts", "drop", *LABEL_FIELDS)

# How an expert's response relates to the draft the platform offered for its turn (`draft` of the response payload).
DRAFT_KEPT, DRAFT_EDITED, DRAFT_REPLACED = "kept", "edited", "replaced"


# --- Payloads --------------------------------------------------------------------------------------------------------


class TextRefused(ValueError):
    """A text no payload may carry; `code` is the room's error code for it ("invalid" or "too_long")."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def text_checked(value, *, name: str, limit: int, required: bool = True, setting: str = "") -> str:
    """`value` as a payload carries it (stripped), or TextRefused with the reason: not a string, a NUL in it, empty
    when `required`, longer than `limit` characters. `name` is what the reason calls the text; `setting`, when given,
    names the setting the limit comes from. Every way a text enters a log (the room, an import) asks this."""
    if not isinstance(value, str):
        raise TextRefused("invalid", gettext("%(name)s must be a string.") % {"name": name})
    if "\x00" in value:
        # PostgreSQL stores no NUL in text or jsonb: the write would fail with a DataError.
        raise TextRefused("invalid", gettext("%(name)s must not contain NUL characters.") % {"name": name})
    value = value.strip()
    if required and not value:
        raise TextRefused("invalid", gettext("%(name)s must not be empty.") % {"name": name})
    if len(value) > limit:
        values = {"name": name, "limit": limit, "setting": setting}
        if setting:
            raise TextRefused(
                "too_long", gettext("%(name)s is longer than %(limit)s characters (%(setting)s).") % values
            )
        raise TextRefused("too_long", gettext("%(name)s is longer than %(limit)s characters.") % values)
    return value


# What a simulated utterance may say of where it came from (docs/simulated_worker.md), and how much of it is kept.
SIMULATED_FIELDS = ("mode", "step", "model", "prompt_version", "guard", "model_error")
_SIMULATED_TEXT_CHARS = 200


def utterance_payload(text: str, simulated: dict | None = None) -> dict:
    """A user turn; `simulated`, for a dialogue the simulated worker plays, is the origin its client sent (mode,
    step, model, prompt version, guard hits), kept to known fields and short texts. Releases read only `text`."""
    payload = {"text": text}
    if isinstance(simulated, dict):
        kept = {}
        for name in SIMULATED_FIELDS:
            value = simulated.get(name)
            if isinstance(value, str) and value:
                kept[name] = value[:_SIMULATED_TEXT_CHARS]
            elif isinstance(value, list):
                kept[name] = [str(item)[:_SIMULATED_TEXT_CHARS] for item in value[:10]]
        payload["simulated"] = kept
    return payload


def user_acts_payload(turn: int, acts: list[str], ambiguity: dict | None = None) -> dict:
    """A turn's user acts; `ambiguity` (annotation.labels.acts.check_ambiguity) only when the expert gave one."""
    payload = {"turn": turn, "acts": acts}
    if ambiguity is not None:
        payload["ambiguity"] = ambiguity
    return payload


def sql_run_payload(turn: int | None, sql: str, result: dict, model_draft: dict | None = None) -> dict:
    """`result` is the sandbox's result as a dict (SqlResult.to_dict(), plus `total_rows` when it was counted).
    `model_draft`: {event, use} when the run follows a model's SQL draft for the turn (`model_draft_use`)."""
    payload = {"turn": turn, "sql": sql, "result": result}
    if model_draft is not None:
        payload["model_draft"] = model_draft
    return payload


# A model_sql event is either the expert's request for a draft (`asked`) or the platform's answer to it, naming the
# request: the SQL the model proposed with its run (`proposed`), or why there is none (`failed`). docs/protocol.md.
MODEL_ASKED, MODEL_PROPOSED, MODEL_FAILED = "asked", "proposed", "failed"


def model_sql_asked_payload(turn: int) -> dict:
    return {"turn": turn, "state": MODEL_ASKED}


def model_sql_proposed_payload(
    *, turn: int, request: int, sql: str, result: dict, encode_error: str | None, model: str, prompt_version: str,
    seconds: float,
) -> dict:  # fmt: skip
    """`result` as a room stores a run's (bounded); `encodes` says whether Spider's format can hold the SQL, and when
    not, `encode_error` says why (it did not run, or the encoder's reason)."""
    payload = {
        "turn": turn,
        "state": MODEL_PROPOSED,
        "request": request,
        "sql": sql,
        "result": result,
        "encodes": encode_error is None,
        "model": model,
        "prompt_version": prompt_version,
        "seconds": seconds,
    }
    if encode_error is not None:
        payload["encode_error"] = encode_error
    return payload


def model_sql_failed_payload(*, turn: int, request: int, code: str, message: str, model: str, prompt_version: str):
    return {
        "turn": turn,
        "state": MODEL_FAILED,
        "request": request,
        "error": {"code": code, "message": message},
        "model": model,
        "prompt_version": prompt_version,
    }


def result_shared_payload(turn: int, run: int, result: dict) -> dict:
    """What the worker is shown of a run: the table, and how much of the whole result it is."""
    payload = {
        "turn": turn,
        "run": run,
        "columns": result["columns"],
        "rows": result["rows"],
        "row_count": result["row_count"],
        "truncated": result["truncated"],
        "total_rows": result.get("total_rows", result["row_count"]),
    }
    if not result.get("ok", True) and result.get("error"):
        # An imported release's SQL that does not run here: the log keeps both facts.
        payload["error"] = result["error"]
    return payload


def response_payload(turn: int, text: str, acts: list[str], sql_run: int | None, draft: str | None = None) -> dict:
    """`draft`: kept / edited / replaced when the platform had offered a draft for the turn (absent otherwise)."""
    payload = {"turn": turn, "text": text, "acts": acts, "sql_run": sql_run}
    if draft is not None:
        payload["draft"] = draft
    return payload


def recommendation_payload(
    turn: int, category: str, relation: str, text: str, *, columns=(), values=(), tables=()
) -> dict:
    """An intent recommended to the worker for the question after `turn` (the answered one it builds on). `columns`
    ([table, column] original names), `values` and `tables`: what the text asks the next query to use, kept (when it
    names any) so that whether the question followed it can be judged
    (`annotation.wording.suggestions.suggestion_followed`)."""
    payload = {"turn": turn, "category": category, "relation": relation, "text": text}
    named = {"columns": [list(item) for item in columns], "values": list(values), "tables": list(tables)}
    payload.update({key: items for key, items in named.items() if items})
    return payload


def turn_labels_payload(turn: int, source: str, labels: dict) -> dict:
    """CHASE labels of a user turn. `source` "detected": what the platform read from the SQL when its result was
    shared (`intent`: the relation to the previous SQL turn; `schema_linking`: proposed spans; `draft`: a draft
    response; `followed`: whether the question followed the suggestion shown before it); "expert": what the expert
    set or confirmed. A later event overrides the keys it carries."""
    return {"turn": turn, "source": source, **labels}


def drop_payload(turn: int, warning: str) -> dict:
    return {"turn": turn, "warning": warning}


def leave_payload(left_at) -> dict:
    """A side that left for good (recorded when its absence ends the dialogue): when its last socket closed."""
    return {"left_at": left_at.isoformat()}


def end_payload(status: str, reason: str, completion_code: str) -> dict:
    return {"status": status, "reason": reason, "completion_code": completion_code}


def score_payload(score: int, comment: str) -> dict:
    return {"score": score, "comment": comment, "dropped": score_drops(score)}


def correction_payload(
    *,
    turn: int,
    field: str,
    old,
    new,
    review_pass: int,
    reason: str = "",
    run: int | None = None,
    suite_check: dict | None = None,
) -> dict:
    """One reviewer's correction of one field of one user turn (`turn` is the utterance's sequence number). A query
    correction names the reviewer's run of the new SQL (`run`), whose result replaces the one the worker was shown,
    and keeps its comparison with the turn's original query on the test suite (`suite_check`, docs/review.md)."""
    if field not in CORRECTABLE_FIELDS:
        raise ValueError(f"unknown field {field!r}")  # i18n-exempt: callers check the field first (review/passes)
    payload = {"turn": turn, "field": field, "old": old, "new": new, "pass": review_pass, "reason": reason}
    if run is not None:
        payload["run"] = run
    if suite_check is not None:
        payload["suite_check"] = suite_check
    return payload


# --- The room's fold: the state each rule of the room needs -----------------------------------------------------


@dataclass
class TurnState:
    """What has happened to one user utterance so far (derived from the log, never stored)."""

    seq: int
    text: str
    acts: list | None = None  # the user acts labelled
    run_seq: int | None = None  # the run whose result was shared last (or a reviewer's run of a corrected query)
    responded: bool = False
    dropped: bool = False
    draft: str | None = None  # the draft response offered when its result was shared
    labels: dict = field(default_factory=dict)  # CHASE labels as they stand (detected, then the expert's)
    ambiguity: dict | None = None  # what is ambiguous or unanswerable (labelled with the acts; None when not said)


# --- Subsets of event kinds: what each read of the log needs of it ---------------------------------------------
# A read names the kinds it folds so that the rest (above all SQL runs, whose payloads carry result tables, the bulk
# of a log) stays in the database. Each subset is what the function named beside it reads; a kind added to its fold
# is added here.

# The kinds that change a turn's state (`turns_apply`); the others (SQL runs with their result tables, presence,
# recommendations) are not read.
TURN_KINDS = (
    EventKind.UTTERANCE,
    EventKind.USER_ACTS,
    EventKind.RESULT_SHARED,
    EventKind.RESPONSE,
    EventKind.DROP,
    EventKind.CORRECTION,
    EventKind.TURN_LABELS,
)
# The kinds a question's standing is read from (`question_counts`: its acts, the result sent, its answer, a drop, a
# reviewer's correction of those); labels are not needed to count answered questions.
QUESTION_KINDS = tuple(kind for kind in TURN_KINDS if kind != EventKind.TURN_LABELS)
# The kinds after which a room's screen state (`dialogs.selectors.dialogue_snapshot`: status, score, answered
# questions) reads differently, so a room socket that delivered one sends the state again.
STATE_CHANGING_KINDS = frozenset({EventKind.END, EventKind.SCORE, EventKind.RESPONSE})


def turns_apply(turns: dict[int, TurnState], event) -> None:
    """Apply one event (in sequence order) to the turn states: the one rule, used by the full replay below and by
    a room socket that keeps its screen's state up to date event by event."""
    payload = event.payload
    if event.kind == EventKind.UTTERANCE:
        turns[event.seq] = TurnState(seq=event.seq, text=payload["text"])
        return
    turn = turns.get(payload.get("turn"))
    if turn is None:
        return
    if event.kind == EventKind.USER_ACTS:
        turn.acts = payload["acts"]
        turn.ambiguity = payload.get("ambiguity")
    elif event.kind == EventKind.RESULT_SHARED:
        turn.run_seq = payload["run"]
    elif event.kind == EventKind.RESPONSE:
        turn.responded = True
    elif event.kind == EventKind.DROP:
        turn.dropped = True
    elif event.kind == EventKind.TURN_LABELS:
        labels_apply(turn.labels, payload)
        if payload.get("source") == "detected" and "draft" in payload:
            turn.draft = payload["draft"]
    elif event.kind == EventKind.CORRECTION:
        correction_apply(turn, payload)


def correction_apply(turn: TurnState | UserTurn, payload: dict) -> None:
    """Apply one correction payload to a turn: the one rule of what a reviewer's correction changes, for the room's
    fold (TurnState) and the whole replay (UserTurn), which keep these values under the same names. The replay then
    adds what only it keeps (`_correct`: the history, the corrected query's SQL and table, the response)."""
    name, new = payload["field"], payload["new"]
    if name == "utterance":
        turn.text = new
    elif name == "user_acts":
        turn.acts = list(new)
        if turn.ambiguity and AMBIGUITY_ACT_OF_TYPE.get(turn.ambiguity["type"]) not in turn.acts:
            turn.ambiguity = None  # the act it was a sub-type of is gone
    elif name == "ambiguity":
        turn.ambiguity = new
    elif name == "drop":
        turn.dropped = bool(new)
    elif name == "query":
        turn.run_seq = payload.get("run")
    elif name in LABEL_FIELDS:
        turn.labels[name] = new


def labels_apply(labels: dict, payload: dict) -> None:
    """Fold one turn_labels payload into a turn's labels: each label it carries replaces the one before."""
    for name in LABEL_FIELDS:
        if name in payload:
            labels[name] = payload[name]


def draft_use(draft: str | None, text: str) -> str | None:
    """Whether a response kept, edited or replaced the turn's draft (None without a draft). Edited: most of the
    draft's words are still there, in order; replaced: the expert wrote their own."""
    if not draft:
        return None
    if text.strip() == draft.strip():
        return DRAFT_KEPT
    matcher = SequenceMatcher(None, draft.split(), text.split(), autojunk=False)
    return DRAFT_EDITED if matcher.ratio() >= 0.5 else DRAFT_REPLACED


_SQL_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\w+|[^\s\w]")


def sql_tokens_normalised(sql: str) -> list[str]:
    """The tokens of `sql` as a comparison of two queries' texts reads them: spacing and line breaks ignored, words
    and keywords in lower case, quoted strings and names exactly as written, a trailing semicolon dropped."""
    tokens = [token if token[0] in "'\"`" else token.lower() for token in _SQL_TOKEN.findall(sql)]
    while tokens and tokens[-1] == ";":
        tokens.pop()
    return tokens


def model_draft_use(draft_sql: str, sql: str) -> str:
    """Whether a run kept, edited or replaced a model's SQL draft: kept when the texts are the same once normalised
    (`sql_tokens_normalised`), edited when most of the draft's tokens are still there in order, replaced otherwise.
    The server decides from the two texts, whatever a client says it loaded."""
    draft, run = sql_tokens_normalised(draft_sql), sql_tokens_normalised(sql)
    if draft == run:
        return DRAFT_KEPT
    matcher = SequenceMatcher(None, draft, run, autojunk=False)
    return DRAFT_EDITED if matcher.ratio() >= 0.5 else DRAFT_REPLACED


def turns_copy(turns: dict[int, TurnState]) -> dict[int, TurnState]:
    """A copy that another thread may read while the original goes on changing."""
    return {seq: replace(turn, labels=dict(turn.labels)) for seq, turn in turns.items()}


def dialogue_turns(dialogue, events=None) -> dict[int, TurnState]:
    """Replay the log into the state of each user turn, keyed by the utterance's sequence number."""
    if events is None:
        events = dialogue.events.filter(kind__in=TURN_KINDS).only("dialogue", "seq", "kind", "payload").order_by("seq")
    return _turns_replayed(events)


def _turns_replayed(events) -> dict[int, TurnState]:
    """The state of each user turn after `events` (in sequence order): the one replay loop of the turns."""
    turns: dict[int, TurnState] = {}
    for event in events:
        turns_apply(turns, event)
    return turns


def question_counts(turn: TurnState) -> bool:
    """Whether a user turn is a question that counts toward the minimum (and the bonus): the one rule, read by the
    room's counter, the end check, the quality profile and the payments.

    It counts when the expert answered it with SQL: a result table was sent to the worker, the expert responded, and
    nobody dropped it. That is the question about the database that CoSQL's "at least 3 questions" meant. An
    off-topic question answered with REJECT, "Hi", "Thanks" and "Bye" do not count; nor does an ambiguous question
    answered with a clarification, until the answer that follows the clarification is answered with SQL (then that
    question counts, once)."""
    return (
        turn.responded
        and turn.run_seq is not None
        and not turn.dropped
        and not set(turn.acts or ()) <= SOCIAL_USER_ACTS
    )


def answered_questions(turns: dict[int, TurnState]) -> int:
    """How many of the turns are questions that count (`question_counts`)."""
    return sum(1 for turn in turns.values() if question_counts(turn))


def dialogue_answered(dialogue) -> int:
    """How many questions of `dialogue` count, from its log: only the kinds a question's standing is read from
    (QUESTION_KINDS), so that the labels (the largest payloads of a turn: the detected ones carry the tokens, the
    schema links and the draft) stay in the database."""
    events = dialogue.events.filter(kind__in=QUESTION_KINDS).only("dialogue", "seq", "kind", "payload").order_by("seq")
    return answered_questions(_turns_replayed(events))


# --- The whole dialogue at its latest revision -------------------------------------------------------------------


class LogEvent:
    """The fields of an event a replay reads; built from `values_list` rows, which is much cheaper than models."""

    __slots__ = ("seq", "kind", "payload", "author_role", "created_at", "author_id")

    def __init__(
        self, seq: int, kind: str, payload: dict, author_role: str, created_at: datetime, author_id: int | None = None
    ):
        self.seq, self.kind, self.payload, self.author_role = seq, kind, payload, author_role
        self.created_at, self.author_id = created_at, author_id


@dataclass(slots=True)  # a large release holds one per response (review/records.py): no dict each
class Response:
    seq: int
    text: str
    acts: list[str]
    created_at: datetime
    draft: str | None = None  # kept / edited / replaced: what the expert did with the offered draft


@dataclass
class Correction:
    """One correction as the review screen and the agreement figures read it."""

    seq: int
    turn: int
    field: str
    old: object
    new: object
    review_pass: int
    reason: str
    reviewer_id: int | None
    created_at: datetime
    run: int | None = None
    run_result: dict | None = None  # a query correction: the result stored with the reviewer's run of the new SQL
    # a query correction: the new query compared with the turn's original on the test suite, when it was
    suite_check: dict | None = None


@dataclass(slots=True)  # a large release holds one per question (review/records.py): no dict each
class UserTurn:
    seq: int
    text: str
    created_at: datetime
    acts: list[str] | None
    dropped: bool
    run_seq: int | None  # the shared run (or the reviewer's run of a corrected query), if any
    sql: str | None
    shown: dict | None  # the result_shared payload (what the worker saw), or the corrected query's result
    responses: list[Response] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    # Each corrected field's value as the expert and the worker left it (fields never corrected are not here).
    original: dict = field(default_factory=dict)
    # CHASE labels as they stand (LABEL_FIELDS: the expert's, else what was detected), and what was detected.
    labels: dict = field(default_factory=dict)
    detected: dict = field(default_factory=dict)
    confirmed: set = field(default_factory=set)  # the labels a person set (the expert, or a reviewer's correction)
    # The intent recommended to the worker before they asked this question, and how many were offered in all.
    recommended: dict | None = None
    recommendations_offered: int = 0
    # What is ambiguous or unanswerable in the question (annotation.labels.acts.check_ambiguity), when the expert said.
    ambiguity: dict | None = None

    @property
    def clarified(self) -> bool:
        return self.sql is None and any(CLARIFY in response.acts for response in self.responses)

    def answered_at(self) -> datetime | None:
        """When the expert first responded to this turn (None when nobody did)."""
        return self.responses[0].created_at if self.responses else None

    @property
    def response(self) -> Response | None:
        """The response a correction of 'response' or 'system_acts' changes: the expert's last one to this turn."""
        return self.responses[-1] if self.responses else None

    def value(self, name: str):
        """The current value of a correctable field."""
        if name == "utterance":
            return self.text
        if name == "user_acts":
            return list(self.acts or [])
        if name == "ambiguity":
            return self.ambiguity
        if name == "query":
            return self.sql
        if name == "response":
            return self.response.text if self.response else None
        if name == "system_acts":
            return list(self.response.acts) if self.response else None
        if name == "drop":
            return self.dropped
        if name in LABEL_FIELDS:
            return self.labels.get(name)
        raise KeyError(name)

    def original_value(self, name: str):
        return self.original[name] if name in self.original else self.value(name)

    @property
    def followed(self) -> bool | None:
        """Whether this question followed the suggestion shown before it, as judged when its result was shared (the
        detected relation is the suggested one, and the SQL uses what the suggestion named); for a turn shared before
        that judgement was stored, the detected relation alone decides. None: no suggestion, or no relation detected
        (a first SQL question, an unreadable one)."""
        if not self.recommended or not self.detected.get("intent"):
            return None
        if "followed" in self.detected:
            return bool(self.detected["followed"])
        return suggestion_followed(self.recommended, self.detected["intent"].get("relations") or ())


def follows_a_query(user_turns: list[UserTurn], seq: int) -> bool:
    """Whether a user turn before `seq`, not dropped, was answered with SQL: the turn at `seq` is then a follow-up
    question, the only kind a thematic relation may be given (annotation.labels.acts.check_thematic_of_turn)."""
    return any(turn.seq < seq and turn.sql and not turn.dropped for turn in user_turns)


@dataclass
class StateTurn:
    """One SQL-grounded turn of the state-tracking files: possibly several user turns folded into one."""

    turn: UserTurn  # the user turn that carries the SQL
    parts: list[str]  # question, clarification, answer, ... (one element when nothing was folded)
    # The user turns folded in before `turn` (their texts are parts 0, 2, 4, ...): what a label of theirs concerns.
    folded_turns: list[UserTurn] = field(default_factory=list)

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
    """A dialogue as the review screen, the exporters and the statistics see it: at its latest revision."""

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
    runs: list[dict]  # every SQL run of the expert: {"seq", "turn", "sql", "ok", "row_count", "shared"}
    annotations: dict[int, object]  # utterance seq -> review.models.TurnAnnotation
    events: list[LogEvent]
    revision: int = 0  # the sequence number of the newest event folded in
    mode: str = "chat"  # dialogs.models.DialogueMode: a chat, or a solo sequence written by one expert

    def thematic_relations(self, state: StateTurn) -> list[str]:
        """SParC's thematic relations of a SQL turn: as a person gave them (the expert, or a reviewer's correction;
        nothing detected ever sets them), else its imported annotation's; [] when it has none."""
        if "thematic_relations" in state.turn.labels:
            return list(state.turn.labels["thematic_relations"] or [])
        annotation = self.annotations.get(state.turn.seq)
        return list(getattr(annotation, "thematic_relations", None) or [])

    def state_turns(self) -> list[StateTurn]:
        """The SQL-grounded turns in order, with clarification exchanges folded into the turn they resolve."""
        folded: list[StateTurn] = []
        pending: list[str] = []
        pending_turns: list[UserTurn] = []
        for turn in self.user_turns:
            if turn.dropped:
                pending, pending_turns = [], []
                continue
            if turn.sql is not None:
                folded.append(StateTurn(turn=turn, parts=[*pending, turn.text], folded_turns=pending_turns))
                pending, pending_turns = [], []
            elif turn.clarified:
                clarification = next(r.text for r in turn.responses if CLARIFY in r.acts)
                pending = [*pending, turn.text, clarification]
                pending_turns = [*pending_turns, turn]
            else:
                pending, pending_turns = [], []
        return folded

    def message_count(self) -> int:
        """Messages in the sense of the CoSQL paper's turn count: user utterances plus the expert's responses and
        warnings (result tables travel with a response and are not counted apart)."""
        return sum(1 for kind, _ in self.messages if kind in ("user", "response", "drop"))

    @property
    def corrections(self) -> list[Correction]:
        return [correction for turn in self.user_turns for correction in turn.corrections]


def _run_result_shown(turn: int, run: LogEvent) -> dict:
    result = run.payload.get("result") or {}
    return result_shared_payload(
        turn,
        run.seq,
        {
            "ok": result.get("ok", False),
            "columns": result.get("columns", []),
            "rows": result.get("rows", []),
            "row_count": result.get("row_count", 0),
            "truncated": result.get("truncated", False),
            "total_rows": result.get("total_rows", result.get("row_count", 0)),
            "error": result.get("error"),
        },
    )


def dialogue_replay(
    *,
    dialogue,
    events: list[LogEvent],
    annotations: dict[int, object] | None = None,
    imported: bool = False,
    interaction_id: int | None = None,
) -> DialogueRecord:
    """Fold one dialogue's log (events in sequence order) into a DialogueRecord at its latest revision. No database
    access: the caller passes the dialogue with its database and goal already loaded, and its events.

    The rules: a turn's SQL is the SQL of the run whose result was shared last for it (or of a reviewer's corrected
    query); a turn answered with CLARIFY and no SQL is folded into the next user turn, as the CoSQL release writes it;
    a dropped turn never reaches a dataset file. Corrections change the current values and keep the originals.
    """
    replay = _Replay()
    for event in events:
        replay.fold(event)
    return DialogueRecord(
        id=dialogue.pk,
        db_id=dialogue.database.db_id,
        status=dialogue.status,
        goal_question=dialogue.goal.question if dialogue.goal_id else "",
        goal_sql=dialogue.goal.sql if dialogue.goal_id else "",
        mode=dialogue.mode,
        score=dialogue.score,
        score_comment=dialogue.score_comment,
        created_at=dialogue.created_at,
        ended_at=dialogue.ended_at,
        imported=imported,
        interaction_id=interaction_id,
        user_turns=list(replay.turns.values()),
        messages=replay.messages,
        runs=replay.runs(),
        annotations=annotations or {},
        events=events,
        revision=events[-1].seq if events else 0,
    )


class _Replay:
    """What folding one dialogue's events builds up (dialogue_replay), one method per kind of event."""

    def __init__(self):
        self.runs_by_seq: dict[int, LogEvent] = {}
        self.turns: dict[int, UserTurn] = {}
        self.shares: dict[int, dict] = {}  # turn seq -> its last ("sql", item) message
        self.messages: list[tuple[str, object]] = []
        self.shared_seqs: set[int] = set()
        self.offered: list[dict] = []  # recommendations since the last user utterance

    def fold(self, event: LogEvent) -> None:
        kind, payload = event.kind, event.payload
        if kind == EventKind.UTTERANCE:
            self.utterance(event)
        elif kind == EventKind.RECOMMENDATION:
            self.offered.append(payload)
        elif kind == EventKind.SQL_RUN:
            self.runs_by_seq[event.seq] = event
        else:
            self.about_turn(event, self.turns.get(payload.get("turn")))

    def utterance(self, event: LogEvent) -> None:
        turn = UserTurn(
            seq=event.seq,
            text=event.payload["text"],
            created_at=event.created_at,
            acts=None,
            dropped=False,
            run_seq=None,
            sql=None,
            shown=None,
            recommended=self.offered[-1] if self.offered else None,
            recommendations_offered=len(self.offered),
        )
        self.offered = []
        self.turns[event.seq] = turn
        self.messages.append(("user", turn))

    def about_turn(self, event: LogEvent, turn: UserTurn | None) -> None:
        """An event about a user turn (`turn`: None when the turn it names is not in the log)."""
        kind, payload = event.kind, event.payload
        if kind == EventKind.USER_ACTS and turn is not None:
            turn.acts = payload["acts"]
            turn.ambiguity = payload.get("ambiguity")
        elif kind == EventKind.RESULT_SHARED:
            self.result_shared(event, turn)
        elif kind == EventKind.TURN_LABELS and turn is not None:
            _labels_fold(turn, payload)
        elif kind == EventKind.RESPONSE:
            self.response(event, turn)
        elif kind == EventKind.DROP:
            if turn is not None:
                turn.dropped = True
            self.messages.append(("drop", payload.get("warning", "")))
        elif kind == EventKind.CORRECTION and turn is not None:
            _correct(turn, event, self.runs_by_seq, self.shares)

    def result_shared(self, event: LogEvent, turn: UserTurn | None) -> None:
        payload = event.payload
        self.shared_seqs.add(payload["run"])
        run = self.runs_by_seq.get(payload["run"])
        if run is None:
            return
        item = {"seq": event.seq, "sql": run.payload["sql"], "shown": payload, "turn": payload["turn"]}
        self.messages.append(("sql", item))
        if turn is not None:
            # The last share of a turn wins; an earlier share of the same turn is replaced, as in the room.
            turn.sql, turn.shown, turn.run_seq = run.payload["sql"], payload, payload["run"]
            self.shares[turn.seq] = item

    def response(self, event: LogEvent, turn: UserTurn | None) -> None:
        payload = event.payload
        response = Response(
            seq=event.seq,
            text=payload["text"],
            acts=payload["acts"],
            created_at=event.created_at,
            draft=payload.get("draft"),
        )
        if turn is not None:
            turn.responses.append(response)
        self.messages.append(("response", response))

    def runs(self) -> list[dict]:
        """The expert's SQL runs as DialogueRecord.runs holds them."""
        runs = []
        for seq, run in self.runs_by_seq.items():
            if run.author_role == "reviewer":
                continue  # a reviewer's run belongs to the review history, not to the dialogue as it was held
            result = run.payload.get("result") or {}
            runs.append(
                {
                    "seq": seq,
                    "turn": run.payload.get("turn"),
                    "sql": run.payload["sql"],
                    "ok": bool(result.get("ok")),
                    "row_count": result.get("row_count", 0),
                    "shared": seq in self.shared_seqs,
                    **({"model_draft": run.payload["model_draft"]} if "model_draft" in run.payload else {}),
                }
            )
        return runs


def _labels_fold(turn: UserTurn, payload: dict) -> None:
    """A turn-labels event in the replay: detected labels are kept apart too; the others confirm what they name."""
    labels_apply(turn.labels, payload)
    if payload.get("source") == "detected":
        labels_apply(turn.detected, payload)
        for name in ("draft", "followed"):
            if name in payload:
                turn.detected[name] = payload[name]
    else:
        turn.confirmed.update(name for name in LABEL_FIELDS if name in payload)


def _correct(turn: UserTurn, event: LogEvent, runs_by_seq: dict[int, LogEvent], shares: dict[int, dict]) -> None:
    """A correction in the replay: kept in the turn's history (with the value it replaced the first time), applied by
    `correction_apply`, then carried to what only a record holds."""
    payload = event.payload
    name, new = payload["field"], payload["new"]
    if name not in turn.original:
        turn.original[name] = turn.value(name)
        if name == "query":
            turn.original["query_shown"] = turn.shown
    run = runs_by_seq.get(payload.get("run")) if name == "query" else None
    turn.corrections.append(
        Correction(
            seq=event.seq,
            turn=turn.seq,
            field=name,
            old=payload.get("old"),
            new=new,
            review_pass=payload.get("pass", 0),
            reason=payload.get("reason", ""),
            reviewer_id=event.author_id,
            created_at=event.created_at,
            run=payload.get("run"),
            run_result=run.payload.get("result") if run is not None else None,
            suite_check=payload.get("suite_check"),
        )
    )
    correction_apply(turn, payload)
    if name == "query":
        turn.sql = new
        if run is None:
            turn.run_seq = None  # a run the log does not hold: the turn has no table to show
        turn.shown = _run_result_shown(turn.seq, run) if run is not None else None
        item = shares.get(turn.seq)
        if item is not None and turn.shown is not None:
            item["sql"], item["shown"] = new, turn.shown
    elif name in LABEL_FIELDS:
        turn.confirmed.add(name)
    elif name in ("response", "system_acts") and turn.response is not None:
        if name == "response":
            turn.response.text = new
        else:
            turn.response.acts = list(new)


# --- Payload values read in the database ---------------------------------------------------------------------------


def run_sql(dialogue, seq: int) -> str:
    """The SQL of run `seq` of `dialogue`, without reading its stored result table (up to RUN_STORED_MAX_BYTES of
    JSON). Event.DoesNotExist when the dialogue has no such run."""
    return dialogue.events.filter(seq=seq, kind=EventKind.SQL_RUN).values_list("payload__sql", flat=True).get()


def runs_summarised(runs: QuerySet[Event], *, moment: str = "created_at") -> Iterator[tuple]:
    """The SQL runs of `runs` as rows (dialogue_id, seq, kind, payload, author_role, `moment`, author_id), each
    payload cut to what a replay reads of a run it does not show (its SQL, turn, whether it ran, its row count): the
    result table stays in the database, which halves the JSON a large selection decodes. What the run did with a
    model's draft (`model_draft`) is kept when it has it. Streamed in chunks."""
    rows = runs.values_list(
        "dialogue_id", "seq", "kind", "payload__sql", "payload__turn", "payload__result__ok",
        "payload__result__row_count", "payload__model_draft", "author_role", moment, "author_id",
    )  # fmt: skip
    for dialogue_id, seq, kind, sql, turn, ok, count, draft, role, at, who in rows.iterator(chunk_size=5000):
        payload = {"sql": sql, "turn": turn, "result": {"ok": ok, "row_count": count}}
        if draft is not None:
            payload["model_draft"] = draft
        yield dialogue_id, seq, kind, payload, role, at, who


def recommendation_shown_before(dialogue, seq: int) -> dict | None:
    """The payload of the suggestion the worker saw when they wrote utterance `seq`: the newest recommendation since
    the utterance before it (as `dialogue_replay` ties them), or None."""
    newest = _newest_utterance_or_recommendation.first(dialogue.pk, seq)
    return newest.payload if newest and newest.kind == EventKind.RECOMMENDATION else None


# One read: the newest utterance or recommendation before a seq; an utterance means none was shown since. Every shared
# result's labels read this (dialogs.room): compiled once (annotation.plumbing.prepared), where the ORM's compiling
# cost ten times the read.
_newest_utterance_or_recommendation = PreparedModels(
    lambda dialogue_id, seq: Event.objects.filter(
        dialogue_id=dialogue_id, seq__lt=seq, kind__in=(EventKind.UTTERANCE, EventKind.RECOMMENDATION)
    ).order_by("-seq")[:1],
    values=2,
)


def correction_passes(events: QuerySet[Event]) -> QuerySet:
    """(author id, review pass) of each correction among `events` (the pass is None in a payload without one)."""
    return events.filter(kind=EventKind.CORRECTION).values_list("author_id", "payload__pass")


def intent_categories_counted() -> QuerySet:
    """(database id, intent category, turns) over every dialogue: each turn counted once, by its latest intent label
    (detected or the expert's: a correction replaces what was detected, it does not add to it). A category may be
    None where a label carries none."""
    labelled = Event.objects.filter(kind=EventKind.TURN_LABELS, payload__has_key="intent")
    latest = labelled.filter(dialogue_id=OuterRef("dialogue_id"), payload__turn=OuterRef("payload__turn"))
    return (
        labelled.filter(seq=Subquery(latest.order_by("-seq").values("seq")[:1]))
        .values_list("dialogue__database_id", "payload__intent__category")
        .annotate(n=Count("id"))
    )


# --- Model drafts (README "Model assistance") ----------------------------------------------------------------------
# A `model_sql` event is a model's SQL draft for a turn, shown to the expert only: {turn, sql, result, encodes, model,
# prompt_version, seconds}, or {turn, error: {code, message}} when the call failed. A run that loaded a draft names
# it in its payload: `model_draft: {event: <the model_sql event's seq>, use: kept | edited | replaced}`.


def model_sql_failed(payload: dict) -> bool:
    """Whether a model_sql payload records a failed call (no draft came back)."""
    return "error" in payload


def model_draft_uses(events: QuerySet[Event]) -> dict[int, dict[int, str]]:
    """What the expert did with each model draft among `events`' dialogues: dialogue id → {model_sql event seq →
    kept / edited / replaced}, as the runs that loaded it say (the last such run of a draft decides)."""
    rows = (
        events.filter(kind=EventKind.SQL_RUN, payload__has_key="model_draft")
        .order_by("dialogue_id", "seq")
        .values_list("dialogue_id", "payload__model_draft__event", "payload__model_draft__use")
    )
    uses: dict[int, dict[int, str]] = {}
    for dialogue_id, draft, use in rows:
        uses.setdefault(dialogue_id, {})[draft] = use
    return uses
