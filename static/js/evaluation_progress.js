// The progress bar of one evaluation: follows its status (job_poll.js) until it is scored or failed, then reloads
// once so the page shows the scores (or the reason). The status URL comes from the page (json_script).
import { finished, pollJob } from "./job_poll.js";

const config = JSON.parse(document.getElementById("evaluation-config").textContent);
const bar = document.querySelector("[data-evaluation-progress]");
const label = document.querySelector("[data-evaluation-phase]");
const state = document.querySelector("[data-evaluation-state]");

if (!config.finished) {
  pollJob(config.status_url, {
    show(status) {
      bar.value = status.percent;
      bar.textContent = status.percent + "%";
      label.textContent = "Scoring — " + status.percent + "%";
      state.textContent = status.state_label;
      state.className = "pill state-" + status.state;
    },
    done(status) {
      if (finished(status)) window.location.reload();
      return finished(status);
    },
    unreachable() {
      label.textContent = "Cannot reach the server; trying again…";
    },
  });
}
