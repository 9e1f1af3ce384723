"""Draft the expert's natural-language response to a result table they shared (system act CONFIRM_SQL).

The response a worker reads after a result (the `response` message of docs/protocol.md) must describe everything the
SQL asks, in plain words and without leaning on earlier turns, because the worker never sees SQL; a short result is
folded into the sentence ("There are 12 students who live in Smith Hall."), a long one is described ("This shows
...") with a word on how much of it the table holds. This package writes that draft from the SQL, the shared result
and the schema, so the expert starts from a faithful sentence and only polishes it.

Pure: no database access and no state. The SQL is read by `annotation.sql.spider.parse_sql`, so the datasets'
dialect (double-quoted values, `! =`) reads as it does everywhere else. Names come out readable: the schema's
`table_names`/`column_names` when a tables.json entry is given, otherwise the identifiers split into words. Whatever
the SQL, the answer is a sentence: SQL that cannot be read gets an honest generic draft, never an exception.

The package, imports running one way in this order: `result.py` the shared result and its values as words, the generic
draft; `names.py` how tables, columns and rows are named; `items.py` the pieces of a query (an item, a condition, a
literal); `conditions.py` conditions said without a subquery; `query.py` the described SELECT and set operation, with
their conditions as relative clauses; `reading.py` the syntax tree read into them; `folding.py` the result folded into
the sentence; `draft_response` here.
"""

from __future__ import annotations

from annotation.sql.spider import parse_sql
from annotation.wording.english import acronyms_capitalised as _acronyms_capitalised
from annotation.wording.response_drafts.folding import _fold, _kind_before_noun
from annotation.wording.response_drafts.names import _names_of
from annotation.wording.response_drafts.reading import _QueryBuilder
from annotation.wording.response_drafts.result import FEW_ROWS, GENERIC_DRAFT, _generic_draft, _ResultTable

__all__ = ["FEW_ROWS", "GENERIC_DRAFT", "draft_response"]


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
        return _acronyms_capitalised(_kind_before_noun(_fold(query, table)))
    except Exception:  # a draft is a convenience the expert edits anyway: an odd query must not break the room
        return _generic_draft(table)
