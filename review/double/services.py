"""Writes of blind double annotation (docs/double_annotation.md): drawing a sample, the second person's labels,
comparing the two queries, and an adjudicator's decision.

- A draw is reproducible: the candidates are listed in a fixed order (dialogue id, then turn), and `random.Random(seed)`
  picks among them; the same filters and seed on the same data give the same items.
- The first labels are copied into each item at the draw, server-side: the labeller's pages never read them.
- A query is run in the sandbox before it is recorded, and the two queries are compared afterwards by a task
  (`review.tasks.double_compare`), outside any transaction: a suite comparison takes seconds.
- An adjudication that changes what the dialogue holds is recorded by review's correction service
  (`review.passes.services.review_correct`): an event appended to the log, attributed to the adjudicator.

Every refusal raises DoubleError with a stable code and a message for the person.
"""

from __future__ import annotations

import hashlib
import json
import random

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from annotation.labels.acts import (
    LabelError,
    check_acts,
    check_phenomena,
    check_pragmatics,
    check_question_style,
    check_schema_linking,
    check_thematic_of_turn,
)
from annotation.labels.relations import CATEGORIES
from annotation.labels.tokens import utterance_toks
from annotation.models import Role, User
from annotation.people.roles import can
from annotation.sql.results import order_matters, results_equal
from annotation.sql.sandbox import execute
from annotation.suites.checks import SuiteCheckError, suite_check
from dialogs import log
from dialogs.models import Campaign, Dialogue, Event, EventKind
from dialogs.room import sql_run_result
from review.double.models import (
    DoubleAdjudication,
    DoubleItem,
    DoubleSample,
)
from review.models import ReviewPass, ReviewStage
from review.records import dialogue_record_of, dialogue_records

MOST_ITEMS = 2000


class DoubleError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# --- The draw ------------------------------------------------------------------------------------------------------


def _worked_on(person: User) -> Q:
    """Dialogues `person` has seen the labels of: as their worker or expert, a reviewer of a pass, or a corrector."""
    reviewed = ReviewPass.objects.filter(reviewer=person).values("review__dialogue_id")
    corrected = Event.objects.filter(kind=EventKind.CORRECTION, author=person).values("dialogue_id")
    return Q(worker=person) | Q(expert=person) | Q(id__in=reviewed) | Q(id__in=corrected)


def candidate_dialogues(*, labeller: User, campaign: Campaign | None = None, db_id: str = "", mode: str = ""):
    """Collected dialogues a sample may draw from for `labeller`: in review and not rejected (so an adjudication can be
    recorded as a correction), never a practice or pilot dialogue, never one the labeller worked on (they know its
    labels), filtered by campaign, database and mode."""
    from review.passes.services import reviewable_q

    queryset = (
        Dialogue.objects.filter(reviewable_q(), review__isnull=False)
        .exclude(review__stage=ReviewStage.REJECTED)
        .exclude(_worked_on(labeller))
    )
    if campaign is not None:
        queryset = queryset.filter(campaign=campaign)
    if db_id:
        queryset = queryset.filter(database__db_id=db_id)
    if mode:
        queryset = queryset.filter(mode=mode)
    return queryset.order_by("id")


def labelled_turns(record) -> list:
    """The user turns of a dialogue that a second person can label: not dropped, and labelled by the first (acts)."""
    return [turn for turn in record.user_turns if not turn.dropped and turn.acts]


def first_labels(turn) -> dict:
    """The labels a turn carries now, as a release would write them: the expert's after any review correction; the
    detected intent where nobody gave one; schema links only once a person confirmed them."""
    labels = turn.labels or {}
    intent = labels.get("intent") or {}
    return {
        "user_acts": sorted(turn.acts or []),
        "system_acts": sorted(turn.response.acts) if turn.response else None,
        "query": turn.sql,
        "contextual_phenomena": sorted(labels.get("contextual_phenomena") or []),
        "intent": intent.get("category") or "" if isinstance(intent, dict) else "",
        "pragmatics": labels.get("pragmatics") or "",
        "question_style": labels.get("question_style") or "",
        "thematic_relations": list(labels.get("thematic_relations") or []),
        # Proposed links are not labels until a person confirms them (the CHASE export writes confirmed ones only).
        "schema_linking": (labels.get("schema_linking") or []) if "schema_linking" in turn.confirmed else [],
        # Which CHASE labels a person set (the others were detected by the platform): the disagreements say so.
        "confirmed": sorted(turn.confirmed),
    }


