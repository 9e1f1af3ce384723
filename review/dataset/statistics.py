"""The statistics a dataset paper reports, computed for any selection of dialogues.

Rows of the CoSQL paper's Tables 1-3 (dialogues, turns, tokens, averages, vocabulary, databases, tables, slots,
splits), the act distributions and dialogue lengths (its Figures 2-3), SQL keyword counts and keyword frequency by
user turn (Figures 4-5), Spider hardness, CHASE's contextual phenomena, OTTA's table and attribute coverage of each
database, and the median time per dialogue and per question.

Definitions (the papers leave some open; these are the ones used everywhere here):
- a *turn* is a message: a user utterance, an expert response or a drop warning (the CoSQL paper's footnote 10);
  result tables travel with a response and are not counted apart;
- tokens are `utterance_toks` (the platform's tokeniser, or the release's tokens for imported turns); the
  vocabulary is the set of distinct lower-cased tokens; the question length is given in tokens and, as the papers
  count it, in words (`avg_question_words`: tokens holding a letter or digit, punctuation left out);
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
  as SQL keywords (JOIN, GROUP BY, ORDER BY, NESTED, HAVING, SET OP, AGG: `sql_keyword_counts`). The same MSTTR and
  components are given per collection mode too (`otta_by_collection`).
- question and SQL token overlap between turns, the schema links' match types, the SQL components per turn position
  and SParC's thematic relations are defined in docs/statistics.md.
"""

from __future__ import annotations

import re
from collections import Counter
from statistics import mean, median

