"""The comparison of dialogues helped by a model with the control group: each measure on hand-built dialogues whose
answers were worked out by hand, how sure the differences are, and the page that shows it (review.dataset.model_help).
"""

from collections import Counter
from datetime import timedelta
from types import SimpleNamespace

import numpy as np
import pytest
from django.urls import reverse
from django.utils import timezone

from dialogs import log
from dialogs.log import LogEvent, dialogue_replay
from dialogs.models import Campaign, Dialogue, DialogueStatus, Event, EventKind
from review.dataset.model_help import DialogueFacts, chi_square, compare_groups, dialogue_facts, permutation_test
from review.dataset.selectors import model_help_comparison
from review.models import DialogueReview, ReviewStage

T0 = timezone.now().replace(microsecond=0)


def _log() -> list[LogEvent]:
    """A helped dialogue of two questions: the first answered 40 s after it was asked, with two drafts asked for (one
    failed, one loaded and edited) and a reviewer's correction of its acts; the second ("Thanks") answered in 5 s."""
    run = {"ok": True, "columns": ["n"], "rows": [[3]], "row_count": 1, "truncated": False}
    at = lambda seconds: T0 + timedelta(seconds=seconds)  # noqa: E731
    return [
        LogEvent(1, EventKind.UTTERANCE, log.utterance_payload("How many students?"), "worker", at(0)),
        LogEvent(2, EventKind.USER_ACTS, log.user_acts_payload(1, ["INFORM_SQL"]), "expert", at(5)),
        LogEvent(3, EventKind.MODEL_SQL, {"turn": 1, "error": {"code": "timeout", "message": "too slow"}}, "", at(8)),
        LogEvent(4, EventKind.MODEL_SQL, {"turn": 1, "sql": "SELECT count(*) FROM student", "model": "m"}, "", at(9)),
        LogEvent(5, EventKind.SQL_RUN, log.sql_run_payload(1, "SELECT count(*) FROM student", run), "expert", at(20)),
        LogEvent(6, EventKind.RESULT_SHARED, log.result_shared_payload(1, 5, run), "expert", at(30)),
        LogEvent(
            7,
            EventKind.TURN_LABELS,
            log.turn_labels_payload(1, "detected", {"intent": {"category": "display", "relations": []}}),
            "",
            at(30),
        ),  # fmt: skip
        LogEvent(8, EventKind.RESPONSE, log.response_payload(1, "Three.", ["CONFIRM_SQL"], 5), "expert", at(40)),
        LogEvent(9, EventKind.UTTERANCE, log.utterance_payload("Thanks"), "worker", at(60)),
        LogEvent(10, EventKind.USER_ACTS, log.user_acts_payload(9, ["THANK_YOU"]), "expert", at(62)),
        LogEvent(11, EventKind.RESPONSE, log.response_payload(9, "Bye.", ["GOOD_BYE"], None), "expert", at(65)),
        LogEvent(
            12,
            EventKind.CORRECTION,
            log.correction_payload(turn=1, field="user_acts", old=["INFORM_SQL"], new=["INFER_SQL"], review_pass=1),
            "reviewer",
            at(500),
        ),  # fmt: skip
    ]


def _record(events):
    dialogue = SimpleNamespace(
        pk=1, database=SimpleNamespace(db_id="dorm_demo"), goal_id=None, status="completed", mode="chat", score=None,
        score_comment="", created_at=T0, ended_at=T0 + timedelta(minutes=2),
    )  # fmt: skip
    return dialogue_replay(dialogue=dialogue, events=events)


def test_one_dialogues_facts_are_read_from_its_log():
    facts = dialogue_facts(_record(_log()), helped=True, reviewed=True, draft_uses={4: "edited"})
    assert facts.questions == 2
    assert facts.question_seconds == [40.0, 5.0]
    assert facts.user_acts == Counter({"INFER_SQL": 1, "THANK_YOU": 1})  # as it stands after review
    assert facts.system_acts == Counter({"CONFIRM_SQL": 1, "GOOD_BYE": 1})
    assert facts.intents == Counter({"display": 1})
    assert (facts.corrections, facts.corrected_questions) == (1, 1)
    assert facts.drafts == Counter({"asked": 2, "failed": 1, "edited": 1})
    unreviewed = dialogue_facts(_record(_log()), helped=True, reviewed=False, draft_uses={})
    assert unreviewed.corrections == 0  # a correction counts once review has decided
    assert unreviewed.drafts == Counter({"asked": 2, "failed": 1, "not used": 1})


def _facts(helped, seconds, corrections=0, acts=()):
    return DialogueFacts(
        helped=helped, questions=len(seconds), question_seconds=list(seconds), reviewed=True, corrections=corrections,
        corrected_questions=corrections, user_acts=Counter(acts),
    )  # fmt: skip


