"""The live operations board: what its overview counts, who may see it, and its socket keeping up with changes."""

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from annotation.models import Database, Goal
from dialogs import lobby, room, selectors
from dialogs.models import Dialogue, DialogueStatus
from tests.builders import expert_named, worker_named
from tests.sockets import connect, receive_until, refused_with


def _room(number: int, database: Database, goal: Goal, questions: int = 1) -> Dialogue:
    worker, expert = worker_named(f"w{number}"), expert_named(f"x{number}")
    dialogue = Dialogue.objects.create(database=database, goal=goal, worker=worker, expert=expert, status="active")
    for index in range(questions):
        room.dialogue_post(
            dialogue=dialogue, person=worker, message={"id": f"q{index}", "type": "utterance", "text": "How many?"}
        )
    return dialogue


def _answer(dialogue: Dialogue, turn: int) -> None:
    """The expert labels, runs, shares and answers `turn`: a question that counts."""
    expert = dialogue.expert
    post = lambda **message: room.dialogue_post(dialogue=dialogue, person=expert, message=message)[0][0]  # noqa: E731
    post(id=f"a{turn}", type="user_acts", turn=turn, acts=["INFORM_SQL"])
    run = post(id=f"r{turn}", type="sql_run", turn=turn, sql="SELECT count(*) FROM student")
    post(id=f"s{turn}", type="share_result", turn=turn, run=run.seq)
    post(id=f"p{turn}", type="response", turn=turn, text="There are 12.", acts=["CONFIRM_SQL"])


@pytest.fixture
def dorm(demo_databases):
    from annotation.demo import demo_load

    demo_load()
    database = Database.objects.get(db_id="dorm_demo")
    return database, database.goals.first()


@pytest.mark.django_db
def test_the_overview_counts_waits_rooms_and_todays_outcomes(dorm):
    database, goal = dorm
    lobby.lobby_join(person=worker_named("waiting1"))
    lobby.lobby_join(person=expert_named("ready1"))
    busy = _room(1, database, goal, questions=2)
    _answer(busy, busy.events.filter(kind="utterance").order_by("seq").first().seq)
    done = _room(2, database, goal)
    Dialogue.objects.filter(pk=done.pk).update(status=DialogueStatus.COMPLETED, ended_at=timezone.now())
    overview = selectors.operations_overview()
    assert overview["waiting"]["count"] == 1 and overview["waiting"]["workers"][0]["username"] == "waiting1"
    assert overview["ready_experts"] == ["ready1"]
    assert overview["rooms"]["count"] == 1
    [room] = overview["rooms"]["listed"]
    # Two messages, one answered with SQL: one question, as the worker's counter says (dialogs.log.question_counts).
    assert room["id"] == busy.pk and room["questions"] == 1 and room["db_id"] == "dorm_demo"
    assert room["idle_seconds"] is not None and room["idle_seconds"] >= 0
    assert overview["today"]["completed"] == 1
    assert sum(overview["per_hour"]["started"]) == 2 and sum(overview["per_hour"]["completed"]) == 1
    assert len(overview["per_hour"]["hours"]) == 24


@pytest.mark.django_db
def test_the_overview_costs_the_same_queries_for_one_room_or_twenty(dorm):
    database, goal = dorm
    _room(0, database, goal)
    with CaptureQueriesContext(connection) as one:
        selectors.operations_overview()
    for number in range(1, 20):
        _room(number, database, goal, questions=2)
    with CaptureQueriesContext(connection) as twenty:
        overview = selectors.operations_overview()
    assert overview["rooms"]["count"] == 20
    assert len(twenty.captured_queries) == len(one.captured_queries) <= 16  # campaigns included


@pytest.mark.django_db
def test_the_page_walks_the_permission_matrix(client, ada, erin, alice):
    url = reverse("dialogs:operations")
    assert client.get(url).status_code == 302
    for person in (alice, erin):
        client.force_login(person)
        assert client.get(url).status_code == 403
    client.force_login(ada)
    page = client.get(url)
    assert page.status_code == 200 and b"Live operations" in page.content


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_board_socket_sends_overviews_that_follow_the_lobby(ada, erin, settings):
    settings.OPERATIONS_REFRESH_SECONDS = 0.2
    assert await refused_with("/ws/manage/live/", erin) == 4403
    assert await refused_with("/ws/manage/live/") == 4401
    board, connected, _ = await connect("/ws/manage/live/", ada)
    assert connected
    first = await receive_until(board, lambda m: m["type"] == "overview")
    assert first["waiting"]["count"] == 0
    newcomer = await database_sync_to_async(worker_named)("newcomer")
    await database_sync_to_async(lobby.lobby_join)(person=newcomer)
    # Conditions, not durations: the next overviews arrive on their own; one of them shows the newcomer waiting.
    seen = await receive_until(board, lambda m: m["type"] == "overview" and m["waiting"]["count"] == 1)
    assert seen["waiting"]["workers"][0]["username"] == "newcomer"
    await board.send_json_to({"type": "nonsense", "id": "n1"})
    refused = await receive_until(board, lambda m: m["type"] == "error")
    assert refused["code"] == "unknown_type" and refused["id"] == "n1"
    await board.disconnect()
