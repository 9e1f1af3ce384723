"""A campaign's Prolific study driven from its page (docs/crowd.md, "The Prolific API"): the study made and published
with the campaign's eligibility filters, paused and resumed; its submissions listed, approved or rejected with a
reason; and the bonuses owed paid from review's bonus file, never twice.

Every call goes through `dialogs.crowd.prolific_api` (which audits it) and is made outside any database transaction:
each service reads what it needs, calls Prolific, then records the outcome in a short write of its own. Only a person
who may manage campaigns may do any of it (`annotation.people.roles`, "campaigns.manage"), and nothing happens while the
integration is off (no PROLIFIC_API_TOKEN).

The bonus payment is the one call that must never be repeated blindly: Prolific pays a bulk bonus again each time it
is asked to. So the bonuses are recorded as paid in review before anything is sent (no other payment can hold them),
the payment moves through states it records before each step (recorded → set up → paying → paid), and after a payment
call whose answer was lost it reads each participant's bonuses on Prolific first: paid is recorded as paid, and the
same bonuses are paid again only when Prolific still shows none of them PROLIFIC_BONUS_SETTLE_SECONDS after the call
(it pays in the minutes after it accepts). A payment recorded as paid is refused.
"""

import re
import secrets
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from urllib.parse import parse_qsl, urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from annotation.models import User
from annotation.people.roles import can
from dialogs.crowd.prolific_api import ProlificError, Retry, off_error, prolific_configured, prolific_request
from dialogs.models import Campaign, CrowdAssignment, ProlificBonusPayment, ProlificCall, ProlificStudy

Purpose = ProlificCall.Purpose
State = ProlificBonusPayment.State

# Prolific's reasons for a rejection (its `rejection_category`), as the reject form offers them.
REJECTION_CATEGORIES = {
    "TOO_QUICKLY": "Completed too quickly",
    "TOO_SLOWLY": "Completed too slowly",
    "FAILED_INSTRUCTIONS": "Did not follow the instructions",
    "INCOMP_LONGITUDINAL": "Did not complete every part",
    "FAILED_CHECK": "Failed a check",
    "LOW_EFFORT": "Low effort",
    "MALINGERING": "Malingering",
    "NO_CODE": "No completion code",
    "BAD_CODE": "Wrong completion code",
    "NO_DATA": "No data",
    "UNSUPP_DEVICE": "Unsupported device",
    "OTHER": "Other",
}
# Prolific refuses a rejection whose message to the participant is shorter.
REJECTION_MESSAGE_MIN_CHARS = 100
# Where a participant goes back to Prolific with a study's completion code.
PROLIFIC_COMPLETION_URL = "https://app.prolific.com/submissions/complete?cc="
DEFAULT_DESCRIPTION = (
    "Chat with a database expert about a database: ask questions in plain English, read the tables they answer "
    "with, and ask follow-up questions until your goal is met."
)
# A study in one of these is running on Prolific: it is paused or resumed, not published again.
STUDY_LIVE = frozenset({"ACTIVE", "PAUSED", "PUBLISHING", "SCHEDULED"})
# What each transition leads to (PUBLISH may pass through PUBLISHING or wait as SCHEDULED).
TRANSITION_TARGETS = {"PUBLISH": {"ACTIVE", "PUBLISHING", "SCHEDULED"}, "PAUSE": {"PAUSED"}, "START": {"ACTIVE"}}
# How long a bonus job holds its payment: longer than any run of it, so that only a job that died lets go.
CLAIM_MINUTES = 30
# Pages of a list followed at most (a study's submissions, 100 a page).
MAX_PAGES = 50
_ID = re.compile(r"[0-9A-Za-z]{1,64}")


def _allowed(by: User | None) -> None:
    """The one rule: a person who may manage campaigns, and the integration on."""
    if by is None or not can(by, "campaigns.manage"):
        raise ProlificError("forbidden", gettext("Only an admin may use Prolific from the platform."))
    if not prolific_configured():
        raise off_error()


# --- The campaign's study: its settings, made and published, paused and resumed -----------------------------------


def prolific_filters(campaign: Campaign) -> list[dict]:
    """The study's eligibility filters from the campaign: countries of residence (Prolific's choice ids) and the
    lowest approval rate."""
    filters = []
    countries = [value.strip() for value in campaign.prolific_countries.split(",") if value.strip()]
    if countries:
        filters.append({"filter_id": "current-country-of-residence", "selected_values": countries})
    if campaign.prolific_min_approval_rate is not None:
        filters.append(
            {
                "filter_id": "approval_rate",
                "selected_range": {"lower": campaign.prolific_min_approval_rate, "upper": 100},
            }
        )
    return filters


