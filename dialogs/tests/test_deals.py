"""Work dealt out evenly (docs/dealing.md): Ada deals solo sequences and query-first questions among experts; each
gets as many as the next over a spread of the databases; a sequence keeps the minimum drawn for it; an item is done
when its sequence is finished or its question written; when someone leaves, their open items go to the others."""

from collections import Counter, defaultdict

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from annotation.models import Goal
from dialogs import query_first, room, solo
from dialogs.deals import selectors
from dialogs.deals.services import assignment_start, deal_create, deal_member_remove
from dialogs.errors import DialogueError
from dialogs.models import Dialogue, DialogueStatus, QueryFirstItem, WorkAssignment, WorkDeal, WorkDealMember
from dialogs.selectors import goals_to_write
from tests.builders import expert_named, sampled_goals

pytestmark = pytest.mark.django_db

QUESTIONS = [
    ("Which students are there?", "SELECT first_name, age FROM student"),
    ("Only those older than 20?", "SELECT first_name, age FROM student WHERE age > 20"),
    ("Sort them by age.", "SELECT first_name, age FROM student WHERE age > 20 ORDER BY age"),
    ("How many are they?", "SELECT count(*) FROM student WHERE age > 20"),
]
SOLO, QUERY_FIRST = WorkDeal.Kind.SOLO, WorkDeal.Kind.QUERY_FIRST
HELD = WorkAssignment.HELD_STATES


@pytest.fixture
def databases(demo_databases):
    return sorted(demo_databases.values(), key=lambda database: database.db_id)


@pytest.fixture
def team(erin):
    """Erin and three more experts: Ezra, Esme and Eli."""
    return [erin, *(expert_named(name) for name in ("ezra", "esme", "eli"))]


@pytest.fixture
def goals(databases):
    """Four active goals on each demo database (their SQL is never run here)."""
    return [
        Goal.objects.create(database=database, question=f"Question {n} on {database.db_id}?", sql=f"SELECT {n}")
        for database in databases
        for n in range(4)
    ]


def deal(by, people, databases, **options):
    options.setdefault("name", "Week 48")
    options.setdefault("kind", SOLO)
    options.setdefault("count", 12)
    options.setdefault("seed", 7)
    return deal_create(by=by, people=people, databases=databases, **options)


def held_by(deal_):
    """person id → their held assignments."""
    held = defaultdict(list)
    for assignment in deal_.assignments.filter(state__in=HELD):
        held[assignment.person_id].append(assignment)
    return held


def spread(counts):
    return max(counts) - min(counts)


def ask(sequence, person, count):
    for question, sql in QUESTIONS[:count]:
        solo.solo_turn_add(dialogue=sequence, person=person, question=question, sql=sql, request_id=question[:40])


def end(sequence, person):
    room.dialogue_post(dialogue=sequence, person=person, message={"id": f"end-{sequence.pk}", "type": "end"})


# --- Dealing -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [10, 11, 12])
def test_free_sequences_are_dealt_evenly_over_a_spread_of_databases(ada, team, databases, count):
    made = deal(ada, team[:3], databases, count=count)
    held = held_by(made)
    assert sorted(held) == sorted(person.pk for person in team[:3])
    assert spread([len(items) for items in held.values()]) <= 1
    assert sum(len(items) for items in held.values()) == count
    for items in held.values():
        per_database = Counter(item.database_id for item in items)
        assert len(per_database) == len(databases)  # everyone writes on every database
    for database in databases:
        # and every database's items are shared out evenly too
        assert spread([sum(item.database_id == database.pk for item in items) for items in held.values()]) <= 1
    assert all(item.goal_id is None for items in held.values() for item in items)


