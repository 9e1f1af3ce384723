"""Reviewers by pass in a real browser: an admin gives pass 2 to a pool; a reviewer outside it is told so on the
dashboard; an emptied pool is a warning there, not a stuck queue."""

from playwright.sync_api import expect


def set_pool(admin, number: int, *, pooled: bool, members=()):
    admin.goto("/review/pools/")
    section = admin.get_by_test_id(f"pool-{number}")
    section.get_by_test_id(f"pooled-{number}").set_checked(pooled)
    for box in section.locator("input[name=members]").all():
        name = box.locator("xpath=..").inner_text().split()[0]
        box.set_checked(name in members)
    section.get_by_test_id(f"save-pool-{number}").click()


def test_an_admin_gives_pass_two_to_a_pool_and_an_empty_pool_is_a_warning(new_page):
    ada = new_page("ada")
    rita = new_page("rita")
    ada.goto("/review/")
    ada.get_by_test_id("pools-link").click()
    expect(ada.get_by_test_id("pool-2")).to_contain_text("any reviewer")
    try:
        set_pool(ada, 2, pooled=True, members=("ravi",))
        expect(ada.locator(".messages")).to_contain_text("Pass 2 is taken by its pool: ravi.")
        rita.goto("/review/")
        expect(rita.get_by_test_id("claim-next-2")).to_be_disabled()
        expect(rita.get_by_test_id("claim-next-1")).to_be_enabled()
        expect(rita.get_by_test_id("pool-note-2")).to_contain_text("you are not in it")
        # Emptied: the pass is anyone's again, and everyone is told.
        set_pool(ada, 2, pooled=True, members=())
        expect(ada.locator(".messages")).to_contain_text("pool is empty")
        rita.goto("/review/")
        expect(rita.get_by_test_id("pool-warning-2")).to_contain_text("nobody in it")
        expect(rita.get_by_test_id("claim-next-2")).to_be_enabled()
        assert rita.get_by_test_id("pools-link").count() == 0  # a reviewer does not keep the pools
    finally:
        set_pool(ada, 2, pooled=False)  # the browser session shares one platform: pass 2 is anyone's again
    expect(ada.get_by_test_id("pool-2")).to_contain_text("any reviewer")
