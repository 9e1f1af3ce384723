"""Dialogues as ordered event logs, and the lobby where workers and experts wait to be paired."""

import secrets
from decimal import Decimal
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from annotation.jobs import Job, Speaking, job_state_field
from annotation.models import Database, DatabaseVersion, Goal
from annotation.plumbing.jsoncodec import JSONField


class DialogueStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    ACTIVE = "active", _("Active")
    COMPLETED = "completed", _("Completed")
    ABANDONED = "abandoned", _("Abandoned")
    TERMINATED = "terminated", _("Terminated by the expert")
    DROPPED = "dropped", _("Dropped (score below 3)")


# The expert's score below which a dialogue is dropped (and its worker blocked): the one place this rule is written.
PASSING_SCORE = 3


def score_drops(score: int) -> bool:
    """Whether an expert's score drops the dialogue."""
    return score < PASSING_SCORE


def pairing_cancelled(prefix: str = "") -> models.Q:
    """The dialogues whose pairing was cancelled, their worker sent back to the queue (`Dialogue.requeued`): the one
    rule by which the room refuses their score, review keeps them out of its queues (Unsatisfactory included) and the
    control-group comparison leaves them out. `prefix` reaches a dialogue through a relation ("dialogue__")."""
    return models.Q(**{f"{prefix}requeued": True})


class DialogueMode(models.TextChoices):
    CHAT = "chat", "Worker and expert (CoSQL)"
    # One expert writes the questions and their SQL alone, as SParC's and CHASE-C's sequences were written.
    SOLO = "solo", "Solo sequence (SParC, CHASE)"
    # A question written for a sampled goal's SQL in OTTA's two phases (dialogs/query_first.py): one turn.
    QUERY_FIRST = "query_first", "Query-first (OTTA)"


ENDED_STATUSES = frozenset(
    {DialogueStatus.COMPLETED, DialogueStatus.ABANDONED, DialogueStatus.TERMINATED, DialogueStatus.DROPPED}
)


