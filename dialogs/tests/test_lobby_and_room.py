"""Pairing, goal choice, lobby release and the event log, at the service level."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from annotation.models import Goal
from annotation.people.services import person_create
from dialogs import lobby, log, room
from dialogs.errors import DialogueError
from dialogs.models import Dialogue, DialogueStatus, Event, LobbyEntry
from dialogs.selectors import lobby_status
from tests.builders import expert_named, expert_ready, worker_named

pytestmark = pytest.mark.django_db


@pytest.fixture
def goals(demo_databases):
    from annotation.demo import demo_load

    demo_load()
    return list(Goal.objects.all())


def test_worker_must_pass_the_tutorial_first(goals):
    newbie, _ = person_create(username="newbie", role="worker", password="correct-horse-battery")
    with pytest.raises(DialogueError) as caught:
        lobby.lobby_join(person=newbie)
    assert caught.value.code == "tutorial"
    draw = [{"id": "related-follow-up", "order": [1, 0, 2]}, {"id": "join-by-key", "order": [0, 2, 1]}]
    assert not lobby.worker_quiz_answer(person=newbie, draw=draw, answers={"related-follow-up": "a"}).passed
    with pytest.raises(DialogueError):
        lobby.lobby_join(person=newbie)
    answers = {"related-follow-up": "b", "join-by-key": "a"}
    assert lobby.worker_quiz_answer(person=newbie, draw=draw, answers=answers).passed
    assert lobby.lobby_join(person=newbie).outcome == "waiting"


def test_reviewers_and_blocked_workers_do_not_wait(goals, mallory):
    reviewer, _ = person_create(username="rev", role="reviewer", password="correct-horse-battery")
    for person in (reviewer, mallory):
        with pytest.raises(DialogueError) as caught:
            lobby.lobby_join(person=person)
        assert caught.value.code == "forbidden"


def test_pairing_is_first_come_first_served_and_one_dialogue_per_expert(goals, settings):
    first, second = worker_named("w1"), worker_named("w2")
    erin = expert_named("x1")
    lobby.lobby_join(person=first)
    lobby.lobby_join(person=second)
    assert lobby.lobby_join(person=first).pk == LobbyEntry.objects.get(person=first, outcome="waiting").pk
    assert lobby_status(second)["position"] == 2
    expert_ready(erin)
    (dialogue,) = lobby.lobby_pair()
    assert dialogue.worker == first and dialogue.expert == erin and dialogue.status == DialogueStatus.WAITING
    assert lobby.lobby_pair() == []  # erin is busy: EXPERT_MAX_DIALOGUES = 1
    assert lobby_status(second)["position"] == 1
    settings.EXPERT_MAX_DIALOGUES = 2
    (again,) = lobby.lobby_pair()
    assert again.worker == second and again.expert == erin
    assert lobby_status(erin)["queue"] == []


def test_goal_is_the_least_collected_one_the_worker_has_not_had(goals):
    alice, bob = worker_named("a"), worker_named("b")
    erin = expert_named("e")
    first, _ = lobby.goal_choose(alice)
    Dialogue.objects.create(database=first.database, goal=first, worker=bob, expert=erin, status="completed")
    # Bob's dialogue made `first` collected once: Alice gets a goal nobody has collected yet.
    chosen, _ = lobby.goal_choose(alice)
    assert chosen != first
    assert chosen.dialogues.count() == 0
    # And never a goal she already had, even when every other goal has been collected more often.
    Dialogue.objects.create(database=chosen.database, goal=chosen, worker=alice, expert=erin, status="completed")
    for goal in Goal.objects.exclude(pk=chosen.pk):
        for _ in range(2):
            Dialogue.objects.create(database=goal.database, goal=goal, worker=bob, expert=erin, status="completed")
    assert lobby.goal_choose(alice)[0] != chosen


def test_a_worker_with_no_goal_left_is_released_with_a_code(goals):
    alice, erin = worker_named("a"), expert_named("e")
    for goal in Goal.objects.all():
        Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin, status="completed")
    lobby.lobby_join(person=alice)
    expert_ready(erin)
    assert lobby.lobby_pair() == []
    entry = LobbyEntry.objects.get(person=alice, role="worker")
    assert entry.outcome == "no_goal" and entry.completion_code.startswith("WOZ-")


def test_pairing_reads_only_as_many_workers_as_there_are_places(goals):
    # One expert, a queue of workers whose first has had every goal: the one pass sends that worker away, pairs the
    # next one, and never reads the rest of the queue.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    veteran, erin = worker_named("veteran"), expert_named("e")
    for goal in Goal.objects.all():
        Dialogue.objects.create(database=goal.database, goal=goal, worker=veteran, expert=erin, status="completed")
    queue = [veteran] + [worker_named(f"w{i}") for i in range(12)]
    for person in queue:
        lobby.lobby_join(person=person)
    expert_ready(erin)
    with CaptureQueriesContext(connection) as captured:
        (dialogue,) = lobby.lobby_pair()
    assert dialogue.worker == queue[1] and dialogue.expert == erin
    assert LobbyEntry.objects.get(person=veteran).outcome == "no_goal"
    assert LobbyEntry.objects.filter(outcome="waiting", role="worker").count() == 11
    # Rows read from the queues (a count reads none): the free experts, then the waiting workers one place at a time
    # (the first is sent away, so a second read takes the next one), never the whole queue of 13.
    # The lock on the ready experts reads their ids only, and is left out too.
    rows_read = [
        q["sql"]
        for q in captured.captured_queries
        if 'FROM "dialogs_lobbyentry"' in q["sql"]
        and not q["sql"].startswith(("SELECT COUNT(*)", 'SELECT "dialogs_lobbyentry"."id" AS "id" FROM'))
    ]
    limits = [re.search(r" LIMIT (\d+)(?: FOR UPDATE)?$", sql) for sql in rows_read]
    assert all(limits), rows_read
    assert "'expert'" in rows_read[0] and limits[0].group(1) == "13"  # no more experts than workers wait
    assert [m.group(1) for m in limits[1:]] == ["1", "1"], rows_read


def test_long_waits_are_released_and_recorded(goals, settings):
    settings.LOBBY_WAIT_LIMIT_SECONDS = 60
    alice = worker_named("a")
    entry = lobby.lobby_join(person=alice)
    assert lobby.lobby_release_expired() == []
    later = timezone.now() + timedelta(seconds=61)
    (released,) = lobby.lobby_release_expired(now=later)
    assert released.pk == entry.pk and released.outcome == "timed_out" and released.completion_code
    assert (released.ended_at - released.joined_at).total_seconds() >= 60


def test_sequence_numbers_have_no_gaps_and_retries_are_stored_once(goals):
    alice, erin = worker_named("a"), expert_named("e")
    goal = goals[0]
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    for number in range(5):
        room.dialogue_post(
            dialogue=dialogue, person=alice, message={"type": "utterance", "id": f"m{number}", "text": "Q?"}
        )
    [(event, created)] = room.dialogue_post(
        dialogue=dialogue, person=alice, message={"type": "utterance", "id": "m2", "text": "Q?"}
    )
    assert not created and event.seq == 3
    assert list(Event.objects.filter(dialogue=dialogue).values_list("seq", flat=True)) == [1, 2, 3, 4, 5]
    dialogue.refresh_from_db()
    assert dialogue.last_seq == 5


def test_a_retry_that_races_past_the_check_is_still_stored_once(goals):
    # Two sockets send the same message at once: both pass dialogue_post's look for the id before either has
    # stored it, and the unique constraint decides under the row lock.
    alice, erin = worker_named("a"), expert_named("e")
    goal = goals[0]
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    record = dict(dialogue=dialogue, author=alice, kind="utterance", payload={"text": "Q?"}, client_id="m1")
    first, created = room.dialogue_record(**record, role="worker")
    again, created_again = room.dialogue_record(**record, role="worker")
    assert created and not created_again and again.pk == first.pk
    dialogue.refresh_from_db()
    assert dialogue.last_seq == 1 and Event.objects.filter(dialogue=dialogue).count() == 1


def test_truncated_results_say_how_many_rows_there_are(goals, settings):
    settings.SANDBOX_MAX_ROWS = 5
    alice, erin = worker_named("a"), expert_named("e")
    goal = Goal.objects.filter(database__db_id="dorm_demo").first()
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    [(utterance, _)] = room.dialogue_post(
        dialogue=dialogue, person=alice, message={"type": "utterance", "id": "u", "text": "All students?"}
    )
    [(run, _)] = room.dialogue_post(
        dialogue=dialogue,
        person=erin,
        message={"type": "sql_run", "id": "r", "turn": utterance.seq, "sql": "SELECT * FROM student;"},
    )
    result = run.payload["result"]
    assert result["truncated"] and result["row_count"] == 5 and result["total_rows"] > 5


def _post(dialogue, person, **message):
    return room.dialogue_post(dialogue=dialogue, person=person, message=message)


def _answered_turn(dialogue, alice, erin, n, user_acts=("INFORM_SQL",), acts=("CONFIRM_SQL",)):
    ((utterance, _),) = _post(dialogue, alice, type="utterance", id=f"u{n}", text=f"Question {n}?")
    turn = utterance.seq
    _post(dialogue, erin, type="user_acts", id=f"a{n}", turn=turn, acts=list(user_acts))
    if "CONFIRM_SQL" in acts:
        ((run, _),) = _post(dialogue, erin, type="sql_run", id=f"s{n}", turn=turn, sql=dialogue.goal.sql)
        _post(dialogue, erin, type="share_result", id=f"t{n}", turn=turn, run=run.seq)
    _post(dialogue, erin, type="response", id=f"r{n}", turn=turn, text="Here.", acts=list(acts))
    return turn


def test_only_questions_answered_with_sql_count_toward_the_minimum(goals):
    # "Hi", "Thanks", an off-topic question answered with REJECT and a clarification are answered but were not
    # answered with SQL; the answer to the clarification was, and counts for the ambiguous question once.
    alice, erin = worker_named("a"), expert_named("e")
    goal = goals[0]
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    _answered_turn(dialogue, alice, erin, 1, user_acts=["GREETING"], acts=["GREETING"])
    _answered_turn(dialogue, alice, erin, 2, user_acts=["NOT_RELATED"], acts=["REJECT"])
    _answered_turn(dialogue, alice, erin, 3, user_acts=["AMBIGUOUS"], acts=["CLARIFY"])
    _answered_turn(dialogue, alice, erin, 4, user_acts=["INFORM_SQL", "AFFIRM"])
    _answered_turn(dialogue, alice, erin, 5, user_acts=["THANK_YOU", "GOOD_BYE"], acts=["WELCOME", "GOOD_BYE"])
    turns = room.dialogue_turns(dialogue)
    assert [t.responded for t in turns.values()] == [True] * 5
    assert [log.question_counts(t) for t in turns.values()] == [False, False, False, True, False]
    assert log.answered_questions(turns) == 1
    # The end check reads the same rule: one question about the data is not the minimum.
    with pytest.raises(DialogueError) as refused:
        _post(dialogue, alice, type="end", id="end")
    assert refused.value.code == "too_early" and "about the data" in refused.value.message


def test_a_room_sockets_own_turns_spare_the_read_and_an_old_copy_is_checked_again(goals):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    alice, erin = worker_named("a"), expert_named("e")
    goal = goals[0]
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    ((utterance, _),) = _post(dialogue, alice, type="utterance", id="u1", text="How many?")
    current = room.dialogue_turns(dialogue)
    message = {"type": "user_acts", "id": "a1", "turn": utterance.seq, "acts": ["CANNOT_ANSWER"]}
    # With the turns given, the post is the claim of a number and the insert (in a transaction): nothing is read.
    with CaptureQueriesContext(connection) as captured:
        room.dialogue_post(dialogue=dialogue, person=erin, message=message, turns=current)
    statements = [q["sql"].split()[0].upper() for q in captured.captured_queries]
    assert [word for word in statements if word not in ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT")] == [
        "UPDATE",
        "INSERT",
    ]
    # A copy older than the log refuses wrongly at first; the log is then read and the message goes through.
    stale = {}
    message = {"type": "response", "id": "r1", "turn": utterance.seq, "text": "Sorry.", "acts": ["SORRY"]}
    ((response, created),) = room.dialogue_post(dialogue=dialogue, person=erin, message=message, turns=stale)
    assert created and response.kind == "response"
    # A refusal that no state of the log explains stays a refusal.
    with pytest.raises(DialogueError) as caught:
        room.dialogue_post(
            dialogue=dialogue, person=erin, message={"type": "user_acts", "id": "x", "turn": 999, "acts": []}, turns={}
        )
    assert caught.value.code == "invalid"


def test_a_worker_stops_early_with_a_reason_and_gets_a_code(goals):
    alice, erin = worker_named("a"), expert_named("e")
    goal = goals[0]
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    _answered_turn(dialogue, alice, erin, 1)
    with pytest.raises(DialogueError) as refused:  # only the worker stops; the expert terminates
        _post(dialogue, erin, type="stop", id="x")
    assert refused.value.code == "wrong_role"
    with pytest.raises(DialogueError) as refused:
        _post(dialogue, alice, type="stop", id="long", reason="x" * 501)
    assert refused.value.code == "too_long"
    ((end, created),) = _post(dialogue, alice, type="stop", id="stop", reason="  My battery is dying. ")
    dialogue.refresh_from_db()
    assert created and dialogue.status == "abandoned" and dialogue.incomplete and dialogue.completion_code
    assert end.payload["reason"] == "The worker stopped early: My battery is dying."
    assert end.payload["stopped_early"] is True and end.payload["completion_code"] == dialogue.completion_code
    with pytest.raises(DialogueError) as refused:  # once
        _post(dialogue, alice, type="stop", id="again")
    assert refused.value.code == "closed"


def test_ending_counts_the_answered_questions_under_the_lock(goals, settings):
    # The minimum is checked where the row is locked: a turn dropped after it was answered no longer counts.
    settings.DIALOGUE_MIN_QUESTIONS = 2
    alice, erin = worker_named("a"), expert_named("e")
    goal = goals[0]
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    first = _answered_turn(dialogue, alice, erin, 1)
    _answered_turn(dialogue, alice, erin, 2)
    _post(dialogue, erin, type="drop", id="d1", turn=first)
    with pytest.raises(DialogueError) as caught:
        _post(dialogue, alice, type="end", id="end")
    assert caught.value.code == "too_early" and "1 more question" in caught.value.message
    _answered_turn(dialogue, alice, erin, 3)
    ((end, _),) = _post(dialogue, alice, type="end", id="end")
    dialogue.refresh_from_db()
    assert end.kind == "end" and (dialogue.status, dialogue.incomplete) == (DialogueStatus.COMPLETED, False)


def test_sql_for_an_ended_dialogue_is_refused_before_it_runs(goals, monkeypatch):
    alice, erin = worker_named("a"), expert_named("e")
    goal = goals[0]
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    turn = _answered_turn(dialogue, alice, erin, 1)
    _post(dialogue, erin, type="terminate", id="t")

    def must_not_run(*args, **kwargs):
        raise AssertionError("the sandbox ran SQL for a dialogue that has ended")

    monkeypatch.setattr(room, "sql_run", must_not_run)
    for seen in (dialogue, Dialogue.objects.get(pk=dialogue.pk)):  # the poster's own copy, and a fresh one
        with pytest.raises(DialogueError) as caught:
            _post(seen, erin, type="sql_run", id="late", turn=turn, sql="SELECT 1")
        assert caught.value.code == "closed"


def test_an_expert_sees_the_longest_waits_and_how_many_wait(goals):
    from dialogs.selectors import QUEUE_SHOWN

    workers = [worker_named(f"w{i:02d}") for i in range(QUEUE_SHOWN + 5)]
    for person in workers:
        lobby.lobby_join(person=person)
    status = lobby_status(expert_named("e"))
    assert status["waiting_workers"] == QUEUE_SHOWN + 5
    assert [entry["name"] for entry in status["queue"]] == [w.alias for w in workers[:QUEUE_SHOWN]]


def test_every_typed_text_over_its_limit_is_refused_whole_never_cut(goals, settings):
    """The limits handed to the room pages (room.text_limits) are the ones the room refuses beyond: a text at its
    limit is stored whole, one character more is refused with the reason, and nothing is stored cut."""
    settings.UTTERANCE_MAX_CHARS = 60
    limits = room.text_limits()
    assert limits["text"] == 60
    alice, erin = worker_named("a"), expert_named("e")
    goal = Goal.objects.filter(database__db_id="dorm_demo").first()
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)

    def refused(person, field, **message):
        with pytest.raises(DialogueError) as caught:
            _post(dialogue, person, **message, **{field: "x" * (limits[field] + 1)})
        assert caught.value.code == "too_long"
        assert f"longer than {limits[field]} characters" in caught.value.message

    refused(alice, "text", type="utterance", id="u-long")
    # Counted in characters as the pages count them (code points), after trimming.
    ((utterance, _),) = _post(dialogue, alice, type="utterance", id="u", text=" " + "é" * 59 + "😀 ")
    assert utterance.payload["text"] == "é" * 59 + "😀"
    turn = utterance.seq
    _post(dialogue, erin, type="user_acts", id="a", turn=turn, acts=["AMBIGUOUS"])
    refused(erin, "text", type="response", id="r-long", turn=turn, acts=["CLARIFY"])
    refused(erin, "warning", type="drop", id="d-long", turn=turn)
    refused(erin, "reason", type="terminate", id="t-long")
    ((response, _),) = _post(dialogue, erin, type="response", id="r", turn=turn, text="y" * 60, acts=["CLARIFY"])
    assert response.payload["text"] == "y" * 60
    _post(dialogue, erin, type="terminate", id="t", reason="z" * limits["reason"])
    refused(erin, "comment", type="score", id="s-long", score=4)
    assert not Event.objects.filter(dialogue=dialogue, client_id__endswith="-long").exists()
