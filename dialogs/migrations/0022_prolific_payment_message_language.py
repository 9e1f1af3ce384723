from django.db import migrations, models


def _from_starters(apps, schema_editor):
    """A payment made before it recorded a language keeps the one its notes were written in until now: the account
    language of the admin who started it (blank: the site's default)."""
    Payment = apps.get_model("dialogs", "ProlificBonusPayment")
    for payment in Payment.objects.filter(started_by__isnull=False).select_related("started_by"):
        payment.message_language = payment.started_by.language or ""
        payment.save(update_fields=["message_language"])


class Migration(migrations.Migration):
    dependencies = [
        ("dialogs", "0021_job_message_language"),
        ("annotation", "0013_job_message_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="prolificbonuspayment",
            name="message_language",
            field=models.CharField(
                blank=True,
                default="",
                help_text="The language of the person who asked (their page's when the job was made): its messages "
                "are written in it.",
                max_length=12,
            ),
        ),
        migrations.RunPython(_from_starters, migrations.RunPython.noop),
    ]
