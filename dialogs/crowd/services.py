"""Crowd platforms: what a join link reads from Prolific and Mechanical Turk, the account it binds to the worker's id,
and where a worker goes back to with their completion code. The reasoning, and the abuse it guards against, is in
docs/crowd.md.
"""

import re
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.models import Role, User
from annotation.plumbing.prepared import PreparedModels
from dialogs.models import (
    PASSING_SCORE,
    Campaign,
    CrowdAssignment,
    CrowdPlatform,
    CrowdWorker,
    Dialogue,
    DialogueStatus,
    LobbyEntry,
)


@dataclass(frozen=True)
class PlatformParameters:
    """The query parameters a platform adds to a study's URL, and the form each id must have."""

    worker: str
    batch: str
    session: str
    id_format: re.Pattern


# Prolific ids are 24 hexadecimal digits; MTurk's are upper-case letters and digits (a worker id is about 14, a HIT
# or assignment id 30). Anything else is refused before it reaches the database.
PLATFORMS = {
    CrowdPlatform.PROLIFIC: PlatformParameters(
        "PROLIFIC_PID", "STUDY_ID", "SESSION_ID", re.compile(r"[0-9a-f]{24}", re.IGNORECASE)
    ),
    CrowdPlatform.MTURK: PlatformParameters("workerId", "hitId", "assignmentId", re.compile(r"[A-Z0-9]{10,64}")),
}
# What MTurk sends while a worker previews a HIT they have not accepted: no task yet, so no account either.
MTURK_PREVIEW_ASSIGNMENT = "ASSIGNMENT_ID_NOT_AVAILABLE"


