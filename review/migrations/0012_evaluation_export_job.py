# Issue 37: an export and an evaluation are annotation.jobs.Job; an evaluation records when it started.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0011_pay"),
    ]

    operations = [
        migrations.AddField(
            model_name="evaluation",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="evaluation",
            name="message",
            field=models.TextField(blank=True, help_text="Why the job failed or stopped, or what it came to."),
        ),
        migrations.AlterField(
            model_name="evaluation",
            name="report",
            field=models.JSONField(blank=True, default=dict, help_text="What the job found or made (its own keys)."),
        ),
        migrations.AlterField(
            model_name="export",
            name="message",
            field=models.TextField(blank=True, help_text="Why the job failed or stopped, or what it came to."),
        ),
        migrations.AlterField(
            model_name="export",
            name="report",
            field=models.JSONField(blank=True, default=dict, help_text="What the job found or made (its own keys)."),
        ),
    ]
