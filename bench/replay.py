"""Replay real CoSQL dialogues end to end through the live lobby and rooms, and check that nothing was lost.

    .venv/bin/python bench/replay.py [--stack embedded|services] [--dialogues N] [--concurrency 10] [--think 0.2]
                                     [--sample ../shared/samples/cosql_dev_sample.json] [--logs DIR]

The server is started as a user starts it: `--stack embedded` (the default) is `make run`'s platform, one Daphne with
DEBUG=1 on SQLite in a throwaway data folder (WOZSQL_DATA_DIR), the in-memory channel layer and eager Celery;
`--stack services` is two Daphne processes on a throwaway PostgreSQL and Redis (tools/test_stack.py). The seed is
the platform's own commands: `import_spider` registers the sample's Spider databases from ../shared/spider, and
`import_goals` makes each replayed dialogue's `final` a goal (no demo data: every goal handed out is a real one).

Scripted clients (bench/wozclient.py, written from docs/protocol.md alone; nothing here imports the project) sign in
through the login form, meet in the lobby, and each pair replays the CoSQL dialogue of the goal pairing gave it (read
from the room's `state`): the worker sends the real utterances one by one; the expert labels each INFORM_SQL, runs
the turn's real SQL, shares the result and answers CONFIRM_SQL (a query the sandbox refuses is answered
CANNOT_ANSWER / SORRY); the worker ends right after the last answer, while the platform is still adding that
answer's follow-ups (labels, suggestion): the moment endings were lost. The expert then scores. `--concurrency`
workers and as many experts take dialogues one after another until N have been played.

Reported per dialogue: whether its ending was stored (status completed, one `end` event, one `score` event), the
messages acked but not in the log or in it twice, what each socket lost or received twice, and the sockets the
server closed. The server's log is scanned for tracebacks and "OperationalError" / "database is locked". Exits 1 on
any lost ending or message, any failed client, or any of those in the log.

Only dialogues with at least DIALOGUE_MIN_QUESTIONS turns can be replayed (the worker may not end before), and one
per (database, goal question), so that the goal pairing hands out names the dialogue: 116 of the sample's 166.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from bench import stack  # noqa: E402
from bench.wozclient import (  # noqa: E402
    Delivery,
    ProtocolError,
    Room,
    check_delivery,
    is_event,
    is_state,
    lobby_wait,
    login,
    new_id,
)

SHARED = PROJECT_ROOT.parent / "shared"
PASSWORD = "replay-password-1"
PREFIX = "replay_"
MIN_QUESTIONS = stack.dialogue_min_questions()  # as the servers apply it


# --- The dialogues ------------------------------------------------------------------------------------------------


@dataclass
class Script:
    index: int  # position in the sample file
    db_id: str
    question: str  # the goal: the CoSQL `final`
    goal_sql: str
    turns: list[tuple[str, str]]  # (utterance, SQL) in order


def expert_sql(query: str) -> str:
    """The turn's SQL as an expert types it: CoSQL's tokenised queries split `!=`, `>=`, `<=` into two tokens."""
    return re.sub(r"([!<>])\s+=", r"\1=", query)


def load_scripts(path: Path, limit: int | None) -> tuple[list[Script], list[dict]]:
    """The dialogues to replay, and the sample records to import as their goals: those with enough turns, the first
    of each (database, goal question)."""
    records = json.loads(path.read_text())
    scripts, chosen, seen = [], [], set()
    for index, record in enumerate(records):
        turns = record["interaction"]
        key = (record["database_id"], record["final"]["utterance"].strip())
        if len(turns) < MIN_QUESTIONS or key in seen:
            continue
        seen.add(key)
        scripts.append(
            Script(
                index=index,
                db_id=record["database_id"],
                question=key[1],
                goal_sql=record["final"]["query"].strip(),
                turns=[(turn["utterance"], expert_sql(turn["query"])) for turn in turns],
            )
        )
        chosen.append(record)
        if limit is not None and len(scripts) == limit:
            break
    return scripts, chosen


def seed(env: dict[str, str], folder: Path, records: list[dict], accounts: int, shared: Path) -> None:
    """Migrate, create the accounts, register the sample's Spider databases, import the goals."""
    stack.prepare(env, accounts=accounts, prefix=PREFIX, password=PASSWORD, demo=False)
    databases = sorted({record["database_id"] for record in records})
    out = stack.manage(
        env,
        "import_spider",
        "--tables",
        str(shared / "spider" / "tables.json"),
        "--databases",
        str(shared / "spider" / "database"),
        "--only",
        *databases,
    )
    print(f"  import_spider: {out.strip().splitlines()[-1]}")
    goals = folder / "cosql_replay_goals.json"  # `cosql` in the name: the goals are recorded as CoSQL's
    goals.write_text(json.dumps(records))
    out = stack.manage(env, "import_goals", str(goals))
    print(f"  import_goals: {out.strip().splitlines()[-1]}")
    created = int(re.search(r"Created (\d+) goals", out).group(1))
    if created != len(records):
        raise RuntimeError(f"import_goals created {created} goals for {len(records)} dialogues:\n{out}")


