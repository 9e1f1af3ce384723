"""Goals generated from a database's page (annotation.goals.generation): the run is a background job (on the embedded
defaults, as here, a thread of the server process) that saves its progress and its coverage report, keeps the goals
waiting for a question, and refuses bad requests with a reason while writing nothing. It stops at its time bound or
when cancelled, keeping what it found, and a run whose process stopped is found and marked failed."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.goals import generation as goal_generation
from annotation.goals.generation import (
    GoalGenerationError,
    goal_generation_cancel,
    goal_generation_run,
    goal_generation_start,
    goal_generations_fail_stale,
)
from annotation.goals.sampler import coverage
from annotation.models import Database, Goal, GoalGeneration
from tests.builders import database_slow_to_read


@pytest.fixture(autouse=True)
def _runs_on_threads(settings):
    """The embedded defaults (runs on a thread of this process), also when the tests run beside a real broker."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


def run_ended(run: GoalGeneration) -> GoalGeneration:
    """The run once its thread has ended (the condition a story waits for), read again."""
    thread = goal_generation._threads.get(run.pk)
    if thread is not None:
        thread.join(timeout=300)
        assert not thread.is_alive(), "the run's thread did not end"
    run.refresh_from_db()
    return run


class RunClock:
    """The run's clock (goal_generation.monotonic), one second later at each reading. A run reads it when it starts
    and once at each check between two candidates, so a bound of N seconds trips at its N-th check; `at` does
    something at a given reading, between two candidates (a person pressing Cancel while the run runs)."""

    def __init__(self, at: dict | None = None):
        self.readings, self.at = 0, at or {}

    def __call__(self) -> float:
        self.readings += 1
        if self.readings in self.at:
            self.at[self.readings]()
        return float(self.readings)


@pytest.mark.django_db(transaction=True)
def test_a_run_asked_for_on_the_page_keeps_its_goals_waiting_and_reports_what_it_changed(demo_databases, client, ada):
    database = demo_databases["dorm_demo"]
    known = list(database.goals.values_list("sql", flat=True))
    client.force_login(ada)
    url = reverse("annotation:goal_generation", args=["dorm_demo"])
    response = client.post(url, {"count": "6", "levels": ["easy", "medium", "hard"], "seed": "11"})
    assert response.status_code == 302

    run = run_ended(GoalGeneration.objects.get())
    assert run.state == GoalGeneration.State.SUCCEEDED, run.message
    assert run.requested_by == ada and run.progress_done == 6 and run.saved == 6
    new = Goal.objects.filter(database=database, source=Goal.Source.GENERATED)
    assert new.count() == 6
    assert all(goal.question == "" and not goal.active and goal.tree for goal in new)
    assert {goal.hardness for goal in new} <= {"easy", "medium", "hard"}
    # The report is the goal set's coverage before and after, counted the one way (goal_sampler.coverage).
    after = coverage([*known, *new.values_list("sql", flat=True)], database.schema)
    assert run.report["before"]["goals"] == len(known) and run.report["after"]["goals"] == len(known) + 6
    assert run.report["after"]["tables_covered"] == after["tables_covered"]
    assert run.report["after"]["columns_covered"] == after["columns_covered"]
    assert sum(run.report["after"]["hardness"].values()) == len(known) + 6
    # And what the rules refused or rewrote on the way, each with its reason (annotation.goals.rules).
    assert run.report["rules"] and all(
        row["reason"] and row["refused"] + row["rewritten"] for row in run.report["rules"]
    )

    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "What the newest run changed" in text and "6 goals of this database wait for a question" in text
    first = run.report["rules"][0]
    assert f'data-testid="rule-{first["rule"]}"' in text and first["reason"].capitalize() in text
    status = client.get(reverse("annotation:goal_generation_status", args=[run.pk])).json()
    assert status == {
        "id": run.pk,
        "state": "succeeded",
        "state_label": "Done",
        "percent": 100,
        "done": 6,
        "total": 6,
        "found": 6,
        "count": 6,
        "finished": True,
        "message": "",
    }


