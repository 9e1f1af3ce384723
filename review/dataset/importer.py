"""Importing a released dataset (CoSQL state tracking, SParC, CHASE) as dialogues, so that it can be audited in
review and exported again.

Each interaction becomes a dialogue whose log is written with the room's own payloads (`dialogs.log`), so the fold
that reads a collected dialogue reads an imported one the same way.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from annotation.databases.services import database_register, database_register_schema
from annotation.labels.acts import AMBIGUITY_ACT_OF_TYPE, LabelError, check_ambiguity
from annotation.labels.tokens import utterance_toks
from annotation.models import Database, Goal, Role, User
from annotation.plumbing.jsonfile import read_json_file
from annotation.sql.hardness import hardness
from annotation.sql.sandbox import SandboxLimits, execute, not_executed
from annotation.sql.schema import introspect_sqlite
from annotation.sql.spider import SpiderEncodingError, encode_sql
from dialogs import log as dialogue_log
from dialogs.models import Dialogue, DialogueStatus, Event, EventKind
from review.dataset import readers, validation
from review.models import IMPORT_FORMATS, DialogueImport, TurnAnnotation
from review.passes.services import review_rows_for_import

IMPORT_WORKER = "dataset-import-user"
IMPORT_EXPERT = "dataset-import-expert"


@dataclass
class ImportReport:
    format: str
    dialogues_created: int = 0
    already_imported: int = 0
    turns: int = 0
    folded_clarifications: int = 0
    databases_registered: list[str] = field(default_factory=list)
    databases_schema_only: list[str] = field(default_factory=list)
    databases_reused: list[str] = field(default_factory=list)
    goals_created: int = 0
    goals_reused: int = 0
    goals_without_hardness: list[str] = field(default_factory=list)
    sql_not_executed: int = 0
    sql_failures: list[dict] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _import_person(username: str, role: str) -> User:
    """The stand-in author of imported events: inactive, no password, never paired with anyone."""
    person = User.objects.filter(username=username).first()
    if person is None:
        person = User(username=username, role=role, is_active=False)
        person.set_unusable_password()
        person.save()
    return person


def _names_differ(schema: dict, entry: dict) -> str | None:
    """Which of the names the sql ids are built from differ between a schema and a tables.json entry, or None."""
    for key in ("table_names_original", "column_names_original"):
        if [list(x) if isinstance(x, list) else x for x in schema[key]] != [
            list(x) if isinstance(x, list) else x for x in entry[key]
        ]:
            return key
    return None


def _database_for(db_id: str, entry: dict | None, databases_dir: Path | None, report: ImportReport):
    """The registered database for `db_id`: reused if its names agree with the tables.json entry, else registered
    from <dir>/<db_id>/<db_id>.sqlite, else (no file) from the entry alone. Returns (database, reason-if-refused).
    The names are compared before anything is registered, so a refused database leaves nothing behind."""
    existing = Database.objects.filter(db_id=db_id).first()
    if entry is None:
        if existing is None:
            return None, "the database is neither in the tables file nor registered"
        report.databases_reused.append(db_id)
        return existing, None
    path = Path(databases_dir) / db_id / f"{db_id}.sqlite" if databases_dir else None
    if existing is not None:
        schema = existing.schema
    elif path is not None and path.exists():
        try:
            schema = introspect_sqlite(path, db_id)
        except sqlite3.DatabaseError as exc:
            return None, f"{path} is not a readable SQLite database ({exc})"
    else:
        schema = entry
    differing = _names_differ(schema, entry)
    if differing:
        return None, f"the database's {differing} differ from the tables file (the sql ids would not match)"
    if existing is not None:
        report.databases_reused.append(db_id)
        return existing, None
    try:
        if path is not None and path.exists():
            existing = database_register(db_id=db_id, source_path=path, description="Imported with a dataset")
            report.databases_registered.append(db_id)
        else:
            existing = database_register_schema(schema=entry, description="Schema only (imported with a dataset)")
            report.databases_schema_only.append(db_id)
    except ValidationError as exc:
        return None, " ".join(exc.messages)
    return existing, None


def _execute_all(pairs: list[tuple[Database, str]]) -> dict[tuple[str, str], dict]:
    """Run each distinct (database, SQL) once in the sandbox; schema-only databases get a 'not executed' result."""
    limits = SandboxLimits.from_settings()
    results: dict[tuple[str, str], dict] = {}
    runnable = []
    for database, sql in dict.fromkeys(pairs):
        if database.has_file:
            runnable.append((database, sql))
        else:
            results[(database.db_id, sql)] = not_executed()
    with ThreadPoolExecutor(max_workers=limits.workers) as pool:
        outcomes = pool.map(lambda item: execute(item[0].path, item[1], limits=limits).to_dict(), runnable)
        for (database, sql), result in zip(runnable, outcomes, strict=True):
            results[(database.db_id, sql)] = result
    return results


def _goal_for(database: Database, question: str, sql: str, source: str, report: ImportReport) -> Goal:
    goal = Goal.objects.filter(database=database, question=question, sql=sql).first()
    if goal is not None:
        report.goals_reused += 1
        return goal
    try:
        level = hardness(encode_sql(sql, database.schema))
    except SpiderEncodingError:
        # Kept without a level rather than refused: auditing a release means importing its flaws too.
        level = ""
        report.goals_without_hardness.append(f"{database.db_id}: {sql}")
    report.goals_created += 1
    # Imported goals stay inactive: they document the release and are not handed to workers unless an admin says so.
    return Goal.objects.create(
        database=database, question=question, sql=sql, hardness=level, source=source, active=False
    )


# Interactions imported per transaction (see dataset_import).
IMPORT_BATCH_DIALOGUES = 50


def dataset_import(
    *,
    fmt: str,
    data_path: Path,
    tables_path: Path,
    databases_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    for_review: bool = False,
) -> ImportReport:
    """Import a CoSQL state-tracking, SParC or CHASE file (with its tables.json and databases) as dialogues.

    Each interaction becomes a completed dialogue whose log holds, per turn, the user's utterance, the SQL run (the
    result of running it here) and the shared result. A CoSQL turn "question | clarification | answer" is unfolded
    into the question, the expert's CLARIFY response and the answer, which carries the SQL. The release's tokens
    and CHASE labels are kept as TurnAnnotations; the ambiguity labels of a CHASE file made here become the turn's
    user act (AMBIGUOUS or CANNOT_ANSWER) with its label, as the expert would have saved them. Databases without a
    file (CHASE) are registered from their schema; their SQL is not executed, and the report counts it. Importing
    the same file again creates nothing.

    The dialogues enter review as approved (the release was reviewed by its authors), or, `for_review`, waiting for
    pass 1: an audit, whose corrected release the export then writes.
    """
    if fmt not in IMPORT_FORMATS:
        raise ValidationError(
            gettext("Import reads %(formats)s, not %(format)r.") % {"formats": ", ".join(IMPORT_FORMATS), "format": fmt}
        )
    raw = Path(data_path).read_bytes()
    data, tables = read_json_file(data_path), read_json_file(tables_path)  # one-line refusals of broken files
    interactions = readers.read_release(fmt, data, name=Path(data_path).name)
    problems = validation.schema_errors("tables", tables)
    if problems:
        raise ValidationError(
            gettext("%(file)s is not a tables.json file: %(problems)s")
            % {"file": Path(tables_path).name, "problems": "; ".join(problems[:3])}
        )
    entries = {entry["db_id"]: entry for entry in tables}
    digest = hashlib.sha256(raw).hexdigest()
    report = ImportReport(format=fmt)
    seen = set(DialogueImport.objects.filter(file_sha256=digest, format=fmt).values_list("position", flat=True))
    todo, databases = _to_import(interactions, seen, entries, databases_dir, report)
    if not todo:
        return report  # nothing to import: no stand-in accounts either
    results = _execute_all([(databases[item.db_id], turn.query) for item in todo for turn in item.turns])
    worker = _import_person(IMPORT_WORKER, Role.WORKER)
    expert = _import_person(IMPORT_EXPERT, Role.EXPERT)
    name = Path(data_path).name
    # Committed in batches: one transaction for a whole release held the database's write lock for the length of the
    # import, and on SQLite every sign-in and chat message waited for it (and failed after the busy timeout). Each
    # batch is whole (dialogues, events, labels, review rows); an import stopped midway goes on where it stopped when
    # run again (DialogueImport remembers each position).
    done = 0
    for start in range(0, len(todo), IMPORT_BATCH_DIALOGUES):
        batch = todo[start : start + IMPORT_BATCH_DIALOGUES]
        with transaction.atomic():
            _import_batch(batch, databases, worker, expert, fmt, name, digest, results, report, for_review)
        done += len(batch)
        if progress:
            progress(done, len(todo))
    return report


def _to_import(interactions: list, seen: set[int], entries: dict, databases_dir: Path | None, report: ImportReport):
    """(the interactions to import, their databases by db_id, registered when new). Those imported before (positions
    in `seen`), beyond what the room allows, or on a database that cannot be registered are counted in `report`."""
    databases: dict[str, Database] = {}
    refused: dict[str, str] = {}
    # Interactions the room could not have produced are refused, each with its reason, before anything is registered.
    beyond_limits: dict[int, str] = {}
    for item in interactions:
        if item.position not in seen and (reason := _room_refusal(item)):
            beyond_limits[item.position] = reason
    # Only the databases of interactions to import are looked at (and registered when new).
    left_out = seen | beyond_limits.keys()
    for db_id in dict.fromkeys(item.db_id for item in interactions if item.position not in left_out):
        database, reason = _database_for(db_id, entries.get(db_id), databases_dir, report)
        if database is None:
            refused[db_id] = reason
        else:
            databases[db_id] = database
    todo = []
    for item in interactions:
        if item.position in seen:
            report.already_imported += 1
        elif item.position in beyond_limits:
            reason = beyond_limits[item.position]
            report.skipped.append({"position": item.position, "db_id": item.db_id, "reason": reason})
        elif item.db_id in refused:
            report.skipped.append({"position": item.position, "db_id": item.db_id, "reason": refused[item.db_id]})
        else:
            todo.append(item)
    return todo, databases


def _import_batch(batch, databases, worker, expert, fmt, name, digest, results, report, for_review) -> None:
    """Import `batch` (interactions) in the caller's transaction."""
    versions = {item.db_id: databases[item.db_id].current_version for item in batch}
    events: list[Event] = []
    annotations: list[TurnAnnotation] = []
    created: list[int] = []
    for item in batch:
        database = databases[item.db_id]
        goal = _goal_for(database, item.final_utterance, item.final_query, fmt, report)
        dialogue = Dialogue.objects.create(
            database=database,
            database_version=versions[item.db_id],
            goal=goal,
            worker=worker,
            expert=expert,
            status=DialogueStatus.COMPLETED,
        )
        DialogueImport.objects.create(
            dialogue=dialogue,
            format=fmt,
            file_name=name,
            file_sha256=digest,
            position=item.position,
            interaction_id=item.interaction_id,
        )
        log = _ImportedLog(dialogue, worker, expert)
        for turn in item.turns:
            annotations.append(_import_turn(log, turn, results[(database.db_id, turn.query)], item, report))
        log.add(EventKind.END, dialogue_log.end_payload(DialogueStatus.COMPLETED, f"Imported from {name}", ""), expert)
        Dialogue.objects.filter(pk=dialogue.pk).update(last_seq=log.seq)
        events.extend(log.events)
        report.dialogues_created += 1
        created.append(dialogue.pk)
    Event.objects.bulk_create(events, batch_size=1000)
    TurnAnnotation.objects.bulk_create(annotations, batch_size=1000)
    review_rows_for_import(dialogue_ids=created, for_review=for_review)


