"""OTTA, the query-first items (docs/goals.md) of the selection that have an exported turn, in `otta/`:

    {train,dev,test}.json       Spider's own layout, one item per question (the LIMIT value kept, as Spider's are)
    otta_{train,dev,test}.json  one record per item: the question and SQL as released, the operation tree, its
                                operations, the alignment of the question's tokens to them, and both phases' work
    tables.json, database/

The release check does not yet read these files back.
"""

from __future__ import annotations

from annotation.sql.hardness import hardness
from annotation.sql.spider import query_toks
from dialogs.log import DialogueRecord
from review.dataset.formats.base import (
    Format,
    Plan,
    PlannedTurn,
    WritingContext,
    encoded_sql,
    query_toks_no_value,
    turn_tokens,
)

SPIDER_FILE = "otta/{split}.json"
OTTA_FILE = "otta/otta_{split}.json"


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
        "hardness": hardness(turn.check.encoding()),
        "tree": work["tree"],
        "operations": work["operations"],
        "alignment_toks": work["tokens"],
        "alignment": work["alignment"],
        "phase_1": work["phase_1"],
        "phase_2": work["phase_2"],
    }


class Otta(Format):
    name = "otta"
    folder = "otta"
    tables_file = "otta/tables.json"
    read_back = False

    def held(self, records: list[DialogueRecord], plan: Plan, *, cosql_solo: bool = False) -> list[DialogueRecord]:
        """The query-first items among `records` whose turn is exported."""
        return [record for record in records if record.mode == "query_first" and plan.turns[record.id]]

    def write(self, writing: WritingContext) -> None:
        """Both files of each split; `writing.query_first` (dialogue id -> what its annotation recorded) serves the
        OTTA records."""
        held = self.held(writing.records, writing.plan)
        works = writing.query_first or {}
        turns = writing.plan.turns
        for split, kept in writing.by_split(held).items():
            items = [item for record in kept for item in spider_items(record, turns[record.id])]
            writing.json(SPIDER_FILE.format(split=split), items, kind="spider")
            otta = [otta_item(record, turns[record.id], works[record.id]) for record in kept if record.id in works]
            writing.json(OTTA_FILE.format(split=split), otta, kind="otta")
        writing.databases_used(self, held)


OTTA = Otta()
