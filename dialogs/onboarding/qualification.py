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
from django.utils import translation
from django.utils.translation import gettext, ngettext

from annotation.models import Role, User
from annotation.plumbing.prepared import PreparedModels
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
    campaign: str | None = None  # the open campaign whose rule it is; None: the settings' default

    @property
    def source(self) -> str:
        """Where the rule comes from, in the active language (a decision's record words it in English)."""
        if self.campaign is None:
            return gettext("the default")
        return gettext("campaign “%(name)s”") % {"name": self.campaign}

    def describe(self) -> str:
        if not self.dialogues:
            return gettext("no practice (%(source)s)") % {"source": self.source}
        return ngettext(
            "%(count)s practice dialogue, %(percent)s%% of answers equivalent (%(source)s)",
            "%(count)s practice dialogues, %(percent)s%% of answers equivalent (%(source)s)",
            self.dialogues,
        ) % {"count": self.dialogues, "percent": self.min_percent, "source": self.source}


def rule_default() -> Rule:
    return Rule(settings.EXPERT_PRACTICE_DIALOGUES, settings.EXPERT_PRACTICE_MIN_PERCENT)


def rules_in_force() -> list[Rule]:
    """The rules an expert meets before "ready": every open campaign's (its own, or the default), or the default when
    no campaign is open. One query."""
    rules = []
    for campaign in Campaign.objects.open().select_related("practice_rule").order_by("opens_at", "id"):
        own = getattr(campaign, "practice_rule", None)
        if own is None:
            rules.append(Rule(settings.EXPERT_PRACTICE_DIALOGUES, settings.EXPERT_PRACTICE_MIN_PERCENT, campaign.name))
        else:
            rules.append(Rule(own.practice_dialogues, own.min_equivalent_percent, campaign.name))
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
            return gettext("%(source)s asks for no practice") % {"source": self.rule.source}
        values = {
            "done": min(self.done, self.rule.dialogues),
            "count": self.rule.dialogues,
            "percent": self.percent,
            "needed": self.rule.min_percent,
            "source": self.rule.source,
        }
        if self.percent is None:
            return gettext("%(done)s of %(count)s practice dialogues (%(needed)s%% needed, %(source)s)") % values
        return (
            gettext(
                "%(done)s of %(count)s practice dialogues, %(percent)s%% of answers equivalent "
                "(%(needed)s%% needed, %(source)s)"
            )
            % values
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
            who = decision.decided_by.username if decision.decided_by_id else gettext("the platform")
            # The reason is the decision's record, kept as it was written.
            return gettext("Qualified (%(reason)s; by %(who)s on %(day)s).") % {
                "reason": decision.reason,
                "who": who,
                "day": f"{decision.decided_at:%Y-%m-%d}",
            }
        if self.qualified:
            return gettext("Qualified: %(rules)s.") % {"rules": "; ".join(item.describe() for item in self.progress)}
        missing = gettext("Not qualified yet: %(rules)s.") % {
            "rules": "; ".join(item.describe() for item in self.progress if not item.met)
        }
        if decision is None:
            return missing
        withdrawn = gettext("Withdrawn on %(day)s (%(reason)s).") % {
            "day": f"{decision.decided_at:%Y-%m-%d}",
            "reason": decision.reason,
        }
        return f"{withdrawn} {missing}"


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
    """The newest decision, without who made it: every expert's join reads it and only a standing worded for one
    person's page (`Standing.describe`) names the admin, so the join never pays for that row (0.44 -> 0.22 ms of
    CPU a read, SQLite)."""
    return _latest_decision.first(person.pk)


# Compiled once (annotation.plumbing.prepared): a sixth of the CPU of the same read through the ORM (0.20 against
# 1.23 ms, process_time over 300 reads on SQLite, the machine loaded).
_latest_decision = PreparedModels(
    lambda person_id: QualificationDecision.objects.filter(person_id=person_id).order_by("-id")[:1]
)


def expert_standing(person: User, *, rules: list[Rule] | None = None) -> Standing:
    """Where `person` stands, without writing anything (`expert_qualification_refresh` records a rule that is met)."""
    decision = latest_decision(person)
    if decision is not None and decision.qualified:
        return Standing(True, decision)
    rules = rules if rules is not None else rules_in_force()
    if decision is not None:
        # Withdrawn: only practice begun since counts, and at least one practice dialogue, whatever the rule asks.
        rules = [Rule(max(rule.dialogues, 1), rule.min_percent, rule.campaign) for rule in rules]
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
    with translation.override("en"):  # a decision's record is in English, whoever's screen asked for the refresh
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
            return gettext("The guidelines have changed: read them on your desk and confirm before your next dialogue.")
        return gettext("Read the guidelines on your desk and confirm that you read them before your first dialogue.")
    standing = expert_qualification_refresh(person)
    if not standing.qualified:
        return gettext("%(standing)s Practise with the simulated worker on your desk.") % {
            "standing": standing.describe()
        }
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
