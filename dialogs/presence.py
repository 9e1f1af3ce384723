"""Who is connected, known from live sockets and server leases, so that presence is right after any server stops.

A server process that is killed (or shut down: Daphne does not close its consumers on SIGTERM) never says that its
sockets went away. So every socket is a row (`LiveSocket`) under its server's lease (`ServerLease`), which the
process renews every SERVER_HEARTBEAT_SECONDS. A side is in its room while it has a room socket row; whoever deletes
its last one, the socket itself or housekeeping, marks it gone (dialogs.room.dialogue_presence: transient state, not
the log; a reconnect adds nothing to the log). Housekeeping treats a lease older than SERVER_LEASE_SECONDS as a
stopped server: its room sockets' rows go (the room's presence rule then applies: the dialogue is abandoned after
PRESENCE_GRACE_SECONDS unless the person comes back, on any server), and its lobby sockets are dropped. A live
process also vouches for its own rows every round (`sockets_vouch`): a row whose consumer died without closing goes,
and a socket whose row housekeeping took (a database outage kept the lease from being renewed) gets it back.

The lobby: a waiting entry with no lobby socket behind it for LOBBY_RECONNECT_GRACE_SECONDS expires (a closed tab is
never paired), and a dialogue whose expert has not joined EXPERT_JOIN_LIMIT_SECONDS after pairing is released,
its worker back in the queue first.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from annotation.models import Role, User
from dialogs import broadcast, log
from dialogs.errors import DialogueError
from dialogs.lobby import lobby_pair, lobby_release_expired, lobby_requeue
from dialogs.models import Dialogue, DialogueStatus, Event, EventKind, LiveSocket, LobbyEntry, ServerLease
from dialogs.room import PresenceChange, dialogue_presence, dialogue_record, dialogues_sweep

# This process's lease: host, pid and a random part (a pid is reused after a restart).
SERVER_ID = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"

# The sockets this process holds, by channel name: (person id, kind, dialogue id, side). Kept with their rows by
# socket_opened and socket_closed, and compared with the rows by sockets_vouch, all under this lock.
_held: dict[str, tuple[int, str, int | None, str]] = {}
_held_lock = threading.RLock()


# When this process's lease was last renewed and committed (time.monotonic()), so that a socket opening right after
# does not renew it again (see socket_opened).
_lease_renewed: list[float] = [float("-inf")]


def server_heartbeat(*, server_id: str = SERVER_ID, now=None) -> None:
    """Renew this process's lease (creating it the first time)."""
    now = now or timezone.now()
    if not ServerLease.objects.filter(pk=server_id).update(seen_at=now):
        ServerLease.objects.get_or_create(pk=server_id, defaults={"seen_at": now})
    if server_id == SERVER_ID:
        renewed = time.monotonic()
        transaction.on_commit(lambda: _lease_renewed.__setitem__(0, max(_lease_renewed[0], renewed)), robust=True)


def _lease_fresh() -> bool:
    """Whether this process renewed its lease within half a heartbeat: far younger than the SERVER_LEASE_SECONDS after
    which another server may take it for stopped, so a socket opening now needs no renewal of its own."""
    return time.monotonic() - _lease_renewed[0] < settings.SERVER_HEARTBEAT_SECONDS / 2


def socket_opened(
    *, channel_name: str, person_id: int, kind: str, dialogue_id: int | None = None, side: str = "",
    server_id: str = SERVER_ID,
) -> None:  # fmt: skip
    """Record an open socket (a lobby socket also clears its entry's disconnection). One of this process's is held
    by it from now on (see sockets_vouch)."""
    with _held_lock:
        # Every socket opening renewed the lease: four updates of one row per pair, a crowd's sockets queued on its
        # lock. Renewed here only when the background loop's last renewal is not fresh (or for another server's id).
        if server_id != SERVER_ID or not _lease_fresh():
            server_heartbeat(server_id=server_id)
        waiting = _socket_row(channel_name, server_id, person_id, kind, dialogue_id, side)
        if server_id == SERVER_ID:
            _held[channel_name] = (person_id, kind, dialogue_id, side)
    # A person with no waiting entry (most lobby sockets open before their join) cannot be a ready expert.
    if (
        waiting
        and LobbyEntry.objects.filter(
            person_id=person_id, role=Role.EXPERT, outcome=LobbyEntry.Outcome.WAITING
        ).exists()
    ):
        # A ready expert's desk opened: only now may they be paired (lobby_pair), so pair whoever waits.
        lobby_pair()


