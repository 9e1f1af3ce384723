"""Expert onboarding (docs/experts.md): guidelines and their reads, practice goals and dialogues, campaigns' own
qualification rules, and qualification decisions. Every expert who exists when this runs is qualified ("grandfathered"):
they were taking rooms before the rule existed, and an admin withdraws anyone who should practise first."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

GRANDFATHERED = "grandfathered"


def grandfather_experts(apps, schema_editor):
    """Qualify every expert of a person (not a simulated account) who exists now, with the reason "grandfathered"."""
    User = apps.get_model("annotation", "User")
    QualificationDecision = apps.get_model("dialogs", "QualificationDecision")
    experts = User.objects.filter(role="expert", simulated=False).values_list("id", flat=True)
    QualificationDecision.objects.bulk_create(
        QualificationDecision(person_id=pk, qualified=True, reason=GRANDFATHERED) for pk in experts.iterator()
    )


def grandfathering_undone(apps, schema_editor):
    QualificationDecision = apps.get_model("dialogs", "QualificationDecision")
    QualificationDecision.objects.filter(decided_by=None, reason=GRANDFATHERED).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0009_goal_discard"),
        ("dialogs", "0017_prolific_api"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="dialogue",
            name="practice",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.CreateModel(
            name="GuidelinesVersion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "act_guide",
                    models.TextField(blank=True, help_text="The dialogue acts: what each user and system act means."),
                ),
                (
                    "response_guide",
                    models.TextField(blank=True, help_text="How to write a response for each system act."),
                ),
                (
                    "sql_conventions",
                    models.TextField(blank=True, help_text="How to write the SQL: the conventions reviewers check."),
                ),
                ("edited_at", models.DateTimeField(auto_now_add=True)),
                (
                    "edited_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
            },
        ),
        migrations.CreateModel(
            name="PracticeDialogue",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("plan", models.JSONField(default=list)),
                ("turns", models.JSONField(default=list)),
                ("questions", models.PositiveSmallIntegerField(default=0)),
                ("equivalent", models.PositiveSmallIntegerField(default=0)),
                ("acts_right", models.PositiveSmallIntegerField(default=0)),
                ("scored_at", models.DateTimeField(blank=True, null=True)),
                (
                    "dialogue",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="practice_record",
                        to="dialogs.dialogue",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="PracticeGoal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("marked_at", models.DateTimeField(auto_now_add=True)),
                (
                    "goal",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="practice_mark", to="annotation.goal"
                    ),
                ),
                (
                    "marked_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="PracticeRule",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "practice_dialogues",
                    models.PositiveSmallIntegerField(
                        help_text="Practice dialogues an expert completes first (0: none).",
                        validators=[django.core.validators.MaxValueValidator(20)],
                    ),
                ),
                (
                    "min_equivalent_percent",
                    models.PositiveSmallIntegerField(
                        help_text="Share of their answers (%) that must mean the same as the gold query.",
                        validators=[django.core.validators.MaxValueValidator(100)],
                    ),
                ),
                ("changed_at", models.DateTimeField(auto_now=True)),
                (
                    "campaign",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="practice_rule", to="dialogs.campaign"
                    ),
                ),
                (
                    "changed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="GuidelinesRead",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("read_at", models.DateTimeField(auto_now_add=True)),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="guidelines_reads",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reads",
                        to="dialogs.guidelinesversion",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("person", "version"), name="one_read_per_guidelines_version")
                ],
            },
        ),
        migrations.CreateModel(
            name="QualificationDecision",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("qualified", models.BooleanField()),
                ("reason", models.CharField(max_length=300)),
                ("evidence", models.JSONField(blank=True, default=dict)),
                ("decided_at", models.DateTimeField(auto_now_add=True)),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="qualification_decisions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
                "indexes": [models.Index(fields=["person", "-id"], name="qualification_newest")],
            },
        ),
        migrations.RunPython(grandfather_experts, grandfathering_undone),
    ]
