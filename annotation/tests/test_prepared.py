"""Querysets compiled once (annotation.plumbing.prepared): the same models as the queryset gives, each call's values
in place, compiled once per connection, and a clear refusal for what cannot be prepared."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.models import User
from annotation.plumbing.prepared import PreparedModels
from dialogs.models import Dialogue, Event
from tests.builders import dorm_dialogue

pytestmark = pytest.mark.django_db

RELATED = ("database", "database_version", "goal", "worker", "crowd_assignment__campaign")


def _fields(instance) -> dict:
    return {name: value for name, value in vars(instance).items() if name != "_state"}


def test_the_models_are_those_the_queryset_gives_with_their_related_rows(demo_databases):
    dialogue, alice, _ = dorm_dialogue(demo_databases, status="active")
    prepared = PreparedModels(lambda pk: Dialogue.objects.select_related(*RELATED).filter(pk=pk).order_by()[:1])
    (expected,) = Dialogue.objects.select_related(*RELATED).filter(pk=dialogue.pk)
    (found,) = prepared(dialogue.pk)
    assert _fields(found) == _fields(expected)
    for name in ("database", "goal", "worker"):
        assert _fields(getattr(found, name)) == _fields(getattr(expected, name))
    assert found.worker.username == "alice" and found.database.schema == dialogue.database.schema
    assert found.crowd_assignment is None  # a relation with no row: None, as select_related gives
    with CaptureQueriesContext(connection) as queries:
        assert found.database.db_id == "dorm_demo" and found.goal.sql  # loaded with it: no further read
    assert len(queries) == 0
    assert found._state.adding is False and found._state.db == "default"


def test_each_call_runs_with_its_own_values_and_compiles_once(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases)
    built = []

    def build(worker, expert):
        built.append((worker, expert))
        return User.objects.filter(pk__in=[worker, expert]).order_by("username")

    prepared = PreparedModels(build, values=2)
    assert [person.username for person in prepared(alice.pk, erin.pk)] == ["alice", "erin"]
    assert [person.username for person in prepared(erin.pk, erin.pk)] == ["erin"]
    assert prepared(-1, -2) == []
    assert len(built) == 2  # compiled once, from two builds with stand-ins, never with a call's values
    assert (alice.pk, erin.pk) not in built
    assert prepared.first(alice.pk, erin.pk).username == "alice"  # the queryset's own order decides
    assert prepared.first(-1, -2) is None
    assert len(built) == 2


def test_what_cannot_be_prepared_is_refused_clearly(demo_databases):
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    with pytest.raises(TypeError, match="integers"):
        PreparedModels(lambda pk: User.objects.filter(pk=pk))(str(alice.pk))
    with pytest.raises(TypeError, match="expected 1 values"):
        PreparedModels(lambda pk: User.objects.filter(pk=pk))(1, 2)
    with pytest.raises(TypeError, match="as given"):
        PreparedModels(lambda pk: User.objects.filter(username="alice"))(alice.pk)  # the value reaches no SQL
    with pytest.raises(TypeError, match="model instances"):
        PreparedModels(lambda pk: User.objects.filter(pk=pk).values("username"))(alice.pk)
    with pytest.raises(TypeError, match="related manager"):
        PreparedModels(lambda pk: dialogue.events.filter(seq__gt=pk))(0)


def test_a_value_compared_with_a_small_positive_column_is_kept(demo_databases):
    """Django drops a comparison with a value outside its column's range (seq is a positive integer): the stand-ins
    fit the range, so `seq > after` stays in the SQL and each call's `after` counts."""
    from dialogs.models import EventKind
    from dialogs.room import dialogue_record

    dialogue, alice, _ = dorm_dialogue(demo_databases, status="active")
    for text in ("first", "second", "third"):
        dialogue_record(dialogue=dialogue, author=alice, kind=EventKind.UTTERANCE, payload={"text": text})
    after = PreparedModels(lambda pk, seq: Event.objects.filter(dialogue_id=pk, seq__gt=seq).order_by("seq"), values=2)
    assert [event.payload["text"] for event in after(dialogue.pk, 0)] == ["first", "second", "third"]
    assert [event.payload["text"] for event in after(dialogue.pk, 2)] == ["third"]
    assert after(dialogue.pk, 3) == []
