"""JSON read and written where its volume shows in a profile: the event log's payloads, a release's files, the
frames of a room. orjson does the work (several times faster than the json module, whose indented output is not
even written in C); what orjson refuses falls back to the json module, so nothing the platform wrote before becomes
unreadable and nothing it can write fails:

- reading: `NaN`, `Infinity` (the json module writes them for such floats, e.g. into files) and integers beyond
  64 bits;
- writing: integers beyond 64 bits and anything else orjson does not encode. A float that is not a number is
  written as `null` (the json module would write `NaN`, which is not JSON).

The text written is compact and differs from `json.dumps`'s in spacing (no space after `,` and `:`) and in how some
floats are spelt (`0.00001` for `1e-05`): the same JSON, other bytes. Files whose layout must match the public
releases byte for byte are written by the json module (review/dataset/writer.py).
"""

import json

import orjson
from django.db import models
from django.db.models.fields.json import KeyTransform

_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS


def loads(text: str | bytes):
    """The value of a JSON text."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def dumps(value, *, sort_keys: bool = False) -> str:
    """`value` as compact JSON text (UTF-8 characters as they are, not escaped)."""
    option = _NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        return orjson.dumps(value, option=option).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, ensure_ascii=False, sort_keys=sort_keys)


class JSONField(models.JSONField):
    """Django's JSONField, read with `loads`: a payload is decoded on every read of the log (a release reads tens of
    thousands at once). Stored as before; only the decoding differs."""

    def deconstruct(self):
        # The column is Django's JSONField's, and migrations see that field: how a value is decoded is no part of the
        # schema (a migration naming this class would make SQLite copy the whole log into a new table for nothing).
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs

    def from_db_value(self, value, expression, connection):
        if value is None or self.decoder is not None or isinstance(expression, KeyTransform):
            # A key read out of the JSON (`payload__sql`) comes as the database gives it: SQLite's text of a string
            # value is not JSON, and Django's own handling of that is kept.
            return super().from_db_value(value, expression, connection)
        try:
            return loads(value)
        except json.JSONDecodeError:
            return value  # as Django does: a text that is not JSON is returned as it is
