"""Frame sizes on a real Daphne: what its 1 MiB message limit does to a room, both ways.

WebsocketCommunicator has no frame limit, so these run the platform as `make run` starts it (Daphne, migrated, the
demo data) in its own process, on whatever DATABASE_URL/REDIS_URL the test run has, and talk to it over real
websockets with a client that, like Daphne, takes frames of at most 1 MiB.
"""

import asyncio
import json
import os
import uuid

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from bench import stack
from bench.wozclient import login, ws_url

DEMO_PASSWORD = "wozsql-demo"
MIB = 1024 * 1024
# About 4.5 MB: 1,000 rows of 4,500 characters each, under the sandbox's own result cap (5 MB).
WIDE_SQL = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) "
    "SELECT i, hex(zeroblob(2250)) AS padding FROM n"
)
# Run by `manage.py shell -c`: a dialogue between the demo worker Alice and the demo expert Erin.
NEW_DIALOGUE = """
from annotation.models import Goal, User
from dialogs.models import Dialogue
goal = Goal.objects.filter(database__db_id="dorm_demo").first()
people = {u.username: u for u in User.objects.filter(username__in=["alice", "erin"])}
print(Dialogue.objects.create(database=goal.database, goal=goal, worker=people["alice"], expert=people["erin"]).pk)
"""
STORED_RUN = """
import json
from dialogs.models import Event
event = Event.objects.get(dialogue_id={dialogue}, seq={seq})
print(len(json.dumps(event.payload, ensure_ascii=False).encode()))
"""


@pytest.fixture(scope="module")
def platform(tmp_path_factory):
    """One Daphne on a data folder (and, on the services pass, a database) of its own."""
    folder = tmp_path_factory.mktemp("daphne-frames")
    (folder / "data").mkdir()
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url:
        from tools.test_stack import create_database

        database_url = f"{database_url.rsplit('/', 1)[0]}/wozsql_frames_{uuid.uuid4().hex[:8]}"
        create_database(database_url)
    env = stack.server_env(
        database_url=database_url, redis_url=os.environ.get("REDIS_URL", ""), data_dir=folder / "data"
    )
    stack.manage(env, "migrate", "--noinput")
    stack.manage(env, "load_demo")
    with stack.daphne_servers(env, 1, folder) as (server,):
        yield server, env


def _new_dialogue(env) -> int:
    return int(stack.manage(env, "shell", "-c", NEW_DIALOGUE).strip().splitlines()[-1])


class Socket:
    """One room socket, with the frames it received kept in order."""

    def __init__(self, ws):
        self.ws = ws

    async def send(self, message) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def next(self, predicate, timeout: float = 30) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                frame = json.loads(await self.ws.recv())
                if predicate(frame):
                    return frame

    async def alive(self) -> None:
        """The socket still answers: a ping gets its pong."""
        await self.send({"type": "ping"})
        await self.next(lambda f: f["type"] == "pong")


async def _enter(server, dialogue: int, username: str) -> Socket:
    cookie = await asyncio.to_thread(login, server.url, username, DEMO_PASSWORD)
    ws = await ws_connect(
        ws_url(server.url, f"/ws/dialogues/{dialogue}/"),
        origin=server.url,
        additional_headers={"Cookie": cookie},
        compression=None,
        proxy=None,
        max_size=MIB,  # what Daphne itself takes
    )
    socket = Socket(ws)
    await socket.send({"type": "hello", "last_seq": 0})
    await socket.next(lambda f: f["type"] == "state")
    return socket


def _ack(client_id):
    return lambda f: f["type"] == "ack" and f["id"] == client_id


def _event(kind):
    return lambda f: f["type"] == "event" and f["kind"] == kind


def test_a_result_of_megabytes_reaches_both_screens_cut_to_fit_a_frame(platform):
    # The run was stored whole (4.5 MB for a 200-byte frame) and sent as one frame over Daphne's limit: the socket
    # closed with 1011, and every reconnect replayed the same frame.
    server, env = platform
    dialogue = _new_dialogue(env)

    async def play():
        worker = await _enter(server, dialogue, "alice")
        expert = await _enter(server, dialogue, "erin")
        await worker.send({"type": "utterance", "id": "u1", "text": "Show me every row, with padding."})
        turn = (await worker.next(_ack("u1")))["seq"]
        await expert.send({"type": "sql_run", "id": "r1", "turn": turn, "sql": WIDE_SQL})
        run = (await expert.next(_ack("r1")))["seq"]
        result = (await expert.next(_event("sql_run")))["payload"]["result"]
        await expert.send({"type": "share_result", "id": "s1", "turn": turn, "run": run})
        shared = (await worker.next(_event("result_shared")))["payload"]
        await worker.alive()
        await expert.alive()
        await worker.ws.close()
        await expert.ws.close()
        # A reconnect from nothing replays the whole log, the two tables included.
        again = await _enter(server, dialogue, "erin")
        await again.send({"type": "ping"})
        replayed = []
        while (frame := await again.next(lambda f: f["type"] in ("event", "pong")))["type"] == "event":
            replayed.append(frame["kind"])
        await again.ws.close()
        return run, result, shared, replayed

    run, result, shared, replayed = asyncio.run(play())
    for table in (result, shared):
        assert table["truncated"] is True and table["total_rows"] == 1000
        assert 0 < table["row_count"] == len(table["rows"]) < 1000
        assert len(table["rows"][0][1]) == 4500
    assert shared["row_count"] == result["row_count"]
    assert {"sql_run", "result_shared"} <= set(replayed)
    stored = int(stack.manage(env, "shell", "-c", STORED_RUN.format(dialogue=dialogue, seq=run)).split()[-1])
    assert stored < 300 * 1024


def test_a_frame_over_daphnes_limit_is_refused_with_its_id_and_the_socket_stays_open(platform):
    # Daphne dropped the TCP connection of any frame over 1 MiB: no close code, no error, and a client resending what
    # was never acked sent the same frame again after reconnecting.
    server, env = platform
    dialogue = _new_dialogue(env)

    async def play():
        worker = await _enter(server, dialogue, "alice")
        refusals = []
        for client_id, size in (("huge", 3 * MIB // 2), ("big", 100 * 1024)):  # over Daphne's limit, over ours
            await worker.send({"type": "utterance", "id": client_id, "text": "x" * size})
            refusals.append(await worker.next(lambda f: f["type"] == "error"))
        # Of a frame over Daphne's limit only the head is read: an id after the long field is not found there.
        await worker.send('{"text": "' + "y" * (2 * MIB) + '", "type": "utterance", "id": "id-after"}')
        refusals.append(await worker.next(lambda f: f["type"] == "error"))
        await worker.send({"type": "utterance", "id": "small", "text": "Still there?"})
        await worker.next(_ack("small"))
        await worker.ws.close()
        return refusals

    try:
        refusals = asyncio.run(play())
    except ConnectionClosed as closed:
        pytest.fail(f"the server closed the socket: {closed!r}")
    assert [(r["code"], r.get("id")) for r in refusals] == [
        ("too_large", "huge"),
        ("too_large", "big"),
        ("too_large", None),
    ]
