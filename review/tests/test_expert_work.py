"""An expert's reviewed work: the expert reads what each pass changed in their dialogues and why (reviewers named by
their pass only), an admin reads any expert's, and nobody else reads anyone's."""

import re

import pytest
from django.urls import reverse

from annotation.models import User
from annotation.people.services import person_create
from dialogs.models import Dialogue
from review.passes import services as passes
from review.quality import selectors
from review.records import dialogue_record_of
from review.tests.conftest import Room, reviewer

pytestmark = pytest.mark.django_db

OWN = reverse("expert_own_work")


@pytest.fixture
def ethan(db):
    """Ethan is another SQL expert."""
    return person_create(username="ethan", role="expert", password="correct-horse-battery")[0]


def collect(room: Room, question: str, sql: str) -> Dialogue:
    """A completed dialogue of one SQL question and a thank-you, not yet reviewed."""
    turn = room.ask(question)
    room.answer(turn, sql)
    room.reply(room.ask("Thanks!"), "You are welcome.")
    dialogue = room.end(approve=False)
    passes.review_sync()
    return dialogue


def first_turn(dialogue: Dialogue) -> int:
    return dialogue_record_of(dialogue).user_turns[0].seq


def corrected_then_rejected(dialogue: Dialogue, first, second) -> None:
    """Pass 1 (`first`) corrects the query and approves; pass 2 (`second`) corrects it again and rejects."""
    turn = first_turn(dialogue)
    passes.review_claim(reviewer=first, dialogue=dialogue)
    passes.review_correct(
        reviewer=first,
        dialogue=dialogue,
        turn=turn,
        field="query",
        value="SELECT count(*) FROM student WHERE age < 20",
        reason="the question asks for the young ones",
    )
    passes.review_decide(reviewer=first, dialogue=dialogue, approve=True)
    passes.review_claim(reviewer=second, dialogue=dialogue)
    passes.review_correct(
        reviewer=second,
        dialogue=dialogue,
        turn=turn,
        field="query",
        value="SELECT count(*) FROM student WHERE age <= 19",
        reason="same rows, plainer",
    )
    passes.review_decide(
        reviewer=second,
        dialogue=dialogue,
        approve=False,
        reason="other",
        fault="expert",
        note="The goal was about dorms.",
    )


def approved_without_change(dialogue: Dialogue) -> None:
    person = reviewer("reviewer1")
    passes.review_claim(reviewer=person, dialogue=dialogue)
    passes.review_decide(reviewer=person, dialogue=dialogue, approve=True)


@pytest.fixture
def reviewed(open_room, alice, ethan, rita):
    """Erin's dialogue corrected in both passes and rejected in pass 2; Ethan's corrected and approved in pass 1."""
    ravi = reviewer("ravi")
    erins = collect(open_room("dorm_demo"), "How many young students are there?", "SELECT count(*) FROM student")
    corrected_then_rejected(erins, rita, ravi)
    goal = erins.goal
    room = Room(Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=ethan))
    ethans = collect(room, "How many dorms are there?", "SELECT count(*) FROM dorm")
    passes.review_claim(reviewer=rita, dialogue=ethans)
    passes.review_correct(
        reviewer=rita,
        dialogue=ethans,
        turn=first_turn(ethans),
        field="query",
        value="SELECT count(dorm_id) FROM dorm",
        reason="ethan-only reason",
    )
    passes.review_decide(reviewer=rita, dialogue=ethans, approve=True)
    return erins, ethans


def page_of(client, person, url=OWN, **query) -> str:
    client.force_login(person)
    response = client.get(url, query)
    assert response.status_code == 200
    return response.content.decode()


def mentions(page: str, name: str) -> bool:
    return re.search(rf"\b{name}\b", page) is not None


def test_an_expert_sees_each_passs_correction_of_their_sql_and_the_rejection(client, erin, reviewed):
    erins, ethans = reviewed
    page = page_of(client, erin)
    article = page[page.index(f'data-testid="reviewed-{erins.pk}"') :]
    article = article[: article.index("</article>")]
    # Pass 1 replaced Erin's SQL (escaped, in <pre>) and said why; pass 2 replaced pass 1's.
    _, first, second = article.split('data-field="query"')
    assert '<pre class="mono sql">SELECT count(*) FROM student</pre>' in first and "as you left it" in first
    assert '<pre class="mono sql">SELECT count(*) FROM student WHERE age &lt; 20</pre>' in first
    assert "the question asks for the young ones" in first
    assert "as pass 1 left it" in second and "age &lt;= 19" in second and "same rows, plainer" in second
    # The decisions: approved in pass 1; rejected in pass 2 with the reason and the reviewer's note.
    assert re.search(r'data-testid="decision-1">Pass 1,.*?approved', article, re.S)
    decision = article[article.index('data-testid="decision-2"') :]
    assert "rejected" in decision and "Other (say why)" in decision and "The goal was about dorms." in decision
    # Reviewers stay anonymous to the expert; Ethan's dialogue is not Erin's business.
    assert not mentions(page, "rita") and not mentions(page, "ravi")
    assert f"reviewed-{ethans.pk}" not in page and "How many dorms" not in page and "ethan-only reason" not in page


