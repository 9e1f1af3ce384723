"""Pages of dealt work (docs/dealing.md): the admin's deals (make one, follow it, remove someone who left) and the
expert's button that begins an item of theirs."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from annotation.models import User
from annotation.people.roles import role_required
from dialogs.deals import selectors
from dialogs.deals.forms import DealForm
from dialogs.deals.models import WorkAssignment, WorkDeal
from dialogs.deals.services import MANAGE_PERMISSION, assignment_start, deal_create, deal_member_remove
from dialogs.errors import DialogueError


@role_required(MANAGE_PERMISSION)
def deal_list(request):
    return render(request, "dialogs/deal_list.html", {"deals": selectors.deal_list()})


@role_required(MANAGE_PERMISSION)
def deal_new(request):
    form = DealForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        data["people"], data["databases"] = list(data["people"]), list(data["databases"])
        try:
            deal = deal_create(by=request.user, **data)
        except ValidationError as exc:
            for name, errors in exc.message_dict.items():
                form.add_error(name if name in form.fields else None, errors)
        else:
            dealt = deal.assignments.count()
            messages.success(
                request,
                (
                    gettext("Dealt %(items)s items to %(people)s people.")
                    % {"items": dealt, "people": len(data["people"])}
                    + f" {deal.note}"
                ).strip(),
            )
            return redirect("dialogs:deal_detail", deal_id=deal.pk)
    return render(request, "dialogs/deal_form.html", {"form": form}, status=400 if form.errors else 200)


@role_required(MANAGE_PERMISSION)
def deal_detail(request, deal_id):
    """A deal's progress per person (bars) and its history; the form that removes someone who left."""
    deal = get_object_or_404(
        WorkDeal.objects.select_related("created_by", "campaign").prefetch_related("databases"), pk=deal_id
    )
    return render(
        request,
        "dialogs/deal_detail.html",
        {"deal": deal, "rows": selectors.deal_progress(deal), "history": selectors.deal_history(deal)},
    )


@require_POST
@role_required(MANAGE_PERMISSION)
def deal_member_leave(request, deal_id):
    """Remove a person (POST person: their id) and deal their open items to the others."""
    deal = get_object_or_404(WorkDeal, pk=deal_id)
    person = get_object_or_404(User, pk=request.POST.get("person") or 0)
    try:
        moved = deal_member_remove(deal=deal, person=person, by=request.user)
    except DialogueError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            gettext("%(name)s left the deal: %(count)s open items were dealt to the others.")
            % {"name": person.username, "count": len(moved)},
        )
    return redirect("dialogs:deal_detail", deal_id=deal.pk)


@require_POST
@role_required("chat.as_expert")
def assignment_begin(request, assignment_id):
    """Begin (or go back to) an item dealt to the signed-in expert: its solo sequence, or phase 1 of its goal."""
    assignment = get_object_or_404(WorkAssignment.objects.select_related("deal"), pk=assignment_id)
    home = "dialogs:solo_home" if assignment.deal.kind == WorkDeal.Kind.SOLO else "dialogs:query_first_home"
    try:
        begun = assignment_start(assignment=assignment, person=request.user)
    except DialogueError as exc:
        messages.error(request, exc.message)
        return redirect(home)
    if assignment.deal.kind == WorkDeal.Kind.SOLO:
        return redirect("dialogs:solo", dialogue_id=begun.pk)
    return redirect("dialogs:query_first_write", item_id=begun.pk)
