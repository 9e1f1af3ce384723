"""JSON read and written where its volume shows in a profile: the event log's payloads, a release's files, the
frames of a room. orjson does the work (several times faster than the json module, whose indented output is not
even written in C); what orjson refuses falls back to the json module, so nothing the platform wrote before becomes
unreadable and nothing it can write fails:

- reading: `NaN`, `Infinity` (the json module writes them for such floats, e.g. into files) and integers beyond
  64 bits;
- writing: integers beyond 64 bits and anything else orjson does not encode. A float that is not a number is
  written as `null` (the json module would write `NaN`, which is not JSON).

`dumps` writes compact text, which differs from `json.dumps`'s in spacing (no space after `,` and `:`) and in how
some floats are spelt (`0.00001` for `1e-05`): the same JSON, other bytes. `dumps_indented` writes the bytes of
`json.dumps(value, ensure_ascii=False, indent=1)`, the public releases' layout (review/dataset/writer.py), in about a
third of the json module's time: orjson indents by two spaces and spells a few floats its own way, and both are put
back.
"""

import json
import re

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


def iter_items(data: bytes | str, *, opening: str = "["):
    """The items of a JSON text holding a list (`opening` "[") or the (key, value) pairs of an object ("{"), one at a
    time: the text is read whole, its values are built one after another and none is kept here, so a file of a
    release ten times CoSQL's size is never all held as objects at once (review/dataset/release_check.py). Parsed by
    the json module's scanner (C), which starts at any place of a text; orjson parses whole texts only. Raises
    ValueError where the text is not such JSON (from the item before which it breaks: items before it were given)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    closing = "]" if opening == "[" else "}"
    scan, space = json.JSONDecoder().scan_once, json.decoder.WHITESPACE.match
    at = space(text, 0).end()
    if text[at : at + 1] != opening:
        raise ValueError(f"expected {opening!r} at character {at}")
    at = space(text, at + 1).end()
    if text[at : at + 1] == closing:
        at += 1
    else:
        while True:
            if opening == "{":
                if text[at : at + 1] != '"':
                    raise ValueError(f"expected a key at character {at}")
                key, at = json.decoder.scanstring(text, at + 1)
                at = space(text, at).end()
                if text[at : at + 1] != ":":
                    raise ValueError(f"expected ':' at character {at}")
                at = space(text, at + 1).end()
            try:
                value, at = scan(text, at)
            except StopIteration as exc:
                raise ValueError(f"expected a value at character {exc.value}") from None
            yield (key, value) if opening == "{" else value
            at = space(text, at).end()
            mark = text[at : at + 1]
            at = space(text, at + 1).end()
            if mark == closing:
                break
            if mark != ",":
                raise ValueError(f"expected ',' or {closing!r} at character {at}")
    if space(text, at).end() != len(text):
        raise ValueError(f"extra data at character {at}")


def dumps(value, *, sort_keys: bool = False) -> str:
    """`value` as compact JSON text (UTF-8 characters as they are, not escaped)."""
    option = _NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        return orjson.dumps(value, option=option).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, ensure_ascii=False, sort_keys=sort_keys)


def dumps_indented(value, *, sort_keys: bool = False) -> bytes:
    """`value` as `json.dumps(value, ensure_ascii=False, indent=1, sort_keys=sort_keys)` writes it, encoded in UTF-8
    (a float that is not a number aside: `null` here, `NaN` there). A key that is not a string goes to the json module:
    it sorts such keys by value (9 before 10) and spells float keys by `repr`, where orjson would not."""
    option = orjson.OPT_INDENT_2 | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        text = orjson.dumps(value, option=option)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=sort_keys).encode("utf-8")
    return _python_floats(_halve_indentation(text))


def _halve_indentation(text: bytes) -> bytes:
    """Two spaces per level to one. A string's newline is escaped, so every newline of the text starts a line whose
    leading spaces are its indentation alone: the first half of each such run is dropped, a few MiB of lines at a time
    (numpy: a pass of `bytes.replace` per level took 0.5–0.7 s on a release's files, this 0.2–0.4 s; the chunks bound
    the arrays to a few times their size, whatever the file's)."""
    import numpy  # here, not at the top: every process reads the log through this module, few write releases

    pieces, begin = [], 0
    while begin < len(text):
        end = text.find(b"\n", begin + _CHUNK)  # each chunk ends where a line ends, and the next one begins there
        end = len(text) if end < 0 else end
        chars = numpy.frombuffer(text, dtype=numpy.uint8, count=end - begin, offset=begin)
        starts = numpy.flatnonzero(chars == ord("\n")) + 1
        # Each line's indentation, two spaces at a time, over the lines still inside theirs.
        width = numpy.zeros(len(starts), dtype=numpy.int64)
        inside = numpy.arange(len(starts))
        while inside.size:
            at = starts[inside] + width[inside]
            within = at < len(chars)
            inside = inside[within][chars[at[within]] == ord(" ")]
            width[inside] += 2
        # Drop [start, start + width / 2) of each line: +1 where a run begins, -1 where it ends, summed along.
        edges = numpy.zeros(len(chars) + 1, dtype=numpy.int8)
        edges[starts] = 1
        edges[starts + width // 2] -= 1
        pieces.append(chars[numpy.cumsum(edges[:-1], dtype=numpy.int8) == 0].tobytes())
        begin = end
    return b"".join(pieces)


_CHUNK = 1 << 22  # bytes of text re-indented at once


# Where orjson may spell a float otherwise than Python's repr: a one-digit exponent (`1e-7` for `1e-07`) and a
# decimal below 0.0001 (`0.00001` for `1e-05`). In indented text a number is the end of its line (a line holding a
# string ends in its quote) and begins after a space (or at the start of a text that is one number).
_FLOAT_MARKS = (b"e-", b"e+", b"0.0000")
_NUMBER = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?")


def _python_floats(text: bytes) -> bytes:
    """`text` with every float that orjson may spell its own way spelt by Python's repr. The marks are looked for by
    `bytes.find` (they are rare; a regular expression tried at every digit took as long as the encoding)."""
    marks = sorted(spot for mark in _FLOAT_MARKS for spot in _spots(text, mark))
    pieces, copied = [], 0
    for spot in marks:
        if spot < copied:
            continue  # a second mark in a number already spelt
        end = text.find(b"\n", spot)
        end = len(text) if end < 0 else end
        end -= text[end - 1 : end] == b","
        start = max(text.rfind(b" ", 0, spot), text.rfind(b"\n", 0, spot)) + 1
        if _NUMBER.fullmatch(text, start, end):
            pieces += (text[copied:start], repr(float(text[start:end])).encode("ascii"))
            copied = end
    return b"".join(pieces) + text[copied:] if pieces else text


def _spots(text: bytes, mark: bytes):
    spot = text.find(mark)
    while spot >= 0:
        yield spot
        spot = text.find(mark, spot + 1)


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