class Dialogue(models.Model):
    """One Wizard-of-Oz session between a worker and an expert about one goal on one database.

    `last_seq` is the sequence number of the newest event; it is bumped under a row lock together with the insert of
    the event, which is what makes the numbering gap-free and the log totally ordered.
    """

    database = models.ForeignKey(Database, on_delete=models.PROTECT, related_name="dialogues")
    # The file the dialogue's SQL runs on, fixed at creation (None: created before versions were kept, or on a
    # database without one): a later version of the database does not change what a dialogue's queries meant.
    database_version = models.ForeignKey(
        DatabaseVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="dialogues"
    )
    # A solo sequence may have no goal (CHASE-C had none); a chat always has one.
    goal = models.ForeignKey(Goal, on_delete=models.PROTECT, related_name="dialogues", null=True, blank=True)
    mode = models.CharField(max_length=12, choices=DialogueMode.choices, default=DialogueMode.CHAT)
    # In a solo sequence the expert writes the user's side too: worker and expert are the same person.
    worker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dialogues_as_worker")
    expert = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dialogues_as_expert")
    status = models.CharField(max_length=16, choices=DialogueStatus.choices, default=DialogueStatus.WAITING)
    incomplete = models.BooleanField(
        default=False, help_text="Ended with fewer answered questions than the minimum: kept, but not for review."
    )
    last_seq = models.PositiveIntegerField(default=0)
    score = models.PositiveSmallIntegerField(null=True, blank=True)
    score_comment = models.TextField(blank=True)
    completion_code = models.CharField(max_length=32, blank=True)
    # The campaign whose goal this is (its targets count it), and, for a worker who came through a join link, the
    # crowd platform's task it was done for: the ids payment needs (docs/crowd.md).
    campaign = models.ForeignKey("Campaign", null=True, blank=True, on_delete=models.PROTECT, related_name="dialogues")
    crowd_assignment = models.ForeignKey(
        "CrowdAssignment", null=True, blank=True, on_delete=models.PROTECT, related_name="dialogues"
    )
    # Model assistance (README "Model assistance"): whether the expert of this dialogue may ask the model for help,
    # fixed at pairing (False: no model configured, or the dialogue fell in its campaign's control group); and whether
    # the worker's side was played by the simulated worker (kept out of releases unless asked for).
    model_help = models.BooleanField(default=False)
    simulated = models.BooleanField(default=False)
    # An expert's practice against the simulated worker (docs/experts.md): set by `dialogs.onboarding.practice` only.
    # Never data: out of review, releases and statistics whatever else they are asked to include.
    practice = models.BooleanField(default=False, editable=False)
    # A pairing cancelled by sending its worker back to the queue (the expert never joined, or a supervisor requeued
    # them): set by `dialogs.lobby.lobby_requeue` only. Such a dialogue is no data and says nothing of either person,
    # so it is never scored and never reviewed (`pairing_cancelled`).
    requeued = models.BooleanField(default=False, editable=False)
    # The dialogue's place in its campaign's draw of the control group (dialogs.control_group), fixed at pairing;
    # None: not drawn (no model configured then, or no campaign).
    control_slot = models.PositiveIntegerField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # When each side's last room socket closed; cleared when one of its sockets opens again. Presence is transient
    # state kept here, not in the log: a reconnect must not add events a release keeps for ever. The room's presence
    # functions (dialogs.room) write them; an abandonment after PRESENCE_GRACE_SECONDS reads them.
    worker_gone_at = models.DateTimeField(null=True, blank=True)
    expert_gone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status"]),
            models.Index(fields=["expert", "status"]),
            models.Index(fields=["campaign", "goal"]),
        ]
        constraints = [
            # Two pairings at once can never take the same place in a campaign's draw (dialogs.control_group).
            models.UniqueConstraint(fields=["campaign", "control_slot"], name="one_dialogue_per_control_slot"),
        ]
        # A grant beyond a person's role (annotation.people.roles.GRANTS): a lab's campaign supervisor watches rooms and
        # acts
        # on them without the admin's other powers.
        permissions = [("supervise_rooms", "Open any live room read-only, end it or send its worker back to the queue")]

    def __str__(self) -> str:
        return f"Dialogue {self.pk} on {self.database_id} ({self.status})"

    @property
    def database_path(self) -> Path:
        """The one answer to "which file does this dialogue use": the version it was created on, else the database's
        current file. Every run of the dialogue's SQL (the room, review, final validation) reads this."""
        if self.database_version_id:
            return self.database_version.path
        return self.database.path

    @property
    def is_over(self) -> bool:
        return self.status in ENDED_STATUSES

    @property
    def is_solo(self) -> bool:
        """Written by one person, who writes both sides: a solo sequence or a query-first item."""
        return self.mode in (DialogueMode.SOLO, DialogueMode.QUERY_FIRST)

    @property
    def min_questions(self) -> int:
        """Answered questions before the dialogue may end (and counts as complete)."""
        if self.mode == DialogueMode.QUERY_FIRST:
            return 1
        if self.is_solo:
            # A sequence begun from a dealt assignment asks for the minimum drawn for it (docs/dealing.md).
            assignment = getattr(self, "work_assignment", None)
            return max(settings.SOLO_MIN_QUESTIONS, (assignment and assignment.min_questions) or 0)
        return settings.DIALOGUE_MIN_QUESTIONS


class EventKind(models.TextChoices):
    """The kinds of event; their payloads are written and folded in `dialogs.log` only."""

    JOIN = "join", "joined"
    LEAVE = "leave", "left"
    UTTERANCE = "utterance", "user utterance"
    USER_ACTS = "user_acts", "user acts labelled"
    SQL_RUN = "sql_run", "SQL run"
    RESULT_SHARED = "result_shared", "result table sent"
    RESPONSE = "response", "expert response"
    DROP = "drop", "turn dropped"
    SCORE = "score", "worker scored"
    END = "end", "dialogue ended"
    CORRECTION = "correction", "corrected in review"
    RECOMMENDATION = "recommendation", "next intent recommended"
    TURN_LABELS = "turn_labels", "turn labelled (CHASE)"
    MODEL_SQL = "model_sql", "SQL proposed by a model"


