"""Work dealt out evenly among experts (docs/dealing.md), as CHASE dealt its databases among its annotators.

An admin makes a deal (`deal_create`): solo sequences or query-first questions, on some databases, dealt round robin
over a seeded shuffle, so that each person gets as many items as the next (one more at most) and a spread of the
databases. An expert begins an item from "Assigned to you" (`assignment_start`); the item is done when its sequence
is finished or its question written (the receivers at the end, connected in dialogs.apps). When someone leaves, an
admin removes them (`deal_member_remove`) and their open items are dealt evenly to the others.
"""

import random
from collections import defaultdict

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, DateTimeField, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from annotation.models import Database, Goal, User
from annotation.people.roles import can
from dialogs.deals.models import WorkAssignment, WorkDeal, WorkDealMember
from dialogs.errors import DialogueError
from dialogs.models import Campaign, Dialogue, DialogueMode, DialogueStatus, QueryFirstItem
from dialogs.query_first import query_first_open
from dialogs.selectors import goals_waiting_for_question
from dialogs.solo import solo_create, solo_withdraw

# Who deals work: the admins who manage campaigns (annotation.people.roles), since a deal hands out a campaign's goals
# too.
MANAGE_PERMISSION = "campaigns.manage"
# CHASE asked 3 to 5 questions per sequence (docs/dealing.md): the default range a sequence's minimum is drawn from.
DEFAULT_MIN_QUESTIONS = (3, 5)
MIN_QUESTIONS_CEILING = 20
COUNT_MAX = 2000
NAME_MAX_CHARS = 120

_State = WorkAssignment.State


def _manager(person: User) -> None:
    if not can(person, MANAGE_PERMISSION):
        raise DialogueError("forbidden", gettext("Only an admin who manages campaigns deals work out."))


def deal_check(
    *,
    name: str,
    kind: str,
    people: list[User],
    databases: list[Database],
    goals: str = WorkDeal.Goals.NONE,
    campaign: Campaign | None = None,
    count: int,
    min_questions_low: int = DEFAULT_MIN_QUESTIONS[0],
    min_questions_high: int = DEFAULT_MIN_QUESTIONS[1],
    double: bool = False,
) -> None:
    """Every rule a deal must keep; ValidationError with the fields' messages when one is broken."""
    errors: dict[str, str] = {}
    if not name.strip() or len(name) > NAME_MAX_CHARS:
        errors["name"] = f"Give the deal a name of at most {NAME_MAX_CHARS} characters."
    if kind not in WorkDeal.Kind.values:
        errors["kind"] = "Choose solo sequences or query-first questions."
    errors.update(_people_errors(people, double))
    errors.update(_database_errors(databases))
    if not 1 <= count <= COUNT_MAX:
        errors["count"] = f"Deal between 1 and {COUNT_MAX} items."
    errors.update(_kind_errors(kind, goals, campaign, double, min_questions_low, min_questions_high))
    if errors:
        raise ValidationError(errors)


def _people_errors(people: list[User], double: bool) -> dict[str, str]:
    if not people:
        return {"people": "Choose the experts to deal the work to."}
    if not_experts := [person.username for person in people if not can(person, "chat.as_expert")]:
        return {"people": f"Only experts who are not blocked write this work: not {', '.join(not_experts)}."}
    if double and len(people) < 2:
        return {"double": "Double annotation gives each item to two different people: choose at least two."}
    return {}


def _database_errors(databases: list[Database]) -> dict[str, str]:
    if not databases:
        return {"databases": "Choose at least one database."}
    if unusable := [database.db_id for database in databases if not database.active or not database.has_file]:
        return {"databases": f"Inactive, or registered by their schema only (nothing to query): {', '.join(unusable)}."}
    return {}


def _kind_errors(
    kind: str, goals: str, campaign: Campaign | None, double: bool, min_questions_low: int, min_questions_high: int
) -> dict[str, str]:
    """The rules of one kind of work: its goals, double annotation, and (solo) the range of questions."""
    errors: dict[str, str] = {}
    if kind == WorkDeal.Kind.QUERY_FIRST:
        if goals != WorkDeal.Goals.NONE or campaign is not None:
            errors["goals"] = "Query-first work is the databases' sampled goals waiting for a question: choose none."
        if double:
            # One phase-1 question per goal (dialogs.query_first.query_first_write): a second writer would be refused.
            errors["double"] = "A sampled goal gets one phase-1 question: double annotation is for solo sequences."
    elif kind == WorkDeal.Kind.SOLO:
        if (goals == WorkDeal.Goals.CAMPAIGN) != (campaign is not None):
            errors["campaign"] = "Choose a campaign with “A campaign's goals”, and only then."
        floor = settings.SOLO_MIN_QUESTIONS
        if not floor <= min_questions_low <= min_questions_high <= MIN_QUESTIONS_CEILING:
            errors["min_questions_low"] = (
                f"A range from {floor} (SOLO_MIN_QUESTIONS, every sequence's least) to {MIN_QUESTIONS_CEILING}, "
                "its low end not above its high end."
            )
    return errors


