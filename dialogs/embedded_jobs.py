"""Background jobs of the embedded stack (Celery eager, `make run`), run off every room's path.

With a broker, a background job is a Celery task in a worker process. On the embedded defaults Celery is eager:
`delay()` runs the job in the calling thread, and for what a room adds after a message that thread is the one the
room's socket awaits before it reads the person's next frame. A `BoundedJobs` runs such jobs on a thread of its own
instead, with a bounded queue: a job asked for while the queue is full is dropped, and one that waited longer than its
bound is dropped when its turn comes (the room has moved on); the log says so either way. Each job bounds its own
running time. The thread is the server process's, so a job's Python shares that process's interpreter with the rooms:
one job at a time keeps that share to one thread's (docs/protocol.md).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

from django.db import connection

logger = logging.getLogger(__name__)
_now = time.monotonic  # when a job was asked for and when its turn came (a test moves it)


class BoundedJobs:
    """At most `waiting` jobs queued for `threads` threads of this process (started on the first job; a forked child
    starts its own); a job that waited over `stale_seconds` is not run."""

    def __init__(self, name: str, *, threads: int = 1, waiting: int = 16, stale_seconds: float = 60.0):
        self.name = name
        self.threads = threads
        self.waiting = waiting
        self.stale_seconds = stale_seconds
        self._queue: queue.Queue | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()

    def submit(self, job, *args) -> bool:
        """Queue `job(*args)`; False (and nothing queued) when the queue is full."""
        try:
            self._started().put_nowait((_now(), job, args))
        except queue.Full:
            logger.warning("%s: %d jobs are waiting already; this one is dropped", self.name, self.waiting)
            return False
        return True

    def _started(self) -> queue.Queue:
        if self._pid == os.getpid():
            return self._queue
        with self._lock:
            if self._pid != os.getpid():  # first use, or a forked child: threads do not survive a fork
                jobs = queue.Queue(maxsize=self.waiting)
                for index in range(self.threads):
                    name = f"{self.name}-{index}"
                    threading.Thread(target=self._serve, args=(jobs,), name=name, daemon=True).start()
                self._queue, self._pid = jobs, os.getpid()
        return self._queue

    def _serve(self, jobs: queue.Queue) -> None:
        while True:
            asked, job, args = jobs.get()
            try:
                waited = _now() - asked
                if waited > self.stale_seconds:
                    logger.warning(
                        "%s: a job waited %.0f s, over its %g s: dropped", self.name, waited, self.stale_seconds
                    )
                    continue
                job(*args)
            except Exception:  # a thread has nobody to tell: the log keeps it, the next job runs
                logger.exception("%s: a job failed", self.name)
            finally:
                connection.close()  # this thread's own connection: the server's threads keep theirs
