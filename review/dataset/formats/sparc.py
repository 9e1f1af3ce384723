"""SParC: `sparc/{train,dev,test}.json` (+ `{split}_gold.txt` with gold), `sparc/tables.json`, `sparc/database/`.

An interaction is `{"database_id", "interaction": [turn, …], "final": {"utterance", "query"}}` in that key order, as
the public file has it (some records add `interaction_id`, kept from an import); a turn is `query`,
`utterance_toks`, `utterance`, `sql`, the LIMIT value kept by default, and `thematic_relations` (SParC's Table 2 labels,
annotation.labels.acts.THEMATIC_RELATIONS) on a turn a person gave them, after `sql`: not in the public release, which
has none, so a file without labels is the public layout exactly. The release check compares the state and gold
files with the release and the tables and databases with what they use (interaction.InteractionFormat).
"""

from __future__ import annotations

from dialogs.log import DialogueRecord
from review.dataset.formats.base import PlannedTurn, encoded_sql, final, turn_tokens
from review.dataset.formats.interaction import InteractionFormat


def _sparc_turn(record: DialogueRecord, turn: PlannedTurn, limit_mode: str) -> dict:
    item = {
        "query": turn.state.sql,
        "utterance_toks": turn_tokens(record, turn),
        "utterance": turn.state.utterance,
        "sql": encoded_sql(turn.check, limit_mode),
    }
    thematic = record.thematic_relations(turn.state)
    if thematic:
        item["thematic_relations"] = thematic
    return item


def sparc_interaction(record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
    item = {
        "database_id": record.db_id,
        "interaction": [_sparc_turn(record, turn, limit_mode) for turn in planned],
        "final": final(record, planned),
    }
    if record.interaction_id is not None:
        item["interaction_id"] = record.interaction_id
    return item


class Sparc(InteractionFormat):
    name = "sparc"
    folder = "sparc"
    state_file = "sparc/{split}.json"
    gold_file = "sparc/{split}_gold.txt"
    tables_file = "sparc/tables.json"
    limit_mode = "value"
    schema_kind = "sparc"

    def interaction(self, record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
        return sparc_interaction(record, planned, limit_mode=limit_mode)


SPARC = Sparc()
