"""Goal queries sampled from a database's schema and data, aimed at what a goal set covers least.

A lab that brings its own database has no goals. This module builds them the way docs/goals.md describes (after
OTTA's operation trees): an *operation tree* is drawn from the schema (a question type, a join path along foreign
keys, filters with values read from the data, grouping, a superlative, a nested comparison or a set operation),
written as SQL (annotation.goals.operation_tree), run in the sandbox, and kept only when it returns rows (a count or
an aggregate must not be 0 or empty), passes the rules of a question a person would ask (annotation.goals.rules,
which may also rewrite it; `refused` counts what each rule refused) and encodes under the Spider protocol; its hardness
is the official tool's level of that encoding. No SQL the database has (`existing`, discarded goals included) is
kept again.

Coverage control: every draw anchors on the table the goals so far (the existing goal set plus what this run kept)
use least, takes the least-used columns of the tables it reads, and aims at the hardness level furthest below its
share (uniform over the levels asked for, or over all four). `coverage()` reports the share of tables and of
columns a set of queries reads, the figures OTTA reports for its own sampler.

Pure but for reading values and running queries, both through the read-only sandbox; the random generator is
passed in, so a seed gives the same goals.

A run is made of candidates: drawing one tree (at most two reads of a column's values, and a column's figures the
first time the rules ask) or running one tree's SQL with the rules' few statements about it, each a sandbox statement
bounded by the sandbox's time limit. `sample` asks its `stop` callback before every
candidate, so a caller's time bound or cancel is heeded within one candidate's work.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sqlglot import expressions as exp

from annotation.goals.operation_tree import literal, tree_sql
from annotation.goals.rules import (
    RULES,
    GoalRules,
    count_per_group_shape,
    is_time_stamp,
    question_shape,
    round_numbers,
)
from annotation.sql.analysis import column_values
from annotation.sql.hardness import HARDNESS_LEVELS, hardness
from annotation.sql.sandbox import execute, execute_many
from annotation.sql.spider import SpiderEncodingError, encode_sql, parse_sql

# literal and tree_sql live in annotation.goals.operation_tree; named here too for the modules that import them here.
__all__ = ["GoalSampler", "SampledGoal", "coverage", "literal", "query_reads", "refusals_report", "tree_sql"]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_VALUES_PER_COLUMN = 20
# Draws per kept goal before a run gives up on the levels it cannot reach on this database.
_TRIES_PER_GOAL = 40
_BATCH = 16
# A level that gave nothing new in this many batches in a row is aimed at no more (a small database has few distinct
# easy queries); the others go on.
_MISSES_BEFORE_GIVING_UP = 6
# Goals a run keeps of one question shape (annotation.goals.rules.question_shape): the same question with other
# values is a new goal once, not four times.
_SAME_SHAPE = 2
# The question shapes a tree aimed at each hardness level is drawn from, and the join steps of those that join.
_SHAPES_OF_LEVEL = {
    "easy": ["list", "count"],
    "medium": ["list_filtered", "count_filtered", "aggregate", "group_count", "superlative", "join_list"],
    "hard": ["join_filtered", "nested", "group_having", "join_superlative"],
    "extra": ["set", "join_group_superlative", "nested_join"],
}
_JOIN_STEPS = {"join_list": 1, "join_filtered": 1, "join_superlative": 1, "nested_join": 1}


@dataclass(frozen=True)
class _Column:
    index: int  # in column_names_original
    table: str  # original table name
    name: str  # original column name
    kind: str  # tables.json type: "text", "number", "time", "others", "boolean"
    is_key: bool


@dataclass
class SampledGoal:
    sql: str
    hardness: str
    tree: dict
    rows: int = 0

    def as_line(self) -> dict:
        return {"sql": self.sql, "hardness": self.hardness, "tree": self.tree}


@dataclass
class _Usage:
    tables: Counter = field(default_factory=Counter)
    columns: Counter = field(default_factory=Counter)
    levels: Counter = field(default_factory=Counter)


class GoalSampler:
    """Samples goal queries for one database: `schema` (its tables.json entry) and `path` (its SQLite file)."""

    def __init__(self, schema: dict, path: str | Path, rng: random.Random, *, existing: Iterable[str] = ()) -> None:
        self.schema = schema
        self.path = str(path)
        self.rng = rng
        originals = schema["table_names_original"]
        keys = set(schema.get("primary_keys") or []) | {
            index for pair in schema.get("foreign_keys") or [] for index in pair
        }
        types = schema.get("column_types") or []
        self.columns: dict[str, list[_Column]] = {name: [] for name in originals}
        for index, (table, name) in enumerate(schema["column_names_original"]):
            if table < 0 or not _IDENTIFIER.match(name) or not _IDENTIFIER.match(originals[table]):
                continue
            kind = types[index] if index < len(types) else "text"
            self.columns[originals[table]].append(_Column(index, originals[table], name, kind, index in keys))
        self.tables = [name for name in originals if self.columns.get(name) and name.lower() != "sqlite_sequence"]
        # Foreign keys as joins: (child table, child column, parent table, parent column).
        self.links: list[tuple[str, str, str, str]] = []
        names = schema["column_names_original"]
        for child, parent in schema.get("foreign_keys") or []:
            (child_table, child_column), (parent_table, parent_column) = names[child], names[parent]
            if child_table != parent_table and all(_IDENTIFIER.match(n) for n in (child_column, parent_column)):
                self.links.append((originals[child_table], child_column, originals[parent_table], parent_column))
        # A table without rows gives no goal: it is left out (a lab sees it in the coverage figures). EXISTS reads
        # one row where count(*) would read them all: a big file's start costs no more than a small one's.
        found = execute_many(self.path, [f"SELECT EXISTS (SELECT 1 FROM {table})" for table in self.tables])  # noqa: S608
        self.tables = [t for t, result in zip(self.tables, found, strict=True) if result.ok and result.rows[0][0]]
        self.usage = _Usage()
        # Every SQL the database has, active, waiting or discarded: a goal already there is never drawn again.
        self.known: set[str] = set()
        for sql in existing:
            self._count(sql, None)
            self.known.add(sql)
        self.rules = GoalRules(schema, self.path)
        self._join_undeclared_keys()
        # Trees refused by the rules (annotation.goals.rules), by rule: what the run's report says.
        self.refused: Counter = Counter()
        # Draws that gave nothing, per anchor table: an anchor that keeps failing is tried less, not forever.
        self._failures: Counter = Counter()
        # Draws that made no tree at all, per anchor and level aimed at (no column of the shape drawn): counted apart
        # and weighed less.
        self._unfit: Counter = Counter()

    def _join_undeclared_keys(self) -> None:
        """A column holding ids of another table's rows that no foreign key declares (a flight's `Airline`, an
        airline's `uid`: `GoalRules.undeclared_key`) is joined on as a foreign key is: the rules read the schema with
        it added, so a count along it is checked as any join's is."""
        schema, names = self.schema, self.schema["column_names_original"]
        index = {f"{schema['table_names_original'][t]}.{c}".lower(): i for i, (t, c) in enumerate(names) if t >= 0}
        added = []
        for table in self.tables:
            for column in self.columns[table]:
                if column.kind != "number":
                    continue
                key = self.rules.undeclared_key(f"{table}.{column.name}")
                if key is not None and key.lower() in index and key.split(".", 1)[0] in self.tables:
                    added.append([column.index, index[key.lower()]])
                    self.links.append((table, column.name, *key.split(".", 1)))
        if added:
            self.rules = self.rules.with_foreign_keys(added)

    # -- the run ----------------------------------------------------------------------------------------------------

    def sample(
        self,
        count: int,
        *,
        levels: Iterable[str] = HARDNESS_LEVELS,
        progress: Callable[[int], None] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> list[SampledGoal]:
        """Up to `count` goals whose hardness is one of `levels`, each new SQL text; fewer when the database cannot
        give more (a run stops after `_TRIES_PER_GOAL` draws per goal asked), or when `stop()`, asked before each
        candidate (module docstring), answers True: the goals kept so far are returned."""
        levels = [level for level in HARDNESS_LEVELS if level in set(levels)]
        if not levels:
            raise ValueError(  # i18n-exempt: goal_levels refuses it first: a caller's bug
                f"hardness must be among {', '.join(HARDNESS_LEVELS)}"
            )
        kept: list[SampledGoal] = []
        seen: set[str] = set(self.known)
        answers: set[tuple] = set()  # what each goal kept reads and answers
        shapes: Counter = Counter()  # goals kept per question shape
        budget = count * _TRIES_PER_GOAL
        misses = Counter()  # batches in a row that gave nothing new at the level aimed at
        while len(kept) < count and budget > 0:
            open_levels = [level for level in levels if misses[level] < _MISSES_BEFORE_GIVING_UP] or levels
            target = self._target_level(open_levels)
            hit = False
            trees = []
            for _ in range(_BATCH):
                if stop is not None and stop():
                    return kept
                trees.append(self._tree(target))
            budget -= _BATCH
            candidates = [(tree, self._sql(tree)) for tree in trees if tree is not None]
            candidates = [(tree, sql) for tree, sql in candidates if sql not in seen]
            for tree, sql in candidates:
                if stop is not None and stop():
                    return kept
                if hit and self.usage.tables[tree["tables"][0].lower()]:
                    continue  # after a hit, only a table no goal reads yet is worth the rest of the batch
                goal = self._kept(tree, sql, levels, seen, answers, shapes)
                if goal is None:
                    continue
                kept.append(goal)
                self._count(goal.sql, goal.hardness)
                if progress is not None:
                    progress(len(kept))
                if goal.hardness == target:
                    hit = True
                if len(kept) == count:
                    break
                # After a hit the draw re-aims (coverage moves with every goal), once the tables no goal read yet
                # had their turn.
            misses[target] = 0 if hit else misses[target] + 1
        return kept

    def _kept(
        self, tree: dict, sql: str, levels: list[str], seen: set[str], answers: set[tuple], shapes: Counter
    ) -> SampledGoal | None:
        """The goal a candidate gives, or None: already seen, refused by the rules, not encodable, of a level not
        asked for, or the same as a goal kept (what it reads and answers, or a shape kept often enough). A goal kept
        is added to `seen`, `answers` and `shapes`."""
        if sql in seen:
            return None
        tree, sql, result = self._judged(tree, sql)
        if result is None or sql in seen:
            self._failures[tree["tables"][0]] += 1
            return None
        try:
            level = hardness(encode_sql(sql, self.schema))
        except SpiderEncodingError:
            return None
        if level not in levels:
            return None
        # "> 2" and ">= 3" on counts, one filter spelt two ways; "the amenities of room 9" and "... of room 2".
        # The tables read are part of it: "how many semesters" and "how many transcripts" both answer 15.
        tables, columns = query_reads(sql)
        answer, shape = (frozenset(tables | columns), tree["type"], repr(result.rows)), question_shape(tree)
        # A count per group asked again with another threshold, or without one, is the same question: kept once.
        grouped = count_per_group_shape(tree)
        if answer in answers or shapes[shape] >= _SAME_SHAPE or (grouped is not None and shapes[grouped]):
            self.refused["same_as_another"] += 1
            return None
        answers.add(answer)
        shapes[shape] += 1
        if grouped is not None:
            shapes[grouped] += 1
        seen.add(sql)
        return SampledGoal(sql, level, tree, len(result.rows))

    def _judged(self, tree: dict, sql: str) -> tuple[dict, str, object]:
        """Run a tree under the rules (annotation.goals.rules): (tree, sql, result) of the goal to keep, the tree
        possibly rewritten by a rule, or a None result for a tree that fails, returns nothing or breaks a rule (counted
        in `refused`). A list of ids, codes, dates or numbers of rows that have names shows the names too
        (`GoalRules.named`: the rule `unnamed_rows`, a rewrite) before any rule reads it."""
        named = self.rules.named(tree)
        renamed = named is not tree
        if renamed:
            tree, sql = named, tree_sql(named)
        refusal = self.rules.before_run(tree)
        if refusal is None:
            result = execute(self.path, sql)
            if not result.ok or not _has_answer(result.rows):
                return tree, sql, None
            judged, refusal = self.rules.after_run(tree, result.rows)
            if refusal is None and judged is not tree:  # rewritten: what is kept is the new SQL's answer
                tree, sql = judged, tree_sql(judged)
                result = execute(self.path, sql)
                if not result.ok or not _has_answer(result.rows):
                    return tree, sql, None
        if refusal is not None:
            self.refused[refusal.rule] += 1
            return tree, sql, None
        if renamed:
            self.rules.rewritten["unnamed_rows"] += 1
        return tree, sql, result

    def _target_level(self, levels: list[str]) -> str:
        total = sum(self.usage.levels[level] for level in levels) + 1
        deficits = {level: 1 / len(levels) - self.usage.levels[level] / total for level in levels}
        best = max(deficits.values())
        return self.rng.choice([level for level, deficit in deficits.items() if deficit == best])

    def _count(self, sql: str, level: str | None) -> None:
        tables, columns = query_reads(sql)
        self.usage.tables.update(tables)
        self.usage.columns.update(columns)
        if level is not None:
            self.usage.levels[level] += 1

    # -- drawing a tree -----------------------------------------------------------------------------------------------

    def _least(self, items: list, key: Callable) -> object:
        low = min(key(item) for item in items)
        return self.rng.choice([item for item in items if key(item) == low])

    def _anchor(self, level: str) -> str | None:
        if not self.tables:
            return None
        return self._least(
            self.tables,
            lambda table: (
                self.usage.tables[table.lower()] + self._failures[table] // 8 + self._unfit[(table, level)] // 8
            ),
        )

    def _path(self, start: str, length: int, *, down: bool = False) -> list[tuple[str, str, str, str]]:
        """A join path of up to `length` foreign-key steps from `start`, never visiting a table twice; with `down`,
        its first step goes from a row to the rows naming it (a count per group counts what its groups have, or
        what is on the far side of a link table, not what they point to: the rules' `count_fan_out`)."""
        path, visited, current = [], {start}, start
        for _ in range(length):
            down = down and not path
            steps = [
                (current, a_col, b, b_col) if a == current else (current, b_col, a, a_col)
                for a, a_col, b, b_col in self.links
                if ((a == current and b not in visited and not down) or (b == current and a not in visited))
                and {a, b} <= set(self.tables)
            ]
            if not steps:
                break
            step = self._least(steps, lambda s: self.usage.tables[s[2].lower()])
            path.append(step)
            visited.add(step[2])
            current = step[2]
        return path

    def _plain(self, tables: list[str]) -> list[_Column]:
        columns = [column for table in tables for column in self.columns[table]]
        plain = [column for column in columns if not column.is_key]
        return plain or columns

    def _pick_column(
        self,
        tables: list[str],
        kinds: tuple[str, ...] | None = None,
        *,
        keys: bool = False,
        fit: Callable[[str], bool] | None = None,
    ) -> _Column | None:
        """The least-used column of `tables` (of `kinds`, and passing `fit`, a test of the rules such as "is an
        amount"); a key only where `keys` allows (a shown id reads fine, a filter or an average on one does not)."""
        pool = [column for table in tables for column in self.columns[table]] if keys else self._plain(tables)
        columns = [column for column in pool if kinds is None or column.kind in kinds]
        if fit is not None:
            columns = [column for column in columns if fit(f"{column.table}.{column.name}")]
        if not columns:
            return None
        return self._least(columns, lambda column: self.usage.columns[f"{column.table}.{column.name}".lower()])

    def _values_of(self, column: _Column) -> list:
        found = column_values(self.path, column.table, column.name, _VALUES_PER_COLUMN)
        return [value for value in found if literal(value) is not None]

    def _filter(
        self,
        tables: list[str],
        *,
        besides: tuple[str, ...] = (),
        only: str | None = None,
        avoid=(),
        lookups: bool = True,
    ) -> dict | None:
        """A filter on the least-used column of `tables` but those of `besides` (or on the column `only`), with a value
        read from the data (not one of `avoid`). Never on an id number or a phone (the rules' `filter_on_identifier`),
        nor, without `lookups`, on a column whose values are unique (a set operation's side: `set_of_lookups`)."""

        def fit(qualified: str) -> bool:
            if only is not None:
                return qualified == only
            if not lookups and self.rules.values_unique(qualified):
                return False
            # A condition on a column of one value keeps every row (the rules' `condition_keeps_all`).
            return qualified not in besides and self.rules.conditions_well(qualified) and self.rules.filled(qualified)

        column = self._pick_column(tables, fit=fit, keys=only is not None)
        if column is None:
            return None
        qualified = f"{column.table}.{column.name}"
        values = [value for value in self._values_of(column) if value not in avoid]
        if not values:
            return None
        value = self.rng.choice(values)
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        # "Above" and "below" mean something for an amount or an ordinal (a year, a floor), not for a code; a price
        # of exactly 188.62 is a value nobody asks for.
        ordered = numeric and column.kind == "number" and self.rules.orders(qualified)
        op = self.rng.choice([">", "<"] if isinstance(value, float) else [">", "<", "="]) if ordered else "="
        if op in ("<", ">") and self.rules.measures(qualified):
            # A threshold said as a person says it: "capacity below 25", not "below 24" (annotation.goals.rules).
            value = next((near for near in round_numbers(value) if abs(near - value) <= abs(value) / 10), value)
        if is_time_stamp(value):
            # Before or after a day, not at one second of it (the rules' `exact_time`).
            op, value = self.rng.choice(["<", ">"]), value[:10]
        elif op == "=" and self.rules.exact_date(qualified, value):
            op = self.rng.choice(["<", ">"])  # before or after one of many days, not on it (`exact_date`)
        # Part of a word ("name contains Harb"), never of a number or a date held as text (`part_of_a_number`).
        described = (
            isinstance(value, str)
            and self.rules.identifier_kind(qualified) is None
            and self.rules.holds_words(qualified)
            and re.search(r"[A-Za-z]", value) is not None
        )
        part = value[: max(2, len(value) // 2)] if isinstance(value, str) else ""
        if op == "=" and described and len(values) > 3 and self.rng.random() < 0.2 and not re.search(r"\d", part):
            op, value = "like", f"%{part}%"
        return {"column": qualified, "op": op, "value": value}

    def _tree(self, level: str) -> dict | None:
        """An operation tree aimed at `level` (the encoding decides the level it gets)."""
        anchor = self._anchor(level)
        if anchor is None:
            return None
        shape = self.rng.choice(_SHAPES_OF_LEVEL[level])
        joins = self._path(anchor, _JOIN_STEPS.get(shape, 0))
        if shape == "join_group_superlative":
            joins = self._path(anchor, 2, down=True)
        if shape.startswith("join") and not joins:
            return None
        tables = [anchor, *[step[2] for step in joins]]
        tree: dict = {"type": "list", "tables": tables, "joins": [list(step) for step in joins], "filters": []}
        # A list of every id of a table asks nothing; an id of the rows a filter or a superlative picks reads fine.
        counts = shape in ("count", "count_filtered", "group_count", "group_having", "join_group_superlative")
        plain_list = shape in ("list", "join_list")  # no condition: it lists words (the rules' `list_of_values`)

        def shown(qualified: str) -> bool:
            if not self.rules.filled(qualified):
                return False
            return counts or (
                self.rules.shows_well(qualified) and (not plain_list or self.rules.names_things(qualified))
            )

        project = self._pick_column(tables, keys=not plain_list, fit=shown)
        if project is None:
            self._unfit[(anchor, level)] += 1
            return None
        tree["project"] = [self._readable(f"{project.table}.{project.name}")]
        if shape in ("count", "count_filtered"):
            tree["type"] = "count"
        # Each part adds what its shapes have, in this order (the draws of a seed depend on it); False: none found.
        parts = (
            self._tree_filter,
            self._tree_aggregate,
            self._tree_group,
            self._tree_superlative,
            self._tree_nested,
            self._tree_set,
        )
        if all(part(tree, shape) for part in parts):
            return tree
        # A table whose columns give no tree of this level's shapes is tried less at this level, more slowly (a table
        # of a date and an id gives a count, never a join with a condition).
        self._unfit[(anchor, level)] += 1
        return None

    def _readable(self, qualified: str) -> str:
        """The column to show for `qualified`: the name of its table's rows instead of an id, a code or a phone
        where the table has one (the rules' `shows_identifier`)."""
        if self.rules.identifier_kind(qualified) in ("key", "identifier", "code"):
            return self.rules.name_column(qualified.split(".", 1)[0]) or qualified
        return qualified

    def _tree_filter(self, tree: dict, shape: str) -> bool:
        if shape not in ("list_filtered", "count_filtered", "join_filtered", "nested_join"):
            return True
        tables = tree["tables"]
        # Never on the column shown: a filter on it answers itself.
        found = self._filter(tables[1:] or tables, besides=tuple(tree["project"]))
        if found is None:
            return False
        tree["filters"].append(found)
        return True

    def _tree_aggregate(self, tree: dict, shape: str) -> bool:
        if shape != "aggregate":
            return True
        number = self._pick_column(tree["tables"], ("number",), fit=self.rules.measures)
        if number is None:
            return False
        tree["type"] = self.rng.choice(["sum", "avg", "min", "max"])
        tree["project"] = [f"{number.table}.{number.name}"]
        return True

    def _tree_group(self, tree: dict, shape: str) -> bool:
        if shape not in ("group_count", "group_having", "join_group_superlative"):
            return True
        # A column the rules would refuse to group by (empty, an id, a number of many values) is not drawn.
        key = self._pick_column(tree["tables"][:1], fit=self.rules.groups_well, keys=True)
        if key is None:
            return False
        tree["type"] = "group_count"
        tree["group"] = f"{key.table}.{key.name}"
        if shape == "group_having":
            tree["having"] = {"op": self.rng.choice([">", ">="]), "value": self.rng.choice([2, 3])}
        if shape == "join_group_superlative":
            tree["order"] = {"by": "count", "desc": self.rng.random() < 0.7, "limit": 1}
        return True

    def _tree_superlative(self, tree: dict, shape: str) -> bool:
        if shape not in ("superlative", "join_superlative"):
            return True
        number = self._pick_column(
            tree["tables"],
            ("number", "time"),
            fit=lambda qualified: self.rules.orders(qualified) and qualified not in tree["project"],
        )
        if number is None:
            return False
        tree["order"] = {"by": f"{number.table}.{number.name}", "desc": self.rng.random() < 0.5, "limit": 1}
        return True

    def _tree_nested(self, tree: dict, shape: str) -> bool:
        if shape not in ("nested", "nested_join"):
            return True
        number = self._pick_column(tree["tables"][:1], ("number",), fit=self.rules.measures)
        if number is None:
            return False
        tree["nested"] = {
            "column": f"{number.table}.{number.name}",
            "op": self.rng.choice([">", "<"]),
            "aggregate": "avg",
        }
        return True

    def _tree_set(self, tree: dict, shape: str) -> bool:
        if shape != "set":
            return True
        # Rows told apart by what is shown (a name, else an id), kept or not by two conditions on other columns.
        tables = tree["tables"]
        shown = self._pick_column(tables, ("text",), keys=True, fit=self.rules.unique)
        key = self.rules.row_key(tables[0])
        if shown is None and key is None:
            return False
        tree["project"] = [f"{shown.table}.{shown.name}" if shown is not None else key]
        first = self._filter(tables, besides=tuple(tree["project"]), lookups=False)
        if first is None:
            return False
        op = self.rng.choice(["intersect", "except", "union"])
        if op == "union":
            # Either of two values of one column ("guests from PT or from ES"): two unrelated conditions joined by
            # "or" ask nothing a person asks.
            if first["op"] in ("<", ">") or self.rules.values_unique(first["column"]):
                return False  # "below 20 or below 40"; two look-ups of one row each (the rules' `set_of_lookups`)
            second = self._filter(tables, only=first["column"], avoid=(first["value"],))
        else:
            second = self._filter(tables, besides=(*tree["project"], first["column"]), lookups=False)
        if second is None:
            return False
        tree["filters"] = [first]
        tree["set"] = {"op": op, "filters": [second]}
        return True

    # -- writing it as SQL --------------------------------------------------------------------------------------------

    def _sql(self, tree: dict) -> str:
        return tree_sql(tree)


def _has_answer(rows: list) -> bool:
    """Rows that answer: at least one, and a lone value that is neither 0 nor empty (NULL, or a text of blanks: "the
    share count of the earliest transaction" answering '')."""
    if not rows:
        return False
    if len(rows) == 1 and len(rows[0]) == 1:
        value = rows[0][0]
        return value not in (0, None) and not (isinstance(value, str) and not value.strip())
    return True


def query_reads(sql: str) -> tuple[set[str], set[str]]:
    """The tables and the `table.column` names (lower case) a query reads; an unqualified column is credited to every
    table of its FROM (a goal's coverage is an estimate, not an encoding)."""
    try:
        tree = parse_sql(sql)
    except Exception:  # a goal that does not parse covers nothing
        return set(), set()
    tables: set[str] = set()
    columns: set[str] = set()
    for select in tree.find_all(exp.Select):
        aliases = {}
        for table in select.find_all(exp.Table):
            aliases[(table.alias or table.name).lower()] = table.name.lower()
            tables.add(table.name.lower())
        for column in select.find_all(exp.Column):
            if isinstance(column.this, exp.Star):
                continue
            owners = (
                [aliases[column.table.lower()]]
                if column.table and column.table.lower() in aliases
                else aliases.values()
            )
            columns.update(f"{owner}.{column.name.lower()}" for owner in owners)
    return tables, columns


def coverage(sqls: Iterable[str], schema: dict) -> dict:
    """OTTA's table and attribute coverage of a goal set: `tables` and `columns` are the shares of the schema's tables
    and columns that `sqls` read; `tables_covered` / `tables_total` and `columns_covered` / `columns_total` the counts
    behind them; `per_table` how many of the queries read each table (in the schema's order)."""
    originals = schema["table_names_original"]
    all_tables = {name.lower() for name in originals} - {"sqlite_sequence"}
    all_columns = {
        f"{originals[table].lower()}.{name.lower()}"
        for table, name in schema["column_names_original"]
        if table >= 0 and originals[table].lower() in all_tables
    }
    tables: set[str] = set()
    columns: set[str] = set()
    per_table: Counter = Counter()
    for sql in sqls:
        read_tables, read_columns = query_reads(sql)
        tables |= read_tables & all_tables
        columns |= read_columns & all_columns
        per_table.update(read_tables & all_tables)
    return {
        "tables": len(tables) / len(all_tables) if all_tables else 0.0,
        "columns": len(columns) / len(all_columns) if all_columns else 0.0,
        "tables_covered": len(tables),
        "tables_total": len(all_tables),
        "columns_covered": len(columns),
        "columns_total": len(all_columns),
        "per_table": {name: per_table[name.lower()] for name in originals if name.lower() in all_tables},
    }


def coverage_report(existing: Iterable[tuple[str, str]], added: Iterable[tuple[str, str]], schema: dict) -> dict:
    """What a run of the sampler changed in a goal set: its coverage (`coverage`) and its hardness mix, before and
    after. `existing` and `added` are (sql, hardness) pairs. The one report the command and the database page show."""
    existing, added = list(existing), list(added)

    def state(pairs: list[tuple[str, str]]) -> dict:
        mix = Counter(level for _, level in pairs)
        return {
            **coverage((sql for sql, _ in pairs), schema),
            "goals": len(pairs),
            "hardness": {level: mix[level] for level in HARDNESS_LEVELS},
        }

    return {"before": state(existing), "after": state(existing + added)}


def refusals_report(refused: Counter, rewritten: Counter | None = None) -> list[dict]:
    """What the rules (annotation.goals.rules.RULES, in their order) did in a run: per rule that acted, its `rule`
    name, `reason`, how many trees it `refused` and how many it `rewritten` into a goal that passes."""
    rewritten = rewritten or Counter()
    return [
        {"rule": rule, "reason": reason, "refused": refused[rule], "rewritten": rewritten[rule]}
        for rule, reason in RULES.items()
        if refused[rule] or rewritten[rule]
    ]
