"""CoSQL: the folder `cosql_dataset/` as the public release lays it out.

    sql_state_tracking/cosql_{train,dev,test}.json (+ {split}_gold.txt with gold): the interactions, keys in the
        release's order (final, database_id, interaction); a turn is utterance, utterance_toks, query,
        query_toks_no_value, sql (every LIMIT as 1 by default, the release's quirk)
    user_intent_prediction/cosql_{split}.json: one item per labelled user turn (its acts as the intent)
    system_response_generation/cosql_{split}.json: one item per CONFIRM_SQL response to an exported turn
    cosql_all_info_dialogs.json: every dialogue in full, keyed by id
    tables.json, database/

Solo sequences (and query-first items) are left out unless `cosql_solo`: they have no real user, and CoSQL's files
are about the user's acts and the system's responses. The files that hold result tables (all-info, responses) and
the user intents are compact JSON. The release check also reads the intent, response and all-info files back.
"""

from __future__ import annotations

from collections import Counter

from annotation.labels.tokens import utterance_toks
from dialogs.log import DialogueRecord
from review.dataset.formats.base import (
    Plan,
    PlannedTurn,
    ReadingContext,
    WritingContext,
    encoded_sql,
    final,
    parts_of,
    query_toks_no_value,
    turn_tokens,
)
from review.dataset.formats.interaction import InteractionFormat

SPLIT_FILES = {
    "cosql_user_intent": "cosql_dataset/user_intent_prediction/cosql_{split}.json",
    "cosql_response_generation": "cosql_dataset/system_response_generation/cosql_{split}.json",
}
ALL_INFO = "cosql_dataset/cosql_all_info_dialogs.json"
TABLES = "cosql_dataset/tables.json"


def cosql_interaction(record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
    last = final(record, planned)
    return {
        "final": {"utterance": last["utterance"], "query": last["query"]},  # the release's key order
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


class Cosql(InteractionFormat):
    name = "cosql"
    folder = "cosql_dataset"
    state_file = "cosql_dataset/sql_state_tracking/cosql_{split}.json"
    gold_file = "cosql_dataset/sql_state_tracking/{split}_gold.txt"
    tables_file = TABLES
    limit_mode = "one"
    schema_kind = "cosql_state_tracking"

    def held(self, records: list[DialogueRecord], plan: Plan, *, cosql_solo: bool = False) -> list[DialogueRecord]:
        held = super().held(records, plan)
        return held if cosql_solo else [record for record in held if record.mode == "chat"]

    def interaction(self, record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
        return cosql_interaction(record, planned, limit_mode=limit_mode)

    def write_split(self, writing: WritingContext, split: str, kept: list[DialogueRecord]) -> None:
        intents = ([item for record in part for item in user_intent_items(record)] for part in parts_of(kept))
        name = SPLIT_FILES["cosql_user_intent"].format(split=split)
        writing.json_parts(name, intents, kind="cosql_user_intent", indent=False)
        turns = writing.plan.turns
        responses = (
            [item for record in part for item in response_items(record, turns[record.id])] for part in parts_of(kept)
        )
        # Compact, like the all-info file: it holds result tables, a line for each of their cells would be most of
        # the file.
        name = SPLIT_FILES["cosql_response_generation"].format(split=split)
        writing.json_parts(name, responses, kind="cosql_response_generation", indent=False)

    def write_whole(self, writing: WritingContext, held: list[DialogueRecord]) -> None:
        # The largest file (every result table): written compactly, a part at a time.
        by_id = writing.by_id
        dialogues = (
            {str(r.id): all_info_dialogue(r, by_id[r.db_id].schema["table_names_original"]) for r in part}
            for part in parts_of(held)
        )
        writing.json_parts(ALL_INFO, dialogues, kind="cosql_all_info", indent=False, container=dict)

    def check_split(self, reading, split, name, items, got, want, records) -> None:
        """The user-intent and response files of a split hold items of that split's dialogues only, and a response
        only for an exported turn's SQL."""
        exported = {str(record.id): {turn.state.sql for turn in reading.plan.turns[record.id]} for record in records}
        db_of = {str(record.id): record.db_id for record in records}
        for kind, template in SPLIT_FILES.items():
            name = template.format(split=split)
            strays: Counter = Counter()
            answers: list[str] = []
            items = reading.items(name)  # an item at a time: the responses hold result tables
            for item in items:
                dialogue = str(item.get("dialogue_id")) if isinstance(item, dict) else ""
                if dialogue not in exported or item.get("database_id") != db_of[dialogue]:
                    strays[dialogue] += 1
                elif kind == "cosql_response_generation" and item.get("query") not in exported[dialogue]:
                    answers.append(f"{name}: a response of dialogue {dialogue} answers SQL that is not among its turns")
            if not items.ok:  # unreadable: reported as such, as if it held nothing
                continue
            for line in answers:
                reading.add(line)
            for dialogue, times in strays.items():
                reading.add(
                    f"{name}: {times} item{'s' * (times != 1)} of dialogue {dialogue!r}, which this split lacks"
                )

    def check_whole(self, reading: ReadingContext, held: list[DialogueRecord]) -> None:
        """The all-info file holds the dialogues of the state-tracking files, each on its database with the tables
        the release's own tables.json lists for it (the tables the worker was shown)."""
        # A dialogue at a time (every result table is in this file): only what is compared is kept of each.
        items = reading.items(ALL_INFO, opening="{")
        data = {}
        for pair in items:
            if not isinstance(pair, tuple):  # not an object: iterated as it was parsed
                data = None
                continue
            key, value = pair
            data[key] = (
                {name: value.get(name) for name in ("db_id", "assistant_table_names")}
                if isinstance(value, dict)
                else value
            )
        if not items.ok:
            return
        want = {str(record.id): record.db_id for record in held}
        if not isinstance(data, dict):
            reading.add(f"{ALL_INFO}: not an object keyed by dialogue")
            return
        for dialogue in sorted(set(want) - set(data), key=_numeric):
            reading.add(f"{ALL_INFO}: dialogue {dialogue} ({want[dialogue]}) is missing")
        for dialogue in sorted(set(data) - set(want), key=_numeric):
            reading.add(f"{ALL_INFO}: dialogue {dialogue} is not in the CoSQL state-tracking files")
        listed = reading.json(TABLES, quiet=True) or []  # a missing one: ReadingContext.databases_used
        tables = {item.get("db_id"): item.get("table_names_original") for item in listed if isinstance(item, dict)}
        for dialogue in sorted(set(data) & set(want), key=_numeric):
            if not isinstance(data[dialogue], dict):
                continue
            if data[dialogue].get("db_id") != want[dialogue]:
                reading.add(f"{ALL_INFO}: dialogue {dialogue} is on {data[dialogue].get('db_id')!r}")
            elif data[dialogue].get("assistant_table_names") != tables.get(want[dialogue]):
                reading.add(
                    f"{ALL_INFO}: dialogue {dialogue}'s assistant_table_names are not the tables of "
                    f"{want[dialogue]!r} in {TABLES}"
                )


def _numeric(text: str):
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


COSQL = Cosql()