_SOCKET_FIELDS = ["server_id", "person_id", "kind", "dialogue_id", "side"]


def _socket_row(channel_name, server_id, person_id, kind, dialogue_id, side) -> int:
    """Write the socket's row (one statement: inserted, or updated when it is there); for a lobby socket, clear the
    person's waiting entry's disconnection and return how many waiting entries they have (0 for a room socket). Raw
    SQL (an upsert both PostgreSQL and SQLite read): through the ORM (bulk_create with update_conflicts, then update) a
    lobby socket's row and entry cost 1.35 ms of CPU to build and run, against 0.35 ms so (0.43 and 0.26 for a room
    socket's row; process_time over 300 calls on SQLite), at every socket a crowd opens."""
    quote = connection.ops.quote_name
    column = LiveSocket._meta.get_field
    names = [quote(column(name).column) for name in ("channel_name", *_SOCKET_FIELDS, "opened_at")]
    updates = ", ".join(
        f"{quote(column(name).column)} = EXCLUDED.{quote(column(name).column)}" for name in _SOCKET_FIELDS
    )
    opened_at = column("opened_at").get_db_prep_save(timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(LiveSocket._meta.db_table)} ({', '.join(names)}) "  # noqa: S608
            f"VALUES ({', '.join(['%s'] * len(names))}) "
            f"ON CONFLICT ({quote(column('channel_name').column)}) DO UPDATE SET {updates}",
            [channel_name, server_id, person_id, kind, dialogue_id, side, opened_at],
        )
        if kind != LiveSocket.Kind.LOBBY:
            return 0
        entries, entry = quote(LobbyEntry._meta.db_table), LobbyEntry._meta.get_field
        cursor.execute(
            f"UPDATE {entries} SET {quote(entry('disconnected_at').column)} = NULL "  # noqa: S608
            f"WHERE {quote(entry('person').column)} = %s AND {quote(entry('outcome').column)} = %s",
            [person_id, LobbyEntry.Outcome.WAITING],
        )
        return cursor.rowcount


def room_socket_opened(*, channel_name: str, person: User, dialogue: Dialogue, side: str) -> PresenceChange | None:
    """A room socket of this process opened: its row and its side's presence, in one transaction (a side is never
    present without the row whose removal makes it gone). None: the dialogue has ended."""
    with _held_lock, transaction.atomic():
        socket_opened(
            channel_name=channel_name, person_id=person.pk, kind=LiveSocket.Kind.ROOM, dialogue_id=dialogue.pk,
            side=side,
        )  # fmt: skip
        return dialogue_presence(dialogue=dialogue, person=person, joined=True)


def room_socket_closed(*, channel_name: str, person: User, dialogue: Dialogue) -> PresenceChange | None:
    """A room socket of this process closed: its row goes, and with the side's last one the side is gone, in one
    transaction. None when housekeeping took the row first (and did the same), or the dialogue has ended."""
    with _held_lock, transaction.atomic():
        if not socket_closed(channel_name=channel_name):
            return None
        try:
            return dialogue_presence(dialogue=dialogue, person=person, joined=False)
        except DialogueError:  # no longer a participant (blocked while the socket was open): the row goes all the same
            return None


def socket_forget(*, channel_name: str) -> None:
    """This process no longer holds the socket, whose consumer ended without closing it (it crashed, or the database
    was out of reach): its row, if still there, goes at the next sockets_vouch, as a close would. No lock (a dict's
    pop is atomic): this is called on the event loop, which must not wait for a database call."""
    _held.pop(channel_name, None)


def socket_closed(*, channel_name: str, now=None) -> bool:
    """Forget a socket that closed. Returns whether this call removed it (False: housekeeping already reaped it, and
    updated its side's presence). A person's last lobby socket going starts their entry's reconnection grace."""
    now = now or timezone.now()
    # No savepoint inside a room socket's closing (room_socket_closed): nothing here is taken back while it goes on.
    with _held_lock, transaction.atomic(savepoint=False):
        _held.pop(channel_name, None)
        row = _socket_row_delete(channel_name)
        if row is None:
            return False
        kind, person_id = row
        if kind == LiveSocket.Kind.LOBBY:
            _lobby_disconnected([person_id], now)
    return True


