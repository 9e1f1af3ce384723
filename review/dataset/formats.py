"""The files of each release format, built from replayed dialogues and the checks of their SQL.

Key orders follow the public files (SParC: database_id, interaction, final; CoSQL: final, database_id, interaction;
CHASE: every key sorted), so that a diff against a release shows content, not layout. The `sql` field is written
with LIMIT values kept ("value") or as the releases' quirk ("one", every LIMIT is 1): per format by default, as
measured on the public samples (CoSQL and CHASE hold the quirk, SParC the values).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from annotation.labels.acts import CHASE_INTENT_LABELS
from annotation.labels.tokens import utterance_toks
from annotation.sql.check import SqlCheck, result_digest
from annotation.sql.encoding import limit_as_one
from annotation.sql.hardness import hardness
from annotation.sql.spider import query_toks
from annotation.sql.spider import query_toks_no_value as _query_toks_no_value
from dialogs.log import FOLD_SEPARATOR, LABEL_FIELDS, DialogueRecord, StateTurn, UserTurn


@lru_cache(maxsize=50_000)
def _query_tokens(sql: str) -> tuple[str, ...]:
    return tuple(_query_toks_no_value(sql))


def query_toks_no_value(sql: str) -> list[str]:
    """`query_toks_no_value` of `sql`, remembered: several files of one export need it for the same query."""
    return list(_query_tokens(sql))


DEFAULT_LIMIT_MODES = {"cosql": "one", "sparc": "value", "chase": "one"}
SQL_ERROR_POLICIES = ("skip", "keep")
CHASE_LABEL_FIELDS = ("contextual_phenomena", "schema_linking", "intent", "pragmatics", "question_style")
MAX_LISTED_PROBLEMS = 500


@dataclass
class PlannedTurn:
    state: StateTurn
    check: SqlCheck


@dataclass
class Plan:
    """Which SQL-grounded turns of which dialogues go into the files, and what was found on the way."""

    turns: dict[int, list[PlannedTurn]] = field(default_factory=dict)
    problems: list[dict] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, name: str, by: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + by

    def note(self, record: DialogueRecord, state: StateTurn, problem: str, action: str) -> None:
        self.count(f"turns_{action}")
        if len(self.problems) < MAX_LISTED_PROBLEMS:
            self.problems.append(
                {
                    "dialogue": record.id,
                    "db_id": record.db_id,
                    "turn": state.turn.seq,
                    "utterance": state.utterance,
                    "sql": state.sql,
                    "problem": problem,
                    "action": action,
                }
            )


def plan_turns(records: list[DialogueRecord], checks: dict[tuple[str, str], SqlCheck], *, sql_errors: str) -> Plan:
    """Decide turn by turn what is exported. A turn whose SQL cannot be encoded is always left out (the files need
    its `sql`); one whose SQL no longer runs is left out (`skip`) or kept (`keep`); both are listed. Turns on a
    schema-only database are kept and counted as not executed; a result that differs from the one the worker was
    shown is kept and listed."""
    if sql_errors not in SQL_ERROR_POLICIES:
        raise ValueError(f"sql_errors must be one of {SQL_ERROR_POLICIES}")
    plan = Plan()
    for record in records:
        kept: list[PlannedTurn] = []
        for state in record.state_turns():
            plan.count("sql_turns")
            if state.folded:
                plan.count("folded_clarifications")
            check = checks[(record.db_id, state.sql)]
            if check.encode_error:
                plan.note(record, state, f"cannot be encoded in the Spider format: {check.encode_error}", "skipped")
                continue
            if not check.executed:
                plan.count("sql_not_executed")
            elif check.exec_error:
                action = "skipped" if sql_errors == "skip" else "kept"
                plan.note(record, state, f"does not run: {check.exec_error}", action)
                if action == "skipped":
                    continue
            elif state.turn.shown is not None and not state.turn.shown.get("error"):
                shown = state.turn.shown
                if result_digest(shown.get("columns"), shown.get("rows")) != check.result_digest:
                    plan.note(record, state, "runs, but its result differs from the table the worker was shown", "kept")
            kept.append(PlannedTurn(state, check))
        plan.turns[record.id] = kept
        if kept:
            plan.count("interactions")
        else:
            plan.count("dialogues_without_sql_turns")
    plan.count("turns_exported", sum(len(turns) for turns in plan.turns.values()))
    return plan


def release_records(
    fmt: str, records: list[DialogueRecord], plan: Plan, *, cosql_solo: bool = False
) -> list[DialogueRecord]:
    """The dialogues the files of format `fmt` hold, in the order they are written: those with at least one exported
    SQL turn, solo sequences (and query-first items) left out of CoSQL's unless `cosql_solo` (they have no real user,
    and CoSQL's files are about the user's acts and the system's responses). A format's every file, its gold, its
    tables.json and its database/ folder hold these and only these ("gold" alone holds every exported dialogue)."""
    leave_out_solo = fmt == "cosql" and not cosql_solo
    return [record for record in records if plan.turns[record.id] and not (leave_out_solo and record.mode != "chat")]


def encoded_sql(check: SqlCheck, limit_mode: str) -> dict:
    return limit_as_one(check.encoded) if limit_mode == "one" else check.encoded


def _annotation(record: DialogueRecord, planned: PlannedTurn):
    return record.annotations.get(planned.state.turn.seq)


def turn_tokens(record: DialogueRecord, planned: PlannedTurn) -> list[str]:
    """The release's own tokens while the text is unchanged since import; otherwise the platform's tokeniser."""
    annotation = _annotation(record, planned)
    utterance = planned.state.utterance
    if annotation is not None and annotation.utterance_toks is not None and annotation.utterance == utterance:
        return list(annotation.utterance_toks)
    return utterance_toks(utterance)


def sparc_interaction(record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
    item = {
        "database_id": record.db_id,
        "interaction": [
            {
                "query": turn.state.sql,
                "utterance_toks": turn_tokens(record, turn),
                "utterance": turn.state.utterance,
                "sql": encoded_sql(turn.check, limit_mode),
            }
            for turn in planned
        ],
        "final": _final(record, planned),
    }
    if record.interaction_id is not None:
        item["interaction_id"] = record.interaction_id
    return item


def cosql_interaction(record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
    final = _final(record, planned)
    return {
        "final": {"utterance": final["utterance"], "query": final["query"]},  # the release's key order
        "database_id": record.db_id,
        "interaction": [
            {
                "utterance": turn.state.utterance,
                "utterance_toks": turn_tokens(record, turn),
                "query": turn.state.sql,
                "query_toks_no_value": query_toks_no_value(turn.state.sql),
                "sql": encoded_sql(turn.check, limit_mode),
            }
            for turn in planned
        ],
    }


def chase_interaction(record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
    """A CHASE record. Labels come from the room's log where they were collected there (the expert's, else what was
    detected), else from the turn's imported annotation, and are present but empty where neither has them; spans
    (schema_linking) index this record's `utterance_toks` (see chase_links)."""
    turns = []
    for turn in planned:
        annotation = _annotation(record, turn)
        tokens = turn_tokens(record, turn)
        labels = {
            "contextual_phenomena": [],
            "schema_linking": [],
            "intent": "",
            "pragmatics": "",
            "question_style": "",
        }
        question_id = f"d{record.id}t{turn.state.turn.seq}"
        if annotation is not None:
            labels["contextual_phenomena"] = list(annotation.contextual_phenomena or [])
            labels["intent"] = annotation.intent
            labels["pragmatics"] = annotation.pragmatics
            labels["question_style"] = annotation.question_style
            if annotation.utterance == turn.state.utterance:
                labels["schema_linking"] = list(annotation.schema_linking or [])
            question_id = annotation.question_id or question_id
        labels.update(_collected_chase_labels(turn.state, tokens))
        ambiguities = chase_ambiguities(turn.state, tokens)
        if ambiguities:
            labels["ambiguity"] = ambiguities
        turns.append(
            {
                **labels,
                "query": turn.state.sql,
                "query_toks_no_value": query_toks_no_value(turn.state.sql),
                "question_id": question_id,
                "sql": encoded_sql(turn.check, limit_mode),
                "utterance": turn.state.utterance,
                "utterance_toks": tokens,
            }
        )
    return {
        "database_id": record.db_id,
        "final": _final(record, planned),
        "interaction": turns,
    }


