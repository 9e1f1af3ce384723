"""Reads of the dialogs app: lobby status, room snapshots, lists."""

import functools
import heapq
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median
from typing import NamedTuple

from django.conf import settings
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import TruncHour
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from annotation.goals.tree_plan import plan
from annotation.model_client import model_configured
from annotation.models import Goal, Role, User, worker_alias
from annotation.sql.sandbox import execute_many
from dialogs.crowd.campaigns import campaign_progress_list
from dialogs.crowd.services import bonus_promise
from dialogs.lobby import experts_ready
from dialogs.log import TURN_KINDS, LogEvent, answered_questions, dialogue_replay, dialogue_turns
from dialogs.models import (
    ENDED_STATUSES,
    Dialogue,
    DialogueMode,
    DialogueStatus,
    Event,
    EventKind,
    LobbyEntry,
    QueryFirstItem,
    WorkAssignment,
    WorkDeal,
)
from dialogs.room import partner_connected as partner_connected_in

# How many recent dialogues the typical length of a dialogue is taken from.
TYPICAL_OF_LAST = 50


def typical_dialogue_seconds() -> float | None:
    """The median length (paired to ended) of the last TYPICAL_OF_LAST chat dialogues that were completed (a
    simulated pilot's left out: a script is no measure of people). None until one has been: then nothing is
    estimated."""
    lengths = (
        Dialogue.objects.filter(
            mode=DialogueMode.CHAT, status=DialogueStatus.COMPLETED, simulated=False, ended_at__isnull=False
        )
        .order_by("-ended_at")
        .values_list("created_at", "ended_at")[:TYPICAL_OF_LAST]
    )
    seconds = [(ended - created).total_seconds() for created, ended in lengths]
    return median(seconds) if seconds else None


def pairing_times(*, free_in: list[float], typical: float | None, queued: int) -> list[float] | None:
    """When (seconds from now) each of the first `queued` waiting workers may expect to be paired, in queue order:
    each takes the place that frees first, which then frees again a typical dialogue later. `free_in` has one entry
    per place an expert will have: 0 for a ready expert's free place, the typical length less the time already spent
    for a dialogue under way (as if its expert stays ready, as the room asks them to). None when nothing can be
    estimated: no dialogue completed yet to learn a typical length from, or no expert online."""
    if typical is None or not free_in:
        return None
    places = list(free_in)
    heapq.heapify(places)
    times = []
    for _ in range(queued):
        at = heapq.heappop(places)
        times.append(at)
        heapq.heappush(places, at + typical)
    return times


@dataclass(frozen=True)
class LobbyOverview:
    """Everything the lobby screens are computed from, in five queries whatever the crowd. One overview serves every
    lobby socket of a process (see LobbyConsumer): reading the lobby once per socket per change made a crowd of N
    joining at once cost N² reads."""

    waiting_workers: list  # WaitingWorker of each open worker entry, oldest first
    worker_places: dict  # worker id → their place in the queue (1 the first)
    waiting_people: frozenset  # person ids with an open entry (workers queued, experts ready)
    ready_experts: int  # ready at their desk with a free place: the next waiting worker is theirs at once
    busy_experts: int  # online but with no free place now: in a dialogue (or at their EXPERT_MAX_DIALOGUES)
    open_dialogues: dict  # expert id → their waiting/active dialogues, as `my_dialogues` lists them
    worker_dialogues: dict  # worker id → their waiting/active dialogue's id (a worker has at most one)
    pairing_times: list | None  # `pairing_times` for the queue, in its order; None: no estimate yet


class WaitingWorker(NamedTuple):
    """An open worker entry as the lobby screens show it: no model instance (an overview lists the whole queue)."""

    person_id: int
    joined_at: datetime

    @property
    def alias(self) -> str:
        return worker_alias(self.person_id)


# How many waiting workers an expert's lobby status lists (the count covers them all).
QUEUE_SHOWN = 25


