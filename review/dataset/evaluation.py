"""Scoring a prediction file on a release: the official metrics, question and interaction level, and the strata the
seed papers report results by (docs/evaluation.md).

A release (one export folder, or one format's folder of it) gives the gold, turn by turn: its `{split}_gold.txt` when
there is one (what the public evaluator reads), its state-tracking file otherwise, and the labels the strata need from
its files (CHASE's contextual phenomena and intents on the turns, CoSQL's user acts from `user_intent_prediction`).
Its `database/<db_id>/` folder holds the original database and its test suite: every `.sqlite` file there is run,
as the public evaluator does.

The prediction file is the evaluator's: one predicted SQL per line, an empty line after each interaction. A file
whose structure does not follow the gold's is refused with the line where they part, before anything runs.
"""

from __future__ import annotations

import dataclasses
import unicodedata
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from annotation.plumbing.jsonfile import decoded_text, read_json_file
from annotation.sql.hardness import HARDNESS_LEVELS, hardness
from annotation.sql.sandbox import SandboxLimits, current_limits, execute_many
from annotation.sql.scoring import (
    EMPTY_SQL,
    exact_match,
    foreign_key_map,
    order_matters,
    prepare_for_execution,
    results_equal,
)
from annotation.sql.spider import SpiderEncodingError, encode_sql
from review.dataset.formats import COSQL_SPLIT_FILES, FOLDERS, GOLD_FILES, STATE_FILES, TABLES_FILES
from review.dataset.readers import unfold
from review.dataset.splits import SPLITS

METRICS = ("exact", "execution", "test_suite")
METRIC_TITLES = {
    "exact": gettext_lazy("Exact match"),
    "execution": gettext_lazy("Execution"),
    "test_suite": gettext_lazy("Test-suite execution"),
}
# A report keeps its strata's titles and the turn positions' and the totals' labels in English, as the command prints
# them and the figures draw them; a page words them in its language (`report_worded`).
TURN_LABELS = (
    gettext_noop("turn 1"),
    gettext_noop("turn 2"),
    gettext_noop("turn 3"),
    gettext_noop("turn 4"),
    gettext_noop("turn > 4"),
)
STRATA = (
    ("turn", gettext_noop("Turn position")),
    ("hardness", gettext_noop("Hardness")),
    ("user_act", gettext_noop("User act (CoSQL)")),
    ("contextual_phenomenon", gettext_noop("Contextual phenomenon (CHASE)")),
    ("intent", gettext_noop("Intent category (CHASE)")),
)
MAX_PREDICTION_BYTES = 20_000_000
# Results are compared whole: a result cut at the room's row limit could make two different queries look equal.
EVALUATION_MAX_ROWS = 100_000
EVALUATION_MAX_RESULT_BYTES = 50_000_000

Progress = Callable[[int, int], None]


@dataclass
class GoldTurn:
    sql: str
    db_id: str
    line: int | None  # in the gold file, when the gold came from one
    user_acts: list[str] = field(default_factory=list)
    phenomena: list[str] = field(default_factory=list)
    intent: str | None = None


@dataclass
class Release:
    fmt: str
    split: str
    folder: Path  # the format's folder (its database/ is beside its files)
    gold_source: str  # the file the gold was read from, relative to the release
    schemas: dict[str, dict]
    interactions: list[list[GoldTurn]]

    @property
    def turn_count(self) -> int:
        return sum(len(turns) for turns in self.interactions)

    def databases(self, db_id: str) -> list[Path]:
        """The SQLite files a query of `db_id` is run on: the original first, then its test suite (every other
        `.sqlite` file of its folder, as the public evaluator reads the folder). Empty for a schema-only database."""
        folder = self.folder / "database" / db_id
        original = folder / f"{db_id}.sqlite"
        if not original.is_file():
            return []
        suite = sorted(path for path in folder.glob("*.sqlite") if path != original and path.is_file())
        return [original, *suite]


# ---------------------------------------------------------------------------------------------------------------
# Reading a release and a prediction file
# ---------------------------------------------------------------------------------------------------------------


def _root_for(release_dir: Path, fmt: str) -> Path | None:
    """The export folder holding `fmt`'s folder, whether `release_dir` is the export or that format's folder."""
    if (release_dir / FOLDERS[fmt]).is_dir():
        return release_dir
    if release_dir.name == FOLDERS[fmt]:
        return release_dir.parent
    return None


