"""CHASE-T's interactions on Spider databases, with each turn's SQL rebuilt in English: new held-out turns.

Usage: .venv/bin/python bench/chase_english.py [--shared PATH] [--seed S] [--databases a,b] [--summary] > turns.jsonl

`../shared/corpora/chase_train.json` (CHASE-T) is SParC and CoSQL translated to Chinese on Spider's databases: its
SQL names tables and columns in Chinese (`chase_tables.json`), and many string literals are translated too. Its
Spider-format parse of each query (`sql`: indices into the schema) does not depend on the names, so the query can be
written again with Spider's own names (`../shared/spider/tables.json`, `*_original`), which run on Spider's SQLite
files in `../shared/spider/database`.

- A database is used only when CHASE's schema and Spider's line up: the same number of tables, each column on the
  same table index and of the same type, in the same order (`aligned`). formula_1 does not.
- The CoSQL sample's 7 databases are left out (`COSQL_SAMPLE_DATABASES`): every rule so far was written or rated on
  them.
- A string literal that is not a value of its column in the Spider file (a translated one: "法国") is replaced by a
  real value of that column, chosen by `seed` from the column's distinct values, the same replacement for the same
  literal throughout an interaction and different literals of a column given different values where the column has
  enough; a literal that is a value (or a number) is kept. A LIKE pattern keeps its % signs around one word of a value.
- A turn is kept only when its rebuilt SQL runs on the Spider file (`RUN_LIMIT_S`); parses that cannot be rebuilt
  faithfully (the same table twice in one FROM, a subquery in FROM, a column of a table not in its FROM) are dropped.

Yields one `EnglishInteraction` per interaction that keeps at least one turn; each turn keeps CHASE's Chinese question
as `question_zh` and its index in the interaction as `turn`. `bench/rating_sheet.py --source chase-t` draws from here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sqlite3
import sys
import time
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = Path(os.environ.get("WOZSQL_SHARED_DIR", PROJECT_ROOT.parent / "shared"))
COSQL_SAMPLE_DATABASES = frozenset(
    {"car_1", "concert_singer", "dog_kennels", "flight_2", "pets_1", "student_transcripts_tracking", "world_1"}
)
RUN_LIMIT_S = 2.0

# Spider's parse format: the operators by index.
AGG_OPS = ("", "max", "min", "count", "sum", "avg")
WHERE_OPS = ("not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists")
UNIT_OPS = ("", "-", "+", "*", "/")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class Unrebuildable(ValueError):
    """The parse cannot be written back as SQL that means the same."""


@dataclass
class EnglishTurn:
    turn: int  # index in CHASE's interaction
    question_id: str
    question_zh: str
    sql: str


@dataclass
class EnglishInteraction:
    db_id: str
    interaction: int  # index in chase_train.json
    turns: list[EnglishTurn] = field(default_factory=list)


def aligned(spider: dict, chase: dict) -> bool:
    """Whether CHASE's schema of a database lines up with Spider's, index for index."""
    return (
        len(spider["table_names_original"]) == len(chase["table_names_original"])
        and [table for table, _ in spider["column_names_original"]]
        == [table for table, _ in chase["column_names_original"]]
        and spider["column_types"] == chase["column_types"]
    )


def _name(text: str) -> str:
    return text if _IDENTIFIER.match(text) else '"' + text.replace('"', '""') + '"'


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


class _Writer:
    """Writes one parse back as SQL with Spider's original names; `literal` turns a string value into SQL."""

    def __init__(self, schema: dict, literal):
        self.tables = schema["table_names_original"]
        self.columns = schema["column_names_original"]
        self.literal = literal

    def query(self, parse: dict) -> str:
        text = self._select_block(parse)
        for operator in ("intersect", "union", "except"):
            if parse.get(operator):
                return f"{text} {operator.upper()} {self.query(parse[operator])}"
        return text

    def _select_block(self, parse: dict) -> str:
        units = parse["from"]["table_units"]
        if any(kind != "table_unit" for kind, _ in units):
            raise Unrebuildable("a subquery in FROM")
        table_ids = [table for _, table in units]
        if len(set(table_ids)) != len(table_ids):
            raise Unrebuildable("the same table twice in one FROM")
        aliases = {table: f"T{n}" for n, table in enumerate(table_ids, 1)} if len(table_ids) > 1 else {}
        scope = (set(table_ids), aliases)
        distinct, items = parse["select"]
        parts = ["SELECT " + ("DISTINCT " if distinct else "") + ", ".join(self._agg(a, v, scope) for a, v in items)]
        parts.append("FROM " + self._from(table_ids, aliases, parse["from"]["conds"], scope))
        if parse["where"]:
            parts.append("WHERE " + self._condition(parse["where"], scope))
        if parse["groupBy"]:
            parts.append("GROUP BY " + ", ".join(self._col_unit(unit, scope) for unit in parse["groupBy"]))
        if parse["having"]:
            parts.append("HAVING " + self._condition(parse["having"], scope))
        if parse["orderBy"]:
            direction, units = parse["orderBy"]
            parts.append(
                "ORDER BY " + ", ".join(self._val_unit(unit, scope) for unit in units) + f" {direction.upper()}"
            )
        if parse["limit"] is not None:
            parts.append(f"LIMIT {int(parse['limit'])}")
        return " ".join(parts)

    def _from(self, table_ids: list[int], aliases: dict, conds: list, scope) -> str:
        def named(table):
            return _name(self.tables[table]) + (f" AS {aliases[table]}" if aliases else "")

        pending = [cond for cond in conds if not isinstance(cond, str)]
        if any(isinstance(cond, str) and cond != "and" for cond in conds):
            raise Unrebuildable("a join condition joined by OR")
        text, present = named(table_ids[0]), {table_ids[0]}
        for table in table_ids[1:]:
            present.add(table)
            ready = [cond for cond in pending if self._tables_of_cond(cond) <= present]
            pending = [cond for cond in pending if cond not in ready]
            text += " JOIN " + named(table)
            if ready:
                text += " ON " + " AND ".join(self._cond_unit(cond, scope) for cond in ready)
        if pending:
            raise Unrebuildable("a join condition on a table outside FROM")
        return text

    def _tables_of_cond(self, cond: list) -> set[int]:
        tables = set()
        for unit in (cond[2][1], cond[2][2], cond[3] if isinstance(cond[3], list) else None):
            if unit is not None and unit[1] != 0:
                tables.add(self.columns[unit[1]][0])
        return tables

    def _column(self, column_id: int, scope) -> str:
        if column_id == 0:
            return "*"
        table, name = self.columns[column_id]
        tables, aliases = scope
        if table not in tables:
            raise Unrebuildable(f"column {name} of a table outside FROM")
        return (f"{aliases[table]}." if aliases else "") + _name(name)

    def _col_unit(self, unit: list, scope) -> str:
        agg, column_id, distinct = unit
        inner = ("DISTINCT " if distinct else "") + self._column(column_id, scope)
        return f"{AGG_OPS[agg]}({inner})" if agg else inner

    def _val_unit(self, unit: list, scope) -> str:
        operator, first, second = unit
        if operator == 0:
            return self._col_unit(first, scope)
        return f"{self._col_unit(first, scope)} {UNIT_OPS[operator]} {self._col_unit(second, scope)}"

    def _agg(self, agg: int, unit: list, scope) -> str:
        inner = self._val_unit(unit, scope)
        return f"{AGG_OPS[agg]}({inner})" if agg else inner

    def _condition(self, condition: list, scope) -> str:
        return " ".join(item.upper() if isinstance(item, str) else self._cond_unit(item, scope) for item in condition)

    def _cond_unit(self, cond: list, scope) -> str:
        negated, operator, unit, first, second = cond
        left = self._val_unit(unit, scope)
        column_id = unit[1][1] if unit[0] == 0 and unit[1][0] == 0 else None
        word = WHERE_OPS[operator]
        if word == "between":
            low, high = (self._value(value, column_id, word, scope) for value in (first, second))
            return f"{left} BETWEEN {low} AND {high}"
        if word in ("in", "like", "exists") and negated:
            word = f"not {word}"
        elif negated:
            raise Unrebuildable(f"a negated {word}")
        return f"{left} {word.upper()} {self._value(first, column_id, word, scope)}"

    def _value(self, value, column_id, operator: str, scope) -> str:
        if isinstance(value, dict):
            return f"({self.query(value)})"
        if isinstance(value, list):
            return self._col_unit(value, scope)
        if isinstance(value, bool) or value is None:
            raise Unrebuildable("a value that is neither a literal, a column nor a subquery")
        if isinstance(value, (int, float)):
            return _number(value)
        return self.literal(value.strip().strip("\"'"), column_id, operator)


