"""Review checks queries on the test suite: a corrected query against the original, the compare box, the agreement
figures' execution match, and final validation's warning of a copied query (review/passes/query_checks.py)."""

import json

import pytest
from django.urls import reverse

from review.models import ReviewStage, ValidationWarning
from review.passes import services as passes
from review.passes.agreement import review_agreement
from review.passes.screen import review_screen
from review.passes.services import ReviewError
from review.records import dialogue_record_of
from review.tests.conftest import approve_in_review, reviewer
from tests.builders import HALF_AGE, suite_beside

pytestmark = pytest.mark.django_db

OLDER = "SELECT first_name FROM student WHERE age > 20"
OLDER_BY_CHANCE = "SELECT first_name FROM student WHERE age >= 21"  # the same rows while every age is whole


@pytest.fixture
def older(open_room):
    """A finished dialogue whose first turn is answered with OLDER, then a second question, then thanks."""
    room = open_room("dorm_demo")
    first = room.ask("Which students are older than twenty?")
    room.answer(first, OLDER)
    second = room.ask("How many students are there?")
    room.answer(second, "SELECT count(*) FROM student")
    thanks = room.ask("Thanks!")
    room.reply(thanks, "You are welcome.")
    return room.end(approve=False)


def _correct_first_query(dialogue, person, sql):
    passes.review_sync()
    passes.review_claim(reviewer=person, dialogue=dialogue)
    first = dialogue_record_of(dialogue).user_turns[0]
    passes.review_correct(reviewer=person, dialogue=dialogue, turn=first.seq, field="query", value=sql)
    return dialogue_record_of(dialogue).user_turns[0]


@pytest.fixture
def told_apart_on_the_suite(older, settings):
    """The kept suite tells OLDER from OLDER_BY_CHANCE: a comparison ends there (and at cutting its database down), so
    its time is only a ceiling, with room for a loaded machine (the suite's 0.3 s compared nothing on a slowed one)."""
    settings.SQL_COMPARE_SECONDS = 10.0
    suite_beside(older.database, HALF_AGE)


def test_a_corrected_query_that_agrees_only_on_the_original_is_different_on_the_suite(
    older, rita, told_apart_on_the_suite
):
    turn = _correct_first_query(older, rita, OLDER_BY_CHANCE)
    check = turn.corrections[-1].suite_check
    assert check["equivalent"] is False and check["checked_on"] == "suite" and check["checked_databases"] == 2
    counterexample = check["counterexample"]
    assert counterexample["database"] == "0001.sqlite"  # the suite's database, not the original
    assert counterexample["difference"] == {"kind": "rows", "only_in_a": [], "only_in_b": [[_half_aged(older)]]}
    # The screen shows the kept comparison with the database and both results, without running anything again.
    view = next(item for item in review_screen(older)["turns"] if item["index"] == 0)["suite_check"]
    assert view["equivalent"] is False and view["database"] == "0001.sqlite"
    assert [side["label"] for side in view["sides"]] == ["Corrected query", "Original query"]
    corrected, original = (side["table"] for side in view["sides"])
    assert original["row_count"] == corrected["row_count"] + 1 and len(original["rows"]) <= 20  # kept small


def _half_aged(dialogue) -> str:
    import sqlite3

    connection = sqlite3.connect(dialogue.database.path)
    [(name,)] = connection.execute("SELECT first_name FROM student ORDER BY student_id LIMIT 1").fetchall()
    connection.close()
    return name


def test_without_a_suite_a_correction_is_checked_on_the_original_and_a_search_and_says_so(older, rita, settings):
    # No difference exists, so the search runs its whole time: the suite's 0.3 s (conftest) built no database at all
    # on a loaded machine once; 2 s gives it room for at least one there.
    settings.SQL_COMPARE_SECONDS = 2.0
    # Ages are whole numbers (INTEGER): no database of this schema tells `age >= 21` from `age > 20`.
    turn = _correct_first_query(older, rita, OLDER_BY_CHANCE)
    check = turn.corrections[-1].suite_check
    assert check["equivalent"] is True and check["verdict"] == "no difference found"
    assert check["checked_databases"] == 1 and check["checked_on"] == "original" and check["searched_databases"] > 0
    view = review_screen(older)["turns"][0]["suite_check"]
    assert view["verdict"] == f"No difference found on {1 + check['searched_databases']:,} databases " + (
        f"(searched for {check['seconds']:g} s)"
    )
    assert view["where"].startswith("the original database (its test suite is not built yet), ")
    assert view["where"].endswith(" made for this pair")


