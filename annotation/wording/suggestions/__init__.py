"""Intent recommendation for the next follow-up question, and the choice of which intent category to recommend.

CHASE (Guo et al., 2021, section 3.1 and Table 12) shows the author of a follow-up question one of five intent
categories, sampled uniformly, and the author picks a relation of that category (R1-R16, named and grouped as in
`annotation.labels.relations`) or another category when it does not fit. This module does the same with two changes:

- `recommend` turns the category into one concrete suggestion for a crowd worker, written from the previous turn's
  query and the schema's readable names (and real values, when the caller can read them): "Ask for another detail of
  these students, such as their age". Only relations that can apply to the previous query are suggested
  (`applicable_relations`), so a worker is never asked to sort a single count or to widen a query that has no filter.
- `choose_category` does not sample uniformly: it favours the categories that the collection so far has fewer of than
  their target share (`intent_targets`, from the `INTENT_TARGETS` setting), so the collected distribution approaches
  the target although people often ask something else than what was suggested. The counters it reads should hold the
  category each turn actually got (`relations.detect_relation` on the written SQL), not the one recommended: that is
  what lets it make up for the deviations. bench/intent_sampling.py measures the effect.

The module is pure: no database, no models; `intent_targets` is the only reader of Django settings.

When a relation applies to the previous query
---------------------------------------------
The previous query is read with `annotation.sql.spider.parse_sql`, in the datasets' dialect. For a set operation
(UNION, INTERSECT, EXCEPT) its first SELECT is read; an ORDER BY / LIMIT after the last SELECT counts as the query's.
A subquery in FROM stands for its rows: its tables and filters count as the outer query's. "FROM tables" below are the
tables of FROM and JOIN. A "listing" query has no aggregate and no GROUP BY; a "one-row" query has an aggregate and no
GROUP BY. A descriptive column is one that is neither a primary key, nor on either side of a foreign key, nor named
"... id"; when a table has none, its key columns are used instead.

Same Instances
  R1 Add Property       not a one-row query, no `*`, and a column not shown: of the FROM tables, or in a grouped query
                        of the group key's table (only its properties describe a group).
  R2 Remove Property    two or more plain columns shown, or `*` over two or more columns (keep just one of them).
  R3 Replace Property   a plain column shown that is not a group key (replacing a key regroups the rows), and a column
                        of the FROM tables that is not shown.
  R4 Add Group          an aggregate, or a plain column shown (then the rows are grouped and counted: R4 brings the
                        count it needs), and a descriptive column that is not a group key yet: shown or of the FROM
                        tables, not a primary key, a category rather than a number when there is one.
  R5 Add Aggregation    a listing query (count them, or a statistic of a number column); or a grouped query without
                        `count(*)`; or a number column of the FROM tables that no aggregate reads yet.
  R6 Alter Aggregation  an aggregate with another sensible function: max/min/avg/sum of a number column (or of a
                        column of unknown type), max/min of a time or text column, a statistic of a number column of
                        the FROM tables in place of count(*).
  R7 Delete Aggregation an aggregate.
Different Instances of the Same Entity
  R8 Subset             always, unless a filter fixes a primary key with `=` (the result is one instance already).
  R9 Superset           a filter (a WHERE or HAVING condition, or a non-join condition of ON; `a.x = b.y` is a join).
  R10 Disjoint          a filter comparing a column of the entity's tables (any column without a schema) with a literal
                        value (=, IN, LIKE, BETWEEN, <, <=, >, >=).
  R11 Complement        a filter (every condition can be negated).
  R12 Overlap           a filter, and a descriptive column of the FROM tables that no filter uses yet, or a filter of
                        that kind on a column of a joined table (another value may select the same instances: Table
                        12's students taking "Python" or "C++").
Different Entity
  R13 Change Entity     a schema, and a table whose rows the query does not list: the FROM tables less the entity
                        (the tables of the group keys, or the FROM tables that are not joined as the parent of a foreign
                        key), then the tables a foreign key links to the FROM tables, then any other table.
Display
  R14 Add Order         no ORDER BY, and not a one-row query (one row has no order).
  R15 Alter Order       an ORDER BY or a LIMIT (flip the direction, sort by another key, change how many).
  R16 Distinct          no DISTINCT, a listing query showing plain columns and no `*`, and no shown column is a
                        primary key of the entity (such rows are all different already).
Combination
  two relations of two different categories among Same Instances, Different Instances and Display (never Different
  Entity, as in Table 12); R5 goes with a Display relation only in a grouped query (otherwise it leaves one row).

Without a schema, the columns a query does not name are unknown: R1, R3 and R4 are then assumed to apply (a table
rarely has only the columns a query names) and are worded without naming a column; R13 does not apply, since no other
table can be named; column types are unknown, so R6 allows the number functions.

The suggestions
---------------
Every text is one imperative sentence made of the schema's readable names (`table_names`, `column_names`; a name
without them is made readable by `annotation.sql.schema.readable_name`), words of this module and values: literals of
the previous query and, when `values` is given, values of the database. A value is shown only when it is short, on one
line and free of underscores, so that nothing in a text looks like an identifier; SQL never appears. A value must also
read as words (`_readable_value`: no id, no short all-caps code or single letter; prefer none to a code). A relation
table (a verb-like name, "has amenity", "lives in", or only foreign keys) is never named as a thing: the entity it
links stands for it, and it is never the new entity of R13. A text is one sentence of at most 16 words; a combination
is the first relation's imperative and the second's short phrase after a comma, or is not offered.
`Recommendation.columns`, `values` and `tables` are what the text asks the next query to use, from which
`suggestion_followed` judges whether the question followed it.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping
from numbers import Real
from types import MappingProxyType

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from sqlglot import expressions as exp

from annotation.labels.relations import (
    CATEGORIES,
    CATEGORY_OF,
    COMBINATION,
)
from annotation.sql.spider import SpiderEncodingError, parse_sql
from annotation.wording.suggestions.errors import IntentError
from annotation.wording.suggestions.reading import (
    _RELATION_ORDER,
    _Analysis,
    _analysis_of,
    _flags_read,
    _literals,
    flags_read,
)
from annotation.wording.suggestions.shown import _seen_view
from annotation.wording.suggestions.writing import Recommendation, _shown_value, _Writer

__all__ = [
    "DEFAULT_TARGETS",
    "IntentError",
    "Recommendation",
    "applicable_categories",
    "applicable_relations",
    "choose_category",
    "flags_read",
    "intent_targets",
    "normalise_targets",
    "recommend",
    "suggestion_followed",
]

DEFAULT_TARGETS: Mapping[str, float] = MappingProxyType(dict.fromkeys(CATEGORIES, 1 / len(CATEGORIES)))
# A suggestion is read once, between two questions: one short sentence (a combination that runs longer is left out).
_MAX_TEXT_CHARS = 90
_MAX_TEXT_WORDS = 16


# ---------------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------------


def applicable_relations(previous_sql: str, schema: dict | None) -> list[str]:
    """The relations R1-R16 that can lead from `previous_sql` to a follow-up query, in number order.

    The rules are in the module docstring. Raises IntentError when the query or the schema cannot be read.
    """
    material = _analysis_of(previous_sql, schema).material
    return [name for name in _RELATION_ORDER if material[name]]


def applicable_categories(
    previous_sql: str,
    schema: dict | None,
    *,
    result: Mapping | None = None,
    statistics: Callable[[str, str], Mapping | None] | None = None,
) -> list[str]:
    """The categories (in `relations.CATEGORIES` order) that `recommend` can suggest after `previous_sql`, given
    what its `result` showed and the columns' `statistics` when known (see `recommend`)."""
    schema = _flags_read(previous_sql, schema, statistics)
    return _seen_view(_analysis_of(previous_sql, schema), result, statistics).categories()


