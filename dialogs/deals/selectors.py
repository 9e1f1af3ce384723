"""Reads of dealt work (docs/dealing.md): a person's assignments, a deal's progress per person and its history."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q

from annotation.models import User
from dialogs.deals.models import WorkAssignment, WorkDeal, WorkDealMember

_State = WorkAssignment.State


def assigned_to(person: User, kind: str) -> list[WorkAssignment]:
    """`person`'s items of `kind` still to do (not begun, or begun and not done), oldest deal first, in the order
    they were dealt: what their solo or query-first page lists under "Assigned to you"."""
    return list(
        WorkAssignment.objects.filter(person=person, deal__kind=kind, state__in=WorkAssignment.OPEN_STATES)
        .select_related("deal", "database", "goal", "dialogue", "query_first_item")
        .order_by("deal__created_at", "deal_id", "item")
    )


@dataclass(frozen=True)
class PersonProgress:
    """One person's part of a deal: what they hold (`assigned`: not begun, begun, done or skipped) and how far it got;
    `moved_away`: items re-dealt from them when they left."""

    person: User
    member: WorkDealMember
    assigned: int
    open: int
    started: int
    done: int
    skipped: int
    moved_away: int
    databases: int

    @property
    def done_percent(self) -> int:
        return round(100 * self.done / self.assigned) if self.assigned else 0

    @property
    def begun_percent(self) -> int:
        """Begun, done or skipped: the part of their items they have opened."""
        return round(100 * (self.started + self.done + self.skipped) / self.assigned) if self.assigned else 0


def deal_progress(deal: WorkDeal) -> list[PersonProgress]:
    """Each member's progress (removed ones too, with what was moved from them), in the deal's order of members.
    Three queries, whatever the deal's size."""
    counts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for person_id, state, n in (
        WorkAssignment.objects.filter(deal=deal).values_list("person", "state").annotate(n=Count("id"))
    ):
        counts[person_id][state] = n
    spread = dict(
        WorkAssignment.objects.filter(deal=deal, state__in=WorkAssignment.HELD_STATES)
        .values_list("person")
        .annotate(n=Count("database", distinct=True))
        .values_list("person", "n")
    )
    rows = []
    for member in deal.members.select_related("person", "removed_by").order_by("removed_at", "person__username"):
        of = counts[member.person_id]
        rows.append(
            PersonProgress(
                person=member.person,
                member=member,
                assigned=sum(of[state] for state in WorkAssignment.HELD_STATES),
                open=of[_State.OPEN],
                started=of[_State.STARTED],
                done=of[_State.DONE],
                skipped=of[_State.SKIPPED],
                moved_away=of[_State.MOVED],
                databases=spread.get(member.person_id, 0),
            )
        )
    return rows


def deal_list():
    """Every deal, newest first, with how many items its people hold, how many are done, and how many people."""
    held = Q(assignments__state__in=WorkAssignment.HELD_STATES)
    return (
        WorkDeal.objects.select_related("created_by", "campaign")
        .annotate(
            held=Count("assignments", filter=held, distinct=True),
            done=Count("assignments", filter=Q(assignments__state=_State.DONE), distinct=True),
            people=Count("members", filter=Q(members__removed_at=None), distinct=True),
        )
        .order_by("-created_at", "-id")
    )


def deal_history(deal: WorkDeal) -> list[dict]:
    """What happened to the deal, oldest first: who made it, and each removal (who, by whom, when) with where each of
    the person's open items went."""
    events = [{"at": deal.created_at, "by": deal.created_by, "what": "made", "person": None, "moved": []}]
    moved_to: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for leaver, taker in WorkAssignment.objects.filter(deal=deal, state=_State.MOVED).values_list(
        "person", "moved_to__person__username"
    ):
        moved_to[leaver][taker or "nobody (everyone left holds its other copy)"] += 1
    for member in deal.members.filter(removed_at__isnull=False).select_related("person", "removed_by"):
        events.append(
            {
                "at": member.removed_at,
                "by": member.removed_by,
                "what": "removed",
                "person": member.person,
                "moved": sorted(moved_to[member.person_id].items()),
            }
        )
    return sorted(events, key=lambda event: event["at"])