from annotation.labels.acts import (
    AMBIGUITY_TYPES,
    CONTEXTUAL_PHENOMENA,
    INTENT_CATEGORY_OF_CHASE_LABEL,
    SYSTEM_ACTS,
    THEMATIC_RELATIONS,
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
        "sql_component_shares": component_share_figures(keywords),
        "keywords_by_turn": keywords_by_turn_figures(keywords, len(records)),
        "hardness": hardness_figures(records, states, encoded),
        "contextual_phenomena": phenomena_figures(records, states),
        "intents": intent_figures(records, states),
        "ambiguity": ambiguity_figures(records),
        "query_first": query_first_figures(records, list(query_first_seconds)),
        "by_collection": collection_figures(records),
        "otta_by_collection": otta_collection_figures(records, keywords),
        "question_overlap": question_overlap_figures(states, len(records)),
        "sql_overlap": sql_overlap_figures(states, len(records)),
        "thematic_relations": thematic_figures(records, states),
        "link_matches": link_match_figures(records, states, schemas),
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
    # The papers' question length counts words: punctuation tokens left out (docs/statistics.md).
    question_words = sum(1 for toks in questions for token in toks if any(char.isalnum() for char in token))
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
        "avg_question_words": round(question_words / len(questions), 2) if questions else 0,
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


def component_share_figures(keywords: list[list[Counter]]) -> dict:
    """SParC's Table 4: the share of SQL turns (in percent) that hold each keyword at least once."""
    turns = [counts for record_keywords in keywords for counts in record_keywords]
    return {
        "sql_turns": len(turns),
        "percent": {
            keyword: round(100 * sum(1 for counts in turns if counts.get(keyword)) / len(turns), 1) if turns else None
            for keyword in KEYWORDS
        },
    }


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


def otta_collection_figures(records: list[DialogueRecord], keywords: list[list[Counter]]) -> list[dict]:
    """OTTA's MSTTR and components per query (as `query_first_figures` computes them) for each collection mode
    present: the questions' tokens of the mode's records in order, and its SQL turns' keyword counts."""
    tokens: dict[str, list[str]] = {mode: [] for mode, _ in COLLECTION_MODES}
    counts: dict[str, Counter] = {mode: Counter() for mode, _ in COLLECTION_MODES}
    sql_turns: Counter = Counter()
    present: set[str] = set()
    for record, record_keywords in zip(records, keywords, strict=True):
        mode = collection_mode(record)
        present.add(mode)
        tokens[mode].extend(token.lower() for turn in record.user_turns for token in _tokens(turn.text))
        for turn_counts in record_keywords:
            counts[mode].update(turn_counts)
        sql_turns[mode] += len(record_keywords)
    return [
        {
            "mode": mode,
            "title": title,
            "question_tokens": len(tokens[mode]),
            "msttr": msttr(tokens[mode]),
            "sql_turns": sql_turns[mode],
            "components_per_query": {
                name: round(counts[mode][name] / sql_turns[mode], 3) if sql_turns[mode] else 0
                for name in OTTA_COMPONENTS
            },
        }
        for mode, title in COLLECTION_MODES
        if mode in present
    ]


OVERLAP_MAX_TURNS = 10


def _content_tokens(text: str) -> set[str]:
    """The distinct lower-cased tokens of `text` that hold a letter, digit or ideograph (punctuation left out)."""
    return {token.lower() for token in _tokens(text) if any(char.isalnum() for char in token)}


def _sql_tokens(sql: str) -> set[str]:
    """The distinct lower-cased tokens of `query_toks_no_value(sql)` that hold a letter or digit: keywords, names and
    the `value` placeholder; punctuation and operators left out."""
    return {token.lower() for token in query_toks_no_value(sql) if any(char.isalnum() for char in token)}


def question_overlap_figures(states: list[list], dialogues: int) -> dict:
    """SParC's overlap heatmap, over the questions: for SQL turns i < j of one interaction, the share of the distinct
    tokens of question j that also occur in question i, averaged over the interactions reaching turn j
    (docs/statistics.md). `percent[i-1][j-1]` for i < j, None elsewhere; `pairs` the same for the counts."""
    return _overlap_figures(
        [[_content_tokens(state.utterance) for state in record_states[:OVERLAP_MAX_TURNS]] for record_states in states],
        dialogues,
    )


def sql_overlap_figures(states: list[list], dialogues: int) -> dict:
    """SParC's Figure 2 as the paper draws it, over the SQL: the same heatmap as `question_overlap_figures` with each
    turn's SQL tokens (`_sql_tokens`) in place of its question's."""
    return _overlap_figures(
        [[_sql_tokens(state.sql) for state in record_states[:OVERLAP_MAX_TURNS]] for record_states in states],
        dialogues,
    )


def _overlap_figures(token_sets: list[list[set[str]]], dialogues: int) -> dict:
    """The overlap heatmap over each interaction's token sets, one per SQL turn in order."""
    reaching: Counter = Counter()
    sums: Counter = Counter()
    pairs: Counter = Counter()
    for questions in token_sets:
        for j, later in enumerate(questions, start=1):
            reaching[j] += 1
            if not later:
                continue
            for i, earlier in enumerate(questions[: j - 1], start=1):
                sums[i, j] += len(later & earlier) / len(later)
                pairs[i, j] += 1
    shown = [k for k in range(1, OVERLAP_MAX_TURNS + 1) if reaching[k] and reaching[k] >= max(1, 0.05 * dialogues)]
    return {
        "turns": shown,
        "percent": [
            [round(100 * sums[i, j] / pairs[i, j], 1) if i < j and pairs[i, j] else None for j in shown] for i in shown
        ],
        "pairs": [[pairs[i, j] if i < j else None for j in shown] for i in shown],
        "max_turns": OVERLAP_MAX_TURNS,
    }


LINK_MATCHES = ("exact", "partial", "none")
LINKED_ITEMS = ("table", "column")


def _name_forms(name: str) -> list[str]:
    """A schema name as lower-cased tokens, underscores and camelCase humps splitting words."""
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name.replace("_", " "))
    return [token.lower() for token in _tokens(text) if token.strip()]


def link_match(mention: list[str], names: list[str]) -> str:
    """CHASE's mention-match type of one linked item (docs/statistics.md): `exact` when the mention's tokens, joined
    without spaces and lower-cased, equal one of the item's names so joined; `partial` when at least one token of a
    name occurs among the mention's tokens, English plurals folded (`_singular`); `none` otherwise."""
    words = [token.lower() for token in mention if token.strip()]
    forms = [_name_forms(name) for name in names if name]
    if any("".join(words) == "".join(form) for form in forms):
        return "exact"
    folded = {_singular(word) for word in words}
    if any(folded & {_singular(token) for token in form} for form in forms):
        return "partial"
    return "none"


