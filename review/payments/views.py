"""The payments page: per campaign, the completion codes and bonus files an admin uploads to the crowd platforms, the
bonuses owed with a way to record each file as paid, and the payouts recorded (docs/crowd.md)."""

import re

from django.conf import settings
from django.contrib import messages
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from annotation.people.roles import role_required
from dialogs.models import Campaign, CrowdAssignment, CrowdPlatform
from review.models import BonusPayout
from review.payments import services as payments

# File name → what it holds (the layouts are documented in docs/crowd.md, "Bonuses and the payment files").
FILES = {
    "completions": gettext_lazy("Completion codes and outcomes"),
    "bonuses": gettext_lazy("Bonus list (every worker)"),
    "bonuses-prolific": gettext_lazy("Prolific bulk bonus"),
    "bonuses-mturk": gettext_lazy("MTurk bonuses"),
}


@role_required("payments.export")
def payment_home(request):
    """Every campaign with its crowd workers and the studies or HITs they came from, and its files; with
    `?campaign=<id>`, that campaign's bonuses owed per study or HIT, each with its "mark paid" form; the payouts
    recorded. A POST records a bonus file as paid (`_payout_record`)."""
    if request.method == "POST":
        return _payout_record(request)
    campaigns = list(Campaign.objects.annotate(workers=Count("crowd_assignments__crowd_worker", distinct=True)))
    batches: dict[int, list[tuple[str, str]]] = {}
    for campaign_id, platform, batch_id in (
        CrowdAssignment.objects.values_list("campaign_id", "crowd_worker__platform", "batch_id")
        .distinct()
        .order_by("campaign_id", "crowd_worker__platform", "batch_id")
    ):
        batches.setdefault(campaign_id, []).append((platform, batch_id))
    rows = [(campaign, batches.get(campaign.pk, [])) for campaign in campaigns]
    chosen = next((campaign for campaign in campaigns if str(campaign.pk) == request.GET.get("campaign")), None)
    payouts = BonusPayout.objects.select_related("campaign", "paid_by").annotate(workers=Count("rows"))
    bonuses = payments.campaign_bonuses(chosen) if chosen else []
    return render(
        request,
        "review/payments.html",
        {
            "rows": rows,
            "files": FILES,
            "chosen": chosen,
            "owed": _owed_files(chosen, bonuses) if chosen else [],
            # Bonuses paid for dialogues that no longer earn one: listed for the admin to settle with the worker.
            "paid_in_error": [
                {"row": row, "dialogue": dialogue_id, "payout": payout_id}
                for row in bonuses
                for dialogue_id, payout_id in row.paid_in_error
            ],
            "payouts": payouts,
            "currency": settings.BONUS_CURRENCY,
        },
    )


def _owed_files(campaign: Campaign, bonuses: list[payments.BonusRow]) -> list[dict]:
    """The campaign's bonus files that hold something owed, one per platform and study or HIT (the unit a platform
    pays in: Prolific's bulk bonus is per study), each with its rows' digest for the download and the form."""
    by_batch: dict[tuple[str, str], list] = {}
    for row in bonuses:
        if row.amount:
            by_batch.setdefault((row.platform, row.batch_id), []).append(row)
    return [
        {
            "platform": platform,
            "platform_label": CrowdPlatform(platform).label,
            "file": f"bonuses-{platform}",
            "batch": batch_id,
            "workers": len(rows),
            "total": sum(row.amount for row in rows),
            "digest": payments.bonus_digest(campaign, platform, batch_id, rows),
            "rows": rows,
        }
        for (platform, batch_id), rows in sorted(by_batch.items())
    ]


