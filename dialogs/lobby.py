"""Writes of the lobby: workers queue, experts say they are ready, and pairing makes dialogues of them.

Pairing is a consequence of the lobby's state, not of a transport: every change that can make a pair (a worker or an
expert joins, a worker goes back to the queue, an expert's desk socket opens) runs it here, and what people are told
of it goes out after commit through `dialogs.broadcast`, whether the change came over a socket, a form or a
housekeeping round.
"""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext

from annotation.models import Goal, Hardness, Role, User
from annotation.people.roles import can
from dialogs import broadcast
from dialogs.control_group import model_help_for
from dialogs.crowd.services import crowd_assignment_current
from dialogs.errors import DialogueError
from dialogs.models import (
    Campaign,
    CrowdAssignment,
    Dialogue,
    DialogueMode,
    DialogueStatus,
    LiveSocket,
    LobbyEntry,
    QuizState,
)
from dialogs.onboarding.qualification import expert_ready_refusal
from dialogs.simulated.pairing import simulated_pilot
from dialogs.tutorial import quiz_wrong


def completion_code() -> str:
    return "WOZ-" + secrets.token_hex(5).upper()


# --- The lobby -----------------------------------------------------------------------------------------------------


def lobby_join(*, person: User) -> LobbyEntry:
    """Put a worker in the queue, or mark an expert ready. Joining twice returns the open entry."""
    if person.role == Role.WORKER and not can(person, "chat.as_worker"):
        raise DialogueError("forbidden", gettext("Your account may not join dialogues."))
    if person.role == Role.WORKER and person.tutorial_passed_at is None:
        raise DialogueError("tutorial", gettext("Please complete the tutorial and quiz first."))
    if person.role == Role.EXPERT and not can(person, "chat.as_expert"):
        raise DialogueError("forbidden", gettext("Your account may not take dialogues."))
    if person.role == Role.EXPERT and (refusal := expert_ready_refusal(person)):
        # Guidelines read and qualified (docs/experts.md): the desk's switch, its socket and "stay ready" all come here.
        raise DialogueError("not_qualified", refusal)
    if person.role not in (Role.WORKER, Role.EXPERT):
        raise DialogueError("forbidden", gettext("Only workers and experts wait in the lobby."))
    if person.role == Role.WORKER and _open_dialogues(person).exists():
        raise DialogueError("busy", gettext("You are already in a dialogue."))
    defaults = {"role": person.role}
    if person.role == Role.WORKER:
        # A worker from a crowd platform waits for the task they came with: its campaign's goals, its code's way back.
        defaults["crowd_assignment"] = crowd_assignment_current(person)
    # Inserted first: a join is almost always a person's first (one statement where a read, then an insert in a
    # savepoint, were six). The open entry is unique per person (one_open_lobby_entry_per_person): joining twice,
    # or two tabs at the same instant, gets the one that is there.
    try:
        with transaction.atomic():
            return LobbyEntry.objects.create(person=person, outcome=LobbyEntry.Outcome.WAITING, **defaults)
    except IntegrityError:
        return LobbyEntry.objects.get(person=person, outcome=LobbyEntry.Outcome.WAITING)


def lobby_leave(*, person: User) -> None:
    """Leave the queue (worker) or stop taking new dialogues (expert); lobby screens are told after commit."""
    left = LobbyEntry.objects.filter(person=person, outcome=LobbyEntry.Outcome.WAITING).update(
        outcome=LobbyEntry.Outcome.LEFT, ended_at=timezone.now()
    )
    if left:
        broadcast.lobby_changed_on_commit()


def on_person_blocked(sender, *, person: User, **kwargs) -> None:
    """annotation.signals.person_blocked: a blocked person leaves the queue, and every socket of theirs (lobby and
    rooms, on every server) closes once the block is committed; the rooms refuse them from then on."""
    lobby_leave(person=person)
    broadcast.person_blocked_on_commit(person_id=person.pk)