def _singular(word: str) -> str:
    """An English plural folded onto its singular for a partial match ("orders" shares "order"); other tokens as
    they are."""
    if len(word) <= 3 or not word.isascii() or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    return word[:-3] + "y" if word.endswith("ies") else word[:-1]


def _turn_links(record: DialogueRecord, state) -> tuple[list[dict], list[str]]:
    """A SQL turn's schema links and the tokens their spans index: collected in the room (over the turn's own text),
    else the turn's imported annotation while its text is unchanged (over the annotation's tokens)."""
    labels = state.turn.labels
    if "schema_linking" in labels:  # an empty list collected in the room means no link, not "ask the import"
        return labels["schema_linking"] or [], utterance_toks(state.turn.text)
    annotation = record.annotations.get(state.turn.seq)
    if annotation is not None and annotation.schema_linking and annotation.utterance == state.utterance:
        return annotation.schema_linking, list(annotation.utterance_toks or utterance_toks(state.utterance))
    return [], []


def _item_names(link: dict, schema: dict | None) -> list[str]:
    entity = link.get("entity") or {}
    names = [entity.get("value") or ""]
    if schema is not None:
        if link["type"] == "table" and "tableId" in entity:
            readable = schema.get("table_names") or ()
            if entity["tableId"] < len(readable):
                names.append(readable[entity["tableId"]])
        elif link["type"] == "column" and "columnId" in entity:
            readable = schema.get("column_names") or ()
            if entity["columnId"] < len(readable):
                names.append(readable[entity["columnId"]][1])
    return names


def link_match_figures(records: list[DialogueRecord], states: list[list], schemas: dict[str, dict]) -> dict:
    """CHASE's Table 7 from the collected schema links: per linked item type (tables, columns; values are not
    schema items), how many links are exact, partial or no string matches of the item's name (`link_match`)."""
    counts = {kind: Counter() for kind in LINKED_ITEMS}
    turns = 0
    for record, record_states in zip(records, states, strict=True):
        schema = schemas.get(record.db_id)
        for state in record_states:
            links, tokens = _turn_links(record, state)
            links = [link for link in links if link.get("type") in LINKED_ITEMS]
            turns += bool(links)
            for link in links:
                mention = tokens[link["beg"] : link["end"] + 1]
                counts[link["type"]][link_match(mention, _item_names(link, schema))] += 1
    total = counts["table"] + counts["column"]
    links = sum(total.values())
    return {
        "turns_linked": turns,
        "links": links,
        **{kind: {match: counts[kind][match] for match in LINK_MATCHES} for kind in LINKED_ITEMS},
        "all": {match: total[match] for match in LINK_MATCHES},
        "percent": {match: round(100 * total[match] / links, 1) if links else None for match in LINK_MATCHES},
    }


def thematic_figures(records: list[DialogueRecord], states: list[list]) -> dict:
    """SParC's Table 2 from the labelled follow-up questions (SQL turns after the first; `record.thematic_relations`:
    a person's label, else an imported one): how many follow-ups there are and how many are labelled, each
    relation's count, its share of all labels (as Table 2's percentages, which add up to 100 over questions that may
    have several) and its share of the labelled questions."""
    counts: Counter = Counter()
    follow_ups = labelled = 0
    for record, record_states in zip(records, states, strict=True):
        for state in record_states[1:]:
            follow_ups += 1
            names = record.thematic_relations(state)
            labelled += bool(names)
            counts.update(names)
    total = sum(counts.values())
    return {
        "follow_ups": follow_ups,
        "labelled": labelled,
        "labels": total,
        "counts": {name: counts[name] for name in THEMATIC_RELATIONS},
        "percent": {name: round(100 * counts[name] / total, 1) if total else None for name in THEMATIC_RELATIONS},
        "percent_of_labelled": {
            name: round(100 * counts[name] / labelled, 1) if labelled else None for name in THEMATIC_RELATIONS
        },
    }
