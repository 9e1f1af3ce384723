"""A release is imported while people sign in and chat: the import commits in batches, so nobody waits for it to end
(on SQLite, one transaction for the whole import held the write lock, and a sign-in waited 20 s and answered 500)."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from dialogs.models import Dialogue, EventKind
from dialogs.room import dialogue_post
from review.dataset.importer import IMPORT_BATCH_DIALOGUES, dataset_import
from tests.builders import cosql_release_file

pytestmark = pytest.mark.django_db(transaction=True)


def test_people_sign_in_and_chat_while_a_release_is_imported(tmp_path, demo_databases, alice, erin, short_busy_timeout):
    dorm = demo_databases["dorm_demo"]
    dialogue = Dialogue.objects.create(database=dorm, worker=alice, expert=erin, status="active")
    data, tables = tmp_path / "cosql_dev.json", tmp_path / "tables.json"
    tables.write_text(__import__("json").dumps([dorm.schema]))
    cosql_release_file(data, dorm, copies=IMPORT_BATCH_DIALOGUES * 2 + 1)
    outcomes = []

    def alice_works():
        try:
            signed_in = Client().post(
                reverse("login"), {"username": "alice", "password": "correct-horse-battery"}, REMOTE_ADDR="10.0.0.7"
            )
            [(said, _)] = dialogue_post(
                dialogue=Dialogue.objects.get(pk=dialogue.pk),
                person=alice,
                message={"type": "utterance", "id": "meanwhile", "text": "How many students are there?"},
            )
            outcomes.append((signed_in.status_code, said.kind))
        except Exception as exc:  # noqa: BLE001 - the failure is the finding
            outcomes.append(exc)
        finally:
            connection.close()

    def meanwhile(done, total):
        if done < total and not outcomes:  # the import is under way, with more to come
            thread = threading.Thread(target=alice_works)
            thread.start()
            thread.join()

    report = dataset_import(fmt="cosql", data_path=data, tables_path=tables, progress=meanwhile)
    assert outcomes == [(302, EventKind.UTTERANCE)]
    assert report.dialogues_created == IMPORT_BATCH_DIALOGUES * 2 + 1