# --- The clients --------------------------------------------------------------------------------------------------


@dataclass
class TracedRoom(Room):
    """A room socket that also keeps the code of every close the server made (1011: the server failed)."""

    close_codes: list[int] = field(default_factory=list)

    def _note_close(self) -> None:
        ws = self._ws
        if ws is not None and ws is not getattr(self, "_noted", None) and ws.close_code is not None:
            self._noted = ws  # one entry per connection, however many retries follow
            self.close_codes.append(ws.close_code)

    async def _reconnect(self) -> bool:
        self._note_close()
        return await super()._reconnect()

    def _fail(self, exc: Exception) -> None:
        self._note_close()
        super()._fail(exc)


@dataclass
class Played:
    """One dialogue as the clients saw it."""

    dialogue: int
    script: Script | None = None
    rooms: dict[str, TracedRoom] = field(default_factory=dict)
    sent: Counter = field(default_factory=Counter)  # event kind → messages acked
    sql_failed: int = 0
    end_acked_at: float | None = None
    failures: list[str] = field(default_factory=list)


class Replay:
    def __init__(self, urls: list[str], scripts: list[Script], *, concurrency: int, think: float, seed: int):
        self.urls = urls
        self.by_goal = {(script.db_id, script.question): script for script in scripts}
        self.wanted = len(scripts)
        self.concurrency = concurrency
        self.think = think
        self.seed = seed
        self.cookies: dict[tuple[str, int], str] = {}
        self.played: dict[int, Played] = {}
        self.tickets = len(scripts)  # dialogues the workers have still to start
        self.lobby_retries: list[str] = []
        self.failures: list[str] = []  # failures outside a room (sign-in, lobby)
        self.workers_done = asyncio.Event()
        self.scripts_used: Counter = Counter()
        # Dialogues each expert has finished, and the times a lobby status listed one of them as still open.
        self.finished: dict[int, set[int]] = defaultdict(set)
        self.stale_listed: list[str] = []

    def url(self, index: int) -> str:
        return self.urls[index % len(self.urls)]

    async def sign_in(self) -> float:
        started = time.perf_counter()
        gate = asyncio.Semaphore(8)

        async def one(role: str, index: int) -> None:
            name = stack.worker_name(PREFIX, index) if role == "worker" else stack.expert_name(PREFIX, index)
            async with gate:
                self.cookies[role, index] = await asyncio.to_thread(login, self.url(index), name, PASSWORD)

        await asyncio.gather(*(one(role, i) for role in ("worker", "expert") for i in range(self.concurrency)))
        return time.perf_counter() - started

    async def pause(self, rng: random.Random) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))

    def played_for(self, dialogue: int) -> Played:
        return self.played.setdefault(dialogue, Played(dialogue))

    def script_for(self, state: dict) -> Script:
        script = self.by_goal.get((state.get("db_id"), (state.get("goal_question") or "").strip()))
        if script is None:
            raise ProtocolError(f"no replayed dialogue has the goal {state.get('db_id')}: {state.get('goal_question')}")
        return script

    async def worker(self, index: int) -> None:
        rng = random.Random(self.seed * 100_003 + index * 2)
        url, cookie = self.url(index), self.cookies["worker", index]
        while self.tickets > 0:
            self.tickets -= 1
            try:
                dialogue = await lobby_wait(url, cookie, timeout=300, retried=self.lobby_retries)
            except ProtocolError as exc:
                self.failures.append(f"worker{index} lobby: {exc}")
                continue
            played = self.played_for(dialogue)
            room = TracedRoom(url, dialogue, cookie, label=f"worker{index}@{dialogue}", other_servers=tuple(self.urls))
            played.rooms["worker"] = room
            try:
                await room.start()
                state = await room.next(is_state, "state")
                script = played.script = self.script_for(state)
                self.scripts_used[script.index] += 1
                await room.next(is_event("join", author_role="expert"), "the expert's join")
                for number, (text, _) in enumerate(script.turns):
                    await self.pause(rng)
                    turn = await room.post({"type": "utterance", "id": new_id(f"u{number}"), "text": text})
                    played.sent["utterance"] += 1
                    await room.next(is_event("response", turn=turn), f"the response to turn {turn}")
                # Right after the last answer, no pause: its follow-ups are being added meanwhile.
                await room.post({"type": "end", "id": new_id("end")})
                played.sent["end"] += 1
                played.end_acked_at = time.perf_counter()
                await room.next(is_event("end"), "the end event")
            except Exception as exc:  # noqa: BLE001 - reported per dialogue; the worker goes on to the next
                played.failures.append(f"worker: {type(exc).__name__}: {exc}")
            finally:
                await room.close()

    async def expert(self, index: int) -> None:
        rng = random.Random(self.seed * 100_003 + index * 2 + 1)
        url, cookie = self.url(index), self.cookies["expert", index]
        while not self.workers_done.is_set():
            frames: list[dict] = []
            waiting = asyncio.create_task(
                lobby_wait(
                    url,
                    cookie,
                    leave_after=True,
                    timeout=600,
                    retried=self.lobby_retries,
                    frames=frames,
                    ignore=self.finished[index],
                )
            )
            done_waiting = asyncio.create_task(self.workers_done.wait())
            await asyncio.wait({waiting, done_waiting}, return_when=asyncio.FIRST_COMPLETED)
            done_waiting.cancel()
            if not waiting.done():
                # Every worker has finished; a pairing that lands now still gets played.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(waiting), 2)
                if not waiting.done():
                    waiting.cancel()
                    await asyncio.gather(waiting, return_exceptions=True)
                    return
            try:
                dialogue = waiting.result()
            except ProtocolError as exc:
                self.failures.append(f"expert{index} lobby: {exc}")
                continue
            self.note_stale(index, frames)
            await self.expert_room(index, url, cookie, dialogue, rng)
            self.finished[index].add(dialogue)

    def note_stale(self, index: int, frames: list[dict]) -> None:
        """Whether a lobby status listed a dialogue this expert had already finished (and scored) as still open."""
        for frame in frames:
            for listed in frame.get("my_dialogues") or [] if frame.get("type") == "status" else []:
                if listed.get("id") in self.finished[index] and listed.get("status") in ("waiting", "active"):
                    self.stale_listed.append(f"expert{index}: dialogue {listed['id']} listed as {listed['status']}")

    async def expert_room(self, index: int, url: str, cookie: str, dialogue: int, rng: random.Random) -> None:
        played = self.played_for(dialogue)
        room = TracedRoom(url, dialogue, cookie, label=f"expert{index}@{dialogue}", other_servers=tuple(self.urls))
        played.rooms["expert"] = room
        try:
            await room.start()
            state = await room.next(is_state, "state")
            script = self.script_for(state)
            answered = 0
            while True:
                frame = await room.next(
                    lambda f: (
                        f.get("type") == "event"
                        and f.get("kind") in ("utterance", "end")
                        and f.get("author_role") == "worker"
                    ),
                    "a question or the end",
                )
                if frame["kind"] == "end":
                    break
                turn = frame["seq"]
                sql = script.turns[answered][1] if answered < len(script.turns) else script.goal_sql
                await self.pause(rng)
                await room.post({"type": "user_acts", "id": new_id("acts"), "turn": turn, "acts": ["INFORM_SQL"]})
                played.sent["user_acts"] += 1
                await self.pause(rng)
                run = await room.post({"type": "sql_run", "id": new_id("sql"), "turn": turn, "sql": sql})
                played.sent["sql_run"] += 1
                result = (await room.next(is_event("sql_run", seq=run), f"SQL run {run}"))["payload"]["result"]
                await self.pause(rng)
                if result.get("ok"):
                    await room.post({"type": "share_result", "id": new_id("share"), "turn": turn, "run": run})
                    played.sent["result_shared"] += 1
                    await self.pause(rng)
                    text = f"Here is what I found: {result.get('row_count')} rows."
                    acts = ["CONFIRM_SQL"]
                else:
                    # The real query does not run here: the expert says so (CANNOT_ANSWER is answered SORRY).
                    played.sql_failed += 1
                    await room.post(
                        {"type": "user_acts", "id": new_id("acts"), "turn": turn, "acts": ["CANNOT_ANSWER"]}
                    )
                    played.sent["user_acts"] += 1
                    await self.pause(rng)
                    text, acts = "Sorry, I cannot answer that from this database.", ["SORRY"]
                await room.post({"type": "response", "id": new_id("resp"), "turn": turn, "text": text, "acts": acts})
                played.sent["response"] += 1
                answered += 1
            await self.pause(rng)
            scored = await room.post({"type": "score", "id": new_id("score"), "score": 4, "comment": "Replayed."})
            played.sent["score"] += 1
            await room.next(is_event("score", seq=scored), "the score event")
        except Exception as exc:  # noqa: BLE001 - reported per dialogue; the expert goes on to the next
            played.failures.append(f"expert: {type(exc).__name__}: {exc}")
        finally:
            await room.close()

    async def run(self) -> float:
        started = time.perf_counter()
        experts = [asyncio.create_task(self.expert(i)) for i in range(self.concurrency)]
        try:
            await asyncio.gather(*(self.worker(i) for i in range(self.concurrency)))
        finally:
            self.workers_done.set()
            for outcome in await asyncio.gather(*experts, return_exceptions=True):
                if isinstance(outcome, BaseException):
                    self.failures.append(f"expert: {type(outcome).__name__}: {outcome}")
        return time.perf_counter() - started