class Event(models.Model):
    """One entry of a dialogue's log. Written to the database before anyone is told about it."""

    dialogue = models.ForeignKey(Dialogue, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=EventKind.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    author_role = models.CharField(max_length=16, blank=True)
    # NULL, not "": server-made events have no client id, and NULLs never collide in the unique constraint.
    client_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # Decoded on every read of the log (a release reads tens of thousands at once): annotation/plumbing/jsoncodec.py.
    payload = JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["dialogue", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["dialogue", "seq"], name="event_seq_unique"),
            # A retried send (same client id) is stored once.
            models.UniqueConstraint(fields=["dialogue", "author", "client_id"], name="event_client_id_unique"),
        ]
        indexes = [
            # The latest correction, at once among millions of chat events: review's figures are cached until it
            # changes (review.passes.agreement).
            models.Index(fields=["id"], condition=models.Q(kind="correction"), name="event_correction_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.dialogue_id}#{self.seq} {self.kind}"


class LobbyEntry(models.Model):
    """A wait in the lobby: a worker waiting for an expert, or an expert ready to take dialogues."""

    class Outcome(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PAIRED = "paired", _("Paired")
        TIMED_OUT = "timed_out", _("Released after the wait limit")
        LEFT = "left", _("Left the lobby")
        NO_GOAL = "no_goal", _("No goal left for this worker")

    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lobby_entries")
    role = models.CharField(max_length=16)
    joined_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.WAITING)
    dialogue = models.ForeignKey(Dialogue, null=True, blank=True, on_delete=models.SET_NULL)
    completion_code = models.CharField(max_length=32, blank=True)
    # The crowd task a worker waits for (their newest arrival through a join link): the campaign their goal comes from,
    # and where a code given here (released, no goal) is paid.
    crowd_assignment = models.ForeignKey(
        "CrowdAssignment", null=True, blank=True, on_delete=models.SET_NULL, related_name="lobby_entries"
    )
    # When the person's last lobby socket went away (None while one is open): a waiting entry nobody is behind any
    # more expires after LOBBY_RECONNECT_GRACE_SECONDS, so a closed tab is never paired.
    disconnected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["person"], condition=models.Q(outcome="waiting"), name="one_open_lobby_entry_per_person"
            )
        ]

    def __str__(self) -> str:
        return f"{self.person_id} {self.role} {self.outcome}"


class QuizState(models.Model):
    """A worker's wrong tries at the tutorial's quiz since their last pass or cool-down, and the cool-down they are in
    after QUIZ_TRIES of them (dialogs.lobby.worker_quiz_answer). Kept here, not in the browser, so a new session or a
    cleared cookie gives no fresh tries."""

    person = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quiz_state")
    wrong_tries = models.PositiveIntegerField(default=0)
    cooldown_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"quiz of {self.person_id}: {self.wrong_tries} wrong"


class ServerLease(models.Model):
    """One running Daphne process. It renews `seen_at` every SERVER_HEARTBEAT_SECONDS; a lease older than
    SERVER_LEASE_SECONDS belongs to a process that stopped (killed, crashed or shut down), whose sockets are gone
    although it never said so: housekeeping then records that they left."""

    id = models.CharField(primary_key=True, max_length=100)
    started_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.id} (seen {self.seen_at:%H:%M:%S})"


class LiveSocket(models.Model):
    """An open websocket: the one record from which presence is known (a side is in its room while it has a room
    socket row). Deleted when it closes, or, when its server stopped, by housekeeping; whichever of the two deletes a
    side's last room row marks the side gone (Dialogue.worker_gone_at / expert_gone_at)."""

    class Kind(models.TextChoices):
        LOBBY = "lobby", "Lobby"
        ROOM = "room", "Room"

    channel_name = models.CharField(primary_key=True, max_length=200)
    server = models.ForeignKey(ServerLease, on_delete=models.CASCADE, related_name="sockets", db_constraint=False)
    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_sockets")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    dialogue = models.ForeignKey(Dialogue, null=True, blank=True, on_delete=models.CASCADE)
    side = models.CharField(max_length=16, blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["person", "kind"])]

    def __str__(self) -> str:
        return f"{self.kind} socket of {self.person_id} on {self.server_id}"


# --- Campaigns and crowd platforms (docs/crowd.md) -----------------------------------------------------------------


