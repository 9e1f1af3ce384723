"""Pages of the dialogs app: the worker's tutorial, lobby and room; the expert's desk, room and solo sequences."""

import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from annotation.databases.selectors import database_table_page
from annotation.labels.acts import (
    ACT_RULES,
    AMBIGUITY_TYPES,
    CONTEXTUAL_PHENOMENA,
    FOLLOW_UP_KINDS,
    INTENT_CATEGORY_NAMES,
    PRAGMATICS,
    QUESTION_STYLES,
    RESPONSE_GUIDE,
    THEMATIC_OF_RELATION,
    THEMATIC_RELATIONS,
    acts_with_keys,
)
from annotation.labels.relations import CATEGORY_OF, RELATION_NAMES
from annotation.labels.tokens import utterance_toks
from annotation.models import Role
from annotation.people.roles import can, participants_only, role_required
from annotation.plumbing.jsonfile import request_json_object
from annotation.sql.schema import describe_tables
from dialogs import lobby, selectors
from dialogs.crowd.services import bonus_promise, crowd_assignment_current, crowd_return_config
from dialogs.deals.selectors import assigned_to
from dialogs.errors import DialogueError
from dialogs.forms import SoloStartForm, SuperviseForm
from dialogs.models import Dialogue, DialogueMode, WorkDeal
from dialogs.onboarding.selectors import desk_onboarding
from dialogs.room import (
    dialogue_post,
    dialogue_side,
    dialogue_supervise_end,
    dialogue_supervise_requeue,
    text_limits,
)
from dialogs.solo import solo_create, solo_turn_add
from dialogs.tutorial import QuizBankError, quiz_draw, quiz_items

logger = logging.getLogger(__name__)


@role_required("chat.as_worker")
def worker_home(request):
    """Tutorial and quiz first; then the lobby; a worker already in a dialogue goes straight back to it."""
    if request.user.tutorial_passed_at is None:
        return redirect("dialogs:tutorial")
    dialogue = lobby.dialogue_open_for(request.user)
    if dialogue is not None:
        return redirect("dialogs:room", dialogue_id=dialogue.pk)
    # The queue is joined on purpose: on the first visit, from the tutorial, or with "Take another dialogue"
    # (?join=1). After a dialogue, or after "Leave the queue", the page waits for the button: a worker who only looks
    # at "My tasks" is not paired again.
    auto_join = "join" in request.GET or (
        "left" not in request.GET and not Dialogue.objects.filter(worker=request.user).exists()
    )
    crowd_return = crowd_return_config(crowd_assignment_current(request.user))
    return render(
        request, "dialogs/lobby.html", {"role": Role.WORKER, "auto_join": auto_join, "crowd_return": crowd_return}
    )


@role_required("chat.as_worker")
def worker_history(request):
    """The worker's past dialogues and lobby waits with their completion codes."""
    return render(request, "dialogs/worker_history.html", {"rows": selectors.worker_history(request.user)})


@role_required("chat.as_worker")
def tutorial(request):
    """The tutorial and its quiz: the worker's own draw of the bank (kept in their session until they pass or cool
    down), their choices kept after a wrong try, with the result next to the button they pressed. A quiz file that
    cannot be used is logged for the admins and told to the worker in words, never as an error page."""
    context = {
        "follow_up_kinds": FOLLOW_UP_KINDS,
        "tries": settings.QUIZ_TRIES,
        "min_questions": settings.DIALOGUE_MIN_QUESTIONS,
        # The bonus of the crowd task the worker came with, as its campaign pays it; nothing without one.
        "bonus": bonus_promise(crowd_assignment_current(request.user)),
    }
    cooldown = lobby.worker_quiz_cooldown(request.user)
    drawn_now = False
    try:
        items = None if cooldown else quiz_items(request.session.get("quiz_draw") or [])
        if not cooldown and not items:
            request.session["quiz_draw"] = quiz_draw()
            items, drawn_now = quiz_items(request.session["quiz_draw"]), True
    except QuizBankError as exc:
        logger.error("The tutorial quiz cannot be shown: %s", exc)
        return render(request, "dialogs/tutorial.html", {**context, "quiz_unavailable": True}, status=503)
    answers = {}
    if request.method == "POST" and items and drawn_now:
        # Answers to a quiz this session no longer holds (expired, or the bank changed): not a try of theirs.
        context["quiz_changed"] = True
    elif request.method == "POST" and items:
        answers = {item["name"]: request.POST.get(item["name"], "") for item in items}
        outcome = lobby.worker_quiz_answer(person=request.user, draw=request.session["quiz_draw"], answers=answers)
        if outcome.passed:
            request.session.pop("quiz_draw", None)
            messages.success(request, gettext("Well done! You are ready to chat."))
            return redirect(reverse("dialogs:worker_home") + "?join=1")  # straight into the queue: asked for
        if outcome.cooldown_until:
            request.session.pop("quiz_draw", None)  # other questions after the cool-down
            cooldown, items = outcome.cooldown_until, None
        context["outcome"] = outcome
    for item in items or []:
        item["answer"] = answers.get(item["name"], "")
    return render(request, "dialogs/tutorial.html", {**context, "quiz": items, "cooldown": cooldown})


