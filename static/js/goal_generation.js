// The progress of the goal-generation runs on a database's page: each unfinished run follows its status
// (job_poll.js) until the server says it has finished (done, failed or cancelled), then the page reloads once to show
// what the run changed. While a cancel waits for the run's next check, its label says "Cancelling". Nothing here
// knows how goals are sampled.
import { followJob } from "./job_poll.js";
import { formatNumber, gettext, interpolate } from "./i18n.js";

for (const run of document.querySelectorAll("[data-status-url]")) {
  const found = run.querySelector("[data-run-found]");
  followJob(run.dataset.statusUrl, {
    every: 800,
    bar: run.querySelector("[data-run-progress]"),
    state: run.querySelector("[data-run-state]"),
    notice: found,
    reload: true,
    show(status) {
      found.textContent = interpolate(gettext("%(done)s of %(total)s found"),
        { done: formatNumber(status.done), total: formatNumber(status.total) }, true);
    },
  });
}