@pytest.mark.django_db(transaction=True)
def test_a_redelivered_task_leaves_a_finished_run_as_it_is(demo_databases, ada):
    run = goal_generation_start(database=demo_databases["dorm_demo"], person=ada, count=2, levels=["easy"], seed=1)
    run = run_ended(run)
    assert run.state == GoalGeneration.State.SUCCEEDED
    goals = Goal.objects.filter(source=Goal.Source.GENERATED).count()
    goal_generation_run(run.pk)
    assert Goal.objects.filter(source=Goal.Source.GENERATED).count() == goals


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"count": "0", "levels": ["easy"]}, "greater than or equal to 1"),
        ({"count": "501", "levels": ["easy"]}, "less than or equal to 500"),
        ({"count": "3"}, "Pick at least one hardness level."),
        ({"count": "3", "levels": ["trivial"]}, "Select a valid choice"),
        ({"count": "three", "levels": ["easy"]}, "Enter a whole number"),
    ],
)
def test_a_bad_request_on_the_page_says_why_and_starts_nothing(demo_databases, client, ada, form, message):
    client.force_login(ada)
    response = client.post(reverse("annotation:goal_generation", args=["dorm_demo"]), form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not GoalGeneration.objects.exists()


@pytest.mark.django_db
def test_only_admins_generate_goals(demo_databases, client, erin, rita, alice):
    url = reverse("annotation:goal_generation", args=["dorm_demo"])
    for person in (erin, rita, alice):
        client.force_login(person)
        assert client.get(url).status_code == 403
        assert client.post(url, {"count": "2", "levels": ["easy"]}).status_code == 403
    with pytest.raises(GoalGenerationError, match="Only admins"):
        goal_generation_start(database=demo_databases["dorm_demo"], person=erin, count=2, levels=["easy"], seed=None)
    assert not GoalGeneration.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_database_registered_without_its_file_gets_a_reason_not_a_run(demo_databases, ada):
    database = demo_databases["dorm_demo"]
    database.file = ""
    database.save(update_fields=["file"])
    with pytest.raises(GoalGenerationError, match="without its SQLite file"):
        goal_generation_start(database=database, person=ada, count=2, levels=["easy"], seed=None)
    assert not GoalGeneration.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_run_that_fails_says_why_on_its_page_and_keeps_no_goal(demo_databases, client, ada, tmp_path):
    database = demo_databases["dorm_demo"]
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"not a database at all")
    database.file = str(broken)
    database.save(update_fields=["file"])
    goals = Goal.objects.count()
    run = goal_generation_start(database=database, person=ada, count=3, levels=["easy"], seed=None)
    run = run_ended(run)
    assert run.state == GoalGeneration.State.FAILED
    assert "has rows the sandbox can read" in run.message
    assert Goal.objects.count() == goals
    client.force_login(ada)
    assert run.message in client.get(reverse("annotation:goal_generation", args=["dorm_demo"])).content.decode()


# --- The time bound, cancelling, and runs left by a stopped process ---------------------------------------------------


def _queued(database, person, count=40, **fields) -> GoalGeneration:
    """A run as `goal_generation_start` records it, before any process has taken it."""
    return GoalGeneration.objects.create(
        database=database,
        requested_by=person,
        count=count,
        progress_total=count,
        levels=["easy", "medium", "hard"],
        seed=5,
        **fields,
    )


@pytest.mark.django_db(transaction=True)
def test_a_run_stops_at_its_time_bound_and_keeps_what_it_found(demo_databases, settings, monkeypatch, ada):
    database = demo_databases["dorm_demo"]
    settings.GOAL_GENERATION_MAX_SECONDS = 40
    monkeypatch.setattr(goal_generation, "monotonic", RunClock())
    run = _queued(database, ada, count=300)  # more than forty candidates can ever give
    goal_generation_run(run.pk)

    run.refresh_from_db()
    found = run.progress_done
    assert run.state == GoalGeneration.State.SUCCEEDED and run.finished and run.percent == 100
    assert 0 < found < 300
    assert run.message == (
        f"Stopped after 40 s (GOAL_GENERATION_MAX_SECONDS) with {found} of 300 goals found; what it found is kept."
    )
    assert run.saved == found == Goal.objects.filter(database=database, source=Goal.Source.GENERATED).count()
    assert run.report["after"]["goals"] == run.report["before"]["goals"] + found


