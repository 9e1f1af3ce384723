from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.models import Database, Hardness, Role


class DatabaseUploadForm(forms.Form):
    db_id = forms.SlugField(max_length=100, allow_unicode=True, label=_("Database id"), help_text=_("e.g. dorm_1"))
    description = forms.CharField(max_length=300, required=False, label=_("Description"))
    file = forms.FileField(label=_("SQLite file"))
    replace = forms.BooleanField(required=False, label=_("Replace an existing database with this id"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The limit as the settings give it now (MAX_DATABASE_UPLOAD_MB), not as they were at import.
        self.fields["file"].help_text = gettext("A .sqlite / .db file, up to %(size)s MB.") % {
            "size": settings.MAX_DATABASE_UPLOAD_MB
        }


class GoalForm(forms.Form):
    database = forms.ModelChoiceField(
        queryset=Database.objects.filter(active=True), to_field_name="db_id", label=_("Database")
    )
    question = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Question"))
    sql = forms.CharField(label="SQL", widget=forms.Textarea(attrs={"rows": 4, "class": "mono", "spellcheck": "false"}))
    active = forms.BooleanField(required=False, initial=True, label=_("Active"))


class GoalGenerationForm(forms.Form):
    """What an admin asks of the goal sampler on a database's page (annotation.goals.generation)."""

    count = forms.IntegerField(
        min_value=1, max_value=500, initial=20, label=_("How many goals"), help_text=_("Up to 500 in one run.")
    )
    levels = forms.MultipleChoiceField(
        choices=[(level.value, level.label) for level in Hardness],
        initial=[level.value for level in Hardness],
        widget=forms.CheckboxSelectMultiple,
        label=_("Hardness"),
        error_messages={"required": _("Pick at least one hardness level.")},
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**62,
        label=_("Seed (optional)"),
        help_text=_("The same seed on the same goal set gives the same goals."),
    )


class PersonForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(choices=Role.choices, label=_("Role"))
    password = forms.CharField(
        required=False,
        widget=forms.PasswordInput,
        label=_("Password"),
        help_text=_("Leave empty to generate one; it is shown once."),
    )


class BlockForm(forms.Form):
    """An admin blocks (blocked=1) or unblocks (blocked=0) a person, and says why: the reason is kept in the record."""

    blocked = forms.TypedChoiceField(
        choices=[("1", _("Block")), ("0", _("Unblock"))], coerce=lambda value: value == "1", label=_("Blocked")
    )
    reason = forms.CharField(max_length=300, strip=True, error_messages={"required": _("Say why.")}, label=_("Reason"))


class SqlForm(forms.Form):
    sql = forms.CharField()

    def clean_sql(self) -> str:
        sql = self.cleaned_data["sql"]
        if len(sql) > settings.SANDBOX_MAX_SQL_LENGTH:  # the sandbox's own limit: one number for every way in
            raise forms.ValidationError(
                gettext("SQL is limited to %(limit)s characters.") % {"limit": settings.SANDBOX_MAX_SQL_LENGTH}
            )
        return sql
