"""Writes of the annotation app: registering databases, creating and importing goals.

Each service takes keyword arguments, validates, then mutates. Errors a person can fix are raised as
`django.core.exceptions.ValidationError` with a message meant for them.
"""

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from annotation.curation import database_version_add, next_version_file
from annotation.curation import file_sha256 as _sha256
from annotation.jsonfile import read_json_file
from annotation.models import BlockRecord, Database, Goal, GoalDiscard, Role, User
from annotation.roles import can
from annotation.signals import demo_accounts_made, person_blocked
from annotation.sql import analysis
from annotation.sql.curation import curated_schema
from annotation.sql.sandbox import execute
from annotation.sql.schema import introspect_sqlite, release_names_kept

SQLITE_HEADER = b"SQLite format 3\x00"
# Spider and CHASE ids: letters (any script), digits and underscores. No dots or slashes: the id names a folder.
DB_ID_PATTERN = re.compile(r"^[^\W][\w-]{0,99}$", re.UNICODE)


def database_check_file(path: Path) -> None:
    """Refuse anything that is not a readable SQLite database file, with a message saying why."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise ValidationError(f"Cannot read the database file: {exc.strerror}.") from exc
    if header != SQLITE_HEADER:
        raise ValidationError("This is not a SQLite database file (the file does not start with the SQLite header).")
    limit = settings.MAX_DATABASE_UPLOAD_MB * 1024 * 1024
    if path.stat().st_size > limit:
        raise ValidationError(f"The database is larger than the {settings.MAX_DATABASE_UPLOAD_MB} MB limit.")


def database_register(
    *,
    db_id: str,
    source_path: Path,
    description: str = "",
    created_by: User | None = None,
    replace: bool = False,
    release_entry: dict | None = None,
) -> Database:
    """Copy a SQLite file into the data folder, read its schema and register it under `db_id`.

    The copy is written to a temporary file and renamed into place, so a failed import never leaves half a file
    behind a registered database. With `replace=True` an existing registration gets the file as its next version
    (its goals keep pointing at it, its dialogues at the version they were created on, and its curation applies to
    the new file's schema). Each file is recorded as a version (annotation.curation, docs/curation.md).
    `release_entry`: the file's entry in the tables.json of the release it comes from, whose readable names are kept
    when it describes the same tables and columns (annotation.sql.schema.release_names_kept).
    """

    db_id = db_id.strip()
    if not DB_ID_PATTERN.match(db_id):
        raise ValidationError(f"{db_id!r} is not a valid database id: use letters, digits and underscores.")
    source_path = Path(source_path)
    database_check_file(source_path)
    existing = Database.objects.filter(db_id=db_id).first()
    if existing and not replace:
        raise ValidationError(f"A database with the id {db_id!r} is already registered.")

    if existing:
        number, relative = next_version_file(existing)
    else:
        number, relative = 1, Path("databases") / db_id / f"{db_id}.sqlite"
    target = Path(settings.DATA_DIR) / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(dir=target.parent, suffix=".part")
    os.close(handle)
    try:
        shutil.copyfile(source_path, temp_name)
        try:
            schema = introspect_sqlite(temp_name, db_id)
        except Exception as exc:  # a damaged file fails here with sqlite3.DatabaseError and friends
            raise ValidationError(f"Could not read the schema of this database: {exc}") from exc
        if not schema["table_names_original"]:
            raise ValidationError("The database has no tables.")
        schema, names_note = release_names_kept(schema, release_entry)
        os.replace(temp_name, target)
    finally:
        if os.path.exists(temp_name):
            os.unlink(temp_name)

    values = {
        "file": relative.as_posix(),
        "schema": curated_schema(schema, existing.curation) if existing else schema,
        "size_bytes": target.stat().st_size,
        "sha256": _sha256(target),
        "description": description,
    }
    with transaction.atomic():
        if existing:
            for name, value in values.items():
                setattr(existing, name, value)
            existing.save(update_fields=[*values])
            database = existing
        else:
            database = Database.objects.create(db_id=db_id, created_by=created_by, **values)
        database_version_add(
            database=database,
            number=number,
            file=relative,
            sha256=values["sha256"],
            size_bytes=values["size_bytes"],
            schema=schema,
            by=created_by,
            note=("replaced" if existing else "registered") + (f"; {names_note}" if names_note else ""),
        )
    return database


TABLES_JSON_KEYS = (
    "db_id",
    "table_names_original",
    "table_names",
    "column_names_original",
    "column_names",
    "column_types",
    "primary_keys",
    "foreign_keys",
)


def database_register_schema(*, schema: dict, description: str = "") -> Database:
    """Register a database from its tables.json entry alone, without a SQLite file.

    Some releases (CHASE) publish schemas but not their databases. A schema-only database can hold imported
    dialogues, encode their SQL and be exported, but its SQL cannot be executed; it is registered inactive, so no
    new dialogue is ever started on it. Registering the same db_id twice is refused.
    """
    missing = [key for key in TABLES_JSON_KEYS if key not in schema]
    if missing:
        raise ValidationError(f"Not a tables.json entry: missing {', '.join(missing)}.")
    db_id = str(schema["db_id"]).strip()
    if not DB_ID_PATTERN.match(db_id):
        raise ValidationError(f"{db_id!r} is not a valid database id: use letters, digits and underscores.")
    columns = schema["column_names_original"]
    if not schema["table_names_original"] or not columns or list(columns[0]) != [-1, "*"]:
        raise ValidationError(f'The schema of {db_id!r} has no tables, or its first column is not [-1, "*"].')
    if Database.objects.filter(db_id=db_id).exists():
        raise ValidationError(f"A database with the id {db_id!r} is already registered.")
    entry = {key: schema[key] for key in TABLES_JSON_KEYS}
    return Database.objects.create(db_id=db_id, file="", schema=entry, description=description, active=False)


@dataclass
class SpiderImportReport:
    registered: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # Registered, with something to say: (db_id, note), e.g. the release's readable names could not be kept.
    notes: list[tuple[str, str]] = field(default_factory=list)


def databases_import_spider(
    *, tables_path: Path, databases_dir: Path, only: list[str] | None = None, replace: bool = False
) -> SpiderImportReport:
    """Register every database of a Spider-style release (tables.json + database/<db_id>/<db_id>.sqlite).

    The schema is read from each SQLite file, so that what the platform stores is what the file holds; tables.json
    says which databases exist and gives their readable names (kept when its entry describes the same tables and
    columns as the file: a re-export then says "airline id" where the release did, not the file's "uid").
    """
    entries = read_json_file(tables_path)
    if not isinstance(entries, list):
        raise ValidationError(f"{tables_path} is not a tables.json file: it holds no list of database entries.")
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("db_id"), str):
            raise ValidationError(f"{tables_path} is not a tables.json file: entry {index} has no db_id.")
    wanted = set(only) if only else None
    report = SpiderImportReport()
    for entry in entries:
        db_id = entry["db_id"]
        if wanted is not None and db_id not in wanted:
            continue
        path = Path(databases_dir) / db_id / f"{db_id}.sqlite"
        if not path.exists():
            report.skipped.append((db_id, f"no file at {path}"))
            continue
        if Database.objects.filter(db_id=db_id).exists() and not replace:
            report.skipped.append((db_id, "already registered (use --replace to update)"))
            continue
        try:
            database = database_register(db_id=db_id, source_path=path, replace=replace, release_entry=entry)
        except ValidationError as exc:
            report.skipped.append((db_id, " ".join(exc.messages)))
            continue
        report.registered.append(db_id)
        note = database.versions.order_by("-number").values_list("note", flat=True).first() or ""
        if "; " in note:
            report.notes.append((db_id, note.split("; ", 1)[1]))
    if wanted:
        known = {entry["db_id"] for entry in entries}
        report.skipped.extend((db_id, "not in tables.json") for db_id in sorted(wanted - known))
    return report


def goal_check(*, database: Database, sql: str) -> str:
    """Validate a goal's SQL (it must encode under the Spider protocol and execute) and return its hardness."""
    try:
        hardness = analysis.hardness_of(sql, database.schema)
    except analysis.SqlAnalysisError as exc:
        raise ValidationError(f"The SQL cannot be encoded in the Spider format: {exc}") from exc
    result = execute(database.path, sql)
    if not result.ok:
        raise ValidationError(f"The SQL fails in the sandbox ({result.error['kind']}): {result.error['message']}")
    return hardness


def goal_create(
    *, database: Database, question: str, sql: str, source: str = Goal.Source.MANUAL, active: bool = True
) -> Goal:
    """Create a reference goal after checking its SQL; hardness is computed, never typed in."""
    question, sql = question.strip(), sql.strip()
    if not question:
        raise ValidationError("The goal needs a question.")
    hardness = goal_check(database=database, sql=sql)
    if Goal.objects.filter(database=database, question=question, sql=sql).exists():
        raise ValidationError("This goal already exists on this database.")
    return Goal.objects.create(
        database=database, question=question, sql=sql, hardness=hardness, source=source, active=active
    )


def goal_update(*, goal: Goal, question: str, sql: str, active: bool) -> Goal:
    """Edit a goal; a changed SQL is checked again and its hardness recomputed. A discarded goal stays inactive."""
    question, sql = question.strip(), sql.strip()
    if not question:
        raise ValidationError("The goal needs a question.")
    if active and goal.discarded_at is not None:
        raise ValidationError("This goal was discarded: it cannot be made active again.")
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
        raise ValidationError("Only admins discard goals.")
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ValidationError("Say why the goal is discarded: the reason is kept with it.")
    if len(reason) > GOAL_DISCARD_REASON_MAX:
        raise ValidationError(f"Say why in at most {GOAL_DISCARD_REASON_MAX} characters.")
    with transaction.atomic():
        goal = Goal.objects.select_for_update().get(pk=goal.pk)
        if goal.discarded_at is not None:
            raise ValidationError("This goal is discarded already.")
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
    """Keep sampled goals (annotation.sql.goal_sampler.SampledGoal) for review: inactive, without a question, with
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
        raise ValidationError("A goal file is a JSON list of Spider, SParC, CoSQL or CHASE records.")
    records: list[tuple[str, str, str]] = []
    source = None
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            raise ValidationError(f"Record {index} is not a JSON object.")
        if "final" in item and "database_id" in item:  # SParC, CoSQL state tracking, CHASE
            final = item["final"]
            if not isinstance(final, dict) or not _all_text(
                item["database_id"], final.get("utterance", ""), final.get("query", "")
            ):
                raise ValidationError(f"Record {index}: database_id and the final utterance and query must be text.")
            turns = item.get("interaction")
            first_turn = turns[0] if isinstance(turns, list) and turns and isinstance(turns[0], dict) else {}
            # CHASE turns carry question_id (and keys sorted); SParC and CoSQL turns do not.
            source = source or ("chase" if "question_id" in first_turn else "sparc")
            records.append((item["database_id"], final.get("utterance", ""), final.get("query", "")))
        elif "question" in item and "query" in item and "db_id" in item:  # Spider
            if not _all_text(item["db_id"], item["question"], item["query"]):
                raise ValidationError(f"Record {index}: db_id, question and query must be text.")
            source = source or "spider"
            records.append((item["db_id"], item["question"], item["query"]))
        else:
            raise ValidationError(
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


def person_create(*, username: str, role: str, password: str | None = None, email: str = "") -> tuple[User, str]:
    """Create an account with a role. Returns the person and the password (generated when none is given)."""
    if role not in Role.values:
        raise ValidationError(f"Unknown role {role!r}; choose one of: {', '.join(Role.values)}.")
    if User.objects.filter(username=username).exists():
        raise ValidationError(f"The username {username!r} is taken.")
    if not password:
        from django.utils.crypto import get_random_string

        password = get_random_string(16)
    user = User(username=username, email=email, role=role, is_staff=(role == Role.ADMIN))
    user.is_superuser = role == Role.ADMIN
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user, password


def person_set_blocked(
    *,
    person: User,
    blocked: bool,
    reason: str = "",
    by: User | None = None,
    rule: str = "",
    evidence: list[int] | tuple[int, ...] = (),
) -> BlockRecord | None:
    """Block or unblock a person and record it (BlockRecord): who decided (`by`, an admin) or which quality `rule`,
    why, and the evidence (dialogue ids). Blocked people can sign in but may do nothing (annotation.roles).

    Returns the new record, or None when the person already was in that state: blocking a blocked person records
    nothing, so the record of the block that counts (with its rule and evidence) is the one that stays current. The
    person's row is locked while deciding, so two rules that fire at once record one block.
    """
    reason = reason.strip()[: BlockRecord._meta.get_field("reason").max_length]
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=person.pk)
        if locked.blocked == blocked:
            person.blocked, person.blocked_reason = locked.blocked, locked.blocked_reason
            return None
        locked.blocked = blocked
        # The reason of the current block; an unblock clears it here, and the records keep every one.
        locked.blocked_reason = reason if blocked else ""
        locked.save(update_fields=["blocked", "blocked_reason"])
        record = BlockRecord.objects.create(
            person=locked, blocked=blocked, by=by, rule=rule, reason=reason, evidence=sorted(set(evidence))
        )
    person.blocked, person.blocked_reason = locked.blocked, locked.blocked_reason
    if blocked:
        person_blocked.send(sender=User, person=locked)
    return record


DEMO_PASSWORD = "wozsql-demo"
DEMO_ACCOUNTS = [
    ("alice", Role.WORKER),
    ("bob", Role.WORKER),
    ("erin", Role.EXPERT),
    ("ethan", Role.EXPERT),
    ("rita", Role.REVIEWER),
    ("ravi", Role.REVIEWER),  # a second reviewer: pass 2 is never done by the pass-1 reviewer
    ("ada", Role.ADMIN),
]


def demo_load() -> dict:
    """Build the demo databases, register them with their goals, create the demo accounts. Safe to run again."""
    from annotation import demo

    build_dir = Path(settings.DATA_DIR) / "demo-build"
    paths = demo.build_demo_databases(build_dir)
    registered = 0
    for db_id, path in paths.items():
        existing = Database.objects.filter(db_id=db_id).first()
        if existing and existing.sha256 == _sha256(path):
            continue
        database_register(
            db_id=db_id, source_path=path, description="Demo database built by wozsql", replace=existing is not None
        )
        registered += 1
    goals = 0
    for spec in demo.DEMO_GOALS:
        database = Database.objects.get(db_id=spec["db_id"])
        if Goal.objects.filter(database=database, question=spec["question"], sql=spec["sql"]).exists():
            continue
        goal_create(database=database, question=spec["question"], sql=spec["sql"], source=Goal.Source.DEMO)
        goals += 1
    accounts = []
    for username, role in DEMO_ACCOUNTS:
        if not User.objects.filter(username=username).exists():
            person_create(username=username, role=role, password=DEMO_PASSWORD)
        accounts.append({"username": username, "role": role, "password": DEMO_PASSWORD})
    demo_accounts_made.send(sender=None, usernames=[account["username"] for account in accounts])
    return {
        "message": f"Demo data ready: {len(paths)} databases ({registered} updated), {goals} new goals.",
        "accounts": accounts,
    }
