"""Draft the expert's natural-language response to a result table they shared (system act CONFIRM_SQL).

The response a worker reads after a result (the `response` message of docs/protocol.md) must describe everything the
SQL asks, in plain words and without leaning on earlier turns, because the worker never sees SQL; a short result is
folded into the sentence ("There are 12 students who live in Smith Hall."), a long one is described ("This shows
...") with a word on how much of it the table holds. This module writes that draft from the SQL, the shared result
and the schema, so the expert starts from a faithful sentence and only polishes it.

Pure: no database access and no state. The SQL is read by `annotation.sql.spider.parse_sql`, so the datasets'
dialect (double-quoted values, `! =`) reads as it does everywhere else. Names come out readable: the schema's
`table_names`/`column_names` when a tables.json entry is given, otherwise the identifiers split into words. Whatever
the SQL, the answer is a sentence: SQL that cannot be read gets an honest generic draft, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sqlglot import expressions as exp

from annotation.sql.spider import parse_sql, unwrap_paren
from annotation.wording.english import COMING_ABOUT as _COMING_ABOUT
from annotation.wording.english import IRREGULAR_PARTICIPLES as _IRREGULAR_PARTICIPLES
from annotation.wording.english import MEASURES as _MEASURE_WORDS
from annotation.wording.english import PREPOSITIONS as _PREPOSITIONS
from annotation.wording.english import UNITS as _UNITS
from annotation.wording.english import acronyms_capitalised as _acronyms_capitalised
from annotation.wording.english import column_name as _column_name
from annotation.wording.english import english as _english
from annotation.wording.english import is_plural as _is_plural
from annotation.wording.english import noun as _noun
from annotation.wording.english import participle as _participle
from annotation.wording.english import per_schema as _per_schema
from annotation.wording.english import plural_word as _plural_word
from annotation.wording.english import schema_vocabulary as _schema_vocabulary
from annotation.wording.english import singular_word as _singular_word
from annotation.wording.english import table_noun as _table_noun
from annotation.wording.english import with_article as _with_article
from annotation.wording.english import word_set as _word_set
from annotation.wording.english import words_of as _words_of

__all__ = ["FEW_ROWS", "GENERIC_DRAFT", "draft_response"]

GENERIC_DRAFT = "Here is the result of your question."
# A result with at most this many rows is listed inside the sentence; a longer one is described.
FEW_ROWS = 3
_MAX_VALUE_CHARS = 60

_AGGREGATES = {exp.Max: "maximum", exp.Min: "minimum", exp.Avg: "average", exp.Sum: "total", exp.Count: "number"}
_ARITHMETIC = {exp.Add: "plus", exp.Sub: "minus", exp.Mul: "times", exp.Div: "divided by"}
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "!=", exp.GT: ">", exp.LT: "<", exp.GTE: ">=", exp.LTE: "<="}
_IS_PHRASES = {
    "=": "is {}",
    "!=": "is not {}",
    ">": "is greater than {}",
    "<": "is less than {}",
    ">=": "is at least {}",
    "<=": "is at most {}",
}
# Last words of a column that names rows without saying of what: grouped on, it is said with its table ("airport
# name", "customer first names").
_NAMING_WORDS = frozenset({"name", "title"})
# A number column named only by how its row came about holds the year it did: said "year founded" (a noun), and
# compared as a time ("after 1880").
# A date or time compared: before and after, not less and greater.
_TIME_PHRASES = {
    ">": "is after {}",
    "<": "is before {}",
    ">=": "is on or after {}",
    "<=": "is on or before {}",
}
_SELECT_PARTS = frozenset(
    {"expressions", "distinct", "from_", "from", "joins", "where", "group", "having", "order", "limit"}
)
# Words of a key column's name that say it is a key, not what it points to ("student id", "flight no").
_KEY_WORDS = frozenset({"id", "ids", "code", "no", "number", "key", "nr"})
# Things English does not count, whose rows are counted as pieces ("pieces of equipment"); people named by a mass noun
# ("15 staff") are counted as they are.
_COUNTED_IN_PIECES = frozenset({"equipment", "furniture", "luggage", "baggage", "machinery", "jewellery", "jewelry"})
# Words before "name" that say which of a thing's names it is, not what it names ("last name", "pet name").
_NAME_KINDS = frozenset(
    {"first", "last", "full", "middle", "given", "family", "sur", "nick", "short", "long", "display", "legal"}
    | {"maiden", "pet", "user", "screen", "trading", "common", "official", "scientific", "local", "english", "other"}
)
_NEGATED_OPS = {"=": "!=", "!=": "=", ">": "<=", "<": ">=", ">=": "<", "<=": ">"}
_COUNT_PHRASES = {
    "=": "exactly {}",
    "!=": "a number other than {} of",
    ">": "more than {}",
    "<": "fewer than {}",
    ">=": "at least {}",
    "<=": "at most {}",
}


def draft_response(sql: str, result: dict, schema: dict | None) -> str:
    """A draft of the expert's response to `result`, the table `sql` returned, described from the SQL and the result.

    `result` holds `columns`, `rows`, `row_count` (rows shown), `total_rows` (rows in the whole result, None when
    unknown) and `truncated`; `schema` is one tables.json entry or None. Never raises: SQL this module cannot read
    gets the generic draft with what the table itself shows.
    """
    table = _ResultTable.of(result)
    try:
        tree = parse_sql(sql)
    except Exception:  # a syntax error, or not SQL text at all: the generic draft is the honest answer
        return _generic_draft(table)
    try:
        query = _QueryBuilder(_names_of(schema)).query(tree, None)
        return _acronyms_capitalised(_fold(query, table))
    except Exception:  # a draft is a convenience the expert edits anyway: an odd query must not break the room
        return _generic_draft(table)


# ---------------------------------------------------------------------------------------------------------------
# The result table
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _ResultTable:
    rows: list
    shown: int
    total: int | None  # rows in the whole result; None when it was not counted

    @classmethod
    def of(cls, result) -> _ResultTable:
        result = result if isinstance(result, dict) else {}
        rows = [row if isinstance(row, list | tuple) else [row] for row in (result.get("rows") or [])]
        shown = len(rows)
        total = result.get("total_rows")
        if not isinstance(total, int) or isinstance(total, bool) or total < shown:
            # Without a full count, a table that says it is cut has an unknown size; otherwise it is all there.
            total = None if result.get("truncated") else shown
        return cls(rows, shown, total)

    @property
    def complete(self) -> bool:
        return self.total is not None and self.total == self.shown


def _generic_draft(table: _ResultTable) -> str:
    if table.complete and table.total == 0:
        return GENERIC_DRAFT + " Nothing matches it: the result is empty."
    if table.complete and table.total == 1 and len(table.rows[0]) == 1:
        return GENERIC_DRAFT + f" The answer is {_value(table.rows[0][0])}."
    return GENERIC_DRAFT + _partial_note(table, counted_in_sentence=False)


def _partial_note(table: _ResultTable, *, counted_in_sentence: bool) -> str:
    if table.complete:
        return ""
    if table.total is None:
        return f" The table shows only the first {_count_of(table.shown, 'row')} of the result."
    if counted_in_sentence:
        return f" The table shows the first {table.shown} of them."
    return f" The result has {_count_of(table.total, 'row')}; the table shows the first {table.shown}."


# ---------------------------------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------------------------------


def _join(items: list[str], conjunction: str = "and") -> str:
    items = [item for item in items if item]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def _count_of(number: int, noun: str) -> str:
    return f"{number} {_noun(noun, number != 1)}"


def _value(value) -> str:
    """One result cell or SQL literal as it reads in a sentence."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, bytes | bytearray):
        return "binary data"
    text = " ".join(str(value).split())
    if len(text) > _MAX_VALUE_CHARS:
        text = text[: _MAX_VALUE_CHARS - 1].rstrip() + "…"
    return text or "an empty text"


@dataclass(frozen=True)
class _Verb:
    """A relation table's name read as a verb: "lives in" (a verb and its preposition), "has amenity" (have and
    its object, the table it points to), "member of" (a noun with its preposition: be a member of)."""

    singular: str  # after one subject: "lives in", "has", "is a member of"
    plural: str  # after several: "live in", "have", "are members of"
    participle: str  # "living in", "having", "being a member of"

    @classmethod
    def of(cls, name: str) -> _Verb | None:
        words = name.lower().split()
        if len(words) >= 2 and words[0] in ("has", "have"):
            return cls("has", "have", "with")  # "a student with a pet": "having" is an SQL word, and stiffer
        if len(words) < 2 or words[-1] not in _PREPOSITIONS:
            return None
        first, rest = words[0], " ".join(words[1:])
        base = _english().plural_verb(first)
        if len(words) == 2 and base != first:  # a verb in the third person: "lives" -> "live"
            return cls(f"{first} {rest}", f"{base} {rest}", f"{_english().present_participle(base)} {rest}")
        noun = " ".join(words[:-1])  # a noun and its preposition: "member of"
        return cls(
            f"is {_with_article(noun)} {words[-1]}",
            f"are {_noun(noun, True)} {words[-1]}",
            f"being {_with_article(noun)} {words[-1]}",
        )

    @classmethod
    def acting(cls, name: str, objects: set[str]) -> _Verb | None:
        """A name of a verb in the third person and the rows it acts on ("plays games", whose game id points to video
        games), given the last words of the tables the name's table points to (`objects`, singular); else None: a
        noun before a noun ("sports info") names no action."""
        words = name.lower().split()
        if len(words) != 2 or _singular_word(words[1]) not in objects or _singular_word(words[0]) in objects:
            return None
        base = _english().plural_verb(words[0])
        if base == words[0] or not words[0].endswith("s") or words[0].endswith("ss"):
            return None
        return cls(words[0], base, _english().present_participle(base))


# ---------------------------------------------------------------------------------------------------------------
# Schema names
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Table:
    key: str  # the original name, lower-cased (or a made-up key for a subquery in FROM)
    name: str  # readable, as the schema writes it (singular or plural)
    sub: object = None  # the described query of a subquery in FROM
    # For a table that relates others (lives_in, a friend table of two keys): what one row is, and several are, since
    # its name is no noun for what it holds ("record of a student living in a dorm", "pair of friends"). Empty
    # otherwise.
    record: str = field(default="", compare=False)
    records: str = field(default="", compare=False)
    names: object = field(default=None, compare=False, repr=False)  # the _Names it comes from, for its relations
    # The part a joined row plays, when the join's column names one: airports joined on a flight's destination
    # airport are "destination airports". Empty otherwise.
    role: str = field(default="", compare=False)
    # How the rows the sentence is about relate to a joined row, when the join's column says it ("caused by" for
    # ships joined on death.caused_by_ship_id): "deaths caused by a ship whose ...". Empty otherwise.
    via: str = field(default="", compare=False)

    def noun(self, many: bool) -> str:
        if self.sub is not None:
            return self.sub.population(many)
        if self.record:
            return self.records if many else self.record
        return self.called(many)

    def called(self, many: bool) -> str:
        """The table's name (or its role in the join) as a noun, without the record wording of a relation. Rows of a
        thing English does not count are counted in pieces: "19 pieces of equipment", never "19 equipment"."""
        words = _noun(self.role or self.name, many, rows=True)
        if many and words.split()[-1] in _COUNTED_IN_PIECES:
            return f"pieces of {words}"
        return words


@dataclass(frozen=True)
class _Col:
    name: str  # readable
    table: _Table | None
    identifies: _Table | None = None  # the table whose rows this column identifies (a key), if any
    type: str = "text"  # the tables.json column type: "text", "number", "time", "others"
    # A foreign key named by what its row did to the one it points to (ship.lost_in_battle, death.caused_by_ship_id):
    # those words ("lost in", "caused by"), while `name` calls it by the row it points to ("battle id"). Empty else.
    via: str = ""


