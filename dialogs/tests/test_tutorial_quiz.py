"""The tutorial's quiz: a bank of questions in a file an admin extends, each worker's own shuffled draw, a few tries
before a cool-down kept per worker in the database, and a broken file that never shows a worker an error page."""

import json
import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotation.people.services import person_create
from dialogs import lobby
from dialogs.models import QuizState
from dialogs.tutorial import LETTERS, QuizBankError, quiz_bank, quiz_draw, quiz_items

pytestmark = pytest.mark.django_db


@pytest.fixture
def wanda(db):
    person, _ = person_create(username="wanda", role="worker", password="correct-horse-battery")
    return person


def right_answers(draw: list[dict]) -> dict:
    return {entry["id"]: LETTERS[entry["order"].index(0)] for entry in draw}


def wrong_answers(draw: list[dict]) -> dict:
    return {entry["id"]: LETTERS[entry["order"].index(1)] for entry in draw}


def test_the_bank_holds_at_least_six_questions_and_each_draw_shuffles_their_choices(settings):
    bank = quiz_bank()
    assert len(bank) >= 6 and len({question.id for question in bank}) == len(bank)
    rng = random.Random(7)
    draws = [quiz_draw(rng) for _ in range(40)]
    assert all(len(draw) == settings.QUIZ_QUESTIONS == len({e["id"] for e in draw}) for draw in draws)
    # The right choice is not always the same letter, and every question of the bank is asked sometimes.
    assert len({entry["order"].index(0) for draw in draws for entry in draw}) > 1
    assert {entry["id"] for draw in draws for entry in draw} == {question.id for question in bank}


def test_wrong_tries_end_in_a_cool_down_kept_in_the_database(wanda, settings):
    settings.QUIZ_TRIES, settings.QUIZ_COOLDOWN_MINUTES = 3, 15
    draw = quiz_draw()
    first = lobby.worker_quiz_answer(person=wanda, draw=draw, answers=wrong_answers(draw))
    assert (first.passed, first.wrong, first.tries_left, first.cooldown_until) == (False, len(draw), 2, None)
    lobby.worker_quiz_answer(person=wanda, draw=draw, answers={})
    third = lobby.worker_quiz_answer(person=wanda, draw=draw, answers=wrong_answers(draw))
    assert third.tries_left == 0 and third.cooldown_until > timezone.now() + timedelta(minutes=14)
    # In the cool-down even the right answers are not checked.
    held = lobby.worker_quiz_answer(person=wanda, draw=draw, answers=right_answers(draw))
    assert not held.passed and held.cooldown_until == third.cooldown_until
    wanda.refresh_from_db()
    assert wanda.tutorial_passed_at is None
    # After it, a fresh set of tries; the right answers pass and the count starts again.
    QuizState.objects.filter(person=wanda).update(cooldown_until=timezone.now() - timedelta(seconds=1))
    assert lobby.worker_quiz_answer(person=wanda, draw=draw, answers=wrong_answers(draw)).tries_left == 2
    assert lobby.worker_quiz_answer(person=wanda, draw=draw, answers=right_answers(draw)).passed
    wanda.refresh_from_db()
    assert wanda.tutorial_passed_at is not None
    assert QuizState.objects.get(person=wanda).wrong_tries == 0


def test_the_page_keeps_the_choices_and_says_what_failed_next_to_the_button(client, wanda):
    client.force_login(wanda)
    page = client.get(reverse("dialogs:tutorial"))
    draw = client.session["quiz_draw"]
    assert [item["name"] for item in page.context["quiz"]] == [entry["id"] for entry in draw]
    answers = {**right_answers(draw), draw[0]["id"]: wrong_answers(draw)[draw[0]["id"]]}
    failed = client.post(reverse("dialogs:tutorial"), answers)
    html = failed.content.decode()
    assert failed.status_code == 200 and "1 of 3 answers is" in html and "2 tries left" in html
    # Every choice made is still checked, and the message sits after the questions, just above the button.
    for name, letter in answers.items():
        assert re.search(rf'name="{name}" value="{letter}" required checked', html)
    assert html.index('data-question="' + draw[-1]["id"]) < html.index("quiz-failed") < html.index("Check my answers")
    assert 'action="#quiz-result"' in html
    # The same draw after a reload: the worker answers the questions they read.
    assert client.session["quiz_draw"] == draw


