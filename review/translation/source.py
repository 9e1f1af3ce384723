"""The imported releases a translation project can be made from, and their interactions read as plain data.

A release is one imported file (`review.models.DialogueImport`: its format and content hash); its interactions are
the imported dialogues, read at their latest revision (`review.records`), so a correction made in review before the
project is made is what gets translated.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Min

from dialogs.models import Dialogue
from review.models import DatasetFormat, DialogueImport
from review.records import dialogue_records

# The releases CHASE-T translates (SParC) and its sibling in the same frame (CoSQL's state tracking).
SOURCE_FORMATS = (DatasetFormat.SPARC, DatasetFormat.COSQL)


@dataclass(frozen=True)
class Release:
    format: str
    file_name: str
    sha256: str
    interactions: int
    db_ids: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.format}:{self.sha256}"


def imported_releases() -> list[Release]:
    """Every imported SParC or CoSQL file, with how many interactions it gave and on which databases."""
    rows = (
        DialogueImport.objects.filter(format__in=SOURCE_FORMATS)
        .values("format", "file_sha256")
        .annotate(count=Count("id"), name=Min("file_name"))
        .order_by("name", "format")
    )
    releases = []
    for row in rows:
        db_ids = (
            Dialogue.objects.filter(
                dataset_import__format=row["format"], dataset_import__file_sha256=row["file_sha256"]
            )
            .values_list("database__db_id", flat=True)
            .distinct()
            .order_by("database__db_id")
        )
        releases.append(Release(row["format"], row["name"], row["file_sha256"], row["count"], tuple(db_ids)))
    return releases


def release_of(key: str) -> Release | None:
    return next((release for release in imported_releases() if release.key == key), None)


def release_interactions(release: Release, db_ids: list[str]) -> list[dict]:
    """The release's interactions on `db_ids`, in file order: {position, dialogue_id, db_id, turns: [{utterance,
    query}], final: {utterance, query}}. Only SQL-grounded turns, clarifications folded as the state files hold them."""
    imports = DialogueImport.objects.filter(
        format=release.format, file_sha256=release.sha256, dialogue__database__db_id__in=list(db_ids)
    )
    positions = dict(imports.values_list("dialogue_id", "position"))
    records = dialogue_records(Dialogue.objects.filter(pk__in=list(positions)), timestamps=False)
    interactions = []
    for record in records:
        turns = [{"utterance": state.utterance, "query": state.sql} for state in record.state_turns()]
        if not turns:
            continue
        interactions.append(
            {
                "position": positions[record.id],
                "dialogue_id": record.id,
                "db_id": record.db_id,
                "turns": turns,
                "final": {"utterance": record.goal_question, "query": record.goal_sql},
            }
        )
    return sorted(interactions, key=lambda item: item["position"])
