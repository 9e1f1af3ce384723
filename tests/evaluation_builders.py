"""Builders for the evaluation page's stories (tests/browser/test_evaluation_tasks.py): a finished CoSQL export
whose release holds the files of CoSQL's response generation and user act prediction tasks. Run in the platform's
process (`manage.py shell -c`), as tests.builders' are."""

from __future__ import annotations

RESPONSES = [
    "There are 12 students.",
    "Do you mean dorms with more than 100 students capacity?",
    "Here are the names of the dorms with a capacity over 100.",
    "The oldest student's last name is Smith.",
    "The youngest student is 16 years old.",
]
USER_ACTS = [["INFORM_SQL"], ["AMBIGUOUS"], ["INFORM_SQL"], ["INFORM_SQL"], ["THANK_YOU"]]


def cosql_task_release(db_id: str = "dorm_demo") -> dict:
    """A finished CoSQL + gold export on the registered database `db_id` (its zip as a release lays the CoSQL tasks'
    files out: `cosql_dataset/system_response_generation/cosql_dev.json`, `cosql_dataset/user_intent_prediction/
    cosql_dev.json`), one dialogue of five turns. Returns the export's id and the gold responses and acts, in the
    files' order."""
    import io
    import json
    import zipfile
    from pathlib import Path

    from django.conf import settings

    from annotation.models import Database
    from review.models import Export

    database = Database.objects.get(db_id=db_id)
    responses = [
        {"database_id": db_id, "turn_index": index, "query": "SELECT count(*) FROM student", "response": text}
        for index, text in enumerate(RESPONSES)
    ]
    acts = [
        {"database_id": db_id, "turn_index": index, "utterance": "?", "intent": intent}
        for index, intent in enumerate(USER_ACTS)
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("cosql_dataset/system_response_generation/cosql_dev.json", json.dumps(responses))
        archive.writestr("cosql_dataset/user_intent_prediction/cosql_dev.json", json.dumps(acts))
        archive.writestr("cosql_dataset/tables.json", json.dumps([database.schema]))
    folder = Path(settings.DATA_DIR) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    export = Export.objects.create(formats=["cosql", "gold"], state=Export.State.SUCCEEDED)
    export.file = f"exports/export-{export.pk}-built.zip"
    (Path(settings.DATA_DIR) / export.file).write_bytes(buffer.getvalue())
    export.save(update_fields=["file"])
    return {"export": export.pk, "responses": RESPONSES, "acts": USER_ACTS}
