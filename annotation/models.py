"""People, registered databases and reference goals.

`annotation` is the base app: it knows nothing of chat rooms or review. The SQL core (sandbox, validation, Spider
encoding, hardness) lives in `annotation.sql` and works on plain paths and schema dicts, not on these models.
"""

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ObjectDoesNotExist
from django.db import models


class Role(models.TextChoices):
    WORKER = "worker", "Crowd worker"
    EXPERT = "expert", "SQL expert"
    REVIEWER = "reviewer", "Reviewer"
    ADMIN = "admin", "Admin"


class User(AbstractUser):
    """A person on the platform. Exactly one role; what each role may do is decided in `annotation.roles`."""

    role = models.CharField(max_length=16, choices=Role.choices, default=Role.WORKER)
    blocked = models.BooleanField(default=False, help_text="Blocked workers are never paired again.")
    blocked_reason = models.CharField(max_length=300, blank=True)
    tutorial_passed_at = models.DateTimeField(null=True, blank=True)

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
    (`annotation.services.person_set_blocked`)."""

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


class Hardness(models.TextChoices):
    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"
    EXTRA = "extra", "Extra hard"


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
    # The operation tree a sampled goal was drawn from (annotation.sql.goal_sampler, docs/goals.md); None otherwise.
    tree = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["database__db_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["database", "question", "sql"], name="goal_unique_per_database"),
        ]

    def __str__(self) -> str:
        return f"{self.database_id}: {self.question[:60]}"

    @property
    def waiting_for_question(self) -> bool:
        """A sampled goal has SQL but no question until a person writes one; it is offered to nobody until then."""
        return not self.question


class DatabaseTestSuite(models.Model):
    """The state of a database's test suite (annotation.suite_builds, docs/test_suites.md): the files live under
    DATA_DIR/test_suites/<db_id>/; this row says whether they match the database and its goals as they are now."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be built"
        BUILDING = "building", "Building"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    database = models.OneToOneField(Database, on_delete=models.CASCADE, related_name="test_suite")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    done = models.PositiveIntegerField(default=0, help_text="Generated databases tried so far in this build.")
    total = models.PositiveIntegerField(default=0, help_text="The most this build tries.")
    databases = models.PositiveIntegerField(default=0, help_text="Generated databases kept in the suite.")
    size_bytes = models.BigIntegerField(default=0)
    # What the files were built from (the database file and its goals' SQL); a different current one means stale.
    fingerprint = models.CharField(max_length=64, blank=True)
    figures = models.JSONField(default=dict, blank=True, help_text="The build's pairs and the share told apart.")
    error = models.TextField(blank=True)
    built_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"test suite of {self.database_id}: {self.status}"

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 0