def prolific_join_url(join_link: str) -> str:
    """The campaign's join link with the parameters Prolific fills in for each participant (docs/crowd.md)."""
    return (
        f"{join_link}?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&STUDY_ID={{{{%STUDY_ID%}}}}&SESSION_ID={{{{%SESSION_ID%}}}}"
    )


def prolific_study_body(campaign: Campaign, *, join_url: str, completion_code: str, internal_name: str) -> dict:
    """The draft study Prolific is asked to make for the campaign."""
    return {
        "name": campaign.name,
        "internal_name": internal_name,
        "description": campaign.prolific_description or DEFAULT_DESCRIPTION,
        "external_study_url": join_url,
        "prolific_id_option": "url_parameters",
        # Submissions wait for an admin's decision on the campaign's page: none is approved by its code alone.
        "completion_codes": [
            {"code": completion_code, "code_type": "COMPLETED", "actions": [{"action": "MANUALLY_REVIEW"}]}
        ],
        "total_available_places": campaign.prolific_places,
        "estimated_completion_time": campaign.prolific_minutes,
        "reward": int(campaign.prolific_reward * 100) if campaign.prolific_reward else 0,
        "filters": prolific_filters(campaign),
    }


def prolific_study_problems(campaign: Campaign) -> list[str]:
    """What keeps the campaign from having a study published, in words (empty: nothing)."""
    problems = []
    if not campaign.prolific_reward or campaign.prolific_reward <= 0:
        problems.append("Set what the study pays each participant.")
    if campaign.prolific_places < 1:
        problems.append("The study needs at least one place.")
    if campaign.prolific_minutes < 1:
        problems.append("Say how many minutes a task takes.")
    if not campaign.is_open():
        problems.append("The campaign is not open: participants would be turned away.")
    return problems


def campaign_prolific_settings_save(
    *,
    campaign: Campaign,
    by: User,
    countries: str,
    min_approval_rate: int | None,
    places: int,
    reward: Decimal | None,
    minutes: int,
    description: str,
) -> Campaign:
    """Keep the study's settings on the campaign (sent with the next study made). ValidationError by field."""
    if not can(by, "campaigns.manage"):
        raise ValidationError(gettext("Only an admin may change a campaign."))
    errors = {}
    ids = [value.strip() for value in countries.split(",") if value.strip()]
    if any(not _ID.fullmatch(value) for value in ids):
        errors["countries"] = "Prolific's choice ids, separated by commas (1 is the United States)."
    if min_approval_rate is not None and not 0 <= min_approval_rate <= 100:
        errors["min_approval_rate"] = "A percent, from 0 to 100."
    if places < 1:
        errors["places"] = "At least one place."
    if reward is not None and reward <= 0:
        errors["reward"] = "A reward above 0 (or empty until you know it)."
    if minutes < 1:
        errors["minutes"] = "At least one minute."
    if errors:
        raise ValidationError(errors)
    values = {
        "prolific_countries": ",".join(ids),
        "prolific_min_approval_rate": min_approval_rate,
        "prolific_places": places,
        "prolific_reward": reward,
        "prolific_minutes": minutes,
        "prolific_description": description.strip(),
    }
    for name, value in values.items():
        setattr(campaign, name, value)
    campaign.save(update_fields=list(values))
    return campaign


def _fixed_code(completion_url: str) -> str:
    """The fixed Prolific completion code in a completion URL (`...prolific.com/...?cc=C0DE`), or ""."""
    if not completion_url or "{code}" in completion_url:
        return ""
    parts = urlsplit(completion_url)
    if not (parts.hostname or "").endswith(("prolific.com", "prolific.co")):
        return ""
    return dict(parse_qsl(parts.query)).get("cc", "")


def prolific_study_publish(*, campaign: Campaign, by: User, join_link: str) -> ProlificStudy:
    """Publish a study for the campaign: make the draft (unless an unpublished one is waiting) with the campaign's
    settings and filters, then publish it. Returns the study, its status as Prolific gave it. ProlificError."""
    _allowed(by)
    problems = prolific_study_problems(campaign)
    if problems:
        raise ProlificError("invalid", " ".join(problems))
    study = campaign.prolific_studies.first()
    if study is not None and study.status in STUDY_LIVE:
        raise ProlificError(
            "invalid",
            gettext("The campaign's study is %(status)s on Prolific already: pause or resume it.")
            % {"status": study.status.lower()},
        )
    if study is None or study.status != "UNPUBLISHED":
        study = _study_create(campaign, by, prolific_join_url(join_link))
    return _study_transition(study, "PUBLISH", by, Purpose.STUDY_PUBLISH)