def _room_refusal(item: readers.ImportedInteraction) -> str | None:
    """Why the room would not have taken this interaction, or None. An imported dialogue is reviewed, exported and
    shown like a collected one, so it keeps the room's limits: at least one turn, and texts the room takes."""
    if not item.turns:
        return "it has no turns (a dialogue starts with the worker's first question)"
    utterance = {"limit": settings.UTTERANCE_MAX_CHARS, "setting": "UTTERANCE_MAX_CHARS"}
    response = utterance  # the room takes an expert's response on the same limit
    sql = {"limit": settings.SANDBOX_MAX_SQL_LENGTH, "setting": "SANDBOX_MAX_SQL_LENGTH"}
    texts = [(item.final_utterance, "the final utterance", utterance), (item.final_query, "the final query", sql)]
    for index, turn in enumerate(item.turns):
        for number, (question, clarification) in enumerate(turn.clarifications, start=1):
            texts.append((question, f"turn {index}'s question before clarification {number}", utterance))
            texts.append((clarification, f"turn {index}'s clarification {number}", response))
        texts.append((turn.text, f"turn {index}'s utterance", utterance))
        texts.append((turn.query, f"turn {index}'s query", sql))
    for value, name, limit in texts:
        try:
            dialogue_log.text_checked(value, name=name, **limit)
        except dialogue_log.TextRefused as exc:
            return exc.message
    for index, turn in enumerate(item.turns):
        try:
            _ambiguity_of(turn)
        except LabelError as exc:
            return f"turn {index}'s ambiguity: {exc}"
    return None


