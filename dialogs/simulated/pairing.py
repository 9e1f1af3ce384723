"""What pairing asks about simulated accounts (docs/simulated_worker.md), in one place for `dialogs.lobby.lobby_pair`.

A simulated worker plays the goal its run gave it (its seat), not a campaign's draw, and its dialogue is marked
simulated when it is created. Experts are kept apart: a scripted expert never takes a person's dialogue, and a run
with a human expert pairs its workers with people only.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotation.models import Goal, User
from dialogs.models import Campaign, SimulationRun, SimulationSeat


@dataclass(frozen=True)
class Pilot:
    simulated: bool  # the worker is a simulated account: the dialogue is marked simulated
    experts: list  # the lobby's expert entries this worker may be paired with
    choice: tuple[Goal, Campaign | None] | None = None  # a simulated worker's goal (None: nothing to play)


def simulated_pilot(worker_id: int, experts: list, *, simulated: set[int] | None = None) -> Pilot:
    """How pairing treats the worker `worker_id` and which of `experts` (lobby entries) may take them. `simulated`:
    the simulated accounts among them, when the caller has read them already (one read for a whole pairing pass)."""
    if simulated is None:
        ids = [worker_id, *(entry.person_id for entry in experts)]
        simulated = set(User.objects.filter(id__in=ids, simulated=True).values_list("id", flat=True))
    if worker_id not in simulated:
        return Pilot(False, [entry for entry in experts if entry.person_id not in simulated])
    seat = (
        SimulationSeat.objects.select_related("goal__database", "run__campaign")
        .filter(worker_id=worker_id, dialogue__isnull=True, run__state=SimulationRun.State.RUNNING)
        .order_by("-id")
        .first()
    )
    if seat is None:
        return Pilot(True, experts)  # outside a running pilot: no goal, so pairing sends it away (and pairs nobody)
    scripted = seat.run.expert == SimulationRun.Expert.SCRIPTED
    wanted = [entry for entry in experts if (entry.person_id in simulated) == scripted]
    return Pilot(True, wanted, (seat.goal, seat.run.campaign))