def prolific_study_pause(*, study: ProlificStudy, by: User) -> ProlificStudy:
    """Pause the study: nobody new takes a place until it is resumed."""
    _allowed(by)
    if study.status != "ACTIVE":
        raise ProlificError(
            "invalid",
            gettext("Only an active study can be paused; this one is %(status)s.") % {"status": study.status.lower()},
        )
    return _study_transition(study, "PAUSE", by, Purpose.STUDY_PAUSE)


def prolific_study_resume(*, study: ProlificStudy, by: User) -> ProlificStudy:
    """Resume a paused study (Prolific's START)."""
    _allowed(by)
    if study.status != "PAUSED":
        raise ProlificError(
            "invalid",
            gettext("Only a paused study can be resumed; this one is %(status)s.") % {"status": study.status.lower()},
        )
    return _study_transition(study, "START", by, Purpose.STUDY_RESUME)


def prolific_study_refresh(*, study: ProlificStudy, by: User) -> ProlificStudy:
    """Read the study's status from Prolific (it may have changed there: paused by Prolific, full, stopped)."""
    _allowed(by)
    return _status_save(study, _study_read(study, by))


def _study_create(campaign: Campaign, by: User, join_url: str) -> ProlificStudy:
    """Make the draft. A draft costs nothing, but a second one would be a second study: after an answer that never
    came, Prolific's list of studies is read for this attempt's internal name before anything else is said."""
    internal_name = f"wozsql campaign {campaign.pk} {secrets.token_hex(4)}"
    code = _fixed_code(campaign.completion_url) or f"WOZ{secrets.token_hex(4).upper()}"
    body = prolific_study_body(campaign, join_url=join_url, completion_code=code, internal_name=internal_name)
    try:
        data = prolific_request(
            "POST",
            "studies/",
            body=body,
            purpose=Purpose.STUDY_CREATE,
            retry=Retry.REFUSED_ONLY,
            campaign=campaign,
            by=by,
        ).data
    except ProlificError as error:
        if not error.outcome_unknown:
            raise
        data = next(
            (
                study
                for study in _pages("studies/", {}, Purpose.STUDY_FIND, campaign, by)
                if study.get("internal_name") == internal_name
            ),
            None,
        )
        if data is None:
            raise ProlificError(
                error.code,
                gettext("%(error)s Prolific lists no study from this attempt: try again.") % {"error": error.message},
                status=error.status,
            ) from error
    if not isinstance(data, dict) or not _ID.fullmatch(str(data.get("id", ""))):
        raise ProlificError("bad_answer", gettext("Prolific's answer named no study."))
    study = ProlificStudy.objects.create(
        campaign=campaign,
        study_id=data["id"],
        status=str(data.get("status") or "UNPUBLISHED"),
        completion_code=code,
        request=body,
        created_by=by,
    )
    if not campaign.completion_url:
        # Participants go back to Prolific with the study's code: the room sends them there (docs/crowd.md).
        campaign.completion_url = PROLIFIC_COMPLETION_URL + code
        campaign.save(update_fields=["completion_url"])
    return study


def _study_read(study: ProlificStudy, by: User) -> str:
    data = prolific_request(
        "GET",
        f"studies/{study.study_id}/",
        purpose=Purpose.STUDY_READ,
        retry=Retry.SAFE,
        campaign=study.campaign,
        by=by,
    ).data
    if not isinstance(data, dict) or not data.get("status"):
        raise ProlificError("bad_answer", gettext("Prolific's answer gave no status for the study."))
    return str(data["status"])


def _study_transition(study: ProlificStudy, action: str, by: User, purpose: str) -> ProlificStudy:
    """Ask Prolific to `action` the study. After a failure whose outcome is unknown, the study is read back: if it
    is already where the action leads, that is the answer; otherwise the action is asked once more."""
    targets = TRANSITION_TARGETS[action]
    for attempt in (1, 2):
        try:
            data = prolific_request(
                "POST",
                f"studies/{study.study_id}/transition/",
                body={"action": action},
                purpose=purpose,
                retry=Retry.REFUSED_ONLY,
                campaign=study.campaign,
                by=by,
            ).data
            status = data.get("status") if isinstance(data, dict) else None
            return _status_save(study, str(status) if status else _study_read(study, by))
        except ProlificError as error:
            if not error.outcome_unknown:
                raise
            current = _study_read(study, by)
            if current in targets:
                return _status_save(study, current)
            if attempt == 2:
                _status_save(study, current)
                raise ProlificError(
                    error.code, f"{error.message} The study is still {current.lower()}: try again later."
                ) from error
    raise AssertionError("unreachable")


