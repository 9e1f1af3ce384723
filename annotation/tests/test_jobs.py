"""Every background job is an annotation.jobs.Job: one set of states, one percent, one status answer."""

import pytest

from annotation.jobs import FINISHED_STATES, Job, JobState
from annotation.models import DatabaseTestSuite, GoalGeneration
from dialogs.models import SimulationRun
from review.models import Evaluation, Export

JOBS = [Export, Evaluation, GoalGeneration, SimulationRun, DatabaseTestSuite]


@pytest.mark.parametrize("model", JOBS)
def test_every_job_is_a_job_with_the_one_set_of_states(model):
    assert issubclass(model, Job) and model.State is JobState
    values = [value for value, _ in model._meta.get_field("state").choices]
    cancellable = model is GoalGeneration
    assert values == [state.value for state in JobState if cancellable or state != JobState.CANCELLED]
    for name in ("progress_done", "progress_total", "message", "report", "created_at", "started_at", "finished_at"):
        assert model._meta.get_field(name)


@pytest.mark.parametrize("model", JOBS)
def test_percent_is_100_only_once_a_job_has_succeeded(model):
    job = model(progress_done=10, progress_total=10)
    for state in JobState:
        job.state = state
        assert job.percent == (100 if state == JobState.SUCCEEDED else 99)
        assert job.finished == (state in FINISHED_STATES)
    job.state, job.progress_done = JobState.RUNNING, 3
    assert job.percent == 30
    job.progress_total = 0
    assert job.percent == 0


@pytest.mark.parametrize("model", JOBS)
def test_every_job_answers_the_same_status_keys(model):
    job = model(state=JobState.RUNNING, progress_done=1, progress_total=4, message="going")
    status = job.status_json(extra=1)
    assert status == {
        "id": None,
        "state": "running",
        "state_label": status["state_label"],
        "percent": 25,
        "done": 1,
        "total": 4,
        "finished": False,
        "message": "going",
        "extra": 1,
    }


def test_each_job_keeps_its_own_words_for_its_states():
    assert Export(state="succeeded").state_label == "Ready"
    assert Evaluation(state="succeeded").state_label == "Scored"
    assert GoalGeneration(state="succeeded").state_label == "Done"
    assert SimulationRun(state="succeeded").state_label == "Done"
    suite = DatabaseTestSuite(state="queued")
    assert suite.state_label == "Waiting to be built"
    suite.state = "running"
    assert suite.state_label == "Building"


@pytest.mark.django_db
def test_a_job_speaks_the_language_of_the_person_who_asked():
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override("zh-hans"):
        asked_in_chinese = SimulationRun.objects.create(count=1, server_url="http://127.0.0.1:1")
    with translation.override("en"):
        asked_in_english = SimulationRun.objects.create(count=1, server_url="http://127.0.0.1:1")
    assert (asked_in_chinese.message_language, asked_in_english.message_language) == ("zh-hans", "en")
    with asked_in_chinese.speaking():
        assert gettext("Cancelled") != "Cancelled"
    with asked_in_english.speaking():
        assert gettext("Cancelled") == "Cancelled"
