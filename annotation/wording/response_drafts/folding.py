"""Folding the result into the sentence: a short result is told inside it, a long one described, with a word on
how much of it the table holds."""

from __future__ import annotations

import re

from annotation.wording.english import PREPOSITIONS as _PREPOSITIONS
from annotation.wording.english import is_plural as _is_plural
from annotation.wording.english import singular_word as _singular_word
from annotation.wording.english import with_article as _with_article
from annotation.wording.response_drafts.query import _Select
from annotation.wording.response_drafts.result import (
    FEW_ROWS,
    _count_of,
    _join,
    _partial_note,
    _ResultTable,
    _sentence,
    _value,
)

_CLAUSE_WORDS = _PREPOSITIONS | {"whose", "that", "which", "among", "and", "but", "named", ","}

# Rows said to be a kind of themselves: "pontoons that are shore power pontoons", "the employee that is a key account
# employee" (a flag named by a noun, `english.flag_state`), and what follows: the rows' next condition or none.
_OWN_KIND = re.compile(
    r"\b(?:(an?|the) )?((?:[a-z]+ ){0,2}[a-z]+) that (?:is|are) (?!not )(?:an? )?((?:[\w-]+ ){1,3}?)\2\b"
    r"( and(?= (?:whose|that|with|which)\b)| or)?"
)


def _kind_before_noun(text: str) -> str:
    """A flag named by a noun said before the rows' noun, as English puts a kind: "the codes of the shore power
    pontoons", "There are 4 shore power pontoons", "the dates of broadcast concerts whose venue's ...", never
    "pontoons that are shore power pontoons"; "that are not visitor pontoons" keeps its clause, and so does one
    another condition follows with "or"."""

    def before(found: re.Match) -> str:
        article, noun, kind, joined = found.group(1), found.group(2), found.group(3), found.group(4)
        if joined == " or":
            return found.group(0)
        said = f"{kind}{noun}"
        if article in ("a", "an"):
            return _with_article(said)
        return f"{article} {said}" if article else said

    return _OWN_KIND.sub(before, text)


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
