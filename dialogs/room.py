"""Writes of a dialogue's room: every event of its log, from the first join to the score.

Each event is committed (with the next sequence number, under a row lock on the dialogue) before the caller
broadcasts it. A message carries a client id; the same id from the same person is stored once, and a retry gets the
original event back. `dialogue_post` is the single entry point for everything a person sends into a room: it checks
(role, state, labels, sizes), then records. Consumers, views and tests all go through it.
"""

import copy
import json
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from annotation.labels.acts import (
    LabelError,
    act_rule_broken,
    check_acts,
    check_ambiguity,
    check_intent,
    check_phenomena,
    check_pragmatics,
    check_question_style,
    check_schema_linking,
    check_thematic_of_turn,
)
from annotation.labels.tokens import utterance_toks
from annotation.model_client import model_call_allowed, model_configured, rate_limited_error
from annotation.models import Role, User
from annotation.people.roles import can
from annotation.sql.analysis import sql_run
from dialogs import assist, broadcast, log
from dialogs import model_sql as model_drafts
from dialogs.embedded_jobs import BoundedJobs
from dialogs.errors import DialogueError
from dialogs.lobby import completion_code, lobby_leave, lobby_pair, lobby_requeue
from dialogs.log import TurnState, dialogue_turns
from dialogs.models import (
    ENDED_STATUSES,
    Dialogue,
    DialogueStatus,
    Event,
    EventKind,
    LiveSocket,
    score_drops,
)
from dialogs.signals import dialogue_ended, dialogue_scored


def _side(dialogue: Dialogue, person: User) -> str:
    """'worker' or 'expert' for a participant; DialogueError for anyone else (admins included: rooms are private).
    A solo sequence's author is its expert (and writes the user's side too: dialogue_post)."""
    if person.pk == dialogue.worker_id and can(person, "chat.as_worker"):
        return Role.WORKER
    if person.pk == dialogue.expert_id and can(person, "chat.as_expert"):
        return Role.EXPERT
    raise DialogueError("forbidden", gettext("You are not a participant of this dialogue."))


def dialogue_side(*, dialogue: Dialogue, person: User) -> str:
    """Public form of the participant check, for consumers and views."""
    return _side(dialogue, person)


