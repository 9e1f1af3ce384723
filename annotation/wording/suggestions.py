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

import copy
import functools
import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from numbers import Real
from types import MappingProxyType

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from sqlglot import expressions as exp

from annotation.labels.relations import (
    CATEGORIES,
    CATEGORY_OF,
    COMBINATION,
    DIFFERENT_INSTANCES,
    DISPLAY,
    SAME_INSTANCES,
)
from annotation.sql.schema import readable_name
from annotation.sql.spider import SpiderEncodingError, or_branches, parse_sql, unwrap_paren
from annotation.wording.counted import count_shown, grouped_counted
from annotation.wording.english import (
    ABBREVIATIONS,
    PREPOSITIONS,
    STORAGE_WORDS,
    _segmenter,
    acronyms_capitalised,
    column_name,
    column_phrase,
    is_plural,
    noun,
    participle,
    per_schema,
    plural_word,
    schema_vocabulary,
    singular_word,
    table_noun,
    with_article,
    words_of,
)

__all__ = [
    "DEFAULT_TARGETS",
    "IntentError",
    "Recommendation",
    "applicable_categories",
    "applicable_relations",
    "choose_category",
    "intent_targets",
    "normalise_targets",
    "recommend",
    "suggestion_followed",
]

DEFAULT_TARGETS: Mapping[str, float] = MappingProxyType(dict.fromkeys(CATEGORIES, 1 / len(CATEGORIES)))

_RELATION_ORDER = tuple(f"R{number}" for number in range(1, 17))
# Categories that may be combined (Table 12: all but Different Entity), in the order their phrases are written:
# what to show, which instances, how to display them.
_COMBINABLE = (SAME_INSTANCES, DIFFERENT_INSTANCES, DISPLAY)
_DISPLAY_RELATIONS = frozenset({"R14", "R15", "R16"})

_AGGREGATES = {exp.Count: "count", exp.Max: "max", exp.Min: "min", exp.Sum: "sum", exp.Avg: "avg"}
_NUMBER_FUNCTIONS = ("max", "min", "avg", "sum")
_ORDER_FUNCTIONS = ("max", "min")
_FUNCTION_WORDS = {"max": "highest", "min": "lowest", "avg": "average", "sum": "total"}
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "!=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}
_MIRRORED = {"=": "=", "!=": "!=", ">": "<", ">=": "<=", "<": ">", "<=": ">="}
_VALUE_OPS = frozenset({"=", "in", "like", "between", ">", ">=", "<", "<="})
_MAX_VALUE_CHARS = 40
# A suggestion is read once, between two questions: one short sentence (a combination that runs longer is left out).
_MAX_TEXT_CHARS = 90
_MAX_TEXT_WORDS = 16
# A name that reads as a verb or a clause names a relation between two entities, not an entity: "has amenity",
# "lives in", "member of"... at the start: an auxiliary; at the end: a preposition.
_VERB_STARTS = frozenset({"has", "have", "had", "is", "are", "was", "were", "does", "do", "can"})
_PREPOSITION_ENDS = frozenset({"in", "of", "on", "at", "to", "by", "with", "for", "from", "into", "about"})
_WORDS = re.compile(r"[^\W_]+")
# Numbers that name a line, a place or a person rather than measure anything ("the lowest phone" means nothing).
_NUMBERS_THAT_NAME = frozenset({"phone", "fax", "zip", "postcode", "ssn", "isbn", "room"})
_NUMBERS_THAT_NAME |= {"barcode", "serial", "ean", "upc", "vin", "imei", "sku"}  # a copy's barcode: "the total barcode"
# Measures whose total means nothing (a total of ratings, ages or percentages): their average, highest and lowest do.
_NOT_ADDITIVE = frozenset(
    {"rating", "ratings", "score", "scores", "age", "percent", "percentage", "rank", "ranking", "temperature", "speed"}
    | {"grade", "level"}  # a school year or a membership level is a rank ("the total grade")
    | {"rate", "rates", "ratio", "minute", "position"}  # "the total support rate", "the total minute" of cards
)
# Last words of a number column's name that make it a band, a rank among a few ("year group", "key stage", "pay
# scale", "tier"): its highest and lowest mean something, its average or total nothing.
_BANDS = frozenset({"group", "stage", "scale", "tier", "band"})
# Words that make a figure one per unit ("unit price", "price per night"): added up over rows it means nothing.
_PER_UNIT = frozenset({"unit", "per"})
# Units of time a column can count in ("years working", "days held"): before a participle, a span, not a point.
_SPAN_UNITS = frozenset({"year", "month", "week", "day", "hour", "minute"})
# A unit alone as a column's name ("milliseconds", "bytes") says how a figure is measured, not what it is.
_BARE_UNITS = frozenset({"milliseconds", "seconds", "bytes", "ms", "kb", "mb", "gb", "kg", "km", "cm", "mm", "lbs"})
# A record's bookkeeping ("last update" of every sakila table): when a row was written, nothing about the thing.
_BOOKKEEPING = frozenset({"last update", "last updated", "last modified", "updated at", "created at", "modified at"})
# Values whose alphabetical order tells nothing: a listing of e-mail addresses, colours, addresses or descriptions
# "sorted alphabetically" is the same listing shuffled.
_UNORDERED_WORDS = frozenset(
    {"email", "mail", "address", "color", "colors", "colour", "colours", "description", "details", "url", "website"}
)
# Words of a secret kept for signing in: never a detail, condition or figure to suggest.
_SECRETS = frozenset({"password", "passwd", "pwd", "passcode", "pin", "secret", "salt", "hash", "token"})
# Columns of free text, written anew for each row: no category to group by ("the number of detentions per summary").
_FREE_TEXT = frozenset(
    {"summary", "description", "descriptions", "details", "notes", "note", "comment", "comments", "remarks", "text"}
    | {"message", "content", "abstract", "review", "explanation", "reason", "narrative", "body"}
)
# Plurals that name an amount of money, not things counted: earnings are high or low, never "the fewest earnings".
_AMOUNT_PLURALS = frozenset(
    {"earnings", "savings", "winnings", "sales", "profits", "revenues", "assets", "wages", "costs", "expenses"}
    | {"proceeds", "funds", "takings", "taxes", "fees", "prices"}
)
# A place on the globe: the highest latitude is the northernmost, its total or average is no place.
_PLACES = frozenset({"latitude", "longitude"})
# Words a table's name may start with that say how many of the things it holds ("all documents"): no part of them.
_QUANTIFIERS = frozenset({"all", "every", "each", "other"})  # "the other property features" are property features
# Words a table's name may start with that say how it is stored, not what it holds: a database view ("view unit
# status" holds unit statuses), a reference list ("ref incident types"), a table ("tbl dept"); no part of them either.
_STORAGE_PREFIXES = frozenset({"view", "ref", "tbl"})
# Words that make a column's name a clause or a code rather than a noun: a condition's start ("if affirmative win"),
# a yes/no code ("paid in full yn") or a verb in the past at the end ("class hours took"); a question word
# ("how to get there") starts a clause too.
_CLAUSE_STARTS = frozenset({"if", "whether", "when", "how", "what", "where", "which", "why", "who"})
_CLAUSE_ENDS = frozenset({"yn", "took", "gave", "went", "did"})
# A verb's simple past that is no participle ("date became customer"): anywhere in a name, it makes it a clause.
_SIMPLE_PASTS = frozenset(
    {"became", "began", "came", "took", "gave", "went", "did", "wrote", "drove", "rode", "chose", "spoke", "broke"}
    | {"knew", "grew", "threw", "flew", "drew", "ran", "sang", "swam", "drank", "ate", "fell", "forgot", "rose"}
)
# A unit written after a measure's name ("profits billion", "rom mib", "max wind speed mph"): the measure is the name.
_UNIT_ENDS = frozenset(
    {"billion", "million", "thousand", "mib", "mb", "gb", "kb", "kg", "km", "mph", "usd"}
    | {"feet", "ft", "inches", "meters", "metres", "cm", "mm", "lbs"}  # "height feet" is the height
)
# A word of a column's name that English text uses less often than this (the word segmenter's counts, about 10^12
# words of text) is no word a worker reads: a typo ("shaff in charge") or a shortening ("fname", "enr").
_WORD_IN_USE = 1_000_000
_SHORTENING_IN_USE = 5_000_000
_NEW_WORD_IN_USE = 100_000
# Words of a column's name that say it names each row: a listing keeps them ("the same tracks without their name").
_NAMING_WORDS = frozenset({"name", "title"})
# Last words of a name that hold a point in time, whatever type the column has ("year" kept as text).
_TIME_WORDS = frozenset({"year", "date", "time", "day", "month", "datetime", "timestamp"})


def _time_word(label: str) -> str:
    """The word of a column's name that says it holds a point in time: its last ("birth year"), or "year" before a
    participle ("year founded", as `english.column_name` orders it); "" for any other name. "years working" is a
    span."""
    words = label.lower().split()
    if len(words) == 2 and words[0] == "year" and participle(words[1]):  # noqa: PLR2004
        return "year"
    return words[-1] if words else ""


# A column named as a statistic already ("lowest" attendance, "average"): a statistic of it reads "the lowest lowest".
_STATISTIC_WORDS = frozenset(
    {"highest", "lowest", "average", "total", "maximum", "minimum", "max", "min", "avg", "sum"}
)
# The rest of an equality or a pattern that kept fewer than one row in this many of the table is every other row.
_REST_SHARE_AT_LEAST = 20
# A column whose values are (almost) all different names single rows: nobody counts "people per name". Above this
# share of distinct values among the rows, a column is neither grouped by nor narrowed to.
_UNIQUE_SHARE = 0.5
# A table SQLite creates for AUTOINCREMENT, listed in some Spider schemas; nobody asks about it.
_INTERNAL_TABLES = frozenset({"sqlite_sequence"})


class IntentError(ValueError):
    """A previous query or schema that cannot be read, a category that cannot be recommended for it, or bad targets."""


@dataclass(frozen=True)
class Recommendation:
    """One suggestion for the next follow-up question.

    `relation` is one relation ("R8"), or for a combination two joined by "+" in number order ("R1+R8"); `text` is
    what the worker reads. `columns` ((table, column) original names), `values` (as the text shows them) and `tables`
    (original names) are what the text asks the next query to use, so that `suggestion_followed` can tell whether it
    did; a text that names nothing to use leaves them empty.
    """

    category: str
    relation: str
    text: str
    columns: tuple[tuple[str, str], ...] = ()
    values: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()

    @property
    def relations(self) -> tuple[str, ...]:
        return tuple(self.relation.split("+"))


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


# ---------------------------------------------------------------------------------------------------------------
# Reading the schema and the previous query
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Column:
    table: str | None  # the table's key (lower-case original name); None when it cannot be told
    original: str  # the column's name as the schema (or, without one, the query) spells it
    label: str  # readable
    kind: str  # a Spider column type, or "unknown" without a schema
    is_key: bool  # primary key, either side of a foreign key, or named "... id"
    is_primary: bool = False


@dataclass(frozen=True)
class _Aggregate:
    function: str  # count, max, min, sum, avg, or "expression" for arithmetic over aggregates
    column: _Column | None  # None for count(*) and for an argument that is not a column


@dataclass(frozen=True)
class _Filter:
    column: _Column | None  # the column compared; None for EXISTS, an aggregate, or a mixed OR
    op: str  # =, !=, >, >=, <, <=, like, in, between, is, exists, or, other
    values: tuple  # the literals compared with (Python str/int/float), in order
    negated: bool
    aggregate: _Aggregate | None = None  # the figure a HAVING condition compares ("count(*) >= 2"), when it is one


@dataclass(frozen=True)
class _SortKey:
    column: _Column | None
    aggregate: _Aggregate | None
    descending: bool


@dataclass
class _Facts:
    tables: list = field(default_factory=list)  # FROM table keys in order, each once
    shown: list = field(default_factory=list)  # plain columns of the SELECT
    star: bool = False
    aggregates: list = field(default_factory=list)
    group: list = field(default_factory=list)
    filters: list = field(default_factory=list)
    order: list = field(default_factory=list)
    limit: int | None = None
    has_limit: bool = False
    distinct: bool = False
    # A UNION / INTERSECT / EXCEPT: its rows are no one table's, so a count of them is said by what they show.
    set_operation: bool = False
    # A set operation whose SELECTs read other tables than the first: its rows have no one table's details.
    mixed_tables: bool = False
    # The group keys of a grouped subquery in FROM: its rows are groups, and a count of them counts groups.
    inner_groups: list = field(default_factory=list)
    # The result's columns in order: the plain column each one shows, None for anything else; None after a `*`.
    selected: list | None = field(default_factory=list)


class _Schema:
    """What recommendations need from a tables.json entry, or, without one, from the names a query uses."""

    def __init__(self, schema: dict | None) -> None:
        self.known = schema is not None
        self.originals: dict[str, str] = {}  # table key -> original spelling
        self.labels: dict[str, str] = {}  # table key -> readable name
        self.columns: dict[str, list[_Column]] = {}  # table key -> its columns, in schema order
        self.lookup: dict[tuple[str, str], _Column] = {}
        self.parents: set[tuple[str, str]] = set()  # (child table, parent table) per foreign key
        self.neighbours: dict[str, set[str]] = {}
        self.links: set[str] = set()  # relation tables: never a noun in a text (`_is_link`)
        self.linked: dict[str, list[str]] = {}  # relation table -> the tables its foreign keys point to, in order
        self.references: dict[tuple[str, str], str] = {}  # (table, lower-case column) -> the table its key names
        self.pairings: set[str] = set()  # tables named by their columns run together: never another entity
        self.joins: set[str] = set()  # tables with an id of their own named by what they link ("people addresses")
        if schema is None:
            return
        try:
            self._read(schema)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise IntentError(  # i18n-exempt: the room logs it and offers none
                f"schema is not a tables.json entry ({type(error).__name__}: {error})"
            ) from None

    def _read(self, schema: dict) -> None:
        tables = schema["table_names_original"]
        readable_tables = schema.get("table_names") or [None] * len(tables)
        originals = schema["column_names_original"]
        readable_columns = schema.get("column_names") or [[table, None] for table, _ in originals]
        types = schema.get("column_types") or []
        primary = set(schema.get("primary_keys", []))
        foreign = schema.get("foreign_keys", [])
        linked = {index for pair in foreign for index in pair}
        keys = [name.lower() for name in tables]
        table_labels = [_label(readable, original) for original, readable in zip(tables, readable_tables, strict=True)]
        vocabulary = schema_vocabulary(table_labels, readable_columns, originals)
        for key, original, label in zip(keys, tables, table_labels, strict=True):
            self.originals.setdefault(key, original)
            self.labels.setdefault(key, _without_quantifier(table_noun(label, vocabulary)))
            self.columns.setdefault(key, [])
            self.neighbours.setdefault(key, set())
        named: dict[int, set[str]] = {}  # per table index: the labels of its columns
        texts: dict[int, set[int]] = {}  # per table index: its text primary key columns
        for number, ((table, name), (_, readable)) in enumerate(zip(originals, readable_columns, strict=True)):
            named.setdefault(table, set()).add(_label(readable, name).lower())
            kind = types[number] if number < len(types) else "unknown"
            if number in primary and kind == "text" and not _id_named(name) and not _looks_like_id(words_of(name)):
                texts.setdefault(table, set()).add(number)
        for index, ((table, name), (_, readable)) in enumerate(zip(originals, readable_columns, strict=True)):
            if table < 0:
                continue
            kind = types[index] if index < len(types) else "unknown"
            label = _span(_counted_plural(_without_unit(column_name(_label(readable, name), vocabulary, kind))))
            if _names_its_row(label, self.labels[keys[table]], named[table], kind, index, primary, texts.get(table)):
                label = "name"  # the company's "company", the continent's "continent": what the row is called
            label = _places_said(_head_count(_of_month(label, self.labels[keys[table]], kind), kind))
            column = _Column(
                table=keys[table],
                original=name,
                label=label,
                kind=types[index] if index < len(types) else "unknown",
                is_key=index in primary
                or index in linked
                or _looks_like_id(label)
                or _id_named(name)
                or _names_a_person(label, kind),
                is_primary=index in primary,
            )
            self.columns[keys[table]].append(column)
            self.lookup.setdefault((keys[table], name.lower()), column)
        for child, parent in foreign:
            child_table, parent_table = keys[originals[child][0]], keys[originals[parent][0]]
            self.references.setdefault((child_table, originals[child][1].lower()), parent_table)
            if child_table != parent_table:
                self.parents.add((child_table, parent_table))
                self.neighbours[child_table].add(parent_table)
                self.neighbours[parent_table].add(child_table)
                if parent_table not in self.linked.setdefault(child_table, []):
                    self.linked[child_table].append(parent_table)
        self._read_kinds(tables, originals, primary, foreign)

    def _read_kinds(self, tables: list[str], originals: list, primary: set[int], foreign: list) -> None:
        """Which tables are links (their rows pair things), which name no things (`pairings`), and a group noun's
        table said as its members."""
        keys = [name.lower() for name in tables]
        children = {child for child, _ in foreign}
        for index, key in enumerate(keys):
            own = [number for number, (table, _) in enumerate(originals) if table == index]
            all_foreign = bool(own) and all(number in children for number in own)
            things = self.things_beside(key)
            verb_like = _is_link(self.labels[key], things) or _is_link(readable_name(tables[index]), things)
            keyed = [number for number in own if number in primary]
            own_key = any(number not in children for number in keyed)  # an id of its own: rows are things
            named_links = key in self.linked and not own_key and self._named_by_its_links(key)
            # two foreign keys to one table, no id of its own: a relation between its rows ("person friend")
            named_links = named_links or (not own_key and self._pairs_rows(index, key, originals, foreign))
            if key in self.linked and (all_foreign or verb_like or named_links):
                self.links.add(key)
            if _named_by_columns(self.labels[key], [column.label for column in self.columns[key]]):
                self.pairings.add(key)
            if self.labels[key].lower() in STORAGE_WORDS:
                self.pairings.add(key)  # a table named "list" or "data" names no things ("the lists")
            if key in self.linked and own_key and self._named_only_by_its_links(key):
                self.pairings.add(key)  # "the people addresses": a person's address, no thing a worker pictures
                self.joins.add(key)
            held = _held_by_name(self.labels[key], self.columns[key])
            if held is None:
                self.pairings.add(key)  # "the catalog contents" with no name of what they hold: said as nothing
            else:
                self.labels[key] = held
            self.labels[key] = _members(self.labels[key], self.columns[key])

    def things_beside(self, key: str) -> frozenset[str]:
        """Every word of the other tables' names, in the singular (what `_verb_first` reads as a thing)."""
        labels = [label for other, label in self.labels.items() if other != key]
        return frozenset(singular_word(word.lower()) for label in labels for word in label.split())

    def _pairs_rows(self, index: int, key: str, originals: list, foreign: list) -> bool:
        """Whether exactly two of table `index`'s columns point to the same column of another table whose name is
        in its own ("person friend": name and friend, both a person's name): each row pairs two of that table's
        rows. A wedding pairs two people too, but its name is its own: weddings are things."""
        targets = [parent for child, parent in foreign if originals[child][0] == index]
        words = {singular_word(word.lower()) for word in self.labels[key].split()}
        for target in set(targets):
            parent = originals[target][0]
            head = singular_word(noun(self.labels[list(self.labels)[parent]], False).split()[-1].lower())
            if targets.count(target) == 2 and list(self.labels)[parent] != key and head in words:
                return True
        return False

    def _named_only_by_its_links(self, key: str) -> bool:
        """A table whose every word names a thing its foreign keys point to ("people addresses" of people and
        addresses), even with an id of its own: a row is one thing's other thing, and its name reads as the schema's,
        not as things a worker pictures ("ask about the people addresses instead")."""
        words = [singular_word(word.lower()) for word in self.labels[key].split()]
        heads = {singular_word(noun(self.labels[parent], False).split()[-1].lower()) for parent in self.linked[key]}
        return len(words) >= 2 and all(any(_same_stem(head, word) for head in heads) for word in words)

    def _named_by_its_links(self, key: str) -> bool:
        """A table named by two of the things its foreign keys point to ("accelerator compatible browser",
        "debate people", "happy hour member"): without an id of its own, its rows are pairs of those things, no
        thing of their own (a film market estimation has its own id: estimations are things). A word of the same
        stem names the thing too ("railway manage" of railways and managers, "membership register branch")."""
        words = {singular_word(word.lower()) for word in self.labels[key].split()}
        heads = {singular_word(noun(self.labels[parent], False).split()[-1].lower()) for parent in self.linked[key]}
        return sum(any(_same_stem(head, word) for word in words) for head in heads) >= 2

    def table(self, name: str) -> str:
        key = name.lower()
        if self.known:
            if key not in self.originals:
                raise IntentError(  # i18n-exempt: the room logs it and offers none
                    f"previous query: unknown table {name!r}"
                )
        else:
            self.originals.setdefault(key, name)
            self.labels.setdefault(key, _label(None, name))
        return key

    def column(self, table: str | None, name: str) -> _Column:
        if table is not None and self.known:
            found = self.lookup.get((table, name.lower()))
            if found is not None:
                return found
        label = _label(None, name)
        return _Column(table if not self.known else None, name, label, "unknown", _looks_like_id(label))

    def descriptive(self, tables, exclude=(), *, flags: bool = False) -> list[_Column]:
        """The columns of `tables` that are not in `exclude`: the descriptive ones, or failing any, the keys; a yes/no
        flag only with `flags` (a condition can use one, a detail to show cannot)."""
        columns = [column for table in tables for column in self.columns.get(table, ()) if column not in exclude]
        columns = [column for column in columns if flags or not _is_flag(column)]
        plain = [column for column in columns if not column.is_key and not _vague(column.label)]
        return plain or [column for column in columns if not _vague(column.label)] or columns