class CrowdJoinError(Exception):
    """A join link refused. `code` picks the page's wording (templates/dialogs/crowd_refused.html)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class CrowdIds:
    platform: str
    worker_id: str
    batch_id: str
    session_id: str


def crowd_ids_read(query) -> CrowdIds:
    """The platform and the three ids of a join link's query string (a QueryDict or a dict), checked.

    Raises CrowdJoinError: `no_ids` (neither platform's parameters), `preview` (an MTurk HIT being previewed),
    `bad_ids` (a missing or malformed id)."""
    if PLATFORMS[CrowdPlatform.PROLIFIC].worker in query:
        platform = CrowdPlatform.PROLIFIC
    elif PLATFORMS[CrowdPlatform.MTURK].worker in query or PLATFORMS[CrowdPlatform.MTURK].session in query:
        platform = CrowdPlatform.MTURK
    else:
        raise CrowdJoinError("no_ids", _("This link must be opened from Prolific or Mechanical Turk."))
    names = PLATFORMS[platform]
    if platform == CrowdPlatform.MTURK and query.get(names.session) == MTURK_PREVIEW_ASSIGNMENT:
        raise CrowdJoinError("preview", _("Accept the HIT first; then this link starts your task."))
    values = {}
    for name in (names.worker, names.batch, names.session):
        value = query.get(name, "")
        if not isinstance(value, str) or not names.id_format.fullmatch(value):
            raise CrowdJoinError(
                "bad_ids",
                _("The link's %(name)s is missing or is not a %(platform)s id.")
                % {"name": name, "platform": platform.label},
            )
        values[name] = value.lower() if platform == CrowdPlatform.PROLIFIC else value
    return CrowdIds(platform, values[names.worker], values[names.batch], values[names.session])


def crowd_join_allowed(address: str) -> bool:
    """Count one new crowd account from `address`; False once CROWD_JOIN_ACCOUNTS_PER_HOUR were made from it this
    hour. A brake on a script that makes accounts with invented ids, not a wall (the cache is per process unless
    the deployment shares one): docs/crowd.md."""
    limit = settings.CROWD_JOIN_ACCOUNTS_PER_HOUR
    if not limit:
        return True
    key = f"crowd-join:{address}:{timezone.now():%Y%m%d%H}"
    cache.add(key, 0, timeout=3600)
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between the two calls: this is the first of a new hour
        cache.add(key, 1, timeout=3600)
        return True


def _username_for(ids: CrowdIds) -> str:
    """A readable, unused username. Only ever a new account's name: nothing is found by it (docs/crowd.md)."""
    base = f"{ids.platform}-{ids.worker_id.lower()}"
    username = base
    while User.objects.filter(username=username).exists():
        username = f"{base}-{secrets.token_hex(3)}"
    return username


def crowd_join(*, campaign: Campaign, ids: CrowdIds, address: str = "") -> CrowdAssignment:
    """Open a campaign's join link for a crowd worker: find the account bound to their id, or make one (a worker with
    no usable password), and record the task they came for. Returns the assignment; its worker's account is
    `assignment.crowd_worker.person`, whom the caller signs in.

    Refuses with CrowdJoinError: `closed` (the campaign is not open), `blocked`, `not_worker` (the id's account
    was made an expert, say), `session_taken` (this session or assignment id came with another worker's id),
    `busy` (the worker is in a dialogue started from another session), `too_many` (the address's hourly cap of
    new accounts).
    """
    if not campaign.is_open():
        raise CrowdJoinError("closed", _("This study is closed: it takes no new participants."))
    now = timezone.now()
    with transaction.atomic():
        crowd_worker = (
            CrowdWorker.objects.select_related("person")
            .filter(platform=ids.platform, external_id=ids.worker_id)
            .first()
        )
        if crowd_worker is None:
            if not crowd_join_allowed(address):
                raise CrowdJoinError("too_many", _("Too many new participants from your network: try again later."))
            crowd_worker = _crowd_worker_create(ids)
        person = crowd_worker.person
        if person.blocked:
            raise CrowdJoinError("blocked", _("Your account may take no more tasks in this study."))
        if person.role != Role.WORKER or not person.is_active:
            raise CrowdJoinError("not_worker", _("This id belongs to an account that does not take tasks."))
        assignment = CrowdAssignment.objects.filter(campaign=campaign, session_id=ids.session_id).first()
        if assignment is not None and assignment.crowd_worker_id != crowd_worker.pk:
            raise CrowdJoinError("session_taken", _("This session belongs to another participant."))
        open_dialogue = (
            Dialogue.objects.filter(worker=person, status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE])
            .select_related("crowd_assignment")
            .first()
        )
        if open_dialogue is not None and open_dialogue.crowd_assignment is not None:
            if open_dialogue.crowd_assignment.session_id != ids.session_id:
                # Ids are not secrets (a researcher sees them): a dialogue under way is only reopened from its session.
                raise CrowdJoinError("busy", _("You are in a dialogue started from another session: go back to it."))
        if assignment is None:
            assignment = CrowdAssignment.objects.create(
                campaign=campaign,
                crowd_worker=crowd_worker,
                batch_id=ids.batch_id,
                session_id=ids.session_id,
                last_arrived_at=now,
            )
        else:
            assignment.last_arrived_at = now
            assignment.save(update_fields=["last_arrived_at"])
        # A worker already waiting now waits for this task (its campaign's goals, its code's destination).
        LobbyEntry.objects.filter(person=person, outcome=LobbyEntry.Outcome.WAITING).update(crowd_assignment=assignment)
    return assignment


def _crowd_worker_create(ids: CrowdIds) -> CrowdWorker:
    """A new worker account bound to the id. Two first clicks at once: the unique constraint lets one win, and the
    other finds its account."""
    try:
        with transaction.atomic():
            person = User(username=_username_for(ids), role=Role.WORKER)
            person.set_unusable_password()
            person.save()
            return CrowdWorker.objects.create(platform=ids.platform, external_id=ids.worker_id, person=person)
    except IntegrityError:
        return CrowdWorker.objects.select_related("person").get(platform=ids.platform, external_id=ids.worker_id)


def crowd_assignment_current(person: User | int) -> CrowdAssignment | None:
    """The crowd task a worker works for: the one whose join link they opened last (None for an account made by
    hand)."""
    return _assignment_current.first(person if isinstance(person, int) else person.pk)


