"""Query-first annotation (OTTA, docs/goals.md): a sampled goal's SQL gets its question in two phases by two people.

Phase 1 (`query_first_open`, then `query_first_write` or `query_first_skip`): an expert reads the goal's tree as a
plan with intermediate results, may take a drafted question as a starting point (`query_first_draft`, recorded) and
adapt a filter whose value makes no sense (`query_first_adapt`, recorded before and after), and writes the question,
or skips the goal with a reason. Phase 2 (`query_first_align`): another expert corrects the question (phase 1's is
kept) and assigns its tokens to the plan's steps. Then the goal gets the question and becomes usable, and the result
is a dialogue of mode QUERY_FIRST with one turn, written through the solo sequences' path, so review, statistics and
exports take it as they take a solo sequence.
"""

from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation.goals.sampler import tree_sql
from annotation.goals.tree_plan import TreeError, adapt_filter, check_alignment, draft_question, plan
from annotation.labels.tokens import utterance_toks
from annotation.models import Goal, User
from annotation.people.roles import can
from annotation.sql.analysis import SqlAnalysisError, hardness_of, sql_run
from dialogs import log
from dialogs.assist import schema_with_flags
from dialogs.errors import DialogueError
from dialogs.models import Dialogue, DialogueMode, DialogueStatus, QueryFirstItem
from dialogs.room import dialogue_post
from dialogs.selectors import goals_to_write
from dialogs.signals import query_first_phase1_closed
from dialogs.solo import solo_create, solo_turn_add

REASON_MAX_CHARS = 500
_WRITTEN = QueryFirstItem.WRITTEN


def _expert(person: User) -> None:
    if not can(person, "chat.as_expert"):
        raise DialogueError("forbidden", gettext("Only experts annotate sampled goals."))


def _text(value, name: str, limit: int) -> str:
    try:
        return log.text_checked(value, name=name, limit=limit)
    except log.TextRefused as exc:
        raise DialogueError(exc.code, exc.message) from exc


def query_first_open(*, person: User, goal: Goal) -> QueryFirstItem:
    """Start (or resume) phase 1 on `goal` for `person`: their item, holding the tree as they adapt it and the time
    they opened it. Refused for a goal that is not offered to them (`goals_to_write`)."""
    _expert(person)
    existing = QueryFirstItem.objects.filter(goal=goal, writer=person).first()
    if existing is not None and existing.stage == QueryFirstItem.Stage.WRITING:
        return existing
    if not goals_to_write(person).filter(pk=goal.pk).exists():
        raise DialogueError(
            "invalid", gettext("This goal is not waiting for your question (written, skipped or not sampled).")
        )
    item, _ = QueryFirstItem.objects.get_or_create(
        goal=goal, writer=person, defaults={"tree": goal.tree, "sql": goal.sql, "opened_at": timezone.now()}
    )
    return item


def _writing(item: QueryFirstItem, person: User) -> QueryFirstItem:
    _expert(person)
    if item.writer_id != person.pk:
        raise DialogueError("forbidden", gettext("This is another person's phase 1."))
    if item.stage != QueryFirstItem.Stage.WRITING:
        raise DialogueError("closed", gettext("Phase 1 of this goal is over."))
    return item


def query_first_draft(*, item: QueryFirstItem, person: User) -> str:
    """A question drafted from the item's tree, recorded as offered: the question the person writes began as it. A tree
    that makes no plain question gets no draft (annotation.goals.tree_plan.draft_question): refused, saying so, and
    nothing is recorded."""
    _writing(item, person)
    database = item.goal.database
    path = str(database.path) if database.has_file else None
    drafted = draft_question(item.tree, schema_with_flags(database.schema, item.goal.sql, path))
    if not drafted:
        raise DialogueError(
            "invalid", gettext("This goal's plan makes no plain question to draft: write it from the plan.")
        )
    item.drafted_question = drafted
    item.save(update_fields=["drafted_question"])
    return item.drafted_question


