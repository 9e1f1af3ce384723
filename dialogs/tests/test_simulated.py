"""The simulated worker below the socket: the leak guard, the scripted questions on every demo goal, what pairing does
with simulated accounts, what an utterance records of its origin, what a pilot leaves uncounted, and the command's
refusals (docs/simulated_worker.md)."""

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from annotation import demo
from annotation.models import Goal, Role
from dialogs import lobby, room
from dialogs.models import Dialogue, DialogueStatus, EventKind, LobbyEntry, SimulationRun
from dialogs.simulated.client import SimulationError
from dialogs.simulated.pairing import simulated_pilot
from dialogs.simulated.play import Goal as PlayedGoal
from dialogs.simulated.play import play_worker
from dialogs.simulated.questions import (
    leak_reasons,
    model_messages,
    model_question_text,
    schema_names_used,
    scripted_questions,
    suggestion_question,
)
from dialogs.simulated.runs import SimulationRefused, session_cookie, simulated_account, simulation_create
from dialogs.visibility import event_view
from tests.builders import expert_named, expert_ready, worker_named

URL = "http://127.0.0.1:9"
DORMS_GOAL = "Which dorm has the most amenities?"
DORMS_SQL = (
    "SELECT T1.dorm_name FROM dorm AS T1 JOIN has_amenity AS T2 ON T1.dorm_id = T2.dorm_id "
    "GROUP BY T1.dorm_id ORDER BY count(*) DESC LIMIT 1"
)


@pytest.fixture
def dorm_schema(demo_databases):
    return demo_databases["dorm_demo"].schema


def _leaks(text, schema, question=DORMS_GOAL, sql=DORMS_SQL):
    return leak_reasons(text, goal_question=question, goal_sql=sql, schema=schema)


# --- The leak guard ----------------------------------------------------------------------------------------------


def test_the_guard_lets_through_a_question_in_the_goal_questions_words(dorm_schema):
    assert _leaks("Can you show me all the dorms?", dorm_schema) == []
    assert _leaks("Which dorms have the most amenities, and how many?", dorm_schema) == []


def test_the_guard_stops_the_goal_sql_and_anything_that_reads_as_sql(dorm_schema):
    assert "goal_sql" in _leaks(f"I mean {DORMS_SQL.lower()}", dorm_schema)
    assert "sql_select" in _leaks("select name from the dorms please", dorm_schema)
    assert "sql_where" in _leaks("the ones where gender = 'F'", dorm_schema)
    assert "sql_clause" in _leaks("now order by size", dorm_schema)
    assert "sql_function" in _leaks("what is count(*) of them", dorm_schema)
    assert "dotted_name" in _leaks("show T1.capacity", dorm_schema)
    assert "underscore_identifier" in _leaks("what is their student_capacity", dorm_schema)


def test_the_guard_stops_schema_names_the_goal_question_does_not_use(dorm_schema):
    # "student capacity" is a column's readable name; "students" the name of a table: neither is in the goal question.
    assert "schema_name:student capacity" in _leaks("What is the student capacity of each?", dorm_schema)
    assert "schema_name:student" in _leaks("How many students live there?", dorm_schema)
    # The goal question names students: then the worker may too, in the singular or the plural.
    question = "What is the average age of the students in each dorm that has a gym?"
    assert _leaks("Which student is the oldest?", dorm_schema, question=question) == []


def test_words_a_shown_suggestion_named_are_the_workers_to_say_but_never_sql(dorm_schema):
    shown = ["Ask for another detail of these dorms, such as their student capacity"]
    question = suggestion_question(shown[0])
    assert "schema_name:student capacity" in _leaks(question, dorm_schema)
    assert leak_reasons(question, goal_question=DORMS_GOAL, goal_sql=DORMS_SQL, schema=dorm_schema, shown=shown) == []
    # A suggestion shown is no licence for SQL, nor for names it did not use.
    sneaky = "select student_capacity from dorm"
    reasons = leak_reasons(sneaky, goal_question=DORMS_GOAL, goal_sql=DORMS_SQL, schema=dorm_schema, shown=shown)
    assert {"sql_select", "underscore_identifier"} <= set(reasons)
    other = leak_reasons(
        "What is their gender?", goal_question=DORMS_GOAL, goal_sql=DORMS_SQL, schema=dorm_schema, shown=shown
    )
    assert [reason for reason in other if reason.startswith("schema_name:")]


