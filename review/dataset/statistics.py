"""The statistics a dataset paper reports, computed for any selection of dialogues.

Rows of the CoSQL paper's Tables 1-3 (dialogues, turns, tokens, averages, vocabulary, databases, tables, slots,
splits), the act distributions and dialogue lengths (its Figures 2-3), SQL keyword counts and keyword frequency by
user turn (Figures 4-5), Spider hardness, CHASE's contextual phenomena, OTTA's table and attribute coverage of each
database, and the median time per dialogue and per question.

Definitions (the papers leave some open; these are the ones used everywhere here):
- a *turn* is a message: a user utterance, an expert response or a drop warning (the CoSQL paper's footnote 10);
  result tables travel with a response and are not counted apart;
- tokens are `utterance_toks` (the platform's tokeniser, or the release's tokens for imported turns); the
  vocabulary is the set of distinct lower-cased tokens;
- a *question* is a user utterance; an *SQL turn* is an SQL-grounded turn of the state-tracking files;
- SQL keywords are counted on `query_toks_no_value`; AGG is an aggregate function call, NESTED a sub-SELECT;
- keyword frequency by turn (Figure 5) is the share of dialogues with at least k SQL turns whose k-th SQL holds the
  keyword, with turns counted over SQL turns only;
- coverage of a database: the share of its tables (and of its columns, without `*`) that the SQL of the selection
  uses anywhere; the averages are over databases, and again over those with more than 5 tables (as OTTA reports);
- time per dialogue: first utterance to the end; time per question: a user utterance to the expert's first response.
  Imported dialogues have no real timing and are left out of both.
- query-first items (OTTA's Tables 2-3): annotation time per phase (phase 1: opening the goal to sending the question;
  phase 2: opening the page to sending the alignment); MSTTR, the mean type-token ratio of consecutive segments of
  MSTTR_SEGMENT lower-cased tokens of the questions taken in order (a last, shorter segment is left out; none when
  there are fewer tokens than one segment); components per query, the mean count per SQL of OTTA's Table 3 columns
  as SQL keywords (JOIN, GROUP BY, ORDER BY, NESTED, HAVING, SET OP, AGG: `sql_keyword_counts`).
"""

from __future__ import annotations

from collections import Counter
from statistics import mean, median

from annotation.labels.acts import (
    AMBIGUITY_TYPES,
    CONTEXTUAL_PHENOMENA,
    INTENT_CATEGORY_OF_CHASE_LABEL,
    SYSTEM_ACTS,
    USER_ACTS,
)
from annotation.labels.relations import CATEGORIES, RELATION_NAMES
from annotation.labels.tokens import utterance_toks
from annotation.sql.hardness import hardness
from annotation.sql.spider import query_toks_no_value
from dialogs.log import DialogueRecord
from review.dataset.splits import SPLITS

KEYWORDS = (
    "WHERE",
    "AGG",
    "GROUP BY",
    "ORDER BY",
    "HAVING",
    "LIMIT",
    "JOIN",
    "NESTED",
    "SET OP",
    "DISTINCT",
    "NOT",
    "IN",
    "LIKE",
    "BETWEEN",
    "OR",
)
BY_TURN_KEYWORDS = ("WHERE", "AGG", "GROUP BY", "ORDER BY", "NESTED", "JOIN")
_AGGREGATES = frozenset({"count", "max", "min", "sum", "avg"})
_PLAIN = {"where", "having", "limit", "join", "distinct", "not", "in", "like", "between", "or"}
HARDNESS_LEVELS = ("easy", "medium", "hard", "extra")
MSTTR_SEGMENT = 50
OTTA_COMPONENTS = ("JOIN", "GROUP BY", "ORDER BY", "NESTED", "HAVING", "SET OP", "AGG")


def sql_keywords(sql: str) -> set[str]:
    """The keywords of KEYWORDS that `sql` contains (presence, for frequencies)."""
    return set(sql_keyword_counts(sql))


