"""Pages of the annotation app: role homes, databases, goals, people and the SQL workbench."""

from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.db.models import Count
from django.http import Http404, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from annotation.databases import curation
from annotation.databases import profile as curation_rules
from annotation.databases import selectors as database_reads
from annotation.databases import services as database_services
from annotation.databases.selectors import database_curation, database_table_page
from annotation.forms import BlockForm, DatabaseUploadForm, GoalForm, GoalGenerationForm, PersonForm, SqlForm
from annotation.goals import selectors as goal_reads
from annotation.goals.generation import (
    GoalGenerationError,
    goal_generation_cancel,
    goal_generation_start,
    goal_generations_fail_stale,
)
from annotation.goals.selectors import goal_generation_figures
from annotation.goals.services import goal_create, goal_discard, goal_update
from annotation.models import (
    ROLE_PLURALS,
    Database,
    DatabaseTestSuite,
    Goal,
    GoalDiscard,
    GoalGeneration,
    Hardness,
    Role,
    User,
)
from annotation.people.roles import HOME_URL_NAMES, can, open_view, role_of, role_required
from annotation.people.selectors import people_page
from annotation.people.services import person_create, person_set_blocked, person_set_language
from annotation.plumbing.jsonfile import request_json_object
from annotation.sql import analysis
from annotation.sql.analysis import inspect_sql
from annotation.sql.schema import describe_tables
from annotation.sql.validate import validate_sql
from annotation.suites import builds as suite_builds
from annotation.wording.response_drafts import draft_response
from config.language import SESSION_KEY as LANGUAGE_SESSION_KEY


def login_locked_out(request, response=None, credentials=None):
    """The sign-in page, refusing: django-axes calls this (settings.AXES_LOCKOUT_CALLABLE) when the account or the
    address has failed too often. Every refused try restarts the wait, so the wait left is the whole lockout."""
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {"form": form, "next": request.POST.get("next", ""), "lockout_minutes": settings.LOGIN_LOCKOUT_MINUTES}
    return render(request, "registration/login.html", context, status=429)


@login_required
def home(request):
    """Send each person to the home page of their role."""
    return redirect(HOME_URL_NAMES[role_of(request.user)])


@role_required("databases.manage")
def admin_home(request):
    hardness_counts = dict(Goal.objects.values_list("hardness").annotate(n=Count("id")).order_by())
    context = {
        "database_count": Database.objects.count(),
        "goal_count": Goal.objects.count(),
        "hardness_counts": [(level.label, hardness_counts.get(level.value, 0)) for level in Hardness],
        "people_counts": [
            (ROLE_PLURALS.get(role, role), n)
            for role, n in User.objects.values_list("role").annotate(n=Count("id")).order_by("role")
        ],
        "recent_databases": Database.objects.order_by("-created_at")[:5],
    }
    return render(request, "annotation/admin_home.html", context)


@role_required("databases.browse")
def database_list(request):
    return render(
        request,
        "annotation/database_list.html",
        {"databases": database_reads.database_list(), "can_manage": can(request.user, "databases.manage")},
    )


# Room in an upload's body for the form's other fields and the multipart framing, beside the file itself.
UPLOAD_FORM_BYTES = 64 * 1024


def _upload_limit_message() -> str:
    return _("The file is larger than %(size)s MB, the largest this platform takes.") % {
        "size": settings.MAX_DATABASE_UPLOAD_MB
    }


@csrf_exempt  # the token is checked in _database_upload_form, once this form's upload handler is in place
@role_required("databases.manage")
def database_upload(request):
    """An admin uploads a SQLite file (docs/curation.md, "Uploading a file"). A body larger than the limit
    (MAX_DATABASE_UPLOAD_MB) is refused with the form's error before it is parsed; any other is streamed to a
    temporary file on disk, whatever its size, and registered from there."""
    if request.method == "POST":
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0  # Django's parser refuses it
        if declared > settings.MAX_DATABASE_UPLOAD_MB * 1024 * 1024 + UPLOAD_FORM_BYTES:
            # Nothing of the body is read: no state changes, so the page is shown without the CSRF check.
            form = DatabaseUploadForm()
            context = {"form": form, "refused": _upload_limit_message()}
            return render(request, "annotation/database_upload.html", context, status=413)
        # Not held in memory below FILE_UPLOAD_MAX_MEMORY_SIZE: every file of this form goes to disk as it arrives.
        request.upload_handlers = [TemporaryFileUploadHandler(request)]
    return _database_upload_form(request)


