"""Blocking and unblocking people: every change is a record, the history is kept, the admin says why."""

import pytest
from django.urls import reverse

from annotation.models import BlockRecord
from annotation.people.roles import can
from annotation.people.services import person_set_blocked

pytestmark = pytest.mark.django_db


def test_each_block_and_unblock_is_a_record_and_the_history_is_kept(alice, ada):
    blocked = person_set_blocked(person=alice, blocked=True, reason="copied questions", by=ada, evidence=[7, 3, 7])
    assert alice.blocked and alice.blocked_reason == "copied questions" and not can(alice, "chat.as_worker")
    assert (blocked.blocked, blocked.by, blocked.rule, blocked.evidence) == (True, ada, "", [3, 7])
    assert blocked.decided_by == "ada"

    unblocked = person_set_blocked(person=alice, blocked=False, reason="it was her sister", by=ada)
    alice.refresh_from_db()
    assert not alice.blocked and alice.blocked_reason == "" and can(alice, "chat.as_worker")
    history = list(alice.block_records.all())  # newest first
    assert history == [unblocked, blocked]
    assert history[1].reason == "copied questions"  # the unblock wiped the current reason, not the record


def test_blocking_a_blocked_person_records_nothing(alice):
    first = person_set_blocked(person=alice, blocked=True, reason="rule", rule="low_scores", evidence=[1])
    assert person_set_blocked(person=alice, blocked=True, reason="Scored 2 in dialogue 1") is None
    alice.refresh_from_db()
    assert alice.blocked_reason == "rule" and list(BlockRecord.objects.all()) == [first]
    assert first.decided_by == "rule low_scores"
    assert person_set_blocked(person=alice, blocked=False) is not None
    assert person_set_blocked(person=alice, blocked=False) is None


def test_the_admin_must_say_why_and_the_record_names_them(client, ada, alice):
    client.force_login(ada)
    url = reverse("annotation:person_block", args=[alice.pk])
    response = client.post(url, {"blocked": "1", "reason": "  "}, follow=True)
    alice.refresh_from_db()
    assert not alice.blocked and "say why" in response.content.decode()
    client.post(url, {"blocked": "1", "reason": "spam"})
    client.post(url, {"blocked": "0", "reason": "apologised"})
    unblock, block = BlockRecord.objects.filter(person=alice)
    assert (block.blocked, block.by, block.reason) == (True, ada, "spam")
    assert (unblock.blocked, unblock.by, unblock.reason) == (False, ada, "apologised")
    page = client.get(reverse("annotation:people")).content.decode()
    assert "History (2)" in page and "apologised" in page and "spam" in page


def test_the_block_form_returns_only_to_a_page_of_this_site(client, ada, alice):
    client.force_login(ada)
    url = reverse("annotation:person_block", args=[alice.pk])
    response = client.post(url, {"blocked": "1", "reason": "spam", "next": "https://elsewhere.example/"})
    assert response["Location"] == reverse("annotation:people")
    response = client.post(url, {"blocked": "0", "reason": "ok", "next": "/people/?role=worker"})
    assert response["Location"] == "/people/?role=worker"


def test_the_people_page_filters_by_role(client, ada, alice, erin):
    client.force_login(ada)
    page = client.get(reverse("annotation:people"), {"role": "expert"}).content.decode()
    assert 'data-testid="block-erin"' in page and 'data-testid="block-alice"' not in page
