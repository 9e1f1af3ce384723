"""Who may take live rooms (docs/experts.md): the qualification rule, the one check made before an expert becomes
ready (`expert_ready_refusal`, which `dialogs.lobby.lobby_join` calls: the desk's switch, its socket and the "stay
ready" form all reach it), an admin's decisions, and the goals and campaign rules an admin sets for practice.

The rule: a number of practice dialogues with the simulated worker and a share of their answers that mean the same as
the gold query (EXPERT_PRACTICE_DIALOGUES and EXPERT_PRACTICE_MIN_PERCENT, or a campaign's own `PracticeRule`). An
expert may be paired into any open campaign's dialogue, so they meet every open campaign's rule (the settings' rule
when none is open). It reads the expert's newest scored practice dialogues, as many as the rule asks for; after an
admin withdrew them, only those begun since, and at least one whatever the rule says. Met, it qualifies them once, as
a decision of its own; a qualification then stands until an admin withdraws it (a stricter campaign opened later asks
nothing of experts already qualified).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from annotation.models import Role, User
from dialogs.models import Campaign
from dialogs.onboarding.guidelines import guidelines_unread
from dialogs.onboarding.models import PracticeDialogue, PracticeRule, QualificationDecision

GRANDFATHERED = "grandfathered"  # the reason the migration gave every expert who existed before the rule
DEMO_ACCOUNT = "demo account"  # the reason `load_demo` gives its experts
REASON_MAX_CHARS = 300


class QualificationRefused(ValueError):
    """An admin's request that cannot be done; the message says why."""


@dataclass(frozen=True)
class Rule:
    """A qualification rule and where it comes from (the settings, or a campaign)."""

    dialogues: int
    min_percent: int
    source: str

    def describe(self) -> str:
        if not self.dialogues:
            return f"no practice ({self.source})"
        plural = "s" if self.dialogues != 1 else ""
        return f"{self.dialogues} practice dialogue{plural}, {self.min_percent}% of answers equivalent ({self.source})"


def rule_default() -> Rule:
    return Rule(settings.EXPERT_PRACTICE_DIALOGUES, settings.EXPERT_PRACTICE_MIN_PERCENT, "the default")


def rules_in_force() -> list[Rule]:
    """The rules an expert meets before "ready": every open campaign's (its own, or the default), or the default when
    no campaign is open. One query."""
    rules = []
    for campaign in Campaign.objects.open().select_related("practice_rule").order_by("opens_at", "id"):
        own = getattr(campaign, "practice_rule", None)
        source = f"campaign “{campaign.name}”"
        if own is None:
            rules.append(Rule(settings.EXPERT_PRACTICE_DIALOGUES, settings.EXPERT_PRACTICE_MIN_PERCENT, source))
        else:
            rules.append(Rule(own.practice_dialogues, own.min_equivalent_percent, source))
    return rules or [rule_default()]


@dataclass
class RuleProgress:
    """How far an expert is toward one rule: the practice dialogues it reads, their equivalent answers over their
    planned questions, and whether it is met."""

    rule: Rule
    done: int
    equivalent: int
    questions: int
    met: bool

    @property
    def percent(self) -> int | None:
        return round(100 * self.equivalent / self.questions) if self.questions else None

    def describe(self) -> str:
        if not self.rule.dialogues:
            return f"{self.rule.source} asks for no practice"
        share = f", {self.percent}% of answers equivalent" if self.percent is not None else ""
        return (
            f"{min(self.done, self.rule.dialogues)} of {self.rule.dialogues} practice dialogues{share} "
            f"({self.rule.min_percent}% needed, {self.rule.source})"
        )


@dataclass
class Standing:
    """An expert's qualification now: `qualified`, by the newest `decision` or by the rules in force (each one's
    `progress`, read from the `scored` practice dialogues, newest first)."""

    qualified: bool
    decision: QualificationDecision | None
    progress: list[RuleProgress] = field(default_factory=list)
    scored: list[PracticeDialogue] = field(default_factory=list)

    @property
    def by_decision(self) -> bool:
        return self.decision is not None and self.decision.qualified

    def describe(self) -> str:
        decision = self.decision
        if self.by_decision:
            who = decision.decided_by.username if decision.decided_by_id else "the platform"
            return f"Qualified ({decision.reason}; by {who} on {decision.decided_at:%Y-%m-%d})."
        if self.qualified:
            return "Qualified: " + "; ".join(item.describe() for item in self.progress) + "."
        missing = [item.describe() for item in self.progress if not item.met]
        withdrawn = ""
        if decision is not None:
            withdrawn = f"Withdrawn on {decision.decided_at:%Y-%m-%d} ({decision.reason}). "
        return f"{withdrawn}Not qualified yet: " + "; ".join(missing) + "."


def _progress(rule: Rule, scored: list[PracticeDialogue]) -> RuleProgress:
    if not rule.dialogues:
        return RuleProgress(rule, 0, 0, 0, True)
    window = scored[: rule.dialogues]
    equivalent = sum(item.equivalent for item in window)
    questions = sum(item.questions for item in window)
    met = len(window) == rule.dialogues and questions > 0 and 100 * equivalent >= rule.min_percent * questions
    return RuleProgress(rule, len(window), equivalent, questions, met)


