"""Translation projects (docs/translation.md): an imported release turned into another language, databases included,
as CHASE-T was made from SParC (CHASE §3.3).

Kept apart from review/models.py, which imports these classes at its end so that Django finds them in the review app.
Relations to other models are by name, so this module imports nothing of review's.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.jobs import Job, job_state_field

LANGUAGES = [("zh-hans", _("Simplified Chinese"))]


class TranslationProject(models.Model):
    """One release being translated: where its interactions come from (the import's file), into which language, and
    the split its files take in the export."""

    name = models.CharField(max_length=200)
    language = models.CharField(max_length=16, choices=LANGUAGES, default="zh-hans")
    source_format = models.CharField(max_length=8, help_text=_("The imported release's format (sparc, cosql)."))
    source_file = models.CharField(max_length=300)
    source_sha256 = models.CharField(max_length=64)
    split = models.CharField(max_length=8, default="dev", help_text=_("The split the exported files hold."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"


class ProjectDatabase(models.Model):
    """One database of a project: its names and text values are translated once, by the people assigned to it."""

    project = models.ForeignKey(TranslationProject, on_delete=models.CASCADE, related_name="databases")
    database = models.ForeignKey("annotation.Database", on_delete=models.PROTECT, related_name="+")
    translators = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="translation_databases")
    # Text values beyond TRANSLATION_MAX_VALUES are not listed; the export then says the file is not whole.
    values_truncated = models.BooleanField(default=False)

    class Meta:
        ordering = ["project", "database__db_id"]
        constraints = [models.UniqueConstraint(fields=["project", "database"], name="translation_database_once")]

    def __str__(self) -> str:
        return f"{self.database_id} in project {self.project_id}"


class TranslationUnit(models.Model):
    """A name (a table or a column) or a distinct text value of one database, translated once.

    A model's proposal is kept beside the translation (`proposal`, `proposal_model`) and is never the translation
    until a person accepts or edits it (`translated_by`)."""

    class Kind(models.TextChoices):
        TABLE = "table", _("Table")
        COLUMN = "column", _("Column")
        VALUE = "value", _("Value")

    project_database = models.ForeignKey(ProjectDatabase, on_delete=models.CASCADE, related_name="units")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    table = models.CharField(max_length=200, help_text=_("The table's original name (the value's first table)."))
    column = models.CharField(max_length=200, blank=True, help_text=_("The column's original name."))
    source = models.TextField(help_text=_("The original name or text value."))
    # For a value: every [table, column] holding it, to refuse a translation that merges two values of one column.
    places = models.JSONField(default=list, blank=True)
    translation = models.TextField(blank=True)
    translated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    translated_at = models.DateTimeField(null=True, blank=True)
    proposal = models.TextField(blank=True)
    proposal_model = models.CharField(max_length=200, blank=True)
    proposed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["project_database", "kind", "table", "column", "id"]
        indexes = [models.Index(fields=["project_database", "kind"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.table}.{self.column} {self.source[:40]!r}"


class TranslationInteraction(models.Model):
    """One interaction of the release: its turns as imported (`turns`: [{utterance, query}], `final`), the questions
    as translated (one per turn, and the final question), and where review stands with it. Its SQL is never stored
    translated: it is rewritten through the database's maps whenever it is shown or exported
    (annotation.sql.translate), so a name translated later reaches every query."""

    class State(models.TextChoices):
        OPEN = "open", _("To translate")
        SUBMITTED = "submitted", _("Waiting for review")
        SENT_BACK = "sent_back", _("Sent back")
        APPROVED = "approved", _("Approved")

    project = models.ForeignKey(TranslationProject, on_delete=models.CASCADE, related_name="interactions")
    project_database = models.ForeignKey(ProjectDatabase, on_delete=models.CASCADE, related_name="interactions")
    position = models.PositiveIntegerField(help_text=_("Index of the interaction in the imported file."))
    dialogue_id = models.PositiveIntegerField(null=True, blank=True, help_text=_("The imported dialogue (a plain id)."))
    turns = models.JSONField(help_text=_("The imported turns: [{utterance, query}]."))
    final = models.JSONField(default=dict, help_text=_("The imported final: {utterance, query}."))
    questions = models.JSONField(default=list, blank=True, help_text=_("The translated question of each turn."))
    final_question = models.TextField(blank=True)
    state = models.CharField(max_length=12, choices=State.choices, default=State.OPEN)
    translated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    translated_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True)

    class Meta:
        ordering = ["project", "position"]
        constraints = [models.UniqueConstraint(fields=["project", "position"], name="translation_interaction_once")]

    def __str__(self) -> str:
        return f"interaction {self.position} of project {self.project_id}"


class TranslationExport(Job):
    """One export of a project as a CHASE-format release (review.translation.export): the files, the translated
    SQLite files built by copying each original and renaming and rewriting it, and the gold check's report (every
    gold query run on the translated file against the translated rows of the original's result)."""

    project = models.ForeignKey(TranslationProject, on_delete=models.CASCADE, related_name="exports")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = job_state_field(succeeded=_("Ready"), cancellable=True)
    only_approved = models.BooleanField(default=True, help_text=_("Export approved interactions only."))
    file = models.CharField(max_length=300, blank=True, help_text=_("The zip, relative to DATA_DIR."))
    cancel_requested_at = models.DateTimeField(null=True, blank=True)
    gold_total = models.PositiveIntegerField(default=0)
    gold_passed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"translation export {self.pk} of project {self.project_id} ({self.state})"


class TranslationProjectBuild(Job):
    """The making of one project, in the background (review.translation.build): each database's file read for its
    names and text values, the release's interactions replayed, then the project written in one short transaction.
    What the admin asked for is kept here until the project exists."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = job_state_field(succeeded=_("Made"), cancellable=True)
    name = models.CharField(max_length=200)
    release_key = models.CharField(max_length=300, help_text=_("The imported release (review.translation.source)."))
    db_ids = models.JSONField(default=list, blank=True, help_text=_("The databases asked for; empty: all of them."))
    split = models.CharField(max_length=8, default="dev")
    language = models.CharField(max_length=16, choices=LANGUAGES, default="zh-hans")
    project = models.ForeignKey(
        TranslationProject, null=True, blank=True, on_delete=models.SET_NULL, related_name="builds"
    )
    cancel_requested_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"translation project build {self.pk} ({self.state})"


class TranslationSqlCorrection(models.Model):
    """A translator's correction of a turn's SQL as it reads on the translated schema (or of the final goal's, turn
    -1), for a query the rewriting could not carry over (a LIKE pattern inside values, an ORDER BY on a translated
    text column). The imported SQL is never changed and nothing is overwritten: each correction is a row of its own,
    and the latest of a turn is the one the page and the export use. It was run on the translated copy before it
    was kept (review.translation.services.translation_sql_correct)."""

    interaction = models.ForeignKey(TranslationInteraction, on_delete=models.CASCADE, related_name="sql_corrections")
    turn = models.IntegerField(help_text=_("The turn's index in the interaction; -1: the final goal's query."))
    sql = models.TextField(help_text=_("The corrected SQL, on the translated schema."))
    rewritten = models.TextField(blank=True, help_text=_("What the rewriting gave before the correction."))
    rows = models.PositiveIntegerField(default=0, help_text=_("Rows it returned on the translated copy."))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["interaction", "turn", "-at", "-id"]

    def __str__(self) -> str:
        return f"SQL correction of turn {self.turn} of interaction {self.interaction_id}"


def corrected_sql(interaction: TranslationInteraction) -> dict[int, "TranslationSqlCorrection"]:
    """The latest correction of each corrected turn of `interaction` (-1: the final goal)."""
    latest: dict[int, TranslationSqlCorrection] = {}
    # Sorted here, not by the database: a prefetched list (the export's) is read as it is.
    for correction in sorted(interaction.sql_corrections.all(), key=lambda row: (row.at, row.pk), reverse=True):
        latest.setdefault(correction.turn, correction)
    return latest
