"""English for names a schema gives: plurals and singulars by a kept library, and a table's name as a noun for one of
its rows. One home for these rules, so that the expert's draft (`annotation.wording.response_drafts`) and the worker's
suggestion
(`annotation.wording.suggestions`) name things the same way.

Pure: no database access and no state but the inflection engine and the answers it gave (kept per word), and what
was read from the schemas named last (`per_schema`).
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from types import MappingProxyType
from typing import TypeVar

__all__ = [
    "ABBREVIATIONS",
    "ACRONYMS",
    "COMING_ABOUT",
    "COMPARISON_PHRASES",
    "FLAG_TESTS",
    "FLAG_VERBS",
    "IRREGULAR_PARTICIPLES",
    "KEY_WORDS",
    "MASS_NOUNS",
    "MEASURES",
    "PREPOSITIONS",
    "REFERENCE_WORDS",
    "SOFTWARE_WORDS",
    "STEM_CHARS",
    "STORAGE_WORDS",
    "UNITS",
    "acronyms_capitalised",
    "column_name",
    "column_phrase",
    "english",
    "flag_before",
    "flag_kept",
    "flag_state",
    "flag_verb",
    "identifier_like",
    "is_plural",
    "key_targets",
    "noun",
    "noun_flag",
    "noun_in_ing",
    "participle",
    "per_schema",
    "plural_noun",
    "plural_word",
    "schema_vocabulary",
    "singular_word",
    "split_compounds",
    "table_noun",
    "with_article",
    "word_set",
    "words_of",
    "year_first",
]

# Inflection is the library's: it knows English (analyses, criteria, wives, people). A schema names things in
# ways a dictionary does not expect, so three guards sit in front of it: an acronym ("gnp") has no plural, a word
# the library reads as already plural stays as it is, and a name whose last word is no noun (a participle such as
# "date first registered", a measure such as "total spent") is not made plural at all.


@functools.cache
def english():
    """The library's inflection engine, made on first use. Importing the library costs about 1.5 s of CPU here (it
    instruments its own functions for type checks as it loads): every server, Celery worker and management command
    paid that at start, whether or not it ever wrote a plural."""
    import inflect

    engine = inflect.engine()
    engine.defnoun("data", "data")  # a mass noun in schema names ("cars data"), never the plural of "datum" there
    for word in MASS_NOUNS:
        engine.defnoun(word, word)  # "the 15 staff", never "staffs"
    return engine


# Nouns a schema names a table or column with that English does not count: their plural is the word itself.
MASS_NOUNS = ("staff", "personnel", "equipment", "software", "hardware", "furniture", "luggage", "baggage")


_VOWELS = frozenset("aeiouy")
MEASURES = frozenset({"number", "total", "average", "amount", "count", "sum"})
PREPOSITIONS = frozenset({"in", "of", "at", "on", "to", "for", "from", "with", "by", "into", "about"})
# A value compared with another, after the thing compared ("whose age is at least 30"): the response drafts and the
# goals' drafted questions say comparisons alike.
COMPARISON_PHRASES = {
    "=": "is {}",
    "!=": "is not {}",
    ">": "is greater than {}",
    "<": "is less than {}",
    ">=": "is at least {}",
    "<=": "is at most {}",
}
# The library checks its arguments' types on every call, which made a word's plural cost a tenth of a millisecond:
# a room reads the same schema's names for every shared result, so each answer is kept (the words of the hosted
# schemas, a few thousand at most).
_WORDS_KEPT = 16_384


@lru_cache(maxsize=_WORDS_KEPT)
def is_plural(word: str) -> bool:
    """Whether the library reads `word` as a plural: it has a singular whose plural is `word` again, and making it
    plural changes nothing (the library would write "dogss" for "dogs", "buses" for "bus")."""
    lower = word.lower()
    if not lower.isalpha() or not english().singular_noun(lower):
        return False
    return english().plural_noun(lower) in (lower, lower + "s")


# Past participles that do not end in -ed: a name ending in one ("date claim made", "amount paid") is no noun to make
# plural ("date claim mades").
IRREGULAR_PARTICIPLES = frozenset(
    {"made", "paid", "sold", "won", "built", "taken", "given", "held", "lost", "bought", "sent", "spent", "born"}
    | {"done", "seen", "known", "written", "driven", "chosen", "found", "kept", "told", "brought", "taught", "shown"}
)


def _inflectable(word: str) -> bool:
    lower = word.lower()
    return (
        lower.isalpha()
        and bool(_VOWELS & set(lower))
        and not lower.endswith(("ed", "ing"))
        and lower not in IRREGULAR_PARTICIPLES
    )


@lru_cache(maxsize=_WORDS_KEPT)
def plural_word(word: str) -> str:
    if not _inflectable(word) or is_plural(word):
        return word
    plural = english().plural_noun(word) or word
    if plural == word + "es" and word.endswith("o") and _more_used(word + "s", plural):
        return word + "s"  # "promos", "memos": a shortening ending in -o takes -s, as English text writes it
    return plural


def _more_used(one: str, other: str) -> bool:
    counts = _segmenter().UNIGRAMS
    return counts.get(one, 0) > counts.get(other, 0)


@lru_cache(maxsize=_WORDS_KEPT)
def singular_word(word: str) -> str:
    if not _inflectable(word) or not is_plural(word) or word.lower() in ACRONYMS:
        return word  # an acronym ending in s is one thing: "the ODS code" of a practice, never "the od"
    return english().singular_noun(word) or word


def noun(name: str, many: bool, *, rows: bool = False) -> str:
    """`name` (a readable table or column name) in the singular or plural; the head noun is its last word, or the
    word before " of " ("cost of treatment" -> "costs of treatment"). A measure ("number of products", "total
    spent") or a name ending in a preposition ("written by") has no plural of its own. With `rows` (a table's name,
    which names things) a preposition inside the name ends its head too: "product for hire" -> "products for hire";
    a column's name with one ("active from date", "lost in battle") is left as it is: its first word is seldom a
    noun."""
    head, sep, tail = name.partition(" of ")
    words = head.split(" ")
    if not sep and len(words) > 2 and words[-2] == "in" and words[-1] in UNITS:
        return noun(" ".join(words[:-2]), many, rows=rows) + " in " + words[-1]  # "doses in mg"
    if not sep and len(words) == 2 and words[0] in _TIME_WORDS and participle(words[1]):
        return f"{plural_word(words[0]) if many else words[0]} {words[1]}"  # "years opened"
    inner = [position for position, word in enumerate(words[1:-1], start=1) if word in PREPOSITIONS]
    if not sep and inner and words[0] not in MEASURES:
        if not rows:
            return name
        head, sep, tail = " ".join(words[: inner[0]]), " ", " ".join(words[inner[0] :])
        words = head.split(" ")
    if words[0] in MEASURES or words[-1] in PREPOSITIONS:
        return name
    if rows and many and words[-1].endswith("ing") and words[-1].isalpha() and words[-1] not in MASS_NOUNS:
        # A table's name ending in -ing names things ("building", "wedding"): it has a plural.
        words[-1] = english().plural_noun(words[-1]) or words[-1]
        return " ".join(words) + sep + tail
    words[-1] = plural_word(words[-1]) if many else singular_word(words[-1])
    return " ".join(words) + sep + tail


@lru_cache(maxsize=_WORDS_KEPT)
def with_article(noun: str) -> str:
    last = noun.split(" ")[-1]
    if is_plural(last) or singular_word(last) != last:
        return noun  # "cars data", not "a cars data"
    return english().a(noun)


def words_of(identifier: str) -> str:
    """An identifier as lower-case words: "FullName" -> "full name", "dorm_name" -> "dorm name"."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", identifier)
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", text)
    text = re.sub(r"[\W_]+", " ", text).strip().lower()
    return text or "value"


