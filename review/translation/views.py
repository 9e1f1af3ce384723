"""The pages of translation projects (docs/translation.md), under /review/translation/.

- `/review/translation/`: the projects a person sees; admins make one from an imported release.
- `/review/translation/<id>/`: progress per database and per person; admins assign translators and export.
- `/review/translation/databases/<id>/`: a database's names and values, translated once (assigned people, admins).
- `/review/translation/interactions/<id>/`: one interaction in whole, its SQL as it reads on the translated
  schema; its questions translated (assigned people), reviewed (reviewers).
- `/review/translation/exports/<id>/`: an export's progress, its gold check and its zip.
- `/review/translation/builds/<id>/`: a project being made (a background job), until it is made.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from annotation.model_client import ModelError, model_configured
from annotation.people.roles import can, role_required
from annotation.sql.translate import rewrite_sql, translated_schema
from review.translation import selectors, services
from review.translation.export import exports_dir
from review.translation.forms import AssignForm, ProjectForm
from review.translation.maps import maps_of
from review.translation.models import (
    ProjectDatabase,
    TranslationExport,
    TranslationInteraction,
    TranslationProject,
    TranslationProjectBuild,
    TranslationUnit,
    corrected_sql,
)

UNITS_PER_PAGE = 100


def _refusal(error: ValidationError) -> str:
    return " ".join(error.messages)


@role_required("translation.work")
def home(request):
    form = ProjectForm() if can(request.user, "translation.manage") else None
    return _home(request, form)


def _home(request, form, status=200):
    builds = TranslationProjectBuild.objects.none()
    if can(request.user, "translation.manage"):
        builds = TranslationProjectBuild.objects.filter(project__isnull=True)[:10]
    return render(
        request,
        "review/translation/home.html",
        {"projects": selectors.projects_for(request.user), "form": form, "builds": builds},
        status=status,
    )


@require_POST
@role_required("translation.manage")
def project_create(request):
    form = ProjectForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    data = form.cleaned_data
    try:
        build = services.translation_project_start(
            admin=request.user,
            name=data["name"],
            release_key=data["release"],
            db_ids=data["db_ids"],
            split=data["split"],
            language=data["language"],
        )
    except ValidationError as error:
        form.add_error(None, _refusal(error))
        return _home(request, form, status=400)
    return redirect("review:translation_build", build.pk)


@role_required("translation.manage")
def build_detail(request, build_id: int):
    """A project being made: its progress until it is made, then the project itself."""
    build = get_object_or_404(TranslationProjectBuild, pk=build_id)
    if build.project_id is not None:
        return redirect("review:translation_project", build.project_id)
    config = {"status_url": reverse("review:translation_build_status", args=[build.pk]), "finished": build.finished}
    return render(request, "review/translation/build.html", {"build": build, "config": config})


@role_required("translation.manage")
def build_status(request, build_id: int):
    build = get_object_or_404(TranslationProjectBuild, pk=build_id)
    project_url = reverse("review:translation_project", args=[build.project_id]) if build.project_id else None
    return JsonResponse(build.status_json(project_url=project_url))


@require_POST
@role_required("translation.manage")
def build_cancel(request, build_id: int):
    build = get_object_or_404(TranslationProjectBuild, pk=build_id)
    services.translation_project_build_cancel(admin=request.user, build=build)
    return redirect("review:translation_build", build.pk)


def _project_or_404(request, project_id: int) -> TranslationProject:
    project = get_object_or_404(TranslationProject, pk=project_id)
    if not selectors.may_see_project(request.user, project):
        raise PermissionDenied(_("No database of this project is assigned to you."))
    return project


@role_required("translation.work")
def project(request, project_id: int):
    project = _project_or_404(request, project_id)
    manage = can(request.user, "translation.manage")
    return render(
        request,
        "review/translation/project.html",
        {
            "project": project,
            "databases": selectors.database_progress(project),
            "people": selectors.person_progress(project),
            "mine": selectors.assigned_databases(request.user, project),
            "waiting": selectors.waiting_for_review(project) if can(request.user, "translation.review") else [],
            "manage": manage,
            "assign_forms": {
                item.pk: AssignForm(initial={"translators": item.translators.all()}, prefix=f"db{item.pk}")
                for item in project.databases.all()
            }
            if manage
            else {},
            "exports": project.exports.all()[:20] if manage else [],
            "States": TranslationInteraction.State,
        },
    )


@require_POST
@role_required("translation.manage")
def assign(request, project_database_id: int):
    project_database = get_object_or_404(ProjectDatabase, pk=project_database_id)
    form = AssignForm(request.POST, prefix=f"db{project_database.pk}")
    if form.is_valid():
        try:
            services.translation_assign(
                admin=request.user, project_database=project_database, people=list(form.cleaned_data["translators"])
            )
            messages.success(request, _("Translators of %(db)s saved.") % {"db": project_database.database.db_id})
        except ValidationError as error:
            messages.error(request, _refusal(error))
    else:
        messages.error(request, _("Choose people from the list."))
    return redirect("review:translation_project", project_database.project_id)


def _translatable(request, project_database_id: int) -> ProjectDatabase:
    project_database = get_object_or_404(
        ProjectDatabase.objects.select_related("database", "project"), pk=project_database_id
    )
    if not services.may_translate(request.user, project_database):
        raise PermissionDenied(_("You are not assigned to translate this database."))
    return project_database


@role_required("translation.work")
def database(request, project_database_id: int):
    project_database = _translatable(request, project_database_id)
    kind = request.GET.get("kind", TranslationUnit.Kind.TABLE)
    if kind not in TranslationUnit.Kind.values:
        kind = TranslationUnit.Kind.TABLE
    pending = request.GET.get("pending") == "1"
    page = Paginator(selectors.units_page(project_database, kind=kind, pending=pending), UNITS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "review/translation/database.html",
        {
            "project_database": project_database,
            "project": project_database.project,
            "kind": kind,
            "kinds": TranslationUnit.Kind.choices,
            "pending": pending,
            "page": page,
            "model_on": model_configured(),
            "interactions": project_database.interactions.order_by("position"),
            "columns": selectors.columns_with_values(project_database) if kind == TranslationUnit.Kind.VALUE else [],
        },
    )


def _back_to_units(request, unit: TranslationUnit):
    url = reverse("review:translation_database", args=[unit.project_database_id])
    query = request.POST.get("back", "")
    return redirect(f"{url}?{query}#unit-{unit.pk}" if query.isascii() else url)


@require_POST
@role_required("translation.work")
def unit_save(request, unit_id: int):
    unit = get_object_or_404(TranslationUnit.objects.select_related("project_database"), pk=unit_id)
    _translatable(request, unit.project_database_id)
    try:
        services.translation_unit_save(person=request.user, unit=unit, text=request.POST.get("text", ""))
    except ValidationError as error:
        messages.error(request, _("%(source)s: %(error)s") % {"source": unit.source, "error": _refusal(error)})
    return _back_to_units(request, unit)


@require_POST
@role_required("translation.work")
def values_keep(request, project_database_id: int):
    project_database = _translatable(request, project_database_id)
    table, column = request.POST.get("table", ""), request.POST.get("column", "")
    count = services.translation_values_keep(
        person=request.user, project_database=project_database, table=table, column=column
    )
    messages.success(
        request,
        _("%(count)d values of %(table)s.%(column)s kept as they are.")
        % {"count": count, "table": table, "column": column},
    )
    return redirect(reverse("review:translation_database", args=[project_database.pk]) + "?kind=value&pending=1")


@require_POST
@role_required("translation.work")
def unit_propose(request, unit_id: int):
    unit = get_object_or_404(TranslationUnit.objects.select_related("project_database__project"), pk=unit_id)
    _translatable(request, unit.project_database_id)
    try:
        services.translation_unit_propose(person=request.user, unit=unit)
    except ModelError as error:
        messages.error(request, error.message)
    return _back_to_units(request, unit)


@require_POST
@role_required("translation.work")
def units_propose(request, project_database_id: int):
    project_database = _translatable(request, project_database_id)
    kind = request.POST.get("kind", "")
    if kind not in TranslationUnit.Kind.values:
        raise Http404(_("No such kind of unit."))
    try:
        count = services.translation_units_propose(person=request.user, project_database=project_database, kind=kind)
    except ModelError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("The model proposed %(count)d translations: check each and save it.") % {"count": count}
        )
    return redirect(reverse("review:translation_database", args=[project_database.pk]) + f"?kind={kind}&pending=1")


def _interaction_for(request, interaction_id: int) -> tuple[TranslationInteraction, bool, bool]:
    interaction = get_object_or_404(
        TranslationInteraction.objects.select_related("project", "project_database__database"), pk=interaction_id
    )
    translate = services.may_translate(request.user, interaction.project_database)
    review = can(request.user, "translation.review")
    if not translate and not review:
        raise PermissionDenied(_("You are not assigned to translate this database."))
    return interaction, translate, review


def _schema_side_by_side(original: dict, translated: dict) -> list[dict]:
    """Each table and its columns, the translated name beside the original, with primary keys marked."""
    primary = set(original.get("primary_keys", []))
    tables = [
        {"name": name, "original": old, "columns": []}
        for name, old in zip(translated["table_names_original"], original["table_names_original"], strict=True)
    ]
    pairs = zip(translated["column_names_original"], original["column_names_original"], strict=True)
    for index, ((table, name), (_table, old)) in enumerate(pairs):
        if table >= 0:
            tables[table]["columns"].append({"name": name, "original": old, "is_primary_key": index in primary})
    return tables


@role_required("translation.work")
def interaction(request, interaction_id: int):
    interaction, translate, review = _interaction_for(request, interaction_id)
    maps = maps_of(interaction.project_database)
    schema = translated_schema(maps.schema, maps.names)
    corrections = corrected_sql(interaction)
    turns = []
    for index, turn in enumerate(interaction.turns):
        rewrite = rewrite_sql(turn["query"], maps.names, maps.values)
        question = interaction.questions[index] if index < len(interaction.questions) else ""
        turns.append(
            {"index": index, **turn, "rewrite": rewrite, "question": question, "correction": corrections.get(index)}
        )
    editable = translate and interaction.state in (
        TranslationInteraction.State.OPEN,
        TranslationInteraction.State.SENT_BACK,
    )
    return render(
        request,
        "review/translation/interaction.html",
        {
            "interaction": interaction,
            "project": interaction.project,
            "turns": turns,
            "final_sql": rewrite_sql(interaction.final.get("query") or "", maps.names, maps.values).sql,
            "final_correction": corrections.get(-1),
            "tables": _schema_side_by_side(maps.schema, schema),
            "editable": editable,
            "can_review": review
            and interaction.state == TranslationInteraction.State.SUBMITTED
            and interaction.translated_by_id != request.user.pk,
        },
    )


@require_POST
@role_required("translation.work")
def interaction_save(request, interaction_id: int):
    interaction, translate, _review = _interaction_for(request, interaction_id)
    if not translate:
        raise PermissionDenied(_("You are not assigned to translate this database."))
    questions = [request.POST.get(f"question-{index}", "") for index in range(len(interaction.turns))]
    submit = request.POST.get("submit") == "1"
    try:
        services.translation_interaction_save(
            person=request.user,
            interaction=interaction,
            questions=questions,
            final_question=request.POST.get("final_question", ""),
            submit=submit,
        )
    except ValidationError as error:
        messages.error(request, _refusal(error))
    else:
        messages.success(request, _("Sent to review.") if submit else _("Saved."))
    return redirect("review:translation_interaction", interaction.pk)


@require_POST
@role_required("translation.work")
def interaction_sql_correct(request, interaction_id: int):
    """A translator's correction of one turn's SQL on the translated schema (turn -1: the final goal's), kept once it
    runs on the translated copy."""
    interaction, translate, _review = _interaction_for(request, interaction_id)
    if not translate:
        raise PermissionDenied(_("You are not assigned to translate this database."))
    try:
        turn = int(request.POST.get("turn", ""))
    except ValueError:
        turn = len(interaction.turns)  # no such turn: the service says so
    try:
        correction = services.translation_sql_correct(
            person=request.user, interaction=interaction, turn=turn, sql=request.POST.get("sql", "")
        )
    except ValidationError as error:
        messages.error(request, _refusal(error))
    else:
        messages.success(
            request,
            ngettext(
                "The corrected SQL ran on the translated database (%(count)s row) and is kept.",
                "The corrected SQL ran on the translated database (%(count)s rows) and is kept.",
                correction.rows,
            )
            % {"count": correction.rows},
        )
    return redirect(reverse("review:translation_interaction", args=[interaction.pk]) + "#turns")


@require_POST
@role_required("translation.review")
def interaction_review(request, interaction_id: int):
    interaction = get_object_or_404(TranslationInteraction, pk=interaction_id)
    approve = request.POST.get("decision") == "approve"
    try:
        services.translation_interaction_review(
            reviewer=request.user, interaction=interaction, approve=approve, note=request.POST.get("note", "")
        )
    except ValidationError as error:
        messages.error(request, _refusal(error))
        return redirect("review:translation_interaction", interaction.pk)
    messages.success(request, _("Approved.") if approve else _("Sent back with your note."))
    return redirect("review:translation_project", interaction.project_id)


@require_POST
@role_required("translation.manage")
def export_start(request, project_id: int):
    project = get_object_or_404(TranslationProject, pk=project_id)
    export = services.translation_export_start(
        admin=request.user, project=project, only_approved=request.POST.get("all") != "1"
    )
    return redirect("review:translation_export", export.pk)


@role_required("translation.manage")
def export_detail(request, export_id: int):
    export = get_object_or_404(TranslationExport.objects.select_related("project"), pk=export_id)
    gold = (export.report or {}).get("gold_check") or {}
    failing = [row for row in gold.get("queries", []) if row["outcome"] != "same" or row.get("left_out")]
    return render(
        request,
        "review/translation/export.html",
        {
            "export": export,
            "project": export.project,
            "report": export.report or {},
            "gold": gold,
            "failing": failing,
            "config": {
                "status_url": reverse("review:translation_export_status", args=[export.pk]),
                "finished": export.finished,
            },
        },
    )


@role_required("translation.manage")
def export_status(request, export_id: int):
    export = get_object_or_404(TranslationExport, pk=export_id)
    return JsonResponse(export.status_json(passed=export.gold_passed, gold_total=export.gold_total))


@require_POST
@role_required("translation.manage")
def export_cancel(request, export_id: int):
    export = get_object_or_404(TranslationExport, pk=export_id)
    services.translation_export_cancel(admin=request.user, export=export)
    return redirect("review:translation_export", export.pk)


@role_required("translation.manage")
def export_download(request, export_id: int):
    export = get_object_or_404(TranslationExport, pk=export_id)
    if export.state != TranslationExport.State.SUCCEEDED or not export.file:
        raise Http404(_("This export has no zip."))
    path = (exports_dir().parent / export.file).resolve()
    if exports_dir().resolve() not in path.parents or not path.is_file():
        raise Http404(_("This export has no zip."))
    return FileResponse(
        path.open("rb"), as_attachment=True, filename=f"translation-{export.project_id}-{export.pk}.zip"
    )
