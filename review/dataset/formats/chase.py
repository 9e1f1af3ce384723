"""CHASE: `chase/chase_{train,dev,test}.json` (+ `chase_{split}_gold.txt` with gold), `chase/chase_tables.json`,
`chase/database/`.

Every key sorted, as the release writes them; a turn adds to SParC's `query_toks_no_value`, `question_id`, and the
labels: `contextual_phenomena`, `schema_linking` (`beg`/`end` inclusive indexes of the record's `utterance_toks`),
`intent`, `pragmatics`, `question_style` (present but empty where the turn has none), and `ambiguity` (not in the
release) where an expert labelled a user turn ambiguous or unanswerable with a sub-type. Every LIMIT is 1 by
default (the release's quirk). The release check also finds every label a person confirmed in the file.
"""

from __future__ import annotations

import json
from collections import Counter

from annotation.labels.acts import CHASE_INTENT_LABELS
from annotation.labels.tokens import utterance_toks
from dialogs.log import FOLD_SEPARATOR, LABEL_FIELDS, DialogueRecord, StateTurn, UserTurn
from review.dataset.formats.base import (
    Key,
    PlannedTurn,
    ReadingContext,
    annotation_of,
    describe,
    encoded_sql,
    final,
    query_toks_no_value,
    turn_tokens,
)
from review.dataset.formats.interaction import InteractionFormat