def _claim_seq(dialogue_id: int) -> tuple[int, str]:
    """Bump the dialogue's `last_seq` and return it with the status, in one statement that also takes the row lock
    until the transaction ends. Raw SQL: the ORM's update cannot return the new value, and a locking read followed
    by a save cost two more statements on every message (bench/chat_load.py)."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(Dialogue._meta.db_table)} SET {quote('last_seq')} = {quote('last_seq')} + 1 "  # noqa: S608
            f"WHERE {quote('id')} = %s RETURNING {quote('last_seq')}, {quote('status')}",
            [dialogue_id],
        )
        return cursor.fetchone()


def _stored_event(dialogue: Dialogue, author: User | None, client_id: str) -> Event | None:
    """The event stored the first time this client id was sent by `author` (a retry gets it back)."""
    return Event.objects.filter(dialogue=dialogue, author=author, client_id=client_id).first()


def _closed() -> DialogueError:
    return DialogueError("closed", gettext("This dialogue has ended."))


def dialogue_record(
    *,
    dialogue: Dialogue,
    author: User | None,
    kind: str,
    payload: dict,
    client_id: str | None = None,
    role: str = "",
    while_open: bool = False,
    check=None,
) -> tuple[Event, bool]:
    """Append one event with the next sequence number. Returns (event, created); a repeated client id returns the
    event stored the first time and `created=False`. With `while_open`, a dialogue that has ended (checked under the
    row lock, so an end racing in is seen) refuses the event with DialogueError `closed`. `check`, if given, is called
    under the row lock before the event is written, and may refuse it (DialogueError): a limit that counts events of
    the log holds however many sockets send at once."""
    # No look for the client id first: a retry is stopped by the unique constraint on (dialogue, author, client id),
    # and only then is the stored event read.
    # One statement on PostgreSQL, also inside the caller's transaction when no client id can make it fail and be
    # taken back there (a failed statement aborts the whole transaction): a socket's join under its presence lock.
    if check is None and connection.vendor == "postgresql" and (client_id is None or not connection.in_atomic_block):
        return _record_in_one_statement(dialogue, author, kind, payload, client_id, role, while_open)
    # Inside the caller's transaction, a savepoint (two more round trips) is needed only where this call takes a
    # failure back and the caller's work goes on: a retried client id, an ended dialogue, a refused check, each of
    # which must roll the claimed number back. Without them a failure is the caller's failure.
    recovers = client_id is not None or while_open or check is not None
    try:
        with transaction.atomic(savepoint=recovers):
            seq, status = _claim_seq(dialogue.pk)
            if while_open and status in ENDED_STATUSES:
                raise _closed()  # rolls the claimed number back
            if check is not None:
                check()  # a refusal rolls the claimed number back
            event = Event(
                dialogue=dialogue,
                seq=seq,
                kind=kind,
                author=author,
                author_role=role,
                client_id=client_id,
                payload=payload,
            )
            event.save(force_insert=True)
    except IntegrityError as refused:
        return _stored_before(dialogue, author, client_id, refused), False
    dialogue.last_seq, dialogue.status = seq, status
    return event, True


def _stored_before(dialogue: Dialogue, author: User | None, client_id: str | None, refused: IntegrityError) -> Event:
    """After an insert `refused` by a unique constraint: the event this client id stored the first time (a retry),
    or the refusal raised again when there is none (the constraint broken was another)."""
    existing = _stored_event(dialogue, author, client_id) if client_id is not None else None
    if existing is None:
        raise refused
    return existing


def _record_in_one_statement(dialogue, author, kind, payload, client_id, role, while_open) -> tuple[Event, bool]:
    """`dialogue_record` on PostgreSQL: the number claimed and the event inserted by one statement, one round trip
    instead of four outside a transaction (begin, claim, insert, commit) or two inside one, and as atomic, since a
    statement is a transaction of its own: a client id stored before fails the insert, and the number claimed with it
    is rolled back (outside a transaction only: inside one, the failure would abort the caller's). With `while_open`
    the claim only matches a dialogue that has not ended; no row back means it ended, and nothing was claimed."""
    quote = connection.ops.quote_name
    dialogues, events = quote(Dialogue._meta.db_table), quote(Event._meta.db_table)
    now = timezone.now()
    payload_db = Event._meta.get_field("payload").get_db_prep_save(payload, connection)
    open_only = f" AND {quote('status')} NOT IN %s" if while_open else ""
    columns = ", ".join(
        quote(Event._meta.get_field(name).column)
        for name in ("dialogue", "seq", "kind", "author", "author_role", "client_id", "payload", "created_at")
    )
    sql = (
        f"WITH claimed AS (UPDATE {dialogues} SET {quote('last_seq')} = {quote('last_seq')} + 1 "  # noqa: S608
        f"WHERE {quote('id')} = %s{open_only} RETURNING {quote('last_seq')}, {quote('status')}) "
        f"INSERT INTO {events} ({columns}) SELECT %s, claimed.{quote('last_seq')}, %s, %s, %s, %s, %s, %s FROM claimed "
        f"RETURNING {quote('id')}, {quote('seq')}, (SELECT {quote('status')} FROM claimed)"
    )
    params = [dialogue.pk]
    if while_open:
        params.append(tuple(ENDED_STATUSES))
    params += [dialogue.pk, kind, author.pk if author is not None else None, role, client_id, payload_db, now]
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
    except IntegrityError as refused:
        return _stored_before(dialogue, author, client_id, refused), False
    if row is None:
        raise _closed()
    pk, seq, status = row
    # Built as a row read back is (positional values in the fields' order), with its dialogue and author set as
    # the keyword form would: a quarter of the keyword form's CPU, for every message a room stores.
    values = {"id": pk, "dialogue_id": dialogue.pk, "seq": seq, "kind": kind, "author_role": role, "created_at": now}
    values.update(author_id=author.pk if author is not None else None, client_id=client_id, payload=payload)
    event = Event.from_db(connection.alias, None, [values[name] for name in _EVENT_COLUMNS])
    event._state.fields_cache.update(dialogue=dialogue, author=author)
    dialogue.last_seq, dialogue.status = seq, status
    return event, True


# The attribute names of an event's columns, in the order a row of them is read (`Event.from_db`).
_EVENT_COLUMNS = [field.attname for field in Event._meta.concrete_fields]


# The longest note an expert may give when ending a dialogue or dropping a turn, and the longest score comment.
NOTE_MAX_CHARS = 500

# The end reasons the platform writes into a log. The log keeps them in English (it is the dataset's); each room socket
# words them in its person's language as it delivers the end (`end_reason_worded`).
ENDED_BY_WORKER = gettext_noop("The worker ended the dialogue.")
ENDED_BY_EXPERT = gettext_noop("Ended by the expert.")
STOPPED_EARLY = gettext_noop("The worker stopped early.")
STOPPED_EARLY_WITH_NOTE = gettext_noop("The worker stopped early: %(note)s")
LEFT_AND_GONE = {
    Role.WORKER: gettext_noop("The worker left and did not return."),
    Role.EXPERT: gettext_noop("The expert left and did not return."),
}
_PLATFORM_REASONS = frozenset({ENDED_BY_WORKER, ENDED_BY_EXPERT, STOPPED_EARLY, *LEFT_AND_GONE.values()})
_STOPPED_EARLY_PREFIX = STOPPED_EARLY_WITH_NOTE.split("%", 1)[0]


def end_reason_worded(reason: str) -> str:
    """An end's reason in the active language: a reason the platform wrote is translated (the worker's own note kept
    as they wrote it), anything else (what an expert or a supervisor typed) is shown as it is."""
    if reason in _PLATFORM_REASONS:
        return gettext(reason)
    if reason.startswith(_STOPPED_EARLY_PREFIX):
        return gettext(STOPPED_EARLY_WITH_NOTE) % {"note": reason[len(_STOPPED_EARLY_PREFIX) :]}
    return reason


COMMENT_MAX_CHARS = 2000


def text_limits() -> dict:
    """The longest text, in characters, of each text a participant types into a room, by message field: what the
    room pages are handed (to count and refuse before sending) and what the handlers below refuse beyond."""
    return {
        "text": settings.UTTERANCE_MAX_CHARS,
        "reason": NOTE_MAX_CHARS,
        "warning": NOTE_MAX_CHARS,
        "comment": COMMENT_MAX_CHARS,
        "sql": settings.SANDBOX_MAX_SQL_LENGTH,
    }


def _text(message: dict, field: str, *, limit: int, required: bool = True) -> str:
    """A text field of a message, checked by the one rule for texts that enter a log (`log.text_checked`)."""
    try:
        return log.text_checked(message.get(field, ""), name=f"'{field}'", limit=limit, required=required)
    except log.TextRefused as exc:
        raise DialogueError(exc.code, exc.message) from exc


def sql_run_result(dialogue: Dialogue, sql: str) -> dict:
    """Run an expert's (or a reviewer's) SQL on the dialogue's file (`Dialogue.database_path`) in the sandbox and
    return the result as a run event stores it.

    The run is the SQL core's (`annotation.sql.analysis.sql_run`: counted in full when truncated, `spider_error`
    when it cannot be encoded); the table is then cut to what a room stores and sends (`result_bounded`): the
    sandbox allows results of megabytes, a websocket frame carries at most 1 MiB.

    Blocks for as long as the SQL runs (up to SANDBOX_TIMEOUT_MS): a room's consumer calls it off the thread that
    every room's database work shares.
    """
    return result_bounded(sql_run(dialogue.database_path, sql, schema=dialogue.database.schema, count=True))


def _json_bytes(value) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def payload_bounded(kind: str, payload: dict) -> dict:
    """An event's payload with the result table it carries (a run's `result`; a shared result is a table itself) cut
    by `result_bounded`; any other payload as it is. A run stored before the caps existed, or imported, may hold
    more than a frame can carry: a room reads every table it shares or sends through here."""
    if kind == EventKind.SQL_RUN and isinstance(payload.get("result"), dict):
        return {**payload, "result": result_bounded(payload["result"])}
    if kind == EventKind.RESULT_SHARED:
        return result_bounded(payload)
    return payload


def result_bounded(table: dict) -> dict:
    """A result table (a run's result, or a shared result's payload) as a room stores and sends it.

    The first rows within RUN_STORED_MAX_ROWS rows and RUN_STORED_MAX_BYTES bytes (columns and rows as JSON); when
    rows are cut, `truncated` is set and `total_rows` keeps the full count, so screens show "showing N of M". A NUL
    character in a value is shown as U+2400 (PostgreSQL stores none in jsonb). Returns `table` itself when it fits.
    """
    rows = table.get("rows") or []
    budget = settings.RUN_STORED_MAX_BYTES - _json_bytes(table.get("columns") or [])
    kept, cleaned = [], False
    for row in rows[: settings.RUN_STORED_MAX_ROWS]:
        if any(isinstance(value, str) and "\x00" in value for value in row):
            row = [value.replace("\x00", "\u2400") if isinstance(value, str) else value for value in row]
            cleaned = True
        budget -= _json_bytes(row) + 1  # the row and the comma after it
        if budget < 0:
            break
        kept.append(row)
    if len(kept) == len(rows) and not cleaned:
        return table
    bounded = {**table, "rows": kept, "row_count": len(kept)}
    if len(kept) < len(rows):
        bounded["truncated"] = True
        if not table.get("truncated"):  # all the rows were here: their number is the full count
            bounded["total_rows"] = len(rows)
    return bounded


def _turn(message: dict, turns: dict[int, TurnState]) -> TurnState:
    seq = message.get("turn")
    if not isinstance(seq, int) or seq not in turns:
        raise DialogueError(
            "invalid", gettext("'turn' must be the sequence number of a user utterance in this dialogue.")
        )
    return turns[seq]


def _sql_run_event(dialogue: Dialogue, seq) -> Event:
    if not isinstance(seq, int):
        raise DialogueError("invalid", gettext("'run' must be the sequence number of an SQL run."))
    event = dialogue.events.filter(seq=seq, kind=EventKind.SQL_RUN).first()
    if event is None:
        raise DialogueError("invalid", gettext("There is no SQL run #%(seq)s in this dialogue.") % {"seq": seq})
    return event


# Refusals that checking against an older state of the log can give wrongly: every check that depends on the turns
# can only change from failing to passing as the log grows, so a check that passes on an older prefix is right. The
# act rules are the exception: they read the turn's user acts, which a relabelling replaces. A response sent right
# after a relabelling of its own socket (before that event came back) is checked against the acts it was written for.
_STALE_REFUSALS = frozenset({"invalid", "order", "too_early", "act_rule"})


def dialogue_post(
    *,
    dialogue: Dialogue,
    person: User,
    message: dict,
    turns: dict[int, TurnState] | None = None,
    later: list | None = None,
    runs: dict[int, dict] | None = None,
) -> list[tuple[Event, bool]]:
    """Check and record one message from a participant. Returns the events it produced, each with `created`.

    `turns` may be the caller's own replay of a prefix of the log (a room socket keeps one); the checks then read
    nothing, and a refusal that an older prefix could explain is checked again against the log itself. `runs` may be
    the SQL runs of this dialogue the caller has passed on (seq → payload, the result table left out where the caller
    did not keep it): a run's payload never changes once stored, so a share or a follow-up reads a run found there
    instead of the log.

    What the platform adds to a message once it is recorded (the labels it reads from a shared result, the suggestion
    after an answer) is recorded before this returns; given a `later` list, it is appended there instead, as functions
    that compute and record it and return its events, for the caller to call once it has passed the message on (a
    room socket: the worker sees an answer without waiting for the next suggestion). They may raise DialogueError
    (the dialogue ended in between).

    Refusals raise DialogueError with a stable code: forbidden, wrong_role, closed, invalid, labels, too_long,
    too_early, too_many, order, act_rule, unknown_type, model_off, rate_limited.
    """
    side = _side(dialogue, person)
    kind = message.get("type")
    if kind not in _HANDLERS:
        raise DialogueError("unknown_type", gettext("Unknown message type %(type)r.") % {"type": kind})
    if dialogue.is_solo:
        # The one author writes both sides of a solo sequence; nobody is there to score.
        if kind == "score":
            raise DialogueError("invalid", gettext("A solo sequence has no worker to score."))
        side = _HANDLERS[kind][0]
    if _HANDLERS[kind][0] != side:
        raise DialogueError("wrong_role", gettext("A %(side)s cannot send '%(type)s'.") % {"side": side, "type": kind})
    client_id = message.get("id")
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= 64 or "\x00" in client_id:
        raise DialogueError("invalid", gettext("Every message needs an 'id' string of 1 to 64 characters (no NUL)."))
    try:
        try:
            return _post(dialogue, person, side, kind, message, client_id, turns, later, runs)
        except DialogueError as refusal:
            if turns is None or refusal.code not in _STALE_REFUSALS:
                raise
            return _post(dialogue, person, side, kind, message, client_id, None, later, runs)
    except DialogueError as refusal:
        # A retry of something already stored is answered from the log, whatever state the dialogue is in now. Only
        # a refused message is looked up: a retry that passes the checks is stopped by the client-id constraint in
        # dialogue_record, so messages that go through (nearly all) cost no look-up.
        stored = _stored_event(dialogue, person, client_id)
        if stored is not None:
            return [(stored, False)]
        if refusal.code != "closed" and kind != "score":
            # Checked last, not first, to keep a query off every message; "closed" still wins over the other reasons.
            dialogue.refresh_from_db(fields=["status", "last_seq", "score"])
            if dialogue.is_over:
                raise _closed() from refusal
        raise


@dataclass
class _Post:
    """One message being checked and recorded: what every kind's handler needs."""

    dialogue: Dialogue
    person: User
    side: str
    message: dict
    client_id: str
    turns: dict[int, TurnState] | None
    later: list | None = None
    runs: dict[int, dict] = field(default_factory=dict)  # the caller's runs (dialogue_post); only read

    def run(self, seq) -> dict:
        """The payload of SQL run `seq` with its result table: the caller's copy when it kept the table, else the
        log's. DialogueError `invalid` when the dialogue has no such run."""
        kept = self.runs.get(seq) if isinstance(seq, int) else None
        if kept is not None and "result" in kept:
            return kept
        return _sql_run_event(self.dialogue, seq).payload

    def run_sql(self, seq: int) -> str:
        """The SQL of run `seq`: the caller's copy, else the log's (`log.run_sql`)."""
        kept = self.runs.get(seq)
        return kept["sql"] if kept is not None else log.run_sql(self.dialogue, seq)

    def then(self, follow_up) -> list[tuple[Event, bool]]:
        """The events `follow_up()` adds after the message's own: recorded now, or handed to the caller (`later`).
        Handed over, it records on a copy of the dialogue: recording sets fields on the one it is given, and the caller
        (a room socket) goes on using its own, on another thread, until it calls the follow-up."""
        if self.later is None:
            return follow_up()
        self.dialogue = copy.copy(self.dialogue)
        self.later.append(follow_up)
        return []

    def record(self, kind: str, payload: dict) -> tuple[Event, bool]:
        return dialogue_record(
            dialogue=self.dialogue,
            author=self.person,
            kind=kind,
            payload=payload,
            client_id=self.client_id,
            role=self.side,
            while_open=True,
        )

    def record_server(self, kind: str, payload: dict) -> tuple[Event, bool]:
        """An event the platform adds to what the person sent (a recommendation, what it read from SQL)."""
        return dialogue_record(dialogue=self.dialogue, author=None, kind=kind, payload=payload, while_open=True)

    def turn(self) -> TurnState:
        """The turn the message names. Every step after the question refers to one: checked against the caller's
        replay when it has one, else the log's."""
        if self.turns is None:
            self.turns = dialogue_turns(self.dialogue)
        return _turn(self.message, self.turns)

    def acts(self, side: str) -> list[str]:
        try:
            return check_acts(self.message.get("acts"), side=side)
        except LabelError as exc:
            raise DialogueError("labels", str(exc)) from exc

    def text(self, field: str, *, limit: int, required: bool = True) -> str:
        return _text(self.message, field, limit=limit, required=required)


