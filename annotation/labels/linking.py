"""Proposed schema links for one user turn, in CHASE's `schema_linking` form.

CHASE labels each question with the spans of its `utterance_toks` that mention the tables, columns and values its
SQL uses (docs/formats.md, "SParC, CoSQL state tracking, CHASE"). `propose_links` pre-fills that label by string
matching, for an annotator to correct; it reads the SQL and the schema only, never a database.

The output is shaped exactly as the CHASE release writes it, keys in alphabetical order like the rest of a CHASE
record, and passes `annotation.labels.acts.check_schema_linking`:

    {"beg": 3, "end": 4, "entity": {"tableId": 0, "value": "图书"}, "type": "table"}
    {"beg": 8, "end": 9, "entity": {"columnId": 6, "value": "平台名"}, "type": "column"}
    {"beg": 2, "end": 3, "entity": {"column": "名称", "columnId": 2, "value": "\\"北京%\\""}, "type": "value"}

`beg` and `end` are token indices, both included. A table's or column's `value` is its original name. A value's
`value` is the literal as the SQL writes it: a string in double quotes, inner spaces and LIKE wildcards kept
(`"\\" 5A\\""`, `"\\"北京%\\""`), and `column` is the original name of the column it is compared with. A number is
written as its SQL text without quotes; the CHASE release links no number to copy that form from, so it lives in one
place (`_value_text`).

What the SQL uses (read by `annotation.sql.spider.parse_sql`, in the datasets' dialect):
- every table named in a FROM or JOIN, at any depth;
- every column named anywhere except in the ON conditions of joins (join keys are plumbing the user does not ask
  for; a key that is also selected or filtered on counts), never `*`;
- every literal compared with a column (`=`, `!=`, `<` ..., LIKE, IN lists, BETWEEN), also through an aggregate
  (`max(age) > 30` is a value of `age`). A literal compared with `count(*)` has no column to name and is left out;
  a LIMIT count is not a value.
Names resolve as the encoder resolves them: a qualified name through its table or alias, an unqualified one to the
first FROM table that has it, then to the enclosing queries. A name the schema does not know is skipped, so the rest
still gets a proposal. SQL that does not parse gives no proposal (an empty list): the expert may be mid-edit and a
proposal is only a help. `sql_entities` raises `SpiderEncodingError` instead, for callers that want the reason.

How a mention is found. Every name goes through `annotation.labels.tokens.utterance_toks`, the tokenizer the utterance
itself went through, so a Chinese name becomes characters and an English one words; underscores and camelCase
humps separate words first. Tokens compare in lower case, English words through a plural-folding stem ("dorms" =
"dorm", "cities" = "city"), numbers by value ("40.0" = "40"); whitespace tokens of the utterance are skipped. A table
or column is looked for under its original and its readable name, a value under its text (quotes, outer spaces and
`%` removed) and, for a whole number up to ten, its spelled forms ("two", "second", "二", "第二").

A candidate is a run of utterance tokens equal to a run of a name's tokens. In Chinese, two runs that follow each
other in the name may be bridged by one particle (的, 之) in the utterance: "购买的人数" for 购买人数. A run shorter
than its name is kept only when it is meaningful: a third of the name or more, not made only of function words or
"id", in Chinese two characters or more. A value must be found whole. A single Chinese character links nothing
(it would match half the sentences) except a spelled number.

Candidates are taken greedily, best first: more name tokens matched, then a larger share of the name, then values
before columns before tables, then the entity the SQL names first, then the earlier span. A candidate overlapping a
span already taken is dropped, and each entity is linked once.

On CHASE's own dev sample (annotation/tests/test_linking.py measures it) about three proposals in four are exact
and about three gold links in five are found: CHASE annotators also linked paraphrases ("得分" for 评分) and often
let a table's mention stand for the name column the SQL shows, which string matching cannot know.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlglot import expressions as exp

from annotation.labels.tokens import utterance_toks as tokenize
from annotation.sql.spider import SpiderEncodingError, parse_sql, unwrap_paren

__all__ = ["LINK_TYPES", "SqlEntity", "propose_links", "sql_entities"]

# CHASE's link types, in the order equal candidates are preferred.
LINK_TYPES = ("value", "column", "table")


@dataclass(frozen=True)
class SqlEntity:
    """One table, column or value that a query uses: its CHASE `type` and `entity`, and the texts a mention of it
    may repeat (original and readable names, or a value's text and spelled forms)."""

    type: str
    entity: dict
    names: tuple[str, ...]

    @property
    def key(self) -> tuple:
        return (self.type, tuple(sorted(self.entity.items())))


# ---------------------------------------------------------------------------------------------------------------
# What the SQL uses
# ---------------------------------------------------------------------------------------------------------------

_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Like, exp.ILike)


