"""An admin looks after the demo's test suites: the databases list and a database's page say where each suite stands,
the rebuild button starts a build that no page waits for, and both pages read well on a phone and pass the
accessibility check."""

import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_phone import PHONE, page_overflow


def test_an_admin_rebuilds_a_suite_and_the_pages_say_where_it_stands(new_page):
    ada = new_page("ada")
    ada.goto("/databases/")
    expect(ada.get_by_test_id("suite-dorm_demo")).to_contain_text(re.compile("no suite yet|waiting|building|ready"))
    assert serious_violations(ada) == [], "databases list"
    ada.get_by_role("link", name="dorm_demo").click()
    ada.get_by_role("button", name="Rebuild the test suite").click()
    expect(ada.get_by_text("will be rebuilt in the background")).to_be_visible()
    expect(ada.get_by_test_id("suite-status")).to_contain_text(re.compile("waiting to be built|building|ready"))
    assert serious_violations(ada) == [], "database page, suite waiting"

    phone = new_page("ada", **PHONE)
    for url in ("/databases/", "/databases/dorm_demo/"):
        phone.goto(url)
        expect(phone.locator("h1")).to_be_visible()
        assert page_overflow(phone) == 0, url