def _post_utterance(post: _Post):
    # Only a simulated dialogue's utterances say where they came from: any other worker's `simulated` is ignored.
    origin = post.message.get("simulated") if post.dialogue.simulated else None
    text = post.text("text", limit=settings.UTTERANCE_MAX_CHARS)
    return [post.record(EventKind.UTTERANCE, log.utterance_payload(text, simulated=origin))]


def _post_end(post: _Post):
    # The minimum is checked under the row lock, where a drop racing in is seen.
    return _end(
        post.dialogue,
        post.person,
        post.side,
        DialogueStatus.COMPLETED,
        post.client_id,
        ENDED_BY_WORKER,
    )


def _post_stop(post: _Post):
    """The worker stops before the dialogue is complete (the room's "Stop early"), saying why if they like: the dialogue
    ends abandoned and incomplete, as when a worker leaves, but the worker is told so and gets their code at once
    instead of closing the tab. A worker who may end it normally ends it (`end`): stopping is for before that."""
    note = post.text("reason", limit=NOTE_MAX_CHARS, required=False)
    return _end(
        post.dialogue,
        post.person,
        post.side,
        DialogueStatus.ABANDONED,
        post.client_id,
        STOPPED_EARLY_WITH_NOTE % {"note": note} if note else STOPPED_EARLY,
        extra={"stopped_early": True},
    )


