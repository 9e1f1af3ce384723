"""The shared result table and how its values are said: a cell or literal as words (`_value`), counts and
lists of words, the generic draft for SQL that cannot be described, and the note on how much of a long result the
table shows."""

from __future__ import annotations

import re
from dataclasses import dataclass

from annotation.wording.english import noun as _noun

GENERIC_DRAFT = "Here is the result of your question."
# A result with at most this many rows is listed inside the sentence; a longer one is described.
FEW_ROWS = 3
_MAX_VALUE_CHARS = 60


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


def _and(conditions: list) -> list:
    joined: list = []
    for cond in conditions:
        if joined:
            joined.append("and")
        joined.append(cond)
    return joined


def _sentence(text: str) -> str:
    # a phrase closing its aside with a comma ("..., other than the names of ...,") before another comma or the end
    text = re.sub(r",\s*(?=[,.?!]|$)", "", " ".join(text.split()))
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")
