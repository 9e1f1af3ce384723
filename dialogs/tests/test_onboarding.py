"""Experts onboarded before live rooms (docs/experts.md): guidelines read as versions, practice with the simulated
worker scored against the gold, the rule that holds "ready" back until it is met, an admin's audited decisions,
practice kept out of the data, and the migration that grandfathers the experts who were there before."""

import importlib
import random

import pytest
from channels.db import database_sync_to_async
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotation.goals.services import goal_create
from annotation.models import Goal
from annotation.people.services import person_create
from dialogs import lobby, room
from dialogs.errors import DialogueError
from dialogs.models import Campaign, Dialogue, DialogueStatus, Event, LobbyEntry
from dialogs.onboarding import guidelines, practice, qualification
from dialogs.onboarding.markdown import guidelines_html
from dialogs.onboarding.models import PracticeDialogue, PracticeRule, QualificationDecision
from dialogs.simulated import play
from dialogs.simulated.client import SimulationError
from review.passes import queues
from review.passes.services import not_for_review, review_enter
from review.records import dialogue_selection
from tests.builders import expert_named, worker_named
from tests.sockets import connect, receive_until

PAGES_GOAL = "What are the titles of the books with more than 300 pages?"
PAGES_SQL = "SELECT title FROM book WHERE pages > 300"


def _refusal(person) -> DialogueError:
    with pytest.raises(DialogueError) as refused:
        lobby.lobby_join(person=person)
    assert refused.value.code == "not_qualified"
    return refused.value


# --- The guidelines ----------------------------------------------------------------------------------------------


def test_the_safe_markdown_escapes_everything_and_marks_up_only_its_subset():
    html = guidelines_html(
        "## Acts\n<script>alert(1)</script> **INFORM_SQL** and *CLARIFY*, `T1.name`\n\n"
        "- one\n- two\n\n```\nSELECT *\n```"
    )
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<h4>Acts</h4>" in html and "<strong>INFORM_SQL</strong>" in html and "<em>CLARIFY</em>" in html
    assert "<code>T1.name</code>" in html and "<ul><li>one</li><li>two</li></ul>" in html
    assert '<pre class="mono sql-block">SELECT *</pre>' in html
    assert guidelines_html('<a href="javascript:x">**b**</a>') == (
        "<p>&lt;a href=&quot;javascript:x&quot;&gt;<strong>b</strong>&lt;/a&gt;</p>"
    )


@pytest.mark.django_db
def test_guidelines_are_versioned_and_the_desk_asks_for_the_current_one_before_ready(client, erin, ada):
    assert guidelines.guidelines_unread(erin) is None  # none written yet: nothing to read
    first = guidelines.guidelines_save(
        editor=ada, act_guide="# Acts\nLabel **every** turn.", response_guide="", sql_conventions="Use `T1`."
    )
    assert (first.edited_by, guidelines.guidelines_current()) == (ada, first)
    same = guidelines.guidelines_save(
        editor=ada, act_guide="# Acts\r\nLabel **every** turn.\n", response_guide="", sql_conventions="Use `T1`."
    )
    assert same.pk == first.pk  # nothing changed: nobody is asked again
    assert "Read the guidelines" in _refusal(erin).message

    client.force_login(erin)
    desk = client.get(reverse("dialogs:expert_home")).content.decode()
    assert 'data-testid="guidelines"' in desk and "<strong>every</strong>" in desk
    assert 'data-testid="ready-refusal"' in desk and "Read the guidelines" in desk
    client.post(reverse("dialogs:onboarding_guidelines"), {"version": first.pk, "next": "desk"})
    assert guidelines.guidelines_unread(erin) is None
    assert lobby.lobby_join(person=erin).outcome == LobbyEntry.Outcome.WAITING
    lobby.lobby_leave(person=erin)

    second = guidelines.guidelines_save(
        editor=ada, act_guide="# Acts\nLabel **every** turn.", response_guide="", sql_conventions="Alias as `T1`."
    )
    unread = guidelines.guidelines_unread(erin)
    assert (unread.version, unread.read_before, unread.changed) == (second, first, ["SQL conventions"])
    assert "have changed" in _refusal(erin).message
    with pytest.raises(guidelines.GuidelinesRefused):
        guidelines.guidelines_confirm(person=erin, version_id=first.pk)  # a page left open on the old version
    guidelines.guidelines_confirm(person=erin, version_id=second.pk)
    assert qualification.expert_ready_refusal(erin) is None


# --- Practice with the simulated worker, scored against the gold -----------------------------------------------