def lobby_overview(now=None) -> LobbyOverview:
    now = now or timezone.now()
    waiting_workers = [
        WaitingWorker(*row)
        for row in LobbyEntry.objects.filter(role=Role.WORKER, outcome=LobbyEntry.Outcome.WAITING)
        .order_by("joined_at", "id")
        .values_list("person_id", "joined_at")
    ]
    waiting = list(LobbyEntry.objects.filter(outcome=LobbyEntry.Outcome.WAITING).values_list("person_id", "role"))
    # A scripted expert (docs/simulated_worker.md) never takes a person: it is no expert a worker waits for.
    at_desk = set(experts_ready().filter(person__simulated=False).values_list("person_id", flat=True))
    open_dialogues: dict[int, list[dict]] = {}
    worker_dialogues: dict[int, int] = {}
    busy: set[int] = set()  # experts (people, not scripts) with an open chat
    started: list[float] = []  # seconds since each of their open chats was paired
    open_chats = Dialogue.objects.filter(
        status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE], mode=DialogueMode.CHAT
    )
    # Values, not model instances: with a crowd in the rooms this lists every open dialogue, for every overview.
    rows = open_chats.values_list(
        "pk", "database__db_id", "status", "worker_id", "expert_id", "expert__simulated", "created_at"
    )
    for pk, db_id, status, worker_id, expert_id, simulated, paired_at in rows:
        open_dialogues.setdefault(expert_id, []).append(
            {"id": pk, "db_id": db_id, "status": status, "worker": worker_alias(worker_id)}
        )
        worker_dialogues[worker_id] = pk
        if not simulated:
            busy.add(expert_id)
            started.append((now - paired_at).total_seconds())
    # Ready and free: an expert at their EXPERT_MAX_DIALOGUES takes nobody until one of them ends.
    free_places = [
        settings.EXPERT_MAX_DIALOGUES - len(open_dialogues.get(person_id, []))
        for person_id in at_desk
        if len(open_dialogues.get(person_id, [])) < settings.EXPERT_MAX_DIALOGUES
    ]
    online = at_desk | busy
    typical = typical_dialogue_seconds()
    free_in = [0.0] * sum(free_places)
    if typical is not None:
        # A dialogue that has run longer than is typical is expected to end any moment, not to have ended.
        free_in += [max(typical - spent, 0.0) for spent in started]
    return LobbyOverview(
        waiting_workers=waiting_workers,
        worker_places={worker.person_id: place for place, worker in enumerate(waiting_workers, 1)},
        waiting_people=frozenset(person_id for person_id, _ in waiting),
        ready_experts=len(free_places),
        busy_experts=len(online) - len(free_places),
        open_dialogues=open_dialogues,
        worker_dialogues=worker_dialogues,
        pairing_times=pairing_times(free_in=free_in, typical=typical, queued=len(waiting_workers)),
    )


def lobby_status(person: User, overview: LobbyOverview | None = None) -> dict:
    """What the lobby screen shows: for a worker their place, how many experts are online (free or busy) and an
    estimate when one can be made; for an expert who is waiting and what their readiness means now."""
    overview = overview or lobby_overview()
    waiting_workers = overview.waiting_workers
    status = {
        "waiting_workers": len(waiting_workers),
        "ready_experts": overview.ready_experts,
        "busy_experts": overview.busy_experts,
    }
    if person.role == Role.WORKER:
        position = overview.worker_places.get(person.pk)
        entry = waiting_workers[position - 1] if position else None
        # A worker who has been paired is told so by every status too, not only by the one `paired` frame: the
        # channel layer is at-most-once, and a worker whose notice was lost would otherwise wait in an empty lobby.
        dialogue_id = overview.worker_dialogues.get(person.pk)
        times = overview.pairing_times
        status.update(
            {
                "position": position,
                # None when it cannot be estimated (no expert online, or no dialogue completed yet to learn how long
                # one takes): the screen says so rather than guess a minute.
                "estimated_wait_seconds": round(times[position - 1]) if position and times else None,
                "joined_at": entry.joined_at.isoformat() if entry else None,
                "wait_limit_seconds": settings.LOBBY_WAIT_LIMIT_SECONDS,
                "dialogue": dialogue_id,
                "url": dialogue_room_url(dialogue_id) if dialogue_id else None,
            }
        )
    else:
        # The longest waits only: a list of hundreds helps nobody, and every expert's socket gets it on each change.
        status["queue"] = [
            {"name": e.alias, "waiting_since": e.joined_at.isoformat()} for e in waiting_workers[:QUEUE_SHOWN]
        ]
        status["my_dialogues"] = list(overview.open_dialogues.get(person.pk, []))
        status["ready"] = person.pk in overview.waiting_people
        open_ids = [d["id"] for d in status["my_dialogues"]]
        status["readiness"] = expert_readiness(ready=status["ready"], open_ids=open_ids)
    return status


