"""CoSQL's three tasks scored from the evaluation page (review.dataset.evaluation_jobs): a response file and a user
act file give, through the page's job, the figures `manage.py evaluate_predictions --task ...` gives on the same
files; a file that is not what its task expects is refused on the form, with its reason, and nothing is recorded; a
release without CoSQL offers SQL only."""

import json
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from review.dataset import evaluation_jobs, selectors
from review.models import Evaluation

pytestmark = pytest.mark.django_db

TASK_FILES = {
    "response": "cosql_dataset/system_response_generation/cosql_dev.json",
    "user_acts": "cosql_dataset/user_intent_prediction/cosql_dev.json",
}


def _export(ada, formats, capture):
    from review.dataset.services import dataset_export_create

    with capture(execute=True):
        export = dataset_export_create(requested_by=ada, formats=formats, split_map={"dorm_demo": "dev"})
    export.refresh_from_db()
    assert selectors.export_file_path(export) is not None, export.message
    return export


@pytest.fixture
def cosql_export(dorm_dialogue, ada, django_capture_on_commit_callbacks, tmp_path):
    """A finished CoSQL + SParC + gold export of the dorm dialogue, and its zip unpacked (what the command reads)."""
    export = _export(ada, ["cosql", "sparc", "gold"], django_capture_on_commit_callbacks)
    release = tmp_path / "release"
    with zipfile.ZipFile(selectors.export_file_path(export)) as archive:
        archive.extractall(release)
    return export, release


def _items(release: Path, task: str) -> list[dict]:
    return json.loads((release / TASK_FILES[task]).read_text(encoding="utf-8"))


def _command(release: Path, task: str, path: Path) -> dict:
    stdout = StringIO()
    call_command(
        "evaluate_predictions", "--release", str(release), "--predictions", str(path), "--task", task, "--json",
        stdout=stdout,
    )  # fmt: skip
    return json.loads(stdout.getvalue())


def _upload(client, export, capture, *, task: str, name: str, content: bytes, fmt: str = "cosql"):
    url = reverse("review:evaluations", args=[export.pk])
    with capture(execute=True):
        return client.post(
            url, {"fmt": fmt, "task": task, "split": "dev", "predictions": SimpleUploadedFile(name, content)}
        )


def test_a_response_file_scored_on_the_page_gives_the_commands_figures(
    client, ada, cosql_export, tmp_path, django_capture_on_commit_callbacks
):
    export, release = cosql_export
    items = _items(release, "response")
    assert len(items) >= 2, "the dorm dialogue has several system responses"
    lines = [item["response"] for item in items]
    lines[0] = "I do not know which table that is."  # one response of several wrong: BLEU between 0 and 100
    content = ("\n".join(lines) + "\n").encode()
    path = tmp_path / "responses.txt"
    path.write_bytes(content)
    expected = _command(release, "response", path)
    assert 0 < expected["bleu"] < 100

    client.force_login(ada)
    response = _upload(
        client, export, django_capture_on_commit_callbacks, task="response", name="responses.txt", content=content
    )
    evaluation = Evaluation.objects.get()
    assert response.status_code == 302, response.content.decode()
    assert response["Location"] == reverse("review:evaluation_detail", args=[evaluation.pk])
    evaluation.refresh_from_db()
    assert (evaluation.state, evaluation.task, evaluation.percent) == (Evaluation.State.SUCCEEDED, "response", 100)
    assert evaluation.report == expected  # the same function, the same figures, the by-turn rows too
    page = client.get(response["Location"]).content.decode()
    assert f"BLEU {expected['bleu']:.2f}" in page
    assert "13a" in page and expected["signature"] in page and "system_response_generation/cosql_dev.json" in page
    assert 'data-testid="evaluation-by-turn"' in page and "turn 1" in page
    listing = client.get(reverse("review:evaluations", args=[export.pk])).content.decode()
    assert "Response generation" in listing and f"BLEU {expected['bleu']:.2f}" in listing