# The schemas suggestions were written for last: the same database's after every answer in its rooms.
_schema_of = per_schema(_Schema)


def _sources_of(node: exp.Select) -> tuple[list[exp.Expr], list[exp.Expr]]:
    """A SELECT's sources (FROM, then each join's) and its joins' ON conditions."""
    sources, on_conditions = [], []
    from_ = node.args.get("from_")
    if from_ is not None:
        sources.append(from_.this)
    for join in node.args.get("joins") or ():
        sources.append(join.this)
        if join.args.get("on") is not None:
            on_conditions.append(join.args["on"])
    return sources, on_conditions


class _Reader:
    """Reads the previous query into _Facts."""

    def __init__(self, names: _Schema) -> None:
        self.names = names

    def query(self, node: exp.Expr) -> _Facts:
        node = unwrap_paren(node)
        while isinstance(node, exp.Subquery):
            node = unwrap_paren(node.this)
        if isinstance(node, exp.SetOperation):
            facts = self.query(node.this)
            facts.set_operation = True
            facts.mixed_tables = facts.mixed_tables or set(self.query(node.expression).tables) != set(facts.tables)
            if node.args.get("order") is not None or node.args.get("limit") is not None:
                # The order and limit written after the last SELECT are the whole query's (the first SELECT's
                # names are the result's names).
                facts.order, facts.limit, facts.has_limit = [], None, False
                self._order_and_limit(node, {}, {}, facts)
            return facts
        if isinstance(node, exp.Select):
            return self.select(node)
        raise IntentError(  # i18n-exempt: the room logs it and offers none
            f"previous query: expected a SELECT query, found {node.key.upper()}"
        )

    def select(self, node: exp.Select) -> _Facts:
        facts = _Facts(distinct=node.args.get("distinct") is not None)
        scope: dict[str, str | None] = {}
        sources, on_conditions = _sources_of(node)
        for source in sources:
            self._source(unwrap_paren(source), scope, facts)
        aliases: dict[str, exp.Expr] = {}
        for item in node.expressions:
            if isinstance(item, exp.Alias):
                aliases[item.alias.lower()] = item.this
                item = item.this
            self._select_item(unwrap_paren(item), scope, facts)
        for condition in on_conditions:
            self._conditions(condition, scope, facts)
        for clause in ("where", "having"):
            if node.args.get(clause) is not None:
                self._conditions(node.args[clause].this, scope, facts)
        group = node.args.get("group")
        for item in group.expressions if group is not None else ():
            item = unwrap_paren(item)
            if isinstance(item, exp.Column):
                facts.group.append(self._column(item, scope, facts))
        self._order_and_limit(node, scope, aliases, facts)
        return facts

    def _source(self, source: exp.Expr, scope: dict, facts: _Facts) -> None:
        if isinstance(source, exp.Table):
            key = self.names.table(source.name)
            if key not in facts.tables:
                facts.tables.append(key)
            scope[key] = key
            if source.alias:
                scope[source.alias.lower()] = key
        elif isinstance(source, exp.Subquery):
            # A derived table stands for its rows: what it reads and filters is what the outer query reads and
            # filters. Its output columns belong to no table of the schema.
            inner = self.query(source.this)
            facts.tables.extend(table for table in inner.tables if table not in facts.tables)
            facts.filters.extend(inner.filters)
            # The rows of a grouped or DISTINCT subquery are its keys' values: counting them counts those.
            facts.inner_groups.extend(inner.group or (inner.shown if inner.distinct else []))
            if source.alias:
                scope[source.alias.lower()] = None

    def _select_item(self, item: exp.Expr, scope: dict, facts: _Facts) -> None:
        column = None
        if isinstance(item, exp.Star) or (isinstance(item, exp.Column) and isinstance(item.this, exp.Star)):
            facts.star = True
            facts.selected = None
        elif type(item) in _AGGREGATES:
            facts.aggregates.append(self._aggregate(item, scope, facts))
        elif item.find(*_AGGREGATES):
            facts.aggregates.append(_Aggregate("expression", None))
        elif isinstance(item, exp.Column):
            column = self._column(item, scope, facts)
            facts.shown.append(column)
        if facts.selected is not None:
            facts.selected.append(column)

    def _aggregate(self, node: exp.Expr, scope: dict, facts: _Facts) -> _Aggregate:
        argument = unwrap_paren(node.this)
        if isinstance(argument, exp.Distinct) and argument.expressions:
            argument = unwrap_paren(argument.expressions[0])
        column = self._column(argument, scope, facts) if isinstance(argument, exp.Column) else None
        return _Aggregate(_AGGREGATES[type(node)], column)

    def _column(self, node: exp.Column, scope: dict, facts: _Facts) -> _Column:
        name = node.name
        qualifier = node.table.lower() if node.table else None
        if qualifier is not None:
            table = scope.get(qualifier)
        elif self.names.known:
            table = next((key for key in facts.tables if (key, name.lower()) in self.names.lookup), None)
        else:
            table = facts.tables[0] if len(facts.tables) == 1 else None
        return self.names.column(table, name)

    def _conditions(self, node: exp.Expr, scope: dict, facts: _Facts) -> None:
        node = unwrap_paren(node)
        if isinstance(node, exp.And):
            self._conditions(node.this, scope, facts)
            self._conditions(node.expression, scope, facts)
            return
        found = self._filter(node, scope, facts)
        if found is not None:
            facts.filters.append(found)

    def _filter(self, node: exp.Expr, scope: dict, facts: _Facts) -> _Filter | None:
        """One AND-ed condition; None for a join equality between two columns."""
        negated = False
        while isinstance(node, exp.Not):
            negated = not negated
            node = unwrap_paren(node.this)
        left = unwrap_paren(node.this) if isinstance(node.this, exp.Expr) else None
        op = _COMPARISONS.get(type(node))
        if op is not None:
            right = unwrap_paren(node.expression)
            if isinstance(left, exp.Column) and isinstance(right, exp.Column):
                if op == "=" and not negated:
                    return None
                return _Filter(self._column(left, scope, facts), "other", (), negated)
            if not isinstance(left, exp.Column) and isinstance(right, exp.Column):
                left, right, op = right, left, _MIRRORED[op]
            values = _literals([right])
        elif isinstance(node, exp.Like):
            op = "like"
            negated ^= bool(node.args.get("negate"))
            values = _literals([node.expression])
        elif isinstance(node, exp.In):
            op = "in"
            values = () if node.args.get("query") is not None else _literals(node.expressions)
        elif isinstance(node, exp.Between):
            op = "between"
            values = _literals([node.args["low"], node.args["high"]])
        elif isinstance(node, exp.Is):
            op, values = "is", ()
        elif isinstance(node, exp.Or):
            return self._disjunction(node, scope, facts, negated)
        else:
            op, values, left = ("exists" if isinstance(node, exp.Exists) else "other"), (), None
        column = self._column(left, scope, facts) if isinstance(left, exp.Column) else None
        aggregate = self._aggregate(left, scope, facts) if type(left) in _AGGREGATES else None
        return _Filter(column, op, values, negated, aggregate)

    def _disjunction(self, node: exp.Or, scope: dict, facts: _Facts, negated: bool) -> _Filter:
        branches = [self._filter(branch, scope, facts) for branch in or_branches(node)]
        columns = {branch.column for branch in branches if branch is not None}
        column = columns.pop() if len(columns) == 1 and all(branch is not None for branch in branches) else None
        # `c = "US" or c = "China"` is `c in ("US", "China")`, and is worded so.
        if column is not None and all(branch.op in ("=", "in") and not branch.negated for branch in branches):
            values = tuple(value for branch in branches for value in branch.values)
            return _Filter(column, "in", values, negated)
        return _Filter(column, "or", (), negated)

    def _order_and_limit(self, node: exp.Expr, scope: dict, aliases: dict, facts: _Facts) -> None:
        order = node.args.get("order")
        for ordered in order.expressions if order is not None else ():
            key = unwrap_paren(ordered.this)
            if isinstance(key, exp.Column) and not key.table and key.name.lower() in aliases:
                key = unwrap_paren(aliases[key.name.lower()])
            descending = bool(ordered.args.get("desc"))
            if type(key) in _AGGREGATES:
                facts.order.append(_SortKey(None, self._aggregate(key, scope, facts), descending))
            elif isinstance(key, exp.Column):
                facts.order.append(_SortKey(self._column(key, scope, facts), None, descending))
            else:
                facts.order.append(_SortKey(None, None, descending))
        limit = node.args.get("limit")
        if limit is not None:
            facts.has_limit = True
            found = _literals([limit.expression])
            facts.limit = found[0] if found and isinstance(found[0], int) and found[0] > 0 else None


def _literals(nodes) -> tuple:
    found = []
    for node in nodes:
        node = unwrap_paren(node)
        negative = isinstance(node, exp.Neg)
        if negative:
            node = unwrap_paren(node.this)
        if not isinstance(node, exp.Literal):
            continue
        if node.is_string:
            found.append(node.this)
            continue
        try:
            number = float(node.this)
        except ValueError:
            continue
        number = -number if negative else number
        found.append(int(number) if number.is_integer() and abs(number) < 1e15 else number)
    return tuple(found)


# ---------------------------------------------------------------------------------------------------------------
# Applicability: one rule per relation, which also collects what its suggestion is written from
# ---------------------------------------------------------------------------------------------------------------


# The analyses of the queries read last, per schema object and query text: after an answer the room asks which
# categories apply and then words a suggestion of one, and a worker may ask for others, all from the same query and
# schema. An analysis is only read once made (the writer keeps what it uses in its own fields).
_analysis_kept = per_schema(lambda schema, previous_sql: _Analysis(previous_sql, schema), kept_at_most=64)


def _flags_read(previous_sql: str, schema: dict | None, statistics: Callable | None) -> dict | None:
    """`schema` with each number column that holds only 0 and 1 (its `statistics`) read as a yes/no flag, of every
    table (a suggestion may turn to any other table: "ask about the items instead, such as their own brand" named a
    flag of a table no foreign key joins to the query's as a detail): "chronic", "smoker", "on call" are conditions
    ("only those that are chronic"), never a detail ("their chronic") nor a number ("whose on call is below 1"). A
    name alone cannot tell them from a count or a measure; the values can."""
    if not isinstance(schema, dict) or statistics is None:
        return schema
    names = _schema_of(schema)
    try:
        _analysis_of(previous_sql, schema)
    except IntentError:
        return schema  # recommend says why with the schema as it is
    flags = []
    for number, (table, name) in enumerate(schema.get("column_names_original", ())):
        column = names.lookup.get((schema["table_names_original"][table].lower(), name.lower())) if table >= 0 else None
        if column is None or column.kind != "number" or column.is_key:
            continue
        if not _is_flag(column) and _zero_one(statistics(names.originals[column.table], column.original)):
            flags.append(number)
    return _flagged(schema, tuple(flags)) if flags else schema


def flags_read(sql: str, schema: dict | None, statistics: Callable | None) -> dict | None:
    """The one reading of yes/no columns by their values (`_flags_read`), for the response drafts too
    (`dialogs.assist.draft_for`): "whose on call is 1" is said as a state there as here."""
    return _flags_read(sql, schema, statistics)


def _zero_one(figures: Mapping | None) -> bool:
    """Whether a column's figures say it holds 0 and 1 only (and is not empty)."""
    if not figures or not figures.get("rows") or figures.get("distinct") not in (1, 2):
        return False
    return all(figures.get(end) in (0, 1) and not isinstance(figures.get(end), bool) for end in ("min", "max"))


def _flag_schema(schema: dict, flags: tuple[int, ...]) -> dict:
    """A copy of `schema` whose columns numbered `flags` are named as flags ("chronic" -> "chronic flag")."""
    copied = copy.deepcopy(schema)
    originals = copied["column_names_original"]
    readable = copied.get("column_names") or [[table, None] for table, _ in originals]
    for number in flags:
        label = column_phrase(_label(readable[number][1], originals[number][1]))
        readable[number] = [readable[number][0], f"{label} flag"]
    copied["column_names"] = readable
    return copied


# The flagged copies, kept per schema and flags: the schemas' readings downstream are kept per schema object.
_flagged = per_schema(_flag_schema)


def _analysis_of(previous_sql: str, schema: dict | None) -> _Analysis:
    return _analysis_kept(schema, previous_sql)