def expert_readiness(*, ready: bool, open_ids: list[int]) -> str:
    """What an expert's "ready" means now, in their words: the desk shows it with every status, and the "stay ready"
    form says it once more. A ready expert at their EXPERT_MAX_DIALOGUES is paired with nobody until one of those
    dialogues ends, and an end takes them out of the lobby until they choose to stay ready (dialogs.room._end)."""
    if not ready:
        return gettext("You are not taking dialogues. Switch on to be paired with waiting workers.")
    if len(open_ids) < settings.EXPERT_MAX_DIALOGUES:
        return gettext("You are ready: the next waiting worker is paired with you and the room opens by itself.")
    names = gettext(" and ").join(str(pk) for pk in open_ids)
    return ngettext(
        "You are ready, but busy with dialogue %(names)s: you are paired with the next waiting worker when you "
        "finish it (end it, score the worker and choose “Stay ready”).",
        "You are ready, but busy with dialogues %(names)s: you are paired with the next waiting worker when you "
        "finish it (end it, score the worker and choose “Stay ready”).",
        len(open_ids),
    ) % {"names": names}


def dialogue_room_url(dialogue_id: int) -> str:
    # Every lobby status of a paired worker names their room: a crowd's statuses reversed the URL thousands of times.
    pattern = _room_url_pattern(get_script_prefix(), get_urlconf())
    return pattern.replace(_ROOM_URL_MARK, str(int(dialogue_id)), 1)


_ROOM_URL_MARK = "987654321"


@functools.lru_cache(maxsize=8)
def _room_url_pattern(prefix: str, urlconf) -> str:
    return reverse("dialogs:room", args=[int(_ROOM_URL_MARK)])


def dialogue_snapshot(*, dialogue: Dialogue, role: str, turns=None, partner_connected: bool | None = None) -> dict:
    """Everything a room screen needs besides the events: who, what, the state, the rules. A room socket that keeps
    the turns and the partner's presence up to date passes them; otherwise they are read from the log."""
    if turns is None:
        turns = dialogue_turns(dialogue)
    if partner_connected is None:
        partner_connected = partner_connected_in(dialogue, role)
    answered = answered_questions(turns)
    snapshot = {
        "dialogue": dialogue.pk,
        "status": dialogue.status,
        "db_id": dialogue.database.db_id,
        "goal_question": dialogue.goal.question if dialogue.goal_id else "",
        "last_seq": dialogue.last_seq,
        "answered_questions": answered,
        "min_questions": dialogue.min_questions,
        "can_end": answered >= dialogue.min_questions,
        "partner": "expert" if role == Role.WORKER else dialogue.worker.alias,
        "partner_connected": partner_connected,
        # A pairing cancelled by sending the worker back to the queue: the worker goes back, nobody scores it.
        "requeued": dialogue.requeued,
    }
    if role == Role.EXPERT:
        snapshot.update(
            {
                # Practice keeps the gold to itself until the end (docs/experts.md: the result page shows it).
                "goal_sql": dialogue.goal.sql if dialogue.goal_id and not dialogue.practice else "",
                "practice": dialogue.practice,
                "score": dialogue.score,
                "worker": dialogue.worker.alias,
                # Whether the expert may ask a model for SQL drafts here (room message model_sql).
                "model_help": dialogue.model_help and model_configured(),
            }
        )
    else:
        snapshot["bonus"] = bonus_progress(dialogue, answered)
        if dialogue.is_over:
            snapshot["completion_code"] = dialogue.completion_code
    return snapshot


def bonus_progress(dialogue: Dialogue, answered: int) -> dict | None:
    """How far the worker's dialogue is toward the bonus they were promised (`bonus_promise`: their crowd task's
    campaign), by the rule the payout reads (`Campaign.bonus_earned`); None when nothing was promised."""
    promise = bonus_promise(dialogue.crowd_assignment) if dialogue.crowd_assignment_id else None
    if promise is None:
        return None
    return {
        "min_questions": promise.min_questions,
        "earned": dialogue.crowd_assignment.campaign.bonus_earned(answered),
        "rule": promise.text,
    }


def expert_open_dialogues(expert: User):
    return Dialogue.objects.filter(
        expert=expert, status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE], mode=DialogueMode.CHAT
    ).select_related("database", "worker")