def test_the_agreement_figures_execution_match_uses_the_kept_suite_check(older, rita, told_apart_on_the_suite):
    _correct_first_query(older, rita, OLDER_BY_CHANCE)  # the same rows on the original: a match there, not here
    passes.review_decide(reviewer=rita, dialogue=older, approve=True)
    other = reviewer("second")
    passes.review_claim(reviewer=other, dialogue=older)
    passes.review_decide(reviewer=other, dialogue=older, approve=True)
    pass_one = review_agreement()["passes"]["1"]
    assert pass_one["queries_corrected"] == 1 and pass_one["execution_match_share"] == 0.0
    assert pass_one["execution_match_by"] == {"suite": 1}


def test_a_correction_kept_without_a_check_is_matched_on_the_shown_result_as_before(older, rita, monkeypatch):
    monkeypatch.setattr(passes, "correction_suite_check", lambda **kwargs: None)  # as a log written before suites
    _correct_first_query(older, rita, OLDER_BY_CHANCE)
    passes.review_decide(reviewer=rita, dialogue=older, approve=True)
    other = reviewer("second")
    passes.review_claim(reviewer=other, dialogue=older)
    passes.review_decide(reviewer=other, dialogue=older, approve=True)
    pass_one = review_agreement()["passes"]["1"]
    assert pass_one["execution_match_share"] == 1.0 and pass_one["execution_match_by"] == {"result_table": 1}


# --- the compare box ------------------------------------------------------------------------------------------------


def _compare(client, dialogue, body):
    return client.post(
        reverse("review:compare", args=[dialogue.pk]), data=json.dumps(body), content_type="application/json"
    )


def test_the_compare_box_shows_a_database_where_the_reviewers_query_and_the_turns_differ(
    client, older, rita, told_apart_on_the_suite, settings
):
    first = dialogue_record_of(older).user_turns[0]
    client.force_login(rita)  # any reviewer may ask: nothing is stored, no claim is needed
    answer = _compare(client, older, {"turn": first.seq, "sql": OLDER_BY_CHANCE})
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["check"]["equivalent"] is False and data["check"]["counterexample"]["database"] == "0001.sqlite"
    assert "Different: here is a database where they differ" in data["html"] and "0001.sqlite" in data["html"]
    assert "Your query" in data["html"] and "The turn&#x27;s query" in data["html"]
    # No difference to find: this one searches for its whole time, and its kept suite must be compared within it (the
    # suite's 0.3 s compared none of its databases on a slowed machine): 2 s, as for the correction searched above.
    settings.SQL_COMPARE_SECONDS = 2.0
    same = _compare(client, older, {"turn": first.seq, "sql": "SELECT first_name FROM student WHERE 20 < age"})
    assert same.json()["check"]["equivalent"] is True
    html = same.json()["html"]
    assert "No difference found on" in html and "2 databases of the test suite, " in html and "Same meaning" not in html
    assert dialogue_record_of(older).corrections == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"turn": "first", "sql": OLDER}, "Send JSON with 'turn' and 'sql'"),
        ({"turn": 0}, "Send JSON with 'turn' and 'sql'"),
        ({"turn": 0, "sql": "   "}, "must not be empty"),
        ({"turn": 0, "sql": "SELECT nothing FROM nowhere"}, "Your query cannot be compared"),
        ({"turn": 99999, "sql": OLDER}, "There is no user turn #99999"),
        ({"turn": "thanks", "sql": OLDER}, "This turn has no query to compare with"),
    ],
)
def test_the_compare_box_refuses_bad_input_with_a_clear_message(client, older, rita, body, words, settings):
    # A query that fails is told at its first run on the original: a ceiling, so a slowed machine's budget does not
    # run out before that run (the suite's 0.3 s did, once slowed, and the box said 'no difference found').
    settings.SQL_COMPARE_SECONDS = 10.0
    turns = dialogue_record_of(older).user_turns
    if body.get("turn") == 0:
        body = {**body, "turn": turns[0].seq}
    if body.get("turn") == "thanks":
        body = {**body, "turn": turns[2].seq}
    client.force_login(rita)
    answer = _compare(client, older, body)
    assert answer.status_code == 400 and words in answer.json()["message"], answer.content