def word_set(name: str) -> set[str]:
    words = set()
    for word in name.split():
        words.update({word, singular_word(word), plural_word(word)})
    return words


# Last words of a table name that say how rows are kept, not what they are: "cars data" holds cars, "model list" models;
# a "festival detail" row is a festival, a "fault log" row a fault ("the names of the 5 festivals", never "of the 5
# festival details").
STORAGE_WORDS = frozenset({"data", "info", "information", "details", "detail", "list", "table", "log", "logs"})


# First words of a table name that say it is a lookup table ("Ref_Shipping_Agents"), not what its rows are.
REFERENCE_WORDS = frozenset({"ref", "reference"})
# First words of a table name that say whose software keeps the rows ("app_user", "sys_role"): the rows are users and
# roles. Only the shortenings: "application" and "system" are often things of their own ("application status").
SOFTWARE_WORDS = frozenset({"app", "sys"})


def schema_vocabulary(table_names: list[str], column_readable: list, column_originals: list) -> set[str]:
    """Every word of the schema's readable names (three letters or more), singular and plural."""
    words: set[str] = set()
    names = list(table_names)
    for index, (_, original) in enumerate(column_originals):
        readable = column_readable[index][1] if index < len(column_readable) else original
        names.append(words_of(str(readable or original)))
    for name in names:
        for word in name.split():
            if len(word) >= 3 and word.isalpha():
                words.update({word, singular_word(word)})
    return words


def table_noun(name: str, vocabulary: set[str]) -> str:
    """A table's readable name as a noun for one of its rows: the storage word dropped ("cars data" -> "car"), and a
    word written as two run together split ("countrylanguage" -> "country language", "highschooler" -> "high
    schooler": `split_compounds`)."""
    words = [spelled_out(word) for word in split_compounds(name, vocabulary).split()]
    if len(words) >= 2 and words[0] in REFERENCE_WORDS | SOFTWARE_WORDS:
        words = words[1:]  # "reference shipping agents" hold shipping agents: a lookup table is named as its rows
    if len(words) >= 2 and words[-1] in STORAGE_WORDS and not _modifies(words[-2]):
        words = words[:-1]
        words[-1] = singular_word(words[-1])
    return " ".join(words)


# Nouns for a group of people: a table named by one whose rows have a first and a last name holds its members ("band
# members whose first name is Solveig", never "a band whose first name is Solveig").
_GROUP_NOUNS = frozenset({"band", "team", "crew", "cast", "choir", "orchestra", "committee", "club", "group", "squad"})
# Words of a person's name: rows with a first and a last name are people.
_PERSON_NAME_WORDS = (frozenset({"first", "given", "fore"}), frozenset({"last", "family", "sur"}))
_NAMING_LAST_WORDS = frozenset({"name", "title"})


def _named_as_people(columns: list[str]) -> bool:
    """Whether a table's columns (readable, lower-case) name each row by a first and a last name."""
    firsts, lasts = _PERSON_NAME_WORDS
    named = [column.split() for column in columns if column.split()[-1:] == ["name"]]
    return any(words[0] in firsts for words in named if len(words) > 1) and any(
        words[0] in lasts for words in named if len(words) > 1
    )


def rows_noun(name: str, columns: list[str]) -> str:
    """What one row of a table is, by its columns (readable, lower-case) where its name (`table_noun`'s) says how the
    rows are kept or names a group: a table named by a storage word alone ("list") whose rows have a first and a last
    name holds people; one named by a group noun ("band") with them, the group's members; one named "A B" (a "book
    club", "sports info") whose rows are named by "A title" or "A name" and by no name of a B holds As (books,
    sports). Any other name as it is."""
    words = name.split()
    if not words or not columns:
        return name
    if len(words) == 1 and words[0] in STORAGE_WORDS:
        return "person" if _named_as_people(columns) else name
    if len(words) == 1 and words[0] in _GROUP_NOUNS and _named_as_people(columns):
        return f"{words[0]} member"
    if len(words) >= 2:  # noqa: PLR2004
        kind, head = " ".join(words[:-1]), singular_word(words[-1])
        own = [column for column in columns if column in _NAMING_LAST_WORDS or column.split()[0] in (head, words[-1])]
        named = [
            column
            for column in columns
            if column.split()[-1] in _NAMING_LAST_WORDS and " ".join(column.split()[:-1]) in (kind, singular_word(kind))
        ]
        if named and not any(column.split()[-1] in _NAMING_LAST_WORDS for column in own):
            return singular_word(kind)
    return name


def rows_nouns(names: list[str], column_pairs: list, readable: Callable[[int], str]) -> list[str]:
    """`rows_noun` of each table (`column_pairs`: tables.json's `[table index, name]`; `readable(i)`: the readable,
    lower-case name of column i), keeping a table's own name where the new one is another table's name."""
    columns: list[list[str]] = [[] for _ in names]
    for index, (table, _) in enumerate(column_pairs):
        if isinstance(table, int) and 0 <= table < len(columns):
            columns[table].append(readable(index))
    nouns = [rows_noun(name, table_columns) for name, table_columns in zip(names, columns, strict=True)]
    taken = {singular_word(name.split()[-1]) if len(name.split()) == 1 else name for name in names}
    return [
        new if new == old or new not in taken and new not in names else old
        for old, new in zip(names, nouns, strict=True)
    ]