def test_time_per_question_and_corrections_per_question_worked_by_hand():
    facts = [
        _facts(True, [10, 20], corrections=1),
        _facts(True, [30]),
        _facts(False, [40], corrections=1),
        _facts(False, [50, 60], corrections=2),
    ]
    result = compare_groups(facts)
    assert result["groups"]["helped"] == {"dialogues": 2, "questions": 3, "reviewed": 2}
    time = result["time_per_question"]
    assert time["helped"] == {"n": 3, "median": 20.0, "q1": 15.0, "q3": 25.0}
    assert time["control"] == {"n": 3, "median": 50.0, "q1": 45.0, "q3": 55.0}
    assert time["difference"]["median"] == -30.0
    # Every helped question is quicker than every control one: any resample's difference is between -50 and -10.
    interval = time["difference"]["interval"]
    assert -50 <= interval["low"] <= interval["high"] <= -10
    corrections = result["corrections"]
    assert corrections["helped"]["per_question"] == 0.333 and corrections["control"]["per_question"] == 1.0
    assert corrections["difference"]["per_question"] == -0.667
    assert compare_groups(facts) == result  # seeded: the same dialogues, the same interval


def test_with_one_dialogue_in_a_group_no_interval_is_claimed():
    result = compare_groups([_facts(True, [10]), _facts(True, [20]), _facts(False, [40, 50])])
    assert result["time_per_question"]["difference"]["median"] == -30.0  # 15 against 45
    assert result["time_per_question"]["difference"]["interval"] is None


def test_chi_square_worked_by_hand():
    assert chi_square(np.array([[4.0, 0.0], [0.0, 4.0]])) == 8.0  # perfect association: chi-square is N
    assert chi_square(np.array([[2.0, 2.0], [3.0, 3.0]])) == 0.0
    assert chi_square(np.array([[2.0, 0.0], [3.0, 0.0]])) == 0.0  # one category used: nothing to compare


def test_distributions_that_differ_are_told_apart_and_the_same_ones_are_not():
    rng = np.random.default_rng(1)
    apart = permutation_test(np.array([[4, 0]] * 5 + [[0, 4]] * 5, dtype=float), np.array([1] * 5 + [0] * 5), rng=rng)
    # Only 2 of the 252 ways to split ten dialogues into five and five separate them as completely.
    assert apart["chi_square"] == 40.0 and apart["p"] < 0.05
    alike = permutation_test(np.array([[2, 2]] * 10, dtype=float), np.array([1] * 5 + [0] * 5), rng=rng)
    assert alike["chi_square"] == 0.0 and alike["p"] == 1.0
    assert permutation_test(np.array([[2, 2]] * 3, dtype=float), np.array([1, 1, 1]), rng=rng) is None


def test_acts_intents_and_drafts_per_group():
    facts = [
        _facts(True, [10], acts=["INFORM_SQL", "INFORM_SQL"]),
        _facts(False, [10], acts=["AMBIGUOUS"]),
    ]
    facts[0].drafts = Counter({"asked": 3, "failed": 1, "kept": 1, "not used": 1})
    result = compare_groups(facts)
    assert result["user_acts"]["helped"]["INFORM_SQL"] == 2 and result["user_acts"]["control"]["AMBIGUOUS"] == 1
    assert result["user_acts"]["test"]["permutations"] == 2000
    assert result["drafts"] == {
        "asked": 3, "failed": 1, "kept": 1, "edited": 0, "replaced": 0, "not_used": 1, "in_control_group": 0,
    }  # fmt: skip


# --- The selection and the page --------------------------------------------------------------------------------


def _dialogue(goal, worker, expert, campaign, *, slot, helped, seconds, simulated=False, status="completed"):
    dialogue = Dialogue.objects.create(
        database=goal.database, goal=goal, worker=worker, expert=expert, campaign=campaign, status=status,
        control_slot=slot, model_help=helped, simulated=simulated, ended_at=T0,
    )  # fmt: skip
    run = {"ok": True, "columns": ["n"], "rows": [[1]], "row_count": 1, "truncated": False}
    events = [(EventKind.UTTERANCE, log.utterance_payload("How many?"), 0)]
    if helped:  # a draft asked for, loaded and edited
        events.append((EventKind.MODEL_SQL, {"turn": 1, "sql": "SELECT 1", "model": "m"}, 1))
        loaded = {**log.sql_run_payload(1, "SELECT 2", run), "model_draft": {"event": 2, "use": "edited"}}
        events.append((EventKind.SQL_RUN, loaded, 2))
    events.append((EventKind.RESPONSE, log.response_payload(1, "Three.", ["CONFIRM_SQL"], None), seconds))
    for seq, (kind, payload, at) in enumerate(events, start=1):
        event = Event.objects.create(dialogue=dialogue, seq=seq, kind=kind, payload=payload)
        Event.objects.filter(pk=event.pk).update(created_at=T0 + timedelta(seconds=at))
    Dialogue.objects.filter(pk=dialogue.pk).update(last_seq=len(events))
    return dialogue


