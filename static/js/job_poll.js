// The one way a page follows a background job (an export, a goal-generation run, an evaluation): fetch its status
// URL every `every` milliseconds, hand each status to `show`, and stop once `done(status)` says it has finished;
// while the server cannot be reached, `unreachable` says so and the polling goes on.
export function pollJob(url, { show, done, unreachable, every = 700 }) {
  async function poll() {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const status = await response.json();
        show(status);
        if (done(status)) return;
      }
    } catch (error) {
      unreachable();
    }
    window.setTimeout(poll, every);
  }
  poll();
}

// The finished states every job shares.
export function finished(status) {
  return status.state === "succeeded" || status.state === "failed";
}
