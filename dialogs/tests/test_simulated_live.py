"""The simulated worker and the scripted expert hold a whole dialogue over real websockets against a live Daphne on
PostgreSQL and Redis, started by `manage.py simulate_workers` in a process of its own, as a lab rehearses a campaign
(docs/simulated_worker.md)."""

import json
import uuid

import pytest

from bench import stack
from tests.builders import database_rows, real_services
from tools.test_stack import create_database

pytestmark = pytest.mark.services

GOAL = "Which airline operates the most flights out of Chicago?"


@pytest.fixture(scope="module")
def daphne_platform(tmp_path_factory):
    """One Daphne on a database of its own in the test cluster, migrated, with the demo data."""
    cluster_url, redis_url = real_services()
    database_url = f"{cluster_url.rsplit('/', 1)[0]}/wozsql_sim_{uuid.uuid4().hex[:8]}"
    create_database(database_url)
    folder = tmp_path_factory.mktemp("simulated")
    env = stack.server_env(database_url=database_url, redis_url=redis_url, data_dir=folder / "data")
    try:
        stack.prepare(env, accounts=0, prefix="sim_", password="unused-password-1")
        with stack.daphne_servers(env, 1, folder) as servers:
            yield servers[0].url, env, database_url
    finally:
        database_rows(
            f"{cluster_url.rsplit('/', 1)[0]}/postgres",
            f'DROP DATABASE IF EXISTS "{database_url.rsplit("/", 1)[1]}" WITH (FORCE)',
        )


def test_a_simulated_worker_and_the_scripted_expert_complete_a_dialogue_over_websockets(daphne_platform):
    url, env, database_url = daphne_platform
    [(goal_id,)] = database_rows(database_url, "SELECT id FROM annotation_goal WHERE question = %s", [GOAL])
    out = stack.manage(
        env,
        "simulate_workers",
        "--goal", str(goal_id), "--count", "1", "--expert", "scripted", "--follow-suggestions", "0",
        "--seed", "7", "--url", url, "--time-limit", "300",
    )  # fmt: skip
    assert "sim-worker-1: dialogue" in out and "completed" in out
    [(dialogue_id, status, simulated, score, worker)] = database_rows(
        database_url,
        "SELECT d.id, d.status, d.simulated, d.score, u.username FROM dialogs_dialogue d "
        "JOIN annotation_user u ON u.id = d.worker_id WHERE d.goal_id = %s",
        [goal_id],
    )
    assert (status, simulated, score, worker) == ("completed", True, 4, "sim-worker-1")
    log = database_rows(
        database_url, "SELECT kind, payload FROM dialogs_event WHERE dialogue_id = %s ORDER BY seq", [dialogue_id]
    )
    questions = [json.loads(p) if isinstance(p, str) else p for kind, p in log if kind == "utterance"]
    # The script narrows toward the goal and ends with the goal question; each question says where it came from.
    assert [q["simulated"]["step"] for q in questions] == ["broad", "filter-1", "group", "order", "goal"]
    assert questions[-1]["text"] == GOAL and all(q["simulated"]["mode"] == "scripted" for q in questions)
    kinds = [kind for kind, _ in log]
    assert kinds.count("response") == len(questions) and kinds[-2:] == ["end", "score"]
    responses = [p for kind, p in log if kind == "response"]
    assert all(r["acts"] == ["CONFIRM_SQL"] and r.get("draft") == "kept" for r in responses)  # the platform's drafts
    [(run_state, done)] = database_rows(database_url, "SELECT state, progress_done FROM dialogs_simulationrun", [])
    assert (run_state, done) == ("succeeded", 1)