@pytest.mark.django_db(transaction=True)
def test_a_bound_of_nothing_stops_before_the_first_candidate(demo_databases, settings, ada):
    settings.GOAL_GENERATION_MAX_SECONDS = 0
    run = _queued(demo_databases["dorm_demo"], ada, count=5)
    goal_generation_run(run.pk)
    run.refresh_from_db()
    assert run.state == GoalGeneration.State.SUCCEEDED
    assert run.message.startswith("Stopped after 0 s (GOAL_GENERATION_MAX_SECONDS) with 0 of 5 goals found")
    assert not Goal.objects.filter(source=Goal.Source.GENERATED).exists()


@pytest.mark.django_db(transaction=True)
def test_a_run_asked_in_chinese_writes_its_message_in_chinese(demo_databases, settings, monkeypatch, ada):
    """The run speaks the language of the person who asked for it (docs/i18n.md), whatever the worker's is."""
    from django.utils import translation

    settings.GOAL_GENERATION_MAX_SECONDS = 0
    with translation.override("zh-hans"):
        run = _queued(demo_databases["dorm_demo"], ada, count=5)
    monkeypatch.setattr(goal_generation, "gettext", lambda text: f"[{translation.get_language()}] {text}")
    with translation.override("en"):
        goal_generation_run(run.pk)
    run.refresh_from_db()
    assert run.message.startswith("[zh-hans] Stopped after 0 s"), run.message


@pytest.mark.django_db(transaction=True)
def test_a_cancel_stops_the_run_at_its_next_check_and_keeps_what_it_found(demo_databases, monkeypatch, ada):
    database = demo_databases["dorm_demo"]
    run = _queued(database, ada, count=300)

    def press_cancel():
        said = goal_generation_cancel(generation=run, person=ada)
        assert said.startswith("Asked the run to stop")
        assert GoalGeneration.objects.get(pk=run.pk).state_label == "Cancelling"

    # Cancel pressed at the run's 36th check; the heartbeat (every 2 s here: every other check) reads it.
    monkeypatch.setattr(goal_generation, "monotonic", RunClock(at={36: press_cancel}))
    goal_generation_run(run.pk)

    run.refresh_from_db()
    found = run.progress_done
    assert run.state == GoalGeneration.State.CANCELLED and run.get_state_display() == "Cancelled"
    assert 0 < found < 300
    assert run.finished and not run.stopping and run.percent == 100 * found // 300  # the share it got to
    assert run.message == f"Cancelled by ada with {found} of 300 goals found; what it found is kept."
    assert run.saved == found == Goal.objects.filter(database=database, source=Goal.Source.GENERATED).count()


@pytest.mark.django_db(transaction=True)
def test_a_queued_run_is_cancelled_at_once_and_its_task_leaves_it(demo_databases, ada):
    run = _queued(demo_databases["dorm_demo"], ada)
    assert goal_generation_cancel(generation=run, person=ada) == "Cancelled the run before it started."
    goal_generation_run(run.pk)  # its task, delivered after the cancel
    run.refresh_from_db()
    assert run.state == GoalGeneration.State.CANCELLED and run.started_at is None
    assert run.message == "Cancelled by ada before it started."
    assert not Goal.objects.filter(source=Goal.Source.GENERATED).exists()


@pytest.mark.django_db(transaction=True)
def test_cancelling_a_run_that_has_ended_changes_nothing_and_says_so(demo_databases, client, ada):
    run = goal_generation_start(database=demo_databases["dorm_demo"], person=ada, count=2, levels=["easy"], seed=3)
    run = run_ended(run)
    assert run.state == GoalGeneration.State.SUCCEEDED
    client.force_login(ada)
    response = client.post(reverse("annotation:goal_generation_cancel", args=[run.pk]), follow=True)
    assert response.status_code == 200
    assert "That run had already ended (Done): there was nothing to cancel." in response.content.decode()
    ended = GoalGeneration.objects.get(pk=run.pk)
    assert (ended.state, ended.message, ended.saved, ended.finished_at) == (
        run.state,
        run.message,
        run.saved,
        run.finished_at,
    )
    assert ended.cancel_requested_at is None


@pytest.mark.django_db
def test_only_admins_cancel_and_only_by_post(demo_databases, client, ada, erin, rita):
    run = _queued(demo_databases["dorm_demo"], ada)
    url = reverse("annotation:goal_generation_cancel", args=[run.pk])
    for person in (erin, rita):
        client.force_login(person)
        assert client.post(url).status_code == 403
    with pytest.raises(GoalGenerationError, match="Only admins"):
        goal_generation_cancel(generation=run, person=erin)
    client.force_login(ada)
    assert client.get(url).status_code == 405
    run.refresh_from_db()
    assert run.state == GoalGeneration.State.QUEUED and run.cancel_requested_at is None


