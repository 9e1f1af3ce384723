"""Features of a follow-up pair for the learned intent category (`annotation.labels.relation_model`).

Two kinds, both plain `{name: number}` dictionaries so that a model stored as JSON can name what it weighs:

- `sql_features(reading)`: what changed between the two query shapes that `relations.read_pair` built (the SELECT
  list, aggregates, GROUP BY, filters, FROM tables, ORDER BY / LIMIT, DISTINCT, set operations), how the tables
  and the entity overlap, whether the previous query reappears inside the current one (a question about the
  previous answer), and the rules' own reading (their category, relations, and whether something changed that no
  relation describes).
- `question_features(previous_question, current_question)`: character n-grams (one to three characters) of the
  current question and the n-grams both questions share, lower-cased, with spaces and punctuation removed. CHASE is
  Chinese, where a word is one to three characters and spaces do not separate words, so character n-grams are the
  words; English text gets the same treatment (parts of words), which is enough for cue words such as "sort".

Nothing here reads a file or a model; the features of a pair depend only on the pair.
"""

from __future__ import annotations

import re

from annotation.labels.relations import PairReading

__all__ = ["question_features", "sql_features"]

# Anything that is neither a letter nor a digit (CJK ideographs count as letters) separates n-grams.
_SEPARATORS = re.compile(r"[\W_]+")
_NGRAM_SIZES = (1, 2, 3)


def sql_features(reading: PairReading) -> dict[str, float]:
    """The features of one pair's SQL: see the module docstring. Every value is a number; absent means 0."""
    previous, current = reading.previous, reading.current
    before, after = previous.branches[0], current.branches[0]
    features: dict[str, float] = {f"rules:{reading.relation.category}": 1.0}
    for name in reading.relation.relations:
        features[f"relation:{name}"] = 1.0
    features["relations"] = float(len(reading.relation.relations))
    if reading.outside_relations:
        features["outside_relations"] = 1.0
    if previous.signature == current.signature:
        features["same_query"] = 1.0

    for prefix, query, select in (("previous", previous, before), ("current", current, after)):
        features[f"{prefix}:branches"] = float(len(query.branches))
        features[f"{prefix}:plain"] = float(len(select.plain))
        features[f"{prefix}:aggregates"] = float(len(select.aggregates))
        features[f"{prefix}:conditions"] = float(len(select.conditions))
        features[f"{prefix}:tables"] = float(len(query.tables))
        features[f"{prefix}:group"] = float(bool(select.group))
        features[f"{prefix}:order"] = float(bool(query.order))
        features[f"{prefix}:limit"] = float(query.limit is not None)
        features[f"{prefix}:limit_1"] = float(query.limit == "1")
        features[f"{prefix}:distinct"] = float(select.distinct)
        features[f"{prefix}:star"] = float(any(key == "*" or key.endswith(".*") for key in select.plain))
        features[f"{prefix}:count_star"] = float(("count", "*") in select.aggregates)
        features[f"{prefix}:nested"] = float(query.signature.count("(select"))
        features[f"{prefix}:asked_parents"] = float(bool(query.asked))

    _difference(features, "plain", before.plain.keys(), after.plain.keys())
    _difference(features, "aggregates", before.aggregates.keys(), after.aggregates.keys())
    _difference(
        features, "aggregated_columns", {key[1] for key in before.aggregates}, {key[1] for key in after.aggregates}
    )
    _difference(features, "functions", {key[0] for key in before.aggregates}, {key[0] for key in after.aggregates})
    _difference(features, "group", before.group, after.group)
    _difference(features, "conditions", before.conditions.keys(), after.conditions.keys())
    _difference(
        features,
        "condition_columns",
        {condition.subject for condition in before.conditions.values()},
        {condition.subject for condition in after.conditions.values()},
    )
    _difference(features, "tables", previous.tables, current.tables)
    _difference(features, "shown_tables", previous.shown, current.shown)
    _difference(features, "entity", previous.entity, current.entity)
    _difference(features, "order", {key for key, _ in previous.order}, {key for key, _ in current.order})

    features["shown_outside_previous_tables"] = float(bool(current.shown - previous.tables))
    features["shown_inside_previous_shown"] = float(bool(current.shown) and current.shown <= previous.shown)
    features["entity_changed"] = float(previous.entity != current.entity)
    features["order_direction_changed"] = float(
        bool(previous.order)
        and [key for key, _ in previous.order] == [key for key, _ in current.order]
        and previous.order != current.order
    )
    features["limit_changed"] = float(previous.limit != current.limit)
    features["distinct_added"] = float(after.distinct and not before.distinct)
    features["distinct_removed"] = float(before.distinct and not after.distinct)
    features["operators_changed"] = float(previous.operators != current.operators)
    # "Which of them...", "where do they live": the previous query reappears as a subquery of the current one.
    features["previous_inside_current"] = float(f"({previous.signature})" in current.signature)
    features["current_inside_previous"] = float(f"({current.signature})" in previous.signature)
    features["previous_conditions_kept"] = _share(before.conditions.keys(), after.conditions.keys())

    # Which clauses changed, as one name ("clauses:order+limit"): a change confined to the clauses of one category's
    # relations is that category by definition (Table 12), whatever the annotator wrote.
    changed = _changed_clauses(previous, current)
    features["clauses:" + ("+".join(changed) or "none")] = 1.0
    features["clauses"] = float(len(changed))
    for clause in changed:
        features[f"changed:{clause}"] = 1.0
    within = _category_of_clauses(changed, previous)
    if within is not None:
        features[f"within:{within}"] = 1.0
    features["tables_disjoint"] = float(previous.tables.isdisjoint(current.tables))
    return features


