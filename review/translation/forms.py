"""Forms of translation projects (docs/translation.md)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from review.translation import source
from review.translation.models import LANGUAGES
from review.translation.services import SPLITS, people_who_translate


class ProjectForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    release = forms.ChoiceField(label=_("Imported release"))
    db_ids = forms.CharField(
        label=_("Databases"),
        required=False,
        help_text=_("Database ids separated by spaces or commas; empty: every database the release uses."),
    )
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGES)
    split = forms.ChoiceField(label=_("Split of the exported files"), choices=[(split, split) for split in SPLITS])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["release"].choices = [
            (
                release.key,
                _("%(file)s (%(format)s, %(count)d interactions on %(dbs)d databases)")
                % {
                    "file": release.file_name,
                    "format": release.format,
                    "count": release.interactions,
                    "dbs": len(release.db_ids),
                },
            )
            for release in source.imported_releases()
        ]

    def clean_db_ids(self):
        raw = self.cleaned_data["db_ids"].replace(",", " ")
        return [part for part in raw.split() if part]


class AssignForm(forms.Form):
    translators = forms.ModelMultipleChoiceField(
        label=_("Translators"), queryset=None, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["translators"].queryset = people_who_translate()