class _Values:
    """Real values for translated literals, per interaction: a seeded draw from the column's distinct values."""

    def __init__(self, connection: sqlite3.Connection, schema: dict, seed: int, key: str):
        self.connection, self.schema, self.seed, self.key = connection, schema, seed, key
        self.chosen: dict[tuple[int, str], str] = {}
        self.cache: dict[int, list[str]] = {}

    def column_values(self, column_id: int) -> list[str]:
        if column_id not in self.cache:
            table, column = self.schema["column_names_original"][column_id]
            table_name = _name(self.schema["table_names_original"][table])
            rows = self.connection.execute(
                f"SELECT DISTINCT {_name(column)} FROM {table_name} WHERE {_name(column)} IS NOT NULL"  # noqa: S608
            ).fetchall()
            self.cache[column_id] = sorted({str(value).strip() for (value,) in rows if str(value).strip()})
        return self.cache[column_id]

    def __call__(self, literal: str, column_id: int | None, operator: str) -> str:
        if _is_number(literal) or column_id is None:
            return _quoted(literal)
        values = self.column_values(column_id)
        bare = literal.strip("%")
        if not values or (operator != "like" and literal in values):
            return _quoted(literal)
        if operator == "like" and any(bare.lower() in value.lower() for value in values):
            return _quoted(literal)
        if (column_id, literal) not in self.chosen:
            taken = {value for (column, _), value in self.chosen.items() if column == column_id}
            free = [value for value in values if value not in taken] or values
            rng = random.Random(zlib.crc32(f"{self.seed}:{self.key}:{column_id}:{literal}".encode()))
            self.chosen[(column_id, literal)] = rng.choice(free)
        value = self.chosen[(column_id, literal)]
        if operator == "like":
            words = [word for word in re.split(r"\W+", value) if word] or [value]
            word = random.Random(zlib.crc32(f"{self.seed}:{value}".encode())).choice(words)
            return _quoted(("%" if literal.startswith("%") else "") + word + ("%" if literal.endswith("%") else ""))
        return _quoted(value)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def runs(connection: sqlite3.Connection, sql: str) -> bool:
    """Whether `sql` runs on the file within RUN_LIMIT_S."""
    deadline = time.monotonic() + RUN_LIMIT_S
    connection.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
    try:
        connection.execute(sql).fetchmany(1)
    except sqlite3.Error:
        return False
    finally:
        connection.set_progress_handler(None, 0)
    return True


