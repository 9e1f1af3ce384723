"""Pay for the lab's own people (docs/pay.md): the rule each campaign (or the default) pays each kind of work by, and
the statements an admin recorded as paid, with every item of work they paid.

Kept apart from review/models.py, which imports these classes at its end so that Django finds them in the review app.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def duration_text(seconds: int) -> str:
    """Seconds as hours, minutes and seconds ("1:02:05"), as the pay pages show time."""
    minutes, second = divmod(int(seconds), 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02d}:{second:02d}"


class PayRole(models.TextChoices):
    """Who is paid for which work: the role a rule is written for. One person may do the three kinds of work (an
    expert writes solo sequences too); each item is paid by its own kind's rule."""

    EXPERT = "expert", _("Expert (dialogues with a worker)")
    ANNOTATOR = "annotator", _("Annotator (solo sequences, query-first questions)")
    REVIEWER = "reviewer", _("Reviewer (review passes)")


class PayBasis(models.TextChoices):
    HOUR = "hour", _("per hour")
    ITEM = "item", _("per item")
    QUESTION = "question", _("per question")


class WorkKind(models.TextChoices):
    """The items of work a statement lists, each read from the platform's own records (review.pay.selectors)."""

    DIALOGUE = "dialogue", _("Dialogue as the expert")
    SEQUENCE = "sequence", _("Solo sequence")
    QUERY_FIRST_QUESTION = "qf_question", _("Query-first question (phase 1)")
    QUERY_FIRST_ALIGNMENT = "qf_alignment", _("Query-first alignment (phase 2)")
    REVIEW_PASS = "review_pass", _("Review pass")


class PayRule(models.Model):
    """How one role is paid in one campaign, or by default (`campaign` empty: work that belongs to no campaign, and
    the roles a campaign has no rule for): an hourly rate, or a rate per item or per question, in a currency."""

    campaign = models.ForeignKey(
        "dialogs.Campaign", null=True, blank=True, on_delete=models.CASCADE, related_name="pay_rules"
    )
    role = models.CharField(max_length=12, choices=PayRole.choices)
    basis = models.CharField(max_length=8, choices=PayBasis.choices)
    rate = models.DecimalField(max_digits=8, decimal_places=2)
    currency = models.CharField(max_length=3)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign_id", "role"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "role"], name="one_pay_rule_per_campaign_and_role"),
            # NULLs never collide in the constraint above: the default rule of a role gets its own.
            models.UniqueConstraint(
                fields=["role"], condition=models.Q(campaign__isnull=True), name="one_default_pay_rule_per_role"
            ),
        ]

    def __str__(self) -> str:
        where = f"campaign {self.campaign_id}" if self.campaign_id else "default"
        return f"{self.role} ({where}): {self.rate} {self.currency} {self.get_basis_display()}"


class PayStatement(models.Model):
    """One person's statement for a period that an admin recorded as paid: the items it paid (PayStatementItem), the
    totals per currency, and the CSV file exactly as it was when recorded. Never changed afterwards."""

    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="pay_statements")
    start = models.DateField()
    end = models.DateField(help_text="The period's last day (included).")
    totals = models.JSONField(default=dict, help_text='Currency → the total paid in it, as a string ("12.50").')
    # The digest of the lines the statement page showed: a second click on the same page finds this statement.
    digest = models.CharField(max_length=64, unique=True)
    csv_text = models.TextField(help_text="The statement's file exactly as it was recorded.")
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paid_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-paid_at", "-id"]
        indexes = [models.Index(fields=["person", "-paid_at"])]

    def __str__(self) -> str:
        return f"pay statement {self.pk} of {self.person_id}, {self.start} to {self.end}"


class PayStatementItem(models.Model):
    """One item of work a recorded statement paid, with what it was paid for and how much. The item is the key (its
    kind and id): the database itself refuses to pay one twice, whatever periods overlap or two admins click."""

    statement = models.ForeignKey(PayStatement, on_delete=models.CASCADE, related_name="items")
    kind = models.CharField(max_length=12, choices=WorkKind.choices)
    object_id = models.PositiveIntegerField(help_text="The dialogue, query-first item or review pass.")
    role = models.CharField(max_length=12, choices=PayRole.choices)
    label = models.CharField(max_length=200)
    campaign_name = models.CharField(max_length=120, blank=True)
    finished_at = models.DateTimeField()
    seconds = models.PositiveIntegerField(help_text="Time counted (idle gaps capped).")
    items = models.PositiveSmallIntegerField()
    questions = models.PositiveIntegerField()
    basis = models.CharField(max_length=8, choices=PayBasis.choices)
    rate = models.DecimalField(max_digits=8, decimal_places=2)
    currency = models.CharField(max_length=3)
    amount = models.DecimalField(max_digits=10, decimal_places=2)

    class Meta:
        ordering = ["statement_id", "finished_at", "id"]
        constraints = [models.UniqueConstraint(fields=["kind", "object_id"], name="pay_item_paid_once")]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id}: {self.amount} {self.currency} (statement {self.statement_id})"

    @property
    def duration(self) -> str:
        return duration_text(self.seconds)
