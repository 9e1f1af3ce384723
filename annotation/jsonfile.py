"""Reading the JSON files that the import commands are given (Spider tables.json, goal files, released datasets).

One place decides what a broken file is told: a person who passed a truncated download, a file in another encoding
or not JSON at all gets one line naming the file and the problem, never a traceback.
"""

import json
from pathlib import Path

from django.core.exceptions import ValidationError


def read_json_file(path: Path):
    """The parsed content of the UTF-8 JSON file at `path`; ValidationError with a one-line reason otherwise."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValidationError(f"{path}: cannot read it ({exc.strerror}).") from None
    try:
        # utf-8-sig: a byte order mark, which some editors write, is not a reason to refuse a file.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            f"{path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}): save it as UTF-8."
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # Stopped by the end of the text, or by a string the end of the text left open: a download cut short.
        ended = not text[exc.pos :].strip() or exc.msg.startswith("Unterminated string")
        hint = " (the file ends before the JSON does: is it cut short?)" if ended else ""
        raise ValidationError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}{hint}."
        ) from None