def _taken_goals(kind: str):
    """Goals a deal of `kind` may not deal: held by someone in any deal of that kind, or (solo) done already."""
    held = WorkAssignment.objects.filter(
        deal__kind=kind, state__in=WorkAssignment.HELD_STATES, goal__isnull=False
    ).values("goal_id")
    taken = Q(pk__in=held)
    if kind == WorkDeal.Kind.SOLO:
        finished = Dialogue.objects.filter(
            mode=DialogueMode.SOLO, status=DialogueStatus.COMPLETED, goal__isnull=False
        ).values("goal_id")
        taken |= Q(pk__in=finished)
    return taken


def _goal_pool(kind: str, goals: str, campaign: Campaign | None, databases: list[Database]):
    if kind == WorkDeal.Kind.QUERY_FIRST:
        # Nor a goal someone has open in phase 1: they could still write its question before its holder.
        pool = goals_waiting_for_question().exclude(query_first_items__stage=QueryFirstItem.Stage.WRITING)
    elif goals == WorkDeal.Goals.CAMPAIGN:
        pool = campaign.goal_pool()
    else:
        pool = Goal.objects.filter(active=True)
    return pool.filter(database__in=databases).exclude(_taken_goals(kind)).order_by("id")


def _items(
    *, kind: str, goals: str, campaign, databases: list[Database], count: int, rng: random.Random
) -> list[tuple[Database, Goal | None]]:
    """The deal's items in dealing order: grouped by database (the databases in a seeded order), so that a round robin
    over the people gives each a spread of them. Free sequences are spread over the databases in turn; goals are
    taken from each database's seeded shuffle in turn, so that a deal of fewer goals than there are still spans the
    databases."""
    order = sorted(databases, key=lambda database: database.pk)
    rng.shuffle(order)
    chosen: dict[int, list] = {database.pk: [] for database in order}
    if kind == WorkDeal.Kind.SOLO and goals == WorkDeal.Goals.NONE:
        for index in range(count):
            chosen[order[index % len(order)].pk].append(None)
    else:
        by_database: dict[int, list[Goal]] = defaultdict(list)
        for goal in _goal_pool(kind, goals, campaign, order):
            by_database[goal.database_id].append(goal)
        for database in order:
            rng.shuffle(by_database[database.pk])
        taken = 0
        while taken < count and any(by_database[database.pk] for database in order):
            for database in order:
                if taken < count and by_database[database.pk]:
                    chosen[database.pk].append(by_database[database.pk].pop())
                    taken += 1
    return [(database, goal) for database in order for goal in chosen[database.pk]]


