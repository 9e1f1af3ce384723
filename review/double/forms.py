"""Forms of blind double annotation: the admin's draw, the second person's labels, an adjudicator's decision."""

from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.labels.acts import (
    CONTEXTUAL_PHENOMENA,
    PRAGMATICS,
    QUESTION_STYLES,
    SYSTEM_ACTS,
    THEMATIC_RELATIONS,
    USER_ACTS,
)
from annotation.labels.relations import CATEGORIES
from annotation.models import Database, Role, User
from dialogs.models import Campaign, DialogueMode
from review.double.models import FIELDS, DoubleSample


class LabellerField(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.username} ({obj.get_role_display().lower()})"


class DrawForm(forms.Form):
    labeller = LabellerField(
        queryset=User.objects.filter(is_active=True, blocked=False, role__in=[Role.EXPERT, Role.REVIEWER]).order_by(
            "username"
        ),
        label=_("Second labeller"),
        help_text=_("An expert or a reviewer; dialogues they worked on are never drawn for them."),
    )
    campaign = forms.ModelChoiceField(queryset=Campaign.objects.order_by("name"), required=False, empty_label=_("Any"))
    db_id = forms.ChoiceField(label=_("Database"), required=False)
    mode = forms.ChoiceField(choices=[("", _("Any")), *DialogueMode.choices], required=False)
    unit = forms.ChoiceField(choices=DoubleSample.Unit.choices, initial=DoubleSample.Unit.TURNS)
    size = forms.IntegerField(min_value=1, error_messages={"invalid": _("The size must be a whole number.")})
    # A text box, not a number box: a seed pasted from elsewhere that is not a number gets the server's message.
    seed = forms.IntegerField(
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
        error_messages={"invalid": _("The seed must be a whole number (the same seed draws the same sample).")},
        help_text=_("Any whole number: the same filters and seed draw the same sample again."),
    )
    note = forms.CharField(max_length=300, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["db_id"].choices = [
            ("", _("Any")),
            *((d, d) for d in Database.objects.values_list("db_id", flat=True)),
        ]


def _choices(names) -> list[tuple[str, str]]:
    return [(name, name) for name in names]


class LabelForm(forms.Form):
    """The second labels of one turn. The server checks them again by the vocabulary's rules (services._checked)."""

    user_acts = forms.MultipleChoiceField(choices=_choices(USER_ACTS), widget=forms.CheckboxSelectMultiple)
    system_acts = forms.MultipleChoiceField(
        choices=_choices(SYSTEM_ACTS), widget=forms.CheckboxSelectMultiple, required=False
    )
    query = forms.CharField(widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}), required=False)
    contextual_phenomena = forms.MultipleChoiceField(
        choices=_choices(CONTEXTUAL_PHENOMENA), widget=forms.CheckboxSelectMultiple, required=False
    )
    intent = forms.ChoiceField(choices=[("", _("None (not a follow-up)")), *_choices(CATEGORIES)], required=False)
    # SParC's thematic relations, asked of a follow-up question only (the page shows them when there is one).
    thematic_relations = forms.MultipleChoiceField(
        choices=list(THEMATIC_RELATIONS.items()), widget=forms.CheckboxSelectMultiple, required=False
    )
    pragmatics = forms.ChoiceField(
        choices=[("", _("Not labelled")), *((k, f"{k} ({v})") for k, v in PRAGMATICS.items())], required=False
    )
    question_style = forms.ChoiceField(
        choices=[("", _("Not labelled")), *((k, f"{k} ({v})") for k, v in QUESTION_STYLES.items())], required=False
    )
    schema_linking = forms.JSONField(required=False, widget=forms.HiddenInput)
    token = forms.CharField(widget=forms.HiddenInput)


class AdjudicateForm(forms.Form):
    field = forms.ChoiceField(choices=_choices(FIELDS))
    choice = forms.ChoiceField(choices=[("first", _("The first label")), ("second", _("The second label"))])
    note = forms.CharField(max_length=300, required=False)