def _status_save(study: ProlificStudy, status: str) -> ProlificStudy:
    study.status = status
    study.save(update_fields=["status", "updated_at"])
    return study


def _pages(path: str, query: dict, purpose: str, campaign: Campaign, by: User) -> Iterator[dict]:
    """The results of a list, page after page (Prolific links each page to the next)."""
    for _ in range(MAX_PAGES):
        data = prolific_request("GET", path, query=query, purpose=purpose, retry=Retry.SAFE, campaign=campaign, by=by)
        data = data.data if isinstance(data.data, dict) else {}
        yield from (item for item in data.get("results") or [] if isinstance(item, dict))
        following = ((data.get("_links") or {}).get("next") or {}).get("href")
        if not following:
            return
        parts = urlsplit(following)
        path = parts.path.split("/api/v1/", 1)[-1]
        query = dict(parse_qsl(parts.query))


# --- Submissions: listed, approved, rejected ------------------------------------------------------------------------


@dataclass(frozen=True)
class SubmissionRow:
    """A Prolific submission of the study, beside what the platform knows of it: the worker's dialogues there."""

    id: str
    participant: str
    status: str
    started_at: str
    completed_at: str
    dialogues: tuple = ()  # (dialogue id, status, completion code), oldest first
    known: bool = False  # whether the participant opened the campaign's join link from this submission

    @property
    def awaiting_review(self) -> bool:
        return self.status.replace("_", " ") == "AWAITING REVIEW"


def prolific_submissions(*, study: ProlificStudy, by: User) -> list[SubmissionRow]:
    """The study's submissions on Prolific, each with the dialogues its participant had on the platform."""
    _allowed(by)
    items = list(
        _pages(
            "submissions/", {"study": study.study_id, "page_size": 100}, Purpose.SUBMISSIONS_LIST, study.campaign, by
        )
    )
    ids = [str(item.get("id", "")) for item in items]
    assignments = CrowdAssignment.objects.filter(campaign=study.campaign, session_id__in=ids).prefetch_related(
        "dialogues"
    )
    dialogues = {
        assignment.session_id: tuple(
            (dialogue.pk, dialogue.get_status_display(), dialogue.completion_code)
            for dialogue in sorted(assignment.dialogues.all(), key=lambda dialogue: dialogue.pk)
        )
        for assignment in assignments
    }
    return [
        SubmissionRow(
            id=str(item.get("id", "")),
            participant=str(item.get("participant_id") or item.get("participant") or ""),
            status=str(item.get("status", "")),
            started_at=str(item.get("started_at") or ""),
            completed_at=str(item.get("completed_at") or ""),
            dialogues=dialogues.get(str(item.get("id", "")), ()),
            known=str(item.get("id", "")) in dialogues,
        )
        for item in items
    ]


def prolific_submission_decide(
    *, study: ProlificStudy, submission_id: str, approve: bool, by: User, category: str = "", message: str = ""
) -> str:
    """Approve a submission, or reject it with one of Prolific's categories and a message to the participant (at
    least REJECTION_MESSAGE_MIN_CHARS). Prolific ignores the same decision sent twice, so it is retried like a read.
    Returns the submission's new status."""
    _allowed(by)
    if not _ID.fullmatch(submission_id):
        raise ProlificError("invalid", gettext("That is not a Prolific submission id."))
    body: dict = {"action": "APPROVE"}
    if not approve:
        message = message.strip()
        if category not in REJECTION_CATEGORIES:
            raise ProlificError("invalid", gettext("Choose why the submission is rejected."))
        if len(message) < REJECTION_MESSAGE_MIN_CHARS:
            raise ProlificError(
                "invalid",
                gettext(
                    "Tell the participant why in at least %(minimum)s characters (Prolific's rule); "
                    "this message has %(length)s."
                )
                % {"minimum": REJECTION_MESSAGE_MIN_CHARS, "length": len(message)},
            )
        body = {"action": "REJECT", "rejection_category": category, "message": message}
    data = prolific_request(
        "POST",
        f"submissions/{submission_id}/transition/",
        body=body,
        purpose=Purpose.SUBMISSION_APPROVE if approve else Purpose.SUBMISSION_REJECT,
        retry=Retry.SAFE,
        campaign=study.campaign,
        by=by,
    ).data
    return str(data.get("status", "")) if isinstance(data, dict) else ""


# --- Bonuses: from review's bonus file, paid once -------------------------------------------------------------------