def sql_entities(sql: str, schema: dict) -> list[SqlEntity]:
    """The tables, columns and values that `sql` uses on `schema` (one tables.json entry), each once: tables in the
    order the SQL names them, then columns and values in the order of a depth-first walk of the query (about the
    order of the text). Raises SpiderEncodingError when the SQL does not parse; unknown names are skipped."""
    tree = parse_sql(sql)
    tables = schema["table_names_original"]
    readable_tables = schema.get("table_names") or tables
    columns = schema["column_names_original"]
    readable_columns = schema.get("column_names") or columns
    resolver = _Resolver(schema)
    found: dict[tuple, SqlEntity] = {}

    def add(entity: SqlEntity) -> None:
        found.setdefault(entity.key, entity)

    for table in tree.find_all(exp.Table, bfs=False):
        table_id = resolver.table_ids.get(table.name.lower())
        if table_id is not None:
            entity = {"tableId": table_id, "value": tables[table_id]}
            add(SqlEntity("table", entity, (tables[table_id], readable_tables[table_id])))
    for node in tree.walk(bfs=False):
        if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star) and not _in_join_condition(node):
            column_id = resolver.column_id(node)
            if column_id:
                name = columns[column_id][1]
                add(SqlEntity("column", {"columnId": column_id, "value": name}, (name, readable_columns[column_id][1])))
        for column, literal in _compared_literals(node):
            column_id = resolver.column_id(column)
            if column_id:
                text = _value_text(literal)
                entity = {"column": columns[column_id][1], "columnId": column_id, "value": text}
                add(SqlEntity("value", entity, _value_forms(text)))
    return list(found.values())


def _in_join_condition(node: exp.Expr) -> bool:
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, exp.Select):
        if isinstance(parent, exp.Join) and parent.args.get("on") is child:
            return True
        child, parent = parent, parent.parent
    return False


def _column_of(operand: exp.Expr) -> exp.Column | None:
    """The column an operand names, through parentheses, aggregates and the left side of arithmetic."""
    node = unwrap_paren(operand)
    while isinstance(node, exp.AggFunc | exp.Distinct | exp.Binary):
        node = unwrap_paren(node.expressions[0] if isinstance(node, exp.Distinct) else node.this)
    if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
        return node
    return None


def _literal(operand: exp.Expr | None) -> exp.Expr | None:
    node = unwrap_paren(operand) if operand is not None else None
    if isinstance(node, exp.Literal) or (
        isinstance(node, exp.Neg) and isinstance(unwrap_paren(node.this), exp.Literal)
    ):
        return node
    return None


def _compared_literals(node: exp.Expr) -> list[tuple[exp.Column, exp.Expr]]:
    if isinstance(node, _COMPARISONS):
        pairs = [(_column_of(node.this), _literal(node.expression)), (_column_of(node.expression), _literal(node.this))]
    elif isinstance(node, exp.In):
        column = _column_of(node.this)
        pairs = [(column, _literal(item)) for item in node.expressions]
    elif isinstance(node, exp.Between):
        column = _column_of(node.this)
        pairs = [(column, _literal(node.args.get("low"))), (column, _literal(node.args.get("high")))]
    else:
        return []
    return [(column, literal) for column, literal in pairs if column is not None and literal is not None]


def _value_text(literal: exp.Expr) -> str:
    if isinstance(literal, exp.Neg):
        return "-" + unwrap_paren(literal.this).this
    return f'"{literal.this}"' if literal.is_string else literal.this