def sql_keyword_counts(sql: str) -> Counter:
    """How often each keyword occurs in `sql` (for the keyword counts of CoSQL's Figure 4)."""
    tokens = query_toks_no_value(sql)
    counts: Counter = Counter()
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token in _AGGREGATES and following == "(":
            counts["AGG"] += 1
        elif token == "group" and following == "by":
            counts["GROUP BY"] += 1
        elif token == "order" and following == "by":
            counts["ORDER BY"] += 1
        elif token in ("intersect", "union", "except"):
            counts["SET OP"] += 1
        elif token == "select" and index > 0 and tokens[index - 1] == "(":
            counts["NESTED"] += 1
        elif token in _PLAIN:
            counts[token.upper()] += 1
    return counts


def _tokens(text: str) -> list[str]:
    return utterance_toks(text)


def _used_schema(encoded: dict, tables: set[int], columns: set[int]) -> None:
    """Collect the table and column ids an encoded query uses, nested queries included."""
    _SchemaWalk(tables, columns).query(encoded)


class _SchemaWalk:
    """Walks a Spider encoding, adding the table ids it reads to `tables` and the column ids to `columns`."""

    def __init__(self, tables: set[int], columns: set[int]):
        self.tables = tables
        self.columns = columns

    def col_unit(self, unit) -> None:
        if isinstance(unit, list) and len(unit) == 3 and isinstance(unit[1], int):
            self.columns.add(unit[1])

    def val_unit(self, unit) -> None:
        self.col_unit(unit[1])
        if unit[2] is not None:
            self.col_unit(unit[2])

    def value(self, item) -> None:
        if isinstance(item, dict):
            self.query(item)
        elif isinstance(item, list):
            self.col_unit(item)

    def condition(self, items) -> None:
        for item in items:
            if isinstance(item, list):
                self.val_unit(item[2])
                self.value(item[3])
                self.value(item[4])

    def query(self, sql: dict) -> None:
        for kind, unit in sql["from"]["table_units"]:
            if kind == "table_unit":
                self.tables.add(unit)
            else:
                self.query(unit)
        self.condition(sql["from"]["conds"])
        for _, unit in sql["select"][1]:
            self.val_unit(unit)
        self.condition(sql["where"])
        self.condition(sql["having"])
        for unit in sql["groupBy"]:
            self.col_unit(unit)
        if sql["orderBy"]:
            for unit in sql["orderBy"][1]:
                self.val_unit(unit)
        for name in ("intersect", "union", "except"):
            if sql[name]:
                self.query(sql[name])


def _distribution(counter: Counter, order) -> dict[str, int]:
    known = {name: counter.get(name, 0) for name in order}
    extra = {name: count for name, count in sorted(counter.items()) if name not in known}
    return {**known, **extra}


class _IntentFigures:
    """Intent recommendation and detection (CHASE section 3.1) over the SQL turns: what was recommended, what the
    turn's intent label says was asked (the expert's, else detected, else an imported release's), how often the two
    agree, the relations, and what experts did with the draft responses."""

    def __init__(self):
        self.recommended: Counter = Counter()
        self.labelled: Counter = Counter()
        self.relations: Counter = Counter()
        self.pairs: Counter = Counter()  # (recommended, labelled) for turns that have both
        self.followed: Counter = Counter()  # True / False per turn judged (UserTurn.followed)
        self.drafts: Counter = Counter()

    def add_turn(self, turn, annotation) -> None:
        intent = turn.labels.get("intent")
        category = (
            intent["category"] if intent else INTENT_CATEGORY_OF_CHASE_LABEL.get(getattr(annotation, "intent", ""))
        )
        if category:
            self.labelled[category] += 1
        for name in intent["relations"] if intent else ():
            self.relations[name] += 1
        if turn.recommended:
            self.recommended[turn.recommended["category"]] += 1
            if category:
                self.pairs[turn.recommended["category"], category] += 1
            if turn.followed is not None:
                self.followed[turn.followed] += 1

    def figures(self) -> dict:
        # Followed: the relation detected is the suggested one and the SQL uses what it named (UserTurn.followed),
        # not merely the same category; the matrix below still compares categories.
        compared = self.followed[True] + self.followed[False]
        followed = self.followed[True]
        offered = sum(self.drafts.values())
        return {
            "recommended": _distribution(self.recommended, CATEGORIES),
            "asked": _distribution(self.labelled, CATEGORIES),
            "relations": _distribution(self.relations, RELATION_NAMES),
            "recommendation_followed": {
                "compared": compared,
                "followed": followed,
                "share": round(followed / compared, 4) if compared else None,
                "matrix": {
                    recommended: {asked: self.pairs[recommended, asked] for asked in CATEGORIES}
                    for recommended in CATEGORIES
                },
            },
            "drafts": {
                "offered": offered,
                **{use: self.drafts[use] for use in ("kept", "edited", "replaced")},
                "kept_or_edited_share": round((self.drafts["kept"] + self.drafts["edited"]) / offered, 4)
                if offered
                else None,
            },
        }


