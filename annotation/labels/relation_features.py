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

__all__ = ["literal_values", "question_features", "question_sql_features", "sql_features"]

# Anything that is neither a letter nor a digit (CJK ideographs count as letters) separates n-grams.
_SEPARATORS = re.compile(r"[\W_]+")
_NGRAM_SIZES = (1, 2, 3)
# The previous question's n-grams count up to this length ("p:" features): its kind of question ("which ...", "list
# ...", "how many ...") more than its words.
_PREVIOUS_NGRAM_SIZE = 2


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
    features.update(_condition_changes(before, after))
    features.update(_kept_and_new(previous, current))
    return features


def _condition_changes(before, after) -> dict[str, float]:
    """Filters paired by the column they test: kept as they were, the same column with another value (same
    operators), with other operators, a new column, a dropped one."""
    old, new = _tests_by_column(before), _tests_by_column(after)
    kept = value_changed = operator_changed = 0
    for column in old.keys() & new.keys():
        if old[column] == new[column]:
            kept += 1
        elif {test[0] for test in old[column]} == {test[0] for test in new[column]}:
            value_changed += 1
        else:
            operator_changed += 1
    return {
        "filter_column:same_test": float(kept),
        "filter_column:value_changed": float(value_changed),
        "filter_column:operator_changed": float(operator_changed),
        "filter_column:new": float(len(new.keys() - old.keys())),
        "filter_column:dropped": float(len(old.keys() - new.keys())),
        "filter_column:only_values_changed": float(
            value_changed > 0 and not operator_changed and old.keys() == new.keys()
        ),
    }


def _tests_by_column(select) -> dict:
    tests: dict = {}
    for condition in select.conditions.values():
        tests.setdefault(condition.subject, set()).add((condition.op, condition.value, condition.negated))
    return tests


def _kept_and_new(previous, current) -> dict[str, float]:
    """What the current query keeps of the previous one and what it brings: the literal values anywhere (nested
    queries included), the FROM tables, the entity, the SELECT items, a superlative (ORDER BY with LIMIT), an aggregate,
    a set operation; and two crossings with a change of entity."""
    before, after = previous.branches[0], current.branches[0]
    old_values, new_values = literal_values(previous.signature), literal_values(current.signature)
    added, removed = current.tables - previous.tables, previous.tables - current.tables
    superlative_before = bool(previous.order) and previous.limit is not None
    superlative_after = bool(current.order) and current.limit is not None
    entity = "entity_changed" if previous.entity != current.entity else "entity_kept"
    return {
        "values:kept": float(len(old_values & new_values)),
        "values:new": float(len(new_values - old_values)),
        "values:dropped": float(len(old_values - new_values)),
        "values:all_kept": float(bool(old_values) and old_values <= new_values),
        "values:none_kept": float(bool(old_values) and old_values.isdisjoint(new_values)),
        "tables:only_added": float(bool(added) and not removed),
        "tables:only_removed": float(bool(removed) and not added),
        "tables:swapped": float(bool(added) and bool(removed)),
        "entity:within_previous_tables": float(bool(current.entity) and current.entity <= previous.tables),
        "entity:previous_still_joined": float(bool(previous.entity) and previous.entity <= current.tables),
        "shown:only_new_tables": float(bool(current.shown) and current.shown.isdisjoint(previous.tables)),
        "shown:new_and_old_tables": float(
            bool(current.shown & previous.tables) and bool(current.shown - previous.tables)
        ),
        "select_changed_same_from": float(
            previous.tables == current.tables
            and (before.plain.keys() != after.plain.keys() or before.aggregates.keys() != after.aggregates.keys())
        ),
        "plain:all_kept": float(bool(before.plain) and before.plain.keys() <= after.plain.keys()),
        "plain:none_kept": float(bool(before.plain) and before.plain.keys().isdisjoint(after.plain.keys())),
        "superlative:kept": float(superlative_before and superlative_after and previous.order == current.order),
        "superlative:added": float(superlative_after and not superlative_before),
        "superlative:removed": float(superlative_before and not superlative_after),
        "aggregate:added_to_none": float(bool(after.aggregates) and not before.aggregates),
        "aggregate:all_removed": float(bool(before.aggregates) and not after.aggregates),
        "filters_moved_inside": float(
            bool(before.conditions)
            and before.conditions.keys() != after.conditions.keys()
            and all(key in current.signature for key in before.conditions)
        ),
        "set_operation:added": float(len(current.branches) > len(previous.branches)),
        "set_operation:removed": float(len(current.branches) < len(previous.branches)),
        f"{entity}:values_{'kept' if old_values & new_values else 'none_kept'}": 1.0,
        f"{entity}:tables_{'added' if added else 'none_added'}_{'removed' if removed else 'none_removed'}": 1.0,
    }


