"""What people type in the rooms: labels change only when the expert means it, nothing typed is lost (a reload, Back,
a text over its limit), leaving a live room is asked first, and a long word does not widen the page."""

import re

from playwright.sync_api import expect

from tests.browser.test_phone import PHONE, page_overflow
from tests.browser.test_rooms import (
    ask,
    first_table,
    label,
    patient_expectations,  # noqa: F401 - the autouse fixture, for this module too
    read_tables_and_reveal,
    run_and_share,
)

# Every act key of the expert room: the user acts' 1 … = and the system acts' q … o.
ACT_KEYS = "1234567890-=qwertyuio"

UNSENT_KEYS = "() => Object.keys(sessionStorage).filter((key) => key.endsWith(':unsent'))"


def test_typing_into_any_field_of_the_expert_room_changes_no_label(new_page, paired):
    worker, expert, _ = paired("tara", "theo")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    ask(worker, expert, "How many are there?")
    expert.fill("#sql-input", f"SELECT count(*) FROM {table}")
    expert.locator("#run-sql").click()
    expect(expert.locator(".run")).to_have_count(1)

    labels = expert.locator("#user-acts input:checked, #system-acts input:checked")

    def type_into(selector: str):
        expert.locator(selector).click()
        expert.keyboard.type(ACT_KEYS)
        expect(labels).to_have_count(0)  # after each field: a second field would untick what the first ticked

    # The read-only viewers (the goal's SQL, a run's SQL: clicked to select and copy), the editor, the text boxes.
    type_into("[data-testid=goal-sql] .cm-content")
    type_into(".run .sql-block")
    type_into("#sql-input")
    type_into("#response-text")
    expert.locator("#drop-box summary").click()
    type_into("#drop-warning")
    expert.locator("#terminate").click()
    type_into("#terminate-reason")
    expert.keyboard.press("Escape")
    expect(expert.locator("#terminate-dialog")).to_be_hidden()
    expect(labels).to_have_count(0)

    # Out of every text (a click on the question's title), scrolled down to the response: the key labels, and says
    # so where the expert is looking. Only INFORM_SQL is saved: nothing typed above ticked anything on the way.
    expert.locator("#turn-title").click()
    expert.locator("#send-response").scroll_into_view_if_needed()
    expert.keyboard.press("1")
    note = expert.get_by_test_id("hotkey-note")
    expect(note).to_have_text("Ticked the user act INFORM_SQL")
    expect(note).to_be_in_viewport()
    expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL")
    expert.screenshot(path="/tmp/wozsql_hotkey_note.png")  # to look at
    expect(note).to_be_hidden()
    expect(expert.locator("#system-acts input:checked")).to_have_count(0)


def test_what_is_typed_and_not_sent_survives_a_reload_and_back(new_page, paired):
    worker, expert, _ = paired("kira", "karl")
    read_tables_and_reveal(worker)
    table = first_table(expert)

    # The worker's half-typed question: back after a reload, and after going elsewhere and coming Back.
    message = worker.locator("#message")
    message.fill("How many are")
    worker.reload()
    expect(message).to_have_value("How many are")
    worker.goto("/worker/tutorial/")
    worker.go_back()
    expect(message).to_have_value("How many are")
    ask(worker, expert, "How many are there?")
    worker.reload()
    expect(worker.locator(".bubble.question")).to_have_count(1)
    expect(message).to_have_value("")
    assert worker.evaluate(UNSENT_KEYS) == []

    # The expert's SQL, response and system acts for the turn: back after a reload, and after Back.
    label(expert, "INFORM_SQL")
    sql = f"SELECT count(*) FROM {table}"
    expert.fill("#sql-input", sql)
    expert.fill("#response-text", "There are")
    expert.check("#system-acts input[value=CONFIRM_SQL]")
    for leave in (expert.reload, lambda: (expert.goto("/expert/"), expert.go_back())):
        leave()
        expect(expert.locator("#turn-quote")).to_have_text("How many are there?")
        expect(expert.locator("#sql-input")).to_have_text(sql)
        expect(expert.locator("#response-text")).to_have_value("There are")
        expect(expert.locator("#system-acts input[value=CONFIRM_SQL]")).to_be_checked()
    expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL")

    # Sent and answered: nothing is kept any more, and a reload brings back nothing of it.
    run_and_share(expert, sql)
    expert.fill("#response-text", "There are a few.")
    expert.get_by_role("button", name="Send response").click()
    expect(worker.locator(".bubble.response .text")).to_have_text("There are a few.")
    expert.reload()
    expect(expert.locator("#turn-title")).to_contain_text("All questions are answered")
    assert expert.evaluate(UNSENT_KEYS) == []

    # Typed and never sent when the dialogue ends: nothing of it stays in the browser.
    ask(worker, expert, "And the big ones?")
    expert.fill("#response-text", "Which ones")
    worker.locator("#message").fill("Never mind, and")
    expert.locator("#terminate").click()
    expert.locator("#terminate-confirm").click()
    expect(worker.get_by_test_id("completion-code")).to_have_text(re.compile("^WOZ-"))
    expect(expert.locator("#score-panel")).to_be_visible()
    assert worker.evaluate(UNSENT_KEYS) == []
    assert expert.evaluate(UNSENT_KEYS) == []


