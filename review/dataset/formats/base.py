"""What the release formats share: which turns of which dialogues go into the files (`plan_turns`), the turn as every
format writes it (its tokens, its `sql` with the format's LIMIT encoding, an interaction's `final`), and `Format`,
what each format's module answers: the dialogues its files hold, how it writes them, how the release check reads
them back.

The `sql` field is written with LIMIT values kept ("value") or as the releases' quirk ("one", every LIMIT is 1): per
format by default (`Format.limit_mode`), as measured on the public samples (CoSQL and CHASE hold the quirk, SParC
the values).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from annotation.labels.tokens import tokens_cache_clear as utterance_tokens_cache_clear
from annotation.labels.tokens import utterance_toks
from annotation.sql.check import SqlCheck, result_digest
from annotation.sql.encoding import limit_as_one
from annotation.sql.spider import query_toks_no_value as _query_toks_no_value
from dialogs.log import DialogueRecord, StateTurn


class WritingContext(Protocol):
    """What a format writes with: `review.dataset.writer.Writing` (the folder, the plan, the splits, the databases).
    Named here as a shape, so that the formats import neither the writer nor the release check."""

    out_dir: Any
    plan: Any
    records: Any
    by_split: Any
    by_id: Any
    limit_modes: Any
    query_first: Any
    cosql_solo: Any
    databases_used: Any
    graded: Any

    def json(self, *args: Any, **kwargs: Any) -> Any: ...
    def json_parts(self, *args: Any, **kwargs: Any) -> Any: ...
    def text(self, *args: Any, **kwargs: Any) -> Any: ...


class ReadingContext(Protocol):
    """What a format reads its files back with: `review.dataset.release_check.Reading`."""

    out_dir: Any
    plan: Any
    records: Any
    by_split: Any
    cosql_solo: Any
    databases_used: Any
    graded: Any
    one_split_per_database: Any

    def json(self, *args: Any, **kwargs: Any) -> Any: ...
    def add(self, *args: Any, **kwargs: Any) -> Any: ...
    def key(self, *args: Any, **kwargs: Any) -> Any: ...
    def compare(self, *args: Any, **kwargs: Any) -> Any: ...


_JOINED = "\x00"  # query tokens are remembered as one string, split on use: a fifth of the memory of a tuple


@lru_cache(maxsize=50_000)
def _query_tokens(sql: str) -> str | tuple[str, ...]:
    tokens = _query_toks_no_value(sql)
    if not tokens or any(_JOINED in token for token in tokens):
        return tuple(tokens)
    return _JOINED.join(tokens)


def forget_tokens() -> None:
    """Empty the token caches the files were written with (`_query_tokens` here, the utterances' in
    annotation/labels/tokens.py): the release check needs neither, and on a large release they hold a hundred MB that
    its reading can use instead."""
    _query_tokens.cache_clear()
    utterance_tokens_cache_clear()


def query_toks_no_value(sql: str) -> list[str]:
    """`query_toks_no_value` of `sql`, remembered: several files of one export need it for the same query."""
    tokens = _query_tokens(sql)
    return tokens.split(_JOINED) if isinstance(tokens, str) else list(tokens)


# Dialogues whose items a format builds and writes at once (`parts_of`): the large files are written a part at a
# time (review/dataset/writer.py `write_json_parts`), so that a release's items are never all held together.
PART_SIZE = 500


def parts_of(records: list, size: int = PART_SIZE):
    """`records` in consecutive slices of `size`."""
    for start in range(0, len(records), size):
        yield records[start : start + size]


SQL_ERROR_POLICIES = ("skip", "keep")
MAX_LISTED_PROBLEMS = 500

# An interaction as the files can be compared on it: its database and its turns' (utterance, SQL).
Key = tuple[str, tuple]


@dataclass
class PlannedTurn:
    state: StateTurn
    check: SqlCheck


@dataclass
class Plan:
    """Which SQL-grounded turns of which dialogues go into the files, and what was found on the way."""

    turns: dict[int, list[PlannedTurn]] = field(default_factory=dict)
    problems: list[dict] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, name: str, by: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + by

    def note(self, record: DialogueRecord, state: StateTurn, problem: str, action: str) -> None:
        self.count(f"turns_{action}")
        if len(self.problems) < MAX_LISTED_PROBLEMS:
            self.problems.append(
                {
                    "dialogue": record.id,
                    "db_id": record.db_id,
                    "turn": state.turn.seq,
                    "utterance": state.utterance,
                    "sql": state.sql,
                    "problem": problem,
                    "action": action,
                }
            )


def plan_turns(records: list[DialogueRecord], checks: dict[tuple[str, str], SqlCheck], *, sql_errors: str) -> Plan:
    """Decide turn by turn what is exported. A turn whose SQL cannot be encoded is always left out (the files need
    its `sql`); one whose SQL no longer runs is left out (`skip`) or kept (`keep`); both are listed. Turns on a
    schema-only database are kept and counted as not executed; a result that differs from the one the worker was
    shown is kept and listed."""
    if sql_errors not in SQL_ERROR_POLICIES:
        raise ValueError(f"sql_errors must be one of {SQL_ERROR_POLICIES}")  # i18n-exempt: a caller's bug
    plan = Plan()
    for record in records:
        kept: list[PlannedTurn] = []
        for state in record.state_turns():
            plan.count("sql_turns")
            if state.folded:
                plan.count("folded_clarifications")
            check = checks[(record.db_id, state.sql)]
            if check.encode_error:
                plan.note(record, state, f"cannot be encoded in the Spider format: {check.encode_error}", "skipped")
                continue
            if not check.executed:
                plan.count("sql_not_executed")
            elif check.exec_error:
                action = "skipped" if sql_errors == "skip" else "kept"
                plan.note(record, state, f"does not run: {check.exec_error}", action)
                if action == "skipped":
                    continue
            elif state.turn.shown is not None and not state.turn.shown.get("error"):
                shown = state.turn.shown
                if result_digest(shown.get("columns"), shown.get("rows")) != check.result_digest:
                    plan.note(record, state, "runs, but its result differs from the table the worker was shown", "kept")
            kept.append(PlannedTurn(state, check))
        plan.turns[record.id] = kept
        if kept:
            plan.count("interactions")
        else:
            plan.count("dialogues_without_sql_turns")
    plan.count("turns_exported", sum(len(turns) for turns in plan.turns.values()))
    return plan


def encoded_sql(check: SqlCheck, limit_mode: str) -> dict:
    encoded = check.encoding()  # packed by the export (annotation/sql/check.py): a fresh dict, changed by neither
    return limit_as_one(encoded) if limit_mode == "one" else encoded


def annotation_of(record: DialogueRecord, planned: PlannedTurn):
    """The imported annotation of a planned turn (dialogs.log), or None."""
    return record.annotations.get(planned.state.turn.seq)


def turn_tokens(record: DialogueRecord, planned: PlannedTurn) -> list[str]:
    """The release's own tokens while the text is unchanged since import; otherwise the platform's tokeniser."""
    annotation = annotation_of(record, planned)
    utterance = planned.state.utterance
    if annotation is not None and annotation.utterance_toks is not None and annotation.utterance == utterance:
        return list(annotation.utterance_toks)
    return utterance_toks(utterance)


def final(record: DialogueRecord, planned: list[PlannedTurn]) -> dict:
    """The `final` of an interaction: the goal, or for a solo sequence without one (as CHASE-C was written), its last
    question, which is where the sequence ended up."""
    if record.goal_question or not planned:
        return {"query": record.goal_sql, "utterance": record.goal_question}
    last = planned[-1].state
    return {"query": last.sql, "utterance": last.utterance}


def describe(record: DialogueRecord) -> str:
    """A dialogue as the release check names it."""
    return f"dialogue {record.id} ({record.db_id})"


def record_key(record: DialogueRecord, plan: Plan) -> Key:
    """An interaction as the release promises it."""
    return record.db_id, tuple((turn.state.utterance, turn.state.sql) for turn in plan.turns[record.id])


class Format:
    """A release format, as its module knows it: the name an export is asked for by, its folder, its files (path
    templates with `{split}`, None where the format has no such file), its LIMIT encoding by default (None: not a
    choice), and three answers:

    - `held`: the dialogues its files hold, in the order they are written: those with at least one exported SQL turn
      (a format may leave some out: CoSQL's solo sequences). Every file of the format, its gold, its tables file and
      its database/ folder hold these and only these.
    - `write`: write its files into an export (`writer.Writing`: the folder, the plan, the splits, the databases).
    - `check`: read them back and compare them with the release (`release_check.Reading`); returns what its files
      hold, split by split (the interactions as `Key`s). A format whose files are not read back (`read_back` False)
      is left out of the check.
    """

    name: str = ""
    folder: str = ""
    state_file: str | None = None
    gold_file: str | None = None
    tables_file: str | None = None
    limit_mode: str | None = None
    read_back: bool = True

    def held(self, records: list[DialogueRecord], plan: Plan, *, cosql_solo: bool = False) -> list[DialogueRecord]:
        return [record for record in records if plan.turns[record.id]]

    def write(self, writing: WritingContext) -> None:
        raise NotImplementedError

    def check(self, reading: ReadingContext) -> dict[str, list[Key]]:
        raise NotImplementedError
