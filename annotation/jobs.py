"""The one shape of a background job (issue 37): an export, an evaluation, a goal-generation run, a pilot by simulated
workers and a test-suite build all inherit `Job`. Each says in one state how far it is (`JobState`), counts its
progress as done of total, keeps a message for the person who asked and a report of what it made, and answers its
page's poll with `status_json()` (static/js/job_poll.js reads it). What a job does, and any field of its own, stays
with the job.

`annotation` is the lowest app, so `dialogs` and `review` inherit from here.
"""

from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _


class JobState(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")
    CANCELLED = "cancelled", _("Cancelled")


FINISHED_STATES = (JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED)


def job_state_choices(*, cancellable: bool = False, **labels: str) -> list[tuple[str, str]]:
    """The states a job may be in, each with the words its page uses (`succeeded="Ready"`); `cancelled` only for a
    job that can be cancelled."""
    return [
        (state.value, labels.get(state.name.lower(), state.label))
        for state in JobState
        if cancellable or state != JobState.CANCELLED
    ]


def job_state_field(**labels) -> models.CharField:
    """A job's `state` column with its own words (see `job_state_choices`)."""
    return models.CharField(max_length=12, choices=job_state_choices(**labels), default=JobState.QUEUED)


class Speaking(models.Model):
    """Work done later for a person, which writes its messages in their language: a background job, a payment sent
    to a crowd platform. The one rule (docs/i18n.md): the language of the person who asked, their page's when the row
    was made."""

    message_language = models.CharField(
        max_length=12,
        blank=True,
        default="",
        help_text="The language of the person who asked (their page's when the job was made): its messages are "
        "written in it.",
    )

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self._state.adding and not self.message_language:
            self.message_language = translation.get_language() or ""
        super().save(*args, **kwargs)

    def speaking(self):
        """A context in which its messages and phases are written in the language of the person who asked:
        `with job.speaking(): job.message = gettext(...)`. A row made outside any request (a command, a test) speaks
        the site's default language."""
        return translation.override(self.message_language or None)


class Job(Speaking):
    """What every background job records. A job overrides `state` with `job_state_field(...)` for its own words."""

    State = JobState
    FINISHED_STATES = FINISHED_STATES

    state = job_state_field()
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True, help_text="Why the job failed or stopped, or what it came to.")
    report = models.JSONField(default=dict, blank=True, help_text="What the job found or made (its own keys).")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def finished(self) -> bool:
        return self.state in FINISHED_STATES

    @property
    def percent(self) -> int:
        """How far the job got: 100 once it has succeeded, and never 100 before (a failed or cancelled job keeps the
        share it got to, at most 99)."""
        if self.state == JobState.SUCCEEDED:
            return 100
        if not self.progress_total:
            return 0
        return min(99, int(100 * self.progress_done / self.progress_total))

    @property
    def state_label(self) -> str:
        return self.get_state_display()

    def status_json(self, **extra) -> dict:
        """What a job's status URL answers, the same keys for every job (static/js/job_poll.js); a job adds its own
        through `extra`."""
        return {
            "id": self.pk,
            "state": self.state,
            "state_label": self.state_label,
            "percent": self.percent,
            "done": self.progress_done,
            "total": self.progress_total,
            "finished": self.finished,
            "message": self.message,
            **extra,
        }
