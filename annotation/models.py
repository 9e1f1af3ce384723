"""People, registered databases and reference goals.

`annotation` is the base app: it knows nothing of chat rooms or review. The SQL core (sandbox, validation, Spider
encoding, hardness) lives in `annotation.sql` and works on plain paths and schema dicts, not on these models.
"""

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from annotation.jobs import Job, job_state_field


class Role(models.TextChoices):
    WORKER = "worker", _("Crowd worker")
    EXPERT = "expert", _("SQL expert")
    REVIEWER = "reviewer", _("Reviewer")
    ADMIN = "admin", _("Admin")


# Each role's people, named in the plural (the people page's tabs and the overview's tiles).
ROLE_PLURALS = {
    Role.WORKER: _("crowd workers"),
    Role.EXPERT: _("sql experts"),
    Role.REVIEWER: _("reviewers"),
    Role.ADMIN: _("admins"),
}


class User(AbstractUser):
    """A person on the platform. Exactly one role; what each role may do is decided in `annotation.people.roles`."""

    role = models.CharField(max_length=16, choices=Role.choices, default=Role.WORKER)
    blocked = models.BooleanField(default=False, help_text="Blocked workers are never paired again.")
    blocked_reason = models.CharField(max_length=300, blank=True)
    tutorial_passed_at = models.DateTimeField(null=True, blank=True)
    # An account the simulated worker (or its scripted expert) plays (docs/simulated_worker.md): made on demand with
    # no usable password, never paid, never judged by the quality rules, its dialogues marked simulated.
    simulated = models.BooleanField(default=False)
    # The language of every screen this person sees (docs/i18n.md, config/language.py): one of settings.LANGUAGES, or
    # blank for the browser's preference. A crowd link's ?lang= sets it on the account the link makes.
    language = models.CharField(
        _("language"),
        max_length=16,
        blank=True,
        default="",
        # In the database too: a migration test's historical User (before this field) still inserts.
        db_default="",
        choices=settings.LANGUAGES,
        help_text=_("Every page in this language; blank for the browser's preference."),
    )

    def __str__(self) -> str:
        return f"{self.username} ({self.role})"

    @property
    def alias(self) -> str:
        """The name a worker's partner sees (`worker_alias`)."""
        return worker_alias(self.pk)


def worker_alias(person_id: int) -> str:
    """The one name an expert sees for a worker: platform-neutral and stable. A crowd worker's username carries their
    platform id (a Prolific PID is personal data), which an expert does not need, so it never reaches their screens."""
    return f"Worker {person_id}"


