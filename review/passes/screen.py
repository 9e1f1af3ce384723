"""The review screen: one dialogue at its latest revision, turn by turn, with what each pass changed (word diffs) and
how a reviewer reads each field and CHASE label (`FIELD_LABELS`, `label_text`, shared with the expert's work page)."""

from __future__ import annotations

import difflib
import json

from django.utils.translation import gettext, gettext_lazy

from annotation.goals.tree_plan import plan
from annotation.labels.acts import (
    AMBIGUITY_TYPES,
    INTENT_CATEGORY_NAMES,
    PRAGMATICS,
    QUESTION_STYLES,
    THEMATIC_RELATIONS,
    thematic_proposal,
)
from annotation.labels.relations import RELATION_NAMES
from annotation.labels.tokens import utterance_toks
from annotation.models import Role, User
from dialogs import log
from dialogs.models import Dialogue, DialogueMode, EventKind, QueryFirstItem
from dialogs.room import end_reason_worded
from review.models import DialogueReview, ReviewPass, ReviewStage, ValidationWarning, WorkerQuality
from review.passes.query_checks import correction_check_view
from review.records import dialogue_record_of


def word_diff(old, new) -> list[tuple[str, str]]:
    """A word-level diff of two values as (op, text) pieces, op in "same", "del", "ins" (lists are compared as their
    space-joined items, so an act set reads as words)."""

    def words(value) -> list[str]:
        if value is None:
            return []
        if isinstance(value, bool):
            return ["DROP"] if value else ["(kept)"]
        if isinstance(value, list | tuple):
            return [str(item) for item in value]
        return str(value).split()

    before, after = words(old), words(new)
    pieces: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append(("same", " ".join(before[i1:i2])))
        if op in ("delete", "replace"):
            pieces.append(("del", " ".join(before[i1:i2])))
        if op in ("insert", "replace"):
            pieces.append(("ins", " ".join(after[j1:j2])))
    return pieces


FIELD_LABELS = {
    "utterance": gettext_lazy("Utterance"),
    "user_acts": gettext_lazy("User acts"),
    "ambiguity": gettext_lazy("Ambiguity"),
    "query": "SQL",
    "response": gettext_lazy("Response"),
    "system_acts": gettext_lazy("System acts"),
    "drop": "DROP",
    "intent": gettext_lazy("Intent (CHASE)"),
    "contextual_phenomena": gettext_lazy("Contextual phenomena"),
    "schema_linking": gettext_lazy("Schema linking"),
    "pragmatics": gettext_lazy("Phrasing (CHASE pragmatics)"),
    "question_style": gettext_lazy("Form (CHASE question style)"),
    "thematic_relations": gettext_lazy("Thematic relation (SParC)"),
}


def label_text(field: str, value, schema: dict | None = None, tokens: list[str] | None = None):
    """A CHASE label as a reviewer reads it: an intent as its category and relations, schema links as the words and
    what they name; other values unchanged."""
    if value is None:
        return None
    if field == "intent":
        relations = ", ".join(f"{name} {RELATION_NAMES[name]}" for name in value.get("relations", []))
        return f"{INTENT_CATEGORY_NAMES[value['category']]}" + (f" · {relations}" if relations else "")
    if field == "schema_linking":
        return [_link_text(span, schema, tokens) for span in value]
    if field == "ambiguity":
        return _ambiguity_text(value, tokens)
    if field in ("pragmatics", "question_style"):
        names = PRAGMATICS if field == "pragmatics" else QUESTION_STYLES
        return f"{names[value]} ({value})" if value in names else (value or None)
    if field == "thematic_relations":
        return ", ".join(THEMATIC_RELATIONS.get(name, name).split(":")[0] for name in value) or None
    return value


def _ambiguity_text(value: dict, tokens: list[str] | None) -> str:
    """An ambiguity label as one line: its sub-type, the words it concerns, and its readings' SQL."""
    parts = [value["type"].replace("_", " ")]
    span = value.get("span")
    if span:
        words = tokens[span["beg"] : span["end"] + 1] if tokens else []
        parts.append(f"“{' '.join(words)}”" if words else _tokens_text(span))
    parts.extend(
        gettext("reading %(number)s: %(sql)s") % {"number": number, "sql": sql}
        for number, sql in enumerate(value.get("readings") or [], 1)
    )
    return " · ".join(parts)


def _tokens_text(span: dict) -> str:
    return gettext("tokens %(beg)s-%(end)s") % {"beg": span["beg"], "end": span["end"]}


