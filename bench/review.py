"""Time the review dashboard's list page and one review screen on a large collection, and count their queries.

Usage: .venv/bin/python bench/review.py [--dialogues 10000] [--turns 10] [--corrections 20000] [--repeat 20]

Builds a throwaway platform (its own data folder and SQLite database, or the DATABASE_URL you give, e.g. through
`tools/test_stack.py with-services -- ...`) holding the demo databases and N dialogues of T user turns each (every
turn: utterance, acts, SQL run, shared result, response), written straight into the event log with bulk inserts,
each dialogue with a review row; then C corrections appended as correction events spread over the dialogues. It
requests the dashboard (first page, default and filtered) and the review screen of a corrected dialogue through
Django's test client, R times each, and prints the median and the p95 in ms and the number of queries, also for a
collection a tenth the size (the count must not grow). Target: under 200 ms each on PostgreSQL.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))
TARGET_MS = 200.0

from bench import export as export_bench  # noqa: E402


def setup_django(data_dir: Path) -> None:
    """The export benchmark's throwaway platform (settings, migrations), with the demo data and accounts."""
    from django.core.management import call_command

    export_bench.setup_django(data_dir)
    call_command("load_demo", verbosity=0)


def build(dialogues: int, turns: int, corrections: int) -> list[int]:
    """Write the collection; returns the ids of the dialogues that got corrections."""
    from django.utils import timezone

    from annotation.models import Goal, User
    from dialogs import log
    from dialogs.models import Dialogue, DialogueStatus, Event, EventKind
    from review.models import DialogueReview, ReviewStage

    worker, expert = User.objects.get(username="alice"), User.objects.get(username="erin")
    reviewer = User.objects.get(username="rita")
    goals = list(Goal.objects.select_related("database"))
    result = {"ok": True, "columns": ["n"], "rows": [[42]], "row_count": 1, "truncated": False}
    sql = "SELECT count(*) FROM student"
    now = timezone.now()
    made = Dialogue.objects.bulk_create(
        [
            Dialogue(
                database_id=goals[i % len(goals)].database_id,
                goal=goals[i % len(goals)],
                worker=worker,
                expert=expert,
                status=DialogueStatus.COMPLETED,
                ended_at=now,
                last_seq=turns * 5 + 1,
            )
            for i in range(dialogues)
        ],
        batch_size=2000,
    )
    events = []
    for dialogue in made:
        seq = 0
        for number in range(turns):
            utterance = seq + 1
            events += [
                Event(dialogue=dialogue, seq=utterance, kind=EventKind.UTTERANCE, author=worker, author_role="worker",
                      payload=log.utterance_payload(f"Question {number} of dialogue {dialogue.pk}?")),
                Event(dialogue=dialogue, seq=utterance + 1, kind=EventKind.USER_ACTS, author=expert,
                      author_role="expert", payload=log.user_acts_payload(utterance, ["INFORM_SQL"])),
                Event(dialogue=dialogue, seq=utterance + 2, kind=EventKind.SQL_RUN, author=expert,
                      author_role="expert", payload=log.sql_run_payload(utterance, sql, result)),
                Event(dialogue=dialogue, seq=utterance + 3, kind=EventKind.RESULT_SHARED, author=expert,
                      author_role="expert", payload=log.result_shared_payload(utterance, utterance + 2, result)),
                Event(dialogue=dialogue, seq=utterance + 4, kind=EventKind.RESPONSE, author=expert,
                      author_role="expert", payload=log.response_payload(utterance, "There are 42.", ["CONFIRM_SQL"],
                                                                         utterance + 2)),
            ]  # fmt: skip
            seq += 5
        events.append(
            Event(dialogue=dialogue, seq=seq + 1, kind=EventKind.END, author=worker, author_role="worker",
                  payload=log.end_payload(DialogueStatus.COMPLETED, "done", "WOZ"))
        )  # fmt: skip
        if len(events) > 20000:
            Event.objects.bulk_create(events, batch_size=5000)
            events = []
    Event.objects.bulk_create(events, batch_size=5000)
    DialogueReview.objects.bulk_create(
        [
            DialogueReview(dialogue=d, stage=ReviewStage.PENDING if i % 3 else ReviewStage.APPROVED)
            for i, d in enumerate(made)
        ],
        batch_size=2000,
    )
    # Corrections: spread over a tenth of the dialogues, appended after each one's log.
    corrected = made[: max(1, dialogues // 10)]
    per = max(1, corrections // len(corrected))
    rows = []
    for dialogue in corrected:
        for k in range(per):
            turn = 1 + 5 * (k % turns)
            payload = log.correction_payload(
                turn=turn, field="utterance", old="old", new=f"Corrected question {k}?", review_pass=1, reason="bench"
            )
            rows.append(
                Event(dialogue=dialogue, seq=turns * 5 + 2 + k, kind=EventKind.CORRECTION, author=reviewer,
                      author_role="reviewer", payload=payload)
            )  # fmt: skip
    Event.objects.bulk_create(rows, batch_size=5000)
    for dialogue in corrected:
        Dialogue.objects.filter(pk=dialogue.pk).update(last_seq=turns * 5 + 1 + per)
    return [dialogue.pk for dialogue in corrected]


def slowest_queries(client, url: str) -> list[tuple[float, str]]:
    """The time of each query of one request (for --explain)."""
    from django.db import connection

    timed = []

    def wrapper(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            timed.append(((time.perf_counter() - started) * 1000, sql[:160]))

    with connection.execute_wrapper(wrapper):
        client.get(url)
    return sorted(timed, reverse=True)


def measure(client, url: str, repeat: int) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialogues", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--corrections", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--explain", action="store_true", help="print each query's time for every page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wozsql-review-bench-") as folder:
        setup_django(Path(folder))
        from django.db import connection
        from django.test import Client

        from annotation.models import User

        client = Client()
        client.force_login(User.objects.get(username="ravi"))
        print(f"database: {connection.vendor}")
        small = max(1, args.dialogues // 10)
        for size, corrections in ((small, args.corrections // 10), (args.dialogues - small, args.corrections)):
            started = time.perf_counter()
            corrected = build(size, args.turns, corrections)
            print(f"+{size} dialogues, {size * args.turns} user turns, {corrections} corrections "
                  f"written in {time.perf_counter() - started:.1f} s")  # fmt: skip
            pages = {
                "dashboard": "/review/",
                "dashboard, filtered": "/review/?queue=pass1&database=dorm_demo&sort=oldest",
                "dashboard, page 50": "/review/?page=50",
                "review screen": f"/review/dialogues/{corrected[-1]}/",
            }
            for name, url in pages.items():
                median, p95, queries = measure(client, url, args.repeat)
                verdict = "ok" if p95 <= TARGET_MS else "MISSED"
                print(f"  {name:22s} median {median:7.1f} ms  p95 {p95:7.1f} ms  {queries:3d} queries  ({verdict})")
                if args.explain:
                    for spent, sql in slowest_queries(client, url):
                        print(f"      {spent:6.1f} ms  {sql}")


if __name__ == "__main__":
    main()
