// The live operations board: draws the overview in the page, then every `overview` frame the socket sends
// (dialogs.consumers.OperationsConsumer). Reconnects with the shared websocket client.

import { WsClient } from "./wsclient.js";
import { formatNumber, formatPercent, gettext, interpolate, LANGUAGE } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const canWatch = document.getElementById("rooms").dataset.watch === "1";
const SVG = "http://www.w3.org/2000/svg";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  if (seconds < 60) return interpolate(gettext("%(seconds)s s"), { seconds }, true);
  if (seconds < 3600) return interpolate(gettext("%(minutes)s min"), { minutes: Math.floor(seconds / 60) }, true);
  return interpolate(gettext("%(hours)s h %(minutes)s min"),
    { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) }, true);
}

function row(cells, className = "") {
  const tr = element("tr", className);
  for (const [text, cls] of cells) tr.appendChild(element("td", cls || "", String(text)));
  return tr;
}

function svgNode(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

// Two bars per hour (started, completed), scaled to the busiest hour; hours labelled every third.
function drawPerHour(box, perHour) {
  const width = 720;
  const height = 160;
  const bottom = 20;
  const max = Math.max(1, ...perHour.started, ...perHour.completed);
  const slot = width / perHour.hours.length;
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${height}`, class: "ops-svg" });
  perHour.hours.forEach((hour, index) => {
    const x = index * slot;
    for (const [series, offset, cls] of [["started", 0.15, "bar-started"], ["completed", 0.5, "bar-completed"]]) {
      const words = series === "started" ? gettext("%(hour)s: %(count)s started") : gettext("%(hour)s: %(count)s completed");
      const value = perHour[series][index];
      const barHeight = ((height - bottom - 10) * value) / max;
      const bar = svgNode("rect", {
        x: x + slot * offset, y: height - bottom - barHeight, width: slot * 0.33, height: barHeight, class: cls,
      });
      const title = svgNode("title", {});
      title.textContent = interpolate(words, { hour, count: formatNumber(value) }, true);
      bar.appendChild(title);
      svg.appendChild(bar);
    }
    if (index % 3 === 0) {
      const label = svgNode("text", { x: x + slot / 2, y: height - 5, class: "axis" });
      label.textContent = hour;
      svg.appendChild(label);
    }
  });
  const legend = element("p", "muted small legend");
  legend.append(element("span", "key key-started", gettext("started")), " ",
    element("span", "key key-completed", gettext("completed")),
    interpolate(gettext(" · busiest hour: %(count)s"), { count: formatNumber(max) }, true));
  box.replaceChildren(svg, legend);
}

function draw(overview) {
  $("waiting-count").textContent = overview.waiting.count;
  $("ready-count").textContent = overview.ready_experts.length;
  $("rooms-count").textContent = overview.rooms.count;
  $("simulated-count").textContent = overview.rooms.simulated;
  $("median-wait").textContent = overview.median_wait_seconds_last_hour ?? "–";
  for (const status of ["completed", "abandoned", "dropped", "terminated"]) {
    $(`today-${status}`).textContent = overview.today[status];
  }
  $("updated-at").textContent = interpolate(gettext("Last update %(time)s."),
    { time: new Date(overview.at).toLocaleTimeString(LANGUAGE) }, true);
  const rooms = overview.rooms.listed;
  $("rooms").replaceChildren(...(rooms.length ? rooms.map((room) => {
    const tr = row([
      [room.id], [room.db_id], [room.worker], [room.expert], [duration(room.age_seconds), "num"],
      [room.questions, "num"], [room.idle_seconds === null ? "–"
        : interpolate(gettext("%(time)s ago"), { time: duration(room.idle_seconds) }, true), "num"],
    ], room.idle_seconds > 120 ? "idle" : "");
    if (room.simulated) {
      // A pilot's room: the worker is the simulated worker (docs/simulated_worker.md), not a person.
      tr.dataset.simulated = "1";
      tr.children[2].append(" ", element("span", "pill", gettext("simulated")));
    }
    if (canWatch) {
      // The room's number opens it read-only (dialogs.views.room_watch), where a stuck room can be ended.
      const link = element("a", "", `#${room.id}`);
      link.href = `/manage/live/rooms/${room.id}/`;
      link.setAttribute("aria-label", interpolate(gettext("Watch dialogue %(id)s (%(worker)s with %(expert)s)"),
        { id: room.id, worker: room.worker, expert: room.expert }, true));
      tr.firstChild.replaceChildren(link);
    }
    return tr;
  }) : [row([[gettext("No open rooms."), "muted"]])]));
  const waiting = overview.waiting.workers;
  $("waiting").replaceChildren(...(waiting.length
    ? waiting.map((w) => row([[w.username], [duration(w.waiting_seconds), "num"]]))
    : [row([[gettext("Nobody is waiting."), "muted"]])]));
  $("ready").textContent = overview.ready_experts.join(", ") || gettext("Nobody is ready.");
  drawPerHour($("per-hour"), overview.per_hour);
  drawCampaigns(overview.campaigns || []);
}

// Each campaign's progress toward its target (dialogues collected of goals × target per goal).
function drawCampaigns(campaigns) {
  $("campaigns-card").hidden = !campaigns.length;
  $("campaigns").replaceChildren(...campaigns.map((c) => {
    const share = c.target ? Math.round((100 * c.collected) / c.target) : 0;
    const line = element("div", "campaign-progress");
    line.append(element("strong", "", c.name), element("span", "muted small",
      interpolate(c.open ? gettext(" open · %(collected)s of %(target)s dialogues (%(goals)s goals) · %(share)s")
        : gettext(" closed · %(collected)s of %(target)s dialogues (%(goals)s goals) · %(share)s"), {
        collected: formatNumber(c.collected), target: formatNumber(c.target), goals: formatNumber(c.goals),
        share: formatPercent(share / 100, 0),
      }, true)));
    const bar = element("div", "bar");
    bar.setAttribute("role", "progressbar");
    bar.setAttribute("aria-valuenow", String(share));
    bar.setAttribute("aria-valuemin", "0");
    bar.setAttribute("aria-valuemax", "100");
    bar.setAttribute("aria-label", interpolate(gettext("%(campaign)s progress"), { campaign: c.name }, true));
    const fill = element("span", "bar-fill");
    fill.style.width = `${Math.min(share, 100)}%`;
    bar.append(fill);
    line.append(bar);
    return line;
  }));
}

draw(JSON.parse($("overview-data").textContent));

const CONNECTION_TEXT = { connecting: gettext("Connecting…"), open: gettext("Live"), failed: gettext("Disconnected") };
new WsClient("/ws/manage/live/", {
  handlers: {
    message: (message) => {
      if (message.type === "overview") draw(message);
    },
    connection: ({ state, delayMs }) => {
      $("connection").textContent = state === "retrying"
        ? interpolate(gettext("Connection lost — retrying in %(seconds)s s"), { seconds: Math.ceil(delayMs / 1000) }, true)
        : CONNECTION_TEXT[state];
      $("connection").className = `connection ${state}`;
    },
    fatal: (_code, text) => { $("connection").textContent = text; },
  },
}).start();
