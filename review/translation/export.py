"""A translation project exported as a CHASE-format release (docs/translation.md), with its gold check.

The folder, as CHASE's release and review/dataset/formats/chase.py lay it out: `chase/chase_{split}.json` (keys
sorted, every LIMIT 1 in `sql` as the release's quirk), `chase/chase_{split}_gold.txt`, `chase/chase_tables.json`
(the translated names) and `chase/database/<db_id>/<db_id>.sqlite` with its `schema.sql`: the translated copies
(review.translation.sqlite_copy). Beside them `translation_report.json`: the gold check of every query.

The gold check: each gold query runs on the original file and, rewritten, on the translated one; it passes when the
translated file returns the original's rows with each text value through the value map, compared as the official
evaluator compares results (a bag of rows; a list when the query says ORDER BY; annotation.sql.results). The export
says how many pass, and why each other one does not.

The job: claimed in a short transaction, every file built outside any (slow file work and the sandbox), progress
written as it goes, a time bound (TRANSLATION_EXPORT_MAX_SECONDS) and a cancel read between steps; the zip is
published by an atomic rename.
"""

from __future__ import annotations

import logging
import os
import shutil
import uuid
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from annotation.labels.tokens import utterance_toks
from annotation.plumbing import jsoncodec
from annotation.sql.results import order_matters, results_equal
from annotation.sql.sandbox import execute_many
from annotation.sql.schema import schema_sql
from annotation.sql.spider import SpiderEncodingError, encode_sql, query_toks_no_value
from annotation.sql.translate import Rewrite, ValueMap, rewrite_sql, translated_schema
from annotation.suites.compare import compare_limits
from review.dataset import validation
from review.dataset.formats.chase import CHASE
from review.dataset.formats.gold import gold_text
from review.translation import runs
from review.translation.maps import Maps, maps_of
from review.translation.models import ProjectDatabase, TranslationExport, TranslationInteraction, corrected_sql
from review.translation.sqlite_copy import CopyError, build_translated_copy

logger = logging.getLogger(__name__)
REPORT_FILE = "translation_report.json"
# Gold check outcomes. Only "same" passes, and only for a turn the files hold (one whose rewritten SQL cannot be encoded
# is left out of them, and its row says so in "left_out").
SAME, ORDER, DIFFERENT, FAILS, ORIGINAL_FAILS, NOT_ENCODED = (
    "same",
    "same rows, another order",
    "different rows",
    "does not run on the translated file",
    "does not run on the original file",
    "cannot be encoded on the translated schema",
)


@dataclass
class Turn:
    interaction: TranslationInteraction
    index: int
    original: str
    rewrite: Rewrite
    check: dict = field(default_factory=dict)


def exports_dir() -> Path:
    folder = Path(settings.DATA_DIR) / "translation_exports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _run(export: TranslationExport) -> runs.Run:
    return runs.Run(
        export,
        max_seconds=settings.TRANSLATION_EXPORT_MAX_SECONDS,
        setting="TRANSLATION_EXPORT_MAX_SECONDS",
        out_of_time=gettext_lazy("Stopped after %(seconds)s s (%(setting)s): nothing was published."),
        cancelled=gettext_lazy("Cancelled: nothing was published."),
        every=0.5,  # read between the rows of a large release; forced before publishing
    )


def translation_export_run(*, export_id: int) -> TranslationExport:
    """Run one export to the end (the body of the Celery task and of `manage.py translation_export`)."""
    export = runs.claim(TranslationExport, export_id, max_seconds=settings.TRANSLATION_EXPORT_MAX_SECONDS)
    if export is None:
        return TranslationExport.objects.get(pk=export_id)
    run = _run(export)
    folder = exports_dir()
    work = folder / f"export-{export_id}-{uuid.uuid4().hex}.work"
    try:
        report = build_release(export, work, run)
        final = folder / f"translation-{export_id}.zip"
        _zip(work, final.with_suffix(".zip.part"))
        os.replace(final.with_suffix(".zip.part"), final)
        gold = report["gold_check"]
        with export.speaking():
            made = gettext("%(passed)s of %(total)s gold queries return the translated rows of the original's.") % {
                "passed": gold["passed"],
                "total": gold["total"],
            }
        TranslationExport.objects.filter(pk=export_id).update(
            state=TranslationExport.State.SUCCEEDED,
            file=final.relative_to(Path(settings.DATA_DIR)).as_posix(),
            report=report,
            gold_total=gold["total"],
            gold_passed=gold["passed"],
            message=made,
            finished_at=timezone.now(),
        )
    except runs.Stopped as stopped:
        state = TranslationExport.State.CANCELLED if stopped.cancelled else TranslationExport.State.FAILED
        runs.finish(TranslationExport, export_id, state, str(stopped))
    except (CopyError, validation.SchemaViolation, OSError) as error:
        with export.speaking():
            failed = gettext("The export failed: %(error)s") % {"error": error}
        runs.finish(TranslationExport, export_id, TranslationExport.State.FAILED, failed)
    except Exception as error:  # say what happened; the traceback goes to the log
        logger.exception("translation export %s failed", export_id)
        with export.speaking():
            failed = gettext("The export failed: %(error)s") % {"error": f"{type(error).__name__}: {error}"}
        runs.finish(TranslationExport, export_id, TranslationExport.State.FAILED, failed)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        final_part = folder / f"translation-{export_id}.zip.part"
        final_part.unlink(missing_ok=True)
    return TranslationExport.objects.get(pk=export_id)


