"""One page of a table's content for the database browser and the rooms, read from a file that came from outside.

The file is hostile wherever the platform opens it (docs/curation.md), and a cell of it can hold 40 MB. It is opened
with the SQL sandbox's connection-level guards (annotation/sql/sandbox.py, `_open_readonly`: read-only and
immutable, query_only, trusted_schema off, no extension loading, no attached database, cell_size_check) and a time
bound, in the server's own process: the SQL here is the platform's (a count and one page of rows of a table named by
the stored schema), never a person's. What comes out is bounded whatever the file holds (docs/curation.md, "Table
content"):

- No text or BLOB value is read whole. The page's SELECT reads each cell's type only (typeof() reads no content) under
  a low LENGTH limit, so a statement that would load a large value fails instead; text and BLOB cells are then read
  through SQLite's incremental BLOB I/O: their size without reading them, and the head of a text.
- A text longer than TABLE_CELL_MAX_CHARS comes cut, as {"cut": head, "bytes": its size}; a BLOB comes as
  {"blob": its size}, never its content.
- A page's JSON stays under TABLE_PAGE_MAX_BYTES: when its cells together would pass it, the longest are cut further,
  all to the one length that fits, so that every row of the page is still there. A wide table gets fewer rows a page
  (MAX_CELLS_PER_PAGE), so that the bound holds with every text cut.
- A table with no rowid to read by (WITHOUT ROWID, or every rowid name taken by a column of the file) is read with
  substr() and length() in its SELECT instead: SQLite then loads each value in its own memory (at most the file's
  size), and Python gets the head only.
"""

from __future__ import annotations

import codecs
import json
import math
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

from django.utils.translation import gettext

# A page holds at most this many cells (rows x columns): 25 rows of up to 100 columns. Past it a page has fewer rows.
MAX_CELLS_PER_PAGE = 2_500
# Reading a page (its count included) stops past this many seconds: a crafted file must not hold a server thread.
READ_SECONDS = 5.0
# The LENGTH limit of the page's own SELECT: it never loads a text or BLOB value, so a load is an error.
_SELECT_MAX_LENGTH = 1_000_000
# What a cut text or a BLOB adds to a page beside its text, at most: {"cut": , "bytes": 2147483647}.
_MARKER_BYTES = 40
_CODECS = {"UTF-8": "utf-8", "UTF-16le": "utf-16-le", "UTF-16be": "utf-16-be"}


class TablePageError(ValueError):
    """The file refused to give this page (a damaged or crafted file, or a read past READ_SECONDS). A ValueError, as
    a page out of range is: the views answer both with 400 and the message."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _open(path: str | Path, deadline: float) -> sqlite3.Connection:
    connection = sqlite3.connect(
        f"file:{quote(str(path))}?mode=ro&immutable=1", uri=True, isolation_level=None, check_same_thread=False
    )
    if hasattr(connection, "enable_load_extension"):
        connection.enable_load_extension(False)
    for statement in (
        "PRAGMA query_only = ON",
        "PRAGMA trusted_schema = OFF",
        "PRAGMA cell_size_check = ON",
        "PRAGMA mmap_size = 0",
    ):
        connection.execute(statement)
    connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _SELECT_MAX_LENGTH)
    connection.set_progress_handler(lambda: time.monotonic() > deadline, 1_000)
    # A text that is not UTF-8 is shown with replacement characters rather than failing the page.
    connection.text_factory = lambda data: data.decode("utf-8", "replace")
    return connection


def _rowid_name(connection: sqlite3.Connection, quoted: str) -> str | None:
    """The name the table's rowid answers to, or None (WITHOUT ROWID, or every name taken by a column)."""
    taken = {str(row[1]).lower() for row in connection.execute(f"PRAGMA table_xinfo({quoted})")}
    for name in ("rowid", "_rowid_", "oid"):
        if name not in taken:
            try:
                connection.execute(f"SELECT {name} FROM {quoted} LIMIT 0")  # noqa: S608 - a fixed name
            except sqlite3.OperationalError:
                return None
            return name
    return None


