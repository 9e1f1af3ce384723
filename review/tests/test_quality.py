"""Worker quality as stories: what a dialogue says about its worker, the documented score, the blocking rules with
their records and evidence, unblocking, and the lobby that refuses a blocked worker."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from annotation.models import BlockRecord, Goal, Role
from annotation.people.services import person_create, person_set_blocked
from dialogs import assist
from dialogs.errors import DialogueError
from dialogs.lobby import lobby_join
from dialogs.log import recommendation_payload
from dialogs.models import Dialogue, DialogueStatus, EventKind
from dialogs.room import dialogue_abandon_if_gone, dialogue_presence
from review.models import DialogueQuality, WorkerQuality
from review.passes import services as passes
from review.passes.agreement import review_agreement
from review.quality.services import dialogues_fold, near_duplicates, quality_score, rule_crossed, worker_quality_refresh

pytestmark = pytest.mark.django_db


# --- The formula -------------------------------------------------------------------------------------------------


def test_the_quality_score_is_the_weighted_mean_the_readme_gives():
    """Expert score 40, DROP 20, off-task 10, near-duplicates 10, finished 10, review 10; parts with nothing to judge
    are left out and the others share the weight."""
    worker = WorkerQuality(
        dialogues=4, scored=2, score_mean=4.0, questions=10, dropped_turns=2, off_task_turns=1, near_duplicates=1
    )
    worker.terminated = 1
    # 40 × 0.75 + 20 × 0.8 + 10 × 0.9 + 10 × 0.9 + 10 × 0.75 = 71.5 of the 90 that can be judged (nothing reviewed).
    assert quality_score(worker) == 79.4
    worker.reviewed, worker.rejected = 2, 1
    assert quality_score(worker) == 76.5  # + 10 × 0.5, now out of 100
    assert quality_score(WorkerQuality(dialogues=1, scored=1, score_mean=5.0, questions=3)) == 100.0
    # A score of 1 (0 of 40) in a dialogue seen through (10 of 10), with no question to judge: 10 of 50.
    assert quality_score(WorkerQuality(dialogues=1, scored=1, score_mean=1.0)) == 20.0
    assert quality_score(WorkerQuality()) is None  # no dialogue held yet: no score


def test_near_duplicates_are_questions_repeating_an_earlier_one():
    questions = [
        "How many students are there?",
        "how many students are there",  # the same words
        "How many teachers are there?",  # another question (similarity 0.8)
        "How many students are there ?",
        "Which dorms have a gym?",
    ]
    assert near_duplicates(questions) == 2


# --- What a dialogue says about its worker --------------------------------------------------------------------------


def suggest(monkeypatch, category, relation, text, **named):
    """Every suggestion from now on is this one (the platform draws them at random)."""
    monkeypatch.setattr(
        assist,
        "recommendation_next",
        lambda *, turn, **_: recommendation_payload(turn, category, relation, text, **named),
    )


def test_a_dialogue_is_folded_into_its_workers_signals_when_it_ends(
    open_room, alice, erin, django_capture_on_commit_callbacks, monkeypatch
):
    room = open_room("dorm_demo")
    dialogue = room.dialogue
    dialogue_presence(dialogue=dialogue, person=alice, joined=True)
    dialogue_presence(dialogue=dialogue, person=erin, joined=True)
    hello = room.ask("Hi there")
    room.reply(hello, "Hello!", acts=("GREETING",), system=("GREETING",))
    # The suggestions are fixed, so that one is followed (the relation and the column it named) and one is not.
    suggest(monkeypatch, "same_instances", "R6", "Ask for the average age instead", columns=[("student", "age")])
    first = room.ask("How many students are there?")
    room.answer(first, "SELECT count(*) FROM student")
    suggest(monkeypatch, "display", "R14", "Ask to sort them by age", columns=[("student", "age")])
    again = room.ask("how many students are there")
    room.answer(again, "SELECT avg(age) FROM student")
    oldest = room.ask("Show me the oldest student's last name")
    room.answer(oldest, "SELECT last_name FROM student ORDER BY age DESC LIMIT 1")
    # The expert's labels say "display" was asked: the judgement stays the detected relation's.
    room.send(erin, type="turn_labels", turn=oldest, intent={"category": "display", "relations": ["R14"]})
    weather = room.ask("What is the weather like today?")
    room.reply(weather, "I can only answer questions about the data.", acts=("NOT_RELATED",), system=("REJECT",))
    nonsense = room.ask("asdf asdf")
    room.send(erin, type="drop", turn=nonsense)
    with django_capture_on_commit_callbacks(execute=True):
        room.send(alice, type="end")

    row = DialogueQuality.objects.get(dialogue=dialogue)
    assert row.held and row.end_status == DialogueStatus.COMPLETED and not row.worker_left
    # Answered with SQL: three; the weather question, answered with REJECT, is asked but not answered.
    assert (row.questions, row.answered, row.dropped_turns, row.off_task_turns) == (5, 3, 1, 1)
    assert row.near_duplicates == 1
    assert (row.recommended, row.followed) == (2, 1)
    assert row.first_question_seconds is not None and row.first_question_seconds >= 0
    assert row.score is None  # not scored yet
    profile = WorkerQuality.objects.get(worker=alice)
    assert (profile.dialogues, profile.questions, profile.dropped_turns) == (1, 5, 1)
    assert profile.quality == quality_score(profile) and profile.quality is not None

    with django_capture_on_commit_callbacks(execute=True):  # a passing score is folded by a task after commit
        room.send(erin, type="score", score=4, comment="good")
    profile.refresh_from_db()
    assert (profile.scored, profile.score_mean, profile.score_last, profile.low_scores) == (1, 4.0, 4, 0)


def test_a_dialogue_abandoned_while_the_worker_was_away_counts_against_them(
    open_room, alice, erin, django_capture_on_commit_callbacks
):
    room = open_room("dorm_demo")
    dialogue = room.dialogue
    dialogue_presence(dialogue=dialogue, person=alice, joined=True)
    dialogue_presence(dialogue=dialogue, person=erin, joined=True)
    room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
    dialogue_presence(dialogue=dialogue, person=alice, joined=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert dialogue_abandon_if_gone(dialogue=dialogue, now=timezone.now() + timedelta(hours=1))
    row = DialogueQuality.objects.get(dialogue=dialogue)
    assert row.end_status == DialogueStatus.ABANDONED and row.worker_left
    profile = WorkerQuality.objects.get(worker=alice)
    assert (profile.abandoned, profile.terminated, profile.unfinished_rate) == (1, 0, 1.0)


# --- Rules, records and evidence ------------------------------------------------------------------------------------


def test_a_score_below_3_blocks_the_worker_with_the_rule_and_the_dialogue_as_evidence(open_room, alice, client):
    room = open_room("dorm_demo")
    room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
    dialogue = room.end(score=2, approve=False)
    alice.refresh_from_db()
    assert alice.blocked and dialogue.status == DialogueStatus.DROPPED
    # One record: the rule's. The dialogue's own consequence of a low score found her blocked already.
    record = BlockRecord.objects.get(person=alice)
    assert (record.blocked, record.rule, record.evidence, record.by) == (True, "low_scores", [dialogue.pk], None)
    assert "below 3" in record.reason and alice.blocked_reason == record.reason
    profile = WorkerQuality.objects.get(worker=alice)
    assert (profile.low_scores, profile.score_last) == (1, 2)

    # The lobby refuses her, and her page says why.
    with pytest.raises(DialogueError) as refused:
        lobby_join(person=alice)
    assert refused.value.code == "forbidden"
    client.force_login(alice)
    response = client.get(reverse("dialogs:worker_home"))
    assert response.status_code == 403 and "Your account is blocked" in response.content.decode()


@pytest.fixture
def goal(demo_databases):
    from annotation.demo import DEMO_GOALS
    from annotation.goals.services import goal_create

    spec = next(spec for spec in DEMO_GOALS if spec["db_id"] == "dorm_demo")
    return Goal.objects.first() or goal_create(
        database=demo_databases["dorm_demo"], question=spec["question"], sql=spec["sql"]
    )


@pytest.fixture
def history(goal, alice, erin):
    """Give Alice ended dialogues whose quality rows say what a test needs; returns their ids."""

    def make(*rows, ended_at=None):
        ids = []
        for values in rows:
            dialogue = Dialogue.objects.create(
                database=goal.database,
                goal=goal,
                worker=alice,
                expert=erin,
                status=DialogueStatus.COMPLETED,
                ended_at=ended_at or timezone.now(),
            )
            defaults = {"held": True, "end_status": DialogueStatus.COMPLETED, "questions": 4, "answered": 4}
            DialogueQuality.objects.create(
                dialogue=dialogue, worker=alice, ended_at=dialogue.ended_at, **{**defaults, **values}
            )
            ids.append(dialogue.pk)
        return ids

    return make


RULE_CASES = {
    # rule: (settings, rows that cross it, the indexes of the rows that are its evidence, rows that stay under it)
    "low_scores": (
        {"QUALITY_BLOCK_LOW_SCORES": 2},
        [{"score": 2}, {"score": 5}, {"score": 1}],
        [0, 2],
        [{"score": 2}, {"score": 5}],
    ),
    "drop_rate": (
        {"QUALITY_BLOCK_DROP_RATE": 0.3},
        [{"dropped_turns": 2}, {}, {"dropped_turns": 2}],  # 4 of 12 questions
        [0, 2],
        [{"dropped_turns": 2}, {}, {"dropped_turns": 1}],  # 3 of 12: 25%
    ),
    "off_task_rate": (
        {"QUALITY_BLOCK_OFF_TASK_RATE": 0.3},
        [{"off_task_turns": 3}, {"off_task_turns": 1}, {}],
        [0, 1],
        [{"off_task_turns": 3}, {}, {}],
    ),
    "unfinished_rate": (
        {"QUALITY_BLOCK_UNFINISHED_RATE": 0.5},
        [{"end_status": DialogueStatus.TERMINATED}, {"end_status": DialogueStatus.ABANDONED, "worker_left": True}, {}],
        [0, 1],
        # Abandoned by the expert, with the worker still there: not held against her.
        [{"end_status": DialogueStatus.TERMINATED}, {"end_status": DialogueStatus.ABANDONED}, {}],
    ),
    "rejected_rate": (
        {"QUALITY_BLOCK_REJECTED_RATE": 0.5},
        [{"reviewed": True, "rejected": True}, {"reviewed": True, "rejected": True}, {"reviewed": True}],
        [0, 1],
        [{"reviewed": True, "rejected": True}, {"reviewed": True}, {"reviewed": True}],
    ),
}


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_a_worker_crossing_a_rule_is_blocked_with_the_rule_and_its_evidence(rule, history, alice, settings):
    overrides, crossing, evidence, under = RULE_CASES[rule]
    settings.QUALITY_RULE_MIN_DIALOGUES = 3
    for name, value in overrides.items():
        setattr(settings, name, value)

    history(*under)
    worker_quality_refresh(worker_id=alice.pk)
    alice.refresh_from_db()
    assert not alice.blocked and not BlockRecord.objects.exists()

    DialogueQuality.objects.filter(worker=alice).delete()
    Dialogue.objects.filter(worker=alice).delete()
    ids = history(*crossing)
    worker_quality_refresh(worker_id=alice.pk)
    alice.refresh_from_db()
    record = BlockRecord.objects.get(person=alice)
    assert alice.blocked and record.blocked and record.rule == rule
    assert record.evidence == sorted(ids[index] for index in evidence)
    assert record.by is None and record.reason == alice.blocked_reason


def test_a_rate_rule_waits_for_the_minimum_of_dialogues_and_a_rule_set_to_0_is_off(history, alice, settings):
    settings.QUALITY_RULE_MIN_DIALOGUES = 3
    ids = history({"dropped_turns": 4}, {"dropped_turns": 4})
    rows = list(DialogueQuality.objects.filter(worker=alice))
    assert rule_crossed(rows, worker_id=alice.pk) is None  # 100% DROP, but over 2 dialogues only
    ids += history({"dropped_turns": 4})
    rows = list(DialogueQuality.objects.filter(worker=alice))
    assert rule_crossed(rows, worker_id=alice.pk).evidence == ids
    settings.QUALITY_BLOCK_DROP_RATE = 0
    assert rule_crossed(rows, worker_id=alice.pk) is None


def test_dropped_turns_in_dialogues_collected_in_the_room_block_once_there_are_enough(
    open_room, alice, erin, settings, django_capture_on_commit_callbacks
):
    settings.QUALITY_RULE_MIN_DIALOGUES = 2
    ended = []
    for _ in range(2):
        room = open_room("dorm_demo")
        room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
        room.send(erin, type="drop", turn=room.ask("blah blah"))
        with django_capture_on_commit_callbacks(execute=True):
            room.send(alice, type="end")
        ended.append(room.dialogue.pk)
        alice.refresh_from_db()
        assert alice.blocked == (len(ended) == 2)  # 50% DROP: blocked at the second dialogue, not the first
    record = BlockRecord.objects.get(person=alice)
    assert record.rule == "drop_rate" and record.evidence == ended


def test_a_rejection_counts_against_the_party_it_names_as_soon_as_it_is_decided(
    open_room, alice, rita, settings, django_capture_on_commit_callbacks
):
    settings.QUALITY_RULE_MIN_DIALOGUES = 1
    settings.REVIEW_PASSES = 1  # one pass: its rejection is final at once
    settings.QUALITY_BLOCK_REJECTED_RATE = 0.4

    def rejected_for(fault: str):
        room = open_room("dorm_demo")
        room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
        dialogue = room.end(score=4, approve=False)
        passes.review_sync()
        passes.review_claim(reviewer=rita, dialogue=dialogue)
        with django_capture_on_commit_callbacks(execute=True):
            passes.review_decide(reviewer=rita, dialogue=dialogue, approve=False, reason="unfixable_sql", fault=fault)
        alice.refresh_from_db()
        return dialogue

    # The expert's SQL failed: the worker's record does not count it; the expert's figures do.
    rejected_for("expert")
    assert not alice.blocked and WorkerQuality.objects.get(worker=alice).rejected == 0
    assert WorkerQuality.objects.get(worker=alice).reviewed == 1
    assert [row["rejected"] for row in review_agreement()["experts"]] == [1]
    # The worker's questions failed: it counts against the worker (here, at once a block), not the expert.
    theirs = rejected_for("worker")
    record = BlockRecord.objects.get(person=alice)
    assert alice.blocked and record.rule == "rejected_rate" and record.evidence == [theirs.pk]
    assert WorkerQuality.objects.get(worker=alice).rejected == 1
    assert [row["rejected"] for row in review_agreement()["experts"]] == [1]


def test_an_unblock_keeps_the_history_and_gives_the_worker_a_fresh_start(history, alice, ada):
    old = history({"score": 1})
    worker_quality_refresh(worker_id=alice.pk)
    alice.refresh_from_db()
    assert alice.blocked

    assert person_set_blocked(person=alice, blocked=False, reason="appeal accepted", by=ada) is not None
    alice.refresh_from_db()
    assert not alice.blocked and alice.blocked_reason == ""
    block, unblock = BlockRecord.objects.filter(person=alice).order_by("created_at", "id")
    assert (block.blocked, block.rule, block.evidence) == (True, "low_scores", old)
    assert (unblock.blocked, unblock.by, unblock.reason, unblock.rule) == (False, ada, "appeal accepted", "")

    # The evidence the admin overruled does not block her again...
    worker_quality_refresh(worker_id=alice.pk)
    alice.refresh_from_db()
    assert not alice.blocked and BlockRecord.objects.filter(person=alice).count() == 2
    # ...but a new low score does, on its own evidence; the profile still shows her whole history.
    new = history({"score": 2}, ended_at=timezone.now() + timedelta(seconds=1))
    profile = worker_quality_refresh(worker_id=alice.pk)
    alice.refresh_from_db()
    assert alice.blocked and alice.block_records.first().evidence == new
    assert profile.low_scores == 2 and BlockRecord.objects.filter(person=alice).count() == 3


def test_only_crowd_workers_have_a_profile(history, erin):
    person, _ = person_create(username="solo_author", role=Role.EXPERT, password="correct-horse-battery")
    assert worker_quality_refresh(worker_id=person.pk) is None
    assert worker_quality_refresh(worker_id=erin.pk) is None
    assert not WorkerQuality.objects.exists()


def test_a_fold_that_read_the_dialogue_before_its_score_never_erases_the_score(history, alice):
    (dialogue_id,) = history({"score": 2})  # the row has the score; the dialogue's own row not yet (a stale read)
    assert Dialogue.objects.get(pk=dialogue_id).score is None
    dialogues_fold(dialogue_ids=[dialogue_id])
    assert DialogueQuality.objects.get(dialogue_id=dialogue_id).score == 2


def test_the_rebuild_command_folds_every_dialogue_again_and_blocks_nobody_unless_asked(open_room, alice, settings):
    room = open_room("dorm_demo")
    room.answer(room.ask("How many students are there?"), "SELECT count(*) FROM student")
    dialogue = room.end(score=4, approve=False)
    DialogueQuality.objects.all().delete()
    WorkerQuality.objects.all().delete()
    settings.QUALITY_BLOCK_LOW_SCORES = 0
    settings.QUALITY_RULE_MIN_DIALOGUES = 1
    settings.QUALITY_BLOCK_UNFINISHED_RATE = 0.1
    Dialogue.objects.filter(pk=dialogue.pk).update(status=DialogueStatus.TERMINATED)
    dialogue.events.filter(kind=EventKind.END).update(
        payload={"status": "terminated", "reason": "", "completion_code": ""}
    )
    call_command("quality_refresh", stdout=StringIO())
    assert DialogueQuality.objects.get(dialogue=dialogue).end_status == DialogueStatus.TERMINATED
    assert WorkerQuality.objects.get(worker=alice).terminated == 1
    alice.refresh_from_db()
    assert not alice.blocked
    call_command("quality_refresh", "--apply-rules", stdout=StringIO())
    alice.refresh_from_db()
    assert alice.blocked and alice.block_records.get().rule == "unfinished_rate"


def test_imported_dialogues_say_nothing_about_a_worker_here(goal, alice, erin):
    from review.models import DialogueImport

    dialogue = Dialogue.objects.create(
        database=goal.database, goal=goal, worker=alice, expert=erin, status=DialogueStatus.COMPLETED
    )
    DialogueImport.objects.create(dialogue=dialogue, format="cosql", file_name="x.json", file_sha256="0", position=0)
    assert dialogues_fold(dialogue_ids=[dialogue.pk]) == set()
    assert worker_quality_refresh(worker_id=alice.pk).dialogues == 0
    assert not DialogueQuality.objects.exists()
