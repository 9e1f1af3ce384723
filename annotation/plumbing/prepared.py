"""Querysets of one fixed shape whose SQL Django compiles once per process instead of at every call.

Compiling a queryset costs CPU in proportion to its columns, not its work: the room socket's read of its dialogue with
the database, version, goal, worker and campaign (five joins, about two hundred columns) cost 3-5 ms of CPU to compile
and turn into models, against well under a millisecond for the database to answer it (bench/chat_load.py's profile of
pairing). A `PreparedModels` compiles its queryset the first time it is called on a database connection alias, keeps
the SQL, the column converters and the select_related populators Django made for it, and from then on only runs the
SQL with the call's values and builds the models the way Django's own model iterator does (`Model.from_db`, the same
populators, the same converters), so what comes back is what the queryset would have returned.

The values are found in the compiled SQL's parameters by stand-ins: the queryset is built twice with a distinct
integer for each value, other integers the second time, and each call puts its values where those integers were (a
constant of the queryset is the same in both, so it is never taken for a value). So a value must reach the SQL
unchanged, as an integer compared with a column (a primary or foreign key, a number), which is checked when compiling.
The stand-ins fit every integer column: Django drops a comparison with a value outside its column's range.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, get_related_populators

# The stand-ins for the values, in the range of the smallest integer column (Django drops a comparison with a value
# outside its column's range); two sets, whose difference marks where the values go.
_STAND_INS = (29_989, 30_011)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple  # (position in params, index of the value)
    converters: tuple  # (column position, converter functions, expression)
    model: type
    start: int
    end: int
    init_list: tuple
    populators: tuple
    annotations: tuple  # (attribute name, column position)


class PreparedModels:
    """`build(*values)` returns the queryset for `values`; calling the `PreparedModels` with values returns the list of
    model instances that queryset would give. Only querysets of model instances (no values(), no prefetch_related): a
    queryset that cannot be prepared, or a value that is no integer, is a programming error (TypeError)."""

    def __init__(self, build: Callable[..., QuerySet], *, values: int = 1):
        self._build = build
        self._values = values
        self._compiled: dict[tuple[str, str], _Compiled] = {}
        self._lock = threading.Lock()

    def __call__(self, *values: int, using: str = "default") -> list:
        if len(values) != self._values:
            raise TypeError(f"expected {self._values} values, got {len(values)}")
        for value in values:
            if type(value) is not int:
                raise TypeError(f"a prepared query's values are integers, not {type(value).__name__}")
        connection = connections[using]
        key = (using, connection.vendor)
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(key) or self._compile(using)
                self._compiled[key] = compiled
        params = list(compiled.params)
        for position, index in compiled.slots:
            params[position] = values[index]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        return [_instance(compiled, row, connection, using) for row in rows]

    def first(self, *values: int, using: str = "default"):
        """The first instance the call gives, or None (the queryset's own order and slice decide which)."""
        found = self(*values, using=using)
        return found[0] if found else None

    def _compile(self, using: str) -> _Compiled:
        first, second = ([base + 2 * index for index in range(self._values)] for base in _STAND_INS)
        queryset = self._build(*first)
        if queryset._iterable_class is not ModelIterable or queryset._prefetch_related_lookups:
            raise TypeError("only a queryset of model instances without prefetch_related can be prepared")
        if queryset._known_related_objects:
            raise TypeError("a related manager's queryset cannot be prepared: build it from the model's")
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        other_sql, other_params = self._build(*second).query.get_compiler(using=using).as_sql()
        slots = tuple(
            (position, first.index(param))
            for position, (param, other) in enumerate(zip(params, other_params, strict=False))
            if param != other and type(param) is int and param in first and other == second[first.index(param)]
        )
        if (
            other_sql != sql
            or len(other_params) != len(params)
            or sorted({index for _, index in slots}) != list(range(self._values))
        ):
            raise TypeError("each value must reach the SQL as given (an integer compared with a column)")
        select, klass_info = compiler.select, compiler.klass_info
        columns = [item[0] for item in select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise TypeError("composite fields are not supported")
        converters = tuple(
            (position, tuple(functions), expression)
            for position, (functions, expression) in compiler.get_converters(columns).items()
        )
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots=slots,
            converters=converters,
            model=klass_info["model"],
            start=start,
            end=end,
            init_list=tuple(item[0].target.attname for item in select[start:end]),
            populators=tuple(get_related_populators(klass_info, select, using)),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
        )


def _instance(compiled: _Compiled, row, connection, using: str):
    """A model instance from one row, as Django's model iterator builds it (converters, from_db, populators)."""
    if compiled.converters:
        row = list(row)
        for position, functions, expression in compiled.converters:
            value = row[position]
            for function in functions:
                value = function(value, expression, connection)
            row[position] = value
    instance = compiled.model.from_db(using, list(compiled.init_list), row[compiled.start : compiled.end])
    for populator in compiled.populators:
        populator.populate(row, instance)
    for name, position in compiled.annotations:
        setattr(instance, name, row[position])
    return instance