class _Names:
    """Readable names of one tables.json entry; with no schema, names are made from the identifiers themselves."""

    def __init__(self, schema: dict | None) -> None:
        self.tables: dict[str, int] = {}
        self.table_names: list[str] = []
        self.columns: dict[tuple[int, str], int] = {}
        self.column_names: list[str] = []
        self.column_tables: list[int] = []
        self.column_types: list[str] = []
        self.primary: set[int] = set()
        self.foreign: dict[int, int] = {}
        if not isinstance(schema, dict):
            return
        originals = schema.get("table_names_original") or []
        readable = schema.get("table_names") or []
        column_originals = schema.get("column_names_original") or []
        column_readable = schema.get("column_names") or []
        for index, original in enumerate(originals):
            self.tables.setdefault(str(original).lower(), index)
            name = readable[index] if index < len(readable) and readable[index] else _words_of(str(original))
            self.table_names.append(_words_of(str(name)))
        vocabulary = _schema_vocabulary(self.table_names, column_readable, column_originals)
        self.table_names = [_table_noun(name, vocabulary) for name in self.table_names]
        self.column_types = [str(kind) for kind in schema.get("column_types") or []]
        for index, (table_index, original) in enumerate(column_originals):
            self.column_tables.append(table_index)
            name = column_readable[index][1] if index < len(column_readable) else original
            kind = self.column_types[index] if index < len(self.column_types) else "text"
            # "institutions whose year founded is after 1880", never "whose founded is"
            self.column_names.append(_column_name(_words_of(str(name or original)), vocabulary, kind))
            if table_index >= 0:
                self.columns.setdefault((table_index, str(original).lower()), index)
        self.primary = {key for key in schema.get("primary_keys") or [] if isinstance(key, int)}
        for pair in schema.get("foreign_keys") or []:
            if isinstance(pair, list | tuple) and len(pair) == 2:
                self.foreign.setdefault(pair[0], pair[1])

    def table(self, original: str) -> _Table:
        index = self.tables.get(original.lower())
        name = self.table_names[index] if index is not None else _words_of(original)
        table = _Table(original.lower(), name, names=self)
        if self.is_link(table):
            one, many = self._record(table)
            return replace(table, record=one, records=many)
        return table

    def verb(self, table: _Table) -> _Verb | None:
        """The verb a relation table's name reads as ("lives in", "has amenity", "plays games" between students and
        video games), or None for a noun."""
        if table.sub is not None:
            return None
        objects = {_singular_word(self.table_names[target].split()[-1]) for target in self._targets(table)}
        return _Verb.of(table.name) or _Verb.acting(table.name, objects)

    def _record(self, table: _Table) -> tuple[str, str]:
        """One row and several, said by what they link: "record of a student living in a dorm" for a relation named
        by a verb; for a table that links rows of one table to each other, the pair ("pair of friends" when the table
        is named for the role of one side, else "pair of a high schooler and a liked high schooler", the second
        qualified by its key's own word); any other noun-named link table by its own name ("advisor", "route"): a
        "record" of it read as another word ("like records" as similar records)."""
        verb = self.verb(table)
        keys = self._keys(table)
        targets = [self._schema_table(index) for index in dict.fromkeys(target for _, target in keys)]
        if verb is not None and len(targets) == 2:
            first, second = (_with_article(target.noun(False)) for target in targets)
            one = f"record of {first} {verb.participle} {second}"
            return one, one.replace("record", "records", 1)
        if verb is not None:
            one = f"record of {verb.participle}"
            return one, one.replace("record", "records", 1)
        if len(targets) == 1 and len(keys) >= 2:
            parent = targets[0]
            roles = [self._key_role(column, parent) for column, _ in keys[:2]]
            own = _singular_word(table.name.split()[-1]) if table.name else ""
            if own and any(role.split()[-1:] == [own] for role in roles if role):
                return f"pair of {_noun(table.name, True)}", f"pairs of {_noun(table.name, True)}"
            second = roles[1] or "other"
            # A participle qualifies the parent ("liked high schooler"); a noun names the row itself ("follower").
            qualified = (
                f"{second} {parent.noun(False)}" if second.endswith(("ed", "ing")) or second == "other" else second
            )
            first = parent.noun(False)
            return (
                f"pair of {_with_article(first)} and {_with_article(qualified)}",
                f"pairs of {_noun(first, True)} and {_noun(qualified, True)}",
            )
        return _noun(table.name, False), _noun(table.name, True)

    def _keys(self, table: _Table) -> list[tuple[int, int]]:
        """(column, the table it points to) of each of `table`'s foreign keys, in column order."""
        index = self.tables.get(table.key)
        if index is None or table.sub is not None:
            return []
        return [
            (column, self.column_tables[target])
            for column, target in sorted(self.foreign.items())
            if self.column_tables[column] == index and target < len(self.column_tables)
        ]

    def _key_role(self, column: int, parent: _Table) -> str:
        """What a key column calls the row it points to, beyond the parent's own name: "liked" for likes.liked_id,
        "friend" for friend.friend_id; "" for a key named after its parent or by key words alone ("student id" of a
        high schooler is "student")."""
        words = [word for word in self.column_names[column].split() if word not in _KEY_WORDS]
        parent_words = _word_set(parent.name)
        return " ".join(word for word in words if word not in parent_words)

    def second_side(self, table: _Table, column: _Col) -> _Table | None:
        """For a table linking rows of one table to each other, when `column` is its second key: that side, named by
        its role ("prerequisite" for prereq.prereq_id); None otherwise (or when the key names no role)."""
        keys = self._keys(table)
        if len(keys) < 2 or len({target for _, target in keys}) != 1 or column.table != table:
            return None
        side = self._other_side(table)
        if side is None or not side.role or self.column_names[keys[1][0]] != column.name:
            return None
        return side

    def _other_side(self, table: _Table) -> _Table | None:
        """For a table linking rows of one table to each other, counted from one side: the other side, named by its
        key ("friend" for friend.friend_id, "liked high schooler" for likes.liked_id); None for any other table."""
        keys = self._keys(table)
        targets = list(dict.fromkeys(target for _, target in keys))
        if len(keys) < 2 or len(targets) != 1:
            return None
        parent = self._schema_table(targets[0])
        role = self._key_role(keys[1][0], parent)
        if not role:
            return parent
        if role.endswith(("ed", "ing")):  # a participle qualifies the parent: "liked high schooler"
            role = f"{role} {parent.noun(False)}"
        return replace(parent, role=role)

    def relation_between(self, one: _Table, other: _Table) -> tuple[_Table, _Verb, bool] | None:
        """A relation table named by a verb that links `one` and `other` (lives_in between students and dorms), with
        its verb and whether `one` is its subject (the first key); None when no such table links them."""
        first, second = self.tables.get(one.key), self.tables.get(other.key)
        if first is None or second is None or first == second or one.sub is not None or other.sub is not None:
            return None
        for key, index in self.tables.items():
            candidate = _Table(key, self.table_names[index], names=self)
            verb = self.verb(candidate)
            targets = list(dict.fromkeys(self._targets(candidate)))
            if verb is not None and self.is_link(candidate) and set(targets) == {first, second}:
                return candidate, verb, targets[0] == first
        return None

    def _schema_table(self, index: int) -> _Table:
        key = next(key for key, value in self.tables.items() if value == index)
        return _Table(key, self.table_names[index], names=self)

    def _targets(self, table: _Table) -> list[int]:
        """The tables that `table`'s foreign keys point to (by index), in column order."""
        index = self.tables.get(table.key)
        if index is None or table.sub is not None:
            return []
        return [
            self.column_tables[target]
            for column, target in sorted(self.foreign.items())
            if self.column_tables[column] == index and target < len(self.column_tables)
        ]

    def references(self, table: _Table, other: _Table) -> bool:
        return other.sub is None and self.tables.get(other.key) in self._targets(table)

    def is_link(self, table: _Table) -> bool:
        """A table that only links others (has_pet: a student id and a pet id): its rows stand for the far end."""
        index = self.tables.get(table.key)
        if index is None or table.sub is not None:
            return False
        own = [column for column, owner in enumerate(self.column_tables) if owner == index]
        linking = [column for column in own if column in self.foreign]
        if len(linking) < 2:
            return False
        # A name that reads as a verb (lives_in keeps a room number too) relates its keys' tables whatever else it
        # holds; a noun-named table relates them only when it holds nothing else.
        return self.verb(table) is not None or all(column in linking or column in self.primary for column in own)

    def as_rows_of(self, table: _Table | None, avoid: _Table | None) -> _Table | None:
        """`table`, or for a link table the table its rows stand for: has_pet counted from a student is pets."""
        if table is None or not self.is_link(table):
            return table
        other_side = self._other_side(table)
        if other_side is not None:
            return other_side
        for target in self._targets(table):
            candidate = self._schema_table(target)
            if candidate != avoid:
                return candidate
        return table

    def parents_of(self, table: _Table) -> set[str]:
        """The keys of the tables `table`'s foreign keys point to."""
        index = self.tables.get(table.key)
        if index is None or table.sub is not None:
            return set()
        return {self._schema_table(target).key for target in self._targets(table)} - {table.key}

    def pair_of(self, table: _Table) -> tuple[_Table, _Table] | None:
        """The two tables a table pairs when its name is theirs run together and its keys point to them both
        (book_author: a book and an author), in the name's order; None otherwise."""
        parents = [self._schema_table(target) for target in dict.fromkeys(self._targets(table))]
        if len(parents) != 2 or table.sub is not None:
            return None
        name = table.name.split()
        for first, second in (parents, parents[::-1]):
            if name == (_noun(first.name, False, rows=True) + " " + _noun(second.name, False, rows=True)).split():
                return first, second
        return None

    def own_column_words(self, table: _Table) -> set[str]:
        """The names of `table`'s columns as said of its own rows ("name" for a dorm's "dorm name")."""
        index = self.tables.get(table.key)
        if index is None:
            return set()
        return {
            _column_words(_Col(self.column_names[column], table), table, False)
            for column, owner in enumerate(self.column_tables)
            if owner == index
        }

    def has_column(self, table: _Table, original: str) -> bool:
        index = self.tables.get(table.key)
        return index is not None and (index, original.lower()) in self.columns

    def column(self, table: _Table | None, original: str) -> _Col:
        index = self.tables.get(table.key) if table is not None else None
        column_index = self.columns.get((index, original.lower())) if index is not None else None
        if column_index is None:
            name = _words_of(original)
            identifies = table if table is not None and name == "id" else None
            return _Col(name, table, identifies)
        identifies = None
        name, via = self.column_names[column_index], ""
        # A key that also points elsewhere (record.swimmer_id) is about the table it points to.
        if column_index in self.foreign:
            identifies = self._schema_table(self.column_tables[self.foreign[column_index]])
            via, name = _via(name, identifies, self.column_names[self.foreign[column_index]])
        elif column_index in self.primary:
            identifies = table
        kind = self.column_types[column_index] if column_index < len(self.column_types) else "text"
        return _Col(name, table, identifies, kind, via)


# The names of the schemas drafted on last: the same database's for every shared result of its rooms.
_names_of = _per_schema(_Names)


# ---------------------------------------------------------------------------------------------------------------
# What a query asks, read from the syntax tree
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _Item:
    """One selected (or ordered, or compared) expression."""

    kind: str  # "column", "aggregate", "star", "computed"
    column: _Col | None = None
    function: str | None = None  # for aggregates: "number", "average", "maximum", "minimum", "total"
    distinct: bool = False
    text: str = ""  # for computed expressions, their words

    @property
    def is_count(self) -> bool:
        return self.kind == "aggregate" and self.function == "number" and not self.distinct


@dataclass
class _Cond:
    """One condition: `item op values` (or LIKE `like`), or `item` against a described `subquery`."""

    item: _Item | None
    op: str = "="
    values: list[str] = field(default_factory=list)
    like: str | None = None
    negated: bool = False
    subquery: object = None  # a described query compared with or tested against
    have: _Table | None = None  # an IN subquery read as "that have a <table> ..." (rows matched in another table)
    # An IN subquery that selects the second side of a table linking rows of one table ("prerequisite id" of prereq):
    # the rows are that side of a row of the first ("that are a prerequisite of a course whose ..."). Else None.
    side_of: _Table | None = None

    @property
    def table(self) -> _Table | None:
        return self.item.column.table if self.item is not None and self.item.column is not None else None


@dataclass
class _Scope:
    names: _Names
    parent: _Scope | None
    tables: list[_Table] = field(default_factory=list)
    aliases: dict[str, _Table] = field(default_factory=dict)
    select_aliases: dict[str, exp.Expr] = field(default_factory=dict)

    def table_named(self, qualifier: str) -> _Table | None:
        scope: _Scope | None = self
        while scope is not None:
            table = scope.aliases.get(qualifier.lower())
            if table is not None:
                return table
            scope = scope.parent
        return None

    def table_of_column(self, name: str) -> _Table | None:
        scope: _Scope | None = self
        while scope is not None:
            for table in scope.tables:
                if table.sub is None and self.names.has_column(table, name):
                    return table
            scope = scope.parent
        return self.tables[0] if self.tables else None


