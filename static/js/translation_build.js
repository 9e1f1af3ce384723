// A translation project being made: follows its status (job_poll.js) until it is made, failed or cancelled, then
// reloads once; the page of a made project is the project's own. The status URL comes from the page (json_script).
import { followJob } from "./job_poll.js";

const config = JSON.parse(document.getElementById("translation-build-config").textContent);

if (!config.finished) {
  followJob(config.status_url, {
    bar: document.querySelector("[data-job-progress]"),
    state: document.querySelector("[data-job-state]"),
    message: document.querySelector("[data-job-message]"),
    notice: document.querySelector("[data-job-message]"),
    reload: true,
  });
}