def test_goals_go_to_one_person_each_and_are_not_dealt_again(ada, team, databases, goals):
    first = deal(ada, team[:3], databases, goals=WorkDeal.Goals.DATABASES, count=9)
    dealt = list(first.assignments.values_list("goal_id", flat=True))
    assert len(dealt) == len(set(dealt)) == 9
    assert {Goal.objects.get(pk=pk).database_id for pk in dealt} == {database.pk for database in databases}
    assert spread(list(Counter(first.assignments.values_list("person_id", flat=True)).values())) == 0

    # A goal someone finished a sequence towards is done: it is not dealt either.
    free = [goal for goal in goals if goal.pk not in dealt]
    finished = Dialogue.objects.create(
        database=free[0].database, goal=free[0], worker=team[3], expert=team[3], mode="solo", status="completed"
    )
    second = deal(ada, team[1:], databases, goals=WorkDeal.Goals.DATABASES, count=10, name="Week 49")
    again = list(second.assignments.values_list("goal_id", flat=True))
    assert sorted(again) == sorted(goal.pk for goal in free[1:])
    assert finished.goal_id not in again
    assert second.note == "Only 2 of the 10 goals asked for were free to deal (none is dealt twice)."
    with pytest.raises(ValidationError) as refused:
        deal(ada, team, databases, goals=WorkDeal.Goals.DATABASES, name="Week 50")
    assert "No goal is free" in str(refused.value)


def test_double_annotation_gives_each_item_to_exactly_two_different_people(ada, team, databases, goals):
    made = deal(ada, team[:3], databases, goals=WorkDeal.Goals.DATABASES, count=7, double=True)
    by_item = defaultdict(list)
    for number, person, goal in made.assignments.values_list("item", "person_id", "goal_id"):
        by_item[number].append((person, goal))
    assert len(by_item) == 7
    for copies in by_item.values():
        assert len(copies) == 2 and copies[0][0] != copies[1][0] and copies[0][1] == copies[1][1]
    assert spread(list(Counter(made.assignments.values_list("person_id", flat=True)).values())) <= 1
    single = deal(ada, team[:3], databases, count=6, name="single")
    assert Counter(Counter(single.assignments.values_list("item", flat=True)).values()) == {1: 6}


def test_each_sequence_minimum_is_drawn_from_the_range_and_the_seed_deals_the_same_again(ada, team, databases):
    def dealt(made):
        rows = made.assignments.order_by("item").values_list("item", "person__username", "database__db_id")
        return list(rows), list(made.assignments.order_by("item").values_list("min_questions", flat=True))

    options = dict(count=30, min_questions_low=3, min_questions_high=5)
    first, minima = dealt(deal(ada, team, databases, seed=2026, name="a", **options))
    again, minima_again = dealt(deal(ada, team, databases, seed=2026, name="b", **options))
    other, minima_other = dealt(deal(ada, team, databases, seed=2027, name="c", **options))
    assert (first, minima) == (again, minima_again)
    assert set(minima) == {3, 4, 5}  # CHASE's 3 to 5, each drawn
    assert (first, minima) != (other, minima_other)
    assert deal(ada, team, databases, name="d").min_questions_low == 3  # the default range is CHASE's
    drawn = deal(ada, team, databases, seed=None, name="e")
    assert drawn.seed is not None  # a seed is drawn when none is given, and kept to deal the same again


def test_refusals_say_which_field(ada, team, alice, databases, settings):
    cases = [
        (dict(people=[team[0], alice]), "people"),
        (dict(people=[team[0]], double=True), "double"),
        (dict(kind=QUERY_FIRST, double=True), "double"),
        (dict(kind=QUERY_FIRST, goals=WorkDeal.Goals.DATABASES), "goals"),
        (dict(goals=WorkDeal.Goals.CAMPAIGN), "campaign"),
        (dict(min_questions_low=2, min_questions_high=4), "min_questions_low"),
        (dict(min_questions_low=5, min_questions_high=4), "min_questions_low"),
        (dict(count=0), "count"),
        (dict(databases=[]), "databases"),
    ]
    for options, field in cases:
        arguments = {"people": team, "databases": databases, **options}
        with pytest.raises(ValidationError) as refused:
            deal(ada, **arguments)
        assert field in refused.value.message_dict, (options, refused.value.message_dict)
    assert not WorkDeal.objects.exists()


