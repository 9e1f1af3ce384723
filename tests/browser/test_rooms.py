"""The live rooms in a real browser: tutorial, lobby pairing, the worker's and the expert's screens, reloads.

Each test pairs its own worker with its own expert: a worker never gets the same goal twice, an expert takes one
dialogue at a time, and a ready expert left over from another test would take the next worker.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from dialogs.tutorial import quiz_bank
from tests.browser.held_frames import HeldFrames, event_of, message_of

ROOM_URL = re.compile(r"/dialogues/\d+/$")
WORKER_TIMEOUT = 15_000


@pytest.fixture(autouse=True)
def patient_expectations():
    """Two live browsers, a server and the SQL sandbox share the machine: give each expectation more than 5 s."""
    expect.set_options(timeout=12_000)
    yield
    expect.set_options(timeout=5_000)


def watch_frames(page) -> list[str]:
    """Every websocket frame the page receives (to prove what the worker's browser is never sent)."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    return frames


def answer_quiz(page, *, right: bool):
    """Choose, for every question of the worker's quiz, its right answer (read from the bank by the question's id) or
    a wrong one."""
    bank = {question.id: question for question in quiz_bank()}
    for fieldset in page.locator("fieldset[data-question]").all():
        question = bank[fieldset.get_attribute("data-question")]
        fieldset.get_by_label(question.right if right else question.wrong[0], exact=True).check()


def pass_tutorial(page):
    page.goto("/worker/")
    expect(page).to_have_url(re.compile("/worker/tutorial/$"))
    expect(page.locator(".follow-ups li")).to_have_count(5)
    # A wrong try first: the quiz says so where the worker looks, with their choices kept, and lets them retry.
    answer_quiz(page, right=False)
    page.get_by_role("button", name="Check my answers").click()
    expect(page.get_by_test_id("quiz-failed")).to_be_in_viewport()
    questions = page.locator("fieldset[data-question]")
    expect(questions.locator("input:checked")).to_have_count(questions.count())
    answer_quiz(page, right=True)
    page.get_by_role("button", name="Check my answers").click()
    # On to the lobby, which may already have paired the worker and moved on to the room.
    expect(page).to_have_url(re.compile(r"/worker/$|/dialogues/\d+/$"))


def test_wrong_tries_at_the_quiz_end_in_a_cool_down_that_a_new_session_keeps(new_page, people, platform):
    people("quentin", "erin")
    worker = new_page("quentin")
    worker.goto("/worker/tutorial/")
    worker.screenshot(path="/tmp/wozsql_quiz.png", full_page=True)  # to look at
    tries = int(platform.env.get("QUIZ_TRIES", "3"))
    for left in range(tries - 1, 0, -1):
        answer_quiz(worker, right=False)
        worker.get_by_role("button", name="Check my answers").click()
        failed = worker.get_by_test_id("quiz-failed")
        expect(failed).to_be_in_viewport()
        expect(failed).to_contain_text(f"{left} tr")
    worker.screenshot(path="/tmp/wozsql_quiz_failed.png")  # the viewport: what the worker sees after pressing
    answer_quiz(worker, right=False)
    worker.get_by_role("button", name="Check my answers").click()
    cooldown = worker.get_by_test_id("quiz-cooldown")
    expect(cooldown).to_be_in_viewport()
    expect(cooldown).to_contain_text("the quiz opens again in")
    expect(worker.get_by_role("button", name="Check my answers")).to_have_count(0)
    # Signed in afresh (another browser, no cookie of the first): the cool-down is the worker's, not the browser's.
    phone = new_page("quentin", viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto("/worker/tutorial/")
    expect(phone.get_by_test_id("quiz-cooldown")).to_contain_text("the quiz opens again in")
    phone.get_by_test_id("quiz-cooldown").scroll_into_view_if_needed()
    phone.screenshot(path="/tmp/wozsql_quiz_cooldown_phone.png")  # to look at, at a phone's width


def pair(worker, expert):
    """The expert switches on "ready"; the worker passes the tutorial and lands in the lobby; both reach the room."""
    expert.goto("/expert/")
    toggle = expert.locator("#ready-toggle")
    expect(toggle).to_be_enabled()
    expert.locator("label.switch").click()
    expect(toggle).to_be_checked()
    pass_tutorial(worker)
    expect(worker).to_have_url(ROOM_URL, timeout=WORKER_TIMEOUT)
    expect(expert).to_have_url(ROOM_URL, timeout=WORKER_TIMEOUT)
    assert worker.url == expert.url
    expect(expert.get_by_test_id("partner")).to_have_text("Worker: connected")


def first_table(expert) -> str:
    return expert.locator(".table-tab").first.inner_text()


def read_tables_and_reveal(worker):
    expect(worker.locator("#step-tables")).to_be_visible()
    expect(worker.locator("#table-content table tbody tr").first).to_be_visible()
    tabs = worker.locator(".table-tab")
    if tabs.count() > 1:
        tabs.nth(1).click()
        expect(worker.locator("#table-title")).to_contain_text(tabs.nth(1).inner_text())
    worker.get_by_role("button", name=re.compile("show my goal question")).click()
    expect(worker.get_by_test_id("goal-question")).not_to_be_empty()


def ask(worker, expert, text: str):
    worker.fill("#message", text)
    worker.press("#message", "Enter")
    expect(expert.locator("#turn-quote")).to_have_text(text)


def label(expert, *acts: str):
    for act in acts:  # ticking saves at once
        expert.check(f"#user-acts input[value={act}]")
    expect(expert.locator("#acts-state")).to_have_text(f"saved: {', '.join(acts)}")


def run_and_share(expert, sql: str):
    expert.fill("#sql-input", sql)
    expert.locator("#run-sql").click()
    run = expert.locator(".run").first
    expect(run.locator(".sql-block")).to_have_text(sql)
    run.get_by_role("button", name="Send this result to the user").click()
    expect(run).to_have_class(re.compile(r"\bsent\b"))


def respond(expert, text: str, *acts: str):
    expert.fill("#response-text", text)
    for act in acts:
        expert.check(f"#system-acts input[value={act}]")
    expert.get_by_role("button", name="Send response").click()


def answer_with_sql(worker, expert, question: str, sql: str, response: str):
    ask(worker, expert, question)
    label(expert, "INFORM_SQL")
    run_and_share(expert, sql)
    respond(expert, response, "CONFIRM_SQL")
    expect(worker.locator(".bubble.response").last).to_have_text(re.compile(re.escape(response)))


def end_and_score(worker, expert, score: int):
    """The worker ends (and confirms); the expert scores and sees the summary."""
    worker.get_by_role("button", name="End dialogue").click()
    worker.get_by_role("button", name="End the dialogue").click()
    expect(expert.locator("#score-panel")).to_be_visible()
    expert.locator("label.score-option", has_text=str(score)).click()
    expert.get_by_role("button", name="Submit score").click()
    expect(expert.locator("#summary")).to_be_visible()


def exported(out, pattern: str) -> list:
    """Every interaction of one exported file name `pattern` (with `{split}`), train, dev and test together."""
    return [
        item
        for split in ("train", "dev", "test")
        for item in json.loads((out / pattern.format(split=split)).read_text(encoding="utf-8"))
    ]


def chat_snapshot(page) -> dict:
    log = page.get_by_test_id("chat-log")
    return {
        "questions": log.locator(".bubble.question .text").all_inner_texts(),
        "responses": log.locator(".bubble.response .text").all_inner_texts(),
        "tables": log.locator(".bubble.result").count(),
        "warnings": log.locator(".notice.warn").count(),
    }


def test_worker_and_expert_complete_a_dialogue(new_page, people):
    people("alice", "erin")
    worker, expert = new_page("alice"), new_page("erin")
    frames = watch_frames(worker)
    pair(worker, expert)
    read_tables_and_reveal(worker)
    table = first_table(expert)
    expect(expert.locator("#goal-sql")).to_contain_text("SELECT")

    # 1. A question answered by SQL, with a result table.
    count_sql = f"SELECT count(*) FROM {table}"
    answer_with_sql(worker, expert, f"How many {table} rows are there?", count_sql, f"There are some {table} rows.")
    expect(worker.locator(".bubble.result")).to_have_count(1)
    expect(worker.locator(".bubble.result .result-caption")).to_contain_text("1 row")

    # 2. An ambiguous question: the expert asks back (CLARIFY) without any SQL.
    ask(worker, expert, "Which ones are the big ones?")
    label(expert, "AMBIGUOUS")
    respond(expert, "Do you mean the ones with the most rows linked to them?", "CLARIFY")
    expect(worker.locator(".bubble.response")).to_have_count(2)
    expect(worker.locator(".bubble.result")).to_have_count(1)

    worker.screenshot(path="/tmp/wozsql_worker_room.png", full_page=True)  # mid-dialogue, to look at

    # The expert can go back to an older turn (its run is still there, marked as sent) and return to the newest.
    expert.locator(".bubble.question", has_text=f"How many {table} rows are there?").click()
    expect(expert.locator("#turn-title")).to_have_text("Question 1 (answered)")
    expect(expert.locator(".run.sent .sql-block")).to_have_text(count_sql)
    expert.get_by_role("button", name="Back to the newest question").click()
    expect(expert.locator("#turn-title")).to_contain_text("All questions are answered")

    # 3. The worker confirms, the expert answers with a table of several rows.
    list_sql = f"SELECT * FROM {table} LIMIT 5"
    ask(worker, expert, "Yes. Show me the first five of them.")
    label(expert, "INFORM_SQL", "AFFIRM")
    run_and_share(expert, list_sql)
    expert.fill("#response-text", f"Here are the first five {table} rows.")
    expert.screenshot(path="/tmp/wozsql_expert_room.png", full_page=True)  # mid-turn, to look at
    respond(expert, f"Here are the first five {table} rows.", "CONFIRM_SQL", "REQUEST_MORE")
    expect(worker.locator(".bubble.response")).to_have_count(3)
    expect(worker.locator(".bubble.result")).to_have_count(2)
    expect(worker.locator(".bubble.result").last.locator("tbody tr")).to_have_count(5)
    # Questions 2 and 3 count once (a clarified question counts when its answer is answered with SQL): a fourth.
    end = worker.get_by_role("button", name="End dialogue")
    expect(end).to_be_disabled()
    answer_with_sql(worker, expert, "And the first one alone?", f"SELECT * FROM {table} LIMIT 1", "This one.")

    # The worker ends; the completion code is shown and the input is closed.
    expect(end).to_be_enabled()
    end.click()
    worker.get_by_role("button", name="Keep asking").click()  # asked once more: not yet
    expect(worker.locator("#message")).to_be_enabled()
    end.click()
    worker.get_by_role("button", name="End the dialogue").click()
    expect(worker.get_by_test_id("completion-code")).to_have_text(re.compile(r"^WOZ-[0-9A-F]+$"))
    expect(worker.locator("#message")).to_be_disabled()

    # The expert scores the worker and gets a summary with the way back to the desk.
    expect(expert.locator("#score-panel")).to_be_visible()
    expert.locator("label.score-option", has_text="4").click()
    expert.fill("#score-comment", "Good related questions.")
    expert.get_by_role("button", name="Submit score").click()
    expect(expert.locator("#summary")).to_be_visible()
    expect(expert.locator("#summary-facts")).to_contain_text("4")
    # Not paired again while scoring: asked whether to stay ready.
    expert.get_by_role("button", name="Stop for now").click()
    expect(expert).to_have_url(re.compile("/expert/$"))
    expect(expert.locator("#ready-toggle")).not_to_be_checked()

    # The worker is not queued again by looking at "My tasks": another dialogue is taken on purpose.
    worker.get_by_role("link", name="Take another dialogue").wait_for()
    worker.goto("/worker/")
    expect(worker.get_by_role("button", name="Wait for an expert")).to_be_visible()

    # The worker's browser never held any SQL: not on the page, not in a single websocket frame.
    html = worker.content()
    received = "\n".join(frames)
    for sql in (count_sql, list_sql):
        assert sql not in html and sql not in received
    assert "SELECT" not in html and "SELECT" not in received
    assert '"sql"' not in received and "goal_sql" not in received
    assert any('"result_shared"' in frame for frame in frames)


class FlakyNetwork:
    """Routes a page's room sockets through Playwright so a test can cut the line and put it back.

    While "down", a reconnecting page gets a socket that opens but reaches no server: what it sends is lost, exactly
    as on a dead connection, and only the client's outbox can bring it back.
    """

    def __init__(self, page):
        self.down = False
        self.current = None  # (page side, server side or None)
        page.route_web_socket(re.compile(r"/ws/dialogues/\d+/$"), self._route)

    def _route(self, ws):
        self.current = (ws, None if self.down else ws.connect_to_server())

    def cut(self):
        self.down = True
        self._close()

    def restore(self):
        self.down = False
        self._close()  # the page reconnects (with its back-off) and this time reaches the server

    def _close(self):
        page_side, server_side = self.current
        if server_side is not None:
            server_side.close(code=1001)
        page_side.close(code=4000, reason="network test")  # any code but 4401/4403/4404 means: reconnect


def test_reloading_either_room_loses_nothing(new_page, paired):
    worker = new_page("bob")
    network = FlakyNetwork(worker)
    worker, expert, _ = paired("bob", "ethan", worker_page=worker)
    read_tables_and_reveal(worker)
    table = first_table(expert)
    answer_with_sql(worker, expert, "How many are there?", f"SELECT count(*) FROM {table}", "There are a few.")

    # The line drops: the expert sees the worker reconnecting; a question sent meanwhile waits in the outbox.
    network.cut()
    expect(expert.get_by_test_id("partner")).to_contain_text("reconnecting")
    worker.fill("#message", "And the big ones?")
    worker.press("#message", "Enter")
    expect(worker.locator("#pending .bubble")).to_have_text(re.compile("sending….*And the big ones?"))
    expect(expert.locator("#turn-title")).to_contain_text("All questions are answered")
    # Back online: resent once with the same id, drawn once on both screens.
    network.restore()
    expect(expert.locator("#turn-quote")).to_have_text("And the big ones?", timeout=WORKER_TIMEOUT)
    expect(worker.locator("#pending .bubble")).to_have_count(0)
    expect(worker.locator(".bubble.question")).to_have_count(2)
    expect(expert.locator(".bubble.question")).to_have_count(2)
    expect(expert.get_by_test_id("partner")).to_have_text("Worker: connected")

    label(expert, "AMBIGUOUS")
    respond(expert, "Which ones do you call big?", "CLARIFY")
    expect(worker.locator(".bubble.response")).to_have_count(2)
    # The expert is half-way through the third turn: labels saved and one run, not sent yet.
    ask(worker, expert, "The first three, please.")
    label(expert, "INFORM_SQL")
    expert.fill("#sql-input", f"SELECT * FROM {table} LIMIT 3")
    expert.locator("#run-sql").click()
    expect(expert.locator(".run")).to_have_count(1)

    worker_before, expert_before = chat_snapshot(worker), chat_snapshot(expert)
    assert worker_before["questions"] == ["How many are there?", "And the big ones?", "The first three, please."]
    assert worker_before["tables"] == 1 and len(worker_before["responses"]) == 2

    worker.reload()
    expect(worker.locator("#step-chat")).to_be_visible()  # straight back to the chat, not to step 1
    expect(worker.locator(".bubble.question")).to_have_count(3)
    expect(worker.locator(".bubble.response")).to_have_count(2)
    assert chat_snapshot(worker) == worker_before
    expect(worker.get_by_test_id("goal-question")).not_to_be_empty()
    expect(worker.get_by_test_id("end-hint")).to_contain_text("2 more questions")  # only the first has its table

    expert.reload()
    expect(expert.locator(".bubble.question")).to_have_count(3)
    expect(expert.locator(".bubble.response")).to_have_count(2)
    assert chat_snapshot(expert) == expert_before
    expect(expert.locator("#turn-quote")).to_have_text("The first three, please.")
    expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL")
    expect(expert.locator(".run")).to_have_count(1)
    expect(expert.get_by_test_id("partner")).to_have_text("Worker: connected")

    # Both reloaded screens go on with the dialogue, and nothing appears twice.
    run = expert.locator(".run").first
    run.get_by_role("button", name="Send this result to the user").click()
    # The act ticked at once, while what the share brings lands above it (in room kept for it: the test below).
    respond(expert, "Here are the first three.", "CONFIRM_SQL")
    expect(worker.locator(".bubble.response")).to_have_count(3)
    expect(worker.locator(".bubble.result")).to_have_count(2)
    expect(worker.locator(".bubble.question")).to_have_count(3)
    # Two questions answered with SQL (the clarified one counts once, with its answer): a third before the end.
    answer_with_sql(worker, expert, "And the last one?", f"SELECT * FROM {table} LIMIT 1", "This one.")
    expect(worker.get_by_role("button", name="End dialogue")).to_be_enabled()
    worker.reload()
    expect(worker.locator(".bubble.result")).to_have_count(3)
    expect(worker.locator(".bubble.response")).to_have_count(4)
    worker.get_by_role("button", name="End dialogue").click()
    worker.get_by_role("button", name="End the dialogue").click()
    expect(worker.get_by_test_id("completion-code")).to_have_text(re.compile("^WOZ-"))
    expect(expert.locator("#score-panel")).to_be_visible()


def test_end_waits_for_three_answered_questions(new_page, paired):
    worker, expert, _ = paired("carol", "fay")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    end, hint = worker.get_by_role("button", name="End dialogue"), worker.get_by_test_id("end-hint")
    expect(end).to_be_disabled()
    expect(hint).to_contain_text("Ask 3 more questions")

    answer_with_sql(worker, expert, "How many are there?", f"SELECT count(*) FROM {table}", "There are some.")
    expect(hint).to_contain_text("Ask 2 more questions")
    expect(end).to_be_disabled()

    # A dropped question does not count; the worker sees the warning, highlighted.
    ask(worker, expert, "What is the weather like today?")
    expert.locator("#drop-box summary").click()
    expert.fill("#drop-warning", "Please ask about the data in the tables.")
    expert.get_by_role("button", name="Drop this turn").click()
    warning = worker.get_by_test_id("chat-log").locator(".notice.warn")
    expect(warning).to_contain_text("Please ask about the data in the tables.")
    expect(hint).to_contain_text("Ask 2 more questions")

    # Nor does an off-topic question the expert answers with REJECT: only questions answered with SQL count.
    ask(worker, expert, "Do you like football?")
    label(expert, "NOT_RELATED")
    respond(expert, "Sorry, I can only answer questions about these tables.", "REJECT")
    expect(worker.locator(".bubble.response")).to_have_count(2)
    expect(hint).to_contain_text("Ask 2 more questions about the data")
    expect(hint).to_contain_text("1 of 3 answered with a table")

    answer_with_sql(worker, expert, "Show me three of them.", f"SELECT * FROM {table} LIMIT 3", "Here are three.")
    expect(hint).to_contain_text("Ask 1 more question ")
    expect(end).to_be_disabled()
    answer_with_sql(worker, expert, "And two of them?", f"SELECT * FROM {table} LIMIT 2", "Here are two.")
    expect(end).to_be_enabled()
    expect(hint).to_contain_text("You can end now")


def test_a_worker_waiting_for_a_busy_expert_is_told_so_and_paired_when_the_expert_finishes(
    new_page, paired, people, platform
):
    """Xavi is ready and in a dialogue with Viv: his desk says when he takes the next worker, and Vera, who waits,
    is told an expert is online but busy (not "no expert is online"), with an estimate or "no estimate yet"."""
    people("vera", "xavi")
    platform.build("browser_tutorial_passed", "vera")
    worker, expert, dialogue = paired("viv", "xavi")
    desk = new_page("xavi")  # his desk in another tab, while the room stays open
    desk.goto("/expert/")
    busy = (
        f"You are ready, but busy with dialogue {dialogue}: you are paired with the next waiting worker when you "
        "finish it (end it, score the worker and choose “Stay ready”)."
    )
    expect(desk.get_by_test_id("ready-hint")).to_have_text(busy)
    expect(desk.locator("#ready-toggle")).to_be_checked()

    vera = new_page("vera")  # her first visit: the lobby queues her
    expect(vera.get_by_test_id("worker-status")).to_have_text(
        "You are next. Waiting for an expert: every expert online is busy with a dialogue, and you are paired when "
        "one finishes."
    )
    expect(vera.get_by_test_id("experts-online")).to_have_text(re.compile(r"^\d+ busy in a dialogue$"))
    # An estimate from the dialogues under way, or honestly none yet (no dialogue of this platform completed): never
    # "no expert is online".
    expect(vera.get_by_test_id("estimate")).to_have_text(
        re.compile(r"^(no estimate yet|less than a minute|about \d+ minutes?)($|: longer than)")
    )
    expect(desk.locator("#waiting-count")).to_have_text("1")

    # Xavi ends the dialogue, scores Viv and stays ready: Vera is paired with him.
    expert.locator("#terminate").click()
    expert.locator("#terminate-confirm").click()
    expect(expert.locator("#score-panel")).to_be_visible()
    expert.locator("label.score-option", has_text="4").click()
    expert.get_by_role("button", name="Submit score").click()
    expert.get_by_role("button", name="Stay ready for the next worker").click()
    expect(vera).to_have_url(ROOM_URL, timeout=WORKER_TIMEOUT)
    expect(desk).to_have_url(vera.url, timeout=WORKER_TIMEOUT)  # the desk that was open opens the room
    paired_with = int(vera.url.rstrip("/").rsplit("/", 1)[1])
    expect(expert.locator(".messages")).to_contain_text(f"A waiting worker is paired with you: dialogue {paired_with}.")


def test_the_worker_reads_the_tables_by_their_readable_names(new_page, paired):
    """Every demo database names its tables and columns with underscores: the worker's tabs, captions, table titles
    and column headings read them as words (what a link table's caption says: test_schema.py)."""
    worker, _, _ = paired("rhea", "rolf")
    tabs = worker.locator(".table-tab")
    expect(tabs.first).to_be_enabled()
    for index in range(tabs.count()):
        tab = tabs.nth(index)
        real = tab.get_attribute("data-testid").removeprefix("table-")
        tab.click()
        expect(worker.locator("#table-title")).to_contain_text(tab.inner_text())
        expect(worker.locator("#table-content thead th").first).to_be_visible()
        caption = worker.locator("[data-links]:visible").inner_text()
        assert caption.startswith("Each row"), caption
        shown = [tab.inner_text(), caption, worker.locator("#table-content thead").inner_text()]
        assert not any("_" in text for text in shown), (real, shown)


def test_a_worker_stops_early_says_why_and_gets_their_code(new_page, paired, platform):
    worker, expert, dialogue = paired("stella", "sid")
    read_tables_and_reveal(worker)
    answer_with_sql(worker, expert, "How many are there?", f"SELECT count(*) FROM {first_table(expert)}", "Some.")
    stop = worker.get_by_test_id("stop")
    expect(stop).to_be_visible()  # offered while the dialogue cannot be ended yet
    stop.click()
    worker.get_by_role("button", name="Keep going").click()  # a second thought: nothing happens
    expect(worker.locator("#message")).to_be_enabled()
    stop.click()
    worker.fill("#stop-reason", "I have to leave for a meeting.")
    worker.get_by_role("button", name="Stop the dialogue").click()
    expect(worker.locator("#finished-title")).to_have_text("You stopped the dialogue early")
    expect(worker.locator("#completion-code")).not_to_have_text("…")
    expect(stop).to_be_hidden()
    # The expert learns why; the log keeps it.
    expect(expert.get_by_test_id("chat-log")).to_contain_text("I have to leave for a meeting.")


def test_expert_cannot_send_without_labels(new_page, paired):
    worker, expert, _ = paired("dave", "gus")
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many are there?")
    refusal = expert.get_by_test_id("send-refusal")

    # No user acts saved for the turn.
    respond(expert, "There are some.", "CONFIRM_SQL")
    expect(refusal).to_contain_text("Label the user acts first")
    # Labels saved, but CONFIRM_SQL without a result table sent to the user.
    label(expert, "INFORM_SQL")
    expert.get_by_role("button", name="Send response").click()
    expect(refusal).to_contain_text("CONFIRM_SQL needs a result table")
    # No system act at all.
    expert.uncheck("#system-acts input[value=CONFIRM_SQL]")
    expert.get_by_role("button", name="Send response").click()
    # The step it names is the one that holds the system acts.
    acts_step = expert.locator("#step-response .step-no").inner_text()
    expect(refusal).to_have_text(f"Tick at least one system act in step {acts_step}.")
    expect(expert.locator("#step-response:has(#system-acts)")).to_have_count(1)
    # Nothing reached the worker.
    expect(worker.locator(".bubble.response")).to_have_count(0)

    # The server's own refusal (here: a label it does not know) is shown next to the panel too, floating at the foot
    # of the screen: the steps do not move under the pointer as it comes and goes (those above the response's guide,
    # which the act's change itself redraws).
    steps = "#user-acts label.act, #run-sql, #system-acts label.act, #response-text"
    before = boxes_of(expert, steps)
    expert.evaluate(
        """() => { const box = document.querySelector('#user-acts input');
                   box.value = 'SHOUTING'; box.checked = true;
                   box.dispatchEvent(new Event('change', { bubbles: true })); }"""
    )
    expect(expert.get_by_test_id("panel-errors")).to_contain_text("labels")
    expect(expert.get_by_test_id("panel-errors")).to_contain_text("SHOUTING")
    assert boxes_of(expert, steps) == before, "the steps moved when the refusal came"
    expert.get_by_test_id("close-errors").click()
    expect(expert.get_by_test_id("panel-errors")).to_be_hidden()

    # A clarification does not answer a question labelled INFORM_SQL (the act rules of CoSQL's appendix A) ...
    expert.reload()
    expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL")
    respond(expert, "Could you say which ones you mean?", "CLARIFY")
    expect(refusal).to_contain_text("An INFORM_SQL question is answered with its result table and CONFIRM_SQL")
    expect(expert.get_by_test_id("response-guide")).to_contain_text("Did you mean")
    # ... but it answers the same question labelled AMBIGUOUS, and goes through.
    expert.uncheck("#user-acts input[value=INFORM_SQL]")
    label(expert, "AMBIGUOUS")
    expert.get_by_role("button", name="Send response").click()
    expect(refusal).to_have_text("")
    expect(worker.locator(".bubble.response")).to_have_count(1)
    assert json.dumps(chat_snapshot(worker)).count("Could you say which ones you mean?") == 1


def test_a_refused_room_socket_says_why_and_is_not_retried(new_page):
    page = new_page("erin")
    page.goto("/expert/")
    outcome = page.evaluate(
        """async () => {
            const { WsClient } = await import("/static/js/wsclient.js");
            return await new Promise((resolve) => {
                const states = [];
                const client = new WsClient("/ws/dialogues/999999/", {
                    resumeKey: "dialogue-999999",
                    handlers: {
                        connection: ({ state }) => states.push(state),
                        // Wait past the first back-off step: a retry would show up as a second "connecting".
                        fatal: (code, text) => setTimeout(() => resolve({ code, text, states }), 1500),
                    },
                });
                client.start();
                // A tab too busy to take the close frame in for longer than the server waits for the closing reply
                // (autobahn's 1 s): the server's reset then hid the code from the browser (docs/pitfalls.md).
                const busyUntil = Date.now() + 3000;
                while (Date.now() < busyUntil) {}
            });
        }"""
    )
    assert outcome["code"] == 4404
    assert "does not exist" in outcome["text"]
    assert outcome["states"] == ["connecting", "open", "failed"]


def test_an_expert_answers_three_questions_with_the_keyboard(new_page, paired, platform, tmp_path):
    """Acts by their keys, SQL typed with the editor's completion and run with Ctrl+Enter, the result sent and the
    response sent from the keyboard; the export holds what was labelled so."""
    worker, expert, _ = paired("kim", "kai")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    questions = [
        ("How many rows are there?", f"SELECT count(*) FROM {table}"),
        ("Show me two of them.", f"SELECT * FROM {table} LIMIT 2"),
        ("And three?", f"SELECT * FROM {table} LIMIT 3"),
    ]
    keyboard = expert.keyboard
    for number, (question, sql) in enumerate(questions, start=1):
        ask(worker, expert, question)
        expert.locator("body").click(position={"x": 1, "y": 1})  # out of any text box: the act keys apply
        keyboard.press("1")  # INFORM_SQL, the first user act
        expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL")
        editor = expert.locator("#sql-input")
        editor.focus()
        keyboard.type(sql[: sql.index(table) + len(table) - 1])  # the table's name but its last letter: completion
        options = expert.locator(".cm-tooltip-autocomplete li")
        expect(options.first).to_be_visible()
        # The table among the offered names (its columns may come first): arrow down to it, then Enter.
        expert.wait_for_timeout(150)  # CodeMirror takes no key in the first 75 ms of its list (its own rule)
        selected = expert.locator(".cm-tooltip-autocomplete li[aria-selected=true] .cm-completionLabel")
        for _ in range(options.count()):
            if selected.inner_text() == table:
                break
            keyboard.press("ArrowDown")
        expect(selected).to_have_text(table)
        keyboard.press("Enter")
        keyboard.type(sql[sql.index(table) + len(table) :])
        expect(editor).to_have_text(sql)
        keyboard.press("Control+Enter")
        run = expert.locator(".run").first
        expect(run.locator(".sql-block")).to_have_text(sql)
        run.get_by_role("button", name="Send this result to the user").focus()
        keyboard.press("Enter")
        expect(run).to_have_class(re.compile(r"\bsent\b"))
        response = expert.locator("#response-text")
        response.focus()
        keyboard.press("Control+a")
        keyboard.type(f"Answer {number}.")
        keyboard.press("Tab")  # to the system acts
        keyboard.press("q")  # CONFIRM_SQL, the first system act
        expect(expert.locator("#system-acts input[value=CONFIRM_SQL]")).to_be_checked()
        expert.get_by_role("button", name="Send response").focus()
        keyboard.press("Enter")
        expect(worker.locator(".bubble.response .text").last).to_have_text(f"Answer {number}.")

    end_and_score(worker, expert, 5)
    out = tmp_path / "export"
    platform.manage("export_dataset", "--format", "sparc", "--out", str(out), "--status", "completed", "--quiet")
    ours = [
        item for item in exported(out, "sparc/{split}.json") if item["interaction"][0]["utterance"] == questions[0][0]
    ]
    assert [turn["query"] for turn in ours[-1]["interaction"]] == [sql for _, sql in questions]


def test_a_draft_landing_while_the_expert_is_in_the_empty_box_is_replaced_by_their_first_key(new_page, paired, people):
    people("ivo", "nadia")
    expert = new_page("nadia")
    drafts = HeldFrames(expert, from_server=event_of("turn_labels", draft=...))
    worker, expert, _ = paired("ivo", "nadia", expert_page=expert)
    read_tables_and_reveal(worker)
    table = first_table(expert)
    ask(worker, expert, "How many rows are there?")
    label(expert, "INFORM_SQL")
    run_and_share(expert, f"SELECT count(*) FROM {table}")
    drafts.wait()
    response = expert.locator("#response-text")
    response.focus()  # the expert starts on their own answer before the draft arrives
    expect(response).to_have_value("")
    drafts.release()
    expect(response).not_to_have_value("")  # the draft is offered
    expect(expert.get_by_test_id("draft-note")).to_be_visible()
    drafted = response.input_value()  # counted as if typed (the count shows near the limit)
    expect(expert.get_by_test_id("response-count")).to_have_text(f"{len(drafted)} / 2,000 characters")
    expert.keyboard.type("My own words.")
    expect(response).to_have_value("My own words.")
    expect(expert.get_by_test_id("draft-note")).to_be_hidden()


def test_an_act_ticked_while_the_save_of_the_one_before_comes_back_stays_ticked(new_page, paired, people):
    """The echo of an older save of the user acts never unticks an act the expert ticked after it left."""
    people("gina", "gil")
    expert = new_page("gil")
    # The echo of the first save held on its way to the page; the second save held on its way to the server.
    held = HeldFrames(
        expert,
        from_server=event_of("user_acts"),
        from_page=lambda frame: frame.get("type") == "user_acts" and "AFFIRM" in frame.get("acts", []),
    )
    worker, expert, dialogue = paired("gina", "gil", expert_page=expert)
    read_tables_and_reveal(worker)
    ask(worker, expert, "Yes, and how many rows are there?")
    state = expert.locator("#acts-state")
    affirm = expert.locator("#user-acts input[value=AFFIRM]")
    expert.check("#user-acts input[value=INFORM_SQL]")
    held.wait(held.to_page)  # INFORM_SQL is saved; the page has not heard yet
    expert.check("#user-acts input[value=AFFIRM]")
    held.wait(held.to_server)  # the expert's second save has left
    held.to_page.release()  # the first save's echo lands
    expect(state).to_have_text("unsaved changes")
    expect(affirm).to_be_checked()
    held.release()
    expect(state).to_have_text("saved: INFORM_SQL, AFFIRM")
    expect(affirm).to_be_checked()


def test_a_result_on_its_way_to_the_user_cannot_be_sent_twice(new_page, paired, people):
    """While a share is on its way, a redraw (any frame of the room) leaves its button saying Sending…, not ready to
    send the table a second time."""
    people("hedda", "hal")
    expert = new_page("hal")
    held = HeldFrames(expert, from_page=message_of("share_result"))
    worker, expert, _ = paired("hedda", "hal", expert_page=expert)
    read_tables_and_reveal(worker)
    table = first_table(expert)
    ask(worker, expert, "How many rows are there?")
    label(expert, "INFORM_SQL")
    expert.fill("#sql-input", f"SELECT count(*) FROM {table}")
    expert.locator("#run-sql").click()
    run = expert.locator(".run").first
    expect(run.locator(".sql-block")).to_have_text(f"SELECT count(*) FROM {table}")
    run.get_by_role("button", name="Send this result to the user").click()
    held.wait()
    share = run.locator("button.share")
    expect(share).to_have_text("Sending…")
    worker.fill("#message", "And the newest one?")  # a frame that redraws the expert's panels
    worker.press("#message", "Enter")
    expect(expert.locator(".bubble.question")).to_have_count(2)
    expect(share).to_have_text("Sending…")
    expect(share).to_be_disabled()
    held.release()
    expect(run).to_have_class(re.compile(r"\bsent\b"))
    expect(worker.locator(".bubble.result")).to_have_count(1)


def test_the_share_button_the_expert_is_on_keeps_the_focus_when_a_frame_redraws_the_runs(paired):
    """A keyboard user on a run's share button stays there through the room's frames: the runs are redrawn in place."""
    worker, expert, _ = paired("inga", "igor")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    ask(worker, expert, "How many rows are there?")
    label(expert, "INFORM_SQL")
    expert.fill("#sql-input", f"SELECT count(*) FROM {table}")
    expert.locator("#run-sql").click()
    run = expert.locator(".run").first
    expect(run.locator(".sql-block")).to_have_text(f"SELECT count(*) FROM {table}")
    share = run.get_by_role("button", name="Send this result to the user")
    share.focus()
    worker.fill("#message", "And the newest one?")  # a frame that redraws the expert's panels
    worker.press("#message", "Enter")
    expect(expert.locator(".bubble.question")).to_have_count(2)
    expect(share).to_be_focused()
    expert.keyboard.press("Enter")
    expect(run).to_have_class(re.compile(r"\bsent\b"))


def test_a_label_changed_while_the_saved_labels_come_back_stays_changed(new_page, paired, people):
    """The expert's saved CHASE labels landing never take back what they changed after pressing Save."""
    people("jade", "jules")
    expert = new_page("jules")
    saved = event_of("turn_labels", source="expert")
    held = HeldFrames(expert, from_server=saved)
    worker, expert, _ = paired("jade", "jules", expert_page=expert)
    read_tables_and_reveal(worker)
    table = first_table(expert)
    ask(worker, expert, "How many rows are there?")
    label(expert, "INFORM_SQL")
    run_and_share(expert, f"SELECT count(*) FROM {table}")
    expect(expert.locator("#response-text")).not_to_have_value("")  # the detected labels have landed, with a draft
    state = expert.get_by_test_id("labels-state")
    phenomena = expert.locator("#step-labels .phenomena input")
    phenomena.nth(0).check()
    expert.get_by_role("button", name="Save CHASE labels").click()
    held.wait()  # saved; the page has not heard yet
    phenomena.nth(1).check()
    held.release()
    expect(state).to_have_text("unsaved changes")
    expect(phenomena.nth(0)).to_be_checked()
    expect(phenomena.nth(1)).to_be_checked()
    expert.get_by_role("button", name="Save CHASE labels").click()
    expect(state).to_have_text("saved")
    expect(phenomena.nth(1)).to_be_checked()


def test_sharing_an_empty_or_an_older_result_asks_first(new_page, paired):
    worker, expert, _ = paired("lena", "omar")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    ask(worker, expert, "Are there any rows at all?")
    label(expert, "INFORM_SQL")
    # An empty result: the expert is asked, and Cancel sends nothing.
    expert.locator("#sql-input").fill(f"SELECT * FROM {table} WHERE 1 = 0")
    expert.locator("#run-sql").click()
    empty = expert.locator(".run").first
    expect(empty.locator(".sql-block")).to_contain_text("1 = 0")
    empty.get_by_role("button", name="Send this result to the user").click()
    guard = empty.get_by_test_id("share-guard")
    expect(guard).to_contain_text("no rows")
    guard.get_by_role("button", name="Cancel").click()
    expect(guard).to_be_hidden()
    # An older run, once a newer one succeeded: asked again; "Send anyway" sends it.
    expert.locator("#sql-input").fill(f"SELECT count(*) FROM {table}")
    expert.locator("#run-sql").click()
    expect(expert.locator(".run")).to_have_count(2)
    older = expert.locator(".run").nth(1)  # newest first
    older.get_by_role("button", name="Send this result to the user").click()
    guard = older.get_by_test_id("share-guard")
    expect(guard).to_contain_text("not the latest successful run")
    expect(guard).to_contain_text("no rows")
    guard.get_by_role("button", name="Send anyway").click()
    expect(older).to_have_class(re.compile(r"\bsent\b"))
    expect(worker.locator(".bubble.result")).to_have_count(1)
    # The newest run goes without a question.
    newest = expert.locator(".run").first
    newest.get_by_role("button", name="Send this result to the user").click()
    expect(newest).to_have_class(re.compile(r"\bsent\b"))
    expect(newest.get_by_test_id("share-guard")).to_have_count(0)
    # Whether the shared result is already the goal's is said on the sent run, and where that was checked.
    where = r"\((checked on \d+ databases|original database only: no test suite yet)\)"
    expect(newest.get_by_test_id("goal-badge")).to_have_text(re.compile(r"goal SQL.*" + where))


# Everything the expert may press below the shared run: the response's acts and text, its button, the labels' save
# button and the turn's foot. Their boxes in page coordinates (scrolling aside), read in one go.
STILL_PARTS = (
    "#system-acts label.act, #response-text, #send-response, #step-labels .label-foot button, #drop-box summary,"
    " #terminate"
)


def boxes_of(page, selector: str) -> list[dict]:
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map((node) => {
            const box = node.getBoundingClientRect();
            return { part: node.id || node.textContent.trim(), x: box.x + scrollX, y: box.y + scrollY,
                     width: box.width, height: box.height };
        })""",
        selector,
    )


def test_what_a_shared_result_brings_moves_nothing_below_it_and_undoes_no_unsaved_label(new_page, paired):
    """The shared result brings, a moment later, the run marked sent, whether it is the goal's, the detected labels and
    a draft response: each lands in room kept for it, so that an act ticked meanwhile is the act meant; and labels
    detected again never undo what the expert changed and has not saved."""
    worker, expert, _ = paired("iris", "ivan")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    # A follow-up question: its relation to the first is detected with the share.
    answer_with_sql(worker, expert, "How many are there?", f"SELECT count(*) FROM {table}", "There are some.")
    ask(worker, expert, "Show me three of them.")
    label(expert, "INFORM_SQL")
    expert.fill("#sql-input", f"SELECT * FROM {table} LIMIT 3")
    expert.locator("#run-sql").click()
    run = expert.locator(".run").first
    expect(run.locator(".sql-block")).to_have_text(f"SELECT * FROM {table} LIMIT 3")
    before = boxes_of(expert, STILL_PARTS)
    assert len(before) > 10
    run.get_by_role("button", name="Send this result to the user").click()
    sent = boxes_of(expert, STILL_PARTS)
    # All that the share brings, landed.
    expect(run).to_have_class(re.compile(r"\bsent\b"))
    expect(run.get_by_test_id("goal-badge")).to_be_visible()
    expect(expert.get_by_test_id("labels-state")).to_have_text("proposed: check and save")
    expect(expert.get_by_test_id("intent-detected")).to_contain_text("detected:")
    expect(expert.locator("#response-text")).not_to_have_value("")
    expect(expert.get_by_test_id("draft-note")).to_be_visible()
    expert.screenshot(path="/tmp/wozsql_expert_shared.png", full_page=True)  # to look at
    after = boxes_of(expert, STILL_PARTS)
    moved = [
        (b["part"], b["y"], s["y"], a["y"]) for b, s, a in zip(before, sent, after, strict=True) if b != s or s != a
    ]
    assert not moved, f"moved (part, y before the share, as it was sent, once all landed): {moved}"

    # The expert labels a phenomenon and the phrasing, not saved yet, then sends a better result: its labels are
    # detected anew (an order added), and what the expert changed stays as they left it.
    phenomenon = expert.locator("#step-labels .phenomena input").nth(1)
    phenomenon.check()
    phrasing = expert.get_by_test_id("label-pragmatics")
    chosen = phrasing.locator("option").nth(1).get_attribute("value")
    phrasing.select_option(chosen)
    expect(expert.get_by_test_id("labels-state")).to_have_text("unsaved changes")
    # Every event of the room redraws the panel: the relations' boxes and the words' chips stay the same nodes, so
    # that a click in flight when one lands (between press and release) is never lost.
    boxes = "#step-labels .relation input, #step-labels .token"
    mark = "(selector) => [...document.querySelectorAll(selector)].map((node) => { node.dataset.kept = 1; }).length"
    marked = expert.evaluate(mark, boxes)
    assert marked > 16
    column = expert.locator("[data-structure='0'] .column-name").first.inner_text()
    expert.fill("#sql-input", f"SELECT * FROM {table} ORDER BY {column} LIMIT 3")
    expert.locator("#run-sql").click()
    expect(expert.locator(".run")).to_have_count(2)
    expect(expert.locator(boxes.replace(", ", "[data-kept], ") + "[data-kept]")).to_have_count(marked)
    expert.locator(".run").first.get_by_role("button", name="Send this result to the user").click()
    expect(expert.get_by_test_id("intent-detected")).to_contain_text("R14")
    expect(phenomenon).to_be_checked()
    expect(phrasing).to_have_value(chosen)
    expect(expert.get_by_test_id("labels-state")).to_have_text("unsaved changes")
    expert.get_by_role("button", name="Save CHASE labels").click()
    expect(expert.get_by_test_id("labels-state")).to_have_text("saved")
    expect(phenomenon).to_be_checked()

    # The act ticked now is the act meant, and the response goes.
    respond(expert, expert.locator("#response-text").input_value(), "CONFIRM_SQL")
    expect(worker.locator(".bubble.response")).to_have_count(2)


ACTS_AND_QUESTIONS = """
import json
from dialogs.models import Event
events = Event.objects.filter(dialogue_id={dialogue}, kind__in=["utterance", "user_acts"]).order_by("seq")
print(json.dumps([[e.kind, e.seq, e.payload.get("turn"), e.payload.get("acts")] for e in events]))
"""


def test_a_newer_question_waits_beside_the_one_the_expert_works_on(new_page, paired, platform):
    """The step panel works on the newest open question, but never takes the one the expert has started on from under
    their hands: a newer question waits in the hint line (the steps below do not move), an act ticked meanwhile is
    saved on the question shown, and the expert goes to the newer one by the hint's button (by keyboard here). Once
    they answer the question they kept, the panel moves on to the newest open one, as before."""
    worker, expert, dialogue = paired("hana", "hugo")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    ask(worker, expert, "How many are there?")
    label(expert, "INFORM_SQL")
    sql = f"SELECT count(*) FROM {table}"
    expert.fill("#sql-input", sql)
    steps = "#user-acts label.act, #sql-editor, #run-sql, #system-acts label.act, #response-text, #send-response"
    before = boxes_of(expert, steps)

    worker.fill("#message", "And the first three?")
    worker.press("#message", "Enter")
    expect(expert.locator(".bubble.question")).to_have_count(2)
    expect(expert.locator("#turn-title")).to_have_text("Question 1")
    expect(expert.locator("#turn-quote")).to_have_text("How many are there?")
    waiting = expert.get_by_test_id("turn-waiting")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text("A newer question is waiting (question 2)")
    expect(expert.locator("#turn-hint-usual")).to_be_hidden()
    expect(expert.locator("#sql-input")).to_have_text(sql)
    expect(expert.locator("#user-acts input[value=INFORM_SQL]")).to_be_checked()
    assert boxes_of(expert, steps) == before, "the steps moved when the newer question came"

    # An act ticked now is question 1's.
    expert.check("#user-acts input[value=INFER_SQL]")
    expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL, INFER_SQL")
    events = json.loads(platform.manage("shell", "-c", ACTS_AND_QUESTIONS.format(dialogue=dialogue)).splitlines()[-1])
    first, second = [seq for kind, seq, _, _ in events if kind == "utterance"]
    assert [(turn, acts) for kind, _, turn, acts in events if kind == "user_acts"] == [
        (first, ["INFORM_SQL"]),
        (first, ["INFORM_SQL", "INFER_SQL"]),
    ]

    # To question 2 by the keyboard: its steps are empty, question 1's work waits in its draft.
    expert.get_by_test_id("turn-newest").focus()
    expert.keyboard.press("Enter")
    expect(expert.locator("#turn-title")).to_have_text("Question 2")
    expect(expert.locator("#turn-title")).to_be_focused()
    expect(expert.locator("#turn-quote")).to_have_text("And the first three?")
    expect(waiting).to_be_hidden()
    expect(expert.locator("#user-acts input:checked")).to_have_count(0)
    expect(expert.locator("#sql-input")).not_to_contain_text("count")

    # Nothing done on question 2 yet: a third question takes its place at once.
    ask(worker, expert, "And the last one?")
    expect(expert.locator("#turn-title")).to_have_text("Question 3")

    # Back to question 1 from the chat, all there; answered, the panel goes on to the newest open question.
    expert.locator(".bubble.question", has_text="How many are there?").click()
    expect(expert.locator("#turn-title")).to_have_text("Question 1")
    expect(expert.locator("#sql-input")).to_have_text(sql)
    expert.locator("#run-sql").click()
    run = expert.locator(".run").first
    run.get_by_role("button", name="Send this result to the user").click()
    expect(run).to_have_class(re.compile(r"\bsent\b"))
    respond(expert, "There are some.", "CONFIRM_SQL")
    expect(worker.locator(".bubble.response")).to_have_count(1)
    expect(expert.locator("#turn-title")).to_have_text("Question 3")
    expect(expert.locator("#turn-quote")).to_have_text("And the last one?")
