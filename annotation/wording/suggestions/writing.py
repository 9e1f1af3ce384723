"""The texts of the next-question suggestion (`annotation.wording.suggestions`): `_Writer` words one relation from the
material `_Analysis` collected for it, with the phrase helpers for flags, negations, values and plurals, and returns
a `Recommendation`."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from numbers import Real
from types import MappingProxyType

from annotation.wording.counted import grouped_counted
from annotation.wording.english import (
    PREPOSITIONS,
    STORAGE_WORDS,
    _segmenter,
    acronyms_capitalised,
    flag_before,
    flag_verb,
    is_plural,
    noun,
    noun_flag,
    participle,
    plural_word,
    singular_word,
)
from annotation.wording.suggestions.names import (
    _AMOUNT_PLURALS,
    _BARE_UNITS,
    _NAMING_WORDS,
    _PREPOSITION_ENDS,
    _SPAN_UNITS,
    _STATISTIC_WORDS,
    _STEM_CHARS,
    _UNIT_ENDS,
    _and,
    _Column,
    _id_named,
    _is_flag,
    _looks_like_id,
    _personal_name,
    _rows_of,
    _unread_table,
    _vague,
)
from annotation.wording.suggestions.reading import (
    _NOT_ADDITIVE,
    _TIME_WORDS,
    _Aggregate,
    _Analysis,
    _catch_all,
    _Filter,
    _SortKey,
    _time_word,
    _whole,
)

_ORDERS = frozenset({"R14", "R15"})  # a new order of the rows, by a key (`_Writer._empty_key`)
# Changes that read other rows than the query's: an order after one sorts rows `_Writer._empty_key` has not read ("drop
# the condition on being cancelled, sorted by their sold count": the cancelled screenings alone have none; written
# after suggestions set 15 was read, tuned)
_OTHER_ROWS = frozenset({"R9", "R10", "R11", "R12"})
_FUNCTION_WORDS = {"max": "highest", "min": "lowest", "avg": "average", "sum": "total"}
_MAX_VALUE_CHARS = 40
_WORDS = re.compile(r"[^\W_]+")


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


# How many times a combination's second change is drawn again when it names the first change's column.
_MODIFIER_DRAWS = 4


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


def _holding(numbers: list, op: str, value: str) -> int:
    """How many of `numbers` meet `> value` or `< value`."""
    try:
        bound = float(value)
    except ValueError:
        return 0
    return sum(1 for number in numbers if (number > bound if op == ">" else number < bound))


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
        self._lead: str | None = None  # the relation a combination's modifier follows

    def phrase(self, relation: str, *, alone: bool = True, form: str | None = None) -> str:
        form = form or ("alone" if alone else "modifier")
        self._reset()
        return self._form(relation, form)

    def _form(self, relation: str, form: str) -> str:
        material = self.analysis.material[relation]
        if relation in _ORDERS and not (form == "modifier" and self._lead in _OTHER_ROWS):
            material = [option for option in material if not self._empty_key(option)]
            if not material:
                return ""  # every order left is by a column the rows have no value of
        return getattr(self, f"_{relation.lower()}")(material, form)

    def _empty_key(self, option) -> bool:
        """Whether an order (R14's key, R15's new key) is by a column none of the rows the query read has a value
        of: "sort them by their target amount" of grants whose funds have none orders nothing. Written after
        suggestions set 14 was read (tuned); both languages' writers take their orders from here."""
        key = option[1] if isinstance(option, tuple) and option[0] == "key" else option
        if not isinstance(key, _SortKey) or key.aggregate is not None or key.column is None:
            return False
        held = self._held(key.column)
        return held is not None and all(value is None for value in held)

    def combined(self, first: str, second: str, *, with_values: bool) -> str:
        """One sentence for a combination: the first relation's imperative, a comma, the second as a modifier."""
        self._reset()
        saved, self.values = self.values, (self.values if with_values else None)
        self._lead = first
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
            self.values, self._lead = saved, None
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
            return _that_are(column, rows=self._flag_rows(column))
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

    def _flag_rows(self, column: _Column | None) -> str | None:
        """The rows' own noun in the plural, for a flag of theirs named by a noun to be said before it ("that are
        airport branches": `_noun_flag`), or None: a flag of another table (the rows are no branches), of a link, or
        a table named by a word nobody reads."""
        entity = self.analysis.entity
        if column is None or not entity or column.table != entity[0] or column.table in self.names.links:
            return None
        label = self.names.labels.get(column.table, "")
        return self.things if label and not _unread_table(label) and self.things != "results" else None

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
            return _one(_how_many(column))  # "each special feature", never "each special features"
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
            return _one(_how_many(replace(key, label=_own(key.label, self.names.labels[key.table]))))
        return _one(_how_many(key))

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
            named = self._named_rows(aggregate.column.table) if form == "alone" else None
            if named:
                # each value beside what it is of: "the seat count of each restaurant", never bare numbers
                return f"Ask for the {aggregate.column.label} of each {named} instead of {label}"
            return f"Ask to list each {aggregate.column.label} instead of {label}"
        return f"Ask to list the {self._counted()} themselves instead of {label}"

    def _named_rows(self, table: str | None) -> str | None:
        """What one row of `table` is, when a column names each row (a name or a title) and the table is no link
        between others: "restaurant"; else None."""
        if table is None or table in self.names.links or table not in self.names.labels:
            return None
        columns = self.names.columns.get(table, [])
        if not any(column.label.lower().rsplit(" ", 1)[-1] in _NAMING_WORDS for column in columns):
            return None
        return noun(self.names.labels[table], False)

    # -- Different Instances of the Same Entity (alone, lead or modifier) -------------------------------------

    def _narrowable(self, column: _Column) -> bool:
        """Whether a narrowing may be on `column`. Written after suggestions set 13 was read (tuned): a person's own
        name picks that person, no part of the rows worth asking about ("only those whose last name is Jenkin" of
        first names counted)."""
        return not _personal_name(column)

    def _narrowing(self, material: list) -> tuple[str, object] | None:
        """What a narrowing (R8) says, chosen once for every language's words: ("some", None) for only some of the
        rows; ("on", column) for a condition on the column whose value the worker picks (no values were read);
        ("only", condition) for the rows a condition in words keeps; None when nothing worth asking can be said."""
        material = [column for column in material if column is None or self._narrowable(column)]
        if not material:
            return None
        column = self.rng.choice(material)
        if column is None:
            return "some", None
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
            return "on", column
        if condition is None:
            # Values were read and none reads as words: "a condition on their document description" names nothing
            # to ask. Unsaid; another relation is worded instead.
            return None
        return "only", condition

    def _r8(self, material: list, form: str) -> str:
        choice = self._narrowing(material)
        if choice is None:
            return ""
        kind, what = choice
        if kind == "some":
            return {
                "alone": f"Narrow it down to only some of these {self.things}",
                "lead": f"Ask about only some of these {self.things}",
                "modifier": "for only some of them",
            }[form]
        if kind == "on":
            return {
                "alone": f"Narrow it down with a condition on their {what.label}",
                "lead": f"Narrow it down by their {what.label}",
                "modifier": "",  # ", narrowed down by their initial" after another change names nothing to ask
            }[form]
        return {
            "alone": f"Narrow it down, e.g. only those {what}",
            "lead": f"Ask only about those {what}",
            "modifier": f"only those {what}",
        }[form]

    def _widening(self, material: list) -> tuple[str, _Column | None, str | None]:
        """What a widening (R9) says, chosen once for every language's words: ("only", None, None) to drop or relax
        the query's only condition, which names no column; ("one", None, None) one of several such; ("also", column,
        value) to take in the rows of another value; ("drop", column, None) to drop or relax the condition on the
        column."""
        condition = self.rng.choice(material)
        column = condition.column
        if column is None:
            # the only condition, on a figure ("HAVING count(*) >= 5") or against a subquery: "one of the
            # conditions" would promise others, and what qualifies is a group as often as a row
            return ("only" if len(self.facts.filters) == 1 else "one"), None, None
        if condition.op in ("=", "in") and condition.values and not condition.negated and not _is_flag(column):
            # a yes/no's other value is the rest of the rows: "also include those whose chronic flag is 0" is the
            # condition dropped
            value = self._value(column, avoid=condition.values)
            if value is not None:
                self._uses_value(column, value)
                return "also", column, value
        return "drop", column, None

    def _r9(self, material: list, form: str) -> str:
        kind, column, value = self._widening(material)
        if kind == "only":
            # beside another change, "without the condition" names none (unsaid: another pair is worded)
            return "Widen it: drop or relax the condition" if form == "alone" else ""
        if kind == "one":
            return {
                "alone": f"Widen it: drop or relax one of the conditions, so that more {self.things} qualify",
                "lead": "Drop or relax one of the conditions",
                "modifier": "with one condition dropped or relaxed",
            }[form]
        if kind == "also":
            whose = _whose(self._condition_label(column))
            return {
                "alone": f"Widen it: also include those {whose} {value}",
                "lead": f"Also include those {whose} {value}",
                "modifier": f"also for those {whose} {value}",
            }[form]
        return {
            "alone": f"Widen it: drop or relax the condition {_on(column, self._flag_rows(column))}",
            "lead": f"Drop or relax the condition {_on(column, self._flag_rows(column))}",
            "modifier": f"without the condition {_on(column, self._flag_rows(column))}",
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
        if self._names_no_other(condition, current):
            return ""
        self._uses(column)
        other = f"another {self._named(column)}"
        if current is not None and condition.op == "=" and not condition.negated:
            other = f"another {self._named(column)} than {current}"
        return {
            "alone": f"Ask the same about {other}",
            "lead": f"Ask the same about {other}",
            "modifier": f"for {other}",
        }[form]

    def _names_no_other(self, condition: _Filter, current: str | None) -> bool:
        """Whether "ask the same about another volunteer" would name nobody: no other value was found for a name
        (said as the thing it names), the database's values can be read (so the worker is not left to pick one),
        and the condition is no plain equality whose value "another ... than Brian" can name. "Another sex" of a
        coded column is a choice of few; another of many people, dates or times ("for another join date", "another
        start time"), no question. Written after suggestions set 14 was read (tuned), the dates and times on the
        tuning draw after it; both languages' writers ask it."""
        equality = current is not None and condition.op == "=" and not condition.negated
        column = condition.column
        many = column is not None and (
            column.label.split()[-1] in _NAMING_WORDS
            or column.kind in ("number", "time")
            or _time_word(column.label) in _TIME_WORDS
        )
        return self.readable_values and many and not equality

    def _r11(self, material: list, form: str) -> str:
        condition = self.rng.choice(material)
        rows = self._flag_rows(condition.column)
        opposite = _negation(condition, self._condition_label(condition.column), rows=rows)
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
            on = _on(condition.column, rows)
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
        labels = [column.label for column in material[:2]]
        last = labels[-1].split()[-1] if labels[-1] else ""
        if is_plural(last) and singular_word(last) != last:
            # "each gross tons" says one of a plural: the values themselves (written after set 15 was read, tuned)
            return f"Ask for their {_and(labels)} without repeats"
        return f"Ask for each {_and(labels)} only once, without repeats"


def _like_pattern(pattern: str) -> re.Pattern:
    """A LIKE pattern as SQLite reads it: % any text, _ one character, letters in either case."""
    parts = (".*" if char == "%" else "." if char == "_" else re.escape(char) for char in pattern)
    return re.compile("".join(parts), re.IGNORECASE | re.DOTALL)


def _whose(label: str) -> str:
    """ "whose age is", "whose followers are": a plural name takes a plural verb; its head noun ends before a
    preposition or "per" ("whose number of factories is", "whose hours per week are")."""
    words = label.split()
    ends = _PREPOSITION_ENDS | {"per"}
    cut = next((index for index, word in enumerate(words) if index and word.lower() in ends), len(words))
    head = words[:cut]
    return f"whose {label} {'are' if head and is_plural(head[-1]) else 'is'}"


def _on(column: _Column, rows: str | None = None) -> str:
    """ "on their age", "on being full time": what a condition is on, in words (a yes/no is no detail of theirs;
    `rows`: `_that_are`'s)."""
    if _is_flag(column) and _had(column):
        return f"on {_had(column)}"  # "on having a cafe", never "on being has cafe"
    return f"on being {_are(column, rows)}" if _is_flag(column) else f"on their {column.label}"


# Verbs a flag's name can start with ("has cafe", "needs treatment"): the verb for many rows and its -ing form.
def _flag_verb(column: _Column) -> tuple[str, str, str] | None:
    """`english.flag_verb` of a column: ("have", "having", "a cafe") of "has cafe", None for a flag named otherwise."""
    return flag_verb(_flag_words(column))


def _had(column: _Column) -> str | None:
    """ "having a cafe", "needing treatment": a flag named by a verb, said as what a condition is on; None for any
    other flag."""
    verb = _flag_verb(column)
    return f"{verb[1]} {verb[2]}" if verb is not None else None


def _that_are(column: _Column, *, negated: bool = False, rows: str | None = None) -> str:
    """ "that are full time", "that are not smokers"; a flag named by a verb says it of many rows: "that have a cafe",
    "that do not need treatment" (never "that are has cafe", "that are needs treatment"); a flag named by a noun,
    given `rows` (the rows' own noun, `_Writer._flag_rows`), says it before them: "that are airport branches"."""
    verb = _flag_verb(column)
    if verb is not None:
        return f"that {'do not ' if negated else ''}{verb[0]} {verb[2]}"
    return f"that are {'not ' if negated else ''}{_are(column, rows)}"


_YES = frozenset({"1", "t", "y", "yes", "true"})
_NO = frozenset({"0", "f", "n", "no", "false"})


def _flag_negation(condition: _Filter, rows: str | None = None) -> str | None:
    """ "that are not full time": the opposite of a yes/no condition, or None when its value is neither yes nor no."""
    if condition.op not in ("=", "!=") or len(condition.values) != 1:
        return None
    value = str(condition.values[0]).strip().lower()
    if value not in _YES | _NO:
        return None
    holds = (value in _YES) == (condition.op == "=")
    if condition.negated:
        holds = not holds
    return _that_are(condition.column, negated=holds, rows=rows)


# A side of a range said of a point in time: "those whose invoice date is before 2012-12-08", never "below".
_TIME_SIDES = MappingProxyType(
    {"below": "before", "above": "after", "at most": "no later than", "at least": "no earlier than"}
)


def _in_time(side: str, column: _Column | None) -> str:
    """`side` ("below", "at least") in the words of `column`: of a date or a year, "before", "no earlier than"."""
    timely = column is not None and (column.kind == "time" or _time_word(column.label) in _TIME_WORDS)
    return _TIME_SIDES.get(side, side) if timely else side


def _negation(condition: _Filter, label: str | None = None, *, rows: str | None = None) -> str | None:
    """ "whose country is not US": the words for the opposite of `condition` (its column said as `label`, its own
    name by default; a flag's `rows` as `_that_are` takes them), or None when they cannot be told."""
    column = condition.column
    if column is None:
        return None
    if _is_flag(column):
        return _flag_negation(condition, rows)
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


def _are(column: _Column, rows: str | None = None) -> str:
    """A flag's words after "are": a thing a row is, in the plural ("smokers", "hubs", "timing points", "public
    bodies"); a state as it is ("chronic", "on call", "full time"); a flag named by a noun before `rows`, the rows'
    own noun, when given ("airport branches", "no-show shifts": `_noun_flag`)."""
    words = _flag_words(column).split()
    if rows and _noun_flag(column):
        return flag_before(" ".join(words), rows)
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


def _noun_flag(column: _Column) -> bool:
    """Whether a yes/no column is named by a noun ("airport", "gift aid", "no show"): `english.noun_flag`, the one
    reading both writers say such a flag by (before the rows' noun: "airport branches"). Written after suggestions
    set 14 was read (tuned); shared with the response drafts after drafts set 14 ("marked as shore power")."""
    return noun_flag(_flag_words(column))


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


def _plurals(label: str) -> str:
    """A readable name in the plural, by the rule the drafts use (`annotation.wording.english.noun`)."""
    return noun(label, True) if label else "results"


def _bare(label: str) -> str:
    """ "the highest age" -> "highest age", "their age" -> "age": for phrases that bring their own determiner."""
    for prefix in ("the ", "their "):
        if label.startswith(prefix):
            return label[len(prefix) :]
    return label


def _how_many(column: _Column) -> str:
    """A number column named by a plural ("nights", "shelf days", "credit days") holds how many of them: one of its
    values is a number of them ("the total fee of each number of nights"), never one of them ("of each night": the
    groups are 1, 2 and 3 nights). Written on an unrated goals draw of the made orchestra, bakery, pharmacy and
    marina (seed 16616, tuning)."""
    words = column.label.split()
    if column.kind != "number" or not words or "of" in words or words[0] in _STATISTIC_WORDS | {"number"}:
        return column.label  # "max months": a limit in months, no count ("per number of max months")
    if len(words) > 2 and words[-2] in ("in", "per"):  # noqa: PLR2004
        return column.label  # "duration in minutes", "hours per week": a measure in a unit
    last = words[-1]
    if last in _UNIT_ENDS | _WEIGHTS_AND_LENGTHS:
        return column.label  # "gross tons", "length metres": a measure in a unit, never a number of things
    return f"number of {column.label}" if is_plural(last) and singular_word(last) != last else column.label


# Plural units a measure is named by ("gross tons"): a figure in them, not things counted.
_WEIGHTS_AND_LENGTHS = frozenset(
    {"tons", "tonnes", "grams", "kilograms", "pounds", "ounces", "litres", "liters", "miles", "kilometres"}
    | {"kilometers", "metres", "meters", "yards", "degrees", "knots", "watts", "volts", "amps", "calories"}
)


def _one(label: str) -> str:
    """ "languages" -> "language": a group is one value of a column, whatever the column's name says ("the number of
    songs per languages")."""
    words = label.split()
    if "of" in words or (words and words[0] in ("number", "total", "average")):
        return label  # "per number of tickets": a count is a count of many
    if len(words) > 2 and words[-2] == "in":  # noqa: PLR2004
        return label  # a unit after "in" is one: "per duration in minutes", never "in minute"
    if words and is_plural(words[-1]) and singular_word(words[-1]) != words[-1]:
        words[-1] = singular_word(words[-1])
    return " ".join(words)


def _first(count: int) -> str:
    return "just the first one" if count == 1 else f"the first {count}"