# --- An item begun, its minimum, done ------------------------------------------------------------------------------


def test_a_dealt_sequence_cannot_end_below_its_minimum_and_is_done_when_finished(ada, erin, databases, settings):
    settings.SOLO_MIN_QUESTIONS = 3
    dorm = next(database for database in databases if database.db_id == "dorm_demo")
    made = deal(ada, [erin], [dorm], count=1, min_questions_low=4, min_questions_high=4)
    (assignment,) = selectors.assigned_to(erin, SOLO)
    assert assignment.min_questions == 4 and assignment.state == "open"

    sequence = assignment_start(assignment=assignment, person=erin)
    assert assignment.state == "started" and assignment.dialogue_id == sequence.pk
    assert assignment_start(assignment=assignment, person=erin) == sequence  # begun once; "Continue" comes back
    assert sequence.min_questions == 4
    ask(sequence, erin, 3)
    with pytest.raises(DialogueError) as refused:
        end(sequence, erin)
    assert refused.value.code == "too_early" and "1 more question" in refused.value.message
    assert solo.solo_create(expert=erin, database=dorm).min_questions == 3  # a sequence of nobody's deal: as before
    assignment.refresh_from_db()
    assert assignment.state == "started"

    ask(sequence, erin, 4)
    end(sequence, erin)
    assignment.refresh_from_db()
    assert assignment.state == "done" and assignment.done_at is not None
    assert selectors.assigned_to(erin, SOLO) == []
    (row,) = selectors.deal_progress(made)
    assert (row.assigned, row.started, row.done, row.done_percent) == (1, 0, 1, 100)


def test_someone_elses_item_is_not_theirs_to_begin(ada, team, databases):
    deal(ada, team[:2], databases, count=2)
    theirs = WorkAssignment.objects.exclude(person=team[0]).first()
    with pytest.raises(DialogueError) as refused:
        assignment_start(assignment=theirs, person=team[0])
    assert refused.value.code == "forbidden"
    assert WorkAssignment.objects.get(pk=theirs.pk).state == "open"


def test_a_dealt_goal_is_written_by_its_holder_only_and_done_when_written(ada, erin, team, databases):
    dorm = next(database for database in databases if database.db_id == "dorm_demo")
    (goal,) = sampled_goals(dorm)
    deal(ada, [erin], [dorm], kind=QUERY_FIRST, count=5)
    (assignment,) = selectors.assigned_to(erin, QUERY_FIRST)
    assert assignment.goal_id == goal.pk
    ezra = team[1]
    assert not goals_to_write(ezra).filter(pk=goal.pk).exists()  # dealt to Erin: not offered to anyone else
    with pytest.raises(DialogueError):
        query_first.query_first_open(person=ezra, goal=goal)

    item = assignment_start(assignment=assignment, person=erin)
    query_first.query_first_write(item=item, person=erin, question="Which students live in Harbor View Hall?")
    assignment.refresh_from_db()
    assert assignment.state == "done" and assignment.query_first_item_id == item.pk


def test_a_goal_someone_is_writing_is_not_dealt(ada, erin, team, databases):
    dorm = next(database for database in databases if database.db_id == "dorm_demo")
    (goal,) = sampled_goals(dorm)
    query_first.query_first_open(person=team[1], goal=goal)
    with pytest.raises(ValidationError) as refused:
        deal(ada, [erin], [dorm], kind=QUERY_FIRST, count=1)
    assert "No goal is free" in str(refused.value)


