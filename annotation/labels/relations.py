"""Which CHASE intent relations (R1-R16) lead from the previous turn's SQL to the current turn's SQL.

CHASE (Guo et al., 2021, section 3.1 and Table 12) shows the annotator of a follow-up question one of five intent
categories: Same Instances, Different Instances of the Same Entity, Different Entity, Display, or a Combination of
the others. `detect_relation` reads the category and its relations back from the two queries, so the platform can
label turns, check that a recommended intent was followed and count intents in a collection. It works on the parsed
SQL alone (sqlglot, in the datasets' dialect that `annotation.sql.spider` reads) plus, when known, the schema; no
database is opened. `read_pair` returns the same reading with the two query shapes, from which
`annotation.labels.relation_model` learns the category CHASE's annotators give (docs/chase.md).

Both queries are first reduced to a shape: every column is named `table.column` (aliases such as T1/T2 resolved; an
unqualified column belongs to the first FROM table whose schema has it, and without a schema only to the table of a
one-table FROM), literals are normalised, and a nested query is replaced by the shape of its own text. Two queries that
differ only in case, spacing, alias names or the order of AND-ed conditions have the same shape. A subquery in FROM
stands for its rows: its filters count as the outer query's, and its tables and entity as what the outer query
reads. Two set operations with the same operators are compared branch by branch. Shapes are cached by SQL text (and
schema object), so in a dialogue each query is parsed once, as the current query of one pair and the previous of the
next.

How each relation is read
-------------------------
Different Entity comes first and excludes the others (Table 12 never combines it). The entity of a query is the
table whose rows its result lists: for a grouped query, the tables of the GROUP BY keys; otherwise the FROM tables
less those joined as the parent of a reference (a foreign key of the schema, or failing one a join on exactly one
side's primary key). Joining a parent adds properties to the same rows (a student's dorm); joining a child lists the
child's rows (a company's products). R13 Change Entity holds when that entity changes, when the current SELECT
shows only columns of tables the previous query did not read, or when it shows only properties of joined parents
that the previous SELECT did not show: the answer then lists those parents' instances, whether or not the previous
query had joined them to filter ("the dramas Beijing TV shows" -> "the other stations showing them"; students'
courses -> the names of the students taking them). A property of the listed table itself describes the instances
the previous query read, so the reverse, `select student.name from student join student_course` -> `select
student_course.course_name from student join student_course` (the rows read were enrolments all along), is R3, not
R13. A grouped query lists its groups, so only an ungrouped SELECT asks about parents.
Without a schema the direction of a join is unknown, so R13 falls back to: the current SELECT shows a column (or
`*`) of a table the previous FROM did not have, or, showing none (`count(*)`), reads none of its tables.

Same Instances, from the two SELECT lists:
  R1 / R2 / R3  plain properties only added / only removed / both; `*` covers every column of its tables. A
                property that leaves the SELECT is removed even when a new filter or ORDER BY uses it ("routes and
                their days" -> "the route with most days" is R2 and R14, a combination).
  R4            GROUP BY gains keys; a key that enters the SELECT with it is part of R4, not of R1.
  R5 / R6 / R7  an aggregate over a column that had none / the same column under another function / an aggregate
                that disappears. When the whole plain projection turns into aggregates (`name` -> `count(*)`) or
                back, the plain columns that left or came are part of R5 / R7.
Different Instances of the Same Entity, from the filters: the conjuncts of WHERE and HAVING (and non-join conditions
of ON), compared as sets of normalised predicates; an equality between columns of two tables is a join, not a filter.
  R8  Subset      conditions only added, a disjunct dropped, a range tightened, an IN list shrunk (`=` with a
                  literal is a list of one), or an inner join added whose table neither the SELECT nor a filter uses
                  (it keeps only the instances with a match).
  R9  Superset    the reverse of each of those (`c = 'US'` -> `c = 'US' or c = 'China'`).
  R10 Disjoint    a column with one value per shown row compared with another value (`=`, IN lists with nothing
                  in common, ranges that do not meet): a column of a table the SELECT reads, or of a parent joined to
                  one (a student's dorm; with a schema only, since without one a join's direction is unknown).
  R11 Complement  a condition replaced by its negation: `=`/`!=`, LIKE/NOT LIKE, IN/NOT IN, `>`/`<=`, `<`/`>=` ...
  R12 Overlap     any other replacement: a condition on another column, another value of a column of a joined child
                  (Table 12: students taking "Python" vs "C++": one student can take both), a changed subquery.
Display:
  R14 ORDER BY or LIMIT added to a query that had neither.  R15 ORDER BY changed (keys, direction, LIMIT), added
  to a LIMIT, dropped, or only LIMIT changed.
  R16 DISTINCT added, or dropped from an otherwise unchanged SELECT list (when the list changes too, the dropped
  DISTINCT goes with the new list rather than being a display change of its own).

The category is the one category of all relations found, or "combination" when they span two or more.

Choices where CHASE is silent
-----------------------------
- No detectable change (the same shape, or a difference no relation reads, such as the order of the SELECT list):
  category "same_instances" with no relations. The question asks again for the same properties of the same
  instances (a rephrasing or a confirmation), which is Same Instances' own definition; the empty list tells a caller
  that no relation holds.
- A change outside R1-R16 (a UNION / INTERSECT / EXCEPT added, dropped or rearranged; GROUP BY dropped with nothing
  else changed): category "combination", with whatever relations were also found. CHASE's label for its fifth
  category is 其他, "other", and its annotators gave it to such rewrites.
- A pair that cannot be read raises `RelationError` with a message naming the query (previous/current): empty text,
  a syntax error, several statements, a statement that is not a query, and, with a schema, an unknown table, alias or
  column. Nothing is guessed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from sqlglot import expressions as exp

# The datasets' dialect (double-quoted values, `! =` written with a space) is defined once, in spider.py; relations
# must read a query exactly as the encoder does, so they share its dialect and parser rather than keep a second copy.
from annotation.sql.spider import SpiderEncodingError, or_branches, parse_sql, unwrap_paren

__all__ = [
    "CATEGORIES",
    "CATEGORY_OF",
    "RELATION_NAMES",
    "PairReading",
    "Relation",
    "RelationError",
    "clear_shape_cache",
    "detect_relation",
    "read_pair",
]

SAME_INSTANCES = "same_instances"
DIFFERENT_INSTANCES = "different_instances"
DIFFERENT_ENTITY = "different_entity"
DISPLAY = "display"
COMBINATION = "combination"
CATEGORIES = (SAME_INSTANCES, DIFFERENT_INSTANCES, DIFFERENT_ENTITY, DISPLAY, COMBINATION)

RELATION_NAMES = {
    "R1": "Add Property",
    "R2": "Remove Property",
    "R3": "Replace Property",
    "R4": "Add Group",
    "R5": "Add Aggregation",
    "R6": "Alter Aggregation",
    "R7": "Delete Aggregation",
    "R8": "Subset",
    "R9": "Superset",
    "R10": "Disjoint",
    "R11": "Complement",
    "R12": "Overlap",
    "R13": "Change Entity",
    "R14": "Add Order",
    "R15": "Alter Order",
    "R16": "Distinct",
}
CATEGORY_OF = {
    **dict.fromkeys(("R1", "R2", "R3", "R4", "R5", "R6", "R7"), SAME_INSTANCES),
    **dict.fromkeys(("R8", "R9", "R10", "R11", "R12"), DIFFERENT_INSTANCES),
    "R13": DIFFERENT_ENTITY,
    **dict.fromkeys(("R14", "R15", "R16"), DISPLAY),
}


class RelationError(ValueError):
    """One of the two queries cannot be read (empty, syntax error, not a query, or a name the schema lacks). No person
    reads its message: a room leaves the intent label out and logs it (dialogs/assist.py), so it stays English."""


@dataclass(frozen=True)
class Relation:
    """The intent category of a follow-up query and the CHASE relations (R1-R16, in number order) that hold."""

    category: str
    relations: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"category": self.category, "relations": list(self.relations)}


def detect_relation(previous_sql: str, current_sql: str, schema: dict | None = None) -> Relation:
    """The CHASE relations from `previous_sql` to `current_sql` and their category (see the module docstring).

    `schema` is a Spider tables.json entry; with it, unqualified columns of multi-table queries are attributed to
    their tables and unknown names are errors. Raises RelationError when either query cannot be read.
    """
    return read_pair(previous_sql, current_sql, schema).relation


@dataclass(frozen=True, slots=True)
class PairReading:
    """What `detect_relation` read from a pair: its answer, the two query shapes it compared (read-only; their fields
    are described on `_Query` and `_Select`), and whether the pair also changed in a way no relation describes.
    `annotation.labels.relation_model` takes finer features from the shapes than the relations keep."""

    relation: Relation
    previous: _Query
    current: _Query
    outside_relations: bool


def read_pair(previous_sql: str, current_sql: str, schema: dict | None = None) -> PairReading:
    """`detect_relation`'s reading of a pair, with the shapes behind it. Raises RelationError as it does."""
    previous = _shape_of("previous", previous_sql, schema)
    current = _shape_of("current", current_sql, schema)
    found, structural = _compare(previous, current, schema is not None)
    relations = tuple(sorted(found, key=lambda name: int(name[1:])))
    categories = {CATEGORY_OF[name] for name in relations}
    if structural or len(categories) > 1:
        category = COMBINATION
    elif categories:
        (category,) = categories
    else:
        category = SAME_INSTANCES
    return PairReading(Relation(category, relations), previous, current, structural)


