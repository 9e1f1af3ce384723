"""Pages of the review app: the permission matrix, the export form, progress, download, retry, statistics."""

import zipfile
from io import BytesIO

import pytest
from django.urls import reverse

from review.models import Export

pytestmark = pytest.mark.django_db

ADMIN_PAGES = [
    ("review:datasets", []),
    ("review:statistics", []),
    ("review:statistics_json", []),
    ("review:statistics_figure", ["hardness", "svg"]),
]


@pytest.mark.parametrize(("name", "args"), ADMIN_PAGES)
def test_permission_matrix(client, alice, erin, rita, ada, name, args):
    url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    for person in (alice, erin, rita):
        client.force_login(person)
        assert client.get(url).status_code == 403
    client.force_login(ada)
    assert client.get(url).status_code == 200


def test_admins_see_the_datasets_and_statistics_links(client, ada, rita):
    client.force_login(ada)
    page = client.get(reverse("review:statistics")).content.decode()
    assert reverse("review:datasets") in page and ">Statistics<" in page
    client.force_login(rita)
    assert reverse("review:datasets") not in client.get(reverse("review:home")).content.decode()


def test_an_export_from_the_page_runs_and_offers_the_zip(
    client, ada, dorm_dialogue, django_capture_on_commit_callbacks
):
    client.force_login(ada)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("review:datasets"),
            {
                "formats": ["cosql", "gold"],
                "statuses": ["completed"],
                "origin": "all",
                "seed": "3",
                "sql_errors": "skip",
            },
        )
    export = Export.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("review:export_detail", args=[export.pk])
    status = client.get(reverse("review:export_status", args=[export.pk])).json()
    assert status["state"] == "succeeded" and status["percent"] == 100 and status["download"]
    assert status["counts"]["turns_exported"] == 3
    page = client.get(reverse("review:export_detail", args=[export.pk])).content.decode()
    assert "Download the zip" in page and "Every SQL encoded and ran." in page
    download = client.get(reverse("review:export_download", args=[export.pk]))
    assert download["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(BytesIO(b"".join(download.streaming_content)))
    assert "cosql_dataset/sql_state_tracking/cosql_train.json" in archive.namelist()
    assert export.options["seed"] == 3 and export.requested_by == ada


def test_a_split_file_can_be_uploaded_and_a_bad_one_is_refused(client, ada, dorm_dialogue):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(ada)
    bad = SimpleUploadedFile("split.txt", b"dorm_demo validation\n")
    response = client.post(
        reverse("review:datasets"),
        {"formats": ["sparc"], "origin": "all", "seed": "0", "sql_errors": "skip", "split_file": bad},
    )
    assert response.status_code == 200 and "unknown split" in response.content.decode()
    assert not Export.objects.exists()


@pytest.mark.parametrize("content", [b"[" * 30_000 + b"]" * 30_000, b'{"a": ' * 500 + b'"dev"' + b"}" * 500])
def test_a_split_file_nested_too_deep_is_a_form_error_naming_the_file(client, ada, dorm_dialogue, content):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(ada)
    upload = SimpleUploadedFile("splits.json", content)
    response = client.post(
        reverse("review:datasets"),
        {"formats": ["sparc"], "origin": "all", "seed": "0", "sql_errors": "skip", "split_file": upload},
    )
    page = response.content.decode()
    assert response.status_code == 200 and "nested deeper than" in page and "splits.json" in page
    assert not Export.objects.exists()


def test_no_download_before_the_file_is_whole_and_retry_only_when_failed(client, ada):
    client.force_login(ada)
    export = Export.objects.create(requested_by=ada, formats=["gold"], options={}, state=Export.State.RUNNING)
    assert client.get(reverse("review:export_download", args=[export.pk])).status_code == 404
    response = client.post(reverse("review:export_retry", args=[export.pk]), follow=True)
    assert "Only a failed or stalled export can be retried." in response.content.decode()


def test_statistics_page_shows_tables_and_figures(client, ada, dorm_dialogue):
    client.force_login(ada)
    page = client.get(reverse("review:statistics"), {"statuses": ["completed"], "origin": "all", "seed": "1"})
    html = page.content.decode()
    assert page.status_code == 200 and "Total # turns" in html and "# Q" not in html
    for name in ("dialogue_lengths", "user_acts", "keywords_by_turn", "coverage"):
        assert f'data-figure="{name}"' in html
    svg = client.get(reverse("review:statistics_figure", args=["user_acts", "svg"]))
    assert svg["Content-Type"] == "image/svg+xml" and b"INFORM_SQL" in svg.content
    pdf = client.get(reverse("review:statistics_figure", args=["user_acts", "pdf"]))
    assert pdf.content.startswith(b"%PDF") and "attachment" in pdf["Content-Disposition"]
    assert client.get(reverse("review:statistics_figure", args=["nothing", "svg"])).status_code == 404
    data = client.get(reverse("review:statistics_json")).json()
    assert data["overview"]["dialogues"] == 1