def present_participle(verb: str) -> str:
    """A verb's -ing form as English text spells it: the inflection library doubles a last consonant by rule ("visit"
    -> "visitting", "open" -> "openning") and sometimes fails to ("refer" -> "refering"); of its form, the plain
    "-ing" and the doubled one, the one written most often in the segmenter's corpus wins ("visiting", "referring",
    "planning")."""
    made = english().present_participle(verb)
    if not verb.isalpha() or verb.endswith("e"):
        return made
    counts = _segmenter().UNIGRAMS
    forms = [made, f"{verb}ing", f"{verb}{verb[-1]}ing"]
    return max(forms, key=lambda form: (counts.get(form, 0), form == made))


def _modifies(word: str) -> bool:
    """Whether `word`, before a storage word, is a verb's -ing form that English uses only to say what kind of thing
    follows ("dining table", "parking list"): its plural is hardly written ("dinings"), so the storage word is the
    thing itself. A gerund that names things ("booking", "reading": "bookings") is what the rows are."""
    return word.endswith("ing") and _segmenter().UNIGRAMS.get(word + "s", 0) < _PART_IN_USE


# A word shorter than this is never split: short words run together are rare, and short real words many.
_COMPOUND_MIN_CHARS = 6
# A word that English text uses at least this often (per the segmenter's corpus of about 10^12 words) is a word of its
# own even when it splits ("hometown", "birthplace", "playlist" stay whole; "fullname", "statuscode" do not).
_WORD_ON_ITS_OWN = 1_000_000
# A part of a split must itself be a word people use this often, or a word of the schema: "stu id" is no split.
_PART_IN_USE = 50_000
# A segmenter's last part of one or two letters is a suffix it cut off ("high school er"): it is put back, unless it
# is one of the short words schemas end names with ("student id", "flight no").
_SUFFIX_CHARS = 2
_SHORT_WORDS = frozenset({"id", "no", "nr", "of", "by", "in", "to", "on", "at"})


@functools.cache
def _segmenter():
    """The word segmenter (`wordsegment`: English unigram and bigram counts), loaded on first use (about 0.3 s)."""
    import wordsegment

    wordsegment.load()
    return wordsegment


def _shortened_key(word: str, vocabulary: frozenset[str]) -> tuple[str, ...] | None:
    """A key column's name written as a shortened word of the schema and "id" run together ("stuid" beside the
    table "student"): that word in full and "id"; None for any other word ("valid", "paid" are words of their own)."""
    stem = word[: -len(_KEY_SUFFIX)]
    if not word.endswith(_KEY_SUFFIX) or len(stem) < 3 or _segmenter().UNIGRAMS.get(word, 0) >= _PART_IN_USE:
        return None
    full = {
        singular_word(other)
        for other in vocabulary
        if other.startswith(stem) and len(other) > len(stem) + 1 and not other.startswith(word)
    }
    return (full.pop(), _KEY_SUFFIX) if len(full) == 1 else None


# The key word a schema runs a shortened table name into ("stuid").
_KEY_SUFFIX = "id"


