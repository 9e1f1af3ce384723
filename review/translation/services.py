"""Writes of translation projects (docs/translation.md). Each service takes keyword arguments, checks who asks and
what they ask, then writes; a person's mistake is a `ValidationError` with a message for them, and nothing is lost.

Reading a database file (its names and text values) and asking a model happen before any transaction.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.model_client import ModelError, model_chat
from annotation.models import Database, Role, User
from annotation.people.roles import can
from annotation.sql.sandbox import execute_many
from annotation.sql.schema import introspect_sqlite
from annotation.sql.translate import name_error, rewrite_sql
from annotation.suites.compare import compare_limits
from review.translation import source
from review.translation.maps import maps_of
from review.translation.models import (
    ProjectDatabase,
    TranslationExport,
    TranslationInteraction,
    TranslationProject,
    TranslationProjectBuild,
    TranslationSqlCorrection,
    TranslationUnit,
)
from review.translation.sqlite_copy import CopyError, build_translated_copy, internal

PROMPT_VERSION = "translation-1"
# The language as the prompt names it (in English whatever the screen's language).
PROMPT_LANGUAGES = {"zh-hans": "Simplified Chinese"}
# Units one batch proposal asks for in one call.
BATCH_MAX = 60
# A text value longer than this is not listed as a unit (a description, a document): the export says the file keeps
# such values as they are.
MAX_VALUE_LENGTH = 500
SPLITS = ("train", "dev", "test")
Kind = TranslationUnit.Kind


# ---------------------------------------------------------------------------------------------------------------
# Who may do what on a project
# ---------------------------------------------------------------------------------------------------------------


def may_translate(person: User, project_database: ProjectDatabase) -> bool:
    """An admin, or a person with the translation permission assigned to this database."""
    if can(person, "translation.manage"):
        return True
    return can(person, "translation.work") and project_database.translators.filter(pk=person.pk).exists()


def _require_translator(person: User, project_database: ProjectDatabase) -> None:
    if not may_translate(person, project_database):
        raise PermissionDenied(_("You are not assigned to translate this database."))


# ---------------------------------------------------------------------------------------------------------------
# A project made from an imported release
# ---------------------------------------------------------------------------------------------------------------


def _letters(text: str) -> bool:
    return any(character.isalpha() for character in text)


def database_units(database: Database, schema: dict) -> tuple[list[dict], bool]:
    """The units of one database file: each table, each column, and each distinct text value with a letter in it
    (numbers, dates and codes of digits are the same in every language and stay as they are), with every column
    holding it; at most TRANSLATION_MAX_VALUES values (True when some were left out). Reads the file: call it
    outside any transaction."""
    tables = schema["table_names_original"]
    columns = [(tables[index], column) for index, column in schema["column_names_original"][1:]]
    columns = [(table, column) for table, column in columns if not internal(table)]
    units = [{"kind": Kind.TABLE, "table": name, "column": "", "source": name} for name in tables if not internal(name)]
    units += [{"kind": Kind.COLUMN, "table": table, "column": column, "source": column} for table, column in columns]
    limit = settings.TRANSLATION_MAX_VALUES
    values: dict[str, list] = {}
    truncated = False
    uri = f"{Path(database.path).resolve().as_uri()}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as connection:
        connection.text_factory = lambda raw: raw.decode("utf-8", "replace")
        for table, column in columns:
            quoted_table, quoted_column = _quoted(table), _quoted(column)
            rows = connection.execute(
                # Names quoted by _quoted, values bound: nothing of the file's text is read as SQL.
                f"SELECT DISTINCT {quoted_column} FROM {quoted_table} WHERE typeof({quoted_column}) = 'text' "  # noqa: S608
                f"AND length({quoted_column}) <= ? LIMIT ?",
                (MAX_VALUE_LENGTH, limit + 1),
            )
            for (text,) in rows:
                if not _letters(text):
                    continue
                if text not in values and len(values) >= limit:
                    truncated = True
                    continue
                values.setdefault(text, []).append([table, column])
    units += [
        {"kind": Kind.VALUE, "table": places[0][0], "column": places[0][1], "source": text, "places": places}
        for text, places in values.items()
    ]
    return units, truncated


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def project_request(
    *, admin: User, name: str, release_key: str, db_ids: list[str], split: str = "dev"
) -> tuple[source.Release, list[str], list[Database]]:
    """Check what an admin asks a project to be made of: (the release, the db_ids, their databases), or a
    ValidationError saying what is wrong. Quick: reads no file."""
    if not can(admin, "translation.manage"):
        raise PermissionDenied(_("Only an admin makes translation projects."))
    release = source.release_of(release_key)
    if release is None:
        raise ValidationError(_("No imported SParC or CoSQL release has this key."))
    if split not in SPLITS:
        raise ValidationError(_("The split must be train, dev or test."))
    name = (name or "").strip()
    if not name:
        raise ValidationError(_("Give the project a name."))
    wanted = list(db_ids) or list(release.db_ids)
    unknown = sorted(set(wanted) - set(release.db_ids))
    if unknown:
        raise ValidationError(_("The release has no interaction on: %(ids)s.") % {"ids": ", ".join(unknown)})
    databases = list(Database.objects.filter(db_id__in=wanted).order_by("db_id"))
    without_file = [database.db_id for database in databases if not database.has_file]
    if without_file:
        raise ValidationError(
            _("These databases have no SQLite file to translate: %(ids)s.") % {"ids": ", ".join(without_file)}
        )
    return release, wanted, databases


def read_database(database: Database) -> tuple[list[dict], bool]:
    """One database's units (`database_units`) read from its file: call it outside any transaction."""
    version = database.current_version
    schema = version.schema if version is not None else introspect_sqlite(database.path, database.db_id)
    return database_units(database, schema)