def solo_list(expert: User):
    """The expert's solo sequences, newest first, with how far each got."""
    return (
        Dialogue.objects.filter(expert=expert, mode=DialogueMode.SOLO)
        .select_related("database", "goal")
        .order_by("-created_at")
    )


def solo_page(dialogue: Dialogue) -> dict:
    """What the solo page shows: the sequence so far (each question with its SQL, result, labels and the suggestion
    it followed), the suggestion for the next question, and whether the sequence may be finished."""
    rows = dialogue.events.order_by("seq").values_list("seq", "kind", "payload", "author_role", "created_at")
    events = [LogEvent(*row) for row in rows]
    record = dialogue_replay(dialogue=dialogue, events=events)
    turns = [turn for turn in record.user_turns if turn.sql is not None and not turn.dropped]
    last = turns[-1] if turns else None
    suggestion = None
    if last is not None:
        offered = [e.payload for e in events if e.kind == "recommendation" and e.payload.get("turn") == last.seq]
        suggestion = offered[-1] if offered else None
    return {
        "record": record,
        "turns": turns,
        "suggestion": suggestion,
        "answered": len(turns),
        "min_questions": dialogue.min_questions,
        "can_finish": len(turns) >= dialogue.min_questions and not dialogue.is_over,
    }


# --- The live operations board (admins) --------------------------------------------------------------------------

# Waiting workers and open rooms the board lists (the counts cover them all).
OPERATIONS_LISTED = 200


