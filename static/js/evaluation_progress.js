// The progress bar of one evaluation: follows its status (job_poll.js) until it is scored or failed, then reloads
// once so the page shows the scores (or the reason). The status URL comes from the page (json_script).
import { followJob } from "./job_poll.js";
import { formatPercent, gettext, interpolate } from "./i18n.js";

const config = JSON.parse(document.getElementById("evaluation-config").textContent);
const label = document.querySelector("[data-evaluation-phase]");

if (!config.finished) {
  followJob(config.status_url, {
    bar: document.querySelector("[data-evaluation-progress]"),
    state: document.querySelector("[data-evaluation-state]"),
    notice: label,
    reload: true,
    show(status) {
      const percent = formatPercent(status.percent / 100, 0);
      label.textContent = interpolate(gettext("Scoring — %(percent)s"), { percent }, true);
    },
  });
}
