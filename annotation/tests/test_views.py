"""The annotation pages, with good and bad input."""

import json

import pytest
from django.urls import reverse

from annotation.models import Database, Goal

pytestmark = pytest.mark.django_db


def test_upload_registers_a_database(client, ada, demo_databases, tmp_path):
    source = demo_databases["library_demo"].path
    client.force_login(ada)
    with open(source, "rb") as handle:
        response = client.post(
            reverse("annotation:database_upload"), {"db_id": "library_copy", "description": "copy", "file": handle}
        )
    assert response.status_code == 302
    database = Database.objects.get(db_id="library_copy")
    assert database.schema["table_names_original"] == demo_databases["library_demo"].schema["table_names_original"]


def test_upload_of_a_non_sqlite_file_says_why_and_keeps_nothing(client, ada, tmp_path):
    bad = tmp_path / "data.csv"
    bad.write_text("a,b\n1,2\n")
    client.force_login(ada)
    with open(bad, "rb") as handle:
        response = client.post(reverse("annotation:database_upload"), {"db_id": "bad", "file": handle})
    assert response.status_code == 200
    assert "not a SQLite database" in response.content.decode()
    assert not Database.objects.filter(db_id="bad").exists()


def test_goal_form_refuses_sql_that_does_not_run(client, ada, demo_databases):
    client.force_login(ada)
    url = reverse("annotation:goal_new")
    response = client.post(
        url, {"database": "dorm_demo", "question": "Q?", "sql": "SELECT nope FROM student", "active": "on"}
    )
    assert response.status_code == 200
    assert "cannot be encoded" in response.content.decode() or "fails" in response.content.decode()
    before = Goal.objects.count()
    response = client.post(
        url,
        {
            "database": "dorm_demo",
            "question": "How many students?",
            "sql": "SELECT count(*) FROM student",
            "active": "on",
        },
    )
    assert response.status_code == 302
    assert Goal.objects.count() == before + 1


def test_table_pages(client, erin, demo_databases):
    client.force_login(erin)
    url = reverse("annotation:database_table", kwargs={"db_id": "dorm_demo", "table_index": 0})
    data = client.get(url).json()
    assert data["page"] == 1 and data["rows"] and data["columns"]
    assert client.get(url + "?page=abc").status_code == 400
    missing = reverse("annotation:database_table", kwargs={"db_id": "dorm_demo", "table_index": 99})
    assert client.get(missing).status_code == 404
    last = data["pages"]
    assert client.get(url + f"?page={last}").json()["page"] == last


@pytest.mark.parametrize(
    "page",
    ["9999", str(2**63), "9" * 40, "0", "-1", "-99999999999999999999", "abc", "1.5", "", "1e3"],
)
def test_a_table_page_out_of_range_or_not_a_number_is_a_bad_request(client, erin, demo_databases, page):
    client.force_login(erin)
    url = reverse("annotation:database_table", kwargs={"db_id": "dorm_demo", "table_index": 0})
    response = client.get(url, {"page": page})
    assert response.status_code == 400
    assert b"page must be" in response.content


def test_sql_endpoints_validate_and_run(client, erin, demo_databases):
    client.force_login(erin)
    validate = reverse("annotation:sql_validate", kwargs={"db_id": "dorm_demo"})
    run = reverse("annotation:sql_run", kwargs={"db_id": "dorm_demo"})
    result = client.post(validate, {"sql": "SELECT first_nmae FROM student"}, content_type="application/json").json()
    assert result["ok"] is False and result["errors"][0]["kind"] == "unknown_column"
    assert "first_name" in [s.lower() for s in result["errors"][0]["suggestions"]]
    report = client.post(run, {"sql": "SELECT count(*) FROM student"}, content_type="application/json").json()
    assert report["execution"]["ok"] and report["hardness"] == "easy"
    for bad in [b"{not json", b"[1,2]", json.dumps({"sql": 5}).encode(), b"[" * 30_000 + b"]" * 30_000]:
        response = client.post(run, bad, content_type="application/json")
        assert response.status_code == 400 and "error" in response.json()
    hostile = client.post(run, {"sql": "DROP TABLE student"}, content_type="application/json").json()
    assert hostile["execution"]["ok"] is False
    assert client.post(run, {"sql": "SELECT count(*) FROM student"}, content_type="application/json").json()["ok"]


def test_people_page_creates_and_blocks(client, ada, alice):
    client.force_login(ada)
    response = client.post(reverse("annotation:people"), {"username": "newbie", "role": "worker", "password": ""})
    assert response.status_code == 302
    page = client.get(reverse("annotation:people")).content.decode()
    assert "Password (shown once)" in page and "newbie" in page
    client.post(reverse("annotation:person_block", args=[alice.pk]), {"blocked": "1", "reason": "spam"})
    alice.refresh_from_db()
    assert alice.blocked and alice.blocked_reason == "spam"
    client.post(reverse("annotation:person_block", args=[ada.pk]), {"blocked": "1"})
    ada.refresh_from_db()
    assert not ada.blocked