def chase_interaction(record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
    """A CHASE record. Labels come from the room's log where they were collected there (the expert's, else what was
    detected), else from the turn's imported annotation, and are present but empty where neither has them; spans
    (schema_linking) index this record's `utterance_toks` (see chase_links)."""
    turns = []
    for turn in planned:
        annotation = annotation_of(record, turn)
        tokens = turn_tokens(record, turn)
        labels = {
            "contextual_phenomena": [],
            "schema_linking": [],
            "intent": "",
            "pragmatics": "",
            "question_style": "",
        }
        question_id = f"d{record.id}t{turn.state.turn.seq}"
        if annotation is not None:
            labels["contextual_phenomena"] = list(annotation.contextual_phenomena or [])
            labels["intent"] = annotation.intent
            labels["pragmatics"] = annotation.pragmatics
            labels["question_style"] = annotation.question_style
            if annotation.utterance == turn.state.utterance:
                labels["schema_linking"] = list(annotation.schema_linking or [])
            question_id = annotation.question_id or question_id
        labels.update(_collected_chase_labels(turn.state, tokens))
        ambiguities = chase_ambiguities(turn.state, tokens)
        if ambiguities:
            labels["ambiguity"] = ambiguities
        turns.append(
            {
                **labels,
                "query": turn.state.sql,
                "query_toks_no_value": query_toks_no_value(turn.state.sql),
                "question_id": question_id,
                "sql": encoded_sql(turn.check, limit_mode),
                "utterance": turn.state.utterance,
                "utterance_toks": tokens,
            }
        )
    return {
        "database_id": record.db_id,
        "final": final(record, planned),
        "interaction": turns,
    }


def _collected_chase_labels(state: StateTurn, tokens: list[str]) -> dict:
    """The CHASE labels a turn got in the room (or in review), in the release's vocabulary: the intent as CHASE's
    label of its category (detected from the SQL unless a person changed it). Schema links go only once a person
    confirmed them (proposals are a starting point, not a label), moved onto `tokens`, the record's tokens (a turn
    folded with its clarification starts with the question and the clarification)."""
    labels = state.turn.labels
    collected = {}
    if labels.get("intent"):
        collected["intent"] = CHASE_INTENT_LABELS[labels["intent"]["category"]]
    if "contextual_phenomena" in labels:
        collected["contextual_phenomena"] = list(labels["contextual_phenomena"])
    for name in ("pragmatics", "question_style"):  # CHASE's own values (annotation.labels.acts), "" when not labelled
        if labels.get(name):
            collected[name] = labels[name]
    if "schema_linking" in carried_labels(state.turn):
        moved = chase_links(labels["schema_linking"], own=utterance_toks(state.turn.text), tokens=tokens)
        if moved is not None:
            collected["schema_linking"] = moved
    return collected


def carried_labels(turn: UserTurn) -> set[str]:
    """The labels a person set on `turn` that the CHASE export carries: every confirmed one, except schema links
    set before a reviewer corrected the turn's text and not set again since (they index words that are gone)."""
    carried = set(turn.confirmed) & set(LABEL_FIELDS)
    if "schema_linking" in carried and "utterance" in turn.original:
        text_changed = max(c.seq for c in turn.corrections if c.field == "utterance")
        relinked = [c.seq for c in turn.corrections if c.field == "schema_linking"]
        if not relinked or max(relinked) < text_changed:
            carried.discard("schema_linking")
    return carried


def chase_links(spans: list[dict], *, own: list[str], tokens: list[str]) -> list[dict] | None:
    """Schema-linking spans over `own` (the tokens of the turn's own text, which the room and review check them
    against) moved onto `tokens` (the record's `utterance_toks`, which a fold prefixes with the question and the
    clarification). The own tokens normally end the folded ones, so every span moves by the same offset; where the
    tokeniser read the folded text differently (a Chinese part makes it split the whole text by character), each
    span is looked up by its words, the last occurrence first. None when a span's words are not found."""
    if len(tokens) >= len(own) and tokens[len(tokens) - len(own) :] == own:
        offset = len(tokens) - len(own)
        return [{**span, "beg": span["beg"] + offset, "end": span["end"] + offset} for span in spans]
    moved = []
    for span in spans:
        words = own[span["beg"] : span["end"] + 1]
        starts = [i for i in range(len(tokens) - len(words), -1, -1) if tokens[i : i + len(words)] == words]
        if not words or not starts:
            return None
        moved.append({**span, "beg": starts[0], "end": starts[0] + len(words) - 1})
    return moved


def chase_ambiguities(state: StateTurn, tokens: list[str]) -> list[dict]:
    """The ambiguity labels (dialogs.log: type, span, readings) of the user turns a CHASE turn holds, in order: the
    questions folded in before it, then its own. A span moves onto `tokens` (the record's tokens) by where its part of
    the fold starts there; where the tokeniser read the folded text otherwise, to the first place its words occur from
    that part on; where they are not found, the span is left out."""
    carried = []
    sources = [*state.folded_turns, state.turn]
    for index, source in enumerate(sources):
        if not source.ambiguity:
            continue
        ambiguity = {key: value for key, value in source.ambiguity.items() if key != "span"}
        span = source.ambiguity.get("span")
        if span is not None:
            part = 2 * index if index < len(sources) - 1 else len(state.parts) - 1
            start = len(utterance_toks(FOLD_SEPARATOR.join(state.parts[:part]))) if part else 0
            own = utterance_toks(source.text)
            words = own[span["beg"] : span["end"] + 1]
            # The part's own tokens follow the separator's token, "|" (or start the text).
            at = [offset for offset in (start + 1, start) if tokens[offset : offset + len(own)] == own]
            found = [at[0] + span["beg"]] if at else []
            found += [
                i for i in range(max(start - 1, 0), len(tokens) - len(words) + 1) if tokens[i : i + len(words)] == words
            ]
            if words and found:
                ambiguity["span"] = {"beg": found[0], "end": found[0] + len(words) - 1}
        carried.append(dict(sorted(ambiguity.items())))
    return carried


def check_labels(reading: ReadingContext, name: str, items: list, got: list[Key], want: list[Key], records) -> None:
    """Every label a person confirmed on an exported turn is in the CHASE file `name` (where the interaction itself
    agrees: a missing one is reported already)."""
    for index, record in enumerate(records):
        if index >= len(got) or got[index] != want[index]:
            continue
        file_turns = items[index]["interaction"]
        for planned, file_turn in zip(reading.plan.turns[record.id], file_turns, strict=True):
            turn = planned.state.turn
            carried = carried_labels(turn)
            if not carried:
                continue
            where = f"{name}: {describe(record)}, turn {turn.seq}"
            if planned.state.folded:
                where += " (folded with its clarification)"
            labels = turn.labels
            if "intent" in carried and labels.get("intent"):
                if file_turn.get("intent") != CHASE_INTENT_LABELS[labels["intent"]["category"]]:
                    reading.add(f"{where}: the confirmed intent is not in the file")
            if "contextual_phenomena" in carried:
                if file_turn.get("contextual_phenomena") != list(labels.get("contextual_phenomena") or []):
                    reading.add(f"{where}: the confirmed contextual phenomena are not in the file")
            if "schema_linking" in carried:
                lost = _links_lost(labels.get("schema_linking") or [], turn.text, file_turn)
                if lost:
                    reading.add(f"{where}: {lost} confirmed schema link{'s' * (lost != 1)} not in the file")


def _links_lost(confirmed: list[dict], text: str, file_turn: dict) -> int:
    """How many `confirmed` spans (over the tokens of the turn's own text) have no span in the file that links the
    same words to the same entity."""
    own = utterance_toks(text)
    tokens = file_turn.get("utterance_toks") or []
    there = Counter(
        (tuple(tokens[span["beg"] : span["end"] + 1]), span.get("type"), json.dumps(span.get("entity"), sort_keys=True))
        for span in file_turn.get("schema_linking") or []
        if isinstance(span, dict) and isinstance(span.get("beg"), int) and isinstance(span.get("end"), int)
    )
    lost = 0
    for span in confirmed:
        key = (tuple(own[span["beg"] : span["end"] + 1]), span["type"], json.dumps(span["entity"], sort_keys=True))
        if there[key] > 0:
            there[key] -= 1
        else:
            lost += 1
    return lost


class Chase(InteractionFormat):
    name = "chase"
    folder = "chase"
    state_file = "chase/chase_{split}.json"
    gold_file = "chase/chase_{split}_gold.txt"
    tables_file = "chase/chase_tables.json"
    limit_mode = "one"
    schema_kind = "chase"
    sort_keys = True
    check_reads_items = True  # check_labels reads each interaction's turns

    def interaction(self, record: DialogueRecord, planned: list[PlannedTurn], *, limit_mode: str) -> dict:
        return chase_interaction(record, planned, limit_mode=limit_mode)

    def check_split(self, reading, split, name, items, got, want, records) -> None:
        check_labels(reading, name, items, got, want, records)


CHASE = Chase()