@pytest.mark.django_db
def test_the_selection_takes_ended_drawn_dialogues_and_leaves_the_simulated_ones_out(demo_databases, alice, erin):
    from annotation.models import Goal

    goal = Goal.objects.create(database=demo_databases["dorm_demo"], question="How many?", sql="SELECT 1")
    pilot = Campaign.objects.create(name="Pilot", model_holdback_percent=50)
    other = Campaign.objects.create(name="Other")
    _dialogue(goal, alice, erin, pilot, slot=0, helped=True, seconds=10)
    _dialogue(goal, alice, erin, pilot, slot=1, helped=False, seconds=30)
    _dialogue(goal, alice, erin, pilot, slot=2, helped=True, seconds=99, simulated=True)
    _dialogue(goal, alice, erin, pilot, slot=3, helped=True, seconds=99, status=DialogueStatus.ACTIVE)
    _dialogue(goal, alice, erin, pilot, slot=None, helped=False, seconds=99)  # paired before a model was set
    _dialogue(goal, alice, erin, other, slot=0, helped=False, seconds=50)
    reviewed = _dialogue(goal, alice, erin, pilot, slot=4, helped=False, seconds=20)
    DialogueReview.objects.create(dialogue=reviewed, stage=ReviewStage.APPROVED, decided_at=T0)

    result = model_help_comparison(campaign_id=pilot.pk)
    assert {g: result["groups"][g]["dialogues"] for g in ("helped", "control")} == {"helped": 1, "control": 2}
    assert result["time_per_question"]["helped"]["median"] == 10.0
    assert result["time_per_question"]["control"]["median"] == 25.0
    assert result["corrections"]["control"]["dialogues"] == 1 and result["not_drawn"] == 1
    assert (result["drafts"]["asked"], result["drafts"]["edited"], result["drafts"]["not_used"]) == (1, 1, 0)
    with_simulated = model_help_comparison(campaign_id=pilot.pk, include_simulated=True)
    assert with_simulated["groups"]["helped"]["dialogues"] == 2
    assert model_help_comparison()["groups"]["control"]["dialogues"] == 3  # every campaign
    # Every figure draws from these groups, in the page's language (SVG) and in English (PDF).
    from django.utils import translation

    from review.dataset import figures

    for language in ("en", "zh-hans"):
        with translation.override(language):
            for name in figures.MODEL_HELP_FIGURES:
                for fmt in ("svg", "pdf"):
                    with figures.words_for(fmt):
                        assert figures.render_figure(figures.draw_model_help(name, result), fmt), (name, fmt)


@pytest.mark.django_db
def test_the_comparison_page_is_for_those_who_see_statistics(client, alice, erin, rita, ada):
    url = reverse("review:model_help")
    assert client.get(url).status_code == 302
    for persona in (alice, erin, rita):
        client.force_login(persona)
        assert client.get(url).status_code == 403
    client.force_login(ada)
    page = client.get(url)
    assert page.status_code == 200 and b"Model help against its control group" in page.content
    assert client.get(url, {"campaign": "nonsense"}).status_code == 200  # a bad filter is said, not a crash
    figure = client.get(reverse("review:model_help_figure", args=["time_per_question", "svg"]))
    assert figure.status_code == 200 and figure["Content-Type"] == "image/svg+xml"


def test_a_draws_median_and_rate_are_those_of_the_dialogues_it_drew_pooled():
    """A resample is a count per dialogue: its median must be the median of the questions of the drawn dialogues
    copied as often as drawn, and its rate the corrections over the questions so copied."""
    from review.dataset.model_help import median_of_drawn, rate_of_drawn

    dialogues = [[30.0, 10.0], [20.0], [50.0, 40.0, 5.0], [7.0]]
    median = median_of_drawn(dialogues)
    for counts in ([1, 1, 1, 1], [2, 0, 1, 0], [0, 3, 0, 1], [0, 0, 0, 0], [1, 0, 0, 2]):
        pooled = [s for dialogue, n in zip(dialogues, counts, strict=True) for _ in range(n) for s in dialogue]
        expected = float(np.median(pooled)) if pooled else None
        assert median(np.array(counts)) == expected, counts
    assert median(np.array([2, 0, 1, 0])) == 30.0  # 5 10 10 30 30 40 50 by hand: the fourth
    rate = rate_of_drawn([(1, 2), (0, 1), (3, 3)])
    assert rate(np.array([2, 1, 0])) == 2 / 5 and rate(np.array([0, 0, 1])) == 1.0 and rate(np.array([0, 0, 0])) is None
