"""The rules a sampled goal passes before it is kept: a question a person would ask of the data (docs/goals.md, "Goals
a person would ask").

An operation tree can run, return rows and encode, and still ask nothing: a set operation whose result is one of its
sides, a count per group where every group is one row, the average of a zip code, a list of 120 rows of M and F, a
count over a link table that counts each appointment once per match. Each rule below has a name and a reason
(RULES); `GoalRules.before_run` and `GoalRules.after_run` return the first rule a tree breaks, which the sampler
counts by name, so a run's report says how many trees were refused for what. One rule rewrites instead of refusing:
a count over a join that multiplies the counted rows counts each of them once (count(DISTINCT key)) when the counted
table has a key.

Most rules read the data, not only the schema (a name column is unique in the data whether or not it was declared
so; a code stored as an integer looks like a number to the schema): a column's figures (rows, distinct values, range,
whether every value is an integer) are read once per column, and a tree's own figures (its sides, its first two
places) with a statement or two, each through the read-only sandbox.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from annotation.goals.operation_tree import (
    counted_table,
    join_directions,
    lowest_table,
    set_side,
    tree_probe,
    tree_sql,
    unread_tables,
)
from annotation.sql.sandbox import execute
from annotation.wording.english import spelled_out

__all__ = [
    "RULES",
    "GoalRules",
    "Refusal",
    "identifier_words",
    "is_person_name_part",
    "is_time_stamp",
    "name_kind",
    "question_shape",
    "round_numbers",
]

# Every rule a tree can break, with the reason a report gives (marked for translation: the page showing a run's report
# translates it by its English words).
RULES = {
    "set_same_as_side": gettext_noop("a set operation whose result is one of its two sides"),
    "group_of_one": gettext_noop("a count per group where every group is (nearly) one row: grouped by a unique column"),
    "aggregate_of_identifier": gettext_noop(
        "a total, an average or a ranking of an identifier, a code or an ordinal number"
    ),
    "sum_of_level": gettext_noop("a total of a level that is only averaged (a rating, an age, a rate)"),
    "group_by_identifier": gettext_noop(
        "a count per value of an identifier (a room number, a phone, a key whose values are numbers, the "
        "minutes of a time) rather than per kind or per named thing: its answer is numbers nobody reads"
    ),
    "group_by_many_values": gettext_noop(
        "a count per value of a number or a date with many values (per total of credits, per birth year, per "
        "day): the groups are no kinds of thing"
    ),
    "count_of_links": gettext_noop(
        "a count per kind (a gender, a country) of the rows of a link table reached through joins: pairs "
        "counted for nobody's question"
    ),
    "duplicate_rows": gettext_noop("a list whose rows mostly repeat one another (a few values listed over and over)"),
    "count_fan_out": gettext_noop("a count over a join that counts the same row several times"),
    "answers_itself": gettext_noop(
        "shows what a filter fixes, what it ranks by or what it compares with the average, or counts what one"
        " unique value picks"
    ),
    "set_of_lookups": gettext_noop(
        "a set operation of a side that picks one row by a unique value: two look-ups, not a question"
    ),
    "shows_identifier": gettext_noop(
        "shows an id, a code or a phone of things that have a name: the name is what a person asks"
    ),
    "filter_on_identifier": gettext_noop(
        "a condition on an id number (an amenity id of 7): a number nobody asking knows"
    ),
    "list_of_values": gettext_noop(
        "a list of every value of a number or a date, with no condition: values of nothing named"
    ),
    "empty_values": gettext_noop("lists or groups by a column empty in many rows"),
    "long_list": gettext_noop(
        "a list longer than a person reads: over 100 rows, or over 50 of values that name nothing (dates)"
    ),
    "superlative_tie": gettext_noop(
        "a highest or lowest whose first place is shared or empty: its answer is arbitrary"
    ),
    "having_keeps_all": gettext_noop(
        "a condition on the counts per group that chooses nothing (under three groups, or all alike)"
    ),
    "unused_join": gettext_noop("a join to a table the question neither reads nor counts"),
    "join_not_on_a_key": gettext_noop(
        "a join along a column unique on neither side (one column of a key of two): it pairs rows that do not"
        " belong together"
    ),
    "same_as_another": gettext_noop(
        "asks what goals kept in the run ask: the same answer from the same columns, the same question with "
        "other values a third time, or a count per group again with another threshold"
    ),
    "condition_keeps_all": gettext_noop("a condition, or a union of two, that every row passes: it narrows to nothing"),
    "one_value": gettext_noop(
        "shows or groups by a column whose rows all hold one value (every property's other details are USA): "
        "its answer is known before asking"
    ),
    "group_by_date": gettext_noop("a count per date or time stamp: a day or a second is no kind of thing"),
    "part_of_a_number": gettext_noop(
        "a condition that a number, a date or a value of a few letters held as text contains some of its "
        "characters: nobody asks for part of it"
    ),
    "exact_time": gettext_noop("a condition that a time stamp is one second of one day: a value nobody asking knows"),
    "meaningless_values": gettext_noop(
        "a condition on, a list of, a ranking by or a count per values that mean nothing to a person (single "
        "letters of many kinds, initials, passwords, hashes)"
    ),
    "group_by_flag": gettext_noop(
        "a count per value of a yes/no flag (0 or 1): which of two flag values has more is no question"
    ),
    "value_without_attribute": gettext_noop(
        "a condition on, a list of or a count per the values of a table of attributes and their values, naming no "
        "attribute: a value 0 or 1 of which attribute?"
    ),
    "few_kinds_far": gettext_noop(
        "a count per kind of two or three values (a sex, a status) of things two tables away or further: which of "
        "two kinds has more of them is nobody's question"
    ),
    "exact_amount": gettext_noop(
        "a condition that an amount equals one of its many values (a share count of 2751): a number nobody asking knows"
    ),
    "shows_flag": gettext_noop(
        "shows a yes/no flag held as 0 or 1 (a nurse's registered flag of 1): its answer is a digit that says nothing "
        "by itself"
    ),
    "count_of_subtype": gettext_noop(
        "a count per type of the rows of a table that is itself one type of another (purchases per transaction "
        "type): every row of it is of its own type, so the count answers nothing"
    ),
    "list_of_ids": gettext_noop(
        "a list of more than ten id numbers (the ids of the fixtures of a season but not of a matchday): numbers "
        "nobody reads"
    ),
    "group_by_person_name": gettext_noop(
        "a count per first name, last name or initial that people share: people of one name are no kind of thing"
    ),
    "list_naming_nothing": gettext_noop(
        "a list of more than ten dates, numbers or codes with nothing beside them that names a thing (72 acquisition "
        "dates, 51 tracking numbers): values nobody reads"
    ),
    "far_number_group": gettext_noop(
        "a count per number (a pay scale, a year, a size) of a row two tables away or further (courses per the pay "
        "scale of their department's head): the number says nothing of the things counted"
    ),
    "group_by_shared_name": gettext_noop(
        "a count per name of a table's own rows that many of them share (students per guardian name such as 'Mrs "
        "Patel'): one name lumps different people or things together"
    ),
    "by_position": gettext_noop(
        "a count per, a list of, a ranking by or an average of the places of rows in their parent's sequence (a queue "
        "position, an author's order on a book, a line number of an order): a place is no kind of thing and no answer"
    ),
    "mixed_units": gettext_noop(
        "a total, an average, a ranking or a comparison of quantities held in different units (eggs counted beside "
        "kilograms of flour): the numbers are not comparable"
    ),
    "exact_date": gettext_noop(
        "a condition that a date of many different days is one of them (the orders of 2026-10-21): a day nobody asking "
        "knows; before or after it is asked instead"
    ),
    "unnamed_rows": gettext_noop(
        "a list of ids, codes, dates or numbers of rows that have names, without the names (work ids where the "
        "works' titles read): the names are shown beside them"
    ),
}


@dataclass(frozen=True)
class Refusal:
    rule: str  # a key of RULES
    detail: str  # what in this tree broke it, for a reader of the log or a test

    @property
    def reason(self) -> str:
        return RULES[self.rule]


# Words of a column's name that say it identifies, codes or orders rather than measures (docs/goals.md). "number",
# "no", "nr" and "num" say so only at the end of a name ("room_no", "phone_number"); at its start they count
# ("number_of_rooms", "num_employees"). A plural says an amount ("years_of_service", "floors"). An identifier names
# one thing (a phone, a room number); a code sorts things into kinds as well (a country code, a zip code).
_IDENTIFIER_WORDS = frozenset(
    {"id", "ids", "phone", "telephone", "tel", "fax", "mobile", "isbn", "issn", "ssn", "sku", "ean", "upc", "uuid"}
    | {"guid", "serial", "pin", "key", "email"}
)
_CODE_WORDS = frozenset({"code", "codes", "zip", "zipcode", "postcode", "postal", "lat", "lon", "lng"}) | {
    "latitude",
    "longitude",
}
_CALENDAR_WORDS = frozenset({"year", "yr", "month", "mon", "mth", "week", "wk", "day", "quarter", "qtr", "term"}) | {
    "semester",
    "season",
    "hour",
    "hr",
}
_ORDINAL_WORDS = frozenset(
    {"year", "yr", "yyyy", "floor", "flr", "storey", "rank", "ranking", "seq", "sequence", "ordinal", "month"}
    | {"weekday", "semester", "version", "hour", "hr", "minute"}
)
_TRAILING_NUMBER_WORDS = frozenset({"number", "no", "nr", "num", "nbr"})
_SHORT_NUMBER = re.compile(r"[a-z]{1,3}(?:no|nr|num|nbr|number)")
# The last word of a column holding the minutes or seconds of a time whose hours are a column beside it (`end_min`
# beside `end_hr`), and the words of that hours column.
_CLOCK_WORDS = frozenset({"min", "mins", "minute", "minutes", "sec", "secs", "second", "seconds", "mm", "ss"})
_HOUR_WORDS = ("hr", "hour", "hours", "hh", "h")
# A count per value of a number or a date is a count per kind when the values are few: at most this many.
_GROUP_MAX_VALUES = 12
_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?")  # a date or a time stamp stored as text
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")  # a day, stored as text
# Words of a name that say it counts or measures: a scale of small whole numbers with such a name is an amount.
_AMOUNT_WORDS = frozenset(
    {"count", "qty", "quantity", "total", "amount", "sum", "nights", "days", "hours", "minutes", "seconds", "weeks"}
    | {"months", "years", "age", "duration", "length", "size", "weight", "height", "width", "capacity", "seats"}
    | {"guests", "people", "persons", "members", "players", "children", "kids", "adults", "beds", "rooms"}
    | {"floors", "credits", "credit", "points", "score", "scores", "rating", "ratings", "stars", "votes"}
    | {"goals", "wins", "losses", "games", "price", "cost", "fee", "budget", "salary", "max", "min", "avg"}
    | {"units", "items", "pieces", "copies", "stock", "visits", "times", "star"}
)
# Words of a name that say a level: averaged, compared, never totalled ("the total star rating of the hotels").
_LEVEL_WORDS = frozenset(
    {"rating", "ratings", "score", "scores", "star", "stars", "age", "grade", "percent", "percentage", "pct", "rate"}
    | {"ratio", "temperature", "temp", "average", "avg", "mean", "share", "density", "speed"}
    | {"height", "gradepoint", "gpa"}  # a person's height, a grade's points: levels of one thing, never added up
    # A strength, a gravity, a concentration or an interval between services is a level of each thing too: the total
    # alcohol by volume of a brewery's beers, or of the service intervals of a fleet's models, measures nothing.
    | {"abv", "strength", "gravity", "concentration", "interval", "intervals", "ph", "viscosity"}
)
_KIND_WORDS = frozenset({"type", "types", "kind", "kinds", "category", "categories", "class", "sort"})
_SCALE_MAX_VALUES = 12  # a scale of consecutive whole numbers has at most this many values...
_SCALE_MAX = 20  # ...none above this
# Rows read to see whether a superlative's first place is shared (rows of a join repeat one answer many times).
_TIE_ROWS = 200
# A list longer than this names the things it lists (a unique column), and is at most twice as long, or nobody reads
# it (a set operation or a filter that keeps most of a big table).
LONG_LIST = 50
_ID_LIST = 10  # a list of id numbers longer than this is read by nobody
_CODE_DIGITS = 6  # unique whole numbers all this wide or wider read as codes (a loyalty number, a phone number)
# A packed key whose values start at or below this holds small and large numbers by chance (a level 1-4, ages, a plan's
# minutes within ids 1..1500): a column is taken for that key's id only when their names share a word (`Airline` and
# `airlines`).
_UNDECLARED_KEY_LOW = 100
# A time stamp to the second, stored as text: a condition of equality on it is a second nobody asking knows.
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}")
# A column whose different values are at least this share of its rows is nearly unique: one value picks one row
# or two ("how many courses are named X": one).
_NEARLY_UNIQUE = 0.9
# Values this short are letters or codes, not words: no LIKE on part of them.
_SHORT_VALUE = 3
# Single characters of more different values than this are letters of nothing (initials, placeholders 'k', 'x'),
# where M/F, grades A-F or sizes S/M/L are kinds: no condition, list, ranking or group on them.
_FEW_LETTERS = 6
# Words of a name that say its values are secrets or machine tokens (a password, a hash): nobody asks by them.
_SECRET_WORDS = frozenset({"password", "passwd", "pwd", "hash", "salt", "token", "secret", "checksum"})
_HEX_TOKEN = re.compile(r"[0-9a-fA-F]{16,}")  # a hash or a token of hexadecimal digits
# Two values of a yes/no flag, lower case.
# Numbers a person asking does not know and would not look a row up by (a phone, a fax, a social security number).
_UNKNOWN_NUMBER_WORDS = frozenset({"phone", "telephone", "tel", "fax", "mobile", "ssn", "uuid"})
_DIGIT = re.compile(r"\d")
# A code of a few letters and digits (K107003222639, TRK000600814, LS-1042), the digits maybe in groups (a purchase
# order's PO-2024-0007, a docket's WD24-0165): it names no thing to a reader. Letters within (GC-MCL-113) or a word
# before the number (Suite 69, Room 101) make no such code.
_LETTERED_NUMBER = re.compile(r"[A-Za-z]{1,4}(?:[-/ ]?\d+)+")
_LETTERED_DIGITS = 4  # ...holding at least this many digits

_EXACT_ROWS = 10  # an amount of fewer rows may be asked by one of its values
_POSITION_MAX = 50  # the places of rows in their parent's sequence (1, 2, 3...) go no higher than this
_FEW_KINDS = 3  # a count per kind of this many values or fewer is asked of things one table away at most

_FLAG_VALUES = ({"0", "1"}, {"y", "n"}, {"yes", "no"}, {"true", "false"}, {"t", "f"})
# Words of a name that say part of a person's name: a first or last name, an initial.
_PERSON_NAME_WORDS = frozenset({"fname", "lname", "mname", "minit", "firstname", "lastname", "surname", "forename"}) | {
    "middlename",
    "initial",
    "initials",
}
# The last word of a column that names its table's rows ("grower_nm", "work_ttl", "Name"), spelled out.
_NAME_WORDS = frozenset({"name", "title", "ttl"})
_FIRST_NAME_WORDS = frozenset({"first", "fname", "firstname", "forename", "given"})
_LAST_NAME_WORDS = frozenset({"last", "lname", "lastname", "surname", "family"})
# Words of a column saying the unit its table's quantities are in (`unit_cd`, `uom`), and of a quantity held in it.
_UNIT_WORDS = frozenset({"unit", "uom"})
_QUANTITY_WORDS = frozenset({"quantity", "quantities", "qty"})
# An undeclared key sharing no word with the table it refers to is taken for one only when its values are at least
# this many, nearly all different, and reach from near the first to near the last id of a key holding at least twice
# as many (a country's `Capital` among the ids of 4,079 cities): an amount spans another table's ids by no chance.
_SPAN_MIN_VALUES = 20
# The parts of a list tree that choose its rows: a list of every row (none of them) is `list_of_values`'s to judge.
_CHOSEN = ("filters", "nested", "order", "set")
_ABBREVIATION_CHARS = 4  # a code of letters this short is an abbreviation a reader knows (ABI, DE)
_PERSON_TITLES = ("Mr", "Mrs", "Ms", "Miss", "Mx", "Dr", "Prof", "Sir", "Dame")
_NAME_PART_WORDS = frozenset({"first", "last", "middle", "given", "family", "maiden", "nick"})


def identifier_words(name: str) -> list[str]:
    """A column name as lower-case words: "GuestID" -> guest, id; "room_no" -> room, no; "since_yr" -> since, yr."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [word for word in re.split(r"[^A-Za-z]+", spaced.lower()) if word]


