"""The labelled follow-up pairs of CHASE's public training split, and the labels its own definitions correct.

`../shared/corpora/chase_train.json` holds 3,949 interactions on 200 databases; `chase_tables.json` the schemas. A
follow-up turn (every turn but an interaction's first) carries CHASE's intent label in its `intent` field, one of the
five category names of `annotation.labels.acts.CHASE_INTENT_LABELS`; 3,804 of them have one. The first turn's label
(almost
always 其他, a default) says nothing about a relation and is not read.

Corrections (`definition_correction`)
-------------------------------------
About one label in twenty contradicts the category definitions of CHASE's Table 12 (docs/chase.md, DOMAIN.md) in a
way that can be read off the two queries without judgement. The test reads CHASE's own parse of each query (the `sql`
field, Spider's format), never `annotation.labels.relations`, so the corrected labels do not lean on the rules they are
used to measure. Clauses are compared as that parse writes them: the SELECT items, DISTINCT, FROM (tables and join
conditions), WHERE, HAVING, GROUP BY, ORDER BY, LIMIT, and the set operations. A label is corrected when, and only when:

  display-only      only ORDER BY, LIMIT or DISTINCT differ: only R14-R16 can hold, so the category is Display;
  filters-only      only WHERE or HAVING differ: only R8-R12 can hold (the same properties of other instances of the
                    same entity), so the category is Different Instances;
  projection-only   only the SELECT items or GROUP BY differ and FROM is one table: only R1-R7 can hold, so the
                    category is Same Instances (with one table, no column can belong to another entity);
  no-shared-table   no table is named by both queries (FROM, joins and subqueries included): the rows are another
                    entity's, R13, and Table 12 never combines R13, so the category is Different Entity;

and CHASE's label is another category. Two identical queries are left alone (no definition speaks of them). The
rules were fixed before the corrections were counted, and are applied to every pair alike.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from annotation.labels.acts import INTENT_CATEGORY_OF_CHASE_LABEL

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))

__all__ = ["DEFAULT_SHARED", "CorpusPair", "definition_category", "definition_correction", "labelled_corpus_pairs"]


@dataclass(frozen=True, slots=True)
class CorpusPair:
    """One labelled follow-up turn of the training split and the turn before it."""

    interaction: int  # the interaction's index in chase_train.json (the release gives interactions no id)
    turn: int  # the follow-up turn's index in its interaction (1 for the first follow-up)
    question_id: str  # the turn's own `question_id`
    db_id: str
    schema: dict
    previous_sql: str
    current_sql: str
    previous_question: str
    current_question: str
    previous_parse: dict  # CHASE's Spider-format `sql` of each query
    current_parse: dict
    gold: str  # CHASE's label as an intent category (annotation.labels.relations.CATEGORIES)


def labelled_corpus_pairs(shared: Path = DEFAULT_SHARED) -> list[CorpusPair]:
    """Every follow-up turn of the training split that carries an intent label, in file order.

    Raises FileNotFoundError when the corpus is missing: a measurement on no data is not a measurement."""
    corpora = shared / "corpora"
    with open(corpora / "chase_tables.json", encoding="utf-8") as handle:
        schemas = {schema["db_id"]: schema for schema in json.load(handle)}
    with open(corpora / "chase_train.json", encoding="utf-8") as handle:
        interactions = json.load(handle)
    pairs = []
    for index, interaction in enumerate(interactions):
        db_id = interaction["database_id"]
        turns = interaction["interaction"]
        for number in range(1, len(turns)):
            previous, current = turns[number - 1], turns[number]
            gold = INTENT_CATEGORY_OF_CHASE_LABEL.get(current.get("intent"))
            if gold is None:
                continue
            pairs.append(
                CorpusPair(
                    index,
                    number,
                    current["question_id"],
                    db_id,
                    schemas[db_id],
                    previous["query"],
                    current["query"],
                    previous["utterance"],
                    current["utterance"],
                    previous["sql"],
                    current["sql"],
                    gold,
                )
            )
    return pairs


# ---------------------------------------------------------------------------------------------------------------
# Corrections by definition
# ---------------------------------------------------------------------------------------------------------------

_CLAUSE_RULES = (
    ("display-only", frozenset({"order", "limit", "distinct"}), "display"),
    ("filters-only", frozenset({"where", "having"}), "different_instances"),
    ("projection-only", frozenset({"select", "group"}), "same_instances"),
)
_REASONS = {
    "display-only": "only ORDER BY / LIMIT / DISTINCT differ: R14-R16 alone, Display",
    "filters-only": "only WHERE / HAVING differ: R8-R12 alone, Different Instances",
    "projection-only": "only SELECT items / GROUP BY differ over one table: R1-R7 alone, Same Instances",
    "no-shared-table": "no table in common: R13, never combined, Different Entity",
}


def definition_category(pair: CorpusPair) -> tuple[str, str] | None:
    """(rule, category) when one of the module docstring's rules settles the pair's category, else None."""
    before, after = _clauses(pair.previous_parse), _clauses(pair.current_parse)
    changed = {name for name in before if before[name] != after[name]}
    if not changed:
        return None
    for rule, clauses, category in _CLAUSE_RULES:
        if changed <= clauses:
            if rule == "projection-only" and len(pair.previous_parse["from"]["table_units"]) != 1:
                continue
            return rule, category
    if _tables(pair.previous_parse).isdisjoint(_tables(pair.current_parse)):
        return "no-shared-table", "different_entity"
    return None


def definition_correction(pair: CorpusPair) -> tuple[str, str] | None:
    """(corrected category, reason) when CHASE's label contradicts a definition rule, else None."""
    settled = definition_category(pair)
    if settled is None or settled[1] == pair.gold:
        return None
    rule, category = settled
    return category, f"{rule}: {_REASONS[rule]}"


def _clauses(parse: dict) -> dict:
    return {
        "select": parse["select"][1],
        "distinct": parse["select"][0],
        "from": parse["from"],
        "where": parse["where"],
        "having": parse["having"],
        "group": parse["groupBy"],
        "order": parse["orderBy"],
        "limit": parse["limit"],
        "set": [parse["union"], parse["intersect"], parse["except"]],
    }


def _tables(parse: dict | None) -> set:
    """Every table id a parsed query names, in FROM and in any nested query."""
    found: set = set()
    pending = [parse]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if "table_units" in item:
                found.update(unit[1] for unit in item["table_units"] if unit[0] == "table_unit")
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return found
