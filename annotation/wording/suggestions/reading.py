"""The previous query and its result, read for the next-question suggestion (`annotation.wording.suggestions`):
`_Reader` reads the SQL into `_Facts`, `_Analysis` applies one rule per relation R1-R16 (the module docstring of the
package states them) and collects the material each suggestion is written from, and `_Seen` holds the result the
worker was shown and the columns' statistics."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from numbers import Real

from sqlglot import expressions as exp

from annotation.labels.relations import (
    CATEGORIES,
    CATEGORY_OF,
    COMBINATION,
    DIFFERENT_INSTANCES,
    DISPLAY,
    SAME_INSTANCES,
)
from annotation.sql.spider import SpiderEncodingError, or_branches, parse_sql, unwrap_paren
from annotation.wording.counted import count_shown
from annotation.wording.english import (
    STORAGE_WORDS,
    column_phrase,
    participle,
    per_schema,
)
from annotation.wording.suggestions.errors import IntentError
from annotation.wording.suggestions.names import (
    _NAMING_WORDS,
    _STATISTIC_WORDS,
    _Column,
    _is_flag,
    _label,
    _names_a_person,
    _Schema,
    _schema_of,
    _vague,
)

_RELATION_ORDER = tuple(f"R{number}" for number in range(1, 17))
# Categories that may be combined (Table 12: all but Different Entity), in the order their phrases are written:
# what to show, which instances, how to display them.
_COMBINABLE = (SAME_INSTANCES, DIFFERENT_INSTANCES, DISPLAY)
_DISPLAY_RELATIONS = frozenset({"R14", "R15", "R16"})

_AGGREGATES = {exp.Count: "count", exp.Max: "max", exp.Min: "min", exp.Sum: "sum", exp.Avg: "avg"}
_NUMBER_FUNCTIONS = ("max", "min", "avg", "sum")
_ORDER_FUNCTIONS = ("max", "min")
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "!=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}
_MIRRORED = {"=": "=", "!=": "!=", ">": "<", ">=": "<=", "<": ">", "<=": ">="}
_VALUE_OPS = frozenset({"=", "in", "like", "between", ">", ">=", "<", "<="})
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
# Columns of free text, written anew for each row: no category to group by ("the number of detentions per summary").
_FREE_TEXT = frozenset(
    {"summary", "description", "descriptions", "details", "notes", "note", "comment", "comments", "remarks", "text"}
    | {"message", "content", "abstract", "review", "explanation", "reason", "narrative", "body"}
)
# A place on the globe: the highest latitude is the northernmost, its total or average is no place.
_PLACES = frozenset({"latitude", "longitude"})
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


# A column whose values are (almost) all different names single rows: nobody counts "people per name". Above this
# share of distinct values among the rows, a column is neither grouped by nor narrowed to.
_UNIQUE_SHARE = 0.5
# A table SQLite creates for AUTOINCREMENT, listed in some Spider schemas; nobody asks about it.
_INTERNAL_TABLES = frozenset({"sqlite_sequence"})


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
    # The yes/no columns a set operation's other SELECT holds at yes for every row: "= 1" of an INTERSECT, "= 0" of an
    # EXCEPT ("those that are seasonal instead" of staff kept to seasonal ones asks for what they are).
    held_yes: list = field(default_factory=list)


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


_YES_VALUES = frozenset({"1", "t", "y", "yes", "true"})
_NO_VALUES = frozenset({"0", "f", "n", "no", "false"})


def _held_yes(node: exp.SetOperation, filters: list) -> list:
    """The columns an INTERSECT's other side holds at yes ("seasonal = 1"), or an EXCEPT's takes away at no
    ("seasonal = 0"): every row of the result is yes there. A UNION holds nothing for every row."""
    wanted = _YES_VALUES if isinstance(node, exp.Intersect) else _NO_VALUES if isinstance(node, exp.Except) else None
    if wanted is None:
        return []
    return [
        item.column
        for item in filters
        if item.column is not None
        and item.op == "="
        and not item.negated
        and len(item.values) == 1
        and str(item.values[0]).lower() in wanted
    ]


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
            other = self.query(node.expression)
            facts.set_operation = True
            facts.mixed_tables = facts.mixed_tables or set(other.tables) != set(facts.tables)
            facts.held_yes = [*facts.held_yes, *_held_yes(node, other.filters)]
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
        if column is None or column.kind != "number" or (column.is_key and not _role_named(names, column)):
            continue
        if not _is_flag(column) and _zero_one(statistics(names.originals[column.table], column.original)):
            flags.append(number)
    return _flagged(schema, tuple(flags)) if flags else schema


def _role_named(names: _Schema, column: _Column) -> bool:
    """Whether a number column is read as a key only for being named by a role ("club member", "advisor"), no key of
    the schema: holding only 0 and 1, it says whether the row is one (written after drafts set 14 was read, tuned:
    "owners whose club member is 0")."""
    declared = column.is_primary or (column.table, column.original.lower()) in names.references
    return not declared and _names_a_person(column.label, column.kind)


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
        # written after suggestions set 16 was read (tuned): "those that are seasonal instead" of staff an INTERSECT
        # kept to seasonal ones
        used = {item.column for item in facts.filters} | set(facts.held_yes)
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


# Up to this many rows, all shown, are read at a glance: sorting them helps nobody.
_AT_A_GLANCE = 5
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


def _catch_all(column: _Column) -> bool:
    """A text column named by a storage word ("student details", "other data", "info"): its name does not say what
    it holds, any row holds anything (first names, here), so a condition on one ("whose student details are Marry")
    says nothing a worker can picture. Free text named by what it is ("paragraph text", "description") can still be
    matched."""
    words = column.label.lower().split()
    return column.kind != "number" and bool(words) and words[-1] in STORAGE_WORDS
