"""The deal form (docs/dealing.md). Its rules are `dialogs.deals.services.deal_check`'s, whose messages land on these
fields; the form only asks."""

from django import forms
from django.utils.translation import gettext_lazy

from annotation.models import Database, Role, User
from dialogs.deals.models import WorkDeal
from dialogs.deals.services import COUNT_MAX, DEFAULT_MIN_QUESTIONS, MIN_QUESTIONS_CEILING, NAME_MAX_CHARS
from dialogs.models import Campaign


class DealForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_MAX_CHARS, help_text=gettext_lazy("Say what it is, e.g. “Week 48: solo sequences”.")
    )
    kind = forms.ChoiceField(choices=WorkDeal.Kind.choices, widget=forms.RadioSelect, initial=WorkDeal.Kind.SOLO)
    people = forms.ModelMultipleChoiceField(
        queryset=User.objects.filter(role=Role.EXPERT, is_active=True, blocked=False, simulated=False).order_by(
            "username"
        ),
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Experts"),
    )
    databases = forms.ModelMultipleChoiceField(
        queryset=Database.objects.filter(active=True).exclude(file="").order_by("db_id"),
        to_field_name="db_id",
        widget=forms.CheckboxSelectMultiple,
    )
    goals = forms.ChoiceField(
        choices=WorkDeal.Goals.choices,
        initial=WorkDeal.Goals.NONE,
        label=gettext_lazy("Solo sequences work towards"),
        help_text=gettext_lazy("Query-first work is always the databases' sampled goals waiting for a question."),
    )
    campaign = forms.ModelChoiceField(queryset=Campaign.objects.order_by("name"), required=False)
    count = forms.IntegerField(
        min_value=1,
        max_value=COUNT_MAX,
        initial=12,
        label=gettext_lazy("Items"),
        help_text=gettext_lazy("Sequences or questions in all."),
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text=gettext_lazy("Empty: one is drawn and kept with the deal."),
    )
    min_questions_low = forms.IntegerField(
        initial=DEFAULT_MIN_QUESTIONS[0],
        min_value=1,
        max_value=MIN_QUESTIONS_CEILING,
        label=gettext_lazy("Questions at least, from"),
    )
    min_questions_high = forms.IntegerField(
        initial=DEFAULT_MIN_QUESTIONS[1],
        min_value=1,
        max_value=MIN_QUESTIONS_CEILING,
        label=gettext_lazy("to"),
        help_text=gettext_lazy("Each solo sequence's minimum is drawn from this range (CHASE asked 3 to 5)."),
    )
    double = forms.BooleanField(
        required=False, label=gettext_lazy("Double annotation: each item to two different people (solo sequences only)")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["people"].label_from_instance = lambda person: person.username
