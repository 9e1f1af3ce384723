"""Human rating of system responses in a real browser (docs/human_rating.md): Ada makes a task over the experts'
responses, the rooms' drafts and a model's uploaded file; Rosa, Rufus and Ruth rate every response, never told
which source wrote it; Ada reads CoSQL's Table 6 with the three sources side by side, and downloads the ratings."""

import csv
import io
import json

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations

MODEL = "pg-story-model"


def build(platform, name: str, *args, **kwargs):
    """Call `tests.rating_builders.<name>` in the platform's command runner and return its result."""
    script = (
        f"import json; from tests.rating_builders import {name} as b; print(json.dumps(b(*{args!r}, **{kwargs!r})))"
    )
    return json.loads(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def _judgement(rater: str, response: str, experts: set) -> tuple[str, str]:
    """What the story's raters give, by what the test (not the page) knows of the response: the expert's are right and
    well written, the drafts right by two raters of three, the model's wrong."""
    if response in experts:
        return "1: correct", "5"
    if response.startswith("The model says"):
        return "0: not correct", "2"
    return ("0: not correct", "3") if rater == "ruth" else ("1: correct", "4")


def test_an_admin_has_three_sources_rated_blind_and_reads_table_6(new_page, platform):
    from tests.rating_builders import DORM_TURNS

    story = build(platform, "rating_story_setup")
    experts = {response for _, _, response in DORM_TURNS}

    ada = new_page("ada")
    ada.get_by_role("link", name="Rating", exact=True).click()
    form = ada.get_by_test_id("rating-task-form")
    form.get_by_label("Task name").fill("Responses of the spring collection")
    form.get_by_label("Turns to sample").fill("3")
    form.get_by_label("Seed").fill("5")
    form.get_by_label("dorm_demo").check()
    expect(form.get_by_label("The expert's response")).to_be_checked()
    expect(form.get_by_label("The platform's draft")).to_be_checked()
    form.get_by_label("A model's responses (uploaded file)").check()
    form.get_by_label("Model's name").fill(MODEL)
    form.get_by_label("Model file").set_input_files(
        {"name": "model.jsonl", "mimeType": "application/jsonl", "buffer": story["model_file"].encode()}
    )
    for rater in ("rosa (expert)", "rufus (reviewer)", "ruth (reviewer)"):
        form.get_by_label(rater).check()
    form.get_by_role("button", name="Make the task").click()

    expect(ada.locator("h1")).to_have_text("Rating task: Responses of the spring collection")
    expect(ada.locator(".messages")).to_contain_text("9 responses to rate")
    for rater in ("rosa", "rufus", "ruth"):
        expect(ada.get_by_test_id(f"rating-progress-{rater}").get_by_test_id("rated")).to_have_text("0 of 9")
    task_url = ada.url

    for rater in ("rosa", "rufus", "ruth"):
        page = new_page(rater)
        page.get_by_role("link", name="Rating", exact=True).click()
        mine = page.get_by_test_id("rating-mine-task").filter(has_text="Responses of the spring collection")
        expect(mine.get_by_test_id("rating-mine-progress")).to_have_text("0 of 9")
        mine.get_by_role("link", name="Start rating").click()
        for position in range(1, 10):
            expect(page.locator("h1")).to_have_text(f"Rate response {position} of 9")
            expect(page.get_by_test_id("rating-definitions")).to_contain_text("Logic correctness: 1 when")
            expect(page.get_by_test_id("rating-sql")).to_contain_text("SELECT")
            expect(page.get_by_test_id("rating-result").locator("th").first).to_be_visible()
            if position == 1 and rater == "rosa":
                assert serious_violations(page) == [], "rating page"
                page.screenshot(path="/tmp/wozsql_rating_item.png", full_page=True)  # to look at
            # Blind: nothing on the page names the source or the model.
            text = page.content()
            for secret in (MODEL, "model.jsonl", "The expert's response", "The platform's draft"):
                assert secret not in text, (rater, position, secret)
            response = page.get_by_test_id("rating-response").inner_text().strip()
            logic, grammar = _judgement(rater, response, experts)
            rating = page.get_by_test_id("rating-form")
            rating.get_by_label(logic).check()
            rating.get_by_label(grammar, exact=True).check()
            rating.get_by_role("button", name="Save and go on").click()
        expect(page.locator(".messages")).to_contain_text("You have rated every response")
        expect(mine.get_by_test_id("rating-mine-progress")).to_have_text("9 of 9")
        # The JSON of their own task names no source either.
        data = page.evaluate(f"() => fetch('{task_url}mine.json').then(r => r.text())")
        assert MODEL not in data and '"source"' not in data and '"model"' not in data

    ada.goto(task_url)
    for rater in ("rosa", "rufus", "ruth"):
        expect(ada.get_by_test_id(f"rating-progress-{rater}").get_by_test_id("rated")).to_have_text("9 of 9")
    table = ada.get_by_test_id("rating-table6")
    expert, draft, model = (table.get_by_test_id(f"table6-{source}") for source in ("expert", "draft", "model"))
    expect(expert.get_by_test_id("source")).to_have_text("The expert's response")
    expect(draft.get_by_test_id("source")).to_have_text("The platform's draft")
    expect(model.get_by_test_id("source")).to_have_text(f"Model: {MODEL}")
    # Three turns, three raters: nine ratings a source. The expert's all (1, 5); the drafts (1, 4), (1, 4), (0, 3);
    # the model's all (0, 2).
    for row in (expert, draft, model):
        expect(row.get_by_test_id("items")).to_have_text("3")
        expect(row.get_by_test_id("ratings")).to_have_text("9")
    expect(expert.get_by_test_id("logic")).to_have_text("1.000")
    expect(expert.get_by_test_id("lcr")).to_have_text("100.0")
    expect(expert.get_by_test_id("grammar")).to_have_text("5.00")
    expect(draft.get_by_test_id("logic")).to_have_text("0.667")
    expect(draft.get_by_test_id("lcr")).to_have_text("100.0")
    expect(draft.get_by_test_id("grammar")).to_have_text("3.67")
    expect(model.get_by_test_id("logic")).to_have_text("0.000")
    expect(model.get_by_test_id("lcr")).to_have_text("0.0")
    expect(model.get_by_test_id("grammar")).to_have_text("2.00")
    # All sources: 9 items, 27 ratings; the raters agree on everything but Ruth's drafts.
    everything = table.get_by_test_id("table6-all")
    expect(everything.get_by_test_id("ratings")).to_have_text("27")
    expect(everything.get_by_test_id("alpha-grammar")).not_to_have_text("—")
    assert serious_violations(ada) == [], "task page"
    ada.screenshot(path="/tmp/wozsql_rating_table6.png", full_page=True)  # to look at

    with ada.expect_download() as download:
        ada.get_by_test_id("rating-csv").click()
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    assert len(rows) == 27
    assert {row["source"] for row in rows} == {"expert", "draft", "model"}
    assert {row["model"] for row in rows if row["source"] == "model"} == {MODEL}
    assert sorted({row["rater"] for row in rows}) == ["rosa", "rufus", "ruth"]

    # A rater cannot open the admin's page.
    rosa = new_page("rosa")
    assert rosa.goto(task_url).status == 403
