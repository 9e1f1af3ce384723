// The progress bar of one evaluation: polls its status until it is scored or failed, then reloads once so the page
// shows the scores (or the reason). The status URL comes from the page (json_script).
(function () {
  const config = JSON.parse(document.getElementById("evaluation-config").textContent);
  const bar = document.querySelector("[data-evaluation-progress]");
  const label = document.querySelector("[data-evaluation-phase]");
  const state = document.querySelector("[data-evaluation-state]");

  async function poll() {
    try {
      const response = await fetch(config.status_url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const status = await response.json();
        bar.value = status.percent;
        bar.textContent = status.percent + "%";
        label.textContent = "Scoring — " + status.percent + "%";
        state.textContent = status.state_label;
        state.className = "pill state-" + status.state;
        if (status.state === "succeeded" || status.state === "failed") {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      label.textContent = "Cannot reach the server; trying again…";
    }
    window.setTimeout(poll, 700);
  }

  if (!config.finished) poll();
})();
