"""Goals generated from a database's page (annotation.goal_generation): the run is a Celery task (eager here, as on
the embedded defaults) that saves its progress and its coverage report, keeps the goals waiting for a question, and
refuses bad requests with a reason while writing nothing."""

import pytest
from django.urls import reverse

from annotation.goal_generation import GoalGenerationError, goal_generation_run, goal_generation_start
from annotation.models import Goal, GoalGeneration
from annotation.sql.goal_sampler import coverage


@pytest.mark.django_db(transaction=True)
def test_a_run_asked_for_on_the_page_keeps_its_goals_waiting_and_reports_what_it_changed(demo_databases, client, ada):
    database = demo_databases["dorm_demo"]
    known = list(database.goals.values_list("sql", flat=True))
    client.force_login(ada)
    url = reverse("annotation:goal_generation", args=["dorm_demo"])
    response = client.post(url, {"count": "6", "levels": ["easy", "medium", "hard"], "seed": "11"})
    assert response.status_code == 302

    run = GoalGeneration.objects.get()
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

    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "What the newest run changed" in text and "6 goals of this database wait for a question" in text
    status = client.get(reverse("annotation:goal_generation_status", args=[run.pk])).json()
    assert status == {
        "state": "succeeded",
        "state_label": "Done",
        "percent": 100,
        "found": 6,
        "count": 6,
        "finished": True,
        "message": "",
    }


@pytest.mark.django_db(transaction=True)
def test_a_redelivered_task_leaves_a_finished_run_as_it_is(demo_databases, ada):
    run = goal_generation_start(database=demo_databases["dorm_demo"], person=ada, count=2, levels=["easy"], seed=1)
    run.refresh_from_db()
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
    run.refresh_from_db()
    assert run.state == GoalGeneration.State.FAILED
    assert "has rows the sandbox can read" in run.message
    assert Goal.objects.count() == goals
    client.force_login(ada)
    assert run.message in client.get(reverse("annotation:goal_generation", args=["dorm_demo"])).content.decode()
