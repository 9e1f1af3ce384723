"""Builders of the double-annotation stories (docs/double_annotation.md): the people, and dialogues collected and in
review for a sample to be drawn from. Names of their own (Dina, Dmitri, Doris, Dario) and a database of their own, so
that no other story's people, rooms or counts are touched."""

import itertools

from tests.builders import _person_named, _suite_left_unbuilt, worker_named


def labeller_named(username: str, role: str = "expert"):
    """A second labeller: an expert or a reviewer."""
    return _person_named(username, role)


def double_labeller(username: str, role: str = "expert") -> str:
    """`labeller_named` for a browser story, which needs JSON back: the account's name."""
    return labeller_named(username, role).username


def _double_database(db_id: str):
    """A copy of dorm_demo registered as `db_id`, with no goal (so the lobby never deals it) and no suite built
    (comparisons use the file itself and the search). Made once; asked again, it gives the same database."""
    import shutil
    import tempfile
    from pathlib import Path

    from annotation.databases.services import database_register
    from annotation.models import Database

    existing = Database.objects.filter(db_id=db_id).first()
    if existing is not None:
        return existing
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{db_id}.sqlite"
        shutil.copyfile(Database.objects.get(db_id="dorm_demo").path, path)
        database = database_register(db_id=db_id, source_path=path)
    _suite_left_unbuilt(database)
    return database


def double_collected(db_id: str = "double_dorm") -> list[int]:
    """Two dialogues of Doris (worker) and Dario (expert) on `db_id` (a copy of dorm_demo, made if it does not exist),
    ended and waiting in review: the first has two questions (the first with the expert's question style, the second
    with phenomena), the second one. Returns their ids."""
    from django.test import override_settings

    from dialogs.models import Dialogue
    from dialogs.room import dialogue_post
    from review.passes.services import review_sync

    worker, expert = worker_named("doris"), _person_named("dario", "expert")
    database = _double_database(db_id)
    ids = itertools.count(1)
    made = []
    plans = [
        [
            ("How many students are there?", "SELECT count(*) FROM student", {"question_style": "疑问句"}),
            ("And their age?", "SELECT age FROM student", {"contextual_phenomena": ["Ellipsis Continuation"]}),
        ],
        [("Which dorms hold more than 100 students?", "SELECT dorm_name FROM dorm WHERE student_capacity > 100", {})],
    ]
    for plan in plans:
        dialogue = Dialogue.objects.create(database=database, goal=None, worker=worker, expert=expert)

        def send(person, dialogue=dialogue, **message):
            return dialogue_post(dialogue=dialogue, person=person, message={"id": f"d{next(ids)}", **message})[0][0]

        for utterance, sql, labels in plan:
            turn = send(worker, type="utterance", text=utterance).seq
            send(expert, type="user_acts", turn=turn, acts=["INFORM_SQL"])
            run = send(expert, type="sql_run", turn=turn, sql=sql)
            send(expert, type="share_result", turn=turn, run=run.seq)
            send(expert, type="response", turn=turn, text="Here they are.", acts=["CONFIRM_SQL"])
            if labels:
                send(expert, type="turn_labels", turn=turn, **labels)
        # A story's dialogue is short: one answered question is enough to end it (the minimum is tested in dialogs).
        with override_settings(DIALOGUE_MIN_QUESTIONS=1):
            send(worker, type="end")
        send(expert, type="score", score=5, comment="fine")
        made.append(dialogue.pk)
    review_sync()
    return made
