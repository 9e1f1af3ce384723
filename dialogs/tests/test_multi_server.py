"""Two Daphne processes on one PostgreSQL and one Redis: the worker on one server, the expert on the other.

The servers share nothing but the database and the channel layer, as behind a load balancer, so every event a side
sees from its partner crossed Redis. The clients are the protocol client of the chat benchmark (bench/wozclient.py),
signed in through the login form, over real websockets.
"""

import asyncio
import uuid

import pytest

from bench import stack
from bench.wozclient import Room, check_delivery, lobby_wait, login, play_expert, play_worker, visible_to
from tests.builders import database_rows, real_services
from tools.test_stack import create_database

pytestmark = pytest.mark.services

PASSWORD = "multi-server-password"
PREFIX = "multi_"
QUESTIONS = 3
# The second answer is a table too big to travel inside a broadcast (consumers.INLINE_EVENT_BYTES): the sockets read it
# from the log instead, and it must arrive in its place all the same.
BIG_SQL = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600) "
    "SELECT i, 'a row long enough to make six hundred of them weigh more than sixteen KiB' AS padding FROM n"
)


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    """Two Daphne processes on a database of their own in the test cluster, migrated, with the demo data, one
    worker (tutorial passed) and one expert."""
    cluster_url, redis_url = real_services()
    database_url = f"{cluster_url.rsplit('/', 1)[0]}/wozsql_multi_{uuid.uuid4().hex[:8]}"
    create_database(database_url)
    folder = tmp_path_factory.mktemp("multi-server")
    env = stack.server_env(
        database_url=database_url,
        redis_url=redis_url,
        data_dir=folder / "data",
        EXPERT_MAX_DIALOGUES=1,
        DB_CONN_MAX_AGE=60,
    )
    try:
        stack.prepare(env, accounts=1, prefix=PREFIX, password=PASSWORD)
        with stack.daphne_servers(env, 2, folder) as servers:
            yield [server.url for server in servers], database_url
    finally:
        # The servers are gone by now; FORCE ends any connection a crashed one left behind.
        database_rows(
            f"{cluster_url.rsplit('/', 1)[0]}/postgres",
            f'DROP DATABASE IF EXISTS "{database_url.rsplit("/", 1)[1]}" WITH (FORCE)',
        )


async def _dialogue_across(worker_url: str, expert_url: str) -> tuple[Room, Room]:
    worker_cookie, expert_cookie = await asyncio.gather(
        asyncio.to_thread(login, worker_url, stack.worker_name(PREFIX, 0), PASSWORD),
        asyncio.to_thread(login, expert_url, stack.expert_name(PREFIX, 0), PASSWORD),
    )
    worker_dialogue, expert_dialogue = await asyncio.gather(
        lobby_wait(worker_url, worker_cookie, timeout=60), lobby_wait(expert_url, expert_cookie, timeout=60)
    )
    assert worker_dialogue == expert_dialogue, "the lobby paired the two with different dialogues"
    worker = Room(worker_url, worker_dialogue, worker_cookie, label="worker", reply_timeout=30)
    expert = Room(expert_url, expert_dialogue, expert_cookie, label="expert", reply_timeout=30)
    await asyncio.gather(worker.start(), expert.start())
    try:
        end, answered = await asyncio.gather(
            play_worker(worker, questions=QUESTIONS), play_expert(expert, sql_by_question={1: BIG_SQL})
        )
    finally:
        await asyncio.gather(worker.close(), expert.close())
    assert end["status"] == "completed" and end["completion_code"].startswith("WOZ-")
    assert answered == QUESTIONS
    return worker, expert


def test_a_dialogue_with_each_side_on_its_own_server(two_servers):
    (server_a, server_b), database_url = two_servers

    worker, expert = asyncio.run(_dialogue_across(server_a, server_b))

    status, score, last_seq = database_rows(
        database_url, "SELECT status, score, last_seq FROM dialogs_dialogue WHERE id = %s", [worker.dialogue]
    )[0]
    assert (status, score) == ("completed", 4)
    log = database_rows(
        database_url, "SELECT seq, kind FROM dialogs_event WHERE dialogue_id = %s ORDER BY seq", [worker.dialogue]
    )
    assert [seq for seq, _ in log] == list(range(1, last_seq + 1)), "the log has gaps"
    kinds = [kind for _, kind in log]
    assert kinds.count("utterance") == kinds.count("response") == kinds.count("result_shared") == QUESTIONS
    end_seq = next(seq for seq, kind in log if kind == "end")
    score_seq = next(seq for seq, kind in log if kind == "score")

    # Each socket got every event it may see, exactly once, in seq order: the worker up to the end it waited for,
    # the expert up to its own score.
    assert worker.event_seqs == [seq for seq, kind in log if seq <= end_seq and visible_to(kind, "worker")]
    assert expert.event_seqs == [seq for seq, kind in log if seq <= score_seq]
    for room, role, up_to in ((worker, "worker", end_seq), (expert, "expert", score_seq)):
        delivery = check_delivery(room, role, log, up_to)
        assert delivery.clean and delivery.expected == delivery.received, (role, delivery)
        assert room.reconnects == 0
    # What each side sent arrived at the other side through the other server.
    assert {worker.acks[i] for i in worker.acks if i.startswith("u")} <= set(expert.event_seqs)
    responses = [seq for seq, kind in log if kind == "response"]
    assert set(responses) <= set(worker.event_seqs)
    shared = [r.frame for r in worker.received if r.frame.get("kind") == "result_shared"]
    assert [table["payload"]["row_count"] for table in shared][1] == 600