def translation_project_create(
    *, admin: User, name: str, release_key: str, db_ids: list[str], split: str = "dev", language: str = "zh-hans"
) -> TranslationProject:
    """Make a project of an imported release's interactions on `db_ids` (every database the release uses when
    empty), here and now: each database with its names and text values as units, each interaction with its turns.
    The screen makes it as a background job instead (`translation_project_start`)."""
    release, wanted, databases = project_request(
        admin=admin, name=name, release_key=release_key, db_ids=db_ids, split=split
    )
    # Slow work first, outside any transaction: the files' values and the interactions' replay.
    read = {database.pk: read_database(database) for database in databases}
    interactions = source.release_interactions(release, wanted)
    return project_write(
        admin=admin,
        name=name,
        release=release,
        split=split,
        language=language,
        databases=databases,
        read=read,
        interactions=interactions,
    )


def project_write(
    *,
    admin: User | None,
    name: str,
    release: source.Release,
    split: str,
    language: str,
    databases: list[Database],
    read: dict,
    interactions: list[dict],
) -> TranslationProject:
    """Write a project of what was read (`read_database` per database pk, `source.release_interactions`) in one
    transaction of writes only."""
    name = (name or "").strip()
    with transaction.atomic():
        project = TranslationProject.objects.create(
            name=name[:200],
            language=language,
            source_format=release.format,
            source_file=release.file_name,
            source_sha256=release.sha256,
            split=split,
            created_by=admin,
        )
        by_db_id = {}
        for database in databases:
            units, truncated = read[database.pk]
            project_database = ProjectDatabase.objects.create(
                project=project, database=database, values_truncated=truncated
            )
            TranslationUnit.objects.bulk_create(
                TranslationUnit(project_database=project_database, **unit) for unit in units
            )
            by_db_id[database.db_id] = project_database
        TranslationInteraction.objects.bulk_create(
            TranslationInteraction(
                project=project,
                project_database=by_db_id[item["db_id"]],
                position=item["position"],
                dialogue_id=item["dialogue_id"],
                turns=item["turns"],
                final=item["final"],
                questions=[""] * len(item["turns"]),
            )
            for item in interactions
        )
    return project