def query_first_adapt(*, item: QueryFirstItem, person: User, step_id: str, op: str, value) -> dict:
    """Change one filter of the item's tree (operator and value): the tree and SQL are rewritten and run, and kept
    only when the SQL returns rows; the change (before, after) is recorded. Returns the change."""
    _writing(item, person)
    try:
        tree, change = adapt_filter(item.tree, step_id=step_id, op=op, value=value)
    except TreeError as exc:
        raise DialogueError("invalid", str(exc)) from exc
    sql = tree_sql(tree)
    result = sql_run(item.goal.database.path, sql)
    if not result.get("ok"):
        raise DialogueError(
            "invalid",
            gettext("With this change the SQL fails: %(error)s")
            % {"error": (result.get("error") or {}).get("message")},
        )
    if not result.get("rows") or result["rows"] in ([[0]], [[None]]):
        raise DialogueError("invalid", gettext("With this change the SQL returns nothing: choose another value."))
    item.tree, item.sql, item.changes = tree, sql, [*item.changes, change]
    item.save(update_fields=["tree", "sql", "changes"])
    return change


def query_first_skip(*, item: QueryFirstItem, person: User, reason: str) -> None:
    """Skip the goal, saying why: it is not offered to `person` again, nor to anyone after QUERY_FIRST_MAX_SKIPS."""
    _writing(item, person)
    item.skip_reason = _text(reason, "The reason", REASON_MAX_CHARS)
    item.stage = QueryFirstItem.Stage.SKIPPED
    item.written_at = timezone.now()
    item.save(update_fields=["skip_reason", "stage", "written_at"])
    query_first_phase1_closed.send(sender=QueryFirstItem, item=item)


def query_first_write(*, item: QueryFirstItem, person: User, question: str) -> None:
    """Phase 1's question: the item waits for phase 2. Time spent is counted from opening."""
    _writing(item, person)
    question = _text(question, "The question", settings.UTTERANCE_MAX_CHARS)
    with transaction.atomic():
        Goal.objects.select_for_update().get(pk=item.goal_id)  # two writers finishing at once: one question only
        if QueryFirstItem.objects.filter(goal_id=item.goal_id, stage__in=_WRITTEN).exists():
            raise DialogueError("closed", gettext("Someone else has just written the question for this goal."))
        now = timezone.now()
        item.question_written, item.stage, item.written_at = question, QueryFirstItem.Stage.ALIGNING, now
        item.writing_seconds = max(0, round((now - item.opened_at).total_seconds()))
        item.save(update_fields=["question_written", "stage", "written_at", "writing_seconds"])
        query_first_phase1_closed.send(sender=QueryFirstItem, item=item)


def query_first_align(
    *, item: QueryFirstItem, person: User, question: str, alignment, opened_at: datetime | None = None
) -> Dialogue:
    """Phase 2: `person` (not the phase-1 writer) corrects the question and gives its tokens to the plan's steps
    (`annotation.goals.tree_plan.check_alignment`: the query type and every filter need words). The goal gets the
    question (and the adapted SQL) and becomes active; the result is a QUERY_FIRST dialogue with one turn, ended,
    so it goes to review. A refusal writes nothing. `opened_at`: when the person opened the page (time spent)."""
    _expert(person)
    if item.writer_id == person.pk:
        raise DialogueError("forbidden", gettext("Phase 2 is for another person than the one who wrote the question."))
    if item.stage != QueryFirstItem.Stage.ALIGNING:
        raise DialogueError("closed", gettext("This question is not waiting for phase 2."))
    question = _text(question, "The question", settings.UTTERANCE_MAX_CHARS)
    tokens = utterance_toks(question)
    database = item.goal.database
    try:
        spans = check_alignment(alignment, tokens, plan(item.tree, database.schema))
    except TreeError as exc:
        raise DialogueError("invalid", str(exc)) from exc
    if Goal.objects.filter(database=database, question=question, sql=item.sql).exclude(pk=item.goal_id).exists():
        raise DialogueError("invalid", gettext("The database already has a goal with this question and SQL."))
    # Three steps, so that the sandbox (the run of the item's query and the goal match of its shared result) runs in
    # no transaction (annotation.sql.sandbox.refuse_inside_transaction): the item is claimed with its new dialogue
    # under its row lock; the turn is recorded as a solo sequence's is, each step its own write; the item and the
    # goal are finished under the lock again. A claim is this person's: a retry (the same request id) resumes it and
    # stores nothing twice; someone else is told the question is being finished.
    dialogue = _align_claim(item, person, database)
    try:
        solo_turn_add(dialogue=dialogue, person=person, question=question, sql=item.sql, request_id=f"qf-{item.pk}")
        dialogue.refresh_from_db(fields=["status", "last_seq"])
        if not dialogue.is_over:
            dialogue_post(dialogue=dialogue, person=person, message={"id": f"qf-{item.pk}:end", "type": "end"})
    except DialogueError:
        _align_release(item, dialogue)
        raise
    now = timezone.now()
    try:
        with transaction.atomic():
            locked = QueryFirstItem.objects.select_for_update().get(pk=item.pk)
            if locked.stage != QueryFirstItem.Stage.ALIGNING or locked.dialogue_id != dialogue.pk:
                raise DialogueError("closed", gettext("Someone else has just finished phase 2 of this question."))
            goal = Goal.objects.select_for_update().get(pk=item.goal_id)
            goal.question, goal.active = question, True
            goal.save(update_fields=["question", "active"])
            locked.question, locked.tokens, locked.alignment = question, tokens, spans
            locked.stage, locked.aligned_at = QueryFirstItem.Stage.DONE, now
            locked.aligning_seconds = max(0, round((now - opened_at).total_seconds())) if opened_at else None
            locked.save(update_fields=["question", "tokens", "alignment", "stage", "aligned_at", "aligning_seconds"])
    except IntegrityError:
        _align_release(item, dialogue)
        raise DialogueError("invalid", gettext("The database already has a goal with this question and SQL.")) from None
    item.refresh_from_db()
    return dialogue