def _zip(work: Path, target: Path) -> None:
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for path in sorted(work.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(work).as_posix())


def exported_interactions(export: TranslationExport) -> list[TranslationInteraction]:
    interactions = (
        export.project.interactions.select_related("project_database__database")
        .prefetch_related("sql_corrections")
        .order_by("position")
    )
    if export.only_approved:
        interactions = interactions.filter(state=TranslationInteraction.State.APPROVED)
    return [item for item in interactions if all(item.questions) and item.final_question]


def build_release(export: TranslationExport, out: Path, run: runs.Run) -> dict:
    """Write the release's files into `out` and return the report (also written as translation_report.json)."""
    interactions = exported_interactions(export)
    if not interactions:
        with export.speaking():
            raise runs.Stopped(
                gettext("No interaction to export: none is approved yet.")
                if export.only_approved
                else gettext("No interaction to export: none has every question translated yet.")
            )
    used: dict[int, ProjectDatabase] = {}
    for interaction in interactions:
        used.setdefault(interaction.project_database_id, interaction.project_database)
    databases = sorted(used.values(), key=lambda item: item.database.db_id)
    total = len(databases) + sum(len(item.turns) for item in interactions)
    done = 0
    run.progress(done, total)
    maps: dict[int, Maps] = {}
    builds = {}
    for project_database in databases:
        db_id = project_database.database.db_id
        maps[project_database.pk] = maps_of(project_database)
        target = out / CHASE.folder / "database" / db_id / f"{db_id}.sqlite"
        built = maps[project_database.pk]
        builds[db_id] = build_translated_copy(
            project_database.database.path,
            target,
            schema=built.schema,
            names=built.names,
            values=built.values,
            stop=run.stop,
        )
        builds[db_id]["values_truncated"] = project_database.values_truncated
        (target.parent / "schema.sql").write_text(schema_sql(target), encoding="utf-8")
        done += 1
        run.progress(done, total)
    turns_by_db: dict[int, list[Turn]] = {}
    for interaction in interactions:
        names = maps[interaction.project_database_id]
        corrections = corrected_sql(interaction)
        for index, turn in enumerate(interaction.turns):
            rewrite = _rewrite(turn["query"], names, corrections.get(index))
            turns_by_db.setdefault(interaction.project_database_id, []).append(
                Turn(interaction, index, turn["query"], rewrite)
            )
    for project_database in databases:
        turns = turns_by_db.get(project_database.pk, [])
        target = out / CHASE.folder / "database" / project_database.database.db_id
        _gold_check(project_database, target / f"{project_database.database.db_id}.sqlite", turns, maps, run)
        done += len(turns)
        run.progress(done, total)
    schemas = {
        item.pk: {**translated_schema(maps[item.pk].schema, maps[item.pk].names), "db_id": item.database.db_id}
        for item in databases
    }
    report = _write_files(export, out, interactions, turns_by_db, maps, schemas, builds)
    run.stop(force=True)
    return report


def _rewrite(sql: str, maps: Maps, correction) -> Rewrite:
    """The query on the translated schema: the translator's latest correction (TranslationSqlCorrection) where there
    is one, else the rewriting through the maps."""
    if correction is not None:
        return Rewrite(correction.sql, notes=["corrected by hand"])
    return rewrite_sql(sql, maps.names, maps.values)


def _mapped_rows(rows: list, values: ValueMap) -> list:
    return [[values.exact.get(cell, cell) if isinstance(cell, str) else cell for cell in row] for row in rows]


