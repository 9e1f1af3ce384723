// A supervisor watching a room (dialogs.consumers.RoomWatchConsumer): the chat and the expert's work as the expert
// sees them, live. The socket sends nothing into the room (hello and pings only); the acts are the page's form.

import { ChatLog, ENDED_STATUSES, presenceText, rowSummary } from "./chat_log.js";
import { WsClient } from "./wsclient.js";
import { gettext, interpolate } from "./i18n.js";

const root = document.getElementById("room");
const dialogueId = root.dataset.dialogue;
const $ = (id) => document.getElementById(id);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const names = { worker: root.dataset.worker, expert: root.dataset.expert };
const chat = new ChatLog($("chat-log"), { viewer: "supervisor", names });
const STATUS_TEXT = {
  waiting: gettext("Waiting for both sides to join"), active: gettext("Active"), completed: gettext("Completed"),
  abandoned: gettext("Abandoned"), terminated: gettext("Terminated by the expert"),
  dropped: gettext("Dropped (score below 3)"),
};

// The status an end event gives, in a word inside its line ("Ended by ada (terminated): …").
const STATUS_WORD = {
  completed: gettext("completed"), abandoned: gettext("abandoned"), terminated: gettext("terminated"),
  dropped: gettext("dropped"),
};

function showStatus(status) {
  $("status-line").textContent = interpolate(gettext("Status: %(status)s"), { status: STATUS_TEXT[status] || status }, true);
  if (!ENDED_STATUSES.includes(status)) return;
  // Ended, here or elsewhere: nothing is left to act on.
  $("act-form")?.remove();
  $("act-closed").hidden = false;
  for (const side of ["worker", "expert"]) $(`${side}-presence`).hidden = true;
}

function setPresence(side, connected) {
  const badge = $(`${side}-presence`);
  badge.textContent = presenceText(side, connected ? "connected" : "away");
  badge.className = `presence ${connected ? "on" : "away"}`;
}

// One line of the expert's work: what the worker never sees.
function work(event, text, detail) {
  const item = element("li", "watch-work-item");
  item.dataset.seq = event.seq;
  item.append(element("strong", "", `#${event.seq} `), document.createTextNode(text));
  if (detail) item.append(element("pre", "mono sql-block", detail));
  $("work").appendChild(item);
}

function onEvent(event) {
  const p = event.payload || {};
  switch (event.kind) {
    case "sql_run":
      work(event, p.result?.ok
        ? interpolate(gettext("SQL run: %(rows)s"), { rows: rowSummary(p.result) }, true)
        : interpolate(gettext("SQL run failed: %(error)s"), { error: p.result?.error?.message || p.result?.error || "" },
          true), p.sql);
      break;
    case "user_acts":
      work(event, interpolate(gettext("User acts of question #%(turn)s: %(acts)s"),
        { turn: p.turn, acts: (p.acts || []).join(", ") }, true));
      break;
    case "turn_labels":
      work(event, interpolate(gettext("Labels of question #%(turn)s (%(source)s)"),
        { turn: p.turn, source: p.source || gettext("expert") }, true));
      break;
    case "score":
      work(event, p.comment
        ? interpolate(gettext("Worker scored %(score)s: %(comment)s"), { score: p.score, comment: p.comment }, true)
        : interpolate(gettext("Worker scored %(score)s"), { score: p.score }, true));
      break;
    case "end": {
      const values = { who: p.supervisor || gettext("a supervisor"), status: STATUS_WORD[p.status] || p.status,
        reason: p.reason || "" };
      let text = gettext("Ended (%(status)s): %(reason)s");
      if (event.author_role === "supervisor") {
        text = p.requeued ? gettext("Ended by %(who)s (%(status)s, worker back in the queue): %(reason)s")
          : gettext("Ended by %(who)s (%(status)s): %(reason)s");
      } else if (p.requeued) {
        text = gettext("Ended (%(status)s, worker back in the queue): %(reason)s");
      }
      work(event, interpolate(text, values, true));
      break;
    }
    default:
      break;
  }
  const bubble = chat.add(event);
  if (event.kind === "response" && bubble) bubble.append(element("div", "muted small", (p.acts || []).join(", ")));
}

const CONNECTION_TEXT = { connecting: gettext("Connecting…"), open: gettext("Watching"), failed: gettext("Disconnected") };

new WsClient(`/ws/manage/live/rooms/${dialogueId}/`, {
  resumeKey: `watch-${dialogueId}`,
  handlers: {
    connection: ({ state, delayMs }) => {
      $("connection").textContent = state === "retrying"
        ? interpolate(gettext("Connection lost — retrying in %(seconds)s s"), { seconds: Math.ceil(delayMs / 1000) }, true)
        : CONNECTION_TEXT[state];
      $("connection").className = `connection ${state}`;
    },
    state: (message) => {
      for (const side of ["worker", "expert"]) {
        if (`${side}_connected` in message) setPresence(side, message[`${side}_connected`]);
      }
      showStatus(message.status);
    },
    event: (event) => {
      if (event.author_role) $("typing-line").textContent = "";
      onEvent(event);
    },
    presence: (message) => {
      if (message.state === "typing") {
        $("typing-line").textContent = presenceText(message.side, "typing");
      } else {
        setPresence(message.side, message.state !== "reconnecting");
      }
    },
    error: (error) => {
      $("fatal").textContent = error.message;
      $("fatal").hidden = false;
    },
    fatal: (_code, text) => {
      $("fatal").textContent = text;
      $("fatal").hidden = false;
    },
  },
}).start();
