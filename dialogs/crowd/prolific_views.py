"""The campaign page's Prolific actions (dialogs.crowd.prolific; docs/crowd.md, "The Prolific API"): the study's
settings, publishing, pausing and resuming it, its submissions with approve and reject, and the bonuses paid. Each
action calls Prolific outside any transaction and comes back to the campaign's page with what happened, in words."""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from annotation.people.roles import role_required
from dialogs.crowd import prolific
from dialogs.crowd.prolific_api import ProlificError
from dialogs.models import Campaign, ProlificBonusPayment, ProlificStudy


class ProlificSettingsForm(forms.Form):
    """The study's settings kept on the campaign (`prolific.campaign_prolific_settings_save` checks them)."""

    countries = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Countries of residence"),
        help_text=gettext_lazy(
            "Prolific's choice ids, separated by commas: 1 is the United States (CoSQL's workers). Empty: any."
        ),
    )
    min_approval_rate = forms.IntegerField(
        required=False,
        label=gettext_lazy("Lowest approval rate (%)"),
        widget=forms.NumberInput(attrs={"min": 0, "max": 100}),
        help_text=gettext_lazy("CoSQL asked for 95. Empty: any."),
    )
    places = forms.IntegerField(label=gettext_lazy("Places"), widget=forms.NumberInput(attrs={"min": 1}))
    reward = forms.DecimalField(
        required=False,
        max_digits=7,
        decimal_places=2,
        label=gettext_lazy("Reward per participant"),
        help_text=gettext_lazy("Before any bonus."),
    )
    minutes = forms.IntegerField(label=gettext_lazy("Minutes a task takes"), widget=forms.NumberInput(attrs={"min": 1}))
    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}), label=gettext_lazy("Description for participants")
    )

    @classmethod
    def initial_for(cls, campaign: Campaign) -> dict:
        return {
            "countries": campaign.prolific_countries,
            "min_approval_rate": campaign.prolific_min_approval_rate,
            "places": campaign.prolific_places,
            "reward": campaign.prolific_reward,
            "minutes": campaign.prolific_minutes,
            "description": campaign.prolific_description,
        }


class RejectForm(forms.Form):
    category = forms.ChoiceField(
        choices=[("", gettext_lazy("Choose a reason"))] + list(prolific.REJECTION_CATEGORIES.items())
    )
    message = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "minlength": prolific.REJECTION_MESSAGE_MIN_CHARS}),
        help_text=format_lazy(
            gettext_lazy("Sent to the participant; at least {count} characters."),
            count=prolific.REJECTION_MESSAGE_MIN_CHARS,
        ),
    )


def _back(campaign_id: int):
    return redirect(f"{reverse('dialogs:campaign_detail', args=[campaign_id])}#prolific")


def _failed(request, error: ProlificError) -> None:
    messages.error(request, error.message)


@require_POST
@role_required("campaigns.manage")
def prolific_settings(request, campaign_id):
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    form = ProlificSettingsForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("The study's settings were not saved: %(errors)s")
            % {
                "errors": "; ".join(
                    f"{form.fields[name].label if name in form.fields else name}: {' '.join(errors)}"
                    for name, errors in form.errors.items()
                )
            },
        )
        return _back(campaign.pk)
    try:
        prolific.campaign_prolific_settings_save(campaign=campaign, by=request.user, **form.cleaned_data)
    except ValidationError as exc:
        messages.error(
            request, _("The study's settings were not saved: %(errors)s") % {"errors": " ".join(exc.messages)}
        )
    else:
        messages.success(request, _("Saved the study's settings: the next study made on Prolific takes them."))
    return _back(campaign.pk)


@require_POST
@role_required("campaigns.manage")
def prolific_publish(request, campaign_id):
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    join_link = request.build_absolute_uri(reverse("dialogs:crowd_join", args=[campaign.join_token]))
    try:
        study = prolific.prolific_study_publish(campaign=campaign, by=request.user, join_link=join_link)
    except ProlificError as error:
        _failed(request, error)
    else:
        messages.success(
            request,
            _("Published the study %(study)s on Prolific: it is %(status)s.")
            % {"study": study.study_id, "status": study.status.lower()},
        )
    return _back(campaign.pk)


