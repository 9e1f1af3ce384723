"""A model's responses uploaded for a rating task (docs/human_rating.md, "A model's file"): JSON lines or CSV, one
response per SQL turn, keyed by the dialogue's id and the turn's sequence number.

The file is hostile until read: its size, encoding, every line's shape and every key are checked here, and each fault
is reported with its line, at most MAX_ERRORS of them. Whether a key names a real SQL turn is the service's check
(review.rating.services), which knows the dialogues.
"""

import csv
import io
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from annotation.plumbing.jsonfile import parse_json

MAX_BYTES = 5 * 1024 * 1024
MAX_LINES = 100_000
RESPONSE_MAX_CHARS = 2000
MAX_ERRORS = 20
FIELDS = ("dialogue", "turn", "response")


class ModelFileError(ValueError):
    """What is wrong with an uploaded file: `errors`, one line each, in the file's order."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("; ".join(errors))


@dataclass
class ModelResponses:
    """The responses read: (dialogue id, turn seq) -> text, and the line each came from (for later errors)."""

    texts: dict[tuple[int, int], str] = field(default_factory=dict)
    lines: dict[tuple[int, int], int] = field(default_factory=dict)


def _whole_number(value, *, name: str, line: int, errors: list[str]) -> int | None:
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 12:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value > 10**12:
        errors.append(
            gettext("line %(line)s: '%(name)s' must be a whole number from 1 (%(value)r given)")
            % {"line": line, "name": name, "value": str(value)[:40]}
        )
        return None
    return value


def _row_read(row: dict, line: int, found: ModelResponses, errors: list[str]) -> None:
    missing = [name for name in FIELDS if name not in row]
    extra = sorted(str(name)[:40] for name in row if name not in FIELDS)
    if missing or extra:
        said = []
        if missing:
            said.append(gettext("missing %(names)s") % {"names": ", ".join(missing)})
        if extra:
            said.append(gettext("unknown %(names)s") % {"names": ", ".join(extra)})
        errors.append(
            gettext("line %(line)s: %(faults)s (a line holds exactly %(fields)s)")
            % {"line": line, "faults": "; ".join(said), "fields": ", ".join(FIELDS)}
        )
        return
    dialogue = _whole_number(row["dialogue"], name="dialogue", line=line, errors=errors)
    turn = _whole_number(row["turn"], name="turn", line=line, errors=errors)
    text = row["response"]
    if not isinstance(text, str) or not text.strip():
        errors.append(gettext("line %(line)s: 'response' must be non-empty text") % {"line": line})
        return
    text = text.strip()
    if len(text) > RESPONSE_MAX_CHARS:
        errors.append(
            gettext("line %(line)s: the response is %(length)s characters long (at most %(max)s)")
            % {"line": line, "length": len(text), "max": RESPONSE_MAX_CHARS}
        )
        return
    if dialogue is None or turn is None:
        return
    key = (dialogue, turn)
    if key in found.texts:
        errors.append(
            gettext("line %(line)s: dialogue %(dialogue)s, turn %(turn)s again (first on line %(first)s)")
            % {"line": line, "dialogue": dialogue, "turn": turn, "first": found.lines[key]}
        )
        return
    found.texts[key], found.lines[key] = text, line


def _json_lines(text: str, name: str, found: ModelResponses, errors: list[str]) -> None:
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            row = parse_json(raw, source=gettext("line %(line)s") % {"line": number})
        except ValidationError as exc:
            errors.append(exc.messages[0])
        else:
            if isinstance(row, dict):
                _row_read(row, number, found, errors)
            else:
                errors.append(
                    gettext("line %(line)s: a JSON object is expected, not %(type)s")
                    % {"line": number, "type": type(row).__name__}
                )
        if len(errors) > MAX_ERRORS:
            return


def _csv_rows(text: str, name: str, found: ModelResponses, errors: list[str]) -> None:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header is None or [cell.strip().lower() for cell in header] != list(FIELDS):
            shown = ",".join(cell[:40] for cell in header or [])
            errors.append(
                gettext("line 1: the header must be %(fields)s (found %(found)r)")
                % {"fields": ",".join(FIELDS), "found": shown}
            )
            return
        for row in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(FIELDS):
                errors.append(
                    gettext("line %(line)s: %(count)s cells, %(expected)s expected")
                    % {"line": number, "count": len(row), "expected": len(FIELDS)}
                )
            else:
                _row_read(dict(zip(FIELDS, row, strict=True)), number, found, errors)
            if len(errors) > MAX_ERRORS:
                return
    except csv.Error as exc:
        errors.append(
            gettext("line %(line)s: not readable as CSV (%(error)s)") % {"line": reader.line_num, "error": exc}
        )


def model_responses_read(data: bytes, name: str) -> ModelResponses:
    """The responses of an uploaded file; ModelFileError listing what is wrong (by line) when anything is. JSON lines
    when the name ends in .jsonl or .json or the text starts with '{', CSV otherwise."""
    if len(data) > MAX_BYTES:
        raise ModelFileError(
            [
                gettext("the file is %(size)s bytes: at most %(max)s")
                % {"size": f"{len(data):,}", "max": f"{MAX_BYTES:,}"}
            ]
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ModelFileError([gettext("the file is not UTF-8 text (byte %(byte)s)") % {"byte": exc.start}]) from None
    if "\x00" in text:
        raise ModelFileError([gettext("the file holds NUL characters: it is not a text file")])
    if not text.strip():
        raise ModelFileError([gettext("the file is empty")])
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        raise ModelFileError(
            [
                gettext("the file has %(lines)s lines: at most %(max)s")
                % {"lines": f"{lines:,}", "max": f"{MAX_LINES:,}"}
            ]
        )
    found, errors = ModelResponses(), []
    lower = name.lower()
    if lower.endswith((".jsonl", ".json")) or (not lower.endswith(".csv") and text.lstrip().startswith("{")):
        _json_lines(text, name, found, errors)
    else:
        _csv_rows(text, name, found, errors)
    if len(errors) > MAX_ERRORS:
        errors = [*errors[:MAX_ERRORS], gettext("and more: only the first faults are listed")]
    if not errors and not found.texts:
        errors.append(gettext("the file holds no response"))
    if errors:
        raise ModelFileError(errors)
    return found
