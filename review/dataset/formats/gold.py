"""Gold files for the evaluators: one line per turn, `SQL<TAB>db_id`, an empty line after each interaction.

A gold file grades one format's interactions, so each interaction format writes one beside its files (its
`gold_file`: `cosql_dataset/sql_state_tracking/{split}_gold.txt`, `sparc/{split}_gold.txt`,
`chase/chase_{split}_gold.txt`) when gold is asked for with it, with `write_gold` and `check_gold` below. Asked for
alone, the format "gold" writes `gold/{split}_gold.txt`, holding every exported dialogue.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from review.dataset import validation
from review.dataset.formats.base import Format, Key, ReadingContext, WritingContext
from review.dataset.splits import SPLITS

if TYPE_CHECKING:
    from dialogs.log import DialogueRecord


def gold_text(interactions: list[tuple[str, list[str]]]) -> str:
    """The evaluators' gold file: `SQL<TAB>db_id` per turn, an empty line after each interaction (so the file ends
    with one: an older evaluator drops the last interaction otherwise). Line breaks and tabs in SQL become spaces."""
    blocks = []
    for db_id, queries in interactions:
        lines = "".join(f"{one_line(sql)}\t{db_id}\n" for sql in queries)
        blocks.append(lines + "\n")
    return "".join(blocks)


def one_line(sql: str) -> str:
    return sql.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")


def write_gold(writing: WritingContext, template: str, held_by_split: dict[str, list[DialogueRecord]]) -> None:
    """Write the gold file of each split (`template` with `{split}`) for the dialogues `held_by_split`; raises
    validation.SchemaViolation if one is not a gold file an evaluator reads."""
    for split in SPLITS:
        turns = writing.plan.turns
        text = gold_text(
            [(record.db_id, [turn.state.sql for turn in turns[record.id]]) for record in held_by_split[split]]
        )
        name = template.format(split=split)
        problems = validation.gold_errors(text)
        if problems:
            raise validation.SchemaViolation(f"{PurePosixPath(name).name}: " + "; ".join(problems))
        writing.text(name, text)


def read_gold(reading: ReadingContext, name: str) -> list[tuple[str, list[str]]]:
    """The interactions of a gold file: (db_id, its SQL lines), as an evaluator groups them (blank-line separated)."""
    try:
        text = (reading.out_dir / name).read_text(encoding="utf-8")
    except FileNotFoundError:
        reading.add(f"{name}: missing")
        return []
    blocks: list[tuple[str, list[str]]] = []
    current: list[tuple[str, str]] = []
    for line in text.split("\n"):
        if line:
            sql, _, db_id = line.rpartition("\t")
            current.append((db_id, sql))
            continue
        if current:
            databases = {db_id for db_id, _ in current}
            if len(databases) > 1:
                reading.add(f"{name}: one interaction mixes databases {', '.join(sorted(databases))}")
            blocks.append((current[0][0], [sql for _, sql in current]))
            current = []
    if current:
        reading.add(f"{name}: the last interaction is not followed by an empty line")
        blocks.append((current[0][0], [sql for _, sql in current]))
    return blocks


def check_gold(reading: ReadingContext, name: str, want: list[Key], records: list[DialogueRecord]) -> list[Key]:
    """Compare the gold file `name` with the interactions the release holds there (`want`, of `records`); return
    what the file holds, as keys without utterances."""
    got = read_gold(reading, name)
    gold_want = [(db_id, tuple(one_line(sql) for _, sql in turns)) for db_id, turns in want]
    gold_got = [(db_id, tuple(queries)) for db_id, queries in got]
    reading.compare(name, gold_want, gold_got, records)
    return [(db_id, tuple((None, sql) for sql in queries)) for db_id, queries in got]


class Gold(Format):
    """Gold asked for alone: every exported dialogue, no tables or databases beside it."""

    name = "gold"
    folder = "gold"
    gold_file = "gold/{split}_gold.txt"

    def write(self, writing: WritingContext) -> None:
        write_gold(writing, self.gold_file, writing.by_split(self.held(writing.records, writing.plan)))

    def check(self, reading: ReadingContext) -> dict[str, list[Key]]:
        expected = reading.by_split(self.held(reading.records, reading.plan))
        splits_held = {}
        for split in SPLITS:
            want = [reading.key(record) for record in expected[split]]
            splits_held[split] = check_gold(reading, self.gold_file.format(split=split), want, expected[split])
        reading.one_split_per_database(self.folder, splits_held)
        return splits_held


GOLD = Gold()
