// The Prolific bonus payments on a campaign's page: each payment a job is working on follows its status
// (job_poll.js); once the job lets go, the page is shown again with what may be done next (try again, check, cancel).
import { pollJob } from "./job_poll.js";
import { formatNumber, gettext } from "./i18n.js";

for (const row of document.querySelectorAll("[data-payment]")) {
  if (!row.dataset.running) continue;
  const field = (name) => row.querySelector(`[data-field="${name}"]`);
  pollJob(row.dataset.payment, {
    every: 700,
    show(status) {
      field("state").textContent = status.state_label;
      field("done").textContent = formatNumber(status.done);
      field("message").textContent = status.message;
    },
    done(status) {
      if (status.running) return false;
      window.location.reload();
      return true;
    },
    unreachable() {
      field("message").textContent = gettext("Cannot reach the server; trying again…");
    },
  });
}
