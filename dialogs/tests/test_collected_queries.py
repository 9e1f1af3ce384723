"""The queries collected on a database shape its test suite (annotation.suites.builds, docs/test_suites.md): the runs
that worked in ended dialogues join the goals' SQL, and their number rebuilds the suite each time it doubles."""

import pytest

from annotation.suites.builds import collected_queries, suite_fingerprint, suite_queries
from dialogs.models import DialogueStatus
from dialogs.solo import solo_create, solo_turn_add


def collect(database, expert, sqls, *, end=True):
    dialogue = solo_create(expert=expert, database=database)
    for number, sql in enumerate(sqls):
        solo_turn_add(
            dialogue=dialogue, person=expert, question=f"Question {number}?", sql=sql, request_id=f"q{number}"
        )
    if end:
        type(dialogue).objects.filter(pk=dialogue.pk).update(status=DialogueStatus.COMPLETED)
    return dialogue


@pytest.mark.django_db
def test_the_runs_of_ended_dialogues_join_the_goals_and_a_suite_is_rebuilt_when_they_double(demo_databases, erin):
    dorm = demo_databases["dorm_demo"]
    goals = set(dorm.goals.exclude(sql="").values_list("sql", flat=True))
    before = suite_fingerprint(dorm)
    collect(dorm, erin, ["SELECT count(*) FROM dorm WHERE student_capacity > 100"], end=False)
    assert collected_queries(dorm) == []  # a dialogue still open collected nothing yet
    assert suite_fingerprint(dorm) == before

    collect(dorm, erin, ["SELECT count(*) FROM dorm WHERE student_capacity > 100", "SELECT max(age) FROM student"])
    assert collected_queries(dorm) == [
        "SELECT count(*) FROM dorm WHERE student_capacity > 100",
        "SELECT max(age) FROM student",
    ]
    assert set(suite_queries(dorm)) == goals | set(collected_queries(dorm))
    two = suite_fingerprint(dorm)
    assert two != before  # none -> two

    collect(dorm, erin, ["SELECT min(age) FROM student"])
    assert len(collected_queries(dorm)) == 3 and suite_fingerprint(dorm) == two  # 2 -> 3: the same power of two
    collect(dorm, erin, ["SELECT avg(age) FROM student"])
    assert suite_fingerprint(dorm) != two  # 4: doubled


@pytest.mark.django_db
def test_a_run_that_failed_or_another_databases_run_is_not_collected(demo_databases, erin):
    dorm, library = demo_databases["dorm_demo"], demo_databases["library_demo"]
    dialogue = collect(dorm, erin, ["SELECT count(*) FROM student"])
    with pytest.raises(Exception):  # noqa: B017 - the solo path refuses a failing SQL after storing its run
        solo_turn_add(
            dialogue=dialogue, person=erin, question="Broken?", sql="SELECT nope FROM student", request_id="x"
        )
    assert collected_queries(dorm) == ["SELECT count(*) FROM student"]
    assert collected_queries(library) == []
