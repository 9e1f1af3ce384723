"""Writes of human rating (docs/human_rating.md): an admin's task (the sample, its items from each source, its
raters) and a rater's rating of one item, given once."""

from __future__ import annotations

import random

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from annotation.models import Role
from annotation.people.roles import can
from review.rating import selectors
from review.rating.model_file import MAX_BYTES, MAX_ERRORS, ModelFileError, ModelResponses, model_responses_read
from review.rating.models import (
    GRAMMAR_MAX,
    GRAMMAR_MIN,
    Rating,
    RatingAssignment,
    RatingItem,
    RatingTask,
    ResponseSource,
)
from review.records import dialogue_records

MANAGE_PERMISSION = "rating.manage"
RATE_PERMISSION = "rating.rate"
RATER_ROLES = (Role.EXPERT, Role.REVIEWER)
SIZE_MAX = 500
RATERS_MIN = 2  # agreement needs two raters of an item at least
# An upload is read this far and no further: one byte past the file's limit, so that a bigger file is refused as such.
MODEL_UPLOAD_READ = MAX_BYTES + 1


class RatingError(ValueError):
    """A refused write, with the sentence the page shows."""


def _raters_checked(raters) -> list:
    people = list(raters)
    if len(people) < RATERS_MIN:
        raise RatingError(
            gettext("Choose at least %(count)s raters: agreement needs two ratings of each response.")
            % {"count": RATERS_MIN}
        )
    for person in people:
        if person.role not in RATER_ROLES or not can(person, RATE_PERMISSION):
            raise RatingError(
                gettext("%(name)s cannot rate: raters are experts or reviewers who are not blocked.")
                % {"name": person.username}
            )
    return people


def model_file_checked(data: bytes, name: str) -> ModelResponses:
    """The responses of an uploaded file, every key checked against the platform's SQL turns; ModelFileError
    listing the faults by line (the file's own, then keys that name no SQL turn)."""
    found = model_responses_read(data, name)
    known = selectors.sql_turn_keys({dialogue for dialogue, _ in found.texts})
    unknown = [key for key in found.texts if key not in known]
    if unknown:
        unknown.sort(key=lambda key: found.lines[key])
        errors = [
            gettext("line %(line)s: dialogue %(dialogue)s has no SQL turn %(turn)s")
            % {"line": found.lines[key], "dialogue": key[0], "turn": key[1]}
            for key in unknown[:MAX_ERRORS]
        ]
        raise ModelFileError(errors)
    return found


def rating_task_create(
    *,
    admin,
    name: str,
    size: int,
    seed: int,
    sources: list[str],
    raters,
    campaign=None,
    db_ids=(),
    model_name: str = "",
    model_file: tuple[str, bytes] | None = None,
) -> RatingTask:
    """Draw `size` SQL turns (with `seed`) among those every source in `sources` answered, make one item per turn and
    source, and give the task to `raters` (experts or reviewers). A model's responses come from `model_file` (name,
    bytes), checked line by line. The items are created in a shuffled order, so that their ids say nothing of the
    source; each rater gets their own order seed."""
    if not can(admin, MANAGE_PERMISSION):
        raise RatingError(gettext("Only an admin creates rating tasks."))
    if not name.strip():
        raise RatingError(gettext("Give the task a name."))
    if not 1 <= size <= SIZE_MAX:
        raise RatingError(gettext("The sample holds 1 to %(max)s turns.") % {"max": SIZE_MAX})
    chosen = list(dict.fromkeys(sources))
    if not chosen or any(source not in ResponseSource.values for source in chosen):
        raise RatingError(gettext("Choose at least one source of responses."))
    people = _raters_checked(raters)
    model: ModelResponses | None = None
    if ResponseSource.MODEL in chosen:
        if model_file is None:
            raise RatingError(gettext("The model's responses need a file (JSON lines or CSV)."))
        if not model_name.strip():
            raise RatingError(gettext("Say which model wrote the file."))
        model = model_file_checked(model_file[1], model_file[0])
    records = dialogue_records(selectors.dialogues_for_rating(campaign=campaign, db_ids=db_ids), timestamps=False)
    candidates = selectors.candidate_turns(records)
    if model is not None:
        for candidate in candidates:
            if candidate.key in model.texts:
                candidate.responses[ResponseSource.MODEL] = model.texts[candidate.key]
    eligible = {c.key: c for c in candidates if all(source in c.responses for source in chosen)}
    if not eligible:
        raise RatingError(gettext("No turn of these dialogues has a response from every chosen source."))
    drawn = selectors.sample_keys(list(eligible), size=size, seed=seed)
    shuffle = random.Random(seed)
    pairs = [(key, source) for key in drawn for source in chosen]
    shuffle.shuffle(pairs)
    with transaction.atomic():
        task = RatingTask.objects.create(
            name=name.strip(),
            created_by=admin,
            size=size,
            seed=seed,
            campaign=campaign,
            db_ids=sorted(db_ids),
            sources=chosen,
            model_name=model_name.strip() if model is not None else "",
            model_file_name=model_file[0][:255] if model is not None else "",
            turns_eligible=len(eligible),
        )
        RatingItem.objects.bulk_create(
            [
                RatingItem(
                    task=task,
                    dialogue_id=key[0],
                    turn=key[1],
                    source=source,
                    question=eligible[key].question,
                    sql=eligible[key].sql,
                    result=eligible[key].result,
                    response=eligible[key].responses[source],
                )
                for key, source in pairs
            ]
        )
        RatingAssignment.objects.bulk_create(
            [
                RatingAssignment(task=task, rater=person, order_seed=shuffle.getrandbits(48))
                for person in sorted(people, key=lambda p: p.pk)
            ]
        )
    return task


def rating_record(*, rater, task_id: int, position: int, logic_correct, grammar) -> Rating:
    """Record `rater`'s rating of the item at `position` of their order in task `task_id`. Refused: a person who
    is not the task's rater, a position outside their order, values outside 0/1 and 1-5, and a second rating of
    the same item (the database's constraint decides between two tabs)."""
    assignment = selectors.assignment_of(task_id, rater)
    if assignment is None or not can(rater, RATE_PERMISSION):
        raise RatingError(gettext("This task is not yours to rate."))
    order = selectors.rater_order(assignment)
    if not 1 <= position <= len(order):
        raise RatingError(gettext("There is no such response in your task."))
    if logic_correct not in (0, 1, True, False):
        raise RatingError(gettext("Logic correctness is 0 or 1."))
    if isinstance(grammar, bool) or grammar not in range(GRAMMAR_MIN, GRAMMAR_MAX + 1):
        raise RatingError(
            gettext("Grammar is a whole number from %(min)s to %(max)s.") % {"min": GRAMMAR_MIN, "max": GRAMMAR_MAX}
        )
    item_id = order[position - 1]
    refused = RatingError(
        gettext("You rated response %(number)s already: a rating is given once and not changed.") % {"number": position}
    )
    if Rating.objects.filter(item_id=item_id, rater=rater).exists():
        raise refused
    try:
        with transaction.atomic():
            return Rating.objects.create(
                item_id=item_id, rater=rater, logic_correct=bool(logic_correct), grammar=int(grammar)
            )
    except IntegrityError:
        raise refused from None
