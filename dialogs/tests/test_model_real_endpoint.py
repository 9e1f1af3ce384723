"""The same path as the test model server's tests, against a real model: for a lab to check its own endpoint
(docs/model_assistance.md). Skipped unless the environment names one (MODEL_BASE_URL and MODEL_NAME); the platform, its
tests and CI never download a model."""

import os

import pytest

from annotation.model_client import model_chat
from dialogs.models import Dialogue, DialogueStatus
from dialogs.room import dialogue_post
from tests.builders import dorm_dialogue

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.skipif(
        not (os.environ.get("MODEL_BASE_URL") and os.environ.get("MODEL_NAME")),
        reason="no real model endpoint: set MODEL_BASE_URL and MODEL_NAME (and MODEL_API_KEY if it needs one)",
    ),
]


def test_the_endpoint_answers_a_chat():
    reply = model_chat([{"role": "user", "content": "Answer with the word yes."}], prompt_version="check-1")
    assert reply.text.strip() and reply.model and reply.seconds >= 0


@pytest.mark.django_db
def test_the_endpoint_drafts_sql_that_runs(demo_databases):
    dialogue, alice, erin = dorm_dialogue(demo_databases, model_help=True, status=DialogueStatus.ACTIVE)

    def send(person, later=None, **message):
        fresh = Dialogue.objects.select_related("database", "goal", "worker").get(pk=dialogue.pk)
        return dialogue_post(dialogue=fresh, person=person, message=message, later=later)

    turn = send(alice, type="utterance", id="u1", text="How many students are there?")[0][0].seq
    later = []
    send(erin, later, type="model_sql", id="m1", turn=turn)
    ((draft, _),) = later[0]()
    assert draft.payload["state"] == "proposed", draft.payload.get("error")
    assert draft.payload["result"]["ok"], draft.payload["result"].get("error")
