"""Every CSV file the platform writes goes through `csv_text`: the one place that keeps a cell from being read as a
spreadsheet formula.

A cell that begins with `=`, `+`, `-` or `@` (or a tab or carriage return, which some spreadsheets skip before
reading the rest as a formula) runs as a formula when an admin opens the file: `=HYPERLINK(...)` in a campaign's
bonus reason or a crowd id becomes a link, and worse. Such a cell gets a leading single quote, which spreadsheets
read as "text follows" (the OWASP guidance on CSV injection). A plain number such as `-3` or `-0.50` stays a number.
"""

import csv
import io
import re
from collections.abc import Iterable

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# What spreadsheets read as a number, sign included: left alone, so that a negative figure stays one.
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def spreadsheet_cell(value) -> str | int | float:
    """`value` as a cell that a spreadsheet shows as written and never evaluates."""
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(rows: Iterable[Iterable], header: list[str] | None = None) -> str:
    """The CSV text of `rows` (after `header`, if given), each cell through `spreadsheet_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if header:
        writer.writerow([spreadsheet_cell(name) for name in header])
    writer.writerows([spreadsheet_cell(value) for value in row] for row in rows)
    return out.getvalue()
