"""The expert's ambiguity label of an AMBIGUOUS or CANNOT_ANSWER question: the sub-type offered while one of those
acts is ticked, the words it concerns and the readings' SQL, saved with the acts and there again after a reload; a
reviewer corrects it, and the export carries the corrected label."""

import json
import re

from playwright.sync_api import expect

from tests.browser.test_phone import PHONE, page_overflow, within_screen
from tests.browser.test_review import claim
from tests.browser.test_rooms import ask, patient_expectations, read_tables_and_reveal  # noqa: F401

# Run with `manage.py shell -c` after a line setting DIALOGUE: the expert clarifies the first question, three questions
# are answered with the goal's SQL, the worker ends and the expert scores, so the dialogue enters review.
_FINISH = """
from dialogs.models import Dialogue
from dialogs.room import dialogue_post

dialogue = Dialogue.objects.get(pk=DIALOGUE)
worker, expert, sql = dialogue.worker, dialogue.expert, dialogue.goal.sql
n = iter(range(1000))


def send(person, **message):
    message["id"] = f"finish{next(n)}"
    return dialogue_post(dialogue=dialogue, person=person, message=message)[0][0]


first = dialogue.events.filter(kind="utterance").order_by("seq").first().seq
send(expert, type="response", turn=first, text="Do you mean more than 300 students?", acts=["CLARIFY"])
for question in ("Yes, those.", "And how many are there?", "Show them again."):
    turn = send(worker, type="utterance", text=question).seq
    send(expert, type="user_acts", turn=turn, acts=["INFORM_SQL"])
    run = send(expert, type="sql_run", turn=turn, sql=sql)
    send(expert, type="share_result", turn=turn, run=run.seq)
    send(expert, type="response", turn=turn, text="Here they are.", acts=["CONFIRM_SQL"])
send(worker, type="end")
send(expert, type="score", score=5)
"""


def options(expert) -> list[str]:
    return expert.locator("#ambiguity-type option").evaluate_all("(all) => all.map((o) => o.value)")


def test_the_expert_gives_an_ambiguous_question_its_sub_type(new_page, paired):
    worker, expert, _ = paired("amy", "abe")
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


def test_the_expert_marks_the_words_and_readings_a_reviewer_corrects_them_and_the_export_has_the_correction(
    new_page, paired, platform, tmp_path
):
    worker, expert, _ = paired("ava", "ben")
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

    # On a phone, the same: the words wrap and the readings fit, nothing pushes the page sideways.
    phone = new_page("ben", **PHONE)
    phone.goto(expert.url)
    expect(phone.get_by_test_id("ambiguity-span")).to_have_text("Marked: “big ones”")
    expect(phone.get_by_test_id("ambiguity-reading-2")).to_be_visible()
    assert page_overflow(phone) == 0
    for selector in ("[data-testid=ambiguity-tokens]", "[data-testid=ambiguity-reading-2]"):
        assert within_screen(phone, selector), selector

    # The dialogue goes on and ends; a reviewer corrects the sub-type and the words, keeping the readings.
    dialogue = int(re.search(r"/dialogues/(\d+)/", expert.url).group(1))
    platform.manage("shell", "-c", f"DIALOGUE = {dialogue}\n" + _FINISH)
    rita = new_page("rita")
    claim(rita, dialogue)
    turn = rita.get_by_test_id("turn-0")
    shown = turn.get_by_test_id("ambiguity")
    expect(shown).to_have_text(
        "vague condition · “big ones” · reading 1: SELECT name FROM dorm WHERE student_capacity > 300"
        " · reading 2: SELECT name FROM dorm ORDER BY student_capacity DESC LIMIT 3"
    )
    turn.locator("[data-edit=ambiguity]").click()
    editor = turn.locator(".editor")
    expect(editor.get_by_test_id("ambiguity-span")).to_have_text("Marked: “big ones”")
    editor.get_by_test_id("ambiguity-type").select_option("ambiguous_value")
    words = editor.get_by_test_id("ambiguity-tokens").get_by_role("button")
    words.nth(3).click()
    words.nth(3).click()
    expect(editor.get_by_test_id("ambiguity-span")).to_have_text("Marked: “big”")
    expect(editor.get_by_test_id("ambiguity-reading-2")).to_have_value(
        "SELECT name FROM dorm ORDER BY student_capacity DESC LIMIT 3"
    )
    editor.get_by_test_id("reason").fill("'big' alone is what is unclear")
    editor.get_by_test_id("save").click()
    expect(shown).to_contain_text("ambiguous value · “big” · reading 1")
    history = turn.get_by_test_id("history-0")
    history.locator("summary").click()
    expect(history.get_by_test_id("original-ambiguity")).to_contain_text("vague condition · “big ones”")

    out = tmp_path / "release"
    platform.manage(
        "export_dataset", "--format", "cosql", "--format", "chase", "--status", "completed", "--out", str(out)
    )
    info = json.loads((out / "cosql_dataset" / "cosql_all_info_dialogs.json").read_text())
    asked = next(item for item in info[str(dialogue)]["turns"] if item["isUser"])
    assert asked["ambiguity"] == {
        "type": "ambiguous_value",
        "span": {"beg": 3, "end": 3},
        "readings": [
            "SELECT name FROM dorm WHERE student_capacity > 300",
            "SELECT name FROM dorm ORDER BY student_capacity DESC LIMIT 3",
        ],
    }
    chase = [
        turn
        for split in ("train", "dev", "test")
        if (out / "chase" / f"chase_{split}.json").exists()
        for item in json.loads((out / "chase" / f"chase_{split}.json").read_text())
        for turn in item["interaction"]
        if turn["utterance"].startswith("Which are the big ones? | Do you mean more than 300 students?")
    ]
    [(turn, carried)] = [(turn, label) for turn in chase for label in turn.get("ambiguity", [])]
    assert carried["type"] == "ambiguous_value"
    assert turn["utterance_toks"][carried["span"]["beg"] : carried["span"]["end"] + 1] == ["big"]
