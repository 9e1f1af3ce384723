"""A dialogue and its review in Chinese (docs/i18n.md): a worker, an expert and a reviewer whose accounts say zh-hans,
on a database with Chinese names and values. The screens and what the sockets send them are checked in Chinese, with
no English sentence left in the places checked.

The room's first two questions are asked and answered through the rooms' protocol service when the room is made
(tests.builders.chinese_dialogue); the third, the end, the score and the review are done on the screens.
"""

import re

import pytest
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation
from playwright.sync_api import expect

from annotation.labels.acts import ACT_RULES
from tests.browser.conftest import DEMO_PASSWORD

ENGLISH_WORDS = re.compile(r"\b[a-z]{3,}\b")  # the acts (INFORM_SQL) and names (SQL) are capitals


def zh(msgid: str, plural: str | None = None, count: int = 1) -> str:
    """The Chinese of an English string of the catalogue (failing if it has none)."""
    with translation.override("zh-hans"):
        text = translation.ngettext(msgid, plural, count) if plural else translation.gettext(msgid)
    assert text != msgid, f"not translated: {msgid}"
    return text


def zh_js(msgid: str) -> str:
    """The Chinese of a string of the JavaScript's catalogue (djangojs, docs/i18n_javascript.md)."""
    text = DjangoTranslation("zh-hans", domain="djangojs").gettext(msgid)
    assert text != msgid, f"not translated: {msgid}"
    return text


def chinese(text: str) -> str:
    assert re.search(r"[\u4e00-\u9fff]", text) and not ENGLISH_WORDS.search(text), text
    return text


@pytest.fixture(autouse=True)
def patient_expectations():
    expect.set_options(timeout=12_000)
    yield
    expect.set_options(timeout=5_000)


def socket_refusal(page, path: str, message: dict) -> str:
    """The error a new socket of the page's person gets for `message` (the same session and language as the page's)."""
    return page.evaluate(
        """([path, message]) => new Promise((resolve, reject) => {
             const ws = new WebSocket(`ws://${location.host}${path}`);
             ws.onopen = () => ws.send(JSON.stringify(message));
             ws.onmessage = (e) => { const m = JSON.parse(e.data);
                                     if (m.type === "error") { ws.close(); resolve(m.message); } };
             ws.onclose = (e) => reject(new Error(`closed ${e.code}`));
           })""",
        [path, message],
    )