# A quoted string or a number standing alone: the values a query compares with (after FROM, so that the SELECT's own
# arithmetic does not count).
_LITERAL = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")


def literal_values(signature: str) -> set[str]:
    """The literal values of a query's signature after its first FROM, quotes removed, lower-cased."""
    _, _, rest = signature.partition(" from ")
    return {value.strip("'").lower() for value in _LITERAL.findall(rest or signature)}


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
    """Character n-grams of the current question ("q:" + n-gram), those it shares with the previous question
    ("both:" + n-gram) and the previous question's own one- and two-character n-grams ("p:" + n-gram); empty when the
    current question is not given. See the module docstring."""
    current = _ngrams(current_question)
    if not current:
        return {}
    features = dict.fromkeys((f"q:{gram}" for gram in current), 1.0)
    previous = _ngrams(previous_question)
    if previous:
        shared = current & previous
        features.update(dict.fromkeys((f"both:{gram}" for gram in shared if len(gram) > 1), 1.0))
        features.update(dict.fromkeys((f"p:{gram}" for gram in previous if len(gram) <= _PREVIOUS_NGRAM_SIZE), 1.0))
        features["question_overlap"] = len(shared) / len(current | previous)
    return features


def question_sql_features(
    reading: PairReading, previous_question: str | None, current_question: str | None
) -> dict[str, float]:
    """How the current question names what its query changed ("said:" features): whether the values the query
    brings, or keeps from the previous one, are written in the question, whether it names the tables newly joined,
    the entity listed, the columns newly shown or filtered (a name of three characters or more counts as named when
    any two consecutive characters of it are); empty when the current question is not given. A kept value the
    question does not repeat is a reference ("those", "it"); a new table it names is a new subject."""
    text = _compact(current_question)
    if not text:
        return {}
    previous, current = reading.previous, reading.current
    before, after = previous.branches[0], current.branches[0]
    old_values, new_values = literal_values(previous.signature), literal_values(current.signature)
    new_said = [_compact(value) in text for value in new_values - old_values if _compact(value)]
    kept_said = [_compact(value) in text for value in new_values & old_values if _compact(value)]
    joined = current.tables - previous.tables
    new_columns = _column_names(after.plain.keys() - before.plain.keys()) | _column_names(
        argument for _, argument in after.aggregates.keys() - before.aggregates.keys()
    )
    filtered = _column_names(condition.subject or "" for condition in after.conditions.values())
    return {
        "said:new_value": float(any(new_said)),
        "said:new_value_unsaid": float(not all(new_said)),
        "said:kept_value": float(any(kept_said)),
        "said:kept_value_unsaid": float(bool(kept_said) and not any(kept_said)),
        "said:joined_table": float(_names_any(joined, text)),
        "said:joined_table_unsaid": float(bool(joined) and not _names_any(joined, text)),
        "said:entity": float(_names_any(current.entity, text)),
        "said:previous_entity": float(_names_any(previous.entity, text)),
        "said:new_column": float(_names_any(new_columns, text)),
        "said:new_column_unsaid": float(bool(new_columns) and not _names_any(new_columns, text)),
        "said:filtered_column": float(_names_any(filtered, text)),
        "said:previous_column": float(_names_any(_column_names(before.plain.keys()), text)),
    }


def _compact(text: str | None) -> str:
    return _SEPARATORS.sub("", text.lower()) if text else ""


def _column_names(keys) -> set[str]:
    """The column part of "table.column" keys, without quotes; `*` is no name."""
    names = set()
    for key in keys:
        name = _compact(str(key).rpartition(".")[2])
        if name:
            names.add(name)
    return names


def _names_any(names, text: str) -> bool:
    for name in names:
        name = _compact(name)
        if name and (name in text or (len(name) >= 3 and any(name[i : i + 2] in text for i in range(len(name) - 1)))):
            return True
    return False


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
