"""Pages of the review passes: the dashboard with its queues, the review screen, and the claim, correction and
decision actions it posts to."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from annotation.labels.acts import (
    AMBIGUITY_TYPES,
    CONTEXTUAL_PHENOMENA,
    INTENT_CATEGORY_NAMES,
    PRAGMATICS,
    QUESTION_STYLES,
    SYSTEM_ACTS,
    THEMATIC_RELATIONS,
    USER_ACTS,
)
from annotation.labels.relations import CATEGORY_OF, RELATION_NAMES
from annotation.people.roles import can, role_required
from annotation.plumbing.jsonfile import request_json_object
from annotation.sql.schema import describe_tables
from dialogs import log
from dialogs.models import Dialogue
from review.double.selectors import blind_refusal
from review.passes import query_checks as suite_checks
from review.passes import queues
from review.passes import services as passes
from review.passes.agreement import review_agreement
from review.passes.forms import DashboardForm, RejectForm
from review.passes.screen import review_screen
from review.quality.selectors import send_back_figures
from review.records import dialogue_record_of


@role_required("review.work")
def home(request):
    """The dashboard: each queue's count, the filtered list, and the next dialogue to take."""
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
        item.not_for_review_label = passes.not_for_review_label(item.not_for_review)  # what it is, said on its row
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
            # Who may take each pass: a pass whose pool leaves this reviewer out offers them no "Take the next", and
            # a pool with nobody in it is a warning here, for everyone.
            "pools": [
                {**pool, "refusal": passes.pass_pool_refusal(pool["number"], request.user)}
                for pool in passes.pass_pools()
            ],
            "can_keep_pools": can(request.user, "review.manage"),
            "sent_back": send_back_figures(),
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
    refusal = passes.pass_pool_refusal(number, request.user) if number else None
    if refusal:
        messages.error(request, refusal)
        return redirect("review:home")
    review = passes.review_claim_next(reviewer=request.user, review_pass=number)
    if review is None:
        if number:
            messages.info(request, gettext("Nothing is waiting for you in pass %(number)s.") % {"number": number})
        else:
            messages.info(request, gettext("Nothing is waiting for you."))
        return redirect("review:home")
    return redirect("review:dialogue", dialogue_id=review.dialogue_id)


@role_required("review.work")
def dialogue(request, dialogue_id):
    """The review screen of one dialogue: readable by every reviewer, editable by the one holding the claim."""
    item = get_object_or_404(Dialogue.objects.select_related("database", "goal", "expert", "worker"), pk=dialogue_id)
    _not_while_blind(request, dialogue_id)
    return _dialogue_page(request, item, fixing=None)


def _not_while_blind(request, dialogue_id: int) -> None:
    """A 403 for a person labelling this dialogue blind (docs/double_annotation.md): its labels stay hidden."""
    refusal = blind_refusal(request.user, dialogue_id)
    if refusal:
        raise PermissionDenied(refusal)


@role_required("chat.as_expert")
def fix(request, dialogue_id):
    """The same screen for the author of a dialogue sent back to them: the reviewer's notes beside the turns, the
    same editors, and "Return to review". Nobody else's: 404 for a dialogue not waiting for this person's fixes."""
    item = get_object_or_404(Dialogue.objects.select_related("database", "goal", "expert", "worker"), pk=dialogue_id)
    sent = passes.send_back_open(item)
    if sent is None or sent.author_id != request.user.pk:
        raise Http404("This dialogue is not waiting for your fixes.")
    return _dialogue_page(request, item, fixing=sent)


@require_POST
@role_required("chat.as_expert")
def fix_correct(request, dialogue_id):
    """One fix by the author, sent as the review screen sends a correction."""
    item = get_object_or_404(Dialogue.objects.select_related("database"), pk=dialogue_id)
    return _correction(request, item, as_author=True)


@require_POST
@role_required("chat.as_expert")
def fix_return(request, dialogue_id):
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    try:
        sent = passes.send_back_return(author=request.user, dialogue=item, note=request.POST.get("note", ""))
    except passes.ReviewError as error:
        messages.error(request, error.message)
        return redirect("dialogs:expert_home")
    messages.success(
        request,
        ngettext(
            "Dialogue %(number)s is back in review (pass %(pass)s) with your %(count)s fix.",
            "Dialogue %(number)s is back in review (pass %(pass)s) with your %(count)s fixes.",
            sent.fixes,
        )
        % {"number": item.pk, "pass": sent.pass_number, "count": sent.fixes},
    )
    return redirect("dialogs:expert_home")