def _ambiguity_of(turn: readers.ImportedTurn) -> tuple[list[str], dict] | None:
    """The user acts and the ambiguity label an imported turn gets from its file's `ambiguity`, checked as the room
    checks the expert's (over the tokens of the turn's text), or None. A turn imported whole holds one label: a file
    whose turn folds several labelled questions is refused rather than cut (LabelError)."""
    if not turn.ambiguities:
        return None
    if len(turn.ambiguities) > 1:
        raise LabelError(
            gettext("%(count)s labels on one turn (questions folded into it); an imported turn holds one")
            % {"count": len(turn.ambiguities)}
        )
    [value] = turn.ambiguities
    act = AMBIGUITY_ACT_OF_TYPE.get(value.get("type")) if isinstance(value, dict) else None
    acts = [act] if act else []
    checked = check_ambiguity(
        value, acts=acts, tokens=utterance_toks(turn.text), max_sql_length=settings.SANDBOX_MAX_SQL_LENGTH
    )
    return acts, checked


class _ImportedLog:
    """The events of one imported dialogue, numbered as the room would number them."""

    def __init__(self, dialogue: Dialogue, worker: User, expert: User):
        self.dialogue, self.worker, self.expert = dialogue, worker, expert
        self.events: list[Event] = []
        self.seq = 0

    def add(self, kind: str, payload: dict, author: User) -> int:
        self.seq += 1
        role = Role.WORKER if author == self.worker else Role.EXPERT
        self.events.append(
            Event(dialogue=self.dialogue, seq=self.seq, kind=kind, author=author, author_role=role, payload=payload)
        )
        return self.seq