@csrf_protect
def _database_upload_form(request):
    form = DatabaseUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > settings.MAX_DATABASE_UPLOAD_MB * 1024 * 1024:
            form.add_error("file", _upload_limit_message())
        else:
            try:
                # Registered from the temporary file the upload was streamed to: copied once, into the data folder.
                database = database_services.database_register(
                    db_id=form.cleaned_data["db_id"],
                    source_path=Path(upload.temporary_file_path()),
                    description=form.cleaned_data["description"],
                    created_by=request.user,
                    replace=form.cleaned_data["replace"],
                )
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(
                    request,
                    _("Registered %(database)s: %(tables)s tables, %(columns)s columns.")
                    % {"database": database.db_id, "tables": database.table_count, "columns": database.column_count},
                )
                return redirect("annotation:database_detail", db_id=database.db_id)
    return render(request, "annotation/database_upload.html", {"form": form})


@role_required("databases.browse")
def database_detail(request, db_id):
    database = get_object_or_404(Database, db_id=db_id)
    listing = database_reads.tables_page(
        describe_tables(database.schema),
        page=request.GET.get("page", 1),
        query=request.GET.get("q", ""),
        per_page=database_reads.BROWSER_TABLES_PER_PAGE,
    )
    return render(
        request,
        "annotation/database_detail.html",
        {
            "database": database,
            **listing,
            "per_page": database_reads.BROWSER_TABLES_PER_PAGE,
            "goals": database.goals.all()[:200],
            "can_run_sql": can(request.user, "sql.run"),
            "can_generate_goals": can(request.user, "goals.manage") and database.has_file,
            "can_curate": can(request.user, "databases.manage") and database.has_file,
            "can_manage": can(request.user, "databases.manage"),
            "suite": DatabaseTestSuite.objects.filter(database=database).first(),
            "schema_json": database.schema,
        },
    )


@role_required("databases.manage")
def database_curate(request, db_id, *, posted=None, status=200):
    """The curation page (docs/curation.md): what the file holds, the checks to work through, and the edits."""
    database = get_object_or_404(Database, db_id=db_id)
    data = database_curation(
        database=database, posted=posted, page=request.GET.get("page", 1), query=request.GET.get("q", "")
    )
    # The page's forms post back with where the curator is (the page of tables, the filter), and come back there.
    here = {"q": data["query"], "page": data["page"]["number"] if data["page"]["number"] > 1 else ""}
    context = {"database": database, "here": _query_string(here), **data}
    return render(request, "annotation/database_curate.html", context, status=status)


def _query_string(values: dict) -> str:
    given = {name: value for name, value in values.items() if value}
    return f"?{urlencode(given)}" if given else ""


def _curate_names(request, database):
    table = request.POST.get("table", "")
    source = database.current_version.schema if database.current_version else database.schema
    columns = {
        key: request.POST[f"column-{index}"]
        for index, owner, name, _kind in curation_rules.columns_of(source)
        if owner == table and f"column-{index}" in request.POST
        for key in [curation_rules.column_key(owner, name)]
    }
    changed = curation.database_names_set(
        database=database, by=request.user, tables={table: request.POST.get("name", "")}, columns=columns
    )
    anchor = f"table-{source['table_names_original'].index(table)}"  # the table exists: the service checked it
    saved = ngettext(
        "Saved %(count)s readable name of %(table)s.", "Saved %(count)s readable names of %(table)s.", changed
    )
    return saved % {"count": changed, "table": table}, anchor


def _curate_hide(request, database):
    target, hidden = request.POST.get("target", ""), request.POST.get("hidden") == "1"
    curation.database_hidden_set(database=database, by=request.user, target=target, hidden=hidden)
    return (_("%(name)s is hidden.") if hidden else _("%(name)s is shown again.")) % {"name": target}, None