def test_a_dealt_goal_begun_from_the_list_of_every_goal_and_skipped_ends_skipped(ada, erin, databases):
    dorm = next(database for database in databases if database.db_id == "dorm_demo")
    (goal,) = sampled_goals(dorm)
    deal(ada, [erin], [dorm], kind=QUERY_FIRST, count=1)
    item = query_first.query_first_open(person=erin, goal=goal)
    query_first.query_first_skip(item=item, person=erin, reason="The filter's value names no dorm.")
    assignment = WorkAssignment.objects.get(goal=goal)
    assert assignment.state == "skipped" and assignment.started_at == item.opened_at
    assert goals_to_write(erin).count() == 0


# --- Someone leaves --------------------------------------------------------------------------------------------------


def test_re_dealing_moves_only_open_items_to_the_others_evenly_and_is_audited(ada, team, databases, settings):
    settings.SOLO_MIN_QUESTIONS = 1
    made = deal(ada, team, databases, count=14, min_questions_low=1, min_questions_high=1)
    leaver = team[0]
    mine = list(made.assignments.filter(person=leaver).order_by("item"))
    assert len(mine) in (3, 4)
    dorm_items = [item for item in mine if item.database.db_id == "dorm_demo"]
    finished = dorm_items[0]
    sequence = assignment_start(assignment=finished, person=leaver)
    ask(sequence, leaver, 1)
    end(sequence, leaver)
    begun = next(item for item in mine if item.pk != finished.pk)
    left_unfinished = assignment_start(assignment=begun, person=leaver)

    moved = deal_member_remove(deal=made, person=leaver, by=ada)

    assert len(moved) == len(mine) - 1
    assert WorkAssignment.objects.get(pk=finished.pk).state == "done"  # done work stays theirs
    for old in WorkAssignment.objects.filter(person=leaver).exclude(pk=finished.pk):
        assert (old.state, old.moved_by, old.moved_at is not None) == ("moved", ada, True)
        assert old.moved_to.item == old.item and old.moved_to.person != leaver and old.moved_to.state == "open"
        assert old.moved_to.min_questions == old.min_questions and old.moved_to.database_id == old.database_id
    left_unfinished.refresh_from_db()
    assert left_unfinished.status == DialogueStatus.ABANDONED  # closed: the item is the new holder's alone
    assert left_unfinished.events.filter(kind="end", author=ada).exists()
    held = held_by(made)
    assert spread([len(held[person.pk]) for person in team[1:]]) <= 1
    assert sum(len(items) for items in held.values()) == 14
    member = WorkDealMember.objects.get(deal=made, person=leaver)
    assert member.removed_by == ada and member.removed_at is not None
    history = selectors.deal_history(made)
    assert history[-1]["person"] == leaver and sum(n for _, n in history[-1]["moved"]) == len(moved)

    with pytest.raises(DialogueError) as again:
        deal_member_remove(deal=made, person=leaver, by=ada)
    assert again.value.code == "closed"


def test_re_dealing_a_begun_goal_removes_the_leavers_unwritten_phase_one(ada, team, databases):
    dorm = next(database for database in databases if database.db_id == "dorm_demo")
    (goal,) = sampled_goals(dorm)
    erin, ezra = team[:2]
    made = deal(ada, [erin, ezra], [dorm], kind=QUERY_FIRST, count=1)
    holder, other = (erin, ezra) if WorkAssignment.objects.get(goal=goal).person == erin else (ezra, erin)
    item = assignment_start(assignment=WorkAssignment.objects.get(goal=goal), person=holder)
    deal_member_remove(deal=made, person=holder, by=ada)
    assert not QueryFirstItem.objects.filter(pk=item.pk).exists()
    (taken,) = selectors.assigned_to(other, QUERY_FIRST)
    assert taken.goal_id == goal.pk
    assert goals_to_write(other).filter(pk=goal.pk).exists()
    assert not goals_to_write(holder).filter(pk=goal.pk).exists()