def _post_terminate(post: _Post):
    reason = post.text("reason", limit=NOTE_MAX_CHARS, required=False) or ENDED_BY_EXPERT
    return _end(post.dialogue, post.person, post.side, DialogueStatus.TERMINATED, post.client_id, reason)


def _post_user_acts(post: _Post):
    """The expert labels a user turn with user acts and, for an AMBIGUOUS or CANNOT_ANSWER turn, optionally with
    what is ambiguous or missing (`ambiguity`: its sub-type, the span of the question it concerns, the SQL readings)."""
    turn = post.turn()
    acts = post.acts("user")
    ambiguity = None
    if post.message.get("ambiguity") is not None:
        try:
            ambiguity = check_ambiguity(
                post.message["ambiguity"],
                acts=acts,
                tokens=utterance_toks(turn.text),
                max_sql_length=settings.SANDBOX_MAX_SQL_LENGTH,
            )
        except LabelError as exc:
            raise DialogueError("labels", str(exc)) from exc
    return [post.record(EventKind.USER_ACTS, log.user_acts_payload(turn.seq, acts, ambiguity))]


def _post_sql_run(post: _Post):
    turn = post.turn() if post.message.get("turn") is not None else None
    sql = post.text("sql", limit=settings.SANDBOX_MAX_SQL_LENGTH)
    model_draft = _model_draft_used(post, turn, sql)
    # Run outside any transaction: the sandbox can take seconds and must not hold the dialogue's row lock.
    result = sql_run_result(post.dialogue, sql)
    payload = log.sql_run_payload(turn.seq if turn else None, sql, result, model_draft)
    return [post.record(EventKind.SQL_RUN, payload)]


def _model_draft_used(post: _Post, turn: TurnState | None, sql: str) -> dict | None:
    """What a run did with the model's SQL draft for its turn, {event, use}, or None when no draft concerns it.

    The client says which draft it loaded into the editor (`from_model`: the draft's seq); whether the run kept or
    edited it is decided here from the two texts (`log.model_draft_use`), never taken from the client. Without
    `from_model`, the first run of the turn after its newest draft replaced that draft (kept it when the SQL is the
    draft's, copied)."""
    from_model = post.message.get("from_model")
    if from_model is not None and (not isinstance(from_model, int) or isinstance(from_model, bool) or turn is None):
        raise DialogueError(
            "invalid", gettext("'from_model' must be the sequence number of a model's draft for the 'turn'.")
        )
    if turn is None or (from_model is None and not post.dialogue.model_help):
        return None  # no read of the log on a run that no draft can concern
    events = post.dialogue.events.filter(kind__in=(EventKind.MODEL_SQL, EventKind.SQL_RUN), seq__gt=turn.seq)
    drafts, runs = {}, []
    for seq, kind, payload_turn, state, draft_sql in events.values_list(
        "seq", "kind", "payload__turn", "payload__state", "payload__sql"
    ).order_by("seq"):
        if payload_turn != turn.seq:
            continue
        if kind == EventKind.SQL_RUN:
            runs.append(seq)
        elif state == log.MODEL_PROPOSED:
            drafts[seq] = draft_sql
    if from_model is not None:
        if from_model not in drafts:
            raise DialogueError(
                "invalid", gettext("There is no model draft #%(seq)s for this turn.") % {"seq": from_model}
            )
    else:
        newest = max(drafts, default=None)
        if newest is None or any(run > newest for run in runs):
            return None  # no draft, or the run after it was already counted
        # Not loaded into the editor: the expert wrote their own, unless they copied the draft's text exactly.
        same = log.sql_tokens_normalised(drafts[newest]) == log.sql_tokens_normalised(sql)
        return {"event": newest, "use": log.DRAFT_KEPT if same else log.DRAFT_REPLACED}
    return {"event": from_model, "use": log.model_draft_use(drafts[from_model], sql)}


def _post_model_sql(post: _Post):
    """The expert asks the model for an SQL draft for a turn. The request is recorded at once (the ack); the draft
    follows as an event of its own, worked out later on threads that wait on the model (`then`), so that nothing
    else in the room waits for it. Refused (model_off) unless a model is set up and the dialogue has model help, and
    (rate_limited) beyond the expert's MODEL_RATE_PER_MINUTE; a retry of the same id gets its request back."""
    turn = post.turn()
    if not (model_configured() and post.dialogue.model_help):
        raise DialogueError("model_off", gettext("Model drafts are not offered in this dialogue."))
    _refuse_if_pending(post.dialogue, turn.seq)
    if not model_call_allowed(post.person.pk):
        raise DialogueError("rate_limited", rate_limited_error().message)
    asked = dialogue_record(
        dialogue=post.dialogue,
        author=post.person,
        kind=EventKind.MODEL_SQL,
        payload=log.model_sql_asked_payload(turn.seq),
        client_id=post.client_id,
        role=post.side,
        while_open=True,
        # Again under the dialogue's lock: two tabs asking at once both passed the look above.
        check=lambda: _refuse_if_pending(post.dialogue, turn.seq),
    )
    if not asked[1]:
        return [asked]  # a retry: its draft is on its way or in the log already

    def drafted():
        payload = model_drafts.sql_draft_payload(
            dialogue=post.dialogue, turn=turn.seq, request=asked[0].seq, run=sql_run_result
        )
        return [post.record_server(EventKind.MODEL_SQL, payload)]

    return [asked, *post.then(drafted)]


def _refuse_if_pending(dialogue: Dialogue, turn: int) -> None:
    if _model_draft_pending(dialogue, turn):
        raise DialogueError(
            "too_many", gettext("A draft for this question is on its way: wait for it before asking again.")
        )


def _model_draft_pending(dialogue: Dialogue, turn: int) -> bool:
    """Whether a request for a draft of `turn` is still waiting for its answer. Only a request made within the time a
    call may take counts: one whose answer was lost (the server stopped in between) does not block the turn."""
    since = timezone.now() - timedelta(seconds=settings.MODEL_TIMEOUT_SECONDS + 60)
    asked, answered = set(), set()
    events = dialogue.events.filter(kind=EventKind.MODEL_SQL, seq__gt=turn)
    for seq, payload_turn, state, request, created_at in events.values_list(
        "seq", "payload__turn", "payload__state", "payload__request", "created_at"
    ):
        if payload_turn != turn:
            continue
        if state == log.MODEL_ASKED:
            if created_at >= since:
                asked.add(seq)
        else:
            answered.add(request)
    return bool(asked - answered)


