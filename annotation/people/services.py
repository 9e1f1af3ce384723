"""Writes of people: an account made with its role, and a person blocked or unblocked (recorded, and told to the apps
built on this one by `annotation.signals.person_blocked`)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _

from annotation.models import BlockRecord, Role, User
from annotation.signals import person_blocked


def person_create(*, username: str, role: str, password: str | None = None, email: str = "") -> tuple[User, str]:
    """Create an account with a role. Returns the person and the password (generated when none is given)."""
    if role not in Role.values:
        raise ValidationError(
            _("Unknown role %(role)s; choose one of: %(roles)s.")
            % {"role": repr(role), "roles": ", ".join(Role.values)}
        )
    if User.objects.filter(username=username).exists():
        raise ValidationError(_("The username %(name)s is taken.") % {"name": repr(username)})
    if not password:
        password = get_random_string(16)
    user = User(username=username, email=email, role=role, is_staff=(role == Role.ADMIN))
    user.is_superuser = role == Role.ADMIN
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user, password


def person_set_blocked(
    *,
    person: User,
    blocked: bool,
    reason: str = "",
    by: User | None = None,
    rule: str = "",
    evidence: list[int] | tuple[int, ...] = (),
) -> BlockRecord | None:
    """Block or unblock a person and record it (BlockRecord): who decided (`by`, an admin) or which quality `rule`,
    why, and the evidence (dialogue ids). Blocked people can sign in but may do nothing (annotation.people.roles).

    Returns the new record, or None when the person already was in that state: blocking a blocked person records
    nothing, so the record of the block that counts (with its rule and evidence) is the one that stays current. The
    person's row is locked while deciding, so two rules that fire at once record one block.
    """
    reason = reason.strip()[: BlockRecord._meta.get_field("reason").max_length]
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=person.pk)
        if locked.blocked == blocked:
            person.blocked, person.blocked_reason = locked.blocked, locked.blocked_reason
            return None
        locked.blocked = blocked
        # The reason of the current block; an unblock clears it here, and the records keep every one.
        locked.blocked_reason = reason if blocked else ""
        locked.save(update_fields=["blocked", "blocked_reason"])
        record = BlockRecord.objects.create(
            person=locked, blocked=blocked, by=by, rule=rule, reason=reason, evidence=sorted(set(evidence))
        )
    person.blocked, person.blocked_reason = locked.blocked, locked.blocked_reason
    if blocked:
        person_blocked.send(sender=User, person=locked)
    return record


def person_set_language(*, person: User, language: str, only_if_unset: bool = False) -> bool:
    """Keep `language` (one of settings.LANGUAGES, or "" for the browser's preference) on the person's account. With
    `only_if_unset`, a language already chosen stays (a crowd link's ?lang= never overrides the person's choice).
    Returns whether the account changed."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValidationError(_("Unknown language %(code)s.") % {"code": language})
    if person.language == language or (only_if_unset and person.language):
        return False
    person.language = language
    person.save(update_fields=["language"])
    return True
