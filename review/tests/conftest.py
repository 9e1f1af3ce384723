"""Fixtures of the review tests: dialogues collected the way the rooms collect them (through dialogue_post)."""

import itertools

import pytest
from django.utils import timezone

from dialogs.models import Dialogue
from dialogs.room import dialogue_post

_ids = itertools.count(1)


class Room:
    """A dialogue between a worker and an expert, driven message by message through the real protocol service."""

    def __init__(self, dialogue):
        self.dialogue = dialogue

    def send(self, person, **message):
        message.setdefault("id", f"m{next(_ids)}")
        return dialogue_post(dialogue=self.dialogue, person=person, message=message)[0][0]

    def ask(self, text):
        return self.send(self.dialogue.worker, type="utterance", text=text).seq

    def answer(self, turn, sql, response="Here is the result.", acts=("INFORM_SQL",), system=("CONFIRM_SQL",)):
        expert = self.dialogue.expert
        self.send(expert, type="user_acts", turn=turn, acts=list(acts))
        run = self.send(expert, type="sql_run", turn=turn, sql=sql)
        assert run.payload["result"]["ok"], run.payload["result"]
        self.send(expert, type="share_result", turn=turn, run=run.seq)
        self.send(expert, type="response", turn=turn, text=response, acts=list(system))
        return run

    def clarify(self, turn, text, acts=("AMBIGUOUS",)):
        expert = self.dialogue.expert
        self.send(expert, type="user_acts", turn=turn, acts=list(acts))
        self.send(expert, type="response", turn=turn, text=text, acts=["CLARIFY"])

    def reply(self, turn, text, acts=("THANK_YOU",), system=("WELCOME",)):
        expert = self.dialogue.expert
        self.send(expert, type="user_acts", turn=turn, acts=list(acts))
        self.send(expert, type="response", turn=turn, text=text, acts=list(system))

    def end(self, score=5, *, approve=True):
        """End and score the dialogue; by default it is then approved through every review pass (what an export
        takes unless told otherwise)."""
        self.send(self.dialogue.worker, type="end")
        self.send(self.dialogue.expert, type="score", score=score, comment="fine")
        self.dialogue.refresh_from_db()
        if approve and score >= 3:
            approve_in_review(self.dialogue)
        return self.dialogue


def reviewer(name: str):
    from annotation.models import User
    from annotation.people.services import person_create

    return (
        User.objects.filter(username=name).first()
        or person_create(username=name, role="reviewer", password="correct-horse-battery")[0]
    )


def approve_in_review(dialogue):
    """Take a dialogue through every review pass without a correction (a different reviewer per pass)."""
    from django.conf import settings

    from review.passes.services import review_claim, review_decide, review_sync

    review_sync()
    for number in range(1, settings.REVIEW_PASSES + 1):
        person = reviewer(f"reviewer{number}")
        review_claim(reviewer=person, dialogue=dialogue)
        review = review_decide(reviewer=person, dialogue=dialogue, approve=True)
    assert review.stage == "approved", review.problems
    return review


@pytest.fixture
def open_room(demo_databases, alice, erin):
    """Open a room on a demo database (Alice asks, Erin answers); returns a function db_id → Room."""
    from annotation.demo import DEMO_GOALS
    from annotation.goals.services import goal_create
    from annotation.models import Goal

    def open_(db_id="dorm_demo"):
        goal = Goal.objects.filter(database__db_id=db_id).first()
        if goal is None:
            spec = next(spec for spec in DEMO_GOALS if spec["db_id"] == db_id)
            goal = goal_create(database=demo_databases[db_id], question=spec["question"], sql=spec["sql"])
        dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
        alice.tutorial_passed_at = alice.tutorial_passed_at or timezone.now()
        return Room(dialogue)

    return open_


@pytest.fixture
def dorm_dialogue(open_room):
    """A completed dialogue on dorm_demo: three SQL questions, one of them clarified first, then thanks."""
    room = open_room("dorm_demo")
    first = room.ask("How many students are there?")
    room.answer(first, "SELECT count(*) FROM student")
    vague = room.ask("Which are the big dorms?")
    room.clarify(vague, "Do you mean dorms with more than 100 students capacity?")
    yes = room.ask("yes, those")
    room.answer(yes, "SELECT dorm_name FROM dorm WHERE student_capacity > 100")
    third = room.ask("Show me the oldest student's last name")
    room.answer(third, "SELECT last_name FROM student ORDER BY age DESC LIMIT 1")
    thanks = room.ask("Thanks!")
    room.reply(thanks, "You are welcome.")
    return room.end()


@pytest.fixture(autouse=True)
def _short_dialogues(settings):
    """One answered question is enough to end a test dialogue (the minimum itself is tested in dialogs)."""
    settings.DIALOGUE_MIN_QUESTIONS = 1