def deal_create(
    *,
    by: User,
    name: str,
    kind: str,
    people: list[User],
    databases: list[Database],
    count: int,
    goals: str = WorkDeal.Goals.NONE,
    campaign: Campaign | None = None,
    seed: int | None = None,
    min_questions_low: int = DEFAULT_MIN_QUESTIONS[0],
    min_questions_high: int = DEFAULT_MIN_QUESTIONS[1],
    double: bool = False,
) -> WorkDeal:
    """Make a deal and deal it (docs/dealing.md). The items (free sequences, or goals nobody holds and nobody has done)
    are dealt round robin over a seeded shuffle of `people`, in an order grouped by database, so that nobody gets
    more than one item more than anyone else, of every database alike; with `double` each item goes to two different
    people in a row of the round. Each solo item's minimum of questions is drawn from the range. The same seed, people,
    databases and free goals deal the same way again. Fewer free goals than `count`: what there is is dealt, and the
    deal's note says so; none: refused."""
    _manager(by)
    kwargs = dict(
        name=name,
        kind=kind,
        people=people,
        databases=databases,
        goals=goals,
        campaign=campaign,
        count=count,
        min_questions_low=min_questions_low,
        min_questions_high=min_questions_high,
        double=double,
    )
    deal_check(**kwargs)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    rng = random.Random(seed)
    with transaction.atomic():
        # Two deals on the same databases at once would read the same free goals: the second waits for the first.
        list(Database.objects.select_for_update().filter(pk__in=[database.pk for database in databases]))
        items = _items(kind=kind, goals=goals, campaign=campaign, databases=databases, count=count, rng=rng)
        if not items:
            raise ValidationError({"count": "No goal is free to deal: every one is dealt already, or done."})
        dealt_people = sorted(people, key=lambda person: person.pk)
        rng.shuffle(dealt_people)
        solo = kind == WorkDeal.Kind.SOLO
        minima = [rng.randint(min_questions_low, min_questions_high) if solo else None for _ in items]
        note = ""
        if len(items) < count:
            note = f"Only {len(items)} of the {count} goals asked for were free to deal (none is dealt twice)."
        deal = WorkDeal.objects.create(
            name=name.strip(),
            kind=kind,
            goals=goals,
            campaign=campaign,
            count=count,
            seed=seed,
            min_questions_low=min_questions_low if solo else 1,
            min_questions_high=min_questions_high if solo else 1,
            double=double,
            note=note,
            created_by=by,
        )
        deal.databases.set(databases)
        WorkDealMember.objects.bulk_create([WorkDealMember(deal=deal, person=person) for person in dealt_people])
        copies = 2 if double else 1
        slots = [(number, item, minimum) for number, (item, minimum) in enumerate(zip(items, minima, strict=True), 1)]
        slots = [slot for slot in slots for _ in range(copies)]
        WorkAssignment.objects.bulk_create(
            [
                WorkAssignment(
                    deal=deal,
                    item=number,
                    person=dealt_people[index % len(dealt_people)],
                    database=database,
                    goal=goal,
                    min_questions=minimum,
                )
                for index, (number, (database, goal), minimum) in enumerate(slots)
            ]
        )
    return deal


def assignment_start(*, assignment: WorkAssignment, person: User) -> Dialogue | QueryFirstItem:
    """Begin (or resume) `person`'s assignment: a solo sequence on its database towards its goal (its minimum of
    questions is the assignment's, `Dialogue.min_questions`), or phase 1 of its goal. Returns the sequence or the
    item."""
    with transaction.atomic():
        locked = (
            WorkAssignment.objects.select_for_update(of=("self",))
            .select_related("deal", "database", "goal")
            .get(pk=assignment.pk)
        )
        if locked.person_id != person.pk:
            raise DialogueError("forbidden", gettext("This item is dealt to someone else."))
        if locked.state == _State.STARTED:
            return locked.dialogue if locked.deal.kind == WorkDeal.Kind.SOLO else locked.query_first_item
        if locked.state != _State.OPEN:
            raise DialogueError(
                "closed",
                gettext("This item is no longer yours to begin (%(state)s).") % {"state": locked.get_state_display()},
            )
        if locked.deal.kind == WorkDeal.Kind.SOLO:
            begun = solo_create(expert=person, database=locked.database, goal=locked.goal)
            locked.dialogue = begun
        else:
            begun = query_first_open(person=person, goal=locked.goal)
            locked.query_first_item = begun
        locked.state, locked.started_at = _State.STARTED, timezone.now()
        locked.save(update_fields=["dialogue", "query_first_item", "state", "started_at"])
    assignment.refresh_from_db()
    return begun