class BlockRecord(models.Model):
    """One block or unblock of a person, as it happened: who did it (an admin, in `by`) or which quality rule (in
    `rule`), when, why, and the evidence it rests on. Records are only ever added, so unblocking keeps the history;
    `User.blocked` and `User.blocked_reason` hold the current state, written together with the newest record
    (`annotation.people.services.person_set_blocked`)."""

    person = models.ForeignKey(User, on_delete=models.CASCADE, related_name="block_records")
    blocked = models.BooleanField(help_text="True for a block, False for an unblock.")
    by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="The admin who decided."
    )
    rule = models.CharField(max_length=40, blank=True, help_text="The quality rule that decided (empty: a person).")
    reason = models.CharField(max_length=300, blank=True)
    # Plain ids: this app knows nothing of dialogues (the apps' direction), and evidence must outlive a deletion.
    evidence = models.JSONField(default=list, blank=True, help_text="Ids of the dialogues the decision rests on.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["person", "-created_at"])]

    def __str__(self) -> str:
        return f"{'block' if self.blocked else 'unblock'} of {self.person_id} ({self.rule or self.by_id or 'system'})"

    @property
    def decided_by(self) -> str:
        """Who decided, in words: the admin's name, the rule's name, or "automatic" for a block with neither."""
        if self.rule:
            return f"rule {self.rule}"
        if self.by_id:
            return self.by.username
        return "automatic"


class Database(models.Model):
    """A registered SQLite database: the file on disk plus its Spider `tables.json` entry."""

    db_id = models.SlugField(max_length=100, unique=True, allow_unicode=True)
    description = models.CharField(max_length=300, blank=True)
    # Path relative to settings.DATA_DIR, so the data folder can move.
    file = models.CharField(max_length=500)
    schema = models.JSONField(help_text="The Spider tables.json entry of this database.")
    size_bytes = models.BigIntegerField(default=0)
    sha256 = models.CharField(max_length=64, blank=True)
    active = models.BooleanField(default=True, help_text="Only active databases are offered for new dialogues.")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # What an admin decided about the schema (annotation.databases.profile, docs/curation.md): readable names, confirmed
    # keys, hidden tables and columns, checks kept as they are. `schema` is the file's entry with these applied.
    curation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["db_id"]

    def __str__(self) -> str:
        return self.db_id

    @property
    def path(self) -> Path:
        return Path(settings.DATA_DIR) / self.file

    @property
    def has_file(self) -> bool:
        """False for a schema-only registration (a release whose databases are not public, such as CHASE)."""
        return bool(self.file)

    @property
    def current_version(self) -> "DatabaseVersion | None":
        """The version whose file `file` names (None for a database registered before versions were kept)."""
        return self.versions.filter(file=self.file).order_by("-number").first()

    @property
    def test_suite_or_none(self):
        """This database's DatabaseTestSuite row, or None before its first build was asked for."""
        try:
            return self.test_suite
        except ObjectDoesNotExist:
            return None

    @property
    def table_count(self) -> int:
        return len(self.schema.get("table_names_original", []))

    @property
    def column_count(self) -> int:
        return max(len(self.schema.get("column_names_original", [])) - 1, 0)


class DatabaseVersion(models.Model):
    """One file a database has had. A file is never changed once registered: an edit that changes data (filling
    empty entries) copies the current file into a new version, and `Database.file` moves on to it, while dialogues
    keep the version they were created on (`dialogs.models.Dialogue.database_path`)."""

    database = models.ForeignKey(Database, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    file = models.CharField(max_length=500, help_text="Relative to settings.DATA_DIR.")
    sha256 = models.CharField(max_length=64)
    size_bytes = models.BigIntegerField(default=0)
    schema = models.JSONField(help_text="The file's own tables.json entry, before curation.")
    # What the file holds per table and column (annotation.databases.profile.profile_database), read once.
    profile = models.JSONField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["database", "number"]
        constraints = [models.UniqueConstraint(fields=["database", "number"], name="database_version_unique")]

    def __str__(self) -> str:
        return f"{self.database_id} v{self.number}"

    @property
    def path(self) -> Path:
        return Path(settings.DATA_DIR) / self.file


class CurationEdit(models.Model):
    """One change an admin made to what a database shows and exports, as it happened: who, when, which field of
    which table or column, the value before and after. Only ever added; the page shows them as the history."""

    class Field(models.TextChoices):
        TABLE_NAME = "table_name", "Readable table name"
        COLUMN_NAME = "column_name", "Readable column name"
        FOREIGN_KEY = "foreign_key", "Foreign key"
        HIDDEN = "hidden", "Hidden"
        FILL = "fill", "Filled empty entries"
        KEPT = "kept", "Check kept as is"

    database = models.ForeignKey(Database, on_delete=models.CASCADE, related_name="curation_edits")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    field = models.CharField(max_length=16, choices=Field.choices)
    target = models.CharField(max_length=500, help_text="The table, column or key the edit is about.")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.database_id} {self.field} {self.target}"


class Hardness(models.TextChoices):
    EASY = "easy", pgettext_lazy("hardness", "Easy")
    MEDIUM = "medium", pgettext_lazy("hardness", "Medium")
    HARD = "hard", pgettext_lazy("hardness", "Hard")
    EXTRA = "extra", pgettext_lazy("hardness", "Extra hard")


class Goal(models.Model):
    """A reference goal: the question a worker tries to answer in a dialogue, with its SQL."""

    class Source(models.TextChoices):
        SPIDER = "spider", "Spider"
        SPARC = "sparc", "SParC"
        COSQL = "cosql", "CoSQL"
        CHASE = "chase", "CHASE"
        DEMO = "demo", "Demo"
        MANUAL = "manual", "Written by an admin"
        GENERATED = "generated", "Sampled from the schema"

    database = models.ForeignKey(Database, on_delete=models.CASCADE, related_name="goals")
    question = models.TextField()
    sql = models.TextField()
    hardness = models.CharField(max_length=8, choices=Hardness.choices)
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.MANUAL)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The operation tree a sampled goal was drawn from (annotation.goals.sampler, docs/goals.md); None otherwise.
    tree = models.JSONField(null=True, blank=True)
    # When an admin discarded it (annotation.goals.services.goal_discard; who and why in its GoalDiscard): never offered
    # again, and its SQL stays known so the sampler does not draw it again.
    discarded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["database__db_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["database", "question", "sql"], name="goal_unique_per_database"),
        ]

    def __str__(self) -> str:
        return f"{self.database_id}: {self.question[:60]}"

    @property
    def waiting_for_question(self) -> bool:
        """A sampled goal has SQL but no question until a person writes one; it is offered to nobody until then. A
        discarded one waits for nothing."""
        return not self.question and self.discarded_at is None

    @property
    def latest_discard(self) -> "GoalDiscard | None":
        """The newest discard of this goal (or deactivation in its place), from the prefetched `discards` when there."""
        return next(iter(self.discards.all()), None)


