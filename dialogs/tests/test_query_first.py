"""Query-first annotation (dialogs.query_first): Erin writes the question for a sampled goal (phase 1), Frank corrects
it and gives its words to the tree's operations (phase 2); skips, adaptations and refusals that write nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from annotation.models import Database, Goal
from dialogs import query_first as qf
from dialogs.errors import DialogueError
from dialogs.log import dialogue_turns
from dialogs.models import Dialogue, DialogueMode, DialogueStatus, Event, QueryFirstItem
from dialogs.selectors import goals_to_write, items_to_align
from tests.builders import DORM_TREE, expert_named, sampled_goals

pytestmark = pytest.mark.django_db

QUESTION = "How many students older than 20 live in Harbor View Hall?"
# Tokens: How(0) many(1) students(2) older(3) than(4) 20(5) live(6) in(7) Harbor(8) View(9) Hall(10) ?(11)
ALIGNMENT = [
    {"step": "type", "beg": 0, "end": 1},
    {"step": "table-1", "beg": 2, "end": 2},
    {"step": "filter-1", "beg": 8, "end": 10},
    {"step": "filter-2", "beg": 3, "end": 5},
]


@pytest.fixture
def goal(demo_databases):
    return sampled_goals(Database.objects.get(db_id="dorm_demo"))[0]


@pytest.fixture
def frank(db):
    return expert_named("frank")


def written(goal, erin, question="How many students older than 20 live in Harbor View?"):
    item = qf.query_first_open(person=erin, goal=goal)
    qf.query_first_write(item=item, person=erin, question=question)
    item.refresh_from_db()
    return item


def test_two_people_take_a_sampled_goal_through_both_phases_into_a_dialogue(goal, erin, frank, client):
    assert list(goals_to_write(erin)) == [goal]
    item = qf.query_first_open(person=erin, goal=goal)
    QueryFirstItem.objects.filter(pk=item.pk).update(opened_at=timezone.now() - timedelta(seconds=90))
    item.refresh_from_db()
    draft = qf.query_first_draft(item=item, person=erin)
    assert draft.startswith("How many students") and item.drafted_question == draft
    qf.query_first_write(item=item, person=erin, question="How many students older than 20 live in Harbor View?")
    item.refresh_from_db()
    assert item.stage == QueryFirstItem.Stage.ALIGNING and 90 <= item.writing_seconds < 120
    assert list(goals_to_write(frank)) == []  # written: nobody else writes one
    assert list(items_to_align(erin)) == [] and list(items_to_align(frank)) == [item]

    dialogue = qf.query_first_align(
        item=item,
        person=frank,
        question=QUESTION,
        alignment=ALIGNMENT,
        opened_at=timezone.now() - timedelta(seconds=40),
    )
    item.refresh_from_db()
    assert item.stage == QueryFirstItem.Stage.DONE and item.aligner == frank and item.dialogue == dialogue
    assert item.question_written == "How many students older than 20 live in Harbor View?"  # phase 1's is kept
    assert item.question == QUESTION and item.tokens[8:11] == ["Harbor", "View", "Hall"]
    assert [span["step"] for span in item.alignment] == ["table-1", "filter-1", "filter-2", "type"]
    assert 40 <= item.aligning_seconds < 70
    assert dialogue.mode == DialogueMode.QUERY_FIRST and dialogue.status == DialogueStatus.COMPLETED
    assert dialogue.expert == frank and not dialogue.incomplete
    [turn] = [turn for turn in dialogue_turns(dialogue).values() if turn.text]
    assert turn.text == QUESTION and turn.responded
    assert Event.objects.get(dialogue=dialogue, seq=turn.run_seq).payload["sql"] == goal.sql
    goal.refresh_from_db()
    assert goal.question == QUESTION and goal.active
    client.force_login(frank)  # the dialogue's own page has nothing to write: back to the list
    assert client.get(f"/dialogues/{dialogue.pk}/").url == "/query-first/"


def test_phase_two_is_for_another_person_and_a_bad_alignment_writes_nothing(goal, erin, frank):
    item = written(goal, erin)
    with pytest.raises(DialogueError, match="another person"):
        qf.query_first_align(item=item, person=erin, question=QUESTION, alignment=ALIGNMENT)
    for alignment, message in [
        (ALIGNMENT[:3], "Give words to: Keep those whose age is greater than 20"),
        ([*ALIGNMENT, {"step": "order", "beg": 0, "end": 0}], "no operation 'order'"),
        ([*ALIGNMENT, {"step": "type", "beg": 5, "end": 40}], "among the 12 tokens"),
    ]:
        with pytest.raises(DialogueError, match=message):
            qf.query_first_align(item=item, person=frank, question=QUESTION, alignment=alignment)
    item.refresh_from_db()
    goal.refresh_from_db()
    assert item.stage == QueryFirstItem.Stage.ALIGNING and item.alignment == [] and item.aligner is None
    assert goal.question == "" and not goal.active
    assert not Dialogue.objects.filter(mode=DialogueMode.QUERY_FIRST).exists()


def test_phase_two_runs_its_sql_outside_a_transaction_and_a_claim_is_its_persons(goal, erin, frank, monkeypatch):
    """The run of the item's query happens in no transaction (the sandbox refuses one: the real run below would
    raise). A failed run frees the item and closes the dialogue begun for it; between the claim and the finish,
    another person is told someone is finishing it."""
    item = written(goal, erin)
    real = qf.solo_turn_add

    def fails(**kwargs):
        raise DialogueError("invalid", "The SQL fails: the query ran longer than its time limit and was stopped")

    monkeypatch.setattr(qf, "solo_turn_add", fails)
    with pytest.raises(DialogueError, match="time limit"):
        qf.query_first_align(item=item, person=frank, question=QUESTION, alignment=ALIGNMENT)
    item.refresh_from_db()
    assert item.stage == QueryFirstItem.Stage.ALIGNING and item.dialogue is None and item.aligner is None
    closed = Dialogue.objects.get(mode=DialogueMode.QUERY_FIRST)
    assert closed.status == DialogueStatus.ABANDONED and closed.incomplete

    gina = expert_named("gina")
    seen = []

    def add_while_someone_else_tries(**kwargs):
        with pytest.raises(DialogueError, match="Someone else is finishing"):
            qf.query_first_align(item=item, person=gina, question=QUESTION, alignment=ALIGNMENT)
        seen.append(kwargs["dialogue"].pk)
        return real(**kwargs)

    monkeypatch.setattr(qf, "solo_turn_add", add_while_someone_else_tries)
    dialogue = qf.query_first_align(item=item, person=frank, question=QUESTION, alignment=ALIGNMENT)
    assert seen == [dialogue.pk] and dialogue.status == DialogueStatus.COMPLETED and dialogue.pk != closed.pk
    item.refresh_from_db()
    assert item.stage == QueryFirstItem.Stage.DONE and item.dialogue == dialogue and item.aligner == frank


def test_adapting_a_filter_is_recorded_and_must_still_return_rows(goal, erin):
    item = qf.query_first_open(person=erin, goal=goal)
    with pytest.raises(DialogueError, match="returns nothing"):
        qf.query_first_adapt(item=item, person=erin, step_id="filter-2", op=">", value="40")
    with pytest.raises(DialogueError, match="not a number"):
        qf.query_first_adapt(item=item, person=erin, step_id="filter-2", op=">", value="old")
    item.refresh_from_db()
    assert item.changes == [] and item.tree == DORM_TREE
    change = qf.query_first_adapt(item=item, person=erin, step_id="filter-2", op=">=", value="22")
    item.refresh_from_db()
    assert change["before"] == {"op": ">", "value": 20} and change["after"] == {"op": ">=", "value": 22}
    assert item.changes == [change] and "age >= 22" in item.sql
    goal.refresh_from_db()
    assert goal.tree == DORM_TREE  # the goal changes only when phase 2 is done


def test_a_skipped_goal_is_not_offered_again_to_that_person_nor_to_anyone_after_enough_skips(goal, erin, settings):
    settings.QUERY_FIRST_MAX_SKIPS = 2
    item = qf.query_first_open(person=erin, goal=goal)
    with pytest.raises(DialogueError, match="The reason must not be empty"):
        qf.query_first_skip(item=item, person=erin, reason="  ")
    qf.query_first_skip(item=item, person=erin, reason="The values make no sense together.")
    item.refresh_from_db()
    assert item.stage == QueryFirstItem.Stage.SKIPPED and item.skip_reason.startswith("The values")
    assert list(goals_to_write(erin)) == []
    with pytest.raises(DialogueError, match="not waiting for your question"):
        qf.query_first_open(person=erin, goal=goal)
    others = [expert_named(name) for name in ("gus", "hal")]
    assert list(goals_to_write(others[0])) == [goal]
    qf.query_first_skip(item=qf.query_first_open(person=others[0], goal=goal), person=others[0], reason="unclear")
    assert list(goals_to_write(others[1])) == []  # two skips: offered to nobody


def test_only_experts_annotate_and_a_goal_gets_one_phase_one_question(goal, erin, frank, alice, rita):
    for person in (alice, rita):
        with pytest.raises(DialogueError, match="Only experts"):
            qf.query_first_open(person=person, goal=goal)
    first, second = qf.query_first_open(person=erin, goal=goal), qf.query_first_open(person=frank, goal=goal)
    qf.query_first_write(item=first, person=erin, question="How many older students live in Harbor View Hall?")
    with pytest.raises(DialogueError, match="Someone else has just written"):
        qf.query_first_write(item=second, person=frank, question="Another question?")
    with pytest.raises(DialogueError, match="another person's phase 1"):
        qf.query_first_draft(item=second, person=erin)
    assert Goal.objects.get(pk=goal.pk).query_first_items.filter(stage=QueryFirstItem.Stage.ALIGNING).count() == 1


def test_the_pages_check_the_role_and_serve_each_phase_only_to_its_person(client, goal, erin, frank, alice):
    from django.urls import reverse

    home = reverse("dialogs:query_first_home")
    assert client.get(home).status_code == 302  # anonymous: to sign in
    client.force_login(alice)
    assert client.get(home).status_code == 403
    client.force_login(erin)
    assert client.get(home).status_code == 200
    response = client.post(home, {"goal": goal.pk})
    item = QueryFirstItem.objects.get(goal=goal, writer=erin)
    assert response.url == reverse("dialogs:query_first_write", args=[item.pk])
    page = client.get(response.url)
    assert page.status_code == 200 and b"Harbor View Hall" in page.content
    assert b"<td>7</td>" in page.content  # the last step's result: the count
    client.force_login(frank)
    assert client.get(reverse("dialogs:query_first_write", args=[item.pk])).status_code == 404
    client.force_login(erin)
    assert client.get(reverse("dialogs:query_first_align", args=[item.pk])).status_code == 404  # not written yet


def test_a_refused_action_keeps_the_question_typed_and_says_why(client, goal, erin, frank):
    from django.urls import reverse

    item = qf.query_first_open(person=erin, goal=goal)
    url = reverse("dialogs:query_first_write", args=[item.pk])
    client.force_login(erin)
    typed = "How many students over 20 are in Harbor View Hall?"
    page = client.post(url, {"question": typed, "step": "filter-2", "op": ">", "value": "99", "action": "adapt"})
    assert page.status_code == 200 and "returns nothing" in page.content.decode()
    assert typed in page.content.decode()
    page = client.post(url, {"question": typed, "step": "filter-1", "op": "=", "reason": "", "action": "skip"})
    assert "The reason must not be empty" in page.content.decode() and typed in page.content.decode()
    page = client.post(url, {"question": typed, "step": "filter-1", "op": "=", "action": "draft"})
    assert "How many students are there whose" in page.content.decode()
    assert client.post(url, {"question": typed, "step": "filter-1", "op": "=", "action": "write"}).status_code == 302
    item.refresh_from_db()
    assert item.question_written == typed and item.drafted_question.startswith("How many students")

    client.force_login(frank)
    align = reverse("dialogs:query_first_align", args=[item.pk])
    assert typed in client.get(align).content.decode()
    page = client.post(align, {"question": typed, "aligned_question": typed, "alignment": "[{"})
    assert "could not be read" in page.content.decode()
    missing = client.post(
        align, {"question": typed, "aligned_question": typed, "alignment": '[{"step": "type", "beg": 0, "end": 1}]'}
    )
    assert "Give words to: Keep those whose dorm name is Harbor View Hall" in missing.content.decode()
    changed = client.post(align, {"question": QUESTION, "aligned_question": typed, "alignment": "[]"})
    assert "The question changed after its words were given" in changed.content.decode()
    item.refresh_from_db()
    assert item.stage == QueryFirstItem.Stage.ALIGNING
    tokens = client.post(
        reverse("dialogs:query_first_tokens"), {"question": "How many?"}, content_type="application/json"
    )
    assert tokens.json() == {"ok": True, "tokens": ["How", "many", "?"]}


def test_a_tree_that_makes_no_plain_question_gets_no_draft_and_the_refusal_records_nothing(demo_databases, erin):
    # The join to lives_in is read by nothing: a draft would ask about "the students with their lives in".
    unread = {
        "type": "list", "tables": ["student", "lives_in"], "project": ["student.last_name"], "filters": [],
        "joins": [["student", "student_id", "lives_in", "student_id"]],
        "order": {"by": "student.age", "desc": True, "limit": 1},
    }  # fmt: skip
    goal = sampled_goals(Database.objects.get(db_id="dorm_demo"), [unread])[0]
    item = qf.query_first_open(person=erin, goal=goal)
    with pytest.raises(DialogueError, match="no plain question to draft"):
        qf.query_first_draft(item=item, person=erin)
    item.refresh_from_db()
    assert item.drafted_question == "" and item.stage == QueryFirstItem.Stage.WRITING