class CrowdPlatform(models.TextChoices):
    PROLIFIC = "prolific", "Prolific"
    MTURK = "mturk", "Mechanical Turk"


def campaign_join_token() -> str:
    """The secret part of a campaign's join link: whoever knows it can make crowd accounts, so it is not guessable."""
    return secrets.token_urlsafe(16)


def campaign_bonus_questions() -> int:
    return settings.DIALOGUE_BONUS_QUESTIONS


class CampaignQuerySet(models.QuerySet):
    def open(self, now=None):
        """The campaigns open at `now` (the same rule as `Campaign.is_open`)."""
        now = now or timezone.now()
        return self.filter(opens_at__lte=now).filter(models.Q(closes_at=None) | models.Q(closes_at__gt=now))


class Campaign(models.Model):
    """A named collection: which goals (those chosen, else every active goal of its databases), how many dialogues
    each should get, in what hardness mix they are handed out, when it is open, where a crowd worker goes back to
    with their code, and the bonus rule. Pairing reads campaigns in `dialogs.lobby.goal_choose`."""

    name = models.CharField(max_length=120, unique=True)
    join_token = models.CharField(max_length=32, unique=True, default=campaign_join_token, editable=False)
    databases = models.ManyToManyField(Database, related_name="campaigns", blank=True)
    goals = models.ManyToManyField(
        Goal, related_name="campaigns", blank=True, help_text="Empty: every active goal of the databases."
    )
    target_per_goal = models.PositiveIntegerField(default=1, help_text="Dialogues to collect for each goal.")
    hardness_mix = models.JSONField(
        default=dict, blank=True, help_text="Hardness level → percent of the dialogues (empty: no mix)."
    )
    opens_at = models.DateTimeField(default=timezone.now)
    closes_at = models.DateTimeField(null=True, blank=True, help_text="Empty: open until closed by hand.")
    completion_url = models.CharField(
        max_length=500, blank=True, help_text="Where a crowd worker is sent at the end; {code} becomes their code."
    )
    bonus_min_questions = models.PositiveSmallIntegerField(
        default=campaign_bonus_questions, help_text="Good questions a dialogue needs for the bonus."
    )
    bonus_amount = models.DecimalField(
        max_digits=7, decimal_places=2, default=Decimal("0.00"), help_text="Per dialogue that earns it; 0: no bonus."
    )
    bonus_reason = models.CharField(max_length=255, blank=True)
    bonus_after_review = models.BooleanField(
        default=False, help_text="Count only dialogues approved in review (else: every one not rejected)."
    )
    model_holdback_percent = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(100)],
        help_text="Share of dialogues whose expert gets no model help (a control group to compare with); 0: none.",
    )
    # The study Prolific runs for the campaign when an admin publishes one from its page (dialogs.crowd.prolific):
    # who may take it (CoSQL took U.S. workers with an approval rate of 95 % or more) and what it offers them.
    prolific_countries = models.CharField(
        max_length=200,
        blank=True,
        default="1",
        help_text=(
            "Prolific's choice ids of the countries of residence, comma-separated (1: United States); empty: any."
        ),
    )
    prolific_min_approval_rate = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        default=95,
        validators=[MaxValueValidator(100)],
        help_text="The lowest approval rate (percent) a participant may have; empty: any.",
    )
    prolific_places = models.PositiveIntegerField(default=10, help_text="Participants the study takes.")
    prolific_reward = models.DecimalField(
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="What the study pays each participant, in the study's currency (BONUS_CURRENCY).",
    )
    prolific_minutes = models.PositiveSmallIntegerField(default=20, help_text="Estimated minutes a task takes.")
    prolific_description = models.TextField(blank=True, help_text="What participants read about the study.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["-opens_at", "-id"]

    def __str__(self) -> str:
        return self.name

    def is_open(self, now=None) -> bool:
        now = now or timezone.now()
        return self.opens_at <= now and (self.closes_at is None or now < self.closes_at)

    @property
    def pays_bonus(self) -> bool:
        """Whether the campaign pays a bonus at all (an amount of 0 pays none: nothing is promised either)."""
        return self.bonus_amount > 0

    def bonus_earned(self, good_questions: int) -> bool:
        """The bonus rule: a dialogue with at least `bonus_min_questions` good questions earns the bonus. The one
        place it is written: the payout (review.payments.services.campaign_bonuses) and what the worker is promised
        (dialogs.crowd.services.bonus_promise) both read it."""
        return good_questions >= self.bonus_min_questions

    def goal_pool(self):
        """The goals this campaign hands out: active goals on its active databases (only the chosen ones, if any)."""
        pool = Goal.objects.filter(active=True, database__active=True, database__in=self.databases.all())
        if self.goals.exists():
            pool = pool.filter(id__in=self.goals.values("id"))
        return pool

    def completion_url_for(self, code: str) -> str:
        """The campaign's completion URL with `code` in place of {code} (a URL without it is used as it is: a fixed
        Prolific completion code, say)."""
        return self.completion_url.replace("{code}", quote(code, safe=""))


class CrowdWorker(models.Model):
    """A crowd platform's worker id, bound to the one account made for it by a join link. One id is one account,
    and an account made any other way is never bound to an id (docs/crowd.md, "Security")."""

    platform = models.CharField(max_length=16, choices=CrowdPlatform.choices)
    external_id = models.CharField(max_length=64)
    person = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="crowd_worker")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["platform", "external_id"]
        constraints = [
            models.UniqueConstraint(fields=["platform", "external_id"], name="one_account_per_crowd_id"),
        ]

    def __str__(self) -> str:
        return f"{self.get_platform_display()} {self.external_id}"


