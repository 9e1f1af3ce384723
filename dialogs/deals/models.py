"""Work dealt out evenly (docs/dealing.md): an admin's deal of solo sequences or query-first questions among experts,
its members, and each item as one person's assignment.

Kept apart from dialogs/models.py, which imports these classes at its end so that Django finds them in the dialogs
app. Relations to that module's models are by name ("dialogs.Dialogue"), so this module imports nothing from it.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkDeal(models.Model):
    """One deal: which kind of work, on which databases (and whose goals), how many items, the seed that shuffled
    them, the range each solo sequence's minimum of questions is drawn from, and whether each item goes to two
    people. Who made it and when is kept; the deal itself never changes afterwards, only its members."""

    class Kind(models.TextChoices):
        SOLO = "solo", _("Solo sequences")
        QUERY_FIRST = "query_first", _("Query-first questions")

    class Goals(models.TextChoices):
        NONE = "none", _("No goal: free sequences (as CHASE-C)")
        DATABASES = "databases", _("The databases' active goals")
        CAMPAIGN = "campaign", _("A campaign's goals")

    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    goals = models.CharField(
        max_length=10, choices=Goals.choices, default=Goals.NONE, help_text="What a solo sequence works towards."
    )
    campaign = models.ForeignKey(
        "dialogs.Campaign", null=True, blank=True, on_delete=models.PROTECT, related_name="work_deals"
    )
    databases = models.ManyToManyField("annotation.Database", related_name="work_deals")
    count = models.PositiveIntegerField(help_text="Items asked for (each given to one person, or two when double).")
    seed = models.BigIntegerField()
    min_questions_low = models.PositiveSmallIntegerField(default=3)
    min_questions_high = models.PositiveSmallIntegerField(default=5)
    double = models.BooleanField(default=False, help_text="Each item to two different people.")
    note = models.CharField(max_length=300, blank=True, help_text="What the dealing could not do as asked.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Deal {self.pk}: {self.name} ({self.kind})"


class WorkDealMember(models.Model):
    """A person the deal's work is dealt to. Removing them (dialogs.deals.services.deal_member_remove) keeps the row
    with who removed them and when; their open items go to the others."""

    deal = models.ForeignKey(WorkDeal, on_delete=models.CASCADE, related_name="members")
    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="work_deal_members")
    added_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["deal", "id"]
        constraints = [models.UniqueConstraint(fields=["deal", "person"], name="work_deal_member_once")]

    def __str__(self) -> str:
        return f"{self.person_id} in deal {self.deal_id}"


class WorkAssignment(models.Model):
    """One item of a deal given to one person: a solo sequence on a database (towards a goal, or free) with its
    minimum of questions, or a sampled goal whose phase-1 question they write. `item` numbers the deal's items: the two
    copies of a double item share it, and a re-dealt item keeps it.

    open → started (the person began it from "Assigned to you") → done (the sequence finished, the question written);
    a skipped goal ends skipped; an open or started item of a person removed from the deal ends moved, `moved_to` the
    assignment that replaced it, with who moved it and when."""

    class State(models.TextChoices):
        OPEN = "open", _("Not started")
        STARTED = "started", _("Started")
        DONE = "done", _("Done")
        SKIPPED = "skipped", _("Skipped")
        MOVED = "moved", _("Re-dealt")

    # The person's work still to do: what re-dealing moves and what "Assigned to you" lists.
    OPEN_STATES = (State.OPEN, State.STARTED)
    # Held by the person: counted as dealt to them, and keeping the goal from being dealt again.
    HELD_STATES = (State.OPEN, State.STARTED, State.DONE, State.SKIPPED)

    deal = models.ForeignKey(WorkDeal, on_delete=models.CASCADE, related_name="assignments")
    item = models.PositiveIntegerField()
    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="work_assignments")
    database = models.ForeignKey("annotation.Database", on_delete=models.PROTECT, related_name="+")
    goal = models.ForeignKey(
        "annotation.Goal", null=True, blank=True, on_delete=models.PROTECT, related_name="work_assignments"
    )
    min_questions = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Solo sequences only.")
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    dialogue = models.OneToOneField(
        "dialogs.Dialogue", null=True, blank=True, on_delete=models.PROTECT, related_name="work_assignment"
    )
    query_first_item = models.ForeignKey(
        "dialogs.QueryFirstItem", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    dealt_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    moved_at = models.DateTimeField(null=True, blank=True)
    moved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    moved_to = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="moved_from")

    class Meta:
        ordering = ["deal", "item", "id"]
        constraints = [models.UniqueConstraint(fields=["deal", "item", "person"], name="work_item_once_per_person")]
        indexes = [models.Index(fields=["person", "state"])]

    def __str__(self) -> str:
        return f"Item {self.item} of deal {self.deal_id} for {self.person_id} ({self.state})"
