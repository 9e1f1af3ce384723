"""What the platform adds to a room besides what people write: the intent recommended to the worker before each
follow-up question, and, for the expert, what it reads from a turn's SQL when its result is shared (the relation to
the previous SQL turn, proposed schema links, a draft response). docs/chase.md describes the whole.

The reading itself is the SQL core's (`annotation.wording.suggestions`, `.relations`, `.linking`, `.drafts`: pure
functions
of SQL text and a schema); this module feeds them from a dialogue: the previous turn's SQL, real values from the
database, and how often each intent category was collected so far. The room records what they return as events
(`dialogs.room`), so a recommendation or a detected label is in the log like any other message.
"""

from __future__ import annotations

import functools
import logging
import os
import random
import re
import threading
import time
from collections import Counter

from django.conf import settings

from annotation.labels import linking
from annotation.labels.relation_model import label_intent
from annotation.labels.relation_model import loaded_model as label_intent_model
from annotation.labels.relations import RelationError, detect_relation
from annotation.labels.tokens import utterance_toks
from annotation.models import Database
from annotation.sql import analysis, sandbox
from annotation.suites.checks import ON_ORIGINAL, SuiteCheckError, suite_check, suite_search
from annotation.suites.compare import order_matters, results_equal
from annotation.wording import chinese_drafts, chinese_suggestions
from annotation.wording import response_drafts as drafts
from annotation.wording import suggestions as intents
from dialogs.log import intent_categories_counted, recommendation_payload

logger = logging.getLogger(__name__)

# How long a process reuses the collection's intent counts: sampling by coverage needs the trend, not the last turn.
COUNTS_SECONDS = 60.0
# Real values shown in a recommendation ("e.g. only those from France") are read once per column and process.
VALUES_PER_COLUMN = 5

_counts_lock = threading.Lock()
_counts: tuple[float, dict[int, Counter]] | None = None


def intent_counts() -> dict[int, Counter]:
    """Intent categories collected so far, per database id: each turn's latest intent label (detected or the
    expert's). Read at most once a minute per process."""
    global _counts
    with _counts_lock:
        if _counts is not None and time.monotonic() - _counts[0] < COUNTS_SECONDS:
            return _counts[1]
    counted: dict[int, Counter] = {}
    for database_id, category, n in intent_categories_counted():
        if category:
            counted.setdefault(database_id, Counter())[category] += n
    with _counts_lock:
        _counts = (time.monotonic(), counted)
    return counted


def intent_counts_forget() -> None:
    """Drop the cached counts (tests; an admin who changed INTENT_TARGETS wants them fresh)."""
    global _counts
    with _counts_lock:
        _counts = None


def column_values(database: Database):
    """A `values(table, column)` function over the database's file for the recommendation texts (nothing for a
    schema-only registration)."""
    if not database.has_file:
        return lambda table, column: []
    return column_values_at(str(database.path))


def column_values_at(path: str):
    """`values(table, column)`: a few real values of a column of the file at `path`, read in the sandbox."""
    return lambda table, column: list(analysis.column_values(path, table, column, VALUES_PER_COLUMN))


_FIGURES_KEPT = 4096


@functools.lru_cache(maxsize=_FIGURES_KEPT)
def _column_figures(path: str, stamp: tuple, table: str, column: str) -> dict | None:
    quoted_table, quoted_column = '"' + table.replace('"', '""') + '"', '"' + column.replace('"', '""') + '"'
    ran = sandbox.execute(
        path,
        f"SELECT count({quoted_column}), count(DISTINCT {quoted_column}), min({quoted_column}), "  # noqa: S608
        f"max({quoted_column}) FROM {quoted_table}",
    )
    if not ran.ok or not ran.rows:
        return None
    rows, distinct, low, high = ran.rows[0]
    return {"rows": rows, "distinct": distinct, "min": low, "max": high}


# Values of a column in the rows a query read: read for a narrowing's value, at most this many.
ROW_VALUES_READ = 50


@functools.lru_cache(maxsize=_FIGURES_KEPT)
def _row_values(path: str, stamp: tuple, sql: str, table: str, column: str) -> tuple | None:
    return analysis.row_values(path, sql, table, column, ROW_VALUES_READ)


def row_values_at(path: str, sql: str):
    """`row_values(table, column)`: the values a column holds in the rows `sql` read in the file at `path` (a
    narrowing keeps some of them: its value must be one of theirs), read once per file state in the sandbox; None
    when they cannot be told."""

    def row_values(table: str, column: str) -> tuple | None:
        stamp = _file_stamp(path)
        return None if stamp is None else _row_values(path, stamp, sql, table, column)

    return row_values


