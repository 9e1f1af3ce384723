"""Reading released files (CoSQL state tracking, SParC, CHASE) into plain interactions, ready to become dialogues.

Each file is first checked against the schema the exporter writes to (`review/schemas`), so an import refuses
what an export could not produce, with the place of the first problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from dialogs.log import FOLD_SEPARATOR
from review.dataset import validation

SCHEMA_OF_FORMAT = {"cosql": "cosql_state_tracking", "sparc": "sparc", "chase": "chase"}
CHASE_LABELS = ("question_id", "contextual_phenomena", "schema_linking", "intent", "pragmatics", "question_style")


@dataclass
class ImportedTurn:
    utterance: str  # as in the file (folded for a CoSQL clarification)
    query: str
    text: str  # what the user said last (the answer, for a folded turn)
    clarifications: list[tuple[str, str]] = field(default_factory=list)  # (user question, expert clarification)
    labels: dict = field(default_factory=dict)  # TurnAnnotation fields: utterance_toks and CHASE labels
    # The ambiguity labels a release made here carries (CHASE's `ambiguity`, docs/formats.md), as in the file.
    ambiguities: list[dict] = field(default_factory=list)


@dataclass
class ImportedInteraction:
    position: int
    db_id: str
    final_utterance: str
    final_query: str
    interaction_id: int | None
    turns: list[ImportedTurn]


def unfold(utterance: str) -> tuple[list[tuple[str, str]], str]:
    """Split a CoSQL folded turn "q | c | a" (or a longer chain) into [(q, c)] and the answer a. A text whose parts
    do not alternate user/expert/user (an even number of parts) is not a fold and stays whole."""
    parts = utterance.split(FOLD_SEPARATOR)
    if len(parts) < 3 or len(parts) % 2 == 0:
        return [], utterance
    pairs = [(parts[index], parts[index + 1]) for index in range(0, len(parts) - 1, 2)]
    return pairs, parts[-1]


def read_release(fmt: str, data, *, name: str) -> list[ImportedInteraction]:
    """Check `data` (the parsed file `name`) against the format's schema and return its interactions in order."""
    problems = validation.schema_errors(SCHEMA_OF_FORMAT[fmt], data)
    if problems:
        raise ValidationError(
            gettext("%(file)s is not a %(format)s file: %(problems)s")
            % {"file": name, "format": fmt, "problems": "; ".join(problems[:5])}
        )
    interactions = []
    for position, item in enumerate(data):
        turns = []
        for turn in item["interaction"]:
            clarifications, text = unfold(turn["utterance"]) if fmt == "cosql" else ([], turn["utterance"])
            labels = {"utterance_toks": turn["utterance_toks"]}
            if fmt == "chase":
                labels.update({key: turn[key] for key in CHASE_LABELS if key in turn})
            if fmt == "sparc" and "thematic_relations" in turn:  # written by this platform's export only
                labels["thematic_relations"] = list(turn["thematic_relations"])
            turns.append(
                ImportedTurn(
                    utterance=turn["utterance"],
                    query=turn["query"],
                    text=text,
                    clarifications=clarifications,
                    labels=labels,
                    ambiguities=turn.get("ambiguity", []) if fmt == "chase" else [],
                )
            )
        interactions.append(
            ImportedInteraction(
                position=position,
                db_id=item["database_id"],
                final_utterance=item["final"]["utterance"],
                final_query=item["final"]["query"],
                interaction_id=item.get("interaction_id"),
                turns=turns,
            )
        )
    return interactions
