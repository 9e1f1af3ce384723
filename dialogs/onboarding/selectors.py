"""What the onboarding's pages read (docs/experts.md): the expert's desk card, a practice dialogue's result, and the
admins' list of experts and each one's record."""

from __future__ import annotations

from django.db.models import Count, Max, OuterRef, Q, Subquery

from annotation.models import Role, User
from dialogs.models import Campaign, Dialogue, DialogueStatus
from dialogs.onboarding.guidelines import guidelines_current, guidelines_sections, guidelines_unread
from dialogs.onboarding.models import GuidelinesRead, GuidelinesVersion, PracticeGoal, QualificationDecision
from dialogs.onboarding.practice import practice_goals, practice_open, practice_scored_now
from dialogs.onboarding.qualification import expert_ready_refusal, expert_standing, rule_default, rules_in_force

# Practice dialogues listed on the desk and on an expert's record: the newest.
PRACTICE_SHOWN = 20


def practice_list(expert: User, *, limit: int = PRACTICE_SHOWN) -> list[Dialogue]:
    """The expert's practice dialogues, newest first, each with its `practice_record` (the score once it ended)."""
    return list(
        Dialogue.objects.filter(expert=expert, practice=True)
        .select_related("practice_record", "goal", "database")
        .order_by("-id")[:limit]
    )


def desk_onboarding(person: User) -> dict:
    """The desk's onboarding card for `person`: the guidelines to read (their sections), their practice dialogues, the
    one under way, whether they may begin one, where they stand, and why "ready" is refused (None: it is not). Ended
    practice dialogues left unscored are scored first (outside any transaction: a page's request)."""
    practice_scored_now(person)
    unread = guidelines_unread(person)
    standing = expert_standing(person) if person.role == Role.EXPERT else None
    return {
        "guidelines_unread": unread,
        "guidelines_sections": guidelines_sections(unread.version) if unread else [],
        "guidelines_current": guidelines_current() if unread is None else unread.version,
        "practice": practice_list(person),
        "practice_open": practice_open(person),
        "practice_available": practice_goals().exists(),
        "standing": standing,
        "ready_refusal": expert_ready_refusal(person),
    }


def result_rows(record) -> list[dict]:
    """A scored practice dialogue's turns as its page lists them (numbered from 1)."""
    return [{"number": index, **turn} for index, turn in enumerate(record.turns, start=1)]


def experts_overview() -> list[dict]:
    """Every expert of a person with their onboarding in one row: the current guidelines read or not, practice
    dialogues (scored) and the newest one's share, and where they stand. A fixed number of queries, plus one standing
    per expert who is not qualified by a decision."""
    current = guidelines_current()
    newest = QualificationDecision.objects.filter(person=OuterRef("pk")).order_by("-id")
    experts = (
        User.objects.filter(role=Role.EXPERT, simulated=False)
        .annotate(
            practised=Count("dialogues_as_expert", filter=Q(dialogues_as_expert__practice=True), distinct=True),
            last_practice=Max("dialogues_as_expert__created_at", filter=Q(dialogues_as_expert__practice=True)),
            decided=Subquery(newest.values("qualified")[:1]),
            decided_reason=Subquery(newest.values("reason")[:1]),
        )
        .order_by("username")
    )
    read = set(GuidelinesRead.objects.filter(version=current).values_list("person_id", flat=True)) if current else set()
    rules = rules_in_force()
    rows = []
    for person in experts:
        if person.decided:
            qualified, how = True, person.decided_reason
        else:
            standing = expert_standing(person, rules=rules)
            qualified = standing.qualified
            how = "withdrawn" if person.decided is False else ("by the rule" if qualified else "not yet")
        rows.append(
            {
                "person": person,
                "read_current": current is None or person.pk in read,
                "practised": person.practised,
                "last_practice": person.last_practice,
                "qualified": qualified,
                "how": how,
            }
        )
    return rows


def expert_record(person: User) -> dict:
    """One expert's record for an admin: practice dialogues with their scores, every decision (who, when, what,
    why), which guidelines versions they read, and where they stand."""
    practice_scored_now(person)
    return {
        "person": person,
        "standing": expert_standing(person),
        "practice": practice_list(person, limit=100),
        "decisions": list(QualificationDecision.objects.filter(person=person).select_related("decided_by")),
        "reads": list(GuidelinesRead.objects.filter(person=person).select_related("version").order_by("-id")),
        "guidelines_unread": guidelines_unread(person),
    }


def onboarding_page() -> dict:
    """The admins' page: the guidelines' versions, the practice goals (with how often each was practised), the rules
    (the default, and each campaign's), and the experts."""
    campaigns = list(Campaign.objects.select_related("practice_rule").order_by("-opens_at", "-id")[:50])
    return {
        "versions": list(GuidelinesVersion.objects.select_related("edited_by").annotate(readers=Count("reads"))[:20]),
        "practice_goals": list(
            PracticeGoal.objects.select_related("goal__database", "marked_by")
            .annotate(
                practised=Count("goal__dialogues", filter=Q(goal__dialogues__practice=True)),
                under_way=Count(
                    "goal__dialogues",
                    filter=Q(
                        goal__dialogues__practice=True,
                        goal__dialogues__status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE],
                    ),
                ),
            )
            .order_by("goal_id")
        ),
        "rule_default": rule_default(),
        "rules_in_force": rules_in_force(),
        "campaigns": campaigns,
        "experts": experts_overview(),
    }