def recommend(
    previous_sql: str,
    schema: dict | None,
    *,
    category: str,
    rng: random.Random,
    values: Callable[[str, str], list] | None = None,
    result: Mapping | None = None,
    statistics: Callable[[str, str], Mapping | None] | None = None,
    writer: Callable | None = None,
    row_values: Callable[[str, str], tuple | list | None] | None = None,
) -> Recommendation:
    """One suggestion of `category` for the question that follows the turn whose query was `previous_sql`.

    A relation of the category that applies is picked with `rng` (uniformly; for a combination, first a pair of
    categories, then a compatible pair of their relations), and worded from the schema's readable names.
    `values(table, column)`, given the original names of a column, returns a few of its real values (it is called
    only for the columns a text may name, and what it raises propagates); without it the text names columns but no
    values. `result` is what the worker was just shown (`rows`, `truncated`, `total_rows`, as a shared result holds
    them) and `statistics(table, column)` a column's figures (`rows`, `distinct`, `min`, `max`; None when unknown):
    with them nothing is suggested that the result already answers or that leads nowhere (`_seen_view`). The same
    arguments and rng state give the same recommendation. `writer(analysis, rng, values)` makes the writer that words
    the choice (another language's, `chinese_suggestions`); the English `_Writer` by default. `row_values(table,
    column)` returns the values a column holds in the rows `previous_sql` read (None when unknown): a narrowing names
    one of them, never a value none of the rows has.
    Raises IntentError for an unknown category or one that has no applicable relation (see
    `applicable_categories`), or when the query or the schema cannot be read.
    """
    if category not in CATEGORIES:
        raise IntentError(  # i18n-exempt: the room logs it and offers none
            f"unknown intent category {category!r}; known: {', '.join(CATEGORIES)}"
        )
    schema = _flags_read(previous_sql, schema, statistics)
    analysis = _seen_view(_analysis_of(previous_sql, schema), result, statistics)
    writer = (writer or _Writer)(analysis, rng, values)
    writer.row_values = row_values
    if category == COMBINATION:
        pairs = analysis.combination_pairs()
        if not pairs:
            raise _not_applicable(category, analysis)
        category_pair = rng.choice(list(pairs))
        # The pair of categories drawn first; when none of its pairs of relations can be said, the other pairs.
        for categories in [category_pair] + [other for other in pairs if other != category_pair]:
            options = list(pairs[categories])
            rng.shuffle(options)
            found = _combined_text(writer, options)
            if found is not None:
                return writer.recommendation(category, *found)
        raise IntentError(  # i18n-exempt: the room logs it and offers none
            "no combination of the applicable relations can be worded in one short sentence"
        )
    candidates = [name for name in _RELATION_ORDER if CATEGORY_OF[name] == category and analysis.material[name]]
    if not candidates:
        raise _not_applicable(category, analysis)
    while candidates:
        relation = rng.choice(candidates)
        text = writer.phrase(relation, alone=True)
        if text:
            return writer.recommendation(category, relation, text)
        candidates.remove(relation)  # nothing worth asking can be said of it: another relation of the category
    raise IntentError(  # i18n-exempt: the room logs it and offers none
        f"no {category} suggestion after this query names something to ask"
    )