def translation_project_start(
    *, admin: User, name: str, release_key: str, db_ids: list[str], split: str = "dev", language: str = "zh-hans"
) -> TranslationProjectBuild:
    """Queue the making of a project (review.translation.build runs it): what is asked is checked now, and refused
    with the reason; the files are read by the job."""
    project_request(admin=admin, name=name, release_key=release_key, db_ids=db_ids, split=split)
    build = TranslationProjectBuild.objects.create(
        requested_by=admin,
        name=name.strip()[:200],
        release_key=release_key,
        db_ids=list(db_ids),
        split=split,
        language=language,
    )
    from review.tasks import translation_project_build

    translation_project_build.delay_on_commit(build.pk)
    return build


def translation_project_build_cancel(*, admin: User, build: TranslationProjectBuild) -> None:
    if not can(admin, "translation.manage"):
        raise PermissionDenied(_("Only an admin cancels the making of a project."))
    now = timezone.now()
    # One no worker has taken yet ends here; a running one stops at its next step (review.translation.build).
    builds = TranslationProjectBuild.objects.filter(pk=build.pk, finished_at__isnull=True)
    builds.filter(state=TranslationProjectBuild.State.QUEUED).update(
        state=TranslationProjectBuild.State.CANCELLED, cancel_requested_at=now, finished_at=now, message="Cancelled."
    )
    builds.update(cancel_requested_at=now)


def translation_assign(*, admin: User, project_database: ProjectDatabase, people: list[User]) -> None:
    """Set who translates a database: people whose role may translate (experts, reviewers)."""
    if not can(admin, "translation.manage"):
        raise PermissionDenied(_("Only an admin assigns translators."))
    refused = [person.username for person in people if not can(person, "translation.work")]
    if refused:
        raise ValidationError(_("These people's role may not translate: %(names)s.") % {"names": ", ".join(refused)})
    project_database.translators.set(people)


# ---------------------------------------------------------------------------------------------------------------
# Names and values
# ---------------------------------------------------------------------------------------------------------------


def _effective(unit: TranslationUnit) -> str:
    return unit.translation or unit.source


def _name_collision(unit: TranslationUnit, text: str) -> str | None:
    """The message refusing `text` for a table or column unit when another name of its kind (the other tables; the
    other columns of the same table) is or would read the same, up to case as SQL reads names."""
    others = TranslationUnit.objects.filter(project_database=unit.project_database, kind=unit.kind).exclude(pk=unit.pk)
    if unit.kind == Kind.COLUMN:
        others = others.filter(table=unit.table)
    # A table's columns, a database's tables: tens of rows, compared in Python, which folds case in every script.
    for other in others:
        if _effective(other).casefold() != text.casefold():
            continue
        if unit.kind == Kind.COLUMN:
            return _("%(text)s is already the name of the column %(other)s of the table %(table)s.") % {
                "text": text,
                "other": other.source,
                "table": unit.table,
            }
        return _("%(text)s is already the name of the table %(other)s.") % {"text": text, "other": other.source}
    return None


def _value_collision(unit: TranslationUnit, text: str) -> str | None:
    """Two values of one column may not become one: queries that tell them apart would change their result."""
    places = {tuple(place) for place in unit.places}
    others = TranslationUnit.objects.filter(project_database=unit.project_database, kind=Kind.VALUE).exclude(pk=unit.pk)
    # Only the values that read `text` now (translated to it, or untranslated and spelt so) can collide.
    for other in others.filter(Q(translation=text) | Q(translation="", source=text)):
        shared = places & {tuple(place) for place in other.places}
        if shared and _effective(other) == text:
            table, column = sorted(shared)[0]
            return _("%(text)s is already the value %(other)s in the column %(table)s.%(column)s.") % {
                "text": text,
                "other": other.source,
                "table": table,
                "column": column,
            }
    return None


def translation_unit_save(*, person: User, unit: TranslationUnit, text: str) -> TranslationUnit:
    """Record a person's translation of a name or a value (a model's proposal accepted or edited is one). A name must
    stand unquoted in SQL and differ from the other names of its table (of the database, for a table); a value must
    not merge with another value of the same column."""
    _require_translator(person, unit.project_database)
    text = (text or "").strip()
    if not text:
        raise ValidationError(_("Write a translation (or the original, to keep it)."))
    if unit.kind in (Kind.TABLE, Kind.COLUMN):
        problem = name_error(text) or _name_collision(unit, text)
    else:
        problem = _value_collision(unit, text)
    if problem:
        raise ValidationError(problem)
    with transaction.atomic():
        locked = TranslationUnit.objects.select_for_update().get(pk=unit.pk)
        locked.translation = text
        locked.translated_by = person
        locked.translated_at = timezone.now()
        locked.save(update_fields=["translation", "translated_by", "translated_at"])
    return locked