@lru_cache(maxsize=_WORDS_KEPT)
def _split_word(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    if word.isalpha() and word.islower() and (key := _shortened_key(word, vocabulary)) is not None:
        return key
    if len(word) < _COMPOUND_MIN_CHARS or not word.isalpha() or not word.islower():
        return (word,)
    segmenter = _segmenter()
    counts = segmenter.UNIGRAMS
    if counts.get(word, 0) >= _WORD_ON_ITS_OWN or _misspelt(word) or _misspelt_of(word, vocabulary):
        return (word,)
    halves = [(word[:cut], word[cut:]) for cut in range(3, len(word) - 2)]
    in_schema = [pair for pair in halves if pair[0] in vocabulary and pair[1] in vocabulary]
    if len(in_schema) == 1:
        return in_schema[0]  # both halves are words of the same schema: "countrylanguage", "flightroute"
    parts = list(segmenter.segment(word))
    while len(parts) > 1 and len(parts[-1]) <= _SUFFIX_CHARS and parts[-1] not in _SHORT_WORDS:
        parts[-2:] = [parts[-2] + parts[-1]]  # "school" + "er"
    if len(parts) < 2 or "".join(parts) != word:
        return (word,)
    if not all(
        part in _SHORT_WORDS or (len(part) >= 3 and (counts.get(part, 0) >= _PART_IN_USE or part in vocabulary))
        for part in parts
    ):
        return (word,)
    return tuple(parts)


# A word this much like a common word of about its length is that word misspelt, not two words ("indepdent" is no
# "indep dent"): difflib's similarity ratio of the two spellings, and how many letters they may differ in length.
_MISSPELT_RATIO = 0.85
_MISSPELT_LENGTHS = 2


@functools.cache
def _common_words_by_start() -> dict[str, tuple[str, ...]]:
    """The segmenter's words used on their own (`_WORD_ON_ITS_OWN`) of `_COMPOUND_MIN_CHARS` letters or more, by
    their first two letters."""
    found: dict[str, list[str]] = {}
    for word, count in _segmenter().UNIGRAMS.items():
        if count >= _WORD_ON_ITS_OWN and len(word) >= _COMPOUND_MIN_CHARS and word.isalpha():
            found.setdefault(word[:2], []).append(word)
    return {start: tuple(words) for start, words in found.items()}


def _misspelt(word: str) -> bool:
    """Whether `word` reads as a common word misspelt ("descriptrion", "indepdent"): nearly the same letters as one,
    differing before its last letters (a compound begins with its first word, whatever ending that word may also
    take: "departmentid" is no "departments" misspelt, "checkin" no "checking")."""
    for common in _common_words_by_start().get(word[:2], ()):
        if abs(len(common) - len(word)) > _MISSPELT_LENGTHS:
            continue
        if len(os.path.commonprefix((word, common))) >= len(common) - _MISSPELT_LENGTHS:
            continue  # the same word with another ending and a word after it ("departments", "departmentid")
        if difflib.SequenceMatcher(None, word, common).ratio() >= _MISSPELT_RATIO:
            return True
    return False


def _misspelt_of(word: str, vocabulary: frozenset[str]) -> bool:
    """Whether `word` is another word of the same schema misspelt: "appelation" beside the table "appellations"."""
    return any(
        other != word
        and other[:2] == word[:2]
        and abs(len(other) - len(word)) <= _MISSPELT_LENGTHS
        and not (other.startswith(word) or word.startswith(other))
        and difflib.SequenceMatcher(None, word, other).ratio() >= _MISSPELT_RATIO
        for other in vocabulary
    )


def split_compounds(name: str, vocabulary: set[str] | frozenset[str] = frozenset()) -> str:
    """`name` with each word that is two words run together split by English word frequencies (a kept segmenter)
    and the schema's own words: "highschooler" -> "high schooler", "fullname" -> "full name"; a word English uses
    on its own ("hometown", "playlist") or any short word stays as it is."""
    frozen = vocabulary if isinstance(vocabulary, frozenset) else frozenset(vocabulary)
    return " ".join(part for word in name.split() for part in _split_word(word, frozen))


# Shortenings of a column name spelled out where they read as one word of English ("country abbrev" -> "country
# abbreviation"); the rest of ABBREVIATIONS are left to a curator, whose readable name wins.
_SPELLED_OUT = {
    "abbrev": "abbreviation",
    "acct": "account",
    "addr": "address",
    "appt": "appointment",
    "amt": "amount",
    "cd": "code",
    "cnt": "count",
    "ctry": "country",
    "cust": "customer",
    "dept": "department",
    "desc": "description",
    "dest": "destination",
    "disc": "discount",
    "dist": "distance",
    "dt": "date",
    "dob": "date of birth",
    "emp": "employee",
    "flg": "flag",
    "flr": "floor",
    "mfg": "manufacture",
    "mgr": "manager",
    "msg": "message",
    "nbr": "number",
    "nm": "name",
    "num": "number",
    "orig": "origin",
    "pct": "percent",
    "qty": "quantity",
    "rt": "rate",
    "seg": "segment",
    "tel": "telephone",
    "txt": "text",
    "yr": "year",
}
# written after drafts set 11 was read (tuned): shortenings no Spider or CHASE column uses
_SPELLED_OUT |= {"ed": "edition", "lang": "language", "reg": "registration", "vacc": "vaccine"}
# Written after drafts set 12 and suggestions set 13 were read (tuned): shortenings database designers write with one
# reading (in Spider and CHASE: acc_bal, tot_cred, seq, src_apid, winner_ht, each as spelled here). Left to a curator:
# those with two ("dep" departure or deposit, "prop" property or proposal, "supp", "chg", "comm", "occ", "mon", "hr",
# "temp", "exp", "min") and a trade's own ("og", "pcm", "epc").
_SPELLED_OUT |= {"mth": "month", "lvl": "level", "eff": "effective", "bal": "balance", "tot": "total"}
_SPELLED_OUT |= {"ts": "timestamp", "arr": "arrival", "wk": "week", "intl": "international", "loc": "location"}
_SPELLED_OUT |= {"prev": "previous"}
_SPELLED_OUT |= {"seq": "sequence", "grp": "group", "src": "source", "eml": "email", "wt": "weight", "ht": "height"}
_SPELLED_OUT |= {"reqd": "required", "recd": "received"}
# Written after drafts set 13 was read, before set 14 was drawn: shortenings with one reading in schemas ("body len",
# "tz code", "party sz", "prio lvl", "proj nm", "duration" as "dur", "odo km", "svc interval"). Left to a curator:
# "tm" (time or team), "ttl" (title or total), "brk" (break or brake), "str" (string, street or strength).
_SPELLED_OUT |= {"len": "length", "tz": "time zone", "sz": "size", "prio": "priority", "proj": "project"}
_SPELLED_OUT |= {"dur": "duration", "odo": "odometer", "svc": "service", "tbl": "table"}
# Written after drafts set 14 was read (tuned): one reading each. Left: "rx" (prescription, or receive beside "tx"),
# "presc", "nom", "sup", "ind", "ltrs" (litres or letters), "rec" (record or recreation), "loa".
_SPELLED_OUT |= {"alloc": "allocation", "pwr": "power", "mbr": "member", "cert": "certificate", "chk": "check"}
# Shortenings of time and scores with one reading in a column's name (est hrs, labour hrs, dur sec, pts cnt)
_SPELLED_OUT |= {"hrs": "hours", "mins": "minutes", "secs": "seconds", "pts": "points"}
# written after suggestions set 14 was read (tuned): "veh class", "evt reg" (one reading each in schemas)
_SPELLED_OUT |= {"veh": "vehicle", "evt": "event"}
# written on suggestions set 15's rated sheet (tuning): "pax count" (travel's word for passengers, one reading); before
# another word a noun is singular ("passenger count"), alone the passengers themselves (`_LAST_SPELLED_OUT`)
_SPELLED_OUT |= {"pax": "passenger"}
_LAST_SPELLED_OUT = {"pax": "passengers"}
# A unit of time after a length of time is that unit ("duration min": minutes, never the minimum duration)
_DURATION_UNITS = {"min": "minutes", "sec": "seconds"} | {unit: unit for unit in ("minutes", "seconds", "hours")}
_DURATION_WORDS = frozenset({"duration"})


def spelled_out(word: str) -> str:
    """A shortening spelled out, in the plural too ("accts" -> "accounts")."""
    if word in _SPELLED_OUT:
        return _SPELLED_OUT[word]
    if word.endswith("s") and word[:-1] in _SPELLED_OUT:
        return plural_word(_SPELLED_OUT[word[:-1]])
    return word


# A last word this short that English text hardly uses is the codes a column holds, not a word ("gender mfu").
_CODE_CHARS = 3


def _is_value_code(word: str) -> bool:
    return (
        len(word) <= _CODE_CHARS
        and word.isalpha()
        and word not in _SHORT_WORDS
        and word not in _SPELLED_OUT
        and word not in ABBREVIATIONS
        and _segmenter().UNIGRAMS.get(word, 0) < _PART_IN_USE
    )


def _spelled_words(name: str, vocabulary: set[str] | frozenset[str]) -> list[str]:
    """The words of a column's name, each shortening spelled out; one whose spelling is a plural said so last ("pax"
    alone: the passengers, never "their passenger"; "pax count": "passenger count")."""
    words = [spelled_out(word) for word in split_compounds(name, vocabulary).split()]
    if words and name.split()[-1] in _LAST_SPELLED_OUT:
        words[-1] = _LAST_SPELLED_OUT[name.split()[-1]]
    return words


def column_phrase(name: str, vocabulary: set[str] | frozenset[str] = frozenset()) -> str:
    """A column's readable name as it reads in a sentence, by a few general rules of English word order: a flag
    ("is official", "abandoned yes or no") is called a flag, a count ("number products") a number of things, and
    "year of founded" "year founded". `vocabulary`: the schema's words, for `split_compounds`."""
    words = _spelled_words(name, vocabulary)
    if len(words) > 1 and words[-2] in _DURATION_WORDS and words[-1] in _DURATION_UNITS:
        words[-1:] = ["in", _DURATION_UNITS[words[-1]]]  # "duration min" -> "duration in minutes"
    if len(words) > 1 and _is_value_code(words[-1]):
        words = words[:-1]  # "gender mfu": the letters of the values it holds (M, F, U) say nothing to a reader
    if len(words) > 1 and words[-1] == "is":
        words = words[:-1]  # "genre is": the verb is no part of what the column holds
    if len(words) > 2 and words[:2] == ["no", "of"]:
        words[0] = "number"  # "no of customers"
    if len(words) > 1 and words[-1] == "no" and words[-2] not in ("yes", "or"):
        words[-1] = "number"  # "flight no"
    if words[:1] == ["is"] and len(words) > 1:
        return " ".join(words[1:]) + " flag"  # "is official" reads badly after "whose": "whose official flag is T"
    if len(words) > 3 and words[-3:] == ["yes", "or", "no"]:
        return " ".join(words[:-3]) + " flag"  # "abandoned yes or no" -> "abandoned flag"
    if len(words) >= 2 and words[0] in ("number", "num", "count") and words[1] not in PREPOSITIONS:
        # "number products" counts products; "number in season" is a place in a series, no count ("number of in
        # seasons")
        return "number of " + " ".join(words[1:-1] + [plural_word(words[-1])])
    if len(words) >= 3 and words[-2] == "of" and words[-1].endswith("ed"):
        return " ".join(words[:-2] + words[-1:])  # "year of founded" -> "year founded"
    if len(words) == 2 and words[0] == "pub" and words[1] in {"year", "years", "date", "dates"}:
        words[0] = "publication"  # "pub year": a pub is a bar only where no year or date follows
    if len(words) > 1 and words[-1] in UNITS and words[-2] not in PREPOSITIONS | _UNIT_FIRST_WORDS:
        return " ".join(words[:-1]) + " in " + words[-1]  # "dose mg" -> "dose in mg", "weight kg" -> "weight in kg"
    return _counted_or_paid(words)


def _counted_or_paid(words: list[str]) -> str:
    """ "players count" -> "number of players" (a noun before another is singular in English, so a plural there
    counts many); "unit price amount" -> "unit price" (a price is an amount already: "the total fee", never "fee
    amount")."""
    if len(words) == 2 and words[1] == "count" and is_plural(words[0]) and singular_word(words[0]) != words[0]:  # noqa: PLR2004
        return f"number of {words[0]}"
    if len(words) > 1 and words[-1] == "amount" and words[-2] in _MONEY_NOUNS:
        words = words[:-1]
    return " ".join(words)


# Nouns that name an amount of money themselves: "amount" after one says it twice (written on an unrated goals draw
# of the made orchestra, bakery, pharmacy and marina, seed 16616: "unit price amount", "fee amount", "price amount").
_MONEY_NOUNS = frozenset({"price", "cost", "fee", "fare", "charge", "salary", "wage", "rent", "toll"})


def year_first(phrase: str) -> str:
    """A column's phrase named by a participle and "year" said as a response says it: "opened year" -> "year
    opened" ("whose year opened is 2011", "the years opened of the warehouses"); any other phrase as it is. The
    suggestions keep "the latest founded year"."""
    words = phrase.split()
    if len(words) == 2 and words[1] in _TIME_WORDS and participle(words[0]):
        return f"{words[1]} {words[0]}"
    return phrase


# A column named by a participle and "year" holds when that happened ("opened year", "founded year").
_TIME_WORDS = frozenset({"year"})  # "shipped date" reads well as it is
# Units a schema ends a measure's name with; "min" is left out (a minimum as often as minutes).
UNITS = frozenset({"kg", "g", "mg", "mcg", "lb", "lbs", "oz", "km", "m", "cm", "mm", "mi", "ml", "m2", "m3"})
UNITS |= {"sqm", "kwh", "mph", "kmh", "hrs", "secs"}  # a currency ("damage millions usd") stays as it is
_UNIT_FIRST_WORDS = frozenset({"sq", "square", "cubic", "cu", "per"})  # "sq m" is one unit


# Past participles ending in -en or -wn ("written", "drawn"): by their form alone such words are as often nouns and
# adjectives ("kitchen", "green", "town"), so they are listed.
_PARTICIPLES_IN_N = frozenset(
    {"beaten", "bitten", "blown", "born", "broken", "chosen", "drawn", "driven", "eaten", "fallen", "flown"}
    | {"forbidden", "forgiven", "forgotten", "frozen", "given", "grown", "hidden", "known", "mown", "overtaken"}
    | {"proven", "ridden"}
    | {"risen", "sewn", "shaken", "shown", "sown", "spoken", "stolen", "sworn", "taken", "thrown", "torn", "undertaken"}
    | {"withdrawn", "woken", "worn", "written", "awoken", "swollen", "overdrawn", "mistaken", "seen", "begun"}
)


def participle(word: str, *, present: bool = False) -> bool:
    """Whether `word` is a past participle by its form: "founded", "used", "built", "written" (never "need", "speed",
    "town"); with `present`, a present one too ("working"). The one check the drafts, the suggestions and the names
    here read a participle by."""
    word = word.lower()
    if word in IRREGULAR_PARTICIPLES or word in _PARTICIPLES_IN_N:
        return True
    if present and len(word) > 4 and word.endswith("ing"):  # noqa: PLR2004
        return True
    return len(word) > 3 and word.endswith("ed") and not word.endswith("eed")  # noqa: PLR2004


def noun_in_ing(word: str) -> bool:
    """Whether a word in -ing names a thing a row has or offers ("parking", "catering", "fishing", "shipping": sites
    with parking), not a state it is in ("pending", "presenting", "standing"): English text writes it after "the" and
    before "and", as a thing named in a list, and hardly after "is" or "are" (nothing "is parking" in text; orders
    "are pending"). A word the counts hardly know either way ("owing", "recurring") stays a state."""
    word = word.lower()
    if not (word.isascii() and word.isalpha() and len(word) > 5 and word.endswith("ing")):  # noqa: PLR2004
        return False
    counts = _segmenter().BIGRAMS
    named = counts.get(f"the {word}", 0)
    if counts.get(f"is {word}", 0) + counts.get(f"are {word}", 0) > named / _NAMED_OVER_STATE:
        return False
    return named > 0 and counts.get(f"{word} and", 0) > 0


# How many times more often text writes "the" before a word in -ing than "is" or "are", at least, for it to name a
# thing; written after suggestions set 16 was read (tuned): "the shipping" 9 times "is/are shipping" (shipping
# is mostly a thing paid for), "the winning" 7, "the leading" 7, "the operating" 3, "the presenting" 0.35.
_NAMED_OVER_STATE = 8


# Verbs of a row's coming about: a number column named by one alone holds the year it happened ("founded").
COMING_ABOUT = frozenset(
    {"founded", "established", "opened", "built", "launched", "created", "formed", "constructed", "incorporated"}
    | {"released", "published", "completed", "started", "began", "debuted", "introduced", "inaugurated"}
)


def column_name(
    name: str, vocabulary: set[str] | frozenset[str] = frozenset(), kind: str = "text", table: str = ""
) -> str:
    """A column's readable name as both writers say it (the drafts' `_Names`, the suggestions' `_Schema`):
    `column_phrase` with the schema's words, a participle and "year" in a response's order ("year built"), and a
    number column named by a verb of coming about alone said as its year ("year founded", never "whose founded is
    1880"). `kind`: the tables.json column type; `table`: the words of the column's own table, whose shortening
    stands for them (`_own_table_words`)."""
    phrase = year_first(column_phrase(_own_table_words(name, table), vocabulary))
    if kind == "number" and phrase in COMING_ABOUT:
        return f"year {phrase}"
    return _own_row_dropped(phrase, table)


# First words of a column that say when something happened to its row ("date order placed", "datetime detention end").
_WHEN_WORDS = frozenset({"date", "datetime", "time", "year"})


def _own_row_dropped(phrase: str, table: str) -> str:
    """A time named by its own table's row and a participle said without the row, as "year opened" is: a complaint's
    "date complaint raised" is its "date raised" ("the complaint with the earliest date raised", never "the earliest
    date complaint raised"); a row named without a participle after it ("date incident start") stays as it is."""
    words, own = phrase.split(), {singular_word(word) for word in table.lower().split()}
    if len(words) == 3 and words[0] in _WHEN_WORDS and singular_word(words[1]) in own and participle(words[2]):  # noqa: PLR2004
        return f"{words[0]} {words[2]}"
    return phrase


# Letters a shortening of a table's name keeps at least ("dist" of district, "stn" of station), and letters it drops.
_TABLE_SHORTENING_CHARS = 3
_TABLE_SHORTENING_DROPS = 2


def _own_table_words(name: str, table: str) -> str:
    """A column's words with a shortening of its own table's name said as that name: in a table of districts "dist
    nm" is the district's name ("district name", never "distance name"), in one of stations "stn nm" the station's,
    in one of brokers "brk nm" the broker's: a column is named after the table it is in, whatever else the letters
    may stand for."""
    owners = table.lower().split()
    words = name.split()
    for index, word in enumerate(words):
        if len(word) < _TABLE_SHORTENING_CHARS or word in owners or word in ABBREVIATIONS or not word.isalpha():
            continue
        usual = _SPELLED_OUT.get(word, "")
        for owner in owners:
            dropped = len(owner) - len(word)
            if len(os.path.commonprefix([usual, owner])) > len(word):
                break  # the usual reading is of the table's own root: "vacc" of vaccinations is the vaccine
            if dropped >= _TABLE_SHORTENING_DROPS and _abbreviates(word, owner):
                words[index] = owner
                break
    return " ".join(words)


def _abbreviates(short: str, word: str) -> bool:
    """Whether `short` is `word` cut ("dist" of "district", "prod" of "product") or its letters in order from the
    first, as a consonant skeleton ("stn" of "station", "brk" of "broker", "mech" of "mechanic")."""
    if word.startswith(short):
        return True
    if short[0] != word[0]:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in short[1:]) and not any(letter in "aeiou" for letter in short[1:])