def lobby_enter(*, person: User, pair: bool = True) -> LobbyEntry:
    """Join the queue or become ready (`lobby_join`), then pair whoever can be paired now (`lobby_pair`): what a
    socket's `join` and the desk's "stay ready" form both call, so that either way a waiting worker is paired at once
    and everyone concerned is told. `pair=False`: the caller runs the pass itself, once the join is stored (a lobby
    socket: one pass for a burst of joins, dialogs.consumers._PairingPasses)."""
    entry = lobby_join(person=person)
    broadcast.lobby_changed_on_commit()
    if pair:
        lobby_pair()
    return entry


def lobby_release_expired(*, now=None) -> list[LobbyEntry]:
    """Release workers who waited longer than the limit, with a completion code so they still get paid."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.LOBBY_WAIT_LIMIT_SECONDS)
    released = []
    with transaction.atomic():
        expired = LobbyEntry.objects.select_for_update().filter(
            role=Role.WORKER, outcome=LobbyEntry.Outcome.WAITING, joined_at__lt=limit
        )
        for entry in expired:
            entry.outcome = LobbyEntry.Outcome.TIMED_OUT
            entry.ended_at = now
            entry.completion_code = completion_code()
            entry.save(update_fields=["outcome", "ended_at", "completion_code"])
            broadcast.released_on_commit(
                person_id=entry.person_id, completion_code=entry.completion_code, reason=broadcast.RELEASED_TIMED_OUT
            )
            released.append(entry)
        if released:
            broadcast.lobby_changed_on_commit()
    return released


def lobby_requeue(*, dialogue: Dialogue) -> LobbyEntry:
    """Put the worker of `dialogue` (which has just ended without them being done) back in the queue where they first
    queued for it: FIFO pairing puts them ahead of everyone who came later. Call it inside the transaction that ends
    the dialogue; pair (`lobby_pair`) once it is committed. Lobby screens are told after commit. The dialogue is
    marked `requeued`: its pairing is cancelled (dialogs.models.pairing_cancelled)."""
    dialogue.requeued = True
    dialogue.save(update_fields=["requeued"])
    paired = LobbyEntry.objects.filter(dialogue=dialogue, role=Role.WORKER).order_by("-id").first()
    entry, _ = LobbyEntry.objects.get_or_create(
        person_id=dialogue.worker_id,
        outcome=LobbyEntry.Outcome.WAITING,
        # Back in the queue for the same crowd task (its campaign, its code's way back).
        defaults={"role": Role.WORKER, "crowd_assignment_id": dialogue.crowd_assignment_id},
    )
    if paired is not None:
        LobbyEntry.objects.filter(pk=entry.pk).update(joined_at=paired.joined_at)
        entry.joined_at = paired.joined_at
    broadcast.lobby_changed_on_commit()
    return entry


# The dialogues that count toward a goal's collection: those under way and those completed. An abandoned, terminated
# or dropped dialogue gave no data, so its goal is handed out again.
COLLECTED_STATUSES = (DialogueStatus.WAITING, DialogueStatus.ACTIVE, DialogueStatus.COMPLETED)

# Conditions under which apps built on dialogs take a dialogue back out of the collection after it ended (review: a
# rejection), by name. Registered from their AppConfig.ready, so that dialogs names no app above it.
_DISCARDED: dict[str, Q] = {}


def collection_discard(name: str, condition: Q) -> None:
    """Take the dialogues matching `condition` (a filter on Dialogue) out of every goal's count from now on: for an
    app built on dialogs that learns after a dialogue has ended that it will not become data (review rejects it).
    Call it from the app's `AppConfig.ready`; the same `name` again replaces the condition."""
    _DISCARDED[name] = condition


def dialogues_collected():
    """The dialogues that count toward their goal's target, the one rule that pairing's draw (`goal_choose`) and the
    campaign progress figures (`dialogs.crowd.campaigns`) both count with: waiting, active or completed, and not taken
    back out by an app built on dialogs (`collection_discard`: review's rejection). Its goal needs another dialogue
    otherwise."""
    # A pilot by simulated workers collects nothing: it must not use up a campaign's quota.
    collected = Dialogue.objects.filter(status__in=COLLECTED_STATUSES, simulated=False)
    for condition in _DISCARDED.values():
        collected = collected.exclude(condition)
    return collected


