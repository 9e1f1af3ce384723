"""Names people can read: after curation (or an import that kept a release's names) the worker's room shows the
readable names, and the expert's room and the review screen show them beside the real ones SQL needs."""

import pytest
from django.urls import reverse

from annotation.databases.curation import database_names_set
from annotation.people.services import person_create
from tests.builders import dorm_dialogue

pytestmark = pytest.mark.django_db


def test_curated_names_reach_both_rooms_and_the_review_screen(client, demo_databases, rita):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    ada, _ = person_create(username="ada", role="admin", password="correct-horse-battery")
    database_names_set(
        database=demo_databases["dorm_demo"],
        by=ada,
        tables={"has_amenity": "amenity of a dorm"},
        columns={"student.home_city": "city the student comes from"},
    )
    client.force_login(alice)
    worker = client.get(reverse("dialogs:room", args=[dialogue.pk])).content.decode()
    assert ">amenity of a dorm</button>" in worker  # the tab
    client.force_login(erin)
    expert = client.get(reverse("dialogs:room", args=[dialogue.pk])).content.decode()
    assert 'data-testid="table-has_amenity" title="amenity of a dorm">has_amenity</button>' in expert
    assert 'data-testid="readable-column">city the student comes from</span>' in expert
    # Names the curator did not change are not repeated beside the real ones.
    assert expert.count('data-testid="readable-column"') == 1
    client.force_login(rita)
    review = client.get(reverse("review:dialogue", args=[dialogue.pk])).content.decode()
    assert 'data-testid="readable-table">amenity of a dorm</span>' in review
    assert 'data-testid="readable-column">city the student comes from</span>' in review