class _Analysis:
    """The previous query's facts and, per relation, the material a suggestion draws on (empty: not applicable)."""

    def __init__(self, previous_sql: str, schema: dict | None) -> None:
        if not isinstance(previous_sql, str) or not previous_sql.strip():
            raise IntentError("previous query is empty")  # i18n-exempt: the room logs it and offers none
        self.names = _schema_of(schema)
        try:
            tree = parse_sql(previous_sql)
        except SpiderEncodingError as error:
            raise IntentError(f"previous query: {error}") from None  # i18n-exempt: the room logs it and offers none
        except RecursionError:
            raise IntentError(  # i18n-exempt: the room logs it and offers none
                "previous query is nested too deeply"
            ) from None
        self.facts = facts = _Reader(self.names).query(tree)
        # every text the query compares with, on any side of a UNION: no other value suggested is one of them
        self.texts_named = frozenset(node.this for node in tree.find_all(exp.Literal) if node.is_string)
        self.listing = not facts.aggregates and not facts.group
        self.one_row = bool(facts.aggregates) and not facts.group
        self.entity = self._entity()
        self.seen: _Seen | None = None  # what the worker was shown, in a view of this analysis (`_seen_view`)
        self.material = {name: getattr(self, f"_{name.lower()}")() for name in _RELATION_ORDER}

    def _entity(self) -> list[str]:
        facts = self.facts
        grouped = [column.table for column in facts.group if column.table is not None]
        if grouped:
            found = list(dict.fromkeys(grouped))
        else:
            parents = {parent for child, parent in self.names.parents if child in facts.tables}
            found = [table for table in facts.tables if table not in parents] or facts.tables[:1]
            owners = {column.table for column in facts.shown} - {None}
            if not facts.aggregates and len(owners) == 1 and owners <= set(facts.tables) - self.names.links:
                # Stadiums joined with their concerts and shown by name are stadiums: "these stadiums".
                found = list(owners)
        # A relation table (has_amenity, lives_in) names no thing: its rows stand for the entities it links, those
        # the query reads first, else the first it points to.
        entity = []
        for table in found:
            if table not in self.names.links:
                entity.append(table)
                continue
            linked = self.names.linked.get(table, [])
            entity.extend([other for other in linked if other in facts.tables] or linked[:1])
        return list(dict.fromkeys(entity))

    def categories(self) -> list[str]:
        present = {CATEGORY_OF[name] for name in _RELATION_ORDER if self.material[name]}
        if self.combination_pairs():
            present.add(COMBINATION)
        return [name for name in CATEGORIES if name in present]

    def combination_pairs(self) -> dict[tuple[str, str], list[tuple[str, str]]]:
        """{(category, category): [(relation, relation), ...]} of the compatible pairs, categories in phrase order."""
        applicable = [name for name in _RELATION_ORDER if self.material[name] and CATEGORY_OF[name] in _COMBINABLE]
        pairs: dict = {}
        for first in applicable:
            for second in applicable:
                first_category, second_category = CATEGORY_OF[first], CATEGORY_OF[second]
                if _COMBINABLE.index(first_category) >= _COMBINABLE.index(second_category):
                    continue
                if first == "R5" and second in _DISPLAY_RELATIONS and not self.facts.group:
                    continue  # counting a listing leaves one row, which cannot be sorted or deduplicated
                if first in ("R4", "R7") and second in _DISPLAY_RELATIONS:
                    continue  # regrouped or listed rows are other rows: the previous query's sort keys may not exist

                pairs.setdefault((first_category, second_category), []).append((first, second))
        return pairs

    # -- the shown and the unshown ----------------------------------------------------------------------------

    def _unshown(self) -> list[_Column]:
        return self.names.descriptive(self.facts.tables, exclude=set(self.facts.shown))

    def _number_columns(self) -> list[_Column]:
        return [
            column
            for table in self.facts.tables
            for column in self.names.columns.get(table, ())
            if column.kind == "number"
            and not column.is_key
            and not _is_flag(column)  # "the average withdrawn flag", "the 3 with the lowest key account flag"
            and not _vague(column.label)
            and column.label.split()[0] not in _STATISTIC_WORDS
        ]

    def _entity_numbers(self) -> list[_Column]:
        """The number columns a figure "of these things" may read: the entity's own (a joined pet's weight is no
        student's), none when the rows counted are groups of a subquery (regions have no population of their own) or
        a set operation's."""
        if (self.facts.inner_groups and not self.facts.group) or self.facts.set_operation:
            return []  # the rows of a UNION are no one table's either
        return [column for column in self._number_columns() if column.table in self.entity]

    # -- Same Instances ---------------------------------------------------------------------------------------

    def _r1(self) -> list:
        facts = self.facts
        if self.one_row or facts.star:
            return []
        if not self.names.known:
            return [None]
        # A group shows one value per key, so only properties of the key's own table describe it; rows of a join are
        # described by their own table's details first ("these students, such as their age", not their pet's).
        own = self.names.descriptive(self.entity, exclude=set(facts.shown))
        if facts.group or [column for column in own if not column.is_key]:
            return own
        # Else a detail of what each row points to (a student's dorm), never of what points to it (a document
        # status has no receipt date: its documents do).
        parents = {parent for child, parent in self.names.parents if child in self.entity} & set(facts.tables)
        return self.names.descriptive(sorted(parents), exclude=set(facts.shown)) if parents else own

    def _r2(self) -> list:
        facts = self.facts
        shown = list(dict.fromkeys(facts.shown))
        options = [("drop", column) for column in shown] if len(shown) >= 2 else []
        if facts.star:
            every = [column for table in facts.tables for column in self.names.columns.get(table, ())]
            if len(every) >= 2:
                options += [("keep", column) for column in self.names.descriptive(facts.tables)]
        return options

    def _r3(self) -> list:
        facts = self.facts
        # A group key cannot be replaced without regrouping the rows, which is another question.
        replaceable = [column for column in dict.fromkeys(facts.shown) if column not in facts.group]
        if not replaceable:
            return []
        replacements = self._unshown() if self.names.known else [None]
        return [(old, new) for old in replaceable for new in replacements]

    def _r4(self) -> list:
        facts = self.facts
        if not facts.aggregates and not facts.shown:
            return []
        # Without an aggregate the rows are grouped and counted: R4 brings the count it needs.
        aggregates = facts.aggregates or [_Aggregate("count", None)]
        if not self.names.known:
            return [(aggregate, None) for aggregate in aggregates]
        aggregated = {aggregate.column for aggregate in facts.aggregates}
        shown = [column for column in dict.fromkeys(facts.shown) if not column.is_primary]
        # Grouped by the rows' own details first: "the number of stadiums per year" of a concert counts no stadium.
        unshown = [column for column in self.names.descriptive(self.entity) if not column.is_key] or [
            column for column in self.names.descriptive(facts.tables) if not column.is_key
        ]
        taken = set(facts.group) | set(facts.inner_groups) | aggregated  # groups of groups by the same key are one each
        keys = [column for column in dict.fromkeys(shown + unshown) if column not in taken]
        # Rows are grouped by categories more naturally than by measures ("per country" rather than "per age"); never
        # by free text ("per detention summary"): each row words it its own way.
        keys = [column for column in keys if column.label.lower().split()[-1] not in _FREE_TEXT]
        # nor by a name: "the number of teachers per last name", "of guardians per name" count no category
        keys = [column for column in keys if column.label.lower().split()[-1] not in _NAMING_WORDS | {"surname"}]
        keys = [column for column in keys if column.kind != "number"] or keys
        return [(aggregate, key) for aggregate in aggregates for key in keys]

    def _r5(self) -> list:
        facts = self.facts
        options = []
        if self.listing or (facts.group and not count_shown(facts, self.names)):
            options.append(("count", None))
        # A figure "of these students" is one of the students' own columns: a joined pet's weight is no student's.
        for column in self._entity_numbers():
            if not any(aggregate.column == column for aggregate in facts.aggregates):
                options.extend((function, column) for function in _functions_of(column, ("avg", "max", "min", "sum")))
        if self.listing or facts.group:
            return options
        # An ungrouped aggregate query gains a figure only from a column no aggregate reads yet.
        return [option for option in options if option[1] is not None]

    def _r6(self) -> list:
        options = []
        for aggregate in self.facts.aggregates:
            column = aggregate.column
            if column is None:
                if aggregate.function == "count":
                    # Counting the entity becomes a statistic of one of its own number columns (a joined table's
                    # column describes other things than those counted).
                    options.extend(
                        (aggregate, function, other)
                        for other in self._entity_numbers()
                        for function in _functions_of(other, _NUMBER_FUNCTIONS)
                    )
                continue
            if column.is_key:
                functions = ()  # the total or highest of an id means nothing
            elif column.kind in ("number", "unknown"):
                functions = _functions_of(column, _NUMBER_FUNCTIONS)
            elif aggregate.function in _ORDER_FUNCTIONS:
                functions = _ORDER_FUNCTIONS
            else:
                functions = ()
            options.extend((aggregate, function, column) for function in functions if function != aggregate.function)
        return options

    def _r7(self) -> list:
        return list(self.facts.aggregates)

    # -- Different Instances of the Same Entity ---------------------------------------------------------------

    def _r8(self) -> list:
        facts = self.facts
        if any(
            item.op == "=" and not item.negated and item.column is not None and item.column.is_primary
            for item in facts.filters
        ):
            return []
        if not self.names.known:
            return list(dict.fromkeys(facts.shown)) or [None]
        # A column an equality already fixes cannot narrow the rows down (flight 28 "and above 29" is none of them).
        fixed = {item.column for item in facts.filters if item.op in ("=", "in") and not item.negated}
        # Narrowing by an identifier (a flight number) is no question anyone asks: without a describing column the
        # worker is asked for "only some of these" in their own words.
        describing = [column for column in self.names.descriptive(facts.tables, flags=True) if not column.is_key]
        return [column for column in describing if column not in fixed] or [None]

    def _r9(self) -> list:
        return list(self.facts.filters)

    def _r10(self) -> list:
        return [item for item in self._value_filters() if not self._of_other_table(item)]

    def _value_filters(self) -> list[_Filter]:
        return [
            item for item in self.facts.filters if item.column is not None and item.op in _VALUE_OPS and item.values
        ]

    def _of_other_table(self, item: _Filter) -> bool:
        """Whether a filter is on a column of a joined table rather than of the entity's own (known) tables."""
        return self.names.known and item.column.table is not None and item.column.table not in self.entity

    def _r11(self) -> list:
        return list(self.facts.filters)

    def _r12(self) -> list:
        facts = self.facts
        if not facts.filters:
            return []
        if not self.names.known:
            return [("column", None)]
        used = {item.column for item in facts.filters}
        others = [
            column
            for column in self.names.descriptive(facts.tables, exclude=used, flags=True)
            if not column.is_key and not _catch_all(column)
        ]
        # Another value of a joined table's column picks instances that may have both (Table 12: students taking
        # "Python" or "C++").
        swaps = [item for item in self._value_filters() if self._of_other_table(item)]
        return [("column", column) for column in others] + [("value", item) for item in swaps]

    # -- Different Entity -------------------------------------------------------------------------------------

    def _r13(self) -> list:
        if not self.names.known:
            return []
        entity = set(self.entity)
        linked = set().union(*(self.names.neighbours.get(table, set()) for table in self.facts.tables))
        # Through a relation table, the entities it links are neighbours (students take courses).
        linked |= {other for table in linked & self.names.links for other in self.names.linked.get(table, ())}
        # and so are those a table named by what it links joins (the people of the addresses, via people addresses)
        linked |= {other for table in linked & self.names.joins for other in self.names.linked.get(table, ())}
        ordered = [table for table in self.facts.tables if table not in entity]
        ordered += [table for table in self.names.columns if table in linked and table not in entity]
        ordered += [table for table in self.names.columns if table not in entity]
        preferred = [
            table for table in dict.fromkeys(ordered) if table not in _INTERNAL_TABLES and table not in self.names.links
        ]
        # Tables of the query or linked to it come first: the question stays about the same rows' neighbourhood.
        near = [table for table in preferred if table in set(self.facts.tables) | linked]
        return near or preferred

    # -- Display ----------------------------------------------------------------------------------------------

    def _r14(self) -> list:
        facts = self.facts
        if facts.order or self.one_row:
            return []
        keys = self._sort_keys()
        if facts.star or not keys:
            keys += [_SortKey(column, None, True) for column in self.names.descriptive(facts.tables)]
        # Without a schema a `select *` names nothing to sort by; the worker picks the key.
        return list(dict.fromkeys(keys)) or [_SortKey(None, None, True)]

    def _r15(self) -> list:
        facts = self.facts
        if not facts.order and not facts.has_limit:
            return []
        options = []
        if facts.order:
            options.append(("flip", facts.order[0]))
            current = {(key.column, key.aggregate) for key in facts.order}
            others = [key for key in self._sort_keys() if (key.column, key.aggregate) not in current]
            options.extend(("key", key) for key in others)
        if facts.limit is not None:
            options.append(("limit", facts.limit))
        return options

    def _sort_keys(self) -> list[_SortKey]:
        """What a result can be sorted by: its figures, its columns, and in a listing the number columns."""
        facts = self.facts
        keys = [_SortKey(None, aggregate, True) for aggregate in facts.aggregates if aggregate.function != "expression"]
        keys += [_SortKey(column, None, True) for column in dict.fromkeys(facts.shown)]
        if self.listing:
            keys += [_SortKey(column, None, True) for column in self._number_columns()]
        return list(dict.fromkeys(keys))

    def _r16(self) -> list:
        facts = self.facts
        if facts.distinct or not self.listing or facts.star or not facts.shown or facts.limit == 1:
            return []  # one row (LIMIT 1) has no repeats to remove
        if any(column.is_primary and column.table in self.entity for column in facts.shown):
            return []
        return list(dict.fromkeys(facts.shown))


# ---------------------------------------------------------------------------------------------------------------
# What the worker was shown: suggestions that lead somewhere
# ---------------------------------------------------------------------------------------------------------------


class _Seen:
    """The result the worker was just shown and the columns' statistics, as far as they are known."""

    def __init__(self, facts: _Facts, result: Mapping | None, statistics: Callable | None, names: _Schema) -> None:
        rows = result.get("rows") if isinstance(result, Mapping) else None
        self.rows = (
            [list(row) if isinstance(row, list | tuple) else [row] for row in rows] if rows is not None else None
        )
        total = result.get("total_rows") if isinstance(result, Mapping) else None
        cut = bool(result.get("truncated")) if isinstance(result, Mapping) else False
        self.complete = self.rows is not None and not cut and (total is None or total == len(self.rows))
        # The room says how many rows came back (all of them, or "showing 100 of 4,079"): a count of them is in view.
        self.counted = self.complete or (self.rows is not None and _whole(total))
        self.selected = facts.selected
        self._statistics = statistics
        self._names = names
        self._kept: dict = {}

    @property
    def few(self) -> bool:
        """At most one row, all of it shown: nothing to narrow, sort, count or deduplicate."""
        return self.complete and len(self.rows) <= 1

    @property
    def at_a_glance(self) -> bool:
        """A handful of rows, all shown: the worker reads them at once, and no order makes them easier to read."""
        return self.complete and len(self.rows) <= _AT_A_GLANCE

    def numeric(self, column: _Column | None) -> bool:
        """Whether a column holds numbers: a number column, or a text one whose lowest value reads as a number
        (horsepower kept as text: text sorts digits before letters, so a column of words never has one as its
        lowest)."""
        if column is None:
            return False
        if column.kind == "number":
            return True
        low = self.stats(column).get("min")
        return column.kind in ("text", "unknown") and isinstance(low, str) and _reads_as_number(low)

    def code_number(self, column: _Column | None) -> bool:
        """Whether a number column holds another table's keys although the schema declares no foreign key (a
        country's capital as a city id): whole numbers, nearly all different, spread over the range of another
        table's whole-number primary key. Its highest, lowest, average or order means nothing to a person."""
        if column is None or column.is_key or column.kind != "number":
            return False
        figures = self.stats(column)
        rows, distinct, low, high = (figures.get(name) for name in ("rows", "distinct", "min", "max"))
        if not all(_whole(value) for value in (rows, distinct, low, high)):
            return False
        if rows < _CODE_ROWS_AT_LEAST or distinct <= _UNIQUE_SHARE * rows:
            return False
        for table, columns in self._names.columns.items():
            if table == column.table:
                continue
            for key in columns:
                if not key.is_primary or key.kind != "number":
                    continue
                key_figures = self.stats(key)
                key_low, key_high = key_figures.get("min"), key_figures.get("max")
                if _whole(key_low) and _whole(key_high) and key_low <= low and high <= key_high <= 2 * high:
                    return True
        return False

    def stats(self, column: _Column | None) -> Mapping:
        if column is None or column.table is None or self._statistics is None or not self._names.known:
            return {}
        key = (column.table, column.original)
        if key not in self._kept:
            try:
                found = self._statistics(self._names.originals[column.table], column.original)
            except Exception:  # noqa: BLE001 - figures are a help: without them every option stays
                found = None
            self._kept[key] = found if isinstance(found, Mapping) else {}
        return self._kept[key]

    def says_nothing(self, column: _Column | None) -> bool:
        """Whether asking for the column's values tells nothing: every row holds the same value (every address's
        country is USA, every template's details are empty) or none, or free text holds single letters."""
        figures = self.stats(column)
        rows, distinct, low, high = (figures.get(name) for name in ("rows", "distinct", "min", "max"))
        if not _whole(rows) or not _whole(distinct):
            return False
        if rows == 0 or (rows > 1 and distinct <= 1):
            return True
        free = column.label.lower().split()[-1] in _FREE_TEXT
        return free and all(isinstance(value, str) and len(value.strip()) <= 1 for value in (low, high))

    def table_rows(self, analysis: _Analysis) -> int:
        """How many rows the query's first table holds, by its columns' figures (0 when unknown)."""
        table = analysis.facts.tables[0] if analysis.facts.tables else None
        for column in analysis.names.columns.get(table, ()):
            rows = self.stats(column).get("rows")
            if _whole(rows):
                return int(rows)
        return 0

    def unique_or_constant(self, column: _Column) -> bool:
        """Whether the column's values are (nearly) all different, or all the same: no group, no narrowing."""
        figures = self.stats(column)
        rows, distinct = figures.get("rows"), figures.get("distinct")
        if not isinstance(rows, int) or not isinstance(distinct, int) or rows <= 0:
            return False
        return distinct <= 1 or distinct > _UNIQUE_SHARE * rows

    def all_different(self, column: _Column | None) -> bool:
        """Whether every value the column holds is different from the others (dorm names): shown, they never
        repeat."""
        figures = self.stats(column)
        rows, distinct = figures.get("rows"), figures.get("distinct")
        return _whole(rows) and _whole(distinct) and rows > 1 and distinct >= rows

    def groups_of_one(self) -> bool:
        """Whether a grouped result's count shows one row in most groups (a count per lap time: 2,067 of 2,123 groups
        hold one row): a figure of each group is its one row's value."""
        selected = self.selected or []
        if self.rows is None or selected.count(None) != 1:
            return False
        position = selected.index(None)
        counts = [row[position] for row in self.rows if position < len(row)]
        return len(counts) > 1 and sum(1 for value in counts if value == 1) > _UNIQUE_SHARE * len(counts)

    def shown_values(self, column: _Column) -> list | None:
        """The values the result showed for `column`, or None when it did not show it (or cannot be told)."""
        if self.rows is None or self.selected is None or column not in self.selected:
            return None
        position = self.selected.index(column)
        return [row[position] for row in self.rows if position < len(row)]

    def in_order(self, key: _SortKey) -> bool:
        """Whether the shown rows already run A to Z on `key`'s text column (three rows or more): sorting them
        "alphabetically" changes nothing."""
        shown = self.shown_values(key.column) if key.column is not None else None
        if shown and None in shown:
            # an empty value comes first in SQLite's order ("None, 1; DE, 2; FR, 2" per nationality): the others
            # after it still run A to Z
            rest = list(itertools.dropwhile(lambda value: value is None, shown))
            if None in rest:
                return False
            shown = rest
        if not shown or len(shown) < _ORDER_ROWS_AT_LEAST or not all(isinstance(value, str) for value in shown):
            return False
        return shown == sorted(shown, key=str.casefold)  # text is sorted "alphabetically": A to Z

    def one_value_shown(self, column: _Column) -> bool:
        shown = self.shown_values(column)
        return shown is not None and len(shown) > 0 and len({repr(value) for value in shown}) == 1

    def repeats(self, columns: list[_Column]) -> bool | None:
        """Whether the shown rows repeat (on `columns` when the result's columns are known); None when unknown."""
        if self.rows is None:
            return None
        positions = (
            [self.selected.index(column) for column in columns if column in self.selected] if self.selected else []
        )
        keys = [tuple(repr(row[p]) for p in positions if p < len(row)) if positions else repr(row) for row in self.rows]
        return len(set(keys)) < len(keys)

    def empty_side(self, column: _Column | None, op: str, value) -> bool:
        """Whether `column op value` holds for no row, by the column's lowest and highest value."""
        figures = self.stats(column)
        low, high = figures.get("min"), figures.get("max")
        if not isinstance(value, Real) or not isinstance(low, Real) or not isinstance(high, Real):
            return False
        return {
            ">": value >= high,
            ">=": value > high,
            "<": value <= low,
            "<=": value < low,
        }.get(op, False)

    def count_shown(self) -> int | None:
        """The number a one-row count showed, when it is one."""
        if self.rows is not None and self.complete and len(self.rows) == 1 and len(self.rows[0]) == 1:
            value = self.rows[0][0]
            return value if isinstance(value, int) and not isinstance(value, bool) else None
        return None


