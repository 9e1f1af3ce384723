// The review screen's "does this query mean the question?" box: the server compares the reviewer's query with the
// turn's query on the test suite, then looks for a database that tells them apart for at most compare_seconds, and
// answers with the verdict already rendered (templates/review/_suite_check.html, the same display as a saved
// correction's comparison): a difference with the rows that show it, or "no difference found" on so many databases.
// Nothing is stored. A person's comparisons share a time per minute: past it the server says when to try again.

import { csrfToken } from "./sql_editor.js";
import { formatNumber, gettext, interpolate } from "./i18n.js";

const config = JSON.parse(document.getElementById("review-config").textContent);

document.querySelectorAll(".suite-compare-form").forEach((form) => {
  const sql = form.querySelector("textarea");
  const problems = form.querySelector("[role=alert]");
  const result = form.querySelector(".suite-compare-result");
  const button = form.querySelector("button[type=submit]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problems.textContent = "";
    result.replaceChildren();
    if (!sql.value.trim()) {
      problems.textContent = gettext("Write a query to compare with the turn's query.");
      sql.focus();
      return;
    }
    button.disabled = true;
    result.textContent = interpolate(gettext("Looking for a database where they differ (at most %(seconds)s s)…"),
      { seconds: formatNumber(config.compare_seconds) }, true);
    try {
      const response = await fetch(config.compare_url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
        body: JSON.stringify({ turn: Number(form.dataset.turn), sql: sql.value }),
      });
      let data = {};
      try { data = await response.json(); } catch { /* an HTML error page: keep the status */ }
      result.textContent = "";
      if (response.ok && data.html) {
        // The server's own template, escaped there: parsed into nodes rather than assigned as markup.
        const parsed = new DOMParser().parseFromString(data.html, "text/html");
        result.replaceChildren(...parsed.body.childNodes);
      } else {
        problems.textContent = data.message
          || interpolate(gettext("The comparison was refused (%(status)s)."), { status: response.status }, true);
      }
    } catch {
      result.textContent = "";
      problems.textContent = gettext("The server could not be reached: your query is still here, try again.");
    } finally {
      button.disabled = false;
    }
  });
});