class _QueryBuilder:
    def __init__(self, names: _Names) -> None:
        self.names = names

    def query(self, node: exp.Expr, parent: _Scope | None, *, in_set: bool = False):
        while isinstance(node, exp.Subquery | exp.Paren):
            node = node.this
        if isinstance(node, exp.Select):
            return self.select(node, parent, in_set=in_set)
        operator = {exp.Union: "union", exp.Intersect: "intersect", exp.Except: "except"}.get(type(node))
        if operator is None:
            raise ValueError(f"not a query: {node.key}")  # i18n-exempt: the generic draft is given instead
        described = _SetQuery(
            operator, self.query(node.this, parent, in_set=True), self.query(node.expression, parent, in_set=True)
        )
        described.order, described.limit = self._order_and_limit(node, None)
        return described

    def select(self, node: exp.Select, parent: _Scope | None, *, in_set: bool = False) -> _Select:
        unread = [key for key, value in node.args.items() if value and key not in _SELECT_PARTS]
        if unread:
            # WITH, OFFSET, window clauses...: describing the rest would leave something out, which is worse than
            # the generic draft.
            raise ValueError(f"cannot describe {', '.join(unread)}")  # i18n-exempt: the generic draft is given instead
        scope = _Scope(self.names, parent)
        from_ = node.args.get("from_") or node.args.get("from")
        sources = [from_.this] if from_ is not None else []
        sources += [join.this for join in node.args.get("joins") or []]
        for position, source in enumerate(sources):
            table = self._source(source, scope, position)
            scope.tables.append(table)
            alias = source.alias if isinstance(source, exp.Table | exp.Subquery) else ""
            scope.aliases[(alias or table.key).lower()] = table
            scope.aliases.setdefault(table.key, table)
        described = _Select(scope.tables, names=self.names, in_set=in_set)
        for join in node.args.get("joins") or []:
            self._read_join(join.args.get("on"), scope, described)
        for expression in node.expressions:
            if isinstance(expression, exp.Alias):
                scope.select_aliases[expression.alias.lower()] = expression.this
                expression = expression.this
            described.items.append(self.item(expression, scope))
        distinct = node.args.get("distinct")
        described.distinct = distinct is not None
        where = node.args.get("where")
        if where is not None:
            described.where = self.conditions(where.this, scope)
        group = node.args.get("group")
        if group is not None:
            for expression in group.expressions:
                item = self.item(expression, scope)
                if item.column is not None:
                    described.group.append(item.column)
        having = node.args.get("having")
        if having is not None:
            described.having = self.conditions(having.this, scope)
        described.order, described.limit = self._order_and_limit(node, scope)
        if not described.tables or not described.items:
            raise ValueError(  # i18n-exempt: the generic draft is given instead
                "a query without tables has nothing to describe"
            )
        described.settle()
        return described

    def _read_join(self, on: exp.Expr | None, scope: _Scope, described: _Select) -> None:
        """What a join's ON says beyond the declared keys: which side refers to which (a column equal to the other
        table's own key refers to it, declared or not), and the role a joined row plays when the referring column
        names one ("destination airport" for airports joined on flights.DestAirport)."""
        for equal in on.find_all(exp.EQ) if on is not None else []:
            left, right = unwrap_paren(equal.this), unwrap_paren(equal.expression)
            if not isinstance(left, exp.Column) or not isinstance(right, exp.Column):
                continue
            pair = (self.column(left, scope), self.column(right, scope))
            for (child, parent), parent_node in ((pair, right), (pair[::-1], left)):
                if child.table is None or parent.table is None or child.table.sub or parent.table.sub:
                    continue
                if child.table is parent.table or parent.identifies is not parent.table:
                    continue
                if child.identifies is child.table and not set(child.name.split()) <= _word_set(parent.table.name):
                    continue  # key to key: only a key named after the other table (flights.airline) refers to it
                described.on_refs.add((child.table.key, parent.table.key))
                role = _role(child.name, parent.table)
                if role and not parent.table.role:
                    self._give_role(scope, parent_node, parent.table, role)
                elif child.via and not parent.table.via:
                    self._give_role(scope, parent_node, parent.table, "", via=child.via)

    @staticmethod
    def _give_role(scope: _Scope, node: exp.Column, table: _Table, role: str, via: str = "") -> None:
        """`table` plays `role` in this query (or is reached `via` a verb phrase): every name it goes by in the scope
        now gives it."""
        named = replace(table, role=role) if role else replace(table, via=via)
        for alias, value in list(scope.aliases.items()):
            if value is table:
                scope.aliases[alias] = named
        scope.tables[:] = [named if value is table else value for value in scope.tables]

    def _source(self, source: exp.Expr, scope: _Scope, position: int) -> _Table:
        if isinstance(source, exp.Table) and isinstance(source.this, exp.Identifier):
            return self.names.table(source.name)
        if isinstance(source, exp.Subquery):
            inner = self.query(source.this, scope)
            return _Table(f"(nested {position})", "row", inner)
        raise ValueError(f"unsupported FROM item: {source.key}")  # i18n-exempt: the generic draft is given instead

    def _order_and_limit(self, node: exp.Expr, scope: _Scope | None) -> tuple[list, int | None]:
        order = []
        clause = node.args.get("order")
        for ordered in clause.expressions if clause is not None else []:
            target = ordered.this
            if scope is not None and isinstance(target, exp.Column) and not target.table:
                target = scope.select_aliases.get(target.name.lower(), target)
            item = self.item(target, scope) if scope is not None else self._set_order_item(target)
            order.append((item, bool(ordered.args.get("desc"))))
        limit = None
        limit_clause = node.args.get("limit")
        if limit_clause is not None:
            amount = limit_clause.expression
            if isinstance(amount, exp.Literal) and not amount.is_string and amount.this.isdigit():
                limit = int(amount.this)
        return order, limit

    def _set_order_item(self, node: exp.Expr) -> _Item:
        """An ORDER BY after a set operation: a column of the result, named as the schema names it."""
        if not isinstance(node, exp.Column) or isinstance(node.this, exp.Star):
            raise ValueError("cannot say this order in words")  # i18n-exempt: the generic draft is given instead
        tables = [self.names.table(name) for name in self.names.tables]
        owner = next((table for table in tables if self.names.has_column(table, node.name)), None)
        return _Item("column", self.names.column(owner, node.name))

    # -- expressions --------------------------------------------------------------------------------------------

    def item(self, node: exp.Expr, scope: _Scope) -> _Item:
        node = unwrap_paren(node)
        if isinstance(node, exp.Star):
            return _Item("star")
        if isinstance(node, exp.Column):
            if isinstance(node.this, exp.Star):
                return _Item("star")
            return _Item("column", self.column(node, scope))
        if isinstance(node, exp.Literal) and node.is_string:
            # A double-quoted name where only a column can stand names a column in the datasets' dialect.
            table = scope.table_of_column(node.this)
            return _Item("column", self.names.column(table, node.this) if table else _Col(_words_of(node.this), None))
        function = _AGGREGATES.get(type(node))
        if function is not None:
            argument = node.this
            distinct = isinstance(argument, exp.Distinct)
            if distinct:
                argument = argument.expressions[0] if argument.expressions else exp.Star()
            inner = self.item(argument, scope) if argument is not None else _Item("star")
            return _Item("aggregate", inner.column, function, distinct, inner.text)
        if isinstance(node, exp.Distinct) and node.expressions:
            inner = self.item(node.expressions[0], scope)
            inner.distinct = True
            return inner
        operator = _ARITHMETIC.get(type(node))
        if operator is not None:
            left, right = self.item(node.this, scope), self.item(node.expression, scope)
            return _Item("computed", left.column, text=f"{_item_words(left)} {operator} {_item_words(right)}")
        if isinstance(node, exp.Literal | exp.Neg):
            return _Item("computed", text=_literal(node))
        columns = list(node.find_all(exp.Column))
        if columns:
            column = self.column(columns[0], scope)
            return _Item("computed", column, text=f"value computed from the {column.name}")
        return _Item("computed", text="a computed value")

    def column(self, node: exp.Column, scope: _Scope) -> _Col:
        table = scope.table_named(node.table) if node.table else scope.table_of_column(node.name)
        if node.table and table is None:
            table = self.names.table(node.table)
        if table is not None and table.sub is not None:
            return _Col(_words_of(node.name), table)
        return self.names.column(table, node.name)

    def conditions(self, node: exp.Expr, scope: _Scope) -> list:
        """A flat list `[cond, "and"|"or", cond, ...]`: the Spider format is flat too, and so are most sentences."""
        node = unwrap_paren(node)
        if isinstance(node, exp.And | exp.Or):
            left = self.conditions(node.this, scope)
            right = self.conditions(node.expression, scope)
            if not left or not right:
                return left or right
            return [*left, "and" if isinstance(node, exp.And) else "or", *right]
        condition = self.condition(node, scope, negated=False)
        return [condition] if condition is not None else []

    def condition(self, node: exp.Expr, scope: _Scope, *, negated: bool) -> _Cond | None:
        node = unwrap_paren(node)
        if isinstance(node, exp.Not):
            return self.condition(node.this, scope, negated=not negated)
        if isinstance(node, exp.Boolean):
            return None
        op = _COMPARISONS.get(type(node))
        if op is not None:
            right = node.expression
            right = unwrap_paren(right)
            if isinstance(right, exp.Column):
                left = self.item(node.this, scope)
                other = self.item(right, scope)
                if left.column is not None and other.column is not None and left.column.table != other.column.table:
                    return None  # a join written in WHERE: how tables connect, not a filter on the rows
                return _Cond(left, op, [f"the {_item_words(other)}"], negated=negated)
            return self._compare(self.item(node.this, scope), op, right, scope, negated)
        if isinstance(node, exp.Like):
            pattern = _literal(node.expression)
            return _Cond(
                self.item(node.this, scope), "like", like=pattern, negated=negated ^ bool(node.args.get("negate"))
            )
        if isinstance(node, exp.Between):
            values = [_literal(node.args["low"]), _literal(node.args["high"])]
            return _Cond(self.item(node.this, scope), "between", values, negated=negated)
        if isinstance(node, exp.Is):
            return _Cond(self.item(node.this, scope), "is", negated=negated)
        if isinstance(node, exp.In):
            return self._membership(node, scope, negated)
        if isinstance(node, exp.Exists):
            return _Cond(None, "exists", negated=negated, subquery=self.query(node.this, scope))
        raise ValueError(  # i18n-exempt: the generic draft is given instead
            f"cannot say the condition {node.key} in words"
        )

    def _compare(self, item: _Item, op: str, right: exp.Expr, scope: _Scope, negated: bool) -> _Cond:
        if isinstance(right, exp.Subquery | exp.Select | exp.SetOperation):
            return _Cond(item, op, negated=negated, subquery=self.query(right, scope))
        return _Cond(item, op, [_literal(right)], negated=negated)

    def _membership(self, node: exp.In, scope: _Scope, negated: bool) -> _Cond:
        item = self.item(node.this, scope)
        query = node.args.get("query")
        if query is None and len(node.expressions) == 1:
            only = node.expressions[0]
            only = unwrap_paren(only)
            if isinstance(only, exp.Select | exp.Subquery | exp.SetOperation):
                query = only
        if query is None:
            return _Cond(item, "in", [_literal(value) for value in node.expressions], negated=negated)
        inner = self.query(query, scope)
        side_of = None
        if isinstance(inner, _Select) and len(inner.items) == 1 and inner.items[0].column is not None:
            selected = inner.items[0].column
            if selected.table is not None and self.names.second_side(selected.table, selected) is not None:
                side_of = selected.identifies
        return _Cond(item, "in", negated=negated, subquery=inner, have=self._had_table(item, inner), side_of=side_of)

    def _had_table(self, item: _Item, inner) -> _Table | None:
        """`key IN (SELECT key FROM other ...)` asks which rows have a matching row in `other`: the table to say
        "that have a ..." of, or None when the subquery is not that shape."""
        if not isinstance(inner, _Select) or inner.group or len(inner.items) != 1 or item.column is None:
            return None
        selected = inner.items[0].column
        if inner.items[0].kind != "column" or selected is None:
            return None
        outer = item.column.table
        if not (item.column.identifies or selected.identifies or selected == item.column):
            return None
        others = [table for table in inner.tables if table != outer and table.sub is None]
        had = self.names.as_rows_of(others[-1], outer) if others else None
        if had is not None and item.column.identifies == had and not had.role:
            role = _role(item.column.name, had)  # routes whose dst_apid is among airports': "a destination airport"
            return replace(had, role=role) if role else had
        return had


def _via(name: str, parent: _Table, parent_key: str) -> tuple[str, str]:
    """A foreign key's name read as what its row did to the parent ("lost in battle", "caused by ship id"): the
    words up to the preposition ("lost in") and a name for the column by its parent ("battle id"); ("", `name`) for a
    key named otherwise."""
    words = [word for word in name.split() if word not in _KEY_WORDS]
    parent_words = _word_set(parent.name)
    for position, word in enumerate(words[1:-1], start=1):
        if word in _PREPOSITIONS and words[position + 1 :] and set(words[position + 1 :]) <= parent_words:
            key = parent_key.split()[-1] if parent_key else "id"
            return " ".join(words[: position + 1]), f"{parent.noun(False)} {key}"
    return "", name


def _role(column_name: str, target: _Table) -> str:
    """The role a referring column gives the row it points to: "destination airport" (a qualified form of the
    target's own noun), or "" when the column just names the target ("airline", "country code")."""
    words = column_name.split()
    if any(word in _PREPOSITIONS for word in words):
        return ""  # "lost in battle" says what happened to a battle, not what kind of battle it is (`_via`)
    if len(words) > 2 and words[-1] in ("id", "code", "no", "key"):
        words = words[:-1]  # "permanent address id" plays the part of a "permanent address"
    head = _singular_word(target.name.split()[-1]) if target.name else ""
    if len(words) < 2 or _singular_word(words[-1]) != head or set(words) <= _word_set(target.name):
        return ""
    return " ".join(words)


def _one_of_two_roles(column: _Col) -> str:
    """A foreign key beside another of its table to the same table (a route's "origin code" and "destination code",
    both airports) plays a part the other does not: its own words with the target's noun ("origin airport"), never
    just "the airport"; "" for any other column."""
    table, target = column.table, column.identifies
    names = getattr(table, "names", None)
    if table is None or target is None or table is target or not isinstance(names, _Names):
        return ""
    words = column.name.split()
    if names._targets(table).count(names.tables.get(target.key)) < 2 or len(words) < 2 or words[-1] not in _KEY_WORDS:
        return ""
    if set(words[:-1]) <= _word_set(target.name) or names.is_link(table):
        return ""  # "course id" beside "prerequisite id": the course itself; a pair of friends is said as pairs
    own = [word for word in words[:-1] if word not in _word_set(target.name)]  # "source user id": "source"
    return " ".join(own) + " " + _noun(target.name, False)


def _literal(node: exp.Expr) -> str:
    node = unwrap_paren(node)
    if isinstance(node, exp.Literal) and node.is_string and _is_code(node.this) and _reads_as_word(node.this):
        # A code is said as it is (glossing it would guess its meaning): "whose status code is DNA". Quoted only
        # where it would read as a word of the sentence: "whose sex is 'F'".
        return f"'{node.this}'"
    if isinstance(node, exp.Literal):
        return _value(node.this)
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        return "-" + _value(node.this.this)
    if isinstance(node, exp.Null):
        return "no value"
    if isinstance(node, exp.Boolean):
        return "true" if node.this else "false"
    if isinstance(node, exp.Column):
        return _words_of(node.name)
    # Anything else would have to be printed as SQL, which the worker must not see: the generic draft is better.
    raise ValueError(f"cannot say {node.key} in words")  # i18n-exempt: the generic draft is given instead


def _is_code(text: str) -> bool:
    """A short coded value: one letter, or up to three capitals ("F", "y", "BK", "USA")."""
    return text.isalpha() and (len(text) == 1 or (len(text) <= 3 and text.isupper()))


def _reads_as_word(code: str) -> bool:
    """Whether a short code would read as part of the sentence unquoted: one letter ("F", "y", "a"); two or three
    capitals read as a code ("NO", "US", "DNA": country and status codes spell words too)."""
    return len(code) == 1


def _item_words(item: _Item, many: bool = False) -> str:
    """An item as a noun phrase without an article ("age", "average age", "number of students")."""
    if item.kind == "column":
        return _noun(item.column.name, many) if many else item.column.name
    if item.kind == "star":
        return "all the information"
    if item.kind == "aggregate":
        if item.function == "number":
            if item.distinct and item.column is not None:
                return f"number of {_different_things(item.column)}"
            return "number of rows"
        subject = item.column.name if item.column is not None else item.text or "value"
        if subject.split()[0] == item.function:
            # "the sum of the totals", never "the total total"
            words = subject.split()
            plural = " ".join([*words[:-1], _plural_word(words[-1])])
            return f"{'sum' if item.function == 'total' else item.function} of the {plural}"
        return f"{item.function} {subject}"
    return item.text


def _names_row(column: _Col) -> bool:
    """Whether `column` is what its row is called by (a name, a title)."""
    return column.name.split()[-1] in _NAMING_WORDS


def _counts_keys(item: _Item) -> bool:
    """Whether `item` is count(DISTINCT a key), said as the rows the key names."""
    return item.kind == "aggregate" and item.function == "number" and item.distinct and _keyed_rows(item.column)


def _keyed_rows(column: _Col | None) -> bool:
    target = column.identifies if column is not None else None
    return target is not None and target.sub is None and column.name.split()[-1] in _KEY_WORDS


def _different_things(column: _Col) -> str:
    """What count(DISTINCT column) counts: the rows a key identifies ("different cities" for city ids, "different
    drivers" for a result's driver ids: docs/chase.md, `draft`), any other column's values ("different positions")."""
    if _keyed_rows(column):
        return f"different {column.identifies.called(True)}"
    return f"different {_noun(column.name, True)}"


