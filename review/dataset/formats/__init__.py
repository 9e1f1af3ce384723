"""The release formats, one module each: what its files hold (paths and fields), how they are written, and how the
release check reads them back.

    cosql.py  sparc.py  chase.py   the interaction formats (their shared part: interaction.py)
    gold.py                        the evaluators' gold files: beside each interaction format, or alone
    otta.py                        the query-first items (Spider's layout, and trees with alignments)
    base.py                        what all share: the plan of exported turns, a turn's fields, `Format`

`FORMATS` maps the name an export is asked for by to its format; the export (review/dataset/writer.py) and the
release check (review/dataset/release_check.py) loop over the ones asked for. Key orders follow the public files
(SParC: database_id, interaction, final; CoSQL: final, database_id, interaction; CHASE: every key sorted), so that a
diff against a release shows content, not layout.
"""

from __future__ import annotations

from dialogs.log import DialogueRecord
from review.dataset.formats.base import SQL_ERROR_POLICIES, Format, Plan, PlannedTurn, forget_tokens, plan_turns
from review.dataset.formats.chase import CHASE
from review.dataset.formats.cosql import ALL_INFO as COSQL_ALL_INFO
from review.dataset.formats.cosql import COSQL
from review.dataset.formats.cosql import SPLIT_FILES as COSQL_SPLIT_FILES
from review.dataset.formats.gold import GOLD
from review.dataset.formats.otta import OTTA
from review.dataset.formats.sparc import SPARC

FORMATS: dict[str, Format] = {fmt.name: fmt for fmt in (COSQL, SPARC, CHASE, GOLD, OTTA)}

# Each format's paths, by format name (the interaction formats': CoSQL, SParC, CHASE).
FOLDERS = {name: fmt.folder for name, fmt in FORMATS.items()}
STATE_FILES = {name: fmt.state_file for name, fmt in FORMATS.items() if fmt.state_file}
GOLD_FILES = {name: fmt.gold_file for name, fmt in FORMATS.items() if fmt.gold_file}
TABLES_FILES = {name: FORMATS[name].tables_file for name in STATE_FILES}
DEFAULT_LIMIT_MODES = {name: fmt.limit_mode for name, fmt in FORMATS.items() if fmt.limit_mode}

__all__ = [
    "COSQL_ALL_INFO",
    "COSQL_SPLIT_FILES",
    "DEFAULT_LIMIT_MODES",
    "FOLDERS",
    "FORMATS",
    "GOLD_FILES",
    "SQL_ERROR_POLICIES",
    "STATE_FILES",
    "TABLES_FILES",
    "Format",
    "Plan",
    "PlannedTurn",
    "forget_tokens",
    "formats_written",
    "plan_turns",
    "release_formats",
    "release_records",
]


def release_formats(formats_wanted: list[str]) -> tuple[list[str], list[str]]:
    """(the interaction formats of a release, the formats whose gold it holds). Gold files grade one format's
    interactions, so they go with each interaction format asked for; asked for alone, they hold every exported
    dialogue."""
    interactions = [fmt for fmt in formats_wanted if fmt in STATE_FILES]
    if "gold" not in formats_wanted:
        return interactions, []
    return interactions, interactions or ["gold"]


def formats_written(formats_wanted: list[str]) -> list[Format]:
    """The formats an export writes, in order: the interaction formats asked for (each with its gold when gold is
    asked for), gold alone when it is the only one of them, the query-first items."""
    interactions, gold_formats = release_formats(formats_wanted)
    alone = ["gold"] if gold_formats == ["gold"] else []
    return [FORMATS[name] for name in [*interactions, *alone, *(["otta"] if "otta" in formats_wanted else [])]]


def release_records(
    fmt: str, records: list[DialogueRecord], plan: Plan, *, cosql_solo: bool = False
) -> list[DialogueRecord]:
    """The dialogues the files of format `fmt` hold, in the order they are written (Format.held)."""
    return FORMATS[fmt].held(records, plan, cosql_solo=cosql_solo)
