"""A new expert is onboarded before their first live room (docs/experts.md): an admin writes the guidelines, the expert
reads and confirms them, practises with the simulated worker on a goal kept for practice, sees what differed from the
gold, is qualified by the campaign's rule (one practice dialogue here), and only then switches on "ready" and is
paired with a worker."""

import json

from playwright.sync_api import expect

from tests.browser.conftest import DEMO_PASSWORD
from tests.browser.test_rooms import ROOM_URL, label, patient_expectations, respond, run_and_share  # noqa: F401
from tests.onboarding_builders import PAGES_SQL

# The simulated worker's questions on the practice goal, and what the new expert answers: the second answer filters
# the other way, so it differs from the gold.
PRACTICE = [
    ("Can you show me all the books?", "SELECT * FROM book"),
    ("Only those whose pages is greater than 300?", "SELECT * FROM book WHERE pages < 300"),
    ("What are the titles of the books with more than 300 pages?", PAGES_SQL),
]


def _build(platform, name: str, *args):
    script = f"import json; from tests.onboarding_builders import {name} as b; print(json.dumps(b(*{args!r})))"
    return json.loads(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def test_a_new_expert_reads_the_guidelines_practises_sees_what_differed_qualifies_and_takes_a_live_room(
    new_page, platform
):
    built = _build(platform, "onboarding_newcomers", "opal", "orrin", DEMO_PASSWORD)
    try:
        admin = new_page("ada")
        admin.goto("/manage/experts/")
        admin.fill("textarea[name=sql_conventions]", "- Alias joined tables as `T1`, `T2`.\n- <b>Never</b> guess.")
        admin.get_by_test_id("guidelines-save").click()
        expect(admin.locator(".messages")).to_contain_text("every expert is asked to read it")

        expert = new_page("opal")
        expert.goto("/expert/")
        # Nothing but reading and practice until the expert qualifies: the switch is off, and says why.
        expect(expert.get_by_test_id("ready-refusal")).to_contain_text("Read the guidelines")
        expect(expert.locator("#ready-toggle")).to_be_disabled()
        conventions = expert.get_by_test_id("guideline-sql_conventions")
        expect(conventions.locator("code")).to_have_text(["T1", "T2"])
        expect(conventions).to_contain_text("<b>Never</b> guess.")  # the admin's HTML is shown as written
        expert.get_by_test_id("guidelines-confirm").click()
        expect(expert.get_by_test_id("guidelines")).to_have_count(0)
        expect(expert.get_by_test_id("ready-refusal")).to_contain_text("0 of 1 practice dialogues")

        expert.get_by_test_id("practice-start").click()
        expect(expert).to_have_url(ROOM_URL)
        practice = expert.url.rstrip("/").rsplit("/", 1)[1]
        expect(expert.get_by_test_id("partner")).to_have_text("Worker: connected", timeout=20_000)
        expect(expert.get_by_test_id("practice-notice")).to_be_visible()
        expect(expert.get_by_test_id("goal-sql")).to_have_count(0)  # the gold stays hidden during practice
        for number, (question, sql) in enumerate(PRACTICE, start=1):
            expect(expert.locator("#turn-quote")).to_have_text(question)
            label(expert, "INFORM_SQL")
            run_and_share(expert, sql)
            respond(expert, f"Here is the answer ({number}).", "CONFIRM_SQL")
        # The simulated worker ends once its goal question is answered; the expert scores as after any dialogue.
        expect(expert.locator("#score-panel")).to_be_visible(timeout=20_000)
        expert.locator("label.score-option", has_text="4").click()
        expert.get_by_role("button", name="Submit score").click()
        expert.get_by_test_id("practice-result-link").click()

        expect(expert.get_by_test_id("practice-summary")).to_contain_text("2 of 3")
        different = expert.get_by_test_id("practice-turn-2")
        expect(different.get_by_test_id("verdict")).to_have_text("different")
        expect(different.get_by_test_id("your-sql")).to_have_text(PRACTICE[1][1])
        expect(different.get_by_test_id("gold-sql")).to_have_text("SELECT * FROM book WHERE pages > 300")
        expect(different.get_by_test_id("counterexample")).to_contain_text("original")
        expect(expert.get_by_test_id("practice-turn-3").get_by_test_id("verdict")).to_have_text("same as the gold")
        expect(expert.get_by_test_id("standing")).to_contain_text("Qualified")

        # The admin reads the same in the expert's record.
        admin.goto("/manage/experts/")
        admin.get_by_test_id("expert-opal").get_by_role("link").click()
        expect(admin.get_by_test_id("decisions")).to_contain_text("practice met the rule")
        expect(admin.get_by_test_id("practice-list")).to_contain_text("2 of 3")
    finally:
        _build(platform, "onboarding_campaign_delete", built["campaign"])

    # Qualified, the expert switches on and takes a worker's live room.
    expert.goto("/expert/")
    expect(expert.get_by_test_id("ready-refusal")).to_have_count(0)
    expect(expert.get_by_test_id(f"practice-row-{practice}")).to_contain_text("2 of 3")
    expect(expert.locator("#ready-toggle")).to_be_enabled()
    expert.locator("label.switch").click()
    expect(expert.locator("#ready-toggle")).to_be_checked()
    worker = new_page("orrin")
    worker.goto("/worker/")
    expect(worker).to_have_url(ROOM_URL)
    expect(expert).to_have_url(ROOM_URL)
    assert expert.url == worker.url and not expert.url.endswith(f"/{practice}/")
