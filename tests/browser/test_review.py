"""Two reviewers take a dialogue through both review passes in a real browser, and the export holds what they fixed.

The dialogues are collected through the room's own service (`dialogue_post`, as the rooms call it; the rooms
themselves are driven in test_rooms.py), in the running platform's database.
"""

import json
import re

import pytest
from playwright.sync_api import expect

# Run with `manage.py shell -c`, after a first line naming the expert and the dialogues (collect_script).
_COLLECT = """
from annotation.models import Goal, User
from dialogs.models import Dialogue
from dialogs.room import dialogue_post

alice, erin = User.objects.get(username="alice"), User.objects.get(username=EXPERT)
goal = Goal.objects.filter(database__db_id="dorm_demo").first()
made = []
for label in LABELS:
    dialogue = Dialogue.objects.create(database=goal.database, goal=goal, worker=alice, expert=erin)
    n = iter(range(1000))

    def send(person, **message):
        message["id"] = f"{label}{next(n)}"
        return dialogue_post(dialogue=dialogue, person=person, message=message)[0][0]

    for question, sql, answer in (
        ("How many students are there?", "SELECT count(*) FROM student", "There are some students."),
        ("Show their last names", "SELECT last_name FROM student", "Here are the last names."),
        ("And the oldest one?", "SELECT last_name FROM student ORDER BY age DESC LIMIT 1", "This is the oldest."),
    ):
        turn = send(alice, type="utterance", text=question).seq
        send(erin, type="user_acts", turn=turn, acts=["INFORM_SQL"])
        run = send(erin, type="sql_run", turn=turn, sql=sql)
        send(erin, type="share_result", turn=turn, run=run.seq)
        send(erin, type="response", turn=turn, text=answer, acts=["CONFIRM_SQL"])
    send(alice, type="end")
    send(erin, type="score", score=5)
    made.append(dialogue.pk)
print(made)
"""


def collect_script(expert: str = "erin", labels: tuple[str, ...] = ("A", "B")) -> str:
    """The script that collects one completed dialogue (three SQL questions) of Alice with `expert` per label and
    prints their ids."""
    return f"EXPERT, LABELS = {expert!r}, {tuple(labels)!r}\n" + _COLLECT


COLLECT = collect_script()


def collect(platform, expert: str = "erin", labels: tuple[str, ...] = ("A", "B")) -> list[int]:
    """Collect the dialogues in the running platform's database; their ids."""
    return json.loads(platform.manage("shell", "-c", collect_script(expert, labels)).strip().splitlines()[-1])


@pytest.fixture(scope="module")
def collected(platform):
    first, second = collect(platform)
    return first, second


def claim(page, dialogue_id: int) -> None:
    """Open a dialogue's review screen and claim it for its current pass."""
    page.goto(f"/review/dialogues/{dialogue_id}/")
    page.click("[data-testid=claim]")
    page.wait_for_selector("[data-testid=holding]")


def correct_query(page, index: int, sql: str, *, column: str, reason: str = "") -> None:
    """Correct turn `index`'s query: typed into the SQL editor (CodeMirror's editable element), run first to see its
    result (with `column`) beside the old one, then saved; returns once the turn shows the new query."""
    turn = page.locator(f"[data-testid=turn-{index}]")
    turn.locator("[data-edit=query]").click()
    turn.locator(".cm-content[data-testid=new-value]").fill(sql)
    turn.locator("[data-testid=run]").click()
    turn.locator(f"[data-testid=run-result] th >> text={column}").wait_for()
    if reason:
        turn.locator("[data-testid=reason]").fill(reason)
    turn.locator("[data-testid=save]").click()
    page.wait_for_selector(f"[data-testid=turn-{index}] [data-testid=query] >> text={column}")