def _combined_text(writer: _Writer, options: list) -> tuple[str, str] | None:
    """(relation, text) of the first pair of `options` that one short sentence says, or None. One short sentence or
    none: a pair whose wording runs long (or names one column for both changes) is tried again without values, then
    skipped."""
    for with_values in (True, False):
        for first, second in options:
            text = writer.combined(first, second, with_values=with_values)
            if text and _short(text):
                return "+".join(sorted((first, second), key=lambda name: int(name[1:]))), text
    return None


def suggestion_followed(
    suggestion: Mapping, relations, current_sql: str | None = None, schema: dict | None = None
) -> bool:
    """Whether a question followed the suggestion shown before it.

    `suggestion` is a recommendation payload (`category`, `relation`, and optionally `columns`, `values`, `tables`:
    what its text asked the next query to use); `relations` are the relations detected between the previous query and
    the asked one (`relations.detect_relation`). Followed: every suggested relation was detected, and nothing of
    another category (a question of the same category but another relation did something else; one that did what was
    suggested and more of another kind is a combination, not what was suggested), and, when `current_sql` is given,
    it uses every column, value and table the suggestion named. A suggestion without them (or stored before they were
    kept) is judged on the relation alone. A query that cannot be read has used nothing.
    """
    suggested = set(str(suggestion.get("relation") or "").split("+")) - {""}
    detected = set(relations or ())
    if not suggested or not suggested <= detected or not detected <= set(CATEGORY_OF):
        return False
    if _category_of(detected) != _category_of(suggested):
        return False
    columns = [tuple(item) for item in suggestion.get("columns") or ()]
    values = [str(item) for item in suggestion.get("values") or ()]
    tables = [str(item) for item in suggestion.get("tables") or ()]
    if current_sql is None or not (columns or values or tables):
        return True
    try:
        used_tables, used_columns, used_values = _used(current_sql)
    except (SpiderEncodingError, RecursionError):
        return False
    return (
        all(table.lower() in used_tables for table in tables)
        and all(
            column.lower() in used_columns and (table is None or table.lower() in used_tables)
            for table, column in columns
        )
        and all(value.lower() in used_values for value in values)
    )


