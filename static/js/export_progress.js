// The progress bar of one export: follows its status (job_poll.js) until it is ready or failed, then reloads once so
// the page shows the download or the reason (and a failed release check's list). The status URL comes from the page
// (json_script); nothing here knows how exports are built.
import { followJob } from "./job_poll.js";
import { formatPercent, gettext, interpolate } from "./i18n.js";

const config = JSON.parse(document.getElementById("export-config").textContent);
const label = document.querySelector("[data-export-phase]");
const state = document.querySelector("[data-export-state]");
const download = document.querySelector("[data-export-download]");
const failure = document.querySelector("[data-export-failure]");
const retry = document.querySelector("[data-export-retry]");

if (!config.finished) {
  followJob(config.status_url, {
    bar: document.querySelector("[data-export-progress]"),
    state,
    notice: label,
    reload: true,
    show(status) {
      const percent = formatPercent(status.percent / 100, 0);
      label.textContent = status.phase
        ? interpolate(gettext("%(phase)s — %(percent)s"), { phase: status.phase, percent }, true) : percent;
      if (status.stalled) state.textContent = gettext("Stalled");
      download.hidden = !status.download;
      failure.hidden = status.state !== "failed";
      failure.textContent = status.message || "";
      retry.hidden = !status.can_retry;
    },
  });
}