# Read at every worker's join and lobby status (dialogs.lobby), so compiled once (annotation.plumbing.prepared).
_assignment_current = PreparedModels(
    lambda person_id: (
        CrowdAssignment.objects.filter(crowd_worker__person_id=person_id)
        .select_related("campaign", "crowd_worker")
        .order_by("-last_arrived_at", "-id")[:1]
    )
)


def crowd_return_url(*, person: User, code: str) -> str | None:
    """Where a worker goes back to with a completion code of theirs: the completion URL of the campaign of the
    dialogue or lobby wait that gave the code, with the code in it. None when the code is not theirs, or its
    campaign names no completion URL (then the worker copies the code by hand)."""
    if not code:
        return None
    by_code = {"completion_code": code, "crowd_assignment__isnull": False}
    owner = (
        Dialogue.objects.filter(worker=person, **by_code).select_related("crowd_assignment__campaign").first()
        or LobbyEntry.objects.filter(person=person, **by_code).select_related("crowd_assignment__campaign").first()
    )
    if owner is None or owner.crowd_assignment is None or not owner.crowd_assignment.campaign.completion_url:
        return None
    return owner.crowd_assignment.campaign.completion_url_for(code)


def crowd_return_config(assignment: CrowdAssignment | None) -> dict:
    """What a worker's page needs to send them back to the platform when they get a code (static/js/crowd_return.js):
    the return URL (empty when their campaign names no completion URL) and the seconds the code is shown first."""
    returns = assignment is not None and bool(assignment.campaign.completion_url)
    return {
        "url": reverse("dialogs:crowd_return") if returns else "",
        "delay_seconds": settings.CROWD_RETURN_DELAY_SECONDS,
        "platform": assignment.crowd_worker.get_platform_display() if returns else "",
    }


@dataclass(frozen=True)
class BonusPromise:
    """What a worker is told about the bonus of the crowd task they work for: the campaign's own rule and amount."""

    min_questions: int
    amount: str  # two decimals, in `currency`
    currency: str
    after_review: bool

    @property
    def text(self) -> str:
        """The rule in the worker's words: the tutorial and the room show this sentence."""
        values = {"count": self.min_questions, "amount": self.amount, "currency": self.currency}
        if self.after_review:
            return (
                ngettext(
                    "A dialogue with at least %(count)s good related question (each answered with a table from the "
                    "data) earns a bonus of %(amount)s %(currency)s, once review approves the dialogue.",
                    "A dialogue with at least %(count)s good related questions (each answered with a table from the "
                    "data) earns a bonus of %(amount)s %(currency)s, once review approves the dialogue.",
                    self.min_questions,
                )
                % values
            )
        return ngettext(
            "A dialogue with at least %(count)s good related question (each answered with a table from the data) "
            "earns a bonus of %(amount)s %(currency)s, unless the expert scores the dialogue below %(score)s or "
            "review rejects it.",
            "A dialogue with at least %(count)s good related questions (each answered with a table from the data) "
            "earns a bonus of %(amount)s %(currency)s, unless the expert scores the dialogue below %(score)s or "
            "review rejects it.",
            self.min_questions,
        ) % {**values, "score": PASSING_SCORE}


def bonus_promise(assignment: CrowdAssignment | None) -> BonusPromise | None:
    """The bonus a worker is promised for the crowd task `assignment` (their dialogue's, or the one they work for
    now): its campaign's rule (`Campaign.bonus_earned`, which the payout reads too) and amount. None, and nothing is
    promised, without a crowd task (only a crowd task is paid a bonus: review.payments.services.campaign_bonuses) or
    when its campaign pays none."""
    if assignment is None or not assignment.campaign.pays_bonus:
        return None
    campaign = assignment.campaign
    return BonusPromise(
        min_questions=campaign.bonus_min_questions,
        amount=f"{campaign.bonus_amount:.2f}",
        currency=settings.BONUS_CURRENCY,
        after_review=campaign.bonus_after_review,
    )