def msttr(tokens: list[str], segment: int = MSTTR_SEGMENT) -> float | None:
    """Mean segmental type-token ratio of `tokens` (see the module's definitions)."""
    whole = len(tokens) // segment
    if not whole:
        return None
    ratios = [len(set(tokens[i * segment : (i + 1) * segment])) / segment for i in range(whole)]
    return round(mean(ratios), 4)


def query_first_figures(records: list[DialogueRecord], phase_seconds: list[tuple[int | None, int | None]]) -> dict:
    """OTTA's figures for the query-first items among `records`; `phase_seconds` holds each item's (phase 1, phase 2)
    annotation time. Empty when there are none."""
    items = [record for record in records if record.mode == "query_first"]
    if not items:
        return {}
    tokens = [token.lower() for record in items for turn in record.user_turns for token in _tokens(turn.text)]
    sqls = [state.sql for record in items for state in record.state_turns()]
    counts: Counter = Counter()
    for sql in sqls:
        counts.update(sql_keyword_counts(sql))
    writing = [first for first, _ in phase_seconds if first is not None]
    aligning = [second for _, second in phase_seconds if second is not None]
    return {
        "items": len(items),
        "median_seconds_phase_1": round(median(writing), 1) if writing else None,
        "median_seconds_phase_2": round(median(aligning), 1) if aligning else None,
        "msttr": msttr(tokens),
        "msttr_segment": MSTTR_SEGMENT,
        "question_tokens": len(tokens),
        "components_per_query": {name: round(counts[name] / len(sqls), 3) if sqls else 0 for name in OTTA_COMPONENTS},
    }


# How a record was collected, in the order the statistics page lists them: the figures of one are not the other's
# (a query-first item is one question written for a given SQL, not a dialogue; an imported one has no timings).
COLLECTION_MODES = (
    ("live", "Live (worker and expert)"),
    ("solo", "Solo sequences"),
    ("query_first", "Query-first items"),
    ("imported", "Imported"),
)


def collection_mode(record: DialogueRecord) -> str:
    """One of COLLECTION_MODES' keys."""
    if record.imported:
        return "imported"
    return {"chat": "live", "solo": "solo", "query_first": "query_first"}.get(record.mode, record.mode)


def _timed(record: DialogueRecord) -> tuple[float | None, list[float]]:
    """A dialogue's time from its first question to its end, and each question's time to its answer. Neither for an
    imported record (its times are not ours) nor a query-first item (its two phases are timed apart:
    query_first_figures)."""
    if collection_mode(record) in ("imported", "query_first"):
        return None, []
    first = next((turn.created_at for turn in record.user_turns), None)
    end = record.ended_at
    seconds = (end - first).total_seconds() if first is not None and end is not None and end >= first else None
    per_question = []
    for turn in record.user_turns:
        answered = turn.answered_at()
        if answered is not None and answered >= turn.created_at:
            per_question.append((answered - turn.created_at).total_seconds())
    return seconds, per_question