def _file_stamp(path: str) -> tuple | None:
    """What says the file at `path` changed (its size and modification time), for the caches read per file state;
    None when it cannot be read."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def column_statistics_at(path: str):
    """`statistics(table, column)`: a column's figures in the file at `path` (`rows` with a value, `distinct`, `min`,
    `max`), read once per file state in the sandbox (never inside a transaction: the suggestion is worked out after
    the answer is recorded, docs/protocol.md); None when they cannot be read."""

    def statistics(table: str, column: str) -> dict | None:
        stamp = _file_stamp(path)
        return None if stamp is None else _column_figures(path, stamp, table, column)

    return statistics


def suggestion(
    *, schema: dict | None, path: str | None, sql: str, result: dict | None, category: str, rng, language: str = "en"
) -> intents.Recommendation:
    """One suggestion of `category` after `sql`, as a room words it: with real values and the columns' figures of the
    file at `path` (none without a file) and the `result` the worker was shown, so that nothing is suggested that the
    result already answers (`intents.recommend`). The one call behind the room's suggestion and the rated sheets
    (bench/rating_sheet.py, bench/suggestions_zh.py). In a Chinese `language` ("zh-hans", the dialogue's:
    `draft_language`) the same choice is worded by the Chinese rules (`chinese_suggestions`). Raises
    intents.IntentError as `recommend` does."""
    recommend = chinese_suggestions.recommend if language.lower().startswith("zh") else intents.recommend
    return recommend(
        sql,
        schema,
        category=category,
        rng=rng,
        values=column_values_at(path) if path else None,
        result=result,
        statistics=column_statistics_at(path) if path else None,
        row_values=row_values_at(path, sql) if path else None,
    )


def result_shown(database: Database, sql: str) -> dict | None:
    """The result of `sql` as the worker was shown it, read again in the sandbox (the room's shared result holds the
    same rows of the same file); None without a file or when it fails."""
    if not database.has_file:
        return None
    ran = sandbox.execute(str(database.path), sql)
    return ran.to_dict() if ran.ok else None


def recommendation_next(
    *,
    database: Database,
    turn: int,
    sql: str,
    offered: list[dict],
    rng=None,
    result: dict | None = None,
    utterance: str = "",
    worker_language: str = "",
) -> dict | None:
    """The payload of the next recommendation after `turn` (answered with `sql`, whose `result` the worker was shown:
    read again when not given), or None when none applies (an unreadable SQL, or every applicable category already
    offered for this turn). Worded in the dialogue's language, by the rule the draft follows (`draft_language` of the
    turn's question `utterance` and the worker's account's `worker_language`)."""
    rng = rng or random.Random()
    schema = database.schema
    path = str(database.path) if database.has_file else None
    language = draft_language(utterance=utterance, worker_language=worker_language, schema=schema)
    if result is None:
        result = result_shown(database, sql)
    statistics = column_statistics_at(path) if path else None
    try:
        available = set(intents.applicable_categories(sql, schema, result=result, statistics=statistics))
    except intents.IntentError as exc:
        logger.info("no recommendation after turn %s: %s", turn, exc)
        return None
    seen = {(item["category"], item["relation"]) for item in offered}
    fresh_categories = available - {item["category"] for item in offered}
    candidates = fresh_categories or available
    if not candidates:
        return None
    counts = intent_counts()
    local = counts.get(database.pk, Counter())
    overall = sum(counts.values(), Counter())
    recommendation = None
    while candidates and recommendation is None:
        category = intents.choose_category(
            local=local, overall=overall, targets=intents.intent_targets(), rng=rng, available=candidates
        )
        try:
            for _ in range(8):  # another wording of an already offered relation is no new suggestion
                recommendation = suggestion(
                    schema=schema, path=path, sql=sql, result=result, category=category, rng=rng, language=language
                )
                if (recommendation.category, recommendation.relation) not in seen:
                    break
        except intents.IntentError as exc:
            # A combination that no short sentence can say is left out: another category is drawn instead.
            logger.info("no %s recommendation after turn %s: %s", category, turn, exc)
            candidates = candidates - {category}
    if recommendation is None:
        return None
    return recommendation_payload(
        turn,
        recommendation.category,
        recommendation.relation,
        recommendation.text,
        columns=recommendation.columns,
        values=recommendation.values,
        tables=recommendation.tables,
    )


def load_now() -> None:
    """Load what reading a shared result loads on first use: the inflection engine (its import alone costs over a
    second of CPU), the word segmenter's counts and the relation model. A server calls it as it starts (config/asgi.py),
    so that the first rooms of a process do not pay for it while their partners wait."""
    from annotation.wording import english

    english.english()
    english.split_compounds("warmupword")  # long enough to reach the segmenter
    label_intent_model()


