"""A dialogue sent back to its author in a real browser: the reviewer says what to fix beside a turn, the expert finds
it on the desk, fixes it with the review screen's editors and returns it; it is back in its pass."""

from playwright.sync_api import expect

from tests.browser.test_review import claim, collect


def test_a_reviewer_sends_a_dialogue_back_and_its_expert_fixes_it(new_page, platform):
    [dialogue] = collect(platform, labels=("SB",))
    rita = new_page("rita")
    claim(rita, dialogue)
    rita.get_by_test_id("turn-note-1").fill("Say the names, not just that you have them.")
    rita.get_by_test_id("send-back-note").fill("One response to fix.")
    rita.get_by_test_id("send-back").click()
    expect(rita.locator(".messages")).to_contain_text(f"Dialogue {dialogue} is with erin to fix")
    rita.goto(f"/review/dialogues/{dialogue}/")
    expect(rita.get_by_test_id("with-author")).to_contain_text("With its author, erin")

    erin = new_page("erin")
    erin.goto("/expert/")
    erin.get_by_test_id(f"fix-{dialogue}").click()
    expect(erin.get_by_test_id("fixing")).to_contain_text("rita sent this dialogue back to you")
    expect(erin.get_by_test_id("fix-note-1")).to_contain_text("Say the names, not just that you have them.")
    turn = erin.locator("[data-testid=turn-1]")
    turn.locator("[data-edit=response]").click()
    turn.locator("[data-testid=new-value]").fill("Here are the first and last names of every student.")
    turn.locator("[data-testid=save]").click()
    expect(turn.get_by_test_id("response")).to_contain_text("first and last names of every student")
    erin.get_by_test_id("return-note").fill("Done as asked.")
    erin.get_by_test_id("return-to-review").click()
    expect(erin.locator(".messages")).to_contain_text(f"Dialogue {dialogue} is back in review (pass 1) with your 1 fix")
    expect(erin.get_by_test_id(f"fix-{dialogue}")).to_have_count(0)

    # Back in pass 1, with the author's fix kept as theirs.
    claim(rita, dialogue)
    expect(rita.locator("[data-testid=turn-1] [data-testid=response]")).to_contain_text("every student")
    expect(rita.get_by_test_id("history-1")).to_contain_text("erin")
