"""Pages of query-first annotation (dialogs/query_first.py): the list of work, phase 1 and phase 2. Experts only;
each page serves only the item its person may work on (a 404 for anyone else's)."""

from datetime import datetime

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from annotation.goals.tree_plan import FILTER_OPS, filters_of, plan
from annotation.labels.tokens import utterance_toks
from annotation.models import Goal
from annotation.people.roles import role_required
from annotation.plumbing.jsonfile import parse_json, request_json_object
from dialogs import query_first as qf
from dialogs import selectors
from dialogs.deals.selectors import assigned_to
from dialogs.errors import DialogueError
from dialogs.forms import QueryFirstWriteForm
from dialogs.models import QueryFirstItem, WorkDeal

_ACTIONS = ("draft", "adapt", "skip", "write")


@role_required("chat.as_expert")
def query_first_home(request):
    """Goals waiting for a question (phase 1) and questions waiting for correction and alignment (phase 2); POST
    with a goal starts phase 1 on it."""
    if request.method == "POST":
        goal = get_object_or_404(Goal, pk=request.POST.get("goal") or 0)
        try:
            item = qf.query_first_open(person=request.user, goal=goal)
        except DialogueError as exc:
            messages.error(request, exc.message)
            return redirect("dialogs:query_first_home")
        return redirect("dialogs:query_first_write", item_id=item.pk)
    return render(
        request,
        "dialogs/query_first_home.html",
        {
            "to_write": selectors.goals_to_write(request.user)[:50],
            "to_align": selectors.items_to_align(request.user)[:50],
            "assigned": assigned_to(request.user, WorkDeal.Kind.QUERY_FIRST),
        },
    )


def _item(request, item_id, stage: str) -> QueryFirstItem:
    item = get_object_or_404(QueryFirstItem.objects.select_related("goal__database"), pk=item_id, stage=stage)
    mine = item.writer_id == request.user.pk
    if (stage == QueryFirstItem.Stage.WRITING) != mine:
        raise Http404("No such item for you.")
    return item


@role_required("chat.as_expert")
def query_first_write(request, item_id):
    """Phase 1: the plan with intermediate results, the SQL, and one form for the question (a drafted start on
    request), adapting a filter, or skipping with a reason."""
    item = _item(request, item_id, QueryFirstItem.Stage.WRITING)
    form = QueryFirstWriteForm(request.POST or None, filters=_filter_choices(item), ops=FILTER_OPS)
    action = request.POST.get("action")
    if request.method == "POST" and action in _ACTIONS and form.is_valid():
        data = form.cleaned_data
        try:
            if action == "skip":
                qf.query_first_skip(item=item, person=request.user, reason=data["reason"])
                messages.success(request, gettext("Skipped: the goal is not offered to you again."))
                return redirect("dialogs:query_first_home")
            if action == "write":
                qf.query_first_write(item=item, person=request.user, question=data["question"])
                messages.success(request, gettext("Thank you: the question waits for another expert's correction."))
                return redirect("dialogs:query_first_home")
            posted = request.POST.copy()
            if action == "draft":
                posted["question"] = qf.query_first_draft(item=item, person=request.user)
            else:
                change = qf.query_first_adapt(
                    item=item, person=request.user, step_id=data["step"], op=data["op"], value=data["value"]
                )
                messages.success(
                    request,
                    gettext("Adapted: %(filter)s.")
                    % {"filter": f"{change['column']} {change['after']['op']} {change['after']['value']}"},
                )
            form = QueryFirstWriteForm(posted, filters=_filter_choices(item), ops=FILTER_OPS)
            form.is_valid()
        except DialogueError as exc:
            field = {"skip": "reason", "write": "question", "adapt": "value"}.get(action)
            form.add_error(field, exc.message)
    return render(
        request,
        "dialogs/query_first_write.html",
        {"item": item, "form": form, "steps": selectors.query_first_plan(item.tree, item.goal.database)},
    )


def _filter_choices(item: QueryFirstItem) -> list[tuple[str, str]]:
    return [(step_id, f"{found['column']} {found['op']} {found['value']}") for step_id, found in filters_of(item.tree)]


def _session_key(item: QueryFirstItem) -> str:
    return f"query_first_align_{item.pk}"


@role_required("chat.as_expert")
def query_first_align(request, item_id):
    """Phase 2: correct the question and give its words to the plan's steps; the time counts from the first visit."""
    item = _item(request, item_id, QueryFirstItem.Stage.ALIGNING)
    key = _session_key(item)
    request.session.setdefault(key, timezone.now().isoformat())
    question, alignment, error = item.question_written, [], None
    if request.method == "POST":
        question = request.POST.get("question", "")
        try:
            alignment = parse_json(request.POST.get("alignment", "[]").encode(), source="The alignment")
        except ValidationError:
            alignment = None
        try:
            if not isinstance(alignment, list):
                raise DialogueError(
                    "invalid", gettext("The words given to the operations could not be read: try again.")
                )
            if request.POST.get("aligned_question", question).strip() != question.strip():
                # The spans index the words of the question they were given on; another text has other words.
                raise DialogueError(
                    "invalid", gettext("The question changed after its words were given: check them again.")
                )
            dialogue = qf.query_first_align(
                item=item,
                person=request.user,
                question=question,
                alignment=alignment,
                opened_at=datetime.fromisoformat(request.session[key]),
            )
        except DialogueError as exc:
            error = exc.message
            alignment = alignment if isinstance(alignment, list) else []
        else:
            request.session.pop(key, None)
            messages.success(
                request,
                gettext("Done: the question and its alignment go to review (dialogue %(number)s).")
                % {"number": dialogue.pk},
            )
            return redirect("dialogs:query_first_home")
    steps = plan(item.tree, item.goal.database.schema)
    # After a refusal the spans still belong to the question they were given on.
    aligned = request.POST.get("aligned_question", question) if request.method == "POST" else question
    return render(
        request,
        "dialogs/query_first_align.html",
        {
            "item": item,
            "question": question,
            "error": error,
            "steps": steps,
            "config_json": {
                "question": aligned,
                "tokens": utterance_toks(aligned),
                "alignment": alignment,
                "steps": [step.as_dict() for step in steps],
                "required": [step.id for step in steps if step.kind in ("type", "filter")],
            },
        },
    )


@require_POST
@role_required("chat.as_expert")
def query_first_tokens(request):
    """The tokens of a question (JSON: question), as the server tokenises every utterance."""
    try:
        body = request_json_object(request.body)
    except ValidationError as exc:
        return JsonResponse({"ok": False, "message": exc.messages[0]}, status=400)
    question = body.get("question")
    if not isinstance(question, str) or len(question) > 2000:
        return JsonResponse({"ok": False, "message": "A question of at most 2000 characters is needed."}, status=400)
    return JsonResponse({"ok": True, "tokens": utterance_toks(question)})
