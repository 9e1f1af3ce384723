"""Forms of the dialogs app."""

from django import forms

from annotation.models import Database, Goal


class SoloStartForm(forms.Form):
    """Start a solo sequence: a database, and optionally one of its goals to work towards."""

    database = forms.ModelChoiceField(queryset=Database.objects.order_by("db_id"), to_field_name="db_id")
    goal = forms.ModelChoiceField(
        queryset=Goal.objects.select_related("database").order_by("database__db_id", "id"),
        required=False,
        empty_label="No goal (free sequence, as CHASE-C)",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["goal"].label_from_instance = lambda goal: f"{goal.database.db_id}: {goal.question}"

    def clean(self):
        cleaned = super().clean()
        database, goal = cleaned.get("database"), cleaned.get("goal")
        if database and not database.has_file:
            self.add_error("database", "This database is registered by its schema only: there is nothing to query.")
        if database and goal and goal.database_id != database.pk:
            self.add_error("goal", "The goal belongs to another database.")
        return cleaned