def _link_text(span: dict, schema: dict | None, tokens: list[str] | None) -> str:
    words = " ".join(tokens[span["beg"] : span["end"] + 1]) if tokens else _tokens_text(span)
    entity = span["entity"]
    if schema is None:
        named = entity.get("value", "")
    elif span["type"] == "table":
        named = gettext("table %(table)s") % {"table": schema["table_names"][entity["tableId"]]}
    else:
        table, column = schema["column_names"][entity["columnId"]]
        where = f"{schema['table_names'][table]}.{column}"
        if span["type"] == "value":
            named = gettext("value %(value)s of %(column)s") % {"value": entity["value"], "column": where}
        else:
            named = gettext("column %(column)s") % {"column": where}
    return f"“{words}” → {named}"


def _ambiguity_view(turn, tokens: list[str]) -> dict | None:
    """The ambiguity field of a turn as the review screen shows and edits it, or None on a turn labelled neither
    AMBIGUOUS nor CANNOT_ANSWER (a label cannot be given there: check_ambiguity)."""
    if not set(turn.acts or []) & set(AMBIGUITY_TYPES) and not turn.ambiguity:
        return None
    return {
        "text": label_text("ambiguity", turn.ambiguity, tokens=tokens),
        "json": json.dumps(turn.ambiguity),
        "tokens_json": json.dumps(tokens, ensure_ascii=False),
    }


def _labels_view(turn, schema: dict, tokens: list[str]) -> dict:
    """The CHASE labels of a turn as the review screen shows and edits them."""
    labels, detected, recommended = turn.labels, turn.detected, turn.recommended
    view = {
        "intent": label_text("intent", labels.get("intent")),
        "intent_json": json.dumps(labels.get("intent") or detected.get("intent")),
        "intent_detected": label_text("intent", detected.get("intent")),
        "phenomena": labels.get("contextual_phenomena"),
        "links": label_text("schema_linking", labels.get("schema_linking") or [], schema, tokens),
        "links_json": json.dumps(labels.get("schema_linking") or []),
        "links_confirmed": "schema_linking" in turn.confirmed,
        "tokens_json": json.dumps(tokens, ensure_ascii=False),
        "recommended": None,
        "pragmatics": labels.get("pragmatics") or "",
        "pragmatics_text": label_text("pragmatics", labels.get("pragmatics")),
        "question_style": labels.get("question_style") or "",
        "question_style_text": label_text("question_style", labels.get("question_style")),
        "thematic": "|".join(labels.get("thematic_relations") or []),
        "thematic_text": label_text("thematic_relations", labels.get("thematic_relations") or []),
        # What the detected intent proposes (annotation.labels.acts.thematic_proposal): shown as a proposal only.
        "thematic_proposal": label_text("thematic_relations", thematic_proposal(detected.get("intent"))),
    }
    if recommended:
        view["recommended"] = {
            "text": recommended["text"],
            "category": INTENT_CATEGORY_NAMES[recommended["category"]],
            "followed": turn.followed,
        }
    return view


def _outcome(record, dialogue: Dialogue) -> dict:
    """What the expert knew of the dialogue, as CoSQL's review screen shows it: how and why it ended (who ended it,
    the status, the reason given), the time it took, and the expert's score and comment of the worker."""
    end = next((event for event in record.events if event.kind == EventKind.END), None)
    payload = end.payload if end else {}
    ended_by = (
        {Role.WORKER: gettext("the worker"), Role.EXPERT: gettext("the expert")}.get(
            end.author_role, gettext("the platform")
        )
        if end
        else ""
    )
    took = record.ended_at - record.created_at if record.ended_at and record.created_at else None
    return {
        "status": dialogue.get_status_display(),
        "ended_by": ended_by,
        # The log keeps the platform's reasons in English: worded in the reviewer's language (an expert's own stays).
        "reason": end_reason_worded(payload.get("reason", "")),
        "took": gettext("%(duration)s, from pairing to the end") % {"duration": _duration(took)}
        if took is not None
        else "",
        "score": record.score,
        "comment": record.score_comment,
    }


def _duration(took) -> str:
    """A time taken as a person reads it: "12 min 5 s", "40 s"."""
    seconds = max(int(took.total_seconds()), 0)
    minutes, seconds = divmod(seconds, 60)
    if minutes:
        return gettext("%(minutes)s min %(seconds)s s") % {"minutes": minutes, "seconds": seconds}
    return gettext("%(seconds)s s") % {"seconds": seconds}


