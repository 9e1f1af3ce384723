"""The admin exports a dataset from the page and downloads the zip; the statistics page shows its figures.

Runs against the real server (Daphne) started by the `platform` fixture. With REDIS_URL set (the second `make test`
pass), exports are Celery tasks, run by the worker the platform fixture starts beside the server.
"""

import re
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from review.dataset.figures import FIGURES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def imported(platform):
    """The CoSQL dev sample imported into the platform (skipped, or failed in CI, without ../shared)."""
    from conftest import _shared_path

    platform.manage(
        "import_dataset", "--format", "cosql",
        "--data", str(_shared_path("samples", "cosql_dev_sample.json")),
        "--tables", str(_shared_path("spider", "tables.json")),
        "--databases", str(_shared_path("spider", "database")),
    )  # fmt: skip
    # The platform fixture runs a Celery worker on the services stack.
    return


def test_admin_exports_sees_progress_and_downloads_the_zip(new_page, imported, tmp_path):
    page = new_page("ada")
    page.click("text=Datasets")
    assert page.is_checked("input[name=formats][value=cosql]") and page.is_checked("input[name=formats][value=gold]")
    page.check("input[name=formats][value=sparc]")
    page.fill("input[name=seed]", "5")
    page.click("[data-testid=start-export]")
    page.wait_for_url("**/review/datasets/*/")
    progress = page.locator("[data-testid=export-progress]")
    assert progress.is_visible()
    assert 0 <= int(progress.get_attribute("value")) <= 100
    download_link = page.locator("[data-testid=export-download]")
    download_link.wait_for(state="visible", timeout=60_000)
    assert progress.get_attribute("value") == "100"
    assert "Ready" in page.inner_text("[data-export-state]")
    with page.expect_download() as download_info:
        download_link.click()
    path = tmp_path / "export.zip"
    download_info.value.save_as(path)
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        assert archive.testzip() is None
    assert "cosql_dataset/cosql_all_info_dialogs.json" in names and "sparc/dev.json" in names
    # The gold goes with each format it grades, and the release check found the files in agreement.
    assert "sparc/dev_gold.txt" in names and "cosql_dataset/sql_state_tracking/dev_gold.txt" in names
    assert "agrees" in page.inner_text("[data-testid=release-check]")
    assert "database/car_1/car_1.sqlite" in " ".join(names)
    # The failing turns of the release are listed on the page, not silently dropped.
    assert page.locator("[data-testid=export-problems] tbody tr").count() >= 10

    # The release is scored from its page: its SParC gold with the first turn changed, uploaded as predictions,
    # scored in the background, and shown as a table with a chart per stratum.
    with zipfile.ZipFile(path) as archive:
        lines = [line.split("\t")[0] for line in archive.read("sparc/dev_gold.txt").decode().splitlines()]
    assert lines, "the dev split of this export holds SParC interactions"
    lines[0] = "SELECT 1"
    predictions = tmp_path / "predictions.txt"
    predictions.write_text("\n".join(lines) + "\n")
    page.get_by_test_id("export-evaluations").click()
    page.select_option("select[name=fmt]", "sparc")
    page.set_input_files("input[name=predictions]", str(predictions))
    page.get_by_test_id("start-evaluation").click()
    expect(page).to_have_url(re.compile(r"/review/evaluations/\d+/$"))
    expect(page.get_by_test_id("evaluation-progress")).to_be_visible()
    expect(page.get_by_test_id("evaluation-scores")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("evaluation-progress")).to_have_attribute("value", "100")
    overall = page.get_by_test_id("evaluation-scores").locator("tbody tr").first
    expect(overall.locator("td").nth(1)).not_to_have_text("1.000")  # exact match: one question is wrong
    figure = page.get_by_test_id("evaluation-stratum-turn").get_by_test_id("evaluation-figure")
    expect(figure).to_be_visible()
    expect(figure).to_have_js_property("complete", True)
    assert figure.evaluate("image => image.naturalWidth") > 0
    page.click("text=All evaluations")
    expect(page.get_by_test_id("evaluation-list")).to_contain_text("predictions.txt")


def test_statistics_page_shows_the_figures(new_page, imported):
    page = new_page("ada")
    page.click("text=Statistics")
    page.wait_for_selector("[data-testid=stats-overview]")
    # The imported ones: the dialogues other browser tests collect on the shared platform count among all of them.
    page.select_option("select[name=origin]", "imported")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("[data-testid=stats-overview] tr").first).to_contain_text("166")  # the CoSQL sample's
    images = page.locator("[data-testid=stats-figures] img")
    assert images.count() == len(FIGURES)  # every figure of the statistics module, the intents chart included
    for index in range(images.count()):
        images.nth(index).scroll_into_view_if_needed()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=images.nth(index).element_handle(), timeout=30_000
        )
    pdf = page.request.get(page.locator("text=PDF").first.get_attribute("href"))
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    # The SVG link of the page (its selection carried in the address) saves the figure too.
    svg = page.request.get(page.locator("figcaption a", has_text="SVG").first.get_attribute("href"))
    assert svg.ok and svg.headers["content-type"] == "image/svg+xml" and b"<svg" in svg.body()
    assert "attachment" in svg.headers["content-disposition"]