def double_sample_draw(
    *,
    admin: User,
    labeller: User,
    size: int,
    seed: int,
    unit: str = DoubleSample.Unit.TURNS,
    campaign: Campaign | None = None,
    db_id: str = "",
    mode: str = "",
    note: str = "",
) -> DoubleSample:
    """Draw `size` turns (or dialogues, every labelled turn of each) at random with `seed` among the candidates, and
    assign them to `labeller`. Refused when the sample is larger than what the filters find."""
    if not can(admin, "double.manage"):
        raise DoubleError("not_allowed", gettext("Your role may not draw double-annotation samples."))
    # An admin reads every export and every room: nobody could keep them blind, so the second person is an expert or a
    # reviewer.
    if labeller.role not in (Role.EXPERT, Role.REVIEWER) or not can(labeller, "double.label"):
        raise DoubleError(
            "labeller",
            gettext("%(name)s may not label samples: an active expert or reviewer may.") % {"name": labeller.username},
        )
    if unit not in DoubleSample.Unit.values:
        raise DoubleError(
            "invalid", gettext("The unit must be one of %(units)s.") % {"units": ", ".join(DoubleSample.Unit.values)}
        )
    if not isinstance(size, int) or size < 1:
        raise DoubleError("size", gettext("The sample needs at least one item."))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise DoubleError("seed", gettext("The seed must be a whole number."))
    dialogues = candidate_dialogues(labeller=labeller, campaign=campaign, db_id=db_id, mode=mode)
    turns = [
        (record.id, turn) for record in dialogue_records(dialogues, timestamps=False) for turn in labelled_turns(record)
    ]
    generator = random.Random(seed)
    if unit == DoubleSample.Unit.TURNS:
        if size > len(turns):
            raise DoubleError(
                "too_large",
                gettext("Asked for %(size)s turns, but only %(found)s match these filters.")
                % {"size": size, "found": len(turns)},
            )
        chosen = generator.sample(range(len(turns)), size)
        picked = [turns[index] for index in sorted(chosen)]
    else:
        ids = sorted({dialogue_id for dialogue_id, _ in turns})
        if size > len(ids):
            raise DoubleError(
                "too_large",
                gettext("Asked for %(size)s dialogues, but only %(found)s match these filters.")
                % {"size": size, "found": len(ids)},
            )
        wanted = set(generator.sample(ids, size))
        picked = [(dialogue_id, turn) for dialogue_id, turn in turns if dialogue_id in wanted]
    if len(picked) > MOST_ITEMS:
        raise DoubleError(
            "too_large",
            gettext("That draws %(count)s turns; a sample holds at most %(most)s.")
            % {"count": len(picked), "most": MOST_ITEMS},
        )
    with transaction.atomic():
        sample = DoubleSample.objects.create(
            created_by=admin,
            labeller=labeller,
            campaign=campaign,
            db_id=db_id,
            mode=mode,
            unit=unit,
            size=size,
            seed=seed,
            note=(note or "").strip()[:300],
        )
        DoubleItem.objects.bulk_create(
            DoubleItem(
                sample=sample, position=position, dialogue_id=dialogue_id, turn=turn.seq, first=first_labels(turn)
            )
            for position, (dialogue_id, turn) in enumerate(picked, 1)
        )
    return sample


# --- Labelling -----------------------------------------------------------------------------------------------------


def item_turn(item: DoubleItem, record=None):
    """The item's user turn as the dialogue holds it now, and the earlier user turns (its context)."""
    record = record or dialogue_record_of(item.dialogue)
    turns = [turn for turn in record.user_turns if not turn.dropped]
    current = next((turn for turn in turns if turn.seq == item.turn), None)
    if current is None:
        raise DoubleError("stale", gettext("This turn is no longer in its dialogue (it was dropped since the draw)."))
    return current, [turn for turn in turns if turn.seq < item.turn]


def item_token(item: DoubleItem, turn) -> str:
    """What the labeller was shown of the turn, as a short hash: a form sent after the text changed is stale."""
    shown = [item.pk, turn.text, turn.response.text if turn.response else None]
    return hashlib.blake2b(json.dumps(shown).encode(), digest_size=8).hexdigest()