@dataclass(frozen=True)
class OwedBonus:
    participant: str
    submission: str
    amount: Decimal


@dataclass(frozen=True)
class OwedBonusFile:
    """The bonuses owed to one Prolific study's participants, as review's bonus file has them."""

    study_id: str
    rows: tuple[OwedBonus, ...]
    digest: str
    csv_text: str

    @property
    def total(self) -> Decimal:
        return sum((row.amount for row in self.rows), Decimal("0.00"))


class BonusRecordRefused(Exception):
    """The bonus source would not record the file as paid (it changed, or nothing is owed); `message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class _BonusSource:
    owed: Callable[[Campaign], list[OwedBonusFile]]
    record: Callable[..., int]
    unrecord: Callable[[int], None]


_SOURCE: list[_BonusSource] = []


def prolific_bonus_source(
    *,
    owed: Callable[[Campaign], list[OwedBonusFile]],
    record: Callable[..., int],
    unrecord: Callable[[int], None],
) -> None:
    """Say where the bonuses owed come from, for the app that knows what a dialogue earns (review, from its
    AppConfig.ready: dialogs never reads review). `owed(campaign)`: the Prolific files owed, one per study;
    `record(campaign=, study_id=, digest=, by=)`: record that file as paid, returning the record's id, or raise
    BonusRecordRefused; `unrecord(id)`: remove that record (nothing was paid), so its bonuses are owed again."""
    _SOURCE[:] = [_BonusSource(owed, record, unrecord)]


def prolific_bonuses_owed(campaign: Campaign) -> list[OwedBonusFile]:
    """The Prolific bonus files the campaign owes (none without a source)."""
    return _SOURCE[0].owed(campaign) if _SOURCE else []


def prolific_bonus_pay_start(*, campaign: Campaign, study_id: str, digest: str, by: User) -> ProlificBonusPayment:
    """Pay the bonuses owed to a study's participants, the file the page showed (`digest`): record them as paid in
    review and record the payment, in one short transaction, then hand the calls to a background job once committed.
    Refused (ProlificError "invalid") when the file changed, or another payment of the study is not finished."""
    _allowed(by)
    if not _SOURCE:
        raise ProlificError("invalid", gettext("Nothing on this platform says which bonuses are owed."))
    source = _SOURCE[0]
    owed = next((file for file in source.owed(campaign) if file.study_id == study_id), None)
    if owed is None or owed.digest != digest:
        raise ProlificError(
            "invalid",
            gettext("The bonuses owed have changed since the page was shown: nothing was sent. Look at them again."),
        )
    busy = ProlificBonusPayment.objects.filter(
        campaign=campaign, study_id=study_id, state__in=ProlificBonusPayment.OPEN_STATES
    ).first()
    if busy is not None:
        raise _busy(busy)
    claim = secrets.token_hex(8)
    try:
        with transaction.atomic():
            payout_id = source.record(campaign=campaign, study_id=study_id, digest=digest, by=by)
            payment = ProlificBonusPayment.objects.create(
                # Held for its job from the start: the page shows it under way, and no second job takes it.
                claimed_until=timezone.now() + timedelta(minutes=CLAIM_MINUTES),
                claim_token=claim,
                campaign=campaign,
                study_id=study_id,
                payout_id=payout_id,
                digest=digest,
                csv_bonuses=owed.csv_text,
                rows=[
                    {"participant": row.participant, "submission": row.submission, "amount": f"{row.amount:.2f}"}
                    for row in owed.rows
                ],
                total=owed.total,
                started_by=by,
            )
    except BonusRecordRefused as refused:
        raise ProlificError("invalid", refused.message) from refused
    except IntegrityError as exc:  # another admin's click got there first
        busy = ProlificBonusPayment.objects.filter(
            campaign=campaign, study_id=study_id, state__in=ProlificBonusPayment.OPEN_STATES
        ).first()
        raise (
            _busy(busy) if busy else ProlificError("invalid", gettext("These bonuses are being paid already."))
        ) from exc
    payment_id = payment.pk
    transaction.on_commit(lambda: _dispatch(payment_id, claim))
    return payment


def _busy(payment: ProlificBonusPayment) -> ProlificError:
    return ProlificError(
        "invalid",
        f"Bonuses of this study are being paid already (payment {payment.pk}: {payment.get_state_display().lower()})"
        ": finish that one first.",
    )


def prolific_bonus_retry(*, payment: ProlificBonusPayment, by: User) -> ProlificBonusPayment:
    """Take an unfinished payment up again (after a failure, or to check one whose answer was lost), as a job."""
    _allowed(by)
    payment.refresh_from_db()
    if payment.state == State.PAID:
        raise ProlificError(
            "invalid",
            gettext("These bonuses are recorded as paid (%(when)s UTC): never twice.")
            % {"when": f"{payment.updated_at:%Y-%m-%d %H:%M}"},
        )
    if payment.state not in ProlificBonusPayment.OPEN_STATES:
        raise ProlificError(
            "invalid", gettext("Nothing was paid and nothing is left to do: start a new payment instead.")
        )
    claim = secrets.token_hex(8)
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=timezone.now())
    until = timezone.now() + timedelta(minutes=CLAIM_MINUTES)
    if not ProlificBonusPayment.objects.filter(free, pk=payment.pk).update(claimed_until=until, claim_token=claim):
        raise ProlificError("invalid", gettext("This payment is being worked on right now: wait for it."))
    payment.refresh_from_db()
    payment_id = payment.pk
    transaction.on_commit(lambda: _dispatch(payment_id, claim))
    return payment


def prolific_bonus_cancel(*, payment: ProlificBonusPayment, by: User) -> ProlificBonusPayment:
    """Give up a payment whose pay call was never sent: its bonuses are owed again (the review record is removed)."""
    if not can(by, "campaigns.manage"):
        raise ProlificError("forbidden", gettext("Only an admin may use Prolific from the platform."))
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=timezone.now())
    cancelled = ProlificBonusPayment.objects.filter(
        free, pk=payment.pk, state__in=[State.RECORDED, State.SET_UP]
    ).update(state=State.CANCELLED, message=gettext("Cancelled before anything was paid."), updated_at=timezone.now())
    payment.refresh_from_db()
    if not cancelled:
        raise ProlificError(
            "invalid", gettext("Only a payment not sent for paying yet, and not being worked on, can be cancelled.")
        )
    _unrecord(payment)
    return payment


def _dispatch(payment_id: int, claim: str) -> None:
    """Run the payment's calls as a background job holding `claim`: a Celery task with a broker; on the embedded
    defaults, where Celery is eager and would run them inside the request, a thread of the server's process."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        threading.Thread(
            target=_run_in_thread, args=(payment_id, claim), name=f"prolific-bonus-{payment_id}", daemon=True
        ).start()
    else:
        from dialogs.tasks import prolific_bonus_pay

        prolific_bonus_pay.delay(payment_id, claim)