class GoalDiscard(models.Model):
    """An admin's decision to retire a goal, as it happened: who, when, why, and what it did. A goal no dialogue uses
    is discarded (`Goal.discarded_at`: never offered, never sampled again); one that dialogues use is deactivated
    instead, so that they keep their goal (annotation.goals.services.goal_discard). Only ever added."""

    class Outcome(models.TextChoices):
        DISCARDED = "discarded", "Discarded"
        DEACTIVATED = "deactivated", "Deactivated (dialogues use it)"

    goal = models.ForeignKey(Goal, on_delete=models.CASCADE, related_name="discards")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=300)
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.outcome} goal {self.goal_id}"


class GoalGeneration(Job):
    """One run of the goal sampler asked for from a database's page (docs/goals.md): what was asked, how far it got,
    and what it changed in the goal set's coverage. The goals it finds are saved waiting for a question.

    A run is held by the process running it through `run_token`; that process writes `heartbeat_at` with its progress
    every GOAL_GENERATION_HEARTBEAT_SECONDS and reads `cancel_requested_at` at the same time
    (annotation.goals.generation)."""

    database = models.ForeignKey(Database, on_delete=models.CASCADE, related_name="goal_generations")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    count = models.PositiveIntegerField()
    levels = models.JSONField(help_text="The hardness levels asked for.")
    seed = models.BigIntegerField(null=True, blank=True)
    # Progress counts goals found (progress_total is `count`); `report` holds coverage and hardness mix before and
    # after.
    state = job_state_field(succeeded=_("Done"), cancellable=True)
    saved = models.PositiveIntegerField(default=0, help_text="Goals kept (an SQL the database had is not kept twice).")
    # Written by the process running the run, with its progress; an old one means that process is gone.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # The run that holds this row: a run whose token no longer matches (a redelivered task took over, or the row
    # was failed as stale) stops without writing anything more.
    run_token = models.CharField(max_length=32, blank=True)
    cancel_requested_at = models.DateTimeField(null=True, blank=True)
    cancel_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.count} goals for {self.database_id} ({self.state})"

    @property
    def stopping(self) -> bool:
        """A cancel was asked for and the run has not yet seen it."""
        return self.cancel_requested_at is not None and not self.finished

    @property
    def state_label(self) -> str:
        return gettext("Cancelling") if self.stopping else self.get_state_display()


class DatabaseTestSuite(Job):
    """The state of a database's test suite (annotation.suites.builds, docs/test_suites.md): the files live under
    DATA_DIR/test_suites/<db_id>/; this row says whether they match the database and its goals as they are now.

    As a job: queued is waiting to be built, running is building, succeeded is ready; progress counts the seconds the
    build has run of the seconds it may run (TEST_SUITE_MAX_SECONDS); `report` holds the build's figures (its pairs
    and the share told apart) and `message` why the last build failed. `updated_at` moves with every progress write:
    an old one on a suite still waiting or building means the process building it is gone."""

    state = job_state_field(queued=_("Waiting to be built"), running=_("Building"), succeeded=_("Ready"))
    database = models.OneToOneField(Database, on_delete=models.CASCADE, related_name="test_suite")
    databases = models.PositiveIntegerField(default=0, help_text="Generated databases kept in the suite.")
    size_bytes = models.BigIntegerField(default=0)
    # What the files were built from (the database file and its goals' SQL); a different current one means stale.
    fingerprint = models.CharField(max_length=64, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"test suite of {self.database_id}: {self.state}"
