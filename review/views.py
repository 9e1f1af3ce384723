"""Pages of the review app: the review dashboard and screen, dataset exports (with progress and download) and
statistics."""

import json

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from annotation.acts import CONTEXTUAL_PHENOMENA, INTENT_CATEGORY_NAMES, SYSTEM_ACTS, USER_ACTS
from annotation.models import Role, User
from annotation.roles import can, role_required
from annotation.sql.relations import CATEGORY_OF, RELATION_NAMES
from annotation.sql.schema import describe_tables
from dialogs.models import Dialogue
from review import selectors
from review.dataset import figures, services
from review.forms import DashboardForm, ExportForm, RejectForm, StatisticsForm
from review.models import Export
from review.passes import queues
from review.passes import services as passes
from review.passes.agreement import review_agreement
from review.quality import services as quality

# --- Worker and expert quality -------------------------------------------------------------------------------------


@role_required("people.manage")
def worker_quality(request):
    """Crowd workers sortable by quality, each signal beside the score, with their block history; an admin blocks or
    unblocks from here (the form posts to the people app, which records it, and comes back)."""
    sort = request.GET.get("sort") if request.GET.get("sort") in selectors.WORKER_SORTS else "quality"
    page = selectors.worker_quality_page(sort=sort, page=request.GET.get("page", 1))
    return render(
        request,
        "review/worker_quality.html",
        {
            "page": page,
            "sort": sort,
            "sorts": [(key, label) for key, (label, _) in selectors.WORKER_SORTS.items()],
            "weights": quality.QUALITY_WEIGHTS,
            "rules": quality.rules_in_force(),
        },
    )


@role_required("people.manage")
def expert_quality(request):
    """Experts and what review changed in their dialogues (the change rates of review.agreement, per expert)."""
    return render(request, "review/expert_quality.html", {"rows": selectors.expert_quality_rows()})


@role_required("people.manage")
def expert_work(request, user_id):
    """One expert's reviewed work as an admin reads it: the expert's own page, with the reviewers' names."""
    expert = get_object_or_404(User, pk=user_id, role=Role.EXPERT)
    return _expert_work(request, expert, own=False)


@role_required("review.own_work")
def expert_own_work(request):
    """The signed-in expert's reviewed work: their figures and what each pass changed in their dialogues, and why.
    Reviewers stay anonymous to the expert: a correction names its pass, never its reviewer."""
    return _expert_work(request, request.user, own=True)


def _expert_work(request, expert, *, own: bool):
    page = selectors.expert_work_page(expert, page=request.GET.get("page", 1), reviewer_names=not own)
    return render(
        request,
        "review/expert_work.html",
        {"expert": expert, "own": own, "row": selectors.expert_quality_row(expert), "page": page},
    )


# --- Review passes ---------------------------------------------------------------------------------------------------


@role_required("review.work")
def home(request):
    """The dashboard: each queue's count, the filtered list, and the next dialogue to take."""
    passes.review_sync()
    form = DashboardForm(request.GET or None)
    filters = form.filters() if form.is_valid() else DashboardForm().initial | {"origin": "all", "sort": "priority"}
    try:
        number = int(request.GET.get("page", 1))
    except ValueError:
        number = 1
    page = queues.dashboard_list(**filters, page=max(1, min(number, 10**6)))
    counts = queues.queue_counts()
    labels = {queue.key: queue.label for queue in queues.queues()}
    for item in page:
        item.queue_label = labels.get(item.queue, item.queue)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "review/home.html",
        {
            "form": form,
            "page": page,
            "queues": [(queue, counts[queue.key]) for queue in queues.queues()],
            "selected_queue": request.GET.get("queue", ""),
            "query": query.urlencode(),
            "pass_numbers": list(range(1, settings.REVIEW_PASSES + 1)),
            "agreement_url": reverse("review:agreement"),
            "can_manage": can(request.user, "review.manage"),
        },
    )


@role_required("review.work")
def agreement(request):
    """The agreement and quality figures (computed once per change of the review, then cached)."""
    return JsonResponse(review_agreement())


def _review_error(request, error: passes.ReviewError, dialogue_id: int):
    if request.content_type == "application/json" or request.headers.get("Accept") == "application/json":
        return JsonResponse({"error": error.code, "message": error.message}, status=409)
    messages.error(request, error.message)
    return redirect("review:dialogue", dialogue_id=dialogue_id)


@require_POST
@role_required("review.work")
def claim_next(request):
    try:
        number = int(request.POST.get("pass") or 0) or None
    except ValueError:
        number = None
    review = passes.review_claim_next(reviewer=request.user, review_pass=number)
    if review is None:
        messages.info(request, "Nothing is waiting for you" + (f" in pass {number}." if number else "."))
        return redirect("review:home")
    return redirect("review:dialogue", dialogue_id=review.dialogue_id)


