"""Reading the JSON the platform is given: files of the import commands (Spider tables.json, goal files, released
datasets), lines of a corrections file, an uploaded split file, the JSON bodies of the pages' requests.

One place decides what broken JSON is told: a person who passed a truncated download, a file in another encoding,
not JSON at all, or JSON nested absurdly deep gets one line naming the file (and line) and the problem, never a
traceback.
"""

import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

# The released files nest about 16 levels (an SQL with subqueries inside a turn inside an interaction). Deeper JSON is
# refused before anything walks it: Python's parser raises RecursionError (not a ValueError) a little under 1,000
# levels, and recursive code after it gives up sooner (the schema validator at about 256 levels).
MAX_DEPTH = 100


def parse_json(text: str | bytes, *, source: str):
    """The parsed value of `text` (UTF-8 when bytes); ValidationError with a one-line reason naming `source` (a file
    name, "FILE, line N", "the request body") when it is not UTF-8, not JSON, or nested deeper than MAX_DEPTH."""
    if isinstance(text, bytes):
        text = decoded_text(text, source=source)
    too_deep = ValidationError(
        gettext("%(source)s is JSON nested deeper than %(depth)s levels: no file of ours nests so.")
        % {"source": source, "depth": MAX_DEPTH}
    )
    try:
        data = json.loads(text)
    except RecursionError:
        raise too_deep from None
    except json.JSONDecodeError as exc:
        # Stopped by the end of the text, or by a string the end of the text left open: a download cut short.
        ended = not text[exc.pos :].strip() or exc.msg.startswith("Unterminated string")
        where = {"source": source, "error": exc.msg, "line": exc.lineno, "column": exc.colno}
        if ended:
            raise ValidationError(
                gettext(
                    "%(source)s is not valid JSON: %(error)s at line %(line)s, column %(column)s (the file ends before "
                    "the JSON does: is it cut short?)."
                )
                % where
            ) from None
        raise ValidationError(
            gettext("%(source)s is not valid JSON: %(error)s at line %(line)s, column %(column)s.") % where
        ) from None
    if _deeper_than(data, MAX_DEPTH):
        raise too_deep
    return data


def request_json_object(body: bytes) -> dict:
    """The JSON object a page's request sent as its body (an empty body reads as {}); ValidationError with a one-line
    reason when it is not UTF-8, not JSON, nested too deep, or JSON but not an object. Every view taking JSON reads
    its body here."""
    data = parse_json(body or b"{}", source=gettext("The request body"))
    if not isinstance(data, dict):
        raise ValidationError(gettext("The request body must be a JSON object."))
    return data


def decoded_text(raw: bytes, *, source: str) -> str:
    """`raw` read as UTF-8; ValidationError naming `source` and the first byte that is not."""
    try:
        # utf-8-sig: a byte order mark, which some editors write, is not a reason to refuse a file.
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            gettext("%(source)s is not UTF-8 text (byte 0x%(byte)s at offset %(offset)s): save it as UTF-8.")
            % {"source": source, "byte": f"{raw[exc.start]:02x}", "offset": exc.start}
        ) from None


def _deeper_than(data, limit: int) -> bool:
    # Level by level, with lists of our own: walking it recursively is what the limit is there to spare.
    level = [data] if isinstance(data, dict | list) else []
    depth = 1
    while level:
        if depth > limit:
            return True
        below = []
        for value in level:
            for child in value.values() if isinstance(value, dict) else value:
                if isinstance(child, dict | list):
                    below.append(child)
        level, depth = below, depth + 1
    return False


def read_json_file(path: Path):
    """The parsed content of the UTF-8 JSON file at `path`; ValidationError with a one-line reason otherwise."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValidationError(
            gettext("%(path)s: cannot read it (%(reason)s).") % {"path": path, "reason": exc.strerror}
        ) from None
    return parse_json(raw, source=str(path))