class _ScriptedRoom:
    """A room seen from the worker's socket: the expert answers every question, and the platform follows each answer
    with `suggestion` (as docs/protocol.md orders them: response, then recommendation)."""

    dialogue = 1

    def __init__(self, suggestion: str) -> None:
        self.suggestion = suggestion  # after the first answer only: a worker who always follows would never go on
        self.inbox = [{"type": "state", "status": "active", "min_questions": 3}]
        self.sent: list[dict] = []
        self.seq = 0

    async def post(self, message: dict) -> int:
        self.seq += 1
        self.sent.append(message)
        if message["type"] == "utterance":
            turn = self.seq
            self.inbox.append(
                {"type": "event", "kind": "response", "seq": turn, "payload": {"turn": turn, "text": "ok"}}
            )
            if turn == 1:
                self.inbox.append(
                    {"type": "event", "kind": "recommendation", "payload": {"turn": turn, "text": self.suggestion}}
                )
        elif message["type"] == "end":
            self.inbox.append({"type": "event", "kind": "end", "payload": {"status": "completed"}})
        return self.seq

    async def next(self, wanted, what, *, timeout=None):
        for index, frame in enumerate(self.inbox):
            if wanted(frame):
                return self.inbox.pop(index)
        raise SimulationError(f"no {what}")


def test_a_pilot_worker_follows_a_suggestion_that_names_columns_the_goal_question_does_not(dorm_schema):
    import asyncio
    import random

    suggestion = "Ask for another detail of these dorms, such as their student capacity"
    room = _ScriptedRoom(suggestion)
    goal = PlayedGoal(question=DORMS_GOAL, sql=DORMS_SQL, schema=dorm_schema)
    outcome = asyncio.run(play_worker(room, goal, rng=random.Random(3), follow_suggestions=1.0))
    followed = [q for q in outcome.questions if q["mode"] == "suggestion"]
    assert outcome.suggestions_followed >= 1 and outcome.guard_hits == 0
    assert followed[0]["text"] == "Can you tell me another detail of these dorms, such as their student capacity?"


@pytest.mark.parametrize("spec", demo.DEMO_GOALS, ids=lambda spec: spec["question"][:40])
def test_every_suggestion_the_platform_makes_can_be_followed_by_a_pilot_worker(spec, demo_databases):
    # The policy (docs/simulated_worker.md): what a suggestion showed the worker is theirs to say, so a pilot that
    # follows suggestions (`follow_suggestions`) rehearses the suggestion path instead of being stopped by the guard.
    import random

    from annotation.labels.relations import CATEGORIES
    from annotation.wording.suggestions import IntentError, recommend

    schema = demo_databases[spec["db_id"]].schema
    followed = 0
    for category in CATEGORIES:
        for seed in range(6):
            try:
                text = recommend(spec["sql"], schema, category=category, rng=random.Random(seed)).text
            except IntentError:
                continue
            question = suggestion_question(text)
            assert question.endswith("?") and question[:1].isupper() and "tell me to " not in question, question
            reasons = leak_reasons(
                question, goal_question=spec["question"], goal_sql=spec["sql"], schema=schema, shown=[text]
            )
            assert reasons == [], (text, question, reasons)
            followed += 1
    assert followed


def test_the_names_a_goal_question_uses_are_read_word_by_word(dorm_schema):
    used = schema_names_used("What is the average age of the students in each dorm that has a gym?", dorm_schema)
    assert {"dorm", "student", "age"} <= set(used)
    assert "student capacity" not in used


# --- The scripted questions --------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", demo.DEMO_GOALS, ids=lambda spec: spec["question"][:40])
def test_every_demo_goal_gives_enough_questions_that_pass_the_guard_ending_with_the_goal(spec, demo_databases):
    schema = demo_databases[spec["db_id"]].schema
    questions = scripted_questions(goal_question=spec["question"], goal_sql=spec["sql"], schema=schema, min_questions=3)
    assert len(questions) >= 3
    assert questions[-1].step == "goal" and questions[-1].text == spec["question"]
    assert len({question.step for question in questions}) == len(questions)
    for question in questions:
        assert leak_reasons(question.text, goal_question=spec["question"], goal_sql=spec["sql"], schema=schema) == []
        assert question.sql.strip()


def test_the_questions_narrow_from_the_table_through_the_filters_to_the_goal(demo_databases):
    schema = demo_databases["flights_demo"].schema
    spec = next(spec for spec in demo.DEMO_GOALS if "out of Chicago" in spec["question"])
    questions = scripted_questions(goal_question=spec["question"], goal_sql=spec["sql"], schema=schema, min_questions=3)
    assert [question.step for question in questions] == ["broad", "filter-1", "group", "order", "goal"]
    assert questions[0].text == "Can you show me all the airlines?"
    assert "Chicago" in questions[1].text and "city" not in questions[1].text  # the goal question never says "city"
    assert "WHERE T3.city = 'Chicago'" in questions[1].sql


