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

import codecs
import json
import re
from collections.abc import Mapping

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


def iter_items(source, *, opening: str = "["):
    """The items of a JSON text holding a list (`opening` "[") or the (key, value) pairs of an object ("{"), one at a
    time. `source` is the text (str or UTF-8 bytes) or a binary file open for reading, read a few MiB at a time: its
    values are built one after another and none is kept here, so a release's file ten times CoSQL's size is never
    held whole, as text or as objects (review/dataset/release_check.py). Parsed by the json module's scanner (C),
    which starts at any place of a text (orjson parses whole texts only). Raises ValueError where the text is not
    such JSON (items before that place were given)."""
    return _Items(source, opening).items()


_AFTER_ITEM = frozenset(",:]}")  # what the next character may be after a whole item or key (whitespace aside)


class _Items:
    """One JSON text being read an item at a time (`iter_items`): the part of it not yet parsed, topped up from the
    file as the parse reaches its end."""

    READ = 1 << 22  # characters read at once from a file

    def __init__(self, source, opening: str) -> None:
        if isinstance(source, bytes | str):
            self.text, self.handle, self.done = (
                source.decode("utf-8") if isinstance(source, bytes) else source,
                None,
                True,
            )
        else:
            self.text, self.handle, self.done = "", source, False
            self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.at = self.offset = 0  # offset: characters of the text dropped before `text` (for messages)
        self.opening, self.closing = opening, "]" if opening == "[" else "}"
        self.scan, self.space = json.JSONDecoder().scan_once, json.decoder.WHITESPACE.match

    def more(self) -> bool:
        """Read the next piece of the file onto the text (dropping what is parsed); False at its end."""
        if self.done:
            return False
        chunk = self.handle.read(self.READ)
        self.done = not chunk
        self.offset += self.at
        self.text = self.text[self.at :] + self.decoder.decode(chunk, final=self.done)
        self.at = 0
        return True

    def skip(self) -> str:
        """Skip whitespace; the next character ("" at the end of the text)."""
        while True:
            self.at = self.space(self.text, self.at).end()
            if self.at < len(self.text) or not self.more():
                return self.text[self.at : self.at + 1]

    def expect(self, wanted: str) -> None:
        if self.skip() != wanted:
            raise ValueError(  # i18n-exempt: parse position in a file the platform wrote
                f"expected {wanted!r} at character {self.offset + self.at}"
            )
        self.at += 1

    def value(self, read):
        """`read(text, at)` -> (value, end) at the current place, read further until it holds a whole value: one
        followed by what may follow an item or key (a number cut by the end of a piece, `-1.` of `-1.5`, could go
        on), or the end of the file."""
        while True:
            try:
                value, end = read(self.text, self.at)
            except (StopIteration, ValueError) as exc:
                if self.more():
                    continue
                place = exc.value if isinstance(exc, StopIteration) else getattr(exc, "pos", self.at)
                raise ValueError(  # i18n-exempt: parse position in a file the platform wrote
                    f"expected a value at character {self.offset + place}"
                ) from None
            follow = self.space(self.text, end).end()
            if self.text[follow : follow + 1] in _AFTER_ITEM or not self.more():
                self.at = end
                return value

    def items(self):
        self.expect(self.opening)
        if self.skip() == self.closing:
            self.at += 1
        else:
            while True:
                if self.opening == "{":
                    if self.skip() != '"':
                        raise ValueError(  # i18n-exempt: parse position in a file the platform wrote
                            f"expected a key at character {self.offset + self.at}"
                        )
                    self.at += 1
                    key = self.value(json.decoder.scanstring)
                    self.expect(":")
                    self.skip()
                    yield key, self.value(self.scan)
                else:
                    self.skip()
                    yield self.value(self.scan)
                mark = self.skip()
                self.at += 1
                if mark == self.closing:
                    break
                if mark != ",":
                    raise ValueError(  # i18n-exempt: parse position in a file the platform wrote
                        f"expected ',' or {self.closing!r} at character {self.offset + self.at - 1}"
                    )
        if self.skip() != "":
            raise ValueError(  # i18n-exempt: parse position in a file the platform wrote
                f"extra data at character {self.offset + self.at}"
            )


def dumps(value, *, sort_keys: bool = False) -> str:
    """`value` as compact JSON text (UTF-8 characters as they are, not escaped)."""
    option = _NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        return orjson.dumps(value, option=option).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, ensure_ascii=False, sort_keys=sort_keys)


class Packed(Mapping):
    """A JSON object kept as its compact UTF-8 text, read by key like the dict it holds: decoded at each read, with
    the last one decoded kept (a reader takes several keys of one object in a row). What a large release holds for
    each of its turns and reads once or twice (a result table as the worker was shown it) takes about a seventh of
    the dict's memory this way (review/records.py). Immutable: a changed copy is `dict(packed)` changed."""

    __slots__ = ("text",)
    _last: tuple = (None, None)  # (the Packed last decoded, its value); one shared slot, replaced whole

    def __init__(self, value: dict):
        try:
            # Copied to its own size: orjson's bytes keep the whole buffer it wrote into, 4 KiB at least.
            self.text = bytes(memoryview(orjson.dumps(value, option=_NON_STR_KEYS)))
        except TypeError:  # as `dumps`: what orjson does not encode goes to the json module
            self.text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def value(self) -> dict:
        last, value = Packed._last
        if last is not self:
            value = loads(self.text)
            Packed._last = (self, value)
        return value

    def __getitem__(self, key):
        return self.value()[key]

    def __iter__(self):
        return iter(self.value())

    def __len__(self) -> int:
        return len(self.value())

    def __repr__(self) -> str:
        return f"Packed({self.text[:60]!r}...)"


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