class _RoomThroughServices:
    """The simulated worker's socket, played through the room's own services (dialogs.room): each message is posted
    as the worker; the expert answers a question as soon as it is asked (`answer`); the frames the worker reads are
    the events of the log."""

    def __init__(self, dialogue, answer):
        self.dialogue, self._dialogue, self._answer = dialogue.pk, dialogue, answer
        self.inbox = [{"type": "state", "status": "active", "min_questions": dialogue.min_questions}]
        self._seen = 0

    async def post(self, message: dict) -> int:
        self._dialogue.refresh_from_db()
        ((event, _), *_) = room.dialogue_post(dialogue=self._dialogue, person=self._dialogue.worker, message=message)
        if message["type"] == "utterance":
            self._answer(event.seq, message["simulated"]["step"])
        for later in Event.objects.filter(dialogue_id=self.dialogue, seq__gt=self._seen).order_by("seq"):
            frame = {"type": "event", "kind": later.kind, "seq": later.seq, "author_role": later.author_role}
            self.inbox.append({**frame, "payload": later.payload})
            self._seen = later.seq
        return event.seq

    async def next(self, wanted, what, *, timeout=None):
        for index, frame in enumerate(self.inbox):
            if wanted(frame):
                return self.inbox.pop(index)
        raise SimulationError(f"{what} never came")


def _played(script):
    """Run the simulated worker's script to its end in this thread (and so in this test's transaction): with the room
    above, nothing it awaits ever waits."""
    try:
        script.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("the script waited for something the room never sent")


def _practice_goal(demo_databases, admin):
    goal = goal_create(database=demo_databases["library_demo"], question=PAGES_GOAL, sql=PAGES_SQL)
    practice.practice_goal_mark(goal=goal, admin=admin)
    return goal


def test_a_practice_dialogue_with_the_simulated_worker_is_scored_against_the_gold_of_each_turn(
    demo_databases, erin, ada, settings, monkeypatch
):
    settings.EXPERT_PRACTICE_DIALOGUES, settings.EXPERT_PRACTICE_MIN_PERCENT = 1, 60
    monkeypatch.setattr(practice, "_dispatch", lambda *args: None)  # the worker's side is played below
    goal = _practice_goal(demo_databases, ada)
    assert "0 of 1 practice dialogues" in _refusal(erin).message
    dialogue = practice.practice_start(expert=erin, server_url="http://127.0.0.1:9")
    assert (dialogue.practice, dialogue.simulated, dialogue.goal) == (True, True, goal)
    assert practice.practice_start(expert=erin, server_url="http://127.0.0.1:9") == dialogue  # the one under way
    plan = PracticeDialogue.objects.get(dialogue=dialogue).plan
    assert [item["step"] for item in plan] == ["broad", "filter-1", "goal"]

    # Erin answers the first question with the same meaning in other words, the second with the opposite filter, the
    # third with the gold itself but the wrong user act.
    answers = {
        "broad": ("select * from BOOK", ["INFORM_SQL"]),
        "filter-1": ("SELECT * FROM book WHERE pages < 300", ["INFORM_SQL"]),
        "goal": (PAGES_SQL, ["INFER_SQL"]),
    }

    def answer(turn: int, step: str) -> None:
        sql, acts = answers[step]
        post = lambda **message: room.dialogue_post(dialogue=dialogue, person=erin, message=message)  # noqa: E731
        post(type="user_acts", id=f"a{turn}", turn=turn, acts=acts)
        ((run, _),) = post(type="sql_run", id=f"s{turn}", turn=turn, sql=sql)
        post(type="share_result", id=f"t{turn}", turn=turn, run=run.seq)
        post(type="response", id=f"r{turn}", turn=turn, text="Here it is.", acts=["CONFIRM_SQL"])

    script_goal = play.Goal(question=goal.question, sql=goal.sql, schema=goal.database.schema)
    outcome = _played(
        play.play_worker(
            _RoomThroughServices(dialogue, answer), script_goal, rng=random.Random(1), follow_suggestions=0
        )
    )
    assert (outcome.status, outcome.answered) == ("completed", 3)
    assert [question["text"] for question in outcome.questions] == [item["text"] for item in plan]

    record = practice.practice_score(dialogue_id=dialogue.pk)
    assert (record.questions, record.equivalent, record.acts_right) == (3, 2, 2)
    broad, narrowed, final = record.turns
    assert broad["equivalent"] and final["equivalent"] and not narrowed["equivalent"]
    assert narrowed["gold_sql"] == "SELECT * FROM book WHERE pages > 300"
    counterexample = narrowed["counterexample"]
    assert counterexample["database"] == "original" and counterexample["difference"]["kind"] == "rows"
    assert counterexample["difference"]["only_in_a"] and counterexample["difference"]["only_in_b"]
    assert (final["user_acts"], final["expected_user_acts"], final["acts_right"]) == (
        ["INFER_SQL"],
        ["INFORM_SQL"],
        False,
    )
    # 2 of 3 equivalent (67%) meets a rule of one dialogue at 60%: qualified by the rule, recorded with its evidence.
    decision = QualificationDecision.objects.get(person=erin)
    assert decision.qualified and decision.decided_by is None and decision.evidence["dialogues"] == [dialogue.pk]
    assert lobby.lobby_join(person=erin).outcome == LobbyEntry.Outcome.WAITING

    page = _logged_in(ada).get(reverse("dialogs:practice_result", args=[dialogue.pk])).content.decode()
    assert 'data-testid="counterexample"' in page and "SELECT * FROM book WHERE pages &lt; 300" in page
    # Practice is no data: review never takes it, no release or statistics read it, pairing never hands out its goal.
    assert queues.dialogue_queue(dialogue) == "not_for_review"
    assert not_for_review(dialogue) == "an expert's practice dialogue"
    assert review_enter(dialogue_id=dialogue.pk) is False
    assert not dialogue_selection(statuses=["completed"], simulated=True).filter(pk=dialogue.pk).exists()