def release_formats_found(release_dir: Path, split: str) -> list[str]:
    """The interaction formats whose `split` file the release holds."""
    found = []
    for fmt in STATE_FILES:
        root = _root_for(Path(release_dir), fmt)
        if root is not None and (root / STATE_FILES[fmt].format(split=split)).is_file():
            found.append(fmt)
    return found


def release_load(release_dir: Path, *, fmt: str | None = None, split: str = "dev") -> Release:
    """The gold turns of one format and split of the release in `release_dir`, with their labels and schemas.
    ValidationError when the release does not hold them, or holds files that do not agree."""
    release_dir = Path(release_dir)
    if split not in SPLITS:
        raise ValidationError(
            gettext("Unknown split %(split)r: choose one of %(splits)s.")
            % {"split": split, "splits": ", ".join(SPLITS)}
        )
    if not release_dir.is_dir():
        raise ValidationError(gettext("%(folder)s is not a folder.") % {"folder": release_dir})
    fmt = _format_to_score(release_dir, fmt, split)
    root = _root_for(release_dir, fmt)
    state_name = STATE_FILES[fmt].format(split=split)
    items = read_json_file(root / state_name)
    _check_shape(items, name=state_name, fmt=fmt)
    tables = read_json_file(root / TABLES_FILES[fmt])
    if not isinstance(tables, list):
        raise ValidationError(
            gettext("%(file)s is not a tables file (a list of schemas).") % {"file": TABLES_FILES[fmt]}
        )
    schemas = {entry["db_id"]: entry for entry in tables if isinstance(entry, dict) and "db_id" in entry}
    interactions = [_gold_turns(item, fmt) for item in items]
    if fmt == "cosql":
        _attach_user_acts(root / COSQL_SPLIT_FILES["cosql_user_intent"].format(split=split), items, interactions)
    gold_name = GOLD_FILES[fmt].format(split=split)
    gold_source = state_name
    if (root / gold_name).is_file():
        _take_gold_file(root / gold_name, interactions)
        gold_source = gold_name
    undescribed = next((turn.db_id for turns in interactions for turn in turns if turn.db_id not in schemas), None)
    if undescribed is not None:
        raise ValidationError(
            gettext("%(file)s does not describe database %(db_id)r.")
            % {"file": TABLES_FILES[fmt], "db_id": undescribed}
        )
    return Release(
        fmt=fmt,
        split=split,
        folder=root / FOLDERS[fmt],
        gold_source=gold_source,
        schemas=schemas,
        interactions=interactions,
    )


def _format_to_score(release_dir: Path, fmt: str | None, split: str) -> str:
    """`fmt` when the release holds its `split` file; without `fmt`, the one format whose file it holds."""
    found = release_formats_found(release_dir, split)
    if fmt is None:
        if not found:
            raise ValidationError(
                gettext("%(folder)s holds no CoSQL, SParC or CHASE %(split)s file.")
                % {"folder": release_dir, "split": split}
            )
        if len(found) > 1:
            raise ValidationError(
                gettext("%(folder)s holds %(formats)s: say which to score (--format).")
                % {"folder": release_dir, "formats": ", ".join(found)}
            )
        return found[0]
    if fmt not in found:
        raise ValidationError(
            gettext("%(folder)s holds no %(format)s %(split)s file (%(file)s).")
            % {"folder": release_dir, "format": fmt, "split": split, "file": STATE_FILES[fmt].format(split=split)}
        )
    return fmt


def _gold_turns(item: dict, fmt: str) -> list[GoldTurn]:
    """An interaction's gold turns, with CHASE's labels."""
    turns = []
    for turn in item["interaction"]:
        gold = GoldTurn(sql=turn["query"], db_id=item["database_id"], line=None)
        if fmt == "chase":
            gold.phenomena = list(turn.get("contextual_phenomena") or [])
            gold.intent = turn.get("intent") or None
        turns.append(gold)
    return turns


def _check_shape(items, *, name: str, fmt: str) -> None:
    """What scoring reads of a state-tracking file: a list of interactions, each with a database and turns that
    have a query (the rest of the format's fields are not needed to score, and not asked for)."""
    if not isinstance(items, list):
        raise ValidationError(
            gettext("%(file)s is not a %(format)s file: it holds no list of interactions.")
            % {"file": name, "format": fmt}
        )
    for number, item in enumerate(items, start=1):
        turns = item.get("interaction") if isinstance(item, dict) else None
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("database_id"), str)
            or not isinstance(turns, list)
            or not all(isinstance(turn, dict) and isinstance(turn.get("query"), str) for turn in turns)
        ):
            raise ValidationError(
                gettext(
                    "%(file)s is not a %(format)s file: interaction %(number)s needs a database_id and turns with a "
                    "query."
                )
                % {"file": name, "format": fmt, "number": number}
            )


