"""Pages of campaigns (for admins) and of the crowd platforms' way in and out (for workers): the join link that makes
a worker's account, and the return with a completion code to the platform. See docs/crowd.md."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.models import Hardness
from annotation.people.roles import open_view, role_required
from annotation.people.services import person_set_language
from config.language import explicit_language
from dialogs.crowd import campaigns
from dialogs.crowd import services as crowd
from dialogs.crowd.prolific import prolific_page
from dialogs.crowd.prolific_views import ProlificSettingsForm
from dialogs.crowd.services import PLATFORMS, CrowdJoinError
from dialogs.forms import CampaignForm, SimulationForm
from dialogs.models import Campaign, CrowdPlatform, SimulationRun
from dialogs.simulated.runs import SimulationRefused, simulation_start, simulation_status

# --- Admins: campaigns -------------------------------------------------------------------------------------------


@role_required("campaigns.manage")
def campaign_list(request):
    return render(request, "dialogs/campaign_list.html", {"rows": campaigns.campaign_progress_list()})


@role_required("campaigns.manage")
def campaign_edit(request, campaign_id=None):
    campaign = get_object_or_404(Campaign, pk=campaign_id) if campaign_id else None
    if campaign is not None:
        initial = CampaignForm.initial_for(campaign)
    else:
        initial = {"opens_at": timezone.now(), "bonus_min_questions": settings.DIALOGUE_BONUS_QUESTIONS}
    form = CampaignForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = campaigns.campaign_save(campaign=campaign, by=request.user, **form.service_kwargs())
        except ValidationError as exc:
            for name, errors in exc.message_dict.items():
                form.add_error(name if name in form.fields else None, errors)
        else:
            messages.success(request, _("Saved the campaign %(name)s.") % {"name": campaign.name})
            return redirect("dialogs:campaign_detail", campaign_id=campaign.pk)
    return render(request, "dialogs/campaign_form.html", {"form": form, "campaign": campaign})


@role_required("campaigns.manage")
def campaign_detail(request, campaign_id):
    return _campaign_page(request, campaign_id)


def _campaign_page(request, campaign_id, simulation_form: SimulationForm | None = None):
    """The campaign's page; `simulation_form` is a refused pilot request, shown with its errors (status 400)."""
    campaign = get_object_or_404(Campaign.objects.prefetch_related("databases"), pk=campaign_id)
    progress = campaigns.campaign_progress(campaign)
    base = request.build_absolute_uri(reverse("dialogs:crowd_join", args=[campaign.join_token]))
    links = []
    for platform, names in PLATFORMS.items():
        # Prolific fills {{%NAME%}} itself; an MTurk HIT adds its parameters to an ExternalQuestion's URL, or its
        # page builds them into the link (docs/crowd.md).
        if platform == CrowdPlatform.PROLIFIC:
            query = "&".join(f"{name}={{{{%{name}%}}}}" for name in (names.worker, names.batch, names.session))
        else:
            query = "&".join(f"{name}=…" for name in (names.worker, names.session, names.batch))
        links.append((platform.label, f"{base}?{query}"))
    collected_total = sum(progress.collected_hardness.values())
    mix_rows = [
        {
            "label": label,
            "pool": progress.pool_hardness.get(level, 0),
            "pool_percent": round(100 * progress.pool_hardness.get(level, 0) / progress.goals) if progress.goals else 0,
            "mix": campaign.hardness_mix.get(level),
            "collected": progress.collected_hardness.get(level, 0),
            "collected_percent": round(100 * progress.collected_hardness.get(level, 0) / collected_total)
            if collected_total
            else 0,
        }
        for level, label in Hardness.choices
    ]
    return render(
        request,
        "dialogs/campaign_detail.html",
        {
            "campaign": campaign,
            "progress": progress,
            "links": links,
            "mix_rows": mix_rows,
            "simulation_form": simulation_form or SimulationForm(),
            "simulations": [simulation_status(run) for run in campaign.simulations.all()[:5]],
            "model_groups": campaigns.campaign_model_groups(campaign),
            "prolific": prolific_page(campaign),
            "currency": settings.BONUS_CURRENCY,
            "prolific_form": ProlificSettingsForm(initial=ProlificSettingsForm.initial_for(campaign)),
        },
        status=400 if simulation_form else 200,
    )