def collection_figures(records: list[DialogueRecord]) -> list[dict]:
    """Per way of collecting present in `records`: how many, their questions and SQL turns, and their timings."""
    rows = []
    for mode, title in COLLECTION_MODES:
        kept = [record for record in records if collection_mode(record) == mode]
        if not kept:
            continue
        questions = sum(1 for record in kept for kind, _ in record.messages if kind == "user")
        timed = [_timed(record) for record in kept]
        seconds = [total for total, _ in timed if total is not None]
        per_question = [value for _, values in timed for value in values]
        rows.append(
            {
                "mode": mode,
                "title": title,
                "records": len(kept),
                "questions": questions,
                "sql_turns": sum(len(record.state_turns()) for record in kept),
                "avg_questions": round(questions / len(kept), 2),
                "timed": len(seconds),
                "median_seconds": round(median(seconds), 1) if seconds else None,
                "questions_timed": len(per_question),
                "median_seconds_per_question": round(median(per_question), 1) if per_question else None,
            }
        )
    return rows


def compute_statistics(
    records: list[DialogueRecord],
    *,
    schemas: dict[str, dict],
    encoded: dict[tuple[str, str], tuple[dict | None, str | None]],
    split_of: dict[str, str] | None = None,
    query_first_seconds: list[tuple[int | None, int | None]] = (),
    value_counts: dict[str, int | None] | None = None,
) -> dict:
    """Every statistic for `records`. `schemas[db_id]` is each database's tables.json entry; `encoded` maps
    (db_id, sql) of every SQL turn to its Spider encoding (or an error); `split_of` adds the per-split rows;
    `query_first_seconds` is the annotation time of each query-first item among them (phase 1, phase 2)."""
    states = [record.state_turns() for record in records]  # folding the clarifications is not free: once each
    keywords = [[sql_keyword_counts(state.sql) for state in turns] for turns in states]
    user_acts, system_acts = act_figures(records)
    return {
        "overview": overview_figures(records, states, schemas, value_counts),
        "splits": split_figures(records, states, split_of or {}),
        "user_acts": user_acts,
        "system_acts": system_acts,
        "dialogue_lengths": dialogue_length_figures(records),
        "sql_keywords": keyword_figures(keywords),
        "keywords_by_turn": keywords_by_turn_figures(keywords, len(records)),
        "hardness": hardness_figures(records, states, encoded),
        "contextual_phenomena": phenomena_figures(records, states),
        "intents": intent_figures(records, states),
        "ambiguity": ambiguity_figures(records),
        "query_first": query_first_figures(records, list(query_first_seconds)),
        "by_collection": collection_figures(records),
        "coverage": coverage_figures(records, states, schemas, encoded),
        "timing": timing_figures(records),
    }


# The messages that count as turns (see the module's definitions): a result table travels with its response.
_TURN_KINDS = ("user", "response", "drop")


def _turn_tokens(record: DialogueRecord) -> list[tuple[str, list[str]]]:
    """Each turn of `record` as (kind, its tokens)."""
    return [
        (kind, _tokens(item if kind == "drop" else item.text)) for kind, item in record.messages if kind in _TURN_KINDS
    ]


def _turn_count(record: DialogueRecord) -> int:
    return sum(1 for kind, _ in record.messages if kind in _TURN_KINDS)