def _final(record: DialogueRecord, planned: list[PlannedTurn]) -> dict:
    """The `final` of an interaction: the goal, or for a solo sequence without one (as CHASE-C was written), its last
    question, which is where the sequence ended up."""
    if record.goal_question or not planned:
        return {"query": record.goal_sql, "utterance": record.goal_question}
    last = planned[-1].state
    return {"query": last.sql, "utterance": last.utterance}


def _collected_chase_labels(state: StateTurn, tokens: list[str]) -> dict:
    """The CHASE labels a turn got in the room (or in review), in the release's vocabulary: the intent as CHASE's
    label of its category (detected from the SQL unless a person changed it). Schema links go only once a person
    confirmed them (proposals are a starting point, not a label), moved onto `tokens`, the record's tokens (a turn
    folded with its clarification starts with the question and the clarification)."""
    labels = state.turn.labels
    collected = {}
    if labels.get("intent"):
        collected["intent"] = CHASE_INTENT_LABELS[labels["intent"]["category"]]
    if "contextual_phenomena" in labels:
        collected["contextual_phenomena"] = list(labels["contextual_phenomena"])
    for name in ("pragmatics", "question_style"):  # CHASE's own values (annotation.labels.acts), "" when not labelled
        if labels.get(name):
            collected[name] = labels[name]
    if "schema_linking" in carried_labels(state.turn):
        moved = chase_links(labels["schema_linking"], own=utterance_toks(state.turn.text), tokens=tokens)
        if moved is not None:
            collected["schema_linking"] = moved
    return collected


