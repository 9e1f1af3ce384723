"""The onboarding's forms (docs/experts.md)."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from annotation.models import Goal
from dialogs.onboarding.guidelines import MAX_CHARS
from dialogs.onboarding.qualification import REASON_MAX_CHARS

_SAFE_SUBSET = (
    "Plain text, or the small Markdown the page shows: # headings, - lists, 1. lists, **bold**, *emphasis*, `code`, "
    "and ``` around a block of SQL. HTML is shown as written, never run."
)


class GuidelinesForm(forms.Form):
    act_guide = forms.CharField(
        label=gettext_lazy("The dialogue acts"),
        required=False,
        max_length=MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 12}),
    )
    response_guide = forms.CharField(
        label=gettext_lazy("Writing responses"),
        required=False,
        max_length=MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 10}),
    )
    sql_conventions = forms.CharField(
        label=gettext_lazy("SQL conventions"),
        required=False,
        max_length=MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_SAFE_SUBSET,
    )


class PracticeGoalForm(forms.Form):
    goal = forms.IntegerField(
        label=gettext_lazy("Goal number"),
        min_value=1,
        help_text=gettext_lazy("The goal's number on the goals page (one nobody collects on)."),
    )

    def clean_goal(self):
        goal = Goal.objects.filter(pk=self.cleaned_data["goal"]).select_related("database").first()
        if goal is None:
            raise forms.ValidationError(gettext("There is no goal with this number."))
        return goal


class PracticeRuleForm(forms.Form):
    """A campaign's own rule; both fields empty: the default (the settings)."""

    practice_dialogues = forms.IntegerField(
        label=gettext_lazy("Practice dialogues"), required=False, min_value=0, max_value=20
    )
    min_percent = forms.IntegerField(
        label=gettext_lazy("Equivalent answers (%)"), required=False, min_value=0, max_value=100
    )


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("qualify", gettext_lazy("Qualify")), ("withdraw", gettext_lazy("Withdraw the qualification"))]
    )
    reason = forms.CharField(
        label=gettext_lazy("Why"),
        max_length=REASON_MAX_CHARS,
        help_text=gettext_lazy("Kept with the decision, beside your name and the time."),
    )