def translation_values_keep(*, person: User, project_database: ProjectDatabase, table: str, column: str) -> int:
    """Keep as they are the untranslated values found only in `table`.`column` (codes, identifiers, e-mail addresses:
    what a translation would only spoil), recorded as the person's translation. A value another value of the column
    already became is left untranslated (keeping it would merge the two). Returns how many were kept."""
    _require_translator(person, project_database)
    values = project_database.units.filter(kind=Kind.VALUE, table=table, column=column)
    taken = {unit.translation for unit in values if unit.translation and unit.translation != unit.source}
    kept = [
        unit.pk
        for unit in values.filter(translation="")
        if unit.places == [[table, column]] and unit.source not in taken
    ]
    with transaction.atomic():
        for pk in kept:
            TranslationUnit.objects.filter(pk=pk, translation="").update(
                translation=models.F("source"), translated_by=person, translated_at=timezone.now()
            )
    return len(kept)


def _proposal_messages(unit: TranslationUnit, language: str) -> list[dict]:
    what = {
        Kind.TABLE: f"the name of the database table {unit.source!r}",
        Kind.COLUMN: f"the name of the column {unit.column!r} of the table {unit.table!r}",
        Kind.VALUE: f"the text value {unit.source!r} stored in the column {unit.column!r} of the table {unit.table!r}",
    }[unit.kind]
    rule = (
        "Answer with one word or short phrase without spaces or punctuation (letters, digits, underscores), usable "
        "as an SQL name."
        if unit.kind != Kind.VALUE
        else "Keep proper names recognisable; keep codes and identifiers as they are."
    )
    return [
        {
            "role": "system",
            "content": f"You translate the names and contents of an SQL database into {language}. Answer with the "
            f"translation only. {rule}",
        },
        {"role": "user", "content": f"Translate {what}."},
    ]


def translation_unit_propose(*, person: User, unit: TranslationUnit) -> TranslationUnit:
    """Ask the model for a proposal and record it with the model's name; the translation is unchanged until a person
    accepts or edits it. Raises ModelError (off, timeout, ...) with a message for the person."""
    _require_translator(person, unit.project_database)
    language = PROMPT_LANGUAGES[unit.project_database.project.language]
    reply = model_chat(
        _proposal_messages(unit, language), prompt_version=PROMPT_VERSION, person_id=person.pk, max_tokens=60
    )
    text = reply.text.strip().strip("\"'`").splitlines()[0].strip() if reply.text.strip() else ""
    if not text:
        raise ModelError("bad_answer", _("The model answered with no translation."))
    TranslationUnit.objects.filter(pk=unit.pk).update(
        proposal=text[:500], proposal_model=reply.model[:200], proposed_at=timezone.now()
    )
    unit.refresh_from_db()
    return unit


def _unit_line(number: int, unit: TranslationUnit) -> str:
    if unit.kind == Kind.TABLE:
        return f"{number}. the table name {unit.source}"
    if unit.kind == Kind.COLUMN:
        return f"{number}. the column name {unit.column} of the table {unit.table}"
    return f"{number}. the text value {unit.source!r} of the column {unit.table}.{unit.column}"


def _proposals_from(text: str, count: int) -> dict[int, str]:
    """The {number: translation} object of a batch answer (the first {...} in it); ModelError when there is none."""
    start, end = text.find("{"), text.rfind("}")
    try:
        answer = json.loads(text[start : end + 1]) if 0 <= start < end else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise ModelError("bad_answer", _("The model's answer holds no JSON object of translations."))
    proposals = {}
    for key, value in answer.items():
        if str(key).isdigit() and 1 <= int(key) <= count and isinstance(value, str) and value.strip():
            proposals[int(key)] = value.strip()[:500]
    return proposals