def _post_share_result(post: _Post):
    turn = post.turn()
    run_seq = post.message.get("run")
    run = post.run(run_seq)
    result = payload_bounded(EventKind.SQL_RUN, run)["result"]
    if run.get("turn") not in (None, turn.seq):
        raise DialogueError("invalid", gettext("SQL run #%(seq)s was written for another turn.") % {"seq": run_seq})
    if not result["ok"]:
        raise DialogueError("invalid", gettext("Only a run that succeeded can be sent to the worker."))
    shared = post.record(EventKind.RESULT_SHARED, log.result_shared_payload(turn.seq, run_seq, result))
    if not shared[1]:
        return [shared]  # a retry: what was read from the SQL then is in the log already
    previous = _previous_sql_turn(post.turns, turn.seq)

    def detected():
        labels = assist.labels_detected(
            database=post.dialogue.database,
            utterance=turn.text,
            sql=run["sql"],
            result=result,
            previous_sql=post.run_sql(previous.run_seq) if previous else None,
            previous_utterance=previous.text if previous else None,
            worker_language=post.dialogue.worker.language,  # the draft's language when the question has no words
            recommended=log.recommendation_shown_before(post.dialogue, turn.seq) if previous else None,
        )
        dialogue = post.dialogue
        labels.update(
            assist.goal_match(
                database=dialogue.database,
                goal_sql=dialogue.goal.sql if dialogue.goal_id else "",
                sql=run["sql"],
                result=result,
            )
        )
        recorded = post.record_server(EventKind.TURN_LABELS, log.turn_labels_payload(turn.seq, "detected", labels))
        suite = assist.goal_match_suite(labels)
        if suite is not None:
            # The suite saw no difference from the goal: the slow search for one runs apart from the room, once the
            # label it overrides is stored, and runs the search alone (the suite's answer goes with it).
            transaction.on_commit(lambda: _goal_match_search_later(dialogue.pk, turn.seq, run_seq, suite), robust=True)
        return [recorded]

    return [shared, *post.then(detected)]


# The goal-match searches of the embedded stack: one at a time on a thread of the server's process, 16 waiting at most,
# none started after waiting a minute; each runs within SQL_COMPARE_SECONDS (dialogs.embedded_jobs).
_embedded_searches = BoundedJobs("goal-match-search", threads=1, waiting=16, stale_seconds=60.0)