# ---------------------------------------------------------------------------------------------------------------
# Yes/no columns: what a row is, never a number ("students that are withdrawn", never "whose withdrawn is 1")
# ---------------------------------------------------------------------------------------------------------------

# Words of a key column's name that say it is a key, not what it points to ("student id", "flight no").
KEY_WORDS = frozenset({"id", "ids", "code", "no", "number", "key", "nr"})
# Endings of a word that says what a row is (an adjective or a participle: "withdrawn", "optional", "ticketed",
# "climate controlled"), not what it has or how many: a number column named by one holds 1 for yes and 0 for no.
_STATE_ENDINGS = ("ed", "en", "wn", "al", "ic", "ive", "able", "ible", "ful", "ous")
# A comparison with 0 or 1 that splits such a flag's rows: (operator, value) -> whether it keeps the yes rows.
FLAG_TESTS = {
    ("=", "1"): True,
    (">", "0"): True,
    (">=", "1"): True,
    ("!=", "0"): True,
    ("=", "0"): False,
    ("<", "1"): False,
    ("<=", "0"): False,
    ("!=", "1"): False,
}
# First words of a two-word compound adjective ("part time", "step free", "off peak", "multi club"): the pair says what
# a row is, hyphenated.
_COMPOUND_MODIFIERS = frozenset(
    {"part", "full", "step", "off", "multi", "non", "self", "high", "low", "long", "short", "all", "dual", "open"}
)