# ---------------------------------------------------------------------------------------------------------------
# Describing one SELECT
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _Select:
    tables: list[_Table]
    items: list[_Item] = field(default_factory=list)
    distinct: bool = False
    where: list = field(default_factory=list)
    group: list[_Col] = field(default_factory=list)
    having: list = field(default_factory=list)
    order: list = field(default_factory=list)
    limit: int | None = None
    main: _Table | None = None  # the entity the rows are about
    subject: _Table | _Col | None = None  # what a GROUP BY makes one row of: a table (grouped by its key) or a column
    counted: _Table | None = None  # what count(*) counts
    names: _Names = field(default_factory=lambda: _Names(None))
    on_refs: set = field(default_factory=set)  # (referring table key, referred table key) read off the joins' ON
    in_set: bool = False  # a side of UNION, INTERSECT or EXCEPT, whose rows come out once each

    def refers(self, table: _Table, other: _Table) -> bool:
        """Whether `table`'s rows point to `other`'s: a declared foreign key, or a join on `other`'s own key."""
        return self.names.references(table, other) or (
            other.sub is None and table.key != other.key and (table.key, other.key) in self.on_refs
        )

    def settle(self) -> None:
        """Decide the entity, the group subject and the counted table once every clause is read."""
        first_column = next((item.column for item in self.items if item.column is not None), None)
        self.main = first_column.table if first_column is not None else None
        if self.main is not None and first_column.identifies is not None and self.names.is_link(self.main):
            # has_pet's pet id is about pets; prereq's prerequisite id about prerequisites, not courses that have one
            self.main = self.names.second_side(self.main, first_column) or first_column.identifies
        if self.main is not None and not self.group and not self.distinct and not self.in_set:
            # A parent's column read through its child rows: people joined with poker_player has one row per poker
            # player, so the conditions and the count are about poker players. DISTINCT folds the child rows back
            # into the parent's: the different life expectancies of countries that speak Dutch. So does a set
            # operation: the battles of INTERSECT are battles, however many of their ships the join repeats them for.
            children = [
                table
                for table in self.tables
                if table != self.main
                and table.sub is None
                and not self.names.is_link(table)
                and self._child_of_main(table)
                and not (self._relates_main(table) and self._all_of_main())
            ]
            if len(children) == 1 and not self._filters_main(children[0]):
                self.main = children[0]
        if self.main is None and self.tables:
            counts = bool(self.items) and all(item.is_count for item in self.items)
            self.main = self._counted_rows() if counts else self._joined_rows()
        self.counted = self.main
        if not self.group:
            return
        key = self.group[0]
        if len(self.group) == 1 and key.identifies is not None:
            role = _role(key.name, key.identifies) if key.table is not key.identifies else ""
            role = role or _one_of_two_roles(key)
            # Flights grouped by their destination airport are counted per destination airport.
            self.subject = self.main = replace(key.identifies, role=role) if role else key.identifies
        else:
            self.subject = key
        subject_table = self.subject if isinstance(self.subject, _Table) else key.table
        # Joined rows are counted per group: the counted thing is the far end of the join, not the group itself.
        others = [table for table in self.tables if table != subject_table]
        counted = self._far_end(others) if others else (self.tables[0] if self.tables else self.main)
        self.counted = self.names.as_rows_of(counted, subject_table)

    def _filters_main(self, child: _Table) -> bool:
        """Whether a child joined to the entity only picks the entity's rows: every column said is the entity's and
        the child's rows are records about it (ratings, pilot records), not a role the entity's rows play (a poker
        player is a person). Then the rows are the entity's ("the names of reviewers with a rating whose stars are
        less than 5"), never the child's said through another table ("the reviewer names of the ratings", "the
        pilot of the pilot record ... and with a pilot whose age ...")."""
        if _plays_role(child, self.main) or child.role or child.via:
            return False
        if not self._all_of_main():
            return self._ordered_by(child)
        if any(item.kind == "star" for item in self.items):
            return False
        conditions = [cond for cond in self.where if isinstance(cond, _Cond)]
        on_child = [cond for cond in conditions if cond.table == child]
        if "or" in self.where and len(on_child) != len(conditions):
            return False  # the entity's own conditions come first: an "or" across the two would change sides
        if self.where and not on_child:
            return False  # "the owner whose state is Virginia" would drop "that has a dog"
        # A child picked by its name is what the sentence is about: "the color description of the product named
        # catnip", "the region of the city named Kabul".
        return not any(
            cond.op == "=" and cond.item is not None and cond.item.column is not None and _names_row(cond.item.column)
            for cond in on_child
        )

    def _ordered_by(self, child: _Table) -> bool:
        """Whether the entity's one row is picked by its child's order alone: every column shown is the entity's, the
        order is on the child's column, nothing else is said of the child ("the name of the hotel whose room has the
        highest floor", never "the hotel name of the room with the highest floor")."""
        shown = all(
            item.kind == "column" and item.column is not None and item.column.table == self.main for item in self.items
        )
        ordered = [item for item, _ in self.order]
        on_child = any(isinstance(cond, _Cond) and cond.table == child for cond in self.where)
        return (
            shown
            and self.limit == 1
            and len(ordered) == 1
            and ordered[0].kind == "column"
            and ordered[0].column is not None
            and ordered[0].column.table == child
            and not on_child
            and self._picked_by_other(child)
        )

    def _relates_main(self, table: _Table) -> bool:
        """Whether `table` relates the entity to another joined table (film_actor between films and actors)."""
        return len(self._referred(table)) >= 2

    def _all_of_main(self) -> bool:
        """Whether every selected and ordering column is the entity's own: then a relation joined to it only
        filters the entity's rows ("the titles of films with an actor whose first name is ..."), it is no child
        whose rows the result is about."""
        items = [*self.items, *(item for item, _ in self.order)]
        return all(
            item.kind == "column" and item.column is not None and item.column.table == self.main for item in items
        )

    def _referred(self, table: _Table) -> list[_Table]:
        return [other for other in self.tables if other != table and self.refers(table, other)]

    def _far_end(self, tables: list[_Table]) -> _Table:
        """The last of `tables` that is a thing of its own rather than a relationship between two others (lives_in
        joins a student to a dorm: counting its rows counts students). A table naming two that are themselves joined
        by a key (a consultation naming its vet and the vet's site) is no relationship: its rows are things."""
        entities = [table for table in tables if not self._pairs_two(table)]
        return (entities or tables)[-1]

    def _pairs_two(self, table: _Table) -> bool:
        referred = self._referred(table)
        if len(referred) < 2:
            return False
        return not any(self.refers(one, other) for one in referred for other in referred if one != other)

    def _counted_rows(self) -> _Table:
        """What count(*) over the FROM tables counts. Over a relation (lives_in) the rows are pairs: with one side
        fixed by an equality (a dorm named Granite Court) they are the other side's rows (its students); otherwise
        they are the relation's records, and are said so."""
        links = [table for table in self.tables if self.names.is_link(table)]
        if len(links) != 1:
            return self._joined_rows()
        link = links[0]
        fixed = [
            cond.table
            for cond in self.where
            if isinstance(cond, _Cond)
            and cond.op == "="
            and not cond.negated
            and cond.subquery is None
            and cond.table is not None
            and cond.table != link
            and self.refers(link, cond.table)
        ]
        return self.names.as_rows_of(link, fixed[0]) if fixed and "or" not in self.where else link

    def repeats_main(self) -> bool:
        """Whether a row of the main entity can come back more than once (students joined with lives_in): then the
        number of result rows is no number of entities."""
        if self.distinct or self.group or self.main is None:
            return False
        return any(table != self.main and table.sub is None and self._child_of_main(table) for table in self.tables)

    def _child_of_main(self, table: _Table) -> bool:
        """Whether `table`'s rows point to the entity's through the join: a table the entity is joined to on that
        table's own key is its parent, whatever other key it holds (a department's head teacher)."""
        return self.refers(table, self.main) and (self.main.key, table.key) not in self.on_refs

    def repeated_by(self) -> _Table | None:
        """The one other table whose rows the entity's rows come back once for (a reviewer once per rating), when the
        join is of those two alone and the other is a thing of its own, not a link (film_actor's rows are no things
        to count); None otherwise."""
        others = [table for table in self.tables if table != self.main]
        if len(self.tables) != 2 or len(others) != 1 or self.main is None or self.main.sub is not None:
            return None
        other = others[0]
        if other.sub is not None or self.names.is_link(other) or other.record or not self._child_of_main(other):
            return None
        return other

    def _joined_rows(self) -> _Table:
        """What one row of the FROM tables stands for, when nothing selected says: a table that refers to one other
        (a join of breeds and dogs has a row per dog), else the first one."""
        children = [table for table in self.tables if len(self._referred(table)) == 1 and not self.names.is_link(table)]
        if len(children) == 1:
            return children[0]
        # A table that refers to the others and that none of them refers to: each joined row is one of its rows
        # (students, their enrolments and the enrolments' programs: one row per enrolment).
        bottoms = [
            table
            for table in self.tables
            if self._referred(table)
            and not self.names.is_link(table)
            and not any(self.refers(other, table) for other in self.tables if other != table)
        ]
        if len(bottoms) == 1:
            return bottoms[0]
        return next((table for table in self.tables if not self.names.is_link(table)), self.tables[0])

    # -- pieces ---------------------------------------------------------------------------------------------------

    @property
    def aggregates(self) -> list[_Item]:
        return [item for item in self.items if item.kind == "aggregate"]

    @property
    def is_count_only(self) -> bool:
        return len(self.items) == 1 and self.items[0].is_count and not self.group

    @property
    def subject_table(self) -> _Table | None:
        return self.subject if isinstance(self.subject, _Table) else None

    def _subject_noun(self, many: bool) -> str:
        if isinstance(self.subject, _Table):
            return self.subject.noun(many)
        if self.subject is None:
            return "rows" if many else "row"
        table, name = self.subject.table, self.subject.name
        if _undeclared_key_of(self.subject):
            return _noun(_undeclared_key_of(self.subject), many, rows=True)  # "each of the 69 start stations"
        if name.split()[-1] in _NAMING_WORDS and table is not None and table.sub is None:
            # Whose name it is, when the rows counted are another table's: "the airport name with the most routes",
            # "the lessons of each of the 4 staff first names"; never "the number of employees for each of the 14
            # employee last names" (the employees' own), though a bare "name" always says whose.
            if not _word_set(name) & _word_set(table.name) and (name in _NAMING_WORDS or self.counted != table):
                return _noun(f"{table.called(False)} {name}", many)
        return _noun(name, many)

    def _where_split(self) -> tuple[list, list]:
        """WHERE conditions on the group subject's table, and the rest (about the rows that are counted)."""
        if not isinstance(self.subject, _Table) or "or" in self.where:
            return [], self.where
        on_subject = [cond for cond in self.where if cond != "and" and cond.table == self.subject]
        rest = [cond for cond in self.where if cond != "and" and cond.table != self.subject]
        return _and(on_subject), _and(rest)

    def _counted_noun(self, many: bool, with_conditions: bool) -> str:
        table = self.counted
        noun = table.noun(many) if table is not None else ("rows" if many else "row")
        if with_conditions:
            noun += _clauses(self._where_split()[1] if self.group else self.where, table, many)
        return noun

    def _measured_table(self) -> _Table | None:
        """What a group's aggregates are computed over: the counted rows, or the table of an averaged column."""
        if any(item.is_count for item in self.aggregates):
            return self.counted
        measured = next((item.column.table for item in self.aggregates if item.column is not None), None)
        return measured or self.counted

    def _measured_noun(self) -> str:
        table = self._measured_table()
        return table.noun(True) if table is not None else "rows"

    def _count_phrase(self, cond: _Cond) -> str | None:
        """A HAVING on count(*) as "with more than 3 students"."""
        if cond.item is None or not cond.item.is_count or cond.subquery is not None or not cond.values:
            return None
        if cond.negated and cond.op not in _NEGATED_OPS:
            return None
        op = _NEGATED_OPS[cond.op] if cond.negated else cond.op
        if op not in _COUNT_PHRASES:
            return None
        number = cond.values[0]
        return f"with {_COUNT_PHRASES[op].format(number)} {self._counted_noun(number != '1', with_conditions=True)}"

    def _having(self, many: bool) -> str:
        parts = []
        for cond in self.having:
            if cond in ("and", "or"):
                parts.append(cond)
                continue
            counted = self._count_phrase(cond)
            parts.append(counted if counted is not None else _clause(cond, self.subject_table, many))
        return (" " + " ".join(parts)) if parts else ""

    def _superlative(self) -> tuple[str, str] | None:
        """ORDER BY ... LIMIT n as (adjective before the noun, phrase after it): ("oldest", "") or
        ("", "with the most records")."""
        if self.limit is None or not self.order:
            return None
        item, descending = self.order[0]
        if item.kind == "column" and item.column is not None and item.column.name == "age":
            oldest = "oldest" if descending else "youngest"
            table = item.column.table
            if table is None or table == self.main or (self.main is not None and _plays_role(self.main, table)):
                return oldest, ""  # "the oldest gymnast" when a gymnast's age is its person's
            # Another table's age orders the rows: "the hiring with the oldest employee", never "the oldest hiring".
            return "", f"with the {oldest} {table.noun(self.limit != 1)}"
        if item.is_count:
            return "", f"with the {'most' if descending else 'fewest'} {self._counted_noun(True, False)}"
        if _counts_keys(item):
            return "", f"with the {'most' if descending else 'fewest'} {_different_things(item.column)}"
        own = item.kind == "column" and item.column is not None and item.column.table == self.main
        if not own and self._picked_by_other(self._order_table()):
            # Another table's column picks the row: "the outgoing loan whose object has the highest width".
            other = item.column.table
            words = _column_words(item.column, other, False)
            return "", f"whose {other.noun(False)} has the {_extreme_word(item, descending)} {words}"
        words = _column_words(item.column, self.main, False) if own else _item_words(item)
        return "", f"with the {_extreme_word(item, descending)} {words}"

    def _order_table(self) -> _Table | None:
        """The table of the one column the rows are ordered by, None for an order of anything else."""
        if len(self.order) != 1 or self.order[0][0].kind != "column" or self.order[0][0].column is None:
            return None
        return self.order[0][0].column.table

    def _picked_by_other(self, other: _Table | None) -> bool:
        """Whether one row is picked by another table's column, said "whose <other> has the highest ...": not when
        the two tables' names share a word ("the car name whose car has" reads as one thing twice)."""
        main = self.main
        if other is None or other.sub is not None or self.limit != 1 or main is None or main.sub is not None:
            return False
        if not (self.refers(main, other) or self.refers(other, main)) or _plays_role(main, other):
            return False  # a sibling through a third table, or the person a body builder is
        return not _word_set(other.noun(False)) & _word_set(main.noun(False))

    def _extreme(self) -> str | None:
        """A column ordered by itself and cut to one row: "the highest weight", "the latest transcript date"."""
        if self.limit != 1 or self.distinct or len(self.items) != 1 or not self.order:
            return None
        item, descending = self.order[0]
        selected = self.items[0]
        if item.kind != "column" or selected.kind != "column" or item.column != selected.column:
            return None
        return f"the {_extreme_word(item, descending)} {_column_words(item.column, self.main, False)}"

    def _sorted(self) -> str:
        if not self.order or self.limit is not None:
            return ""
        keys = []
        for item, descending in self.order:
            if item.is_count:
                words = f"the number of {self._counted_noun(True, False)}"
            else:
                words = _item_words(item) if item.kind == "column" else f"the {_item_words(item)}"
            keys.append(words + (" in descending order" if descending else ""))
        return ", sorted by " + _join(keys, "and then by")

    # -- noun phrases ---------------------------------------------------------------------------------------------

    def _entity(self, table: _Table | None, many: bool, count: int | None, conditions: str) -> str:
        """The rows as a noun phrase with their determiner: "the 3 oldest students", "all dogs", "the student whose
        id is 3"."""
        superlative = self._superlative()
        if superlative is not None:
            many = self.limit != 1
        noun = table.noun(many) if table is not None else ("rows" if many else "row")
        if superlative is not None:
            adjective, after = superlative
            amount = f"{self.limit} " if self.limit != 1 else ""
            phrase = f"the {amount}{adjective + ' ' if adjective else ''}{noun}{' ' + after if after else ''}"
            return phrase + (f" among those{conditions}" if conditions else "")
        if self.limit is not None:
            return f"the first {self.limit} {table.noun(self.limit != 1) if table else 'rows'}{conditions}"
        if count is not None:
            return f"the {count} {noun}{conditions}"
        if not many:
            return f"the {noun}{conditions}"
        return f"{noun}{conditions}" if conditions else f"all {noun}"

    def _head(self, items: list[_Item], many: bool, entity: _Table | None, count: int | None = None) -> str:
        words = []
        owner = None  # the other table whose name the previous column was said with
        for item in items:
            if item.kind == "column" and item.column is not None:
                said = _column_words(item.column, entity, many)
                plain = _column_words(item.column, item.column.table, many)
                if said != plain and self._said_as_own(item.column, entity):
                    said = plain  # "the names of the poker players", not "the person names of"
                if owner is not None and item.column.table == owner and said != plain:
                    said = plain  # "student first names, middle names and last names": the owner said once
                owner = item.column.table if said != plain else None
                words.append(said)
            elif item.is_count:
                words.append("number")
            else:
                words.append(_item_words(item, many))
        if self.distinct and many:
            return (f"the {count} different " if count is not None else "the different ") + _join(words)
        other = self._other_owner(items, entity) if words and "'s " in words[0] else None
        if other is not None:
            # Only another table's columns: "the first name of the employee of the customer ...", never "the
            # employee's first name of the customer ...".
            plain = [_column_words(item.column, other, many) for item in items]
            return f"the {_join(plain)} of the {_owner_noun(other, entity, many)}"
        return "the " + _join(words)

    def _other_owner(self, items: list[_Item], entity: _Table | None) -> _Table | None:
        """The one other table all `items` are columns of, when they are not said as the entity's own; else None.
        Asked only when each item would be said with a possessive ("the employee's first name")."""
        tables = {item.column.table for item in items if item.kind == "column" and item.column is not None}
        if len(tables) != 1 or any(item.kind != "column" or item.column is None for item in items):
            return None
        table = tables.pop()
        if entity is None or table is None or table == entity or entity.sub is not None or table.sub is not None:
            return None
        if any(_is_identifier(item.column) or self._said_as_own(item.column, entity) for item in items):
            return None
        if any(_column_words(item.column, entity, False) == _column_words(item.column, table, False) for item in items):
            return None
        return table

    def _said_as_own(self, column: _Col, entity: _Table | None) -> bool:
        """Whether a column of a table the entity's rows point to reads as the entity's own: a poker player's name is
        the name of the person it points to. Not when the entity has a column of that name itself (a city's name is
        not its country's), nor when the joined rows play a part of their own (a flight's destination airport)."""
        table = column.table
        if entity is None or table is None or entity.sub is not None or table.sub is not None or table == entity:
            return False
        if table.role or table.via or not self.refers(entity, table) or _is_identifier(column):
            return False
        if self.names.parents_of(entity) != {table.key}:
            return False  # a treatment points to a dog and a professional: whose first name would "its" be?
        own = _column_words(column, table, False)
        entity_words = self.names.own_column_words(entity)
        if "name" in own.split() and any("name" in words.split() for words in entity_words):
            return False  # a car maker's country name is no name of the car maker's
        if own.split()[-1] in _NAMING_WORDS and not _plays_role(entity, table):
            return False  # a representative's name is no name of an election's; a person's is a poker player's
        return own not in entity_words

    def phrase(self, many: bool, count: int | None = None, conditions: str | None = None) -> str:
        """The whole result as a noun phrase: "the names and ages of the 250 students whose country is France"."""
        if self.group:
            return self._grouped_phrase(many, count) + self._sorted()
        entity = self.main
        only_aggregates = bool(self.items) and all(item.kind == "aggregate" for item in self.items)
        if only_aggregates:
            many, count = True, None  # one value about many rows: "the average age of students ..."
        where = _clauses(self.where, entity, many) if conditions is None else conditions
        if not where and conditions is None:
            where = self._matched(entity, many)
        extreme = self._extreme()
        if extreme is not None:
            rows = entity.noun(True) if entity is not None else "rows"
            return f"{extreme} of {rows}{where}" if where else f"{extreme} of all {rows}"
        if len(self.items) == 1 and self._is_entity_itself(self.items[0]):
            return self._entity_itself(many, count, where) + self._sorted()
        if all(item.kind == "star" for item in self.items):
            return f"all the information about {self._entity(entity, many, count, where)}{self._sorted()}"
        if only_aggregates and all(item.is_count for item in self.items):
            return f"the number of {entity.noun(True) if entity else 'rows'}{where}"
        if len(self.items) == 1 and _counts_keys(self.items[0]):
            # count(DISTINCT a key): the rows it names, "the number of different drivers of results ..."
            things = _different_things(self.items[0].column)
            rows = entity.noun(True) if entity is not None else "rows"
            return f"the number of {things}{'' if things.endswith(' ' + rows) else ' of ' + rows}{where}"
        if self.distinct:
            head, count = self._head(self.items, many, entity, count), None
        else:
            head = self._head(self.items, many, entity)
        keyed = self._keyed(entity) if conditions is None and not many and self.limit is None else None
        if keyed is not None:
            return f"{head} of {keyed}{self._sorted()}"
        return f"{head} of {self._entity(entity, many, count, where)}{self._sorted()}"

    def _keyed(self, entity: _Table | None) -> str | None:
        """One row picked by its own id, named as a person would: "template 4", not "the template whose template
        id is 4"."""
        if entity is None or entity.sub is not None or entity.record or len(self.where) != 1:
            return None
        cond = self.where[0]
        column = cond.item.column if isinstance(cond, _Cond) and cond.item is not None else None
        if column is None or cond.op != "=" or cond.negated or cond.subquery is not None or not cond.values:
            return None
        if column.table != entity or column.identifies != entity:
            return None
        if _column_words(column, entity, False).split()[-1] != "id":
            return None
        return f"{entity.noun(False)} {cond.values[0]}"

    def _is_entity_itself(self, item: _Item) -> bool:
        """A column that names its own table's rows ("continent" of continents, "model" of model lists)."""
        column = item.column
        return (
            item.kind == "column"
            and column is not None
            and column.table is not None
            and column.table.sub is None
            and _word_set(column.name) <= _word_set(column.table.name)
        )

    def _entity_itself(self, many: bool, count: int | None, where: str) -> str:
        name = self.items[0].column.name
        if self.distinct and many:
            amount = f"{count} " if count is not None else ""
            return f"the {amount}different {_noun(name, True)}{where}"
        return self._entity(_Table("", name), many, count, where)

    def _grouped_phrase(self, many: bool, count: int | None) -> str:
        on_subject, rest = self._where_split()
        subject_table = self.subject_table
        subject_words = _clauses(on_subject, subject_table, many) + self._having(many)
        plain = [item for item in self.items if item.kind != "aggregate"]
        is_subject = [
            (isinstance(self.subject, _Col) and item.column == self.subject)
            or (bool(self.subject_table and self.subject_table.role) and item.column == self.group[0])
            for item in plain
        ]
        if not self.aggregates:
            if len(plain) == 1 and is_subject[0]:  # only the grouped column: "the countries with more than 3 students"
                superlative = self._superlative()
                if superlative is not None and superlative[1]:
                    amount = f"{self.limit} " if self.limit != 1 else ""
                    return f"the {amount}{self._subject_noun(self.limit != 1)} {superlative[1]}{subject_words}"
                amount = f"{count} " if count is not None else ""
                return f"the {amount}{self._subject_noun(many)}{subject_words}"
            entity = subject_table or self.main
            if all(item.kind == "star" for item in plain):
                return f"all the information about {self._entity(entity, many, count, subject_words)}"
            return f"{self._head(plain, many, entity)} of {self._entity(entity, many, count, subject_words)}"
        # One row per group, each measured: "the full name and number of model lists for each car maker".
        measures = ["number" if item.is_count else _item_words(item) for item in self.aggregates]
        of = "" if _counts_keys(self.aggregates[-1]) else f" of {self._measured_noun()}"  # "different host cities"
        measures[-1] += f"{of}{_clauses(rest, self._measured_table(), True)}"
        shown = [item for item, subject in zip(plain, is_subject, strict=True) if not subject]
        # One list: "the id, total lesson time and number of lessons", not "the id and total ... and number ...".
        head = "the " + _join(
            [_column_words(item.column, subject_table, False) if item.column else _item_words(item) for item in shown]
            + measures
        )
        superlative = self._superlative()
        top = f" {superlative[1]}" if superlative is not None and superlative[1] else ""
        if any(is_subject) and ((top and self.limit == 1) or (superlative is None and not many)):
            # One group whose own value is shown: said as listed, "the language with the most songs and its number
            # of songs are bangla and 4", not "the number of songs for the language ... are bangla and 4".
            subject = f"the {self._subject_noun(False)}{top}{subject_words}"
            if self.items[0] is plain[0] and is_subject[0]:
                return f"{subject} and its {head.removeprefix('the ')}"
            return f"{head} and {subject}"
        if superlative is not None and superlative[1]:
            amount = f"{self.limit} " if self.limit != 1 else ""
            return f"{head} for the {amount}{self._subject_noun(self.limit != 1)} {superlative[1]}{subject_words}"
        if not many:
            return f"{head} for the {self._subject_noun(False)}{subject_words}"
        if count is not None:
            return f"{head} for each of the {count} {self._subject_noun(True)}{subject_words}"
        return f"{head} for each {self._subject_noun(False)}{subject_words}"

    def one_group(self, row: list) -> str | None:
        """The one group a count picks, told with its count: "The language with the most songs is Bangla, with 4
        songs.", "The room type with at least 45 rooms is Double, with 77 rooms." (a HAVING on the count that one
        group passes), never "the language with the most songs and its number of songs are Bangla and 4"; None for
        any other shape."""
        if not self.group or len(self.items) != 2 or len(row) != 2:
            return None
        shown, measure = self.items
        if shown.kind != "column" or not (measure.is_count or _counts_keys(measure)) or not self._picks_one(measure):
            return None
        # The grouped column itself, or the key a table is grouped by ("the department with the fewest enrolments is
        # MFL" for a teacher's department code).
        subject = (isinstance(self.subject, _Col) and shown.column == self.subject) or (
            self.subject_table is not None and shown.column == self.group[0]
        )
        on_subject, rest = self._where_split()
        number = row[1]
        if not subject or rest or isinstance(number, bool) or not isinstance(number, int):
            return None
        top = f" {self._superlative()[1]}" if self.limit == 1 else ""
        noun = self._counted_noun(number != 1, False) if measure.is_count else _different_things(measure.column)
        if number == 1 and not measure.is_count:
            noun = self.items[1].column.identifies.called(False)
        where = _clauses(on_subject, self.subject_table, False) + self._having(False)
        return _sentence(f"the {self._group_named()}{top}{where} is {_value(row[0])}, with {number} {noun}")

    def _group_named(self) -> str:
        """The one group, named by what its value names: grouped by a table's own name or title, the group is that
        table's row ("the venue with the most films is Odeon Screen 1", never "the venue name with the most films");
        any other column as `_subject_noun` says it ("the last name with the most employees")."""
        subject = self.subject
        if isinstance(subject, _Col) and subject.table is not None and subject.table.sub is None:
            words = subject.name.split()
            if words[-1] in _NAMING_WORDS and (len(words) == 1 or words[:-1] == subject.table.called(False).split()):
                return subject.table.noun(False)
            if words[-1] in _NAMING_WORDS and len(words) == 2 and words[0] not in _NAME_KINDS:
                return words[0]  # "the town with the most consults is Fareham" for a site's town name
        return self._subject_noun(False)

    def _picks_one(self, measure: _Item) -> bool:
        """Whether one group is picked by its count: ordered by the count shown and cut to one, or kept by a HAVING
        on that count alone (the result then has one row)."""
        if self.limit == 1 and not self.having and self.order:
            order = self.order[0][0]
            return (order.is_count, order.distinct, order.column) == (
                measure.is_count,
                measure.distinct,
                measure.column,
            )
        if self.limit is not None or self.order or len(self.having) != 1 or not isinstance(self.having[0], _Cond):
            return False
        return measure.is_count and self._count_phrase(self.having[0]) is not None

    def population(
        self, many: bool, count: int | None = None, conditions: str | None = None, *, distinct: bool = True
    ) -> str:
        """The rows the query is about, without what it shows of them: "students whose country is France"."""
        if self.group:
            on_subject, rest = self._where_split()
            words = self._subject_noun(many) + _clauses(on_subject, self.subject_table, many) + self._having(many)
            subject_table = self.subject_table or (self.subject.table if self.subject is not None else None)
            if not self.having and (rest or self.counted not in (None, subject_table)):
                words += f" with {self._counted_noun(True, with_conditions=True)}"
            return words
        entity = self.main
        noun = entity.noun(many) if entity is not None else ("rows" if many else "row")
        pair = self.names.pair_of(entity) if self.is_count_only and not self.where and entity is not None else None
        if pair is not None and len(self.tables) == 1:
            # Counted alone, a table pairing two others counts pairs: "32 pairs of a book and an author", never
            # "32 book authors" (which reads as 32 authors).
            one, two = (_with_article(table.noun(False)) for table in pair)
            noun = f"{'pairs' if many else 'pair'} of {one} and {two}"
        where = _clauses(self.where, entity, many) if conditions is None else conditions
        if not where:
            where = self._matched(entity, many)
        only = self.items[0] if len(self.items) == 1 else None
        if distinct and self.distinct and only is not None and only.kind == "column" and only.column is not None:
            if self._is_entity_itself(only):
                noun = f"different {_noun(only.column.name, True)}"
            else:
                owner = entity.noun(True) if entity else "rows"
                noun = f"different {_column_words(only.column, entity, True)} of {owner}"
        return f"{count} {noun}{where}" if count is not None else f"{noun}{where}"

    def _matched(self, entity: _Table | None, many: bool) -> str:
        """A join with no condition still keeps only the rows that have a match: " that have a pet" for students
        joined with has_pet; "" when nothing joined refers to the rows."""
        others = [table for table in self.tables if table != entity and table.sub is None]
        if entity is None or not any(self.refers(table, entity) for table in others):
            return ""
        if self._picked_by_other(self._order_table()):
            return ""  # "the hotel whose room has the highest floor" says it has one
        if entity.role and len(self.tables) == 1:
            return ""  # prereq's prerequisite ids: being one is what a row of it says
        other = self.names.as_rows_of(self._far_end(others), entity)
        related = self.names.relation_between(entity, other)
        if related is not None and related[2] and related[1].singular != "has":
            verb = related[1].plural if many else related[1].singular  # "students that play a video game"
            return f" that {verb} {_with_article(other.noun(False))}"
        return " " + _having(entity, other, "have" if many else "has", False, "")

    def nothing(self) -> str:
        """The sentence for an empty result."""
        if self.group and self.aggregates and not self.having:
            on_subject, rest = self._where_split()
            counted = self._counted_noun(True, False) + _clauses(rest, self.counted, True)
            subject = self._subject_noun(False) + _clauses(on_subject, self.subject_table, False)
            return f"There are no {counted} for any {subject}."
        return f"There are no {self.population(True).removeprefix('different ')}."  # not "no different pilots"

    def lead(self) -> int:
        """The result column that best names a row (a name rather than an id or a number), for listing rows."""
        named = [index for index, item in enumerate(self.items) if item.kind == "column" and item.column is not None]
        named.sort(key=lambda index: self.items[index].column.identifies is not None)
        return named[0] if named else 0

    def listing(self, rows: list) -> str | None:
        """A few grouped rows with one measure each, told per group: "The number of car makers for each continent
        is 4 for america and 7 for asia."; None for other shapes."""
        if not self.group or len(self.aggregates) != 1 or len(self.items) != 2 or any(len(row) != 2 for row in rows):
            return None
        measure = self.items.index(self.aggregates[0])
        key = 1 - measure
        if self.items[key].kind != "column":
            return None
        told = [f"{_value(row[measure])} for {self._named(row, key)}" for row in rows]
        measured_only = replace(self, items=[self.items[measure]])
        return _sentence(f"{measured_only.phrase(True)} is {_join(told)}")

    def labels(self) -> list[str] | None:
        """A short label per result column, for listing rows ("age", "number of students"); None with a star."""
        if any(item.kind == "star" for item in self.items):
            return None
        return [
            f"number of {self._counted_noun(True, False)}" if item.is_count else self._label(item)
            for item in self.items
        ]

    def _label(self, item: _Item) -> str:
        """A column's label said against the rows ("last name" of employees, "architect's name" of bridges)."""
        column = item.column
        if item.kind != "column" or column is None or column.table is None or self.main is None:
            return _item_words(item)
        return _column_words(column, self.main, False)

    def example(self, row: list) -> str:
        """For a long grouped result, one row in words: "For example, the number of students for France is 3."."""
        if not self.group or len(self.aggregates) != 1 or len(row) != len(self.items):
            return ""
        if not any(item.kind == "column" for item in self.items):
            return ""
        # A name reads better than an id: "for General Motors", not "for 4".
        position = self.items.index(self.aggregates[0])
        label = self.labels()[position]
        return f" For example, the {label} for {self._named(row, self.lead())} is {_value(row[position])}."

    def _named(self, row: list, index: int) -> str:
        """A row's value of column `index` as it names the row: a number that is a key with its table's noun ("for
        architect 1", not "for 1"), any other value as it is."""
        value, item = row[index], self.items[index]
        column = item.column if item.kind == "column" else None
        if column is None or isinstance(value, bool) or not isinstance(value, int | float):
            return _value(value)
        if isinstance(value, float):
            return _measured(column, value)
        keyed = _undeclared_key_of(column)
        if keyed:
            return f"{keyed} {_value(value)}"  # "for start station 2", not "for 2"
        if column.identifies is None:
            # A number that names a group only with its column: "for licence grade 2", "for queue position 1", never
            # "6 for 2"; a year reads as itself.
            if _is_time(column) or column.table is None:
                return _value(value)
            words = _noun(_column_words(column, column.table, False), False)
            measure, unit = words.rsplit(" in ", 1) if " in " in words else (words, "")
            if unit in _UNITS:
                return f"{_with_article(measure)} of {_value(value)} {unit}"  # "for a dose of 1 mg"
            if words.split()[-1] in _AMOUNT_WORDS:
                return f"{_with_article(words)} of {_value(value)}"  # "for a guest count of 0"
            return f"{words} {_value(value)}"
        if _column_words(column, column.identifies, False).split()[-1] not in _KEY_WORDS:
            return _value(value)
        return f"{column.identifies.noun(False)} {_value(value)}"


