"""review/records.py: a selection is read in a fixed number of queries, without the JSON the replay never reads."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dialogs.models import Dialogue
from review.records import dialogue_records
from tests.builders import dorm_dialogue


@pytest.mark.django_db
def test_records_read_no_schema_and_a_fixed_number_of_queries(demo_databases):
    first, alice, erin = dorm_dialogue(demo_databases)
    Dialogue.objects.create(database=first.database, goal=first.goal, worker=alice, expert=erin)
    with CaptureQueriesContext(connection) as captured:
        records = dialogue_records(Dialogue.objects.all())
    assert [record.db_id for record in records] == [first.database.db_id] * 2
    assert [record.goal_question for record in records] == [first.goal.question] * 2
    assert len(captured) <= 5  # dialogues, events, runs, reviewers' runs, annotations: the same for any number
    read = " ".join(query["sql"] for query in captured.captured_queries)
    # A database's schema and curation, and a goal's tree, are decoded nowhere in the replay: read per dialogue, they
    # were half of a CoSQL-size export's read.
    for column in ('"annotation_database"."schema"', '"annotation_database"."curation"', '"annotation_goal"."tree"'):
        assert column not in read