def carried_labels(turn: UserTurn) -> set[str]:
    """The labels a person set on `turn` that the CHASE export carries: every confirmed one, except schema links
    set before a reviewer corrected the turn's text and not set again since (they index words that are gone)."""
    carried = set(turn.confirmed) & set(LABEL_FIELDS)
    if "schema_linking" in carried and "utterance" in turn.original:
        text_changed = max(c.seq for c in turn.corrections if c.field == "utterance")
        relinked = [c.seq for c in turn.corrections if c.field == "schema_linking"]
        if not relinked or max(relinked) < text_changed:
            carried.discard("schema_linking")
    return carried


def chase_links(spans: list[dict], *, own: list[str], tokens: list[str]) -> list[dict] | None:
    """Schema-linking spans over `own` (the tokens of the turn's own text, which the room and review check them
    against) moved onto `tokens` (the record's `utterance_toks`, which a fold prefixes with the question and the
    clarification). The own tokens normally end the folded ones, so every span moves by the same offset; where the
    tokeniser read the folded text differently (a Chinese part makes it split the whole text by character), each
    span is looked up by its words, the last occurrence first. None when a span's words are not found."""
    if len(tokens) >= len(own) and tokens[len(tokens) - len(own) :] == own:
        offset = len(tokens) - len(own)
        return [{**span, "beg": span["beg"] + offset, "end": span["end"] + offset} for span in spans]
    moved = []
    for span in spans:
        words = own[span["beg"] : span["end"] + 1]
        starts = [i for i in range(len(tokens) - len(words), -1, -1) if tokens[i : i + len(words)] == words]
        if not words or not starts:
            return None
        moved.append({**span, "beg": starts[0], "end": starts[0] + len(words) - 1})
    return moved