# Last words of a column that measures how much, whose value a group is known by as "a guest count of 2", "an hourly
# rate of 14.5" (a label is "fare zone 2").
_AMOUNT_WORDS = _MEASURE_WORDS | {"quantity", "rate", "price", "cost", "fee", "size", "weight", "length", "height"}


def _measured(column: _Col, value: float) -> str:
    """A group's value that is a measure (not a whole number): "for an hourly rate of 14.5", never "for 14.5"; a time
    or a value of no table's column as it is."""
    if _is_time(column) or column.table is None or column.identifies is not None:
        return _value(value)
    words = _noun(_column_words(column, column.table, False), False)
    if _participle(words.split()[-1]):
        return _value(value)  # "fare charged" names no noun to say "a ... of 2" with
    measure, unit = words.rsplit(" in ", 1) if " in " in words else (words, "")
    if unit in _UNITS:
        return f"{_with_article(measure)} of {_value(value)} {unit}"
    return f"{_with_article(words)} of {_value(value)}"


def _undeclared_key_of(column: _Col) -> str:
    """What a key the schema declares no foreign key for identifies, by its name: "start station" for trip's "start
    station id"; "" for any other column (a number such as "flight number" names no row)."""
    words = column.name.split()
    if column.identifies is not None or len(words) < 2 or words[-1] not in {"id", "ids", "code", "key"}:
        return ""
    return " ".join(words[:-1])