# Where a goal match was told, besides the suite and the original: the shared SQL is the goal's own, written again.
GOAL_SQL_ITSELF = "same query"
# A goal match the suite could not tell from the goal's meaning waits for a search (`goal_match_search`).
SEARCH_DUE = "due"


def goal_match(
    *, database: Database, goal_sql: str, sql: str, result: dict, search: bool = False, suite: dict | None = None
) -> dict:
    """Whether the SQL of a shared result means what the goal SQL means, checked on the database's test suite (the
    original alone while it has none): the detected labels `goal_match` (true, false, or None when it cannot be told:
    no goal, no database file, a result cut short, a goal that fails) and, when told, `goal_match_checked_on`
    ("suite", "original", or "same query" when the shared SQL is the goal's own written again) and
    `goal_match_databases` (how many databases were compared). A label written before suites existed has
    `goal_match` alone: the shared rows compared with the goal's on the original database.

    The search for a database that tells the two apart (annotation.suites.difference_search) is slow work: the room
    never does it while it shares a result. Without `search`, a match the suite could not tell apart says
    `goal_match_search` "due", and the room hands the search to a background task (`dialogs.tasks.goal_match_search`)
    that records its outcome as another detected label; with `search`, the whole comparison runs within
    SQL_COMPARE_SECONDS and `goal_match_searched` says how many databases were made for the pair. Given `suite` too
    (what the first label said, `goal_match_suite`), the search runs alone: the first label ran the suite already."""
    if not goal_sql or not database.has_file or result.get("truncated") or not result.get("ok", True):
        return {"goal_match": None}
    if search and suite is not None:
        return _goal_match_searched(database, goal_sql, sql, suite)
    # First on the original, from what is at hand: the rows shared, and the goal's rows on this file (kept per
    # process). Results that differ there differ, with no sandbox run; the suite is asked only when they agree.
    goal = _goal_rows(str(database.path), goal_sql)
    if goal is None:
        return {"goal_match": None}
    if goal is not _CUT and not results_equal(goal, result.get("rows") or [], ordered=order_matters(goal_sql)):
        return {"goal_match": False, "goal_match_checked_on": ON_ORIGINAL, "goal_match_databases": 1}
    try:
        check = suite_check(database, goal_sql, sql, seconds=None if search else 0)
    except SuiteCheckError as exc:
        logger.info("no goal match: %s", exc)
        return {"goal_match": None}
    if check.get("same_query"):
        return {"goal_match": True, "goal_match_checked_on": GOAL_SQL_ITSELF, "goal_match_databases": 0}
    if not check["checked_databases"]:
        return {"goal_match": None}  # every result was cut at the row limit: nothing was compared
    labels = {
        "goal_match": check["equivalent"],
        "goal_match_checked_on": check["checked_on"],
        "goal_match_databases": check["checked_databases"],
    }
    if search:
        labels["goal_match_searched"] = check["searched_databases"]
    elif check["equivalent"]:
        labels["goal_match_search"] = SEARCH_DUE
    return labels


def goal_match_suite(labels: dict) -> dict | None:
    """What a first goal match whose search is due hands the search (`goal_match`'s `suite`): where the suite told
    nothing apart and on how many databases. None when no search is due."""
    if labels.get("goal_match_search") != SEARCH_DUE:
        return None
    return {"checked_on": labels["goal_match_checked_on"], "checked_databases": labels["goal_match_databases"]}


def _goal_match_searched(database: Database, goal_sql: str, sql: str, suite: dict) -> dict:
    try:
        check = suite_search(
            database, goal_sql, sql, checked_on=suite["checked_on"], checked_databases=suite["checked_databases"]
        )
    except SuiteCheckError as exc:
        logger.info("no goal match searched: %s", exc)
        return {"goal_match": None}
    return {
        "goal_match": check["equivalent"],
        "goal_match_checked_on": check["checked_on"],
        "goal_match_databases": check["checked_databases"],
        "goal_match_searched": check["searched_databases"],
    }


# A goal result cut at the sandbox's row limit: it proves nothing alone (the suite decides).
_CUT = object()
_GOAL_ROWS_KEPT = 512


@functools.lru_cache(maxsize=_GOAL_ROWS_KEPT)
def _goal_rows_of(path: str, stamp: tuple, goal_sql: str):
    ran = sandbox.execute(path, goal_sql)
    if not ran.ok:
        return None
    return _CUT if ran.truncated else ran.to_dict()["rows"]


def _goal_rows(path: str, goal_sql: str):
    """The goal's rows on the file at `path` (as a shared result holds them), _CUT when cut short, None when the goal
    fails. Kept per file state (size and modification time) and query."""
    stamp = _file_stamp(path)
    return None if stamp is None else _goal_rows_of(path, stamp, goal_sql)