def _attach_user_acts(path: Path, items: list, interactions: list[list[GoldTurn]]) -> None:
    """Each turn's user acts: those of the user turn that asked it (the answer, for a turn folded with its
    clarification), found by database and words. A release without the file has no user-act stratum."""
    if not path.is_file():
        return
    acts: dict[tuple[str, str], list[str]] = {}
    entries = read_json_file(path)
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("intent"), list):
            acts.setdefault((entry.get("database_id"), entry.get("utterance")), list(entry["intent"]))
    for item, turns in zip(items, interactions, strict=True):
        for turn, gold in zip(item["interaction"], turns, strict=True):
            _, asked = unfold(turn["utterance"])
            gold.user_acts = acts.get((item["database_id"], asked), [])


def _take_gold_file(path: Path, interactions: list[list[GoldTurn]]) -> None:
    """The gold file's SQL in place of the state-tracking file's, after checking both hold the same turns."""
    blocks = _blocks(_read_text(path), source=path.name)
    if len(blocks) != len(interactions):
        raise ValidationError(
            gettext("%(file)s holds %(count)s interactions, its state-tracking file %(gold)s.")
            % {"file": path.name, "count": len(blocks), "gold": len(interactions)}
        )
    for block, turns in zip(blocks, interactions, strict=True):
        if len(block) != len(turns):
            raise ValidationError(
                gettext("%(file)s, line %(line)s: %(count)s turns where the state-tracking file has %(gold)s.")
                % {"file": path.name, "line": block[0][0], "count": len(block), "gold": len(turns)}
            )
        for (line, text), turn in zip(block, turns, strict=True):
            sql, _, db_id = text.rpartition("\t")
            if not sql or db_id != turn.db_id:
                raise ValidationError(
                    gettext("%(file)s, line %(line)s: expected `SQL<TAB>%(db_id)s`.")
                    % {"file": path.name, "line": line, "db_id": turn.db_id}
                )
            turn.sql, turn.line = sql, line


def _read_text(path: Path) -> str:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ValidationError(
            gettext("%(file)s: cannot read it (%(error)s).") % {"file": Path(path).name, "error": exc.strerror}
        ) from None
    return decoded_text(raw, source=Path(path).name)


