"""Reads of human rating (docs/human_rating.md): the turns a task may draw, a rater's items in their own order, each
rater's progress, and the figures of CoSQL's Table 6 with the raters' agreement. Nothing here writes."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from statistics import mean

from django.db.models import Count, QuerySet

from dialogs.log import DialogueRecord
from dialogs.models import Dialogue, DialogueStatus
from review.payments.csv_files import csv_text
from review.rating.agreement import krippendorff_alpha
from review.rating.models import Rating, RatingAssignment, RatingItem, RatingTask, ResponseSource
from review.records import APPROVED, dialogue_records, dialogue_selection

CONFIRM_SQL = "CONFIRM_SQL"
# Rows of the result table kept with an item and shown to raters (the row count says how many there were).
RESULT_ROWS_SHOWN = 20


@dataclass
class CandidateTurn:
    """A turn a task may draw: what raters are shown of it, and each source's response to it (when it has one)."""

    dialogue_id: int
    turn: int
    db_id: str
    question: str
    sql: str
    result: dict
    responses: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple[int, int]:
        return (self.dialogue_id, self.turn)


def dialogues_for_rating(*, campaign=None, db_ids=()) -> QuerySet[Dialogue]:
    """The dialogues a task draws from: approved in review, or completed (not dropped, not a pilot, not practice),
    of `campaign` and of the databases `db_ids` when given."""
    queryset = dialogue_selection(statuses=(APPROVED, DialogueStatus.COMPLETED), db_ids=list(db_ids) or None)
    if campaign is not None:
        queryset = queryset.filter(campaign=campaign)
    return queryset


def _result_kept(shown: dict) -> dict:
    rows = list(shown.get("rows") or [])
    return {
        "columns": list(shown.get("columns") or []),
        "rows": rows[:RESULT_ROWS_SHOWN],
        "row_count": shown.get("total_rows", shown.get("row_count", len(rows))),
    }


def candidate_turns(records: list[DialogueRecord]) -> list[CandidateTurn]:
    """The SQL turns of `records` that can be rated, in (dialogue, turn) order: a result the worker was shown, a
    query no reviewer corrected (the draft and a model describe the query that was shared, so the table must be that
    query's), and a response labelled CONFIRM_SQL (CoSQL's response generation takes only those). `responses` holds
    the expert's response as it stands (a reviewer's correction included) and the draft the room offered, when the
    log has one."""
    found = []
    for record in records:
        for state in record.state_turns():
            turn = state.turn
            if not turn.shown or turn.shown.get("error") or "query" in turn.original:
                continue
            confirmed = [response for response in turn.responses if CONFIRM_SQL in response.acts]
            if not confirmed:
                continue
            candidate = CandidateTurn(
                dialogue_id=record.id,
                turn=turn.seq,
                db_id=record.db_id,
                question=state.utterance,
                sql=turn.sql or "",
                result=_result_kept(turn.shown),
            )
            candidate.responses[ResponseSource.EXPERT] = confirmed[-1].text
            draft = turn.detected.get("draft")
            if isinstance(draft, str) and draft.strip():
                candidate.responses[ResponseSource.DRAFT] = draft
            found.append(candidate)
    return found


def turns_to_answer(*, campaign=None, db_ids=()) -> str:
    """The turns a task on these filters may draw, as JSON lines for a model to answer: each line's `dialogue` and
    `turn` are the keys a model's file gives back with its `response` (docs/human_rating.md, "A model's file"), with
    the database, the question, the SQL and the table the worker was shown."""
    records = dialogue_records(dialogues_for_rating(campaign=campaign, db_ids=db_ids), timestamps=False)
    return "".join(
        json.dumps(
            {
                "dialogue": candidate.dialogue_id,
                "turn": candidate.turn,
                "db_id": candidate.db_id,
                "question": candidate.question,
                "sql": candidate.sql,
                "result": candidate.result,
            },
            ensure_ascii=False,
            default=str,
        )
        + "\n"
        for candidate in candidate_turns(records)
    )


def sql_turn_keys(dialogue_ids) -> set[tuple[int, int]]:
    """(dialogue id, turn seq) of every SQL turn of the dialogues `dialogue_ids` that exist: what a model's file may
    name."""
    records = dialogue_records(Dialogue.objects.filter(pk__in=list(dialogue_ids)), timestamps=False)
    return {(record.id, state.turn.seq) for record in records for state in record.state_turns()}


def sample_keys(keys: list[tuple[int, int]], *, size: int, seed: int) -> list[tuple[int, int]]:
    """`size` of `keys` (all of them when fewer) drawn with `seed`: the same keys and seed draw the same sample,
    whatever order the keys came in."""
    ordered = sorted(keys)
    return sorted(random.Random(seed).sample(ordered, min(size, len(ordered))))


# --- A rater's items ------------------------------------------------------------------------------------------------


def rater_order(assignment: RatingAssignment) -> list[int]:
    """The task's item ids in this rater's order: shuffled by the assignment's own seed, so every rater meets the
    sources mixed, each in another order, and the same rater always in the same one."""
    ids = list(RatingItem.objects.filter(task_id=assignment.task_id).order_by("id").values_list("id", flat=True))
    random.Random(assignment.order_seed).shuffle(ids)
    return ids


def assignment_of(task_id: int, rater) -> RatingAssignment | None:
    return RatingAssignment.objects.filter(task_id=task_id, rater=rater).select_related("task").first()


def rated_ids(assignment: RatingAssignment) -> set[int]:
    return set(
        Rating.objects.filter(item__task_id=assignment.task_id, rater_id=assignment.rater_id).values_list(
            "item_id", flat=True
        )
    )