def name_kind(name: str) -> str | None:
    """What a column's name says it holds when it is not an amount: "identifier" (names one thing: an id, a phone, a
    room number), "code" (a country code, a zip code) or "ordinal" (a year, a floor, a rank: ordered, not summed);
    None when the name says none of these."""
    # Shortenings are read spelled out: a `district_cd` is a code, a `start_mth` a month.
    words = [spelled_out(word) for word in identifier_words(name)]
    if not words:
        return None
    if any(word in _IDENTIFIER_WORDS for word in words):
        return "identifier"
    if words[-1] in _TRAILING_NUMBER_WORDS and not (len(words) > 1 and words[-2] == "of"):
        return "identifier"
    if len(words) == 1 and _SHORT_NUMBER.fullmatch(words[0]):
        return "identifier"  # "Dno", "Pnum", "Dnumber": a letter or three and "number", the number of a D or a P
    if any(word in _CODE_WORDS for word in words):
        return "code"
    if any(word in _ORDINAL_WORDS for word in words):
        return "ordinal"
    return None


def is_person_name_part(name: str) -> bool:
    """Whether a column's name says part of a person's name: `Fname`, `staff_first_name`, `Minit`, `surname`. People
    who share a first name are no kind of thing to count per. Shortenings are read spelled out (`first_nm`)."""
    words = [spelled_out(word) for word in identifier_words(name)]
    if _PERSON_NAME_WORDS & set(words):
        return True
    return any(word in _NAME_PART_WORDS and after == "name" for word, after in zip(words, words[1:], strict=False))


def _names_the_table(word: str, table_words: list[str]) -> bool:
    """Whether a word of a name column says its own table's rows: the table's word (`site` of `site_nm`), a
    shortening of it (`mat` of material, `var` of variety) or a shortening spelled out."""
    stem = _stem(spelled_out(word))
    return any(stem == own or _stem(word) == own or (len(word) >= 3 and own.startswith(word)) for own in table_words)


def _stem(word: str) -> str:
    """A word without a plural's s: "airlines" and "airline" name one thing."""
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def is_time_stamp(value) -> bool:
    """Whether a value is a time stamp to the minute or the second held as text ("2016-09-27 12:00:00"): compared
    with "before" or "after" a day, never equal to one (the rule `exact_time`)."""
    return isinstance(value, str) and bool(_TIMESTAMP.match(value))


def round_numbers(value: float) -> list:
    """Round numbers near `value`, the roundest first: 3359 -> 3500, 3400, 3350, 3360, 3359; 69 -> 70, 69; 188.62 ->
    200, 190, 189. Numbers below 20 have none but themselves. A threshold read from the data is said this way
    ("capacity below 25", "at least 3400 grades"): nobody asks for "below 24" or "at least 3355"."""
    if abs(value) < 20:
        return [value]
    digits = len(str(int(abs(value))))
    steps = sorted({size * 10**power for power in range(digits) for size in (1, 5)}, reverse=True)
    found = []
    for step in steps:
        if step * 2 > 10 ** (digits - 1):
            continue
        rounded = int(round(value / step) * step)
        if rounded and rounded not in found:
            found.append(rounded)
    return found


def question_shape(tree: dict) -> str:
    """The tree with its values left out (filters, HAVING): two trees of one shape ask one question of two values
    ("the amenities of room 9", "... of room 2"), which a run keeps once ("same_as_another")."""
    bare = {key: value for key, value in tree.items() if key not in ("filters", "set", "having")}
    bare["filters"] = [[item["column"], item["op"]] for item in tree.get("filters") or []]
    if "set" in tree:
        bare["set"] = [tree["set"]["op"], [[item["column"], item["op"]] for item in tree["set"]["filters"]]]
    bare["having"] = (tree.get("having") or {}).get("op")
    return repr(sorted(bare.items(), key=lambda item: item[0]))


def count_per_group_shape(tree: dict) -> str | None:
    """A count per group with a threshold (HAVING), its operator and value left out: "the last names with at least 16
    subscribers" and "... with more than 3" ask one question twice, which a run keeps once ("same_as_another"); the
    count per group of every group, without a threshold, is another question. Its `project` is left out too: a count
    per group shows the group and the count, never it. None for every other tree."""
    if tree.get("type") != "group_count" or not tree.get("having"):
        return None
    return "group count: " + question_shape(
        {key: value for key, value in tree.items() if key not in ("having", "project")}
    )