_AFTER_NOTHING = frozenset({"R9", "R10", "R11", "R12", "R13"})
# How many times a combination's second change is drawn again when it names the first change's column.
_MODIFIER_DRAWS = 4
# Up to this many rows, all shown, are read at a glance: sorting them helps nobody.
_AT_A_GLANCE = 5
# A listing of more rows than this is nothing a person reads ("list each population" of 4,079 cities).
_LIST_AT_MOST = 100
# A number column grouped by with more values than this is a measure, not a category ("the number of cars per mpg").
_NUMBER_GROUPS_AT_MOST = 20
# A statistic ("the average grade") of fewer rows than this is those rows' values: list them rather than figure them.
_FIGURE_ROWS_AT_LEAST = 3
# Rows that must be shown in an order before it is taken for the result's own order (two are in some order by chance).
_ORDER_ROWS_AT_LEAST = 3
# A column of keys without a declared foreign key is told only in a table this large (small tables' numbers fit any
# range by chance).
_CODE_ROWS_AT_LEAST = 20


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _reads_as_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _functions_of(column: _Column, functions: tuple) -> tuple:
    """The statistics a column can have: a point in time has a latest and an earliest, never a total or an average
    ("the total year")."""
    words = column.label.lower().split()
    if column.kind == "time" or _time_word(column.label) in _TIME_WORDS | _PLACES or words[-1] in _BANDS:
        # "the average longitude"; "the average year group", "the total pay scale": a band is a rank, not a measure
        return tuple(function for function in functions if function in _ORDER_FUNCTIONS)
    if words[-1] in _NOT_ADDITIVE or _PER_UNIT & set(words[:-1]):
        return tuple(function for function in functions if function != "sum")  # "the total rating", "unit price"
    return functions


def _function_word(function: str, column: _Column) -> str:
    """ "the highest age", but "the latest year": a point in time is late or early."""
    if column.kind == "time" or _time_word(column.label) in _TIME_WORDS:
        return {"max": "latest", "min": "earliest"}.get(function, _FUNCTION_WORDS[function])
    return _FUNCTION_WORDS[function]


def _counts_things(column: _Column) -> bool:
    """Whether a number column counts what its name says in the plural ("followers", "seats", "days held", "years
    working"): many or few of them, never "high" ("the highest followers")."""
    words = column.label.lower().split()
    if column.kind == "time" or not words or words[0] in {"number", "total", "average"} | _STATISTIC_WORDS:
        return False
    if len(words) == 2 and words[0].removesuffix("s") in _SPAN_UNITS and participle(words[1], present=True):
        return _time_word(column.label) != "year"  # "days held": a span counted in days; "year founded" is a point
    # the head noun ends before a preposition: a "rank in series" is a rank
    head = next((position for position, word in enumerate(words) if word in _PREPOSITION_ENDS), len(words))
    last = words[max(head - 1, 0)]
    if last in _NOT_ADDITIVE | _UNIT_ENDS | _BARE_UNITS | _AMOUNT_PLURALS or participle(last, present=True):
        return False
    return is_plural(last) and singular_word(last) != last  # "series", "species": no plural of their own


def _figure(function: str, column: _Column) -> str:
    """A statistic of a column in words: "the highest age", "the latest year", and of a count "the most followers",
    "the fewest years working", "the average number of seats"."""
    if _counts_things(column):
        return {
            "max": f"the most {column.label}",
            "min": f"the fewest {column.label}",
            "avg": f"the average number of {column.label}",
            "sum": f"the total number of {column.label}",
        }[function]
    return f"the {_function_word(function, column)} {column.label}"


def _span(label: str) -> str:
    """ "year working" -> "years working": a unit of time before a present participle counts the units spent so; it
    is no point in time ("year built" is one, and stays)."""
    words = label.split()
    if len(words) == 2 and words[0].lower() in _SPAN_UNITS and words[1].lower().endswith("ing"):
        return f"{plural_word(words[0])} {words[1]}"
    return label


def _holding(numbers: list, op: str, value: str) -> int:
    """How many of `numbers` meet `> value` or `< value`."""
    try:
        bound = float(value)
    except ValueError:
        return 0
    return sum(1 for number in numbers if (number > bound if op == ">" else number < bound))


def _ordinal(key: _SortKey, seen: _Seen) -> bool:
    """Whether the first rows by `key` are "the highest" or "the latest" of something: a figure, a number or a time."""
    if key.aggregate is not None:
        return True
    column = key.column
    return column is not None and (
        _time_word(column.label) in _TIME_WORDS or column.kind == "time" or seen.numeric(column)
    )


_FLIPPED = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}


def _seen_view(analysis: _Analysis, result: Mapping | None, statistics: Callable | None) -> _Analysis:
    """`analysis` with the material that leads nowhere after what the worker saw left out: no group by a column
    whose values are all different or all the same (a count per name is 1 each), no narrowing of one row or of a
    count of one, nor to a column the result shows with one value or whose values are all different, nor to a
    range the column's lowest or highest value shows empty; no "without repeats" when the rows do not repeat, no
    order or count of one row. Without a result and statistics, the analysis as it is."""
    if result is None and statistics is None:
        return analysis
    seen = _Seen(analysis.facts, result, statistics, analysis.names)
    material = dict(analysis.material)
    count = seen.count_shown() if analysis.one_row else None
    nothing_to_narrow = (seen.few and not analysis.one_row) or (count is not None and count <= 1)

    def keeps(column: _Column | None) -> bool:
        return column is None or not (seen.unique_or_constant(column) or seen.one_value_shown(column))

    material["R4"] = [(aggregate, key) for aggregate, key in material["R4"] if keeps(key) and not _is_flag(key)]
    material["R5"] = [] if seen.few and analysis.listing else material["R5"]  # a figure of one row is that row's
    material["R11"] = [
        item
        for item in material["R11"]
        if not (
            item.op == "=" and item.column is not None and (item.column.is_key or seen.unique_or_constant(item.column))
        )
    ]  # "all but the airport with code DYS" is every other row: nobody asks that
    kept = len(seen.rows) if analysis.listing and seen.complete else 0
    if 0 < kept * _REST_SHARE_AT_LEAST < seen.table_rows(analysis):
        # "the rest: those whose guardian name does not contain Mr Hu" listing 5 of 410 guardians: every other row
        # (the rest of a count is a count, and asked for)
        material["R11"] = [item for item in material["R11"] if item.op not in ("=", "like", "in")]
    # narrowing groups that are all in view by their own key shows rows already shown ("only those whose grade is
    # below 12" of the 4 grades and their counts)
    in_view = set(analysis.facts.group) if seen.complete else set()
    narrowing = [column for column in material["R8"] if keeps(column) and column not in in_view]
    material["R8"] = [] if nothing_to_narrow else narrowing
    material["R10"] = [
        item
        for item in material["R10"]
        if not (item.op in _FLIPPED and item.values and seen.empty_side(item.column, _FLIPPED[item.op], item.values[0]))
        and not (item.op == "=" and item.column is not None and item.column.is_key)  # "another airport code"
        and not _is_flag(item.column)  # "another official flag": a yes/no has only the rest (R11)
    ]
    # nor another value of a joined table's flag ("ask about another main in charge flag instead")
    material["R12"] = [option for option in material["R12"] if option[0] != "value" or not _is_flag(option[1].column)]
    material["R12"] = (
        []
        if nothing_to_narrow
        else [
            (kind, detail)
            for kind, detail in material["R12"]
            if kind != "column" or (keeps(detail) and detail not in in_view)
        ]
    )
    if seen.few:
        material["R14"] = []
        if analysis.listing:
            material["R4"] = []  # "the number of departments per wing" of one department: one group of 1
        if analysis.facts.group:
            material["R7"] = []  # "just the languages, without the number of cartoons" of English, 4: less of one row
    if analysis.facts.group and seen.complete:
        # "just the guardian names, without the number of guardians" of the 59 groups in view: the names are shown
        # already; the same rows without their figure show less than was shown
        material["R7"] = []
    if material["R16"] and seen.repeats(material["R16"]) is False:
        material["R16"] = []
    material["R9"] = [
        item for item in material["R9"] if not (item.op == "=" and item.column is not None and item.column.is_key)
    ]  # "drop the condition on their airport code" is every airport
    material["R11"] = [
        item
        for item in material["R11"]
        if (item.column is None or not item.column.is_key)
        and not (
            item.op in _FLIPPED and item.values and seen.empty_side(item.column, _FLIPPED[item.op], item.values[0])
        )
    ]  # "the rest: those whose level is above 3" when 3 is the highest level is nobody
    for name in ("R9", "R10", "R11"):
        # "whose average is below 1000": a condition on a column whose name says nothing is no suggestion; nor is
        # one against a subquery's rows ("the condition on their college name" for "no goalie tryout")
        material[name] = [
            item
            for item in material[name]
            if (item.column is None or not _vague(item.column.label) and not _catch_all(item.column))
            and not _against_rows(item)
        ]
    material.update(_readable_material(material))
    material.update(_names_kept(analysis, material))
    material.update(_things_named(analysis, material))
    material.update(_details_worth_asking(analysis, seen, material))
    material.update(_orders_worth_asking(analysis, seen, material))
    material.update(_figures_worth_asking(analysis, seen, material, count))
    if seen.complete and (len(seen.rows) == 0 or count == 0):
        # Nothing came back: another detail, order or figure of nothing is nothing. Only other rows can help.
        material = {name: options if name in _AFTER_NOTHING else [] for name, options in material.items()}
    view = copy.copy(analysis)
    view.material = material
    view.seen = seen
    return view


def _catch_all(column: _Column) -> bool:
    """A text column named by a storage word ("student details", "other data", "info"): its name does not say what
    it holds, any row holds anything (first names, here), so a condition on one ("whose student details are Marry")
    says nothing a worker can picture. Free text named by what it is ("paragraph text", "description") can still be
    matched."""
    words = column.label.lower().split()
    return column.kind != "number" and bool(words) and words[-1] in STORAGE_WORDS


def _against_rows(condition: _Filter) -> bool:
    """Whether a condition compares its column with a subquery's rows (IN or EXISTS with no literal): it is a
    condition on the other table, which its column does not name."""
    return condition.op in ("in", "exists") and not condition.values


def _said(column: _Column | None) -> bool:
    return column is None or not _vague(column.label)


def _readable_material(material: dict) -> dict:
    """The options whose column a text can name: never a name a worker cannot read ("their acc home", "sorted by
    their number of shaff in charge"; `_vague`), whatever the change."""

    def keyed(key: _SortKey) -> bool:
        return _said(key.column) and (key.aggregate is None or _said(key.aggregate.column))

    return {
        "R1": [column for column in material["R1"] if _said(column)],
        "R2": [(kind, column) for kind, column in material["R2"] if _said(column)],
        "R3": [(old, new) for old, new in material["R3"] if _said(new)],
        "R4": [(aggregate, key) for aggregate, key in material["R4"] if _said(key) and _said(aggregate.column)],
        "R5": [(function, column) for function, column in material["R5"] if _said(column)],
        "R6": [option for option in material["R6"] if _said(option[2])],
        "R8": [column for column in material["R8"] if _said(column)],
        "R12": [
            (kind, detail)
            for kind, detail in material["R12"]
            if _said(detail.column if isinstance(detail, _Filter) else detail)
        ],
        "R14": [key for key in material["R14"] if keyed(key)],
        "R15": [
            (kind, detail) for kind, detail in material["R15"] if not isinstance(detail, _SortKey) or keyed(detail)
        ],
        "R16": [column for column in material["R16"] if _said(column)],
    }


def _names_kept(analysis: _Analysis, material: dict) -> dict:
    """A listing keeps the column that names its rows: neither dropped ("the same tracks without their name") nor
    swapped for another detail ("their height instead of their name"); the other details tell nothing without it."""
    if not analysis.listing:
        return {}

    def naming(column: _Column | None) -> bool:
        return column is not None and column.label.split()[-1] in _NAMING_WORDS

    return {
        "R2": [(kind, column) for kind, column in material["R2"] if kind == "keep" or not naming(column)],
        "R3": [(old, new) for old, new in material["R3"] if not naming(old)],
    }


def _things_named(analysis: _Analysis, material: dict) -> dict:
    """Rows a person can tell apart and tables a person can read: another entity is never one whose name has a word
    nobody reads ("the cmi cross references"); of every detail, one kept alone is the rows' name when they have one
    (a city's population alone, without its name, tells nothing); and counted rows are listed "themselves" only when
    they have a name (a listing of enrolments is a listing of ids)."""
    names = analysis.names
    if not names.known:
        return {}
    keeps = [(kind, column) for kind, column in material["R2"] if kind == "keep"]
    naming = [(kind, column) for kind, column in keeps if column.label.split()[-1] in _NAMING_WORDS]
    named = any(
        column.label.split()[-1] in _NAMING_WORDS
        for table in analysis.entity
        for column in names.columns.get(table, ())
    )
    facts = analysis.facts

    def listable(aggregate: _Aggregate) -> bool:
        themselves = (
            not facts.group
            and aggregate.function == "count"
            and (aggregate.column is None or aggregate.column.is_key)
            and not facts.set_operation
            and not facts.inner_groups
        )
        return named or not themselves

    return {
        # nor one named by a verb ("the works on, such as their hours"): its rows are no things of their own
        "R13": [
            table
            for table in material["R13"]
            if not _unread_table(names.labels.get(table, ""))
            and not _is_link(names.labels.get(table, ""), names.things_beside(table))
            and not _starts_with_preposition(names.labels.get(table, ""))
            and table not in names.pairings
        ],
        "R2": [option for option in material["R2"] if option[0] != "keep" or not naming or option in naming],
        "R7": [aggregate for aggregate in material["R7"] if listable(aggregate)],
    }