def test_two_reviewers_correct_approve_reject_and_the_export_holds_the_corrections(
    new_page, platform, collected, tmp_path
):
    first, second = collected
    rita = new_page("rita")
    rita.goto("/review/?queue=pass1")
    assert int(rita.inner_text("[data-testid=queue-pass1] strong")) >= 2
    claim(rita, first)

    # What the expert knew, and the worker's record, beside the turns (CoSQL's review screen shows the rating and
    # the comments).
    expect(rita.get_by_test_id("outcome-end")).to_contain_text("Completed, by the worker")
    expect(rita.get_by_test_id("outcome-score")).to_have_text("5 of 5")
    expect(rita.get_by_test_id("outcome-time")).to_contain_text(" s, from pairing to the end")
    expect(rita.get_by_test_id("worker-quality")).to_contain_text("Rejected for their questions")

    # The goal's SQL is shown pretty-printed (one clause per line) in the SQL editor, read-only.
    goal = rita.locator("[data-testid=goal-sql] .cm-content")
    expect(goal).to_have_attribute("aria-label", "Goal SQL")
    expect(goal).to_have_attribute("aria-readonly", "true")
    expect(goal).to_have_attribute("contenteditable", "false")
    assert goal.locator(".cm-line").nth(1).inner_text().strip()

    # An act: INFORM_SQL → INFER_SQL on the first turn.
    turn = rita.locator("[data-testid=turn-0]")
    turn.locator("[data-edit=user_acts]").click()
    turn.locator("[data-testid=act-INFORM_SQL]").uncheck()
    turn.locator("[data-testid=act-INFER_SQL]").check()
    turn.locator("[data-testid=reason]").fill("the user implied it")
    turn.locator("[data-testid=save]").click()
    rita.wait_for_selector("[data-testid=turn-0] [data-testid=user-acts] >> text=INFER_SQL")

    # A query, run first to see its result beside the old one. Saved, it is compared with the original on the test
    # suite (or the original database alone while the suite is being built): another column, another meaning.
    correct_query(rita, 1, "SELECT first_name, last_name FROM student", column="first_name")
    kept = rita.get_by_test_id("correction-check-1")
    expect(kept).to_contain_text("Different: here is a database where they differ")
    expect(kept.locator(".suite-side")).to_have_count(2)

    # "Does this query mean the question?": Rita compares queries of her own with the first turn's count.
    box = rita.get_by_test_id("compare-box-0")
    box.locator("summary").click()
    box.get_by_test_id("compare-sql-0").fill("SELECT count(*) FROM nowhere")
    box.get_by_test_id("compare-0").click()
    expect(box.get_by_test_id("compare-error-0")).to_contain_text("Your query cannot be compared")
    box.get_by_test_id("compare-sql-0").fill("SELECT count(*) FROM student WHERE age > 20")
    box.get_by_test_id("compare-0").click()
    result = box.get_by_test_id("compare-result-0")
    expect(result).to_contain_text("Different: here is a database where they differ")
    expect(result.locator(".suite-side")).to_have_count(2)
    expect(result.locator(".suite-side h4")).to_have_text(["Your query", "The turn's query"])
    expect(box.get_by_test_id("compare-error-0")).to_have_text("")
    box.get_by_test_id("compare-sql-0").fill("SELECT count(student_id) FROM student")
    box.get_by_test_id("compare-0").click()
    expect(result).to_contain_text("No difference found on")  # never "same meaning": a search found nothing

    # A response.
    turn = rita.locator("[data-testid=turn-1]")
    turn.locator("[data-edit=response]").click()
    turn.locator("[data-testid=new-value]").fill("Here are their first and last names.")
    turn.locator("[data-testid=save]").click()
    rita.wait_for_selector("[data-testid=turn-1] [data-testid=response] >> text=first and last names")
    assert rita.locator("[data-testid=turn-1] [data-testid=diff-pass-1] del").count() >= 1

    # CHASE's form of the question, chosen from CHASE's own values.
    turn.locator("[data-edit=question_style]").click()
    turn.locator("[data-testid=new-value]").select_option("疑问句")
    turn.locator("[data-testid=save]").click()
    expect(turn.get_by_test_id("question-style")).to_have_text("a question (疑问句)")

    # CHASE labels: the relation detected for "And the oldest one?" (an ORDER BY added: Display) is corrected, and the
    # phenomena the expert left unset are set.
    turn = rita.locator("[data-testid=turn-2]")
    assert "Display" in turn.locator("[data-testid=intent] .value").inner_text()
    turn.locator("[data-edit=intent]").click()
    turn.locator("[data-testid=intent-category]").select_option("combination")
    turn.locator("[data-testid=relation-R8]").check()
    turn.locator("[data-testid=save]").click()
    rita.wait_for_selector("[data-testid=turn-2] [data-testid=intent] .value >> text=Combination")
    assert "R8 Subset" in rita.locator("[data-testid=turn-2] [data-testid=intent] .value").inner_text()
    turn = rita.locator("[data-testid=turn-2]")
    turn.locator("[data-edit=contextual_phenomena]").click()
    turn.locator("[data-testid='act-Coreference']").check()
    turn.locator("[data-testid=save]").click()
    rita.wait_for_selector("[data-testid=turn-2] [data-testid=phenomena] >> text=Coreference")
    # SParC's thematic relation: the detected ORDER BY (R14) proposes refinement, shown as a proposal only; the
    # reviewer gives it, and the proposal, now the label, is not repeated.
    turn = rita.locator("[data-testid=turn-2]")
    expect(turn.get_by_test_id("thematic")).to_have_text("not labelled")
    expect(turn.get_by_test_id("thematic-proposal")).to_have_text("(proposed from the SQL: Refinement)")
    turn.locator("[data-edit=thematic_relations]").click()
    turn.locator("[data-testid=act-refinement]").check()
    turn.locator("[data-testid=save]").click()
    expect(rita.locator("[data-testid=turn-2]").get_by_test_id("thematic")).to_have_text("Refinement")
    expect(rita.locator("[data-testid=turn-2]").get_by_test_id("thematic-proposal")).to_have_count(0)

    # A refused correction says why and changes nothing.
    turn = rita.locator("[data-testid=turn-2]")
    turn.locator("[data-edit=query]").click()
    turn.locator(".cm-content[data-testid=new-value]").fill("SELECT nope FROM student")
    turn.locator("[data-testid=save]").click()
    rita.wait_for_function("() => document.querySelector('[data-testid=turn-2] .editor [role=alert]')?.textContent")
    assert "does not run" in turn.locator(".editor [role=alert]").inner_text()

    rita.click("[data-testid=approve]")
    rita.wait_for_url(re.compile(r".*/review/$"))
    assert "sent on to pass 2" in rita.inner_text(".messages")

    # Rita now holds the second dialogue; Ravi sees the lock there.
    claim(rita, second)
    ravi = new_page("ravi")
    ravi.goto(f"/review/dialogues/{second}/")
    assert "rita is reviewing" in ravi.inner_text("[data-testid=locked]")

    # Pass 2 by Ravi: grammar of an utterance, then approve through final validation.
    ravi.goto("/review/")
    ravi.click("[data-testid=claim-next-2]")
    ravi.wait_for_url(re.compile(rf".*/review/dialogues/{first}/$"))
    turn = ravi.locator("[data-testid=turn-1]")
    turn.locator("[data-edit=utterance]").click()
    turn.locator("[data-testid=new-value]").fill("Show me their names.")
    turn.locator("[data-testid=save]").click()
    ravi.wait_for_selector("[data-testid=turn-1] [data-testid=utterance] >> text=Show me their names.")
    history = ravi.locator("[data-testid=history-1]")
    history.locator("summary").click()
    assert history.locator("[data-testid=original-utterance]").inner_text() == "Show their last names"
    assert history.locator("[data-testid=original-query]").inner_text() == "SELECT last_name FROM student"
    ravi.click("[data-testid=approve]")
    ravi.wait_for_url(re.compile(r".*/review/$"))
    assert "approved" in ravi.inner_text(".messages")

    # Rita rejects the second one with a reason and whose work failed (required: the browser asks for it first).
    expect(rita.get_by_test_id("reject-goes-on")).to_contain_text("goes to a second reviewer (pass 2)")
    rita.select_option("[data-testid=reject-form] select[name=reason]", "repetitive")
    rita.click("[data-testid=reject]")
    expect(rita.locator("[data-testid=reject-form] select[name=fault]:invalid")).to_have_count(1)
    rita.select_option("[data-testid=reject-form] select[name=fault]", "worker")
    rita.click("[data-testid=reject]")
    rita.wait_for_url(re.compile(r".*/review/$"))
    assert "a second reviewer decides on the rejection" in rita.inner_text(".messages")
    # One reviewer does not decide: Ravi, in pass 2, sees her rejection and confirms it.
    claim(ravi, second)
    proposal = ravi.get_by_test_id("proposed-rejection")
    expect(proposal).to_contain_text("Pass 1 rejected this dialogue")
    expect(proposal).to_contain_text("the worker's questions")
    expect(ravi.get_by_test_id("reject-goes-on")).to_have_count(0)
    ravi.select_option("[data-testid=reject-form] select[name=reason]", "repetitive")
    ravi.select_option("[data-testid=reject-form] select[name=fault]", "both")
    ravi.click("[data-testid=reject]")
    ravi.wait_for_url(re.compile(r".*/review/$"))
    rita.goto(f"/review/dialogues/{second}/")
    expect(rita.get_by_test_id("rejection-fault")).to_have_text("Whose work failed: both.")
    rita.goto("/review/?queue=rejected")
    assert rita.locator(f"[data-testid=open-{second}]").count() == 1
    rita.locator("[data-testid=agreement-kappa]").wait_for()

    out = tmp_path / "release"
    platform.manage("export_dataset", "--format", "sparc", "--out", str(out), "--seed", "1")
    interactions = [item for split in ("train", "dev", "test") for item in _load(out / "sparc" / f"{split}.json")]
    # The platform is shared with the other browser tests (an imported release may be there too): find ours.
    [exported] = [
        item
        for item in interactions
        if len(item["interaction"]) > 1 and item["interaction"][1]["utterance"] == "Show me their names."
    ]
    assert exported["interaction"][1]["query"] == "SELECT first_name, last_name FROM student"
    assert exported["interaction"][2]["thematic_relations"] == ["refinement"]  # the reviewer's label
    assert "thematic_relations" not in exported["interaction"][1]  # nobody labelled it: the public layout
    assert all("Show their last names" != turn["utterance"] for item in interactions for turn in item["interaction"])
    report = json.loads((out / "export_report.json").read_text())
    assert str(first) in report["revisions"] and str(second) not in report["revisions"]


def _load(path):
    return json.loads(path.read_text()) if path.exists() else []