def _curate_key(request, database):
    child, parent = request.POST.get("child", ""), request.POST.get("parent", "")
    confirmed = request.POST.get("decision") != "dismiss"
    curation.database_foreign_key_set(
        database=database, by=request.user, child=child, parent=parent, confirmed=confirmed
    )
    said = _("%(child)s → %(parent)s is a foreign key.") if confirmed else _("%(child)s → %(parent)s dismissed.")
    return said % {"child": child, "parent": parent}, "keys"


def _curate_fill(request, database):
    row = request.POST.get("row", "").strip()
    if row and not row.isdigit():
        raise ValidationError(_("A row is given by its number (SQLite's rowid)."))
    version = curation.database_fill_empty(
        database=database,
        by=request.user,
        column=request.POST.get("column", ""),
        value=request.POST.get("value", ""),
        row_id=int(row) if row else None,
    )
    return _("Version %(number)s of the file: %(note)s.") % {"number": version.number, "note": version.note}, None


def _curate_keep(request, database):
    key = request.POST.get("key", "")
    curation.database_check_keep(database=database, by=request.user, key=key, reason=request.POST.get("reason", ""))
    return _("The check is kept as it is."), "checks"


def _curate_profile(request, database):
    version = database.current_version
    if version is None:
        raise ValidationError(_("This database has no recorded file version to read."))
    curation.database_version_profile(version=version)
    return _("Read version %(number)s of the file.") % {"number": version.number}, None


_CURATE_ACTIONS = {
    "names": _curate_names,
    "hide": _curate_hide,
    "key": _curate_key,
    "fill": _curate_fill,
    "keep": _curate_keep,
    "profile": _curate_profile,
}


@require_POST
@role_required("databases.manage")
def database_curate_edit(request, db_id, action):
    """One curation edit from the page's forms; a refused edit shows the page again with the error and what was
    typed."""
    database = get_object_or_404(Database, db_id=db_id)
    handler = _CURATE_ACTIONS.get(action)
    if handler is None:
        raise Http404("no such curation edit")
    try:
        message, anchor = handler(request, database)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return database_curate(request, db_id, posted=request.POST, status=400)
    messages.success(request, message)
    url = reverse("annotation:database_curate", args=[database.db_id])
    url += _query_string({"q": request.GET.get("q", ""), "page": request.GET.get("page", "")})
    return redirect(f"{url}#{anchor}" if anchor else url)


@require_POST
@role_required("databases.manage")
def database_suite_rebuild(request, db_id):
    """An admin asks for the database's test suite to be built again; it is built in the background."""
    database = get_object_or_404(Database, db_id=db_id)
    if not database.has_file:
        messages.error(
            request,
            _("%(database)s is registered by its schema only: there is nothing to build from.")
            % {"database": database.db_id},
        )
    else:
        suite_builds.test_suite_request_rebuild(database=database)
        messages.success(
            request,
            _("The test suite of %(database)s will be rebuilt in the background.") % {"database": database.db_id},
        )
    return redirect(reverse("annotation:database_detail", args=[database.db_id]) + "#test-suite")


@role_required("databases.browse")
def database_table(request, db_id, table_index):
    """One page of a table's content as JSON (the database browser pages through it)."""
    database = get_object_or_404(Database, db_id=db_id)
    if not database.has_file:
        raise Http404("this database is registered by its schema only: there is no content to show")
    try:
        data = database_table_page(database=database, table_index=table_index, page=request.GET.get("page", "1"))
    except IndexError:
        raise Http404("no such table") from None
    except ValueError as exc:  # a page that is not a number, or out of range
        return HttpResponseBadRequest(str(exc))
    return JsonResponse(data)


def _sql_from_request(request) -> str | None:
    if request.content_type == "application/json":
        try:
            payload = request_json_object(request.body)
        except ValidationError:
            return None
        sql = payload.get("sql")
        return sql if isinstance(sql, str) and len(sql) <= settings.SANDBOX_MAX_SQL_LENGTH else None
    form = SqlForm(request.POST)
    return form.cleaned_data["sql"] if form.is_valid() else None


@require_POST
@role_required("sql.run")
def sql_validate(request, db_id):
    """Schema-aware validation for the SQL editor (called as the expert types)."""
    database = get_object_or_404(Database, db_id=db_id)
    sql = _sql_from_request(request)
    if sql is None:
        return JsonResponse({"error": "send a JSON object with a string field 'sql'"}, status=400)
    return JsonResponse(validate_sql(sql, database.schema))