def overview_figures(
    records: list[DialogueRecord],
    states: list[list],
    schemas: dict[str, dict],
    value_counts: dict[str, int | None] | None,
) -> dict:
    """The rows of CoSQL's Table 1 and the averages of its Table 2 (`states`: each record's SQL turns)."""
    turns = [_turn_tokens(record) for record in records]
    tokens = [token for record_turns in turns for _, toks in record_turns for token in toks]
    questions = [toks for record_turns in turns for kind, toks in record_turns if kind == "user"]
    question_tokens = sum(len(toks) for toks in questions)
    turn_total = sum(len(record_turns) for record_turns in turns)
    sql_turns = sum(len(record_states) for record_states in states)
    used = {record.db_id for record in records}
    dialogues = len(records)
    return {
        "dialogues": dialogues,
        "turns": turn_total,
        "tokens": len(tokens),
        "avg_turns_per_dialogue": round(turn_total / dialogues, 2) if dialogues else 0,
        "avg_tokens_per_turn": round(len(tokens) / turn_total, 2) if turn_total else 0,
        "vocabulary": len({token.lower() for token in tokens}),
        "questions": len(questions),
        "sql_turns": sql_turns,
        "folded_clarifications": sum(1 for record_states in states for state in record_states if state.folded),
        "avg_question_length": round(question_tokens / len(questions), 2) if questions else 0,
        "question_vocabulary": len({token.lower() for toks in questions for token in toks}),
        "avg_questions_per_dialogue": round(len(questions) / dialogues, 2) if dialogues else 0,
        "avg_sql_turns_per_dialogue": round(sql_turns / dialogues, 2) if dialogues else 0,
        "databases": len(used),
        "tables": sum(len(schemas[db_id]["table_names_original"]) for db_id in used),
        "slots": sum(len(schemas[db_id]["column_names_original"]) - 1 for db_id in used),
        # CoSQL Table 1's "# values": the databases' slot-value pairs (distinct values per column), over those
        # whose values are known (`values_databases` of `databases`).
        "values": sum(value_counts.get(db_id) or 0 for db_id in used) if value_counts else None,
        "values_databases": sum(1 for db_id in used if (value_counts or {}).get(db_id) is not None),
        "share_with_8_turns_or_more": round(sum(1 for record_turns in turns if len(record_turns) >= 8) / dialogues, 4)
        if dialogues
        else 0,
    }


def split_figures(records: list[DialogueRecord], states: list[list], split_of: dict[str, str]) -> dict:
    """CoSQL's Table 3: dialogues, databases, turns and SQL turns per split (none without `split_of`)."""
    if not split_of:
        return {}
    counts = {split: Counter() for split in SPLITS}
    databases: dict[str, set[str]] = {split: set() for split in SPLITS}
    for record, record_states in zip(records, states, strict=True):
        split = split_of.get(record.db_id)
        if split:
            counts[split]["dialogues"] += 1
            counts[split]["turns"] += _turn_count(record)
            counts[split]["sql_turns"] += len(record_states)
            databases[split].add(record.db_id)
    return {
        split: {
            "dialogues": counts[split]["dialogues"],
            "databases": len(databases[split]),
            "turns": counts[split]["turns"],
            "sql_turns": counts[split]["sql_turns"],
        }
        for split in SPLITS
    }


def act_figures(records: list[DialogueRecord]) -> tuple[dict[str, int], dict[str, int]]:
    """CoSQL's Figure 2: the distribution of user acts, and of system acts (a drop warning counts as DROP)."""
    user_acts: Counter = Counter()
    system_acts: Counter = Counter()
    for record in records:
        for kind, item in record.messages:
            if kind == "user":
                user_acts.update(item.acts or [])
            elif kind == "response":
                system_acts.update(item.acts)
            elif kind == "drop":
                system_acts["DROP"] += 1
    return _distribution(user_acts, USER_ACTS), _distribution(system_acts, SYSTEM_ACTS)


def dialogue_length_figures(records: list[DialogueRecord]) -> dict[str, int]:
    """CoSQL's Figure 3: how many dialogues have each number of turns."""
    lengths = Counter(_turn_count(record) for record in records)
    return {str(length): lengths[length] for length in sorted(lengths)}


