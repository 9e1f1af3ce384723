"""An expert opens their reviewed work from the expert desk and reads what a reviewer changed in their SQL, and why;
the reviewer stays anonymous. The review itself is driven on the review screen, as test_review.py drives it."""

import re

from playwright.sync_api import expect

from tests.browser.test_accessibility import serious_violations
from tests.browser.test_review import claim, collect, correct_query


def test_an_expert_reads_a_reviewers_sql_correction_from_the_desk(new_page, platform, people):
    people("alice", "elsa")  # an expert of this test alone: nobody else's review shows on her page
    [dialogue] = collect(platform, expert="elsa", labels=("E",))
    rita = new_page("rita")
    claim(rita, dialogue)
    correct_query(rita, 0, "SELECT count(student_id) FROM student", column="student_id", reason="count the ids")
    # Rejected, so the dialogue waits in no queue that another test claims from.
    rita.select_option("[data-testid=reject-form] select[name=reason]", "goal_ignored")
    rita.select_option("[data-testid=reject-form] select[name=fault]", "expert")
    rita.click("[data-testid=reject]")
    rita.wait_for_url(re.compile(r".*/review/$"))
    # A pass-1 rejection goes to a second reviewer, who confirms it: decided, it waits in no queue another test uses.
    ravi = new_page("ravi")
    claim(ravi, dialogue)
    ravi.select_option("[data-testid=reject-form] select[name=reason]", "goal_ignored")
    ravi.select_option("[data-testid=reject-form] select[name=fault]", "expert")
    ravi.click("[data-testid=reject]")
    ravi.wait_for_url(re.compile(r".*/review/$"))

    elsa = new_page("elsa")
    elsa.goto("/expert/")
    elsa.click("[data-testid=own-work-link]")
    expect(elsa).to_have_url(re.compile(r"/expert/work/$"))
    expect(elsa.get_by_role("heading", level=1)).to_have_text("My reviewed work")
    figures = elsa.locator("[data-testid=expert-figures] tbody td")
    expect(figures.nth(1)).to_have_text("1")  # reviewed
    expect(figures.nth(7)).to_have_text("1 · 100%")  # one query corrected; it returns the rows the worker saw

    article = elsa.locator(f"[data-testid=reviewed-{dialogue}]")
    expect(article.locator("[data-testid=decision-1]")).to_contain_text("rejected")
    expect(article.locator("[data-testid=decision-1]")).to_contain_text("The goal was ignored")
    row = article.locator("[data-testid=turn-0] tr[data-field=query]")
    expect(row.locator("[data-testid=old] pre")).to_have_text("SELECT count(*) FROM student")
    expect(row.locator("[data-testid=new] pre")).to_have_text("SELECT count(student_id) FROM student")
    expect(row.locator("[data-testid=reason]")).to_have_text("count the ids")
    expect(row.locator("td.num")).to_have_text("1")  # the pass, not the reviewer
    assert not re.search(r"\brita\b", elsa.inner_text("main"))
    assert serious_violations(elsa) == [], "expert's reviewed work"