# ---------------------------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------------------------

_AGGREGATES = {exp.Count: "count", exp.Max: "max", exp.Min: "min", exp.Sum: "sum", exp.Avg: "avg"}
_AGGREGATE_TYPES = tuple(_AGGREGATES)
_COMPARISONS = {exp.EQ: "=", exp.NEQ: "=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}
# `not a > 1` is `a <= 1`: negated ranges are written as their complements so that both spellings compare equal.
_NEGATED_RANGE = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
# `5 < a` is `a > 5`.
_MIRRORED = {"=": "=", ">": "<", ">=": "<=", "<": ">", "<=": ">="}
# Comparisons of one column with one value: complements, ranges that share nothing, and ranges inside others.
_COMPLEMENTARY_RANGES = ({">", "<="}, {">=", "<"})
_DISJOINT_RANGES = ({">", "<"}, {"=", ">"}, {"=", "<"})
_WITHIN = {("=", ">="), ("=", "<="), (">", ">="), ("<", "<=")}


# The shape classes are not frozen (a frozen dataclass is several times slower to build, and shapes are built on the
# hot path); nothing changes a shape after it is built.
@dataclass(slots=True)
class _Condition:
    """One AND-ed filter, normalised: `key` identifies it; the rest lets two different filters be compared."""

    key: str
    subject: str | None  # the left-hand side, or the common one of an OR's branches
    subject_tables: frozenset
    op: str  # "=", ">", ">=", "<", "<=", "like", "in", "between", "is", "exists", "or", or another node kind
    value: str
    negated: bool
    number: float | None = None  # a numeric right-hand side, for ranges
    members: frozenset | None = None  # the literals of an IN list
    disjuncts: frozenset = frozenset()  # the keys of an OR's branches


@dataclass(slots=True)
class _Select:
    """One SELECT block reduced to what the relations compare."""

    from_tables: tuple
    plain: dict  # property key -> tables it reads (insertion-ordered)
    aggregates: dict  # (function, argument key) -> tables it reads
    select_tables: frozenset  # the tables whose properties the SELECT shows (`*` counts all of its tables)
    single_valued: frozenset  # select_tables and the parents joined to them: one row of each per row shown
    entity: frozenset  # the tables whose rows the result lists
    asked: frozenset  # the SELECT's tables when it shows only properties of joined parents, else empty
    used_tables: frozenset  # tables named by a column outside ON (SELECT, filters, GROUP BY, ORDER BY)
    distinct: bool
    conditions: dict  # key -> _Condition
    group: frozenset
    order: tuple  # ((key, descending), ...)
    limit: str | None
    signature: str


@dataclass(slots=True)
class _Query:
    branches: tuple  # the SELECTs of a set operation, left to right; one for a plain SELECT
    operators: tuple  # "union", "intersect", "except" (+ " all") between them
    order: tuple
    limit: str | None
    signature: str
    # Over all branches: the FROM tables, the tables the SELECTs show, the entity, and the parents asked about (only
    # when every branch asks about parents).
    tables: frozenset
    shown: frozenset
    entity: frozenset
    asked: frozenset

    @classmethod
    def of(cls, branches: tuple, operators: tuple, order: tuple, limit: str | None, signature: str) -> _Query:
        if len(branches) == 1:
            only = branches[0]
            return cls(
                branches,
                (),
                order,
                limit,
                signature,
                frozenset(only.from_tables),
                only.select_tables,
                only.entity,
                only.asked,
            )
        tables = frozenset().union(*[branch.from_tables for branch in branches])
        shown = frozenset().union(*[branch.select_tables for branch in branches])
        entity = frozenset().union(*[branch.entity for branch in branches])
        asked = frozenset()
        if all(branch.asked for branch in branches):
            asked = asked.union(*[branch.asked for branch in branches])
        return cls(branches, operators, order, limit, signature, tables, shown, entity, asked)


class _Scope:
    """The names one SELECT can use: its FROM tables and aliases, its output aliases, and the enclosing scope."""

    __slots__ = ("derived", "derived_columns", "names", "parent", "select_aliases", "tables")

    def __init__(self, parent: _Scope | None) -> None:
        self.parent = parent
        self.names: dict = {}  # alias or table name (lower case) -> table
        self.tables: list = []  # FROM tables in order
        self.derived: dict = {}  # derived table (a subquery in FROM) -> its _Query
        self.derived_columns: dict = {}  # derived table -> its output column names
        self.select_aliases: dict = {}  # output alias -> expression


# Shapes are immutable and a dialogue's query is the current query of one pair and the previous query of the next, so
# each is built once. Keyed by id(schema) with the schema kept in the value: the id cannot be reused while cached.
_SHAPE_CACHE: dict = {}
_SHAPE_CACHE_SIZE = 4096
_INDEX_CACHE: dict = {}
_INDEX_CACHE_SIZE = 256
_CACHE_LOCK = threading.Lock()


def clear_shape_cache() -> None:
    """Forget every query shape read so far (benchmarks use it to measure parsing as well)."""
    with _CACHE_LOCK:
        _SHAPE_CACHE.clear()


def _shape_of(which: str, sql: str, schema: dict | None) -> _Query:
    if not isinstance(sql, str):
        raise RelationError(f"{which} query is not text but {type(sql).__name__}")  # i18n-exempt: logged, never shown
    key = (id(schema), sql)
    cached = _SHAPE_CACHE.get(key)
    if cached is not None and cached[0] is schema:
        return cached[1]
    if not sql or sql.isspace():
        raise RelationError(f"{which} query is empty")  # i18n-exempt: logged, never shown
    facts = _schema_facts(schema)
    try:
        shape = _Reader(facts).query(parse_sql(sql), None)
    except (SpiderEncodingError, RelationError) as error:
        raise RelationError(f"{which} query: {error}") from None  # i18n-exempt: logged, never shown
    except RecursionError:
        raise RelationError(f"{which} query is nested too deeply") from None  # i18n-exempt: logged, never shown
    with _CACHE_LOCK:
        if len(_SHAPE_CACHE) >= _SHAPE_CACHE_SIZE:
            _SHAPE_CACHE.pop(next(iter(_SHAPE_CACHE)))
        _SHAPE_CACHE[key] = (schema, shape)
    return shape


@dataclass(frozen=True, slots=True)
class _SchemaFacts:
    """What the relations need from a tables.json entry, all in lower case."""

    columns: dict  # table -> frozenset of its column names
    references: frozenset  # ((child table, column), (parent table, column)) per foreign key
    primary_keys: frozenset  # (table, column)


def _schema_facts(schema: dict | None) -> _SchemaFacts | None:
    if schema is None:
        return None
    cached = _INDEX_CACHE.get(id(schema))
    if cached is not None and cached[0] is schema:
        return cached[1]
    try:
        tables = [name.lower() for name in schema["table_names_original"]]
        named = [
            (tables[table_index], name.lower()) if 0 <= table_index < len(tables) else None
            for table_index, name in schema["column_names_original"]
        ]
        columns: dict = {name: set() for name in tables}
        for column in named:
            if column is not None:
                columns[column[0]].add(column[1])
        references = frozenset(
            (named[child], named[parent])
            for child, parent in schema.get("foreign_keys", ())
            if named[child] is not None and named[parent] is not None
        )
        primary_keys = frozenset(named[key] for key in schema.get("primary_keys", ()) if named[key] is not None)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise RelationError(  # i18n-exempt: logged, never shown
            f"schema is not a tables.json entry ({type(error).__name__}: {error})"
        ) from None
    index = _SchemaFacts({table: frozenset(names) for table, names in columns.items()}, references, primary_keys)
    with _CACHE_LOCK:
        if len(_INDEX_CACHE) >= _INDEX_CACHE_SIZE:
            _INDEX_CACHE.pop(next(iter(_INDEX_CACHE)))
        _INDEX_CACHE[id(schema)] = (schema, index)
    return index


def _number_text(text: str) -> str:
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)


