// The progress of the pilots by simulated workers on a campaign's page: each unfinished pilot follows its status
// (job_poll.js) and shows its state, the workers done and their dialogues as they come.
import { followJob } from "./job_poll.js";
import { formatNumber } from "./i18n.js";

for (const run of document.querySelectorAll("[data-simulation]")) {
  if (run.dataset.finished) continue;
  const field = (name) => run.querySelector(`[data-field="${name}"]`);
  followJob(run.dataset.simulation, {
    every: 1000,
    state: field("state"),
    message: field("message"),
    notice: field("message"),
    show(status) {
      field("done").textContent = formatNumber(status.done);
      field("dialogues").textContent = status.dialogues.length ? status.dialogues.join(", ") : "–";
    },
  });
}
