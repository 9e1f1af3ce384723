"""What leads somewhere after the result the worker was shown (`annotation.wording.suggestions`): `_seen_view` leaves
out of an `_Analysis` the material that `_Seen` shows to be pointless (a group of all-different values, a narrowing
of one row, an order of one row) and keeps the details, figures and orders worth asking."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping

from annotation.wording.suggestions.names import (
    _NAMING_WORDS,
    _PREPOSITION_ENDS,
    _Column,
    _is_flag,
    _is_link,
    _personal_name,
    _rows_of,
    _unread_table,
    _vague,
)
from annotation.wording.suggestions.reading import (
    _ORDER_FUNCTIONS,
    _TIME_WORDS,
    _Aggregate,
    _Analysis,
    _catch_all,
    _Filter,
    _Seen,
    _SortKey,
    _time_word,
    _whole,
)

# Values whose alphabetical order tells nothing: a listing of e-mail addresses, colours, addresses or descriptions
# "sorted alphabetically" is the same listing shuffled.
_UNORDERED_WORDS = frozenset(
    {"email", "mail", "address", "color", "colors", "colour", "colours", "description", "details", "url", "website"}
)
# The rest of an equality or a pattern that kept fewer than one row in this many of the table is every other row.
_REST_SHARE_AT_LEAST = 20


_AFTER_NOTHING = frozenset({"R9", "R10", "R11", "R12", "R13"})
# A listing of more rows than this is nothing a person reads ("list each population" of 4,079 cities).
_LIST_AT_MOST = 100
# A number column grouped by with more values than this is a measure, not a category ("the number of cars per mpg").
_NUMBER_GROUPS_AT_MOST = 20
# A statistic ("the average grade") of fewer rows than this is those rows' values: list them rather than figure them.
_FIGURE_ROWS_AT_LEAST = 3


def _ordinal(key: _SortKey, seen: _Seen) -> bool:
    """Whether the first rows by `key` are "the highest" or "the latest" of something: a figure, a number or a time."""
    if key.aggregate is not None:
        return True
    column = key.column
    return column is not None and (
        _time_word(column.label) in _TIME_WORDS or column.kind == "time" or seen.numeric(column)
    )


_FLIPPED = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
# The other side R10 says ("those whose year is after 2009" after "year < 2009"): strictly beyond the value, which the
# column's highest (or lowest) value shows empty when it is that value.
_BEYOND = {">": "<", ">=": "<", "<": ">", "<=": ">"}


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
        if not (item.op in _BEYOND and item.values and seen.empty_side(item.column, _BEYOND[item.op], item.values[0]))
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
    # Written after suggestions set 14 was read (tuned): a condition on a person's own name in place of one on
    # anything else picks a few people nobody asked about ("how many volunteers there are, for those whose last name
    # is Shaw instead"); after a name, another name is the same kind of question.
    by_name = any(item.column is not None and _personal_name(item.column) for item in analysis.facts.filters)
    material["R12"] = [
        (kind, detail)
        for kind, detail in material["R12"]
        if kind != "column" or by_name or detail is None or not _personal_name(detail)
    ]
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
    material["R2"] = _less_worth_asking(analysis, seen, material["R2"])
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


def _less_worth_asking(analysis: _Analysis, seen: _Seen, options: list) -> list:
    """Fewer columns that still tell something after the result shown: no column dropped of two ("the same counties
    without their population" leaves the names already in view, less than was asked and shown), and no number kept
    alone out of every detail ("just their ticket price instead of every detail": figures of rows nobody can tell
    apart without their other details). Written on the fresh16 suggestions sheets (tuning)."""
    if not seen.rows:
        return options
    shown = len(dict.fromkeys(analysis.facts.shown))
    return [
        (kind, column)
        for kind, column in options
        if (kind == "drop" and shown > 2) or (kind == "keep" and not seen.numeric(column))  # noqa: PLR2004
    ]


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
    # Written after suggestions set 14's round (tuning draws, tuned): rows of a link counted are pairs ("talk
    # speakers"), which the query's entity (one side, "speakers") does not list: "the speakers themselves" repeats
    # a speaker per talk and drops the talks
    pairs = any(table in names.links for table in facts.tables) and not set(analysis.entity) & set(facts.tables)

    def listable(aggregate: _Aggregate) -> bool:
        themselves = (
            not facts.group
            and aggregate.function == "count"
            and (aggregate.column is None or aggregate.column.is_key)
            and not facts.set_operation
            and not facts.inner_groups
        )
        return (named and not pairs) or not themselves

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


def _figures_fixed(facts) -> dict:
    """The figures a HAVING condition sets for every group, by (function, column): after "HAVING count(*) = 1" each
    group's count is 1, so "how many each has" says nothing, nor does a count broken down further (1s)."""
    return {
        (item.aggregate.function, item.aggregate.column): item.values[0]
        for item in facts.filters
        if item.aggregate is not None and item.op == "=" and not item.negated and len(item.values) == 1
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
    fixed_figures = _figures_fixed(facts)
    one_each = bool(facts.group) and (seen.groups_of_one() or fixed_figures.get(("count", None)) == 1)

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
        else [
            (aggregate, key)
            for aggregate, key in material["R4"]
            if grouping(key) and not distinct_shown(key) and not (one_each and aggregate.function == "count")
        ],
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
            and (function, column) not in fixed_figures
        ],  # "how many" of three rows in view is in view
        "R6": [
            option
            for option in material["R6"]
            if not seen.code_number(option[2]) and not few_rows and not one_each and not one_value(option[2])
        ],
        "R7": [aggregate for aggregate in material["R7"] if few_to_list(aggregate) and not vague_groups],
    }