def test_a_dialogue_and_its_review_in_chinese(new_page, platform):
    dialogue = platform.build("chinese_dialogue", "zh_worker", "zh_expert", "zh_reviewer", DEMO_PASSWORD)
    expert = new_page("zh_expert")
    # The desk's readiness line comes over the lobby socket.
    expert.goto("/expert/")
    expect(expert.locator("html")).to_have_attribute("lang", "zh-hans")
    not_ready = "You are not taking dialogues. Switch on to be paired with waiting workers."
    expect(expert.get_by_test_id("ready-hint")).to_have_text(zh(not_ready))

    worker = new_page("zh_worker")
    expert.goto(f"/dialogues/{dialogue}/")
    worker.goto(f"/dialogues/{dialogue}/")
    expect(expert.get_by_test_id("partner")).to_have_text(zh_js("Worker: connected"), timeout=15_000)
    expect(worker.get_by_role("button", name=zh("End dialogue"))).to_be_disabled()
    # A refusal worded on the room's database thread, in the person's language: two questions answered of three.
    refusal = socket_refusal(worker, f"/ws/dialogues/{dialogue}/", {"type": "end", "id": "early"})
    more = "Ask %(count)d more question about the data before ending: a question counts once the expert has answered"
    assert refusal == zh(
        f"{more} it with a table.", f"{more.replace('question about', 'questions about')} it with a table.", 1
    ) % {"count": 1}
    chinese(refusal)

    # The third question, on the screens.
    question = "其中人口最多的是哪个？"
    worker.fill("#message", question)
    worker.press("#message", "Enter")
    expect(expert.locator("#turn-quote")).to_have_text(question)
    expert.check("#user-acts input[value=INFORM_SQL]")
    expect(expert.locator("#acts-state")).to_have_text(zh_js("saved: %(acts)s") % {"acts": "INFORM_SQL"})
    # The act rules (CoSQL's) in Chinese: a clarification does not answer an INFORM_SQL question.
    expert.fill("#response-text", "您是指哪个省份？")
    expert.check("#system-acts input[value=CLARIFY]")
    send = expert.get_by_role("button", name=zh("Send response"))
    send.click()
    (rule,) = [rule["message"] for rule in ACT_RULES if rule["user"] == "INFORM_SQL"]
    expect(expert.get_by_test_id("send-refusal")).to_contain_text(zh(str(rule)))
    chinese(expert.get_by_test_id("send-refusal").inner_text())
    expert.uncheck("#system-acts input[value=CLARIFY]")
    # A failed run is worded by its kind in the page's language, SQLite's own detail after it (docs/i18n.md).
    expert.fill("#sql-input", "SELECT 名称 FROM 不存在的表")
    expert.locator("#run-sql").click()
    expect(expert.locator(".run.failed").first.locator(".problem")).to_contain_text(
        zh_js("Unknown table, column or function")
    )
    sql = "SELECT 名称, 人口 FROM 城市 WHERE 省份 = '广东' ORDER BY 人口 DESC LIMIT 1"
    expert.fill("#sql-input", sql)
    expert.locator("#run-sql").click()
    run = expert.locator(".run").first
    expect(run.locator(".sql-block")).to_have_text(sql)
    run.get_by_role("button", name=zh_js("Send this result to the user")).click()
    expect(worker.locator(".bubble.result").last).to_contain_text("广州")
    expect(worker.locator(".bubble.result").last.locator("th").first).to_have_text("名称")
    expert.fill("#response-text", "广东省人口最多的城市是广州，有 1882 万人。")
    expert.check("#system-acts input[value=CONFIRM_SQL]")
    send.click()
    expect(worker.locator(".bubble.response").last).to_contain_text("广州")
    expect(expert.get_by_test_id("send-refusal")).to_have_text("")
    # The suggestion for the next question is worded by the Chinese rules, in the dialogue's language (docs/i18n.md).
    expect(worker.locator("#suggestion")).to_be_visible()
    suggested = worker.locator("#suggestion-text").inner_text()
    assert re.search(r"[\u4e00-\u9fff]", suggested) and not re.search(r"\b(?:Ask|their|these|the)\b", suggested)

    # The worker ends; the expert scores.
    end = worker.get_by_role("button", name=zh("End dialogue"))
    expect(end).to_be_enabled()
    end.click()
    confirm = worker.locator("#end-confirm")  # both buttons say 结束对话
    expect(confirm).to_have_text(zh("End the dialogue"))
    confirm.click()
    expect(expert.locator("#score-panel")).to_be_visible()
    chinese(expert.locator("#score-panel").inner_text())
    expert.locator("label.score-option", has_text="5").click()
    expert.get_by_role("button", name=zh("Submit score")).click()
    expect(expert.locator("#summary")).to_be_visible()
    expect(worker.locator("#finished-title")).to_be_visible()
    chinese(worker.locator("#finished-title").inner_text())

    # The review, in Chinese: claimed, read, approved on to the second pass.
    reviewer = new_page("zh_reviewer")
    reviewer.goto(f"/review/dialogues/{dialogue}/")
    claim = reviewer.get_by_test_id("claim")
    expect(claim).to_have_text(zh("Review this dialogue (pass %(pass_number)s)") % {"pass_number": 1})
    claim.click()
    reviewer.wait_for_selector("[data-testid=holding]")
    expect(reviewer.get_by_text(question)).not_to_have_count(0)
    for place in ("holding", "outcome-end"):
        chinese(reviewer.get_by_test_id(place).inner_text())
    assert not ENGLISH_WORDS.search(reviewer.get_by_test_id("outcome-score").inner_text())  # "5 / 5"
    approve = reviewer.get_by_test_id("approve")
    expect(approve).to_contain_text(zh("Approve"))
    approve.click()
    reviewer.wait_for_url(re.compile(r".*/review/$"))
    sent_on = zh("Dialogue %(number)s sent on to pass %(pass)s.") % {"number": dialogue, "pass": 2}
    expect(reviewer.locator(".messages")).to_contain_text(sent_on)
    # The later passes by the services: the shared platform's pass-2 queue is the review story's (it claims the next).
    assert platform.build("review_finished", dialogue, "zh_reviewer_two", DEMO_PASSWORD) == "approved"
