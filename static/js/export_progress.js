// The progress bar of one export: follows its status (job_poll.js) until it is ready or failed, then shows the
// download or the reason. The status URL comes from the page (json_script); nothing here knows how exports are built.
import { finished, pollJob } from "./job_poll.js";

const config = JSON.parse(document.getElementById("export-config").textContent);
const bar = document.querySelector("[data-export-progress]");
const label = document.querySelector("[data-export-phase]");
const state = document.querySelector("[data-export-state]");
const download = document.querySelector("[data-export-download]");
const failure = document.querySelector("[data-export-failure]");
const retry = document.querySelector("[data-export-retry]");

function show(status) {
  bar.value = status.percent;
  bar.textContent = status.percent + "%";
  label.textContent = status.phase ? status.phase + " — " + status.percent + "%" : status.percent + "%";
  state.textContent = status.stalled ? "Stalled" : status.state_label;
  state.className = "pill state-" + status.state;
  download.hidden = !status.download;
  failure.hidden = status.state !== "failed";
  failure.textContent = status.message || "";
  retry.hidden = !status.can_retry;
}

if (!config.finished) {
  pollJob(config.status_url, {
    show,
    done(status) {
      // Reloaded once at the end: the page then shows the report (and a failed release check's list).
      if (finished(status)) window.location.reload();
      return finished(status);
    },
    unreachable() {
      label.textContent = "Cannot reach the server; trying again…";
    },
  });
}
