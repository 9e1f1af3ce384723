"""What one room message costs the server, by kind: CPU and database queries of `dialogs.room.dialogue_post` and of
the follow-ups it hands back (the labels read from a shared result, the next suggestion after an answer).

    .venv/bin/python bench/room_post.py [--dialogues 30] [--questions 3] [--profile FILE]
    .venv/bin/python tools/test_stack.py with-services -- .venv/bin/python bench/room_post.py   # on PostgreSQL

Builds a throwaway platform (its own data folder and SQLite database, or the DATABASE_URL given), with the demo
databases, goals and accounts, and plays N dialogues in this one process the way `bench/chat_load.py`'s scripted
clients do (utterance, user acts, the goal's SQL run, result shared, CONFIRM_SQL response; end; score), calling the
room's entry point directly: no websocket, no channel layer, no thread hop. It prints, per message kind, the median
CPU milliseconds of this thread, of the SQL sandbox's processes (the SQL runs and goal comparisons), and the queries
sent, beside a floor: one event stored with its sequence number (`dialogs.room.dialogue_record`), the least a
stored message can cost. `bench/chat_load.py` measures the same messages through the whole server; this script says
which kind of message the difference is in, and (`--profile`) where, without a loaded machine's noise in latency.
"""

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from bench import export as export_bench  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    """CPU seconds of this process's descendants still running (the sandbox's worker processes)."""
    parents, used = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat_file:
                fields = stat_file.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / TICK
    total, todo = 0.0, [pid for pid, parent in parents.items() if parent == os.getpid()]
    while todo:
        pid = todo.pop()
        total += used.get(pid, 0.0)
        todo.extend(child for child, parent in parents.items() if parent == pid)
    return total


class Meter:
    """CPU (this thread, the sandbox's processes) and queries per labelled step."""

    def __init__(self):
        self.samples = defaultdict(list)

    def measure(self, label: str, function):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        # Reading /proc costs this thread milliseconds: read outside the thread's CPU measurement.
        before_children = children_cpu()
        with CaptureQueriesContext(connection) as queries:
            before_thread = time.thread_time()
            value = function()
            thread = time.thread_time() - before_thread
        self.samples[label].append((thread, children_cpu() - before_children, len(queries.captured_queries)))
        return value

    def report(self) -> None:
        print(f"{'step':<28} {'n':>4} {'CPU ms':>8} {'sandbox ms':>11} {'queries':>8}")
        for label, rows in self.samples.items():
            cpu = statistics.median(row[0] for row in rows) * 1000
            sandbox = statistics.mean(row[1] for row in rows) * 1000
            queries = statistics.median(row[2] for row in rows)
            print(f"{label:<28} {len(rows):>4} {cpu:>8.2f} {sandbox:>11.2f} {queries:>8.0f}")


def play(meter: Meter, dialogue, worker, expert, questions: int) -> None:
    from dialogs import log, room

    # As a room socket does: the turns replayed from the events it passed on spare each message a read of the log.
    turns = log.dialogue_turns(dialogue)

    def post(label, person, message):
        later = []
        events = meter.measure(
            label,
            lambda: room.dialogue_post(
                dialogue=dialogue, person=person, message=message, turns=log.turns_copy(turns), later=later
            ),
        )
        for follow_up in later:
            events += meter.measure(f"  {label} follow-up", follow_up)
        for event, _ in events:
            log.turns_apply(turns, event)
        return events

    number = 0

    def next_id():
        nonlocal number
        number += 1
        return f"m{number}"

    goal_sql = dialogue.goal.sql
    for question in range(questions):
        asked = {"type": "utterance", "id": next_id(), "text": f"Question {question}?"}
        turn = post("utterance", worker, asked)[0][0].seq
        post("user_acts", expert, {"type": "user_acts", "id": next_id(), "turn": turn, "acts": ["INFORM_SQL"]})
        run = post("sql_run", expert, {"type": "sql_run", "id": next_id(), "turn": turn, "sql": goal_sql})[0][0].seq
        post("share_result", expert, {"type": "share_result", "id": next_id(), "turn": turn, "run": run})
        post(
            "response",
            expert,
            {"type": "response", "id": next_id(), "turn": turn, "text": "Here it is.", "acts": ["CONFIRM_SQL"]},
        )
    post("end", worker, {"type": "end", "id": next_id()})
    post("score", expert, {"type": "score", "id": next_id(), "score": 5, "comment": ""})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dialogues", type=int, default=30)
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--profile", metavar="FILE", help="write a cProfile of the dialogues (pstats) and its top")
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="wozsql-room-post-"))
    # Tasks run as on the server being modelled: in-process on the embedded defaults, sent to Redis with REDIS_URL.
    export_bench.setup_django(data_dir, eager=not os.environ.get("REDIS_URL"))
    from django.core.management import call_command
    from django.db import connection

    call_command("load_demo", verbosity=0)
    from annotation.models import Goal, User
    from dialogs import room
    from dialogs.models import Dialogue, DialogueStatus, EventKind

    worker, expert = User.objects.get(username="alice"), User.objects.get(username="erin")
    goals = list(Goal.objects.filter(active=True).select_related("database").order_by("pk"))
    print(
        f"{connection.vendor}, {len(goals)} goals, {args.dialogues} dialogues of {args.questions} questions, "
        f"load average {os.getloadavg()[0]:.1f}"
    )

    def dialogue_for(index):
        goal = goals[index % len(goals)]
        return Dialogue.objects.select_related("database", "database_version", "goal", "worker").get(
            pk=Dialogue.objects.create(
                database=goal.database, goal=goal, worker=worker, expert=expert, status=DialogueStatus.ACTIVE
            ).pk
        )

    meter = Meter()
    play(meter, dialogue_for(0), worker, expert, args.questions)  # warm: imports, caches, the sandbox's workers
    meter = Meter()
    profile = cProfile.Profile() if args.profile else None
    for index in range(args.dialogues):
        dialogue = dialogue_for(index + 1)
        if profile:
            profile.enable()
        play(meter, dialogue, worker, expert, args.questions)
        if profile:
            profile.disable()
        # The floor: one event stored with the next sequence number, nothing checked, nothing added.
        for _ in range(args.questions):
            meter.measure(
                "floor: one stored event",
                lambda d=dialogue: room.dialogue_record(
                    dialogue=d, author=expert, kind=EventKind.DROP, payload={"turn": 1}
                ),
            )
    meter.report()
    if profile:
        profile.dump_stats(args.profile)
        pstats.Stats(args.profile).sort_stats("cumulative").print_stats(40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
