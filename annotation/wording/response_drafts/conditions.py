"""Conditions said as words without reading a described subquery: who a condition is about (`_subject`),
yes/no flags as what rows are, "that have a ...", a column equal to one value in its own words, LIKE patterns, and
the phrases of the comparisons."""

from __future__ import annotations

from annotation.wording.english import PREPOSITIONS as _PREPOSITIONS
from annotation.wording.english import flag_kept as _flag_kept
from annotation.wording.english import flag_state as _flag_state
from annotation.wording.english import participle as _participle
from annotation.wording.english import with_article as _with_article
from annotation.wording.english import word_set as _word_set
from annotation.wording.response_drafts.items import _Cond, _Item, _item_words
from annotation.wording.response_drafts.names import _Col, _column_words, _Names, _owner_noun, _Table

# A date or time compared, or a number column naming the year its row came about ("year founded": names._is_time):
# before and after, not less and greater.
_TIME_PHRASES = {
    ">": "is after {}",
    "<": "is before {}",
    ">=": "is on or after {}",
    "<=": "is on or before {}",
}


_NEGATED_OPS = {"=": "!=", "!=": "=", ">": "<=", "<": ">=", ">=": "<", "<=": ">"}
_COUNT_PHRASES = {
    "=": "exactly {}",
    "!=": "a number other than {} of",
    ">": "more than {}",
    "<": "fewer than {}",
    ">=": "at least {}",
    "<=": "at most {}",
}


# Words of a code that sorts rows into kinds ("type code", "status code"), which many rows share: no code a row is
# known by.
_CATEGORY_WORDS = frozenset({"type", "category", "kind", "class", "status", "group", "level", "grade"})


def _flag_clause(cond: _Cond, op: str, negated: bool, anchor: _Table | None, many: bool):
    """A yes/no column compared with 0 or 1 as what the rows are: "students that are withdrawn", "departments with a
    course that is not optional", never "whose withdrawn is greater than 0"; None for any other condition."""
    item = cond.item
    column = item.column if item is not None and item.kind == "column" else None
    if column is None or negated or cond.subquery is not None or len(cond.values) != 1:
        return None
    keeps = _flag_kept(op, cond.values[0])
    if keeps is None:
        return None
    if column.table in (None, anchor):
        words = _flag_state(column.name, column.type, many, _rows_noun(anchor))
        return ("", "", f"that {'are' if many else 'is'} {words if keeps else f'not {words}'}") if words else None
    prefix, subject = _subject(item, anchor, many)
    words = _flag_state(column.name, column.type, False, _rows_noun(column.table))
    if not prefix.startswith("with ") or not words:
        return None
    return prefix, "", f"that is {words if keeps else f'not {words}'}"  # "with a course that is optional"


def _rows_noun(table: _Table | None) -> str:
    """The plural noun a flag named by a noun is said before ("pontoons that are shore power pontoons", "with a
    port that is a customs port": `english.flag_state`, as the suggestions say it), or "" for rows said otherwise:
    a subquery's, or those pairing two others ("pairs of a vessel and an owner")."""
    names = table.names if table is not None and table.sub is None else None
    if not isinstance(names, _Names) or names.is_link(table) or names.pair_of(table) is not None:
        return ""
    return table.noun(True)


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
    other = _paired_with(column.table, anchor)
    if other is not None:
        # a row pairing the rows with another's says what they hold for it: "owners whose share percent for a vessel
        # is below average", never "owners with a vessel owner whose share percent ..." (the pair as a thing had)
        return "", f"whose {_column_words(column, column.table, False)} for {_with_article(other.called(False))}"
    return f"with {_with_article(_owner_noun(column.table, anchor, False))}", words  # "staff with an address"


def _paired_with(table: _Table, anchor: _Table) -> _Table | None:
    """The other side of `table` when it pairs `anchor`'s rows with another table's (vessel_owner of owners: the
    vessel), else None."""
    names = anchor.names
    pair = names.pair_of(table) if isinstance(names, _Names) and table.sub is None and anchor.sub is None else None
    keys = [side.key for side in pair] if pair is not None else []
    if anchor.key not in keys or keys[0] == keys[1]:
        return None
    return pair[1 - keys.index(anchor.key)]


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


# A column compared with its own average over every row of its table, as English says it: "whose hourly rate is above
# average", never "whose hourly rate is greater than the average hourly rate of all employees".
_AVERAGE_PHRASES = {
    ">": "is above average",
    "<": "is below average",
    ">=": "is average or above",
    "<=": "is average or below",
}


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
