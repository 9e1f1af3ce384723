"""Exports, imported-dialogue provenance and the per-turn labels a dataset carries beyond the chat log.

The event log of `dialogs` stays the one record of what was said and run. What lives here is what the log cannot
hold: where an imported dialogue came from, the labels that releases such as CHASE attach to a turn (tokens,
contextual phenomena, schema linking, intent), and the state of each export.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.jobs import Job, job_state_field
from dialogs.models import Campaign, CrowdPlatform, Dialogue, DialogueStatus


class DatasetFormat(models.TextChoices):
    COSQL = "cosql", "CoSQL release"
    SPARC = "sparc", "SParC"
    CHASE = "chase", "CHASE"
    GOLD = "gold", "Gold files for the evaluators"
    # Query-first items only: a Spider-format file, and one with each item's operation tree and token alignment.
    OTTA = "otta", "OTTA (query-first items, Spider file + trees and alignments)"


IMPORT_FORMATS = (DatasetFormat.COSQL, DatasetFormat.SPARC, DatasetFormat.CHASE)


class DialogueImport(models.Model):
    """Where an imported dialogue came from: the file, its place in it, and the release's own interaction id."""

    dialogue = models.OneToOneField(Dialogue, on_delete=models.CASCADE, related_name="dataset_import")
    format = models.CharField(max_length=8, choices=DatasetFormat.choices)
    file_name = models.CharField(max_length=300)
    file_sha256 = models.CharField(max_length=64, help_text="Content hash of the file: the same file is imported once.")
    position = models.PositiveIntegerField(help_text="Index of the interaction in the imported file.")
    interaction_id = models.BigIntegerField(null=True, blank=True, help_text="SParC's `interaction_id`, if present.")
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["dialogue_id"]
        constraints = [
            models.UniqueConstraint(fields=["format", "file_sha256", "position"], name="dialogue_import_once"),
        ]

    def __str__(self) -> str:
        return f"{self.dialogue_id} from {self.file_name}#{self.position}"


class TurnAnnotation(models.Model):
    """Labels of one SQL-grounded user turn, keyed by the utterance event that carries the turn's SQL.

    For a turn folded from a clarification ("question | clarification | answer"), that is the answer's utterance.
    `utterance` is the text the tokens and spans were made for: an exporter uses them only while the turn's text
    is still that text, so an edited utterance never ships with stale tokens.
    """

    dialogue = models.ForeignKey(Dialogue, on_delete=models.CASCADE, related_name="turn_annotations")
    turn = models.PositiveIntegerField(help_text="Sequence number of the user utterance that carries the SQL.")
    utterance = models.TextField()
    utterance_toks = models.JSONField(null=True, blank=True)
    question_id = models.CharField(max_length=64, blank=True)
    contextual_phenomena = models.JSONField(default=list, blank=True)
    schema_linking = models.JSONField(default=list, blank=True)
    intent = models.CharField(max_length=100, blank=True)
    pragmatics = models.CharField(max_length=100, blank=True)
    question_style = models.CharField(max_length=100, blank=True)
    # SParC's thematic relations (annotation.labels.acts.THEMATIC_RELATIONS), as an imported SParC file gives them.
    thematic_relations = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["dialogue_id", "turn"]
        constraints = [models.UniqueConstraint(fields=["dialogue", "turn"], name="turn_annotation_unique")]

    def __str__(self) -> str:
        return f"{self.dialogue_id}#{self.turn}"


class Export(Job):
    """One dataset export: what was asked for, how far it got, and the zip it produced.

    A run holds the export through `run_token`; a run that lost it (a retry or a redelivered task took over)
    never publishes its file. The zip is published by an atomic rename, so `file` only ever names a whole file.
    """

    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    formats = models.JSONField(help_text="Format names, e.g. ['cosql', 'gold'].")
    options = models.JSONField(default=dict, help_text="Selection, split and encoding options.")
    state = job_state_field(succeeded="Ready")
    phase = models.CharField(max_length=80, blank=True)
    file = models.CharField(max_length=300, blank=True, help_text="The zip, relative to DATA_DIR.")
    file_size = models.BigIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)
    run_token = models.CharField(max_length=32, blank=True)
    worker = models.CharField(max_length=200, blank=True, help_text="host:pid of the run holding the export.")
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Export {self.pk} ({', '.join(self.formats)}; {self.state})"