def goal_choose(
    worker: User | int, *, assignment: CrowdAssignment | None = None
) -> tuple[Goal, Campaign | None] | None:
    """The goal for a worker's next dialogue and the campaign it is drawn for; never a goal the worker has had.

    With no campaign at all (a fresh install, the demo) every active goal is in play, with no target. Once a campaign
    exists only open campaigns' goals are: those of the worker's own campaign when they came through its join link
    (`assignment`), else those of every open campaign. A campaign's goal that has reached its target (counted by
    `dialogues_collected`: a dialogue rejected in review does not count) is never handed out. Of the goals in play,
    the least-collected one; among equally collected ones, the hardness level furthest behind the campaign's mix,
    then the database with the fewest dialogues, then the lowest id (repeatable).
    Goals are balanced first, databases only among equals: balanced by database first, a small database's one goal
    was handed out five times while twenty goals elsewhere had none (docs/crowd.md).
    """
    worker_id = worker if isinstance(worker, int) else worker.pk
    return GoalDraw([worker_id]).choose(worker_id, assignment=assignment)


class GoalDraw:
    """`goal_choose` for the workers of one pairing pass: what every draw reads (the campaigns, their goals and the
    dialogues counted toward them, the goals each worker has had) is read once, and each goal drawn is counted before
    the next draw, as the dialogue made for it will be. A crowd paired in one pass costs a few statements in all, not
    five per worker. Make one inside the pass's transaction, after its lock: it sees every pairing committed before."""

    def __init__(self, workers: list[int]):
        self.had: dict[int, set[int]] = {worker: set() for worker in workers}
        for worker_id, goal_id in Dialogue.objects.filter(worker_id__in=workers).values_list("worker_id", "goal_id"):
            self.had[worker_id].add(goal_id)
        self._campaigns: list[Campaign | None] | None = None  # open campaigns, oldest first; [None]: none exists
        self._tallies: dict[int | None, _Tally] = {}  # by campaign id (None: no campaign exists)
        self._goals: dict[int, Goal] = {}
        self._versions: dict[int, object] = {}

    def choose(self, worker_id: int, *, assignment: CrowdAssignment | None = None):
        """The goal and campaign for this worker (one of those the draw was made for), counted as drawn; None when
        every goal in play is had or at its target."""
        had = self.had.setdefault(worker_id, set())
        if assignment is not None:
            campaigns = [assignment.campaign] if assignment.campaign.is_open() else []
        else:
            if self._campaigns is None:
                # No campaign at all: every active goal, with no target (None stands for that pool).
                self._campaigns = (
                    list(Campaign.objects.open().order_by("opens_at", "id")) if Campaign.objects.exists() else [None]
                )
            campaigns = self._campaigns
        best = None
        for campaign in campaigns:
            tally = self._tally(campaign)
            drawn = tally.least_collected(had)
            # Across campaigns, the goal furthest from its target (the earlier campaign on a tie).
            if drawn is not None and (best is None or drawn[1] / tally.target_or_one < best[0]):
                best = (drawn[1] / tally.target_or_one, drawn, campaign, tally)
        if best is None:
            return None
        _, (goal_id, fewest), campaign, tally = best
        tally.count(goal_id)
        had.add(goal_id)
        goal = self._goal(goal_id)
        goal.collected = fewest
        return goal, campaign

    def version_of(self, goal: Goal):
        """The current version of the goal's database, read once per database for the whole pass."""
        if goal.database_id not in self._versions:
            self._versions[goal.database_id] = goal.database.current_version
        return self._versions[goal.database_id]

    def _tally(self, campaign: Campaign | None) -> _Tally:
        key = campaign.pk if campaign is not None else None
        if key not in self._tallies:
            if campaign is None:
                pool = Goal.objects.filter(active=True, database__active=True)
                self._tallies[key] = _Tally(pool, dialogues_collected())
            else:
                collected = dialogues_collected().filter(campaign=campaign)
                self._tallies[key] = _Tally(
                    campaign.goal_pool(), collected, target=campaign.target_per_goal, mix=campaign.hardness_mix
                )
        return self._tallies[key]

    def _goal(self, goal_id: int) -> Goal:
        if goal_id not in self._goals:
            # Pairing reads its database's version next (version_of).
            self._goals[goal_id] = Goal.objects.select_related("database").get(pk=goal_id)
        return self._goals[goal_id]


