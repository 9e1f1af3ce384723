"""A supervisor in a real browser: from the live board into a room, watching it live and read-only, then ending it
with a reason (the worker keeps their completion code) or sending the worker back to the queue."""

import re

from playwright.sync_api import expect

from tests.browser.test_rooms import (  # noqa: F401 - patient_expectations: the autouse fixture, for this module too
    ask,
    label,
    patient_expectations,
    read_tables_and_reveal,
    run_and_share,
)

WATCH_URL = re.compile(r"/manage/live/rooms/\d+/$")


def watch_from_the_board(ada, worker_name: str) -> None:
    """Ada opens the room of `worker_name` from the live board, as the board pushed it."""
    ada.goto("/manage/live/")
    row = ada.get_by_test_id("rooms").locator("tbody tr", has_text=worker_name)
    row.get_by_role("link", name=re.compile(r"^Watch dialogue \d+")).click()
    expect(ada).to_have_url(WATCH_URL)
    expect(ada.locator("#connection")).to_have_text("Watching")


def test_a_supervisor_watches_a_room_live_and_ends_it_with_a_reason(new_page, paired):
    # Names of this test alone: the platform is shared by the whole browser session.
    worker, expert, _ = paired("sadie", "saul")
    room_url = worker.url
    ada = new_page("ada")
    watch_from_the_board(ada, "sadie")
    # The room's own address, a 403 for an admin before, leads to the same read-only view.
    check = new_page("ada")
    check.goto(room_url)
    expect(check).to_have_url(WATCH_URL)
    expect(ada.get_by_test_id("worker-presence")).to_have_text("Worker: connected")
    expect(ada.get_by_test_id("expert-presence")).to_have_text("Expert: connected")

    # Live, without reloading: the worker's question, then the expert's labels and SQL, which the worker never sees.
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many students are there?")
    expect(ada.get_by_test_id("chat-log").locator(".bubble.question")).to_have_text(
        re.compile("How many students are there?")
    )
    label(expert, "INFORM_SQL")
    expect(ada.get_by_test_id("work")).to_contain_text("User acts of question")
    table = expert.locator(".table-tab").first.inner_text()
    run_and_share(expert, f"SELECT count(*) FROM {table}")
    expect(ada.get_by_test_id("work").locator("pre")).to_have_text(f"SELECT count(*) FROM {table}")
    expect(ada.get_by_test_id("chat-log").locator(".bubble.result")).to_be_visible()
    # Nothing to type into the room: the page has no message box, no SQL editor and no participant's buttons.
    for selector in ("#message", "#sql-input", "#send-response", "#terminate"):
        expect(ada.locator(selector)).to_have_count(0)

    # A reason is required, and an act without one loses nothing.
    ada.get_by_role("button", name="Do it").click()
    expect(ada.locator("#reason-errors")).to_have_text("This field is required.")
    expect(ada.get_by_test_id("status-line")).to_have_text("Status: Active")
    ada.get_by_label("Reason (required)").fill("The expert's tools stopped working; we are fixing them.")
    ada.get_by_role("button", name="Do it").click()
    expect(ada.locator(".messages")).to_contain_text("is ended")
    expect(ada.get_by_test_id("act")).to_contain_text("there is nothing to act on")
    expect(ada.get_by_test_id("work")).to_contain_text("Ended by ada")

    # The worker is told, with the reason, and keeps their completion code.
    expect(worker.locator("#finished-title")).to_have_text("A supervisor ended the dialogue")
    expect(worker.locator("#end-reason")).to_have_text(
        "The supervisor's reason: The expert's tools stopped working; we are fixing them."
    )
    expect(worker.locator("#completion-code")).to_have_text(re.compile(r"^WOZ-[0-9A-F]{10}$"))
    expect(worker.locator("#message")).to_be_disabled()
    # The expert too, and scores as after any end.
    expect(expert.locator("#score-panel")).to_be_visible()
    expect(expert.get_by_test_id("chat-log")).to_contain_text("A supervisor ended the dialogue.")


def test_a_supervisor_sends_the_worker_back_to_the_queue(new_page, paired):
    worker, expert, _ = paired("walt", "xeno")
    ada = new_page("ada")
    watch_from_the_board(ada, "walt")
    ada.check("input[name=action][value=requeue]")
    ada.get_by_label("Reason (required)").fill("The expert has to leave.")
    ada.get_by_role("button", name="Do it").click()
    expect(ada.get_by_test_id("act")).to_contain_text("there is nothing to act on")
    expect(ada.get_by_test_id("work")).to_contain_text("worker back in the queue")
    # The worker reads why in the room, which stays until they choose to go (it keeps their place meanwhile and says
    # what it is), instead of jumping to the lobby in the moment the reason appears.
    room_url = worker.url
    expect(worker.get_by_test_id("requeued-reason")).to_have_text(
        "A supervisor sent you back to the queue, in the place you had. Their reason: The expert has to leave."
    )
    expect(worker.get_by_test_id("requeued-place")).to_have_text(re.compile(r"^Your place in the queue: 1 of \d+\.$"))
    assert worker.url == room_url
    expect(worker.locator("#message")).to_be_disabled()
    # The expert is not asked to score a pairing that was cancelled: the room says what became of it.
    expect(expert.get_by_test_id("chat-log")).to_contain_text("A supervisor sent the worker back to the queue.")
    expect(expert.get_by_test_id("summary")).to_contain_text("Pairing cancelled")
    expect(expert.get_by_test_id("summary")).to_contain_text("the worker went back to the queue")
    expect(expert.locator("#score-panel")).to_be_hidden()
    # The worker goes back when they are ready, and waits in the lobby (the stuck expert is no longer ready).
    worker.get_by_test_id("back-to-queue").click()
    expect(worker).to_have_url(re.compile(r"/worker/\?join=1$"))
    expect(worker.get_by_test_id("worker-status")).to_have_text(re.compile(r"Waiting for an expert|You are next"))