def _goal_match_search_later(dialogue_id: int, turn: int, run_seq: int, suite: dict) -> None:
    """Hand the search to the background: a Celery task with a broker; on the embedded defaults, where an eager task
    would run on this thread (a room's follow-up, which its socket awaits), `_embedded_searches`."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _embedded_searches.submit(_goal_match_search_embedded, dialogue_id, turn, run_seq, suite)
        return
    from dialogs.tasks import goal_match_search  # the tasks module names the room's work, not the other way round

    goal_match_search.delay(dialogue_id, turn, run_seq, suite)


def _goal_match_search_embedded(dialogue_id: int, turn: int, run_seq: int, suite: dict) -> None:
    goal_match_search(dialogue_id=dialogue_id, turn=turn, run_seq=run_seq, suite=suite)


def goal_match_search(*, dialogue_id: int, turn: int, run_seq: int, suite: dict | None = None) -> Event | None:
    """The search a shared result's goal match was waiting for (assist.goal_match, `goal_match_search` "due"), within
    SQL_COMPARE_SECONDS, recorded as another detected label of the turn (its goal_match keys override the first ones)
    and announced to the room. With `suite`, what the first label said of the suite (assist.goal_match_suite), only
    the search runs; without (a task queued before the suite's answer went along), the whole comparison. Nothing is
    recorded once the dialogue has ended, or when the run's result cannot be read any more."""
    dialogue = Dialogue.objects.select_related("database", "goal").get(pk=dialogue_id)
    if dialogue.status in ENDED_STATUSES or not dialogue.goal_id:
        return None
    run = _sql_run_event(dialogue, run_seq)
    result = payload_bounded(EventKind.SQL_RUN, run.payload)["result"]
    labels = assist.goal_match(
        database=dialogue.database,
        goal_sql=dialogue.goal.sql,
        sql=run.payload["sql"],
        result=result,
        search=True,
        suite=suite,
    )
    if labels.get("goal_match") is None:
        return None
    try:
        event, _ = dialogue_record(
            dialogue=dialogue,
            author=None,
            kind=EventKind.TURN_LABELS,
            payload=log.turn_labels_payload(turn, "detected", labels),
            while_open=True,
        )
    except DialogueError:
        return None  # it ended while the search ran
    broadcast.room_events_on_commit(dialogue_id=dialogue_id, seq=event.seq)
    return event


def _previous_sql_turn(turns: dict[int, TurnState], seq: int) -> TurnState | None:
    """The newest turn before `seq` that was answered with SQL and not dropped: what a follow-up question builds on
    (CHASE's relations hold between consecutive SQL turns; a courtesy or a clarification in between is skipped)."""
    earlier = [turn for turn in turns.values() if turn.seq < seq and turn.run_seq and not turn.dropped]
    return earlier[-1] if earlier else None


def _post_response(post: _Post):
    turn = post.turn()
    if turn.acts is None:
        raise DialogueError("order", gettext("Label the user's acts for this turn before responding."))
    acts = post.acts("system")
    text = post.text("text", limit=settings.UTTERANCE_MAX_CHARS)
    broken = act_rule_broken(turn.acts, acts)
    if broken:
        raise DialogueError("act_rule", broken)
    if "CONFIRM_SQL" in acts and turn.run_seq is None:
        raise DialogueError(
            "order", gettext("CONFIRM_SQL needs a result table: run the SQL and send the result first.")
        )
    if "CONFIRM_SQL" in acts and settings.CHASE_PHENOMENA_REQUIRED and "contextual_phenomena" not in turn.labels:
        raise DialogueError("order", gettext("Set the question's contextual phenomena before confirming its SQL."))
    payload = log.response_payload(turn.seq, text, acts, turn.run_seq, log.draft_use(turn.draft, text))
    response = post.record(EventKind.RESPONSE, payload)
    if not (response[1] and turn.run_seq and "CONFIRM_SQL" in acts and assist.recommendations_enabled()):
        return [response]

    def recommended():
        # Answered with SQL: the worker's next question can build on it, so recommend what kind to ask.
        recommendation = assist.recommendation_next(
            database=post.dialogue.database,
            turn=turn.seq,
            sql=post.run_sql(turn.run_seq),
            offered=[],
            utterance=turn.text,  # worded in the dialogue's language, as the draft is
            worker_language=post.dialogue.worker.language,
        )
        return [] if recommendation is None else [post.record_server(EventKind.RECOMMENDATION, recommendation)]

    return [response, *post.then(recommended)]


def _post_recommend(post: _Post):
    """The worker asks for another recommendation for their next question."""
    turn = post.turn()
    offered = _offered(post.dialogue, turn.seq)
    if not offered:
        raise DialogueError("order", gettext("There is no recommendation for this question to replace."))
    _check_another_allowed(offered)
    recommendation = assist.recommendation_next(
        database=post.dialogue.database,
        turn=turn.seq,
        sql=post.run_sql(turn.run_seq),
        offered=offered,
        utterance=turn.text,
        worker_language=post.dialogue.worker.language,
    )
    if recommendation is None:
        raise DialogueError(
            "too_many", gettext("There is no other kind of question to suggest here: ask what you like.")
        )
    # Counted again under the dialogue's lock: six sockets asking at once all passed the count above.
    return [
        dialogue_record(
            dialogue=post.dialogue,
            author=post.person,
            kind=EventKind.RECOMMENDATION,
            payload=recommendation,
            client_id=post.client_id,
            role=post.side,
            while_open=True,
            check=lambda: _check_another_allowed(_offered(post.dialogue, turn.seq)),
        )
    ]


def _offered(dialogue: Dialogue, turn: int) -> list[dict]:
    """The recommendations offered so far for the question after `turn`."""
    return [
        event.payload
        for event in dialogue.events.filter(kind=EventKind.RECOMMENDATION, seq__gt=turn).only("payload")
        if event.payload.get("turn") == turn
    ]


def _check_another_allowed(offered: list[dict]) -> None:
    if len(offered) >= settings.INTENT_RECOMMENDATIONS_PER_TURN:
        raise DialogueError("too_many", gettext("That was the last suggestion for now: ask what you like."))


# The turn labels checked on their value alone (the intent and the schema links need the turn: _post_turn_labels).
_PLAIN_LABEL_CHECKS = {
    "contextual_phenomena": check_phenomena,
    "pragmatics": check_pragmatics,
    "question_style": check_question_style,
}


def _post_turn_labels(post: _Post):
    """The expert sets, corrects or confirms a turn's labels (any of log.LABEL_FIELDS); labels not in the message
    stay as they are."""
    turn = post.turn()
    labels = {}
    try:
        if "intent" in post.message:
            if not turn.run_seq:
                raise LabelError(
                    gettext("an intent is the relation between two SQL turns: send this turn's result first")
                )
            labels["intent"] = check_intent(post.message["intent"])
        if "schema_linking" in post.message:
            labels["schema_linking"] = check_schema_linking(
                post.message["schema_linking"],
                tokens=utterance_toks(turn.text),
                schema=post.dialogue.database.schema,
            )
        labels.update({name: check(post.message[name]) for name, check in _PLAIN_LABEL_CHECKS.items()
                       if name in post.message})  # fmt: skip
        if "thematic_relations" in post.message:
            given, follow_up = post.message["thematic_relations"], _previous_sql_turn(post.turns, turn.seq) is not None
            labels["thematic_relations"] = check_thematic_of_turn(given, follow_up=follow_up)
    except LabelError as exc:
        raise DialogueError("labels", str(exc)) from exc
    if not labels:
        raise DialogueError(
            "invalid", gettext("Send at least one of: %(fields)s.") % {"fields": ", ".join(log.LABEL_FIELDS)}
        )
    return [post.record(EventKind.TURN_LABELS, log.turn_labels_payload(turn.seq, "expert", labels))]


def _post_drop(post: _Post):
    turn = post.turn()
    warning = post.text("warning", limit=NOTE_MAX_CHARS, required=False) or (
        "This question did not follow the instructions and will not count. Please ask questions about the data."
    )
    return [post.record(EventKind.DROP, log.drop_payload(turn.seq, warning))]


def _post_score(post: _Post):
    return _score(post.dialogue, post.person, post.message, post.client_id)


# Every message kind a participant may send: the side that sends it, its handler, and whether handling it may wait on
# the sandbox (None: never). The one table the type checks, the sets below and the consumers' choice of thread are
# read from. A run waits up to the sandbox's time limit ("runs"); a request for another suggestion reads real values
# from the database file ("assist"). What a share or a response adds (the goal comparison runs the goal's SQL; the
# next suggestion reads values) is worked out after them (`later`), so they themselves touch no sandbox.
_HANDLERS = {
    "utterance": (Role.WORKER, _post_utterance, None),
    "end": (Role.WORKER, _post_end, None),
    "stop": (Role.WORKER, _post_stop, None),
    "user_acts": (Role.EXPERT, _post_user_acts, None),
    "sql_run": (Role.EXPERT, _post_sql_run, "runs"),
    "share_result": (Role.EXPERT, _post_share_result, None),
    "response": (Role.EXPERT, _post_response, None),
    "drop": (Role.EXPERT, _post_drop, None),
    "terminate": (Role.EXPERT, _post_terminate, None),
    "score": (Role.EXPERT, _post_score, None),
    "recommend": (Role.WORKER, _post_recommend, "assist"),
    "turn_labels": (Role.EXPERT, _post_turn_labels, None),
    "model_sql": (Role.EXPERT, _post_model_sql, None),
}
# Where what a message adds later (`_Post.then`) is worked out, when not on the assist pool: a model's draft waits on
# the model for up to MODEL_TIMEOUT_SECONDS, on threads of its own.
_FOLLOW_UP_POOLS = {"model_sql": "model"}
# The kinds whose follow-ups a room socket lets run alongside the sender's next messages and the events it delivers:
# nothing the sender sends next is checked against them (the suggestion after an answer is the worker's; a model's
# draft is waited for by nobody). A shared result's are awaited: what it reads from the SQL (the detected labels and
# the answer's draft) is part of the turn that the expert's response is recorded against (what they did with the
# draft). Awaiting the suggestion held the expert's own response back from their screen for its whole computation
# (99th percentile: 0.1 s at 50 rooms, 0.6 s at 200).
_FOLLOW_UPS_ALONGSIDE = frozenset({"response", "model_sql"})
WORKER_TYPES = frozenset(kind for kind, (side, _, _) in _HANDLERS.items() if side == Role.WORKER)
EXPERT_TYPES = frozenset(kind for kind, (side, _, _) in _HANDLERS.items() if side == Role.EXPERT)


def sandbox_pool(kind: str) -> str | None:
    """The pool of threads a message of `kind` is handled on when its handling may wait on the sandbox ("runs",
    "assist"), or None: the thread every room's database work shares."""
    handler = _HANDLERS.get(kind)
    return handler[2] if handler else None


def follow_up_pool(kind: str) -> str:
    """The pool of threads the follow-ups of a message of `kind` run on ("assist", or "model" for a model's draft)."""
    return _FOLLOW_UP_POOLS.get(kind, "assist")


def follow_up_alongside(kind: str) -> bool:
    """Whether a room socket lets the follow-ups of a message of `kind` run alongside its next messages (else it
    awaits them first)."""
    return kind in _FOLLOW_UPS_ALONGSIDE


def _post(dialogue: Dialogue, person: User, side: str, kind: str, message: dict, client_id: str, turns, later, runs):
    post = _Post(dialogue, person, side, message, client_id, turns, later, runs or {})
    if kind != "score" and dialogue.is_over:
        # As last seen (a status never leaves the ended ones); the row lock has the final word. A score comes after.
        raise _closed()
    return _HANDLERS[kind][1](post)


def _end(
    dialogue: Dialogue,
    person: User | None,
    side: str,
    status: str,
    client_id,
    reason: str,
    *,
    extra: dict | None = None,
    requeue: bool = False,
):
    """Close the dialogue with `status` and record the end event (its payload with `extra` added); the worker gets a
    completion code, or with `requeue` goes back to the queue in their old place instead (no code: not done yet)."""
    with transaction.atomic():
        # The expert read in the same statement (the lobby is told they finished), and only the dialogue's row locked.
        locked = Dialogue.objects.select_for_update(of=("self",)).select_related("expert").get(pk=dialogue.pk)
        if locked.is_over:
            raise _closed()
        answered = log.dialogue_answered(locked)
        if status == DialogueStatus.COMPLETED and answered < locked.min_questions:
            remaining = locked.min_questions - answered
            raise DialogueError(
                "too_early",
                ngettext(
                    "Ask %(count)d more question about the data before ending: a question counts once the expert"
                    " has answered it with a table.",
                    "Ask %(count)d more questions about the data before ending: a question counts once the expert"
                    " has answered it with a table.",
                    remaining,
                )
                % {"count": remaining},
            )
        locked.status = status
        locked.ended_at = timezone.now()
        if not requeue:
            locked.completion_code = locked.completion_code or completion_code()
        locked.incomplete = answered < locked.min_questions
        locked.save(update_fields=["status", "ended_at", "completion_code", "incomplete"])
        if not locked.is_solo:
            # The expert finishes this one (scores it) before the next: the room asks whether to stay ready.
            lobby_leave(person=locked.expert)
        if requeue:
            lobby_requeue(dialogue=locked)
        event = dialogue_record(
            dialogue=locked,
            author=person,
            kind=EventKind.END,
            payload={**log.end_payload(status, reason, locked.completion_code), **(extra or {})},
            client_id=client_id,
            role=side,
        )
    dialogue_ended.send(sender=Dialogue, dialogue=locked)
    # Everything the end changed, on the caller's instance too: a room socket builds the state it sends after a
    # response from its own, and a response still on its way after this end would otherwise show the dialogue ended
    # with no completion code.
    for name in ("status", "ended_at", "completion_code", "incomplete", "requeued", "last_seq"):
        setattr(dialogue, name, getattr(locked, name))
    return [event]


def _score(dialogue: Dialogue, person: User, message: dict, client_id: str):
    """The expert scores the worker 1–5 once the dialogue has ended; below 3 drops it and blocks the worker. A
    cancelled pairing (the worker sent back to the queue) is never scored: it says nothing of the worker, and a low
    score would block someone who did nothing wrong."""
    with transaction.atomic():
        # The row as it stands, locked: what the checks read (no read before the lock: one statement fewer).
        locked = Dialogue.objects.select_for_update().get(pk=dialogue.pk)
        for name in ("status", "last_seq", "score", "requeued"):
            setattr(dialogue, name, getattr(locked, name))
        score, comment = _score_checked(locked, message)
        locked.score, locked.score_comment = score, comment
        fields = ["score", "score_comment"]
        dialogue_scored.send(sender=Dialogue, dialogue=locked, score=score)
        if score_drops(score):
            locked.status = DialogueStatus.DROPPED
            fields.append("status")
            # Blocking the worker is the quality rules' (review.quality listens to dialogue_scored): they record the
            # rule and its evidence, and QUALITY_BLOCK_LOW_SCORES decides after how many low scores.
        locked.save(update_fields=fields)
        event = dialogue_record(
            dialogue=locked,
            author=person,
            kind=EventKind.SCORE,
            payload=log.score_payload(score, comment),
            client_id=client_id,
            role=Role.EXPERT,
        )
    return [event]


def _score_checked(dialogue: Dialogue, message: dict) -> tuple[int, str]:
    """The score and comment of a score message for `dialogue` (read under its row lock), or the refusal: checked in
    this order, so that the dialogue's standing is told before what is wrong with the message."""
    if not dialogue.is_over:
        raise DialogueError(
            "order", gettext("Score the worker after the dialogue has ended (end or terminate it first).")
        )
    if dialogue.requeued:
        raise DialogueError(
            "invalid",
            gettext("This pairing was cancelled and the worker went back to the queue: there is nothing to score."),
        )
    if dialogue.score is not None:
        raise DialogueError("closed", gettext("This dialogue has already been scored."))
    score = message.get("score")
    if not isinstance(score, int) or isinstance(score, bool) or not 1 <= score <= 5:
        raise DialogueError("invalid", gettext("'score' must be a whole number from 1 to 5."))
    return score, _text(message, "comment", limit=COMMENT_MAX_CHARS, required=False)


# --- What a supervisor does ----------------------------------------------------------------------------------------

# The author role of a supervisor's act in the log: neither side of the room (docs/protocol.md, "Watching a room").
SUPERVISOR = "supervisor"


def _supervision_reason(dialogue: Dialogue, supervisor: User, reason) -> str:
    if not can(supervisor, "rooms.supervise"):
        raise DialogueError("forbidden", gettext("You may not act on rooms."))
    if dialogue.is_solo:
        raise DialogueError("invalid", gettext("A solo sequence has no room to act on."))
    return _text({"reason": reason}, "reason", limit=500)


def dialogue_supervise_end(*, dialogue: Dialogue, supervisor: User, reason: str) -> list[tuple[Event, bool]]:
    """A supervisor ends a stuck room, saying why. The dialogue is abandoned (reviewed like any other that stopped
    early); the worker keeps their completion code and, like the expert, is shown the reason. The end event is the
    supervisor's: who and why stay in the log. Refusals: forbidden, invalid, too_long, closed."""
    return _supervised_end(dialogue, supervisor, reason, requeue=False)


def dialogue_supervise_requeue(*, dialogue: Dialogue, supervisor: User, reason: str) -> list[tuple[Event, bool]]:
    """A supervisor sends the worker of a room back to the queue, saying why: the room ends for this pairing (abandoned,
    its end event `requeued` and the supervisor's), and the worker waits again in the place they first queued in,
    with no completion code yet (they are not done). Pairs whoever can be paired once it is committed."""
    events = _supervised_end(dialogue, supervisor, reason, requeue=True)
    lobby_pair()
    return events


def _supervised_end(dialogue: Dialogue, supervisor: User, reason, *, requeue: bool) -> list[tuple[Event, bool]]:
    reason = _supervision_reason(dialogue, supervisor, reason)
    extra = {"supervisor": supervisor.username, **({"requeued": True} if requeue else {})}
    status = DialogueStatus.ABANDONED
    events = _end(dialogue, supervisor, SUPERVISOR, status, None, reason, extra=extra, requeue=requeue)
    broadcast.room_events_on_commit(dialogue_id=dialogue.pk, seq=events[0][0].seq)
    return events


# Where each side's absence is kept (see Dialogue.worker_gone_at).
_GONE_AT = {Role.WORKER: "worker_gone_at", Role.EXPERT: "expert_gone_at"}


@dataclass
class PresenceChange:
    """What one socket of a side opening or closing changed (dialogue_presence)."""

    dialogue_id: int
    side: str
    present: bool  # the side has a room socket open
    changed: bool  # it came (back) or went: its partner is told once, however many sockets the side opens or closes
    event: Event | None = None  # the side's first join: the only event a socket ever adds to the log

    @property
    def state(self) -> str:
        """What the partner's `presence` frame says of it."""
        return "connected" if self.present else "reconnecting"


def dialogue_presence(*, dialogue: Dialogue, person: User, joined: bool, now=None) -> PresenceChange | None:
    """A participant's room socket opened (its LiveSocket row written) or closed (its row gone): keep the side's
    presence, which is transient state, not the log's. The log keeps who was there and when: the side's first join
    (and the first time both sides are in, the dialogue becomes active). A socket of a side that was gone clears the
    time it went; the side's last socket closing sets it, and after PRESENCE_GRACE_SECONDS the dialogue is abandoned
    (dialogue_abandon_if_gone), which is when a leave is recorded. None once the dialogue has ended."""
    side = _side(dialogue, person)
    field = _GONE_AT[side]
    # No savepoint inside the caller's transaction (a socket's row and this presence are one): nothing below is taken
    # back while the caller goes on.
    with transaction.atomic(savepoint=False):
        # The row lock orders the sockets of one side opening and closing at once: exactly one of them sees the change.
        # An opening socket reads, with the lock held, whether each side has joined (a join is recorded under this
        # lock, so what it reads stands until the transaction ends; `_presence_row`).
        locked = _presence_row(dialogue.pk, field, joins=joined)
        if locked is None or locked["status"] in ENDED_STATUSES:
            return None
        gone_at = locked[field]
        if not joined:
            if gone_at is not None or _room_sockets(dialogue, side):  # another tab keeps the side in
                return PresenceChange(dialogue.pk, side, present=gone_at is None, changed=False)
            gone_at = now or timezone.now()
            Dialogue.objects.filter(pk=dialogue.pk).update(**{field: gone_at})
            setattr(dialogue, field, gone_at)
            return PresenceChange(dialogue.pk, side, present=False, changed=True)
        event = None
        if not locked[f"{side}_joined"]:
            event, _ = dialogue_record(dialogue=dialogue, author=person, kind=EventKind.JOIN, payload={}, role=side)
            other = Role.EXPERT if side == Role.WORKER else Role.WORKER
            if locked[f"{other}_joined"]:
                _activate(dialogue, locked["status"])
        if gone_at is not None:
            Dialogue.objects.filter(pk=dialogue.pk).update(**{field: None})
        setattr(dialogue, field, None)
        return PresenceChange(
            dialogue.pk, side, present=True, changed=event is not None or gone_at is not None, event=event
        )


def _presence_row(dialogue_id: int, gone_field: str, *, joins: bool) -> dict | None:
    """The dialogue's status and `gone_field` (read for whether it is set), under its row lock, and with `joins`
    whether each side's join is in the log (`worker_joined`, `expert_joined`); None when there is no such dialogue.
    Raw SQL: the ORM's form of this query (with its two EXISTS) showed more CPU in bench/chat_load.py's profile of a
    room socket's opening than the two reads it saved."""
    quote = connection.ops.quote_name
    joined = []
    params: list = []
    if joins:
        for role in _GONE_AT:
            joined.append(
                f"EXISTS (SELECT 1 FROM {quote(Event._meta.db_table)} WHERE {quote('dialogue_id')} = %s "  # noqa: S608
                f"AND {quote('kind')} = %s AND {quote('author_role')} = %s)"
            )
            params += [dialogue_id, EventKind.JOIN, role]
    locking = connection.features.has_select_for_update
    # PostgreSQL (read committed) takes a statement's snapshot before it waits for the row lock: joins read in the
    # locking statement missed one that the lock's holder committed meanwhile (the other side's socket opening at the
    # same moment), and the dialogue stayed waiting with both joins in its log (test_faults). So the joins are read
    # by a second statement once the lock is held. SQLite has one writer at a time: one statement.
    columns = [quote("status"), quote(gone_field), *([] if locking else joined)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(columns)} FROM {quote(Dialogue._meta.db_table)} "  # noqa: S608
            f"WHERE {quote('id')} = %s{' FOR UPDATE' if locking else ''}",
            [*([] if locking else params), dialogue_id],
        )
        row = cursor.fetchone()
        if row is not None and locking and joined:
            cursor.execute(f"SELECT {', '.join(joined)}", params)
            row = (*row, *cursor.fetchone())
    if row is None:
        return None
    # Only whether each value is set is read (SQLite gives a date as text and a truth as 0 or 1).
    return dict(zip(["status", gone_field, *(f"{role}_joined" for role in _GONE_AT)], row, strict=False))