def translation_units_propose(*, person: User, project_database: ProjectDatabase, kind: str) -> int:
    """Ask the model, in one call, for proposals for up to BATCH_MAX units of `kind` that have neither a translation
    nor a proposal; record each with the model's name (never as a translation). Returns how many were proposed."""
    _require_translator(person, project_database)
    units = list(
        project_database.units.filter(kind=kind, translation="", proposal="").order_by(
            "table", "column", "source", "id"
        )[:BATCH_MAX]
    )
    if not units:
        return 0
    language = PROMPT_LANGUAGES[project_database.project.language]
    rule = "Names: one word or short phrase without spaces or punctuation, usable unquoted as an SQL name."
    messages = [
        {
            "role": "system",
            "content": f"You translate the names and contents of an SQL database into {language}. {rule} Values: keep "
            "proper names recognisable, codes and identifiers as they are. Answer with one JSON object mapping "
            'each number to its translation, e.g. {"1": "...", "2": "..."}, and nothing else.',
        },
        {"role": "user", "content": "\n".join(_unit_line(number, unit) for number, unit in enumerate(units, 1))},
    ]
    reply = model_chat(messages, prompt_version=PROMPT_VERSION, person_id=person.pk, max_tokens=40 * len(units) + 60)
    proposals = _proposals_from(reply.text, len(units))
    now = timezone.now()
    with transaction.atomic():
        for number, text in proposals.items():
            TranslationUnit.objects.filter(pk=units[number - 1].pk, translation="").update(
                proposal=text, proposal_model=reply.model[:200], proposed_at=now
            )
    return len(proposals)


# ---------------------------------------------------------------------------------------------------------------
# Questions, and their review
# ---------------------------------------------------------------------------------------------------------------


def translation_interaction_save(
    *, person: User, interaction: TranslationInteraction, questions: list[str], final_question: str, submit: bool
) -> TranslationInteraction:
    """Record a person's translated questions (one per turn, and the final one); `submit` sends the interaction to
    review, which needs every question written."""
    _require_translator(person, interaction.project_database)
    questions = [(question or "").strip() for question in questions]
    if len(questions) != len(interaction.turns):
        raise ValidationError(_("Give one question per turn."))
    final_question = (final_question or "").strip()
    if submit and (not all(questions) or not final_question):
        raise ValidationError(_("Translate every question, and the final one, before sending it to review."))
    with transaction.atomic():
        locked = TranslationInteraction.objects.select_for_update().get(pk=interaction.pk)
        if locked.state not in (TranslationInteraction.State.OPEN, TranslationInteraction.State.SENT_BACK):
            raise ValidationError(_("This interaction is with review; it can be changed once it is sent back."))
        locked.questions = questions
        locked.final_question = final_question
        locked.translated_by = person
        locked.translated_at = timezone.now()
        if submit:
            locked.state = TranslationInteraction.State.SUBMITTED
        locked.save()
    return locked


def _check_on_translated_copy(project_database: ProjectDatabase, sql: str):
    """Run `sql` in the sandbox on a translated copy of the database as the project's maps make it now (built in a
    scratch folder, as the export builds it). Outside any transaction: the copy and the sandbox are slow work."""
    maps = maps_of(project_database)
    with tempfile.TemporaryDirectory(prefix="translation-check-") as folder:
        copy = Path(folder) / f"{project_database.database.db_id}.sqlite"
        try:
            build_translated_copy(
                project_database.database.path,
                copy,
                schema=maps.schema,
                names=maps.names,
                values=maps.values,
                stop=lambda: None,
            )
        except (CopyError, OSError) as error:
            raise ValidationError(
                _("The translated copy of the database could not be built to check the SQL: %(error)s")
                % {"error": error}
            ) from error
        (result,) = execute_many(copy, [sql], limits=compare_limits())
    return result