def test_a_double_item_never_goes_twice_to_one_person_when_re_dealt(ada, team, databases):
    made = deal(ada, team[:3], databases, count=6, double=True)
    moved = deal_member_remove(deal=made, person=team[0], by=ada)
    assert len(moved) == 4  # each to the one of the two others who does not hold its other copy
    for number in range(1, 7):
        people = list(made.assignments.filter(item=number, state__in=HELD).values_list("person_id", flat=True))
        assert len(people) == 2 and len(set(people)) == 2, number

    # With two people, the one left holds every other copy already: the leaver's copies go to nobody.
    pair = deal(ada, team[:2], databases, count=3, double=True, name="pair")
    assert deal_member_remove(deal=pair, person=team[0], by=ada) == []
    assert pair.assignments.filter(person=team[0], state="moved", moved_to=None).count() == 3
    assert selectors.deal_history(pair)[-1]["moved"] == [("nobody (everyone left holds its other copy)", 3)]


def test_the_last_member_with_open_items_cannot_leave(ada, erin, databases):
    made = deal(ada, [erin], databases, count=2)
    with pytest.raises(DialogueError) as refused:
        deal_member_remove(deal=made, person=erin, by=ada)
    assert refused.value.code == "invalid"
    assert WorkDealMember.objects.get(deal=made, person=erin).removed_at is None


# --- Who may deal ----------------------------------------------------------------------------------------------------


def test_only_an_admin_who_manages_campaigns_deals_and_re_deals(ada, erin, rita, team, databases):
    for person in (erin, rita):
        with pytest.raises(DialogueError) as refused:
            deal(person, team, databases)
        assert refused.value.code == "forbidden"
    made = deal(ada, team, databases)
    with pytest.raises(DialogueError) as refused:
        deal_member_remove(deal=made, person=team[1], by=erin)
    assert refused.value.code == "forbidden"


def test_the_pages_walk_the_permission_matrix(client, ada, erin, team, databases):
    made = deal(ada, team, databases)
    pages = [reverse("dialogs:deal_list"), reverse("dialogs:deal_new"), reverse("dialogs:deal_detail", args=[made.pk])]
    for url in pages:
        assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(erin)
    for url in pages:
        assert client.get(url).status_code == 403
    leave = reverse("dialogs:deal_member_leave", args=[made.pk])
    assert client.post(leave, {"person": team[1].pk}).status_code == 403
    client.force_login(ada)
    for url in pages:
        assert client.get(url).status_code == 200
    response = client.post(leave, {"person": team[1].pk})
    assert response.status_code == 302 and WorkDealMember.objects.get(deal=made, person=team[1]).removed_by == ada


def test_the_admin_deals_from_the_form_and_the_expert_begins_from_assigned_to_you(client, ada, erin, databases):
    client.force_login(ada)
    form = {
        "name": "Week 48",
        "kind": "solo",
        "people": [erin.pk],
        "databases": ["dorm_demo"],
        "goals": "none",
        "count": 2,
        "seed": 5,
        "min_questions_low": 4,
        "min_questions_high": 4,
    }
    response = client.post(reverse("dialogs:deal_new"), form)
    made = WorkDeal.objects.get()
    assert response.status_code == 302 and response.url == reverse("dialogs:deal_detail", args=[made.pk])
    assert client.post(reverse("dialogs:deal_new"), {**form, "min_questions_low": 9}).status_code == 400

    client.force_login(erin)
    page = client.get(reverse("dialogs:solo_home")).content.decode()
    assert "Assigned to you" in page and page.count("at least 4 questions") == 2
    first = made.assignments.order_by("item").first()
    response = client.post(reverse("dialogs:assignment_begin", args=[first.pk]))
    first.refresh_from_db()
    assert response.url == reverse("dialogs:solo", args=[first.dialogue_id])
    assert "0 of 4 questions" in client.get(response.url).content.decode()


def test_the_progress_page_reads_in_a_few_queries_whatever_the_deal(ada, team, databases, django_assert_num_queries):
    made = deal(ada, team, databases, count=40)
    with django_assert_num_queries(3):
        rows = selectors.deal_progress(made)
    assert sorted(row.assigned for row in rows) == [10, 10, 10, 10]
