"""Forms of the review passes: the dashboard's filters and sort, and a rejection's reason."""

from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.models import Hardness
from review.models import RejectFault, RejectReason
from review.passes.queues import SORTS, queues
from review.records import ORIGIN_CHOICES

# The sorts' names as the dashboard shows them (review.passes.queues.SORTS holds their orderings).
SORT_LABELS = {
    "newest": _("Newest"),
    "oldest": _("Oldest"),
    "database": _("Database"),
    "expert": _("Expert"),
    "worker": _("Worker"),
    "hardness": _("Hardness"),
    "priority": _("Priority"),
}


class DashboardForm(forms.Form):
    """The review dashboard's filters and sort (every field optional)."""

    queue = forms.ChoiceField(required=False)
    database = forms.CharField(required=False, max_length=100)
    expert = forms.CharField(required=False, max_length=150)
    worker = forms.CharField(required=False, max_length=150)
    hardness = forms.ChoiceField(required=False, choices=[("", _("Any hardness")), *Hardness.choices])
    date_from = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    origin = forms.ChoiceField(choices=ORIGIN_CHOICES, required=False)
    sort = forms.ChoiceField(required=False, choices=[(key, SORT_LABELS.get(key, key.capitalize())) for key in SORTS])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["queue"].choices = [("", _("Every queue"))] + [(q.key, q.label) for q in queues()]

    def filters(self) -> dict:
        data = self.cleaned_data
        return {
            "queue": data.get("queue") or None,
            "db_id": data.get("database") or None,
            "expert": data.get("expert") or None,
            "worker": data.get("worker") or None,
            "hardness": data.get("hardness") or None,
            "date_from": data.get("date_from"),
            "date_to": data.get("date_to"),
            "origin": data.get("origin") or "all",
            "sort": data.get("sort") or "priority",
        }


class RejectForm(forms.Form):
    reason = forms.ChoiceField(choices=RejectReason.choices)
    fault = forms.ChoiceField(
        label=_("Whose work failed"),
        choices=[("", _("Choose…")), *[(value, label) for value, label in RejectFault.choices if value]],
    )
    note = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