def _numeric(node: exp.Expr) -> float | None:
    node = unwrap_paren(node)
    negative = isinstance(node, exp.Neg)
    if negative:
        node = unwrap_paren(node.this)
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            number = float(node.this)
        except ValueError:
            return None
        return -number if negative else number
    return None


class _Reader:
    """Builds the shape of one query; `facts` come from the schema (None: no schema)."""

    def __init__(self, facts: _SchemaFacts | None) -> None:
        self.facts = facts
        self.columns = facts.columns if facts is not None else None

    # -- queries ------------------------------------------------------------------------------------------------

    def query(self, node: exp.Expr, parent: _Scope | None) -> _Query:
        node = unwrap_paren(node)
        while isinstance(node, exp.Subquery):
            node = unwrap_paren(node.this)
        if isinstance(node, exp.Select):
            select, _ = self.select(node, parent)
            return _Query.of((select,), (), select.order, select.limit, select.signature)
        if isinstance(node, exp.SetOperation):
            return self.set_operation(node, parent)
        raise RelationError(f"expected a SELECT query, found {node.key.upper()}")  # i18n-exempt: logged, never shown

    def set_operation(self, node: exp.SetOperation, parent: _Scope | None) -> _Query:
        blocks: list = []
        operators: list = []
        self._flatten(node, blocks, operators)
        branches = []
        first_scope = None
        for block in blocks:
            select, scope = self.select(block, parent)
            branches.append(select)
            first_scope = first_scope or scope
        # An ORDER BY / LIMIT after the last SELECT orders the whole result; it names the first SELECT's columns.
        order = self._order(node.args.get("order"), first_scope)
        limit = self._limit(node.args.get("limit"), first_scope)
        chain = branches[0].signature
        for operator, branch in zip(operators, branches[1:], strict=True):
            chain = f"{chain} {operator} {branch.signature}"
        ordering = ",".join([f"{key} desc" if descending else key for key, descending in order])
        signature = f"{chain} order {ordering} limit {limit}"
        return _Query.of(tuple(branches), tuple(operators), order, limit, signature)

    def _flatten(self, node: exp.Expr, blocks: list, operators: list) -> None:
        node = unwrap_paren(node)
        while isinstance(node, exp.Subquery):
            node = unwrap_paren(node.this)
        if isinstance(node, exp.SetOperation):
            self._flatten(node.this, blocks, operators)
            operators.append(node.key + ("" if node.args.get("distinct") else " all"))
            self._flatten(node.expression, blocks, operators)
        elif isinstance(node, exp.Select):
            blocks.append(node)
        else:
            raise RelationError(  # i18n-exempt: logged, never shown
                f"expected a SELECT in a set operation, found {node.key.upper()}"
            )

    def select(self, node: exp.Select, parent: _Scope | None) -> tuple[_Select, _Scope]:
        items = node.expressions
        if not items:
            raise RelationError(  # i18n-exempt: logged, never shown
                "SQL syntax error: SELECT needs at least one result column"
            )
        args = node.args
        scope = _Scope(parent)
        conditions: dict = {}
        joins: dict = {}  # join equality text -> ((table, column), (table, column))
        used_tables: set = set()  # tables named by a column outside ON
        self._from(args.get("from_"), args.get("joins"), scope, conditions, joins, used_tables)

        plain: dict = {}
        aggregates: dict = {}
        select_tables: set = set()
        for item in items:
            if type(item) is exp.Alias:
                scope.select_aliases[item.alias.lower()] = item.this
                item = item.this
            item = unwrap_paren(item)
            kind = type(item)
            tables: set = set()
            function = _AGGREGATES.get(kind)
            # Each key is rendered before `frozenset(tables)` is taken: rendering fills `tables`.
            if function is not None:
                # count(*) counts the rows of the whole FROM; it shows no table's properties.
                key = (function, self.render(item.this, scope, tables))
                aggregates[key] = frozenset(tables)
            elif kind is not exp.Column and item.find(*_AGGREGATE_TYPES):
                key = ("expression", self.render(item, scope, tables))
                aggregates[key] = frozenset(tables)
            elif kind is exp.Star:
                plain["*"] = frozenset(scope.tables)
                select_tables.update(scope.tables)
            else:
                key = self.render(item, scope, tables)
                plain[key] = frozenset(tables)
            used_tables |= tables
            select_tables |= tables

        where = args.get("where")
        if where is not None:
            self._conditions(where.this, scope, conditions, joins, used_tables)
        having = args.get("having")
        if having is not None:
            self._conditions(having.this, scope, conditions, joins, used_tables)
        group_node = args.get("group")
        group_tables: set = set()
        if group_node is not None:
            group = frozenset([self.render(item, scope, group_tables) for item in group_node.expressions])
            used_tables |= group_tables
        else:
            group = frozenset()
        order = self._order(args.get("order"), scope, used_tables)
        limit = self._limit(args.get("limit"), scope)
        distinct = args.get("distinct") is not None
        entity, asked, single_valued = self._entity(scope, joins, group_tables, select_tables)

        if scope.derived:
            from_text = ",".join(
                sorted(f"({scope.derived[t].signature})" if t in scope.derived else t for t in scope.tables)
            )
            from_tables, select_tables, used_tables = self._read_through_derived(scope, select_tables, used_tables)
            single_valued = select_tables
        else:
            from_tables = tuple(scope.tables)
            from_text = ",".join(sorted(from_tables))
        signature = " ".join(
            (
                "select distinct" if distinct else "select",
                ",".join(plain),
                ",".join([f"{function}:{argument}" for function, argument in aggregates]),
                "from",
                from_text,
                "on",
                " and ".join(sorted(joins)),
                "where",
                " and ".join(sorted(conditions)),
                "group",
                ",".join(sorted(group)),
                "order",
                ",".join([f"{key} desc" if descending else key for key, descending in order]),
                f"limit {limit}",
            )
        )
        select_tables.discard(None)
        used_tables.discard(None)
        shape = _Select(
            from_tables,
            plain,
            aggregates,
            frozenset(select_tables),
            frozenset(single_valued) - {None},
            entity,
            asked,
            frozenset(used_tables),
            distinct,
            conditions,
            group,
            order,
            limit,
            signature,
        )
        return shape, scope

    def _from(self, from_, join_nodes, scope: _Scope, conditions: dict, joins: dict, condition_tables: set) -> None:
        if from_ is None:
            return
        sources = [(from_.this, None)]
        if join_nodes:
            sources.extend((join.this, join.args.get("on")) for join in join_nodes)
        for source, _on in sources:
            source = unwrap_paren(source)
            if isinstance(source, exp.Table):
                name = source.name.lower()
                if self.columns is not None and name not in self.columns:
                    raise RelationError(f"unknown table {source.name!r}")  # i18n-exempt: logged, never shown
                scope.names[name] = name
            elif isinstance(source, exp.Subquery):
                # A derived table is named by its place, not its alias, so that `(...) AS d` and `(...) AS x` agree.
                # It stands for the rows of its query: its filters are the outer query's too, and its tables and
                # entity are what the outer query reads.
                inner = self.query(source.this, scope.parent)
                name = f"(derived {len(scope.derived) + 1})"
                scope.derived[name] = inner
                scope.derived_columns[name] = self._output_names(source.this)
                conditions.update(inner.branches[0].conditions)
                condition_tables |= inner.tables
            else:
                raise RelationError(f"unsupported FROM item {source.sql()!r}")  # i18n-exempt: logged, never shown
            if source.alias:
                scope.names[source.alias.lower()] = name
            scope.tables.append(name)
        # ON is read after every table is known: `a JOIN b ON a.x = b.y` may name a table that comes later.
        for _source, on in sources:
            if on is not None and not (isinstance(on, exp.Boolean) and on.this):
                self._conditions(on, scope, conditions, joins, condition_tables)

    @staticmethod
    def _output_names(node: exp.Expr) -> frozenset:
        node = unwrap_paren(node)
        while isinstance(node, exp.Subquery | exp.SetOperation):
            node = unwrap_paren(node.this)
        if not isinstance(node, exp.Select):
            return frozenset()
        return frozenset(item.alias_or_name.lower() for item in node.expressions)

    # -- clauses ------------------------------------------------------------------------------------------------

    def _order(self, node: exp.Order | None, scope: _Scope | None, tables: set | None = None) -> tuple:
        if node is None:
            return ()
        return tuple(
            (self.render(ordered.this, scope, tables), bool(ordered.args.get("desc"))) for ordered in node.expressions
        )

    def _limit(self, node: exp.Limit | None, scope: _Scope | None) -> str | None:
        if node is None:
            return None
        text = self.render(node.expression, scope)
        offset = node.args.get("offset")
        return f"{text} offset {self.render(offset, scope)}" if offset is not None else text

    def _conditions(self, node: exp.Expr, scope: _Scope, out: dict, joins: dict, tables: set) -> None:
        node = unwrap_paren(node)
        if isinstance(node, exp.And):
            self._conditions(node.this, scope, out, joins, tables)
            self._conditions(node.expression, scope, out, joins, tables)
            return
        condition = self.condition(node, scope, tables, joins)
        if condition is not None:
            out[condition.key] = condition

    def condition(self, node: exp.Expr, scope: _Scope, tables: set, joins: dict | None = None) -> _Condition | None:
        """One filter as a _Condition; None for a join equality (recorded in `joins` when that is given)."""
        negated = False
        node = unwrap_paren(node)
        while isinstance(node, exp.Not):
            negated = not negated
            node = unwrap_paren(node.this)
        if isinstance(node, exp.Or):
            return self._disjunction(node, scope, tables, negated)

        kind = type(node)
        left = node.this
        right = node.args.get("expression")
        number = None
        members = None
        subject_tables: set = set()
        op = _COMPARISONS.get(kind)
        if op is not None:
            negated ^= kind is exp.NEQ
            if isinstance(unwrap_paren(left), exp.Literal) and not isinstance(unwrap_paren(right), exp.Literal):
                left, right, op = right, left, _MIRRORED[op]
            if joins is not None and op == "=" and not negated:
                join = self._join(left, right, scope)
                if join is not None:
                    joins[join[0]] = join[1]
                    return None
            if negated and op in _NEGATED_RANGE:
                op, negated = _NEGATED_RANGE[op], False
            value = self.render(right, scope, tables)
            number = _numeric(right)
        else:
            left, op, value, negate, members = self._predicate(node, scope, tables)
            negated ^= negate
        subject = self.render(left, scope, subject_tables) if left is not None else None
        tables |= subject_tables
        key = f"{'not ' if negated else ''}{subject} {op} {value}"
        return _Condition(key, subject, frozenset(subject_tables), op, value, negated, number, members)

    def _predicate(self, node: exp.Expr, scope: _Scope, tables: set) -> tuple:
        """(subject, op, value, negated, members) of a filter other than a comparison: LIKE, IN (a list of literals
        gives its `members`), BETWEEN, IS, and EXISTS or any other predicate, which have no subject."""
        left, right = node.this, node.args.get("expression")
        if isinstance(node, exp.Like | exp.ILike):
            return left, "like", self.render(right, scope, tables), bool(node.args.get("negate")), None
        if isinstance(node, exp.In):
            query = node.args.get("query")
            if query is not None:
                return left, "in", self.render(query, scope, tables), False, None
            members = frozenset([self.render(item, scope, tables) for item in node.expressions])
            return left, "in", "(" + ",".join(sorted(members)) + ")", False, members
        if isinstance(node, exp.Between):
            low = self.render(node.args["low"], scope, tables)
            return left, "between", f"{low} and {self.render(node.args['high'], scope, tables)}", False, None
        if isinstance(node, exp.Is):
            return left, "is", self.render(right, scope, tables), False, None
        if isinstance(node, exp.Exists):
            return None, "exists", self.render(node.this, scope, tables), False, None
        return None, node.key, self.render(node, scope, tables), False, None

    def _disjunction(self, node: exp.Or, scope: _Scope, tables: set, negated: bool) -> _Condition:
        branches = [self.condition(branch, scope, tables) for branch in or_branches(node)]
        subjects = {branch.subject for branch in branches}
        subject = subjects.pop() if len(subjects) == 1 else None
        keys = frozenset(branch.key for branch in branches)
        subject_tables = frozenset().union(*(branch.subject_tables for branch in branches))
        key = f"{'not ' if negated else ''}({' or '.join(sorted(keys))})"
        return _Condition(key, subject, subject_tables, "or", key, negated, disjuncts=keys)

    def _join(self, left: exp.Expr, right: exp.Expr, scope: _Scope) -> tuple[str, tuple] | None:
        """(text, ((table, column), (table, column))) when `left = right` joins two tables' columns, else None."""
        left, right = unwrap_paren(left), unwrap_paren(right)
        if type(left) is not exp.Column or type(right) is not exp.Column:
            return None
        left_column = self._resolve(left, scope)
        right_column = self._resolve(right, scope)
        if left_column[0] is None or right_column[0] is None or left_column[0] == right_column[0]:
            return None  # not a join; read as a filter, where an unknown name is reported
        if right_column < left_column:
            left_column, right_column = right_column, left_column
        return f"{left_column[0]}.{left_column[1]} = {right_column[0]}.{right_column[1]}", (left_column, right_column)

    @staticmethod
    def _read_through_derived(scope: _Scope, select_tables: set, used_tables: set) -> tuple[tuple, set, set]:
        """FROM tables, shown tables and used tables with each derived table replaced by the tables it reads."""
        from_tables: list = []
        for table in scope.tables:
            inner = scope.derived.get(table)
            from_tables.extend(sorted(inner.tables) if inner is not None else (table,))

        def expand(tables: set, attribute: str) -> set:
            expanded = set()
            for table in tables:
                inner = scope.derived.get(table)
                expanded.update(getattr(inner, attribute) if inner is not None else (table,))
            return expanded

        return tuple(dict.fromkeys(from_tables)), expand(select_tables, "shown"), expand(used_tables, "tables")

    def _entity(
        self, scope: _Scope, joins: dict, group_tables: set, shown: set
    ) -> tuple[frozenset, frozenset, frozenset]:
        """The tables whose rows the result lists, the parents it asks about, and the single-valued tables.

        The second set holds the SELECT's tables when it shows properties of joined parents only (`dorm_name` from
        `student JOIN dorm`); it is empty otherwise, and always for a grouped query or without a schema. The third
        holds the SELECT's tables and, following joins from child to parent, the parents of those: a shown row has
        one row of each, so two values of one of their columns select instances that share nothing (R10).
        """
        shown = shown - {None}
        if group_tables - {None}:
            return frozenset(self._real_tables(scope, group_tables - {None})), frozenset(), frozenset(shown)
        tables = scope.tables
        if self.facts is None:
            return frozenset(self._real_tables(scope, tables)), frozenset(), frozenset(shown)
        parent_of = []  # (child table, parent table) per join
        for left, right in joins.values():
            if (left, right) in self.facts.references:
                parent_of.append((left[0], right[0]))
            elif (right, left) in self.facts.references:
                parent_of.append((right[0], left[0]))
            elif (right in self.facts.primary_keys) != (left in self.facts.primary_keys):
                parent_of.append((left[0], right[0]) if right in self.facts.primary_keys else (right[0], left[0]))
        parents = {parent for _, parent in parent_of}
        listed = [table for table in tables if table not in parents] or tables
        asked = frozenset(shown) if shown and shown <= parents and shown.isdisjoint(listed) else frozenset()
        single_valued = set(shown)
        grown = bool(parent_of)
        while grown:
            before = len(single_valued)
            single_valued.update(parent for child, parent in parent_of if child in single_valued)
            grown = len(single_valued) > before
        return frozenset(self._real_tables(scope, listed)), asked, frozenset(single_valued)

    @staticmethod
    def _real_tables(scope: _Scope, tables) -> set:
        """`tables` with each derived table replaced by its query's entity."""
        real = set()
        for table in tables:
            inner = scope.derived.get(table)
            real.update(inner.entity if inner is not None else (table,))
        return real

    # -- expressions --------------------------------------------------------------------------------------------

    def render(self, node: exp.Expr, scope: _Scope | None, tables: set | None = None) -> str:
        """Canonical text of an expression; the tables of the columns it names (outside subqueries) go in `tables`."""
        kind = type(node)
        if kind is exp.Column:
            return self._column(node, scope, tables)
        if kind is exp.Literal:
            return f"'{node.this}'" if node.is_string else _number_text(node.this)
        if kind is exp.Paren:
            return self.render(node.this, scope, tables)
        if kind is exp.Star:
            return "*"
        function = _AGGREGATES.get(kind)
        if function is not None:
            return f"{function}({self.render(node.this, scope, tables)})"
        if kind is exp.Subquery or kind is exp.Select or isinstance(node, exp.SetOperation):
            return f"({self.query(node, scope).signature})"
        if kind is exp.Distinct:
            return "distinct " + ",".join(self.render(item, scope, tables) for item in node.expressions)
        parts = []
        for name, value in node.args.items():
            if isinstance(value, exp.Expr):
                parts.append(self.render(value, scope, tables))
            elif isinstance(value, list):
                parts.extend(self.render(item, scope, tables) for item in value if isinstance(item, exp.Expr))
            elif value is not None and value is not False:
                parts.append(f"{name}={value}")
        return f"{node.key}({','.join(parts)})"

    def _column(self, node: exp.Column, scope: _Scope | None, tables: set | None) -> str:
        table, name = self._resolve(node, scope)
        if table is None and scope is not None and node.args.get("table") is None:
            # SQLite lets WHERE / GROUP BY / ORDER BY name an output column by its alias.
            aliased = scope.select_aliases.get(name)
            if aliased is not None and aliased is not node:  # `SELECT x AS x` must not read itself
                return self.render(aliased, scope, tables)
            if self.columns is not None and scope.tables:
                raise RelationError(f"unknown column {node.name!r}")  # i18n-exempt: logged, never shown
        if tables is not None:
            tables.add(table)
        return f"{table}.{name}" if table is not None else name

    def _resolve(self, node: exp.Column, scope: _Scope | None) -> tuple[str | None, str]:
        """(table, column) of a column reference, table None when no FROM table is known to have it."""
        args = node.args
        this = args["this"]
        name = "*" if type(this) is exp.Star else this.this.lower()
        qualifier = args.get("table")
        if qualifier is None:
            return self._owner(name, scope), name
        table = self._table_for(qualifier.this.lower(), scope)
        known = self.columns.get(table) if self.columns is not None else None
        if known is not None and name != "*" and name not in known:
            raise RelationError(f"unknown column '{qualifier.this}.{this.this}'")  # i18n-exempt: logged, never shown
        return table, name

    @staticmethod
    def _table_for(qualifier: str, scope: _Scope | None) -> str:
        current = scope
        while current is not None:
            table = current.names.get(qualifier)
            if table is not None:
                return table
            current = current.parent
        raise RelationError(f"unknown table or alias {qualifier!r}")  # i18n-exempt: logged, never shown

    def _owner(self, name: str, scope: _Scope | None) -> str | None:
        """The table of an unqualified column: the first FROM table that has it, here and then in outer queries."""
        if self.columns is None:
            # Without a schema only a one-table FROM is sure to own the column.
            return scope.tables[0] if scope is not None and len(scope.tables) == 1 else None
        current = scope
        while current is not None:
            for table in current.tables:
                names = current.derived_columns.get(table)
                if names is None:
                    names = self.columns.get(table, ())
                if name in names:
                    return table
            current = current.parent
        return None


