"""An admin scores CoSQL's other two tasks from a release's evaluation page: a response generation file (BLEU, with
its reference and tokenisation said) and a user act file that is not a list of acts (refused with the line)."""

import json
import re

import pytest
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def cosql_release(platform) -> dict:
    script = "import json; from tests.evaluation_builders import cosql_task_release as b; print(json.dumps(b()))"
    return json.loads(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def test_an_admin_scores_a_response_file_on_a_cosql_release_and_sees_bleu(new_page, cosql_release, tmp_path):
    responses = list(cosql_release["responses"])
    responses[-1] = "I cannot answer that."  # one response of five wrong
    predictions = tmp_path / "responses.txt"
    predictions.write_text("\n".join(responses) + "\n")
    page = new_page("ada")
    page.goto(f"/review/datasets/{cosql_release['export']}/evaluations/")
    task = page.locator("select[name=task]")
    expect(task.locator("option")).to_have_text(["SQL state tracking", "Response generation", "User act prediction"])
    page.select_option("select[name=fmt]", "cosql")
    task.select_option("response")
    page.set_input_files("input[name=predictions]", str(predictions))
    page.get_by_test_id("start-evaluation").click()
    expect(page).to_have_url(re.compile(r"/review/evaluations/\d+/$"))
    expect(page.get_by_test_id("evaluation-bleu")).to_have_text(re.compile(r"^BLEU \d+\.\d\d$"), timeout=60_000)
    expect(page.get_by_test_id("evaluation-bleu")).not_to_have_text("BLEU 100.00")
    expect(page.get_by_test_id("evaluation-signature")).to_contain_text("tok:13a")
    expect(page.get_by_test_id("evaluation-scores")).to_contain_text("system_response_generation/cosql_dev.json")
    expect(page.get_by_test_id("evaluation-by-turn").locator("tbody tr")).to_have_count(5)
    expect(page.get_by_test_id("evaluation-progress")).to_have_attribute("value", "100")
    page.click("text=All evaluations")
    row = page.get_by_test_id("evaluation-list").locator("tbody tr", has_text="responses.txt")
    expect(row.get_by_test_id("evaluation-task")).to_have_text("Response generation")
    expect(row).to_contain_text(re.compile(r"BLEU \d+\.\d\d"))

    # A user act file whose lines are not lists of acts is refused on the form, with its line and the task kept.
    bad = tmp_path / "acts.txt"
    bad.write_text('{"acts": "INFORM_SQL"}\n' * len(cosql_release["acts"]))
    page.select_option("select[name=fmt]", "cosql")
    page.locator("select[name=task]").select_option("user_acts")
    page.set_input_files("input[name=predictions]", str(bad))
    page.get_by_test_id("start-evaluation").click()
    expect(page.get_by_test_id("evaluation-error")).to_contain_text("acts.txt, line 1 is not a list of user acts")
    expect(page.locator("select[name=task]")).to_have_value("user_acts")
    expect(page.get_by_test_id("evaluation-list").locator("tbody tr")).to_have_count(1)