def test_the_experts_figures_are_the_admins_row_for_them(client, erin, ada, reviewed):
    own = page_of(client, erin)
    admin = page_of(client, ada, reverse("review:expert_quality"))
    row = admin[admin.index('data-testid="expert-erin"') :]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row[: row.index("</tr>")], re.S)[:10]
    figures = own[own.index('data-testid="expert-figures"') :]
    mine = re.findall(r"<td[^>]*>(.*?)</td>", figures[: figures.index("</table>")], re.S)
    assert mine == cells
    # One dialogue ended and reviewed, two turns, the SQL of one changed (both passes: counted once), two queries
    # corrected (neither returns the rows the worker saw), rejected; never sent back to fix.
    assert mine == ["1", "1", "2", "0%", "50%", "0%", "0%", "2 · 0%", "1 (100%)", "0 · 0"]


def test_an_admin_opens_any_experts_page_and_sees_who_reviewed(client, ada, erin, ethan, reviewed):
    erins, ethans = reviewed
    page = page_of(client, ada, reverse("review:expert_work", args=[erin.pk]))
    assert f"reviewed-{erins.pk}" in page and f"reviewed-{ethans.pk}" not in page
    assert "Reviewed work of erin" in page and mentions(page, "rita") and mentions(page, "ravi")
    assert "as the expert left it" in page
    page = page_of(client, ada, reverse("review:expert_work", args=[ethan.pk]))
    assert f"reviewed-{ethans.pk}" in page and "ethan-only reason" in page and f"reviewed-{erins.pk}" not in page
    expert_list = page_of(client, ada, reverse("review:expert_quality"))
    assert reverse("review:expert_work", args=[ethan.pk]) in expert_list


def test_who_may_open_which_page(client, alice, erin, ethan, rita, ada, mallory):
    theirs = reverse("review:expert_work", args=[erin.pk])
    for url in (OWN, theirs):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    expected = {
        OWN: {alice: 403, mallory: 403, rita: 403, erin: 200, ethan: 200, ada: 200},
        # Only people.manage reads another expert's page: not a worker, a reviewer, nor another expert (nor the
        # expert themself by this address: theirs is the one above).
        theirs: {alice: 403, mallory: 403, rita: 403, erin: 403, ethan: 403, ada: 200},
    }
    for url, statuses in expected.items():
        for person, status in statuses.items():
            client.force_login(person)
            assert client.get(url).status_code == status, f"{person.username} on {url}"
    client.force_login(rita)
    refusal = client.get(OWN).content.decode()
    assert "Your role may not see what review changed in your own work as an expert." in refusal
    client.force_login(ada)
    assert client.get(reverse("review:expert_work", args=[alice.pk])).status_code == 404  # not an expert


def test_the_expert_desk_links_to_the_page(client, erin):
    assert f'href="{OWN}"' in page_of(client, erin, reverse("dialogs:expert_home"))


def test_newest_decision_first_paginated_in_a_fixed_number_of_queries(
    client, erin, open_room, monkeypatch, django_assert_max_num_queries
):
    monkeypatch.setattr(selectors, "EXPERT_WORK_PER_PAGE", 2)
    unreviewed = collect(open_room("dorm_demo"), "How many?", "SELECT count(*) FROM student")
    oldest = collect(open_room("dorm_demo"), "How many students?", "SELECT count(*) FROM student")
    approved_without_change(oldest)

    def queries() -> int:
        page_of(client, erin)  # the review figures are computed once, then cached until the review moves on
        with django_assert_max_num_queries(100) as captured:
            page_of(client, erin)
        return len(captured)

    one = queries()
    middle = collect(open_room("dorm_demo"), "Their last names?", "SELECT last_name FROM student")
    newest = collect(open_room("dorm_demo"), "The oldest one?", "SELECT last_name FROM student ORDER BY age DESC")
    approved_without_change(middle)
    approved_without_change(newest)
    assert queries() == one

    first = page_of(client, erin)
    assert first.index(f"reviewed-{newest.pk}") < first.index(f"reviewed-{middle.pk}")
    assert f"reviewed-{oldest.pk}" not in first and "Page 1 of 2 · 3 dialogues" in first
    second = page_of(client, erin, page=2)
    assert f"reviewed-{oldest.pk}" in second and "Review changed nothing in this dialogue." in second
    assert f"reviewed-{unreviewed.pk}" not in first + second  # waiting for pass 1: nothing decided yet
    assert User.objects.get(pk=erin.pk).dialogues_as_expert.count() == 4