# ---------------------------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------------------------


def _compare(previous: _Query, current: _Query, with_schema: bool) -> tuple[set, bool]:
    """The relations found, and whether the pair also changed in a way no relation describes."""
    if previous.signature == current.signature:
        return set(), False
    if _entity_changed(previous, current, with_schema):
        return {"R13"}, False

    found: set = set()
    structural = previous.operators != current.operators
    if structural:
        pairs = [(previous.branches[0], current.branches[0])]
    else:
        pairs = zip(previous.branches, current.branches, strict=True)
    group_dropped = False
    for before, after in pairs:
        _compare_projection(before, after, found)
        _compare_filters(before, after, found)
        _compare_display(before.order, before.limit, after.order, after.limit, found)
        group_dropped = group_dropped or bool(before.group and not after.group)
    if previous.operators or current.operators:
        # The ORDER BY / LIMIT written after a set operation's last SELECT orders the whole result.
        _compare_display(previous.order, previous.limit, current.order, current.limit, found)
    if group_dropped and not found:
        structural = True
    return found, structural


def _compare_display(before_order: tuple, before_limit, after_order: tuple, after_limit, found: set) -> None:
    if not before_order and before_limit is None and (after_order or after_limit is not None):
        found.add("R14")
    elif before_order != after_order or before_limit != after_limit:
        found.add("R15")