@pytest.mark.django_db(transaction=True)
def test_on_the_embedded_defaults_the_page_answers_at_once_and_the_run_is_cancelled_from_it(client, ada):
    # Every goal tried on this database runs into the sandbox's time limit: the run goes on until it is stopped.
    database = Database.objects.get(pk=database_slow_to_read())
    client.force_login(ada)
    url = reverse("annotation:goal_generation", args=[database.db_id])
    response = client.post(url, {"count": "200", "levels": ["easy"]})
    assert response.status_code == 302
    run = GoalGeneration.objects.get()
    assert not run.finished  # the request came back while the run goes on

    page = client.get(url).content.decode()
    assert 'data-testid="cancel-run"' in page
    second = client.post(url, {"count": "5", "levels": ["easy"]})
    assert second.status_code == 400 and "under way on slow_reads" in second.content.decode()

    answer = client.post(reverse("annotation:goal_generation_cancel", args=[run.pk]), follow=True).content.decode()
    assert "Asked the run to stop" in answer or "Cancelled the run before it started." in answer
    run = run_ended(run)
    assert run.state == GoalGeneration.State.CANCELLED, run.message
    assert run.saved == run.progress_done == 0
    status = client.get(reverse("annotation:goal_generation_status", args=[run.pk])).json()
    assert status["state_label"] == "Cancelled" and status["finished"] is True


@pytest.mark.django_db(transaction=True)
def test_a_run_left_by_a_stopped_process_is_marked_failed_when_read(demo_databases, settings, client, ada):
    database = demo_databases["dorm_demo"]
    silent_since = timezone.now() - timedelta(seconds=settings.GOAL_GENERATION_STALE_SECONDS + 5)
    dead = _queued(database, ada, state=GoalGeneration.State.RUNNING, run_token="a" * 32, heartbeat_at=silent_since)
    when = timezone.localtime(silent_since).strftime("%Y-%m-%d %H:%M:%S %Z")
    client.force_login(ada)

    status = client.get(reverse("annotation:goal_generation_status", args=[dead.pk])).json()
    assert status["state"] == "failed" and status["finished"] is True
    assert status["message"] == f"The process running it stopped (no sign of life since {when})."
    page = client.get(reverse("annotation:goal_generation", args=["dorm_demo"])).content.decode()
    assert f"no sign of life since {when}" in page
    # The database is free again: a new run starts and ends.
    run = run_ended(goal_generation_start(database=database, person=ada, count=2, levels=["easy"], seed=2))
    assert run.state == GoalGeneration.State.SUCCEEDED


@pytest.mark.django_db(transaction=True)
def test_a_live_run_is_not_taken_for_a_stopped_one(demo_databases, ada):
    database = demo_databases["dorm_demo"]
    live = _queued(database, ada, state=GoalGeneration.State.RUNNING, heartbeat_at=timezone.now())
    assert goal_generations_fail_stale() == 0
    live.refresh_from_db()
    assert live.state == GoalGeneration.State.RUNNING
    with pytest.raises(GoalGenerationError, match="under way on dorm_demo: wait for it to end or cancel it"):
        goal_generation_start(database=database, person=ada, count=2, levels=["easy"], seed=None)


@pytest.mark.django_db(transaction=True)
def test_a_run_marked_failed_while_it_still_ran_writes_nothing_more(demo_databases, settings, monkeypatch, ada):
    database = demo_databases["dorm_demo"]
    run = _queued(database, ada, count=300)

    def taken_for_stopped():
        # Its process was silent for longer than the limit (a machine that stalled): a reader marks it failed.
        old = timezone.now() - timedelta(seconds=settings.GOAL_GENERATION_STALE_SECONDS + 1)
        GoalGeneration.objects.filter(pk=run.pk).update(heartbeat_at=old)
        assert goal_generations_fail_stale(database_id=database.pk) == 1

    monkeypatch.setattr(goal_generation, "monotonic", RunClock(at={9: taken_for_stopped}))
    goal_generation_run(run.pk)
    run.refresh_from_db()
    assert run.state == GoalGeneration.State.FAILED and "no sign of life since" in run.message
    assert run.saved == 0 and not Goal.objects.filter(source=Goal.Source.GENERATED).exists()