def operations_overview(now=None) -> dict:
    """What the live operations board shows, in a fixed number of queries whatever the crowd: who waits (and how
    long), who is ready, the open rooms (database, age, questions, last activity), today's outcomes, dialogues per
    hour over the last day, the median wait of the workers paired in the last hour, and each campaign's
    progress. Times are ISO strings and
    seconds, ready to send as JSON."""
    now = now or timezone.now()
    waiting = LobbyEntry.objects.filter(outcome=LobbyEntry.Outcome.WAITING)
    workers = list(
        waiting.filter(role=Role.WORKER).order_by("joined_at", "id").values_list("person__username", "joined_at")
    )
    experts = sorted(waiting.filter(role=Role.EXPERT).values_list("person__username", flat=True))
    last_activity = Event.objects.filter(dialogue=OuterRef("pk"), seq=OuterRef("last_seq")).values("created_at")[:1]
    rooms = list(
        Dialogue.objects.filter(status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE], mode=DialogueMode.CHAT)
        .annotate(last_activity=Subquery(last_activity))
        .order_by("created_at")
        .values(
            "id",
            "status",
            "created_at",
            "last_activity",
            "database__db_id",
            "worker__username",
            "expert__username",
            "simulated",
        )[:OPERATIONS_LISTED]
    )
    # Questions as the worker's counter counts them (dialogs.log.question_counts, the one rule): answered with SQL,
    # not every message the worker sent. One read of the listed rooms' turn events, replayed per room.
    events_of: dict[int, list] = {room["id"]: [] for room in rooms}
    for event in (
        Event.objects.filter(dialogue_id__in=list(events_of), kind__in=TURN_KINDS)
        .only("dialogue_id", "seq", "kind", "payload")
        .order_by("dialogue_id", "seq")
    ):
        events_of[event.dialogue_id].append(event)
    for room in rooms:
        room["questions"] = answered_questions(dialogue_turns(None, events_of[room["id"]]))
    open_counts = Dialogue.objects.filter(
        status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE], mode=DialogueMode.CHAT
    ).aggregate(all=Count("id"), simulated=Count("id", filter=Q(simulated=True)))
    midnight = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    today = dict(
        Dialogue.objects.filter(ended_at__gte=midnight, mode=DialogueMode.CHAT)
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    day_ago = now - timedelta(hours=24)
    hours = [
        timezone.localtime(now).replace(minute=0, second=0, microsecond=0) - timedelta(hours=k)
        for k in range(23, -1, -1)
    ]

    def per_hour(queryset, field):
        counted = dict(
            queryset.filter(**{f"{field}__gte": hours[0]})
            .annotate(hour=TruncHour(field))
            .values_list("hour")
            .annotate(n=Count("id"))
            .values_list("hour", "n")
        )
        by_hour = {
            timezone.localtime(hour).replace(minute=0, second=0, microsecond=0): n for hour, n in counted.items()
        }
        return [by_hour.get(hour, 0) for hour in hours]

    chats = Dialogue.objects.filter(mode=DialogueMode.CHAT, created_at__gte=day_ago)
    started = per_hour(chats, "created_at")
    completed = per_hour(
        Dialogue.objects.filter(mode=DialogueMode.CHAT, status=DialogueStatus.COMPLETED, ended_at__gte=day_ago),
        "ended_at",
    )
    waits = [
        (ended - joined).total_seconds()
        for joined, ended in LobbyEntry.objects.filter(
            role=Role.WORKER, outcome=LobbyEntry.Outcome.PAIRED, ended_at__gte=now - timedelta(hours=1)
        ).values_list("joined_at", "ended_at")
    ]

    def seconds_since(moment):
        return round((now - moment).total_seconds()) if moment else None

    return {
        "at": now.isoformat(),
        "waiting": {
            "count": len(workers),
            "workers": [
                {"username": name, "waiting_seconds": seconds_since(joined)}
                for name, joined in workers[:OPERATIONS_LISTED]
            ],
        },
        "ready_experts": experts,
        "rooms": {
            "count": open_counts["all"],
            # A pilot's rooms (docs/simulated_worker.md): a simulated worker in a real room, marked on the board.
            "simulated": open_counts["simulated"],
            "listed": [
                {
                    "id": room["id"],
                    "status": room["status"],
                    "db_id": room["database__db_id"],
                    "worker": room["worker__username"],
                    "expert": room["expert__username"],
                    "age_seconds": seconds_since(room["created_at"]),
                    "questions": room["questions"],
                    "idle_seconds": seconds_since(room["last_activity"]),
                    "simulated": room["simulated"],
                }
                for room in rooms
            ],
        },
        "median_wait_seconds_last_hour": round(median(waits)) if waits else None,
        "paired_last_hour": len(waits),
        "today": {status: today.get(status, 0) for status in ("completed", "abandoned", "dropped", "terminated")},
        "campaigns": [
            {
                "name": row.campaign.name,
                "open": row.open,
                "goals": row.goals,
                "target": row.target,
                "collected": row.collected,
            }
            for row in campaign_progress_list(now)
        ],
        "per_hour": {"hours": [hour.strftime("%H:00") for hour in hours], "started": started, "completed": completed},
    }


# How a dialogue ended, in the worker's words: the expert's score (and a drop for a low one) is not theirs to see.
WORKER_OUTCOMES = {
    DialogueStatus.COMPLETED: gettext_lazy("Completed"),
    DialogueStatus.DROPPED: gettext_lazy("Completed"),
    DialogueStatus.ABANDONED: gettext_lazy("Abandoned"),
    DialogueStatus.TERMINATED: gettext_lazy("Ended by the expert"),
}


def worker_history(person: User) -> list[dict]:
    """A worker's own past: every dialogue they had and every lobby wait that gave them a completion code, newest
    first, each with its code (a dialogue's once it is over, as the room shows it) and whether the code can be taken
    back to its crowd study from here. Three queries, however long the history."""
    rows = []
    dialogues = (
        Dialogue.objects.filter(worker=person, mode=DialogueMode.CHAT)
        .select_related("database", "goal", "crowd_assignment__campaign")
        .order_by("-created_at", "-id")
    )
    for dialogue in dialogues:
        code = dialogue.completion_code if dialogue.is_over else ""
        rows.append(
            {
                "when": dialogue.created_at,
                "what": gettext("Dialogue %(number)s on %(database)s")
                % {"number": dialogue.pk, "database": dialogue.database.db_id},
                "goal": dialogue.goal.question if dialogue.goal_id else "",
                "outcome": WORKER_OUTCOMES.get(dialogue.status, gettext("Under way")),
                "code": code,
                "returns": bool(code and _completion_url(dialogue.crowd_assignment)),
                "room": None if dialogue.is_over else dialogue_room_url(dialogue.pk),
            }
        )
    waits = (
        LobbyEntry.objects.filter(person=person, role=Role.WORKER)
        .exclude(completion_code="")
        .select_related("crowd_assignment__campaign")
    )
    for entry in waits:
        rows.append(
            {
                "when": entry.joined_at,
                "what": gettext("A wait in the lobby"),
                "goal": "",
                "outcome": entry.get_outcome_display(),
                "code": entry.completion_code,
                "returns": bool(_completion_url(entry.crowd_assignment)),
                "room": None,
            }
        )
    return sorted(rows, key=lambda row: row["when"], reverse=True)


def _completion_url(assignment) -> str:
    return assignment.campaign.completion_url if assignment is not None else ""


# --- Query-first annotation (dialogs/query_first.py) ---------------------------------------------------------


def goals_waiting_for_question():
    """Sampled goals waiting for a phase-1 question: of an active database, not discarded, not written by anyone yet,
    and skipped by fewer than QUERY_FIRST_MAX_SKIPS people (what a deal of query-first work deals, docs/dealing.md)."""
    return (
        Goal.objects.filter(
            source=Goal.Source.GENERATED, question="", tree__isnull=False, database__active=True, discarded_at=None
        )
        .annotate(
            skips=Count("query_first_items", filter=Q(query_first_items__stage=QueryFirstItem.Stage.SKIPPED)),
            written=Count("query_first_items", filter=Q(query_first_items__stage__in=QueryFirstItem.WRITTEN)),
        )
        .filter(skips__lt=settings.QUERY_FIRST_MAX_SKIPS, written=0)
    )


def goals_to_write(person: User):
    """Sampled goals waiting for a question (`goals_waiting_for_question`) that `person` may write one for: not skipped
    by `person`, and not dealt to someone else (docs/dealing.md)."""
    dealt_to_others = (
        WorkAssignment.objects.filter(deal__kind=WorkDeal.Kind.QUERY_FIRST, state__in=WorkAssignment.OPEN_STATES)
        .exclude(person=person)
        .values("goal_id")
    )
    return (
        goals_waiting_for_question()
        .annotate(
            mine=Count(
                "query_first_items",
                filter=Q(query_first_items__writer=person, query_first_items__stage=QueryFirstItem.Stage.SKIPPED),
            ),
        )
        .filter(mine=0)
        .exclude(pk__in=dealt_to_others)
        .select_related("database")
        .order_by("id")
    )


def goal_uses(goal: Goal) -> int:
    """How many dialogues, and phase-1 questions on their way to one, a goal has: a goal with any is deactivated
    rather than discarded (annotation.goals.services.goal_discard, which asks through goal_use_source)."""
    written = QueryFirstItem.objects.filter(goal=goal, stage__in=QueryFirstItem.WRITTEN, dialogue__isnull=True)
    return Dialogue.objects.filter(goal=goal).count() + written.count()


def items_to_align(person: User):
    """Phase-1 questions waiting for phase 2 that `person` may take: written by someone else."""
    return (
        QueryFirstItem.objects.filter(stage=QueryFirstItem.Stage.ALIGNING)
        .exclude(writer=person)
        .select_related("goal__database")
        .order_by("written_at", "id")
    )


PLAN_ROWS_SHOWN = 5


def query_first_plan(tree: dict, database) -> list[dict]:
    """The plan of a sampled goal's tree (annotation.goals.tree_plan) with each step's intermediate result, run in the
    sandbox: its first PLAN_ROWS_SHOWN rows, its columns and how many rows it has (None when it fails)."""
    steps = plan(tree, database.schema)
    sqls = [step.sql for step in steps]
    counts = [f"SELECT count(*) FROM ({sql})" for sql in sqls]  # noqa: S608 (the plan's own SQL)
    results = execute_many(database.path, sqls + counts)
    shown = []
    for step, result, counted in zip(steps, results[: len(steps)], results[len(steps) :], strict=True):
        shown.append(
            {
                **step.as_dict(),
                "columns": result.columns,
                "rows": result.rows[:PLAN_ROWS_SHOWN],
                "row_count": counted.rows[0][0] if counted.ok and counted.rows else None,
                "error": (result.error or {}).get("message") if not result.ok else None,
            }
        )
    return shown


def collected_queries(database, limit: int) -> list[str]:
    """The SQL of the newest `limit` distinct runs that worked in the ended dialogues on `database`: the queries
    collected on it, which its test suite must tell apart from their neighbours (annotation.suites.builds)."""
    runs = (
        Event.objects.filter(
            dialogue__database=database,
            dialogue__status__in=ENDED_STATUSES,
            kind=EventKind.SQL_RUN,
            payload__result__ok=True,
        )
        .order_by("-id")
        .values_list("payload__sql", flat=True)
    )
    seen: dict[str, None] = {}
    for sql in runs.iterator(chunk_size=500):
        if isinstance(sql, str) and sql.strip():
            seen.setdefault(sql.strip(), None)
            if len(seen) >= limit:
                break
    return list(seen)