def _run_in_thread(payment_id: int, claim: str) -> None:
    try:
        prolific_bonus_run(payment_id=payment_id, claim=claim)
    finally:
        connection.close()  # this thread's own connection


def _bonus_steps(payment: ProlificBonusPayment) -> None:
    try:
        if not prolific_configured():
            raise off_error()
        if payment.state == State.RECORDED:
            _set_up(payment)
        if payment.state in (State.UNKNOWN, State.PAYING):
            # PAYING with the claim free again: the job that sent the payment died before it knew the outcome.
            _check(payment)
        if payment.state == State.SET_UP:
            _read_before(payment)
            _pay(payment)
    except ProlificError as error:
        _save(payment, message=error.message)


def _claimed(payment: ProlificBonusPayment) -> bool:
    return payment.claimed_until is not None and payment.claimed_until > timezone.now()


def prolific_bonus_run(*, payment_id: int, claim: str = "") -> ProlificBonusPayment:
    """The payment's job: take it as far as it can go from where it stands. Set it up on Prolific, read each
    participant's earlier bonuses, pay; or, after a payment call whose answer was lost, read what Prolific paid
    before anything else. `claim` is the hold its starter took for it; without one the job takes the payment if
    nobody holds it. A job that finds the payment held by another does nothing."""
    now = timezone.now()
    if claim:
        held = ProlificBonusPayment.objects.filter(pk=payment_id, claim_token=claim, claimed_until__gt=now).exists()
    else:
        claim = secrets.token_hex(8)
        free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
        until = now + timedelta(minutes=CLAIM_MINUTES)
        held = ProlificBonusPayment.objects.filter(free, pk=payment_id).update(claimed_until=until, claim_token=claim)
    if not held:
        return ProlificBonusPayment.objects.get(pk=payment_id)
    payment = ProlificBonusPayment.objects.select_related("campaign", "started_by").get(pk=payment_id)
    try:
        with payment.speaking():  # its notes in the language of the admin who started it
            _bonus_steps(payment)
    finally:
        ProlificBonusPayment.objects.filter(pk=payment_id, claim_token=claim).update(claimed_until=None, claim_token="")
    payment.refresh_from_db()
    return payment