def test_a_persons_comparisons_share_a_time_per_minute_and_what_they_did_not_use_goes_back(
    client, older, rita, settings
):
    from review.passes.query_checks import compare_box_grant

    settings.SQL_COMPARE_SECONDS, settings.SQL_COMPARE_BOX_SECONDS_PER_MINUTE = 2.0, 3.0
    first = dialogue_record_of(older).user_turns[0]
    # Two comparisons at once: the first gets its 2 s, the second what is left of the minute's 3 s, a third nothing.
    assert compare_box_grant(rita)[1] == 2000 and compare_box_grant(rita)[1] == 1000
    client.force_login(rita)
    refused = _compare(client, older, {"turn": first.seq, "sql": OLDER})
    assert refused.status_code == 429 and refused.json()["error"] == "too_many"
    assert "used this minute's 3 s: try again in" in refused.json()["message"]
    other = reviewer("rose")  # the minute is Rita's own: another reviewer compares at once
    client.force_login(other)
    answer = _compare(client, older, {"turn": first.seq, "sql": "SELECT count(*) FROM student"})
    assert answer.status_code == 200 and answer.json()["check"]["equivalent"] is False
    # A comparison that finds its difference at once gives back the time it did not use.
    assert compare_box_grant(other)[1] == 2000


def test_the_compare_box_is_for_reviewers(client, older, alice, erin, rita):
    first = dialogue_record_of(older).user_turns[0]
    body = {"turn": first.seq, "sql": OLDER}
    answer = _compare(client, older, body)
    assert answer.status_code == 302 and "/login/" in answer["Location"]
    for person in (alice, erin):
        client.force_login(person)
        assert _compare(client, older, body).status_code == 403
    client.force_login(rita)
    assert _compare(client, older, body).status_code == 200
    assert client.get(reverse("review:compare", args=[older.pk])).status_code == 405


# --- final validation: a copied query for a new question ------------------------------------------------------------


@pytest.fixture
def copied(open_room):
    """A finished dialogue whose second question asks something new and is answered with a query meaning the same as
    the first's on the original database (OLDER_BY_CHANCE after OLDER)."""

    def make(second_acts=("INFORM_SQL",), second_text="And which of them are at least twenty-one?"):
        room = open_room("dorm_demo")
        first = room.ask("Which students are older than twenty?")
        room.answer(first, OLDER)
        second = room.ask(second_text)
        room.answer(second, OLDER_BY_CHANCE, acts=second_acts)
        return room.end(approve=False)

    return make


def test_final_validation_warns_of_a_copied_query_without_blocking_and_a_reviewer_clears_it(copied, erin):
    dialogue = copied()
    review = approve_in_review(dialogue)  # the warning does not block the approval
    [warning] = ValidationWarning.objects.filter(review=review)
    assert warning.kind == "copied_query" and warning.cleared_at is None
    second = dialogue_record_of(dialogue).user_turns[1]
    assert warning.turn == second.seq and warning.detail["index"] == 1 and warning.detail["previous_index"] == 0
    assert warning.detail["checked_on"] == "original" and warning.detail["sql"] == OLDER_BY_CHANCE
    assert review_screen(dialogue)["warnings"] == [warning]
    with pytest.raises(ReviewError) as refused:
        passes.validation_warning_clear(reviewer=erin, dialogue=dialogue, warning_id=warning.pk)
    assert refused.value.code == "not_allowed"  # the dialogue's own expert
    rose = reviewer("rose")
    passes.validation_warning_clear(reviewer=rose, dialogue=dialogue, warning_id=warning.pk)
    warning.refresh_from_db()
    assert warning.cleared_by == rose and warning.cleared_at is not None
    with pytest.raises(ReviewError):
        passes.validation_warning_clear(reviewer=rose, dialogue=dialogue, warning_id=warning.pk)
    # Validated again on the same queries, the cleared warning stays cleared: nobody is asked twice.
    passes.validation_warnings_record(review=review)
    assert list(ValidationWarning.objects.filter(review=review).values_list("cleared_by", flat=True)) == [rose.pk]