class EvaluationTask(models.TextChoices):
    """What a prediction file predicts: the SQL of each question (every format), or one of CoSQL's other two tasks
    (review.dataset.cosql_tasks)."""

    SQL = "sql", _("SQL state tracking")
    RESPONSE = "response", _("Response generation")
    USER_ACTS = "user_acts", _("User act prediction")


class Evaluation(Job):
    """A prediction file scored on one export's release (one format and split, one task): for SQL, the official
    metrics overall and by stratum (review.dataset.evaluation); for CoSQL's response generation and user act
    prediction, BLEU or act accuracy (review.dataset.cosql_tasks); in `report`."""

    export = models.ForeignKey(Export, on_delete=models.CASCADE, related_name="evaluations")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    fmt = models.CharField(max_length=12, help_text="The release's format scored: cosql, sparc or chase.")
    task = models.CharField(
        max_length=12,
        choices=EvaluationTask.choices,
        default=EvaluationTask.SQL,
        help_text="What the file predicts: SQL (every format), or CoSQL's responses or user acts.",
    )
    split = models.CharField(max_length=8, default="dev")
    keep_distinct = models.BooleanField(default=False)
    predictions_name = models.CharField(max_length=200, help_text="The uploaded file's name.")
    predictions = models.TextField(help_text="The prediction file as uploaded (checked against the gold).")
    state = job_state_field(succeeded="Scored")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Evaluation {self.pk} of export {self.export_id} ({self.fmt} {self.split} {self.task}; {self.state})"


class ReviewStage(models.TextChoices):
    PENDING = "pending", _("Waiting for a reviewer")
    CLAIMED = "claimed", _("Being reviewed")
    FAILED_VALIDATION = "failed_validation", _("Failed final validation")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")


class RejectReason(models.TextChoices):
    REPETITIVE = "repetitive", _("Repetitive or too simple questions")
    UNRELATED = "unrelated", _("Unrelated questions")
    GOAL_IGNORED = "goal_ignored", _("The goal was ignored")
    UNFIXABLE_SQL = "unfixable_sql", _("SQL that cannot be fixed")
    OTHER = "other", _("Other (say why)")


class RejectFault(models.TextChoices):
    """Whose work a rejection says failed. A rejection counts in the quality of the party it names (both: in both);
    a rejection recorded before the choice existed names nobody ("not said") and counts against nobody."""

    # Labels read mid-sentence ("whose work failed: the expert's SQL or responses"), so in lower case but for SQL.
    NOT_SAID = "", _("not said")
    WORKER = "worker", _("the worker's questions")
    EXPERT = "expert", _("the expert's SQL or responses")
    BOTH = "both", _("both")

    @classmethod
    def counts_against(cls, fault: str, party: str) -> bool:
        """Whether a rejection with `fault` counts in the quality of `party` ("worker" or "expert")."""
        return fault in (party, cls.BOTH)


class DialogueReview(models.Model):
    """Where a reviewable dialogue is in the review: which pass, who holds it and until when, and how it ended.

    The corrections themselves are events of the dialogue's log (`dialogs.log`); this row only tracks the workflow.
    A claim is a lock with an expiry: once `claim_expires_at` passes, the dialogue is back in its queue without
    anybody having to release it.
    """

    dialogue = models.OneToOneField(Dialogue, on_delete=models.CASCADE, related_name="review")
    stage = models.CharField(max_length=20, choices=ReviewStage.choices, default=ReviewStage.PENDING)
    pass_number = models.PositiveSmallIntegerField(default=1, help_text="The pass waiting or under way (or the last).")
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="review_claims"
    )
    claim_expires_at = models.DateTimeField(null=True, blank=True)
    needs_fix = models.BooleanField(default=False, help_text="Final validation failed; a reviewer must fix it.")
    problems = models.JSONField(default=list, blank=True, help_text="Final validation's failures, per turn.")
    early = models.BooleanField(default=False, help_text="One of its expert's first dialogues: reviewed first.")
    partial = models.BooleanField(default=False, help_text="Abandoned after the minimum of answered questions.")
    revision = models.PositiveIntegerField(default=0, help_text="The log's last sequence number when approved.")
    fault = models.CharField(
        max_length=8,
        choices=RejectFault.choices,
        blank=True,
        help_text="Rejected: whose work the decision says failed.",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["dialogue_id"]
        indexes = [models.Index(fields=["stage", "pass_number"])]

    def __str__(self) -> str:
        return f"review of {self.dialogue_id}: {self.stage} (pass {self.pass_number})"


class ReviewPass(models.Model):
    """One reviewer's turn at one pass of a dialogue: from the claim to a decision (or to letting it go)."""

    class Decision(models.TextChoices):
        OPEN = "", _("Open")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")
        RELEASED = "released", _("Released unfinished")

    review = models.ForeignKey(DialogueReview, on_delete=models.CASCADE, related_name="passes")
    number = models.PositiveSmallIntegerField()
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="review_passes")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    decision = models.CharField(max_length=12, choices=Decision.choices, blank=True, default="")
    reason = models.CharField(max_length=20, choices=RejectReason.choices, blank=True)
    fault = models.CharField(
        max_length=8,
        choices=RejectFault.choices,
        blank=True,
        help_text="A rejection: whose work the reviewer says failed.",
    )
    note = models.TextField(blank=True)
    validation_failed = models.BooleanField(default=False, help_text="Approved, but final validation refused it.")

    class Meta:
        ordering = ["review_id", "number", "started_at", "id"]
        indexes = [models.Index(fields=["reviewer", "number"])]

    def __str__(self) -> str:
        return f"pass {self.number} of {self.review.dialogue_id} by {self.reviewer_id}: {self.decision or 'open'}"


