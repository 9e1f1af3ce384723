"""Train/dev/test splits by database, as Spider, SParC and CoSQL split (7:1:2; no database in two splits)."""

from __future__ import annotations

import random
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from annotation.plumbing.jsonfile import decoded_text, parse_json

SPLITS = ("train", "dev", "test")
RATIO = (7, 1, 2)


class SplitError(ValueError):
    """A split file that cannot be used, with the reason."""


def split_databases(db_ids, *, seed: int) -> dict[str, str]:
    """Assign each database to train, dev or test in the ratio 7:1:2, the same way for the same seed and ids.

    The ids are sorted before shuffling, so the order they arrive in does not matter. Counts are rounded by largest
    remainder; with three databases or more every split gets at least one.
    """
    ids = sorted(set(db_ids))
    random.Random(seed).shuffle(ids)
    total = len(ids)
    exact = [total * part / sum(RATIO) for part in RATIO]
    counts = [int(value) for value in exact]
    by_remainder = sorted(range(3), key=lambda i: (exact[i] - counts[i], -i), reverse=True)
    for index in by_remainder[: total - sum(counts)]:
        counts[index] += 1
    if total >= 3:
        for index in range(3):
            if counts[index] == 0:
                donor = max(range(3), key=lambda i: counts[i])
                counts[donor] -= 1
                counts[index] += 1
    assignment: dict[str, str] = {}
    position = 0
    for split, count in zip(SPLITS, counts, strict=True):
        for db_id in ids[position : position + count]:
            assignment[db_id] = split
        position += count
    return assignment


def read_split_file(path: Path | str, *, name: str | None = None) -> dict[str, str]:
    """Read db_id → split from a JSON object ({"db": "dev", ...}) or from lines `db_id<TAB or spaces>split`.
    `name` is what a refusal calls the file (an upload's own name, not the path of its temporary copy)."""
    name = name or str(path)
    try:
        text = decoded_text(Path(path).read_bytes(), source=name)
        # A file that opens as JSON is read as JSON, and refused as JSON: a broken one is not read again as lines.
        data = parse_json(text, source=name) if text.lstrip()[:1] in ("{", "[") else None
    except ValidationError as exc:
        raise SplitError(exc.messages[0]) from None
    if data is None:
        data = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split()
            if len(parts) != 2:
                raise SplitError(
                    gettext("%(file)s, line %(line)s: expected 'db_id split', got %(text)r")
                    % {"file": name, "line": number, "text": line[:100]}
                )
            data[parts[0]] = parts[1]
    if not isinstance(data, dict):
        raise SplitError(
            gettext("%(file)s: a split file is a JSON object db_id → split, or lines 'db_id split'") % {"file": name}
        )
    return check_split_map(data)


def check_split_map(data: dict) -> dict[str, str]:
    """Validate a db_id → split mapping; raise SplitError naming the first bad entry."""
    for db_id, split in data.items():
        if split not in SPLITS:
            raise SplitError(
                gettext("database %(db_id)r: unknown split %(split)r (use %(splits)s)")
                % {"db_id": db_id, "split": split, "splits": ", ".join(SPLITS)}
            )
    return {str(db_id): split for db_id, split in data.items()}