class CrowdAssignment(models.Model):
    """One task a platform gave a worker in a campaign: Prolific's study and session, or MTurk's HIT and assignment.
    Made (or found again) each time the worker opens the join link; the newest is the one they work for."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="crowd_assignments")
    crowd_worker = models.ForeignKey(CrowdWorker, on_delete=models.CASCADE, related_name="assignments")
    batch_id = models.CharField(max_length=64, help_text="Prolific STUDY_ID, or MTurk hitId.")
    session_id = models.CharField(max_length=64, help_text="Prolific SESSION_ID, or MTurk assignmentId.")
    arrived_at = models.DateTimeField(auto_now_add=True)
    last_arrived_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-last_arrived_at", "-id"]
        indexes = [models.Index(fields=["crowd_worker", "-last_arrived_at"])]
        constraints = [
            # A session (an assignment) is one worker's: the same id from another worker is refused, not shared.
            models.UniqueConstraint(fields=["campaign", "session_id"], name="crowd_session_once_per_campaign"),
        ]

    def __str__(self) -> str:
        return f"{self.crowd_worker} in {self.campaign_id} ({self.session_id})"


class ProlificStudy(models.Model):
    """A study made on Prolific for a campaign through its API (dialogs.crowd.prolific): its id there, the status
    last read from Prolific, the completion code it was given, and the body it was made with."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="prolific_studies")
    study_id = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=32, help_text="As Prolific last said: UNPUBLISHED, ACTIVE, PAUSED, ...")
    completion_code = models.CharField(max_length=32)
    request = models.JSONField(default=dict, help_text="The study as it was sent to Prolific.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Prolific study {self.study_id} of {self.campaign_id} ({self.status})"


class ProlificCall(models.Model):
    """One request to Prolific's API, as it went: who it was made for, when, what and why, the HTTP status of the
    answer (None: no answer came) and a summary of it. Never the token. Written by dialogs.crowd.prolific_api only."""

    class Purpose(models.TextChoices):
        STUDY_CREATE = "study_create", "Create the study"
        STUDY_FIND = "study_find", "Find a study made without an answer"
        STUDY_READ = "study_read", "Read the study"
        STUDY_PUBLISH = "study_publish", "Publish the study"
        STUDY_PAUSE = "study_pause", "Pause the study"
        STUDY_RESUME = "study_resume", "Resume the study"
        SUBMISSIONS_LIST = "submissions_list", "List the submissions"
        SUBMISSION_APPROVE = "submission_approve", "Approve a submission"
        SUBMISSION_REJECT = "submission_reject", "Reject a submission"
        BONUS_SET_UP = "bonus_set_up", "Set up bonuses"
        BONUS_BEFORE = "bonus_before", "Read bonuses paid before"
        BONUS_PAY = "bonus_pay", "Pay bonuses"
        BONUS_CHECK = "bonus_check", "Check bonuses paid"

    campaign = models.ForeignKey(Campaign, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    made_at = models.DateTimeField(auto_now_add=True)
    purpose = models.CharField(max_length=24, choices=Purpose.choices)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    status = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: no answer came.")
    attempt = models.PositiveSmallIntegerField(default=1)
    summary = models.CharField(max_length=500)
    milliseconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-made_at", "-id"]
        indexes = [models.Index(fields=["campaign", "-made_at"])]

    def __str__(self) -> str:
        return f"{self.method} {self.path} → {self.status or 'no answer'} ({self.purpose})"


class ProlificBonusPayment(Speaking):
    """Bonuses paid on Prolific through its API for one study of a campaign: the bonus file (review's, recorded as
    payout `payout_id` before anything is sent, so no other payment holds its dialogues), and how far the payment
    got. The states, and why the payment call is never repeated blindly: docs/crowd.md, "The Prolific API". Its notes
    are written in the language of the admin who started it (`speaking()`), as a job's."""

    class State(models.TextChoices):
        RECORDED = "recorded", _("Recorded, not sent yet")
        SET_UP = "set_up", _("Set up on Prolific, not paid")
        PAYING = "paying", _("Paying")
        UNKNOWN = "unknown", _("Sent, answer lost: checking with Prolific")
        PAID = "paid", _("Paid")
        REFUSED = "refused", _("Refused by Prolific: nothing paid")
        CANCELLED = "cancelled", _("Cancelled: nothing paid")

    # A payment in these states holds its study: no second one starts for it until it is paid, refused or cancelled.
    OPEN_STATES = (State.RECORDED, State.SET_UP, State.PAYING, State.UNKNOWN)

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="prolific_bonus_payments")
    study_id = models.CharField(max_length=64)
    # The payout review recorded for these bonuses (review.models.BonusPayout; its id only: dialogs does not name
    # review's tables). None once the payment was refused or cancelled and the payout removed.
    payout_id = models.PositiveIntegerField(null=True, blank=True)
    digest = models.CharField(max_length=64, help_text="The bonus file's digest (review.payments.services).")
    csv_bonuses = models.TextField(help_text="The `participant_id,amount` lines sent to Prolific.")
    rows = models.JSONField(
        default=list, help_text="[{participant, submission, amount, before}]: before is the bonuses paid earlier."
    )
    total = models.DecimalField(max_digits=10, decimal_places=2)
    state = models.CharField(max_length=12, choices=State.choices, default=State.RECORDED)
    remote_id = models.CharField(max_length=64, blank=True, help_text="Prolific's id of the bulk bonus payment.")
    message = models.TextField(blank=True)
    progress_done = models.PositiveIntegerField(default=0)
    # When the payment call was last sent: Prolific's records are read against it after a lost answer.
    pay_sent_at = models.DateTimeField(null=True, blank=True)
    # The job working on it holds it until then (a job that died lets go when it passes), by this token.
    claimed_until = models.DateTimeField(null=True, blank=True)
    claim_token = models.CharField(max_length=32, blank=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "study_id"],
                condition=models.Q(state__in=["recorded", "set_up", "paying", "unknown"]),
                name="one_open_prolific_bonus_payment_per_study",
            )
        ]

    def __str__(self) -> str:
        return f"Prolific bonuses {self.pk} for study {self.study_id} ({self.state})"