def next_position(assignment: RatingAssignment) -> int | None:
    """The first position (from 1) of this rater's order not rated yet; None when all are."""
    done = rated_ids(assignment)
    for position, item_id in enumerate(rater_order(assignment), start=1):
        if item_id not in done:
            return position
    return None


def rater_view(assignment: RatingAssignment) -> dict:
    """What a rater may read of their task, as the page and its JSON give it: positions, questions, SQL, tables,
    responses and whether each is rated. Never an item's id or its source (docs/human_rating.md, "Blind")."""
    order = rater_order(assignment)
    items = RatingItem.objects.in_bulk(order)
    done = {
        rating.item_id: rating
        for rating in Rating.objects.filter(item__task_id=assignment.task_id, rater_id=assignment.rater_id)
    }
    shown = []
    for position, item_id in enumerate(order, start=1):
        item, rating = items[item_id], done.get(item_id)
        shown.append(
            {
                "position": position,
                "question": item.question,
                "sql": item.sql,
                "result": item.result,
                "response": item.response,
                "rated": rating is not None,
                "logic_correct": int(rating.logic_correct) if rating else None,
                "grammar": rating.grammar if rating else None,
            }
        )
    return {
        "task": assignment.task_id,
        "name": assignment.task.name,
        "total": len(shown),
        "rated": len(done),
        "items": shown,
    }


# --- The admin's figures --------------------------------------------------------------------------------------------


def progress(task: RatingTask) -> list[dict]:
    """Each rater's progress: ratings given out of the task's items."""
    total = task.items.count()
    given = dict(
        Rating.objects.filter(item__task=task).values("rater_id").annotate(n=Count("id")).values_list("rater_id", "n")
    )
    return [
        {"rater": assignment.rater, "rated": given.get(assignment.rater_id, 0), "total": total}
        for assignment in task.assignments.select_related("rater").order_by("rater__username")
    ]


def _figures(label: str, items: list[int], ratings_by_item: dict[int, list[Rating]]) -> dict:
    ratings = [rating for item in items for rating in ratings_by_item.get(item, [])]
    rated_items = [item for item in items if ratings_by_item.get(item)]
    # CoSQL decided each response's logic correctness by the majority of its raters: more than half said correct.
    majority = [
        sum(r.logic_correct for r in ratings_by_item[item]) * 2 > len(ratings_by_item[item]) for item in rated_items
    ]
    logic_units = [[int(r.logic_correct) for r in ratings_by_item.get(item, [])] for item in items]
    grammar_units = [[r.grammar for r in ratings_by_item.get(item, [])] for item in items]
    return {
        "label": label,
        "items": len(items),
        "rated_items": len(rated_items),
        "ratings": len(ratings),
        "logic_mean": mean(int(r.logic_correct) for r in ratings) if ratings else None,
        "logic_majority": mean(majority) if majority else None,
        "lcr_percent": 100 * mean(majority) if majority else None,
        "grammar_mean": mean(r.grammar for r in ratings) if ratings else None,
        "alpha_logic": krippendorff_alpha(logic_units, "nominal"),
        "alpha_grammar": krippendorff_alpha(grammar_units, "interval"),
    }


def table6(task: RatingTask) -> list[dict]:
    """CoSQL's Table 6 for the task: per source (in the task's order), then all sources together, the items, the
    ratings, mean logic correctness over all ratings, the share of items a majority of raters found correct (the
    paper's LCR), mean grammar, and Krippendorff's alpha of logic (nominal) and grammar (interval)."""
    items_by_source: dict[str, list[int]] = {source: [] for source in task.sources}
    for item_id, source in task.items.order_by("id").values_list("id", "source"):
        items_by_source.setdefault(source, []).append(item_id)
    ratings_by_item: dict[int, list[Rating]] = {}
    for rating in Rating.objects.filter(item__task=task).order_by("item_id", "rater_id"):
        ratings_by_item.setdefault(rating.item_id, []).append(rating)
    rows = [
        {**_figures(task.source_label(source), ids, ratings_by_item), "source": source}
        for source, ids in items_by_source.items()
    ]
    everything = [item for ids in items_by_source.values() for item in ids]
    rows.append({**_figures("All sources", everything, ratings_by_item), "source": ""})
    return rows


RATINGS_CSV_HEADER = [
    "task", "item", "dialogue", "turn", "source", "model", "rater", "logic_correct", "grammar", "rated_at"
]  # fmt: skip


def ratings_csv(task: RatingTask) -> str:
    """Every rating of the task, one a line, with the item's source and, for a model's, the model's name (the
    admin's file), through the one CSV writer that keeps a cell from running as a formula."""
    ratings = Rating.objects.filter(item__task=task).select_related("item", "rater").order_by("item_id", "rater_id")
    rows = (
        [
            task.pk,
            rating.item_id,
            rating.item.dialogue_id,
            rating.item.turn,
            rating.item.source,
            task.model_name if rating.item.source == ResponseSource.MODEL else "",
            rating.rater.username,
            int(rating.logic_correct),
            rating.grammar,
            rating.rated_at.isoformat(timespec="seconds"),
        ]
        for rating in ratings
    )
    return csv_text(rows, header=RATINGS_CSV_HEADER)


def tasks_for(user, *, manager: bool) -> QuerySet[RatingTask]:
    """The tasks a person's list shows: every task for an admin, the tasks they rate for anyone else."""
    if manager:
        return RatingTask.objects.all()
    return RatingTask.objects.filter(assignments__rater=user)
