"""Who may do what: the one place that answers.

Views (through `role_required`), websocket consumers, Celery tasks and tests all ask `can(user, permission)`.
A permission is a plain string naming an action; each role holds a fixed set of them.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.models import Role

# Every action a view, consumer or task can check. Adding a screen means adding its permission here.
PERMISSIONS = {
    "chat.as_worker": _("Join a dialogue as the database user"),
    "chat.as_expert": _("Join a dialogue as the SQL expert"),
    "sql.run": _("Run SQL in the sandbox and see SQL text"),
    "databases.browse": _("Browse registered databases and their content"),
    "databases.manage": _("Register, upload and deactivate databases"),
    "goals.view": _("See reference goals with their SQL"),
    "goals.manage": _("Add, edit and import reference goals"),
    "review.work": _("Review and correct dialogues"),
    "review.manage": _("Release other reviewers' claims and reopen rejected dialogues"),
    "review.own_work": _("See what review changed in your own work as an expert"),
    "dataset.export": _("Export datasets and see statistics"),
    "people.manage": _("Create, block and unblock people"),
    "operations.watch": _("Watch the live operations board"),
    "rooms.supervise": _("Open any live room read-only, end it or send its worker back to the queue"),
    "campaigns.manage": _("Create and change campaigns and their crowd-platform join links"),
    "payments.export": _("Download completion codes and bonus lists for the crowd platforms"),
    "pay.own": _("See your own pay statements"),
    "pay.manage": _("Set pay rules, read everyone's pay statements and record them as paid"),
    "experts.onboard": _("Edit the experts' guidelines, choose practice goals, qualify or withdraw experts"),
    "rating.rate": _("Rate system responses in a human rating task given to you"),
    "rating.manage": _("Create human rating tasks, choose their raters and read their results"),
    "double.manage": _("Draw double-annotation samples and read their agreement"),
    "double.label": _("Label, blind, the double-annotation samples assigned to you"),
    "double.adjudicate": _("Settle double-annotation disagreements as review corrections"),
    "translation.manage": _("Make translation projects, assign their translators and export them"),
    "translation.work": _("Translate the names, values and questions of the databases assigned to you"),
    "translation.review": _("Review translated interactions"),
}

_ROLE_PERMISSIONS: dict[str, frozenset[str]] = {
    Role.WORKER: frozenset({"chat.as_worker"}),
    Role.EXPERT: frozenset(
        {"chat.as_expert", "sql.run", "databases.browse", "goals.view", "review.own_work", "pay.own", "rating.rate"}
    ),
    Role.REVIEWER: frozenset({"review.work", "sql.run", "databases.browse", "goals.view", "pay.own", "rating.rate"}),
    # Admins may do everything except pose as a crowd worker: worker data must come from workers.
    Role.ADMIN: frozenset(PERMISSIONS) - {"chat.as_worker"},
}
# Blind double annotation (docs/double_annotation.md): experts and reviewers label the samples assigned to them;
# reviewers also settle the disagreements.
_ROLE_PERMISSIONS[Role.EXPERT] |= {"double.label"}
_ROLE_PERMISSIONS[Role.REVIEWER] |= {"double.label", "double.adjudicate"}
# Translation projects (docs/translation.md): experts and reviewers translate the databases assigned to them;
# reviewers check each translated interaction.
_ROLE_PERMISSIONS[Role.EXPERT] |= {"translation.work"}
_ROLE_PERMISSIONS[Role.REVIEWER] |= {"translation.work", "translation.review"}

# Permissions a person may hold beyond their role, granted one by one as Django permissions (the admin site's user
# page, or `user.user_permissions.add(...)`): a lab's campaign supervisor is an expert or a reviewer given
# `dialogs.supervise_rooms`, which opens the live board and its rooms and nothing else of an admin's. Never to a
# worker: the rooms show SQL, and worker data must come from workers.
GRANTS: dict[str, frozenset[str]] = {
    "dialogs.supervise_rooms": frozenset({"rooms.supervise", "operations.watch"}),
}

# The page each role lands on after signing in (URL names).
HOME_URL_NAMES = {
    Role.WORKER: "dialogs:worker_home",
    Role.EXPERT: "dialogs:expert_home",
    Role.REVIEWER: "review:home",
    Role.ADMIN: "annotation:admin_home",
}


def role_of(user) -> str | None:
    """The role of a signed-in, active person; None for anonymous or deactivated accounts."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return None
    return user.role


def can(user, permission: str) -> bool:
    """True when `user` may perform `permission`. Blocked people may do nothing; unknown permissions are a bug."""
    if permission not in PERMISSIONS:
        raise KeyError(f"unknown permission {permission!r}")
    role = role_of(user)
    if role is None or user.blocked:
        return False
    if permission in _ROLE_PERMISSIONS.get(role, frozenset()):
        return True
    # Asked only for a permission some grant gives (Django caches a person's permissions on the user object).
    return role != Role.WORKER and any(permission in given and user.has_perm(grant) for grant, given in GRANTS.items())


def permissions_of(user) -> frozenset[str]:
    """Every permission `user` holds (for templates that show or hide navigation)."""
    return frozenset(p for p in PERMISSIONS if can(user, p))


def role_required(permission: str):
    """View decorator: anonymous → login page; signed in without the permission → 403."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not can(request.user, permission):
                # The message is the 403 page's explanation (templates/403.html): say which rule refused.
                action = {"action": PERMISSIONS[permission].lower()}
                if request.user.blocked:
                    raise PermissionDenied(gettext("Your account is blocked, so you may not %(action)s.") % action)
                raise PermissionDenied(gettext("Your role may not %(action)s.") % action)
            return view(request, *args, **kwargs)

        wrapped.required_permission = permission
        return wrapped

    return decorator


def open_view(reason: str):
    """View decorator for the few pages no permission guards (a crowd platform's join link, which makes the account):
    declares that, and why, where a reader and the "every view declares a permission" test look."""

    def decorator(view):
        view.required_permission = None
        view.open_because = reason
        return view

    return decorator


# What a view declares when its access depends on the object it serves, not on a role: a dialogue's pages are for its
# two participants, which the participant rule of the dialogs app decides in the view (a 403 for anyone else).
PARTICIPANTS = "participants"
# Every value a view may declare besides a permission and None (open_view): the "every view declares" test checks it.
ACCESS_MARKERS = frozenset({PARTICIPANTS})


def participants_only(rule: str):
    """View decorator that declares `PARTICIPANTS`: the view itself refuses anyone but the object's participants, by
    `rule` (where a reader finds the check)."""

    def decorator(view):
        view.required_permission = PARTICIPANTS
        view.access_rule = rule
        return view

    return decorator