def test_a_longer_minimum_is_filled_with_follow_ups_before_the_goal(dorm_schema):
    questions = scripted_questions(goal_question=DORMS_GOAL, goal_sql=DORMS_SQL, schema=dorm_schema, min_questions=6)
    assert len(questions) == 6 and questions[-1].step == "goal"


def test_a_suggestion_reads_as_the_question_a_worker_types():
    assert suggestion_question("Ask how many dorms there are") == "Can you tell me how many dorms there are?"
    assert suggestion_question("Also ask for the total price") == "Can you tell me the total price?"
    assert suggestion_question("Narrow it down, e.g. only those whose city is Paris") == (
        "Only those whose city is Paris?"
    )
    assert suggestion_question("Ask to sort them by their age, highest first") == (
        "Can you sort them by their age, highest first?"
    )
    assert suggestion_question("Ask about the cities instead") == "What about the cities instead?"
    assert suggestion_question("Widen it: also include those whose city is Lyon") == (
        "Can you also include those whose city is Lyon?"
    )


def test_the_model_sees_the_goal_question_the_names_it_uses_and_the_answers_never_sql(dorm_schema):
    messages = model_messages(
        goal_question=DORMS_GOAL,
        names_used=schema_names_used(DORMS_GOAL, dorm_schema),
        history=[("Can you show me all the dorms?", "There are 9 dorms.")],
    )
    prompt = messages[-1]["content"]
    assert DORMS_GOAL in prompt and "There are 9 dorms." in prompt
    assert "SELECT" not in prompt and "dorm_name" not in prompt
    assert model_question_text('You: "Which dorm is largest?"') == "Which dorm is largest?"
    assert model_question_text("Sure.\n```sql\nSELECT 1\n```") == "Sure. ```sql SELECT 1 ```"  # all of it is guarded
    assert model_question_text("x" * 400) == ""


# --- Accounts, pairing, the log ----------------------------------------------------------------------------------


def _pilot(demo_databases, *, expert=SimulationRun.Expert.SCRIPTED):
    goal = Goal.objects.get(question=DORMS_GOAL) if Goal.objects.filter(question=DORMS_GOAL).exists() else None
    goal = goal or Goal.objects.create(
        database=demo_databases["dorm_demo"], question=DORMS_GOAL, sql=DORMS_SQL, hardness="medium"
    )
    run = simulation_create(count=1, server_url=URL, goal=goal, expert=expert)
    run.state = SimulationRun.State.RUNNING
    run.save(update_fields=["state"])
    return run, run.seats.get()


def test_simulated_accounts_have_no_password_and_a_session_the_platform_reads(db, client):
    worker = simulated_account(role=Role.WORKER, number=3)
    assert worker.username == "sim-worker-3" and worker.simulated and not worker.has_usable_password()
    assert simulated_account(role=Role.WORKER, number=3) == worker
    client.cookies.load(session_cookie(worker))
    assert client.get("/").wsgi_request.user == worker
    worker_named("sim-worker-4")  # a person's account that happens to have the name is never taken over
    with pytest.raises(SimulationRefused):
        simulated_account(role=Role.WORKER, number=4)


def test_pairing_gives_a_simulated_worker_its_goal_and_scripted_expert_and_marks_the_dialogue(demo_databases):
    run, seat = _pilot(demo_databases)
    person = expert_named("erin")
    scripted = simulated_account(role=Role.EXPERT, number=1)
    alice = worker_named("alice")
    expert_ready(person)
    lobby.lobby_join(person=alice)  # a person waits first: the scripted expert must never take them
    expert_ready(scripted)
    lobby.lobby_join(person=seat.worker)
    created = lobby.lobby_pair()
    by_worker = {dialogue.worker_id: dialogue for dialogue in created}
    simulated, real = by_worker[seat.worker_id], by_worker[alice.pk]
    assert simulated.simulated and simulated.goal_id == seat.goal_id and simulated.expert_id == scripted.pk
    assert not real.simulated and real.expert_id == person.pk


def test_a_simulated_account_outside_a_running_pilot_takes_no_goal(demo_databases):
    stray = simulated_account(role=Role.WORKER, number=9)
    assert simulated_pilot(stray.pk, []).choice is None
    expert_ready(expert_named("erin"))
    lobby.lobby_join(person=stray)
    assert lobby.lobby_pair() == []
    assert LobbyEntry.objects.get(person=stray).outcome == LobbyEntry.Outcome.NO_GOAL


