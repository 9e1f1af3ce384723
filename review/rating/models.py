"""Human rating of system responses (docs/human_rating.md): a task an admin creates, its items (one response of one
source to one sampled turn), who rates it, and each rating.

Kept apart from review/models.py, which imports these classes at its end so that Django finds them in the review app.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class ResponseSource(models.TextChoices):
    """Where a rated response comes from. Only the task's admin ever sees these names (docs/human_rating.md)."""

    EXPERT = "expert", _("The expert's response")
    DRAFT = "draft", _("The platform's draft")
    MODEL = "model", _("A model's responses (uploaded file)")


GRAMMAR_MIN, GRAMMAR_MAX = 1, 5


class RatingTask(models.Model):
    """A sample of SQL turns whose responses, from each of `sources`, every one of the task's raters rates."""

    name = models.CharField(max_length=120)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # What the sample was drawn from and how: the same filters and seed draw the same turns again.
    size = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    campaign = models.ForeignKey(
        "dialogs.Campaign", null=True, blank=True, on_delete=models.PROTECT, related_name="rating_tasks"
    )
    db_ids = models.JSONField(default=list, blank=True, help_text="Databases drawn from; empty: every database.")
    sources = models.JSONField(default=list, help_text="ResponseSource values, in the admin's order.")
    model_name = models.CharField(max_length=80, blank=True, help_text="What the uploaded file's model is called.")
    model_file_name = models.CharField(max_length=255, blank=True)
    turns_eligible = models.PositiveIntegerField(default=0, help_text="Turns the sample was drawn from.")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Rating task {self.pk}: {self.name}"

    def source_label(self, source: str) -> str:
        if source == ResponseSource.MODEL and self.model_name:
            return gettext("Model: %(name)s") % {"name": self.model_name}
        return ResponseSource(source).label


class RatingItem(models.Model):
    """One response to rate: the turn's question, SQL and result table as they stood when the task was made, and
    the text of one source. Items are created in a shuffled order, so that their ids say nothing of the source."""

    task = models.ForeignKey(RatingTask, on_delete=models.CASCADE, related_name="items")
    dialogue = models.ForeignKey("dialogs.Dialogue", on_delete=models.PROTECT, related_name="+")
    turn = models.PositiveIntegerField(help_text="The sequence number of the user's utterance in the dialogue's log.")
    source = models.CharField(max_length=8, choices=ResponseSource.choices)
    question = models.TextField()
    sql = models.TextField()
    result = models.JSONField(help_text="The table the worker was shown: columns, rows (cut), row_count, truncated.")
    response = models.TextField()

    class Meta:
        ordering = ["task_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["task", "dialogue", "turn", "source"], name="one_rating_item_per_source")
        ]

    def __str__(self) -> str:
        return f"Item {self.pk} of rating task {self.task_id}"


class RatingAssignment(models.Model):
    """A rater of a task. `order_seed` shuffles the task's items for this rater alone (docs/human_rating.md)."""

    task = models.ForeignKey(RatingTask, on_delete=models.CASCADE, related_name="assignments")
    rater = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_assignments")
    order_seed = models.BigIntegerField()

    class Meta:
        ordering = ["task_id", "rater__username"]
        constraints = [models.UniqueConstraint(fields=["task", "rater"], name="one_assignment_per_rater")]

    def __str__(self) -> str:
        return f"{self.rater_id} rates task {self.task_id}"


class Rating(models.Model):
    """One rater's judgement of one item, given once: logic correctness (0 or 1) and grammar (1 to 5)."""

    item = models.ForeignKey(RatingItem, on_delete=models.CASCADE, related_name="ratings")
    rater = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings_given")
    logic_correct = models.BooleanField()
    grammar = models.PositiveSmallIntegerField()
    rated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item_id", "rater_id"]
        constraints = [
            # The database refuses a second rating of the same item by the same rater, whatever two tabs send.
            models.UniqueConstraint(fields=["item", "rater"], name="one_rating_per_rater_and_item"),
            models.CheckConstraint(
                condition=models.Q(grammar__gte=GRAMMAR_MIN, grammar__lte=GRAMMAR_MAX), name="grammar_one_to_five"
            ),
        ]

    def __str__(self) -> str:
        return f"rating of item {self.item_id} by {self.rater_id}"