def _import_turn(log: _ImportedLog, turn, result: dict, item, report: ImportReport) -> TurnAnnotation:
    """Append one released turn to the log: unfolded clarifications first, then the utterance that carries the SQL,
    its run and the shared result. Returns the turn's annotation (the release's tokens and labels)."""
    report.turns += 1
    for question, clarification in turn.clarifications:
        asked = log.add(EventKind.UTTERANCE, dialogue_log.utterance_payload(question), log.worker)
        log.add(EventKind.RESPONSE, dialogue_log.response_payload(asked, clarification, ["CLARIFY"], None), log.expert)
        report.folded_clarifications += 1
    utterance = log.add(EventKind.UTTERANCE, dialogue_log.utterance_payload(turn.text), log.worker)
    labelled = _ambiguity_of(turn)  # checked before the import began (_room_refusal)
    if labelled:
        acts, ambiguity = labelled
        log.add(EventKind.USER_ACTS, dialogue_log.user_acts_payload(utterance, acts, ambiguity), log.expert)
    error = result.get("error") or {}
    if error.get("kind") == "not_executed":
        report.sql_not_executed += 1
    elif not result["ok"]:
        report.sql_failures.append({"position": item.position, "db_id": item.db_id, "sql": turn.query, "error": error})
    run = log.add(EventKind.SQL_RUN, dialogue_log.sql_run_payload(utterance, turn.query, result), log.expert)
    # A release's SQL that does not run here is still the turn's SQL: the shared payload keeps the error beside it.
    log.add(EventKind.RESULT_SHARED, dialogue_log.result_shared_payload(utterance, run, result), log.expert)
    return TurnAnnotation(dialogue=log.dialogue, turn=utterance, utterance=turn.utterance, **turn.labels)
