// The progress of one translation export: follows its status (job_poll.js) until it is ready, failed or cancelled,
// then reloads once so the page shows the gold check and the zip. The status URL comes from the page (json_script).
import { followJob } from "./job_poll.js";

const config = JSON.parse(document.getElementById("translation-export-config").textContent);

if (!config.finished) {
  followJob(config.status_url, {
    bar: document.querySelector("[data-job-progress]"),
    state: document.querySelector("[data-job-state]"),
    message: document.querySelector("[data-job-message]"),
    notice: document.querySelector("[data-job-message]"),
    reload: true,
  });
}
