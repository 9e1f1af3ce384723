"""Forms of the dialogs app."""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.models import Database, Goal


class SoloStartForm(forms.Form):
    """Start a solo sequence: a database, and optionally one of its goals to work towards."""

    database = forms.ModelChoiceField(queryset=Database.objects.order_by("db_id"), to_field_name="db_id")
    goal = forms.ModelChoiceField(
        queryset=Goal.objects.select_related("database").order_by("database__db_id", "id"),
        required=False,
        empty_label=_("No goal (free sequence, as CHASE-C)"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["goal"].label_from_instance = lambda goal: f"{goal.database.db_id}: {goal.question}"

    def clean(self):
        cleaned = super().clean()
        database, goal = cleaned.get("database"), cleaned.get("goal")
        if database and not database.has_file:
            self.add_error(
                "database", gettext("This database is registered by its schema only: there is nothing to query.")
            )
        if database and goal and goal.database_id != database.pk:
            self.add_error("goal", gettext("The goal belongs to another database."))
        return cleaned


class CampaignForm(forms.Form):
    """A campaign's settings as the admin page edits them; the rules are checked by
    `dialogs.crowd.campaigns.campaign_check`, whose messages land on these fields."""

    name = forms.CharField(max_length=120)
    databases = forms.ModelMultipleChoiceField(
        queryset=Database.objects.filter(active=True).order_by("db_id"), widget=forms.CheckboxSelectMultiple
    )
    goals = forms.ModelMultipleChoiceField(
        queryset=Goal.objects.filter(active=True).select_related("database").order_by("database__db_id", "id"),
        required=False,
        widget=forms.SelectMultiple(attrs={"size": 10}),
        help_text=_("Leave empty for every active goal of the chosen databases."),
    )
    target_per_goal = forms.IntegerField(min_value=1, initial=1, label=_("Dialogues per goal"))
    mix_easy = forms.IntegerField(min_value=0, max_value=100, required=False, label=_("Easy %"))
    mix_medium = forms.IntegerField(min_value=0, max_value=100, required=False, label=_("Medium %"))
    mix_hard = forms.IntegerField(min_value=0, max_value=100, required=False, label=_("Hard %"))
    mix_extra = forms.IntegerField(min_value=0, max_value=100, required=False, label=_("Extra hard %"))
    opens_at = forms.DateTimeField(
        label=_("Opens (UTC)"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    )
    closes_at = forms.DateTimeField(
        label=_("Closes (UTC)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Leave empty to keep it open until you set a date."),
    )
    completion_url = forms.CharField(
        max_length=500,
        required=False,
        label=_("Completion URL"),
        help_text=_(
            "Where a crowd worker goes at the end; {code} becomes their completion code, e.g. "
            "https://app.prolific.com/submissions/complete?cc={code}"
        ),
    )
    bonus_min_questions = forms.IntegerField(min_value=1, label=_("Good questions for the bonus"))
    bonus_amount = forms.DecimalField(min_value=0, max_digits=7, decimal_places=2, initial=0, label=_("Bonus amount"))
    bonus_reason = forms.CharField(max_length=255, required=False, label=_("Bonus reason (shown to the worker)"))
    bonus_after_review = forms.BooleanField(required=False, label=_("Only dialogues approved in review earn it"))
    # No min/max of the form's own: `campaign_check` says what the share may be, and its message lands here.
    model_holdback_percent = forms.IntegerField(
        required=False,
        label=_("Control group: percent of dialogues without model help"),
        widget=forms.NumberInput(attrs={"min": 0, "max": 100, "step": 1}),
        help_text=_(
            "When a model is configured, this share of the campaign's dialogues is paired without model help, "
            "so that the statistics can compare the two groups. It is drawn at pairing, in blocks of ten dialogues "
            "that each hold back exactly this share; a dialogue keeps what it drew. Empty or 0: every dialogue is "
            "helped."
        ),
    )

    MIX_FIELDS = {"mix_easy": "easy", "mix_medium": "medium", "mix_hard": "hard", "mix_extra": "extra"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["goals"].label_from_instance = lambda goal: (
            f"{goal.database.db_id} · {goal.hardness}: {goal.question}"
        )

    @classmethod
    def initial_for(cls, campaign) -> dict:
        """The form's values for an existing campaign."""
        initial = {
            name: getattr(campaign, name)
            for name in cls.base_fields
            if name not in cls.MIX_FIELDS and name not in ("databases", "goals")
        }
        initial["databases"] = list(campaign.databases.all())
        initial["goals"] = list(campaign.goals.all())
        for name, level in cls.MIX_FIELDS.items():
            initial[name] = campaign.hardness_mix.get(level)
        return initial

    def service_kwargs(self) -> dict:
        """The cleaned values as `campaign_save` takes them (the mix as level → percent, empty levels left out)."""
        data = dict(self.cleaned_data)
        mix = {level: data.pop(name) for name, level in self.MIX_FIELDS.items()}
        data["hardness_mix"] = {level: share for level, share in mix.items() if share is not None}
        data["databases"] = list(data["databases"])
        data["goals"] = list(data["goals"])
        if data.get("model_holdback_percent") is None:
            data["model_holdback_percent"] = 0
        return data


class SuperviseForm(forms.Form):
    """A supervisor's act on a room: what to do, and why (the worker and the expert are shown the reason). The reason's
    rules are the log's (`dialogs.room.dialogue_supervise_end`); the form only asks for it."""

    ACTIONS = {"end": _("End the room"), "requeue": _("Send the worker back to the queue")}

    action = forms.ChoiceField(choices=list(ACTIONS.items()), widget=forms.RadioSelect, initial="end")
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("The worker and the expert are shown this reason, and the room's log keeps it with your name."),
    )


class QueryFirstWriteForm(forms.Form):
    """Phase 1 of query-first annotation: the question, and what adapting a filter or skipping needs. Every button
    posts the whole form, so a question typed before adapting or drafting is never lost."""

    question = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Your question"))
    step = forms.ChoiceField(required=False, label=_("Filter"))
    op = forms.ChoiceField(required=False, label=_("Operator"))
    value = forms.CharField(required=False, max_length=60, label=_("Value"))
    reason = forms.CharField(required=False, max_length=500, label=_("Why skip it?"))

    def __init__(self, *args, filters: list[tuple[str, str]], ops: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["step"].choices = filters
        self.fields["op"].choices = [(op, op) for op in ops]


class SimulationForm(forms.Form):
    """A pilot of a campaign by simulated workers, as the campaign page starts it (docs/simulated_worker.md)."""

    count = forms.IntegerField(min_value=1, max_value=10, initial=2, label=_("Simulated workers"))
    expert = forms.ChoiceField(
        choices=[("scripted", _("A scripted expert answers")), ("human", _("Experts at the desk answer"))],
        initial="scripted",
        label=_("Who answers"),
    )
    follow_suggestions = forms.FloatField(
        min_value=0,
        max_value=1,
        initial=0.5,
        label=_("Suggestions followed"),
        help_text=_("The share of the platform's suggestions a simulated worker asks next (0 to 1)."),
    )
