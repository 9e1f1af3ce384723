"""The worker and expert quality pages: who may see them, what they show, and that a crowd does not cost queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotation.models import BlockRecord
from annotation.people.services import person_create, person_set_blocked
from review.models import WorkerQuality
from review.passes import services as passes
from review.tests.conftest import reviewer

pytestmark = pytest.mark.django_db

PAGES = ["review:worker_quality", "review:expert_quality"]


@pytest.mark.parametrize("name", PAGES)
def test_the_permission_matrix(client, alice, erin, rita, ada, mallory, name):
    url = reverse(name)
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    for person in (alice, erin, rita, mallory):
        client.force_login(person)
        assert client.get(url).status_code == 403, person.username
    client.force_login(ada)
    assert client.get(url).status_code == 200


def _crowd(count: int, start: int, admin) -> None:
    """`count` workers with a profile each; every other one blocked by a rule, then unblocked by the admin."""
    for number in range(start, start + count):
        worker, _ = person_create(username=f"w{number:03}", role="worker", password="correct-horse-battery")
        WorkerQuality.objects.create(
            worker=worker, dialogues=2, questions=8, dropped_turns=number % 3, quality=50 + number
        )
        if number % 2:
            person_set_blocked(person=worker, blocked=True, reason="test", rule="drop_rate", evidence=[number])
            person_set_blocked(person=worker, blocked=False, reason="fine after all", by=admin)


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_worker_page_costs_the_same_queries_for_a_crowd(client, ada, django_assert_max_num_queries):
    client.force_login(ada)
    url = reverse("review:worker_quality")
    _crowd(3, 0, ada)
    few = _queries(client, url)
    _crowd(40, 3, ada)
    assert _queries(client, url) == few
    with django_assert_max_num_queries(8):
        client.get(url)


def test_the_people_page_costs_the_same_queries_for_a_crowd(client, ada):
    client.force_login(ada)
    url = reverse("annotation:people")
    _crowd(3, 0, ada)
    few = _queries(client, url)
    _crowd(40, 3, ada)
    assert _queries(client, url) == few


def test_workers_are_listed_lowest_quality_first_with_signals_and_history(client, ada):
    _crowd(3, 0, ada)
    person_create(username="newcomer", role="worker", password="correct-horse-battery")
    client.force_login(ada)
    page = client.get(reverse("review:worker_quality")).content.decode()
    order = [page.index(f'data-testid="worker-{name}"') for name in ("w000", "w001", "w002", "newcomer")]
    assert order == sorted(order)  # 50, 51, 52, then nobody's profile yet
    assert "No dialogue yet." in page
    assert "1 of 8 (12%)" in page  # w001's DROP turns per question, beside the score
    assert "rule drop_rate" in page and "fine after all" in page and "by ada" in page
    best_first = client.get(reverse("review:worker_quality"), {"sort": "-quality"}).content.decode()
    assert best_first.index('data-testid="worker-w002"') < best_first.index('data-testid="worker-w000"')


def test_an_admin_blocks_from_the_quality_page_and_comes_back_to_it(client, ada, alice):
    client.force_login(ada)
    back = reverse("review:worker_quality") + "?sort=-quality"
    response = client.post(
        reverse("annotation:person_block", args=[alice.pk]), {"blocked": "1", "reason": "rude", "next": back}
    )
    assert response.status_code == 302 and response["Location"] == back
    record = BlockRecord.objects.get(person=alice)
    assert (record.blocked, record.by, record.reason, record.rule) == (True, ada, "rude", "")


def test_the_expert_page_shows_what_review_changed_in_each_experts_dialogues(
    client, ada, open_room, rita, django_assert_max_num_queries
):
    room = open_room("dorm_demo")
    first = room.ask("How many students are there?")
    room.answer(first, "SELECT count(*) FROM student")
    second = room.ask("And their last names?")
    room.answer(second, "SELECT last_name FROM student")
    room.reply(room.ask("Thanks!"), "You are welcome.")
    dialogue = room.end(approve=False)
    passes.review_sync()
    passes.review_claim(reviewer=rita, dialogue=dialogue)
    passes.review_correct(reviewer=rita, dialogue=dialogue, turn=first, field="user_acts", value=["INFER_SQL"])
    passes.review_decide(reviewer=rita, dialogue=dialogue, approve=True)
    other = reviewer("second")
    passes.review_claim(reviewer=other, dialogue=dialogue)
    passes.review_decide(reviewer=other, dialogue=dialogue, approve=True)

    client.force_login(ada)
    with django_assert_max_num_queries(12):  # the agreement figures are folded once, in a fixed number of queries
        page = client.get(reverse("review:expert_quality")).content.decode()
    row = page[page.index('data-testid="expert-erin"') :]
    row = row[: row.index("</tr>")]
    # One dialogue reviewed, 3 turns, the acts of 1 changed; nothing else; not rejected.
    assert ">1<" in row and ">3<" in row and ">33%<" in row and "0 (0%)" in row