def _starts_with_preposition(label: str) -> bool:
    """A table named by a state ("on call", "in stock"): its rows are times someone was on call, no things a worker
    asks about as such ("ask about the on calls instead")."""
    words = label.lower().split()
    return len(words) >= 2 and words[0] in _PREPOSITION_ENDS  # noqa: PLR2004


def _values_only(analysis: _Analysis) -> bool:
    """A DISTINCT listing of no key: its rows are values ("BUS", "A&SCI"), not things with details or groups."""
    facts = analysis.facts
    names = analysis.names
    return (
        facts.distinct
        and analysis.listing
        and not any(
            column.is_primary or (column.table, column.original.lower()) in names.references for column in facts.shown
        )
    )


def _details_worth_asking(analysis: _Analysis, seen: _Seen, material: dict) -> dict:
    """Details to add, swap in or narrow by that tell the worker something: never a column an equality of the query
    fixes (the question gave it: "their airline name" of United Airlines), nor a number that is another table's key
    ("their capital" as a city id); a swap names the entity's own detail first ("their concert name instead of their
    name" of stadiums is two things' names); no narrowing of a listed column to one of its words (the result would
    show that word on every row)."""
    facts = analysis.facts
    fixed = {
        item.column
        for item in facts.filters
        if item.column is not None
        and not item.negated
        and (item.op == "=" or (item.op == "in" and len(item.values) == 1))
    }

    def tells(column: _Column | None) -> bool:
        return column is None or (
            column not in fixed
            and not seen.code_number(column)
            and not seen.says_nothing(column)
            and not _vague(column.label)
            and not _catch_all(column)  # "ask for their student details too": of what, the name does not say
        )

    grouped_by_key = all(column.is_primary for column in facts.group)  # only an entity's key makes rows of it
    swaps = [
        (old, new)
        for old, new in material["R3"]
        if tells(new)
        and not (new is not None and new.is_key)  # "their student id instead of their semester id"
        and (grouped_by_key or new is None)  # a group of pet types has no one pet age
        and not (facts.group and new is not None and new.table not in {key.table for key in facts.group})
    ]
    own = [(old, new) for old, new in swaps if new is not None and new.table in analysis.entity]
    shown = set(facts.shown)
    listed = shown if len(shown) == 1 and not facts.aggregates else set()

    counted = {aggregate.column for aggregate in facts.aggregates if aggregate.function == "count"}

    def narrows(column: _Column | None) -> bool:
        if column in facts.inner_groups or (column in facts.group and not seen.numeric(column)):
            return False  # counted regions narrowed to one region are one; so is one continent of a row per continent
        if column in counted and not seen.numeric(column) and column.kind != "time":
            return False  # the number of languages, only those whose language is Spanish: one
        return column not in listed or seen.numeric(column) or column.kind == "time"

    if facts.mixed_tables:
        return {"R1": [], "R3": [], "R8": [], "R12": []}  # first names of owners and professionals: whose city?
    values_only = _values_only(analysis)  # school codes have no department address
    used = {item.column for item in facts.filters}  # "age below 19" of those above 20 is nobody
    shown_tables = {column.table for column in facts.shown}
    own_things = {_rows_of(analysis.names.labels.get(table, "")) for table in shown_tables | set(analysis.entity)}
    return {
        # "the semesters" of semesters shown; nor a table said as the rows' own things ("the schools" of school
        # details after schools)
        "R13": [
            table
            for table in material["R13"]
            if table not in shown_tables and _rows_of(analysis.names.labels.get(table, "")) not in own_things
        ],
        "R1": [
            column
            for column in material["R1"]
            if tells(column) and not (column is not None and column.is_key) and grouped_by_key and not values_only
        ],
        # another table's detail "instead of their name" is a detail of other things ("their full name" of makers)
        "R3": [] if values_only else own or [(old, new) for old, new in swaps if new is None],
        # "only some of these flights", with no detail to narrow by, leads nowhere when the schema has none
        "R8": [
            column
            for column in material["R8"]
            if (column is None and not analysis.names.known)
            or (column is not None and column not in used and narrows(column))
        ],
        "R12": [(kind, detail) for kind, detail in material["R12"] if kind != "column" or narrows(detail)],
    }


def _orders_worth_asking(analysis: _Analysis, seen: _Seen, material: dict) -> dict:
    """Orders that help: never by an identifier or another table's key ("by their student id", "the 3 with the
    highest id"), no order of rows read at a glance, and after a LIMIT only a key whose first rows are "the highest" or
    "the latest" of something (one row "sorted the other way round" or "by their name instead" is still one row)."""

    def sortable(key: _SortKey) -> bool:
        if key.column is not None and key.aggregate is None and _unordered(key.column, seen):
            return False  # "sort them alphabetically by their email"
        return key.column is None or not (key.column.is_key or seen.code_number(key.column))

    def reorders(option: tuple) -> bool:
        kind, detail = option
        if kind == "limit":
            return True
        if not sortable(detail):
            return False
        return _ordinal(detail, seen) if analysis.facts.has_limit else not seen.at_a_glance

    def new_order(key: _SortKey) -> bool:
        # "sort them alphabetically by their drug name" of names a UNION already returned in that order
        return key.column is None or key.aggregate is not None or seen.numeric(key.column) or not seen.in_order(key)

    return {
        "R14": [] if seen.at_a_glance else [key for key in material["R14"] if sortable(key) and new_order(key)],
        "R15": [option for option in material["R15"] if reorders(option)],
    }


def _unordered(column: _Column, seen: _Seen) -> bool:
    """Whether a column's text values have no order worth asking for (e-mails, colours, addresses): sorted
    alphabetically they are the same values shuffled."""
    words = column.label.lower().split()
    return bool(words) and words[-1] in _UNORDERED_WORDS and column.kind != "time" and not seen.numeric(column)


def _figures_worth_asking(analysis: _Analysis, seen: _Seen, material: dict, count: int | None) -> dict:
    """Figures and groups a person wants: no statistic of another table's key ("the average capital"), no group by a
    number with many values ("the number of cars per mpg"), and no listing of thousands in place of a figure ("list
    each population" of 4,079 cities; a count shown tells how many rows a listing would have)."""
    facts = analysis.facts

    fixed = {item.column for item in facts.filters if item.op == "=" and not item.negated}
    # Tables one row of which each group is: grouped by a customer's id (or an order's customer id), a customer's
    # gender splits no group ("the number of bookings per customer, per gender as well").
    determined = {column.table for column in facts.group if column.is_primary}
    determined |= {analysis.names.references.get((column.table, column.original.lower())) for column in facts.group}
    determined |= {column.table for column in facts.group if seen.all_different(column)}  # a station's name

    def grouping(key: _Column | None) -> bool:
        if key is None:
            return True
        if seen.code_number(key) or key in fixed or (facts.group and key.table in determined):
            return False  # students filtered to one sex are one group per sex
        if (key.kind == "time" or _time_word(key.label) in _TIME_WORDS) and _time_word(key.label) != "year":
            return False  # "per registration date": a date is a point, not a group
        figures = seen.stats(key)
        if figures.get("distinct") == 2 and figures.get("min") == 0 and figures.get("max") == 1:
            return False  # "per user login" of zeros and ones: a yes/no in a number
        distinct = seen.stats(key).get("distinct")
        return not (seen.numeric(key) and _whole(distinct) and distinct > _NUMBER_GROUPS_AT_MOST)

    def few_to_list(aggregate: _Aggregate) -> bool:
        if facts.group:
            return True
        if aggregate.function == "count" or aggregate.column is None:
            return count is None or count <= _LIST_AT_MOST
        rows = seen.stats(aggregate.column).get("rows")
        return bool(facts.filters) or not _whole(rows) or rows <= _LIST_AT_MOST

    # Fewer rows than a statistic needs: "the average grade" of the 2 arrangements is their two grades.
    few_rows = (count is not None and count < _FIGURE_ROWS_AT_LEAST) or (
        analysis.listing and seen.complete and len(seen.rows) < _FIGURE_ROWS_AT_LEAST
    )
    # "the lowest position of each q3": a group said by a name nobody reads is no group to ask about; groups of one
    # row each have no figure per group worth asking
    vague_groups = any(_vague(key.label) for key in facts.group if not key.is_key)
    one_each = bool(facts.group) and seen.groups_of_one()

    def one_value(column: _Column | None) -> bool:
        """A figure per group of a column each group holds one value of: the group key itself ("the average grade"
        per grade), or a detail of the one thing a group is ("the highest number of platforms" per station)."""
        return bool(facts.group) and column is not None and (column in facts.group or column.table in determined)

    def read_off(column: _Column | None) -> bool:
        """The highest or lowest of a column whose every value is in view at a glance ("the highest August
        temperature" of the three shown): read off the result, no question."""
        shown = seen.shown_values(column) if column is not None and analysis.listing and seen.at_a_glance else None
        return bool(shown)

    def distinct_shown(key: _Column) -> bool:
        shown = seen.shown_values(key) if seen.complete and key is not None else None
        return bool(shown) and len({repr(value) for value in shown}) == len(shown)  # a count of 1 per value shown

    return {
        "R4": []
        if facts.inner_groups or facts.mixed_tables or _values_only(analysis)
        else [(aggregate, key) for aggregate, key in material["R4"] if grouping(key) and not distinct_shown(key)],
        "R5": [
            (function, column)
            for function, column in material["R5"]
            if not seen.code_number(column)
            and not (column is None and analysis.listing and seen.at_a_glance)
            and not (column is not None and (_values_only(analysis) or few_rows))  # the highest age "of these" codes
            and not (function in _ORDER_FUNCTIONS and read_off(column))
            and not vague_groups
            and not (one_each and function != "count")
            and not one_value(column)
        ],  # "how many" of three rows in view is in view
        "R6": [
            option
            for option in material["R6"]
            if not seen.code_number(option[2]) and not few_rows and not one_each and not one_value(option[2])
        ],
        "R7": [aggregate for aggregate in material["R7"] if few_to_list(aggregate) and not vague_groups],
    }


# ---------------------------------------------------------------------------------------------------------------
# Writing the suggestion
# ---------------------------------------------------------------------------------------------------------------