class _Resolver:
    """Table and column ids for the names in one query, with the encoder's scoping rules."""

    def __init__(self, schema: dict) -> None:
        self.table_ids: dict[str, int] = {}
        for table_id, name in enumerate(schema["table_names_original"]):
            self.table_ids.setdefault(name.lower(), table_id)
        self.column_ids: dict[tuple[int, str], int] = {}
        for column_id, (table_id, name) in enumerate(schema["column_names_original"]):
            if table_id >= 0:
                self.column_ids.setdefault((table_id, name.lower()), column_id)
        self._scopes: dict[int, tuple[dict[str, int], list[int]]] = {}

    def column_id(self, column: exp.Column) -> int | None:
        name, qualifier = column.name.lower(), column.table.lower()
        select = column.find_ancestor(exp.Select)
        if select is None:
            # An ORDER BY after a set operation hangs on the set operation; its names are the last SELECT's.
            select = _last_select(column.find_ancestor(exp.SetOperation))
        while select is not None:
            names, order = self._scope(select)
            if qualifier:
                if qualifier in names:
                    return self.column_ids.get((names[qualifier], name))
            else:
                for table_id in order:
                    if (table_id, name) in self.column_ids:
                        return self.column_ids[table_id, name]
            select = select.find_ancestor(exp.Select)
        return None

    def _scope(self, select: exp.Select) -> tuple[dict[str, int], list[int]]:
        """The names (tables and aliases) a SELECT's FROM and JOINs introduce, and its tables in order."""
        scope = self._scopes.get(id(select))
        if scope is None:
            names: dict[str, int] = {}
            order: list[int] = []
            for source in [select.args.get("from_"), *(select.args.get("joins") or ())]:
                table = source.this if source is not None else None
                table_id = self.table_ids.get(table.name.lower()) if isinstance(table, exp.Table) else None
                if table_id is None:
                    continue
                names[table.name.lower()] = table_id
                if table.alias:
                    names[table.alias.lower()] = table_id
                order.append(table_id)
            scope = self._scopes[id(select)] = (names, order)
        return scope


def _last_select(node: exp.Expr | None) -> exp.Select | None:
    while isinstance(node, exp.SetOperation | exp.Subquery | exp.Paren):
        node = node.expression if isinstance(node, exp.SetOperation) else node.this
    return node if isinstance(node, exp.Select) else None


# ---------------------------------------------------------------------------------------------------------------
# Normalised tokens
# ---------------------------------------------------------------------------------------------------------------

_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_ENGLISH_WORD = re.compile(r"[a-z]+")
_IRREGULAR_PLURALS = {"people": "person", "children": "child", "men": "man", "women": "woman", "feet": "foot"}
# A part of a name made only of these says nothing by itself ("of" in number_of_students, "id" in student_id).
_FUNCTION_WORDS = frozenset(
    "a an the of in on at to for from by with and or is are was be as per id no num".split() + list("的之和与及")
)
# Particles that may stand between two parts of a Chinese name in an utterance ("购买的人数" for 购买人数).
_CHINESE_PARTICLES = frozenset("的之")
_CHINESE_NUMERALS = "零一二三四五六七八九十"
_ENGLISH_NUMBERS = "zero one two three four five six seven eight nine ten".split()
_ENGLISH_ORDINALS = "zeroth first second third fourth fifth sixth seventh eighth ninth tenth".split()


def _stem(word: str) -> str:
    """Fold an English plural onto its singular; any other word is returned unchanged."""
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes")):
        return word[:-2]
    return word[:-1]


def _normalise(token: str) -> str:
    token = token.strip().lower()
    if _ENGLISH_WORD.fullmatch(token):
        return _stem(token)
    try:
        number = float(token)
    except ValueError:
        return token
    return str(int(number)) if number.is_integer() and abs(number) < 1e15 else token


def _name_tokens(name: str) -> tuple[str, ...]:
    """A schema name or value as normalised tokens, cut the way utterances are cut."""
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name.replace("_", " "))
    return tuple(token for token in map(_normalise, tokenize(text)) if token)


