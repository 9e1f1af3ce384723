"""Celery tasks of the dialogs app."""

from asgiref.sync import async_to_sync
from celery import shared_task

from dialogs import presence


@shared_task(name="dialogs.housekeeping", ignore_result=True)
def housekeeping() -> dict:
    """One housekeeping round (celery beat runs it every HOUSEKEEPING_SECONDS), then tell the people concerned."""
    report = presence.housekeeping()
    async_to_sync(presence.announce)(report)
    return {
        "reaped_servers": len(report.reaped_servers),
        "left_rooms": len(report.left_rooms),
        "expired_entries": len(report.expired_entries),
        "timed_out": len(report.timed_out),
        "released_dialogues": len(report.released_dialogues),
    }


# acks_late: a worker lost mid-run hands the message back; a run that already started is not played twice
# (simulation_run plays only a queued run).
@shared_task(name="dialogs.simulate_workers", acks_late=True, ignore_result=True)
def simulate_workers(run_id: int) -> None:
    """Play a simulated workers' pilot (dialogs.simulated.runs.simulation_run)."""
    from dialogs.simulated.runs import simulation_run

    simulation_run(run_id=run_id)


# No acks_late: a practice dialogue played again after a lost worker would ask its questions twice; the room ends as
# any room whose worker left, and the expert begins another.
@shared_task(name="dialogs.practice_play", ignore_result=True)
def practice_play(dialogue_id: int, server_url: str) -> None:
    """Play the simulated worker of an expert's practice dialogue, then score it (dialogs.onboarding.practice)."""
    from dialogs.onboarding.practice import practice_play as play

    play(dialogue_id=dialogue_id, server_url=server_url)


# acks_late: a worker lost mid-run hands the message back; the payment's own states keep the payment call from being
# sent twice (dialogs.crowd.prolific.prolific_bonus_run).
@shared_task(name="dialogs.prolific_bonus_pay", acks_late=True, ignore_result=True)
def prolific_bonus_pay(payment_id: int, claim: str = "") -> None:
    """Take a Prolific bonus payment as far as it goes (dialogs.crowd.prolific.prolific_bonus_run)."""
    from dialogs.crowd.prolific import prolific_bonus_run

    prolific_bonus_run(payment_id=payment_id, claim=claim)


# No acks_late: a search lost with its worker leaves the first, suite-only goal match standing, as it says.
# `suite`: what the first label said of the suite, so that the search alone runs; None in a message queued before it
# went along (the whole comparison then).
@shared_task(name="dialogs.goal_match_search", ignore_result=True)
def goal_match_search(dialogue_id: int, turn: int, run_seq: int, suite: dict | None = None) -> None:
    """Search for a database that tells a shared result's SQL from the goal's (dialogs.room.goal_match_search)."""
    from dialogs.room import goal_match_search as search

    search(dialogue_id=dialogue_id, turn=turn, run_seq=run_seq, suite=suite)
