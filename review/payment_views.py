"""The payments page: per campaign, the completion codes and bonus files an admin uploads to the crowd platforms."""

from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify

from annotation.roles import role_required
from dialogs.models import Campaign, CrowdAssignment
from review import payments

# File name → what it holds (the layouts are documented in docs/crowd.md, "Payment files").
FILES = {
    "completions": "Completion codes and outcomes",
    "bonuses": "Bonus list (every worker)",
    "bonuses-prolific": "Prolific bulk bonus",
    "bonuses-mturk": "MTurk bonuses",
}


@role_required("payments.export")
def payment_home(request):
    """Every campaign with its crowd workers and the studies or HITs they came from, and its files."""
    campaigns = list(Campaign.objects.annotate(workers=Count("crowd_assignments__crowd_worker", distinct=True)))
    batches: dict[int, list[tuple[str, str]]] = {}
    for campaign_id, platform, batch_id in (
        CrowdAssignment.objects.values_list("campaign_id", "crowd_worker__platform", "batch_id")
        .distinct()
        .order_by("campaign_id", "crowd_worker__platform", "batch_id")
    ):
        batches.setdefault(campaign_id, []).append((platform, batch_id))
    rows = [(campaign, batches.get(campaign.pk, [])) for campaign in campaigns]
    return render(request, "review/payments.html", {"rows": rows, "files": FILES})


@role_required("payments.export")
def payment_file(request, campaign_id, name):
    """One payment file of a campaign as CSV; `?batch=` keeps one Prolific study or MTurk HIT (a platform pays a
    bonus within one study only)."""
    if name not in FILES:
        raise Http404("no such payment file")
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    batch = request.GET.get("batch", "")
    if name == "completions":
        rows = [row for row in payments.campaign_completions(campaign) if not batch or row.batch_id == batch]
        text = payments.completions_csv(rows)
    else:
        rows = [row for row in payments.campaign_bonuses(campaign) if not batch or row.batch_id == batch]
        if name == "bonuses":
            text = payments.bonus_list_csv(rows)
        elif name == "bonuses-prolific":
            text = payments.prolific_bonus_csv(rows)
        else:
            text = payments.mturk_bonus_csv(rows, campaign)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    suffix = f"-{batch}" if batch else ""
    filename = f"{slugify(campaign.name) or 'campaign'}-{name}{suffix}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