class ReviewPassPool(models.Model):
    """Who may take one review pass (docs/review.md, "Reviewers by pass"): a pass with a pool is taken only by its
    members (SParC gave its last pass to its most experienced annotator); a pass without one, by any reviewer. A pool
    with nobody in it opens its pass to everyone again, and the dashboard says so: a queue never waits on an empty
    list. The rule is review.passes.services.pass_pool_refusal."""

    number = models.PositiveSmallIntegerField(unique=True, help_text="The review pass (1 = the first).")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="review_pass_pools")
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"pool of pass {self.number}"


class SendBack(models.Model):
    """A reviewer sent a dialogue back to its author (the expert, or a solo sequence's writer) to fix, with a note per
    turn (docs/review.md, "Sent back to the author"). While it is open the dialogue is in no review queue; the author's
    fixes are corrections of theirs in the same pass, and returning it puts the pass back in its queue."""

    review = models.ForeignKey(DialogueReview, on_delete=models.CASCADE, related_name="send_backs")
    pass_number = models.PositiveSmallIntegerField()
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sent_back")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sent_back_to_me")
    note = models.TextField(blank=True)
    # {"<utterance seq>": "what to fix in that turn"}
    turn_notes = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    returned_at = models.DateTimeField(null=True, blank=True)
    fixes = models.PositiveIntegerField(default=0, help_text="Corrections the author made before returning it.")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["review"], condition=models.Q(returned_at__isnull=True), name="one_open_send_back_per_review"
            )
        ]

    def __str__(self) -> str:
        return f"dialogue {self.review.dialogue_id} sent back to {self.author_id} (pass {self.pass_number})"

    @property
    def open(self) -> bool:
        return self.returned_at is None


