"""Builders of human rating (docs/human_rating.md), for review/tests/test_human_rating.py and the browser story
tests/browser/test_human_rating.py (run there in the platform's command runner): dialogues collected through the
rooms' own service (dialogs.room.dialogue_post), so that each answered turn carries the draft the room offered."""

import itertools
import json

_message_ids = itertools.count(1)

# Questions of dorm_demo with the SQL the expert runs and the response they write.
DORM_TURNS = [
    ("How many students are there?", "SELECT count(*) FROM student", "There are this many students in all."),
    ("Which dorms hold more than 100 students?", "SELECT dorm_name FROM dorm WHERE student_capacity > 100",
     "These are the dorms whose capacity is above one hundred students."),
    ("Who is the oldest student?", "SELECT first_name, last_name FROM student ORDER BY age DESC LIMIT 1",
     "This is the first and last name of the oldest student."),
]  # fmt: skip


def _send(dialogue, person, **message):
    from dialogs.room import dialogue_post

    message.setdefault("id", f"rating-{dialogue.pk}-{next(_message_ids)}")
    return dialogue_post(dialogue=dialogue, person=person, message=message)[0][0]


def rated_dialogue(*, worker, expert, database, goal=None, campaign=None, turns=DORM_TURNS) -> int:
    """A completed dialogue of `worker` and `expert` on `database` (in `campaign` when given): each of `turns` asked,
    its SQL run and shared, and answered with CONFIRM_SQL; then ended and scored 5. Returns its id."""
    from dialogs.models import Dialogue

    dialogue = Dialogue.objects.create(database=database, goal=goal, worker=worker, expert=expert, campaign=campaign)
    for question, sql, response in turns:
        turn = _send(dialogue, worker, type="utterance", text=question).seq
        _send(dialogue, expert, type="user_acts", turn=turn, acts=["INFORM_SQL"])
        run = _send(dialogue, expert, type="sql_run", turn=turn, sql=sql)
        assert run.payload["result"]["ok"], run.payload["result"]
        _send(dialogue, expert, type="share_result", turn=turn, run=run.seq)
        _send(dialogue, expert, type="response", turn=turn, text=response, acts=["CONFIRM_SQL"])
    _send(dialogue, worker, type="end")
    _send(dialogue, expert, type="score", score=5, comment="fine")
    dialogue.refresh_from_db()
    return dialogue.pk


def model_lines(dialogue_ids, prefix: str = "The model says") -> list[dict]:
    """A model's file (as JSON-lines rows) answering every SQL turn of `dialogue_ids`."""
    from review.rating.selectors import sql_turn_keys

    return [
        {"dialogue": dialogue, "turn": turn, "response": f"{prefix}: turn {turn} of dialogue {dialogue}."}
        for dialogue, turn in sorted(sql_turn_keys(dialogue_ids))
    ]


def rating_story_setup(dialogues: int = 2) -> dict:
    """The browser story's start: raters rosa (expert), rufus and ruth (reviewers), and `dialogues` completed
    dialogues on dorm_demo by the expert rune and the worker rollo. Returns their ids and a model's file (JSON lines)
    answering their turns alone: a task that takes the model's responses draws only turns the file answers, so the
    story's task is made of these dialogues whatever other stories collected. No campaign: once one exists, pairing
    deals only campaigns' goals, which would stop the other stories' rooms."""
    from annotation.models import Database
    from tests.builders import _person_named, expert_named, worker_named

    for name, role in (("rosa", "expert"), ("rufus", "reviewer"), ("ruth", "reviewer")):
        _person_named(name, role)
    database = Database.objects.get(db_id="dorm_demo")
    worker, expert = worker_named("rollo"), expert_named("rune")
    ids = [rated_dialogue(worker=worker, expert=expert, database=database) for _ in range(dialogues)]
    lines = model_lines(ids)
    return {"dialogues": ids, "model_file": "".join(json.dumps(line) + "\n" for line in lines), "turns": len(lines)}
