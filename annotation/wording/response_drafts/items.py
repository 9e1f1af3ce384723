"""The pieces of what a query asks: one selected, ordered or compared expression (`_Item`), one condition
(`_Cond`), literals as words, and how an item, a count of different things or a group's measured value is said."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import expressions as exp

from annotation.sql.spider import unwrap_paren
from annotation.wording.english import MEASURES as _MEASURE_WORDS
from annotation.wording.english import UNITS as _UNITS
from annotation.wording.english import noun as _noun
from annotation.wording.english import participle as _participle
from annotation.wording.english import plural_word as _plural_word
from annotation.wording.english import with_article as _with_article
from annotation.wording.english import words_of as _words_of
from annotation.wording.response_drafts.names import _KEY_WORDS, _NAMING_WORDS, _Col, _column_words, _is_time, _Table
from annotation.wording.response_drafts.result import _value

_AGGREGATES = {exp.Max: "maximum", exp.Min: "minimum", exp.Avg: "average", exp.Sum: "total", exp.Count: "number"}
_ARITHMETIC = {exp.Add: "plus", exp.Sub: "minus", exp.Mul: "times", exp.Div: "divided by"}
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "!=", exp.GT: ">", exp.LT: "<", exp.GTE: ">=", exp.LTE: "<="}


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
    # A subquery's largest or smallest value taken over the rows the other conditions keep ("whose job is student and
    # whose age is the highest among them"): said against them, not with their conditions again.
    among_them: bool = False

    @property
    def table(self) -> _Table | None:
        return self.item.column.table if self.item is not None and self.item.column is not None else None


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


def _extreme_word(item: _Item, descending: bool) -> str:
    if item.kind == "column" and _is_time(item.column):
        return "latest" if descending else "earliest"
    return "highest" if descending else "lowest"