def _is_identifier(column: _Col) -> bool:
    """Whether a key column is said as an identifier ("student id", "code"), not as a value a person reads: an
    artist's name or a car's model may be keys too, and are still the row's name or model."""
    return column.identifies is not None and (not column.name or column.name.split()[-1] in _KEY_WORDS)


def _is_time(column: _Col | None) -> bool:
    """A date or time, a year ("birth year", "hire year"), or the year a row came about ("year founded", "year
    made")."""
    if column is None:
        return False
    if column.type == "time" or column.name.removeprefix("year ") in _COMING_ABOUT:
        return True
    words = column.name.split()
    if words[-1:] in (["date"], ["datetime"], ["timestamp"]):
        return True  # dates kept as text, as SQLite keeps them: "whose hire date is after 2020-01-01"
    years = words[-1:] == ["year"] or (len(words) == 2 and words[0] == "year" and _participle(words[1]))
    return column.type == "number" and years


def _extreme_word(item: _Item, descending: bool) -> str:
    if item.kind == "column" and _is_time(item.column):
        return "latest" if descending else "earliest"
    return "highest" if descending else "lowest"


def _and(conditions: list) -> list:
    joined: list = []
    for cond in conditions:
        if joined:
            joined.append("and")
        joined.append(cond)
    return joined


def _owner_noun(table: _Table, entity: _Table | None, many: bool) -> str:
    """Another table's rows as a noun said next to the entity's: a role that repeats the entity's name drops it (a
    staff member's "staff address" is their "address"), unless only a naming word would be left (a car's "car
    name")."""
    words = table.called(many).split()
    if entity is not None and entity.sub is None and len(words) > 1:
        entity_words = _word_set(entity.called(False))
        kept = list(words)
        while len(kept) > 1 and kept[0] in entity_words:
            kept.pop(0)
        if not set(kept) <= _KEY_WORDS | _NAMING_WORDS | {"names", "titles", "ids", "codes"}:
            words = kept  # but a car's "car name" stays: "a name" would say nothing
    return " ".join(words)


def _column_words(column: _Col, entity: _Table | None, many: bool) -> str:
    """A selected column named against the entity it is "of": "dorm name" of dorms is just "name"."""
    name = column.name
    about_entity = entity is not None and entity.sub is None and entity in (column.table, column.identifies)
    if about_entity:
        words = name.split()
        entity_words = _word_set(entity.name)
        if entity == column.identifies and entity != column.table and words[-1] in _KEY_WORDS:
            words = words[-1:]  # friend.student_id of high schoolers is their id
        while len(words) > 1 and words[0] in entity_words and words[1:] not in (["number"], ["no"], ["nr"]):
            words.pop(0)  # but "flight number" stays: "the number of the flights" would be a count
        if len(words) > 2 and words[-2] == "of" and words[-1] in entity_words:
            words = words[:-2]  # "cost of treatment" of a treatment is its cost
        name = " ".join(words)
    elif column.table is not None and column.table.sub is None and not (_word_set(name) & _word_set(column.table.name)):
        # Another table's column: "the student's age" of a pet; in the plural a compound ("student ages").
        owner = _owner_noun(column.table, entity, False)
        return _noun(f"{owner} {name}", True) if many else f"{owner}'s {name}"
    return _noun(name, True) if many else name


# ---------------------------------------------------------------------------------------------------------------
# Conditions as relative clauses
# ---------------------------------------------------------------------------------------------------------------


def _clauses(conditions: list, anchor: _Table | None, many: bool) -> str:
    """`[cond, "and", cond]` as " whose country is France and that are older than 20" (leading space), or ""."""
    if "or" not in conditions:
        # The rows' own conditions first: after "with a country whose ...", an "and whose ..." would read as the
        # country's too.
        own = [cond for cond in conditions if cond != "and" and not _clause_parts(cond, anchor, many)[0]]
        joined = [cond for cond in conditions if cond != "and" and _clause_parts(cond, anchor, many)[0]]
        conditions = _and(own + joined)
    parts: list[str] = []
    previous = ("", "", "")
    for cond in conditions:
        if cond in ("and", "or"):
            parts.append(cond)
            continue
        prefix, subject, predicate = _clause_parts(cond, anchor, many)
        repeated = parts and parts[-1] in ("and", "or")
        # Said once is enough: "with a pet whose type is cat and whose age is 3", "whose name is Ann or Bob".
        if repeated and prefix and prefix == previous[0]:
            prefix = ""
            if subject and subject == previous[1]:
                subject = ""
                if predicate.startswith("is ") and previous[2].startswith("is ") and not predicate.startswith("is not"):
                    predicate = predicate[3:]
        elif repeated and not prefix and not previous[0] and subject and subject == previous[1]:
            subject = ""
            if predicate.startswith("is ") and previous[2].startswith("is ") and not predicate.startswith("is not"):
                predicate = predicate[3:]
        parts.append(" ".join(part for part in (prefix, subject, predicate) if part))
        previous = _clause_parts(cond, anchor, many)
    return (" " + " ".join(parts)) if parts else ""


def _clause(cond: _Cond, anchor: _Table | None, many: bool) -> str:
    return " ".join(part for part in _clause_parts(cond, anchor, many) if part)


def _clause_parts(cond: _Cond, anchor: _Table | None, many: bool) -> tuple[str, str, str]:
    """A condition as (prefix, subject, predicate): ("with a concert", "whose year", "is 2014")."""
    be, have = ("are", "have") if many else ("is", "has")
    found = _subquery_clause(cond, anchor, have)
    if found is not None:
        return found
    item = cond.item
    column = item.column if item is not None else None
    op = _NEGATED_OPS[cond.op] if cond.negated and cond.op in _NEGATED_OPS else cond.op
    negated = cond.negated and cond.op not in _NEGATED_OPS
    if item is not None and item.kind == "column" and column is not None and column.name == "age" and op in "<>":
        if not negated and (anchor is None or column.table in (None, anchor)) and cond.values:
            return "", "", f"that {be} {'older' if op == '>' else 'younger'} than {cond.values[0]}"
    flagged = _flag_clause(cond, op, negated, anchor, many)
    if flagged is not None:
        return flagged
    prefix, subject = _subject(item, anchor, many)
    predicate = _predicate(cond, op, negated)
    plain = cond.op == "=" and op == "=" and not negated and cond.subquery is None and bool(cond.values)
    if plain and column is not None:
        found = _equal_clause(cond, column, anchor, be, prefix, subject)
        if found is not None:
            return found
    if subject and predicate.startswith("is ") and _is_plural(_head_word(subject)):
        predicate = "are " + predicate[3:]  # "whose earnings are greater than 300000"
    return prefix, subject, predicate


# Endings of a word that says what a row is (an adjective or a participle: "withdrawn", "optional", "ticketed",
# "climate controlled"), not what it has or how many: a number column named by one holds 1 for yes and 0 for no.
_STATE_ENDINGS = ("ed", "en", "wn", "al", "ic", "ive", "able", "ible", "ful", "ous")
# Words of a code that sorts rows into kinds ("type code", "status code"), which many rows share: no code a row is
# known by.
_CATEGORY_WORDS = frozenset({"type", "category", "kind", "class", "status", "group", "level", "grade"})
# A comparison with 0 or 1 that splits such a flag's rows: (operator, value) -> whether it keeps the yes rows.
_FLAG_TESTS = {
    ("=", "1"): True,
    (">", "0"): True,
    (">=", "1"): True,
    ("!=", "0"): True,
    ("=", "0"): False,
    ("<", "1"): False,
    ("<=", "0"): False,
    ("!=", "1"): False,
}