def keyword_figures(keywords: list[list[Counter]]) -> dict[str, int]:
    """CoSQL's Figure 4: SQL keyword counts over every SQL turn (`keywords`: each record's per SQL turn)."""
    total: Counter = Counter()
    for record_keywords in keywords:
        for counts in record_keywords:
            total.update(counts)
    return _distribution(total, KEYWORDS)


def keywords_by_turn_figures(keywords: list[list[Counter]], dialogues: int) -> dict:
    """CoSQL's Figure 5: per SQL turn k, the share of the dialogues reaching it whose k-th SQL holds each keyword."""
    reaching: Counter = Counter()
    hits: dict[str, Counter] = {keyword: Counter() for keyword in BY_TURN_KEYWORDS}
    for record_keywords in keywords:
        for position, counts in enumerate(record_keywords, start=1):
            reaching[position] += 1
            for keyword in BY_TURN_KEYWORDS:
                if counts.get(keyword):
                    hits[keyword][position] += 1
    max_turn = max(reaching) if reaching else 0
    # Turns that fewer than 5% of the dialogues reach are noise in a frequency plot: stop before them.
    shown_turns = [k for k in range(1, max_turn + 1) if reaching[k] >= max(1, 0.05 * dialogues)]
    return {
        "turns": shown_turns,
        "dialogues_reaching_turn": [reaching[k] for k in shown_turns],
        "percent": {
            keyword: [round(100 * hits[keyword][k] / reaching[k], 2) for k in shown_turns]
            for keyword in BY_TURN_KEYWORDS
        },
    }


def _encoding(record: DialogueRecord, state, encoded: dict) -> dict | None:
    """The Spider encoding of a SQL turn, None when it has none."""
    sql_dict, _error = encoded.get((record.db_id, state.sql), (None, None))
    return sql_dict


def hardness_figures(records: list[DialogueRecord], states: list[list], encoded: dict) -> dict[str, int]:
    """Spider's hardness of every SQL turn ('not encodable' when it has no encoding)."""
    levels: Counter = Counter()
    for record, record_states in zip(records, states, strict=True):
        for state in record_states:
            sql_dict = _encoding(record, state, encoded)
            levels[hardness(sql_dict) if sql_dict is not None else "not encodable"] += 1
    return _distribution(levels, HARDNESS_LEVELS)


def _phenomena(state, annotation) -> list[str]:
    """The contextual phenomena of a SQL turn: collected with the turn, else the reviewer's annotation."""
    labels = state.turn.labels
    collected = labels["contextual_phenomena"] if "contextual_phenomena" in labels else None
    return collected if collected is not None else getattr(annotation, "contextual_phenomena", None) or []


def phenomena_figures(records: list[DialogueRecord], states: list[list]) -> dict[str, int]:
    """CHASE's contextual phenomena over the SQL turns (empty when no turn has any)."""
    phenomena: Counter = Counter()
    for record, record_states in zip(records, states, strict=True):
        for state in record_states:
            phenomena.update(_phenomena(state, record.annotations.get(state.turn.seq)))
    return _distribution(phenomena, CONTEXTUAL_PHENOMENA) if phenomena else {}


def intent_figures(records: list[DialogueRecord], states: list[list]) -> dict:
    """CHASE's intents over the SQL turns and what experts did with the draft responses (_IntentFigures)."""
    intents = _IntentFigures()
    for record, record_states in zip(records, states, strict=True):
        for state in record_states:
            intents.add_turn(state.turn, record.annotations.get(state.turn.seq))
        for kind, item in record.messages:
            if kind == "response" and item.draft:
                intents.drafts[item.draft] += 1
    return intents.figures()


def _schema_use(records: list[DialogueRecord], states: list[list], encoded: dict) -> dict:
    """Per database of `records`: the table ids and column ids its encodable SQL turns use, and how many those are."""
    tables: dict[str, set[int]] = {record.db_id: set() for record in records}
    columns: dict[str, set[int]] = {db_id: set() for db_id in tables}
    queries: Counter = Counter()
    for record, record_states in zip(records, states, strict=True):
        for state in record_states:
            sql_dict = _encoding(record, state, encoded)
            if sql_dict is not None:
                _used_schema(sql_dict, tables[record.db_id], columns[record.db_id])
                queries[record.db_id] += 1
    return {db_id: (tables[db_id], columns[db_id], queries[db_id]) for db_id in tables}


