"""The forms of human rating (docs/human_rating.md): an admin's new task, and one rating. They only ask; the rules
are the services'."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from annotation.models import Database, User
from dialogs.models import Campaign
from review.rating.model_file import MAX_BYTES
from review.rating.models import GRAMMAR_MAX, GRAMMAR_MIN, ResponseSource
from review.rating.services import RATER_ROLES, SIZE_MAX

DEFAULT_RATERS = 3  # as CoSQL: three raters


class RatingTaskForm(forms.Form):
    name = forms.CharField(
        max_length=120,
        label=_("Task name"),
        help_text=_("Raters see this name: say nothing of the sources in it (they rate blind)."),
    )
    size = forms.IntegerField(
        min_value=1, max_value=SIZE_MAX, initial=100, label=_("Turns to sample"), help_text=_("CoSQL rated 100.")
    )
    seed = forms.IntegerField(initial=1, help_text=_("The same seed and filters draw the same turns."))
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.order_by("name"), required=False, empty_label=_("Any campaign (or none)")
    )
    databases = forms.MultipleChoiceField(
        required=False, help_text=_("None chosen: every database."), widget=forms.CheckboxSelectMultiple
    )
    sources = forms.MultipleChoiceField(
        choices=ResponseSource.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[ResponseSource.EXPERT, ResponseSource.DRAFT],
        help_text=_("Only turns every chosen source answered are drawn, so the sources are rated on the same turns."),
    )
    model_name = forms.CharField(
        max_length=80, required=False, label=_("Model's name"), help_text=_("Shown to admins only.")
    )
    model_file = forms.FileField(
        required=False,
        label=_("Model file"),
        help_text=format_lazy(
            _("JSON lines or CSV of dialogue, turn, response (docs/human_rating.md); at most {size} bytes."),
            size=f"{MAX_BYTES:,}",
        ),
    )
    raters = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=format_lazy(
            _("Experts or reviewers; {count} as CoSQL had. Each rates every response."), count=DEFAULT_RATERS
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["databases"].choices = [
            (db_id, db_id) for db_id in Database.objects.order_by("db_id").values_list("db_id", flat=True)
        ]
        self.fields["raters"].queryset = User.objects.filter(
            role__in=RATER_ROLES, is_active=True, blocked=False
        ).order_by("username")
        self.fields["raters"].label_from_instance = lambda person: f"{person.username} ({person.role})"

    def clean(self):
        cleaned = super().clean()
        if ResponseSource.MODEL in (cleaned.get("sources") or []) and not cleaned.get("model_file"):
            self.add_error("model_file", _("The model's responses need a file."))
        return cleaned


class RatingForm(forms.Form):
    logic_correct = forms.TypedChoiceField(
        choices=[("1", _("1: correct")), ("0", _("0: not correct"))],
        coerce=int,
        widget=forms.RadioSelect,
        label=_("Logic correctness"),
    )
    grammar = forms.TypedChoiceField(
        choices=[(str(n), str(n)) for n in range(GRAMMAR_MIN, GRAMMAR_MAX + 1)],
        coerce=int,
        widget=forms.RadioSelect,
        label=_("Grammar"),
    )
