# Human rating of system responses (docs/human_rating.md): tasks, their items, raters and ratings.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("dialogs", "0019_work_deals"),
        ("review", "0012_evaluation_export_job"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingItem",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "turn",
                    models.PositiveIntegerField(
                        help_text="The sequence number of the user's utterance in the dialogue's log."
                    ),
                ),
                (
                    "source",
                    models.CharField(
                        choices=[
                            ("expert", "The expert's response"),
                            ("draft", "The platform's draft"),
                            ("model", "A model's responses (uploaded file)"),
                        ],
                        max_length=8,
                    ),
                ),
                ("question", models.TextField()),
                ("sql", models.TextField()),
                (
                    "result",
                    models.JSONField(
                        help_text="The table the worker was shown: columns, rows (cut), row_count, truncated."
                    ),
                ),
                ("response", models.TextField()),
                (
                    "dialogue",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="dialogs.dialogue"
                    ),
                ),
            ],
            options={
                "ordering": ["task_id", "id"],
            },
        ),
        migrations.CreateModel(
            name="Rating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("logic_correct", models.BooleanField()),
                ("grammar", models.PositiveSmallIntegerField()),
                ("rated_at", models.DateTimeField(auto_now_add=True)),
                (
                    "rater",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ratings_given",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "item",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="review.ratingitem"
                    ),
                ),
            ],
            options={
                "ordering": ["item_id", "rater_id"],
            },
        ),
        migrations.CreateModel(
            name="RatingTask",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("size", models.PositiveIntegerField()),
                ("seed", models.BigIntegerField()),
                (
                    "db_ids",
                    models.JSONField(
                        blank=True, default=list, help_text="Databases drawn from; empty: every database."
                    ),
                ),
                ("sources", models.JSONField(default=list, help_text="ResponseSource values, in the admin's order.")),
                (
                    "model_name",
                    models.CharField(blank=True, help_text="What the uploaded file's model is called.", max_length=80),
                ),
                ("model_file_name", models.CharField(blank=True, max_length=255)),
                (
                    "turns_eligible",
                    models.PositiveIntegerField(default=0, help_text="Turns the sample was drawn from."),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rating_tasks",
                        to="dialogs.campaign",
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.AddField(
            model_name="ratingitem",
            name="task",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="items", to="review.ratingtask"
            ),
        ),
        migrations.CreateModel(
            name="RatingAssignment",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("order_seed", models.BigIntegerField()),
                (
                    "rater",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rating_assignments",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "task",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="assignments", to="review.ratingtask"
                    ),
                ),
            ],
            options={
                "ordering": ["task_id", "rater__username"],
            },
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(fields=("item", "rater"), name="one_rating_per_rater_and_item"),
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.CheckConstraint(
                condition=models.Q(("grammar__gte", 1), ("grammar__lte", 5)), name="grammar_one_to_five"
            ),
        ),
        migrations.AddConstraint(
            model_name="ratingitem",
            constraint=models.UniqueConstraint(
                fields=("task", "dialogue", "turn", "source"), name="one_rating_item_per_source"
            ),
        ),
        migrations.AddConstraint(
            model_name="ratingassignment",
            constraint=models.UniqueConstraint(fields=("task", "rater"), name="one_assignment_per_rater"),
        ),
    ]
