"""A release translated with its databases, in a real browser (docs/translation.md): Ada makes a project of two
SParC interactions on concert_singer and assigns Tomas; Tomas translates a name (a colliding one is refused) and the
questions of one interaction and sends it to review; Rhea approves it; Ada exports, and every gold query of the
release runs on the translated file."""

import hashlib
import json

import pytest
from playwright.sync_api import expect

DB_ID = "concert_singer"


@pytest.fixture(scope="module")
def release(platform, tmp_path_factory):
    """Two SParC dev-sample interactions on concert_singer imported into the platform; the release's form key."""
    from conftest import _shared_path

    sample = json.loads(_shared_path("samples", "sparc_dev_sample.json").read_text(encoding="utf-8"))
    chosen = [item for item in sample if item["database_id"] == DB_ID][:2]
    data = tmp_path_factory.mktemp("translation") / "sparc_dev_translation_story.json"
    data.write_text(json.dumps(chosen), encoding="utf-8")
    platform.manage(
        "import_dataset", "--format", "sparc", "--data", str(data),
        "--tables", str(_shared_path("spider", "tables.json")),
        "--databases", str(_shared_path("spider", "database")),
    )  # fmt: skip
    return f"sparc:{hashlib.sha256(data.read_bytes()).hexdigest()}"


def _build(platform, name: str, *args):
    script = f"import json; from tests.translation_builders import {name} as b; print(json.dumps(b(*{args!r})))"
    return json.loads(platform.manage("shell", "-c", script).strip().splitlines()[-1])


def test_ada_translates_a_sparc_database_and_exports_it_with_every_gold_query_running(new_page, platform, release):
    _build(platform, "translation_people", "tomas_translates", "rhea_reviews_translation")
    ada = new_page("ada")
    ada.goto("/review/translation/")
    form = ada.get_by_test_id("translation-new")
    form.locator("#id_name").fill("CHASE-T story")
    form.locator("#id_release").select_option(release)
    form.locator("#id_db_ids").fill(DB_ID)
    form.get_by_test_id("translation-create").click()
    # The project is made by a background job (review.translation.build; at once here, where Celery runs eagerly):
    # its screen gives way to the project's page once it is made.
    expect(ada.get_by_test_id(f"progress-db-{DB_ID}").get_by_test_id("names-done")).to_have_text("0 / 25")
    project_url = ada.url
    # One still waiting for a worker shows its progress and can be cancelled; the projects page lists it.
    waiting = _build(platform, "translation_build_queued", "CHASE-T waiting", release, DB_ID)
    ada.goto(f"/review/translation/builds/{waiting}/")
    expect(ada.get_by_test_id("build-state")).to_have_text("Queued")
    ada.get_by_test_id("build-cancel").click()
    expect(ada.get_by_test_id("build-state")).to_have_text("Cancelled")
    expect(ada.get_by_test_id("build-cancel")).to_have_count(0)
    ada.goto("/review/translation/")
    expect(ada.get_by_test_id("translation-builds")).to_contain_text("CHASE-T waiting")
    ada.goto(project_url)
    project_id = int(project_url.rstrip("/").rsplit("/", 1)[1])
    ada.get_by_test_id(f"assign-{DB_ID}").get_by_label("tomas_translates").check()
    ada.get_by_test_id(f"assign-save-{DB_ID}").click()
    expect(ada.get_by_test_id(f"progress-db-{DB_ID}")).to_contain_text("tomas_translates")

    tomas = new_page("tomas_translates")
    tomas.goto(project_url)
    tomas.get_by_test_id(f"translate-db-{DB_ID}").click()
    tomas.get_by_test_id("kind-column").click()
    name_row = tomas.locator("tr", has=tomas.get_by_text("Song_Name", exact=True))
    name_row.get_by_test_id("unit-text").fill("歌名")
    name_row.get_by_test_id("unit-save").click()
    expect(
        tomas.locator("tr", has=tomas.get_by_text("Song_Name", exact=True)).get_by_test_id("unit-done")
    ).to_be_visible()
    country_row = tomas.locator("tr", has=tomas.get_by_text("Country", exact=True))
    country_row.get_by_test_id("unit-text").fill("歌名")
    country_row.get_by_test_id("unit-save").click()
    expect(tomas.locator(".messages")).to_contain_text(
        "歌名 is already the name of the column Song_Name of the table singer"
    )
    _build(platform, "translation_names", project_id, "tomas_translates")
    tomas.goto(project_url)
    tomas.get_by_test_id(f"translate-db-{DB_ID}").click()
    tomas.get_by_test_id("interaction-0").click()
    expect(tomas.get_by_test_id("translated-schema")).to_contain_text("歌名 (Song_Name)")
    turns = tomas.locator("[data-testid^=turn-]").count()
    for index in range(turns):
        tomas.get_by_test_id(f"question-{index}").fill(f"第{index + 1}个问题")
    tomas.get_by_test_id("final-question").fill("最后的问题")
    tomas.get_by_test_id("interaction-submit").click()
    expect(tomas.get_by_test_id("interaction-state")).to_have_text("Waiting for review")

    rhea = new_page("rhea_reviews_translation")
    rhea.goto(project_url)
    rhea.get_by_test_id("review-interaction-0").click()
    expect(rhea.get_by_test_id("question-0")).to_have_text("第1个问题")
    rhea.get_by_test_id("review-approve").click()

    ada.goto(project_url)
    expect(ada.get_by_test_id("progress-person-rhea_reviews_translation")).to_contain_text("1")
    ada.get_by_test_id("translation-export").click()
    expect(ada.get_by_test_id("gold-summary")).to_contain_text(
        f"{turns} of {turns} gold queries run on the translated file", timeout=60_000
    )
    expect(ada.get_by_test_id("export-download")).to_be_visible()