def _flag_words(name: str, kind: str) -> str:
    """The words of a yes/no number column named by what its rows are ("withdrawn", "climate controlled", "optional";
    "is official" read as "official flag"), or "" for any other column."""
    words = name.split()
    if words[-1:] == ["flag"]:
        words = words[:-1]
    if kind != "number" or not words or set(words) & (KEY_WORDS | MEASURES):
        return ""
    stated = any(word.endswith(_STATE_ENDINGS) and word not in IRREGULAR_PARTICIPLES for word in words)
    # A plural says how many ("goals scored"), not what a row is.
    return " ".join(words) if stated and not any(is_plural(word) for word in words) else ""


def _marked_words(name: str, kind: str, many: bool) -> str:
    """What a yes/no number column named by a noun says a row is, after "that are": a column called a flag (by its
    name, or read as one from its values: `annotation.wording.suggestions.flags_read`) whose words name no state
    ("on call", "key account", "hub"). A person or a thing named by a word ending in -er or -or is one ("that are
    keyholders"), a phrase led by a preposition or ending in an irregular participle is said as it is ("that are on
    call", "that are paid"), any other noun as a mark ("that are marked as key account"); never "whose on call is 1".
    "" for any other column."""
    words = name.split()
    if kind != "number" or len(words) < 2 or words[-1] != "flag" or set(words) & MEASURES:
        return ""
    words = words[:-1]
    if words[0] in PREPOSITIONS or words[-1] in IRREGULAR_PARTICIPLES:
        return " ".join(words)  # "that are on call", "that are paid"
    if _agent_noun(words[-1]):
        # a person or a thing named by an agent noun, its head: "that are keyholders", "that is not a club member"
        phrase = " ".join([*words[:-1], plural_word(words[-1]) if many else words[-1]])
        return phrase if many else with_article(phrase)
    if len(words) == 2 and words[0] in _COMPOUND_MODIFIERS:
        return "-".join(words)  # a compound adjective: "that are part-time", "that are step-free", "multi-club"
    return "marked as " + " ".join(words)