class _Tally:
    """One pool of goals and the dialogues counted toward them (per goal, per database, per hardness level), read in
    two statements whatever the pool's size and kept up to date as goals are drawn: the ties as `goal_choose` says."""

    def __init__(self, pool, collected, *, target: int | None = None, mix: dict | None = None):
        self.target, self.mix = target, mix
        self.target_or_one = target or 1
        pool = pool.filter(practice_mark__isnull=True)  # a goal kept for practice never enters the collection
        self.goals = list(pool.values_list("id", "hardness", "database_id"))
        self.hardness = {goal_id: hardness for goal_id, hardness, _ in self.goals}
        self.database = {goal_id: database_id for goal_id, _, database_id in self.goals}
        self.per_goal, self.per_database = Counter(), Counter()
        self.per_level = Counter() if mix else None
        # One statement for the three counts: by goal, with its database and (for a mix) its level.
        columns = ["goal_id", "database_id"] + (["goal__hardness"] if mix else [])
        for goal_id, database_id, *level, n in collected.order_by().values_list(*columns).annotate(n=Count("id")):
            self.per_goal[goal_id] += n
            self.per_database[database_id] += n
            if mix:
                self.per_level[level[0]] += n

    def least_collected(self, had: set[int]) -> tuple[int, int] | None:
        """(goal id, dialogues collected) of the goal to hand out among those not in `had`, or None."""
        candidates = [
            (self.per_goal[goal_id], goal_id, hardness, database_id)
            for goal_id, hardness, database_id in self.goals
            if goal_id not in had
        ]
        if self.target is not None:
            candidates = [candidate for candidate in candidates if candidate[0] < self.target]
        if not candidates:
            return None
        fewest = min(candidate[0] for candidate in candidates)
        tied = [candidate for candidate in candidates if candidate[0] == fewest]
        if self.mix:
            level = _hardness_most_behind(self.mix, self.per_level, {candidate[2] for candidate in tied})
            tied = [candidate for candidate in tied if candidate[2] == level]
        _, goal_id, _, _ = min(tied, key=lambda candidate: (self.per_database[candidate[3]], candidate[1]))
        return goal_id, fewest

    def count(self, goal_id: int) -> None:
        """A dialogue is made for `goal_id`: it counts from now on."""
        self.per_goal[goal_id] += 1
        self.per_database[self.database[goal_id]] += 1
        if self.per_level is not None:
            self.per_level[self.hardness[goal_id]] += 1


def _hardness_most_behind(mix: dict, done: Counter, levels: set[str]) -> str:
    """Of `levels`, the one whose share of the collected dialogues (`done`: how many per level) is furthest below its
    share in `mix` (percent per level; a level the mix leaves out wants none). Ties go to the easier level."""
    total, wanted = sum(done.values()), sum(mix.values()) or 1

    def behind(level: str) -> float:
        return mix.get(level, 0) / wanted - (done.get(level, 0) / total if total else 0)

    return max((level for level in Hardness.values if level in levels), key=behind)


def experts_ready():
    """The lobby entries of the experts pairing may take: ready, and with a lobby socket open on any server (their desk
    or the lobby page). The one rule that pairing and the lobby's `ready_experts` figure count with."""
    at_desk = LiveSocket.objects.filter(kind=LiveSocket.Kind.LOBBY).values("person_id")
    return LobbyEntry.objects.filter(role=Role.EXPERT, outcome=LobbyEntry.Outcome.WAITING, person_id__in=at_desk)


