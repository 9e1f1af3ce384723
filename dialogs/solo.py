"""Solo sequences (SParC, CHASE-C): one expert writes the questions and their SQL, recorded as a room records turns."""

from django.utils.translation import gettext

from annotation.models import Database, Goal, Role, User
from annotation.people.roles import can
from dialogs.control_group import model_help_for
from dialogs.errors import DialogueError
from dialogs.log import dialogue_turns
from dialogs.models import Dialogue, DialogueMode, DialogueStatus, Event, EventKind
from dialogs.room import _end, dialogue_post, dialogue_record


def solo_create(
    *, expert: User, database: Database, goal: Goal | None = None, mode: str = DialogueMode.SOLO
) -> Dialogue:
    """Start a solo sequence on `database` (optionally towards `goal`): a dialogue whose author is both sides. A
    query-first item (dialogs.query_first) is written the same way, with its own `mode`."""
    if not can(expert, "chat.as_expert"):
        raise DialogueError("forbidden", gettext("Only experts write solo sequences."))
    if goal is not None and goal.database_id != database.pk:
        raise DialogueError("invalid", gettext("The goal belongs to another database."))
    dialogue = Dialogue.objects.create(
        database=database,
        database_version=database.current_version,
        goal=goal,
        worker=expert,
        expert=expert,
        mode=mode,
        status=DialogueStatus.ACTIVE,
        **model_help_for(None),
    )
    dialogue_record(dialogue=dialogue, author=expert, kind=EventKind.JOIN, payload={}, role=Role.EXPERT)
    return dialogue


def solo_turn_add(*, dialogue: Dialogue, person: User, question: str, sql: str, request_id: str) -> int:
    """Add one question with its SQL to a solo sequence, as the room records a turn: the run, the question, its acts
    (INFORM_SQL), the shared result (with what the platform reads from it), and the system's side, which is the draft
    response (CONFIRM_SQL). Then the next question's recommendation follows as in a chat. Returns the question's seq.

    `request_id` makes a retry safe: each step's client id derives from it, so a repeated request stores nothing new.
    The SQL is run first; a question whose SQL fails is refused (`invalid`, with the sandbox's message) and only the
    failed run, a draft like any other, stays in the log."""
    if not dialogue.is_solo:
        raise DialogueError("invalid", gettext("This is not a solo sequence."))
    if not isinstance(request_id, str) or not 1 <= len(request_id) <= 48 or "\x00" in request_id:
        raise DialogueError("invalid", gettext("A request id of 1 to 48 characters is needed."))

    def step(suffix: str, **message) -> Event:
        return dialogue_post(dialogue=dialogue, person=person, message={"id": f"{request_id}:{suffix}", **message})[0][
            0
        ]

    run = step("run", type="sql_run", sql=sql)
    result = run.payload["result"]
    if not result.get("ok"):
        error = result.get("error") or {}
        raise DialogueError(
            "invalid", gettext("The SQL fails: %(error)s") % {"error": error.get("message", gettext("error"))}
        )
    turn = step("question", type="utterance", text=question).seq
    step("acts", type="user_acts", turn=turn, acts=["INFORM_SQL"])
    step("share", type="share_result", turn=turn, run=run.seq)
    draft = dialogue_turns(dialogue)[turn].draft or "Here is the result."
    step("answer", type="response", turn=turn, text=draft, acts=["CONFIRM_SQL"])
    return turn


def solo_withdraw(*, dialogue: Dialogue, by: User, reason: str) -> None:
    """Close an unfinished solo sequence its author will not finish, for them: its item was dealt to someone else
    after they left a deal (dialogs.deals.services.deal_member_remove). It ends abandoned through the room's one end
    (dialogs.room), its end event by `by` with `reason`; as any abandoned dialogue, it is incomplete below its
    minimum. A sequence already over is left as it is."""
    if not dialogue.is_solo or dialogue.is_over:
        return
    try:
        _end(dialogue, by, Role.ADMIN, DialogueStatus.ABANDONED, None, reason, extra={"withdrawn": True})
    except DialogueError as exc:
        if exc.code != "closed":  # its author finished it a moment ago: nothing to close
            raise
