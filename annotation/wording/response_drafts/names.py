"""How tables, columns and rows are named: a schema's readable names (`_Names`, `_Table`, `_Col`), relation
tables read as verbs (`_Verb`), the role a joined row plays, and a column said against the rows it is "of"
(`_column_words`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from annotation.wording.english import COMING_ABOUT as _COMING_ABOUT
from annotation.wording.english import KEY_WORDS
from annotation.wording.english import PREPOSITIONS as _PREPOSITIONS
from annotation.wording.english import column_name as _column_name
from annotation.wording.english import english as _english
from annotation.wording.english import key_targets as _key_targets
from annotation.wording.english import noun as _noun
from annotation.wording.english import participle as _participle
from annotation.wording.english import per_schema as _per_schema
from annotation.wording.english import present_participle as _present_participle
from annotation.wording.english import rows_nouns as _rows_nouns
from annotation.wording.english import schema_vocabulary as _schema_vocabulary
from annotation.wording.english import singular_word as _singular_word
from annotation.wording.english import table_noun as _table_noun
from annotation.wording.english import with_article as _with_article
from annotation.wording.english import word_set as _word_set
from annotation.wording.english import words_of as _words_of

# Last words of a column that names rows without saying of what: grouped on, it is said with its table ("airport
# name", "customer first names").
_NAMING_WORDS = frozenset({"name", "title"})


# Words of a key column's name that say it is a key, not what it points to ("student id", "flight no").
_KEY_WORDS = KEY_WORDS
# Things English does not count, whose rows are counted as pieces ("pieces of equipment"); people named by a mass noun
# ("15 staff") are counted as they are.
_COUNTED_IN_PIECES = frozenset({"equipment", "furniture", "luggage", "baggage", "machinery", "jewellery", "jewelry"})
# Words naming how much of something there is, not a thing: a table named by one after what it measures ("stock level",
# "account balance") holds records of it, counted as records ("148 stock records", never "148 stock levels").
_MEASURED_STATES = frozenset({"level", "balance"})
# Words before "name" that say which of a thing's names it is, not what it names ("last name", "pet name").
_NAME_KINDS = frozenset(
    {"first", "last", "full", "middle", "given", "family", "sur", "nick", "short", "long", "display", "legal"}
    | {"maiden", "pet", "user", "screen", "trading", "common", "official", "scientific", "local", "english", "other"}
)


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
            return cls(f"{first} {rest}", f"{base} {rest}", f"{_present_participle(base)} {rest}")
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
        return cls(words[0], base, _present_participle(base))


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
        split = words.split()
        if len(split) >= 2 and _singular_word(split[-1]) in _MEASURED_STATES and not self.role:  # noqa: PLR2004
            return " ".join([*split[:-1], "records" if many else "record"])  # "148 stock records"
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
        self.table_names = _rows_nouns(
            self.table_names,
            column_originals,
            lambda i: _words_of(
                str((column_readable[i][1] if i < len(column_readable) else "") or column_originals[i][1])
            ),
        )
        self.column_types = [str(kind) for kind in schema.get("column_types") or []]
        for index, (table_index, original) in enumerate(column_originals):
            self.column_tables.append(table_index)
            name = column_readable[index][1] if index < len(column_readable) else original
            kind = self.column_types[index] if index < len(self.column_types) else "text"
            # "institutions whose year founded is after 1880", never "whose founded is"
            table = _words_of(str(originals[table_index])) if 0 <= table_index < len(originals) else ""
            self.column_names.append(_column_name(_words_of(str(name or original)), vocabulary, kind, table))
            if table_index >= 0:
                self.columns.setdefault((table_index, str(original).lower()), index)
        self.primary = {key for key in schema.get("primary_keys") or [] if isinstance(key, int)}
        pairs = [pair for pair in schema.get("foreign_keys") or [] if isinstance(pair, list | tuple) and len(pair) == 2]
        self.foreign = _key_targets(pairs, self.column_tables)

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
        if not self._keyed_by_its_keys(table):
            return None
        for first, second in (parents, parents[::-1]):
            head, tail = name[:-1], name[-1]
            if not _names_table(head, first):
                continue
            if _names_table([tail], second):
                return first, second  # "item allergen": a menu item and an allergen
            if _agent_noun(tail):
                return first, replace(second, role=tail)  # "issue assignee": an issue and a user, its assignee
        return None

    def _keyed_by_its_keys(self, table: _Table) -> bool:
        """Whether `table` holds one row per pair of the two rows its foreign keys name: its first column is one of
        them and the other is among its columns (the schema lists a key of several columns by its first)."""
        keys = self._keys(table)
        index = self.tables.get(table.key)
        own = [column for column, owner in enumerate(self.column_tables) if owner == index]
        return len(keys) == 2 and bool(own) and own[0] in self.primary and own[0] in {column for column, _ in keys}

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


def _names_table(words: list[str], table: _Table) -> bool:
    """Whether `words` name `table`'s rows: its noun ("menu item") or that noun's last word ("item")."""
    own = _noun(table.name, False, rows=True).split()
    return bool(words) and (words == own or words == own[-1:])


# Endings of a noun for whoever plays a part ("assignee", "tenant", "reviewer", "investigator", "participant"); a
# noun in -ment names a thing or an act ("segment", "assignment", "payment"), no one who plays a part.
_AGENT_ENDINGS = ("ee", "er", "or", "ant", "ent", "ist")


def _agent_noun(word: str) -> bool:
    return (
        word.isalpha()
        and len(word) > 4  # noqa: PLR2004
        and word.endswith(_AGENT_ENDINGS)
        and not word.endswith("ment")
        and not _participle(word)
    )


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
