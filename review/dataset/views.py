"""Pages of the datasets: the export form and list, an export's progress and download, the statistics with their
figures, and prediction files scored on an export's release."""

import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from annotation.model_client import model_configured
from annotation.people.roles import role_required
from review.dataset import evaluation_jobs, figures, selectors, services
from review.dataset.evaluation import METRIC_TITLES as EVALUATION_METRIC_TITLES
from review.dataset.evaluation import report_worded
from review.dataset.forms import EvaluationForm, ExportForm, ModelHelpForm, StatisticsForm
from review.models import Evaluation, Export
from review.records import DEFAULT_STATUSES


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
                include_simulated=data["include_simulated"],
                report=data["report"],
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
                "finished": export.finished,
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
        messages.success(request, gettext("Export %(number)s is queued again.") % {"number": export.pk})
    return redirect("review:export_detail", export_id=export.pk)


def _statistics_from(request):
    """The selection's form and statistics; without a selection, the default one. `download` (a figure's link that
    saves the file instead of showing it) says how to answer, not what to select: a link from the page as first
    loaded carries only that one, and it must still get the default selection."""
    params = request.GET.copy()
    params.pop("download", None)
    form = StatisticsForm(params or None)
    if params and not form.is_valid():
        return form, None
    selection = form.selection() if params else _form_defaults()
    seed = form.cleaned_data.get("seed") if params else None
    return form, selectors.statistics_for(seed=seed, **selection)


def _form_defaults() -> dict:
    return {
        "statuses": list(DEFAULT_STATUSES),
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


def _model_help_from(request):
    """The comparison's form and result (None when the form is refused: the page says why)."""
    params = request.GET.copy()
    params.pop("download", None)
    form = ModelHelpForm(params or None)
    if params and not form.is_valid():
        return form, None
    data = form.cleaned_data if params else {}
    campaign = data.get("campaign")
    return form, selectors.model_help_comparison(
        campaign_id=campaign.pk if campaign else None, include_simulated=bool(data.get("simulated"))
    )


@role_required("dataset.export")
def model_help(request):
    """The dialogues model help was given to against the control group (review.dataset.model_help)."""
    form, comparison = _model_help_from(request)
    query = request.GET.urlencode()
    return render(
        request,
        "review/model_help.html",
        {
            "form": form,
            "comparison": comparison,
            "distributions": [
                {
                    "name": name,
                    "title": title,
                    "test": comparison[name]["test"],
                    "rows": [
                        (label, n, comparison[name]["control"][label])
                        for label, n in comparison[name]["helped"].items()
                        if n or comparison[name]["control"][label]
                    ],
                }
                for name, title in (
                    ("user_acts", "User acts"),
                    ("system_acts", "System acts"),
                    ("intents", "Intent categories (CHASE)"),
                )
            ]
            if comparison
            else [],
            "model_configured": model_configured(),
            "query": query,
            "figures": [
                {
                    "name": name,
                    "title": title,
                    "url": reverse("review:model_help_figure", args=[name, "svg"]) + (f"?{query}" if query else ""),
                    "pdf": reverse("review:model_help_figure", args=[name, "pdf"]) + (f"?{query}" if query else ""),
                }
                for name, title in figures.MODEL_HELP_FIGURES.items()
            ],
        },
    )


@role_required("dataset.export")
def model_help_figure(request, name, fmt):
    if name not in figures.MODEL_HELP_FIGURES or fmt not in figures.FORMATS:
        raise Http404("no such figure")
    form, comparison = _model_help_from(request)
    if comparison is None:
        return JsonResponse({"errors": form.errors}, status=400)
    with figures.words_for(fmt):
        body = figures.render_figure(figures.draw_model_help(name, comparison), fmt)
    response = HttpResponse(body, content_type=figures.FORMATS[fmt])
    if fmt != "svg" or request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="model-help-{name}.{fmt}"'
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


# --------------------------------------------------------------------------------------------------------------------
# Evaluations: a prediction file scored on an export's release
# --------------------------------------------------------------------------------------------------------------------


@role_required("dataset.export")
def evaluations(request, export_id):
    """Upload a prediction file for an export's release, and the evaluations already made on it."""
    export = get_object_or_404(Export, pk=export_id)
    formats = evaluation_jobs.evaluation_formats(export)
    form = EvaluationForm(request.POST or None, request.FILES or None, formats=formats)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["predictions"]
        try:
            evaluation = evaluation_jobs.evaluation_create(
                export=export,
                requested_by=request.user,
                fmt=form.cleaned_data["fmt"],
                task=form.cleaned_data["task"],
                split=form.cleaned_data["split"],
                predictions_name=upload.name,
                predictions=upload.read(evaluation_jobs.MAX_UPLOAD_BYTES + 1),
                keep_distinct=form.cleaned_data["keep_distinct"],
            )
        except ValidationError as exc:
            form.add_error("predictions", exc)
        else:
            return redirect("review:evaluation_detail", evaluation_id=evaluation.pk)
    return render(
        request,
        "review/evaluations.html",
        {
            "export": export,
            "form": form,
            "formats": formats,
            "ready": selectors.export_file_path(export) is not None,
            "evaluations": selectors.evaluation_list(export),
        },
    )


@role_required("dataset.export")
def evaluation_detail(request, evaluation_id):
    """One evaluation: its progress, then the scores overall and by stratum, with a chart for each stratum."""
    evaluation = get_object_or_404(Evaluation.objects.select_related("export"), pk=evaluation_id)
    report = report_worded(evaluation.report or {})
    return render(
        request,
        "review/evaluation_detail.html",
        {
            "evaluation": evaluation,
            "report": report,
            "metrics": EVALUATION_METRIC_TITLES,
            "task": report.get("task", evaluation.task),
            "overall": [report["question"], report["interaction"]] if report.get("question") else [],
            "strata": [
                {**stratum, "figure": reverse("review:evaluation_figure", args=[evaluation.pk, stratum["name"], "svg"])}
                for stratum in report.get("strata", [])
            ],
            "status_config": {
                "status_url": reverse("review:evaluation_status", args=[evaluation.pk]),
                "finished": evaluation.finished,
            },
        },
    )


@role_required("dataset.export")
def evaluation_status(request, evaluation_id):
    """Polled by the progress bar."""
    return JsonResponse(selectors.evaluation_status(get_object_or_404(Evaluation, pk=evaluation_id)))


@role_required("dataset.export")
def evaluation_figure(request, evaluation_id, stratum, fmt):
    evaluation = get_object_or_404(Evaluation, pk=evaluation_id)
    found = next((s for s in (evaluation.report or {}).get("strata", []) if s["name"] == stratum), None)
    if found is None or fmt not in figures.FORMATS:
        raise Http404("no such figure")
    with figures.words_for(fmt):
        found = next(s for s in report_worded({"strata": [found]})["strata"])
        figure = figures.draw_scores(
            f"{found['title']}: {evaluation.fmt} {evaluation.split}",
            found["rows"],
            {metric: str(title) for metric, title in EVALUATION_METRIC_TITLES.items()},
        )
        body = figures.render_figure(figure, fmt)
    response = HttpResponse(body, content_type=figures.FORMATS[fmt])
    if fmt != "svg":
        response["Content-Disposition"] = f'attachment; filename="evaluation-{evaluation.pk}-{stratum}.{fmt}"'
    return response