def _gold_check(project_database: ProjectDatabase, translated: Path, turns: list[Turn], maps, run: runs.Run) -> None:
    """Run each turn's query on the original and its rewrite on the translated file; record the outcome on the turn."""
    if not turns:
        return
    limits = compare_limits()
    values = maps[project_database.pk].values
    originals = execute_many(project_database.database.path, [turn.original for turn in turns], limits=limits)
    run.stop()
    rewritten = execute_many(translated, [turn.rewrite.sql for turn in turns], limits=limits)
    for turn, before, after in zip(turns, originals, rewritten, strict=True):
        if not before.ok:
            outcome = ORIGINAL_FAILS
        elif not after.ok:
            outcome = FAILS
        else:
            expected = _mapped_rows(before.rows, values)
            ordered = order_matters(turn.original)
            if results_equal(expected, after.rows, ordered=ordered):
                outcome = SAME
            elif ordered and results_equal(expected, after.rows, ordered=False):
                outcome = ORDER
            else:
                outcome = DIFFERENT
        turn.check = {
            "outcome": outcome,
            "rows": before.row_count if before.ok else None,
            "truncated": bool(before.ok and before.truncated),
            "error": (after.error or {}).get("message") if before.ok and not after.ok else None,
            "left_out": None,
        }


def _chase_turn(turn: Turn, schema: dict, question_id: str) -> dict | None:
    utterance = turn.interaction.questions[turn.index]
    try:
        encoded = encode_sql(turn.rewrite.sql, schema, limit_mode="one")
    except SpiderEncodingError as error:
        turn.check = {**turn.check, "left_out": f"{NOT_ENCODED}: {error}"}
        return None
    return {
        "contextual_phenomena": [],
        "intent": "",
        "pragmatics": "",
        "query": turn.rewrite.sql,
        "query_toks_no_value": query_toks_no_value(turn.rewrite.sql),
        "question_id": question_id,
        "question_style": "",
        "schema_linking": [],
        "sql": encoded,
        "utterance": utterance,
        "utterance_toks": utterance_toks(utterance),
    }


def _write_files(export, out: Path, interactions, turns_by_db, maps, schemas, builds) -> dict:
    project = export.project
    split = project.split
    records, gold, checks = [], [], []
    by_interaction: dict[int, list[Turn]] = {}
    for turns in turns_by_db.values():
        for turn in turns:
            by_interaction.setdefault(turn.interaction.pk, []).append(turn)
    for interaction in interactions:
        schema = schemas[interaction.project_database_id]
        written = []
        for turn in sorted(by_interaction[interaction.pk], key=lambda item: item.index):
            chase = _chase_turn(turn, schema, f"p{project.pk}i{interaction.position}t{turn.index}")
            checks.append(_check_row(interaction, turn))
            if chase is not None:
                written.append(chase)
        if not written:
            continue
        names = maps[interaction.project_database_id]
        final_sql = _rewrite(interaction.final.get("query") or "", names, corrected_sql(interaction).get(-1)).sql
        records.append(
            {
                "database_id": schema["db_id"],
                "final": {"query": final_sql, "utterance": interaction.final_question},
                "interaction": written,
            }
        )
        gold.append((schema["db_id"], [turn["query"] for turn in written]))
    chase_file = CHASE.state_file.format(split=split)
    _json(out / chase_file, records, kind="chase", sort_keys=True)
    gold_file = CHASE.gold_file.format(split=split)
    text = gold_text(gold)
    problems = validation.gold_errors(text)
    if problems:
        raise validation.SchemaViolation(f"{gold_file}: " + "; ".join(problems))
    (out / gold_file).write_text(text, encoding="utf-8")
    used = {record["database_id"] for record in records}
    tables = [schema for schema in sorted(schemas.values(), key=lambda item: item["db_id"]) if schema["db_id"] in used]
    _json(out / CHASE.tables_file, tables, kind="tables")
    passed = sum(1 for row in checks if row["outcome"] == SAME and not row.get("left_out"))
    outcomes: dict[str, int] = {}
    for row in checks:
        outcomes[row["outcome"]] = outcomes.get(row["outcome"], 0) + 1
    report = {
        "project": project.pk,
        "language": project.language,
        "split": split,
        "files": [chase_file, gold_file, CHASE.tables_file],
        "interactions": len(records),
        "turns": sum(len(record["interaction"]) for record in records),
        "databases": builds,
        "gold_check": {"total": len(checks), "passed": passed, "outcomes": outcomes, "queries": checks},
    }
    (out / REPORT_FILE).write_bytes(jsoncodec.dumps_indented(report))
    return report


def _check_row(interaction: TranslationInteraction, turn: Turn) -> dict:
    return {
        "db_id": interaction.project_database.database.db_id,
        "interaction": interaction.position,
        "turn": turn.index,
        "original": turn.original,
        "translated": turn.rewrite.sql,
        "problems": turn.rewrite.problems,
        "notes": turn.rewrite.notes,
        **turn.check,
    }


def _json(path: Path, data, *, kind: str, sort_keys: bool = False) -> None:
    validation.check(kind, data, name=path.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jsoncodec.dumps_indented(data, sort_keys=sort_keys))
