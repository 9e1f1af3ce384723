"""The room sockets of one database share its schema object (annotation.wording.english.schema_shared), so what the
drafts and suggestions build from a schema is built once per database and process, not once per room socket; a
curated schema is a new value and is never mixed with the old one."""

import pytest

from annotation.databases.curation import database_names_set
from annotation.people.services import person_create
from annotation.wording.english import schema_shared
from dialogs.consumers import DialogueConsumer
from tests.builders import dorm_dialogue

pytestmark = pytest.mark.django_db


def _socket_loaded(dialogue, person) -> DialogueConsumer:
    consumer = DialogueConsumer()
    consumer.scope, consumer.user = {"user": person}, person
    assert consumer._load(dialogue.pk) == "ok"
    return consumer


def test_the_rooms_of_one_database_share_its_schema_until_it_changes(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases, status="active")
    worker, expert = _socket_loaded(dialogue, alice), _socket_loaded(dialogue, erin)
    assert worker.dialogue.database is not expert.dialogue.database  # each socket reads the row afresh
    assert worker.dialogue.database.schema is expert.dialogue.database.schema
    ada, _ = person_create(username="ada", role="admin", password="correct-horse-battery")
    database_names_set(database=demo_databases["dorm_demo"], by=ada, tables={"has_amenity": "amenity of a dorm"})
    curated = _socket_loaded(dialogue, erin).dialogue.database.schema
    assert curated is not worker.dialogue.database.schema
    assert "amenity of a dorm" in curated["table_names"]
    assert "amenity of a dorm" not in worker.dialogue.database.schema["table_names"]
    assert _socket_loaded(dialogue, alice).dialogue.database.schema is curated


def test_a_schema_is_shared_only_with_an_equal_one_of_the_same_key():
    first = {"table_names": ["a"]}
    assert schema_shared(("test", 1), first) is first
    assert schema_shared(("test", 1), {"table_names": ["a"]}) is first
    assert schema_shared(("test", 2), {"table_names": ["a"]}) is not first  # another database
    changed = {"table_names": ["b"]}
    assert schema_shared(("test", 1), changed) is changed
    assert schema_shared(("test", 1), {"table_names": ["b"]}) is changed
    assert schema_shared(("test", 1), None) is None