class QueryFirstItem(models.Model):
    """One person's work on a sampled goal in OTTA's query-first annotation (docs/goals.md): phase 1 (`writer`)
    writes a question for the goal's tree, adapting filters or skipping; phase 2 (`aligner`, another person) corrects
    the question and assigns its tokens to the tree's operations. The result is a dialogue of its own mode."""

    class Stage(models.TextChoices):
        WRITING = "writing", "Phase 1: writing the question"
        SKIPPED = "skipped", "Skipped"
        ALIGNING = "aligning", "Phase 2: waiting for correction and alignment"
        DONE = "done", "Done"

    # Stages after which a goal has its phase-1 question: nobody else writes one for it.
    WRITTEN = (Stage.ALIGNING, Stage.DONE)

    goal = models.ForeignKey(Goal, on_delete=models.PROTECT, related_name="query_first_items")
    writer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="query_first_written")
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.WRITING)
    # The tree and its SQL as phase 1 left them (the goal's, with any adapted filter), and each adaptation made:
    # {"step", "column", "before": {op, value}, "after": {op, value}}, in order.
    tree = models.JSONField()
    sql = models.TextField()
    changes = models.JSONField(default=list, blank=True)
    # The drafted question as offered, when the writer asked for it (their question began as that draft).
    drafted_question = models.TextField(blank=True)
    question_written = models.TextField(blank=True)
    skip_reason = models.TextField(blank=True)
    opened_at = models.DateTimeField(default=timezone.now)
    written_at = models.DateTimeField(null=True, blank=True)
    writing_seconds = models.PositiveIntegerField(null=True, blank=True)
    aligner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="query_first_aligned"
    )
    # The question as phase 2 left it (phase 1's is kept in question_written), its tokens
    # (annotation.labels.tokens.utterance_toks) and the spans given to the plan's steps: {"step", "beg", "end"}.
    question = models.TextField(blank=True)
    tokens = models.JSONField(default=list, blank=True)
    alignment = models.JSONField(default=list, blank=True)
    aligned_at = models.DateTimeField(null=True, blank=True)
    aligning_seconds = models.PositiveIntegerField(null=True, blank=True)
    dialogue = models.OneToOneField(
        Dialogue, null=True, blank=True, on_delete=models.PROTECT, related_name="query_first"
    )

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["goal", "writer"], name="query_first_once_per_writer")]
        indexes = [models.Index(fields=["stage"])]

    def __str__(self) -> str:
        return f"Query-first item {self.pk} on goal {self.goal_id} ({self.stage})"


