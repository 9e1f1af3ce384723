"""The embedded stack's background jobs (dialogs.embedded_jobs): off the caller's thread, a bounded queue, stale jobs
dropped."""

import threading

from dialogs import embedded_jobs
from dialogs.embedded_jobs import BoundedJobs


def test_jobs_run_off_the_callers_thread_a_full_queue_drops_and_a_stale_job_is_not_run(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(embedded_jobs, "_now", lambda: clock[0])
    jobs = BoundedJobs("test-jobs", waiting=2, stale_seconds=60)
    running, release, done = threading.Event(), threading.Event(), threading.Event()
    ran = []

    def blocker():
        ran.append(("blocker", threading.current_thread()))
        running.set()
        release.wait(30)

    def record(name):
        ran.append((name, threading.current_thread()))
        if name == "fresh":
            done.set()

    assert jobs.submit(blocker)
    assert running.wait(30)
    assert jobs.submit(record, "stale")  # waits behind the blocker
    clock[0] = 61.0  # a minute later
    assert jobs.submit(record, "fresh")
    assert not jobs.submit(record, "dropped")  # two wait already: the queue is full
    release.set()  # the stale job's turn comes after its bound: not run; the fresh one runs
    assert done.wait(30)
    assert [name for name, _ in ran] == ["blocker", "fresh"]
    assert all(thread is not threading.current_thread() for _, thread in ran)