def _value_forms(text: str) -> tuple[str, ...]:
    bare = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
    bare = bare.strip().strip("%").strip()
    try:
        number = float(bare)
    except ValueError:
        return (bare,)
    if not (number.is_integer() and 0 <= number <= 10):
        return (bare,)
    n = int(number)
    forms = [bare, _ENGLISH_NUMBERS[n], _ENGLISH_ORDINALS[n], _CHINESE_NUMERALS[n], "第" + _CHINESE_NUMERALS[n]]
    return (*forms, "两") if n == 2 else tuple(forms)


# ---------------------------------------------------------------------------------------------------------------
# Matching
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    beg: int
    end: int  # included, as in CHASE
    matched: int  # name tokens matched
    share: float  # matched / tokens of the name
    rank: int  # the entity's place in sql_entities
    entity: SqlEntity

    def preference(self) -> tuple:
        return (-self.matched, -self.share, LINK_TYPES.index(self.entity.type), self.rank, self.beg)


def propose_links(utterance_toks: list[str], sql: str, schema: dict) -> list[dict]:
    """Proposed CHASE `schema_linking` spans for one turn: `utterance_toks` are the turn's tokens, `sql` its query,
    `schema` its database's tables.json entry. Sorted by `beg`, never overlapping, each entity linked at most once;
    empty when the SQL does not parse. The module docstring says what is matched and how."""
    try:
        entities = sql_entities(sql, schema)
    except SpiderEncodingError:
        return []
    # Whitespace tokens are skipped, so a name also matches across a space ("小米 应用商店").
    positions = [index for index, token in enumerate(utterance_toks) if token.strip()]
    words = [_normalise(utterance_toks[index]) for index in positions]

    candidates = []
    for rank, entity in enumerate(entities):
        for name in entity.names:
            tokens = _name_tokens(name)
            for start, stop, matched in _runs(words, tokens, whole_only=entity.type == "value"):
                share = matched / len(tokens)
                candidates.append(_Candidate(positions[start], positions[stop - 1], matched, share, rank, entity))
    candidates.sort(key=_Candidate.preference)

    taken: list[_Candidate] = []
    linked: set[tuple] = set()
    for candidate in candidates:
        if candidate.entity.key in linked:
            continue
        if any(candidate.beg <= other.end and other.beg <= candidate.end for other in taken):
            continue
        taken.append(candidate)
        linked.add(candidate.entity.key)
    taken.sort(key=lambda candidate: (candidate.beg, candidate.end))
    return [{"beg": c.beg, "end": c.end, "entity": dict(c.entity.entity), "type": c.entity.type} for c in taken]


def _runs(words: list[str], name: tuple[str, ...], *, whole_only: bool) -> list[tuple[int, int, int]]:
    """(start, stop, name tokens matched) of every meaningful run of `name` repeated in `words`."""
    if not name:
        return []
    # (start in words, offset in name, name tokens matched, words spanned) of every maximal common run.
    runs = []
    for start, word in enumerate(words):
        for offset, token in enumerate(name):
            if word != token or (start and offset and words[start - 1] == name[offset - 1]):
                continue  # not where a maximal run begins
            length = 1
            while start + length < len(words) and offset + length < len(name):
                if words[start + length] != name[offset + length]:
                    break
                length += 1
            runs.append((start, offset, length, length))
    chinese = _CJK.search("".join(name)) is not None
    if chinese:
        runs += [
            (first[0], first[1], first[2] + second[2], first[3] + 1 + second[3])
            for first in runs
            for second in runs
            if second[1] == first[1] + first[2]
            and second[0] == first[0] + first[3] + 1
            and words[first[0] + first[3]] in _CHINESE_PARTICLES
        ]
    found = []
    for start, offset, matched, spanned in runs:
        part = name[offset : offset + matched]
        if matched < len(name) and (whole_only or not _meaningful(part, len(name))):
            continue
        if chinese and len("".join(part)) < 2 and part[0] not in _CHINESE_NUMERALS:
            continue
        found.append((start, start + spanned, matched))
    return found


def _meaningful(part: tuple[str, ...], name_length: int) -> bool:
    """Whether a part of a name is evidence enough that the name is meant."""
    return 3 * len(part) >= name_length and not all(token in _FUNCTION_WORDS for token in part)