@require_POST
@role_required("review.work")
def send_back(request, dialogue_id):
    """The reviewer holding the dialogue sends it back to its author with a note, and a note per turn."""
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    turn_notes = {
        key.removeprefix("turn_note_"): value
        for key, value in request.POST.items()
        if key.startswith("turn_note_") and value.strip()
    }
    try:
        sent = passes.review_send_back(
            reviewer=request.user, dialogue=item, note=request.POST.get("note", ""), turn_notes=turn_notes
        )
    except passes.ReviewError as error:
        messages.error(request, error.message)
        return redirect("review:dialogue", dialogue_id=item.pk)
    messages.success(
        request,
        gettext("Dialogue %(number)s is with %(author)s to fix; it comes back to pass %(pass)s.")
        % {"number": item.pk, "author": sent.author.username, "pass": sent.pass_number},
    )
    return redirect("review:home")


def _dialogue_page(request, item: Dialogue, *, fixing):
    screen = review_screen(item)
    review = screen["review"]
    live = passes.claim_live(review)
    holding = fixing is None and live and review.claimed_by_id == request.user.pk
    refusal = passes.review_may_take(review, request.user) if review else gettext("This dialogue is not in review.")
    sent = fixing or passes.send_back_open(item)
    if fixing is None and sent is not None:
        refusal = gettext("This dialogue is with its author (%(name)s) to fix what review asked.") % {
            "name": sent.author.username
        }
    notes = {int(key): text for key, text in (sent.turn_notes if sent else {}).items()}
    for turn_item in screen.get("turns", []):
        turn_item["fix_note"] = notes.get(turn_item["turn"].seq, "")
    return render(
        request,
        "review/dialogue.html",
        {
            "dialogue": item,
            **screen,
            "not_for_review": passes.not_for_review(item),  # what it is, when review never takes it
            "holding": holding,
            "editing": holding or fixing is not None,  # the editors: the claim's holder, or the author fixing it
            "fixing": fixing,
            "sent_back": sent,
            "refusal": refusal,
            "held_by_other": live and not holding,
            "reject_form": RejectForm(),
            "rejection_final": passes.review_rejection_final(review) if holding else None,
            "pass_count": settings.REVIEW_PASSES,
            "can_manage": can(request.user, "review.manage"),
            "can_review": item.expert_id != request.user.pk,  # who may clear a warning (the role is checked above)
            "tables": describe_tables(item.database.schema),
            "config": {
                "holding": holding,
                "correct_url": reverse("review:fix_correct" if fixing else "review:correct", args=[item.pk]),
                "compare_url": reverse("review:compare", args=[item.pk]),
                "compare_seconds": settings.SQL_COMPARE_SECONDS,
                "renew_url": reverse("review:renew", args=[item.pk]),
                "renew_seconds": max(10, settings.REVIEW_CLAIM_SECONDS // 3),
                "validate_url": reverse("annotation:sql_validate", args=[item.database.db_id]),
                "run_url": reverse("annotation:sql_run", args=[item.database.db_id]),
                "user_acts": list(USER_ACTS),
                "system_acts": list(SYSTEM_ACTS),
                "phenomena": list(CONTEXTUAL_PHENOMENA),
                "categories": INTENT_CATEGORY_NAMES,
                "relations": {name: [title, CATEGORY_OF[name]] for name, title in RELATION_NAMES.items()},
                "ambiguity_types": AMBIGUITY_TYPES,  # the ambiguity editor's sub-types, per act
                "pragmatics": PRAGMATICS,
                "question_style": QUESTION_STYLES,
                "thematic_relations": THEMATIC_RELATIONS,
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
    messages.success(request, gettext("Dialogue %(number)s is back in its queue.") % {"number": dialogue_id})
    return redirect("review:home")


@require_POST
@role_required("review.work")
def correct(request, dialogue_id):
    """One correction, sent as JSON {turn, field, value, reason} by the review screen."""
    item = get_object_or_404(Dialogue.objects.select_related("database"), pk=dialogue_id)
    return _correction(request, item, as_author=False)


def _correction(request, item: Dialogue, *, as_author: bool):
    try:
        body = request_json_object(request.body)
    except ValidationError:
        body = None
    if body is None or not isinstance(body.get("turn"), int) or "field" not in body:
        return JsonResponse({"error": "invalid", "message": "Send JSON with 'turn', 'field' and 'value'."}, status=400)
    try:
        event = passes.review_correct(
            reviewer=request.user,
            dialogue=item,
            turn=body["turn"],
            field=str(body["field"]),
            value=body.get("value"),
            reason=str(body.get("reason") or ""),
            as_author=as_author,
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
            reviewer=request.user,
            dialogue=item,
            approve=approve,
            reason=reason,
            fault=form.data.get("fault", "") if not approve else "",
            note=form.data.get("note", ""),
        )
    except passes.ReviewError as error:
        return _review_error(request, error, dialogue_id)
    if review.stage == "failed_validation":
        messages.error(
            request,
            gettext("Dialogue %(number)s failed final validation: fix the turns listed below.")
            % {"number": dialogue_id},
        )
        return redirect("review:dialogue", dialogue_id=dialogue_id)
    said = {"number": dialogue_id, "pass": review.pass_number}
    verdict = {
        "approved": gettext("Dialogue %(number)s approved."),
        "rejected": gettext("Dialogue %(number)s rejected."),
        "pending": gettext("Dialogue %(number)s sent on to pass %(pass)s.")
        if approve
        else gettext("Dialogue %(number)s sent on to pass %(pass)s: a second reviewer decides on the rejection."),
    }
    messages.success(request, verdict.get(review.stage, f"Dialogue {dialogue_id} {review.stage}.") % said)
    return redirect("review:home")


@require_POST
@role_required("review.manage")
def reopen(request, dialogue_id):
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    try:
        passes.review_reopen(admin=request.user, dialogue=item, note=request.POST.get("note", ""))
    except passes.ReviewError as error:
        return _review_error(request, error, dialogue_id)
    messages.success(request, gettext("Dialogue %(number)s is reopened.") % {"number": dialogue_id})
    return redirect("review:dialogue", dialogue_id=dialogue_id)


@require_POST
@role_required("review.work")
def compare(request, dialogue_id):
    """ "Does this query mean the question?": the reviewer's query compared with a turn's query on the test suite,
    sent as JSON {turn, sql}; answers with the comparison and its display (nothing is stored)."""
    item = get_object_or_404(Dialogue.objects.select_related("database", "goal"), pk=dialogue_id)
    _not_while_blind(request, dialogue_id)
    try:
        body = request_json_object(request.body)
    except ValidationError:
        body = None
    if body is None or not isinstance(body.get("turn"), int) or not isinstance(body.get("sql"), str):
        return JsonResponse({"error": "invalid", "message": gettext("Send JSON with 'turn' and 'sql'.")}, status=400)
    try:
        sql = log.text_checked(body["sql"], name=gettext("Your query"), limit=settings.SANDBOX_MAX_SQL_LENGTH)
        check = suite_checks.query_compare(
            record=dialogue_record_of(item), database=item.database, turn=body["turn"], sql=sql, person=request.user
        )
    except log.TextRefused as exc:
        return JsonResponse({"error": exc.code, "message": exc.message}, status=400)
    except suite_checks.CompareRefused as exc:
        code = "too_many" if exc.status == 429 else "sql"
        return JsonResponse({"error": code, "message": str(exc)}, status=exc.status)
    view = suite_checks.check_view(check, label_a=gettext("Your query"), label_b=gettext("The turn's query"))
    html = render_to_string("review/_suite_check.html", {"check": view}, request=request)
    return JsonResponse({"ok": True, "check": check, "html": html})


@require_POST
@role_required("review.work")
def clear_warning(request, dialogue_id, warning_id):
    """A reviewer clears one of final validation's warnings (who and when are kept)."""
    item = get_object_or_404(Dialogue, pk=dialogue_id)
    try:
        passes.validation_warning_clear(reviewer=request.user, dialogue=item, warning_id=warning_id)
    except passes.ReviewError as error:
        return _review_error(request, error, dialogue_id)
    messages.success(request, gettext("The warning is cleared."))
    return redirect("review:dialogue", dialogue_id=dialogue_id)


@role_required("review.manage")
def pools(request):
    """Who may take each review pass (those who manage review: admins): a pool per pass, or none (any reviewer)."""
    from annotation.models import User

    if request.method == "POST":
        try:
            number = int(request.POST.get("number", ""))
        except ValueError:
            number = 0
        members = None
        if request.POST.get("pooled"):
            ids = [value for value in request.POST.getlist("members") if value.isdigit()]
            members = list(User.objects.filter(pk__in=ids))
        try:
            passes.pass_pool_set(number=number, members=members, by=request.user)
        except passes.ReviewError as error:
            messages.error(request, error.message)
        else:
            if members is None:
                messages.success(request, gettext("Any reviewer may take pass %(number)s.") % {"number": number})
            elif members:
                names = ", ".join(sorted(person.username for person in members))
                messages.success(
                    request,
                    gettext("Pass %(number)s is taken by its pool: %(names)s.") % {"number": number, "names": names},
                )
            else:
                messages.warning(
                    request,
                    gettext("Pass %(number)s's pool is empty: any reviewer may take it until you add someone.")
                    % {"number": number},
                )
        return redirect("review:pools")
    people = User.objects.filter(is_active=True).order_by("username")
    reviewers = [person for person in people if can(person, "review.work")]
    return render(request, "review/pools.html", {"pools": passes.pass_pools(), "reviewers": reviewers})