def rebuild(parse: dict, schema: dict, literal=None) -> str:
    """The SQL of a Spider-format parse with `schema`'s original names; `literal(text, column_id, operator)` writes a
    string value (quoted as it is by default). Raises Unrebuildable."""
    return _Writer(schema, literal or (lambda text, column_id, operator: _quoted(text))).query(parse)


def english_interactions(
    shared: Path = DEFAULT_SHARED, *, seed: int = 0, databases: set[str] | None = None
) -> Iterator[EnglishInteraction]:
    """CHASE-T's interactions on aligned Spider databases outside the CoSQL sample, turns rebuilt in English."""
    with open(shared / "spider" / "tables.json", encoding="utf-8") as handle:
        spider = {entry["db_id"]: entry for entry in json.load(handle)}
    with open(shared / "corpora" / "chase_tables.json", encoding="utf-8") as handle:
        chase = {entry["db_id"]: entry for entry in json.load(handle)}
    with open(shared / "corpora" / "chase_train.json", encoding="utf-8") as handle:
        interactions = json.load(handle)
    connections: dict[str, sqlite3.Connection] = {}
    for index, interaction in enumerate(interactions):
        db_id = interaction["database_id"]
        path = shared / "spider" / "database" / db_id / f"{db_id}.sqlite"
        if db_id in COSQL_SAMPLE_DATABASES or db_id not in spider or db_id not in chase or not path.exists():
            continue
        if (databases and db_id not in databases) or not aligned(spider[db_id], chase[db_id]):
            continue
        if db_id not in connections:
            connections[db_id] = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            connections[db_id].text_factory = lambda data: data.decode("utf-8", "replace")
        connection = connections[db_id]
        values = _Values(connection, spider[db_id], seed, f"{db_id}:{index}")
        kept = EnglishInteraction(db_id, index)
        for number, turn in enumerate(interaction["interaction"]):
            try:
                sql = rebuild(turn["sql"], spider[db_id], values)
            except (Unrebuildable, IndexError, TypeError, sqlite3.Error):
                continue
            if runs(connection, sql):
                kept.turns.append(EnglishTurn(number, turn.get("question_id", ""), turn["utterance"], sql))
        if kept.turns:
            yield kept
    for connection in connections.values():
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--seed", type=int, default=0, help="the draw of real values for translated literals")
    parser.add_argument("--databases", default="", help="only these databases (comma-separated)")
    parser.add_argument("--summary", action="store_true", help="print counts instead of the interactions")
    options = parser.parse_args()
    wanted = set(filter(None, options.databases.split(","))) or None
    counts = {"interactions": 0, "turns": 0, "databases": set()}
    for interaction in english_interactions(options.shared.resolve(), seed=options.seed, databases=wanted):
        counts["interactions"] += 1
        counts["turns"] += len(interaction.turns)
        counts["databases"].add(interaction.db_id)
        if not options.summary:
            sys.stdout.write(json.dumps(asdict(interaction), ensure_ascii=False) + "\n")
    if options.summary:
        print(f"{counts['interactions']} interactions, {counts['turns']} turns, {len(counts['databases'])} databases")


if __name__ == "__main__":
    main()
