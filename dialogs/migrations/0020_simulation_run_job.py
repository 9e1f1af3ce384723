# Issue 37: a pilot by simulated workers is an annotation.jobs.Job; its progress counts the workers done of
# progress_total, the workers it was asked for.

from django.db import migrations, models
from django.db.models import F


def simulation_totals(apps, schema_editor):
    SimulationRun = apps.get_model("dialogs", "SimulationRun")
    SimulationRun.objects.update(progress_total=F("count"))


class Migration(migrations.Migration):
    dependencies = [
        ("dialogs", "0019_work_deals"),
    ]

    operations = [
        migrations.AddField(
            model_name="simulationrun",
            name="progress_total",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="simulationrun",
            name="message",
            field=models.TextField(blank=True, help_text="Why the job failed or stopped, or what it came to."),
        ),
        migrations.AlterField(
            model_name="simulationrun",
            name="report",
            field=models.JSONField(blank=True, default=dict, help_text="What the job found or made (its own keys)."),
        ),
        migrations.RunPython(simulation_totals, migrations.RunPython.noop),
    ]
