"""A crowd worker on a phone (crowd platforms let workers in from phones unless a study forbids it): the tutorial, the
tables, the goal and the chat fit a 390-pixel screen, and a wide result table scrolls inside its bubble rather than
pushing the page sideways."""

import re

from playwright.sync_api import expect

from tests.browser.test_query_first import saved_goal, written_item
from tests.browser.test_rooms import (
    answer_with_sql,
    ask,
    end_and_score,
    first_table,
    label,
    patient_expectations,  # noqa: F401 - the autouse fixture, for this module too
    read_tables_and_reveal,
    respond,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def page_overflow(page) -> int:
    """How many pixels the page is wider than the screen (0: nothing to scroll sideways)."""
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def within_screen(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    width = page.evaluate("() => window.innerWidth")
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def test_a_worker_on_a_phone_holds_a_dialogue(new_page, people, paired):
    people("phoebe", "ethan")  # before her phone's page signs her in
    worker, expert, _ = paired("phoebe", "ethan", worker_page=new_page("phoebe", **PHONE))
    assert page_overflow(worker) == 0
    read_tables_and_reveal(worker)
    assert page_overflow(worker) == 0

    for selector in ("#message", "[data-testid=goal-question]"):
        assert within_screen(worker, selector), selector
    send = worker.get_by_role("button", name=re.compile("^Send"))
    expect(send).to_be_visible()
    assert within_screen(worker, "button:has-text('Send')")

    # A table wider than the screen (every column) in the chat: it scrolls inside the bubble, the page does not.
    table = first_table(expert)
    everything = f"SELECT * FROM {table} LIMIT 3"
    answer_with_sql(worker, expert, "Show me everything about three of them.", everything, "Here.")
    expect(worker.locator(".bubble.result tbody tr")).to_have_count(3)
    worker.locator(".bubble.result").last.scroll_into_view_if_needed()
    assert page_overflow(worker) == 0
    assert within_screen(worker, ".bubble.result >> nth=-1")
    wide = worker.locator(".bubble.result").last.evaluate(
        "(bubble) => [...bubble.querySelectorAll('*')].some((box) => box.scrollWidth > box.clientWidth + 1)"
    )
    assert wide, "the table should be wider than the screen, or this test proves nothing"
    worker.screenshot(path="/tmp/wozsql_worker_phone.png")  # to look at

    # Typing with the on-screen keyboard's Enter sends, as on a desktop.
    ask(worker, expert, "Which are the big ones?")
    label(expert, "AMBIGUOUS")
    respond(expert, "Do you mean the ones with the most rows linked to them?", "CLARIFY")
    expect(worker.locator(".bubble.response")).to_have_count(2)
    answer_with_sql(worker, expert, "And how many in all?", f"SELECT count(*) FROM {table}", "That many.")
    # Only questions answered with SQL count toward the minimum (the clarified one does not): a third one.
    answer_with_sql(worker, expert, "Just the first one, please.", f"SELECT * FROM {table} LIMIT 1", "This one.")

    end_and_score(worker, expert, 4)
    expect(worker.get_by_test_id("completion-code")).to_be_visible()
    assert within_screen(worker, "[data-testid=completion-code]")
    assert page_overflow(worker) == 0


def test_an_expert_on_a_phone_can_press_each_act(new_page, people, paired):
    """The act labels are touch targets at 390 pixels: each at least 40 pixels tall and on the screen (19 before)."""
    people("petra", "percy")
    worker, expert, _ = paired("petra", "percy", expert_page=new_page("percy", **PHONE))
    read_tables_and_reveal(worker)
    ask(worker, expert, "How many are there?")
    acts = expert.locator("#user-acts label.act:visible, #system-acts label.act:visible")
    expect(acts.first).to_be_attached()
    assert page_overflow(expert) == 0
    for act in acts.all():
        act.scroll_into_view_if_needed()
        box = act.bounding_box()
        assert box["height"] >= 40 and box["x"] >= 0 and box["x"] + box["width"] <= 390.5, (act.inner_text(), box)


def test_the_expert_and_admin_headers_fit_a_phone_width(new_page, people):
    """The header wraps instead of running off the screen: every link and the sign-out button stay reachable at
    390 pixels, for the expert (desk and room) and for the admin (whose header has the most links)."""
    people("piper", "penny")
    expert = new_page("penny", **PHONE)
    for path in ("/expert/", "/solo/"):
        expert.goto(path)
        assert page_overflow(expert) == 0, path
        for link in expert.locator(".topbar a, .topbar button").all():
            expect(link).to_be_visible()
            box = link.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390.5, link.inner_text()
    admin = new_page("ada", **PHONE)
    for path in ("/manage/", "/manage/live/", "/review/statistics/", "/databases/flights_demo/curate/"):
        admin.goto(path)
        assert page_overflow(admin) == 0, path
        # The links wrap across the width under the brand, not one a line beside it (~320 px before); the language
        # switcher (docs/i18n.md) takes a short row of its own.
        assert admin.locator(".topbar").bounding_box()["height"] <= 200, path
        assert admin.locator(".topbar nav a").count() >= 8
        for link in admin.locator(".topbar a, .topbar button").all():
            box = link.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5, link.inner_text()
    # The same pages in Chinese (docs/i18n.md): CJK text breaks between characters, and nothing runs off the screen.
    for path in ("/manage/", "/review/statistics/", "/databases/flights_demo/curate/"):
        admin.goto(f"{path}?lang=zh-hans")
        expect(admin.locator("html")).to_have_attribute("lang", "zh-hans")
        expect(admin.locator(".topbar")).to_contain_text("退出登录")
        assert page_overflow(admin) == 0, path
        for link in admin.locator(".topbar a, .topbar button, .language-switch select").all():
            box = link.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5, link.inner_text()


def test_the_supervisors_view_of_a_room_fits_a_phone(new_page, paired):
    worker, expert, _ = paired("paula", "xander")
    read_tables_and_reveal(worker)
    table = first_table(expert)
    answer_with_sql(
        worker, expert, "Show me everything about three of them.", f"SELECT * FROM {table} LIMIT 3", "Here."
    )
    ada = new_page("ada", **PHONE)
    ada.goto(worker.url)
    expect(ada.locator("#connection")).to_have_text("Watching")
    expect(ada.get_by_test_id("chat-log").locator(".bubble.result tbody tr")).to_have_count(3)
    expect(ada.get_by_test_id("work").locator("pre")).to_have_count(1)
    assert page_overflow(ada) == 0
    for selector in ("#id_reason", "button:has-text('Do it')", "[data-testid=worker-presence]"):
        assert within_screen(ada, selector), selector


# The width of every query shown on the review screen that has text (the SQL cells and read-only editors of the turns).
QUERY_WIDTHS = """() => [...document.querySelectorAll('[data-testid=turns] .sql, [data-testid=turns] .cm-editor')]
  .filter((box) => box.offsetParent !== null && box.textContent.trim())
  .map((box) => Math.round(box.getBoundingClientRect().width))"""


def test_a_reviewer_on_a_phone_reads_the_dialogue_and_can_decide(new_page, platform):
    """The review screen at 390 pixels: the schema panel goes above the turns instead of squeezing them, and what the
    expert knew, the turns and the decision (with whose work failed) stay on the screen."""
    from tests.browser.test_review import collect

    first, _ = collect(platform, labels=("PH1", "PH2"))
    rita = new_page("rita", **PHONE)
    rita.goto(f"/review/dialogues/{first}/")
    rita.click("[data-testid=claim]")
    rita.wait_for_selector("[data-testid=holding]")
    assert page_overflow(rita) == 0
    for selector in ("[data-testid=outcome]", "[data-testid=turn-0]", "[data-testid=reject-form] select[name=fault]"):
        rita.locator(selector).scroll_into_view_if_needed()
        assert within_screen(rita, selector), selector
    assert rita.locator("[data-testid=turn-0]").bounding_box()["width"] > 300
    # Each query reads across the screen, not in a narrow column broken every few letters.
    queries = rita.evaluate(QUERY_WIDTHS)
    assert queries and min(queries) >= 250, queries
    # Two queries compared on the test suite: their results go one above the other, nothing past the screen's edge.
    box = rita.get_by_test_id("compare-box-1")
    box.locator("summary").click()
    box.get_by_test_id("compare-sql-1").fill("SELECT first_name, last_name, age FROM student")
    box.get_by_test_id("compare-1").click()
    expect(box.get_by_test_id("compare-result-1")).to_contain_text("Different: here is a database where they differ")
    assert page_overflow(rita) == 0


# Tables of class "data" in a card that reach past the card's right edge with nothing between them and the card that
# scrolls or clips them: drawn over the card's border and beyond.
TABLES_OVER_THEIR_CARDS = """() => [...document.querySelectorAll('.card table.data')].filter((table) => {
  const card = table.closest('.card');
  for (let box = table.parentElement; box !== card.parentElement; box = box.parentElement) {
    if (getComputedStyle(box).overflowX !== 'visible') return false;
  }
  return table.getBoundingClientRect().right > card.getBoundingClientRect().right + 1;
}).map((table) => table.querySelector('th')?.textContent.trim() || table.className)"""


def test_admin_tables_scroll_inside_their_cards_at_phone_width(new_page, scored_evaluation):
    admin = new_page("ada", **PHONE)
    export_id, evaluation_id = scored_evaluation
    for path in ("/manage/live/", "/manage/campaigns/", "/review/", "/review/datasets/", "/review/quality/workers/",
                 "/review/quality/experts/", "/review/statistics/", "/review/payments/", "/expert/work/",
                 f"/review/datasets/{export_id}/evaluations/", f"/review/evaluations/{evaluation_id}/",
                 "/review/statistics/model-help/"):  # fmt: skip
        admin.goto(path)
        expect(admin.locator(".card table.data").first).to_be_attached()
        assert admin.evaluate(TABLES_OVER_THEIR_CARDS) == [], path
        assert page_overflow(admin) == 0, path


def test_both_query_first_screens_fit_a_phone(new_page, platform):
    """Phase 1's plan and results, and phase 2's words and operations, at 390 pixels: nothing pushes the page
    sideways (a wide intermediate result scrolls inside its step), and every word can be pressed."""
    goal = saved_goal(platform, 17)
    erin = new_page("erin", **PHONE)
    erin.goto("/query-first/")
    erin.get_by_role("button", name=f"Write the question for goal {goal}").click()
    # The plan's page has loaded (the click navigates): opening the steps of the list page would open nothing.
    expect(erin.get_by_test_id("plan-steps")).to_be_visible()
    erin.locator(".plan-step details").evaluate_all("steps => steps.forEach((step) => { step.open = true; })")
    expect(erin.locator(".plan-step details:not([open])")).to_have_count(0)
    expect(erin.locator(".plan-step .result-table").first).to_be_visible()
    assert page_overflow(erin) == 0, "phase 1"
    assert within_screen(erin, "textarea[name=question]")
    item = written_item(platform, 16)
    ethan = new_page("ethan", **PHONE)
    ethan.goto(f"/query-first/{item}/align/")
    expect(ethan.locator("#tokens button.token")).not_to_have_count(0)
    assert page_overflow(ethan) == 0, "phase 2"
    for token in ethan.locator("#tokens button.token").all():
        box = token.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390.5, token.inner_text()
    assert within_screen(ethan, "#steps [data-step=type] .plan-target")
