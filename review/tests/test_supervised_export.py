"""A room a supervisor ended: its data exports as any other dialogue's, and the supervisor's act adds nothing to the
CoSQL files (it is kept in the log, not in the dataset)."""

import pytest

from dialogs import room
from dialogs.models import Dialogue
from review.dataset.formats.cosql import all_info_dialogue
from review.records import dialogue_records
from tests.builders import dorm_dialogue


@pytest.mark.django_db
def test_a_supervisors_end_adds_nothing_to_the_exported_dialogue(demo_databases, ada):
    dialogue, alice, erin = dorm_dialogue(demo_databases)
    Dialogue.objects.filter(pk=dialogue.pk).update(status="active")
    dialogue.refresh_from_db()
    room.dialogue_post(dialogue=dialogue, person=alice, message={"id": "q", "type": "utterance", "text": "How many?"})
    room.dialogue_supervise_end(dialogue=dialogue, supervisor=ada, reason="The expert's screen froze.")
    [record] = dialogue_records(Dialogue.objects.filter(pk=dialogue.pk))
    exported = all_info_dialogue(record, ["student"])
    assert exported["status"] == "abandoned"
    assert exported["turns"] == [{"isUser": True, "text": "How many?", "label": []}]
    assert "froze" not in str(exported) and "ada" not in str(exported)