def _entity_changed(previous: _Query, current: _Query, with_schema: bool) -> bool:
    shown = current.shown
    if with_schema:
        if previous.entity != current.entity or (shown and shown.isdisjoint(previous.tables)):
            return True
        # Properties of joined parents only, none of them shown before: the answer lists those parents' instances.
        return bool(current.asked) and current.asked.isdisjoint(previous.shown)
    # Without a schema the direction of a join is unknown: a property of a table the previous query did not read is
    # the only sign of a new entity.
    if shown:
        return not shown <= previous.tables
    return bool(current.tables) and current.tables.isdisjoint(previous.tables)


def _covered(key_tables: frozenset, stars: list) -> bool:
    return bool(key_tables) and any(key_tables <= star_tables for star_tables in stars)


def _is_star(key: str) -> bool:
    return key == "*" or key.endswith(".*")


def _compare_projection(before: _Select, after: _Select, found: set) -> None:
    if (
        before.plain.keys() == after.plain.keys()
        and before.aggregates.keys() == after.aggregates.keys()
        and before.group == after.group
        and before.distinct == after.distinct
    ):
        return
    added, removed = _shown_changes(before, after)
    new_groups = after.group - before.group
    if new_groups:
        found.add("R4")
        added = [key for key in added if key not in new_groups]
    added, removed = _compare_aggregates(before, after, found, added, removed)
    if added and removed:
        found.add("R3")
    elif added:
        found.add("R1")
    elif removed:
        found.add("R2")
    _compare_distinct(before, after, found)