@require_POST
@role_required("sql.run")
def sql_run(request, db_id):
    """Run SQL in the sandbox and return the full inspection: validation, Spider sql, hardness, result."""
    database = get_object_or_404(Database, db_id=db_id)
    sql = _sql_from_request(request)
    if sql is None:
        return JsonResponse({"error": "send a JSON object with a string field 'sql'"}, status=400)
    # A schema-only database (no file) still gets validation, encoding and hardness, just no execution.
    report = inspect_sql(sql, database.schema, db_path=database.path if database.has_file else None, rows_shown=None)
    return JsonResponse(report)


@role_required("goals.view")
def goal_list(request):
    database = None
    if request.GET.get("database"):
        database = get_object_or_404(Database, db_id=request.GET["database"])
    hardness = request.GET.get("hardness") if request.GET.get("hardness") in Hardness.values else None
    waiting = request.GET.get("waiting") == "1"
    goals = goal_reads.goal_list(database=database, hardness=hardness, waiting=waiting)
    return render(
        request,
        "annotation/goal_list.html",
        {
            "goals": goals[:500],
            "total": goals.count(),
            "databases": Database.objects.order_by("db_id"),
            "selected_database": database,
            "selected_hardness": hardness,
            "waiting": waiting,
            "waiting_total": Goal.objects.filter(question="", discarded_at=None).count(),
            "hardness_levels": Hardness.choices,
            "can_manage": can(request.user, "goals.manage"),
        },
    )


@role_required("goals.manage")
def goal_edit(request, goal_id=None):
    goal = get_object_or_404(Goal, pk=goal_id) if goal_id else None
    initial = (
        {"database": goal.database, "question": goal.question, "sql": goal.sql, "active": goal.active} if goal else None
    )
    form = GoalForm(request.POST or None, initial=initial)
    if goal:
        form.fields["database"].disabled = True
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if goal:
                goal = goal_update(goal=goal, question=data["question"], sql=data["sql"], active=data["active"])
            else:
                goal = goal_create(
                    database=data["database"], question=data["question"], sql=data["sql"], active=data["active"]
                )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Saved the goal (%(hardness)s).") % {"hardness": goal.get_hardness_display()})
            return redirect(f"{reverse('annotation:goal_list')}?database={goal.database.db_id}")
    described = None
    if goal is not None and goal.waiting_for_question and goal.database.has_file:
        # A starting point for the question, said from the SQL and its result; the admin writes the question.
        described = draft_response(
            goal.sql, analysis.sql_run(goal.database.path, goal.sql, count=True), goal.database.schema
        )
    context = {"form": form, "goal": goal, "described": described, "discards": goal.discards.all() if goal else []}
    return render(request, "annotation/goal_form.html", context)


@require_POST
@role_required("goals.manage")
def goal_discard_view(request, goal_id):
    """An admin discards a goal with a reason (or deactivates it, when dialogues use it); the list says what it did."""
    goal = get_object_or_404(Goal.objects.select_related("database"), pk=goal_id)
    try:
        record = goal_discard(goal=goal, person=request.user, reason=request.POST.get("reason", ""))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("annotation:goal_edit", goal_id=goal.pk)
    if record.outcome == GoalDiscard.Outcome.DISCARDED:
        messages.success(request, _("Discarded the goal: it is offered to nobody and never sampled again."))
    else:
        messages.success(request, _("Dialogues use this goal, so it was deactivated instead of discarded."))
    return redirect(f"{reverse('annotation:goal_list')}?database={goal.database.db_id}")


