"""The onboarding's pages (docs/experts.md): the expert's guidelines, practice and its results; the admins' page for
the guidelines, practice goals, rules and experts, and each expert's record with the qualify/withdraw form."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.models import Goal, Role, User
from annotation.people.roles import can, role_required
from dialogs.models import Campaign, Dialogue
from dialogs.onboarding import decisions, guidelines, practice, qualification, selectors
from dialogs.onboarding.forms import DecisionForm, GuidelinesForm, PracticeGoalForm, PracticeRuleForm


@role_required("chat.as_expert")
def guidelines_page(request):
    """The current guidelines, whole, with the confirmation while the expert has not given it (POST confirms)."""
    if request.method == "POST":
        try:
            guidelines.guidelines_confirm(person=request.user, version_id=int(request.POST.get("version") or 0))
        except (guidelines.GuidelinesRefused, ValueError) as exc:
            messages.error(
                request, str(exc) if isinstance(exc, guidelines.GuidelinesRefused) else _("No such version.")
            )
        else:
            messages.success(request, _("Thank you: you confirmed that you read the guidelines."))
        back = "dialogs:expert_home" if request.POST.get("next") == "desk" else "dialogs:onboarding_guidelines"
        return redirect(back)
    current = guidelines.guidelines_current()
    return render(
        request,
        "dialogs/onboarding/guidelines.html",
        {
            "version": current,
            "sections": guidelines.guidelines_sections(current) if current else [],
            "unread": guidelines.guidelines_unread(request.user),
        },
    )


@require_POST
@role_required("chat.as_expert")
def practice_start(request):
    """Begin (or go back to) a practice dialogue with the simulated worker: the room opens."""
    try:
        dialogue = practice.practice_start(expert=request.user, server_url=request.build_absolute_uri("/"))
    except practice.PracticeRefused as exc:
        messages.error(request, str(exc))
        return redirect("dialogs:expert_home")
    return redirect("dialogs:room", dialogue_id=dialogue.pk)


@role_required("chat.as_expert")
def practice_result(request, dialogue_id):
    """What differed in a practice dialogue, turn by turn: the expert's SQL beside the gold, equivalent or not (with
    the database that tells them apart), and the acts given beside the ones expected. For its expert, and for the
    admins who onboard experts."""
    dialogue = get_object_or_404(
        Dialogue.objects.select_related("goal", "database", "expert"), pk=dialogue_id, practice=True
    )
    if dialogue.expert_id != request.user.pk and not can(request.user, "experts.onboard"):
        raise PermissionDenied(_("This is another expert's practice."))
    record = None
    if dialogue.is_over:
        record = practice.practice_score(dialogue_id=dialogue.pk)  # scored already, or now (outside a transaction)
    standing = qualification.expert_standing(dialogue.expert) if dialogue.expert.role == Role.EXPERT else None
    return render(
        request,
        "dialogs/onboarding/practice_result.html",
        {
            "dialogue": dialogue,
            "record": record,
            "rows": selectors.result_rows(record) if record else [],
            "percent": round(100 * record.share) if record and record.share is not None else None,
            "standing": standing,
            "own": dialogue.expert_id == request.user.pk,
        },
    )


# --- The admins' pages -----------------------------------------------------------------------------------------------


@role_required("experts.onboard")
def onboarding(request):
    """Guidelines (saving makes a new version; POST), practice goals, qualification rules and the experts."""
    form = GuidelinesForm(request.POST or None, initial=guidelines.guidelines_draft())
    if request.method == "POST" and form.is_valid():
        try:
            before = guidelines.guidelines_current()
            version = guidelines.guidelines_save(editor=request.user, **form.cleaned_data)
        except guidelines.GuidelinesRefused as exc:
            form.add_error(None, str(exc))
        else:
            if before is not None and version.pk == before.pk:
                messages.info(request, _("Nothing changed: the guidelines stay at their current version."))
            else:
                messages.success(
                    request,
                    _("Saved as version %(number)s: every expert is asked to read it.") % {"number": version.pk},
                )
            return redirect("dialogs:onboarding")
    return render(
        request,
        "dialogs/onboarding/admin.html",
        {
            "form": form,
            "goal_form": PracticeGoalForm(),
            **selectors.onboarding_page(),
        },
    )


@require_POST
@role_required("experts.onboard")
def practice_goals(request):
    """Mark a goal for practice (`goal`), or give one back (`unmark`: its number)."""
    if request.POST.get("unmark"):
        goal = get_object_or_404(Goal, pk=request.POST["unmark"])
        try:
            practice.practice_goal_unmark(goal=goal)
        except practice.PracticeRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Goal %(number)s is no practice goal any more.") % {"number": goal.pk})
        return redirect("dialogs:onboarding")
    form = PracticeGoalForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors.get("goal", [_("Give a goal number.")])))
        return redirect("dialogs:onboarding")
    goal = form.cleaned_data["goal"]
    try:
        practice.practice_goal_mark(goal=goal, admin=request.user)
    except practice.PracticeRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, _("Goal %(number)s is kept for practice: pairing never hands it out.") % {"number": goal.pk}
        )
    return redirect("dialogs:onboarding")


@require_POST
@role_required("experts.onboard")
def practice_rule(request, campaign_id):
    """Set a campaign's own qualification rule, or (both fields empty) take it back to the default."""
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    form = PracticeRuleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Practice dialogues go from 0 to 20, the share from 0 to 100%%.") % {})
        return redirect("dialogs:onboarding")
    try:
        qualification.practice_rule_set(
            campaign=campaign,
            practice_dialogues=form.cleaned_data["practice_dialogues"],
            min_percent=form.cleaned_data["min_percent"],
            admin=request.user,
        )
    except qualification.QualificationRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The qualification rule of “%(name)s” is saved.") % {"name": campaign.name})
    return redirect("dialogs:onboarding")


@role_required("experts.onboard")
def expert_record(request, user_id):
    """One expert's record, and the admin's decision (POST): qualify or withdraw, with the reason."""
    person = get_object_or_404(User, pk=user_id, role=Role.EXPERT)
    form = DecisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        qualify = form.cleaned_data["decision"] == "qualify"
        act = decisions.expert_qualify if qualify else decisions.expert_withdraw
        try:
            act(person=person, admin=request.user, reason=form.cleaned_data["reason"])
        except qualification.QualificationRefused as exc:
            form.add_error(None, str(exc))
        else:
            done = (
                _("%(name)s is qualified; the decision is recorded.")
                if qualify
                else _("%(name)s is withdrawn; the decision is recorded.")
            )
            messages.success(request, done % {"name": person.username})
            return redirect("dialogs:expert_record", user_id=person.pk)
    return render(request, "dialogs/onboarding/expert_record.html", {"form": form, **selectors.expert_record(person)})