def _blocks(text: str, *, source: str) -> list[list[tuple[int, str]]]:
    """The (line number, text) of each non-empty line, in interactions separated by one empty line. Empty lines at
    the end are allowed; two in a row elsewhere would make an empty interaction, and are refused."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    blanks: list[int] = []  # the empty lines since the last line with text
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            blanks.append(number)
            if current:
                blocks.append(current)
                current = []
            continue
        if blanks and not blocks:
            raise ValidationError(
                gettext("%(file)s, line %(line)s: the file starts with an empty line.")
                % {"file": source, "line": blanks[0]}
            )
        if len(blanks) > 1:
            raise ValidationError(
                gettext("%(file)s, line %(line)s: a second empty line in a row (an interaction with no turn).")
                % {"file": source, "line": blanks[1]}
            )
        blanks = []
        current.append((number, line.strip()))
    if current:
        blocks.append(current)
    return blocks


def predictions_read(raw: bytes, release: Release, *, source: str = "predictions") -> list[list[str]]:
    """The predicted SQL of each turn, interaction by interaction, from the evaluator's prediction file (one SQL per
    line, only the text before a tab read; an empty line after each interaction). ValidationError naming the line
    where the file stops following the gold."""
    if len(raw) > MAX_PREDICTION_BYTES:
        raise ValidationError(
            gettext("%(file)s is larger than %(megabytes)s MB.")
            % {"file": source, "megabytes": MAX_PREDICTION_BYTES // 1_000_000}
        )
    if not raw.strip():
        raise ValidationError(
            gettext("%(file)s is empty: it needs one line per gold turn (%(count)s).")
            % {"file": source, "count": release.turn_count}
        )
    blocks = _blocks(decoded_text(raw, source=source), source=source)
    for index, (block, gold) in enumerate(zip(blocks, release.interactions, strict=False)):
        if len(block) != len(gold):
            # Too few: the line that ends the interaction early; too many: the first line beyond the gold's turns.
            line = block[-1][0] + 1 if len(block) < len(gold) else block[len(gold)][0]
            predicted = ngettext("%(count)s predicted query", "%(count)s predicted queries", len(block))
            turns = ngettext("%(count)s turn", "%(count)s turns", len(gold))
            raise ValidationError(
                gettext(
                    "%(file)s, line %(line)s: interaction %(number)s has %(predicted)s, the gold has %(turns)s "
                    "(an empty line must follow each interaction)."
                )
                % {
                    "file": source,
                    "line": line,
                    "number": index + 1,
                    "predicted": predicted % {"count": len(block)},
                    "turns": turns % {"count": len(gold)},
                }
            )
    if len(blocks) != len(release.interactions):
        if len(blocks) > len(release.interactions):
            extra = blocks[len(release.interactions)][0][0]
            raise ValidationError(
                gettext("%(file)s, line %(line)s: the gold has %(gold)s interactions, and this line starts one more.")
                % {"file": source, "line": extra, "gold": len(release.interactions)}
            )
        raise ValidationError(
            gettext("%(file)s ends after %(count)s interactions (line %(line)s); the gold has %(gold)s.")
            % {
                "file": source,
                "count": len(blocks),
                "line": blocks[-1][-1][0] if blocks else 0,
                "gold": len(release.interactions),
            }
        )
    return [[text.split("\t")[0] for _, text in block] for block in blocks]


def release_extract(zip_path: Path, target: Path, *, fmt: str, with_databases: bool) -> Path:
    """Unpack one format's folder of an export's zip into `target` (its databases only when asked: checking a file
    needs the gold, scoring needs the databases too); return `target`, a release folder for `release_load`."""
    prefix = FOLDERS[fmt] + "/"
    skip = prefix + "database/"
    target = Path(target)
    with zipfile.ZipFile(zip_path) as archive:
        for member in archive.infolist():
            name = member.filename
            if not name.startswith(prefix) or (not with_databases and name.startswith(skip)):
                continue
            if member.is_dir() or ".." in Path(name).parts or Path(name).is_absolute():
                continue
            archive.extract(member, target)
    return target


# ---------------------------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class TurnScore:
    interaction: int
    position: int
    db_id: str
    hardness: str
    exact: bool
    execution: bool | None  # None: the database has no file, nothing was run
    test_suite: bool | None
    gold: GoldTurn = field(repr=False)
    gold_problem: str | None = None


def evaluation_limits() -> SandboxLimits:
    """The sandbox's limits (time, memory), with results large enough to be compared whole."""
    limits = current_limits()
    return dataclasses.replace(
        limits,
        max_rows=max(limits.max_rows, EVALUATION_MAX_ROWS),
        max_result_bytes=max(limits.max_result_bytes, EVALUATION_MAX_RESULT_BYTES),
    )


def predictions_evaluate(
    release: Release,
    predictions: list[list[str]],
    *,
    keep_distinct: bool = False,
    progress: Progress | None = None,
) -> dict:
    """Score `predictions` against the release's gold: exact match, execution on the original database and
    execution on the test suite, per question and per interaction, overall and by stratum. ValidationError when a
    gold query cannot be read; a gold query that does not run is left out of the execution scores and named in
    `gold_problems`."""
    keys = {db_id: foreign_key_map(schema) for db_id, schema in release.schemas.items()}
    by_db: dict[str, list[tuple[TurnScore, str]]] = {}
    scores: list[list[TurnScore]] = []
    for number, (gold_turns, predicted) in enumerate(zip(release.interactions, predictions, strict=True)):
        row = []
        for position, (gold, sql) in enumerate(zip(gold_turns, predicted, strict=True)):
            schema = release.schemas[gold.db_id]
            try:
                gold_encoded = encode_sql(gold.sql, schema)
            except SpiderEncodingError as exc:
                raise ValidationError(
                    gettext("%(where)s: the gold query cannot be read: %(error)s")
                    % {"where": _where(release, gold, number, position), "error": exc}
                )
            # The evaluator reads the placeholder `value` of value-less predictions as 1, in matching and running.
            sql = sql.replace("value", "1")
            try:
                predicted_encoded = encode_sql(sql, schema)
            except SpiderEncodingError:
                predicted_encoded = EMPTY_SQL
            score = TurnScore(
                interaction=number,
                position=position,
                db_id=gold.db_id,
                hardness=hardness(gold_encoded),
                exact=exact_match(predicted_encoded, gold_encoded, schema, keys[gold.db_id]),
                execution=None,
                test_suite=None,
                gold=gold,
            )
            row.append(score)
            by_db.setdefault(gold.db_id, []).append((score, sql))
        scores.append(row)
    limits = evaluation_limits()
    done = 0
    for db_id, turns in by_db.items():
        _execute(release, db_id, turns, keep_distinct=keep_distinct, limits=limits)
        done += 1
        if progress:
            progress(done, len(by_db))
    return _report(release, scores)


