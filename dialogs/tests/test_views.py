"""The room pages over HTTP: the table pages either participant reads, with good and bad input."""

import pytest
from django.urls import reverse

from annotation.goals.services import goal_create
from dialogs.models import Dialogue

pytestmark = pytest.mark.django_db


@pytest.fixture
def dialogue(demo_databases, alice, erin):
    """Alice (worker) and Erin (expert) on the dormitory database."""
    goal = goal_create(
        database=demo_databases["dorm_demo"], question="How many students?", sql="SELECT count(*) FROM student"
    )
    return Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)


def test_both_participants_page_through_a_table(client, dialogue):
    url = reverse("dialogs:room_table", kwargs={"dialogue_id": dialogue.pk, "table_index": 0})
    for person in (dialogue.worker, dialogue.expert):
        client.force_login(person)
        data = client.get(url).json()
        assert data["page"] == 1 and data["rows"] and data["pages"] >= 1
        assert client.get(url, {"page": data["pages"]}).status_code == 200


@pytest.mark.parametrize("page", ["9999", str(2**63), "9" * 40, "0", "-3", "abc", ""])
def test_a_page_out_of_range_or_not_a_number_is_a_bad_request(client, dialogue, page):
    client.force_login(dialogue.worker)
    url = reverse("dialogs:room_table", kwargs={"dialogue_id": dialogue.pk, "table_index": 0})
    response = client.get(url, {"page": page})
    assert response.status_code == 400
    assert b"page must be" in response.content