@role_required("goals.manage")
def goal_generation(request, db_id):
    """Goals sampled from the database's schema (docs/goals.md): the form that starts a run, the runs with their
    progress, and what the newest finished run changed in the goal set's coverage."""
    database = get_object_or_404(Database, db_id=db_id)
    form = GoalGenerationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            goal_generation_start(
                database=database, person=request.user, count=data["count"], levels=data["levels"], seed=data["seed"]
            )
        except GoalGenerationError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("annotation:goal_generation", db_id=database.db_id)
    goal_generations_fail_stale(database_id=database.pk)
    runs = list(database.goal_generations.select_related("requested_by", "cancel_requested_by")[:10])
    # A cancelled run kept what it found too, and reported it.
    kept = (GoalGeneration.State.SUCCEEDED, GoalGeneration.State.CANCELLED)
    latest = next((run for run in runs if run.state in kept and run.report), None)
    return render(
        request,
        "annotation/goal_generation.html",
        {
            "database": database,
            "form": form,
            "runs": runs,
            "latest": latest,
            "coverage": goal_generation_figures(latest) if latest else None,
            "waiting_total": database.goals.filter(question="", discarded_at=None).count(),
            "max_seconds": settings.GOAL_GENERATION_MAX_SECONDS,
        },
        status=400 if request.method == "POST" else 200,
    )


@role_required("goals.manage")
def goal_generation_status(request, generation_id):
    """One run's state as JSON, for its progress bar."""
    run = get_object_or_404(GoalGeneration, pk=generation_id)
    if goal_generations_fail_stale(database_id=run.database_id):
        run.refresh_from_db()
    return JsonResponse(run.status_json(found=run.progress_done, count=run.count))


@require_POST
@role_required("goals.manage")
def goal_generation_cancel_view(request, generation_id):
    """An admin stops a run; the page says what happened (a run that has ended is left as it is)."""
    run = get_object_or_404(GoalGeneration.objects.select_related("database"), pk=generation_id)
    try:
        messages.info(request, goal_generation_cancel(generation=run, person=request.user))
    except GoalGenerationError as exc:
        messages.error(request, str(exc))
    return redirect("annotation:goal_generation", db_id=run.database.db_id)


@role_required("people.manage")
def people(request):
    form = PersonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            person, password = person_create(
                username=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
                password=form.cleaned_data["password"] or None,
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            made = {"name": person.username, "role": person.get_role_display(), "password": password}
            if form.cleaned_data["password"]:
                messages.success(request, _("Created %(name)s (%(role)s).") % made)
            else:
                messages.success(request, _("Created %(name)s (%(role)s). Password (shown once): %(password)s") % made)
            return redirect("annotation:people")
    selected_role = request.GET.get("role") if request.GET.get("role") in Role.values else ""
    page = people_page(role=selected_role or None, page=request.GET.get("page", 1))
    return render(
        request,
        "annotation/people.html",
        {
            "form": form,
            "page": page,
            "role_tabs": [(role.value, ROLE_PLURALS[role]) for role in Role],
            "selected_role": selected_role,
        },
    )


@require_POST
@role_required("people.manage")
def person_block(request, user_id):
    """Block or unblock a person with a reason; back to the page the form was on (the people or the quality page)."""
    person = get_object_or_404(User, pk=user_id)
    form = BlockForm(request.POST)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = reverse("annotation:people")
    if person == request.user:
        messages.error(request, _("You cannot block yourself."))
    elif not form.is_valid():
        messages.error(
            request, _("%(name)s was not changed: say why you block or unblock them.") % {"name": person.username}
        )
    else:
        blocked = form.cleaned_data["blocked"]
        record = person_set_blocked(person=person, blocked=blocked, reason=form.cleaned_data["reason"], by=request.user)
        name = {"name": person.username}
        if record is None:
            messages.info(
                request,
                (_("%(name)s already was blocked.") if blocked else _("%(name)s already was unblocked.")) % name,
            )
        else:
            messages.success(request, (_("%(name)s is blocked.") if blocked else _("%(name)s is unblocked.")) % name)
    return redirect(back)


@require_POST
@open_view("the language switcher in every page's header, before sign-in too: it changes only the asker's own pages")
def language_choose(request):
    """The header's language switcher: the choice is kept in the session and, for a signed-in person, on their account
    (config/language.py reads both); back to the page the form was on."""
    language = request.POST.get("language", "")
    if language and language not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(_("Unknown language."))
    if language:
        request.session[LANGUAGE_SESSION_KEY] = language
    else:
        request.session.pop(LANGUAGE_SESSION_KEY, None)
    if request.user.is_authenticated:
        person_set_language(person=request.user, language=language)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = reverse("home")
    return redirect(back)