def test_an_utterance_keeps_its_origin_only_in_a_simulated_dialogue_and_the_worker_never_sees_it(demo_databases):
    run, seat = _pilot(demo_databases, expert=SimulationRun.Expert.HUMAN)
    erin = expert_named("erin")
    dialogue = Dialogue.objects.create(
        database=seat.goal.database, goal=seat.goal, worker=seat.worker, expert=erin, simulated=True
    )
    origin = {"mode": "model", "step": "broad", "model": "m", "prompt_version": "v", "guard": ["x"], "extra": "no"}
    message = {"type": "utterance", "id": "u1", "text": "Can you show me all the dorms?", "simulated": origin}
    [(event, _)] = room.dialogue_post(dialogue=dialogue, person=seat.worker, message=message)
    assert event.payload["simulated"] == {k: v for k, v in origin.items() if k != "extra"}
    assert event_view(event, "worker")["payload"] == {"text": "Can you show me all the dorms?"}
    alice = worker_named("alice")
    real = Dialogue.objects.create(database=seat.goal.database, goal=seat.goal, worker=alice, expert=erin)
    [(event, _)] = room.dialogue_post(dialogue=real, person=alice, message={**message, "id": "u2"})
    assert "simulated" not in event.payload


def test_a_simulated_dialogue_counts_toward_no_target(demo_databases):
    run, seat = _pilot(demo_databases)
    erin = expert_named("erin")
    Dialogue.objects.create(
        database=seat.goal.database,
        goal=seat.goal,
        worker=seat.worker,
        expert=erin,
        simulated=True,
        status=DialogueStatus.COMPLETED,
    )
    assert not lobby.dialogues_collected().exists()
    assert lobby.dialogues_collected().model.objects.filter(simulated=True).count() == 1
    assert EventKind.UTTERANCE  # the log's kinds are untouched


# --- Starting a run ----------------------------------------------------------------------------------------------


def test_the_command_refuses_what_it_cannot_run_and_says_why(demo_databases):
    from dialogs.crowd import campaigns

    with pytest.raises(CommandError, match="no campaign named 'Nope'"):
        call_command("simulate_workers", "--campaign", "Nope", "--count", "1", "--url", URL)
    with pytest.raises(CommandError, match="no goal 999999"):
        call_command("simulate_workers", "--goal", "999999", "--count", "1", "--url", URL)
    goal = Goal.objects.create(
        database=demo_databases["dorm_demo"], question=DORMS_GOAL, sql=DORMS_SQL, hardness="medium"
    )
    with pytest.raises(CommandError, match="does not answer"):
        call_command("simulate_workers", "--goal", str(goal.pk), "--count", "1", "--url", URL)
    empty = campaigns.campaign_save(
        name="Empty",
        databases=[demo_databases["library_demo"]],  # registered without goals
        goals=[],
        target_per_goal=1,
        hardness_mix={},
        opens_at=timezone.now(),
        closes_at=None,
        bonus_min_questions=1,
        bonus_amount=0,
    )
    with pytest.raises(SimulationRefused, match="no open goals"):
        simulation_create(count=1, server_url=URL, campaign=empty)
    with pytest.raises(SimulationRefused, match="from 1 to"):
        simulation_create(count=0, server_url=URL, goal=goal)
    with pytest.raises(SimulationRefused, match="from 0 to 1"):
        simulation_create(count=1, server_url=URL, goal=goal, follow_suggestions=2)
    with pytest.raises(SimulationRefused, match="http"):
        simulation_create(count=1, server_url="ftp://x", goal=goal)
    assert not SimulationRun.objects.exists()  # nothing half-made is left behind


def test_the_live_board_marks_a_pilots_rooms_and_counts_them(demo_databases):
    from dialogs import selectors

    run, seat = _pilot(demo_databases)
    erin = expert_named("erin")
    alice = worker_named("alice")
    pilot = Dialogue.objects.create(
        database=seat.goal.database, goal=seat.goal, worker=seat.worker, expert=erin, simulated=True
    )
    Dialogue.objects.create(database=seat.goal.database, goal=seat.goal, worker=alice, expert=erin)
    rooms = selectors.operations_overview()["rooms"]
    assert rooms["count"] == 2 and rooms["simulated"] == 1
    assert {room["id"]: room["simulated"] for room in rooms["listed"]}[pilot.pk] is True
    assert sum(room["simulated"] for room in rooms["listed"]) == 1