def _study_action(request, study_pk, action, done: str):
    study = get_object_or_404(ProlificStudy.objects.select_related("campaign"), pk=study_pk)
    try:
        action(study=study, by=request.user)
    except ProlificError as error:
        _failed(request, error)
    else:
        messages.success(
            request, _("%(done)s It is %(status)s on Prolific.") % {"done": done, "status": study.status.lower()}
        )
    return _back(study.campaign_id)


@require_POST
@role_required("campaigns.manage")
def prolific_pause(request, study_pk):
    return _study_action(request, study_pk, prolific.prolific_study_pause, _("Paused the study."))


@require_POST
@role_required("campaigns.manage")
def prolific_resume(request, study_pk):
    return _study_action(request, study_pk, prolific.prolific_study_resume, _("Resumed the study."))


@require_POST
@role_required("campaigns.manage")
def prolific_refresh(request, study_pk):
    return _study_action(request, study_pk, prolific.prolific_study_refresh, _("Read the study's status."))


@role_required("campaigns.manage")
def prolific_submissions(request, study_pk):
    """The study's submissions, read from Prolific now, beside the dialogues each participant had."""
    study = get_object_or_404(ProlificStudy.objects.select_related("campaign"), pk=study_pk)
    rows, error = [], None
    try:
        rows = prolific.prolific_submissions(study=study, by=request.user)
    except ProlificError as failed:
        error = failed.message
    return render(
        request,
        "dialogs/prolific_submissions.html",
        {"study": study, "campaign": study.campaign, "rows": rows, "error": error, "reject_form": RejectForm()},
        status=200 if error is None else 502,
    )


@require_POST
@role_required("campaigns.manage")
def prolific_decide(request, study_pk, submission_id):
    study = get_object_or_404(ProlificStudy.objects.select_related("campaign"), pk=study_pk)
    approve = request.POST.get("decision") == "approve"
    try:
        status = prolific.prolific_submission_decide(
            study=study,
            submission_id=submission_id,
            approve=approve,
            by=request.user,
            category=request.POST.get("category", ""),
            message=request.POST.get("message", ""),
        )
    except ProlificError as error:
        _failed(request, error)
    else:
        said = (
            _("Approved submission %(submission)s: it is %(status)s.")
            if approve
            else _("Rejected submission %(submission)s: it is %(status)s.")
        )
        messages.success(request, said % {"submission": submission_id, "status": status.lower() or _("changed")})
    return redirect("dialogs:prolific_submissions", study_pk=study.pk)


@require_POST
@role_required("campaigns.manage")
def prolific_bonuses_pay(request, campaign_id):
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    try:
        payment = prolific.prolific_bonus_pay_start(
            campaign=campaign,
            study_id=request.POST.get("study", ""),
            digest=request.POST.get("digest", ""),
            by=request.user,
        )
    except ProlificError as error:
        _failed(request, error)
    else:
        messages.success(
            request,
            ngettext(
                "Paying %(total)s in bonuses to %(count)s participant on Prolific (payment %(payment)s): its progress "
                "is below.",
                "Paying %(total)s in bonuses to %(count)s participants on Prolific (payment %(payment)s): its progress "
                "is below.",
                len(payment.rows),
            )
            % {"total": f"{payment.total:.2f}", "count": len(payment.rows), "payment": payment.pk},
        )
    return _back(campaign.pk)


@role_required("campaigns.manage")
def prolific_payment_status(request, payment_id):
    return JsonResponse(prolific.prolific_bonus_status(get_object_or_404(ProlificBonusPayment, pk=payment_id)))


@require_POST
@role_required("campaigns.manage")
def prolific_payment_retry(request, payment_id):
    payment = get_object_or_404(ProlificBonusPayment, pk=payment_id)
    try:
        prolific.prolific_bonus_retry(payment=payment, by=request.user)
    except ProlificError as error:
        _failed(request, error)
    else:
        messages.info(
            request,
            _("Taking payment %(payment)s up again: Prolific's records are read first.") % {"payment": payment.pk},
        )
    return _back(payment.campaign_id)


@require_POST
@role_required("campaigns.manage")
def prolific_payment_cancel(request, payment_id):
    payment = get_object_or_404(ProlificBonusPayment, pk=payment_id)
    try:
        prolific.prolific_bonus_cancel(payment=payment, by=request.user)
    except ProlificError as error:
        _failed(request, error)
    else:
        messages.success(
            request,
            _("Cancelled payment %(payment)s: nothing was paid, and its bonuses are owed again.")
            % {"payment": payment.pk},
        )
    return _back(payment.campaign_id)
