# Issue 37: every background job inherits annotation.jobs.Job. A test suite's row takes the job's words (its status,
# done, total, error and figures become state, progress_done, progress_total, message and report, its states pending,
# building and ready become queued, running and succeeded) and its timestamps; a goal-generation run counts its
# progress of progress_total, the goals it was asked for.

import django.utils.timezone
from django.db import migrations, models
from django.db.models import F

SUITE_STATES = {"pending": "queued", "building": "running", "ready": "succeeded", "failed": "failed"}


def suite_states_forward(apps, schema_editor):
    DatabaseTestSuite = apps.get_model("annotation", "DatabaseTestSuite")
    for old, new in SUITE_STATES.items():
        if old != new:
            DatabaseTestSuite.objects.filter(state=old).update(state=new)
    # The older rows' timestamps, as near as they are known: a ready suite finished when it was built.
    DatabaseTestSuite.objects.filter(built_at__isnull=False).update(created_at=F("built_at"))
    DatabaseTestSuite.objects.filter(built_at__isnull=True).update(created_at=F("updated_at"))
    DatabaseTestSuite.objects.filter(state="succeeded", built_at__isnull=False).update(finished_at=F("built_at"))


def suite_states_backward(apps, schema_editor):
    DatabaseTestSuite = apps.get_model("annotation", "DatabaseTestSuite")
    for old, new in SUITE_STATES.items():
        if old != new:
            DatabaseTestSuite.objects.filter(state=new).update(state=old)


def goal_generation_totals(apps, schema_editor):
    GoalGeneration = apps.get_model("annotation", "GoalGeneration")
    GoalGeneration.objects.update(progress_total=F("count"))


JOB_MESSAGE = models.TextField(blank=True, help_text="Why the job failed or stopped, or what it came to.")
JOB_REPORT = models.JSONField(blank=True, default=dict, help_text="What the job found or made (its own keys).")


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0010_test_suite_progress_in_seconds"),
    ]

    operations = [
        migrations.RenameField(model_name="databasetestsuite", old_name="status", new_name="state"),
        migrations.RenameField(model_name="databasetestsuite", old_name="done", new_name="progress_done"),
        migrations.RenameField(model_name="databasetestsuite", old_name="total", new_name="progress_total"),
        migrations.RenameField(model_name="databasetestsuite", old_name="error", new_name="message"),
        migrations.RenameField(model_name="databasetestsuite", old_name="figures", new_name="report"),
        migrations.AlterField(
            model_name="databasetestsuite",
            name="state",
            field=models.CharField(
                choices=[
                    ("queued", "Waiting to be built"),
                    ("running", "Building"),
                    ("succeeded", "Ready"),
                    ("failed", "Failed"),
                ],
                default="queued",
                max_length=12,
            ),
        ),
        migrations.AlterField(
            model_name="databasetestsuite", name="progress_done", field=models.PositiveIntegerField(default=0)
        ),
        migrations.AlterField(
            model_name="databasetestsuite", name="progress_total", field=models.PositiveIntegerField(default=0)
        ),
        migrations.AlterField(model_name="databasetestsuite", name="message", field=JOB_MESSAGE),
        migrations.AlterField(model_name="databasetestsuite", name="report", field=JOB_REPORT),
        migrations.AddField(
            model_name="databasetestsuite",
            name="created_at",
            field=models.DateTimeField(auto_now_add=True, default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="databasetestsuite", name="started_at", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="databasetestsuite", name="finished_at", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="goalgeneration", name="progress_total", field=models.PositiveIntegerField(default=0)
        ),
        migrations.AlterField(model_name="goalgeneration", name="message", field=JOB_MESSAGE),
        migrations.AlterField(model_name="goalgeneration", name="report", field=JOB_REPORT),
        # The rows last, after every change of the tables (PostgreSQL alters no table with updates pending).
        migrations.RunPython(suite_states_forward, suite_states_backward),
        migrations.RunPython(goal_generation_totals, migrations.RunPython.noop),
    ]
