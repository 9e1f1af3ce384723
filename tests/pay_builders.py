"""Builders of the pay story (tests/browser/test_pay.py), run in the platform's command runner: the work the story
starts from, reached by the rooms' own writer of the log (dialogs.room.dialogue_record), with the times set."""


def pay_week_of_work(username: str, other: str, dialogues: int = 3, minutes: int = 5) -> dict:
    """`username` and `other`, experts (made once: the browser session shares one platform), and `dialogues` ended
    dialogues of `username` on dorm_demo, each `minutes` of work from their join to the end, all finished in one week.
    Returns that week (Monday to Sunday, as the pay pages take it), both experts' ids and the dialogues' ids."""
    from datetime import timedelta

    from django.utils import timezone

    from annotation.models import Database, Role, User
    from dialogs.models import Dialogue, DialogueStatus, Event, EventKind
    from dialogs.room import dialogue_record
    from review.pay.selectors import week_of

    people = {}
    for name in (username, other):
        people[name], _ = User.objects.get_or_create(username=name, defaults={"role": Role.EXPERT})
    worker, _ = User.objects.get_or_create(username=f"{username}-worker", defaults={"role": Role.WORKER})
    database = Database.objects.get(db_id="dorm_demo")
    # Finished just now: the week is the one holding the last end (a story run at a Monday's midnight still agrees).
    end = timezone.now() - timedelta(seconds=1)
    made = []
    for index in range(dialogues):
        finished = end - timedelta(minutes=(dialogues - index - 1) * (minutes + 1))
        dialogue = Dialogue.objects.create(
            database=database, worker=worker, expert=people[username], status=DialogueStatus.COMPLETED
        )
        join, _ = dialogue_record(
            dialogue=dialogue, author=people[username], kind=EventKind.JOIN, payload={}, role=Role.EXPERT
        )
        over, _ = dialogue_record(dialogue=dialogue, author=worker, kind=EventKind.END, payload={"status": "completed"})
        Event.objects.filter(pk=join.pk).update(created_at=finished - timedelta(minutes=minutes))
        Event.objects.filter(pk=over.pk).update(created_at=finished)
        Dialogue.objects.filter(pk=dialogue.pk).update(ended_at=finished)
        made.append(dialogue.pk)
    start, last = week_of(timezone.localdate(end))
    return {
        "start": start.isoformat(),
        "end": last.isoformat(),
        "person": people[username].pk,
        "other": people[other].pk,
        "dialogues": made,
    }