@role_required("review.work")
def dialogue(request, dialogue_id):
    """The review screen of one dialogue: readable by every reviewer, editable by the one holding the claim."""
    item = get_object_or_404(Dialogue.objects.select_related("database", "goal", "expert", "worker"), pk=dialogue_id)
    screen = queues.review_screen(item)
    review = screen["review"]
    live = passes.claim_live(review)
    holding = live and review.claimed_by_id == request.user.pk
    refusal = passes.review_may_take(review, request.user) if review else "This dialogue is not in review."
    return render(
        request,
        "review/dialogue.html",
        {
            "dialogue": item,
            **screen,
            "holding": holding,
            "refusal": refusal,
            "held_by_other": live and not holding,
            "reject_form": RejectForm(),
            "pass_count": settings.REVIEW_PASSES,
            "can_manage": can(request.user, "review.manage"),
            "tables": describe_tables(item.database.schema),
            "config": {
                "holding": holding,
                "correct_url": reverse("review:correct", args=[item.pk]),
                "renew_url": reverse("review:renew", args=[item.pk]),
                "renew_seconds": max(10, settings.REVIEW_CLAIM_SECONDS // 3),
                "validate_url": reverse("annotation:sql_validate", args=[item.database.db_id]),
                "run_url": reverse("annotation:sql_run", args=[item.database.db_id]),
                "user_acts": list(USER_ACTS),
                "system_acts": list(SYSTEM_ACTS),
                "phenomena": list(CONTEXTUAL_PHENOMENA),
                "categories": INTENT_CATEGORY_NAMES,
                "relations": {name: [title, CATEGORY_OF[name]] for name, title in RELATION_NAMES.items()},
            },
        },
    )


@require_POST
@role_required("review.work")
def claim(request, dialogue_id):
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    try:
        passes.review_claim(reviewer=request.user, dialogue=item)
    except passes.ReviewError as error:
        return _review_error(request, error, dialogue_id)
    return redirect("review:dialogue", dialogue_id=dialogue_id)


@require_POST
@role_required("review.work")
def renew(request, dialogue_id):
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    try:
        review = passes.review_renew(reviewer=request.user, dialogue=item)
    except passes.ReviewError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=409)
    return JsonResponse({"ok": True, "expires_at": review.claim_expires_at.isoformat()})


@require_POST
@role_required("review.work")
def release(request, dialogue_id):
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    try:
        passes.review_release(person=request.user, dialogue=item)
    except passes.ReviewError as error:
        return _review_error(request, error, dialogue_id)
    messages.success(request, f"Dialogue {dialogue_id} is back in its queue.")
    return redirect("review:home")


@require_POST
@role_required("review.work")
def correct(request, dialogue_id):
    """One correction, sent as JSON {turn, field, value, reason} by the review screen."""
    item = get_object_or_404(Dialogue.objects.select_related("database"), pk=dialogue_id)
    try:
        body = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("turn"), int) or "field" not in body:
        return JsonResponse({"error": "invalid", "message": "Send JSON with 'turn', 'field' and 'value'."}, status=400)
    try:
        event = passes.review_correct(
            reviewer=request.user,
            dialogue=item,
            turn=body["turn"],
            field=str(body["field"]),
            value=body.get("value"),
            reason=str(body.get("reason") or ""),
        )
    except passes.ReviewError as error:
        status = 400 if error.code in ("invalid", "labels", "too_long", "sql", "unchanged") else 409
        return JsonResponse({"error": error.code, "message": error.message}, status=status)
    return JsonResponse({"ok": True, "seq": event.seq})


@require_POST
@role_required("review.work")
def decide(request, dialogue_id):
    item = get_object_or_404(Dialogue.objects.select_related("database"), pk=dialogue_id)
    approve = request.POST.get("decision") == "approve"
    form = RejectForm(request.POST)
    reason = form.data.get("reason", "") if not approve else ""
    try:
        review = passes.review_decide(
            reviewer=request.user, dialogue=item, approve=approve, reason=reason, note=form.data.get("note", "")
        )
    except passes.ReviewError as error:
        return _review_error(request, error, dialogue_id)
    if review.stage == "failed_validation":
        messages.error(request, f"Dialogue {dialogue_id} failed final validation: fix the turns listed below.")
        return redirect("review:dialogue", dialogue_id=dialogue_id)
    verdict = {"approved": "approved", "rejected": "rejected", "pending": f"sent on to pass {review.pass_number}"}
    messages.success(request, f"Dialogue {dialogue_id} {verdict.get(review.stage, review.stage)}.")
    return redirect("review:home")