# The clauses each category's relations change (Table 12). Same Instances needs a one-table FROM besides: with a
# join, showing another table's columns may list another entity (R13).
_CLAUSES_OF = (
    ("display", frozenset({"order", "limit", "distinct"})),
    ("different_instances", frozenset({"filters"})),
    ("same_instances", frozenset({"select", "group"})),
)


def _changed_clauses(previous, current) -> tuple[str, ...]:
    """The clauses that differ, in a fixed order: select, distinct, from, filters, group, order, limit, set."""
    before, after = previous.branches[0], current.branches[0]
    changed = []
    if before.plain.keys() != after.plain.keys() or before.aggregates.keys() != after.aggregates.keys():
        changed.append("select")
    if before.distinct != after.distinct:
        changed.append("distinct")
    if previous.tables != current.tables:
        changed.append("from")
    if before.conditions.keys() != after.conditions.keys():
        changed.append("filters")
    if before.group != after.group:
        changed.append("group")
    if previous.order != current.order:
        changed.append("order")
    if previous.limit != current.limit:
        changed.append("limit")
    if previous.operators != current.operators or len(previous.branches) != len(current.branches):
        changed.append("set")
    elif any(
        one.signature != other.signature for one, other in zip(previous.branches[1:], current.branches[1:], strict=True)
    ):
        changed.append("set")
    return tuple(changed)


def _category_of_clauses(changed: tuple, previous) -> str | None:
    if not changed:
        return None
    for category, clauses in _CLAUSES_OF:
        if clauses.issuperset(changed):
            if category == "same_instances" and len(previous.tables) != 1:
                return None
            return category
    return None


def question_features(previous_question: str | None, current_question: str | None) -> dict[str, float]:
    """Character n-grams of the current question ("q:" + n-gram) and those it shares with the previous question
    ("both:" + n-gram); empty when the current question is not given. See the module docstring."""
    current = _ngrams(current_question)
    if not current:
        return {}
    features = dict.fromkeys((f"q:{gram}" for gram in current), 1.0)
    previous = _ngrams(previous_question)
    if previous:
        shared = current & previous
        features.update(dict.fromkeys((f"both:{gram}" for gram in shared if len(gram) > 1), 1.0))
        features["question_overlap"] = len(shared) / len(current | previous)
    return features


def _ngrams(text: str | None) -> set[str]:
    if not text:
        return set()
    grams: set[str] = set()
    for piece in _SEPARATORS.split(text.lower()):
        for size in _NGRAM_SIZES:
            grams.update(piece[start : start + size] for start in range(len(piece) - size + 1))
    return grams


def _difference(features: dict, name: str, before, after) -> None:
    before, after = set(before), set(after)
    features[f"{name}:added"] = float(len(after - before))
    features[f"{name}:removed"] = float(len(before - after))
    features[f"{name}:kept"] = float(len(before & after))
    features[f"{name}:changed"] = float(before != after)


def _share(before, after) -> float:
    before = set(before)
    return len(before & set(after)) / len(before) if before else 1.0