# --- Checks -------------------------------------------------------------------------------------------------------


@dataclass
class Verdict:
    dialogue: int
    status: str = "?"
    ends: int = 0
    scores: int = 0
    lost: int = 0  # messages acked but not in the log
    doubled: int = 0  # messages in the log more often than they were sent
    delivery: Delivery = field(default_factory=Delivery)
    problems: list[str] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)  # the stored events by kind
    end_first: bool = False  # the end came before the last answer's suggestion: the race the replay is after

    @property
    def ending_stored(self) -> bool:
        return self.status == "completed" and self.ends == 1 and self.scores == 1


def verify(env: dict[str, str], replay: Replay) -> list[Verdict]:
    dialogues = sorted(replay.played)
    statuses = dict(stack.read_rows(env, "SELECT id, status FROM dialogs_dialogue WHERE id IN %s", [dialogues]))
    logs: dict[int, list[tuple[int, str, str | None]]] = defaultdict(list)
    for dialogue, seq, kind, client_id in stack.read_rows(
        env,
        "SELECT dialogue_id, seq, kind, client_id FROM dialogs_event WHERE dialogue_id IN %s ORDER BY dialogue_id, seq",
        [dialogues],
    ):
        logs[dialogue].append((seq, kind, client_id))
    verdicts = []
    for dialogue in dialogues:
        played, log = replay.played[dialogue], logs.get(dialogue, [])
        verdict = Verdict(dialogue, status=statuses.get(dialogue, "missing"))
        kinds = verdict.kinds = Counter(kind for _, kind, _ in log)
        order = [kind for _, kind, _ in log if kind in ("response", "recommendation", "end")]
        if "end" in order:
            before_end = order[: order.index("end")]
            verdict.end_first = bool(before_end) and before_end[-1] == "response"
        verdict.ends, verdict.scores = kinds["end"], kinds["score"]
        # Every message a client had acked is in the log once: the acked seqs have the kind sent, and no kind that
        # clients send has more events than messages sent (a retry that was stored twice).
        by_seq = {seq: kind for seq, kind, _ in log}
        for role, room in played.rooms.items():
            for client_id, seq in room.acks.items():
                if seq not in by_seq:
                    verdict.lost += 1
                    verdict.problems.append(f"{role}'s {client_id} acked as {seq}, not in the log")
        for kind, count in played.sent.items():
            if kinds[kind] > count:
                verdict.doubled += kinds[kind] - count
                verdict.problems.append(f"{kinds[kind]} {kind} events for {count} sent")
        client_ids = Counter(client_id for _, _, client_id in log if client_id)
        verdict.doubled += sum(count - 1 for count in client_ids.values() if count > 1)
        pairs = [(seq, kind) for seq, kind, _ in log]
        final = {kind: seq for seq, kind in pairs}
        for role, room in played.rooms.items():
            up_to = final.get("end" if role == "worker" else "score", pairs[-1][0] if pairs else 0)
            verdict.delivery.add(check_delivery(room, role, pairs, up_to))
            if room.close_codes:
                verdict.problems.append(f"{role} socket closed by the server: {room.close_codes}")
        if set(played.rooms) != {"worker", "expert"}:
            verdict.problems.append(f"only {', '.join(played.rooms) or 'nobody'} opened the room")
        verdict.problems += played.failures
        verdicts.append(verdict)
    return verdicts