@require_POST
@role_required("review.manage")
def reopen(request, dialogue_id):
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    try:
        passes.review_reopen(admin=request.user, dialogue=item, note=request.POST.get("note", ""))
    except passes.ReviewError as error:
        return _review_error(request, error, dialogue_id)
    messages.success(request, f"Dialogue {dialogue_id} is reopened.")
    return redirect("review:dialogue", dialogue_id=dialogue_id)


# --- Datasets --------------------------------------------------------------------------------------------------------


@role_required("dataset.export")
def datasets(request):
    """The export form and the list of exports."""
    form = ExportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            export = services.dataset_export_create(
                requested_by=request.user,
                formats=data["formats"],
                seed=data["seed"],
                split_map=data["split_file"],
                limit_mode=data["limit_mode"] or None,
                sql_errors=data["sql_errors"],
                cosql_solo=data["cosql_solo"],
                **form.selection(),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("review:export_detail", export_id=export.pk)
    exports = list(selectors.export_list()[:50])
    return render(
        request,
        "review/datasets.html",
        {"form": form, "exports": [(export, selectors.export_status(export)) for export in exports]},
    )


@role_required("dataset.export")
def export_detail(request, export_id):
    export = get_object_or_404(Export, pk=export_id)
    status = selectors.export_status(export)
    return render(
        request,
        "review/export_detail.html",
        {
            "export": export,
            "status": status,
            "report": export.report or {},
            "download_url": reverse("review:export_download", args=[export.pk]),
            "status_config": {
                "status_url": reverse("review:export_status", args=[export.pk]),
                "finished": export.state in (Export.State.SUCCEEDED, Export.State.FAILED),
            },
        },
    )


@role_required("dataset.export")
def export_status(request, export_id):
    """Polled by the progress bar."""
    export = get_object_or_404(Export, pk=export_id)
    return JsonResponse(selectors.export_status(export))


@role_required("dataset.export")
def export_download(request, export_id):
    export = get_object_or_404(Export, pk=export_id)
    path = selectors.export_file_path(export)
    if path is None:
        raise Http404("This export has no finished file (yet).")
    name = f"wozsql-export-{export.pk}-{'-'.join(export.formats)}.zip"
    return FileResponse(open(path, "rb"), as_attachment=True, filename=name, content_type="application/zip")


@require_POST
@role_required("dataset.export")
def export_retry(request, export_id):
    export = get_object_or_404(Export, pk=export_id)
    try:
        services.dataset_export_retry(export=export)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Export {export.pk} is queued again.")
    return redirect("review:export_detail", export_id=export.pk)


def _statistics_from(request):
    form = StatisticsForm(request.GET or None)
    if request.GET and not form.is_valid():
        return form, None
    selection = form.selection() if request.GET else _form_defaults()
    seed = form.cleaned_data.get("seed") if request.GET else None
    return form, selectors.statistics_for(seed=seed, **selection)


def _form_defaults() -> dict:
    return {
        "statuses": list(selectors.DEFAULT_STATUSES),
        "db_ids": [],
        "date_from": None,
        "date_to": None,
        "origin": "all",
    }


@role_required("dataset.export")
def statistics(request):
    form, stats = _statistics_from(request)
    query = request.GET.urlencode()
    return render(
        request,
        "review/statistics.html",
        {
            "form": form,
            "stats": stats,
            "query": query,
            "figures": [
                {
                    "name": name,
                    "title": title,
                    "url": reverse("review:statistics_figure", args=[name, "svg"]) + (f"?{query}" if query else ""),
                    "pdf": reverse("review:statistics_figure", args=[name, "pdf"]) + (f"?{query}" if query else ""),
                }
                for name, title in figures.FIGURES.items()
            ],
        },
    )


@role_required("dataset.export")
def statistics_json(request):
    form, stats = _statistics_from(request)
    if stats is None:
        return JsonResponse({"errors": form.errors}, status=400)
    response = HttpResponse(json.dumps(stats, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="statistics.json"'
    return response


@role_required("dataset.export")
def statistics_figure(request, name, fmt):
    if name not in figures.FIGURES or fmt not in figures.FORMATS:
        raise Http404("no such figure")
    form, stats = _statistics_from(request)
    if stats is None:
        return JsonResponse({"errors": form.errors}, status=400)
    response = HttpResponse(figures.render(name, stats, fmt), content_type=figures.FORMATS[fmt])
    if fmt != "svg" or request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