def _activate(dialogue: Dialogue, status: str) -> None:
    """Both sides are in (the second side's first join): a waiting dialogue becomes active."""
    if status == DialogueStatus.WAITING:
        Dialogue.objects.filter(pk=dialogue.pk, status=DialogueStatus.WAITING).update(status=DialogueStatus.ACTIVE)
        dialogue.status = DialogueStatus.ACTIVE


def _room_sockets(dialogue: Dialogue, side: str) -> int:
    return LiveSocket.objects.filter(dialogue=dialogue, kind=LiveSocket.Kind.ROOM, side=side).count()


def side_connections(dialogue: Dialogue, side: str) -> tuple[int, object]:
    """How many sockets `side` has open in the room (a person may use two tabs), from the live socket rows, and since
    when it has been gone (None while any is open). The one rule for presence."""
    open_sockets = _room_sockets(dialogue, side)
    if open_sockets:
        return open_sockets, None
    return 0, Dialogue.objects.filter(pk=dialogue.pk).values_list(_GONE_AT[side], flat=True).first()


def partner_connected(dialogue: Dialogue, side: str) -> bool:
    """Whether the other side has at least one socket open in the room (the count alone: side_connections would also
    read since when an absent side has been gone, a read the room's first state threw away)."""
    other = Role.EXPERT if side == Role.WORKER else Role.WORKER
    return _room_sockets(dialogue, other) > 0