def _head(data: bytes, codec: str, whole: bool, cut_chars: int) -> tuple[str, bool]:
    """The first `cut_chars` characters of `data` (a text's first bytes, or all of them when `whole`), and whether
    the text goes on past them."""
    decoder = codecs.getincrementaldecoder(codec)("replace")
    text = decoder.decode(data, final=whole)  # a character split at the end of a head is left out
    return text[:cut_chars], not whole or len(text) > cut_chars


class _Reader:
    def __init__(self, connection: sqlite3.Connection, table: str, cut_chars: int, file_size: int):
        self.connection, self.table, self.cut_chars = connection, table, cut_chars
        self.quoted = _quote(table)
        self.file_size = file_size
        self.rowid = _rowid_name(connection, self.quoted)
        encoding = connection.execute("PRAGMA encoding").fetchone()[0]
        self.codec = _CODECS.get(encoding, "utf-8")

    def text_or_blob(self, column: str, kind: str, rowid: int):
        """A text or BLOB cell of a rowid table, read by incremental BLOB I/O: never more than a head of it."""
        try:
            with self.connection.blobopen(self.table, column, rowid, readonly=True) as blob:
                size = len(blob)
                if kind == "blob":
                    return {"blob": size}
                wanted = 4 * self.cut_chars + 4  # enough bytes for cut_chars characters in UTF-8 or UTF-16
                head, cut = _head(blob.read(min(size, wanted)), self.codec, size <= wanted, self.cut_chars)
        except sqlite3.OperationalError:  # a virtual table, which BLOB I/O cannot open: what SQL gives, head only
            found = self.by_sql([column], f"WHERE {self.rowid} = {int(rowid)}")
            return found[0][0] if found else None
        return {"cut": head, "bytes": size} if cut else head

    def by_sql(self, columns: list[str], where: str = "", limit: int | None = None, offset: int = 0) -> list[list]:
        """Cells read with substr() and length() in the SELECT (a table without a rowid to read by)."""
        parts = []
        for column in columns:
            quoted = _quote(column)
            parts += [
                f"CASE typeof({quoted}) WHEN 'text' THEN substr({quoted}, 1, {self.cut_chars + 1}) "
                f"WHEN 'blob' THEN NULL ELSE {quoted} END",
                f"CASE typeof({quoted}) WHEN 'text' THEN length(CAST({quoted} AS BLOB)) "
                f"WHEN 'blob' THEN length({quoted}) ELSE -1 END",
            ]
        paging = f"LIMIT {int(limit)} OFFSET {int(offset)}" if limit is not None else ""
        # A stored value is never larger than its file: loading one must not fail on the page's low limit.
        self.connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, max(_SELECT_MAX_LENGTH, min(self.file_size, 2**31 - 1)))
        try:
            rows = self.connection.execute(
                f"SELECT {', '.join(parts)} FROM {self.quoted} {where} {paging}"  # noqa: S608 - names quoted
            ).fetchall()
        finally:
            self.connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _SELECT_MAX_LENGTH)
        cells = []
        for row in rows:
            shown = []
            for value, size in zip(row[::2], row[1::2], strict=True):
                if size == -1:
                    shown.append(_number(value))
                elif value is None:
                    shown.append({"blob": size})
                elif len(value) > self.cut_chars:
                    shown.append({"cut": value[: self.cut_chars], "bytes": size})
                else:
                    shown.append(value)
            cells.append(shown)
        return cells


def _number(value):
    if isinstance(value, float) and not math.isfinite(value):  # JSON has no infinities; the sandbox's words
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def _json_size(value) -> int:
    return len(json.dumps(value))  # as JsonResponse writes it: ASCII, with \\u escapes


def _text_of(cell) -> str | None:
    if isinstance(cell, str):
        return cell
    if isinstance(cell, dict) and "cut" in cell:
        return cell["cut"]
    return None


def _prefix_within(text: str, budget: int) -> str:
    """The longest head of `text` whose JSON string body takes at most `budget` bytes."""
    used = 0
    for position, character in enumerate(text):
        used += 1 if " " <= character <= "~" and character not in '"\\' else len(json.dumps(character)) - 2
        if used > budget:
            return text[:position]
    return text