def _category_of(relations: set[str]) -> str:
    categories = {CATEGORY_OF[name] for name in relations}
    return categories.pop() if len(categories) == 1 else COMBINATION


def _used(sql: str) -> tuple[set[str], set[str], set[str]]:
    """The tables, column names and literal values (as a text shows them, lower case; LIKE's % dropped) of `sql`."""
    tree = parse_sql(sql)
    tables = {node.name.lower() for node in tree.find_all(exp.Table)}
    columns = {node.name.lower() for node in tree.find_all(exp.Column) if not isinstance(node.this, exp.Star)}
    values = set()
    for literal in _literals(tree.find_all(exp.Literal)):
        shown = _shown_value(literal.strip("%").strip() if isinstance(literal, str) else literal)
        if shown is not None:
            values.add(shown.lower())
    return tables, columns, values


def _short(text: str) -> bool:
    return len(text) <= _MAX_TEXT_CHARS and len(text.split()) <= _MAX_TEXT_WORDS


def normalise_targets(targets: Mapping[str, float] | str | None) -> dict[str, float]:
    """Target shares per category, checked and scaled to sum to 1 (a category left out gets 0).

    Accepts a mapping {category: weight} or the same as text, "same_instances=2, display=1" (the form an
    environment variable can hold); None or "" means DEFAULT_TARGETS. Weights must be finite, non-negative numbers
    with a positive sum. Raises IntentError naming the problem.
    """
    if targets is None or (isinstance(targets, str) and not targets.strip()):
        targets = DEFAULT_TARGETS
    if isinstance(targets, str):
        items = _parse_target_text(targets)
    elif isinstance(targets, Mapping):
        items = list(targets.items())
    else:
        raise IntentError(  # i18n-exempt: an operator's INTENT_TARGETS setting
            f"targets must be a mapping of category to weight, not {type(targets).__name__}"
        )
    weights = dict.fromkeys(CATEGORIES, 0.0)
    for name, weight in items:
        if name not in weights:
            raise IntentError(  # i18n-exempt: an operator's INTENT_TARGETS setting
                f"unknown intent category {name!r}; known: {', '.join(CATEGORIES)}"
            )
        if isinstance(weight, bool) or not isinstance(weight, Real) or not math.isfinite(weight) or weight < 0:
            raise IntentError(  # i18n-exempt: an operator's INTENT_TARGETS setting
                f"the weight of {name} must be a finite number >= 0, not {weight!r}"
            )
        weights[name] = float(weight)
    total = sum(weights.values())
    if total <= 0:
        raise IntentError(  # i18n-exempt: an operator's INTENT_TARGETS setting
            "the target weights must have a positive sum"
        )
    return {name: weight / total for name, weight in weights.items()}