def test_an_admin_starts_a_pilot_from_the_campaign_page_as_a_background_job(
    client, ada, alice, demo_databases, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    from dialogs.crowd import campaigns

    Goal.objects.create(database=demo_databases["dorm_demo"], question=DORMS_GOAL, sql=DORMS_SQL, hardness="medium")
    campaign = campaigns.campaign_save(
        name="Spring",
        databases=[demo_databases["dorm_demo"]],
        goals=[],
        target_per_goal=1,
        hardness_mix={},
        opens_at=timezone.now(),
        closes_at=None,
        bonus_min_questions=1,
        bonus_amount=0,
    )
    url = reverse("dialogs:campaign_simulate", args=[campaign.pk])
    form = {"count": "2", "expert": "scripted", "follow_suggestions": "0.5"}
    assert client.post(url, form).status_code == 302  # to the sign-in page
    client.force_login(alice)
    assert client.post(url, form).status_code == 403
    client.force_login(ada)
    refused = client.post(url, {**form, "count": "0"})
    assert refused.status_code == 400 and b"greater than or equal to 1" in refused.content
    assert not SimulationRun.objects.exists()
    with django_capture_on_commit_callbacks(execute=False) as started:
        assert client.post(url, form).status_code == 302
    run = SimulationRun.objects.get()
    assert (run.campaign, run.count, run.expert, run.requested_by) == (campaign, 2, "scripted", ada)
    assert run.server_url == "http://testserver" and run.seats.count() == 2
    assert len(started) == 1  # the job starts once the request's transaction commits, never inside it
    page = client.get(reverse("dialogs:campaign_detail", args=[campaign.pk]))
    assert b"Pilot with simulated workers" in page.content and b"Queued" in page.content
    status = client.get(reverse("dialogs:simulation_status", args=[run.pk])).json()
    assert status["state"] == "queued" and status["done"] == 0 and status["count"] == 2


def test_a_model_question_is_asked_when_it_passes_the_guard_and_the_scripts_otherwise(model_on, dorm_schema):
    import asyncio

    from dialogs.simulated import play
    from dialogs.simulated.questions import MODEL_PROMPT_VERSION, Question
    from dialogs.simulated.runs import _model_ask

    ask = _model_ask()
    step = Question("broad", "Can you show me all the dorms?", "SELECT * FROM dorm")

    def next_question(goal_question):
        goal = play.Goal(question=goal_question, sql=DORMS_SQL, schema=dorm_schema)
        outcome = play.WorkerOutcome(dialogue=0)

        def guarded(text):
            return leak_reasons(text, goal_question=goal.question, goal_sql=goal.sql, schema=goal.schema)

        text, origin = asyncio.run(play._question_for(step, goal, [], [], ask, guarded, outcome))
        return text, origin, outcome.guard_hits

    # The test model answers "say hello" with a greeting: words only, so it is asked.
    text, origin, hits = next_question("Could you say hello and name the dorms?")
    assert text == "Hello! I am a test server." and hits == 0
    assert origin == {
        "mode": "model",
        "step": "broad",
        "model": "fixture-model",
        "prompt_version": MODEL_PROMPT_VERSION,
    }
    # It answers "how many students" with SQL: the guard drops it and the script's question goes instead, saying why.
    text, origin, hits = next_question("How many students live in each dorm?")
    assert text == step.text and hits == 1
    assert origin["mode"] == "scripted" and "sql_select" in origin["guard"]
    assert model_on.requests()[-1]["body"]["messages"][0]["role"] == "system"
    model_on.set_mode("error")
    text, origin, hits = next_question("Could you say hello and name the dorms?")
    assert text == step.text and origin["mode"] == "scripted" and origin["model_error"]


@pytest.mark.django_db
def test_a_pilot_asked_in_chinese_writes_its_note_in_chinese(monkeypatch):
    """The run's note is written in the language of the admin who asked (Job.speaking, docs/i18n.md), whatever the
    language of the thread that plays it; so are the clients' errors it quotes, made while it plays."""
    from django.utils import translation
    from django.utils.translation import ngettext

    from dialogs.simulated import runs

    spoken = []

    async def played(run, workers, experts):
        spoken.append(translation.get_language())
        return [{"worker": "sim-worker-1", "goal": 1, "dialogue": 7}]

    monkeypatch.setattr(runs, "_play_all", played)
    with translation.override("zh-hans"):
        run = SimulationRun.objects.create(count=1, server_url="http://127.0.0.1:1")
        chinese = ngettext(
            "%(ended)s of %(total)s simulated dialogue ended.", "%(ended)s of %(total)s simulated dialogues ended.", 1
        ) % {"ended": 1, "total": 1}
    with translation.override("en"):
        done = runs.simulation_run(run_id=run.pk)
    assert spoken == ["zh-hans"]
    assert (done.state, done.message) == (SimulationRun.State.SUCCEEDED, chinese)
    assert translation.get_language() != "zh-hans"