def test_an_expert_leaving_a_live_room_is_asked_first_and_the_worker_sees_the_countdown(new_page, paired):
    worker, expert, _ = paired("lola", "leon")
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many are there?")
    expert.locator("#response-text").click()  # a page the expert has used (browsers ask only then)

    # Asked, and staying: the room goes on, the worker sees nothing.
    with expert.expect_event("dialog") as asked:
        expert.close(run_before_unload=True)
    assert asked.value.type == "beforeunload"
    asked.value.dismiss()
    expect(worker.get_by_test_id("partner")).to_have_text("Expert: connected")
    label(expert, "INFORM_SQL")
    assert not expert.is_closed()

    # Asked, and leaving: the worker sees how long the dialogue has left, from the server's grace period.
    with expert.expect_event("dialog") as asked:
        expert.close(run_before_unload=True)
    asked.value.accept()
    expect(worker.get_by_test_id("partner")).to_have_text(
        re.compile(r"^Expert: reconnecting… \(the dialogue ends in \d+ s if they do not return\)$")
    )
    seconds = int(re.search(r"ends in (\d+) s", worker.get_by_test_id("partner").inner_text()).group(1))
    assert 60 < seconds <= 90  # PRESENCE_GRACE_SECONDS, counting down


def test_an_ended_room_lets_the_expert_leave_unasked(new_page, paired):
    worker, expert, _ = paired("mona", "milo")
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many are there?")
    expert.locator("#terminate").click()
    expert.locator("#terminate-confirm").click()
    expect(expert.locator("#score-panel")).to_be_visible()
    asked = []
    expert.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    expert.reload()
    expect(expert.locator("#score-panel")).to_be_visible()
    assert asked == []


def test_a_text_over_its_limit_is_refused_with_its_reason_never_cut(new_page, paired):
    worker, expert, _ = paired("nora", "nico")
    read_tables_and_reveal(worker)
    count, error = worker.get_by_test_id("message-count"), worker.get_by_test_id("composer-error")

    # The count shows as the limit (UTTERANCE_MAX_CHARS, 2,000) nears.
    worker.fill("#message", "How many are there?")
    expect(count).to_be_hidden()
    near = " ".join(["word"] * 380)  # 1,899 characters
    worker.fill("#message", near)
    expect(count).to_have_text("1,899 / 2,000 characters")
    # Over it: refused with the reason, the whole text kept in the box, nothing sent.
    too_long = near + " " + "x" * 101
    worker.fill("#message", too_long)
    expect(count).to_have_text("2,001 / 2,000 characters: 1 too many")
    worker.press("#message", "Enter")
    expect(error).to_contain_text("Your question is 2,001 characters long: 2,000 at most")
    expect(worker.locator("#message")).to_have_value(too_long)
    expect(worker.locator("#pending .bubble")).to_have_count(0)
    worker.locator("section.chat").screenshot(path="/tmp/wozsql_limit_worker.png")  # to look at
    # One character shorter, it fits: the reason goes, and the question arrives whole.
    worker.press("#message", "Backspace")
    expect(error).to_be_hidden()
    worker.press("#message", "Enter")
    expect(expert.locator("#turn-quote")).to_have_text(too_long[:-1])

    # The expert's response, likewise.
    label(expert, "AMBIGUOUS")
    expert.fill("#response-text", "y" * 2001)
    expert.check("#system-acts input[value=CLARIFY]")
    expect(expert.get_by_test_id("response-count")).to_have_text("2,001 / 2,000 characters: 1 too many")
    expert.get_by_role("button", name="Send response").click()
    expect(expert.get_by_test_id("send-refusal")).to_contain_text("The response is 2,001 characters long")
    expect(expert.locator("#response-text")).to_have_value("y" * 2001)
    expert.locator("#response-text").press("End")
    expert.locator("#response-text").press("Backspace")
    expert.get_by_role("button", name="Send response").click()
    expect(worker.locator(".bubble.response .text")).to_have_text("y" * 2000)