def _where(release: Release, gold: GoldTurn, interaction: int, position: int) -> str:
    if gold.line is not None:
        return gettext("%(file)s, line %(line)s") % {"file": release.gold_source, "line": gold.line}
    return gettext("%(file)s, interaction %(number)s, turn %(turn)s") % {
        "file": release.gold_source,
        "number": interaction + 1,
        "turn": position + 1,
    }


def _execute(release: Release, db_id: str, turns: list[tuple[TurnScore, str]], *, keep_distinct, limits) -> None:
    """Run each turn's gold and prediction on the original database, then, for the predictions that agree there, on
    every database of the suite (a prediction is right on the suite when it agrees on all of them)."""
    paths = release.databases(db_id)
    if not paths:
        return
    prepared = [
        (
            score,
            prepare_for_execution(score.gold.sql, keep_distinct=keep_distinct),
            prepare_for_execution(sql, keep_distinct=keep_distinct),
        )
        for score, sql in turns
    ]
    alive = prepared
    for index, path in enumerate(paths):
        if not alive:
            break
        queries = list(dict.fromkeys(q for _, gold, pred in alive for q in (gold, pred)))
        results = dict(zip(queries, execute_many(path, queries, limits=limits), strict=True))
        still = []
        for score, gold, pred in alive:
            gold_result, pred_result = results[gold], results[pred]
            if not gold_result.ok or gold_result.truncated:
                # The public evaluator stops on such a gold; here the turn is left out of the execution scores and
                # the report names it, so one flawed gold does not hide every other score.
                problem = (
                    gold_result.error["message"]
                    if not gold_result.ok
                    else gettext("its result is too large to compare")
                )
                score.gold_problem = gettext("%(where)s: the gold query fails on %(database)s: %(error)s") % {
                    "where": _where(release, score.gold, score.interaction, score.position),
                    "database": f"{path.parent.name}/{path.name}",
                    "error": problem,
                }
                if index == 0:
                    score.execution = None
                score.test_suite = None
                continue
            agrees = (
                pred_result.ok
                and not pred_result.truncated
                and results_equal(gold_result.rows, pred_result.rows, ordered=order_matters(gold))
            )
            if index == 0:
                score.execution = agrees
            if agrees:
                still.append((score, gold, pred))
            else:
                score.test_suite = False
        alive = still
    for score, _, _ in alive:
        score.test_suite = True


def _row(label: str, count: int, rates: dict[str, tuple[int, int]]) -> dict:
    """A row of the table: `count` items, and per metric its rate over the items it could be measured on (a question
    whose database has no file, or whose gold does not run, has no execution score) with how many those were, so that
    no rate is read as over more items than it is. `cells` is the same in the table's order, for the pages."""
    row = {"label": label, "count": count, "measured": {}, "cells": []}
    for metric in METRICS:
        right, measured = rates[metric]
        row[metric] = right / measured if measured else None
        row["measured"][metric] = measured
        row["cells"].append({"metric": metric, "rate": row[metric], "measured": measured, "partial": measured != count})
    return row


def _rates(turns: list[TurnScore], label: str) -> dict:
    rates = {}
    for metric in METRICS:
        known = [value for value in (getattr(turn, metric) for turn in turns) if value is not None]
        rates[metric] = (sum(known), len(known))
    return _row(label, len(turns), rates)


def _joint(interactions: list[list[TurnScore]], label: str) -> dict:
    """An interaction counts when every one of its turns is right; it is measured when every one of them is."""
    rates = {}
    for metric in METRICS:
        known = [turns for turns in interactions if all(getattr(t, metric) is not None for t in turns)]
        rates[metric] = (sum(all(getattr(t, metric) for t in turns) for turns in known), len(known))
    return _row(label, len(interactions), rates)


