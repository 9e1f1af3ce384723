"""How a translation job runs (docs/translation.md): a project build (review.translation.build) and a release's
export (review.translation.export) are both queued rows with a time bound of their own and a cancel an admin may ask
for at any moment. The rules they share live here:

- `claim`: in one short transaction, a queued job starts (its row says running and since when); a cancel asked for
  before it started ends it cancelled instead; a running job past its bound by a minute died with its worker, and a
  redelivered task takes it over; any other job is left alone (None).
- `Run`: between its steps a job writes its progress and stops (`Stopped`) past its bound or once a cancel was asked
  for, in the language of the person who asked.
- `finish`: a job that stopped or failed ends with its state and message, cut to what the column is read at.
"""

from __future__ import annotations

import time

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation.jobs import Job

# A job running this long past its bound is taken for dead (its worker was killed) and may be taken over.
TAKEOVER_GRACE_SECONDS = 60
MESSAGE_MAX_CHARS = 5000


class Stopped(Exception):
    """The run stopped early: cancelled (`cancelled`) or out of time, or with nothing to make; the message says
    which."""

    def __init__(self, message: str, *, cancelled: bool = False):
        super().__init__(message)
        self.cancelled = cancelled


def claim(model: type[Job], pk: int, *, max_seconds: int) -> Job | None:
    """Job `pk` of `model` (which has `cancel_requested_at`), started; None when this run is not to do it."""
    with transaction.atomic():
        job = model.objects.select_for_update().get(pk=pk)
        abandoned = (
            job.state == Job.State.RUNNING
            and job.started_at is not None
            and (timezone.now() - job.started_at).total_seconds() > max_seconds + TAKEOVER_GRACE_SECONDS
        )
        if job.state != Job.State.QUEUED and not abandoned:
            return None
        if job.cancel_requested_at is not None:
            with job.speaking():
                job.state, job.finished_at, job.message = Job.State.CANCELLED, timezone.now(), gettext("Cancelled.")
            job.save(update_fields=["state", "finished_at", "message"])
            return None
        job.state, job.started_at = Job.State.RUNNING, timezone.now()
        job.save(update_fields=["state", "started_at"])
    return job


class Run:
    """What a running job needs between its steps: its deadline, the cancel check and its progress bar.

    `out_of_time` and `cancelled` are the job's own words (lazy texts: worded when they are raised, in the asker's
    language); `out_of_time` is given the bound's `seconds` and its `setting`. `every`: the cancel is read at most
    this often (seconds), unless a check is forced."""

    def __init__(self, job: Job, *, max_seconds: int, setting: str, out_of_time, cancelled, every: float = 0.0):
        self.job, self.max_seconds, self.setting = job, max_seconds, setting
        self.out_of_time, self.cancelled, self.every = out_of_time, cancelled, every
        self.deadline = time.monotonic() + max_seconds
        self.checked_at: float | None = None

    def stop(self, *, force: bool = False) -> None:
        """Raise Stopped past the deadline or once a cancel was asked for."""
        now = time.monotonic()
        if now > self.deadline:
            with self.job.speaking():
                raise Stopped(str(self.out_of_time) % {"seconds": self.max_seconds, "setting": self.setting})
        if not force and self.checked_at is not None and now - self.checked_at < self.every:
            return
        self.checked_at = now
        if type(self.job).objects.filter(pk=self.job.pk, cancel_requested_at__isnull=False).exists():
            with self.job.speaking():
                raise Stopped(str(self.cancelled), cancelled=True)

    def progress(self, done: int, total: int) -> None:
        """Write the progress, then stop if the job must (`stop`)."""
        type(self.job).objects.filter(pk=self.job.pk).update(progress_done=done, progress_total=total)
        self.stop()


def finish(model: type[models.Model], pk: int, state: str, message: str) -> None:
    """End job `pk` of `model` (stopped or failed) with `state` and `message`."""
    model.objects.filter(pk=pk).update(state=state, message=message[:MESSAGE_MAX_CHARS], finished_at=timezone.now())