def fit_page(page: dict, max_bytes: int) -> dict:
    """Cut the longest texts of `page["rows"]` to one common length, the largest that keeps the page's JSON within
    `max_bytes`; each text cut here becomes {"cut": head, "bytes": its size}, its size in UTF-8 when it came whole."""
    if _json_size(page) <= max_bytes:
        return page
    rows = page["rows"]
    texts = [(r, c, _text_of(cell)) for r, row in enumerate(rows) for c, cell in enumerate(row)]
    texts = [(r, c, text) for r, c, text in texts if text]
    weights = sorted(_json_size(text) - 2 for _r, _c, text in texts)
    fixed = _json_size(page) - sum(weights) + _MARKER_BYTES * len(texts)
    budget = max(0, max_bytes - fixed)
    # The largest common length `cap` with sum(min(weight, cap)) <= budget (water-filling, shortest first).
    cap, spent = 0, 0
    for position, weight in enumerate(weights):
        left = len(weights) - position
        if spent + weight * left <= budget:
            spent += weight
            cap = weight
            continue
        cap = (budget - spent) // left
        break
    else:
        return page
    for r, c, text in texts:
        if _json_size(text) - 2 > cap:
            cell = rows[r][c]
            size = cell["bytes"] if isinstance(cell, dict) else len(text.encode("utf-8", "replace"))
            rows[r][c] = {"cut": _prefix_within(text, cap), "bytes": size}
    return page


def read_table_page(
    path: str | Path,
    table: str,
    columns: list[str],
    *,
    page: int,
    per_page: int,
    cut_chars: int,
    max_bytes: int,
) -> dict:
    """Page `page` of `table`'s `columns` in the file at `path`, every cell bounded (the module's docstring):
    {table, columns, rows, total, page, pages, per_page}. `table` and `columns` come from the stored schema, never
    from a request. Raises ValueError for a page out of range, TablePageError when the file refuses."""
    per_page = max(1, min(per_page, MAX_CELLS_PER_PAGE // max(1, len(columns))))
    file_size = Path(path).stat().st_size
    connection = _open(path, time.monotonic() + READ_SECONDS)
    try:
        reader = _Reader(connection, table, cut_chars, file_size)
        total = connection.execute(f"SELECT count(*) FROM {reader.quoted}").fetchone()[0]  # noqa: S608 - quoted
        pages = max(1, -(-total // per_page))
        if not 1 <= page <= pages:
            raise ValueError(gettext("The page must be between 1 and %(pages)s.") % {"pages": pages})
        offset = (page - 1) * per_page
        if not columns:  # every column hidden by curation: the rows are there, with nothing shown of them
            rows = [[] for _ in range(min(per_page, total - offset))]
        elif reader.rowid is None:
            rows = reader.by_sql(columns, limit=per_page, offset=offset)
        else:
            kinds = ", ".join(
                f"CASE WHEN typeof({_quote(column)}) IN ('text', 'blob') THEN typeof({_quote(column)}) "
                f"ELSE {_quote(column)} END"
                for column in columns
            )
            rows = []
            found = connection.execute(
                f"SELECT {reader.rowid}, {kinds} FROM {reader.quoted} LIMIT {per_page} OFFSET {offset}"  # noqa: S608
            ).fetchall()
            for rowid_value, *cells in found:
                rows.append(
                    [
                        reader.text_or_blob(column, cell, rowid_value) if isinstance(cell, str) else _number(cell)
                        for column, cell in zip(columns, cells, strict=True)
                    ]
                )
    except sqlite3.Error as exc:
        if isinstance(exc, sqlite3.OperationalError) and "interrupted" in str(exc):
            raise TablePageError(
                gettext("Reading this table took longer than %(seconds)s s.") % {"seconds": f"{READ_SECONDS:g}"}
            ) from None
        raise TablePageError(gettext("This table cannot be read from the file: %(error)s.") % {"error": exc}) from None
    finally:
        connection.close()
    data = {
        "table": table,
        "columns": columns,
        "rows": rows,
        "total": total,
        "page": page,
        "pages": pages,
        "per_page": per_page,
    }
    return fit_page(data, max_bytes)
