// The progress of the pilots by simulated workers on a campaign's page: each unfinished pilot follows its status
// (job_poll.js) and shows its state, the workers done and their dialogues as they come.
import { pollJob } from "./job_poll.js";

for (const run of document.querySelectorAll("[data-simulation]")) {
  if (run.dataset.finished) continue;
  const field = (name) => run.querySelector(`[data-field="${name}"]`);
  pollJob(run.dataset.simulation, {
    every: 1000,
    show(status) {
      field("state").textContent = status.state_label;
      field("done").textContent = status.done;
      field("dialogues").textContent = status.dialogues.length ? status.dialogues.join(", ") : "–";
      field("message").textContent = status.message;
    },
    done: (status) => status.finished,
    unreachable() {
      field("message").textContent = "Cannot reach the server; trying again…";
    },
  });
}
