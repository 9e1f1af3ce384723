"""Blind double annotation in a real browser (docs/double_annotation.md): Ada draws a sample of one database's turns
for Dmitri; Dmitri labels them without seeing the first labels (and the review screen of those dialogues is closed to
him meanwhile); Ada reads the agreement and settles one disagreement, which becomes a review correction of hers."""

import json

from playwright.sync_api import expect

# What Dmitri gives each question (found by its words): the acts, his SQL, his question style.
SECOND = {
    "How many students are there?": ("SELECT count(*) FROM student", "陈述句"),
    "And their age?": ("SELECT first_name FROM student", ""),
    "Which dorms hold more than 100 students?": ("SELECT dorm_name FROM dorm WHERE 100 < student_capacity", ""),
}
FIRST_SQL = ("SELECT age FROM student", "student_capacity > 100")


def build(platform, name: str, *args):
    """Call `tests.double_builders.<name>` in the platform's command runner and return its result."""
    script = f"import json; from tests.double_builders import {name} as b; print(json.dumps(b(*{args!r})))"
    return json.loads(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def test_ada_draws_dmitri_labels_blind_and_ada_settles_a_disagreement(new_page, platform):
    dialogues = build(platform, "double_collected", "double_dorm")
    build(platform, "double_labeller", "dmitri", "reviewer")

    ada = new_page("ada")
    ada.goto("/review/double/")
    form = ada.get_by_test_id("draw-form")
    form.locator("#id_labeller").select_option(label="dmitri (reviewer)")
    form.locator("#id_db_id").select_option("double_dorm")
    form.locator("#id_size").fill("3")
    form.locator("#id_seed").fill("seven")
    form.get_by_test_id("draw").click()
    expect(ada.get_by_test_id("error-seed")).to_contain_text("The seed must be a whole number")
    form.locator("#id_seed").fill("7")
    form.locator("#id_size").fill("4")
    form.get_by_test_id("draw").click()
    expect(ada.get_by_test_id("draw-error")).to_contain_text("Asked for 4 turns, but only 3 match")
    form.locator("#id_size").fill("3")
    form.get_by_test_id("draw").click()
    expect(ada.get_by_test_id("progress")).to_contain_text("0 of 3 turns labelled")
    sample_url = ada.url

    dmitri = new_page("dmitri")
    dmitri.goto(f"/review/dialogues/{dialogues[0]}/")
    expect(dmitri.locator("body")).to_contain_text("labelling this dialogue blind")
    dmitri.goto(sample_url)
    expect(dmitri.locator("body")).to_contain_text("You label this sample's dialogues blind")
    dmitri.goto("/review/double/")
    dmitri.locator("[data-testid^=label-]").first.click()
    for position in range(1, 4):
        expect(dmitri.locator("h1")).to_contain_text(f"turn {position} of 3")
        html = dmitri.content()
        assert not any(sql in html for sql in FIRST_SQL)
        question = dmitri.get_by_test_id("utterance").inner_text()
        sql, style = SECOND[question]
        dmitri.get_by_test_id("user-acts").get_by_label("INFORM_SQL").check()
        dmitri.get_by_test_id("system-acts").get_by_label("CONFIRM_SQL").check()
        dmitri.locator("#id_query").fill(sql)
        dmitri.get_by_test_id("run").click()
        expect(dmitri.get_by_test_id("run-result").locator("th").first).to_be_visible()
        if style:
            dmitri.locator("#id_question_style").select_option(style)
        if question == "And their age?":
            dmitri.get_by_test_id("phenomena").get_by_label("Ellipsis Continuation").check()
            words = dmitri.locator("#double-link-words")
            words.get_by_role("button", name="age", exact=True).click()
            words.get_by_role("button", name="age", exact=True).click()
            dmitri.get_by_test_id("link-item").select_option(label="column student.age")
            dmitri.get_by_test_id("link-add").click()
            expect(dmitri.get_by_test_id("link-list")).to_contain_text("“age” → column age")
        if question.startswith("Which dorms"):
            hundred = dmitri.locator("#double-link-words").get_by_role("button", name="100", exact=True)
            hundred.click()
            hundred.click()
            dmitri.get_by_test_id("link-item").select_option(label="value in dorm.student_capacity")
            dmitri.get_by_test_id("link-add").click()
            expect(dmitri.get_by_test_id("link-list")).to_contain_text('“100” → value "100"')
        dmitri.get_by_test_id("save-labels").click()
    expect(dmitri.locator(".messages")).to_contain_text("is labelled. Thank you.")
    dmitri.goto(f"/review/dialogues/{dialogues[0]}/")
    expect(dmitri.locator("body")).not_to_contain_text("labelling this dialogue blind")

    ada.goto(sample_url)
    expect(ada.get_by_test_id("progress")).to_contain_text("3 of 3 turns labelled")
    expect(ada.get_by_test_id("execution")).to_contain_text("2 of 3")
    expect(ada.get_by_test_id("suite")).to_contain_text("2 of 3")
    expect(ada.get_by_test_id("figure-question_style")).to_contain_text("κ =")
    expect(ada.get_by_test_id("figure-schema_linking")).to_contain_text("0 first, 2 second")
    disagreement = ada.locator("[data-testid$=-question_style]").filter(has=ada.get_by_test_id("keep-second"))
    expect(disagreement.get_by_test_id("first")).to_have_text("疑问句")
    expect(disagreement.get_by_test_id("second")).to_have_text("陈述句")
    disagreement.get_by_test_id("note").fill("a request, not a question")
    disagreement.get_by_test_id("keep-second").click()
    expect(ada.locator(".messages")).to_contain_text("the second label stands (recorded as correction #")
    expect(ada.get_by_test_id("disagreements").get_by_test_id("settled").first).to_contain_text("ada")