def _save(payment: ProlificBonusPayment, **values) -> None:
    for name, value in values.items():
        setattr(payment, name, value)
    payment.save(update_fields=[*values, "updated_at"])


def _call(payment: ProlificBonusPayment, method: str, path: str, purpose: str, retry: Retry, body=None):
    return prolific_request(
        method, path, body=body, purpose=purpose, retry=retry, campaign=payment.campaign, by=payment.started_by
    ).data


def _set_up(payment: ProlificBonusPayment) -> None:
    """Prolific's "set up bonuses": it pays nothing, so it may be tried again (a set-up never paid costs nothing)."""
    try:
        data = _call(
            payment,
            "POST",
            "submissions/bonus-payments/",
            Purpose.BONUS_SET_UP,
            Retry.SAFE,
            body={"study_id": payment.study_id, "csv_bonuses": payment.csv_bonuses},
        )
    except ProlificError as error:
        if error.code != "refused":
            raise
        # Prolific said no to these lines: nothing can be paid from them, and nothing was.
        _save(
            payment,
            state=State.REFUSED,
            message=gettext("%(error)s Nothing was paid; the bonuses are owed again.") % {"error": error.message},
        )
        _unrecord(payment)
        return
    remote_id = str(data.get("id", "")) if isinstance(data, dict) else ""
    if not _ID.fullmatch(remote_id):
        raise ProlificError("bad_answer", gettext("Prolific's answer to setting up the bonuses named no payment."))
    _save(payment, state=State.SET_UP, remote_id=remote_id, message=gettext("Set up on Prolific; not paid yet."))


def _submission_bonuses(payment: ProlificBonusPayment, row: dict, purpose: str) -> list[int]:
    data = _call(payment, "GET", f"submissions/{row['submission']}/", purpose, Retry.SAFE)
    paid = data.get("bonus_payments") if isinstance(data, dict) else None
    if not isinstance(paid, list):
        raise ProlificError("bad_answer", gettext("Prolific's answer gave no bonus payments for a submission."))
    try:
        return [round(float(value)) for value in paid]
    except (TypeError, ValueError) as exc:
        raise ProlificError(
            "bad_answer", gettext("Prolific's answer gave bonus payments that are not amounts.")
        ) from exc


def _read_before(payment: ProlificBonusPayment) -> None:
    """What each submission was paid in bonuses before this payment: what a later check compares with."""
    rows = list(payment.rows)
    for index, row in enumerate(rows):
        if "before" not in row:
            row["before"] = _submission_bonuses(payment, row, Purpose.BONUS_BEFORE)
            rows[index] = row
            _save(payment, rows=rows, progress_done=index + 1)


def _pay(payment: ProlificBonusPayment) -> None:
    """Send the payment, once. The state moves to PAYING before the call (only one job can move it), so that a
    lost answer is never followed by another call without a check."""
    now = timezone.now()
    if not ProlificBonusPayment.objects.filter(pk=payment.pk, state=State.SET_UP).update(
        state=State.PAYING, pay_sent_at=now, message=gettext("Paying on Prolific…"), updated_at=now
    ):
        payment.refresh_from_db()
        return
    payment.refresh_from_db()
    try:
        _call(payment, "POST", f"bulk-bonus-payments/{payment.remote_id}/pay/", Purpose.BONUS_PAY, Retry.NEVER)
    except ProlificError as error:
        # Certainly not paid: Prolific answered with a refusal (4xx), or the request never reached it. Anything else
        # (no answer, a 5xx, an answer that could not be read) may have paid.
        refused = error.status is not None and 400 <= error.status < 500
        never_sent = error.code in ("unreachable", "timeout") and not error.outcome_unknown
        if refused or never_sent:
            _save(
                payment, state=State.SET_UP, message=gettext("%(error)s Nothing was paid.") % {"error": error.message}
            )
        else:
            _save(
                payment,
                state=State.UNKNOWN,
                message=gettext(
                    "%(error)s The bonuses may have been paid: nothing more is sent until Prolific's records say "
                    "whether they were. 'Check with Prolific' reads them."
                )
                % {"error": error.message},
            )
        return
    _save(
        payment,
        state=State.PAID,
        message=ngettext(
            "Paid on Prolific: %(amount)s %(currency)s to %(count)s participant.",
            "Paid on Prolific: %(amount)s %(currency)s to %(count)s participants.",
            len(payment.rows),
        )
        % {"amount": f"{payment.total:.2f}", "currency": settings.BONUS_CURRENCY, "count": len(payment.rows)},
    )