def _report(release: Release, scores: list[list[TurnScore]]) -> dict:
    flat = [turn for turns in scores for turn in turns]

    def grouped(labels_of, order=None) -> list[dict]:
        groups: dict[str, list[TurnScore]] = {}
        for turn in flat:
            for label in labels_of(turn):
                groups.setdefault(label, []).append(turn)
        names = [name for name in order if name in groups] if order else sorted(groups)
        return [_rates(groups[name], name) for name in names]

    strata = {
        "turn": grouped(lambda t: [TURN_LABELS[min(t.position, 4)]], TURN_LABELS),
        "hardness": grouped(lambda t: [t.hardness], HARDNESS_LEVELS),
        "user_act": grouped(lambda t: t.gold.user_acts),
        "contextual_phenomenon": grouped(lambda t: t.gold.phenomena),
        "intent": grouped(lambda t: [t.gold.intent] if t.gold.intent else []),
    }
    databases = sorted({turn.db_id for turn in flat})
    return {
        "format": release.fmt,
        "split": release.split,
        "gold": release.gold_source,
        "questions": len(flat),
        "interactions": len(scores),
        "databases": {db_id: len(release.databases(db_id)) for db_id in databases},
        "question": _rates(flat, gettext_noop("all questions")),
        "interaction": _joint(scores, gettext_noop("all interactions")),
        "strata": [{"name": name, "title": title, "rows": strata[name]} for name, title in STRATA if strata[name]],
        "gold_problems": [turn.gold_problem for turn in flat if turn.gold_problem],
        "turns": [
            {
                "interaction": turn.interaction + 1,
                "turn": turn.position + 1,
                "db_id": turn.db_id,
                "hardness": turn.hardness,
                **{metric: getattr(turn, metric) for metric in METRICS},
            }
            for turn in flat
        ],
    }


def report_worded(report: dict) -> dict:
    """A copy of an SQL evaluation's report with its titles and labels in the active language (the page's)."""
    worded = dict(report)
    for key in ("question", "interaction"):
        if isinstance(report.get(key), dict) and "label" in report[key]:
            worded[key] = {**report[key], "label": gettext(report[key]["label"])}
    worded["strata"] = [
        {
            **stratum,
            "title": gettext(stratum["title"]),
            "rows": [{**row, "label": gettext(row["label"])} for row in stratum["rows"]]
            if stratum["name"] == "turn"
            else stratum["rows"],
        }
        for stratum in report.get("strata", [])
    ]
    return worded


def release_evaluate(
    release_dir: Path,
    predictions: bytes,
    *,
    fmt: str | None = None,
    split: str = "dev",
    keep_distinct: bool = False,
    source: str = "predictions",
    progress: Progress | None = None,
) -> dict:
    """Read the release and the prediction file (bytes) and score them; ValidationError for bad input."""
    release = release_load(release_dir, fmt=fmt, split=split)
    predicted = predictions_read(predictions, release, source=source)
    return predictions_evaluate(release, predicted, keep_distinct=keep_distinct, progress=progress)


# ---------------------------------------------------------------------------------------------------------------
# The table, as text
# ---------------------------------------------------------------------------------------------------------------


def _label(text: str, width: int = 34) -> str:
    """`text` cut and padded to `width` terminal columns (a Chinese character takes two)."""
    out, used = "", 0
    for char in text:
        size = 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used + size > width - 1:
            break
        out, used = out + char, used + size
    return out + " " * (width - used)


def _cell(row: dict, metric: str) -> str:
    """A rate, and over how many when that is fewer than the row's count ("0.750 of 8")."""
    value, measured = row[metric], row["measured"][metric]
    if value is None:
        return "—"
    return f"{value:.3f}" if measured == row["count"] else f"{value:.3f} of {measured}"


def report_table(report: dict) -> str:
    """The scores as a plain-text table: overall, then one block per stratum."""
    header = f"{'':<34}{'count':>7}" + "".join(f"{str(METRIC_TITLES[m]):>24}" for m in METRICS)

    def line(row: dict) -> str:
        return f"{_label(row['label'])}{row['count']:>7}" + "".join(f"{_cell(row, m):>24}" for m in METRICS)

    suites = report["databases"]
    lines = [
        f"{report['format']} {report['split']}: {report['questions']} questions in {report['interactions']} "
        f"interactions, gold from {report['gold']}",
        "databases run on (original + suite): "
        + (", ".join(f"{db_id} {count}" for db_id, count in suites.items()) or "none"),
        "",
        header,
        line(report["question"]),
        line(report["interaction"]),
    ]
    for problem in report["gold_problems"]:
        lines.insert(2, f"left out of the execution scores: {problem}")
    for stratum in report["strata"]:
        lines += ["", stratum["title"]]
        lines += [line(row) for row in stratum["rows"]]
    return "\n".join(lines) + "\n"
