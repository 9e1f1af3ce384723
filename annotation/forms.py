from django import forms
from django.conf import settings

from annotation.models import Database, Hardness, Role


class DatabaseUploadForm(forms.Form):
    db_id = forms.SlugField(max_length=100, allow_unicode=True, label="Database id", help_text="e.g. dorm_1")
    description = forms.CharField(max_length=300, required=False)
    file = forms.FileField(label="SQLite file")
    replace = forms.BooleanField(required=False, label="Replace an existing database with this id")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The limit as the settings give it now (MAX_DATABASE_UPLOAD_MB), not as they were at import.
        self.fields["file"].help_text = f"A .sqlite / .db file, up to {settings.MAX_DATABASE_UPLOAD_MB} MB."


class GoalForm(forms.Form):
    database = forms.ModelChoiceField(queryset=Database.objects.filter(active=True), to_field_name="db_id")
    question = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    sql = forms.CharField(label="SQL", widget=forms.Textarea(attrs={"rows": 4, "class": "mono", "spellcheck": "false"}))
    active = forms.BooleanField(required=False, initial=True)


class GoalGenerationForm(forms.Form):
    """What an admin asks of the goal sampler on a database's page (annotation.goals.generation)."""

    count = forms.IntegerField(
        min_value=1, max_value=500, initial=20, label="How many goals", help_text="Up to 500 in one run."
    )
    levels = forms.MultipleChoiceField(
        choices=[(level.value, level.label) for level in Hardness],
        initial=[level.value for level in Hardness],
        widget=forms.CheckboxSelectMultiple,
        label="Hardness",
        error_messages={"required": "Pick at least one hardness level."},
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**62,
        label="Seed (optional)",
        help_text="The same seed on the same goal set gives the same goals.",
    )


class PersonForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Role.choices)
    password = forms.CharField(
        required=False, widget=forms.PasswordInput, help_text="Leave empty to generate one; it is shown once."
    )


class BlockForm(forms.Form):
    """An admin blocks (blocked=1) or unblocks (blocked=0) a person, and says why: the reason is kept in the record."""

    blocked = forms.TypedChoiceField(choices=[("1", "Block"), ("0", "Unblock")], coerce=lambda value: value == "1")
    reason = forms.CharField(max_length=300, strip=True, error_messages={"required": "Say why."})


class SqlForm(forms.Form):
    sql = forms.CharField()

    def clean_sql(self) -> str:
        sql = self.cleaned_data["sql"]
        if len(sql) > settings.SANDBOX_MAX_SQL_LENGTH:  # the sandbox's own limit: one number for every way in
            raise forms.ValidationError(f"SQL is limited to {settings.SANDBOX_MAX_SQL_LENGTH} characters.")
        return sql
