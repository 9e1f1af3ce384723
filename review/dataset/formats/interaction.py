"""What the interaction formats (SParC, CoSQL, CHASE) share: a JSON list of interactions per split (the state file),
the gold file that grades them beside it when gold is asked for, a tables file and a database/ folder holding
exactly the databases those files use.

Each format's module says how one interaction is built (`interaction`) and what its files hold beyond that
(`write_split`/`write_whole`, `check_split`/`check_whole`: CoSQL's other files, CHASE's labels).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from review.dataset.formats.base import Format, Key, PlannedTurn, ReadingContext, WritingContext, parts_of
from review.dataset.formats.gold import check_gold, write_gold
from review.dataset.splits import SPLITS

if TYPE_CHECKING:
    from dialogs.log import DialogueRecord


def file_key(item) -> Key:
    """An interaction of a state file as the release check compares it."""
    if not isinstance(item, dict):
        return "", ()
    turns = item.get("interaction") or []
    return item.get("database_id"), tuple(
        (turn.get("utterance"), turn.get("query")) if isinstance(turn, dict) else (None, None) for turn in turns
    )


class InteractionFormat(Format):
    schema_kind: str = ""  # the validation schema of the state file (review/dataset/schemas)
    sort_keys: bool = False
    # Whether `check_split` reads the state file's items (CHASE's labels): the file is then parsed whole; otherwise
    # it is read an interaction at a time and `check_split` is given no items.
    check_reads_items: bool = False

    def interaction(self, record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
        raise NotImplementedError

    def write(self, writing: WritingContext) -> None:
        held = self.held(writing.records, writing.plan, cosql_solo=writing.cosql_solo)
        held_by_split = writing.by_split(held)
        limit_mode = writing.limit_modes[self.name]
        for split in SPLITS:
            kept = held_by_split[split]
            interactions = (
                [self.interaction(record, writing.plan.turns[record.id], limit_mode=limit_mode) for record in part]
                for part in parts_of(kept)
            )
            name = self.state_file.format(split=split)
            writing.json_parts(name, interactions, kind=self.schema_kind, sort_keys=self.sort_keys)
            self.write_split(writing, split, kept)
        if writing.graded(self.name):
            write_gold(writing, self.gold_file, held_by_split)
        self.write_whole(writing, held)
        writing.databases_used(self, held)

    def write_split(self, writing: WritingContext, split: str, kept: list[DialogueRecord]) -> None:
        """The format's other files of one split, after its state file."""

    def write_whole(self, writing: WritingContext, held: list[DialogueRecord]) -> None:
        """The format's files of the whole release, after its gold."""

    def check(self, reading: ReadingContext) -> dict[str, list[Key]]:
        held = self.held(reading.records, reading.plan, cosql_solo=reading.cosql_solo)
        expected = reading.by_split(held)
        splits_held: dict[str, list[Key]] = {}
        for split in SPLITS:
            want = [reading.key(record) for record in expected[split]]
            name = self.state_file.format(split=split)
            if self.check_reads_items:
                items = reading.json(name) or []
                got = [file_key(item) for item in items]
            else:  # read an interaction at a time: only their keys are kept
                read = reading.items(name)
                got = [file_key(item) for item in read]
                items, got = [], got if read.ok else []
            reading.compare(name, want, got, expected[split])
            splits_held[split] = got
            self.check_split(reading, split, name, items, got, want, expected[split])
            if reading.graded(self.name):
                check_gold(reading, self.gold_file.format(split=split), want, expected[split])
        reading.one_split_per_database(self.folder, splits_held)
        self.check_whole(reading, held)
        reading.databases_used(self, {db_id for keys in splits_held.values() for db_id, _ in keys})
        return splits_held

    def check_split(
        self,
        reading: ReadingContext,
        split: str,
        name: str,
        items: list,
        got: list[Key],
        want: list[Key],
        records: list[DialogueRecord],
    ) -> None:
        """What the format checks of one split beyond its interactions (`name` is its state file, `items` what the
        file holds when `check_reads_items`, `got` their keys, `want` the release's of `records`)."""

    def check_whole(self, reading: ReadingContext, held: list[DialogueRecord]) -> None:
        """What the format checks of its files of the whole release."""
