"""Who is told what after a write: the one home of the channel layer's groups and messages.

A service that changes what someone sees (a pairing, a release, new events in a room, the lobby's queue) calls one of
the `*_on_commit` senders below. The notice goes out once the write has committed (the receiving socket reads the
database, so it must find the change there), whoever called the service: a socket's consumer, a form's view, a
housekeeping round or a Celery task. Sending from a socket alone had an expert who stayed ready over a form wait for
ever (nobody told the lobby).

The channel layer delivers at most once (docs/pitfalls.md): these are nudges, and every receiver can recover what a
lost one carried (lobby screens refresh on a timer and read their state; room sockets resume from the log by sequence
number).
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils.translation import gettext, gettext_noop

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# Why a worker is released from the lobby, by the code a release carries: each lobby socket words it in its person's
# language as it delivers it (a broadcast goes to every socket of the person, each with its own language).
RELEASED_TIMED_OUT = "timed_out"
RELEASED_NO_GOAL = "no_goal"
_RELEASED_MESSAGES = {
    RELEASED_TIMED_OUT: gettext_noop(
        "No expert became free in time. Thank you for waiting: here is your completion code."
    ),
    RELEASED_NO_GOAL: gettext_noop(
        "You have done every task we have for now. Thank you: here is your completion code."
    ),
}


def released_message(reason: str | None) -> str:
    """The message of a release in the active language (a release that names no reason: the time-out's)."""
    return gettext(_RELEASED_MESSAGES.get(reason, _RELEASED_MESSAGES[RELEASED_TIMED_OUT]))


def person_group(person_id: int) -> str:
    """Every lobby socket of one person (pairing and release notices, a block that closes their sockets)."""
    return f"person-{person_id}"


def dialogue_group(dialogue_id: int) -> str:
    """Every room socket of one dialogue."""
    return f"dialogue-{dialogue_id}"


# --- Sending -------------------------------------------------------------------------------------------------------


async def send(group: str, message: dict) -> None:
    """Send `message` to `group` now (async callers: consumers, the background loop)."""
    await get_channel_layer().group_send(group, message)


def _send_from_sync(group: str, message: dict) -> None:
    """Send from synchronous code. On a thread that a running server lent to a sync call (a view, a consumer's
    database work), the send is handed to the server's event loop and not waited for: the thread, often the one that
    every room's database work shares, does not wait for the channel layer. Elsewhere (a management command, a Celery
    worker) it is sent here and now."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():
        future = asyncio.run_coroutine_threadsafe(send(group, message), loop)
        future.add_done_callback(_log_failure)
        return
    async_to_sync(send)(group, message)


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        # A lost nudge: its receivers recover (see the module's docstring); the log says why.
        logger.warning("broadcast failed: %r", future.exception())


def _on_commit(group: str, message: dict) -> None:
    transaction.on_commit(lambda: _send_from_sync(group, message), robust=True)


# --- What people are told ------------------------------------------------------------------------------------------


def lobby_changed_on_commit() -> None:
    """The queue or the ready experts changed: every lobby screen refreshes its status (`_LobbyChanges`)."""
    transaction.on_commit(_lobby_changed, robust=True)


# A crowd joining at once changes the lobby hundreds of times a second, and each notice reached every lobby socket of
# every server: 200 joins at once, two notices each, were up to 160,000 deliveries. Notices of one process are at
# least this far apart.
LOBBY_CHANGED_SPACING_SECONDS = 0.1


class _LobbyChanges:
    """The lobby notices of this process, coalesced: the first change after a quiet spell is sent at once, the changes
    that follow within LOBBY_CHANGED_SPACING_SECONDS of a notice share the next one (sent at the end of the spacing,
    after every one of them has committed). Each notice carries its own `change` key, so that the lobby sockets of a
    server that hear it share one read of the lobby (dialogs.consumers). Lives on the server's event loop."""

    def __init__(self):
        self.loop, self.last, self.scheduled = None, float("-inf"), False

    def request(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # tests run a loop each
            self.loop, self.last, self.scheduled = loop, float("-inf"), False
        if self.scheduled:
            return
        self.scheduled = True
        loop.call_later(max(self.last + LOBBY_CHANGED_SPACING_SECONDS - loop.time(), 0), self._send)

    def _send(self) -> None:
        self.scheduled, self.last = False, self.loop.time()
        future = asyncio.ensure_future(send(LOBBY_GROUP, {"type": "lobby.changed", "change": uuid.uuid4().hex}))
        future.add_done_callback(_log_failure)


_lobby_changes = _LobbyChanges()


def _lobby_changed() -> None:
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():
        loop.call_soon_threadsafe(_lobby_changes.request)
        return
    async_to_sync(send)(LOBBY_GROUP, {"type": "lobby.changed", "change": uuid.uuid4().hex})


def paired_on_commit(*, dialogue_id: int, worker_id: int, expert_id: int) -> None:
    """A dialogue was made: both people's lobby screens go to the room."""
    for person_id in (worker_id, expert_id):
        _on_commit(person_group(person_id), {"type": "lobby.paired", "dialogue": dialogue_id})


def released_on_commit(*, person_id: int, completion_code: str, reason: str) -> None:
    """A worker leaves the queue with a completion code (waited too long, or had every goal)."""
    _on_commit(
        person_group(person_id),
        {"type": "lobby.released", "completion_code": completion_code, "reason": reason},
    )


def room_events_on_commit(*, dialogue_id: int, seq: int) -> None:
    """Events up to `seq` were written to a room's log outside its sockets (housekeeping, a form): each socket reads
    what it has not sent from the log, in order."""
    _on_commit(dialogue_group(dialogue_id), {"type": "dialogue.event", "seq": seq})


def person_blocked_on_commit(*, person_id: int) -> None:
    """A person may no longer take part: every socket of theirs closes (lobby and rooms)."""
    _on_commit(person_group(person_id), {"type": "person.blocked"})
