// The progress of the goal-generation runs on a database's page: each unfinished run follows its status
// (job_poll.js) until the server says it has finished (done, failed or cancelled), then the page reloads once to show
// what the run changed. While a cancel waits for the run's next check, its label says "Cancelling". Nothing here
// knows how goals are sampled.
import { pollJob } from "./job_poll.js";

for (const run of document.querySelectorAll("[data-status-url]")) {
  const found = run.querySelector("[data-run-found]");
  pollJob(run.dataset.statusUrl, {
    every: 800,
    show(status) {
      const bar = run.querySelector("[data-run-progress]");
      bar.value = status.percent;
      bar.textContent = status.percent + "%";
      const state = run.querySelector("[data-run-state]");
      state.textContent = status.state_label;
      state.className = "pill state-" + status.state;
      found.textContent = status.found + " of " + status.count + " found";
    },
    done(status) {
      if (status.finished) window.location.reload();
      return status.finished;
    },
    unreachable() {
      found.textContent = "Cannot reach the server; trying again…";
    },
  });
}