@role_required("chat.as_expert")
def expert_home(request):
    """The desk: the guidelines to read, practice and where the expert stands (docs/experts.md), then readiness."""
    return render(
        request,
        "dialogs/expert_home.html",
        {
            "role": Role.EXPERT,
            "open_dialogues": selectors.expert_open_dialogues(request.user),
            "onboarding": desk_onboarding(request.user),
        },
    )


@role_required("chat.as_worker")
def worker_room(request, dialogue):
    return render(
        request,
        "dialogs/worker_room.html",
        {
            "dialogue": dialogue,
            "tables": describe_tables(dialogue.database.schema),
            "follow_up_kinds": FOLLOW_UP_KINDS,
            "crowd_return": crowd_return_config(dialogue.crowd_assignment),
            "bonus": bonus_promise(dialogue.crowd_assignment),
            "text_limits": text_limits(),
        },
    )


@role_required("chat.as_expert")
def expert_room(request, dialogue):
    return render(
        request,
        "dialogs/expert_room.html",
        {
            "dialogue": dialogue,
            "tables": describe_tables(dialogue.database.schema),
            "user_act_keys": acts_with_keys("user"),
            "system_act_keys": acts_with_keys("system"),
            "schema_json": dialogue.database.schema,
            "labels_json": label_vocabulary(),
            "acts_json": {"rules": ACT_RULES, "guide": RESPONSE_GUIDE, "ambiguity_types": AMBIGUITY_TYPES},
            "text_limits": text_limits(),
        },
    )


def label_vocabulary() -> dict:
    """What the CHASE label editor (static/js/chase_labels.js) offers and names."""
    return {
        "categories": INTENT_CATEGORY_NAMES,
        "relations": {name: [title, CATEGORY_OF[name]] for name, title in RELATION_NAMES.items()},
        "phenomena": CONTEXTUAL_PHENOMENA,
        "phenomena_required": settings.CHASE_PHENOMENA_REQUIRED,
        "pragmatics": PRAGMATICS,
        "question_style": QUESTION_STYLES,
        "thematic_relations": THEMATIC_RELATIONS,
        "thematic_of_relation": THEMATIC_OF_RELATION,  # what a detected intent proposes (a proposal, not a label)
    }


@participants_only("dialogs.room.dialogue_side")
def room(request, dialogue_id):
    """One URL for both sides of a room; the participant check decides which screen. A supervisor who is no participant
    goes to the room's read-only view; anyone else: 403/login."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    dialogue = get_object_or_404(
        Dialogue.objects.select_related(
            "database", "goal", "crowd_assignment__campaign", "crowd_assignment__crowd_worker"
        ),
        pk=dialogue_id,
    )
    try:
        side = dialogue_side(dialogue=dialogue, person=request.user)
    except DialogueError:
        if can(request.user, "rooms.supervise") and not dialogue.is_solo:
            return redirect("dialogs:room_watch", dialogue_id=dialogue.pk)  # a supervisor watches, read-only
        raise PermissionDenied(gettext("You are not a participant of this dialogue.")) from None
    if dialogue.mode == DialogueMode.QUERY_FIRST:
        return redirect("dialogs:query_first_home")  # its one turn was sent from phase 2; nothing more to write
    if dialogue.is_solo:
        return redirect("dialogs:solo", dialogue_id=dialogue.pk)
    return (worker_room if side == Role.WORKER else expert_room)(request, dialogue)


@participants_only("dialogs.room.dialogue_side")
def room_table(request, dialogue_id, table_index):
    """A page of one table of the dialogue's database, for either participant (workers see content, never SQL)."""
    if not request.user.is_authenticated:
        raise PermissionDenied(gettext("Sign in first."))
    dialogue = get_object_or_404(Dialogue.objects.select_related("database"), pk=dialogue_id)
    try:
        dialogue_side(dialogue=dialogue, person=request.user)
    except DialogueError:
        raise PermissionDenied(gettext("You are not a participant of this dialogue.")) from None
    try:
        page = request.GET.get("page", "1")
        data = database_table_page(database=dialogue.database, table_index=table_index, page=page)
    except IndexError:
        raise Http404("no such table") from None
    except ValueError as exc:  # a page that is not a number, or out of range
        return HttpResponseBadRequest(str(exc))
    return JsonResponse(data)


