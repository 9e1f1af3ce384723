"""Storing one event: the next sequence number and the insert together, gap-free, once per client id.

On PostgreSQL outside a transaction (inside one, when no client id is given) the claim and the insert are one
statement (dialogs.room.dialogue_record): one round trip per stored message (bench/room_post.py). These tests hold it
to the same guarantees as the transaction it replaces, on whichever database the run has (the services pass of
`make test` runs them on PostgreSQL).
"""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from dialogs.errors import DialogueError
from dialogs.models import Dialogue, DialogueStatus, EventKind
from dialogs.room import dialogue_record
from tests.builders import dorm_dialogue

pytestmark = pytest.mark.django_db(transaction=True)


def _record(dialogue, author, client_id=None, **options):
    return dialogue_record(
        dialogue=dialogue,
        author=author,
        kind=EventKind.UTTERANCE,
        payload={"text": "How many students are there? ☃", "n": [1, 2]},
        client_id=client_id,
        role="worker",
        **options,
    )


def test_events_are_numbered_without_gaps_and_stored_as_given(demo_databases):
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    made = [_record(dialogue, alice, f"m{n}")[0] for n in range(5)]
    assert [event.seq for event in made] == [1, 2, 3, 4, 5]
    stored = list(dialogue.events.order_by("seq"))
    assert [(event.pk, event.seq, event.client_id) for event in stored] == [
        (event.pk, event.seq, event.client_id) for event in made
    ]
    assert stored[0].payload == {"text": "How many students are there? ☃", "n": [1, 2]}
    assert stored[0].author_id == alice.pk and stored[0].author_role == "worker"
    assert abs((stored[0].created_at - made[0].created_at).total_seconds()) < 1e-3
    dialogue.refresh_from_db()
    assert dialogue.last_seq == 5


def test_a_retried_client_id_returns_the_first_event_and_claims_no_number(demo_databases):
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    first, created = _record(dialogue, alice, "same")
    again, created_again = _record(dialogue, alice, "same")
    assert (created, created_again) == (True, False)
    assert again.pk == first.pk
    assert _record(dialogue, alice, "next")[0].seq == 2  # the retry's failed claim was rolled back with it
    assert Dialogue.objects.get(pk=dialogue.pk).last_seq == 2


def test_an_ended_dialogue_refuses_while_open_events_and_keeps_its_numbering(demo_databases):
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    _record(dialogue, alice, "before")
    Dialogue.objects.filter(pk=dialogue.pk).update(status=DialogueStatus.COMPLETED)
    with pytest.raises(DialogueError) as refused:
        _record(dialogue, alice, "after", while_open=True)
    assert refused.value.code == "closed"
    assert Dialogue.objects.get(pk=dialogue.pk).last_seq == 1
    # Without while_open (a score, the end itself) an ended dialogue still takes events.
    assert _record(dialogue, None)[0].seq == 2


def test_inside_a_transaction_the_event_rolls_back_with_it(demo_databases):
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    with pytest.raises(RuntimeError), transaction.atomic():
        _record(dialogue, alice, "undone")
        raise RuntimeError("the caller's work failed")
    assert not dialogue.events.exists()
    assert Dialogue.objects.get(pk=dialogue.pk).last_seq == 0


def test_on_postgresql_an_event_is_stored_in_one_round_trip(demo_databases):
    if connection.vendor != "postgresql":
        pytest.skip("one statement is PostgreSQL's path: run through `tools/test_stack.py with-services -- pytest`")
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    _record(dialogue, alice, "warm")
    with CaptureQueriesContext(connection) as queries:
        _record(dialogue, alice, "measured", while_open=True)
    assert len(queries.captured_queries) == 1, [query["sql"] for query in queries.captured_queries]


def test_on_postgresql_an_event_without_a_client_id_is_one_statement_inside_a_transaction_too(demo_databases):
    """A socket's join, written under its presence lock: one statement, and it still rolls back with the caller's
    work; with a client id (a retry is taken back there) the claim and the insert keep their savepoint."""
    if connection.vendor != "postgresql":
        pytest.skip("one statement is PostgreSQL's path: run through `tools/test_stack.py with-services -- pytest`")
    dialogue, alice, _ = dorm_dialogue(demo_databases)
    _record(dialogue, alice)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        event, created = _record(dialogue, alice, while_open=True)
    assert created and event.seq == 2
    assert len(queries.captured_queries) == 1, [query["sql"] for query in queries.captured_queries]
    with pytest.raises(RuntimeError), transaction.atomic():
        _record(dialogue, alice)
        raise RuntimeError("the caller's work failed")
    assert list(dialogue.events.values_list("seq", flat=True).order_by("seq")) == [1, 2]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        _record(dialogue, alice, "with-id")
    assert any(query["sql"].startswith("SAVEPOINT") for query in queries.captured_queries)
    with transaction.atomic():
        again, created = _record(dialogue, alice, "with-id")
    assert not created and again.seq == 3
