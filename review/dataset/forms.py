"""Forms of the datasets: which dialogues (a selection), an export request, and the statistics' selection."""

from django import forms
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from annotation.models import Database
from annotation.sql.spider import LIMIT_MODES
from dialogs.models import Campaign
from review.dataset.evaluation_jobs import evaluation_tasks
from review.dataset.splits import SPLITS, SplitError, read_split_file
from review.models import DatasetFormat, EvaluationTask
from review.records import DEFAULT_STATUSES, ORIGIN_CHOICES, SELECTION_STATUSES

LIMIT_MODE_LABELS = {"one": "Always 1", "value": "Values"}


class SelectionForm(forms.Form):
    """Which dialogues: by status, database, creation date and origin."""

    statuses = forms.MultipleChoiceField(
        choices=SELECTION_STATUSES,
        initial=list(DEFAULT_STATUSES),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Default: approved in review (every pass and final validation)."),
    )
    databases = forms.MultipleChoiceField(choices=(), required=False, help_text=_("None selected: every database."))
    date_from = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    origin = forms.ChoiceField(choices=ORIGIN_CHOICES, initial="all")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        ids = Database.objects.order_by("db_id").values_list("db_id", flat=True)
        self.fields["databases"].choices = [(db_id, db_id) for db_id in ids]
        self.fields["databases"].widget.attrs["size"] = 6

    def selection(self) -> dict:
        data = self.cleaned_data
        return {
            "statuses": data["statuses"] or list(DEFAULT_STATUSES),
            "db_ids": data["databases"],
            "date_from": data["date_from"],
            "date_to": data["date_to"],
            "origin": data["origin"] or "all",
        }


class ExportForm(SelectionForm):
    formats = forms.MultipleChoiceField(
        choices=DatasetFormat.choices,
        initial=[DatasetFormat.COSQL, DatasetFormat.GOLD],
        widget=forms.CheckboxSelectMultiple,
    )
    seed = forms.IntegerField(initial=0, help_text=_("Seed of the 7:1:2 split by database (same seed, same split)."))
    split_file = forms.FileField(
        required=False, help_text=_("Or a split file: a JSON object db_id → train/dev/test, or lines 'db_id split'.")
    )
    limit_mode = forms.ChoiceField(
        choices=[("", gettext_lazy("Per format (CoSQL, CHASE: 1; SParC: values)"))]
        + [(mode, LIMIT_MODE_LABELS[mode]) for mode in LIMIT_MODES],
        required=False,
        label=_("LIMIT in `sql`"),
    )
    sql_errors = forms.ChoiceField(
        choices=[
            ("skip", gettext_lazy("Leave the turn out (and report it)")),
            ("keep", gettext_lazy("Keep the turn (and report it)")),
        ],
        initial="skip",
        label=_("Turns whose SQL no longer runs"),
    )

    cosql_solo = forms.BooleanField(
        required=False,
        label=_("Solo sequences in the CoSQL files too"),
        help_text=_("They always go into SParC and CHASE; CoSQL's acts and responses come from a real user otherwise."),
    )

    include_simulated = forms.BooleanField(
        required=False,
        label=_("Include simulated dialogues"),
        help_text=_("The simulated workers' pilot dialogues are left out of a release unless asked for."),
    )

    report = forms.BooleanField(
        required=False,
        initial=True,
        label=_("A report/ folder with the statistics"),
        help_text=gettext_lazy(
            "Every figure of the statistics page as SVG with its table (CSV) and statistics.json, for the "
            "dialogues the release holds."
        ),
    )

    field_order = ["formats", "statuses", "databases", "date_from", "date_to", "origin", "seed", "split_file"]

    def clean_split_file(self):
        upload = self.cleaned_data.get("split_file")
        if not upload:
            return None
        if upload.size > 1_000_000:
            raise forms.ValidationError(_("A split file is small: this one is over 1 MB."))
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "split"
            path.write_bytes(upload.read())
            try:
                return read_split_file(path, name=upload.name)
            except SplitError as exc:
                raise forms.ValidationError(str(exc)) from exc


class StatisticsForm(SelectionForm):
    seed = forms.IntegerField(required=False, help_text=_("Split by database with this seed to see the split rows."))


class EvaluationForm(forms.Form):
    """A prediction file to score on one export's release."""

    fmt = forms.ChoiceField(label=_("Format"), choices=())
    task = forms.ChoiceField(label=_("Task"), choices=(), initial=EvaluationTask.SQL, required=False)  # none said: SQL
    split = forms.ChoiceField(label=_("Split"), choices=[(split, split) for split in SPLITS], initial="dev")
    predictions = forms.FileField(
        label=_("Prediction file"),
        help_text=gettext_lazy(
            "SQL state tracking: one predicted SQL per line, an empty line after each interaction (the public "
            "evaluator's file). Response generation: one predicted response per line; user act prediction: one line "
            "of acts per user turn (names separated by spaces or commas); both in the order of the release's file for "
            "the task (CoSQL only)."
        ),
    )
    keep_distinct = forms.BooleanField(
        label=_("Keep DISTINCT when running"),
        required=False,
        help_text=_("The evaluator drops it by default (SQL only)."),
    )

    def __init__(self, *args, formats: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fmt"].choices = [(fmt, DatasetFormat(fmt).label) for fmt in formats]
        offered = {task for fmt in formats for task in evaluation_tasks(fmt)}
        self.fields["task"].choices = [(task, label) for task, label in EvaluationTask.choices if task in offered]

    def clean(self):
        cleaned = super().clean()
        if "task" in cleaned and not cleaned["task"]:
            cleaned["task"] = EvaluationTask.SQL
        fmt, task = cleaned.get("fmt"), cleaned.get("task")
        if fmt and task and task not in evaluation_tasks(fmt):
            self.add_error(
                "task",
                _("%(task)s is scored on CoSQL releases only, not on %(format)s.")
                % {"task": EvaluationTask(task).label, "format": fmt},
            )
        return cleaned


class ModelHelpForm(forms.Form):
    """Which dialogues the comparison of model help with its control group reads: one campaign's or every one's, with
    or without the simulated worker's."""

    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.order_by("name"), required=False, empty_label=_("Every campaign")
    )
    simulated = forms.BooleanField(required=False, label=_("Include the simulated worker's dialogues"))