def _payout_record(request):
    """Record a bonus file as paid (the payments page's form: campaign, platform, study or HIT, and the digest of the
    rows the page showed). The first post only shows what would be recorded, worker by worker, and asks to confirm (a
    payout has no undo); the confirmation records it. A second click, or a file whose rows changed since, records
    nothing and says why."""
    campaign = get_object_or_404(Campaign, pk=_int_or_404(request.POST.get("campaign")))
    platform = request.POST.get("platform", "")
    if platform not in CrowdPlatform.values:
        raise Http404("no such platform")
    if request.POST.get("confirm") != "yes":
        batch, digest = request.POST.get("batch", ""), request.POST.get("digest", "")
        files = _owed_files(campaign, payments.campaign_bonuses(campaign))
        owed = next((f for f in files if (f["platform"], f["batch"]) == (platform, batch)), None)
        if owed is None or owed["digest"] != digest:
            messages.error(
                request,
                gettext(
                    "The bonuses owed have changed since the page was shown (a review decided, or a payout was "
                    "recorded): nothing was recorded. Check the file again."
                ),
            )
            return redirect(f"{reverse('review:payments')}?campaign={campaign.pk}#owed")
        return render(
            request,
            "review/payment_confirm.html",
            {"campaign": campaign, "file": owed, "currency": settings.BONUS_CURRENCY},
        )
    try:
        payout = payments.bonus_payout_record(
            campaign=campaign,
            platform=platform,
            batch_id=request.POST.get("batch", ""),
            digest=request.POST.get("digest", ""),
            by=request.user,
        )
    except payments.PayoutRefused as refused:
        (messages.info if refused.code == "already" else messages.error)(request, refused.message)
    else:
        messages.success(
            request,
            gettext(
                "Payout %(number)s recorded: %(total)s %(currency)s to %(count)s worker(s). These bonuses are left "
                "out of the next files."
            )
            % {
                "number": payout.pk,
                "total": f"{payout.total:.2f}",
                "currency": settings.BONUS_CURRENCY,
                "count": payout.rows.count(),
            },
        )
    return redirect(f"{reverse('review:payments')}?campaign={campaign.pk}")


@role_required("payments.export")
def payment_file(request, campaign_id, name):
    """One payment file of a campaign as CSV; `?batch=` keeps one Prolific study or MTurk HIT (a platform pays a
    bonus within one study only). `?payout=<id>` gives a recorded payout's file exactly as it was paid. With
    `?digest=` (the payments page's links to the bonuses owed), a bonus file whose rows are no longer those the page
    showed is refused (409), so the file paid is the one the page records."""
    if name not in FILES:
        raise Http404("no such payment file")
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    batch = request.GET.get("batch", "")
    # The batch goes into the file name, so only one of the campaign's own: anything else, a quote or a line break
    # that would rewrite the header, is no file of this campaign.
    if batch and not CrowdAssignment.objects.filter(campaign=campaign, batch_id=batch).exists():
        raise Http404("no such study or HIT in this campaign")
    suffix = f"-{_file_name_part(batch)}" if batch else ""
    if "payout" in request.GET:
        payout = get_object_or_404(BonusPayout, pk=_int_or_404(request.GET["payout"]), campaign=campaign)
        if payout.file_name != name:
            raise Http404("that payout paid another file")
        text, suffix = payout.file_text, f"-payout-{payout.pk}"
    elif name == "completions":
        rows = [row for row in payments.campaign_completions(campaign) if not batch or row.batch_id == batch]
        text = payments.completions_csv(rows)
    else:
        rows = [row for row in payments.campaign_bonuses(campaign) if not batch or row.batch_id == batch]
        if name == "bonuses":
            text = payments.bonus_list_csv(rows)
        else:
            platform = name.removeprefix("bonuses-")
            if "digest" in request.GET:
                owed = payments.owed_rows(rows, platform=platform, batch_id=batch)
                if payments.bonus_digest(campaign, platform, batch, owed) != request.GET["digest"]:
                    return HttpResponse(
                        gettext(
                            "The bonuses owed have changed since the payments page was shown (a review decided, or a "
                            "payout was recorded). Reload the page before you download the file."
                        )
                        + "\n",
                        status=409,
                        content_type="text/plain; charset=utf-8",
                    )
            text = payments.bonus_file(campaign, platform, rows)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    filename = f"{slugify(campaign.name) or 'campaign'}-{name}{suffix}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _file_name_part(text: str) -> str:
    """`text` with nothing but ASCII letters, digits, `-` and `_`: safe inside a quoted Content-Disposition file name
    on every system. The crowd ids that make batches are of these already (dialogs.crowd); this keeps it so."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "batch"


def _int_or_404(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404("not an id")
