"""The error pages: a refusal says why, in the site's own layout, and an ordinary refusal leaves the log alone."""

import logging

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def assert_site_page(response, status: int) -> str:
    assert response.status_code == status
    page = response.content.decode()
    assert 'class="topbar"' in page, "the error page does not extend base.html"
    return page


def assert_log_quiet(caplog):
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert noisy == [], [f"{r.name} {r.levelname}: {r.getMessage()}" for r in noisy]


def test_a_refused_role_is_told_why_and_nothing_is_logged(client, alice, caplog):
    client.force_login(alice)
    with caplog.at_level(logging.DEBUG):
        response = client.get(reverse("dialogs:expert_home"))
    page = assert_site_page(response, 403)
    assert "Your role may not join a dialogue as the sql expert." in page
    assert "alice" in page  # the page knows who is signed in
    assert_log_quiet(caplog)


def test_a_blocked_person_is_told_they_are_blocked(client, mallory, caplog):
    client.force_login(mallory)
    with caplog.at_level(logging.DEBUG):
        response = client.get(reverse("dialogs:worker_home"))
    assert "Your account is blocked" in assert_site_page(response, 403)
    assert_log_quiet(caplog)


def test_someone_outside_a_dialogue_is_told_they_are_not_in_it(client, demo_databases, alice, erin, caplog):
    from annotation.goals.services import goal_create
    from annotation.people.services import person_create
    from dialogs.models import Dialogue

    goal = goal_create(database=demo_databases["dorm_demo"], question="How many?", sql="SELECT count(*) FROM student")
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    oscar, _ = person_create(username="oscar", role="expert")
    client.force_login(oscar)
    with caplog.at_level(logging.DEBUG):
        response = client.get(reverse("dialogs:room", kwargs={"dialogue_id": dialogue.pk}))
    assert "You are not a participant of this dialogue." in assert_site_page(response, 403)
    assert_log_quiet(caplog)


def test_a_missing_page_has_the_site_layout(client, erin):
    client.force_login(erin)
    page = assert_site_page(client.get("/no/such/page/"), 404)
    assert "There is nothing here" in page and "/no/such/page/" in page


def test_an_unreadable_request_has_the_site_layout(client):
    # A Host outside ALLOWED_HOSTS is a SuspiciousOperation, which Django answers with its 400 view.
    page = assert_site_page(client.get(reverse("login"), HTTP_HOST="evil.example"), 400)
    assert "This request could not be read" in page
