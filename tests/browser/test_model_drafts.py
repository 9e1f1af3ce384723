"""A model's SQL draft in the expert's room, in a real browser against the test model server (tools/model_server.py):
asked for, waited for while the room goes on, shown with its result, loaded, edited, run and sent; the run records
that the draft was edited, and the worker's browser never receives it."""

import json
import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_phone import PHONE, page_overflow
from tests.browser.test_rooms import (  # noqa: F401 - patient_expectations: the autouse fixture, for this module too
    ask,
    boxes_of,
    label,
    patient_expectations,
    read_tables_and_reveal,
    respond,
    watch_frames,
)

# A room on the dormitory database with model help (the pairing decides that in a campaign; here it is made so).
MAKE_ROOM = """
from annotation.models import Database, User
from dialogs.models import Dialogue
database = Database.objects.get(db_id="dorm_demo")
dialogue = Dialogue.objects.create(
    database=database, goal=database.goals.first(), worker=User.objects.get(username="{worker}"),
    expert=User.objects.get(username="{expert}"), model_help=True,
)
print(dialogue.pk)
"""

RUNS = """
import json
from dialogs.models import Event
print(json.dumps([e.payload.get("model_draft") for e in Event.objects.filter(dialogue_id={dialogue}, kind="sql_run")
    .order_by("seq")]))
"""

DRAFT_SQL = "SELECT count(*) FROM student"  # the fixtures' answer to "how many students"
BELOW_THE_PANEL = ".run button.share, #step-labels .label-foot button, #system-acts label.act, #send-response"


def test_the_expert_asks_for_a_draft_works_on_while_it_comes_then_loads_edits_and_sends_it(
    new_page, people, platform, model_server
):
    people("dora", "dex")
    dialogue = int(platform.manage("shell", "-c", MAKE_ROOM.format(worker="dora", expert="dex")).split()[-1])
    worker, expert = new_page("dora"), new_page("dex")
    frames = watch_frames(worker)
    worker.goto(f"/dialogues/{dialogue}/")
    expert.goto(f"/dialogues/{dialogue}/")
    expect(expert.get_by_test_id("partner")).to_have_text("Worker: connected")
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many students are there?")
    label(expert, "INFORM_SQL")

    # The model holds its answer until told: everything below happens while the draft is pending, whatever the timing.
    model_server.set_mode("hold")
    try:
        expert.get_by_role("button", name="Ask the model").click()
        expect(expert.get_by_test_id("model-waiting")).to_be_visible()
        expert.fill("#sql-input", "SELECT count(*) FROM dorm")  # typing is never blocked
        expert.locator("#run-sql").click()
        expect(expert.locator(".run")).to_have_count(1)  # and a run goes through
        worker.fill("#message", "And how many dorms are there?")
        worker.press("#message", "Enter")  # the worker's next question reaches the expert
        # Started on, the first question stays in front of the expert; they go to the second by the hint's button.
        expect(expert.get_by_test_id("turn-waiting")).to_contain_text("question 2")
        expect(expert.locator("#turn-quote")).to_have_text("How many students are there?")
        expert.get_by_test_id("turn-newest").click()
        expect(expert.locator("#turn-quote")).to_have_text("And how many dorms are there?")
        expect(expert.get_by_test_id("model-panel")).to_be_hidden()  # nothing was asked for the new question
        # The draft belongs to the first question: the expert goes back to it, where it is still on its way.
        expert.locator("#chat-log .question").first.click()
        expect(expert.locator("#turn-quote")).to_have_text("How many students are there?")
        expect(expert.get_by_test_id("model-waiting")).to_be_visible()
        expect(expert.get_by_test_id("model-draft").locator(".sql-display")).to_have_count(0)
        # What the expert may press below the panel, where it is while the draft is on its way.
        waiting = boxes_of(expert, BELOW_THE_PANEL)
        assert len(waiting) > 10
    finally:
        model_server.set_mode("normal")

    # It arrives where the expert is looking, with its result, without a reload.
    panel = expert.get_by_test_id("model-panel")
    expect(panel.get_by_test_id("model-waiting")).to_be_hidden()
    expect(panel).to_contain_text("SQL proposed by fixture-model")
    expect(panel.get_by_test_id("model-draft")).to_contain_text(DRAFT_SQL)
    expect(panel.get_by_test_id("model-result").locator("table tbody tr")).to_have_count(1)
    # It landed in the room the panel kept for it when it was asked for: nothing below moved.
    assert boxes_of(expert, BELOW_THE_PANEL) == waiting
    expert.get_by_test_id("model-panel").scroll_into_view_if_needed()
    expert.screenshot(path="/tmp/wozsql_model_draft.png")  # to look at
    assert serious_violations(expert) == [], "expert room with a model's draft"

    # Loaded over the expert's own SQL, which stays one press away; then edited, run and sent.
    expert.get_by_role("button", name="Load into editor").click()
    expect(expert.locator("#sql-input")).to_have_text(DRAFT_SQL)
    expect(expert.get_by_test_id("model-undo")).to_be_visible()
    edited = f"{DRAFT_SQL} WHERE age >= 18"
    expert.locator("#sql-input").click()
    expert.keyboard.press("End")
    expert.keyboard.type(" WHERE age >= 18")
    expect(expert.locator("#sql-input")).to_have_text(edited)
    expert.locator("#run-sql").click()
    run = expert.locator(".run").first
    expect(run.locator(".sql-block")).to_have_text(edited)
    run.get_by_role("button", name="Send this result to the user").click()
    expect(run).to_have_class(re.compile(r"\bsent\b"))
    respond(expert, "Here is how many students there are.", "CONFIRM_SQL")
    expect(worker.locator(".bubble").filter(has_text="Here is how many students there are.")).to_be_visible()

    # What the server recorded of each run: the first, written while the draft was on its way, concerns none; the
    # second is the draft, edited (decided from the texts, not from the screen's word).
    runs = json.loads(platform.manage("shell", "-c", RUNS.format(dialogue=dialogue)).strip().splitlines()[-1])
    assert runs[0] is None
    assert runs[1]["use"] == "edited"
    received = "\n".join(frames)
    assert "model_sql" not in received and "fixture-model" not in received and DRAFT_SQL not in received

    # At a phone's width, after a reload: the draft is still there (from the log), and nothing is wider than the screen.
    phone = new_page("dex", **PHONE)
    phone.goto(f"/dialogues/{dialogue}/")
    phone.locator("#chat-log .question").first.click()
    expect(phone.get_by_test_id("model-draft")).to_contain_text(DRAFT_SQL)
    phone.get_by_test_id("model-panel").scroll_into_view_if_needed()
    phone.screenshot(path="/tmp/wozsql_model_draft_phone.png")  # to look at, at a phone's width
    assert page_overflow(phone) <= 0

    # A model that fails says so in the panel, in words (asked for the open second question, which has no draft).
    expect(expert.locator("#turn-quote")).to_have_text("And how many dorms are there?")
    model_server.set_mode("error")
    try:
        expert.get_by_role("button", name="Ask the model", exact=True).click()
        expect(expert.get_by_test_id("model-error")).to_contain_text("HTTP 500")
    finally:
        model_server.set_mode("normal")
    expect(expert.get_by_test_id("load-model")).to_be_hidden()
