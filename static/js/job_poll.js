// The one way a page follows a background job (an export, an evaluation, a goal-generation run, a pilot by simulated
// workers, a Prolific bonus payment). Every job's status URL answers the same JSON (annotation.jobs.Job.status_json:
// state, state_label, percent, done, total, finished, message, and keys of the job's own).
//
// `pollJob` fetches the status URL, hands each status to `show`, and stops once `done(status)` says the job has
// finished (by default: the status says so). While the server cannot be reached, or answers with an error,
// `unreachable` says so and the next try waits twice as long as the one before, up to `slowest` milliseconds; the
// first answer again goes back to every `every` milliseconds.
//
// `followJob` is what a job's page uses: it shows the progress bar, the state and the message it is given, says
// "Cannot reach the server; trying again…" in `notice` while the server is away, and reloads the page once the job
// has finished when `reload` is set (the page then shows what the job made). `show` adds what only that job shows.
// A reload never takes away a person's work: while they are at work in a form of the page (a field changed, or the
// focus in one), `notice` offers the reload as a button instead.

import { formatPercent, gettext } from "./i18n.js";

// The finished states every job shares (a job's own status says `finished` too).
export function finished(status) {
  if (typeof status.finished === "boolean") return status.finished;
  return ["succeeded", "failed", "cancelled"].includes(status.state);
}

export function pollJob(url, { show, done = finished, unreachable = () => {}, every = 700, slowest = 15000 }) {
  let wait = every;
  async function poll() {
    let status = null;
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) status = await response.json();
    } catch {
      status = null;
    }
    if (status === null) {
      unreachable();
      wait = Math.min(wait * 2, slowest);
    } else {
      wait = every;
      show(status);
      if (done(status)) return;
    }
    window.setTimeout(poll, wait);
  }
  poll();
}

// A job's progress bar, state and message as a status says them; any of them may be left out. A state that is a
// pill takes the state's colour.
export function showJob({ bar, state, message }, status) {
  if (bar) {
    bar.value = status.percent;
    bar.textContent = formatPercent(status.percent / 100, 0);
  }
  if (state) {
    state.textContent = status.state_label;
    if (state.classList.contains("pill")) state.className = "pill state-" + status.state;
  }
  if (message) message.textContent = status.message || "";
}

// Whether the person is at work in a form of this page: a field no longer as the page came, or the focus in one.
export function atWorkInForm() {
  const focused = document.activeElement;
  if (focused?.form && focused.type !== "submit" && focused.type !== "button") return true;
  return [...document.querySelectorAll("form input, form textarea, form select")].some((field) => {
    if (field.type === "hidden") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") return [...field.options].some((option) => option.selected !== option.defaultSelected);
    return field.value !== field.defaultValue;
  });
}

// The job has finished: the page shows what it made, now unless the person is at work in a form (then at their word).
function reloadWhenFree(notice) {
  if (!atWorkInForm() || !notice) {
    window.location.reload();
    return;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.testid = "job-reload";
  button.textContent = gettext("Finished: show what it made");
  button.addEventListener("click", () => window.location.reload());
  notice.replaceChildren(button);
}

export function followJob(url, { bar, state, message, notice, show, reload = false, every = 700 }) {
  pollJob(url, {
    every,
    show(status) {
      showJob({ bar, state, message }, status);
      if (show) show(status);
    },
    done(status) {
      if (!finished(status)) return false;
      if (reload) reloadWhenFree(notice);
      return true;
    },
    unreachable() {
      if (notice) notice.textContent = gettext("Cannot reach the server; trying again…");
    },
  });
}
