// The lobby, for both roles: the worker waits in the queue; the expert says "ready" and watches who waits.
// Either side is sent to the room as soon as the server pairs them.

import { returnToPlatform } from "./crowd_return.js";
import { WsClient } from "./wsclient.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

const root = document.getElementById("lobby");
const role = root.dataset.role;
const $ = (id) => document.getElementById(id);

function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

function roughly(seconds) {
  if (seconds == null) return "–";
  if (seconds < 60) return gettext("less than a minute");
  const minutes = Math.round(seconds / 60);
  return interpolate(ngettext("about %(count)s minute", "about %(count)s minutes", minutes),
    { count: formatNumber(minutes) }, true);
}

// Who is online to take workers: free now (ready at their desk with a place), or busy in a dialogue.
function expertsOnline(status) {
  const parts = [];
  if (status.ready_experts) {
    parts.push(interpolate(gettext("%(count)s free"), { count: formatNumber(status.ready_experts) }, true));
  }
  if (status.busy_experts) {
    parts.push(interpolate(gettext("%(count)s busy in a dialogue"), { count: formatNumber(status.busy_experts) }, true));
  }
  return parts.length ? parts.join(gettext(", ")) : gettext("none right now");
}

function showError(text, link = null) {
  const box = $("lobby-error");
  box.replaceChildren(document.createTextNode(text));
  if (link) {
    const a = document.createElement("a");
    a.href = link.href;
    a.textContent = link.text;
    box.append(" ", a);
  }
  box.hidden = false;
}

// A dialogue's status in words, on the expert's list of their open dialogues.
const DIALOGUE_STATUS = { waiting: gettext("waiting"), active: gettext("active") };

const ERROR_LINKS = {
  tutorial: { href: root.dataset.tutorialUrl, text: gettext("Go to the tutorial") },
  busy: { href: root.dataset.homeUrl, text: gettext("Go back to your dialogue") },
};

let client;
let navigating = false;

function goToRoom(url) {
  if (navigating) return;
  navigating = true;
  client.stop();
  location.assign(url);
}

// --- The worker -------------------------------------------------------------------------------------------------

function workerLobby() {
  let joinedAt = null;
  let limit = null;
  let released = false;
  let wantQueue = root.dataset.autoJoin === "1";
  const headline = $("lobby-headline");

  const showQueued = (queued) => {
    $("waiting").hidden = !queued && !wantQueue;
    $("rejoin").hidden = queued || wantQueue || released;
    $("leave-form").hidden = !queued || released;
  };
  showQueued(false);

  const tick = () => {
    if (!joinedAt || released) return;
    const waited = (Date.now() - joinedAt) / 1000;
    $("elapsed").textContent = duration(waited);
    if (limit) $("elapsed-bar").style.width = `${Math.min(100, (100 * waited) / limit)}%`;
  };
  setInterval(tick, 1000);

  const onStatus = (status) => {
    $("experts-online").textContent = expertsOnline(status);
    limit = status.wait_limit_seconds;
    $("limit").textContent = limit ? duration(limit) : "–";
    if (status.dialogue) {
      // Paired, whether or not the `paired` frame arrived (a status says so too).
      headline.textContent = gettext("An expert is ready! Opening the chat room…");
      goToRoom(status.url);
      return;
    }
    if (status.position == null) {
      joinedAt = null;
      showQueued(false);
      if (!released) headline.textContent = wantQueue ? gettext("Joining the queue…") : gettext("You are not in the queue.");
      return;
    }
    joinedAt = Date.parse(status.joined_at);
    showQueued(true);
    const next = status.position === 1 ? gettext("You are next. ") : "";
    if (status.ready_experts) headline.textContent = next + gettext("Waiting for an expert…");
    else if (status.busy_experts) {
      headline.textContent = next + gettext("Waiting for an expert: every expert online is busy with a dialogue, and you "
        + "are paired when one finishes.");
    } else headline.textContent = next + gettext("Waiting for an expert: none is online right now.");
    $("position").textContent = interpolate(gettext("%(position)s of %(total)s"),
      { position: formatNumber(status.position), total: formatNumber(status.waiting_workers) }, true);
    $("estimate").textContent = estimateText(status);
    tick();
  };

  // The server's estimate when it has one (dialogs.selectors.pairing_times: the dialogues under way and how long
  // one typically takes), else why there is none.
  const estimateText = (status) => {
    const seconds = status.estimated_wait_seconds;
    if (seconds == null) {
      return status.ready_experts || status.busy_experts
        ? gettext("no estimate yet")
        : gettext("no expert is online right now: you keep your place until one comes");
    }
    const left = limit - (Date.now() - joinedAt) / 1000;
    return limit && seconds > left
      ? interpolate(gettext("%(estimate)s: longer than you wait here at most, so you may be released with a completion "
        + "code first"), { estimate: roughly(seconds) }, true)
      : roughly(seconds);
  };

  const onReleased = (message) => {
    released = true;
    wantQueue = false;
    client.stop();
    $("waiting").hidden = true;
    $("rejoin").hidden = true;
    $("leave-form").hidden = true;
    $("released-message").textContent = message.message;
    $("released-code").textContent = message.completion_code;
    $("released").hidden = false;
    returnToPlatform(root, $("return-note"), message.completion_code);
  };

  $("join").addEventListener("click", () => {
    wantQueue = true;
    $("lobby-error").hidden = true;
    showQueued(false);
    headline.textContent = gettext("Joining the queue…");
    client.sendNow({ type: "join" });
  });

  client = new WsClient("/ws/lobby/", {
    handlers: {
      // Joining is idempotent on the server, so every reconnect simply joins again while the worker wants to wait.
      open: () => wantQueue && client.sendNow({ type: "join" }),
      connection: ({ state }) => {
        if (state === "retrying" && !released) headline.textContent = gettext("Connection lost. Reconnecting…");
      },
      message: (message) => {
        if (message.type === "status") onStatus(message);
        else if (message.type === "paired") {
          headline.textContent = gettext("An expert is ready! Opening the chat room…");
          goToRoom(message.url);
        } else if (message.type === "released") onReleased(message);
      },
      error: (error) => {
        wantQueue = false;
        showQueued(false);
        showError(error.message, ERROR_LINKS[error.code]);
      },
      fatal: (_code, text) => showError(text),
    },
  }).start();
}