def report(replay: Replay, verdicts: list[Verdict], logs: list[Path], seconds: float) -> bool:
    print(
        f"\n{'dialogue':>8} {'sample':>6} {'db':<28} {'turns':>5} {'status':<10} {'end':>3} {'score':>5} "
        f"{'lost':>4} {'dup':>3} {'sock lost':>9} {'sock dup':>8}  problems"
    )
    delivery = Delivery()
    for verdict in verdicts:
        played = replay.played[verdict.dialogue]
        script = played.script
        delivery.add(verdict.delivery)
        flag = "" if verdict.ending_stored and not verdict.problems and verdict.delivery.clean else "  <--"
        print(
            f"{verdict.dialogue:>8} {script.index if script else '-':>6} {script.db_id if script else '-':<28} "
            f"{len(script.turns) if script else 0:>5} {verdict.status:<10} {verdict.ends:>3} {verdict.scores:>5} "
            f"{verdict.lost:>4} {verdict.doubled:>3} {verdict.delivery.lost:>9} {verdict.delivery.duplicated:>8}  "
            f"{'; '.join(verdict.problems)[:400]}{flag}"
        )
    ended = sum(verdict.ending_stored for verdict in verdicts)
    lost_endings = [verdict.dialogue for verdict in verdicts if not verdict.ending_stored]
    lost = sum(verdict.lost for verdict in verdicts)
    doubled = sum(verdict.doubled for verdict in verdicts)
    closed = sum(1 for verdict in verdicts for p in verdict.problems if "closed by the server" in p)
    sql_failed = sum(played.sql_failed for played in replay.played.values())
    stored = sum((verdict.kinds for verdict in verdicts), Counter())
    print(
        f"stored events: {dict(sorted(stored.items()))}; the end came before the last answer's suggestion in "
        f"{sum(verdict.end_first for verdict in verdicts)} dialogues"
    )
    twice = {index: count for index, count in replay.scripts_used.items() if count > 1}
    print(
        f"\n{len(verdicts)} dialogues played of {replay.wanted} wanted in {seconds:.1f} s; endings stored "
        f"{ended}/{len(verdicts)}; lost endings {len(lost_endings)} {lost_endings if lost_endings else ''}"
    )
    print(
        f"messages acked but not stored {lost}, stored twice {doubled}; sockets: {delivery}; sockets closed by the "
        f"server {closed}; lobby retries {len(replay.lobby_retries)}; real SQL the sandbox refused {sql_failed}"
    )
    if replay.stale_listed:
        print(
            f"  lobby statuses that listed a dialogue the expert had already finished and scored as still open: "
            f"{len(replay.stale_listed)} (e.g. {replay.stale_listed[0]}); ignored by the client"
        )
    if twice:
        print(f"  sample dialogues handed out twice (goal given again): {twice}")
    for failure in replay.failures:
        print(f"  {failure}")
    log_clean = True
    for path in logs:
        tracebacks, lines = stack.log_problems(path.read_text(errors="replace"))
        if not tracebacks and not lines:
            print(f"server log {path.name}: no traceback, no OperationalError, no 'database is locked'")
            continue
        log_clean = False
        print(f"server log {path.name}: {len(tracebacks)} tracebacks, {len(lines)} other lines naming a problem")
        for summary, count in Counter(tracebacks).most_common(10):
            print(f"  {count} x {summary}")
        for line, count in Counter(re.sub(r"\d+", "#", line) for line in lines).most_common(5):
            print(f"  {count} x {line}")
    return (
        log_clean
        and not lost_endings
        and lost == doubled == 0
        and delivery.clean
        and not replay.failures
        and len(verdicts) == replay.wanted
        and all(not verdict.problems for verdict in verdicts)
    )