def test_an_act_file_scored_on_the_page_gives_the_commands_figures(
    client, ada, cosql_export, tmp_path, django_capture_on_commit_callbacks
):
    export, release = cosql_export
    items = _items(release, "user_acts")
    assert len(items) >= 2
    lines = [" ".join(item["intent"]) for item in items]
    lines[0] = "AMBIGUOUS, THANK_YOU"  # wrong for the first user turn
    lines[1] = json.dumps(items[1]["intent"])  # right, written as a JSON list
    content = ("\n".join(lines) + "\n").encode()
    path = tmp_path / "acts.txt"
    path.write_bytes(content)
    expected = _command(release, "user_acts", path)
    assert expected["accuracy"] == pytest.approx((len(items) - 1) / len(items))

    client.force_login(ada)
    response = _upload(
        client, export, django_capture_on_commit_callbacks, task="user_acts", name="acts.txt", content=content
    )
    assert response.status_code == 302, response.content.decode()
    evaluation = Evaluation.objects.get()
    assert (evaluation.state, evaluation.task) == (Evaluation.State.SUCCEEDED, "user_acts")
    assert evaluation.report == expected
    page = client.get(response["Location"]).content.decode()
    assert f"Act accuracy {expected['accuracy']:.3f}" in page
    assert 'data-testid="evaluation-per-act"' in page and "INFORM_SQL" in page and "Majority baseline" in page
    listing = client.get(reverse("review:evaluations", args=[export.pk])).content.decode()
    assert "User act prediction" in listing and f"act accuracy {expected['accuracy']:.3f}" in listing


@pytest.mark.parametrize(
    "task, content, message",
    [
        ("response", b"Only one line.\n", "has 1 line; the release has"),
        ("user_acts", b'{"acts": ["INFORM_SQL"]}\n', "line 1 is not a list of user acts"),
        ("user_acts", b"INFORM_SQL\n", "has 1 line; the release has"),
        ("user_acts", b"WHATEVER\n", "WHATEVER is not a user act"),
        ("response", b"\xff\xfe\n", "is not UTF-8 text"),
        ("response", b"x" * 2_000, "is larger than"),
    ],
)
def test_a_file_that_is_not_what_its_task_expects_is_refused_and_nothing_is_recorded(
    client, ada, cosql_export, django_capture_on_commit_callbacks, monkeypatch, task, content, message
):
    export, release = cosql_export
    monkeypatch.setattr(evaluation_jobs, "MAX_UPLOAD_BYTES", 1_000)
    if content.startswith((b"{", b"WHATEVER")):  # the right number of lines, so the line itself is what is wrong
        content = content * len(_items(release, task))
    client.force_login(ada)
    response = _upload(client, export, django_capture_on_commit_callbacks, task=task, name="bad.txt", content=content)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="evaluation-error"' in page and message in page, page
    assert f'<option value="{task}" selected>' in page  # the choice is kept for the next try
    assert not Evaluation.objects.exists()


def test_a_sparc_release_offers_sql_only(client, ada, dorm_dialogue, django_capture_on_commit_callbacks, tmp_path):
    export = _export(ada, ["sparc", "gold"], django_capture_on_commit_callbacks)
    client.force_login(ada)
    url = reverse("review:evaluations", args=[export.pk])
    page = client.get(url).content.decode()
    assert '<option value="sql"' in page and 'value="response"' not in page and 'value="user_acts"' not in page
    response = _upload(
        client, export, django_capture_on_commit_callbacks, task="response", name="r.txt", content=b"Hi.\n", fmt="sparc"
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    with pytest.raises(ValidationError, match="scored on CoSQL releases only"):
        evaluation_jobs.evaluation_create(
            export=export, requested_by=ada, fmt="sparc", task="response", split="dev",
            predictions_name="r.txt", predictions=b"Hi.\n",
        )  # fmt: skip
    assert not Evaluation.objects.exists()


def test_on_a_cosql_and_sparc_release_the_cosql_tasks_are_refused_for_sparc(
    client, ada, cosql_export, django_capture_on_commit_callbacks
):
    export, _ = cosql_export
    client.force_login(ada)
    response = _upload(
        client, export, django_capture_on_commit_callbacks, task="user_acts", name="a.txt", content=b"X\n", fmt="sparc"
    )
    assert response.status_code == 200
    assert "User act prediction is scored on CoSQL releases only, not on sparc." in response.content.decode()
    assert not Evaluation.objects.exists()


def test_an_evaluation_made_before_the_task_choice_is_sql(cosql_export):
    export, _ = cosql_export
    evaluation = Evaluation.objects.create(export=export, fmt="cosql", predictions_name="old.txt", predictions="")
    assert evaluation.task == "sql" and evaluation.get_task_display() == "SQL state tracking"