// --- The expert -------------------------------------------------------------------------------------------------

function expertDesk() {
  const toggle = $("ready-toggle");
  const hint = $("ready-hint");
  const roomUrl = (id) => document.querySelector("script[data-room-url]").dataset.roomUrl.replace(/\/0\/$/, `/${id}/`);
  let queue = [];
  let waiting = 0;

  const drawQueue = () => {
    const list = $("queue");
    if (!queue.length) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = gettext("Nobody is waiting.");
      list.replaceChildren(none);
      return;
    }
    list.replaceChildren(...queue.map((entry) => {
      const item = document.createElement("li");
      const name = document.createElement("strong");
      name.textContent = entry.name;
      const since = document.createElement("span");
      since.className = "muted";
      since.textContent = interpolate(gettext(" waiting %(time)s"),
        { time: duration((Date.now() - Date.parse(entry.waiting_since)) / 1000) }, true);
      item.append(name, since);
      return item;
    }));
    if (waiting > queue.length) {  // the status lists the longest waits only
      const more = document.createElement("li");
      more.className = "muted";
      more.textContent = interpolate(gettext("… and %(count)s more"), { count: formatNumber(waiting - queue.length) }, true);
      list.append(more);
    }
  };
  setInterval(drawQueue, 1000);

  const drawDialogues = (dialogues) => {
    const list = $("my-dialogues");
    if (!dialogues.length) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = gettext("None. Switch on “Ready” and a room opens as soon as a worker is paired with you.");
      list.replaceChildren(none);
      return;
    }
    list.replaceChildren(...dialogues.map((d) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = roomUrl(d.id);
      link.textContent = interpolate(gettext("Dialogue %(id)s"), { id: d.id }, true);
      const pill = document.createElement("span");
      pill.className = "pill";
      pill.textContent = DIALOGUE_STATUS[d.status] || d.status;
      item.append(link, interpolate(gettext(" · %(database)s with %(worker)s "), { database: d.db_id, worker: d.worker }, true),
        pill);
      return item;
    }));
  };

  // Why the server refuses "ready" now (guidelines unread, not qualified: docs/experts.md), said on the page.
  const refusal = root.dataset.readyRefusal || "";

  const onStatus = (status) => {
    toggle.disabled = Boolean(refusal) && !status.ready;
    toggle.checked = status.ready;
    // What "ready" means now (dialogs.selectors.expert_readiness), or that it is refused, and why, just below.
    hint.textContent = refusal && !status.ready ? gettext("You cannot switch on yet:") : status.readiness;
    $("waiting-count").textContent = formatNumber(status.waiting_workers);
    $("experts-online").textContent = expertsOnline(status);
    queue = status.queue || [];
    waiting = status.waiting_workers;
    drawQueue();
    drawDialogues(status.my_dialogues || []);
  };

  toggle.addEventListener("change", () => {
    $("lobby-error").hidden = true;
    // The server's next status confirms the switch; until then it cannot be flipped again.
    toggle.disabled = true;
    if (!client.sendNow({ type: toggle.checked ? "join" : "leave" })) {
      toggle.checked = !toggle.checked;
      showError(gettext("Not connected right now; try again in a moment."));
    }
  });

  client = new WsClient("/ws/lobby/", {
    handlers: {
      connection: ({ state }) => {
        if (state === "retrying") {
          toggle.disabled = true;
          hint.textContent = gettext("Connection lost. Reconnecting…");
        }
      },
      message: (message) => {
        if (message.type === "status") onStatus(message);
        else if (message.type === "paired") {
          hint.textContent = gettext("A worker is paired with you. Opening the room…");
          goToRoom(message.url);
        }
      },
      error: (error) => {
        toggle.disabled = false;
        if (error.code === "not_qualified") toggle.checked = false;  // refused: not ready
        showError(error.message);
      },
      fatal: (_code, text) => showError(text),
    },
  }).start();
}

if (role === "worker") workerLobby();
else expertDesk();