def test_the_cool_down_holds_in_a_new_session_and_passing_opens_the_lobby(client, wanda, settings):
    settings.QUIZ_TRIES = 1
    client.force_login(wanda)
    client.get(reverse("dialogs:tutorial"))
    draw = client.session["quiz_draw"]
    held = client.post(reverse("dialogs:tutorial"), wrong_answers(draw))
    assert "quiz opens again in" in held.content.decode() and held.context["quiz"] is None
    client.logout()
    client.force_login(wanda)  # a new session, no cookie of the old one: still cooling down
    again = client.get(reverse("dialogs:tutorial"))
    assert "quiz opens again in" in again.content.decode() and "Check my answers" not in again.content.decode()
    QuizState.objects.filter(person=wanda).update(cooldown_until=None, wrong_tries=0)
    client.get(reverse("dialogs:tutorial"))
    draw = client.session["quiz_draw"]
    passed = client.post(reverse("dialogs:tutorial"), right_answers(draw))
    assert passed.status_code == 302 and passed.url == reverse("dialogs:worker_home") + "?join=1"


@pytest.mark.parametrize(
    "content, says",
    [
        ("{not json", "is not valid JSON"),
        (json.dumps({"questions": "none"}), '"questions" list'),
        (json.dumps({"questions": [{"id": "a", "question": "Q?", "right": "x", "wrong": ["x"]}]}), "the same text"),
        (json.dumps({"questions": [{"id": "bad id", "question": "Q?", "right": "x", "wrong": ["y"]}]}), "id must be"),
        (json.dumps({"questions": [{"id": "a", "question": "Q?", "right": "x", "wrong": ["y"]}]}), "QUIZ_QUESTIONS=3"),
    ],
)
def test_a_bad_quiz_file_is_named_clearly_and_shows_the_worker_a_message_not_an_error(
    client, wanda, settings, tmp_path, content, says, caplog
):
    bad = tmp_path / "quiz.json"
    bad.write_text(content, encoding="utf-8")
    settings.QUIZ_FILE = str(bad)
    with pytest.raises(QuizBankError, match=re.escape(says)):
        quiz_bank()
    client.force_login(wanda)
    page = client.get(reverse("dialogs:tutorial"))
    assert page.status_code == 503 and "The quiz cannot be shown right now" in page.content.decode()
    assert says in caplog.text  # logged for the admins, with the reason
    assert QuizState.objects.count() == 0


def test_a_draw_the_bank_no_longer_fits_is_drawn_again(client, wanda):
    assert quiz_items([{"id": "no-such-question", "order": [0, 1, 2]}]) is None
    client.force_login(wanda)
    session = client.session
    session["quiz_draw"] = [{"id": "no-such-question", "order": [0, 1, 2]}]
    session.save()
    page = client.post(reverse("dialogs:tutorial"), {"no-such-question": "a"})
    assert page.status_code == 200 and all(item["name"] != "no-such-question" for item in page.context["quiz"])
    assert "did not count as a try" in page.content.decode() and not QuizState.objects.filter(person=wanda).exists()


def test_the_chinese_bank_holds_the_same_questions_written_in_chinese():
    """A bank per language (docs/i18n.md): the same ids and numbers of choices, so a draw reads in either language."""
    from dialogs.tutorial import bank_path, quiz_banks_agree

    english, chinese = quiz_bank("en"), quiz_bank("zh-hans")
    assert bank_path("zh-hans").name == "quiz.zh-hans.json"
    assert [(q.id, len(q.choices)) for q in english] == [(q.id, len(q.choices)) for q in chinese]
    assert all(re.search(r"[\u4e00-\u9fff]", q.question + q.right) for q in chinese)
    quiz_banks_agree()


def test_a_draw_shows_in_the_page_language_and_a_bank_that_differs_is_refused(settings, tmp_path):
    from django.utils import translation

    from dialogs.tutorial import quiz_banks_agree

    draw = quiz_draw(random.Random(3))
    with translation.override("zh-hans"):
        shown = quiz_items(draw)
    assert shown is not None and all(re.search(r"[\u4e00-\u9fff]", item["question"]) for item in shown)
    english = json.loads((settings.BASE_DIR / "dialogs" / "quiz.json").read_text())
    (tmp_path / "quiz.json").write_text(json.dumps(english))
    english["questions"].pop()
    (tmp_path / "quiz.zh-hans.json").write_text(json.dumps(english))
    settings.QUIZ_FILE = str(tmp_path / "quiz.json")
    with pytest.raises(QuizBankError, match="reach-the-goal"):
        quiz_banks_agree()
