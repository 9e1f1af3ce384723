"""The pages of human rating (docs/human_rating.md). Every view needs `rating.rate` (experts, reviewers, admins) or
`rating.manage` (admins); a rater reaches only their own assignment (anyone else gets a 404, as for a task that does
not exist). No page or JSON a rater can open names a response's source or an item's id: a rater's items are addressed
by their position in the rater's own shuffled order."""

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from annotation.people.roles import can, role_required
from dialogs.models import Campaign
from review.rating import selectors, services
from review.rating.forms import RatingForm, RatingTaskForm
from review.rating.model_file import ModelFileError
from review.rating.models import RatingTask

RATE = services.RATE_PERMISSION
MANAGE = services.MANAGE_PERMISSION
DEFINITIONS = {
    "logic": gettext_lazy(
        "Logic correctness: 1 when the response says everything the SQL asks of the data, and nothing the SQL does "
        "not: the same columns, conditions, grouping, ordering and limit, and the result as the table shows it. "
        "0 when anything is missing, added or wrong. A clumsy sentence that keeps the logic is still 1."
    ),
    "grammar": gettext_lazy(
        "Grammar: how well formed and fluent the English is, whatever it says: 5 flawless and natural, 4 a slip "
        "that does not hinder reading, 3 awkward or with several errors but understood, 2 hard to read, "
        "1 not English sentences."
    ),
}


def _assignment_or_404(request, task_id: int):
    assignment = selectors.assignment_of(task_id, request.user)
    if assignment is None:
        raise Http404("no such rating task of yours")
    return assignment


@role_required(RATE)
def tasks(request):
    """The list of rating tasks: every task with its progress for an admin (and the form to make one), the tasks
    given to them for a rater."""
    manager = can(request.user, MANAGE)
    if manager and request.method == "POST":
        return _task_create(request)
    own = {
        assignment.task_id: assignment
        for assignment in request.user.rating_assignments.select_related("task").order_by("-task_id")
    }
    mine = [
        {"task": assignment.task, "next": selectors.next_position(assignment), "view": selectors.rater_view(assignment)}
        for assignment in own.values()
    ]
    return render(
        request,
        "review/rating/tasks.html",
        {
            "manager": manager,
            "mine": mine,
            "all_tasks": selectors.tasks_for(request.user, manager=True) if manager else [],
            "form": RatingTaskForm() if manager else None,
        },
    )


def _task_create(request):
    form = RatingTaskForm(request.POST, request.FILES)
    if form.is_valid():
        data = form.cleaned_data
        upload = data.get("model_file")
        try:
            task = services.rating_task_create(
                admin=request.user,
                name=data["name"],
                size=data["size"],
                seed=data["seed"],
                sources=data["sources"],
                raters=data["raters"],
                campaign=data.get("campaign"),
                db_ids=data.get("databases") or [],
                model_name=data.get("model_name") or "",
                model_file=(upload.name, upload.read(services.MODEL_UPLOAD_READ)) if upload else None,
            )
        except ModelFileError as exc:
            for error in exc.errors:
                form.add_error("model_file", error)
        except services.RatingError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                gettext("Rating task “%(name)s” made: %(count)s responses to rate.")
                % {"name": task.name, "count": task.items.count()},
            )
            return redirect("review:rating_task", task_id=task.pk)
    return render(
        request,
        "review/rating/tasks.html",
        {"manager": True, "mine": [], "all_tasks": selectors.tasks_for(request.user, manager=True), "form": form},
        status=400,
    )


@role_required(MANAGE)
def task(request, task_id: int):
    """An admin's page of one task: each rater's progress and Table 6 with the raters' agreement."""
    found = get_object_or_404(RatingTask.objects.select_related("campaign", "created_by"), pk=task_id)
    return render(
        request,
        "review/rating/task.html",
        {
            "task": found,
            "progress": selectors.progress(found),
            "table": selectors.table6(found),
            "items": found.items.count(),
            "sources": [found.source_label(source) for source in found.sources],
        },
    )


@role_required(MANAGE)
def ratings_csv(request, task_id: int):
    found = get_object_or_404(RatingTask, pk=task_id)
    response = HttpResponse(selectors.ratings_csv(found), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="rating-task-{found.pk}.csv"'
    return response


@role_required(MANAGE)
def turns_jsonl(request):
    """The turns a task may draw (every rateable turn, or a campaign's, or some databases'), as JSON lines for a
    model to answer: `?campaign=<id>&db=<db_id>&db=...`."""
    campaign = None
    if request.GET.get("campaign"):
        try:
            campaign = get_object_or_404(Campaign, pk=int(request.GET["campaign"]))
        except ValueError:
            raise Http404("no such campaign") from None
    db_ids = [db_id for db_id in request.GET.getlist("db") if db_id][:100]
    response = HttpResponse(
        selectors.turns_to_answer(campaign=campaign, db_ids=db_ids), content_type="application/x-ndjson; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="turns-to-answer.jsonl"'
    return response


@role_required(RATE)
def rate_next(request, task_id: int):
    """The rater's next response not rated yet, or their list when all are."""
    assignment = _assignment_or_404(request, task_id)
    position = selectors.next_position(assignment)
    if position is None:
        messages.info(
            request,
            gettext("You have rated every response of “%(name)s”. Thank you.") % {"name": assignment.task.name},
        )
        return redirect("review:rating_tasks")
    return redirect("review:rating_rate", task_id=task_id, position=position)


@role_required(RATE)
def rate(request, task_id: int, position: int):
    """One response to rate, at `position` of the rater's order: the question, the SQL, its table, the response and
    the two scales with their definitions. A second rating of the same response is refused (409)."""
    assignment = _assignment_or_404(request, task_id)
    view = selectors.rater_view(assignment)
    if not 1 <= position <= view["total"]:
        raise Http404("no such response")
    item = view["items"][position - 1]
    form = RatingForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.rating_record(
                    rater=request.user,
                    task_id=task_id,
                    position=position,
                    logic_correct=form.cleaned_data["logic_correct"],
                    grammar=form.cleaned_data["grammar"],
                )
            except services.RatingError as exc:
                form.add_error(None, str(exc))
                status = 409 if item["rated"] else 400
            else:
                return redirect("review:rating_next", task_id=task_id)
        else:
            status = 400
    return render(
        request,
        "review/rating/rate.html",
        {
            "assignment": assignment,
            "view": view,
            "item": item,
            "position": position,
            "form": form,
            "definitions": DEFINITIONS,
            "json_url": reverse("review:rating_mine", args=[task_id]),
        },
        status=status,
    )


@role_required(RATE)
def mine_json(request, task_id: int):
    """The rater's own task as JSON: positions, questions, SQL, tables, responses, what they gave. No source."""
    return JsonResponse(selectors.rater_view(_assignment_or_404(request, task_id)))
