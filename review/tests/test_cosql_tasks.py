"""CoSQL's response generation and user dialogue act prediction scored on a release of ours
(review.dataset.cosql_tasks), from the command line as the state-tracking scores are."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from review.tests.test_export import build, load

pytestmark = pytest.mark.django_db


@pytest.fixture
def release(tmp_path, dorm_dialogue):
    out, _ = build(tmp_path, split_map={"dorm_demo": "dev"})
    return out


def run(release, predictions, task, tmp_path) -> dict:
    path = tmp_path / f"{task}.txt"
    path.write_text(predictions, encoding="utf-8")
    stdout = StringIO()
    call_command(
        "evaluate_predictions", "--release", str(release), "--predictions", str(path), "--task", task, "--json",
        stdout=stdout,
    )  # fmt: skip
    return json.loads(stdout.getvalue())


def test_responses_are_scored_by_corpus_bleu_with_its_signature(release, tmp_path):
    items = load(release / "cosql_dataset" / "system_response_generation" / "cosql_dev.json")
    assert items, "the dorm dialogue has CONFIRM_SQL responses"
    gold = "".join(item["response"] + "\n" for item in items)
    perfect = run(release, gold, "response", tmp_path)
    assert perfect["bleu"] == 100.0 and perfect["items"] == len(items) and "tok:13a" in perfect["signature"]
    assert perfect["by_turn"][0]["label"] == "turn 1"
    vague = run(release, "Here is the answer.\n" * len(items), "response", tmp_path)
    assert vague["bleu"] < 50.0
    with pytest.raises(CommandError, match=f"has 1 line; the release has {len(items)} items"):
        run(release, "Only one.\n", "response", tmp_path)


def test_user_acts_are_scored_as_sets_per_turn_with_the_majority_baseline(release, tmp_path):
    items = load(release / "cosql_dataset" / "user_intent_prediction" / "cosql_dev.json")
    gold = "".join(" ".join(item["intent"]) + "\n" for item in items)
    perfect = run(release, gold, "user_acts", tmp_path)
    assert perfect["accuracy"] == 1.0 and perfect["items"] == len(items)
    assert {row["act"]: row["f1"] for row in perfect["per_act"]}["INFORM_SQL"] == 1.0
    assert 0 < perfect["majority"]["accuracy"] <= 1.0
    wrong = "".join("INFORM_SQL,THANK_YOU\n" for _ in items)  # commas accepted; a set is right only when equal
    assert run(release, wrong, "user_acts", tmp_path)["accuracy"] == 0.0
    with pytest.raises(CommandError, match="line 1: WHATEVER is not a user act"):
        run(release, "WHATEVER\n" * len(items), "user_acts", tmp_path)


def test_the_text_table_of_each_task(release, tmp_path):
    items = load(release / "cosql_dataset" / "user_intent_prediction" / "cosql_dev.json")
    path = tmp_path / "acts.txt"
    path.write_text("".join(" ".join(item["intent"]) + "\n" for item in items))
    stdout = StringIO()
    call_command(
        "evaluate_predictions", "--release", str(release), "--predictions", str(path), "--task", "user_acts",
        stdout=stdout,
    )  # fmt: skip
    assert "accuracy 1.000" in stdout.getvalue() and "INFORM_SQL" in stdout.getvalue()