@require_POST
@role_required("campaigns.manage")
def campaign_simulate(request, campaign_id):
    """Pilot the campaign with simulated workers (docs/simulated_worker.md), as a background job; the page then shows
    its progress. A refused request shows the campaign page again with the reason, the form as it was filled."""
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    form = SimulationForm(request.POST)
    if form.is_valid():
        try:
            simulation_start(
                campaign=campaign,
                requested_by=request.user,
                server_url=request.build_absolute_uri("/"),
                **form.cleaned_data,
            )
        except SimulationRefused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                _("Started a pilot with %(count)s simulated workers.") % {"count": form.cleaned_data["count"]},
            )
            return redirect("dialogs:campaign_detail", campaign_id=campaign.pk)
    return _campaign_page(request, campaign_id, simulation_form=form)


@role_required("campaigns.manage")
def simulation_status_json(request, simulation_id):
    """One pilot's progress as JSON, for the campaign page."""
    return JsonResponse(simulation_status(get_object_or_404(SimulationRun, pk=simulation_id)))


@require_POST
@role_required("campaigns.manage")
def campaign_new_link(request, campaign_id):
    """A new join link for the campaign: the old one stops working at once."""
    campaign = campaigns.campaign_join_token_renew(campaign=get_object_or_404(Campaign, pk=campaign_id))
    messages.success(request, _("The campaign has a new join link: put it in the study; the old one no longer works."))
    return redirect("dialogs:campaign_detail", campaign_id=campaign.pk)


# --- Crowd workers: in through the join link, out with the completion code -----------------------------------------

# The HTTP status of each refusal. The page itself is always the friendly one (templates/dialogs/crowd_refused.html).
REFUSAL_STATUS = {
    "unknown": 404,
    "no_ids": 400,
    "bad_ids": 400,
    "preview": 200,
    "closed": 403,
    "blocked": 403,
    "not_worker": 403,
    "session_taken": 409,
    "busy": 409,
    "too_many": 429,
}


def _refused(request, code: str, message: str, campaign: Campaign | None = None):
    return render(
        request,
        "dialogs/crowd_refused.html",
        {"code": code, "message": message, "campaign": campaign},
        status=REFUSAL_STATUS[code],
    )


@open_view("a crowd platform's join link: it makes the worker's account, so nobody is signed in yet")
def crowd_join(request, token):
    """A crowd worker arrives from Prolific or MTurk: sign them in to the account bound to their id (made now if new)
    and send them on: the tutorial first, then the lobby (or back to a dialogue under way)."""
    campaign = Campaign.objects.filter(join_token=token).first()
    if campaign is None:
        return _refused(request, "unknown", _("This link is not, or no longer, a way into a study."))
    try:
        ids = crowd.crowd_ids_read(request.GET)
        assignment = crowd.crowd_join(campaign=campaign, ids=ids, address=request.META.get("REMOTE_ADDR", ""))
    except CrowdJoinError as exc:
        return _refused(request, exc.code, exc.message, campaign)
    # Only the account the id is bound to, never one found by name: an id cannot open a staff account.
    login(request, assignment.crowd_worker.person, backend="django.contrib.auth.backends.ModelBackend")
    # A link carrying ?lang= (docs/i18n.md) gives the account its language, unless the person chose one already.
    language = explicit_language(request)
    if language:
        person_set_language(person=assignment.crowd_worker.person, language=language, only_if_unset=True)
    return redirect("dialogs:worker_home")


@open_view("a signed-in worker's way back to the platform with a code of their own; blocked workers too")
def crowd_return(request):
    """Send a worker back to their campaign's completion URL with one of their completion codes. Open to blocked
    workers: a dialogue scored below 3 blocks its worker, and its code still goes back to the platform (whose
    admin decides, from the completion-code file, what to pay)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    url = crowd.crowd_return_url(person=request.user, code=request.GET.get("code", ""))
    if url is None:
        return render(request, "dialogs/crowd_refused.html", {"code": "no_return", "message": ""}, status=404)
    return HttpResponseRedirect(url)