def practice_scored(person: User, *, since=None) -> list[PracticeDialogue]:
    """The expert's scored practice dialogues, newest first; only those begun after `since` when given."""
    scored = PracticeDialogue.objects.filter(dialogue__expert=person, scored_at__isnull=False)
    if since is not None:
        scored = scored.filter(dialogue__created_at__gt=since)
    return list(scored.order_by("-dialogue__created_at", "-id"))


def latest_decision(person: User) -> QualificationDecision | None:
    return QualificationDecision.objects.filter(person=person).select_related("decided_by").order_by("-id").first()


def expert_standing(person: User, *, rules: list[Rule] | None = None) -> Standing:
    """Where `person` stands, without writing anything (`expert_qualification_refresh` records a rule that is met)."""
    decision = latest_decision(person)
    if decision is not None and decision.qualified:
        return Standing(True, decision)
    rules = rules if rules is not None else rules_in_force()
    if decision is not None:
        # Withdrawn: only practice begun since counts, and at least one practice dialogue, whatever the rule asks.
        rules = [Rule(max(rule.dialogues, 1), rule.min_percent, rule.source) for rule in rules]
    needed = any(rule.dialogues for rule in rules)
    scored = practice_scored(person, since=decision.decided_at if decision else None) if needed else []
    progress = [_progress(rule, scored) for rule in rules]
    return Standing(all(item.met for item in progress), decision, progress, scored)


def expert_qualification_refresh(person: User) -> Standing:
    """`expert_standing`, and when the rules in force are met by practice, the qualification it earns, recorded once
    as a decision of the rules (who: nobody; why: the rules; evidence: the practice dialogues read and their share).
    Rules that ask for no practice qualify without a record: there is nothing to show for it."""
    standing = expert_standing(person)
    window = max((item.rule.dialogues for item in standing.progress), default=0)
    if not standing.qualified or standing.by_decision or not window:
        return standing
    earned = [item for item in standing.progress if item.rule.dialogues]
    evidence = {
        "rules": [
            {"rule": item.rule.describe(), "equivalent": item.equivalent, "questions": item.questions}
            for item in earned
        ],
        "dialogues": [item.dialogue_id for item in standing.scored[:window]],
    }
    reason = "practice met the rule: " + "; ".join(item.describe() for item in earned)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=person.pk).first()  # one decision, whoever asks at the same time
        newest = latest_decision(person)
        if newest is not None and newest.pk != getattr(standing.decision, "pk", None):
            return expert_standing(person)  # decided meanwhile (an admin, or another refresh)
        decision = QualificationDecision.objects.create(
            person=person, qualified=True, reason=reason[:REASON_MAX_CHARS], evidence=evidence
        )
    return Standing(True, decision, standing.progress, standing.scored)


def expert_ready_refusal(person: User) -> str | None:
    """Why `person` may not be ready for live dialogues now, in their words; None when they may. The one check,
    made where an expert becomes ready (`dialogs.lobby.lobby_join`): they confirmed the current guidelines, and they
    are qualified (`expert_qualification_refresh`). A simulated account (the scripted expert of a pilot) is no
    person to onboard."""
    if person.role != Role.EXPERT or person.simulated:
        return None
    unread = guidelines_unread(person)
    if unread is not None:
        if unread.read_before is not None:
            return "The guidelines have changed: read them on your desk and confirm before your next dialogue."
        return "Read the guidelines on your desk and confirm that you read them before your first dialogue."
    standing = expert_qualification_refresh(person)
    if not standing.qualified:
        return standing.describe() + " Practise with the simulated worker on your desk."
    return None


# --- An admin's decisions -------------------------------------------------------------------------------------------


def on_demo_accounts(sender, *, usernames: list[str], **kwargs) -> None:
    """annotation.signals.demo_accounts_made: the demo's experts are qualified (once), so that `make run` pairs them
    as the README says; practice is there for them to try."""
    for person in User.objects.filter(username__in=usernames, role=Role.EXPERT, simulated=False):
        if not QualificationDecision.objects.filter(person=person).exists():
            QualificationDecision.objects.create(person=person, qualified=True, reason=DEMO_ACCOUNT)


# --- A campaign's rule ---------------------------------------------------------------------------------


def practice_rule_set(*, campaign: Campaign, practice_dialogues: int | None, min_percent: int | None, admin: User):
    """Give `campaign` its own rule, or (both None) take it back to the settings' default."""
    if practice_dialogues is None and min_percent is None:
        PracticeRule.objects.filter(campaign=campaign).delete()
        return None
    if practice_dialogues is None or min_percent is None:
        raise QualificationRefused(gettext("Give both the number of practice dialogues and the share, or neither."))
    if not 0 <= practice_dialogues <= 20 or not 0 <= min_percent <= 100:
        raise QualificationRefused(
            gettext("Practice dialogues go from 0 to %(most)s, the share from 0 to %(share)s.")
            % {"most": 20, "share": "100%"}
        )
    rule, _ = PracticeRule.objects.update_or_create(
        campaign=campaign,
        defaults={"practice_dialogues": practice_dialogues, "min_equivalent_percent": min_percent, "changed_by": admin},
    )
    return rule