def _checked(labels: dict, turn, database, *, follow_up: bool) -> dict:
    """The second labels cleaned by the vocabulary's own rules (annotation/labels/acts.py), or DoubleError.
    `follow_up`: an earlier question of the dialogue was answered with SQL (thematic relations need one)."""
    try:
        checked = {
            "user_acts": sorted(check_acts(list(labels.get("user_acts") or []), side="user")),
            "system_acts": (
                sorted(check_acts(list(labels.get("system_acts") or []), side="system")) if turn.response else None
            ),
            "contextual_phenomena": sorted(check_phenomena(list(labels.get("contextual_phenomena") or []))),
            "pragmatics": check_pragmatics(labels.get("pragmatics") or ""),
            "question_style": check_question_style(labels.get("question_style") or ""),
            "thematic_relations": check_thematic_of_turn(
                list(labels.get("thematic_relations") or []), follow_up=follow_up
            ),
            "schema_linking": check_schema_linking(
                labels.get("schema_linking") or [], tokens=utterance_toks(turn.text), schema=database.schema
            ),
        }
    except LabelError as exc:
        raise DoubleError("labels", str(exc)) from exc
    intent = labels.get("intent") or ""
    if intent not in ("", *CATEGORIES):
        raise DoubleError(
            "labels",
            gettext("The intent must be one of %(categories)s, or none.") % {"categories": ", ".join(CATEGORIES)},
        )
    checked["intent"] = intent
    query = (labels.get("query") or "").strip()
    if query:
        try:
            query = log.text_checked(query, name="Your query", limit=10_000)
        except log.TextRefused as exc:
            raise DoubleError(exc.code, exc.message) from None
    checked["query"] = query or None
    return checked


def double_label(*, labeller: User, item: DoubleItem, labels: dict, token: str) -> DoubleItem:
    """Record the second person's labels of one item, once. `token` is `item_token` of the page they labelled: a
    form sent after the turn changed is refused as stale. A query must run in the sandbox (on the dialogue's file),
    checked before the labels are written, outside any transaction; the comparison of the two queries is queued."""
    if not can(labeller, "double.label") or item.sample.labeller_id != labeller.pk:
        raise DoubleError("not_allowed", gettext("This sample is assigned to someone else."))
    if item.second is not None:
        raise DoubleError("twice", gettext("You labelled this turn already; a label is given once."))
    turn, earlier = item_turn(item)
    if token != item_token(item, turn):
        raise DoubleError("stale", gettext("The turn changed since you opened it: read it again, then label it."))
    checked = _checked(labels, turn, item.dialogue.database, follow_up=log.follows_a_query(earlier, turn.seq))
    if checked["query"] and item.dialogue.database.has_file:
        run = sql_run_result(item.dialogue, checked["query"])
        if not run.get("ok"):
            message = (run.get("error") or {}).get("message") or "it failed"
            raise DoubleError("sql", gettext("Your query does not run: %(message)s") % {"message": message})
    with transaction.atomic():
        locked = DoubleItem.objects.select_for_update().get(pk=item.pk)
        if locked.second is not None:
            raise DoubleError("twice", gettext("You labelled this turn already; a label is given once."))
        locked.second = checked
        locked.labelled_at = timezone.now()
        locked.sql_check = {"state": "waiting"} if (checked["query"] or locked.first.get("query")) else {}
        locked.save(update_fields=["second", "labelled_at", "sql_check"])
        if locked.sql_check:
            from review.tasks import double_compare

            double_compare.delay_on_commit(locked.pk)
    return locked


# --- Comparing the queries -----------------------------------------------------------------------------------------


def double_item_compare(*, item_id: int) -> dict:
    """Compare an item's two queries, outside any transaction: by execution (the two results on the dialogue's
    database file, as the official evaluator compares them: a bag of rows, a list when the first query orders) and on
    the test suite (`annotation.suites.checks.suite_check`). Stores and returns the comparison."""
    item = DoubleItem.objects.select_related("dialogue__database").get(pk=item_id)
    first, second = item.first.get("query"), (item.second or {}).get("query")
    if item.second is None or not (first or second):
        return item.sql_check
    check: dict = {"state": "done", "execution": False, "suite": False}
    if not first or not second:
        check["note"] = "only the first wrote SQL" if first else "only the second wrote SQL"
    elif not item.dialogue.database.has_file:
        check.update(execution=None, suite=None, note="the database has no file: nothing was run")
    else:
        path = item.dialogue.database_path
        a, b = execute(path, first), execute(path, second)
        if not a.ok:
            check.update(execution=None, note=f"the first query does not run now: {(a.error or {}).get('message')}")
        else:
            check["execution"] = bool(b.ok) and results_equal(a.rows, b.rows, ordered=order_matters(first))
        try:
            suite = suite_check(item.dialogue.database, first, second)
            check["suite"] = bool(suite["equivalent"])
            check["suite_checked_on"] = suite.get("checked_on")
        except SuiteCheckError as exc:
            check.update(suite=None, suite_error=str(exc))
    with transaction.atomic():
        locked = DoubleItem.objects.select_for_update().get(pk=item.pk)
        # Recorded only for the labels it was made on (a label is given once, so this guards a reset sample).
        if (locked.second or {}).get("query") == second:
            locked.sql_check = check
            locked.save(update_fields=["sql_check"])
    return check