# --- Main ---------------------------------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--stack",
        choices=["embedded", "sqlite-url", "services"],
        default="embedded",
        help="embedded: `make run`'s defaults (SQLite, in-memory layer, one Daphne); sqlite-url: the same with the "
        "SQLite file named by DATABASE_URL; services: PostgreSQL + Redis and --servers Daphne processes",
    )
    parser.add_argument("--dialogues", type=int, default=None, help="how many to replay (default: every one that fits)")
    parser.add_argument("--concurrency", type=int, default=12, help="dialogues at once (workers and experts each)")
    parser.add_argument("--think", type=float, default=0.2, help="mean pause before each step, seconds (±50%%)")
    parser.add_argument("--servers", type=int, default=2, help="Daphne processes with --stack services")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder (default: ../shared)")
    parser.add_argument(
        "--sample", type=Path, help="a CoSQL state-tracking file (default: SHARED/samples/cosql_dev_sample.json)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", metavar="DIR", help="keep the Daphne logs in DIR (default: thrown away)")
    parser.add_argument("--log-level", default=None, help="LOG_LEVEL of the servers (default: the platform's)")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    args.sample = args.sample or args.shared / "samples" / "cosql_dev_sample.json"
    missing = [path for path in (args.sample, args.shared / "spider" / "tables.json") if not path.is_file()]
    if missing:
        # As the conformance tests do: a clear skip on a developer's machine, a failure in CI (WOZSQL_REQUIRE_SHARED=1).
        required = os.environ.get("WOZSQL_REQUIRE_SHARED") == "1"
        print(
            f"replay: {'FAILED' if required else 'skipped'}: {', '.join(map(str, missing))} missing (../shared has the "
            "CoSQL sample and the Spider databases)",
            file=sys.stderr,
        )
        return 2 if required else 0
    scripts, records = load_scripts(args.sample, args.dialogues)
    concurrency = max(1, min(args.concurrency, len(scripts)))
    overrides = {"LOG_LEVEL": args.log_level} if args.log_level else {}
    with contextlib.ExitStack() as resources:
        folder = Path(resources.enter_context(tempfile.TemporaryDirectory(prefix="wozsql-replay-")))
        env, _, _ = stack.stack_env(args.stack, resources, folder / "data", **overrides)
        servers = args.servers if args.stack == "services" else 1
        started = time.perf_counter()
        print(f"seeding {len(scripts)} dialogues' goals and {2 * concurrency} accounts ({args.stack}) ...", flush=True)
        seed(env, folder, records, concurrency, args.shared)
        print(f"  ready in {time.perf_counter() - started:.1f} s", flush=True)
        log_dir = Path(args.logs) if args.logs else folder
        log_dir.mkdir(parents=True, exist_ok=True)
        with stack.daphne_servers(env, servers, log_dir) as running:
            urls = [server.url for server in running]
            print(f"{len(running)} Daphne process(es): {', '.join(urls)}", flush=True)
            replay = Replay(urls, scripts, concurrency=concurrency, think=args.think, seed=args.seed)

            async def play() -> float:
                print(f"  signed in {2 * concurrency} accounts in {await replay.sign_in():.1f} s", flush=True)
                return await replay.run()

            seconds = asyncio.run(play())
            verdicts = verify(env, replay)
        # After the servers have stopped: what they logged on the way out counts too.
        ok = report(replay, verdicts, [server.log for server in running], seconds)
    print(
        f"\n{args.stack}: {servers} Daphne process(es), {concurrency} dialogues at once, think {args.think} s ±50%, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}: {'OK' if ok else 'FAILED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