def _logged_in(person):
    client = Client()
    client.force_login(person)
    return client


@pytest.mark.django_db
def test_pairing_never_hands_out_a_practice_goal_and_a_collected_goal_is_never_kept_for_practice(demo_databases, ada):
    practice_goal = goal_create(database=demo_databases["library_demo"], question=PAGES_GOAL, sql=PAGES_SQL)
    practice.practice_goal_mark(goal=practice_goal, admin=ada)
    Goal.objects.exclude(pk=practice_goal.pk).update(active=False)
    assert lobby.goal_choose(worker_named("wes")) is None  # the only active goal is kept for practice
    collected = goal_create(database=demo_databases["library_demo"], question="Which books?", sql="SELECT * FROM book")
    Dialogue.objects.create(database=collected.database, goal=collected, worker=worker_named("w2"), expert=ada)
    with pytest.raises(practice.PracticeRefused, match="of the collection"):
        practice.practice_goal_mark(goal=collected, admin=ada)


# --- The rule ----------------------------------------------------------------------------------------------------


def _scored_practice(expert, goal, equivalent: int, questions: int) -> Dialogue:
    dialogue = Dialogue.objects.create(
        database=goal.database,
        goal=goal,
        worker=practice.practice_account(expert),
        expert=expert,
        simulated=True,
        practice=True,
        status=DialogueStatus.COMPLETED,
    )
    PracticeDialogue.objects.create(
        dialogue=dialogue, questions=questions, equivalent=equivalent, scored_at=timezone.now()
    )
    return dialogue


@pytest.mark.django_db
def test_the_rule_holds_ready_back_until_the_newest_practice_meets_it_then_the_qualification_stands(
    demo_databases, settings, ada
):
    settings.EXPERT_PRACTICE_DIALOGUES, settings.EXPERT_PRACTICE_MIN_PERCENT = 2, 80
    goal = goal_create(database=demo_databases["library_demo"], question=PAGES_GOAL, sql=PAGES_SQL)
    newcomer = expert_named("nora")
    assert "0 of 2 practice dialogues" in _refusal(newcomer).message
    _scored_practice(newcomer, goal, 1, 2)
    assert "1 of 2 practice dialogues, 50% of answers equivalent (80% needed" in _refusal(newcomer).message
    _scored_practice(newcomer, goal, 2, 2)
    assert "2 of 2 practice dialogues, 75%" in _refusal(newcomer).message  # 3 of 4
    _scored_practice(newcomer, goal, 3, 3)  # the newest two: 5 of 5
    assert lobby.lobby_join(person=newcomer).outcome == LobbyEntry.Outcome.WAITING
    (decision,) = QualificationDecision.objects.filter(person=newcomer)
    assert decision.reason.startswith("practice met the rule: 2 of 2 practice dialogues, 100%")

    # A campaign's own rule applies to experts while it is open, on top of the others; a qualification stands.
    campaign = Campaign.objects.create(name="Spring")
    PracticeRule.objects.create(campaign=campaign, practice_dialogues=3, min_equivalent_percent=90)
    assert [rule.describe() for rule in qualification.rules_in_force()] == [
        "3 practice dialogues, 90% of answers equivalent (campaign “Spring”)"
    ]
    assert qualification.expert_ready_refusal(newcomer) is None
    later = expert_named("leo")
    for _ in range(2):
        _scored_practice(later, goal, 3, 3)
    assert "2 of 3 practice dialogues, 100% of answers equivalent (90% needed, campaign “Spring”)" in (
        _refusal(later).message
    )