def lobby_pair() -> list[Dialogue]:
    """Pair waiting workers (oldest first) with ready experts that have room. Returns the new dialogues; both people
    of each are told after commit, and so is a worker sent away for having had every goal.

    Only an expert with a lobby socket open (their desk or the lobby page, on any server) is paired: an expert whose
    tab is closed would leave the worker waiting for EXPERT_JOIN_LIMIT_SECONDS. A worker keeps their place for
    LOBBY_RECONNECT_GRACE_SECONDS without a socket (a reload, a flaky connection): their screen finds the room from
    the next status (docs/protocol.md).

    Only the experts who have a free place, and only as many workers as there are places, are read: with a crowd
    waiting every join calls this, and reading both whole queues each time made a crowd of N joining at once cost N²
    rows. Pairings are serialised by locking the ready experts' rows first; everything after is read by statements
    that start once that lock is held, and so see every pairing committed before (a single locking statement that
    also counted each expert's dialogues would re-check a row it waited for against its old count, and give an
    expert two dialogues at once: tested in test_pairing_race.py).
    """
    ready = experts_ready()
    waiting = LobbyEntry.objects.filter(role=Role.WORKER, outcome=LobbyEntry.Outcome.WAITING)
    created = []
    with transaction.atomic():
        if not list(ready.select_for_update().values_list("id", flat=True)):
            return []
        queued = waiting.count()
        if not queued:
            return []
        open_now = (
            Dialogue.objects.filter(
                expert_id=OuterRef("person_id"),
                status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE],
                mode=DialogueMode.CHAT,  # an unfinished solo sequence does not keep its expert from chatting
            )
            .values("expert_id")
            .annotate(n=Count("id"))
            .values("n")
        )
        experts = list(
            ready.annotate(open_now=Coalesce(Subquery(open_now), 0))
            .filter(open_now__lt=settings.EXPERT_MAX_DIALOGUES)
            # The expert who has been idle longest first: fewest dialogues now, then earliest ready.
            .order_by("open_now", "joined_at", "id")[:queued]
        )
        places = {e.person_id: settings.EXPERT_MAX_DIALOGUES - e.open_now for e in experts}
        seen: list[int] = []
        while (free := sum(max(n, 0) for n in places.values())) > 0:
            workers = list(waiting.select_for_update().exclude(id__in=seen).order_by("joined_at", "id")[:free])
            if not workers:
                break
            batch = _Batch(workers, experts)
            for worker_entry in workers:
                seen.append(worker_entry.pk)
                created.extend(_pair_one(worker_entry, experts, places, batch))
        if seen:  # paired, or sent away: the queue changed
            broadcast.lobby_changed_on_commit()
    return created


class _Batch:
    """What pairing reads once for the workers of one pass (`lobby_pair`): which of them and of the experts are
    simulated accounts, the workers' crowd assignments, and the goal draw (`GoalDraw`)."""

    def __init__(self, workers: list[LobbyEntry], experts: list[LobbyEntry]):
        people = [entry.person_id for entry in workers + experts]
        self.simulated = set(User.objects.filter(id__in=people, simulated=True).values_list("id", flat=True))
        # Read apart from the locked queue: a join on its nullable side could not be locked (PostgreSQL refuses).
        wanted = [entry.crowd_assignment_id for entry in workers if entry.crowd_assignment_id]
        self.assignments = CrowdAssignment.objects.select_related("campaign").in_bulk(wanted) if wanted else {}
        self.draw = GoalDraw([entry.person_id for entry in workers])