def _socket_row_delete(channel_name: str) -> tuple[str, int] | None:
    """Delete the socket's row and return its (kind, person id), or None when it was not there: one statement where a
    locking read and a delete were two. Raw SQL: the ORM's delete cannot return what it deleted."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {quote(LiveSocket._meta.db_table)} WHERE {quote('channel_name')} = %s "  # noqa: S608
            f"RETURNING {quote('kind')}, {quote('person_id')}",
            [channel_name],
        )
        return cursor.fetchone()


def _lobby_disconnected(person_ids, now) -> None:
    """Start the reconnection grace of the waiting entries of those of `person_ids` who have no lobby socket left.
    Raw SQL: the ORM's form of this update (its NOT EXISTS built from an OuterRef) cost more CPU to compile than the
    rest of a lobby socket's closing (bench/chat_load.py's profile of pairing)."""
    if not person_ids:
        return
    quote = connection.ops.quote_name
    entries, sockets = quote(LobbyEntry._meta.db_table), quote(LiveSocket._meta.db_table)
    person = quote(LobbyEntry._meta.get_field("person").column)
    gone = LobbyEntry._meta.get_field("disconnected_at")
    marks = ", ".join(["%s"] * len(person_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {entries} SET {quote(gone.column)} = %s "  # noqa: S608
            f"WHERE {person} IN ({marks}) AND {quote('outcome')} = %s AND {quote(gone.column)} IS NULL "
            f"AND NOT EXISTS (SELECT 1 FROM {sockets} WHERE {sockets}.{quote('person_id')} = {entries}.{person} "
            f"AND {sockets}.{quote('kind')} = %s)",
            [gone.get_db_prep_value(now, connection), *person_ids, LobbyEntry.Outcome.WAITING, LiveSocket.Kind.LOBBY],
        )


@dataclass
class Housekeeping:
    """What one housekeeping round changed, so the caller can tell the people concerned."""

    reaped_servers: list[str] = field(default_factory=list)
    left_rooms: list[PresenceChange] = field(default_factory=list)  # sides whose last room socket was reaped
    expired_entries: list[LobbyEntry] = field(default_factory=list)  # nobody behind them: closed quietly
    timed_out: list[LobbyEntry] = field(default_factory=list)  # waited too long: released with a completion code
    released_dialogues: list[Dialogue] = field(default_factory=list)  # the expert never came: worker requeued
    rejoined_rooms: list[PresenceChange] = field(default_factory=list)  # sides back in with a vouched socket
    abandoned_dialogues: list[Dialogue] = field(default_factory=list)  # someone gone past the grace: ended


def servers_reap(*, now=None, report: Housekeeping | None = None) -> Housekeeping:
    """Treat every server whose lease ran out as stopped: drop its room sockets (a side left with none is gone) and
    its lobby sockets (starting their entries' reconnection grace), and forget the server."""
    now = now or timezone.now()
    report = report or Housekeeping()
    stale = list(
        ServerLease.objects.filter(seen_at__lt=now - timedelta(seconds=settings.SERVER_LEASE_SECONDS)).values_list(
            "id", flat=True
        )
    )
    for server_id in stale:
        sockets = list(LiveSocket.objects.filter(server_id=server_id).select_related("person", "dialogue"))
        lobby_people = []
        for row in sockets:
            _socket_reap(row, report, lobby_people)
        _lobby_disconnected(lobby_people, now)
        ServerLease.objects.filter(pk=server_id, seen_at__lt=now).delete()
        report.reaped_servers.append(server_id)
    return report


def _socket_reap(row: LiveSocket, report: Housekeeping, lobby_people: list[int]) -> None:
    """Remove the row of a socket that is gone without closing, with its side's presence in the same transaction."""
    with transaction.atomic():
        removed, _ = LiveSocket.objects.filter(pk=row.pk).delete()
        if not removed:
            return  # closed meanwhile, which did the same
        if row.kind == LiveSocket.Kind.LOBBY:
            lobby_people.append(row.person_id)
        elif row.dialogue is not None:
            try:
                change = dialogue_presence(dialogue=row.dialogue, person=row.person, joined=False)
            except DialogueError:  # no longer a participant (blocked meanwhile): nothing to keep
                change = None
            if change is not None and change.changed:
                report.left_rooms.append(change)


def sockets_vouch(*, server_id: str = SERVER_ID, now=None) -> Housekeeping:
    """Make this process's socket rows be the sockets it holds (every round of its background loop).

    A row with no socket behind it (its consumer ended without closing: it crashed, or the database was out of reach
    when it closed) is removed, as a stopped server's are. A socket without its row (housekeeping took this process
    for stopped: an outage of the database longer than a lease keeps every lease from being renewed, and the first
    server back reaps the others) gets its row back, and its side is present again. Either way, presence follows the
    sockets again within a round, where a leak would have kept a side present for ever, and a wrong reap would have
    abandoned a dialogue whose people are both there (dialogs/tests/test_faults.py)."""
    now = now or timezone.now()
    report = Housekeeping()
    with _held_lock:
        mine = LiveSocket.objects.filter(server_id=server_id)
        rows = set(mine.values_list("pk", flat=True))
        orphans = [name for name in rows if name not in _held]
        lobby_people: list[int] = []
        for row in mine.filter(pk__in=orphans).select_related("person", "dialogue") if orphans else []:
            _socket_reap(row, report, lobby_people)
        _lobby_disconnected(lobby_people, now)
        for name, (person_id, kind, dialogue_id, side) in list(_held.items()):
            if name in rows:
                continue
            person = User.objects.filter(pk=person_id).first()
            dialogue = Dialogue.objects.filter(pk=dialogue_id).first() if dialogue_id is not None else None
            if person is None or (kind == LiveSocket.Kind.ROOM and dialogue is None):
                _held.pop(name, None)  # deleted meanwhile: nothing to vouch for
                continue
            with transaction.atomic():
                _socket_row(name, server_id, person_id, kind, dialogue_id, side)
                if dialogue is not None:
                    try:
                        change = dialogue_presence(dialogue=dialogue, person=person, joined=True)
                    except DialogueError:
                        change = None
                    if change is not None and change.changed:
                        report.rejoined_rooms.append(change)
    return report


def lobby_expire_disconnected(*, now=None) -> list[LobbyEntry]:
    """Close waiting entries with no lobby socket for longer than the reconnection grace (outcome LEFT). An entry
    that has no socket and no disconnection time yet (its server stopped before saying so) starts its grace now."""
    now = now or timezone.now()
    waiting = LobbyEntry.objects.filter(outcome=LobbyEntry.Outcome.WAITING)
    connected = LiveSocket.objects.filter(kind=LiveSocket.Kind.LOBBY).values("person_id")
    with transaction.atomic():
        # Locked first, the sockets read again after: on PostgreSQL a statement that waited for an entry's lock (a
        # lobby socket opening clears the entry's disconnection) reads the sockets from a snapshot taken before the
        # wait, so that socket, committed meanwhile, would be missed and the grace of a connected person started.
        unmarked = list(
            waiting.select_for_update()
            .filter(disconnected_at=None)
            .exclude(person_id__in=connected)
            .values_list("pk", flat=True)
        )
        if unmarked:
            waiting.filter(pk__in=unmarked, disconnected_at=None).exclude(person_id__in=connected).update(
                disconnected_at=now
            )
    # The expiry needs no second read: an entry whose socket came back had its disconnection cleared by that socket
    # (`_socket_row`), and a locking read checks the entry's own conditions again on the version it waited for.
    limit = now - timedelta(seconds=settings.LOBBY_RECONNECT_GRACE_SECONDS)
    expired = []
    with transaction.atomic():
        for entry in waiting.select_for_update().filter(disconnected_at__lt=limit).exclude(person_id__in=connected):
            entry.outcome, entry.ended_at = LobbyEntry.Outcome.LEFT, now
            entry.save(update_fields=["outcome", "ended_at"])
            expired.append(entry)
    return expired


def dialogues_release_unjoined(*, now=None) -> list[Dialogue]:
    """Release each new dialogue whose expert has not joined within EXPERT_JOIN_LIMIT_SECONDS (see
    `dialogue_release_unjoined`)."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.EXPERT_JOIN_LIMIT_SECONDS)
    joined = Event.objects.filter(kind=EventKind.JOIN, author_role=Role.EXPERT).values("dialogue_id")
    candidates = Dialogue.objects.filter(status=DialogueStatus.WAITING, created_at__lt=limit).exclude(id__in=joined)
    return [dialogue for dialogue in candidates if dialogue_release_unjoined(dialogue=dialogue, now=now)]


def dialogue_release_unjoined(*, dialogue: Dialogue, now=None) -> bool:
    """End a dialogue the expert never joined (abandoned, incomplete: not for review), put its worker back in the queue
    ahead of everyone who came after them, and take the expert out of the lobby (a ghost: their tab is gone). The end
    event says `requeued` (and so does the dialogue: `lobby_requeue`), so the worker's screen offers the way back to the
    lobby and nobody scores it. False when it no longer applies."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Dialogue.objects.select_for_update().get(pk=dialogue.pk)
        if locked.status != DialogueStatus.WAITING:
            return False
        if Event.objects.filter(dialogue=locked, kind=EventKind.JOIN, author_role=Role.EXPERT).exists():
            return False
        locked.status, locked.ended_at, locked.incomplete = DialogueStatus.ABANDONED, now, True
        locked.save(update_fields=["status", "ended_at", "incomplete"])
        payload = log.end_payload(
            DialogueStatus.ABANDONED, "The expert did not join. You are back in the queue, first in line.", ""
        )
        dialogue_record(dialogue=locked, author=None, kind=EventKind.END, payload={**payload, "requeued": True})
        lobby_requeue(dialogue=locked)
        LobbyEntry.objects.filter(person_id=locked.expert_id, outcome=LobbyEntry.Outcome.WAITING).update(
            outcome=LobbyEntry.Outcome.LEFT, ended_at=now
        )
    dialogue.status, dialogue.requeued = DialogueStatus.ABANDONED, True
    return True


def housekeeping(*, now=None) -> Housekeeping:
    """One round of everything that must happen even with nobody online, in order: stopped servers first (their
    sockets going starts the grace periods the later steps read)."""
    now = now or timezone.now()
    report = servers_reap(now=now)
    report.expired_entries = lobby_expire_disconnected(now=now)
    report.released_dialogues = dialogues_release_unjoined(now=now)
    if report.released_dialogues:
        lobby_pair()  # their workers are back in the queue, first in line
    report.timed_out = lobby_release_expired(now=now)
    report.abandoned_dialogues = dialogues_sweep(now=now)
    return report


async def announce(report: Housekeeping) -> None:
    """Tell the rooms a housekeeping round changed (their sockets read the events from the log; a side that went or
    came back is a `presence` to its partner, as a socket's own close or open is) and refresh lobby screens. Released
    workers were told by the lobby's own write (dialogs.lobby, after commit)."""
    for change in report.left_rooms + report.rejoined_rooms:
        await broadcast.send(broadcast.dialogue_group(change.dialogue_id), presence_message(change.side, change.state))
    rooms = {change.dialogue_id: change.event.seq for change in report.rejoined_rooms if change.event is not None}
    rooms.update({dialogue.pk: dialogue.last_seq for dialogue in report.released_dialogues})
    # A sweep is often the only one to see a side gone (its server was killed, or it never said goodbye): whoever is
    # still in the room must get the end event now, not at their next reconnection.
    rooms.update({dialogue.pk: dialogue.last_seq for dialogue in report.abandoned_dialogues})
    for dialogue_id, seq in rooms.items():
        # No event inline: each socket reads what it has not sent from the log, in order.
        await broadcast.send(broadcast.dialogue_group(dialogue_id), {"type": "dialogue.event", "seq": seq})
    if report.expired_entries or report.released_dialogues or report.reaped_servers:
        await broadcast.send(broadcast.LOBBY_GROUP, {"type": "lobby.changed"})


def presence_message(side: str, state: str, *, channel: str = "") -> dict:
    """The group message that tells a side's partner it is `connected`, `typing` or `reconnecting`: for a change of
    presence, one per change, whoever saw it (the socket itself, or housekeeping). `channel` is the sending socket's
    own, which ignores it."""
    return {"type": "dialogue.presence", "side": side, "state": state, "channel": channel}
