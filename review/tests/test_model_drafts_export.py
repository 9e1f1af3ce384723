"""A dialogue in which the expert used a model's SQL drafts exports as any other: the datasets hold the SQL the expert
shared, the drafts are no part of them, and the full log (cosql_all_info) says what each run did with a draft."""

import json

import pytest

from dialogs.models import Dialogue, EventKind
from dialogs.room import dialogue_post
from review import records
from review.dataset.services import dataset_build, export_options_clean

pytestmark = pytest.mark.django_db


def test_drafts_stay_out_of_the_datasets_and_their_use_is_in_the_full_log(tmp_path, open_room, model_on):
    room = open_room("dorm_demo")
    Dialogue.objects.filter(pk=room.dialogue.pk).update(model_help=True)
    room.dialogue.refresh_from_db()
    turn = room.ask("How many students are there?")
    expert = room.dialogue.expert
    room.send(expert, type="user_acts", turn=turn, acts=["INFORM_SQL"])
    later = []
    dialogue_post(
        dialogue=room.dialogue, person=expert, message={"type": "model_sql", "id": "m", "turn": turn}, later=later
    )
    ((draft, _),) = later[0]()
    assert draft.payload["sql"] == "SELECT count(*) FROM student"
    edited = "SELECT count(*) FROM student WHERE age > 18"
    run = room.send(expert, type="sql_run", turn=turn, sql=edited, from_model=draft.seq)
    room.send(expert, type="share_result", turn=turn, run=run.seq)
    room.send(expert, type="response", turn=turn, text="Here it is.", acts=["CONFIRM_SQL"])
    room.end()

    (record,) = records.dialogue_records(Dialogue.objects.filter(pk=room.dialogue.pk))
    drafts = [event for event in record.events if event.kind == EventKind.MODEL_SQL]
    assert [event.payload["state"] for event in drafts] == ["asked", "proposed"]
    assert record.user_turns[0].sql == edited

    out = tmp_path / "out"
    report = dataset_build(options=export_options_clean(formats=["cosql", "sparc", "chase", "gold"]), out_dir=out)
    assert report["problems"] == []
    texts = {path.name: path.read_text(encoding="utf-8") for path in out.rglob("*.json")}
    info = json.loads(texts.pop("cosql_all_info_dialogs.json"))
    assert info[str(room.dialogue.pk)]["sql_runs"][0]["model_draft"] == {"event": draft.seq, "use": "edited"}
    for name, text in texts.items():  # every other file: the shared SQL, no trace of the draft
        assert "model_draft" not in text and "fixture-model" not in text, name
        assert 'SELECT count(*) FROM student"' not in text, name