def intent_targets() -> dict[str, float]:
    """The target share of each intent category: settings.INTENT_TARGETS (a mapping or "category=weight, ..."
    text), DEFAULT_TARGETS when unset or empty. Raises ImproperlyConfigured when the setting is invalid."""
    raw = getattr(settings, "INTENT_TARGETS", None) or DEFAULT_TARGETS
    try:
        return normalise_targets(raw)
    except IntentError as error:
        raise ImproperlyConfigured(f"INTENT_TARGETS: {error}") from None


def choose_category(
    *,
    local: Counter,
    overall: Counter,
    targets: Mapping[str, float],
    rng: random.Random,
    available: set[str],
    exploration: float = 0.1,
) -> str:
    """The intent category to recommend next: most likely the available one furthest below its target share.

    `local` counts the categories of the follow-up turns collected on this database so far, `overall` those of the
    whole collection (count what each turn turned out to be, not what was recommended). The deficit of a category is
    its target share less its share of a counter (keys outside `CATEGORIES` are not counted); the two deficits are
    averaged, and an empty counter is left out of the average. A category is then drawn, among the available ones,
    in proportion to its positive deficit, except that with probability `exploration` it is drawn in proportion to
    its target alone (as it is too when no available category is short): under-represented categories come first,
    but every category keeps coming up, and a collection on target gets the target distribution. A category whose
    target is 0 is drawn only when every available category has target 0 (then uniformly, as CHASE samples).
    Raises IntentError when nothing is available.
    """
    shares = normalise_targets(targets)
    unknown = set(available) - set(CATEGORIES)
    if unknown:
        raise IntentError(  # i18n-exempt: the room logs it and offers none
            f"unknown intent categories {sorted(unknown)}; known: {', '.join(CATEGORIES)}"
        )
    candidates = [name for name in CATEGORIES if name in available]
    if not candidates:
        raise IntentError(  # i18n-exempt: the room logs it and offers none
            "no intent category is available for this question"
        )
    if not 0 <= exploration <= 1:
        raise IntentError(  # i18n-exempt: the room logs it and offers none
            f"exploration must be between 0 and 1, not {exploration}"
        )
    target = [shares[name] for name in candidates]
    if sum(target) <= 0:
        return rng.choice(candidates)
    deficits = [found for found in (_deficits(local, shares), _deficits(overall, shares)) if found is not None]
    # A category with target 0 is never short, so it is drawn neither way.
    short = [
        max(sum(found[name] for found in deficits) / len(deficits), 0.0) if deficits else 0.0 for name in candidates
    ]
    if sum(short) <= 0:
        return rng.choices(candidates, target)[0]
    weights = [
        exploration * share / sum(target) + (1 - exploration) * gap / sum(short)
        for share, gap in zip(target, short, strict=True)
    ]
    return rng.choices(candidates, weights)[0]


def _deficits(counter: Counter, shares: dict[str, float]) -> dict[str, float] | None:
    counts = {name: max(counter.get(name, 0), 0) for name in CATEGORIES}
    total = sum(counts.values())
    if total == 0:
        return None
    return {name: shares[name] - counts[name] / total for name in CATEGORIES}


def _parse_target_text(text: str) -> list[tuple[str, float]]:
    items = []
    seen = set()
    for part in text.split(","):
        name, separator, weight = part.partition("=")
        name = name.strip()
        if not separator or not name:
            raise IntentError(  # i18n-exempt: an operator's INTENT_TARGETS setting
                f"expected category=weight, not {part.strip()!r}"
            )
        if name in seen:
            raise IntentError(f"category {name!r} is given twice")  # i18n-exempt: an operator's INTENT_TARGETS setting
        seen.add(name)
        try:
            items.append((name, float(weight)))
        except ValueError:
            raise IntentError(  # i18n-exempt: an operator's INTENT_TARGETS setting
                f"the weight of {name} is not a number: {weight.strip()!r}"
            ) from None
    return items


def _not_applicable(category: str, analysis: _Analysis) -> IntentError:
    return IntentError(
        f"no relation of the category {category!r} applies to the previous query; "
        f"applicable categories: {', '.join(analysis.categories()) or 'none'}"
    )
