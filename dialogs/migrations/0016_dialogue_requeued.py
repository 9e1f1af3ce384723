from django.db import migrations, models


def requeued_from_the_log(apps, schema_editor):
    """Dialogues ended before the field existed whose end event says `requeued` (the expert never joined, or a
    supervisor sent the worker back): their pairing was cancelled."""
    Event = apps.get_model("dialogs", "Event")
    Dialogue = apps.get_model("dialogs", "Dialogue")
    ends = Event.objects.filter(kind="end").values_list("dialogue_id", "payload")
    requeued = [dialogue_id for dialogue_id, payload in ends.iterator() if (payload or {}).get("requeued")]
    for start in range(0, len(requeued), 500):
        Dialogue.objects.filter(id__in=requeued[start : start + 500]).update(requeued=True)


class Migration(migrations.Migration):
    dependencies = [
        ("dialogs", "0015_control_group"),
    ]

    operations = [
        migrations.AddField(
            model_name="dialogue",
            name="requeued",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(requeued_from_the_log, migrations.RunPython.noop),
    ]