def test_on_the_suite_the_two_queries_differ_and_nothing_is_flagged(copied):
    dialogue = copied()
    suite_beside(dialogue.database, HALF_AGE)
    review = approve_in_review(dialogue)
    assert review.stage == ReviewStage.APPROVED and not ValidationWarning.objects.filter(review=review).exists()


@pytest.mark.parametrize(
    ("acts", "text"),
    [
        (("INFORM_SQL", "NEGATE"), "No, I meant those older than twenty."),  # a reply to the expert
        (("INFORM_SQL",), "Which students are older than twenty?"),  # the same question again
        (("THANK_YOU",), "Great, and which of them are at least twenty-one?"),  # not a question for SQL
    ],
)
def test_a_reply_or_a_repeat_with_the_same_query_is_no_warning(copied, acts, text):
    dialogue = copied(second_acts=acts, second_text=text)
    review = approve_in_review(dialogue)
    assert not ValidationWarning.objects.filter(review=review).exists()


def test_a_warning_that_no_longer_applies_goes_and_the_screen_clears_one_by_form(client, copied, rita):
    dialogue = copied()
    review = approve_in_review(dialogue)
    [warning] = ValidationWarning.objects.filter(review=review)
    client.force_login(rita)
    page = client.get(reverse("review:dialogue", args=[dialogue.pk])).content.decode()
    assert 'data-testid="validation-warnings"' in page and "was the query copied?" in page
    url = reverse("review:clear_warning", args=[dialogue.pk, warning.pk])
    assert client.post(url).status_code == 302
    warning.refresh_from_db()
    assert warning.cleared_by == rita
    assert "cleared by rita" in client.get(reverse("review:dialogue", args=[dialogue.pk])).content.decode()
    # An open warning whose query was corrected since is removed when validation runs again.
    warning.cleared_by, warning.cleared_at = None, None
    warning.save(update_fields=["cleared_by", "cleared_at"])
    from dialogs.log import correction_payload
    from dialogs.models import EventKind
    from dialogs.room import dialogue_record

    second = dialogue_record_of(dialogue).user_turns[1]
    payload = correction_payload(
        turn=second.seq, field="query", old=OLDER_BY_CHANCE, new="SELECT count(*) FROM student", review_pass=1
    )
    dialogue_record(dialogue=dialogue, author=rita, kind=EventKind.CORRECTION, payload=payload, role="reviewer")
    passes.validation_warnings_record(review=review)
    assert not ValidationWarning.objects.filter(review=review).exists()


def test_a_long_difference_shows_its_first_rows_and_how_many_more():
    from review.passes.query_checks import check_view

    rows = [[f"name {number}"] for number in range(8)]
    check = {
        "equivalent": False,
        "checked_databases": 1,
        "checked_on": "original",
        "counterexample": {
            "database": "original",
            "a": {"columns": ["first_name"], "rows": rows, "row_count": 8},
            "b": {"columns": ["first_name"], "rows": [], "row_count": 0},
            "difference": {"kind": "rows", "only_in_a": rows, "only_in_b": []},
        },
    }
    view = check_view(check, label_a="Your query", label_b="The turn's query")
    assert view["only_in_a"] == rows[:5] and view["only_in_a_more"] == 3 and view["only_in_b_more"] == 0
    assert not view["on_suite"] and view["database"] == "the original database"
