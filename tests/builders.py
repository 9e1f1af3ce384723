"""Builders shared by every app's tests (no test imports another test module's helpers)."""


def expert_ready(person, *, channel_name: str | None = None, **socket):
    """The expert has their desk open (a lobby socket, as the desk page keeps) and says they are ready: pairing takes
    only experts with a lobby socket open (dialogs.lobby.lobby_pair). Returns their lobby entry; pairs nobody itself
    (the tests call lobby_pair when they mean to)."""
    from dialogs.lobby import lobby_join
    from dialogs.models import LiveSocket
    from dialogs.presence import socket_opened

    socket_opened(
        channel_name=channel_name or f"desk-of-{person.pk}", person_id=person.pk, kind=LiveSocket.Kind.LOBBY, **socket
    )
    return lobby_join(person=person)


def dorm_dialogue(demo_databases):
    """A new dialogue between Alice (worker) and Erin (expert) on the dormitory database: (dialogue, alice, erin)."""
    from django.utils import timezone

    from annotation.models import Goal
    from annotation.services import person_create
    from dialogs.models import Dialogue

    alice, _ = person_create(username="alice", role="worker", password="correct-horse-battery")
    alice.tutorial_passed_at = timezone.now()
    alice.save()
    erin, _ = person_create(username="erin", role="expert", password="correct-horse-battery")
    goal = Goal.objects.filter(database__db_id="dorm_demo").first() or _dorm_goal(demo_databases["dorm_demo"])
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    return dialogue, alice, erin


def _dorm_goal(database):
    from annotation.services import goal_create

    return goal_create(database=database, question="How many students?", sql="SELECT count(*) FROM student")
