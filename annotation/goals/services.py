"""Writes of reference goals: created, corrected, discarded with a reason, saved from a sampling run, imported from a
file. Each service takes keyword arguments, validates, then writes; errors a person can fix are `ValidationError`s.
"""

from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation.models import Database, Goal, GoalDiscard, User
from annotation.people.roles import can
from annotation.plumbing.jsonfile import read_json_file
from annotation.sql import analysis
from annotation.sql.sandbox import execute


def goal_check(*, database: Database, sql: str) -> str:
    """Validate a goal's SQL (it must encode under the Spider protocol and execute) and return its hardness."""
    try:
        hardness = analysis.hardness_of(sql, database.schema)
    except analysis.SqlAnalysisError as exc:
        raise ValidationError(
            gettext("The SQL cannot be encoded in the Spider format: %(exc)s") % {"exc": exc}
        ) from exc
    result = execute(database.path, sql)
    if not result.ok:
        raise ValidationError(
            gettext("The SQL fails in the sandbox (%(kind)s): %(message)s")
            % {"kind": result.error["kind"], "message": result.error["message"]}
        )
    return hardness


def goal_create(
    *, database: Database, question: str, sql: str, source: str = Goal.Source.MANUAL, active: bool = True
) -> Goal:
    """Create a reference goal after checking its SQL; hardness is computed, never typed in."""
    question, sql = question.strip(), sql.strip()
    if not question:
        raise ValidationError(gettext("The goal needs a question."))
    hardness = goal_check(database=database, sql=sql)
    if Goal.objects.filter(database=database, question=question, sql=sql).exists():
        raise ValidationError(gettext("This goal already exists on this database."))
    return Goal.objects.create(
        database=database, question=question, sql=sql, hardness=hardness, source=source, active=active
    )


def goal_update(*, goal: Goal, question: str, sql: str, active: bool) -> Goal:
    """Edit a goal; a changed SQL is checked again and its hardness recomputed. A discarded goal stays inactive."""
    question, sql = question.strip(), sql.strip()
    if not question:
        raise ValidationError(gettext("The goal needs a question."))
    if active and goal.discarded_at is not None:
        raise ValidationError(gettext("This goal was discarded: it cannot be made active again."))
    goal.hardness = goal_check(database=goal.database, sql=sql)
    goal.question, goal.sql, goal.active = question, sql, active
    goal.save(update_fields=["question", "sql", "active", "hardness"])
    return goal


# Who uses a goal, registered by the apps built on this one (dialogs: its dialogues), as `source(goal) -> int`.
_GOAL_USE_SOURCES: list = []


def goal_use_source(source) -> None:
    """Register a count of the rows that use a goal (a dialogue played on it): a goal some source counts is
    deactivated, not discarded (`goal_discard`)."""
    if source not in _GOAL_USE_SOURCES:
        _GOAL_USE_SOURCES.append(source)


GOAL_DISCARD_REASON_MAX = 300


def goal_discard(*, goal: Goal, person: User, reason: str) -> GoalDiscard:
    """Retire a goal, saying why (docs/goals.md, "Discarding a goal"): one no dialogue uses yet is discarded (inactive
    for good, never offered, its SQL kept so the sampler never draws it again); one that dialogues use is deactivated
    instead, so that they keep their goal. Either way the decision is recorded (who, when, why, what it did) and
    returned. Refuses a person who may not manage goals, an empty reason, and a goal already discarded."""
    if not can(person, "goals.manage"):
        raise ValidationError(gettext("Only admins discard goals."))
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ValidationError(gettext("Say why the goal is discarded: the reason is kept with it."))
    if len(reason) > GOAL_DISCARD_REASON_MAX:
        raise ValidationError(gettext("Say why in at most %(count)s characters.") % {"count": GOAL_DISCARD_REASON_MAX})
    with transaction.atomic():
        goal = Goal.objects.select_for_update().get(pk=goal.pk)
        if goal.discarded_at is not None:
            raise ValidationError(gettext("This goal is discarded already."))
        used = sum(source(goal) for source in _GOAL_USE_SOURCES)
        outcome = GoalDiscard.Outcome.DEACTIVATED if used else GoalDiscard.Outcome.DISCARDED
        goal.active = False
        fields = ["active"]
        if outcome == GoalDiscard.Outcome.DISCARDED:
            goal.discarded_at = timezone.now()
            fields.append("discarded_at")
        goal.save(update_fields=fields)
        return GoalDiscard.objects.create(goal=goal, by=person, reason=reason, outcome=outcome)


