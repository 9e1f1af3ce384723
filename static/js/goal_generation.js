// The progress of the goal-generation runs on a database's page: each unfinished run polls its status until it is
// done or failed, then the page reloads once to show what the run changed. Nothing here knows how goals are sampled.
(function () {
  const runs = Array.from(document.querySelectorAll("[data-status-url]"));
  if (!runs.length) return;

  function show(run, status) {
    const bar = run.querySelector("[data-run-progress]");
    bar.value = status.percent;
    bar.textContent = status.percent + "%";
    const state = run.querySelector("[data-run-state]");
    state.textContent = status.state_label;
    state.className = "pill state-" + status.state;
    run.querySelector("[data-run-found]").textContent = status.found + " of " + status.count + " found";
  }

  async function poll(run) {
    try {
      const response = await fetch(run.dataset.statusUrl, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const status = await response.json();
        show(run, status);
        if (status.finished) {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      run.querySelector("[data-run-found]").textContent = "Cannot reach the server; trying again…";
    }
    window.setTimeout(() => poll(run), 800);
  }

  runs.forEach(poll);
})();