def labels_detected(
    *,
    database: Database,
    utterance: str,
    sql: str,
    result: dict,
    previous_sql: str | None,
    recommended: dict | None = None,
    previous_utterance: str | None = None,
    worker_language: str = "",
) -> dict:
    """What the platform reads from a turn whose result was just shared: `tokens` (the utterance's), `intent` (the
    relation from the previous SQL turn, when there is one), `followed` (with an intent and the suggestion shown
    before the question, `recommended`: whether the question followed it, `intents.suggestion_followed`),
    `schema_linking` (proposed spans over the tokens) and `draft` (a response to edit). A reading that fails leaves
    its label out: it never stops the share. Given `previous_utterance` (the question `previous_sql` answered), the
    intent's category is the learned model's, which reads both questions (`relation_model.label_intent`, as CHASE's
    annotators label) with the relations of that category; `followed` is judged on all the relations the
    definitions find (`detect_relation`), as before. The draft is written in the dialogue's language
    (`draft_language`: the question's, else the worker's account's `worker_language`, else the database's)."""
    schema = database.schema
    tokens = utterance_toks(utterance)
    labels: dict = {"tokens": tokens}  # what the spans index, as the exports tokenise the utterance
    if previous_sql:
        try:
            found = detect_relation(previous_sql, sql, schema)
            labels["intent"] = found.as_dict()
            if previous_utterance is not None:
                labels["intent"] = label_intent(
                    previous_sql, sql, schema, previous_question=previous_utterance, current_question=utterance
                ).as_dict()
            if recommended:
                labels["followed"] = intents.suggestion_followed(recommended, found.relations, sql, schema)
        except RelationError as exc:
            logger.info("no relation detected: %s", exc)
    try:
        labels["schema_linking"] = linking.propose_links(tokens, sql, schema)
    except Exception:  # noqa: BLE001 - a proposal is a convenience; the expert labels by hand without one
        logger.exception("schema linking proposal failed")
    language = draft_language(utterance=utterance, worker_language=worker_language, schema=schema)
    path = str(database.path) if database.has_file else None
    labels["draft"] = draft_for(schema=schema, sql=sql, result=result, language=language, path=path)
    return labels


def draft_for(*, schema: dict | None, sql: str, result: dict, language: str = "en", path: str | None = None) -> str:
    """The draft response a room offers for `result` of `sql`, worded from `schema`: the hosted database's
    (`Database.schema`, the file's schema with the release's or the curator's readable names), in `language` (a
    Chinese one, "zh-hans", gets the Chinese rules; any other the English). With the database file's `path`, a number
    column holding only 0 and 1 is read as a yes/no flag, by the suggestions' one reading of the columns' figures
    (`intents.flags_read`): "those that are on call", never "whose on call is 1". The one call behind the room's draft
    and the rated sheets (bench/rating_sheet.py, bench/drafts_zh.py), so that what is rated is what experts see."""
    if language.lower().startswith("zh"):
        return chinese_drafts.draft_response(sql, result, schema)
    return drafts.draft_response(sql, result, schema_with_flags(schema, sql, path))


def schema_with_flags(schema: dict | None, sql: str, path: str | None) -> dict | None:
    """`schema` with each number column of the file at `path` that holds only 0 and 1 named as a yes/no flag
    (`intents.flags_read`), for the English writers that say flags as states: the draft response and the query-first
    drafted question (`dialogs.query_first.query_first_draft`); `schema` as it is without a file."""
    return intents.flags_read(sql, schema, column_statistics_at(path)) if path else schema


_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def draft_language(*, utterance: str, worker_language: str = "", schema: dict | None = None) -> str:
    """The language a draft answers in: the dialogue's, not the expert's screens' (docs/i18n.md, "Response
    drafts"). The worker's question decides (Chinese characters: "zh-hans"; Latin letters and none: "en"); a question
    with neither ("?", "2019") leaves it to the language on the worker's account, then to the database's names
    (Chinese characters in a table or column name: "zh-hans"); English otherwise."""
    if _HAN.search(utterance or ""):
        return "zh-hans"
    if _LATIN.search(utterance or ""):
        return "en"
    if worker_language:
        return "zh-hans" if worker_language.lower().startswith("zh") else "en"
    names = []
    if isinstance(schema, dict):
        names = list(schema.get("table_names") or []) + [
            pair[1] for pair in schema.get("column_names") or [] if isinstance(pair, list | tuple) and len(pair) == 2
        ]
    return "zh-hans" if any(_HAN.search(str(name)) for name in names) else "en"


def recommendations_enabled() -> bool:
    return settings.INTENT_RECOMMENDATIONS