def chase_ambiguities(state: StateTurn, tokens: list[str]) -> list[dict]:
    """The ambiguity labels (dialogs.log: type, span, readings) of the user turns a CHASE turn holds, in order: the
    questions folded in before it, then its own. A span moves onto `tokens` (the record's tokens) by where its part of
    the fold starts there; where the tokeniser read the folded text otherwise, to the first place its words occur from
    that part on; where they are not found, the span is left out."""
    carried = []
    sources = [*state.folded_turns, state.turn]
    for index, source in enumerate(sources):
        if not source.ambiguity:
            continue
        ambiguity = {key: value for key, value in source.ambiguity.items() if key != "span"}
        span = source.ambiguity.get("span")
        if span is not None:
            part = 2 * index if index < len(sources) - 1 else len(state.parts) - 1
            start = len(utterance_toks(FOLD_SEPARATOR.join(state.parts[:part]))) if part else 0
            own = utterance_toks(source.text)
            words = own[span["beg"] : span["end"] + 1]
            # The part's own tokens follow the separator's token, "|" (or start the text).
            at = [offset for offset in (start + 1, start) if tokens[offset : offset + len(own)] == own]
            found = [at[0] + span["beg"]] if at else []
            found += [
                i for i in range(max(start - 1, 0), len(tokens) - len(words) + 1) if tokens[i : i + len(words)] == words
            ]
            if words and found:
                ambiguity["span"] = {"beg": found[0], "end": found[0] + len(words) - 1}
        carried.append(dict(sorted(ambiguity.items())))
    return carried


INTERACTION_BUILDERS = {"sparc": sparc_interaction, "cosql": cosql_interaction, "chase": chase_interaction}


def query_first_records(records: list[DialogueRecord], plan: Plan) -> list[DialogueRecord]:
    """The query-first items (docs/goals.md) among `records` whose turn is exported: what the OTTA files hold."""
    return [record for record in records if record.mode == "query_first" and plan.turns[record.id]]


def spider_items(record: DialogueRecord, planned: list[PlannedTurn]) -> list[dict]:
    """Each exported turn as an item of Spider's own files (the LIMIT value kept, as Spider's are)."""
    return [
        {
            "db_id": record.db_id,
            "query": turn.state.sql,
            "query_toks": query_toks(turn.state.sql),
            "query_toks_no_value": query_toks_no_value(turn.state.sql),
            "question": turn.state.utterance,
            "question_toks": turn_tokens(record, turn),
            "sql": encoded_sql(turn.check, "value"),
        }
        for turn in planned
    ]


def otta_item(record: DialogueRecord, planned: list[PlannedTurn], work: dict) -> dict:
    """A query-first item as the OTTA file holds it: the question and SQL as released (a reviewer's correction
    included), the tree, its operations, and the alignment over the tokens of the question phase 2 aligned
    (`alignment_toks`: they differ from `question_toks` only when review changed the question). `work` is what
    the annotation recorded (dialogs.models.QueryFirstItem), with pseudonymous annotators."""
    [turn] = planned[:1]
    return {
        "id": record.id,
        "db_id": record.db_id,
        "question": turn.state.utterance,
        "question_toks": turn_tokens(record, turn),
        "query": turn.state.sql,
        "sql": encoded_sql(turn.check, "value"),
        "hardness": hardness(turn.check.encoded),
        "tree": work["tree"],
        "operations": work["operations"],
        "alignment_toks": work["tokens"],
        "alignment": work["alignment"],
        "phase_1": work["phase_1"],
        "phase_2": work["phase_2"],
    }


def gold_text(interactions: list[tuple[str, list[str]]]) -> str:
    """The evaluators' gold file: `SQL<TAB>db_id` per turn, an empty line after each interaction (so the file ends
    with one: an older evaluator drops the last interaction otherwise). Line breaks and tabs in SQL become spaces."""
    blocks = []
    for db_id, queries in interactions:
        lines = "".join(f"{one_line(sql)}\t{db_id}\n" for sql in queries)
        blocks.append(lines + "\n")
    return "".join(blocks)