class SimulationRun(Job):
    """A pilot by simulated workers (docs/simulated_worker.md): which goals, how many workers, who plays the expert,
    and how far it got. Started from the campaign page (a background job) or `manage.py simulate_workers`."""

    class Expert(models.TextChoices):
        HUMAN = "human", _("A person at the expert desk")
        SCRIPTED = "scripted", _("A scripted expert")

    campaign = models.ForeignKey(Campaign, null=True, blank=True, on_delete=models.SET_NULL, related_name="simulations")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    count = models.PositiveIntegerField()
    expert = models.CharField(max_length=12, choices=Expert.choices, default=Expert.SCRIPTED)
    follow_suggestions = models.FloatField(default=0.5)
    seed = models.BigIntegerField(null=True, blank=True)
    server_url = models.CharField(max_length=200, help_text="The platform the simulated clients connect to.")
    time_limit_seconds = models.PositiveIntegerField(default=900)
    # Progress counts the workers done (progress_total is `count`); `report` holds, per worker, its dialogue,
    # questions and guard hits.
    state = job_state_field(succeeded=_("Done"))

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Simulation {self.pk} ({self.count} workers, {self.state})"


class SimulationSeat(models.Model):
    """One simulated worker of a run: its account and the goal it pilots. Pairing gives the account this goal
    (`dialogs.lobby.lobby_pair`), so a pilot plays the goals it was asked for and no campaign's draw."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="seats")
    worker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_seats")
    goal = models.ForeignKey("annotation.Goal", on_delete=models.CASCADE, related_name="+")
    dialogue = models.ForeignKey(Dialogue, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Seat {self.pk} of simulation {self.run_id}: goal {self.goal_id}"


# Work dealt out evenly among experts (docs/dealing.md): its models live in their own module, found here by Django.
from dialogs.deals.models import WorkAssignment, WorkDeal, WorkDealMember  # noqa: E402, F401

# Expert onboarding (docs/experts.md): its models live in their own module, found here by Django.
from dialogs.onboarding.models import (  # noqa: E402, F401
    GuidelinesRead,
    GuidelinesVersion,
    PracticeDialogue,
    PracticeGoal,
    PracticeRule,
    QualificationDecision,
)