def _shown_changes(before: _Select, after: _Select) -> tuple[list, list]:
    """The plain properties `after` shows that `before` did not, and those it no longer shows."""
    added = [key for key in after.plain if key not in before.plain]
    removed = [key for key in before.plain if key not in after.plain]
    # `*` shows every column of its tables: a column it replaces is still shown, one that replaces it was shown.
    new_stars = [after.plain[key] for key in added if _is_star(key)]
    if new_stars:
        removed = [key for key in removed if _is_star(key) or not _covered(before.plain[key], new_stars)]
    old_stars = [before.plain[key] for key in removed if _is_star(key)]
    if old_stars:
        added = [key for key in added if _is_star(key) or not _covered(after.plain[key], old_stars)]
    return added, removed


def _compare_aggregates(before: _Select, after: _Select, found: set, added: list, removed: list) -> tuple[list, list]:
    """The relations of the aggregates changed; `added` and `removed` (plain properties) without what the change of
    aggregates already tells."""
    added_aggregates = [key for key in after.aggregates if key not in before.aggregates]
    removed_aggregates = [key for key in before.aggregates if key not in after.aggregates]
    for function, argument in list(added_aggregates):
        altered = next((old for old in removed_aggregates if old[1] == argument), None)
        if altered is not None:
            found.add("R6")
            added_aggregates.remove((function, argument))
            removed_aggregates.remove(altered)
    if added_aggregates and removed_aggregates:
        # Aggregates over other columns: an aggregated property replaced (R3), under another function too (R6).
        found.add("R3")
        if {key[0] for key in added_aggregates} != {key[0] for key in removed_aggregates}:
            found.add("R6")
    elif added_aggregates:
        found.add("R5")
        if all(key in after.group for key in after.plain):
            removed = []  # the whole projection became aggregated: `name` -> `count(*)`
    elif removed_aggregates:
        found.add("R7")
        if all(key in before.group for key in before.plain):
            added = []  # the aggregates became plain properties: `count(*)` -> `name`
    return added, removed