def _proposed_rejection(review: DialogueReview | None, passes: list[ReviewPass]) -> ReviewPass | None:
    """An earlier pass's rejection that still waits for this pass to confirm or overrule it (docs/review.md)."""
    if review is None or review.stage in (ReviewStage.REJECTED, ReviewStage.APPROVED):
        return None
    decided = (ReviewPass.Decision.APPROVED, ReviewPass.Decision.REJECTED)
    earlier = [item for item in passes if item.number < review.pass_number and item.decision in decided]
    last = earlier[-1] if earlier else None
    return last if last and last.decision == ReviewPass.Decision.REJECTED else None


def query_first_view(dialogue: Dialogue) -> dict | None:
    """For a query-first item (docs/goals.md), what the reviewer reads beside its turn: the plan of its tree with the
    words phase 2 gave each step, the question as phase 1 wrote it, whether it began as a draft, the filters adapted,
    and the time each phase took. None for any other dialogue (and no query for it)."""
    if dialogue.mode != DialogueMode.QUERY_FIRST:
        return None
    item = QueryFirstItem.objects.filter(dialogue=dialogue).select_related("writer", "aligner").first()
    if item is None:
        return None
    steps = []
    for step in plan(item.tree, dialogue.database.schema):
        words = [" ".join(item.tokens[s["beg"] : s["end"] + 1]) for s in item.alignment if s["step"] == step.id]
        steps.append({**step.as_dict(), "alignment_words": words})
    return {"item": item, "steps": steps}


def review_screen(dialogue: Dialogue) -> dict:
    """What the review screen shows: the dialogue at its latest revision, turn by turn, with each field's original,
    what each pass changed (as word diffs) and the history of every field. A fixed number of queries."""
    record = dialogue_record_of(dialogue)
    review = DialogueReview.objects.select_related("claimed_by").filter(dialogue=dialogue).first()
    passes = list(ReviewPass.objects.filter(review=review).select_related("reviewer")) if review else []
    people = {
        person.pk: person.username
        for person in User.objects.filter(pk__in={c.reviewer_id for c in record.corrections if c.reviewer_id})
    }
    turns = []
    schema = dialogue.database.schema
    for index, turn in enumerate(record.user_turns):
        tokens = utterance_toks(turn.text)
        history: dict[str, list[dict]] = {}
        by_pass: dict[int, list[dict]] = {}
        for correction in turn.corrections:
            entry = {
                "seq": correction.seq,
                "field": correction.field,
                "label": FIELD_LABELS[correction.field],
                "old": label_text(correction.field, correction.old, schema, tokens),
                "new": label_text(correction.field, correction.new, schema, tokens),
                "pass": correction.review_pass,
                "reason": correction.reason,
                "reviewer": people.get(correction.reviewer_id, "?"),
                "at": correction.created_at,
                "diff": word_diff(
                    label_text(correction.field, correction.old, schema, tokens),
                    label_text(correction.field, correction.new, schema, tokens),
                ),
            }
            history.setdefault(correction.field, []).append(entry)
            by_pass.setdefault(correction.review_pass, []).append(entry)
        annotation = record.annotations.get(turn.seq)
        turns.append(
            {
                "turn": turn,
                "index": index,
                "response": turn.response,
                # The table the current SQL gives, for the editor's before/after comparison (first rows only).
                "shown_json": json.dumps(
                    {
                        "columns": (turn.shown or {}).get("columns") or [],
                        "rows": ((turn.shown or {}).get("rows") or [])[:50],
                    },
                    default=str,
                ),
                "changed": sorted(history),
                "history": [
                    {"field": name, "label": FIELD_LABELS[name], "entries": entries}
                    for name, entries in history.items()
                ],
                "by_pass": [{"pass": number, "entries": entries} for number, entries in sorted(by_pass.items())],
                "annotation": annotation,
                "labels": _labels_view(turn, schema, tokens),
                # Thematic relations are a follow-up's: the field is shown where one may be given.
                "follow_up": log.follows_a_query(record.user_turns, turn.seq),
                "ambiguity": _ambiguity_view(turn, tokens),
                "suite_check": correction_check_view(turn),
            }
        )
    return {
        "record": record,
        "review": review,
        "passes": passes,
        "turns": turns,
        "outcome": _outcome(record, dialogue),
        "proposed_rejection": _proposed_rejection(review, passes),
        "worker_quality": WorkerQuality.objects.filter(worker_id=dialogue.worker_id).first(),
        "query_first": query_first_view(dialogue),
        "warnings": list(ValidationWarning.objects.filter(review=review).select_related("cleared_by"))
        if review
        else [],
    }
