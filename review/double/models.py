"""Blind double annotation (docs/double_annotation.md): a sample of collected turns drawn by an admin for a second
person, who labels each turn without seeing the first labels; the platform compares the two, and an adjudicator settles
each disagreement as a review correction.

Kept apart from review/models.py, which imports these classes at its end so that Django finds them in the review app.
Relations to other models are by name, so this module imports nothing of review's.
"""

from django.conf import settings
from django.db import models

# The fields a second person labels, in the order the page asks them. "intent" is the category alone (the relations
# are the rules' business, docs/chase.md); "query" is the SQL they write; "thematic_relations" SParC's, of a follow-up.
FIELDS = (
    "user_acts",
    "system_acts",
    "query",
    "contextual_phenomena",
    "intent",
    "thematic_relations",
    "pragmatics",
    "question_style",
    "schema_linking",
)
MULTI_LABEL_FIELDS = ("user_acts", "system_acts", "contextual_phenomena", "thematic_relations")
SINGLE_LABEL_FIELDS = ("intent", "pragmatics", "question_style")


class DoubleSample(models.Model):
    """A reproducible draw: the filters, the size and the seed say which turns it holds (`review.double.services.
    double_sample_draw`), and the second labeller is the one person who labels them."""

    class Unit(models.TextChoices):
        TURNS = "turns", "Turns (each a question of its own)"
        DIALOGUES = "dialogues", "Dialogues (every question of each)"

    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    labeller = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="double_samples")
    campaign = models.ForeignKey("dialogs.Campaign", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    db_id = models.CharField(max_length=100, blank=True, help_text="Only this database's dialogues (empty: any).")
    mode = models.CharField(max_length=12, blank=True, help_text="Only dialogues of this mode (empty: any).")
    unit = models.CharField(max_length=10, choices=Unit.choices, default=Unit.TURNS)
    size = models.PositiveIntegerField(help_text="How many turns or dialogues were drawn.")
    seed = models.BigIntegerField(help_text="The random generator's seed: the same filters and seed draw the same.")
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Double-annotation sample {self.pk} for {self.labeller_id}"


class DoubleItem(models.Model):
    """One user turn of a sample. `first` holds the turn's labels as they stood when it was drawn (never shown to the
    labeller); `second` the labeller's, once given; `sql_check` the comparison of the two queries, made after the
    labelling, outside any transaction."""

    sample = models.ForeignKey(DoubleSample, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveIntegerField(help_text="The item's place in the sample (the order it is labelled in).")
    dialogue = models.ForeignKey("dialogs.Dialogue", on_delete=models.PROTECT, related_name="+")
    turn = models.PositiveIntegerField(help_text="Sequence number of the user utterance.")
    first = models.JSONField(help_text="The first labels, as they stood at the draw.")
    second = models.JSONField(null=True, blank=True, help_text="The second person's labels.")
    labelled_at = models.DateTimeField(null=True, blank=True)
    sql_check = models.JSONField(default=dict, blank=True, help_text="Execution match and test-suite comparison.")

    class Meta:
        ordering = ["sample_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["sample", "dialogue", "turn"], name="double_item_once_per_sample"),
        ]

    def __str__(self) -> str:
        return f"{self.dialogue_id}#{self.turn} in sample {self.sample_id}"


class DoubleAdjudication(models.Model):
    """An adjudicator's decision on one field of one item: which label stands. When it differs from what the dialogue
    holds, review's correction service records it (`correction_seq`: the correction event), never overwriting."""

    item = models.ForeignKey(DoubleItem, on_delete=models.CASCADE, related_name="adjudications")
    field = models.CharField(max_length=30)
    choice = models.CharField(max_length=6, choices=[("first", "The first label"), ("second", "The second label")])
    value = models.JSONField(null=True, blank=True, help_text="The label that stands.")
    adjudicator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    correction_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="The correction event's sequence number (none: the dialogue held it already)."
    )
    note = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item_id", "field"]
        constraints = [models.UniqueConstraint(fields=["item", "field"], name="double_adjudicated_once")]

    def __str__(self) -> str:
        return f"{self.field} of item {self.item_id}: {self.choice}"
