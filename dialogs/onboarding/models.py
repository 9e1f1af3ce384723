"""Experts onboarded before they take live rooms (docs/experts.md): the guidelines an admin edits and who read which
version, the goals kept for practice, each practice dialogue with its plan and its score against the gold, the
qualification rule a campaign sets, and every decision that qualified or withdrew an expert.

Kept apart from dialogs/models.py, which imports these classes at its end so that Django finds them in the dialogs
app. Relations to that module's models are by name ("dialogs.Dialogue"), so this module imports nothing from it.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models


class GuidelinesVersion(models.Model):
    """One saved version of the experts' guidelines, the three texts together. A save that changes any text makes a
    new version; the newest is the current one. Never edited afterwards: who wrote what, and when, stays readable."""

    act_guide = models.TextField(blank=True, help_text="The dialogue acts: what each user and system act means.")
    response_guide = models.TextField(blank=True, help_text="How to write a response for each system act.")
    sql_conventions = models.TextField(blank=True, help_text="How to write the SQL: the conventions reviewers check.")
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    edited_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Guidelines version {self.pk}"


class GuidelinesRead(models.Model):
    """An expert confirmed that they read a version of the guidelines."""

    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guidelines_reads")
    version = models.ForeignKey(GuidelinesVersion, on_delete=models.CASCADE, related_name="reads")
    read_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["person", "version"], name="one_read_per_guidelines_version")]

    def __str__(self) -> str:
        return f"{self.person_id} read guidelines {self.version_id}"


class PracticeGoal(models.Model):
    """A goal kept for practice: experts answer the simulated worker on it, and pairing never hands it out, so it never
    enters the collection."""

    goal = models.OneToOneField("annotation.Goal", on_delete=models.CASCADE, related_name="practice_mark")
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    marked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Practice goal {self.goal_id}"


class PracticeRule(models.Model):
    """A campaign's own qualification rule, in place of the settings' defaults (EXPERT_PRACTICE_DIALOGUES,
    EXPERT_PRACTICE_MIN_PERCENT)."""

    campaign = models.OneToOneField("dialogs.Campaign", on_delete=models.CASCADE, related_name="practice_rule")
    practice_dialogues = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(20)], help_text="Practice dialogues an expert completes first (0: none)."
    )
    min_equivalent_percent = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(100)],
        help_text="Share of their answers (%) that must mean the same as the gold query.",
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Practice rule of campaign {self.campaign_id}"


class PracticeDialogue(models.Model):
    """A practice dialogue (`Dialogue.practice`): the questions the simulated worker was given to ask, each with its
    gold query and the acts expected, and, once it has ended, how the expert's answers compared (`turns`, one entry per
    planned question) with the counts the qualification rule reads."""

    dialogue = models.OneToOneField("dialogs.Dialogue", on_delete=models.CASCADE, related_name="practice_record")
    plan = models.JSONField(default=list)  # [{"step", "text", "sql"}]: the gold of each question, in order
    turns = models.JSONField(default=list)  # the comparison, turn by turn (dialogs.onboarding.practice)
    questions = models.PositiveSmallIntegerField(default=0)  # planned questions: every one counts, answered or not
    equivalent = models.PositiveSmallIntegerField(default=0)  # answers meaning the same as their gold query
    acts_right = models.PositiveSmallIntegerField(default=0)  # answers with the expected user and system acts
    scored_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Practice of dialogue {self.dialogue_id}"

    @property
    def share(self) -> float | None:
        """Equivalent answers over planned questions, once scored."""
        if self.scored_at is None or not self.questions:
            return None
        return self.equivalent / self.questions


class QualificationDecision(models.Model):
    """One decision about an expert: qualified (by the rule, by an admin, or grandfathered) or withdrawn (by an
    admin), with who, when and why. The newest decision is the expert's standing; the rule only ever qualifies."""

    person = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="qualification_decisions"
    )
    qualified = models.BooleanField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )  # None: the qualification rule (or a data migration), not a person
    reason = models.CharField(max_length=300)
    evidence = models.JSONField(default=dict, blank=True)  # the rule's: practice dialogue ids and their share
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["person", "-id"], name="qualification_newest")]

    def __str__(self) -> str:
        return f"{'qualified' if self.qualified else 'withdrawn'}: {self.person_id} ({self.reason})"