class ValidationWarning(models.Model):
    """Something final validation noticed that does not block a dialogue by itself (docs/review.md, "Warnings"): a
    reviewer reads it and clears it, and who cleared it and when is kept. One row per kind, turn and the queries it
    was found on (`key`), so a validation run again finds the warning it made before rather than a new one."""

    class Kind(models.TextChoices):
        COPIED_QUERY = "copied_query", _("Same query as the previous turn for a new question")

    review = models.ForeignKey(DialogueReview, on_delete=models.CASCADE, related_name="warnings")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    turn = models.PositiveIntegerField(help_text="Sequence number of the user utterance the warning is about.")
    key = models.CharField(max_length=64, help_text="A hash of what the warning was found on (the two queries).")
    detail = models.JSONField(default=dict, help_text="What was found: the queries, where they were compared.")
    created_at = models.DateTimeField(auto_now_add=True)
    cleared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="warnings_cleared"
    )
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["review_id", "turn", "id"]
        constraints = [
            models.UniqueConstraint(fields=["review", "kind", "turn", "key"], name="validation_warning_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} on {self.review.dialogue_id}#{self.turn}" + (" (cleared)" if self.cleared_at else "")


class DialogueQuality(models.Model):
    """What one dialogue says about its worker, folded from its log once when it ends and again when it is scored or
    decided in review (`review.quality`). A worker's profile (WorkerQuality) adds these rows up, so no page ever
    replays a log. Only a dialogue that took place (`held`) counts towards its worker: one its expert never joined was
    handed back to the queue, through no fault of the worker's."""

    dialogue = models.OneToOneField(Dialogue, on_delete=models.CASCADE, primary_key=True, related_name="quality")
    worker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dialogue_qualities")
    held = models.BooleanField(default=False, help_text="Took place (not handed back because the expert never came).")
    ended_at = models.DateTimeField(null=True, blank=True)
    end_status = models.CharField(max_length=16, blank=True, help_text="The status the end event gave.")
    worker_left = models.BooleanField(default=False, help_text="Abandoned while the worker was away.")
    score = models.PositiveSmallIntegerField(null=True, blank=True)
    questions = models.PositiveIntegerField(default=0, help_text="User turns not labelled as mere courtesy.")
    answered = models.PositiveIntegerField(default=0, help_text="As the room counts them (dialogs.log).")
    dropped_turns = models.PositiveIntegerField(default=0)
    off_task_turns = models.PositiveIntegerField(default=0, help_text="Labelled NOT_RELATED or CANNOT_UNDERSTAND.")
    near_duplicates = models.PositiveIntegerField(default=0, help_text="Questions nearly repeating an earlier one.")
    first_question_seconds = models.FloatField(null=True, blank=True)
    recommended = models.PositiveIntegerField(default=0, help_text="Questions asked after a recommended intent.")
    followed = models.PositiveIntegerField(default=0, help_text="Of those, the ones whose intent was the recommended.")
    reviewed = models.BooleanField(default=False, help_text="Review decided: approved or rejected.")
    rejected = models.BooleanField(default=False, help_text="Rejected in review for the worker's questions (or both).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["dialogue_id"]
        indexes = [models.Index(fields=["worker", "ended_at"])]

    def __str__(self) -> str:
        return f"quality of dialogue {self.dialogue_id}"

    @property
    def unfinished(self) -> bool:
        """Terminated by the expert, or abandoned while the worker was away: the worker did not see it through."""
        return self.end_status == DialogueStatus.TERMINATED or self.worker_left


class WorkerQuality(models.Model):
    """A worker's quality profile: their DialogueQuality rows added up, with the quality score (0-100) computed from
    them (`review.quality.services.quality_score`). Rewritten whenever one of those rows changes, so it is current as
    soon as a dialogue ends, is scored or is decided in review; the pages sort and page on these columns.

    The rates are properties: each is written once, here, and read by the score, the rules and the pages."""

    worker = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="quality"
    )
    dialogues = models.PositiveIntegerField(default=0, help_text="Dialogues held and ended.")
    scored = models.PositiveIntegerField(default=0)
    score_mean = models.FloatField(null=True, blank=True)
    score_last = models.PositiveSmallIntegerField(null=True, blank=True)
    low_scores = models.PositiveIntegerField(default=0, help_text="Scores below 3.")
    questions = models.PositiveIntegerField(default=0)
    answered = models.PositiveIntegerField(default=0)
    dropped_turns = models.PositiveIntegerField(default=0)
    off_task_turns = models.PositiveIntegerField(default=0)
    near_duplicates = models.PositiveIntegerField(default=0)
    first_question_seconds = models.FloatField(null=True, blank=True, help_text="Median over the dialogues.")
    abandoned = models.PositiveIntegerField(default=0, help_text="Abandoned while the worker was away.")
    terminated = models.PositiveIntegerField(default=0)
    reviewed = models.PositiveIntegerField(default=0)
    rejected = models.PositiveIntegerField(default=0)
    recommended = models.PositiveIntegerField(default=0)
    followed = models.PositiveIntegerField(default=0)
    quality = models.FloatField(null=True, blank=True, db_index=True, help_text="0-100; empty before any dialogue.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["worker_id"]

    def __str__(self) -> str:
        return f"quality of {self.worker_id}: {self.quality}"

    @staticmethod
    def _share(part: int, whole: int) -> float | None:
        return part / whole if whole else None

    @property
    def drop_rate(self) -> float | None:
        """DROP-labelled turns per question."""
        return self._share(self.dropped_turns, self.questions)

    @property
    def off_task_rate(self) -> float | None:
        """NOT_RELATED / CANNOT_UNDERSTAND turns per question."""
        return self._share(self.off_task_turns, self.questions)

    @property
    def duplicate_rate(self) -> float | None:
        """Near-duplicate questions per question."""
        return self._share(self.near_duplicates, self.questions)

    @property
    def unfinished_rate(self) -> float | None:
        """Dialogues abandoned while the worker was away or terminated by the expert, per dialogue."""
        return self._share(self.abandoned + self.terminated, self.dialogues)

    @property
    def rejected_rate(self) -> float | None:
        """Dialogues rejected in review, per dialogue decided in review."""
        return self._share(self.rejected, self.reviewed)

    @property
    def followed_rate(self) -> float | None:
        """Questions that asked the recommended intent, per question asked after a recommendation."""
        return self._share(self.followed, self.recommended)

    @property
    def answered_per_dialogue(self) -> float | None:
        return self._share(self.answered, self.dialogues)


# --- Bonus payouts (docs/crowd.md, "Recording what was paid") ------------------------------------------------------


class BonusPayout(models.Model):
    """A platform's bonus file that an admin uploaded (Prolific) or sent (MTurk) and then recorded as paid: one
    campaign's owed bonuses on one platform, for one study or HIT. The file is kept as it was paid, to be downloaded
    again; its rows say who was paid for which dialogues. A dialogue is paid in one payout at most
    (`BonusPaidDialogue`), so the next file leaves it out."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="bonus_payouts")
    platform = models.CharField(max_length=16, choices=CrowdPlatform.choices)
    batch_id = models.CharField(max_length=64, blank=True, help_text="The Prolific study or MTurk HIT; empty: all.")
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    paid_at = models.DateTimeField(auto_now_add=True)
    total = models.DecimalField(max_digits=10, decimal_places=2)
    # The rows' digest, as the payments page showed it: a second click on the same page finds this payout.
    digest = models.CharField(max_length=64, unique=True)
    file_text = models.TextField(help_text="The file exactly as it was paid.")

    class Meta:
        ordering = ["-paid_at", "-id"]

    def __str__(self) -> str:
        return f"payout {self.pk} of {self.campaign_id} on {self.platform} ({self.total})"

    @property
    def file_name(self) -> str:
        """The payment file it was (`review.payments.views.FILES`)."""
        return f"bonuses-{self.platform}"


class BonusPayoutRow(models.Model):
    """One line of a paid bonus file: what one worker was paid in one study or HIT, and why."""

    payout = models.ForeignKey(BonusPayout, on_delete=models.CASCADE, related_name="rows")
    external_id = models.CharField(max_length=64)
    batch_id = models.CharField(max_length=64)
    session_id = models.CharField(max_length=64, help_text="The task paid against (MTurk's assignment).")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    reason = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["payout_id", "id"]

    def __str__(self) -> str:
        return f"{self.external_id}: {self.amount} (payout {self.payout_id})"


class BonusPaidDialogue(models.Model):
    """A dialogue whose bonus has been paid, and the row that paid it. The dialogue is the key: the database itself
    refuses to pay one twice, whatever two admins click at the same instant."""

    dialogue = models.OneToOneField(Dialogue, on_delete=models.PROTECT, primary_key=True, related_name="bonus_paid")
    row = models.ForeignKey(BonusPayoutRow, on_delete=models.CASCADE, related_name="dialogues")

    class Meta:
        ordering = ["dialogue_id"]

    def __str__(self) -> str:
        return f"bonus of {self.dialogue_id} paid in row {self.row_id}"


# Blind double annotation (docs/double_annotation.md): its models live in their own module, found here by Django.
from review.double.models import DoubleAdjudication, DoubleItem, DoubleSample  # noqa: E402, F401

# Pay for the lab's own people (docs/pay.md): its models live in their own module, found here by Django.
from review.pay.models import PayRule, PayStatement, PayStatementItem  # noqa: E402, F401

# Human rating of system responses (docs/human_rating.md): its models live in their own module, found here by Django.
from review.rating.models import Rating, RatingAssignment, RatingItem, RatingTask  # noqa: E402, F401

# Translation projects (docs/translation.md): its models live in their own module, found here by Django.
from review.translation.models import (  # noqa: E402, F401
    ProjectDatabase,
    TranslationExport,
    TranslationInteraction,
    TranslationProject,
    TranslationProjectBuild,
    TranslationSqlCorrection,
    TranslationUnit,
)
