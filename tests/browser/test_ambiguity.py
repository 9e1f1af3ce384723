"""The expert's sub-type of an AMBIGUOUS or CANNOT_ANSWER question: offered while one of those acts is ticked, saved
with the acts, there again after a reload."""

from playwright.sync_api import expect

from tests.browser.test_rooms import ask, pair, patient_expectations, read_tables_and_reveal  # noqa: F401


def options(expert) -> list[str]:
    return expert.locator("#ambiguity-type option").evaluate_all("(all) => all.map((o) => o.value)")


def test_the_expert_gives_an_ambiguous_question_its_sub_type(new_page, people):
    people("amy", "abe")
    worker, expert = new_page("amy"), new_page("abe")
    pair(worker, expert)
    read_tables_and_reveal(worker)
    ask(worker, expert, "Which are the big ones?")
    select = expert.get_by_test_id("ambiguity-type")
    expect(select).to_be_hidden()

    expert.check("#user-acts input[value=AMBIGUOUS]")
    expect(expert.locator("#acts-state")).to_have_text("saved: AMBIGUOUS")
    expect(select).to_be_visible()
    assert options(expert) == ["", "ambiguous_select_column", "ambiguous_filter_column", "ambiguous_value",
                               "vague_condition"]  # fmt: skip
    select.select_option("vague_condition")
    expect(expert.locator("#acts-state")).to_have_text("saved: AMBIGUOUS · vague condition")

    expert.reload()
    expect(expert.locator("#acts-state")).to_have_text("saved: AMBIGUOUS · vague condition")
    expect(select).to_have_value("vague_condition")

    # CANNOT_ANSWER ticked too: its sub-types are offered beside, and the chosen one stays.
    expert.check("#user-acts input[value=CANNOT_ANSWER]")
    expect(expert.locator("#acts-state")).to_have_text("saved: AMBIGUOUS, CANNOT_ANSWER · vague condition")
    assert "unsupported_join" in options(expert)
    expect(select).to_have_value("vague_condition")
    # Neither ticked: nothing to say, and the select goes.
    expert.uncheck("#user-acts input[value=AMBIGUOUS]")
    expert.uncheck("#user-acts input[value=CANNOT_ANSWER]")
    expert.check("#user-acts input[value=INFORM_SQL]")
    expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL")
    expect(select).to_be_hidden()
    expert.reload()
    expect(expert.locator("#acts-state")).to_have_text("saved: INFORM_SQL")
    expect(select).to_be_hidden()


def test_the_expert_marks_the_words_and_the_readings_of_an_ambiguous_question(new_page, people):
    people("ava", "ben")
    worker, expert = new_page("ava"), new_page("ben")
    pair(worker, expert)
    read_tables_and_reveal(worker)
    ask(worker, expert, "Which are the big ones?")
    state = expert.locator("#acts-state")
    expert.check("#user-acts input[value=AMBIGUOUS]")
    expect(expert.locator("#ambiguity-span-box")).to_be_hidden()  # no sub-type, nothing to mark yet
    expert.get_by_test_id("ambiguity-type").select_option("vague_condition")
    expect(state).to_have_text("saved: AMBIGUOUS · vague condition")

    # The words: the first, then the last, by keyboard as well as by mouse; they read as the server numbers them.
    words = expert.get_by_test_id("ambiguity-tokens").get_by_role("button")
    expect(words).to_have_text(["Which", "are", "the", "big", "ones", "?"])
    words.nth(4).focus()
    expert.keyboard.press("Enter")
    expect(expert.get_by_test_id("ambiguity-span")).to_contain_text("now press the last word")
    words.nth(3).click()
    expect(expert.get_by_test_id("ambiguity-span")).to_have_text("Marked: “big ones”")
    expect(words.nth(3)).to_have_attribute("aria-pressed", "true")
    expect(words.nth(2)).to_have_attribute("aria-pressed", "false")
    expect(state).to_have_text("saved: AMBIGUOUS · vague condition")

    # Two readings: one typed, one taken from the editor. A reading is saved when its box is left.
    expert.get_by_test_id("ambiguity-add-reading").click()
    first = expert.get_by_test_id("ambiguity-reading-1")
    expect(first).to_be_focused()
    first.fill("SELECT name FROM dorm WHERE student_capacity > 300")
    expect(state).to_have_text("unsaved changes")
    editor = expert.get_by_test_id("sql-input")
    editor.click()
    expert.keyboard.type("SELECT name FROM dorm ORDER BY student_capacity DESC LIMIT 3")
    expect(state).to_have_text("saved: AMBIGUOUS · vague condition")  # leaving the box saved the first
    expert.get_by_test_id("ambiguity-add-editor-sql").click()
    second = expert.get_by_test_id("ambiguity-reading-2")
    expect(second).to_have_value("SELECT name FROM dorm ORDER BY student_capacity DESC LIMIT 3")
    expect(state).to_have_text("saved: AMBIGUOUS · vague condition")

    expert.reload()
    expect(state).to_have_text("saved: AMBIGUOUS · vague condition")
    expect(expert.get_by_test_id("ambiguity-span")).to_have_text("Marked: “big ones”")
    expect(expert.get_by_test_id("ambiguity-reading-1")).to_have_value(
        "SELECT name FROM dorm WHERE student_capacity > 300"
    )
    expect(expert.get_by_test_id("ambiguity-reading-2")).to_have_value(
        "SELECT name FROM dorm ORDER BY student_capacity DESC LIMIT 3"
    )