def flag_state(name: str, kind: str, many: bool, rows: str = "") -> str:
    """What a yes/no column (its readable `name` and tables.json `kind`) says a row is, after "that is" / "that are":
    "withdrawn", "part-time", "keyholders", "marked as key account"; "" for a column that is no such flag. The one
    reading the response drafts and the query-first drafted questions say flags by. Given `rows`, the rows' own noun
    in the plural, a flag named by a noun is said before it, as the suggestions say it (`noun_flag`, `flag_before`):
    "shore power pontoons", "a fridge drug", never "marked as shore power"."""
    state = _flag_words(name, kind) or _marked_words(name, kind, many)
    words = state.removeprefix("marked as ")
    if rows and state.startswith("marked as ") and noun_flag(words):
        said = flag_before(words, rows)
        return said if many else with_article(noun(said, False))
    return state


# Verbs a yes/no column is named by ("has cafe", "needs treatment"), in the plural and as a gerund.
FLAG_VERBS = MappingProxyType(
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
# How often English text writes a noun's singular against the plural, at least, for a word ending like a plural to
# be one ("pets" 1.7, "kids" 0.23); an adverb or adjective in -s falls below ("overseas" 0.01).
_SINGULAR_IN_USE = 0.1
# Letters a word needs before an ending ("-er", "-ed") says what it is: "keeper" is an agent noun, "beer" is not.
STEM_CHARS = 5
# First words of a two-word noun said as one modifier, hyphenated: "the no-show shifts", "the non-member visits".
_HYPHENATED_FIRST = frozenset({"no", "non"})


# How often English text writes a word in -er or -or in the plural against the singular, at least, for it to name
# someone or something a row can be ("members" 0.80, "holders" 0.72, "prescribers" 0.33), not a mass or a state
# ("power" 0.09, "water" 0.07, "silver" 0.003).
_AGENT_PLURALS = 0.25


def _agent_noun(word: str) -> bool:
    """A word ending in -er, -or or -ee after a stem that English counts ("keyholder", "member", "trainee"): a person
    or a thing a row named by it is ("club members"), never a mass ("shore power")."""
    if len(word) < STEM_CHARS or not word.endswith(("er", "or", "ee")) or not word.isalpha():
        return False
    counts = _segmenter().UNIGRAMS
    said = counts.get(word, 0)
    return not said or counts.get(plural_word(word), 0) >= _AGENT_PLURALS * said


def plural_noun(word: str) -> bool:
    """A word that is a noun's plural ("pets", "children"): a yes/no named by one says its rows have them."""
    singular = singular_word(word)
    if not (word.isalpha() and is_plural(word) and singular != word and plural_word(singular) == word):
        return False
    counts = _segmenter().UNIGRAMS
    return counts.get(singular, 0) >= _SINGULAR_IN_USE * counts.get(word, 0) > 0


def flag_verb(words: str) -> tuple[str, str, str] | None:
    """A flag's words (its name without "flag") named by a verb and its object: ("have", "having", "a cafe") of "has
    cafe", ("need", "needing", "treatment") of "needs treatment", and ("have", "having", "pets") of a plural noun
    alone; None for any other flag."""
    split = words.split()
    if len(split) == 1 and plural_noun(split[0].lower()):
        return "have", "having", split[0]  # "pets": those that have pets, never "those that are pets"
    if len(split) == 1 and noun_in_ing(split[0]):
        return "have", "having", split[0]  # "parking": those that have parking, never "on being parking"
    if len(split) < 2 or split[0].lower() not in FLAG_VERBS:  # noqa: PLR2004
        return None
    plural, gerund = FLAG_VERBS[split[0].lower()]
    rest = " ".join(split[1:])
    return plural, gerund, with_article(rest) if plural == "have" else rest


def noun_flag(words: str) -> bool:
    """Whether a yes/no column's words (its name without "flag") are a noun or a noun phrase ("airport", "gift aid",
    "no show", "hub", "shore power"), which says what kind of row it marks, not always what the row is: a branch is no
    airport, a pontoon no shore power. Said before the rows' noun it reads at once for every such noun ("airport
    branches", "gift aid donors", "no-show shifts", "shore power pontoons": `flag_before`). Not a noun: a name led by
    a verb ("has cafe") or a preposition ("on call"), a plural ("pets"), a person's agent noun ("smoker": the rows
    are smokers), a compound adjective ("full time"), or a word a participle or an adjective's ending makes a state
    ("withdrawn", "chronic", "seasonal", "owing")."""
    split = words.lower().split()
    if not 1 <= len(split) <= 2 or not all(word.isalpha() and word.isascii() for word in split):  # noqa: PLR2004
        return False
    if flag_verb(words) is not None or split[0] in PREPOSITIONS or split[0] in _COMPOUND_MODIFIERS:
        return False
    if _agent_noun(split[-1]):
        return False  # "club member": the rows are members
    return not any(participle(word, present=True) or word.endswith(_STATE_ENDINGS) for word in split)


def flag_before(words: str, rows: str) -> str:
    """A flag named by a noun (`noun_flag`) said before `rows`, the rows' own noun in the plural: "airport branches",
    "no-show shifts"; of rows of the flag's own kind its noun in the plural alone: "lead tenants" of tenants, never
    "lead tenant tenants"."""
    split = words.split()
    if singular_word(rows.split()[-1].lower()) == split[-1].lower():
        return " ".join([*split[:-1], plural_word(split[-1])])
    joined = len(split) == 2 and split[0].lower() in _HYPHENATED_FIRST  # noqa: PLR2004
    return f"{'-'.join(split) if joined else ' '.join(split)} {rows}"


def flag_kept(op: str, value) -> bool | None:
    """Whether a comparison of a flag with 0 or 1 keeps its yes rows (`= 1`, `> 0`) or its no rows (`= 0`, `< 1`);
    None for any other comparison."""
    return FLAG_TESTS.get((op, str(value).strip("'")))


# Shortenings said letter by letter, written in capitals in a sentence ("the SKUs", "the SCAC code"), never as the
# schema writes them in lower case.
ACRONYMS = frozenset({"sku", "scac", "vat", "isbn", "issn", "ssn", "upc", "ean", "vin", "imei", "uuid", "url", "gdp"})
ACRONYMS |= {"gnp", "gpa", "icd", "atc", "hs", "upn", "ulan", "iban"}
ACRONYMS |= {"vip", "pnr", "utc", "iata", "icao"}  # written after drafts set 10 was read (tuned)
ACRONYMS |= {"fte", "rcvs"}  # written after drafts set 11 was read (tuned)
ACRONYMS |= {"lts"}  # written after drafts set 13 was read: "releases that are marked as LTS"
ACRONYMS |= {"vhf", "ods", "otc", "nhs", "mmsi"}  # written after drafts set 14 was read (tuned)
ACRONYMS |= {"oem"}  # original equipment manufacturer ("those that are OEM" parts)
_ACRONYM_WORDS = re.compile(r"\b(" + "|".join(sorted(ACRONYMS)) + r")(s?)\b")


def key_targets(pairs: list, column_tables: list[int]) -> dict[int, int]:
    """Each referring column -> the column whose row it names, from tables.json's foreign keys (child column, parent
    column) and the table of each column. A column that is a key of its own and also half of a key of two columns (an
    issue's project key, which with its fix version names a release) names the row its own key points to (a project),
    never the other (a release); and half of a two-column key whose parent column itself points to a row by one
    column names that row: a screening's site code, half of its screen's key (site and screen number), names a site,
    as the screen's own site code does, never a screen (one site has several screens). Shared by the drafts and the
    suggestions, so both name a group or a detail by the same row."""

    def table_of(column: int) -> int:
        return column_tables[column] if 0 <= column < len(column_tables) else -1

    def in_composite(pair) -> bool:
        child, parent = pair
        return any(
            other[0] != child and other[1] != parent and table_of(other[0]) == table_of(child)
            and table_of(other[1]) == table_of(parent)
            for other in pairs
        )  # fmt: skip

    single = {child: parent for child, parent in pairs if not in_composite((child, parent))}
    targets: dict[int, int] = {}
    for child, parent in sorted(pairs, key=in_composite):
        if in_composite((child, parent)) and single.get(parent, parent) != parent:
            parent = single[parent]  # the parent's own half of its key points on: that row, one column names
        targets.setdefault(child, parent)
    return targets


def acronyms_capitalised(text: str) -> str:
    """`text` with each acronym written in lower case (a schema's name said in a sentence) in capitals, its plural
    with a lower-case "s": "the skus of products" -> "the SKUs of products"."""
    return _ACRONYM_WORDS.sub(lambda found: found.group(1).upper() + found.group(2), text)


# Shortenings a database designer writes for a word a reader would spell out (docs/curation.md, "Names").
ABBREVIATIONS = frozenset(
    {"addr", "amt", "cd", "cnt", "cust", "desc", "dob", "dt", "emp", "fk", "idx", "mgr", "nm", "nbr", "num", "pk"}
    | {"qty", "ref", "tbl", "tmp", "txt", "val"}
)
_TABLE_PREFIXES = ("tbl", "tb", "t")


def identifier_like(name: str) -> bool:
    """Whether a table or column name reads as a code rather than words, so a person should give it a readable name.

    The rule, in one place (docs/curation.md): a name is identifier-like when it holds a digit, is written all in
    capitals (three letters or more: `TBL_EMP`, `CUSTNO`), starts with a table prefix (`tbl_`, `tb_`, `t_`), or has a
    word with no vowel (`qty`, `nbr`) or a word from a short list of common shortenings (`emp`, `cust`, `addr`).
    """
    if any(character.isdigit() for character in name):
        return True
    letters = [character for character in name if character.isalpha()]
    if len(letters) >= 3 and all(character.isupper() for character in letters):
        return True
    words = words_of(name).split()
    if len(words) > 1 and words[0] in _TABLE_PREFIXES:
        return True
    return any(word.isalpha() and (not _VOWELS & set(word) or word in ABBREVIATIONS) for word in words)


_Built = TypeVar("_Built")
# Schemas whose readings are kept, per reading. Each room socket holds its own copy of its database's schema (its
# database row is its own), so the objects open at once are about the rooms open, not the databases: at 50 rooms,
# 32 kept meant most shared results rebuilt the names. A reading is a few kilobytes to a few hundred for the largest
# Spider schema.
SCHEMAS_KEPT = 256


def per_schema(build: Callable[..., _Built], *, kept_at_most: int = SCHEMAS_KEPT) -> Callable[..., _Built]:
    """`build(schema, *more)` made once per schema object and further arguments, and kept (the last `kept_at_most`):
    a room reads one database's schema for every shared result and every suggestion, and the readable names made from
    it (or the reading of the same query) were made again each time. Keyed by the object, which the entry holds (so
    the id names that object), and the further arguments (hashable); a schema is never changed in place (a database
    row's new schema is a new object), and what `build` returns must only be read."""
    kept: OrderedDict[tuple, tuple[object, _Built]] = OrderedDict()
    lock = threading.Lock()

    @functools.wraps(build)
    def built(schema: dict | None, *more) -> _Built:
        key = (id(schema), *more)
        with lock:
            hit = kept.get(key)
            if hit is not None and hit[0] is schema:
                kept.move_to_end(key)
                return hit[1]
        value = build(schema, *more)
        with lock:
            kept[key] = (schema, value)
            while len(kept) > kept_at_most:
                kept.popitem(last=False)
        return value

    return built


_shared: dict[object, dict] = {}
_shared_lock = threading.Lock()


def schema_shared(key: object, schema: dict | None) -> dict | None:
    """One schema object for every reader of the same database in this process (`key`: its id): the one kept for
    `key` when it is equal to `schema`, else `schema`, kept from now on. What `per_schema` builds is kept per schema
    object, and each room socket reads its database's row afresh: without this, every room of a crowd on one database
    built the same readable names, flag readings and analyses again (bench/chat_load.py). A changed schema (curation)
    is a different value, so it is kept in its turn and never mixed with the old."""
    if not isinstance(schema, dict):
        return schema
    with _shared_lock:
        kept = _shared.get(key)
        if kept is not None and kept == schema:
            return kept
        _shared[key] = schema
        return schema
