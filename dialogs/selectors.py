"""Reads of the dialogs app: lobby status, room snapshots, lists."""

from statistics import median

from django.conf import settings
from django.db.models import Count, Q

from annotation.models import Role, User
from dialogs.models import Dialogue, DialogueStatus, Event, LobbyEntry
from dialogs.services import answered_questions, dialogue_turns, partner_connected
from dialogs.visibility import event_view


def _recent_wait_seconds() -> float | None:
    """Median wait of the last 50 workers who were paired (the basis of the estimate shown to waiting workers)."""
    waits = (
        LobbyEntry.objects.filter(role=Role.WORKER, outcome=LobbyEntry.Outcome.PAIRED)
        .order_by("-ended_at")
        .values_list("joined_at", "ended_at")[:50]
    )
    seconds = [(ended - joined).total_seconds() for joined, ended in waits if ended]
    return median(seconds) if seconds else None


def lobby_status(person: User) -> dict:
    """What the lobby screen shows: for a worker their place and an estimate; for an expert who is waiting."""
    waiting_workers = list(
        LobbyEntry.objects.filter(role=Role.WORKER, outcome=LobbyEntry.Outcome.WAITING)
        .select_related("person")
        .order_by("joined_at", "id")
    )
    ready_experts = LobbyEntry.objects.filter(role=Role.EXPERT, outcome=LobbyEntry.Outcome.WAITING).count()
    status = {"waiting_workers": len(waiting_workers), "ready_experts": ready_experts}
    if person.role == Role.WORKER:
        ids = [entry.person_id for entry in waiting_workers]
        entry = next((e for e in waiting_workers if e.person_id == person.pk), None)
        position = ids.index(person.pk) + 1 if person.pk in ids else None
        typical = _recent_wait_seconds() or 60.0
        status.update(
            {
                "position": position,
                "estimated_wait_seconds": round(typical * (position or 1) / max(ready_experts, 1))
                if position
                else None,
                "joined_at": entry.joined_at.isoformat() if entry else None,
                "wait_limit_seconds": settings.LOBBY_WAIT_LIMIT_SECONDS,
            }
        )
    else:
        status["queue"] = [
            {"username": e.person.username, "waiting_since": e.joined_at.isoformat()} for e in waiting_workers
        ]
        status["my_dialogues"] = [
            {"id": d.pk, "db_id": d.database_id and d.database.db_id, "status": d.status, "worker": d.worker.username}
            for d in Dialogue.objects.filter(
                expert=person, status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE]
            ).select_related("database", "worker")
        ]
        status["ready"] = LobbyEntry.objects.filter(person=person, outcome=LobbyEntry.Outcome.WAITING).exists()
    return status


def lobby_no_goal_since(since) -> list[LobbyEntry]:
    """Workers that pairing sent away since `since` because they have had every goal (they get told, with a code)."""
    return list(LobbyEntry.objects.filter(outcome=LobbyEntry.Outcome.NO_GOAL, ended_at__gte=since))


def dialogue_events_after(*, dialogue: Dialogue, role: str, after_seq: int) -> list[dict]:
    """The events after `after_seq` as `role` sees them, in order (for resume after a reconnect)."""
    events = Event.objects.filter(dialogue=dialogue, seq__gt=after_seq).order_by("seq")
    return [view for view in (event_view(event, role) for event in events) if view is not None]


def dialogue_snapshot(*, dialogue: Dialogue, role: str) -> dict:
    """Everything a room screen needs besides the events: who, what, the state, the rules."""
    turns = dialogue_turns(dialogue)
    answered = answered_questions(turns)
    snapshot = {
        "dialogue": dialogue.pk,
        "status": dialogue.status,
        "db_id": dialogue.database.db_id,
        "goal_question": dialogue.goal.question,
        "last_seq": dialogue.last_seq,
        "answered_questions": answered,
        "min_questions": settings.DIALOGUE_MIN_QUESTIONS,
        "can_end": answered >= settings.DIALOGUE_MIN_QUESTIONS,
        "partner": "expert" if role == Role.WORKER else dialogue.worker.username,
        "partner_connected": partner_connected(dialogue, role),
    }
    if role == Role.EXPERT:
        snapshot.update({"goal_sql": dialogue.goal.sql, "score": dialogue.score, "worker": dialogue.worker.username})
    elif dialogue.is_over:
        snapshot["completion_code"] = dialogue.completion_code
    return snapshot


def dialogue_list_for_admin():
    return (
        Dialogue.objects.select_related("database", "worker", "expert", "goal")
        .annotate(utterances=Count("events", filter=Q(events__kind="utterance")))
        .order_by("-created_at")
    )


def expert_open_dialogues(expert: User):
    return Dialogue.objects.filter(
        expert=expert, status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE]
    ).select_related("database", "worker")