def _flag_words(column: _Col) -> str:
    """The words of a yes/no number column named by what its rows are ("withdrawn", "climate controlled", "optional";
    "is official" read as "official flag"), or "" for any other column."""
    words = column.name.split()
    if words[-1:] == ["flag"]:
        words = words[:-1]
    if column.type != "number" or not words or set(words) & (_KEY_WORDS | _MEASURE_WORDS):
        return ""
    stated = any(word.endswith(_STATE_ENDINGS) and word not in _IRREGULAR_PARTICIPLES for word in words)
    # A plural says how many ("goals scored"), not what a row is.
    return " ".join(words) if stated and not any(_is_plural(word) for word in words) else ""


# First words of a two-word compound adjective ("part time", "step free", "off peak", "multi club"): the pair says what
# a row is, hyphenated.
_COMPOUND_MODIFIERS = frozenset(
    {"part", "full", "step", "off", "multi", "non", "self", "high", "low", "long", "short", "all", "dual", "open"}
)


def _marked_words(column: _Col, many: bool) -> str:
    """What a yes/no number column named by a noun says a row is, after "that are": a column called a flag (by its
    name, or read as one from its values: `dialogs.assist.draft_for`) whose words name no state ("on call", "key
    account", "hub"). A person or a thing named by a word ending in -er or -or is one ("that are keyholders"), a
    phrase led by a preposition or ending in an irregular participle is said as it is ("that are on call", "that are
    paid"), any other noun as a mark ("that are marked as key account"); never "whose on call is 1". "" for any other
    column."""
    words = column.name.split()
    if column.type != "number" or len(words) < 2 or words[-1] != "flag" or set(words) & _MEASURE_WORDS:
        return ""
    words = words[:-1]
    if words[0] in _PREPOSITIONS or words[-1] in _IRREGULAR_PARTICIPLES:
        return " ".join(words)  # "that are on call", "that are paid"
    if len(words) == 1 and len(words[0]) > 4 and words[0].endswith(("er", "or")) and words[0].isalpha():
        return _plural_word(words[0]) if many else _with_article(words[0])
    if len(words) == 2 and words[0] in _COMPOUND_MODIFIERS:
        return "-".join(words)  # a compound adjective: "that are part-time", "that are step-free", "multi-club"
    return "marked as " + " ".join(words)


def _flag_clause(cond: _Cond, op: str, negated: bool, anchor: _Table | None, many: bool):
    """A yes/no column compared with 0 or 1 as what the rows are: "students that are withdrawn", "departments with a
    course that is not optional", never "whose withdrawn is greater than 0"; None for any other condition."""
    item = cond.item
    column = item.column if item is not None and item.kind == "column" else None
    if column is None or negated or cond.subquery is not None or len(cond.values) != 1:
        return None
    keeps = _FLAG_TESTS.get((op, str(cond.values[0]).strip("'")))
    words = (_flag_words(column) or _marked_words(column, many)) if keeps is not None else ""
    if not words:
        return None
    state = words if keeps else f"not {words}"
    if column.table in (None, anchor):
        return "", "", f"that {'are' if many else 'is'} {state}"
    prefix, subject = _subject(item, anchor, many)
    if not prefix.startswith("with "):
        return None
    return prefix, "", f"that is {state}"  # "with a course that is optional"


_CLAUSE_WORDS = _PREPOSITIONS | {"whose", "that", "which", "among", "and", "but", "named", ","}


def _plural_column(query, phrase: str) -> bool:
    """Whether one column's value is said with a plural noun ("the other details of ... are", "the cylinders of the
    car are 6"); a measure of many rows ("the maximum seats of all vehicles") is one value."""
    items = query.items if isinstance(query, _Select) else []
    head = _leading_noun(phrase)
    # A noun with one form for one and many ("headquarters", "series") agrees with the one value: "is USA".
    if isinstance(query, _Select) and query._extreme() is not None:
        return False  # one value picked by its own order: "the highest hours of all projects is 9684"
    return len(items) == 1 and items[0].kind == "column" and _is_plural(head) and _singular_word(head) != head


def _leading_noun(phrase: str) -> str:
    """The noun a whole noun phrase agrees with: the last word before its first preposition or clause ("details" of
    "the other details of the department named history", "country" of "the home country with the most ...")."""
    head = ""
    for word in phrase.replace(",", " , ").split():
        if word in _CLAUSE_WORDS:
            break
        head = word
    return head


def _head_word(phrase: str) -> str:
    """The noun a phrase agrees with: its last word, or the word before its first preposition ("number of deaths" is
    one number, "price in dollars" one price)."""
    words = phrase.split()
    for index, word in enumerate(words[1:], start=1):
        if word in _PREPOSITIONS:
            return words[index - 1]
    return words[-1]


def _having(anchor: _Table | None, had: _Table, have: str, negated: bool, conditions: str) -> str:
    """Rows that have (or have no) row of another table: "that have a pet", "that has no concert whose year is 2014";
    persons and a role they play are said as being it: "that are body builders", "that is not a perpetrator"."""
    if anchor is not None and _plays_role(had, anchor):
        if have == "have":
            return f"that are {'not ' if negated else ''}{had.noun(True)}{conditions}"
        return f"that is {'not ' if negated else ''}{_with_article(had.noun(False))}{conditions}"
    # A row of a table named after the rows' own ("student enrolment" of a student) is said without that name.
    noun = _owner_noun(had, anchor, False) if not had.record and had.sub is None else had.noun(False)
    if negated:
        return f"that {have} no {noun}{conditions}"
    return f"that {have} {_with_article(noun)}{conditions}"


def _plays_role(role: _Table, persons: _Table) -> bool:
    """Whether `role`'s rows are roles `persons` play: `persons` is named as persons and is all `role` points to."""
    names = role.names
    if not isinstance(names, _Names) or role.sub is not None or persons.sub is not None or role == persons:
        return False
    if not (_word_set(persons.called(False)) & _PERSON_NOUNS) or names.is_link(role):
        return False
    # One key to the persons: a table with two (a person and their friend) relates persons, it is no role.
    return names.parents_of(role) == {persons.key} and len(names._keys(role)) == 1


def _subquery_clause(cond: _Cond, anchor: _Table | None, have: str) -> tuple[str, str, str] | None:
    """An EXISTS condition, or one on what each row has (`cond.have`); None for any other condition."""
    if cond.op == "exists" and isinstance(cond.subquery, _Select):
        # EXISTS (SELECT ... FROM pets WHERE <linked to this row> ...) asks the same as an IN subquery.
        inner = cond.subquery
        had = inner.names.as_rows_of(inner.main, anchor)
        conditions = _clauses(inner.where, had, False)
        return "", "", _having(anchor, had, have, cond.negated, conditions)
    if cond.op == "exists":
        return "", "", f"for which there {'is no' if cond.negated else 'is'} {_with_sub_article(cond.subquery)}"
    if cond.have is not None and cond.side_of is not None and cond.have.role:
        # course_id IN (SELECT prereq_id FROM prereq JOIN course ... WHERE title = 'X'): prerequisites of that course
        inner: _Select = cond.subquery
        parent = cond.side_of
        conditions = _clauses(inner.where, parent, False)
        be = "are" if have == "have" else "is"
        side = _with_article(_noun(cond.have.role, False)) if be == "is" else _noun(cond.have.role, True)
        return (
            "",
            "",
            f"that {be} {'not ' if cond.negated else ''}{side} of {_with_article(parent.noun(False))}{conditions}",
        )
    if cond.have is not None:
        inner: _Select = cond.subquery
        conditions = _clauses(inner.where, cond.have, False)
        return "", "", _having(anchor, cond.have, have, cond.negated, conditions)
    return None


def _equal_clause(cond: _Cond, column, anchor: _Table | None, be: str, prefix: str, subject: str):
    """A column equal to one value, said as the column's own words read it ("ships lost in battle 5", "a dorm named
    Granite Court", "episodes that are written by Todd Casey"); None when the general wording fits better."""
    if column.via and column.identifies is not None and not prefix:
        return "", "", f"{column.via} {column.identifies.noun(False)} {cond.values[0]}"
    if column.table is not None and subject:
        own = _column_words(column, column.table, False)
        if own == "name" and subject.startswith("whose ") and (prefix or column.table == anchor or anchor is None):
            return prefix, "", f"named {cond.values[0]}"
        words = own.split()
        if len(words) > 1 and words[-1] in _PREPOSITIONS and _participle(words[-2]) and not prefix:
            return "", "", f"that {be} {own} {cond.values[0]}"  # never "bookings that are check in 2025-08-19"
    return None


def _with_sub_article(query) -> str:
    population = query.population(False) if isinstance(query, _Select) else query.phrase(False)
    return _with_article(population)


def _own_words(item: _Item) -> str:
    """An item as `_item_words` says it, a column named against its own table ("pets whose type is dog", not "whose
    pet type"; "ships whose disposition is Captured", not "whose disposition of ship")."""
    column = item.column
    if item.kind == "column" and column is not None and column.table is not None and column.table.sub is None:
        return _column_words(column, column.table, False)
    return _item_words(item)


def _subject(item: _Item | None, anchor: _Table | None, many: bool = False) -> tuple[str, str]:
    """Who a condition is about, seen from the `anchor` rows: ("", "whose age") on the rows themselves, ("with a
    concert", "whose year") on a joined table, ("that live in a dorm", "whose name") through a relation."""
    if item is None:
        return "", ""
    column = item.column
    words = f"whose {_item_words(item)}"
    if item.kind != "column" or column is None or column.table is None or anchor is None or column.table == anchor:
        return "", f"whose {_own_words(item)}"
    if anchor.record and column.table.sub is None:
        # The rows are a relation's records: the condition is on one of the things it relates.
        return "", f"in which the {column.table.noun(False)}'s {_column_words(column, column.table, False)}"
    found = anchor.names.relation_between(anchor, column.table) if isinstance(anchor.names, _Names) else None
    if found is not None:
        _, verb, anchor_is_subject = found
        other = _with_article(column.table.noun(False))
        words = f"whose {_column_words(column, column.table, False)}"
        if anchor_is_subject:
            return f"that {verb.plural if many else verb.singular} {other}", words
        if verb.singular == "has":
            return f"of {other}", words  # "pets of a student whose last name is Smith"
        it = " them" if many else " it"
        return f"with {other} {verb.participle}{it}", words
    named_in_column = _word_set(column.name) & _word_set(column.table.name)
    if column.table.sub is not None or (named_in_column and not column.table.role):
        return "", words
    if _is_person_of(anchor, column):
        return "", f"whose {_column_words(column, column.table, False)}"  # "body builders whose height is ..."
    if column.table.via:
        return f"{column.table.via} {_with_article(column.table.called(False))}", words  # "caused by a ship"
    return f"with {_with_article(_owner_noun(column.table, anchor, False))}", words  # "staff with an address"


# Nouns of a table whose rows are persons: a table that points to it alone (body builders, perpetrators, poker
# players) holds a role those persons play, so the person's columns are the role's own ("whose height").
_PERSON_NOUNS = frozenset({"person", "people", "individual"})


def _is_person_of(anchor: _Table, column: _Col) -> bool:
    """Whether `column` is of the persons `anchor`'s rows are roles of: `anchor` points to that table alone, it is
    named as persons, plays no role in the join, and `anchor` has no column of that name itself."""
    table, names = column.table, anchor.names
    if not isinstance(names, _Names) or table.role or table.via or column.identifies is not None:
        return False
    if not (_word_set(table.called(False)) & _PERSON_NOUNS) or names.parents_of(anchor) != {table.key}:
        return False
    return _column_words(column, table, False) not in names.own_column_words(anchor)


def _predicate(cond: _Cond, op: str, negated: bool) -> str:
    if cond.op == "like":
        return _like_predicate(cond.like or "", negated)
    if cond.op == "between":
        low, high = (cond.values + ["", ""])[:2]
        return f"is {'not ' if negated else ''}between {low} and {high}"
    if cond.op == "is":
        return "is not empty" if negated else "is empty"
    if cond.op == "true":
        return "is false" if negated else "holds"
    if cond.op == "in":
        query = cond.subquery
        if isinstance(query, _SetQuery) and query.operator == "union":
            # Either side will do: "is neither among the source airports of all flights nor among ...".
            one, two = query.left.phrase(True), query.right.phrase(True)
            return f"is neither among {one} nor among {two}" if negated else f"is among {one} or among {two}"
        if query is not None:
            return f"is {'not ' if negated else ''}among {query.phrase(True)}"
        if not negated:
            return f"is {_join(cond.values, 'or')}"
        if len(cond.values) == 2:
            return f"is neither {cond.values[0]} nor {cond.values[1]}"
        return f"is none of {_join(cond.values)}"
    phrases = _IS_PHRASES
    if cond.item is not None and cond.item.kind == "column" and _is_time(cond.item.column):
        phrases = _IS_PHRASES | _TIME_PHRASES  # "whose date reported is after 1971-06-15", "year founded is after"
    if cond.subquery is not None:
        return _AVERAGE_PHRASES[op] if _with_own_average(cond, op) else phrases[op].format(cond.subquery.phrase(False))
    value = cond.values[0] if cond.values else "a value"
    return phrases[op].format(value)


# A column compared with its own average over every row of its table, as English says it: "whose hourly rate is above
# average", never "whose hourly rate is greater than the average hourly rate of all employees".
_AVERAGE_PHRASES = {
    ">": "is above average",
    "<": "is below average",
    ">=": "is average or above",
    "<=": "is average or below",
}


def _with_own_average(cond: _Cond, op: str) -> bool:
    """Whether `cond` compares (by `op`, larger or smaller) a column with the average of that same column over all
    its table's rows (a subquery of one table, no condition, no grouping): "whose hourly rate is above average"."""
    query, item = cond.subquery, cond.item
    if op not in _AVERAGE_PHRASES or not isinstance(query, _Select) or item is None or item.column is None:
        return False
    if item.kind != "column":
        return False
    if query.where or query.group or query.having or query.limit is not None or len(query.tables) != 1:
        return False
    if len(query.items) != 1 or item.column.table is None:
        return False
    measure = query.items[0]
    column = measure.column
    if measure.kind != "aggregate" or measure.function != "average" or measure.distinct or column is None:
        return False
    return column.table is not None and (column.name, column.table.key) == (item.column.name, item.column.table.key)


