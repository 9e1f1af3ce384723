"""A simulated worker (docs/simulated_worker.md), started by `manage.py simulate_workers`, is paired with a person
at the expert desk in Chromium, who answers each of its questions (acts, SQL, the result, a response) until it ends
the dialogue; the live board shows the room as simulated, and an export leaves the dialogue out unless asked."""

import json
import subprocess
import sys

from playwright.sync_api import expect

from annotation.demo import DEMO_GOALS
from tests.browser.conftest import ROOT
from tests.browser.test_rooms import ROOM_URL, label, patient_expectations, respond, run_and_share  # noqa: F401

GOAL = next(spec for spec in DEMO_GOALS if "out of Chicago" in spec["question"])
# The script's questions toward this goal (follow-suggestions 0: none of the platform's suggestions is taken).
QUESTIONS = [
    "Can you show me all the airlines?",
    "Only the ones with Chicago, please.",
    "Can you break that down for each of them?",
    "Which one comes out on top?",
    GOAL["question"],
]


def _export_questions(platform, tmp_path, name: str, *extra: str) -> list[str]:
    out = tmp_path / name
    platform.manage(
        "export_dataset", "--format", "cosql", "--status", "completed", "--out", str(out), "--quiet", *extra
    )
    files = (out / "cosql_dataset" / "sql_state_tracking").glob("cosql_*.json")
    return [
        turn["utterance"] for path in files for item in json.loads(path.read_text()) for turn in item["interaction"]
    ]


def test_a_person_answers_a_simulated_worker_until_it_ends_and_the_pilot_stays_out_of_releases(
    new_page, people, platform, tmp_path
):
    people("simpilot_worker", "simpilot_expert")
    goal_id = platform.manage(
        "shell", "-c", f"from annotation.models import Goal; print(Goal.objects.get(question={GOAL['question']!r}).id)"
    ).split()[-1]  # the shell may say how many objects it imported first
    expert = new_page("simpilot_expert", password="wozsql-demo")
    expert.goto("/expert/")
    expect(expert.locator("#ready-toggle")).to_be_enabled()
    expert.locator("label.switch").click()
    expect(expert.locator("#ready-toggle")).to_be_checked()
    command = [
        sys.executable, "manage.py", "simulate_workers", "--goal", goal_id, "--count", "1", "--expert", "human",
        "--follow-suggestions", "0", "--seed", "1", "--url", platform.url, "--time-limit", "240",
    ]  # fmt: skip
    pilot = subprocess.Popen(command, cwd=ROOT, env=platform.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        expect(expert).to_have_url(ROOM_URL, timeout=60_000)
        dialogue = expert.url.rstrip("/").rsplit("/", 1)[1]
        expect(expert.get_by_test_id("partner")).to_have_text("Worker: connected")

        board = new_page("ada")
        board.goto("/manage/live/")
        room_row = board.get_by_test_id("rooms").locator("tr[data-simulated='1']", has_text=f"#{dialogue}")
        expect(room_row).to_contain_text("simulated")
        expect(board.get_by_test_id("simulated-count")).not_to_have_text("0")
        board.screenshot(path="/tmp/wozsql_live_simulated.png", full_page=True)  # to look at
        phone = new_page("ada", viewport={"width": 390, "height": 844}, is_mobile=True)
        phone.goto("/manage/live/")
        expect(phone.get_by_test_id("rooms").locator("tr[data-simulated='1']").first).to_contain_text("simulated")
        phone.screenshot(path="/tmp/wozsql_live_simulated_phone.png", full_page=True)  # at a phone's width

        for number, question in enumerate(QUESTIONS):
            expect(expert.locator("#turn-quote")).to_have_text(question)
            label(expert, "INFORM_SQL")
            run_and_share(expert, GOAL["sql"])
            respond(expert, f"Here is the answer ({number + 1}).", "CONFIRM_SQL")
            if number == 0:
                expert.screenshot(path="/tmp/wozsql_simulated_expert.png", full_page=True)  # to look at
        # The simulated worker ends once its goal question is answered: the expert is asked for a score.
        expect(expert.locator("#score-panel")).to_be_visible(timeout=30_000)
        expert.locator(".score-option", has_text="4").click()
        expert.locator("#score-form button[type=submit]").click()
        expect(expert.locator("#score-panel")).to_be_hidden()
        output = pilot.communicate(timeout=120)[0].decode()
        assert pilot.returncode == 0, output
        assert f"dialogue {dialogue}, completed, 5 answered" in output
    finally:
        if pilot.returncode is None:
            pilot.kill()
            print(pilot.returncode, pilot.communicate()[0].decode())  # what the pilot said, shown with a failure

    # Review never takes the pilot, and says so: on the dashboard it waits in no review queue (it sat in "To review
    # (pass 1)" for ever, where "Take the next" never found it), and its page says what it is.
    reviewer = new_page("ada")
    reviewer.goto("/review/?queue=pass1")
    expect(reviewer.get_by_test_id("review-list")).to_be_visible()
    expect(reviewer.get_by_test_id(f"open-{dialogue}")).to_have_count(0)
    reviewer.goto("/review/?queue=not_for_review")
    row = reviewer.get_by_test_id("review-list").locator("tr", has=reviewer.get_by_test_id(f"open-{dialogue}"))
    expect(row).to_contain_text("Not for review")
    expect(row.get_by_test_id(f"not-for-review-{dialogue}")).to_have_text("simulated pilot")
    reviewer.get_by_test_id(f"open-{dialogue}").click()
    expect(reviewer.get_by_test_id("not-for-review")).to_have_text("This is a simulated pilot dialogue, not reviewed.")
    expect(reviewer.get_by_test_id("review-status")).not_to_contain_text("Not in review")
    expect(reviewer.get_by_test_id("worker-quality")).to_have_text(
        "No quality record: this is a simulated pilot dialogue."
    )

    # Releases leave the pilot out unless asked: the script's first question is only in the export that asks.
    assert QUESTIONS[0] not in _export_questions(platform, tmp_path, "without")
    assert QUESTIONS[0] in _export_questions(platform, tmp_path, "with", "--include-simulated")