@require_POST
@role_required("chat.as_worker")
def lobby_leave(request):
    lobby.lobby_leave(person=request.user)
    messages.info(request, gettext("You left the queue. Come back whenever you like."))
    return redirect(reverse("dialogs:worker_home") + "?left=1")


@require_POST
@role_required("chat.as_expert")
def expert_ready(request):
    """The expert's answer, after a dialogue, to "take the next worker?": ready again, or not for now."""
    if request.POST.get("ready") == "1":
        before = set(selectors.expert_open_dialogues(request.user).values_list("id", flat=True))
        try:
            lobby.lobby_enter(person=request.user)
        except DialogueError as exc:
            messages.error(request, exc.message)
        else:
            status = selectors.lobby_status(request.user)
            paired = [d["id"] for d in status["my_dialogues"] if d["id"] not in before]
            if paired:  # their desk open in another tab took a waiting worker at once
                messages.success(
                    request,
                    gettext("A waiting worker is paired with you: dialogue %(number)s.") % {"number": paired[0]},
                )
            else:
                # What "ready" means now: a dialogue still open keeps the expert from being paired until it ends.
                messages.success(request, status["readiness"])
    else:
        lobby.lobby_leave(person=request.user)
        messages.info(request, gettext("You are not taking dialogues. Switch on “Ready” when you want the next one."))
    return redirect("dialogs:expert_home")


# --- Solo sequences (SParC, CHASE-C): one expert writes questions and their SQL ------------------------------------


def _solo_of(request, dialogue_id) -> Dialogue:
    """The solo sequence `dialogue_id` if the signed-in expert wrote it; 404 for anything else (nobody else's)."""
    dialogue = get_object_or_404(
        Dialogue.objects.select_related("database", "goal"), pk=dialogue_id, mode=DialogueMode.SOLO
    )
    if dialogue.expert_id != request.user.pk:
        raise Http404("No such solo sequence of yours.")
    return dialogue


def _json_body(request) -> dict:
    try:
        return request_json_object(request.body)
    except ValidationError as exc:
        raise _BadRequest(exc.messages[0]) from None


class _BadRequest(Exception):
    pass


def _solo_answer(action):
    """Run `action()` (which calls dialogue_post), answering JSON: 200 with what it returns, 400 with the refusal's
    code and message, as the room's error frames say them."""
    try:
        return JsonResponse({"ok": True, **(action() or {})})
    except _BadRequest as exc:
        return JsonResponse({"ok": False, "code": "invalid", "message": str(exc)}, status=400)
    except DialogueError as exc:
        return JsonResponse({"ok": False, "code": exc.code, "message": exc.message}, status=400)


@role_required("chat.as_expert")
def solo_home(request):
    """The expert's solo sequences, and a form to start one on a database (with a goal, or none)."""
    form = SoloStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        dialogue = solo_create(
            expert=request.user, database=form.cleaned_data["database"], goal=form.cleaned_data["goal"]
        )
        return redirect("dialogs:solo", dialogue_id=dialogue.pk)
    return render(
        request,
        "dialogs/solo_home.html",
        {
            "form": form,
            "sequences": selectors.solo_list(request.user),
            "min_questions": settings.SOLO_MIN_QUESTIONS,
            "assigned": assigned_to(request.user, WorkDeal.Kind.SOLO),
        },
    )