def translation_sql_correct(
    *, person: User, interaction: TranslationInteraction, turn: int, sql: str
) -> TranslationSqlCorrection:
    """Keep a translator's correction of a turn's SQL on the translated schema (`turn` -1: the final goal's query),
    once it runs on the translated copy of the database; refused with the reason otherwise. The imported SQL is never
    changed: each correction is a row of its own, the latest one used."""
    _require_translator(person, interaction.project_database)
    if interaction.state not in (TranslationInteraction.State.OPEN, TranslationInteraction.State.SENT_BACK):
        raise ValidationError(_("This interaction is with review; it can be changed once it is sent back."))
    if turn != -1 and not 0 <= turn < len(interaction.turns):
        raise ValidationError(_("This interaction has no such turn."))
    sql = (sql or "").strip()
    if not sql:
        raise ValidationError(_("Write the corrected SQL."))
    if len(sql) > settings.SANDBOX_MAX_SQL_LENGTH or "\x00" in sql:
        raise ValidationError(
            _("SQL is limited to %(count)s characters, without NUL.") % {"count": settings.SANDBOX_MAX_SQL_LENGTH}
        )
    original = interaction.final.get("query") or "" if turn == -1 else interaction.turns[turn]["query"]
    # Slow work first, outside any transaction: the translated copy and the sandbox.
    result = _check_on_translated_copy(interaction.project_database, sql)
    if not result.ok:
        raise ValidationError(
            _("The corrected SQL does not run on the translated database, so it was not kept: %(error)s")
            % {"error": (result.error or {}).get("message") or _("it failed")}
        )
    maps = maps_of(interaction.project_database)
    with transaction.atomic():
        locked = TranslationInteraction.objects.select_for_update().get(pk=interaction.pk)
        if locked.state not in (TranslationInteraction.State.OPEN, TranslationInteraction.State.SENT_BACK):
            raise ValidationError(_("This interaction is with review; it can be changed once it is sent back."))
        return TranslationSqlCorrection.objects.create(
            interaction=locked,
            turn=turn,
            sql=sql,
            rewritten=rewrite_sql(original, maps.names, maps.values).sql if original else "",
            rows=result.row_count or 0,
            by=person,
        )


def translation_interaction_review(
    *, reviewer: User, interaction: TranslationInteraction, approve: bool, note: str = ""
) -> TranslationInteraction:
    """Approve a submitted interaction, or send it back with a note saying what to change. Nobody reviews their own
    translation."""
    if not can(reviewer, "translation.review"):
        raise PermissionDenied(_("Your role may not review translations."))
    note = (note or "").strip()
    if not approve and not note:
        raise ValidationError(_("Say what to change when you send a translation back."))
    with transaction.atomic():
        locked = TranslationInteraction.objects.select_for_update().get(pk=interaction.pk)
        if locked.state != TranslationInteraction.State.SUBMITTED:
            raise ValidationError(_("This interaction is not waiting for review."))
        if locked.translated_by_id == reviewer.pk:
            raise ValidationError(_("You translated this interaction: someone else reviews it."))
        locked.state = TranslationInteraction.State.APPROVED if approve else TranslationInteraction.State.SENT_BACK
        locked.reviewed_by = reviewer
        locked.reviewed_at = timezone.now()
        locked.review_note = note[:2000]
        locked.save(update_fields=["state", "reviewed_by", "reviewed_at", "review_note"])
    return locked


# ---------------------------------------------------------------------------------------------------------------
# Exports
# ---------------------------------------------------------------------------------------------------------------


def translation_export_start(
    *, admin: User, project: TranslationProject, only_approved: bool = True
) -> TranslationExport:
    """Queue an export of the project (review.translation.export runs it)."""
    if not can(admin, "translation.manage"):
        raise PermissionDenied(_("Only an admin exports a translation project."))
    export = TranslationExport.objects.create(project=project, requested_by=admin, only_approved=only_approved)
    from review.tasks import translation_export

    translation_export.delay_on_commit(export.pk)
    return export


def translation_export_cancel(*, admin: User, export: TranslationExport) -> None:
    if not can(admin, "translation.manage"):
        raise PermissionDenied(_("Only an admin cancels an export."))
    TranslationExport.objects.filter(pk=export.pk, finished_at__isnull=True).update(cancel_requested_at=timezone.now())


def people_who_translate():
    """Everyone an admin may assign to a database: active experts and reviewers."""
    return User.objects.filter(role__in=[Role.EXPERT, Role.REVIEWER], is_active=True, blocked=False).order_by(
        "username"
    )