def double_compare_waiting(*, admin: User, sample: DoubleSample) -> int:
    """Queue the comparison again for every labelled item whose comparison is still waiting (a worker that was
    down, a failure). Returns how many were queued."""
    if not can(admin, "double.manage"):
        raise DoubleError("not_allowed", gettext("Your role may not run comparisons."))
    from review.tasks import double_compare

    waiting = [
        item.pk for item in sample.items.filter(second__isnull=False) if item.sql_check.get("state") == "waiting"
    ]
    for item_id in waiting:
        double_compare.delay(item_id)
    return len(waiting)


# --- Adjudication --------------------------------------------------------------------------------------------------


def _correction_value(field: str, value, turn):
    """The value review's correction service takes for a field: the intent as a label with no relations, a query
    that nobody wrote as no change at all."""
    if field == "intent":
        return {"category": value, "relations": []} if value else None
    return value


def double_adjudicate(
    *, adjudicator: User, item: DoubleItem, field: str, choice: str, note: str = ""
) -> DoubleAdjudication:
    """Settle a disagreement on `field` of `item`: `choice` "first" or "second" says which label stands. When the
    dialogue holds something else now, the label is written by review's correction service as a correction of the
    adjudicator's (never overwriting: the old value stays in the log). Each field of an item is settled once."""
    from review.double.selectors import disagreement_fields
    from review.passes.services import ReviewError, review_correct

    if not can(adjudicator, "double.adjudicate"):
        raise DoubleError("not_allowed", gettext("Your role may not adjudicate double annotation."))
    if adjudicator.pk == item.sample.labeller_id:
        raise DoubleError("not_allowed", gettext("You labelled this sample: someone else adjudicates it."))
    if choice not in ("first", "second"):
        raise DoubleError("invalid", gettext("Choose the first or the second label."))
    if field not in disagreement_fields(item):
        raise DoubleError(
            "invalid",
            gettext("The two labels of %(field)s do not disagree on this turn.") % {"field": field.replace("_", " ")},
        )
    value = (item.first if choice == "first" else item.second).get(field)
    if field == "query" and not value:
        raise DoubleError(
            "invalid", gettext("That side wrote no query: correct the turn on the review screen instead.")
        )
    turn, _ = item_turn(item)
    try:
        with transaction.atomic():
            adjudication = DoubleAdjudication.objects.create(
                item=item, field=field, choice=choice, value=value, adjudicator=adjudicator, note=(note or "")[:500]
            )
    except IntegrityError:
        raise DoubleError("settled", gettext("This disagreement was settled already.")) from None
    if first_labels(turn).get(field) == value:
        return adjudication  # the dialogue holds that label already (read as the figures read it): nothing to correct
    wanted = _correction_value(field, value, turn)
    if field == "intent" and wanted is None:
        return adjudication  # no intent: review's corrections cannot remove one; the adjudication says it
    try:
        # Outside any transaction: a corrected query runs in the sandbox and on the test suite first.
        event = review_correct(
            reviewer=adjudicator,
            dialogue=item.dialogue,
            turn=item.turn,
            field=field,
            value=wanted,
            reason=f"Double annotation, sample {item.sample_id}: the {choice} label stands. {note}".strip()[:500],
            require_claim=False,
        )
    except ReviewError as exc:
        if exc.code == "unchanged":
            return adjudication  # the dialogue holds that label already
        adjudication.delete()
        raise DoubleError(exc.code, exc.message) from exc
    adjudication.correction_seq = event.seq
    adjudication.save(update_fields=["correction_seq"])
    return adjudication
