// The progress bar of one export: polls its status until it is ready or failed, then shows the download or the
// reason. The status URL comes from the page (json_script); nothing here knows how exports are built.
(function () {
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

  async function poll() {
    try {
      const response = await fetch(config.status_url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const status = await response.json();
        show(status);
        if (status.state === "succeeded" || status.state === "failed") {
          // Reloaded once at the end: the page then shows the report (and a failed release check's list).
          if (!config.finished) window.location.reload();
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
