"""The schema's readable names for the next-question suggestion (`annotation.wording.suggestions`): `_Schema` reads a
tables.json entry into columns (`_Column`) and things, and the word lists and helpers here say which names are vague,
flags, links, people, places or units, so that the later steps can tell what a name is worth asking about."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import MappingProxyType

from annotation.sql.schema import readable_name
from annotation.wording.english import (
    ABBREVIATIONS,
    STORAGE_WORDS,
    _segmenter,
    column_name,
    is_plural,
    key_targets,
    noun,
    participle,
    per_schema,
    plural_word,
    rows_nouns,
    schema_vocabulary,
    singular_word,
    table_noun,
    words_of,
)
from annotation.wording.suggestions.errors import IntentError

# A name that reads as a verb or a clause names a relation between two entities, not an entity: "has amenity",
# "lives in", "member of"... at the start: an auxiliary; at the end: a preposition.
_VERB_STARTS = frozenset({"has", "have", "had", "is", "are", "was", "were", "does", "do", "can"})
_PREPOSITION_ENDS = frozenset({"in", "of", "on", "at", "to", "by", "with", "for", "from", "into", "about"})
# Numbers that name a line, a place or a person rather than measure anything ("the lowest phone" means nothing).
_NUMBERS_THAT_NAME = frozenset({"phone", "fax", "zip", "postcode", "ssn", "isbn", "room"})
_NUMBERS_THAT_NAME |= {"barcode", "serial", "ean", "upc", "vin", "imei", "sku"}  # a copy's barcode: "the total barcode"
# Units of time a column can count in ("years working", "days held"): before a participle, a span, not a point.
_SPAN_UNITS = frozenset({"year", "month", "week", "day", "hour", "minute"})
# A unit alone as a column's name ("milliseconds", "bytes") says how a figure is measured, not what it is.
_BARE_UNITS = frozenset({"milliseconds", "seconds", "bytes", "ms", "kb", "mb", "gb", "kg", "km", "cm", "mm", "lbs"})
# A record's bookkeeping ("last update" of every sakila table): when a row was written, nothing about the thing.
_BOOKKEEPING = frozenset({"last update", "last updated", "last modified", "updated at", "created at", "modified at"})
# Words of a secret kept for signing in: never a detail, condition or figure to suggest.
_SECRETS = frozenset({"password", "passwd", "pwd", "passcode", "pin", "secret", "salt", "hash", "token"})
# Plurals that name an amount of money, not things counted: earnings are high or low, never "the fewest earnings".
_AMOUNT_PLURALS = frozenset(
    {"earnings", "savings", "winnings", "sales", "profits", "revenues", "assets", "wages", "costs", "expenses"}
    | {"proceeds", "funds", "takings", "taxes", "fees", "prices"}
)
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
# Nouns "left" names a side of ("left wing", "left hand"), where it is no verb.
_SIDE_NOUNS = frozenset({"hand", "wing", "side", "arm", "leg", "foot", "eye", "ear", "field", "lane", "turn", "back"})
# Adjectives of a people or a skin colour: alone as a column's name ("asian", "white") they hold a share or a count of
# people the name leaves unsaid.
_ADJECTIVES_OF_PEOPLE = frozenset(
    {"white", "black", "asian", "hispanic", "latino", "latina", "amerindian", "caucasian", "african", "european"}
    | {"multiracial", "indigenous", "aboriginal", "arab", "native"}
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


# A column named as a statistic already ("lowest" attendance, "average"): a statistic of it reads "the lowest lowest".
_STATISTIC_WORDS = frozenset(
    {"highest", "lowest", "average", "total", "maximum", "minimum", "max", "min", "avg", "sum"}
)


@dataclass(frozen=True)
class _Column:
    table: str | None  # the table's key (lower-case original name); None when it cannot be told
    original: str  # the column's name as the schema (or, without one, the query) spells it
    label: str  # readable
    kind: str  # a Spider column type, or "unknown" without a schema
    is_key: bool  # primary key, either side of a foreign key, or named "... id"
    is_primary: bool = False


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
        nouns = rows_nouns(
            [table_noun(label, vocabulary) for label in table_labels],
            originals,
            lambda index: _label(readable_columns[index][1], originals[index][1]).lower(),
        )
        for key, original, label in zip(keys, tables, nouns, strict=True):
            self.originals.setdefault(key, original)
            self.labels.setdefault(key, _without_quantifier(label))
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
        for child, parent in key_targets(foreign, [table for table, _ in originals]).items():
            # the row a column names: a screening's site code a site, though half of its screen's key
            self.references[(keys[originals[child][0]], originals[child][1].lower())] = keys[originals[parent][0]]
        for child, parent in foreign:
            child_table, parent_table = keys[originals[child][0]], keys[originals[parent][0]]
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


def _span(label: str) -> str:
    """ "year working" -> "years working": a unit of time before a present participle counts the units spent so; it
    is no point in time ("year built" is one, and stays)."""
    words = label.split()
    if len(words) == 2 and words[0].lower() in _SPAN_UNITS and words[1].lower().endswith("ing"):
        return f"{plural_word(words[0])} {words[1]}"
    return label


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


_PERSONAL_NAMES = frozenset({"first name", "last name", "given name", "family name", "middle name", "surname"})
_PERSONAL_NAMES |= {"forename", "fname", "lname"}


def _personal_name(column: _Column) -> bool:
    """A column holding a person's own name ("last name", "surname"), by its last words."""
    words = column.label.lower().split()
    return " ".join(words[-2:]) in _PERSONAL_NAMES or (bool(words) and words[-1] in _PERSONAL_NAMES)


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
    if _SIMPLE_PASTS.intersection(words[1:]) or _no_detail_said(words):
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