class _Writer:
    """Words one relation from the material `_Analysis` collected for it, in one of three forms: `alone` (a whole
    suggestion), `lead` (the imperative that opens a combination) or `modifier` (the phrase after its comma)."""

    row_values: Callable | None = None  # the values of a column in the rows the query read (`recommend`)

    def __init__(self, analysis: _Analysis, rng: random.Random, values: Callable | None) -> None:
        self.analysis = analysis
        self.facts = analysis.facts
        self.names = analysis.names
        self.rng = rng
        self.values = values
        self.readable_values = values is not None  # the database's values can be read (a combination may not use them)
        self.things = _rows_of(self.names.labels.get(analysis.entity[0], "result")) if analysis.entity else "results"
        self._reset()

    def _reset(self) -> None:
        # What the text being written asks the next query to use (Recommendation.columns, values, tables).
        self.used_columns: list[tuple[str, str]] = []
        self.used_values: list[str] = []
        self.used_tables: list[str] = []
        self.replaced: set = set()  # columns the lead of a combination asks to drop: nothing else may use them

    def phrase(self, relation: str, *, alone: bool = True, form: str | None = None) -> str:
        form = form or ("alone" if alone else "modifier")
        self._reset()
        return self._form(relation, form)

    def _form(self, relation: str, form: str) -> str:
        return getattr(self, f"_{relation.lower()}")(self.analysis.material[relation], form)

    def combined(self, first: str, second: str, *, with_values: bool) -> str:
        """One sentence for a combination: the first relation's imperative, a comma, the second as a modifier."""
        self._reset()
        saved, self.values = self.values, (self.values if with_values else None)
        try:
            lead = self._form(first, "lead")
            if not lead:
                return ""  # the first change names nothing to ask
            named, valued, tables = len(self.used_columns), len(self.used_values), len(self.used_tables)
            if second == "R16" and any(self._all_different(used) for used in self.used_columns):
                return ""  # "their dorm name instead of their gender, without repeats": dorm names never repeat
            for _ in range(_MODIFIER_DRAWS):
                del self.used_columns[named:], self.used_values[valued:], self.used_tables[tables:]
                modifier = self._form(second, "modifier")
                # one column for both changes ("per gender, narrowed down by their gender") says one thing twice
                if modifier and not set(self.used_columns[named:]) & set(self.used_columns[:named]):
                    break
            else:
                return ""
        finally:
            self.values = saved
        if " instead" in lead and modifier.endswith(" instead"):
            modifier = modifier.removesuffix(" instead")  # one "instead" per sentence is enough
        return f"{lead}, {modifier}"

    def _all_different(self, used: tuple[str, str]) -> bool:
        table, name = used
        column = self.names.lookup.get((table.lower(), name.lower()))
        seen = self.analysis.seen
        return column is not None and seen is not None and seen.all_different(column)

    def recommendation(self, category: str, relation: str, text: str) -> Recommendation:
        return Recommendation(
            category,
            relation,
            acronyms_capitalised(text),  # "their FTE percent", as a draft writes it
            columns=tuple(dict.fromkeys(self.used_columns)),
            values=tuple(dict.fromkeys(self.used_values)),
            tables=tuple(dict.fromkeys(self.used_tables)),
        )

    # -- helpers ----------------------------------------------------------------------------------------------

    def _uses(self, column: _Column | None) -> None:
        if column is not None and column.table is not None:
            self.used_columns.append((self.names.originals[column.table], column.original))

    def _uses_value(self, column: _Column | None, value: str | None) -> None:
        self._uses(column)
        if value is not None:
            self.used_values.append(value)

    def _value(self, column: _Column | None, avoid: tuple = ()) -> str | None:
        """A real value of `column` that reads as words, different from `avoid`; None when there is none."""
        if self.values is None or column is None or column.table is None:
            return None
        found = self.values(self.names.originals[column.table], column.original) or []
        # nor a text the query already names ("also for those whose borrower is Tate Britain" of a UNION whose other
        # side is Tate Britain's)
        avoid = tuple(avoid) + tuple(self.analysis.texts_named)
        avoided = {_readable_value(value, column) for value in avoid}
        # another value than a LIKE pattern's is one the pattern does not match ("Gibbons" is one of "%Gib%")
        patterns = [_like_pattern(value) for value in avoid if isinstance(value, str) and "%" in value]
        found = [value for value in found if not any(pattern.fullmatch(str(value)) for pattern in patterns)]
        shown = [text for text in (_readable_value(value, column) for value in found) if text and text not in avoided]
        return self.rng.choice(list(dict.fromkeys(shown))) if shown else None

    def _new_condition(self, column: _Column | None, *, narrowing: bool = False) -> str | None:
        """ "whose age is above 20", "that are male": a new condition on `column` with a real value, or None. A value
        is compared on the side where rows lie: never "below 182" when 182 is the lowest height. `narrowing` keeps
        some of the rows shown: a value of the column they showed is one of theirs (not France of a US and a UK
        conductor)."""
        held = self._held(column) if narrowing else None
        if _is_flag(column):
            if held is not None and len({repr(value) for value in held}) < 2:
                return None  # "only those that are full time" of rows that all are, or none
            self._uses(column)
            return _that_are(column)
        if held is not None and column.kind not in ("number", "time"):
            # the value of one of the rows, when some of them have another: "only those whose nationality is USA"
            words = list(dict.fromkeys(text for text in (_readable_value(value, column) for value in held) if text))
            value = self.rng.choice(words) if len({repr(value) for value in held}) > 1 and words else None
        else:
            value = self._value(column)
        if value is None:
            return None
        if column.kind in ("number", "time") and not column.is_key:
            words = ("above", "below") if column.kind == "number" else ("after", "before")
            both = list(zip(words, (">", "<"), strict=True))
            sides = [(word, op) for word, op in both if not self._empty(column, op, value)]
            shown = self._shown_numbers(column) or (self._numbers(held) if held is not None else [])
            if shown:
                # The result showed this column: a range that keeps all its rows or none of them tells nothing new
                # (ages 18 and 19 "below 26"); the middle of what was shown splits them.
                sides = [(word, op) for word, op in sides if 0 < _holding(shown, op, value) < len(shown)]
                if not sides:
                    middle = sorted(set(shown))[: (len(set(shown)) + 1) // 2][-1]
                    value = _readable_value(middle, column) if len(set(shown)) > 1 else None
                    if value is None:
                        return None
                    sides = [(words[0], ">")]
            self._uses_value(column, value)
            word = self.rng.choice(sides or both)[0]
            return f"{_whose(self._condition_label(column))} {word} {value}"
        self._uses_value(column, value)
        return f"{_whose(self._condition_label(column))} {value}"

    def _condition_label(self, column: _Column | None) -> str:
        """A condition's column in words: its name, or for the name of another table than the rows' the thing it
        names ("those whose country is Anguilla" of cities, never "whose name is Anguilla")."""
        if column is None:
            return ""
        entity = self.analysis.entity
        other = bool(entity) and column.table != entity[0] and column.table in self.names.labels
        if other and column.label in _NAMING_WORDS and column.table not in self.names.links:
            return noun(self.names.labels[column.table], False)
        return column.label

    def _held(self, column: _Column | None) -> list | None:
        """The values `column` holds in the rows the query read: those the result showed when it showed them all,
        else those `row_values` reads; None when neither can tell."""
        seen = self.analysis.seen
        shown = seen.shown_values(column) if seen is not None and seen.complete and column is not None else None
        if shown is not None:
            return [value for value in shown if value is not None]
        if self.row_values is None or column is None or column.table is None or not self.names.known:
            return None
        try:
            found = self.row_values(self.names.originals[column.table], column.original)
        except Exception:  # noqa: BLE001 - the rows' values are a help: without them the column's values are used
            return None
        return list(found) if found is not None else None

    @staticmethod
    def _numbers(values: list) -> list:
        return [value for value in values if isinstance(value, Real) and not isinstance(value, bool)]

    def _shown_numbers(self, column: _Column) -> list:
        """The numbers the result showed for `column`, all of them; empty when it did not show them all."""
        seen = self.analysis.seen
        shown = seen.shown_values(column) if seen is not None and seen.complete else None
        if not shown or not all(isinstance(value, Real) and not isinstance(value, bool) for value in shown):
            return []
        return list(shown)

    def _empty(self, column: _Column, op: str, value: str) -> bool:
        seen = self.analysis.seen
        if seen is None:
            return False
        try:
            number = float(value)
        except ValueError:
            return False
        return seen.empty_side(column, op, number)

    def _aggregate_label(self, aggregate: _Aggregate) -> str:
        column = aggregate.column
        if aggregate.function == "count":
            if column is not None and column.is_key and column.table in self.names.labels:
                if column.table in self.names.links:
                    return f"the number of {self.things}"
                # count(student_id) counts students; a foreign key's count counts the rows it is in
                return f"the number of {_rows_of(self.names.labels[column.table])}"
            return f"the number of {_plurals(column.label) if column is not None else self._counted()}"
        if column is None:
            return "that figure"
        return _figure(aggregate.function, column)

    def _key_label(self, key: _SortKey) -> str | None:
        if key.aggregate is not None:
            return self._aggregate_label(key.aggregate)
        if key.column is not None:
            return f"their {key.column.label}"
        return None

    def _key_kind(self, key: _SortKey) -> str:
        if key.aggregate is not None:
            return "number"
        if key.column is None:
            return "unknown"
        if _time_word(key.column.label) in _TIME_WORDS:
            return "time"  # a year kept as text still sorts by time, never "alphabetically"
        seen = self.analysis.seen
        if key.column.kind != "time" and seen is not None and seen.numeric(key.column):
            return "number"  # horsepower kept as text is still "highest first", never "alphabetically"
        return key.column.kind

    def _rows_shown(self) -> int | None:
        seen = self.analysis.seen
        if seen is None or seen.rows is None:
            return None
        return len(seen.rows) if seen.complete else None

    def _counted(self) -> str:
        """What count(*) counts: the entity's rows, or in a grouped join the rows joined to each group (flights per
        city), never the group's own table."""
        facts = self.facts
        if facts.group:
            table = grouped_counted(facts, self.names)
            if table is not None:
                return _rows_of(self.names.labels[table])
        elif facts.inner_groups:
            # count(*) over a grouped subquery counts its groups: "the number of regions", not of countries.
            word = self._group_word(facts.inner_groups)
            return _plurals(word) if word != "group" else "groups"
        elif facts.set_operation or (facts.distinct and self.analysis.listing):
            # The rows of a UNION or EXCEPT are no one table's, those of a DISTINCT listing are values: they are what
            # the query shows ("first names", "regions").
            shown = list(dict.fromkeys(facts.shown))
            if len(shown) != 1:
                return "results"
            # names of two tables are names ("how many names"); of one, the things they name: "how many referees",
            # never "how many referee names" (a referee's name is said as the referee, `_named`)
            if facts.mixed_tables:
                return _plurals(shown[0].label)
            naming = shown[0].label.split()[-1] in _NAMING_WORDS and not shown[0].is_key
            return _plurals(self._named(shown[0]) if naming else self._thing(shown[0]))
        return self.things

    def _group_word(self, keys: list | None = None) -> str:
        """What one group is, in words: the grouped column's name ("each model"), or "group" without one."""
        group = list(dict.fromkeys(self.facts.group if keys is None else keys))
        if len(group) != 1 or group[0] is None:
            return "group"
        return self._thing(group[0])

    def _named(self, column: _Column) -> str:
        """ "another artist", not "another name": a name stands for the thing it names."""
        naming = column.label.split()[-1] in _NAMING_WORDS  # "another staff first name" is another staff member
        if naming and column.table in self.names.labels and column.table not in self.names.links:
            return noun(self.names.labels[column.table], False)
        words = column.label.split()
        if len(words) > 1 and words[-1].lower() == "code":
            return " ".join(words[:-1])  # "another event type", never "another event type code"
        return _one(column.label)  # "another format", never "another formats"

    def _thing(self, column: _Column) -> str:
        """What one value of `column` stands for, in the singular: a key the thing it identifies ("student id": a
        student; a foreign key its parent's: "treatment type code", a treatment type), else its own name."""
        if not column.is_key:
            if column.label == "name":
                return self._named(column)  # "each building", not "each name"
            words = column.label.split()
            # "each customer details has": a name ending in a storage word names the thing before it
            if len(words) > 1 and words[-1] in STORAGE_WORDS:
                return " ".join(words[:-1])
            return _one(column.label)  # "each special feature", never "each special features"
        parent = self.names.references.get((column.table, column.original.lower()))
        if parent is not None and parent not in self.names.links:
            return noun(self.names.labels[parent], False)
        words = column.label.split()
        if not column.is_primary and len(words) > 1 and _looks_like_id(column.label):
            return " ".join(words[:-1])
        identifies = column.is_primary or _id_named(column.original) or words[-1] in ("id", "ids")
        if identifies and column.table in self.names.labels and column.table not in self.names.links:
            return noun(self.names.labels[column.table], False)  # grouped by student id: "each student"
        return column.label  # a postcode or a phone number names no patient: "each postcode"

    # -- Same Instances (alone or lead) -----------------------------------------------------------------------

    def _r1(self, material: list, form: str) -> str:
        column = self.rng.choice(material)
        if column is None:
            return f"Ask for another detail of these {self.things}"
        self._uses(column)
        owner = self._owner(column)
        # said without its table's own words: "their last name too" of staff, "the ship's disposition" (never "their
        # staff last name", "the ship's disposition of ship")
        label = _own(column.label, self.names.labels[column.table]) if column.table in self.names.labels else None
        if form == "lead":
            return f"Ask for {owner} {label or column.label} too"
        if owner != "their":
            return f"Ask for another detail, such as {owner} {label or column.label}"  # not "these machines' age"
        return f"Ask for another detail of these {self.things}, such as their {label or column.label}"

    def _owner(self, column: _Column) -> str:
        """Whose detail `column` is: "their" for a detail of the things the text names (`things`), "the
        technician's" for another table's."""
        entity = self.analysis.entity
        if not entity or column.table == entity[0] or column.table not in self.names.labels:
            return "their"
        return f"the {noun(self.names.labels[column.table], False)}'s"

    def _r2(self, material: list, form: str) -> str:
        kind, column = self.rng.choice(material)
        if kind == "keep":
            self._uses(column)
            return f"Ask for just their {column.label} instead of every detail"
        if form == "lead":
            return f"Ask for the same without their {column.label}"
        return f"Ask for the same {self.things} without their {column.label}"

    def _r3(self, material: list, form: str) -> str:
        old, new = self.rng.choice(material)
        if new is None:
            return f"Ask for a different detail of these {self.things} instead of their {old.label}"
        self._uses(new)
        self.replaced.add(old)
        if _vague(old.label):
            return f"Ask for their {new.label} instead"  # never "instead of their opened": the result shows it
        return f"Ask for their {new.label} instead of their {old.label}"

    def _r4(self, material: list, form: str) -> str:
        aggregate, key = self.rng.choice(material)
        figure = self._aggregate_label(aggregate)
        if key is None:
            if self.facts.group:
                return f"Break {figure} down further, into smaller groups"
            if form == "lead":
                return f"Ask for {figure} per group"
            return f"Ask for {figure} broken down into groups, one figure per group"
        self._uses(key)
        per = self._per(key)
        if self.facts.group:
            return f"Break {figure} down further, per {per} as well"
        return f"Ask for {figure} per {per}"

    def _per(self, key: _Column) -> str:
        """ "per high degree" of professors, never "the number of professors per professor high degree": a detail of
        the rows counted is said without their table's words; another table's keeps them ("per dorm name")."""
        entity = self.analysis.entity
        if entity and key.table == entity[0] and key.table in self.names.labels:
            return _one(_own(key.label, self.names.labels[key.table]))
        return _one(key.label)

    def _r5(self, material: list, form: str) -> str:
        function, column = self.rng.choice(material)
        grouped = bool(self.facts.group)
        also = "Also ask" if form == "alone" else "Ask"
        group = self._group_word()
        if function == "count":
            if grouped:
                return f"{also} how many {self._counted()} each {group} has"
            if form == "alone" and self._count_in_view():
                return ""  # another relation is worded instead
            return f"Ask how many {self._counted()} there are"
        self._uses(column)
        figure = _figure(function, column)
        if grouped:
            return f"{also} for {figure} of each {group}"
        return f"{also} for {figure}" if self.facts.aggregates else f"Ask for {figure} of these {self.things}"

    def _r6(self, material: list, form: str) -> str:
        aggregate, function, column = self.rng.choice(material)
        self._uses(column)
        label = self._aggregate_label(aggregate)
        return f"Ask for {_figure(function, column)} instead of {label}"

    def _r7(self, material: list, form: str) -> str:
        aggregate = self.rng.choice(material)
        label = self._aggregate_label(aggregate)
        if self.facts.group:
            # grouped by a key, the groups are the things it names ("just the offices", never "the office ids")
            keys = _and(
                [
                    _plurals(self._thing(column) if column.is_key else column.label)
                    for column in dict.fromkeys(self.facts.group)
                ]
            )
            return f"Ask for just the {keys}, without {label}"
        if aggregate.column is not None and aggregate.function != "count":
            self._uses(aggregate.column)
            return f"Ask to list each {aggregate.column.label} instead of {label}"
        return f"Ask to list the {self._counted()} themselves instead of {label}"

    # -- Different Instances of the Same Entity (alone, lead or modifier) -------------------------------------

    def _r8(self, material: list, form: str) -> str:
        # written after suggestions set 13 was read (tuned): a person's own name picks that person, no part of the
        # rows worth asking about ("only those whose last name is Jenkin" of first names counted)
        material = [column for column in material if column is None or not _personal_name(column)]
        if not material:
            return ""
        column = self.rng.choice(material)
        if column is None:
            return {
                "alone": f"Narrow it down to only some of these {self.things}",
                "lead": f"Ask about only some of these {self.things}",
                "modifier": "for only some of them",
            }[form]
        condition = self._new_condition(column, narrowing=True)
        # A value makes the narrowing a question: another column with one comes before a condition in no words
        # ("narrowed down by their employee initial").
        for other in self.rng.sample(material, len(material)) if condition is None else ():
            if other is not None and other != column:
                condition = self._new_condition(other, narrowing=True)
                if condition is not None:
                    break
        if condition is None and not self.readable_values:
            self._uses(column)  # without the database's values the worker picks one
            return {
                "alone": f"Narrow it down with a condition on their {column.label}",
                "lead": f"Narrow it down by their {column.label}",
                "modifier": "",  # ", narrowed down by their initial" after another change names nothing to ask
            }[form]
        if condition is None:
            # Values were read and none reads as words: "a condition on their document description" names nothing
            # to ask. Unsaid; another relation is worded instead.
            return ""
        return {
            "alone": f"Narrow it down, e.g. only those {condition}",
            "lead": f"Ask only about those {condition}",
            "modifier": f"only those {condition}",
        }[form]

    def _r9(self, material: list, form: str) -> str:
        condition = self.rng.choice(material)
        column = condition.column
        if column is None and len(self.facts.filters) == 1:
            # the only condition, on a figure ("HAVING count(*) >= 5") or against a subquery: "one of the
            # conditions" would promise others, and what qualifies is a group as often as a row; beside another
            # change, "without the condition" names none (unsaid: another pair is worded)
            return "Widen it: drop or relax the condition" if form == "alone" else ""
        if column is None:
            return {
                "alone": f"Widen it: drop or relax one of the conditions, so that more {self.things} qualify",
                "lead": "Drop or relax one of the conditions",
                "modifier": "with one condition dropped or relaxed",
            }[form]
        if condition.op in ("=", "in") and condition.values and not condition.negated and not _is_flag(column):
            # a yes/no's other value is the rest of the rows: "also include those whose chronic flag is 0" is the
            # condition dropped
            value = self._value(column, avoid=condition.values)
            if value is not None:
                self._uses_value(column, value)
                return {
                    "alone": f"Widen it: also include those {_whose(self._condition_label(column))} {value}",
                    "lead": f"Also include those {_whose(self._condition_label(column))} {value}",
                    "modifier": f"also for those {_whose(self._condition_label(column))} {value}",
                }[form]
        return {
            "alone": f"Widen it: drop or relax the condition {_on(column)}",
            "lead": f"Drop or relax the condition {_on(column)}",
            "modifier": f"without the condition {_on(column)}",
        }[form]

    def _r10(self, material: list, form: str) -> str:
        condition = self.rng.choice(material)
        column = condition.column
        current = _readable_value(condition.values[0], column)
        value = None
        if condition.op in (">", ">=", "<", "<=") and current is not None and not condition.negated:
            side = "below" if condition.op in (">", ">=") else "above"
            value, words = current, f"{_in_time(side, column)} {current}"
        else:
            value = self._value(column, avoid=condition.values)
            words = value
        if value is not None:
            self._uses_value(column, value)
            return {
                "alone": f"Ask about other ones instead: those {_whose(self._condition_label(column))} {words}",
                "lead": f"Ask about those {_whose(self._condition_label(column))} {words} instead",
                "modifier": f"for those {_whose(self._condition_label(column))} {words} instead",
            }[form]
        self._uses(column)
        other = f"another {self._named(column)}"
        if current is not None and condition.op == "=" and not condition.negated:
            other = f"another {self._named(column)} than {current}"
        return {
            "alone": f"Ask the same about {other}",
            "lead": f"Ask the same about {other}",
            "modifier": f"for {other}",
        }[form]

    def _r11(self, material: list, form: str) -> str:
        condition = self.rng.choice(material)
        opposite = _negation(condition, self._condition_label(condition.column))
        if opposite is not None:
            self._uses_value(condition.column, None)
            self.used_values.extend(
                text for text in (_readable_value(value, condition.column) for value in condition.values) if text
            )
            return {
                "alone": f"Ask about the rest instead: those {opposite}",
                "lead": f"Ask about the rest: those {opposite}",
                "modifier": f"for the rest: those {opposite}",
            }[form]
        if condition.column is not None:
            self._uses(condition.column)
            on = _on(condition.column)
            return {
                "alone": f"Ask about the rest instead: those that do not meet the condition {on}",
                "lead": f"Ask about those that do not meet the condition {on}",
                "modifier": f"for those that do not meet the condition {on}",
            }[form]
        if self.facts.group and condition.aggregate is not None:
            # a condition on a figure of each group: the rest are groups ("the types with fewer than 2 films"),
            # never rows that "do not meet the current condition"
            groups = self._figure_negation(condition)
            if groups is None:
                return ""
            return {
                "alone": f"Ask about the rest instead: {groups}",
                "lead": f"Ask about {groups} instead",
                "modifier": f"for {groups} instead",
            }[form]
        return {
            "alone": f"Ask about the rest instead: the {self.things} that do not meet the current condition",
            "lead": f"Ask about the other {self.things} instead",
            "modifier": "",  # "…, for the rest instead" says no rest: a combination needs the condition's words
        }[form]

    def _count_in_view(self) -> bool:
        """Whether "how many" of a listing's rows is in view: the room says how many rows came back (all of them, or
        "showing 100 of 4,079"). Beside another change ("how many, only those whose ...") it is a new count."""
        seen = self.analysis.seen
        return self.analysis.listing and seen is not None and seen.counted

    def _figure_negation(self, condition: _Filter) -> str | None:
        """ "the types with fewer than 2 films", "the cities whose average age is above 30": the groups a HAVING
        condition leaves out, or None when they cannot be said."""
        aggregate, values = condition.aggregate, condition.values
        group = self._group_word()
        if condition.negated or len(values) != 1 or not isinstance(values[0], Real) or group == "group":
            return None
        value, groups = _readable_value(values[0], None), _rows_of(group)  # "the ratings", never "the rating"
        label = self._aggregate_label(aggregate)
        if aggregate.function == "count" and label.startswith("the number of "):
            counted = label.removeprefix("the number of ").split()
            if values[0] == 1:
                counted[-1] = singular_word(counted[-1])
            ranges = {">": "at most", ">=": "fewer than", "<": "at least", "<=": "more than"}
            return (
                f"the {groups} with {ranges[condition.op]} {value} {' '.join(counted)}"
                if condition.op in ranges
                else None
            )
        ranges = {">": "at most", ">=": "below", "<": "at least", "<=": "above"}
        if condition.op not in ranges or aggregate.column is None:
            return None
        return f"the {groups} whose {_bare(label)} is {ranges[condition.op]} {value}"

    def _r12(self, material: list, form: str) -> str:
        kind, detail = self.rng.choice(material)
        prefix = "Ask about"
        if kind == "value":
            label = self._condition_label(detail.column)
            value = self._value(detail.column, avoid=detail.values)
            self._uses_value(detail.column, value)
            subject = f"those {_whose(label)} {value}" if value is not None else f"another {self._named(detail.column)}"
            return {
                "alone": f"{prefix} {subject} instead",
                "lead": f"Ask about {subject} instead",
                "modifier": f"for {subject} instead",
            }[form]
        other = detail
        new = self._new_condition(other)
        if new is not None:
            return {
                "alone": f"{prefix} those {new} instead",
                "lead": f"Ask about those {new} instead",
                "modifier": f"for those {new} instead",
            }[form]
        if other is not None:
            if self.readable_values or form == "modifier":
                # Values were read and none of this column reads as words, or it follows another change: "with the
                # condition on their sex instead" names no condition to ask. Unsaid; another relation is worded.
                return ""
            self._uses(other)
            return {
                "alone": f"Change the condition to one on their {other.label}",
                "lead": f"Put the condition on their {other.label} instead",
                "modifier": f"with the condition on their {other.label} instead",
            }[form]
        return {
            "alone": f"Change the condition to one on another detail of these {self.things}",
            "lead": "Put the condition on another detail instead",
            "modifier": "with the condition on another detail instead",
        }[form]

    # -- Different Entity (alone only: never combined) --------------------------------------------------------

    def _r13(self, material: list, form: str) -> str:
        table = self.rng.choice(material)
        self.used_tables.append(self.names.originals[table])
        things = _rows_of(self.names.labels[table])
        details = self.names.descriptive([table])
        seen = self.analysis.seen
        # Neither an identifier, nor another table's key kept as a number, nor the table's own name ("the continents,
        # such as their continent").
        read = self._read()
        details = [
            column
            for column in details
            if not column.is_key
            and not _vague(column.label)
            and not _catch_all(column)  # "the candidates, such as their candidate details"
            and not (seen is not None and (seen.code_number(column) or seen.says_nothing(column)))
            and noun(column.label, False) != noun(self.names.labels[table], False)
            and column not in read  # "such as their order quantity" of the quantities the result sums
        ]
        if details:
            detail = self.rng.choice(details)
            self._uses(detail)
            return f"Ask about the {things} instead, such as their {_own(detail.label, self.names.labels[table])}"
        return f"Ask about the {things} instead"

    def _read(self) -> set:
        """The columns the query reads: shown, in a figure, grouped by, in a condition or an order."""
        facts = self.facts
        read = set(facts.shown) | set(facts.group)
        read |= {aggregate.column for aggregate in facts.aggregates}
        read |= {item.column for item in facts.filters}
        read |= {key.column for key in facts.order} | {key.aggregate.column for key in facts.order if key.aggregate}
        return read - {None}

    # -- Display (alone, lead or modifier) --------------------------------------------------------------------

    def _r14(self, material: list, form: str) -> str:
        # Sorting by a column the same sentence asks to drop would sort by something no longer shown.
        kept = [key for key in material if key.column is None or key.column not in self.replaced]
        key = self.rng.choice(kept or material)
        label = self._key_label(key)
        if label is None:
            return "in a useful order" if form == "modifier" else "Ask to sort them in a useful order"
        self._uses(key.column)
        kind = self._key_kind(key)
        if kind == "number":
            if self.rng.random() < 0.5:
                order = f"by {label}, {self.rng.choice(('highest', 'lowest'))} first"
            else:
                shown = self._rows_shown()
                # "the 5 heaviest" of 6 rows is nearly all of them: the first rows are a few of many
                counts = [count for count in (3, 5) if shown is None or 2 * count < shown]
                if not counts:
                    order = f"by {label}, {self.rng.choice(('highest', 'lowest'))} first"
                    return f"sorted {order}" if form == "modifier" else f"Ask to sort them {order}"
                count, end = self.rng.choice(counts), self.rng.choice(("highest", "lowest"))
                phrase = f"the {count} with {self._extreme(key, end)}"
                return f"just {phrase}" if form == "modifier" else f"Ask for only {phrase}"
        elif kind == "time":
            order = f"by {label}, {self.rng.choice(('latest', 'earliest'))} first"
        else:
            order = f"alphabetically by {label}"
        return f"sorted {order}" if form == "modifier" else f"Ask to sort them {order}"

    def _r15(self, material: list, form: str) -> str:
        kind, detail = self.rng.choice(material)
        if kind == "flip":
            label = self._key_label(detail)
            if self.facts.has_limit and label is not None and self._key_kind(detail) in ("number", "time"):
                earlier = ("lowest", "highest") if self._key_kind(detail) == "number" else ("earliest", "latest")
                wanted = earlier[0] if detail.descending else earlier[1]  # "the highest visit date" is the latest
                phrase = f"the ones with {self._extreme(detail, wanted)} instead"
                return phrase if form == "modifier" else f"Ask for {phrase}"
            return "sorted the other way round" if form == "modifier" else "Ask to sort them the other way round"
        if kind == "key":
            self._uses(detail.column)
            label = self._key_label(detail)
            if self.facts.has_limit and label is not None and self._key_kind(detail) in ("number", "time"):
                # The first rows by another key are other rows: say which, not "sort them" (one row has no order).
                wanted = self.rng.choice(
                    ("highest", "lowest") if self._key_kind(detail) == "number" else ("latest", "earliest")
                )
                phrase = f"the ones with {self._extreme(detail, wanted)} instead"
                return phrase if form == "modifier" else f"Ask for {phrase}"
            order = f"by {label} instead"
            return f"sorted {order}" if form == "modifier" else f"Ask to sort them {order}"
        bound = self._rows_at_most()
        counts = [count for count in (1, 3, 5, 10) if count != detail and (bound is None or count < bound)]
        if not counts:
            return ""  # "the first 5" of 2 feature types is both of them
        wanted = self.rng.choice(counts)
        if form == "modifier":
            return f"showing {_first(wanted)} instead of {detail}"
        return f"Ask for {_first(wanted)} instead of {_first(detail)}"

    def _rows_at_most(self) -> int | None:
        """How many rows the query could give at most, from the columns' figures: its groups (the values of its one
        group key) or its table's rows; None when unknown."""
        seen = self.analysis.seen
        if seen is None:
            return None
        keys = list(dict.fromkeys(self.facts.group))
        if len(keys) == 1:
            found = seen.stats(keys[0]).get("distinct")
        elif keys or not self.analysis.entity or len(self.facts.tables) != 1:
            return None
        else:
            primary = [column for column in self.names.columns.get(self.analysis.entity[0], ()) if column.is_primary]
            found = seen.stats(primary[0]).get("rows") if primary else None
        return found if _whole(found) else None

    def _extreme(self, key: _SortKey, end: str) -> str:
        """ "the highest age", "the latest year", but "the most followers": the first rows by a key, in words."""
        if key.aggregate is None and key.column is not None and _counts_things(key.column):
            return f"the {'most' if end == 'highest' else 'fewest'} {key.column.label}"
        return f"the {end} {_bare(self._key_label(key))}"

    def _r16(self, material: list, form: str) -> str:
        if form == "modifier":
            return "without repeats"
        if form == "lead":
            return "Ask for each result only once"
        return f"Ask for each {_and([column.label for column in material[:2]])} only once, without repeats"


def _like_pattern(pattern: str) -> re.Pattern:
    """A LIKE pattern as SQLite reads it: % any text, _ one character, letters in either case."""
    parts = (".*" if char == "%" else "." if char == "_" else re.escape(char) for char in pattern)
    return re.compile("".join(parts), re.IGNORECASE | re.DOTALL)


def _whose(label: str) -> str:
    """ "whose age is", "whose followers are": a plural name takes a plural verb; its head noun ends before a
    preposition ("whose number of factories is")."""
    words = label.split()
    cut = next((index for index, word in enumerate(words) if index and word.lower() in _PREPOSITION_ENDS), len(words))
    head = words[:cut]
    return f"whose {label} {'are' if head and is_plural(head[-1]) else 'is'}"


def _on(column: _Column) -> str:
    """ "on their age", "on being full time": what a condition is on, in words (a yes/no is no detail of theirs)."""
    if _is_flag(column) and _had(column):
        return f"on {_had(column)}"  # "on having a cafe", never "on being has cafe"
    return f"on being {_are(column)}" if _is_flag(column) else f"on their {column.label}"


# Verbs a flag's name can start with ("has cafe", "needs treatment"): the verb for many rows and its -ing form.
_FLAG_VERBS = MappingProxyType(
    {
        "has": ("have", "having"),
        "have": ("have", "having"),
        "needs": ("need", "needing"),
        "requires": ("require", "requiring"),
        "uses": ("use", "using"),
        "allows": ("allow", "allowing"),
        "accepts": ("accept", "accepting"),
        "includes": ("include", "including"),
    }
)


def _flag_verb(column: _Column) -> tuple[str, str, str] | None:
    """A flag named by a verb and its object: ("have", "having", "a cafe") of "has cafe", ("need", "needing",
    "treatment") of "needs treatment"; None for any other flag."""
    words = _flag_words(column).split()
    if len(words) < 2 or words[0].lower() not in _FLAG_VERBS:  # noqa: PLR2004
        return None
    plural, gerund = _FLAG_VERBS[words[0].lower()]
    rest = " ".join(words[1:])
    return plural, gerund, with_article(rest) if plural == "have" else rest


def _had(column: _Column) -> str | None:
    """ "having a cafe", "needing treatment": a flag named by a verb, said as what a condition is on; None for any
    other flag."""
    verb = _flag_verb(column)
    return f"{verb[1]} {verb[2]}" if verb is not None else None


def _that_are(column: _Column, *, negated: bool = False) -> str:
    """ "that are full time", "that are not smokers"; a flag named by a verb says it of many rows: "that have a cafe",
    "that do not need treatment" (never "that are has cafe", "that are needs treatment")."""
    verb = _flag_verb(column)
    if verb is not None:
        return f"that {'do not ' if negated else ''}{verb[0]} {verb[2]}"
    return f"that are {'not ' if negated else ''}{_are(column)}"


_YES = frozenset({"1", "t", "y", "yes", "true"})
_NO = frozenset({"0", "f", "n", "no", "false"})


def _flag_negation(condition: _Filter) -> str | None:
    """ "that are not full time": the opposite of a yes/no condition, or None when its value is neither yes nor no."""
    if condition.op not in ("=", "!=") or len(condition.values) != 1:
        return None
    value = str(condition.values[0]).strip().lower()
    if value not in _YES | _NO:
        return None
    holds = (value in _YES) == (condition.op == "=")
    if condition.negated:
        holds = not holds
    return _that_are(condition.column, negated=holds)


# A side of a range said of a point in time: "those whose invoice date is before 2012-12-08", never "below".
_TIME_SIDES = MappingProxyType(
    {"below": "before", "above": "after", "at most": "no later than", "at least": "no earlier than"}
)


def _in_time(side: str, column: _Column | None) -> str:
    """`side` ("below", "at least") in the words of `column`: of a date or a year, "before", "no earlier than"."""
    timely = column is not None and (column.kind == "time" or _time_word(column.label) in _TIME_WORDS)
    return _TIME_SIDES.get(side, side) if timely else side


def _negation(condition: _Filter, label: str | None = None) -> str | None:
    """ "whose country is not US": the words for the opposite of `condition` (its column said as `label`, its own
    name by default), or None when they cannot be told."""
    column = condition.column
    if column is None:
        return None
    if _is_flag(column):
        return _flag_negation(condition)
    shown = [_readable_value(value, column) for value in condition.values]
    if any(text is None for text in shown) or (condition.op not in ("is",) and not shown):
        return None
    label = label or column.label
    positive = not condition.negated
    op = condition.op
    if op == "like":
        text = shown[0].strip("%").strip()
        return f"whose {label} {'does not contain' if positive else 'contains'} {text}" if text else None
    if op in ("=", "!="):
        equal = (op == "=") == positive
        return f"{_whose(label)} {'not ' if equal else ''}{shown[0]}"
    ranges = {">": "at most", ">=": "below", "<": "at least", "<=": "above"}
    if op in ranges:
        if not positive:
            ranges = {">": "above", ">=": "at least", "<": "below", "<=": "at most"}
        return f"{_whose(label)} {_in_time(ranges[op], column)} {shown[0]}"
    if op == "in":
        return f"{_whose(label)} {'not ' if positive else ''}{_and(shown, 'or')}"
    if op == "between" and len(shown) == 2:
        return f"{_whose(label)} {'outside' if positive else 'inside'} the range {shown[0]} to {shown[1]}"
    if op == "is":
        return f"{_whose(label)} {'known' if positive else 'missing'}"
    return None


def _shown_value(value) -> str | None:
    """A value as a worker may read it, or None: nothing long, multi-line, or with underscores (which would look like
    an identifier)."""
    if value is None or isinstance(value, bool | bytes | bytearray):
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"
    text = str(value)
    if "\n" in text or "\r" in text:
        return None
    text = " ".join(text.split())
    if not text or len(text) > _MAX_VALUE_CHARS or "_" in text:
        return None
    return text


def _readable_value(value, column: _Column | None) -> str | None:
    """A value as a worker may read it once and understand it, or None (prefer none to a code).

    On top of `_shown_value`: a key's value (an id) is never shown; a number or a date only for a column of numbers or
    times; any other value must hold a word: two letters or more, not a short all-caps code ("F", "X", "BK", "USA" and
    "A320" are codes; "TV Lounge" and "ENGLAND" are words).
    """
    text = _shown_value(value)
    if text is None or (column is not None and column.is_key):
        return None
    if any(_is_word(token) for token in _WORDS.findall(text)):
        return text
    if isinstance(value, Real) or (column is not None and column.kind in ("number", "time")):
        # No word: a plain number (age 20) or a date reads as itself; letters mixed in make it a code.
        return text if not any(character.isalpha() for character in text) else None
    return None


def _is_word(token: str) -> bool:
    return token.isalpha() and len(token) >= 2 and (not token.isupper() or len(token) >= 5)


def _is_link(name: str, things: frozenset[str] = frozenset()) -> bool:
    """Whether a table's readable name reads as a verb or a clause ("has amenity", "lives in") rather than a noun;
    `things`: the words of the schema's table names (`_verb_first`)."""
    words = name.lower().split()
    return len(words) >= 2 and (
        words[0] in _VERB_STARTS or words[-1] in _PREPOSITION_ENDS or _verb_first(words, things)
    )


def _verb_first(words: list[str], things: frozenset[str]) -> bool:
    """A name of two words both in the plural reads as a verb and its object ("takes classes", "plays games"): a noun
    before another is singular in English ("class schedules"), unless it is an amount or a plural-only word ("sales
    records"), or names a thing of the schema ("customers policies", "claims documents" beside customers, claims)."""
    first, last = words[0], words[-1]
    return (
        len(words) == 2
        and first not in _AMOUNT_PLURALS
        and singular_word(first) not in things
        and all(is_plural(word) and singular_word(word) != word for word in (first, last))
    )


# Letters two words must share at the start to be told apart from a word that only begins the same way.
_STEM_CHARS = 5


def _same_stem(one: str, other: str) -> bool:
    """Whether two words name the same thing: equal, or one the other with an ending ("manage", "manager";
    "member", "membership")."""
    if one == other:
        return True
    short, long = sorted((one, other), key=len)
    return len(short) >= _STEM_CHARS and long.startswith(short)


def _names_its_row(label: str, table: str, named: set[str], kind: str, index: int, primary, texts) -> bool:
    """Whether a column named as its table is what each row is called (the company's "company"): a text column of a
    table with no "name", and no other text key naming the rows (an allergy type's "allergy type" is its type: the
    allergy names it); a number ("trust" of trust) counts or measures, it names nothing."""
    if noun(label, False) != noun(table, False) or "name" in named or kind == "number":
        return False
    return not (texts or set()) - {index}


def _named_by_columns(label: str, columns: list[str]) -> bool:
    """A table whose name is two or more of its columns' names run together ("area code state" of the columns "area
    code" and "state"): its rows pair values, they are no things a worker asks about ("the area code states")."""
    words = [singular_word(word) for word in label.lower().split()]
    names = sorted({tuple(singular_word(word) for word in column.lower().split()) for column in columns}, key=len)

    def covered(rest: list[str], parts: int) -> bool:
        if not rest:
            return parts >= 2
        return any(list(name) == rest[: len(name)] and covered(rest[len(name) :], parts + 1) for name in names if name)

    return len(words) >= 2 and covered(words, 0)


# Last words of a table's name that say how its rows are arranged, not what they are ("catalog structure", "catalog
# contents"): the table is said by what its naming column names, or not at all. A record is a thing people speak of
# ("the pilot records"); "details", "data" and "list" are dropped before (`english.table_noun`).
_STRUCTURE_WORDS = frozenset({"structure", "structures", "content", "contents", "table", "tables"})


def _held_by_name(label: str, columns: list[_Column]) -> str | None:
    """A table named by a structure word, said by what its rows are called: "catalog structure" whose rows have a
    "catalog level name" holds catalog levels, "catalog contents" with a "catalog entry name" catalog entries; None
    when no column names its rows (the table is no thing to suggest); any other table as it is."""
    words = label.lower().split()
    if len(words) < 2 or words[-1] not in _STRUCTURE_WORDS:  # noqa: PLR2004 - one word ("contents") is left alone
        return label
    for column in columns:
        named = column.label.split()
        if column.kind == "text" and not column.is_key and len(named) >= 2 and named[-1].lower() in _NAMING_WORDS:
            head = [word.lower() for word in named[:-1]]
            if head[-1] not in _STRUCTURE_WORDS and head != words[:-1]:
                return " ".join(named[:-1])
    return None


# Nouns that name a group of people ("faculty", "crew"): a table of people named by one holds its members, and
# "the faculties" are departments, "the crews" whole crews.
_GROUP_NOUNS = frozenset({"faculty", "crew", "cast", "clergy", "jury", "militia", "police", "congregation"})
# Words of a column's name that say a row is a person: a table with one is a table of people.
_PERSON_WORDS = frozenset({"fname", "lname", "firstname", "lastname", "surname", "sex", "gender", "birthday"})


def _members(label: str, columns: list[_Column]) -> str:
    """A table named by a group noun whose rows are people, said as its members: "faculty" -> "faculty member"
    (a row of Faculty is one teacher; "the faculties" would be departments)."""
    words = label.split()
    if not words or words[-1].lower() not in _GROUP_NOUNS:
        return label
    column_words = {word.lower() for column in columns for word in column.label.split()}
    column_words |= {words_of(column.original).replace(" ", "") for column in columns}
    people = column_words & _PERSON_WORDS or {"first name", "last name"} & {column.label for column in columns}
    return f"{label} member" if people else label


def _label(readable, original: str) -> str:
    """The readable name of a table or column: tables.json's own (`table_names`, `column_names`) when it has one,
    else one made from the original name. Underscores never survive: a worker must not see an identifier."""
    text = " ".join(str(readable).replace("_", " ").split()) if readable is not None else ""
    return text or readable_name(original) or "item"


def _looks_like_id(label: str) -> bool:
    """A name that identifies rather than describes: "student id", "flight number", "zip code", "flight no"."""
    words = label.lower().split()
    return bool(words) and (
        words[-1] in ("id", "ids", "no", "code")
        or words[-1] in _NUMBERS_THAT_NAME
        or (len(words) > 1 and words[-1] == "number")
    )


# People a row can point to by a number ("advisor" 1121 of a student): the number stands for someone, as a key.
_ROLE_NOUNS = frozenset(
    {"advisor", "adviser", "supervisor", "manager", "owner", "director", "instructor", "teacher", "captain", "coach"}
    | {"leader", "president", "host", "driver", "author", "editor", "mentor", "tutor", "sponsor", "founder", "chair"}
    | {"chairman", "agent", "employee", "customer", "student", "member", "person", "player", "advisee", "referee"}
)


# Kinds of people a number column can count, named in the singular ("undergraduate" of an enrolment table: how many
# undergraduates enrolled): never "their undergraduate".
_COUNTED_PEOPLE = frozenset({"undergraduate", "graduate", "postgraduate", "male", "female", "adult", "child", "minor"})
# Participles a number column counts people by ("injured" of a battle's ship): never a year ("founded").
_COUNTED_PARTICIPLES = frozenset(
    {"injured", "killed", "wounded", "affected", "infected", "displaced", "evacuated", "rescued", "arrested"}
    | {"hospitalized", "hospitalised", "vaccinated", "admitted", "enrolled", "employed", "dead", "missing"}
)


def _head_count(label: str, kind: str) -> str:
    """A number column named by a group ("faculty", "crew") or a kind of people ("undergraduate") counts heads:
    "faculty size", "number of undergraduates", never "the average faculty" (faculties are departments) or "their
    undergraduate"."""
    words = label.split()
    if kind != "number" or len(words) != 1:
        return label
    word = singular_word(words[0].lower())
    if word in _COUNTED_PARTICIPLES:
        return f"number {word}"  # "injured", "killed": how many were, "the average number injured"
    if word in _GROUP_NOUNS:
        return f"{word} size"
    if word in _COUNTED_PEOPLE:
        return f"number of {plural_word(word)}"
    return label


_PERSONAL_NAMES = frozenset({"first name", "last name", "given name", "family name", "middle name", "surname"})
_PERSONAL_NAMES |= {"forename", "fname", "lname"}


def _personal_name(column: _Column) -> bool:
    """A column holding a person's own name ("last name", "surname"), by its last words."""
    words = column.label.lower().split()
    return " ".join(words[-2:]) in _PERSONAL_NAMES or (bool(words) and words[-1] in _PERSONAL_NAMES)


def _names_a_person(label: str, kind: str) -> bool:
    """A number column named by a role ("advisor", "faculty advisor"): it holds someone's number, no measure; its
    total, average or breakdown means nothing ("the total advisor of each major")."""
    words = label.lower().split()
    return kind == "number" and bool(words) and words[-1] in _ROLE_NOUNS


_MONTHS = MappingProxyType(
    {
        month[:3].lower(): month
        for month in ("January", "February", "March", "April", "May", "June", "July")
        + ("August", "September", "October", "November", "December")
    }
)


def _of_month(label: str, table_label: str, kind: str) -> str:
    """A number column named by a month alone ("Aug" of a temperature table) is that month's figure of what the table
    measures: "August temperature", never "their aug" or "the total jun"."""
    word = label.lower().strip()
    month = _MONTHS.get(word[:3]) if len(word) >= 3 else None
    if kind != "number" or month is None or word not in (month[:3].lower(), month.lower()):
        return label
    return f"{month} {noun(table_label, False)}"


def _id_named(original: str) -> bool:
    """An original name that ends in an id although its readable name hides it ("StuID" read as "stuid")."""
    return bool(re.search(r"(?:_id|[a-z]ID|[a-z]Id)$", original)) or original.lower().endswith("_id")


def _is_flag(column: _Column | None) -> bool:
    """A yes/no column ("is male" read as "male flag"): a condition ("those that are male"), never a detail to show,
    sort or group by ("their male flag")."""
    return column is not None and column.label.endswith(" flag")


def _are(column: _Column) -> str:
    """A flag's words after "are": a thing a row is, in the plural ("smokers", "hubs", "timing points", "public
    bodies"); a state as it is ("chronic", "on call", "full time")."""
    words = _flag_words(column).split()
    if len(words) == 1 and len(words[0]) >= _STEM_CHARS and words[0].endswith(("er", "or")) and words[0].isalpha():
        plural = plural_word(words[0])
        return plural if plural != words[0] and singular_word(plural) == words[0] else words[0]
    if _names_a_kind(words):
        return " ".join([*words[:-1], plural_word(words[-1])])
    return " ".join(words)


# How often English text writes a noun's plural against its singular, at least, for the noun to name things a row
# can be one of ("hubs" 0.35, "bodies" 0.15, "locums" 0.19 of their singulars); words said of a thing, not things,
# fall below ("wifis" 0, "electrics" 0.02, "lifetimes" 0.04, "clearances" 0.03).
_KIND_PLURALS = 0.12


def _names_a_kind(words: list[str]) -> bool:
    """Whether a yes/no column's words (one or two) name a kind of thing its rows are ("hub", "timing point", "public
    body"), said in the plural after "that are", rather than a state ("electric", "full time", "no show", "on call"):
    its head noun's plural is one English text writes often, and a pair of words one English writes as a set phrase
    ("full time") has a plural in use too ("public bodies")."""
    if not 1 <= len(words) <= 2 or not all(word.isalpha() and word.isascii() for word in words):  # noqa: PLR2004
        return False
    last = words[-1].lower()
    plural = plural_word(last)
    if len(last) < 3 or plural == last or participle(last, present=True) or words[0].lower() in PREPOSITIONS:  # noqa: PLR2004
        return False
    segmenter = _segmenter()
    if len(words) == 2:  # noqa: PLR2004
        phrase = f"{words[0].lower()} {last}"
        said, plurals = segmenter.BIGRAMS.get(phrase, 0), segmenter.BIGRAMS.get(f"{words[0].lower()} {plural}", 0)
        if said:  # a set phrase: its own plural decides ("public bodies"; "full times", "no shows" hardly written)
            return plurals >= _KIND_PLURALS * said
    return segmenter.UNIGRAMS.get(plural, 0) >= _KIND_PLURALS * segmenter.UNIGRAMS.get(last, 0) > 0


def _flag_words(column: _Column) -> str:
    return column.label.removesuffix(" flag")


def _vague(label: str) -> bool:
    """A name a worker cannot read once and know what it holds: a catch-all ("other details") or an identifier with
    a digit in it ("code2")."""
    words = label.lower().split()
    if len(words) == 1 and words[0] in _STATISTIC_WORDS:
        return True  # "their highest", "their average": of what, the name does not say
    if _SECRETS.intersection(words):
        return True  # "ask for their password too": a secret is nobody's question (the Chinese writer's 密码)
    if len(words) == 1 and len(words[0]) > 5 and words[0].endswith("ed") and not words[0].endswith("eed"):
        return True  # "whose founded is above 1800": a participle alone names no value
    if words and (words[0] in _CLAUSE_STARTS or words[-1] in _PREPOSITION_ENDS | _CLAUSE_ENDS):
        return True  # "their if affirmative win", "their continuation of", "amount paid in full yn", "hours took"
    if _SIMPLE_PASTS.intersection(words[1:]):
        return True  # "their date became customer": a verb in the past inside a name makes it a clause
    if any(_unread(word) for word in words):
        return True  # "their number of shaff in charge": a typo or a shortening is no word
    if len(words) > 1 and any(len(word) == 1 and word.isalpha() for word in words):
        return True  # "their g name", "ram mi b": a letter left of a shortening is no word
    if "or" in words[1:-1] and not _PLACE_KINDS.issuperset(word.strip(",") for word in words if word != "or"):
        return True  # "their boys or girls", "by their day or boarding": a choice between values, not a detail
    if _said_raw(words):
        return True
    if (len(words) == 1 and words[0] in _BARE_UNITS) or " ".join(words) in _BOOKKEEPING:
        return True  # "their milliseconds": a unit, not a detail; "their last update": when the row was written
    shares = any(word in ("percent", "percentage") for word in words[:-1])
    if len(words) > 2 and shares and participle(words[-1], present=True):
        return True  # "total budget percent invested": a share of what, in which order, the words do not say
    return not words or words[0] == "other" or any(character.isdigit() for character in label)


# Kinds of place a column's name can run together ("state province county"): one of them per row, which the name hides.
_PLACE_KINDS = frozenset(
    {"state", "province", "county", "region", "district", "territory", "prefecture", "municipality", "town", "city"}
)
# A word of three letters or fewer that English text uses less often than this is a shortening ("fte", "ay"); common
# ones ("tv", "usa", "kg", "id") are read at once.
_SHORT_WORD_IN_USE = 10_000_000


def _places_said(label: str) -> str:
    """Kinds of place run together in a column's name hold one of them per row: "state province county" is said
    "state, province or county", "city town" "city or town" (never "their state province county")."""
    words = label.split()
    if len(words) < 2 or not _PLACE_KINDS.issuperset(word.lower() for word in words):  # noqa: PLR2004
        return label
    return _and(words, "or") if len(words) > 2 else " or ".join(words)  # noqa: PLR2004


def _said_raw(words: list[str]) -> bool:
    """A name that reads as the schema's words, not a person's: shortenings run together ("the lowest fte ay"), two
    letters of one ("their doubles wl": win-loss, "their fg"), an adjective alone ("the rooms, such as their
    unavailable"), "min" after a name ("their delay min": minutes or a minimum, the name does not say)."""
    if len(words) > 1 and words[-1] == "min":
        return True
    if len(words) >= 2 and all(len(word) <= 3 for word in words) and sum(_short_unread(word) for word in words) >= 2:  # noqa: PLR2004
        return True
    if any(len(word) == 2 and _short_unread(word) for word in words):  # noqa: PLR2004
        return True  # alone too (written after suggestions set 13 was read, tuned): "their fg", "whose og is below"
    return len(words) == 1 and len(words[0]) > 6 and words[0].endswith(("able", "ible"))  # noqa: PLR2004


def _short_unread(word: str) -> bool:
    return word.isalpha() and word.isascii() and _segmenter().UNIGRAMS.get(word, 0) < _SHORT_WORD_IN_USE


# Shortenings of a column's name that English text uses as other words or hardly at all, which no rule spells out:
# "dep date" (departure), "dep mon" (month), "start ts" (timestamp), "sq" (square metres or feet).
_SCHEMA_SHORTENINGS = frozenset({"dep", "arr", "mon", "ts", "sq"})
# written after suggestions set 13 was read (tuned): "eff from date" (effective), "bal amount" (balance), "supp name"
# (supplier), "prop type" (property), "chg" (charge), "tot" (total)
_SCHEMA_SHORTENINGS |= {"eff", "bal", "supp", "prop", "chg", "tot"}


@functools.lru_cache(maxsize=4096)
def _unread(word: str) -> bool:
    """Whether a word of three letters or more is one English text hardly uses (`_WORD_IN_USE`), or a shortening a
    schema writes for a word (`ABBREVIATIONS`, `_SCHEMA_SHORTENINGS`)."""
    if word in ABBREVIATIONS or word in _SCHEMA_SHORTENINGS:
        return True  # "their constructor ref", "their cust name": a shortening a reader would spell out
    if len(word) < 3 or not word.isalpha() or not word.isascii():
        return False  # a Chinese name (CHASE's) is no English word the counts could judge
    # a word with no vowel is a shortening ("lng", "nbr") unless text uses it as a word of its own ("gdp", "dvd")
    bar = _WORD_IN_USE if set(word) & set("aeiouy") else _SHORTENING_IN_USE
    return _segmenter().UNIGRAMS.get(word, 0) < bar


def _own(label: str, table_label: str) -> str:
    """A detail of a table's rows named without the table's own words before it: "their gender" of the staff,
    "their name" of shipping agents ("their shipping agent name" says the agent twice)."""
    words, owner = label.split(), noun(table_label, False).split()
    rest = words[len(owner) :]
    lower, own = [word.lower() for word in words], [word.lower() for word in owner]
    if len(words) > len(owner) and lower[: len(owner)] == own:
        # "their details" of projects says nothing: a storage word alone keeps the table's words
        return label if len(rest) == 1 and rest[0].lower() in STORAGE_WORDS else " ".join(rest)
    for start in range(1, len(words) - len(owner)):
        if lower[start : start + len(owner)] == own and len(words) - len(owner) >= 2:
            # "their date closed" of complaints, never "their date complaint closed"
            return " ".join(words[:start] + words[start + len(owner) :])
    if len(words) > len(owner) + 1 and lower[-len(owner) - 1 :] == ["of", *own]:
        return " ".join(words[: -len(owner) - 1])  # "the ship's disposition", never "disposition of ship"
    if len(owner) > 1 and len(words) > 2 and lower[0] == own[0] and lower[1] != own[1]:
        # "their level name" of catalog structures, never "their catalog level name": the table's first word again
        return " ".join(words[1:])
    return label


def _without_quantifier(label: str) -> str:
    """ "all documents" -> "documents": "ask about the all documents instead" does not read; "other property
    features" are property features ("the other property features" reads as others than some); "view unit status"
    holds unit statuses."""
    words = label.split()
    return " ".join(words[1:]) if len(words) > 1 and words[0].lower() in _QUANTIFIERS | _STORAGE_PREFIXES else label


def _unread_table(label: str) -> bool:
    """A table name with a word a worker cannot read ("cmi cross references", "furniture manufactes"). A table names
    the things a database is about: a word of four letters or more that text uses at all (`_NEW_WORD_IN_USE`) is a
    word, newer than the counts ("tweet")."""

    def unread(word: str) -> bool:
        if not _unread(word) or word in ABBREVIATIONS or len(word) < 4 or not set(word) & set("aeiouy"):
            return _unread(word)
        return _segmenter().UNIGRAMS.get(word, 0) < _NEW_WORD_IN_USE

    return any(unread(word.lower()) for word in noun(label, False).split())


def _counted_plural(label: str) -> str:
    """ "number of component" -> "number of components", "number of city affected" -> "number of cities affected":
    what a number counts is many."""
    words = label.split()
    if len(words) >= 3 and [word.lower() for word in words[:2]] == ["number", "of"] and not is_plural(words[2]):
        words[2] = plural_word(words[2])
    return " ".join(words)


def _without_unit(label: str) -> str:
    """ "profits billion" -> "profits": a measure's name without the unit written after it."""
    words = label.split()
    return " ".join(words[:-1]) if len(words) > 1 and words[-1].lower() in _UNIT_ENDS else label


def _plurals(label: str) -> str:
    """A readable name in the plural, by the rule the drafts use (`annotation.wording.english.noun`)."""
    return noun(label, True) if label else "results"


def _rows_of(label: str) -> str:
    """A table's readable name in the plural: it names things, so one ending in -ing has a plural ("the number of
    bookings", never "of booking"; `english.noun` with `rows`)."""
    words = label.split()
    if len(words) > 1 and words[-1].endswith("ing") and is_plural(words[-2]) and singular_word(words[-2]) != words[-2]:
        return label  # "claims processing": an activity on many things, no thing of its own
    return noun(label, True, rows=True) if label else "results"


def _and(items: list[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _bare(label: str) -> str:
    """ "the highest age" -> "highest age", "their age" -> "age": for phrases that bring their own determiner."""
    for prefix in ("the ", "their "):
        if label.startswith(prefix):
            return label[len(prefix) :]
    return label


def _one(label: str) -> str:
    """ "languages" -> "language": a group is one value of a column, whatever the column's name says ("the number of
    songs per languages")."""
    words = label.split()
    if "of" in words or (words and words[0] in ("number", "total", "average")):
        return label  # "per number of tickets": a count is a count of many
    if words and is_plural(words[-1]) and singular_word(words[-1]) != words[-1]:
        words[-1] = singular_word(words[-1])
    return " ".join(words)


def _first(count: int) -> str:
    return "just the first one" if count == 1 else f"the first {count}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