def _pair_one(
    worker_entry: LobbyEntry, experts: list[LobbyEntry], places: dict[int, int], batch: _Batch
) -> list[Dialogue]:
    """Pair one waiting worker with the expert who has been idle longest, or send them away when they have had every
    goal. `places` (expert → dialogues they may still take) is updated."""
    # A simulated worker (docs/simulated_worker.md).
    pilot = simulated_pilot(worker_entry.person_id, experts, simulated=batch.simulated)
    free = [e for e in pilot.experts if places[e.person_id] > 0]
    if not free:
        return []
    # The expert who has been idle longest (most places left, then earliest ready).
    expert_entry = min(free, key=lambda e: (-places[e.person_id], e.joined_at, e.id))
    assignment = batch.assignments.get(worker_entry.crowd_assignment_id) if worker_entry.crowd_assignment_id else None
    choice = pilot.choice if pilot.simulated else batch.draw.choose(worker_entry.person_id, assignment=assignment)
    now = timezone.now()
    if choice is None:
        worker_entry.outcome = LobbyEntry.Outcome.NO_GOAL
        worker_entry.ended_at = now
        worker_entry.completion_code = completion_code()
        worker_entry.save(update_fields=["outcome", "ended_at", "completion_code"])
        # Pairing sends away a worker who has had every goal; without a word they would wait for ever.
        broadcast.released_on_commit(
            person_id=worker_entry.person_id,
            completion_code=worker_entry.completion_code,
            reason=broadcast.RELEASED_NO_GOAL,
        )
        return []
    goal, campaign = choice
    dialogue = Dialogue.objects.create(
        database_id=goal.database_id,
        database_version=goal.database.current_version if pilot.simulated else batch.draw.version_of(goal),
        goal=goal,
        worker_id=worker_entry.person_id,
        expert_id=expert_entry.person_id,
        campaign=campaign,
        crowd_assignment=assignment,
        simulated=pilot.simulated,
        # A pilot's dialogue takes no place in the campaign's control group: the draw is for the people it pays.
        **model_help_for(None if pilot.simulated else campaign),
    )
    worker_entry.outcome = LobbyEntry.Outcome.PAIRED
    worker_entry.ended_at = now
    worker_entry.dialogue = dialogue
    worker_entry.save(update_fields=["outcome", "ended_at", "dialogue"])
    places[expert_entry.person_id] -= 1
    broadcast.paired_on_commit(dialogue_id=dialogue.pk, worker_id=dialogue.worker_id, expert_id=dialogue.expert_id)
    return [dialogue]


def _open_dialogues(person: User):
    return Dialogue.objects.filter(worker=person, status__in=[DialogueStatus.WAITING, DialogueStatus.ACTIVE])


def dialogue_open_for(person: User) -> Dialogue | None:
    """The worker's current (waiting or active) dialogue, if any."""
    return _open_dialogues(person).order_by("-created_at").first()


@dataclass(frozen=True)
class QuizOutcome:
    """What a worker's quiz answers came to: `passed`, or `wrong` answers with `tries_left` before a cool-down, or a
    cool-down until `cooldown_until` (this try's, or one still running, when nothing was checked)."""

    passed: bool
    wrong: int = 0
    tries_left: int = 0
    cooldown_until: datetime | None = None


def worker_quiz_cooldown(person: User) -> datetime | None:
    """When the worker's quiz cool-down ends, if they are in one."""
    until = QuizState.objects.filter(person=person).values_list("cooldown_until", flat=True).first()
    return until if until and until > timezone.now() else None


def worker_quiz_answer(*, person: User, draw: list[dict], answers: dict) -> QuizOutcome:
    """Check a worker's answers to their quiz draw (dialogs.tutorial) and record the outcome: a pass sets
    `tutorial_passed_at`; a wrong try counts, and the QUIZ_TRIES-th starts a cool-down of QUIZ_COOLDOWN_MINUTES,
    during which answers are not checked. The count lives in the database, one row per worker, locked while it is
    read and written: two tabs posting at once spend two tries."""
    QuizState.objects.get_or_create(person=person)
    now = timezone.now()
    with transaction.atomic():
        state = QuizState.objects.select_for_update().get(person=person)
        if state.cooldown_until and state.cooldown_until > now:
            return QuizOutcome(passed=False, cooldown_until=state.cooldown_until)
        if state.cooldown_until:  # a cool-down over: a fresh set of tries
            state.wrong_tries, state.cooldown_until = 0, None
        wrong = quiz_wrong(draw, answers)
        if not wrong:
            state.wrong_tries = 0
            state.save(update_fields=["wrong_tries", "cooldown_until"])
            person.tutorial_passed_at = now
            person.save(update_fields=["tutorial_passed_at"])
            return QuizOutcome(passed=True)
        state.wrong_tries += 1
        if state.wrong_tries >= settings.QUIZ_TRIES:
            state.cooldown_until = now + timedelta(minutes=settings.QUIZ_COOLDOWN_MINUTES)
        state.save(update_fields=["wrong_tries", "cooldown_until"])
        return QuizOutcome(
            passed=False,
            wrong=wrong,
            tries_left=max(settings.QUIZ_TRIES - state.wrong_tries, 0),
            cooldown_until=state.cooldown_until,
        )