def _coverage_row(db_id: str, schema: dict, tables_used: set[int], columns_used: set[int], queries: int) -> dict:
    table_total = len(schema["table_names_original"])
    column_total = len(schema["column_names_original"]) - 1
    columns_used = {column for column in columns_used if column > 0}
    return {
        "db_id": db_id,
        "queries": queries,
        "tables": table_total,
        "tables_used": len(tables_used),
        "table_coverage": round(len(tables_used) / table_total, 4) if table_total else 0.0,
        "columns": column_total,
        "columns_used": len(columns_used),
        "column_coverage": round(len(columns_used) / column_total, 4) if column_total else 0.0,
    }


def _average(values) -> float | None:
    values = list(values)
    return round(mean(values), 4) if values else None


def coverage_figures(
    records: list[DialogueRecord], states: list[list], schemas: dict[str, dict], encoded: dict
) -> dict:
    """OTTA's coverage: per database, the share of its tables and columns the SQL uses; the averages over them."""
    used = _schema_use(records, states, encoded)
    coverage = [_coverage_row(db_id, schemas[db_id], *used[db_id]) for db_id in sorted(used)]
    large = [row for row in coverage if row["tables"] > 5]
    return {
        "databases": coverage,
        "avg_table_coverage": _average(row["table_coverage"] for row in coverage),
        "avg_column_coverage": _average(row["column_coverage"] for row in coverage),
        "avg_table_coverage_over_5_tables": _average(row["table_coverage"] for row in large),
        "avg_column_coverage_over_5_tables": _average(row["column_coverage"] for row in large),
    }


def timing_figures(records: list[DialogueRecord]) -> dict:
    """The median time per dialogue and per question, over the records collected here (_timed)."""
    timed = [_timed(record) for record in records]
    dialogue_seconds = [seconds for seconds, _ in timed if seconds is not None]
    question_seconds = [value for _, values in timed for value in values]
    return {
        "dialogues_timed": len(dialogue_seconds),
        "median_seconds_per_dialogue": round(median(dialogue_seconds), 1) if dialogue_seconds else None,
        "questions_timed": len(question_seconds),
        "median_seconds_per_question": round(median(question_seconds), 1) if question_seconds else None,
    }


def ambiguity_figures(records: list[DialogueRecord]) -> dict:
    """Ambiguous and unanswerable questions (PRACTIQ's sub-types): per act, the user turns labelled with it, how many
    of those the expert gave a sub-type, and the count of each sub-type; then the labels with a span, those with
    readings and the readings in all. Dropped turns are left out, as from every dataset file."""
    labelled: Counter = Counter()
    typed: Counter = Counter()
    types: Counter = Counter()
    extras: Counter = Counter()
    for record in records:
        for turn in record.user_turns:
            if turn.dropped:
                continue
            for act in AMBIGUITY_TYPES:
                if act in (turn.acts or ()):
                    labelled[act] += 1
            ambiguity = turn.ambiguity
            if not ambiguity:
                continue
            typed[next(act for act, names in AMBIGUITY_TYPES.items() if ambiguity["type"] in names)] += 1
            types[ambiguity["type"]] += 1
            extras["with_span"] += "span" in ambiguity
            extras["with_readings"] += bool(ambiguity.get("readings"))
            extras["readings"] += len(ambiguity.get("readings") or ())
    return {
        **{
            act: {"turns": labelled[act], "typed": typed[act], "types": {name: types[name] for name in names}}
            for act, names in AMBIGUITY_TYPES.items()
        },
        "with_span": extras["with_span"],
        "with_readings": extras["with_readings"],
        "readings": extras["readings"],
    }