@pytest.mark.django_db(transaction=True)
async def test_the_desk_socket_refuses_ready_with_the_reason(settings):
    settings.EXPERT_PRACTICE_DIALOGUES = 1
    newcomer = await database_sync_to_async(expert_named)("nick")
    desk, connected, _ = await connect("/ws/lobby/", newcomer)
    assert connected
    await receive_until(desk, lambda message: message["type"] == "status")
    await desk.send_json_to({"type": "join"})
    refused = await receive_until(desk, lambda message: message["type"] == "error")
    assert refused["code"] == "not_qualified" and "0 of 1 practice dialogues" in refused["message"]
    assert not await database_sync_to_async(LobbyEntry.objects.filter(person=newcomer).exists)()
    await desk.disconnect()


# --- An admin's decisions, audited -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_admin_qualifies_and_withdraws_by_hand_with_a_reason_each_recorded(client, ada, erin, settings):
    settings.EXPERT_PRACTICE_DIALOGUES = 3
    assert "0 of 3" in _refusal(erin).message
    client.force_login(ada)
    page = reverse("dialogs:expert_record", args=[erin.pk])
    assert client.post(page, {"decision": "qualify", "reason": ""}).status_code == 200  # no reason: refused
    assert not QualificationDecision.objects.filter(person=erin).exists()
    client.post(page, {"decision": "qualify", "reason": "Wrote SQL for the Spider team"})
    assert lobby.lobby_join(person=erin).outcome == LobbyEntry.Outcome.WAITING
    client.post(page, {"decision": "withdraw", "reason": "Answers drifted from the conventions"})
    # Withdrawn: out of the lobby at once, and back to practice (at least one dialogue, whatever the rule says).
    assert not LobbyEntry.objects.filter(person=erin, outcome=LobbyEntry.Outcome.WAITING).exists()
    settings.EXPERT_PRACTICE_DIALOGUES = 0
    assert "0 of 1 practice dialogues" in _refusal(erin).message
    withdrawn, qualified = QualificationDecision.objects.filter(person=erin)
    assert (withdrawn.qualified, withdrawn.decided_by, withdrawn.reason) == (
        False,
        ada,
        "Answers drifted from the conventions",
    )
    assert (qualified.qualified, qualified.decided_by, qualified.reason) == (True, ada, "Wrote SQL for the Spider team")
    record = client.get(page).content.decode()
    assert "Answers drifted from the conventions" in record and "Wrote SQL for the Spider team" in record
    client.force_login(erin)
    assert client.get(page).status_code == 403


# --- Experts who were there before --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_migration_grandfathers_every_expert_who_exists_and_the_demo_qualifies_its_own(settings):
    settings.EXPERT_PRACTICE_DIALOGUES = 3
    migration = importlib.import_module("dialogs.migrations.0018_expert_qualification")
    veteran, worker = expert_named("vera"), worker_named("walt")
    scripted, _ = person_create(username="sim-expert-1", role="expert")
    scripted.simulated = True
    scripted.save(update_fields=["simulated"])
    migration.grandfather_experts(apps, None)
    (decision,) = QualificationDecision.objects.filter(person__in=[veteran, worker, scripted])
    assert (decision.person, decision.reason, decision.decided_by) == (veteran, "grandfathered", None)
    assert qualification.expert_ready_refusal(veteran) is None
    assert qualification.expert_ready_refusal(scripted) is None  # a pilot's scripted expert is no person to onboard

    from annotation.signals import demo_accounts_made

    newcomer = expert_named("ethan")
    demo_accounts_made.send(sender=None, usernames=["ethan", "walt"])
    assert QualificationDecision.objects.get(person=newcomer).reason == "demo account"


@pytest.mark.django_db
def test_the_refusal_is_worded_in_the_experts_language_and_the_decision_is_recorded_in_english(
    demo_databases, settings
):
    from django.utils import translation

    settings.EXPERT_PRACTICE_DIALOGUES, settings.EXPERT_PRACTICE_MIN_PERCENT = 1, 80
    goal = goal_create(database=demo_databases["library_demo"], question=PAGES_GOAL, sql=PAGES_SQL)
    newcomer = expert_named("zhang")
    with translation.override("zh-hans"):
        refusal = _refusal(newcomer).message
        assert "尚未获得资格" in refusal and "练习" in refusal and "Practise" not in refusal
        assert "默认规则" in refusal  # where the rule comes from, in the same words
        _scored_practice(newcomer, goal, 1, 1)
        assert qualification.expert_ready_refusal(newcomer) is None
        assert qualification.expert_standing(newcomer).describe().startswith("已获资格")
    (decision,) = QualificationDecision.objects.filter(person=newcomer)
    # The record of why stays in English, whichever language the screen that asked spoke.
    assert (
        decision.reason == "practice met the rule: 1 of 1 practice dialogues, 100% of answers equivalent "
        "(80% needed, the default)"
    )
    assert decision.evidence["rules"][0]["rule"] == "1 practice dialogue, 80% of answers equivalent (the default)"