def test_a_very_long_word_does_not_widen_either_room(new_page, paired):
    worker, expert, _ = paired("olga", "otto")
    read_tables_and_reveal(worker)
    word = "Supercalifragilistic" * 15  # 300 letters, no space
    ask(worker, expert, f"What is {word}?")
    label(expert, "AMBIGUOUS")
    # The question open in the expert's panel (quoted, and in the labels' words), then answered in both chats.
    assert page_overflow(expert) == 0, "expert, question open"
    expert.screenshot(path="/tmp/wozsql_long_word_open.png", full_page=True)
    expert.fill("#response-text", f"Do you mean {word}?")
    expert.check("#system-acts input[value=CLARIFY]")
    expert.get_by_role("button", name="Send response").click()
    expect(worker.locator(".bubble.response")).to_have_count(1)
    for page, name in ((worker, "worker"), (expert, "expert")):
        assert page_overflow(page) == 0, name
        page.screenshot(path=f"/tmp/wozsql_long_word_{name}.png", full_page=True)  # to look at
        page.set_viewport_size(PHONE["viewport"])
        expect(page.locator("#chat-log .bubble").first).to_be_visible()
        assert page_overflow(page) == 0, f"{name} at phone width"
        page.screenshot(path=f"/tmp/wozsql_long_word_{name}_phone.png", full_page=True)


def test_a_solo_question_and_its_sql_survive_a_reload_and_a_long_one_is_refused(new_page, people):
    people("sara", "sven")
    expert = new_page("sven")
    expert.goto("/solo/")
    expert.get_by_label("Database").select_option("dorm_demo")
    expert.get_by_role("button", name="Start").click()
    expect(expert.get_by_test_id("solo-progress")).to_have_text("0 of 3 questions")
    sql = "SELECT count(*) FROM student"
    expert.fill("#question", "How many students")
    expert.fill("#sql-input", sql)
    expert.reload()
    expect(expert.locator("#question")).to_have_value("How many students")
    expect(expert.locator("#sql-input")).to_have_text(sql)

    too_long = " ".join(["word"] * 400) + "??"  # 2,001 characters
    expert.fill("#question", too_long)
    expect(expert.get_by_test_id("question-count")).to_have_text("2,001 / 2,000 characters: 1 too many")
    expert.get_by_role("button", name="Add to the sequence").click()
    expect(expert.get_by_test_id("add-error")).to_contain_text("The question is 2,001 characters long")
    expect(expert.locator("#question")).to_have_value(too_long)
    expect(expert.get_by_test_id("solo-progress")).to_have_text("0 of 3 questions")

    expert.fill("#question", "How many students are there?")
    expert.get_by_role("button", name="Add to the sequence").click()
    expect(expert.get_by_test_id("solo-progress")).to_have_text("1 of 3 questions")
    expect(expert.locator("#question")).to_have_value("")
    expect(expert.locator("#sql-input .cm-placeholder")).to_be_visible()  # the editor is empty again
    assert expert.evaluate(UNSENT_KEYS) == []
