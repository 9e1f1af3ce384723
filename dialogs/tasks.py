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