def _no_detail_said(words: list[str]) -> bool:
    """A name that reads as a clause or a state, not as a detail a row has (issue 35, section 3; written on the fresh16
    suggestions sheets, tuning)."""
    if len(words) > 1 and (words[0] in _SIMPLE_PASTS or (words[0] == "left" and words[1] not in _SIDE_NOUNS)):
        return True  # "their took office", "their left office": a verb in the past first, a clause with no subject
    if len(words) > 1 and words[0] in _PREPOSITION_ENDS and words[-1] != "flag":
        return True  # "their in office", "whose on loan is": a state said by a preposition, no detail a row has
    if len(words) == 2 and words[0] in ("first", "last") and words[1].endswith("ed") and not words[1].endswith("eed"):  # noqa: PLR2004
        return True  # "whose first elected is 1994": when a thing was first done, said as the verb alone
    if len(words) == 1 and words[0] in _ADJECTIVES_OF_PEOPLE:
        return True  # "whose asian is below 0.1", "their white": a share of whom, of what, the name does not say
    return False


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
# written after suggestions set 14 was read (tuned): shortenings that are words of their own or have two readings,
# "vol shift" (volunteer or volume), "ret date" (return or retirement), "ga amount" (gift aid), "camp name" (campaign)
_SCHEMA_SHORTENINGS |= {"vol", "ret", "ga", "camp"}
# written on suggestions set 15's rated sheet (tuning): shortenings with two readings or more, "conc items"
# (concession or concentrate), "certificate exp date" (expiry, expense, experience), "car cap" (capacity or a limit)
_SCHEMA_SHORTENINGS |= {"conc", "exp", "cap"}
# written on an unrated goals draw of the made orchestra, bakery, pharmacy and marina (seed 16616, tuning): "days sup"
# (supplied, supply or supplement)
_SCHEMA_SHORTENINGS |= {"sup"}
# written after suggestions set 16 was read (tuned): "est high amount" (estimate, estimated or established), "comm
# percent" (commission, communication, committee), "prem amount" (premium, premises), "act bookings" (activity or an
# act), "start hr" (hour or human resources)
_SCHEMA_SHORTENINGS |= {"est", "comm", "prem", "act", "hr"}


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
        if word in _SCHEMA_SHORTENINGS:
            return True  # "the conc items": a shortening with two readings, however often text writes it
        if len(word) == 2 and _short_unread(word):  # noqa: PLR2004
            return True  # "ask about the rx instead": two letters of a shortening name no things, as in a column
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


# Adverb particles a column's name can start with ("out km", "ret km" of a rental: the odometer out): no measure's
# name, so a unit after them is no unit of a named measure.
_PARTICLES = frozenset({"out", "off", "up", "down", "back", "over", "away"})


def _without_unit(label: str) -> str:
    """ "profits billion" -> "profits": a measure's name without the unit written after it."""
    words = label.split()
    if len(words) > 2 and words[-2].lower() == "in" and words[-3].lower() not in _PARTICLES:  # noqa: PLR2004
        return label  # "distance in km" says its unit, never "the lowest distance in" (written on a tuning draw)
    return " ".join(words[:-1]) if len(words) > 1 and words[-1].lower() in _UNIT_ENDS else label


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
