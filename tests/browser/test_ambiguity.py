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