def _like_predicate(pattern: str, negated: bool) -> str:
    body = pattern.strip("%")
    plain = "%" not in body and "_" not in body
    if plain and pattern.startswith("%") and pattern.endswith("%") and body:
        verb = "contains"
    elif plain and pattern.endswith("%") and body:
        verb = "starts with"
    elif plain and pattern.startswith("%") and body:
        verb = "ends with"
    elif "%" not in pattern:
        verb = "is"
    else:
        return f"{'does not match' if negated else 'matches'} the pattern '{pattern}'"
    if negated:
        verb = {
            "contains": "does not contain",
            "starts with": "does not start with",
            "ends with": "does not end with",
        }.get(verb, "is not")
    return f"{verb} '{body}'"


# ---------------------------------------------------------------------------------------------------------------
# Set operations
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _SetQuery:
    operator: str  # "union", "intersect", "except"
    left: object
    right: object
    order: list = field(default_factory=list)
    limit: int | None = None
    plural_head: bool = False  # the phrase names its columns in the plural whatever the rows ("the names of ...")

    def _same_rows(self) -> bool:
        left, right = self.left, self.right
        return (
            isinstance(left, _Select)
            and isinstance(right, _Select)
            and not left.group
            and not right.group
            and left.main == right.main
            and left._head(left.items, True, left.main) == right._head(right.items, True, right.main)
        )

    def _merged_conditions(self, many: bool) -> str | None:
        """Both sides filter the same rows: one list of conditions ("whose amenity name is TV Lounge but not Study
        Room"), or None when they cannot be told as one."""
        left, right = self.left, self.right
        left_where = _clauses(left.where, left.main, many)
        right_where = _clauses(right.where, right.main, many)
        if len(left.where) == 1 == len(right.where) and (self.operator == "union" or self._named_rows()):
            # Values that name no row may come from two rows: "the cards of members whose address is both A and B"
            # would say one member.
            one, two = left.where[0], right.where[0]
            if (
                one.op == two.op == "="
                and not one.negated
                and not two.negated
                and one.values
                and two.values
                and one.subquery is None
                and two.subquery is None
                and one.item is not None
                and two.item is not None
                and one.item.column == two.item.column
            ):
                if one.table is not None and left.main is not None and one.table != left.main:
                    # On a joined table each side may hold for another of its rows: "with a ship named Lettice and
                    # also one named HMS Atalanta", never "a ship whose name is both".
                    prefix, subject, first = _clause_parts(one, left.main, many)
                    _, _, second = _clause_parts(two, left.main, many)
                    other = " ".join(part for part in (subject, second) if part)
                    if prefix:
                        joined = {"union": "or one", "intersect": "and also one", "except": "but none"}[self.operator]
                        said = " ".join(part for part in (prefix, subject, first) if part)
                        return f" {said} {joined} {other}"
                subject = " ".join(part for part in _subject(one.item, left.main) if part)
                joined = {
                    "union": f"is {one.values[0]} or {two.values[0]}",
                    "intersect": f"is both {one.values[0]} and {two.values[0]}",
                    "except": f"is {one.values[0]} but not {two.values[0]}",
                }[self.operator]
                return f" {subject} {joined}"
        if self.operator == "union" and left_where and right_where:
            return f"{left_where} or{right_where}"
        had = self._had(many)
        if had is not None:
            return f"{left_where} and {had}" if left_where else f" {had}"
        if self.operator == "except" and right_where and (self._keyed_rows() or self._coded_rows()):
            return f"{left_where}, except those{right_where}"
        if self.operator == "intersect" and left_where and right_where and self._keyed_rows():
            if "or" not in left.where and "or" not in right.where:
                # The same rows' keys on both sides: one row meets both ("the ids of return items that are not
                # refunded and whose reason code is NLN").
                return f"{left_where} and{right_where}"
        return None

    def _named_rows(self) -> bool:
        """Whether the selected columns tell rows apart or name them (a key, or a name or title)."""
        return self._keyed_rows() or any(
            item.kind == "column" and item.column is not None and item.column.name.split()[-1] in _NAMING_WORDS
            for item in self.left.items
        )

    def _keyed_rows(self) -> bool:
        """Whether the selected columns tell rows apart (a key is among them): only then does removing values
        remove rows. EXCEPT on names removes names, and a dorm that shares its name with a removed one goes too."""
        return any(
            item.kind == "column" and item.column is not None and item.column.identifies for item in self.left.items
        )

    def _coded_rows(self) -> bool:
        """Whether the one column selected is a code or number rows are known by ("tracking numbers", "staff codes";
        not a code of a kind, "type code"): removing its values removes those rows."""
        items = self.left.items
        if len(items) != 1 or items[0].kind != "column" or items[0].column is None:
            return False
        words = items[0].column.name.split()
        return words[-1] in _KEY_WORDS and not set(words) & _CATEGORY_WORDS

    def _had(self, many: bool) -> str | None:
        """The right side joins other tables and filters only them: "that have no concert whose year is 2014"."""
        left, right = self.left, self.right
        if self.operator == "union" or any(cond != "and" and cond.table == right.main for cond in right.where):
            return None
        if not self._keyed_rows():
            return None
        if "or" in right.where:
            return None
        others = [table for table in right.tables if table != right.main and table.sub is None]
        if not others or left.tables != [left.main]:
            return None
        had = right.names.as_rows_of(right._far_end(others), right.main)
        conditions = _clauses(right.where, had, False)
        return _having(right.main, had, "have" if many else "has", self.operator == "except", conditions)

    def _key_had(self, many: bool) -> str | None:
        """The keys of one table's rows without (or with) a row of another that holds them: "the ids of customers
        that have no account (whose ...)" for `customer_id FROM customers EXCEPT customer_id FROM accounts`, never
        "other than the customer ids of all accounts". The other side's column must point to the key (a foreign
        key, or one of the same name where the schema declares none). None for any other set operation."""
        left, right = self.left, self.right
        if self.operator == "union" or not (isinstance(left, _Select) and isinstance(right, _Select)):
            return None
        if left.group or right.group or len(left.items) != 1 or len(right.items) != 1 or "or" in right.where:
            return None
        if left.main is None or right.main is None or left.main == right.main:
            return None
        if left.tables != [left.main] or right.tables != [right.main]:
            return None
        mine, theirs = left.items[0].column, right.items[0].column
        if mine is None or theirs is None or left.items[0].kind != "column" or right.items[0].kind != "column":
            return None
        if mine.identifies != left.main or theirs.identifies not in (left.main, None):
            return None
        if theirs.identifies is None and theirs.name != mine.name:
            return None
        conditions = _clauses(right.where, right.main, False)
        had = _having(left.main, right.main, "have" if many else "has", self.operator == "except", conditions)
        where = _clauses(left.where, left.main, many)
        return f"{where} and {had}" if where else f" {had}"

    def phrase(self, many: bool, count: int | None = None) -> str:
        if self._same_rows():
            merged = self._merged_conditions(many)
            if merged is not None:
                return self.left.phrase(many, count, merged) + self._ordered()
            right = self.right.population(True, distinct=False)
            left = self.left.population(True, distinct=False)
            head = self.left._head(self.left.items, True, self.left.main)
            noun = self.left.main.noun(True) if self.left.main is not None else ""
            if noun and right.startswith(noun + " "):
                right = "those" + right[len(noun) :]  # "of dorms but not of those with a student ..."
            self.plural_head = True
            values = self._values_with(many)
            if values is not None:
                return values + self._ordered()
            if self.operator == "except":
                return f"{head} of {left} but not of {right}{self._ordered()}"
            if self.operator == "intersect":
                return f"{head} both of {left} and of {right}{self._ordered()}"
        had = self._key_had(many)
        if had is not None:
            return self.left.phrase(many, count, had) + self._ordered()
        left, right = self.left.phrase(many), self.right.phrase(True)
        joined = {
            "union": f"{left}, together with {right}",
            "intersect": f"{left} that are also among {right}",
            "except": f"{left}, other than {right}",
        }[self.operator]
        return joined + self._ordered()

    def _values_with(self, many: bool) -> str | None:
        """One column's values kept or dropped by which rows hold them, said of the values: "the teams of pilots
        whose nationality is United States but of no pilot whose rank is less than 13" (EXCEPT), "the positions
        of both a player whose points are greater than 20 and one whose points are less than 10" (INTERSECT), never
        "the teams with a pilot whose ... and none whose ..." nor "the names both of dorms whose ... and of those
        whose ...". Names too, which two rows may share (a value of the left rows that no right row holds, or one that
        a row of each side holds); keys keep their own wording; None for any other shape."""
        left, right = self.left, self.right
        if self.operator == "union" or len(left.items) != 1 or self._keyed_rows() or left.main is None:
            return None
        item = left.items[0]
        if item.kind != "column" or item.column is None or item.column.table != left.main or left.main.sub is not None:
            return None
        if self._coded_rows():
            return None  # a code or number a row is known by ("staff codes"): no "staff codes of teachers but ..."
        noun, nouns = left.main.noun(False), left.main.noun(True)
        first = left.population(self.operator == "except", distinct=False)
        second = right.population(False, distinct=False)
        if not first.startswith(nouns if self.operator == "except" else noun) or not second.startswith(noun + " "):
            return None
        first = first[len(nouns if self.operator == "except" else noun) :]
        if not first and self._named_rows():
            return None  # all rows' names: "the names of dorms but not of those with a student ..."
        second = second[len(noun) :]
        values = _noun(_column_words(item.column, left.main, False), many)
        self.plural_head = many  # one value: "the position of both ... is Loose Forward"
        if self.operator == "except":
            if not first:
                return f"the {values} with no {noun}{second}"
            return f"the {values} of {nouns}{first} but of no {noun}{second}"
        if not first:
            return None
        return f"the {values} of both {_with_article(noun)}{first} and one{second}"

    def _ordered(self) -> str:
        words = ""
        if self.order:
            item, descending = self.order[0]
            words = f", sorted by {_item_words(item)}" + (" in descending order" if descending else "")
        if self.limit is not None:
            words += f", keeping the first {self.limit}"
        return words

    def population(self, many: bool, count: int | None = None, *, distinct: bool = True) -> str:
        if self._same_rows():
            merged = self._merged_conditions(many)
            if merged is not None:  # "students that have no pet whose pet type is cat"
                return self.left.population(many, count, merged, distinct=distinct)
        return self.phrase(many, count).removeprefix("the ")

    def lead(self) -> int:
        return self.left.lead()

    def listing(self, rows: list) -> str | None:
        return None

    def nothing(self) -> str:
        return f"There are no {self.population(True)}."

    @property
    def is_count_only(self) -> bool:
        return False

    @property
    def items(self) -> list[_Item]:
        return self.left.items

    def labels(self) -> list[str] | None:
        return self.left.labels()

    def example(self, row: list) -> str:
        return ""


# ---------------------------------------------------------------------------------------------------------------
# Folding the result into the sentence
# ---------------------------------------------------------------------------------------------------------------


def _fold(query, table: _ResultTable) -> str:
    has_star = any(item.kind == "star" for item in query.items)
    if table.complete and table.total == 0:
        return _sentence(query.nothing())
    if query.is_count_only and table.complete and table.total == 1 and len(table.rows[0]) == 1:
        number = table.rows[0][0]
        if isinstance(number, int) and not isinstance(number, bool):
            if number == 0:
                return _sentence(query.nothing())
            verb = "is" if number == 1 else "are"
            return _sentence(f"There {verb} {number} {query.population(number != 1)}")
    if table.complete and table.total == 1 and not has_star:
        told = query.one_group(table.rows[0]) if isinstance(query, _Select) else None
        if told is not None:
            return told
        values = [_value(value) for value in table.rows[0]]
        phrase = query.phrase(False)
        plural = len(values) > 1 or getattr(query, "plural_head", False) or _plural_column(query, phrase)
        return _sentence(f"{_subject_phrase(phrase)} {'are' if plural else 'is'} {_join(values)}")
    if table.complete and table.total <= FEW_ROWS and not has_star:
        listed = query.listing(table.rows)
        if listed is not None:
            return listed
        rows = [_row_words(row, query.labels(), query.lead()) for row in table.rows]
        return _sentence(f"{_subject_phrase(query.phrase(True))} are {_join(rows)}")
    # Too long to tell row by row (or a star's whole rows): describe it, the table shows it.
    count = table.total if table.total is not None and table.total > 1 and _countable(query) else None
    described = query.phrase(table.total != 1, count)
    text = _sentence(f"This shows {described}")
    if table.rows and table.shown > 1:
        text += query.example(_telling_row(table.rows, query.lead()))
    if table.complete and count is None and isinstance(query, _Select) and query.repeats_main():
        # The rows are joined rows: say how many there are without calling them entities, by the records they come
        # one of when there is one such table ("..., one for each of the 12 ratings").
        records = query.repeated_by()
        if records is not None and not query.example(table.rows[0] if table.rows else []):
            return _sentence(f"This shows {described}, one for each of the {table.total} {records.noun(True)}")
        return text + f" The result has {_count_of(table.total, 'row')}."
    return text + _partial_note(table, counted_in_sentence=count is not None and f" {count} " in described)


# Phrases set off by a comma inside a noun phrase ("..., sorted by age"): the phrase closes with one before its verb.
_PARENTHETICALS = (", sorted by ", ", together with ", ", other than ", ", except those", ", keeping the first ")


def _telling_row(rows: list, lead: int) -> list:
    """The first row whose naming value says something (an example "for an empty text" tells nothing)."""
    for row in rows:
        if 0 <= lead < len(row) and row[lead] not in (None, "") and str(row[lead]).strip():
            return row
    return rows[0]


def _subject_phrase(phrase: str) -> str:
    """A phrase with a parenthetical inside ("..., sorted by age") closes with a comma before its verb; a list's
    commas ("the id, name and nationality of ...") do not."""
    return f"{phrase}," if any(part in phrase for part in _PARENTHETICALS) else phrase


def _countable(query) -> bool:
    """Whether the number of rows reads naturally inside the phrase ("the 250 students", "each of the 12 countries")."""
    if not isinstance(query, _Select) or query.limit is not None or query.repeats_main():
        return False
    return not all(item.kind == "aggregate" for item in query.items) or bool(query.group)


def _row_words(row: list, labels: list[str] | None, lead: int) -> str:
    """One row in a list: its naming value, then the others labelled: "Tracy (age: 19)"."""
    values = [_value(value) for value in row]
    if len(values) == 1:
        return values[0]
    if labels is None or len(labels) != len(values):
        return "(" + ", ".join(values) + ")"
    lead = lead if 0 <= lead < len(values) else 0
    details = ", ".join(f"{labels[index]}: {values[index]}" for index in range(len(values)) if index != lead)
    return f"{values[lead]} ({details})"


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")