def goals_save_sampled(*, database: Database, goals) -> int:
    """Keep sampled goals (annotation.goals.sampler.SampledGoal) for review: inactive, without a question, with
    their tree. A goal whose SQL the database already has is skipped. Returns how many were saved."""
    known = set(Goal.objects.filter(database=database).values_list("sql", flat=True))
    fresh = [goal for goal in goals if goal.sql not in known]
    Goal.objects.bulk_create(
        Goal(
            database=database,
            question="",
            sql=goal.sql,
            hardness=goal.hardness,
            source=Goal.Source.GENERATED,
            active=False,
            tree=goal.tree,
        )
        for goal in fresh
    )
    return len(fresh)


@dataclass
class GoalImportReport:
    created: int = 0
    duplicates: int = 0
    filtered_out: int = 0
    skipped: list[tuple[str, str, str]] = field(default_factory=list)  # (db_id, question, reason)


def _all_text(*values) -> bool:
    return all(isinstance(value, str) for value in values)


def _goal_records(data) -> tuple[str, list[tuple[str, str, str]]]:
    """Recognise the file format and yield (db_id, question, sql) records from it."""
    if not isinstance(data, list):
        raise ValidationError(  # i18n-exempt: read by the import_goals command only
            "A goal file is a JSON list of Spider, SParC, CoSQL or CHASE records."
        )
    records: list[tuple[str, str, str]] = []
    source = None
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            raise ValidationError(  # i18n-exempt: read by the import_goals command only
                f"Record {index} is not a JSON object."
            )
        if "final" in item and "database_id" in item:  # SParC, CoSQL state tracking, CHASE
            final = item["final"]
            if not isinstance(final, dict) or not _all_text(
                item["database_id"], final.get("utterance", ""), final.get("query", "")
            ):
                raise ValidationError(  # i18n-exempt: read by the import_goals command only
                    f"Record {index}: database_id and the final utterance and query must be text."
                )
            turns = item.get("interaction")
            first_turn = turns[0] if isinstance(turns, list) and turns and isinstance(turns[0], dict) else {}
            # CHASE turns carry question_id (and keys sorted); SParC and CoSQL turns do not.
            source = source or ("chase" if "question_id" in first_turn else "sparc")
            records.append((item["database_id"], final.get("utterance", ""), final.get("query", "")))
        elif "question" in item and "query" in item and "db_id" in item:  # Spider
            if not _all_text(item["db_id"], item["question"], item["query"]):
                raise ValidationError(  # i18n-exempt: read by the import_goals command only
                    f"Record {index}: db_id, question and query must be text."
                )
            source = source or "spider"
            records.append((item["db_id"], item["question"], item["query"]))
        else:
            raise ValidationError(  # i18n-exempt: read by the import_goals command only
                f"Record {index} is neither Spider (db_id/question/query) nor SParC/CoSQL/CHASE (database_id/final)."
            )
    return source or "spider", records


def goals_import(
    *, path: Path, hardness: list[str] | None = None, source: str | None = None, progress=None
) -> GoalImportReport:
    """Import goals from a Spider, SParC, CoSQL or CHASE file.

    Goals on unregistered databases, goals whose SQL cannot be encoded or fails in the sandbox are skipped and
    reported one by one; hardness outside `hardness` is filtered out. Importing the same file twice creates nothing.
    """
    try:
        detected, records = _goal_records(read_json_file(path))
    except ValidationError as exc:
        message = " ".join(exc.messages)
        raise ValidationError(message if message.startswith(str(path)) else f"{path}: {message}") from None
    if source is None:
        source = detected
        if detected == "sparc" and "cosql" in Path(path).name.lower():
            source = Goal.Source.COSQL
    databases = {db.db_id: db for db in Database.objects.all()}
    report = GoalImportReport()
    wanted = set(hardness) if hardness else None
    for number, (db_id, question, sql) in enumerate(records, start=1):
        if progress:
            progress(number, len(records))
        database = databases.get(db_id)
        if database is None:
            report.skipped.append((db_id, question, "database not registered"))
            continue
        try:
            level = analysis.hardness_of(sql, database.schema)
        except analysis.SqlAnalysisError as exc:
            report.skipped.append((db_id, question, f"cannot encode: {exc}"))
            continue
        if wanted is not None and level not in wanted:
            report.filtered_out += 1
            continue
        if Goal.objects.filter(database=database, question=question.strip(), sql=sql.strip()).exists():
            report.duplicates += 1
            continue
        result = execute(database.path, sql)
        if not result.ok:
            report.skipped.append((db_id, question, f"fails in the sandbox: {result.error['message']}"))
            continue
        with transaction.atomic():
            Goal.objects.create(
                database=database, question=question.strip(), sql=sql.strip(), hardness=level, source=source
            )
        report.created += 1
    return report
