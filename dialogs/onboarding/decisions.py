"""An admin's decisions on an expert's qualification, by hand and recorded with who, when and why
(docs/experts.md): qualified whatever their practice, or withdrawn, which also takes them out of the lobby. Apart
from `qualification.py` (the rule, which the lobby reads) so that the rule does not import the lobby."""

from django.utils.translation import gettext

from annotation.models import Role, User
from dialogs.lobby import lobby_leave
from dialogs.onboarding.models import QualificationDecision
from dialogs.onboarding.qualification import REASON_MAX_CHARS, QualificationRefused


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise QualificationRefused(gettext("Say why: the reason is kept with the decision."))
    if len(reason) > REASON_MAX_CHARS:
        raise QualificationRefused(gettext("Keep the reason under %(limit)s characters.") % {"limit": REASON_MAX_CHARS})
    return reason


def expert_qualify(*, person: User, admin: User, reason: str) -> QualificationDecision:
    """An admin qualifies `person` (an expert) by hand, whatever their practice; recorded with who, when and why."""
    if person.role != Role.EXPERT:
        raise QualificationRefused(gettext("%(name)s is no expert.") % {"name": person.username})
    return QualificationDecision.objects.create(person=person, qualified=True, decided_by=admin, reason=_reason(reason))


def expert_withdraw(*, person: User, admin: User, reason: str) -> QualificationDecision:
    """An admin withdraws `person`'s qualification: they leave the lobby at once (a room they are in goes on), and
    from now on only practice begun after this counts toward the rule. Recorded with who, when and why."""
    if person.role != Role.EXPERT:
        raise QualificationRefused(gettext("%(name)s is no expert.") % {"name": person.username})
    decision = QualificationDecision.objects.create(
        person=person, qualified=False, decided_by=admin, reason=_reason(reason)
    )
    lobby_leave(person=person)
    return decision