def _align_claim(item: QueryFirstItem, person: User, database) -> Dialogue:
    """Phase 2's first step, under the item's row lock: the item gets its dialogue (a new one, or this person's from an
    earlier try) and the goal the SQL and tree phase 1 left, which the shared result is matched against."""
    with transaction.atomic():
        locked = QueryFirstItem.objects.select_for_update().get(pk=item.pk)
        if locked.stage != QueryFirstItem.Stage.ALIGNING:
            raise DialogueError("closed", gettext("Someone else has just finished phase 2 of this question."))
        if locked.dialogue_id is not None:
            if locked.aligner_id != person.pk:
                raise DialogueError("closed", gettext("Someone else is finishing phase 2 of this question."))
            return locked.dialogue
        goal = Goal.objects.select_for_update().get(pk=item.goal_id)
        goal.sql, goal.tree = item.sql, item.tree
        goal.save(update_fields=["sql", "tree"])
        dialogue = solo_create(expert=person, database=database, goal=goal, mode=DialogueMode.QUERY_FIRST)
        locked.aligner, locked.dialogue = person, dialogue
        locked.save(update_fields=["aligner", "dialogue"])
        return dialogue


def _align_release(item: QueryFirstItem, dialogue: Dialogue) -> None:
    """A phase 2 that could not be finished (its SQL failed in the sandbox, or its question and SQL are another goal's):
    the item waits for phase 2 again, and the dialogue begun for it is closed, abandoned and incomplete (its events
    stay in the log; review never takes an incomplete dialogue)."""
    with transaction.atomic():
        locked = QueryFirstItem.objects.select_for_update().get(pk=item.pk)
        if locked.dialogue_id == dialogue.pk and locked.stage == QueryFirstItem.Stage.ALIGNING:
            locked.aligner, locked.dialogue = None, None
            locked.save(update_fields=["aligner", "dialogue"])
        Dialogue.objects.filter(pk=dialogue.pk, status=DialogueStatus.ACTIVE).update(
            status=DialogueStatus.ABANDONED, incomplete=True, ended_at=timezone.now()
        )


def query_first_corrected(*, dialogue: Dialogue, field: str, value: str) -> None:
    """A reviewer's correction of a query-first item's question or SQL, written back to the goal it made (the goal
    holds the item's question and SQL, docs/goals.md): the goal list, the rooms and the next export read the goal, not
    the log. Called inside the correction's transaction; nothing here runs SQL. The item keeps phase 2's question and
    the alignment over its words, and the log keeps every older value."""
    if dialogue.mode != DialogueMode.QUERY_FIRST or field not in ("utterance", "query") or not dialogue.goal_id:
        return
    goal = Goal.objects.select_for_update().get(pk=dialogue.goal_id)
    if field == "utterance":
        goal.question = value
        goal.save(update_fields=["question"])
        return
    goal.sql = value
    try:
        goal.hardness = hardness_of(value, dialogue.database.schema)
    except SqlAnalysisError:
        pass  # a query the review accepted on a schema-only database encodes; otherwise the hardness stays as it was
    goal.save(update_fields=["sql", "hardness"])
