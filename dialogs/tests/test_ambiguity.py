"""The expert's ambiguity label on a user turn: its sub-type, the span it concerns and, for an ambiguity, the SQL of
each reading (PRACTIQ's types), sent with the user acts."""

import pytest

from annotation.labels.acts import AMBIGUITY_TYPES, LabelError, check_ambiguity
from annotation.models import Goal
from dialogs import room
from dialogs.errors import DialogueError
from dialogs.log import LogEvent, dialogue_replay
from dialogs.models import Dialogue, Event, EventKind
from tests.builders import expert_named, worker_named

pytestmark = pytest.mark.django_db


@pytest.fixture
def dialogue(demo_databases):
    from annotation.demo import demo_load

    demo_load()
    goal = Goal.objects.first()
    return Dialogue.objects.create(
        database=goal.database, goal=goal, worker=worker_named("a"), expert=expert_named("e")
    )


def _post(dialogue, person, **message):
    return room.dialogue_post(dialogue=dialogue, person=person, message=message)


def _ask(dialogue, text="How many big dorms are there?"):
    ((utterance, _),) = _post(dialogue, dialogue.worker, type="utterance", id="u1", text=text)
    return utterance.seq


def _replay(dialogue):
    events = [
        LogEvent(e.seq, e.kind, e.payload, e.author_role, e.created_at, e.author_id)
        for e in dialogue.events.order_by("seq")
    ]
    return dialogue_replay(dialogue=dialogue, events=events)


def test_an_ambiguous_turn_carries_its_type_span_and_readings(dialogue):
    turn = _ask(dialogue)
    ambiguity = {
        "type": "vague_condition",
        "span": {"beg": 2, "end": 2},
        "readings": [" SELECT count(*) FROM dorm WHERE student_capacity > 100 ", "SELECT count(*) FROM dorm"],
    }
    ((event, _),) = _post(
        dialogue, dialogue.expert, type="user_acts", id="a1", turn=turn, acts=["ambiguous"], ambiguity=ambiguity
    )
    assert event.payload == {
        "turn": turn,
        "acts": ["AMBIGUOUS"],
        "ambiguity": {
            "type": "vague_condition",
            "span": {"beg": 2, "end": 2},
            "readings": ["SELECT count(*) FROM dorm WHERE student_capacity > 100", "SELECT count(*) FROM dorm"],
        },
    }
    assert room.dialogue_turns(dialogue)[turn].ambiguity == event.payload["ambiguity"]
    assert _replay(dialogue).user_turns[0].ambiguity == event.payload["ambiguity"]
    # Labelling again replaces the acts and the ambiguity with them.
    _post(dialogue, dialogue.expert, type="user_acts", id="a2", turn=turn, acts=["INFORM_SQL"])
    assert room.dialogue_turns(dialogue)[turn].ambiguity is None
    assert _replay(dialogue).user_turns[0].ambiguity is None


def test_an_unanswerable_turn_carries_its_type_and_no_readings(dialogue):
    turn = _ask(dialogue, "Which dorms have a pool?")
    ((event, _),) = _post(
        dialogue,
        dialogue.expert,
        type="user_acts",
        id="a1",
        turn=turn,
        acts=["CANNOT_ANSWER"],
        ambiguity={"type": "nonexistent_filter_column", "readings": []},
    )
    assert event.payload["ambiguity"] == {"type": "nonexistent_filter_column"}
    without = _post(dialogue, dialogue.expert, type="user_acts", id="a2", turn=turn, acts=["CANNOT_ANSWER"])
    assert "ambiguity" not in without[0][0].payload


@pytest.mark.parametrize(
    "acts, ambiguity, says",
    [
        (["INFORM_SQL"], {"type": "vague_condition"}, "AMBIGUOUS or CANNOT_ANSWER"),
        (["AMBIGUOUS"], {"type": "unsupported_join"}, "must be one of"),
        (["CANNOT_ANSWER"], {"type": "vague_condition"}, "must be one of"),
        (["AMBIGUOUS"], {}, "must be one of"),
        (["AMBIGUOUS"], "vague", "must be an object"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "span": {"beg": 3, "end": 99}}, "token indexes"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "span": {"beg": 3, "end": 2}}, "token indexes"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "span": [1, 2]}, "token indexes"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "readings": "SELECT 1"}, "list of SQL"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "readings": ["SELECT 1", ""]}, "list of SQL"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "readings": ["SELECT 1"] * 11}, "at most 10"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "readings": ["SELECT " + "1" * 20_000]}, "limited to"),
        (["CANNOT_ANSWER"], {"type": "nonexistent_value", "readings": ["SELECT 1"]}, "cannot answer has none"),
        (["AMBIGUOUS"], {"type": "ambiguous_value", "note": "x"}, "not note"),
    ],
)
def test_an_ambiguity_that_does_not_fit_is_refused_and_nothing_is_stored(dialogue, acts, ambiguity, says):
    turn = _ask(dialogue)
    before = Event.objects.filter(dialogue=dialogue).count()
    with pytest.raises(DialogueError) as caught:
        _post(dialogue, dialogue.expert, type="user_acts", id="a1", turn=turn, acts=acts, ambiguity=ambiguity)
    assert caught.value.code == "labels" and says in str(caught.value)
    assert Event.objects.filter(dialogue=dialogue).count() == before
    assert not Event.objects.filter(dialogue=dialogue, kind=EventKind.USER_ACTS).exists()


def test_with_both_acts_either_kind_of_type_is_accepted():
    tokens = ["a", "b"]
    both = ["AMBIGUOUS", "CANNOT_ANSWER"]
    for types in AMBIGUITY_TYPES.values():
        assert len(types) == 4
        for name in types:
            assert check_ambiguity({"type": name}, acts=both, tokens=tokens, max_sql_length=100) == {"type": name}
    with pytest.raises(LabelError):
        check_ambiguity(
            {"type": "ambiguous_value", "span": {"beg": True, "end": 1}}, acts=both, tokens=tokens, max_sql_length=100
        )