def _compare_distinct(before: _Select, after: _Select, found: set) -> None:
    if after.distinct and not before.distinct:
        found.add("R16")
    elif before.distinct and not after.distinct:
        if list(before.plain) == list(after.plain) and list(before.aggregates) == list(after.aggregates):
            found.add("R16")


def _compare_filters(before: _Select, after: _Select, found: set) -> None:
    removed = [condition for key, condition in before.conditions.items() if key not in after.conditions]
    added = [condition for key, condition in after.conditions.items() if key not in before.conditions]
    unmatched_removed = []
    for old in removed:
        for new in added:
            relation = _condition_relation(old, new, after.single_valued)
            if relation is not None:
                found.add(relation)
                added.remove(new)
                break
        else:
            unmatched_removed.append(old)
    if unmatched_removed and added:
        found.add("R12")
    elif added:
        found.add("R8")
    elif unmatched_removed:
        found.add("R9")

    # An inner join that nothing reads still filters: only the instances with a matching row remain.
    joined = set(after.from_tables) - set(before.from_tables) - after.used_tables
    unjoined = set(before.from_tables) - set(after.from_tables) - before.used_tables
    if joined and unjoined:
        found.add("R12")
    elif joined:
        found.add("R8")
    elif unjoined:
        found.add("R9")