@dataclass(frozen=True)
class _Figures:
    table_rows: int
    rows: int  # non-empty values
    distinct: int
    low: object
    high: object
    whole: bool  # every value an integer
    digits: tuple[int, int]  # fewest and most characters of a value
    lettered: int = 0  # values holding a letter (a word, not a number, a time or a date held as text)
    digited: int = 0  # text values holding a digit (a code such as T0003 or FOC-500, a date)


class GoalRules:
    """The rules for one database: `schema` (its tables.json entry) and `path` (its SQLite file)."""

    def __init__(self, schema: dict, path: str) -> None:
        self.schema = schema
        self.path = str(path)
        originals = schema["table_names_original"]
        names = schema["column_names_original"]
        self.keys = {
            f"{originals[names[index][0]]}.{names[index][1]}".lower()
            for index in set(schema.get("primary_keys") or [])
            | {index for pair in schema.get("foreign_keys") or [] for index in pair}
            if 0 <= index < len(names) and names[index][0] >= 0
        }
        # The declared key of each table, first column: tables.json lists one column of a key of two (a link
        # table's), so whether it is the table's key is read from the data (`row_key`).
        self._declared: dict[str, str] = {}
        for index in schema.get("primary_keys") or []:
            if 0 <= index < len(names) and names[index][0] >= 0:
                table, column = originals[names[index][0]], names[index][1]
                self._declared.setdefault(table.lower(), f"{table}.{column}")
        self._figures: dict[str, _Figures | None] = {}
        self._positions: dict[str, bool] = {}
        self._undeclared: dict[str, str | None] = {}
        self._row_names: dict[str, list[str]] = {}
        self._table_names = {name.lower(): name for name in originals}
        self._primary = {
            f"{originals[names[index][0]]}.{names[index][1]}".lower()
            for index in schema.get("primary_keys") or []
            if 0 <= index < len(names) and names[index][0] >= 0
        }
        self._foreign = {
            f"{originals[names[child][0]]}.{names[child][1]}".lower(): originals[names[parent][0]]
            for child, parent in schema.get("foreign_keys") or []
            if max(child, parent) < len(names) and min(names[child][0], names[parent][0]) >= 0
        }
        self._table_columns: dict[str, list[str]] = {}
        for table, column in names:
            if 0 <= table < len(originals):
                self._table_columns.setdefault(originals[table].lower(), []).append(column)
        # Trees a rule rewrote rather than refused, by rule.
        self.rewritten: Counter = Counter()

    # -- what a column holds ------------------------------------------------------------------------------------------

    def figures(self, qualified: str) -> _Figures | None:
        """A column's figures, read once: None when they cannot be read."""
        key = qualified.lower()
        if key not in self._figures:
            table, column = qualified.split(".", 1)
            quoted = f'"{column}"'
            result = execute(
                self.path,
                f"SELECT count(*), count({quoted}), count(DISTINCT {quoted}), min({quoted}), max({quoted}), "  # noqa: S608
                f"sum(typeof({quoted}) = 'integer'), min(length({quoted})), max(length({quoted})), "
                f"sum(typeof({quoted}) = 'text' AND {quoted} GLOB '*[A-Za-z]*'), "
                f"sum(typeof({quoted}) = 'text' AND {quoted} GLOB '*[0-9]*') FROM \"{table}\"",
            )
            if result.ok and result.rows:
                table_rows, rows, distinct, low, high, whole, shortest, longest, lettered, digited = result.rows[0]
                self._figures[key] = _Figures(
                    table_rows,
                    rows,
                    distinct,
                    low,
                    high,
                    bool(rows) and whole == rows,
                    (shortest or 0, longest or 0),
                    lettered or 0,
                    digited or 0,
                )
            else:
                self._figures[key] = None
        return self._figures[key]

    def identifier_kind(self, qualified: str) -> str | None:
        """Why a column is not an amount a person would total or average: "key" (a key of the schema), "identifier" or
        "code" (its name says so, or its values are unique whole numbers that number the rows or are all
        `_CODE_DIGITS` wide: "code"), "ordinal" (its name says a year, a floor, a rank..., or its values are a short
        scale of consecutive whole numbers and its name does not say it counts or measures); None for an amount."""
        if qualified.lower() in self.keys:
            return "key"
        table, column = qualified.split(".", 1)
        kind = name_kind(column)
        if kind is not None:
            return kind
        if self._clock_part(table, column):
            return "ordinal"
        figures = self.figures(qualified)
        if figures is None or not figures.whole or not figures.rows:
            return None
        if self.undeclared_key(qualified) is not None:
            return "key"
        low, high = figures.low, figures.high
        if figures.distinct == figures.rows >= 5:
            if high - low + 1 <= 2 * figures.distinct:
                return "code"  # unique and packed: they number the rows (1, 2, 3... or 700001, 700002...)
            if figures.digits[0] == figures.digits[1] >= _CODE_DIGITS:
                return "code"  # unique and all as wide: a number that names one thing
        if (
            2 <= figures.distinct <= _SCALE_MAX_VALUES
            and 0 <= low
            and high <= _SCALE_MAX
            and high - low + 1 == figures.distinct
            and figures.rows > figures.distinct
            and not _AMOUNT_WORDS & set(identifier_words(column))
        ):
            return "ordinal"
        return None

    def undeclared_key(self, qualified: str) -> str | None:
        """The one-column key of another table holding every value of a column no foreign key declares (a student's
        `Advisor`, whose values are faculty ids): the column names rows of that table, so it is an id, not an amount.
        Any whole number up to n falls inside a packed key counting from 1 (1..n) by chance: a column is taken for
        such a key's only when its name shares a word with the key's table or name, a word that is no ordinal (`rank`,
        `year`: a coach's rank 1-5 is no match result's rank) and no number word (`no`: a field's `field_no` is no
        delivery's `docket_no`); a sparse key (10, 20, ... 600: a student's `Major` among department numbers) or a
        packed key of large numbers (seasons' years) holds them by no chance. Never a table a
        declared foreign key of the column's table already names. None for every other column."""
        lowered = qualified.lower()
        if lowered not in self._undeclared:
            self._undeclared[lowered] = self._find_undeclared_key(qualified)
        return self._undeclared[lowered]

    def _find_undeclared_key(self, qualified: str) -> str | None:
        table, column = qualified.split(".", 1)
        figures = self.figures(qualified)
        words = set(identifier_words(column))
        stems = {_stem(word) for word in words}
        spelt = identifier_words(column)
        own_number = len(spelt) > 1 and spelt[-1] in _TRAILING_NUMBER_WORDS
        own_key = self.row_key(table)
        if (
            qualified.lower() in self._foreign
            or (own_key is not None and own_key.lower() == qualified.lower())
            or figures is None
            or not figures.whole
            or figures.distinct < 3
            or words & _AMOUNT_WORDS
        ):
            return None
        # The tables a declared foreign key of this table names: a route's stop is its `stop_id`, and its `stop_seq`
        # (a place in the route's order) is no second reference to a stop.
        named = {parent.lower() for child, parent in self._foreign.items() if child.startswith(f"{table.lower()}.")}
        for other in self._declared:
            key = self.row_key(other) if other != table.lower() and other not in named else None
            found = self.figures(key) if key is not None else None
            if found is None or not found.whole or not found.low <= figures.low <= figures.high <= found.high:
                continue
            other_words = {_stem(word) for word in identifier_words(other) + identifier_words(key.split(".", 1)[1])}
            # A packed key (1..n) holds any small numbers; a sparse one (10, 20, ... 600) holds them by no chance.
            packed = found.high - found.low + 1 <= 2 * found.distinct
            # A shared word that says a position (a coach's `Rank` and a match result's `Rank`) or that a column holds
            # a number (a field's `field_no` and a delivery's `docket_no`) names no reference.
            shared = stems & (other_words - {"id"} - _ORDINAL_WORDS - _TRAILING_NUMBER_WORDS)
            # A packed key counting from 1 (1..n) holds every whole number up to n: large values fall inside it by
            # chance too (a plan's minutes included, 250 to 1,000, among 1,500 usage records' ids), so only a shared
            # word tells; a packed key of large numbers (seasons' years 1950-2017) holds them by no chance.
            # A column named for who did something (`received_by`, `approved_by`) holds a person's id: the key of the
            # one table whose rows are people named by a first and a last name.
            person = spelt[-1] == "by" and len(self.row_names(other)) == 2
            if (
                packed
                and found.low <= _UNDECLARED_KEY_LOW
                and not (shared or person or self._spans_key(figures, found))
            ):
                continue
            # A name saying a number of its own (`room_no`, `licence_no`) refers to another table only when it shares
            # a word with it: room numbers 101-340 lie among 410 guardians' ids by chance.
            if own_number and not shared:
                continue
            outside = execute(
                self.path,
                f'SELECT count(*) FROM "{table}" WHERE "{column}" IS NOT NULL AND "{column}" NOT IN '  # noqa: S608
                f'(SELECT "{key.split(".", 1)[1]}" FROM "{key.split(".", 1)[0]}")',
            )
            if outside.ok and outside.rows and outside.rows[0][0] == 0:
                return key
        return None

    @staticmethod
    def _spans_key(figures: _Figures, key: _Figures) -> bool:
        """Whether a column's values are ids of a key whose table's name shares no word with it (a country's `Capital`,
        city ids 1..4074 of 1..4079): many (`_SPAN_MIN_VALUES`), nearly all different, among twice as many ids or
        more, from within the first tenth of the key's range to within its last tenth. Small numbers that fall inside
        a packed key by chance (a level 1-4, a count of minutes) are few or repeat, and stop short of its ends."""
        reach = key.high - key.low
        return (
            figures.distinct >= _SPAN_MIN_VALUES
            and figures.distinct >= _NEARLY_UNIQUE * figures.rows
            and key.distinct >= 2 * figures.distinct
            and figures.low - key.low <= reach / 10
            and key.high - figures.high <= reach / 10
        )

    def with_foreign_keys(self, added: list[list[int]]) -> GoalRules:
        """These rules over the schema with `added` foreign keys (pairs of column indexes), keeping the columns'
        figures read so far (the same file)."""
        schema = {**self.schema, "foreign_keys": [*(self.schema.get("foreign_keys") or []), *added]}
        rules = GoalRules(schema, self.path)
        rules._figures.update(self._figures)
        return rules

    def _clock_part(self, table: str, column: str) -> bool:
        """Whether a column is the minutes (or seconds) of a time whose hours are a column beside it: `end_min` beside
        `end_hr` is a minute of the hour, not a minimum."""
        words = identifier_words(column)
        if len(words) < 2 or words[-1] not in _CLOCK_WORDS:
            return False
        others = {tuple(identifier_words(name)) for name in self._table_columns.get(table.lower(), ())}
        return any((*words[:-1], hour) in others for hour in _HOUR_WORDS)

    def name_column(self, table: str) -> str | None:
        """The column that names a table's rows for a reader: a text column unique in the data, not a key nor a code
        (`hotel_name`, `title`); None when the table has none."""
        for column in self._table_columns.get(table.lower(), ()):
            qualified = f"{self._table_names[table.lower()]}.{column}"
            figures = self.figures(qualified)
            if (
                figures is not None
                and not figures.whole
                and isinstance(figures.low, str)
                and self.unique(qualified)
                and self.identifier_kind(qualified) is None
            ):
                return qualified
        return None

    def row_names(self, table: str) -> list[str]:
        """The columns that name a table's rows to a reader: its name column (`name_column`, unique), else a column of
        words that is the name or the title of the table's own rows, mostly different (`grower_nm` of grower,
        `work_ttl` of work, `Name`: names that may repeat; not a `customer_nm` of a shipment, nor a title Mr or Mrs),
        else a person's first and last names (`first_nm`, `last_nm`); none for a table without names."""
        lowered = table.lower()
        if lowered not in self._row_names:
            self._row_names[lowered] = self._find_row_names(table)
        return self._row_names[lowered]

    def _find_row_names(self, table: str) -> list[str]:
        unique = self.name_column(table)
        # Words (a date unique in its table names no row), and a person's whole name (a last name unique so far is
        # said with the first).
        if unique is not None and self.names_rows(unique) and not is_person_name_part(unique.split(".", 1)[1]):
            return [unique]
        original = self._table_names.get(table.lower())
        if original is None:
            return []
        own = [_stem(word) for word in identifier_words(original)]
        first = last = None
        for column in self._table_columns.get(table.lower(), ()):
            qualified = f"{original}.{column}"
            words = [spelled_out(word) for word in identifier_words(column)]
            if is_person_name_part(column):
                if first is None and _FIRST_NAME_WORDS & set(words):
                    first = qualified
                elif last is None and _LAST_NAME_WORDS & set(words):
                    last = qualified
                continue
            if not words or words[-1] not in _NAME_WORDS or qualified.lower() in self.keys:
                continue
            figures = self.figures(qualified)
            if not self.names_rows(qualified) or figures.distinct * 2 <= figures.rows:
                continue
            if all(_names_the_table(word, own) for word in identifier_words(column)[:-1]):
                return [qualified]
        if first is not None and last is not None and self.names_things(first) and self.names_things(last):
            return [first, last]
        return []

    def named(self, tree: dict) -> dict:
        """`unnamed_rows`: a list (with a condition, an order, a comparison or a set operation) showing only ids,
        codes (but abbreviations of letters: `abbreviation`), dates, numbers or part of a person's name of the rows
        of one table that has names (`row_names`) shows the names in front of them, the ids kept where names repeat
        ("the titles and ids of the works ...", "the first and last names and start dates of the staff ..."); a code
        that names a row of a table the list joins on it gets that row's names ("the product name and code of ...").
        A name a condition fixes with `=` is left out (it answers itself), and a row a condition picks by a unique
        name is a look-up ("the phone of the hotel named X"), where a row picked by a unique number is not ("the
        year of the work for 38 players"). `tree` itself when nothing changes."""
        shown = tree.get("project") or []
        if tree["type"] != "list" or not shown or not any(tree.get(part) for part in _CHOSEN):
            return tree
        if any(self.names_rows(column) and not is_person_name_part(column.split(".", 1)[1]) for column in shown):
            return tree
        table = self._named_table(tree, shown)
        # A row picked by its own unique name is a look-up; one picked by a unique number (38 players) is not named.
        named_by = {
            item["column"].split(".", 1)[0].lower()
            for item in tree.get("filters") or []
            if item["op"] == "=" and self.values_unique(item["column"]) and self.names_things(item["column"])
        }
        if table is None or table.lower() in named_by or any(map(self.numeric_flag, shown)):
            return tree
        if all(map(self.abbreviation, shown)):
            return tree
        fixed = {
            item["column"].lower()
            for filters in (tree.get("filters") or [], (tree.get("set") or {}).get("filters") or [])
            for item in filters
            if item["op"] == "="
        } | {column.lower() for column in shown}
        names = [name for name in self.row_names(table) if name.lower() not in fixed and self.filled(name)]
        return {**tree, "project": [*names, *shown]} if names else tree

    def abbreviation(self, qualified: str) -> bool:
        """Whether a column holds short codes of letters only, which a reader knows as abbreviations (an airport's
        ABI, a country's DE, a section's STR), where a code holding digits (an account's T0003, a product's FOC-500)
        or an id number names nothing."""
        figures = self.figures(qualified)
        return (
            figures is not None
            and figures.rows > 0
            and figures.lettered == figures.rows
            and figures.digited == 0
            and figures.digits[1] <= _ABBREVIATION_CHARS
        )

    def _named_table(self, tree: dict, shown: list[str]) -> str | None:
        """The table whose rows' names a list shows beside `shown`: theirs when all are of one table, or the table
        their one column (a foreign key: a recipe line's `product_cd`) names a row of, where the list joins it on that
        column."""
        tables = {column.split(".", 1)[0].lower() for column in shown}
        if len(tables) != 1:
            return None
        table = shown[0].split(".", 1)[0]
        parent = self.points_to(shown[0]) if len(shown) == 1 and not self.row_names(table) else None
        for start, start_column, end, end_column in (tuple(step) for step in tree.get("joins") or []):
            ends = {f"{start}.{start_column}".lower(), f"{end}.{end_column}".lower()}
            if parent is not None and shown[0].lower() in ends and parent.lower() in {start.lower(), end.lower()}:
                return parent
        return table

    def unit_column(self, qualified: str) -> str | None:
        """The column saying which unit each row's quantity is in, when the rows hold several: a quantity
        (`qty`, `quantity`) beside a unit of its own row or of the row its foreign key names (`recipe_line.qty` and
        `ingredient.unit_cd`: eggs counted, flour in kilograms). None for any other column."""
        table, column = qualified.split(".", 1)
        if not _QUANTITY_WORDS & {spelled_out(word) for word in identifier_words(column)}:
            return None
        tables = [table] + [parent for child, parent in self._foreign.items() if child.startswith(f"{table.lower()}.")]
        for owner in tables:
            original = self._table_names.get(owner.lower(), owner)
            for other in self._table_columns.get(owner.lower(), ()):
                words = {spelled_out(word) for word in identifier_words(other)}
                if not words & _UNIT_WORDS or words & (_AMOUNT_WORDS | {"cost", "price", "rate"}):
                    continue
                figures = self.figures(f"{original}.{other}")
                if figures is not None and not figures.whole and 2 <= figures.distinct <= _GROUP_MAX_VALUES:
                    return f"{original}.{other}"
        return None

    def _units_before(self, tree: dict) -> Refusal | None:
        """`mixed_units`: a total, an average, a minimum or maximum, a ranking, a comparison with a threshold or the
        average, or a count per value of a quantity whose rows hold several units (`unit_column`), unless a condition
        fixes one unit, or the one thing (by a unique value or its key) whose quantities they are."""
        kind = tree["type"]
        filters = [*(tree.get("filters") or []), *((tree.get("set") or {}).get("filters") or [])]
        used = [tree["project"][0]] if kind in ("sum", "avg", "min", "max") else []
        used += [item["column"] for item in filters if item["op"] in ("<", ">", "<=", ">=")]
        used += [part for part in ((tree.get("order") or {}).get("by"), (tree.get("nested") or {}).get("column"))]
        used.append(tree.get("group"))
        for column in (column for column in used if column and column != "count"):
            unit = self.unit_column(column)
            if unit is None:
                continue
            owner = unit.split(".", 1)[0].lower()
            one = any(
                item["op"] == "="
                and (
                    item["column"].lower() == unit.lower()
                    or (item["column"].split(".", 1)[0].lower() == owner and self.values_unique(item["column"]))
                    or (self.points_to(item["column"]) or "").lower() == owner
                )
                for item in filters
            )
            if not one:
                return Refusal("mixed_units", f"{column} in the units of {unit}")
        return None

    def unique(self, qualified: str) -> bool:
        """Whether every row of the column's table has a value of its own in it (in the data, declared or not)."""
        figures = self.figures(qualified)
        return figures is not None and figures.distinct == figures.rows == figures.table_rows > 0

    def values_unique(self, qualified: str) -> bool:
        """Whether no value of the column is repeated (empty entries aside): one value picks at most one row."""
        figures = self.figures(qualified)
        return figures is not None and figures.distinct == figures.rows > 0

    def row_key(self, table: str) -> str | None:
        """The column that tells one row of `table` from another: its declared key when that is one column and
        unique in the data; None otherwise (a link table's key of two columns)."""
        declared = self._declared.get(table.lower())
        return declared if declared is not None and self.unique(declared) else None

    def measures(self, qualified: str) -> bool:
        """Whether a total or an average of the column means something (it is an amount)."""
        return self.identifier_kind(qualified) is None

    def orders(self, qualified: str) -> bool:
        """Whether "the highest" or "the lowest" of the column means something: an amount or an ordinal (the most recent
        year, the highest floor), not a key or a code, nor a yes/no flag ("the department whose head has the highest
        on-call flag")."""
        return self.identifier_kind(qualified) not in ("key", "identifier", "code") and not self.is_flag(qualified)

    # -- the rules ----------------------------------------------------------------------------------------------------

    def before_run(self, tree: dict) -> Refusal | None:
        """The rules read from the tree and the columns' figures, before its SQL runs."""
        for rules in (
            self._join_before,
            self._aggregate_before,
            self._answer_before,
            self._group_before,
            self._unread_before,
            self._condition_before,
            self._meaning_before,
            self._attribute_before,
            self._units_before,
        ):
            refusal = rules(tree)
            if refusal is not None:
                return refusal
        return None

    def _join_before(self, tree: dict) -> Refusal | None:
        for start, start_column, end, end_column in (tuple(step) for step in tree.get("joins") or []):
            if not (self.values_unique(f"{start}.{start_column}") or self.values_unique(f"{end}.{end_column}")):
                return Refusal("join_not_on_a_key", f"{start}.{start_column} = {end}.{end_column}")
        return None

    def _aggregate_before(self, tree: dict) -> Refusal | None:
        """A total, an average or a ranking of a column that is no amount (or, for a total, a level), or a ranking by
        the places of rows in a sequence."""
        kind = tree["type"]
        order = tree.get("order")
        # "The branch of the reservation with the highest queue position", "the highest author order": the last place
        # of some parent's sequence, any parent's.
        ranked = (
            order["by"] if order and order["by"] != "count" else tree["project"][0] if kind in ("min", "max") else None
        )
        if ranked is not None and self.position(ranked):
            return Refusal("by_position", f"ranked by {ranked}, the places of rows in their parent's sequence")
        # "Credits whose credit order is above the average credit order": an average of places.
        averaged = (tree.get("nested") or {}).get("column") or (tree["project"][0] if kind in ("sum", "avg") else None)
        if averaged is not None and self.position(averaged):
            return Refusal("by_position", f"averages {averaged}, the places of rows in their parent's sequence")
        if kind in ("sum", "avg") and not self.measures(tree["project"][0]):
            column = tree["project"][0]
            return Refusal("aggregate_of_identifier", f"{kind} of {column} ({self.identifier_kind(column)})")
        if kind in ("min", "max") and not self.orders(tree["project"][0]):
            column = tree["project"][0]
            return Refusal("aggregate_of_identifier", f"{kind} of {column} ({self._kind_said(column)})")
        if kind == "sum" and _LEVEL_WORDS & {
            spelled_out(word) for word in identifier_words(tree["project"][0].split(".", 1)[1])
        }:
            return Refusal("sum_of_level", f"sum of {tree['project'][0]}")
        nested = tree.get("nested")
        if nested and not self.measures(nested["column"]):
            column = nested["column"]
            return Refusal("aggregate_of_identifier", f"average of {column} ({self.identifier_kind(column)})")
        if order and order["by"] != "count" and not self.orders(order["by"]):
            return Refusal("aggregate_of_identifier", f"ordered by {order['by']} ({self._kind_said(order['by'])})")
        return None

    def _kind_said(self, qualified: str) -> str:
        """What a column is that no ranking asks of, for a refusal's detail."""
        return "a yes/no flag" if self.is_flag(qualified) else str(self.identifier_kind(qualified))

    def _answer_before(self, tree: dict) -> Refusal | None:
        """A question that answers itself: it shows what a filter fixes or what it ranks by, or counts what one value
        of a unique column picks."""
        kind = tree["type"]
        fixed = {
            item["column"].lower()
            for filters in (tree.get("filters") or [], (tree.get("set") or {}).get("filters") or [])
            for item in filters
            if item["op"] == "="
        }
        # A column joined to a fixed one is fixed too: "the letter grade whose enrolment grade is D+".
        for start, start_column, end, end_column in (tuple(step) for step in tree.get("joins") or []):
            pair = {f"{start}.{start_column}".lower(), f"{end}.{end_column}".lower()}
            if pair & fixed:
                fixed |= pair
        shown = [tree["group"]] if kind == "group_count" else tree.get("project") or [] if kind == "list" else []
        for column in shown:
            if column.lower() in fixed:
                return Refusal("answers_itself", f"{column} is fixed by a filter")
        order = tree.get("order")
        if kind == "list" and order and order["by"] in shown:
            return Refusal("answers_itself", f"shows {order['by']}, which it ranks by: a plain max or min asks it")
        nested = tree.get("nested")
        if kind == "list" and nested and nested["column"] in shown:
            return Refusal("answers_itself", f"shows {nested['column']}, which it compares with its average")
        if kind == "count":
            for item in tree.get("filters") or []:
                if item["op"] in ("=", "like") and self.values_unique(item["column"]):
                    return Refusal("answers_itself", f"counts what one value of the unique {item['column']} picks")
        return self._identifier_before(tree, shown if kind == "list" else [])

    def _identifier_before(self, tree: dict, shown: list[str]) -> Refusal | None:
        """Ids where names would read: shown for things that have a name (unless a condition picks the row by a
        unique value: "the phone of the hotel named X" is a look-up a person makes), a flag shown as a digit, or a
        condition on an id number or a phone."""
        refusal = self._shown_refusal(tree, shown)
        if refusal is not None:
            return refusal
        for filters in (tree.get("filters") or [], (tree.get("set") or {}).get("filters") or []):
            for item in filters:
                if not self.conditions_well(item["column"]):
                    return Refusal("filter_on_identifier", f"a condition on {item['column']}")
                if "set" in tree and item["op"] == "=" and self.values_unique(item["column"]):
                    return Refusal("set_of_lookups", f"a side picks the one row whose {item['column']} is given")
        if tree["type"] == "list" and not any(tree.get(part) for part in ("filters", "nested", "order", "set")):
            if not any(self.names_things(column) for column in shown):
                return Refusal("list_of_values", f"every {', '.join(shown)} with no condition")
        return None

    def _shown_refusal(self, tree: dict, shown: list[str]) -> Refusal | None:
        looked_up = self._looked_up(tree)
        if shown and any(self.position(column) for column in shown) and not any(map(self.names_rows, shown)):
            # "The author order of the youngest author's authorship": a place, with nothing saying of what.
            return Refusal("by_position", f"shows {', '.join(shown)}: a place in a sequence, naming nothing")
        for column in shown:
            if self.numeric_flag(column):
                return Refusal("shows_flag", f"shows {column}, a flag of 0 or 1")
            if column.split(".", 1)[0].lower() in looked_up:
                continue
            if self.identifier_kind(column) in ("key", "identifier", "code"):
                named = self.name_column(column.split(".", 1)[0])
                if named is not None and named.lower() != column.lower():
                    return Refusal("shows_identifier", f"shows {column} where {named} names the rows")
            if not self.shows_well(column):
                return Refusal("shows_identifier", f"shows {column}, an id number that is not its rows' key")
        return None

    def _looked_up(self, tree: dict) -> set[str]:
        """The tables (lower case) whose row a condition picks by a unique value: a look-up."""
        return {
            item["column"].split(".", 1)[0].lower()
            for item in tree.get("filters") or []
            if item["op"] == "=" and self.values_unique(item["column"])
        }

    def id_number(self, qualified: str) -> bool:
        """Whether a column is a key of the schema, or named an id, whose values are numbers (stored as numbers or as
        digits): an id, which names nothing to a person (a key of words, a department's name, does)."""
        figures = self.figures(qualified)
        declared = self.identifier_kind(qualified) == "key"
        # An id no key declares says so in its name ("Customer_Policy_ID"); a room number does not.
        if figures is None or not figures.rows or not (declared or "id" in identifier_words(qualified.split(".")[1])):
            return False
        return figures.whole or all(str(value).strip().isdigit() for value in (figures.low, figures.high))

    def links_rows(self, table: str) -> bool:
        """Whether a table links the rows of others: no one-column key, and foreign keys to two tables or more (a
        booking's services, a room's amenities; not a flight keyed by airline and number)."""
        if self.row_key(table) is not None:
            return False
        prefix = f"{table.lower()}."
        return len({parent for child, parent in self._foreign.items() if child.startswith(prefix)}) >= 2

    def points_to(self, qualified: str) -> str | None:
        """The table a foreign-key column names a row of, or None."""
        return self._foreign.get(qualified.lower())

    def names_things(self, qualified: str) -> bool:
        """Whether a column's values are words (a name, a city, a category), not numbers or dates: text, most values
        holding a letter (a room "105" or hours "1-2:15" held as text are numbers and times)."""
        figures = self.figures(qualified)
        return (
            figures is not None
            and isinstance(figures.low, str)
            and not _DATE.match(figures.low)
            and figures.lettered * 2 > figures.rows
        )

    def holds_words(self, qualified: str) -> bool:
        """`names_things`, with values of more than `_SHORT_VALUE` characters: part of a word may be asked ("name
        contains Harb"), never part of a one-letter value ('x' contains 'x')."""
        figures = self.figures(qualified)
        return self.names_things(qualified) and figures.digits[1] > _SHORT_VALUE

    def names_rows(self, qualified: str) -> bool:
        """Whether a column's values say which thing a row is to a reader: words (`names_things`) that are no id, code
        or number of one thing (a title, a city, a kind; not a tracking number or a VAT number holding letters, nor
        values that are a few letters and many digits, whatever the column's name: a pupil's K107003222639)."""
        if not self.names_things(qualified) or self.identifier_kind(qualified) in ("key", "identifier", "code"):
            return False
        figures = self.figures(qualified)
        return not all(
            _LETTERED_NUMBER.fullmatch(str(value)) and len(_DIGIT.findall(str(value))) >= _LETTERED_DIGITS
            for value in (figures.low, figures.high)
        )

    def position(self, qualified: str) -> bool:
        """Whether a column holds the places of rows in a sequence of their parent: whole numbers from 0 or 1 up, with
        no gap and repeated over the rows, that never repeat within the rows of one parent (a foreign key of the
        table beside it is unique with it): a queue position per book, an author's order per book, a line number per
        order. A floor, a priority or a term repeats within a parent and is a kind."""
        key = qualified.lower()
        if key not in self._positions:
            self._positions[key] = self._find_position(qualified)
        return self._positions[key]

    @staticmethod
    def _not_a_place(column: str) -> bool:
        """Whether a column's name says it holds no place in a sequence: an id or a code. A name saying a number of
        its own (`line_no`, `billing_no`) may: a line number of an order is a place in it."""
        words = identifier_words(column)
        kind = name_kind(column)
        return kind == "code" or (kind == "identifier" and not (words and words[-1] in _TRAILING_NUMBER_WORDS))

    def _find_position(self, qualified: str) -> bool:
        figures = self.figures(qualified)
        if (
            figures is None
            or not figures.whole
            or figures.distinct < 2
            or figures.low not in (0, 1)
            or figures.high > _POSITION_MAX
            or figures.high - figures.low + 1 != figures.distinct
            or figures.rows <= 2 * figures.distinct
            or qualified.lower() in self._foreign
            or self.is_flag(qualified)
            or qualified.lower() in self.keys
            or self._not_a_place(qualified.split(".", 1)[1])
        ):
            return False
        table, column = qualified.split(".", 1)
        prefix = f"{table.lower()}."
        for child in self._foreign:
            if not child.startswith(prefix):
                continue
            parent = self._table_columns_original(table, child.split(".", 1)[1])
            # Unique with the parent's key, and parents holding several rows (a fine's one loan numbers nothing).
            result = execute(
                self.path,
                f'SELECT count(*), count(DISTINCT "{parent}"), (SELECT count(*) FROM (SELECT DISTINCT "{parent}", '  # noqa: S608
                f'"{column}" FROM "{table}" WHERE "{parent}" IS NOT NULL AND "{column}" IS NOT NULL)) FROM "{table}" '
                f'WHERE "{parent}" IS NOT NULL AND "{column}" IS NOT NULL',
            )
            if result.ok and result.rows and result.rows[0][0] == result.rows[0][2] > result.rows[0][1]:
                return True
        return self._position_in_key(table, column)

    def _position_in_key(self, table: str, column: str) -> bool:
        """Whether a column is the place of rows within the rest of the table's key of several columns (the schema's
        `composite_primary_keys`, read from an uploaded file), that rest holding a foreign key: a stop's place in a
        route's direction (route, direction, stop_seq), counted 1, 2, 3... afresh for each."""
        names = self.schema["column_names_original"]
        originals = self.schema["table_names_original"]
        keys = [
            [names[index][1] for index in key]
            for key in self.schema.get("composite_primary_keys") or []
            if key and originals[names[key[0]][0]].lower() == table.lower()
        ]
        key = keys[0] if keys else []
        if set(identifier_words(column)) & _CALENDAR_WORDS:
            return False  # a target's month within (store, year, month) is a time, no place in a sequence
        rest = [name for name in key if name.lower() != column.lower()]
        if (
            len(rest) != len(key) - 1
            or not rest
            or not any(f"{table}.{name}".lower() in self._foreign for name in rest)
        ):
            return False
        listed = ", ".join(f'"{name}"' for name in rest)
        result = execute(self.path, f'SELECT count(*) FROM (SELECT DISTINCT {listed} FROM "{table}")')  # noqa: S608
        figures = self.figures(f"{table}.{column}")
        # Several rows to each of the rest's values: a place among them, not one row's own number.
        return result.ok and bool(result.rows) and figures is not None and figures.rows > result.rows[0][0] * 2

    def _table_columns_original(self, table: str, lowered: str) -> str:
        """A column of `table` as the schema spells it, from its lower-case name."""
        return next((name for name in self._table_columns.get(table.lower(), ()) if name.lower() == lowered), lowered)

    def _condition_before(self, tree: dict) -> Refusal | None:
        """A condition on part of a number held as text (a room LIKE '%12%', a date LIKE '%2018-01-3%'), on one second
        of a time stamp, or a count of what one value of a nearly unique column picks ("how many courses are named
        X": one)."""
        for filters in (tree.get("filters") or [], (tree.get("set") or {}).get("filters") or []):
            for item in filters:
                refusal = self._value_refusal(item)
                if refusal is not None:
                    return refusal
        looked_up = self._looked_up(tree)
        for column in tree.get("project") or [] if tree["type"] == "list" else []:
            figures = self.figures(column)
            # Unless a look-up asks it of one row ("the country of the airline named X").
            if figures is not None and figures.distinct < 2 and figures.table_rows > 1:
                if column.split(".", 1)[0].lower() not in looked_up:
                    return Refusal("one_value", f"every {column} is {figures.low}")
        if tree["type"] == "count":
            for item in tree.get("filters") or []:
                if item["column"].split(".", 1)[0].lower() != tree["tables"][0].lower():
                    continue  # a condition on what the counted rows belong to ("of the patient named X")
                figures = self.figures(item["column"])
                if item["op"] == "=" and figures is not None and figures.distinct >= _NEARLY_UNIQUE * figures.rows:
                    return Refusal("answers_itself", f"counts what one value of {item['column']} picks: nearly unique")
        return None

    def _value_refusal(self, item: dict) -> Refusal | None:
        """A condition's value nobody asks: part of a number, a code or a short value, one second of a time stamp, or
        one of an amount's many values."""
        value = item["value"]
        if item["op"] == "like" and (
            not re.search(r"[A-Za-z]", str(value).strip("%"))
            or _DIGIT.search(str(value))  # part of a measure or a number ('%2.6 lb/ft%', '%Suite 69%')
            or not self.holds_words(item["column"])
            or self.identifier_kind(item["column"]) in ("key", "identifier", "code")  # part of a code
        ):
            return Refusal("part_of_a_number", f"{item['column']} LIKE {value}")
        if item["op"] == "=" and is_time_stamp(value):
            return Refusal("exact_time", f"{item['column']} = {value}")
        if item["op"] == "=" and self.exact_date(item["column"], value):
            return Refusal("exact_date", f"{item['column']} = {value}")
        if item["op"] == "=" and self.exact_amount(item["column"]):
            return Refusal("exact_amount", f"{item['column']} = {value}")
        return None

    def _meaning_before(self, tree: dict) -> Refusal | None:
        """A condition on, a list of or a ranking by values that mean nothing to a person (`meaningless`); a count per
        group of them is `group_column_refusal`'s."""
        columns = [
            item["column"]
            for filters in (tree.get("filters") or [], (tree.get("set") or {}).get("filters") or [])
            for item in filters
        ]
        if tree["type"] == "list":
            columns += tree.get("project") or []
        if tree.get("order") and tree["order"]["by"] != "count":
            columns.append(tree["order"]["by"])
        for column in columns:
            meaningless = self.meaningless(column)
            if meaningless is not None:
                return Refusal("meaningless_values", f"{column}: {meaningless}")
        return None

    def _attribute_before(self, tree: dict) -> Refusal | None:
        """A condition on, a list of or a count per the values of a table of attributes (`attribute_of`) where no
        condition of the tree says which attribute (on the attribute's column, or on a table it points to)."""
        filters = [*(tree.get("filters") or []), *((tree.get("set") or {}).get("filters") or [])]
        used = [item["column"] for item in filters]
        used += tree.get("project") or [] if tree["type"] == "list" else []
        used += [tree["group"]] if tree["type"] == "group_count" else []
        for column in used:
            attribute = self.attribute_of(column)
            if attribute is None:
                continue
            named = {attribute.lower()}
            if self.points_to(attribute) is not None:
                named.add(self.points_to(attribute).lower())
            if not any(
                item["column"].lower() in named or item["column"].split(".", 1)[0].lower() in named
                for item in filters
                if item["op"] == "="
            ):
                return Refusal("value_without_attribute", f"{column} of no {attribute}")
        return None

    def _unread_before(self, tree: dict) -> Refusal | None:
        unread = unread_tables(tree)
        if unread:
            return Refusal("unused_join", f"nothing reads {', '.join(unread)}")
        return None

    def _group_before(self, tree: dict) -> Refusal | None:
        """A count per group over a column that makes poor groups (`group_column_refusal`), or that counts what the
        grouped rows point to, or pairs of a link table per kind."""
        if tree["type"] != "group_count":
            return None
        group = tree["group"]
        refusal = self.group_column_refusal(group)
        if refusal is not None:
            return refusal
        if join_directions(tree, self.schema)[:1] == ["up"]:
            # Grouping rows by a value and counting what they point to: "which quantity has the most guests".
            return Refusal("count_fan_out", f"counts per {group} the {tree['tables'][-1]} its rows point to")
        # Per kind (a sex, a city code, a division: neither unique nor naming a row of another table), counting through
        # a link table counts pairs, or things reached through pairs: "which faculty sex has the most departments".
        per_kind = not self.values_unique(group) and self.points_to(group) is None
        linked = [table for table in tree["tables"][1:] if self.links_rows(table)]
        if per_kind and linked:
            return Refusal("count_of_links", f"counts {counted_table(tree)} per {group} through {linked[0]}")
        refusal = self._subtype_refusal(tree, group)
        if refusal is not None:
            return refusal
        figures = self.figures(group)
        if per_kind and len(tree.get("joins") or []) >= 2 and figures is not None and figures.distinct <= _FEW_KINDS:
            # "Which guest gender has the fewest unit status records (through bookings)?"
            return Refusal("few_kinds_far", f"counts {counted_table(tree)} per {group} of {figures.distinct} values")
        if len(tree.get("joins") or []) >= 2 and figures is not None and isinstance(figures.low, int | float):
            # "How many courses per pay scale of their department's head": a number of a row two tables away or
            # further (a scale, a year, a size) sorts the counted things by nothing of theirs.
            return Refusal("far_number_group", f"counts {counted_table(tree)} per {group}, two joins away or more")
        return None

    def subtype_of(self, table: str) -> str | None:
        """The table `table` is one type of: its one-column key (or, with no key declared, its one foreign key unique
        in it) is a foreign key to another table (a purchase is a transaction, keyed by the transaction's id); None
        otherwise."""
        key = self.row_key(table)
        if key is None and table.lower() not in self._declared:
            # No key declared (tables.json often lists none for such a table): a foreign key unique in it.
            prefix = f"{table.lower()}."
            unique = [child for child in self._foreign if child.startswith(prefix) and self.unique(child)]
            key = unique[0] if len(unique) == 1 else None
        parent = self.points_to(key) if key is not None else None
        return parent if parent is not None and parent.lower() != table.lower() else None

    def _subtype_refusal(self, tree: dict, group: str) -> Refusal | None:
        """Counting the rows of a table that is one type of another, per a type or kind of the rows it specialises
        (or of a table further on): "which transaction type has the most purchases" counts purchases per transaction
        type, and every purchase is of its own type."""
        counted = counted_table(tree)
        parent = self.subtype_of(counted)
        if parent is None or parent.lower() not in {table.lower() for table in tree["tables"]}:
            return None
        if _KIND_WORDS & set(identifier_words(group.split(".", 1)[1])):
            return Refusal("count_of_subtype", f"counts {counted} (one type of {parent}) per {group}")
        return None

    def group_column_refusal(self, group: str) -> Refusal | None:
        """Why a column makes poor groups for a count per group, whatever is counted: empty in many rows, an
        identifier (an id number, a room number, the minutes of a time), nearly one row per value, or a number or a
        date of many values. The sampler draws its groups among the columns this passes."""
        if self.mostly_empty(group):
            return Refusal("empty_values", f"grouped by {group}, empty in many rows")
        table, column = group.split(".", 1)
        if self.position(group):
            # Before the ids: a place whose values lie among another table's ids is taken for a reference to it.
            return Refusal("by_position", f"grouped by {group}, the places of rows in their parent's sequence")
        if (
            self.id_number(group)
            or group.lower() in self._primary
            or (group.lower() not in self.keys and name_kind(column) == "identifier")
            or self._clock_part(table, column)
        ):
            return Refusal("group_by_identifier", f"grouped by {group}")
        figures = self.figures(group)
        if figures is not None and figures.distinct < 2:
            return Refusal("one_value", f"{group} holds one value")
        meaningless = self.meaningless(group)
        if meaningless is not None:
            return Refusal("meaningless_values", f"grouped by {group}: {meaningless}")
        if self.is_flag(group):
            return Refusal("group_by_flag", f"grouped by {group}")
        if is_person_name_part(column) and not self.values_unique(group):
            # Unique, a last name names its person ("per faculty"); shared, it is no kind of thing.
            return Refusal("group_by_person_name", f"grouped by {group}")
        if figures is not None and isinstance(figures.low, str) and _DATE.match(figures.low):
            return Refusal("group_by_date", f"grouped by {group}")
        if self.shared_own_name(group):
            # "The number of students per guardian name" of 59 names ("Mrs Patel") shared by 450 guardians: the rows
            # a name lumps together are different things, and a count per such name counts nothing.
            return Refusal("group_by_shared_name", f"grouped by {group}, names its rows share")
        return None if figures is None else self._spread_refusal(group, figures)

    def _spread_refusal(self, group: str, figures: _Figures) -> Refusal | None:
        """Why a column's values spread too thin to group by: nearly one per row, or many and no words."""
        column = group.split(".", 1)[1]
        # Nearly one value per row of its table and not a name: a price, a rate, a timestamp is no kind of thing.
        if figures.distinct * 2 > figures.rows and isinstance(figures.low, int | float):
            return Refusal("group_of_one", f"{group} has {figures.distinct} values in {figures.rows} rows")
        if figures.distinct * 2 > figures.rows and name_kind(column) in ("code", "identifier"):
            # A code nearly every row has its own of (a postcode, a card number): a group per row, words or not.
            return Refusal("group_of_one", f"{group} has {figures.distinct} values in {figures.rows} rows")
        if figures.distinct > _GROUP_MAX_VALUES and not self.names_things(group):
            return Refusal("group_by_many_values", f"{group} has {figures.distinct} values")
        return None

    def shared_own_name(self, qualified: str) -> bool:
        """Whether a column is its table's own name (`name`, `guardian_name` of guardian) of more than a scale's
        values that its rows share (fewer than nine in ten of them different), most of them a title and a surname
        ("Mrs Patel"): a name that lumps different people."""
        table, column = qualified.split(".", 1)
        words = identifier_words(column)
        own = [_stem(word) for word in identifier_words(table)]
        if not words or words[-1] != "name" or (len(words) > 1 and _stem(words[-2]) not in own):
            return False
        figures = self.figures(qualified)
        if not (
            figures is not None
            and self.names_things(qualified)
            and _GROUP_MAX_VALUES < figures.distinct < _NEARLY_UNIQUE * figures.rows
        ):
            return False
        # People named by a title and a surname ("Mrs Patel"), most of them: a race's name shared by its years
        # ("Australian Grand Prix") names one recurring thing and is kept.
        quoted = f'"{column}"'
        titled = " OR ".join(f"{quoted} GLOB '{title} *'" for title in _PERSON_TITLES)
        result = execute(self.path, f'SELECT count(*) FROM "{table}" WHERE {titled}')  # noqa: S608
        return result.ok and bool(result.rows) and result.rows[0][0] * 2 > figures.rows

    def groups_well(self, qualified: str) -> bool:
        """Whether a count per value of the column may be asked (`group_column_refusal` finds nothing)."""
        return self.group_column_refusal(qualified) is None

    def conditions_well(self, qualified: str) -> bool:
        """Whether a condition on the column may be asked: not an id number, nor a number nobody asking knows (a
        phone, a fax, a social security number: `filter_on_identifier`)."""
        words = set(identifier_words(qualified.split(".", 1)[1]))
        return not self.id_number(qualified) and not words & _UNKNOWN_NUMBER_WORDS

    def exact_amount(self, qualified: str) -> bool:
        """Whether a column is an amount (no identifier, code or ordinal) of numbers, held as numbers or digits, nearly
        every row's its own (nine in ten different, ten rows or more): one of its values is a number nobody asking
        knows, and "equals" picks one row by it (`exact_amount`); above or below it reads."""
        figures = self.figures(qualified)
        if figures is None or figures.rows < _EXACT_ROWS or self.identifier_kind(qualified) is not None:
            return False
        # Numbers, or digits held as text (an empty text sorts first: the highest value tells).
        numbers = isinstance(figures.high, int | float) or (
            figures.lettered == 0 and str(figures.high).replace(".", "", 1).isdigit()
        )
        # Nearly unique, or more than a scale's values that most rows share with few others (a stock of 542 units):
        # one of them picks a row or two by a number nobody knows.
        return numbers and (
            figures.distinct >= _NEARLY_UNIQUE * figures.rows
            or (figures.distinct > _GROUP_MAX_VALUES and figures.distinct * 2 > figures.rows)
        )

    def exact_date(self, qualified: str, value) -> bool:
        """Whether `value` is a day of a column of dates of more than `_GROUP_MAX_VALUES` different days: one of them
        is a day nobody asking knows (`exact_date`; the draw asks before or after it). A date of a few days (a
        festival's) is one of its kinds."""
        figures = self.figures(qualified)
        return (
            isinstance(value, str)
            and _DAY.fullmatch(value) is not None
            and figures is not None
            and figures.distinct > _GROUP_MAX_VALUES
        )

    def numeric_flag(self, qualified: str) -> bool:
        """A yes/no flag held as 0 and 1, numbers or digits (`is_flag`): shown, it answers with a digit
        (`shows_flag`); "Y" and "N" or "yes" and "no" read by themselves."""
        figures = self.figures(qualified)
        return self.is_flag(qualified) and {str(figures.low), str(figures.high)} == {"0", "1"}

    def shows_well(self, qualified: str) -> bool:
        """Whether showing the column may be asked: not a flag of 0 or 1 (`shows_flag`), nor an id number other than
        its table's own one-column key (the id of the row another table holds, a section number 1 or 2 of a key of
        several columns: `shows_identifier`)."""
        if self.numeric_flag(qualified):
            return False
        if not self.id_number(qualified):
            return True
        key = self.row_key(qualified.split(".", 1)[0])
        return key is not None and key.lower() == qualified.lower()

    def mostly_empty(self, qualified: str) -> bool:
        """Empty in more than a quarter of its table's rows."""
        figures = self.figures(qualified)
        return figures is not None and (figures.table_rows - figures.rows) * 4 > figures.table_rows

    def filled(self, qualified: str) -> bool:
        """Not `mostly_empty`, holding two values or more (`one_value`) and values that mean something
        (`meaningless`): a column worth showing, grouping by or putting a condition on."""
        figures = self.figures(qualified)
        return (
            not self.mostly_empty(qualified)
            and (figures is None or figures.distinct >= 2)
            and self.meaningless(qualified) is None
        )

    def meaningless(self, qualified: str) -> str | None:
        """What makes a column's values mean nothing to a person asking, or None: a secret or a machine token (its
        name says a password or a hash, or its values are long hexadecimal strings), or single letters of more than
        `_FEW_LETTERS` kinds, most of them rare (initials, placeholder letters: 'details k', 'fix i'). No
        condition, list, ranking or count per group is asked of such values (`meaningless_values`)."""
        if _SECRET_WORDS & set(identifier_words(qualified.split(".", 1)[1])):
            return "a password or a token"
        figures = self.figures(qualified)
        if figures is None or not figures.rows or not isinstance(figures.low, str):
            return None
        if all(_HEX_TOKEN.fullmatch(str(value)) for value in (figures.low, figures.high)):
            return "hashes"
        if (
            figures.digits == (1, 1)
            and figures.distinct > _FEW_LETTERS
            and (figures.distinct * 2 > figures.rows or figures.distinct > _GROUP_MAX_VALUES)
        ):
            return "single letters"
        return None

    def attribute_of(self, qualified: str) -> str | None:
        """The column naming which attribute a value column holds the value of, or None: in a table of attributes
        and their values (`attribute_id`, `attribute_value`; `property_name`, `property_value`), the column of the
        value's table whose name is the value column's with `value` replaced by an id, a name, a code or a type.
        Its values are those of different attributes: asked of no attribute, they mean nothing."""
        table, column = qualified.split(".", 1)
        words = identifier_words(column)
        if len(words) < 2 or words[-1] not in ("value", "values"):
            return None
        for other in self._table_columns.get(table.lower(), ()):
            other_words = identifier_words(other)
            if other_words[:-1] == words[:-1] and other_words[-1] in ("id", "name", "code", "type"):
                return f"{self._table_names[table.lower()]}.{other}"
        return None

    def is_flag(self, qualified: str) -> bool:
        """Whether a column holds the two values of a yes/no flag (0 and 1, Y and N, true and false)."""
        figures = self.figures(qualified)
        if figures is None or figures.distinct != 2:
            return False
        return {str(figures.low).lower(), str(figures.high).lower()} in _FLAG_VALUES

    def after_run(self, tree: dict, rows: list[list]) -> tuple[dict, Refusal | None]:
        """The rules read from the tree's result (`rows`, as the sandbox returned them) and from its own figures. May
        return a rewritten tree (a count that counts each row once, a HAVING that keeps some groups and not all),
        whose SQL the caller runs again; `rewritten` counts those rewrites by rule."""
        kind = tree["type"]
        if kind == "list" and not tree.get("order"):
            judged, refusal = self._list_judged(tree, rows)
            if refusal is not None or judged is not tree:
                return judged, refusal
        refusal = self._keeps_all(tree, rows) or self._count_of_a_name(tree, rows)
        if refusal is not None:
            return tree, refusal
        if "set" in tree:
            return tree, self._set_refusal(tree, rows)
        if kind == "group_count":
            refusal = self._group_refusal(tree)
            if refusal is not None:
                return tree, refusal
        if kind in ("count", "group_count") and tree.get("joins") and not tree.get("distinct"):
            tree, refusal = self._count_once(tree)
            if refusal is not None:
                return tree, refusal
        if kind == "group_count" and "having" in tree:
            tree, refusal = self._having_that_chooses(tree)
            if refusal is not None:
                return tree, refusal
        return tree, self._answer_refusal(tree, rows)

    def _answer_refusal(self, tree: dict, rows: list[list]) -> Refusal | None:
        """The answer's own fault, once the tree is settled: a superlative's shared first place, or every group of a
        count per code listed."""
        if tree.get("order") and tree["order"]["limit"] == 1:
            return self._tie_refusal(tree)
        if tree["type"] == "group_count" and not tree.get("order"):
            return self._groups_of_codes(tree, rows)
        return None

    def _list_judged(self, tree: dict, rows: list[list]) -> tuple[dict, Refusal | None]:
        """`_list_refusal`, except that a list naming nothing of a table with a name column shows the names beside
        (`_named_list`, a rewrite) when nothing else refuses it."""
        refusal = self._list_refusal(tree, rows)
        if refusal is None or refusal.rule != "list_naming_nothing":
            return tree, refusal
        named = self._named_list(tree)
        if named is tree:
            return tree, refusal
        self.rewritten["list_naming_nothing"] += 1
        return named, None

    def _list_refusal(self, tree: dict, rows: list[list]) -> Refusal | None:
        """A list (not ranked) with many empty rows, many repeated rows, or too many rows to read."""
        different = {tuple(row) for row in rows}
        empty = sum(all(value is None for value in row) for row in rows)
        if len(rows) >= 3 and empty * 4 > len(rows):
            return Refusal("empty_values", f"{empty} of {len(rows)} rows empty")
        if len(rows) >= 2 and len(different) * 2 <= len(rows):
            return Refusal("duplicate_rows", f"{len(rows)} rows, {len(different)} different")
        if len(rows) > _ID_LIST and all(self.id_number(column) for column in tree["project"]):
            return Refusal("list_of_ids", f"{len(rows)} rows of {', '.join(tree['project'])}")
        if len(rows) > _ID_LIST and not any(self.names_rows(column) for column in tree["project"]):
            return Refusal("list_naming_nothing", f"{len(rows)} rows of {', '.join(tree['project'])}")
        named = all(self.unique(column) for column in tree["project"])
        if len(rows) > LONG_LIST * (2 if named else 1):
            return Refusal("long_list", f"{len(rows)} rows of {', '.join(tree['project'])}")
        return None

    def _named_list(self, tree: dict) -> dict:
        """A list of values naming nothing (`list_naming_nothing`) of one table that has a name column: the names are
        shown beside them ("the titles and page counts of ..."); `tree` itself otherwise (a set operation too)."""
        shown = tree["project"]
        if "set" in tree:
            return tree
        tables = {column.split(".", 1)[0].lower() for column in shown}
        named = self.name_column(shown[0].split(".", 1)[0]) if len(tables) == 1 else None
        # A name is words (a date unique in its table names no row: "the acquisition dates and acquisition dates").
        if named is None or not self.names_rows(named) or any(self.id_number(column) for column in shown):
            return tree
        return {**tree, "project": [named, *shown]}

    def _count_of_a_name(self, tree: dict, rows: list[list]) -> Refusal | None:
        """A count of the rows one name picks, answered 1 ("how many carriers are named Vistula Haulage"): names that
        mostly have a row of their own (more different names than half the rows) count their one row."""
        filters = tree.get("filters") or []
        if tree["type"] != "count" or "set" in tree or not filters or [list(row) for row in rows] != [[1]]:
            return None
        counted = tree["tables"][0].lower()
        for item in filters:
            figures = self.figures(item["column"])
            if (
                item["op"] != "="
                or item["column"].split(".", 1)[0].lower() != counted
                or not self.names_rows(item["column"])
                or figures is None
                or figures.distinct * 2 <= figures.rows
            ):
                return None
        return Refusal("answers_itself", f"counts the one row {filters[0]['column']} = {filters[0]['value']} picks")

    def _set_refusal(self, tree: dict, rows: list[list]) -> Refusal | None:
        found = {tuple(row) for row in rows}
        sizes = []
        for side in (1, 2):
            result = execute(self.path, tree_sql(set_side(tree, side)))
            if result.ok and {tuple(row) for row in result.rows} == found:
                return Refusal("set_same_as_side", f"{tree['set']['op']} gives what side {side} gives")
            sizes.append(len({tuple(row) for row in result.rows}) if result.ok else 0)
        if tree["set"]["op"] == "union" and max(sizes) <= 1:
            return Refusal("set_of_lookups", "either side picks one row: two look-ups")
        return None

    def _keeps_all(self, tree: dict, rows: list[list]) -> Refusal | None:
        """A condition every row passes, given the others (a property's other details 'USA' when all are), or a union
        of two conditions that gives every value the rows shown have (every thing's service type is Check or
        Cleaning): it narrows to nothing."""
        for filters, part in ((tree.get("filters") or [], "filters"), ((tree.get("set") or {}).get("filters"), "set")):
            for position, item in enumerate(filters or []):
                others = filters[:position] + filters[position + 1 :]
                probe = {**tree, "filters": filters} if part == "set" else tree
                result = execute(
                    self.path,
                    f"SELECT ({tree_probe(probe, lambda name: 'count(*)', filters=filters)}), "
                    f"({tree_probe(probe, lambda name: 'count(*)', filters=others)})",
                )
                if result.ok and result.rows and result.rows[0][0] == result.rows[0][1]:
                    return Refusal("condition_keeps_all", f"every row passes {item['column']} {item['op']} ...")
        if (tree.get("set") or {}).get("op") == "union":
            every = execute(self.path, tree_sql({**set_side(tree, 1), "filters": []}))
            if every.ok and {tuple(row) for row in every.rows} == {tuple(row) for row in rows}:
                return Refusal("condition_keeps_all", "the union gives every value")
        return None

    def _group_refusal(self, tree: dict) -> Refusal | None:
        """Grouped by a column unique over the rows grouped (every group one row), or on one table nearly so (the groups
        average fewer than two rows)."""
        group = tree["group"]
        probe = tree_probe(tree, lambda name: f"count({name(group)}), count(DISTINCT {name(group)})")
        result = execute(self.path, probe)
        if not result.ok or not result.rows:
            return None
        grouped, groups = result.rows[0]
        if groups == 1:
            return Refusal("one_value", f"the rows grouped all have one {group}")
        # Over a join a group is one thing and its rows what it has: some things having one is no fault.
        if groups and (grouped == groups or (not tree.get("joins") and grouped < 2 * groups)):
            return Refusal("group_of_one", f"{grouped} rows in {groups} groups of {tree['group']}")
        return None

    def _count_once(self, tree: dict) -> tuple[dict, Refusal | None]:
        """A count over a join counts the rows of one table (`counted_table`): the anchor for a count, the far end of
        the path for a count per group. Each joined row is one row of the path's lowest table; where the counted table
        is another and the join gives some of its rows more than once (a path down through a link table), each is
        counted once by its key (rewritten), or the tree is refused where the table has no key of one column."""
        counted, lowest = counted_table(tree), lowest_table(tree, self.schema)
        if lowest is None and tree["type"] == "group_count":
            return tree, Refusal("count_fan_out", "the join pairs rows of unrelated tables")
        key = self.row_key(counted)
        if key is None:
            if counted == lowest:
                return tree, None  # every joined row is one of its rows
            return tree, Refusal("count_fan_out", f"{counted} has no one-column key to count its rows once")
        result = execute(self.path, tree_probe(tree, lambda name: f"count(*), count(DISTINCT {name(key)})"))
        if result.ok and result.rows and result.rows[0][0] != result.rows[0][1]:
            self.rewritten["count_fan_out"] += 1
            return {**tree, "distinct": key}, None
        return tree, None

    def _having_that_chooses(self, tree: dict) -> tuple[dict, Refusal | None]:
        """A HAVING that keeps every group says nothing: its threshold is moved to the middle of the groups' sizes
        (some groups kept, some not), or the tree is refused when every group has the same size."""
        plain = {key: value for key, value in tree.items() if key not in ("having", "order")}
        result = execute(self.path, tree_sql(plain))
        if not result.ok or not result.rows or result.truncated:
            return tree, None
        sizes = [row[1] for row in result.rows]
        if len(sizes) < 3:
            return tree, Refusal("having_keeps_all", f"{len(sizes)} groups")
        having = tree["having"]
        keeps = [size for size in sizes if (size > having["value"] if having["op"] == ">" else size >= having["value"])]
        if len(keeps) < len(sizes):
            return tree, None
        different = sorted(set(sizes))
        if len(different) < 2:
            return tree, Refusal("having_keeps_all", f"every group has {different[0]} rows")
        self.rewritten["having_keeps_all"] += 1
        middle = different[len(different) // 2]
        # A round number near the middle reads as a person's ("at least 3400", not "at least 3355").
        value = next((rounded for rounded in round_numbers(middle) if different[0] < rounded <= different[-1]), middle)
        return {**tree, "having": {"op": ">=", "value": value}}, None

    def _groups_of_codes(self, tree: dict, rows: list[list]) -> Refusal | None:
        """A count per key, id or code shown for every group it keeps (no ranking), more than ten of them: "for each
        account number with at least 3 bills" is 361 account numbers beside their counts, a list nobody reads (the
        one with the most bills is a question; its codes, all of them, are not). `rows` are the groups before a
        rewrite of the threshold: its groups are counted again."""
        group = tree["group"]
        if self.identifier_kind(group) not in ("key", "identifier", "code") or self.names_rows(group):
            return None
        result = execute(self.path, tree_sql(tree))
        kept = len(result.rows) if result.ok else len(rows)
        if kept > _ID_LIST:
            return Refusal("list_naming_nothing", f"{kept} groups of {group}, each a key or a code")
        return None

    def _tie_refusal(self, tree: dict) -> Refusal | None:
        """The first places of a superlative: refused when the first value is shared by rows with different answers,
        or is empty (ORDER BY ... ASC puts an empty value first)."""
        order = tree["order"]
        if tree["type"] == "group_count":
            result = execute(self.path, tree_sql({**tree, "order": {**order, "limit": 2}}))
            if result.ok and len(result.rows) == 2 and result.rows[0][1] == result.rows[1][1]:
                return Refusal("superlative_tie", f"{result.rows[0][0]} and {result.rows[1][0]} tie")
            if result.ok and result.rows and result.rows[0][0] in (None, ""):
                # "Which postcode has the most diagnoses": the patients with none.
                return Refusal("superlative_tie", f"the first {tree['group']} is empty")
            return None
        probe = {**tree, "type": "list", "project": [order["by"], *tree["project"]]}
        result = execute(self.path, tree_sql({**probe, "order": {**order, "limit": _TIE_ROWS}}))
        if not result.ok or not result.rows:
            return None
        first = result.rows[0]
        if first[0] is None:
            return Refusal("superlative_tie", f"the first {order['by']} is empty")
        answers = {tuple(row[1:]) for row in result.rows if row[0] == first[0]}
        if len(answers) > 1:
            return Refusal("superlative_tie", f"{len(answers)} answers share {order['by']} = {first[0]}")
        return None