def one_line(sql: str) -> str:
    return sql.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")


def all_info_dialogue(record: DialogueRecord, table_names: list[str]) -> dict:
    """One dialogue of cosql_all_info_dialogs.json: every message in order, the tables the worker was shown, the
    expert's acts, every SQL run (shared or not), the goal and the score.

    `table_names` are the tables of the dialogue's database as the release's tables.json has them
    (`table_names_original`): both rooms show every table of the database, so they are the tables the worker and
    the expert were shown, in CoSQL's key `assistant_table_names`."""
    turns: list[dict] = []
    for kind, item in record.messages:
        if kind == "user":
            turns.append({"isUser": True, "text": item.text, "label": list(item.acts or [])})
            if item.ambiguity:
                turns[-1]["ambiguity"] = item.ambiguity
        elif kind == "sql":
            shown = item["shown"]
            result = {name: shown.get(name) for name in ("columns", "rows", "row_count", "truncated", "total_rows")}
            result["columns"] = result["columns"] or []
            result["rows"] = result["rows"] or []
            turns.append(
                {"isUser": False, "isSql": True, "text": item["sql"], "rawSql": item["sql"], "sql_result": result}
            )
        elif kind == "response":
            turns.append({"isUser": False, "text": item.text, "label": list(item.acts)})
        elif kind == "drop":
            turns.append({"isUser": False, "text": item, "label": ["DROP"]})
    return {
        "_id": str(record.id),
        "db_id": record.db_id,
        "assistant_table_names": list(table_names),
        "query_goal": record.goal_question,
        "sql": record.goal_sql,
        "status": record.status,
        "score": record.score,
        "score_comment": record.score_comment,
        "turns": turns,
        # Every run as the expert made it, with what it did with a model's draft when it concerned one (the full log
        # only: the datasets' own files hold the SQL that was shared, whoever proposed it first).
        "sql_runs": [
            {
                "turn": run["turn"],
                "sql": run["sql"],
                "ok": run["ok"],
                "shared": run["shared"],
                **({"model_draft": run["model_draft"]} if "model_draft" in run else {}),
            }
            for run in record.runs
        ],
    }


def user_intent_items(record: DialogueRecord) -> list[dict]:
    """Every labelled user turn (acts as the intent), for user_intent_prediction."""
    items = []
    for index, turn in enumerate(record.user_turns):
        if not turn.acts:
            continue
        items.append(
            {
                "database_id": record.db_id,
                "dialogue_id": str(record.id),
                "turn_index": index,
                "utterance": turn.text,
                "utterance_toks": utterance_toks(turn.text),
                "intent": list(turn.acts),
            }
        )
    return items


def response_items(record: DialogueRecord, planned: list[PlannedTurn]) -> list[dict]:
    """One item per CONFIRM_SQL response to an exported SQL turn, for system_response_generation."""
    exported = {turn.state.turn.seq for turn in planned}
    items = []
    for index, turn in enumerate(record.user_turns):
        if turn.seq not in exported or turn.shown is None:
            continue
        for response in turn.responses:
            if "CONFIRM_SQL" not in response.acts:
                continue
            shown = turn.shown
            items.append(
                {
                    "database_id": record.db_id,
                    "dialogue_id": str(record.id),
                    "turn_index": index,
                    "utterance": turn.text,
                    "query": turn.sql,
                    "query_toks_no_value": query_toks_no_value(turn.sql),
                    "result": {
                        "columns": shown.get("columns") or [],
                        "rows": shown.get("rows") or [],
                        "row_count": shown.get("row_count", 0),
                        "truncated": bool(shown.get("truncated")),
                    },
                    "response": response.text,
                    "response_toks": utterance_toks(response.text),
                }
            )
    return items