def deal_member_remove(*, deal: WorkDeal, person: User, by: User) -> list[WorkAssignment]:
    """`person` leaves `deal`: removed by `by` (kept, with the time), and every item of theirs that is not done, begun
    or not, dealt to the others, each to whoever of them holds fewest of the deal's items (then fewest of its
    database; ties in a seeded order), never to someone who holds the same item already (a double item's other copy;
    a copy everyone left holds goes to nobody). The moved rows are kept, pointing to what replaced them. What they had
    begun is closed, so that the item is one person's again: an unfinished solo sequence ends abandoned
    (solo_withdraw), a phase-1 item with no question yet is removed. Returns the new assignments. Refused when nobody
    else is left to take their open items."""
    _manager(by)
    now = timezone.now()
    with transaction.atomic():
        member = WorkDealMember.objects.select_for_update().filter(deal=deal, person=person).first()
        if member is None:
            raise DialogueError("invalid", gettext("%(name)s is not in this deal.") % {"name": person.username})
        if member.removed_at is not None:
            raise DialogueError(
                "closed", gettext("%(name)s was removed from this deal already.") % {"name": person.username}
            )
        others = list(
            User.objects.filter(work_deal_members__deal=deal, work_deal_members__removed_at=None)
            .exclude(pk=person.pk)
            .order_by("pk")
        )
        leaving = list(
            WorkAssignment.objects.select_for_update(of=("self",))
            .filter(deal=deal, person=person, state__in=WorkAssignment.OPEN_STATES)
            .select_related("dialogue", "query_first_item")
            .order_by("item")
        )
        if leaving and not others:
            raise DialogueError(
                "invalid",
                gettext("Nobody else is in this deal to take %(name)s's open items.") % {"name": person.username},
            )
        member.removed_at, member.removed_by = now, by
        member.save(update_fields=["removed_at", "removed_by"])
        held = WorkAssignment.objects.filter(deal=deal, state__in=WorkAssignment.HELD_STATES)
        loads = dict(held.values_list("person").annotate(n=Count("id")).values_list("person", "n"))
        per_database: dict[tuple[int, int], int] = defaultdict(int)
        items_of: dict[int, set[int]] = defaultdict(set)
        for holder, database, number in held.values_list("person", "database", "item"):
            per_database[holder, database] += 1
            items_of[holder].add(number)
        rng = random.Random(f"{deal.seed}:{person.pk}")
        rng.shuffle(others)
        place = {other.pk: index for index, other in enumerate(others)}
        moved = []
        for old in leaving:
            eligible = [other for other in others if old.item not in items_of[other.pk]]
            if not eligible:
                # Everyone left holds this double item's other copy already: this copy goes to nobody.
                _close_begun(old, person=person, by=by, deal=deal, to=None)
                old.state, old.moved_at, old.moved_by = _State.MOVED, now, by
                old.save(update_fields=["state", "moved_at", "moved_by", "query_first_item"])
                continue
            target = min(
                eligible,
                key=lambda other: (loads.get(other.pk, 0), per_database[other.pk, old.database_id], place[other.pk]),
            )
            new = WorkAssignment.objects.create(
                deal=deal,
                item=old.item,
                person=target,
                database_id=old.database_id,
                goal_id=old.goal_id,
                min_questions=old.min_questions,
            )
            loads[target.pk] = loads.get(target.pk, 0) + 1
            per_database[target.pk, old.database_id] += 1
            items_of[target.pk].add(old.item)
            _close_begun(old, person=person, by=by, deal=deal, to=target)
            old.state, old.moved_at, old.moved_by, old.moved_to = _State.MOVED, now, by, new
            old.save(update_fields=["state", "moved_at", "moved_by", "moved_to", "query_first_item"])
            moved.append(new)
    return moved


def _close_begun(old: WorkAssignment, *, person: User, by: User, deal: WorkDeal, to: User | None) -> None:
    """Close what `person`, who left, began of `old`, so that the item is `to`'s alone (see deal_member_remove)."""
    given = f"dealt to {to.username}" if to else "dealt to nobody else"
    reason = f"{person.username} left the deal “{deal.name}”; the item was {given}."
    if old.dialogue_id and not old.dialogue.is_over:
        solo_withdraw(dialogue=old.dialogue, by=by, reason=reason)
    item = old.query_first_item
    if item is not None and item.stage == QueryFirstItem.Stage.WRITING:
        old.query_first_item = None
        item.delete()


# --- The item is done: receivers of the dialogs app's signals (connected in dialogs.apps) ----------------------------


def on_dialogue_ended(sender, dialogue: Dialogue, **kwargs) -> None:
    """A dealt solo sequence that was finished (completed at its minimum, dialogs.room) is done. Written in the end's
    caller's transaction, if any: it commits or rolls back with the end."""
    if dialogue.mode != DialogueMode.SOLO or dialogue.status != DialogueStatus.COMPLETED:
        return
    WorkAssignment.objects.filter(dialogue_id=dialogue.pk, state=_State.STARTED).update(
        state=_State.DONE, done_at=dialogue.ended_at or timezone.now()
    )


def on_query_first_phase1_closed(sender, item: QueryFirstItem, **kwargs) -> None:
    """A dealt goal whose phase-1 question its holder wrote is done; one they skipped ends skipped (whether begun from
    "Assigned to you" or from the list of every goal)."""
    state = _State.DONE if item.stage in QueryFirstItem.WRITTEN else _State.SKIPPED
    WorkAssignment.objects.filter(
        deal__kind=WorkDeal.Kind.QUERY_FIRST,
        goal_id=item.goal_id,
        person_id=item.writer_id,
        state__in=WorkAssignment.OPEN_STATES,
    ).update(
        state=state,
        query_first_item=item,
        started_at=Coalesce("started_at", Value(item.opened_at, output_field=DateTimeField())),
        done_at=item.written_at or timezone.now(),
    )
