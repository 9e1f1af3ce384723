"""Pages of worker and expert quality: the crowd workers by quality (with the block form), the experts with
what review changed in their work, and one expert's reviewed work (the admins' view and the expert's own)."""

from django.shortcuts import get_object_or_404, render

from annotation.models import Role, User
from annotation.people.roles import role_required
from review.quality import selectors
from review.quality import services as quality


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
    """Experts and what review changed in their dialogues (the change rates of review.passes.agreement, per expert)."""
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
