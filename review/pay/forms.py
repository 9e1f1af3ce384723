"""The pay pages' forms (docs/pay.md): a rule, and a period. The rules themselves are the services' and selectors';
the forms only ask."""

from datetime import date, timedelta

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from dialogs.models import Campaign
from review.pay.models import PayBasis, PayRole
from review.pay.selectors import PERIOD_MAX_DAYS, week_of
from review.pay.services import RATE_MAX


class PayRuleForm(forms.Form):
    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.order_by("name"),
        required=False,
        empty_label=_("Default (work of no campaign, and campaigns without a rule)"),
    )
    role = forms.ChoiceField(choices=PayRole.choices)
    basis = forms.ChoiceField(choices=PayBasis.choices, label=_("Paid"))
    rate = forms.DecimalField(min_value=0, max_value=RATE_MAX, decimal_places=2, max_digits=8)
    currency = forms.RegexField(regex=r"^[A-Za-z]{3}$", max_length=3, help_text=_("Three letters, e.g. GBP or USD."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["currency"].initial = settings.BONUS_CURRENCY


class PeriodForm(forms.Form):
    """A statement's period: from `start` to `end`, both days included; this week (Monday to Sunday) when not given."""

    start = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("To (included)"), widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end:
            if end < start:
                raise forms.ValidationError(_("The period ends before it starts."))
            if (end - start).days >= PERIOD_MAX_DAYS:
                raise forms.ValidationError(_("A statement covers %(days)s days at most.") % {"days": PERIOD_MAX_DAYS})
        return cleaned


def period_from(query) -> tuple[PeriodForm, date, date]:
    """The period a page's query asks for (`start`, `end`), or this week when it asks for none or for a wrong one (the
    form then carries the errors to show)."""
    this_week = week_of(timezone.localdate())
    if "start" not in query and "end" not in query:
        form = PeriodForm(initial={"start": this_week[0], "end": this_week[1]})
        return form, *this_week
    form = PeriodForm(query)
    if form.is_valid():
        return form, form.cleaned_data["start"], form.cleaned_data["end"]
    return form, *this_week


def period_shifted(start: date, end: date, weeks: int) -> tuple[date, date]:
    """The period of the same length `weeks` weeks later (earlier, when negative): the pages' week-by-week links."""
    return start + timedelta(weeks=weeks), end + timedelta(weeks=weeks)