def _condition_relation(old: _Condition, new: _Condition, single_valued: frozenset) -> str | None:
    """How the instances of `new` relate to those of `old`, or None when the two filters are not comparable."""
    relation = _disjunction_relation(old, new)
    if relation is not None:
        return relation
    if old.subject is None or old.subject != new.subject:
        return None
    if old.op == new.op and old.value == new.value and old.negated != new.negated:
        return "R11"
    if old.negated or new.negated:
        return "R12"
    # Two values of a column with one value per shown row (the shown table's own, or a joined parent's) exclude each
    # other; of a joined child they need not (Table 12's R10 against R12: a student has one country but takes many
    # courses; a student's dorm is one dorm).
    disjoint = "R10" if old.subject_tables and old.subject_tables <= single_valued else "R12"
    if old.value == new.value:
        return _same_value_relation(old.op, new.op, disjoint)
    # An equality with a literal is an IN list of one: `c IN ('a', 'b')` -> `c = 'a'` keeps a subset.
    old_members, new_members = _members(old), _members(new)
    if old_members is not None and new_members is not None:
        if new_members < old_members:
            return "R8"
        if old_members < new_members:
            return "R9"
        return "R12" if old_members & new_members else disjoint
    if old.number is not None and new.number is not None and old.op in _MIRRORED and new.op in _MIRRORED:
        return _range_relation(old, new, disjoint)
    return "R12"


def _disjunction_relation(old: _Condition, new: _Condition) -> str | None:
    """A filter and a disjunction holding it, or two disjunctions of one subject, one holding the other's terms; None
    for any other pair."""
    if new.op == "or" and old.key in new.disjuncts:
        return "R9"
    if old.op == "or" and new.key in old.disjuncts:
        return "R8"
    if old.op == "or" and new.op == "or" and old.negated == new.negated and old.subject == new.subject:
        if old.disjuncts < new.disjuncts:
            return "R9"
        if new.disjuncts < old.disjuncts:
            return "R8"
    return None


def _same_value_relation(old_op: str, new_op: str, disjoint: str) -> str:
    """The same column against the same value (a number, a string, a subquery) under another comparison."""
    pair = {old_op, new_op}
    if pair in _COMPLEMENTARY_RANGES:
        return "R11"
    if pair in _DISJOINT_RANGES:
        return disjoint
    if (new_op, old_op) in _WITHIN:
        return "R8"
    if (old_op, new_op) in _WITHIN:
        return "R9"
    return "R12"


def _is_literal(condition: _Condition) -> bool:
    return condition.number is not None or condition.value.startswith("'")


def _members(condition: _Condition) -> frozenset | None:
    """The literals a column is matched against (an IN list, or `=` one literal), None for any other filter."""
    if condition.op == "in":
        return condition.members
    if condition.op == "=" and _is_literal(condition):
        return frozenset((condition.value,))
    return None


def _range_relation(old: _Condition, new: _Condition, disjoint: str) -> str:
    """Two comparisons of one column with numbers: which instances the new range keeps compared with the old."""
    old_low, old_high = _bounds(old)
    new_low, new_high = _bounds(new)
    if old_low[0] <= new_low[0] and new_high[0] <= old_high[0] and _inside(old, new):
        return "R8"
    if new_low[0] <= old_low[0] and old_high[0] <= new_high[0] and _inside(new, old):
        return "R9"
    if new_high[0] < old_low[0] or old_high[0] < new_low[0] or _touching(old, new):
        return disjoint
    return "R12"


def _bounds(condition: _Condition) -> tuple[tuple[float, bool], tuple[float, bool]]:
    """(low, low is open), (high, high is open) of `column op number`."""
    infinity = float("inf")
    number = condition.number
    if condition.op == "=":
        return (number, False), (number, False)
    if condition.op in (">", ">="):
        return (number, condition.op == ">"), (infinity, True)
    return (-infinity, True), (number, condition.op == "<")


def _inside(outer: _Condition, inner: _Condition) -> bool:
    """Whether the range of `inner` lies within that of `outer`, open ends included (numbers already checked)."""
    (outer_low, outer_low_open), (outer_high, outer_high_open) = _bounds(outer)
    (inner_low, inner_low_open), (inner_high, inner_high_open) = _bounds(inner)
    low_ok = inner_low > outer_low or not outer_low_open or inner_low_open
    high_ok = inner_high < outer_high or not outer_high_open or inner_high_open
    return low_ok and high_ok


def _touching(old: _Condition, new: _Condition) -> bool:
    """Ranges that meet at one number that one of them excludes (`< 5` and `>= 5`) share nothing."""
    (old_low, old_low_open), (old_high, old_high_open) = _bounds(old)
    (new_low, new_low_open), (new_high, new_high_open) = _bounds(new)
    return (old_high == new_low and (old_high_open or new_low_open)) or (
        new_high == old_low and (new_high_open or old_low_open)
    )