def _check(payment: ProlificBonusPayment) -> None:
    """After a payment call whose outcome is unknown: read each submission's bonuses. All paid: recorded as paid,
    nothing sent. None paid, PROLIFIC_BONUS_SETTLE_SECONDS after the call: back to set up, to be paid now. Anything
    else waits, and says what it saw."""
    seen = 0
    for index, row in enumerate(payment.rows):
        now = Counter(_submission_bonuses(payment, row, Purpose.BONUS_CHECK))
        now.subtract(Counter(row.get("before", [])))
        if now[round(Decimal(row["amount"]) * 100)] > 0:
            seen += 1
        _save(payment, progress_done=index + 1)
    count = len(payment.rows)
    if seen == count:
        _save(
            payment,
            state=State.PAID,
            message=ngettext(
                "Prolific shows the %(count)s bonus paid: recorded as paid, and not paid again.",
                "Prolific shows all %(count)s bonuses paid: recorded as paid, and not paid again.",
                count,
            )
            % {"count": count},
        )
        return
    settle = timedelta(seconds=settings.PROLIFIC_BONUS_SETTLE_SECONDS)
    sent_at = payment.pay_sent_at or payment.updated_at
    if seen == 0 and timezone.now() >= sent_at + settle:
        _save(
            payment,
            state=State.SET_UP,
            message=gettext("Prolific shows none of these bonuses paid since the lost answer: paying them now."),
        )
        return
    if seen == 0:
        after = timezone.localtime(sent_at + settle)
        message = gettext(
            "Prolific shows none of these bonuses paid yet. It pays in the minutes after it accepts a payment, so "
            "nothing is sent again before %(time)s (%(zone)s): check again then."
        ) % {"time": f"{after:%H:%M}", "zone": f"{after:%Z}"}
    else:
        message = gettext(
            "Prolific shows %(seen)s of %(count)s bonuses paid. Nothing more is sent: look at the study's bonuses on "
            "Prolific before anything else, then check again."
        ) % {"seen": seen, "count": count}
    _save(payment, state=State.UNKNOWN, message=message)


def _unrecord(payment: ProlificBonusPayment) -> None:
    """Nothing was paid: review's record goes, and its bonuses are owed again."""
    if payment.payout_id is not None and _SOURCE:
        _SOURCE[0].unrecord(payment.payout_id)
    _save(payment, payout_id=None)


def prolific_bonus_status(payment: ProlificBonusPayment) -> dict:
    """A payment as its page shows it (and polls it, as JSON)."""
    running = _claimed(payment)
    return {
        "id": payment.pk,
        "state": payment.state,
        "state_label": payment.get_state_display(),
        "message": payment.message,
        "done": payment.progress_done,
        "count": len(payment.rows),
        "running": running,
        "finished": not running and payment.state in (State.PAID, State.REFUSED, State.CANCELLED),
        "may_retry": not running and payment.state in ProlificBonusPayment.OPEN_STATES,
        "may_cancel": not running and payment.state in (State.RECORDED, State.SET_UP),
    }


# --- What the campaign's page shows (no call to Prolific) -----------------------------------------------------------


@dataclass
class ProlificPage:
    configured: bool
    study: ProlificStudy | None = None
    studies: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    filters: list = field(default_factory=list)
    owed: list = field(default_factory=list)  # OwedBonusFile of the studies with no payment under way
    payments: list = field(default_factory=list)  # (payment, status)
    calls: list = field(default_factory=list)
    code_warning: str = ""


def prolific_page(campaign: Campaign) -> ProlificPage:
    """The Prolific part of a campaign's page, from what the platform has recorded."""
    page = ProlificPage(configured=prolific_configured(), filters=prolific_filters(campaign))
    page.studies = list(campaign.prolific_studies.all()[:5])
    page.study = page.studies[0] if page.studies else None
    page.problems = prolific_study_problems(campaign)
    payments = list(campaign.prolific_bonus_payments.all()[:10])
    page.payments = [(payment, prolific_bonus_status(payment)) for payment in payments]
    busy = {payment.study_id for payment in payments if payment.state in ProlificBonusPayment.OPEN_STATES}
    if page.configured:
        page.owed = [file for file in prolific_bonuses_owed(campaign) if file.study_id not in busy]
    page.calls = list(ProlificCall.objects.filter(campaign=campaign).select_related("made_by")[:15])
    if page.study and "{code}" in campaign.completion_url:
        page.code_warning = (
            f"The campaign sends each worker back with a code of their own; Prolific knows this study's code only "
            f"({page.study.completion_code}), so its submissions wait for your review with an unknown code."
        )
    return page