@role_required("chat.as_expert")
def solo(request, dialogue_id):
    dialogue = _solo_of(request, dialogue_id)
    page = selectors.solo_page(dialogue)
    return render(
        request,
        "dialogs/solo.html",
        {
            "dialogue": dialogue,
            **page,
            "tables": describe_tables(dialogue.database.schema),
            "schema_json": dialogue.database.schema,
            "labels_json": label_vocabulary(),
            "config_json": {
                "turns_url": reverse("dialogs:solo_turns", args=[dialogue.pk]),
                "labels_url": reverse("dialogs:solo_labels", args=[dialogue.pk]),
                "another_url": reverse("dialogs:solo_another", args=[dialogue.pk]),
                "table_url": reverse("dialogs:room_table", args=[dialogue.pk, 0]),
                "validate_url": reverse("annotation:sql_validate", args=[dialogue.database.db_id]),
                "run_url": reverse("annotation:sql_run", args=[dialogue.database.db_id]),
                "over": dialogue.is_over,
                "dialogue": dialogue.pk,
                "text_limits": text_limits(),
                "turns": [
                    {
                        "seq": turn.seq,
                        "labels": turn.labels,
                        "detected": turn.detected,
                        "tokens": utterance_toks(turn.text),
                        "recommended": turn.recommended,
                        "confirmed": bool(turn.confirmed),
                    }
                    for turn in page["turns"]
                ],
            },
        },
    )


@require_POST
@role_required("chat.as_expert")
def solo_turns(request, dialogue_id):
    """Add a question with its SQL (JSON: question, sql, request_id)."""
    dialogue = _solo_of(request, dialogue_id)

    def add():
        body = _json_body(request)
        turn = solo_turn_add(
            dialogue=dialogue,
            person=request.user,
            question=body.get("question", ""),
            sql=body.get("sql", ""),
            request_id=body.get("request_id", ""),
        )
        return {"turn": turn}

    return _solo_answer(add)


@require_POST
@role_required("chat.as_expert")
def solo_labels(request, dialogue_id):
    """Set a question's CHASE labels (JSON: id, turn, and any of intent, contextual_phenomena, schema_linking)."""
    dialogue = _solo_of(request, dialogue_id)

    def save():
        body = _json_body(request)
        dialogue_post(dialogue=dialogue, person=request.user, message={**body, "type": "turn_labels"})

    return _solo_answer(save)


@require_POST
@role_required("chat.as_expert")
def solo_another(request, dialogue_id):
    """Another suggestion for the next question (JSON: id, turn)."""
    dialogue = _solo_of(request, dialogue_id)

    def another():
        body = _json_body(request)
        [(event, _)] = dialogue_post(dialogue=dialogue, person=request.user, message={**body, "type": "recommend"})
        return {"text": event.payload["text"]}

    return _solo_answer(another)


@require_POST
@role_required("chat.as_expert")
def solo_finish(request, dialogue_id):
    """End the sequence (once it has its minimum of questions): it goes to review like a completed dialogue."""
    dialogue = _solo_of(request, dialogue_id)
    try:
        dialogue_post(dialogue=dialogue, person=request.user, message={"id": f"finish-{dialogue.pk}", "type": "end"})
    except DialogueError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, gettext("Finished: the sequence goes to review."))
    return redirect("dialogs:solo", dialogue_id=dialogue.pk)


@role_required("operations.watch")
def operations(request):
    """The live operations board: the first overview is in the page, the socket keeps it current."""
    return render(request, "dialogs/operations.html", {"overview": selectors.operations_overview()})


# --- Watching a room (a supervisor: `rooms.supervise`) -----------------------------------------------------------

_SUPERVISE = {"end": dialogue_supervise_end, "requeue": dialogue_supervise_requeue}


@role_required("rooms.supervise")
def room_watch(request, dialogue_id):
    """Any chat room, read-only, as its expert sees it and live (its socket sends nothing into the room), with the
    form that ends it or sends its worker back to the queue (POST here)."""
    dialogue = get_object_or_404(
        Dialogue.objects.select_related("database", "goal", "worker", "expert"), pk=dialogue_id, mode=DialogueMode.CHAT
    )
    form = SuperviseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        act = _SUPERVISE[form.cleaned_data["action"]]
        try:
            act(dialogue=dialogue, supervisor=request.user, reason=form.cleaned_data["reason"])
        except DialogueError as exc:
            form.add_error(None, exc.message)
        else:
            done = (
                gettext("Dialogue %(dialogue)s is ended.")
                if form.cleaned_data["action"] == "end"
                else gettext("Dialogue %(dialogue)s is ended, and its worker is back in the queue.")
            )
            messages.success(request, done % {"dialogue": dialogue.pk})
            return redirect("dialogs:room_watch", dialogue_id=dialogue.pk)
    return render(request, "dialogs/room_watch.html", {"dialogue": dialogue, "form": form})
