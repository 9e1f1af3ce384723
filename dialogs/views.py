"""Pages of the dialogs app: the worker's tutorial, lobby and room; the expert's desk and room."""

from django.conf import settings
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from annotation.acts import (
    CONTEXTUAL_PHENOMENA,
    FOLLOW_UP_KINDS,
    INTENT_CATEGORY_NAMES,
    SYSTEM_ACTS,
    USER_ACTS,
)
from annotation.models import Role
from annotation.roles import role_required
from annotation.sql.relations import CATEGORY_OF, RELATION_NAMES
from annotation.sql.schema import describe_tables
from dialogs import selectors, services
from dialogs.models import Dialogue
from dialogs.services import DialogueError
from dialogs.tutorial import QUIZ


@role_required("chat.as_worker")
def worker_home(request):
    """Tutorial and quiz first; then the lobby; a worker already in a dialogue goes straight back to it."""
    if request.user.tutorial_passed_at is None:
        return redirect("dialogs:tutorial")
    dialogue = services.dialogue_open_for(request.user)
    if dialogue is not None:
        return redirect("dialogs:room", dialogue_id=dialogue.pk)
    # After "Leave the queue" the page must not put the worker straight back in: they rejoin with a button.
    auto_join = "left" not in request.GET
    return render(request, "dialogs/lobby.html", {"role": Role.WORKER, "auto_join": auto_join})


@role_required("chat.as_worker")
def tutorial(request):
    failed = False
    if request.method == "POST":
        answers = {item["name"]: request.POST.get(item["name"]) for item in QUIZ}
        if services.worker_pass_tutorial(person=request.user, answers=answers):
            messages.success(request, "Well done! You are ready to chat.")
            return redirect("dialogs:worker_home")
        failed = True
    return render(
        request, "dialogs/tutorial.html", {"quiz": QUIZ, "failed": failed, "follow_up_kinds": FOLLOW_UP_KINDS}
    )


@role_required("chat.as_expert")
def expert_home(request):
    return render(
        request,
        "dialogs/expert_home.html",
        {"role": Role.EXPERT, "open_dialogues": selectors.expert_open_dialogues(request.user)},
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
            "user_acts": USER_ACTS,
            "system_acts": SYSTEM_ACTS,
            "schema_json": dialogue.database.schema,
            "phenomena": CONTEXTUAL_PHENOMENA,
            "labels_json": {
                "categories": INTENT_CATEGORY_NAMES,
                "relations": {name: [title, CATEGORY_OF[name]] for name, title in RELATION_NAMES.items()},
                "phenomena_required": settings.CHASE_PHENOMENA_REQUIRED,
            },
        },
    )


def room(request, dialogue_id):
    """One URL for both sides of a room; the participant check decides which screen (anyone else: 403/login)."""
    if not request.user.is_authenticated:
        from django.contrib.auth.views import redirect_to_login

        return redirect_to_login(request.get_full_path())
    dialogue = get_object_or_404(Dialogue.objects.select_related("database", "goal"), pk=dialogue_id)
    try:
        side = services.dialogue_side(dialogue=dialogue, person=request.user)
    except DialogueError:
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied("You are not a participant of this dialogue.") from None
    return (worker_room if side == Role.WORKER else expert_room)(request, dialogue)


room.required_permission = "chat.as_worker|chat.as_expert"


def room_table(request, dialogue_id, table_index):
    """A page of one table of the dialogue's database, for either participant (workers see content, never SQL)."""
    from django.core.exceptions import PermissionDenied
    from django.http import Http404, HttpResponseBadRequest, JsonResponse

    from annotation.selectors import database_table_page

    if not request.user.is_authenticated:
        raise PermissionDenied("Sign in first.")
    dialogue = get_object_or_404(Dialogue.objects.select_related("database"), pk=dialogue_id)
    try:
        services.dialogue_side(dialogue=dialogue, person=request.user)
    except DialogueError:
        raise PermissionDenied("You are not a participant of this dialogue.") from None
    try:
        page = request.GET.get("page", "1")
        data = database_table_page(database=dialogue.database, table_index=table_index, page=page)
    except IndexError:
        raise Http404("no such table") from None
    except ValueError as exc:  # a page that is not a number, or out of range
        return HttpResponseBadRequest(str(exc))
    return JsonResponse(data)


room_table.required_permission = "chat.as_worker|chat.as_expert"


@require_POST
@role_required("chat.as_worker")
def lobby_leave(request):
    services.lobby_leave(person=request.user)
    messages.info(request, "You left the queue. Come back whenever you like.")
    return redirect(reverse("dialogs:worker_home") + "?left=1")