def dialogue_abandon_if_gone(*, dialogue: Dialogue, now=None) -> list[tuple[Event, bool]]:
    """End the dialogue as abandoned when a side has been gone longer than the grace period. Every side away at that
    moment left for good: its leave (with when its last socket closed) goes in the log just before the end."""
    now = now or timezone.now()
    grace = timedelta(seconds=settings.PRESENCE_GRACE_SECONDS)
    with transaction.atomic():
        locked = Dialogue.objects.select_for_update().get(pk=dialogue.pk)
        dialogue.status, dialogue.last_seq = locked.status, locked.last_seq
        if locked.is_over:
            return []
        away = {side: getattr(locked, field) for side, field in _GONE_AT.items() if getattr(locked, field) is not None}
        past = [side for side in (Role.WORKER, Role.EXPERT) if side in away and now - away[side] >= grace]
        if not past:
            return []
        people = {Role.WORKER: locked.worker, Role.EXPERT: locked.expert}
        leaves = [
            dialogue_record(
                dialogue=locked,
                author=people[side],
                kind=EventKind.LEAVE,
                payload=log.leave_payload(away[side]),
                role=side,
            )
            for side in sorted(away, key=away.get)
        ]
        ended = _end(dialogue, None, "", DialogueStatus.ABANDONED, None, LEFT_AND_GONE[past[0]])
    return leaves + ended


def dialogues_sweep(*, now=None) -> list[Dialogue]:
    """Abandon every open dialogue whose participant is gone past the grace period (for when nobody is left
    connected to notice). Returns the dialogues it ended."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.PRESENCE_GRACE_SECONDS)
    # Only a dialogue a side has been gone from that long: looking at every open one cost queries per room per tick.
    open_ones = Dialogue.objects.filter(status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE])
    candidates = open_ones.filter(worker_gone_at__lte=limit) | open_ones.filter(expert_gone_at__lte=limit)
    return [dialogue for dialogue in candidates if dialogue_abandon_if_gone(dialogue=dialogue, now=now)]
