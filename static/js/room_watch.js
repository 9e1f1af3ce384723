// A supervisor watching a room (dialogs.consumers.RoomWatchConsumer): the chat and the expert's work as the expert
// sees them, live. The socket sends nothing into the room (hello and pings only); the acts are the page's form.

import { ChatLog, ENDED_STATUSES, rowSummary } from "./chat_log.js";
import { WsClient } from "./wsclient.js";

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
  waiting: "Waiting for both sides to join", active: "Active", completed: "Completed", abandoned: "Abandoned",
  terminated: "Terminated by the expert", dropped: "Dropped (score below 3)",
};

function showStatus(status) {
  $("status-line").textContent = `Status: ${STATUS_TEXT[status] || status}`;
  if (!ENDED_STATUSES.includes(status)) return;
  // Ended, here or elsewhere: nothing is left to act on.
  $("act-form")?.remove();
  $("act-closed").hidden = false;
  for (const side of ["worker", "expert"]) $(`${side}-presence`).hidden = true;
}

function setPresence(side, connected) {
  const badge = $(`${side}-presence`);
  const name = side === "worker" ? "Worker" : "Expert";
  badge.textContent = `${name}: ${connected ? "connected" : "not connected"}`;
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
      work(event, p.result?.ok ? `SQL run: ${rowSummary(p.result)}` : `SQL run failed: ${p.result?.error || ""}`, p.sql);
      break;
    case "user_acts":
      work(event, `User acts of question #${p.turn}: ${(p.acts || []).join(", ")}`);
      break;
    case "turn_labels":
      work(event, `Labels of question #${p.turn} (${p.source || "expert"})`);
      break;
    case "score":
      work(event, `Worker scored ${p.score}${p.comment ? `: ${p.comment}` : ""}`);
      break;
    case "end": {
      const by = event.author_role === "supervisor" ? ` by ${p.supervisor || "a supervisor"}` : "";
      work(event, `Ended${by} (${p.status}${p.requeued ? ", worker back in the queue" : ""}): ${p.reason || ""}`);
      break;
    }
    default:
      break;
  }
  const bubble = chat.add(event);
  if (event.kind === "response" && bubble) bubble.append(element("div", "muted small", (p.acts || []).join(", ")));
}

const CONNECTION_TEXT = { connecting: "Connecting…", open: "Watching", failed: "Disconnected" };

new WsClient(`/ws/manage/live/rooms/${dialogueId}/`, {
  resumeKey: `watch-${dialogueId}`,
  handlers: {
    connection: ({ state, delayMs }) => {
      $("connection").textContent = state === "retrying"
        ? `Connection lost — retrying in ${Math.ceil(delayMs / 1000)} s` : CONNECTION_TEXT[state];
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
        $("typing-line").textContent = `The ${message.side} is typing…`;
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
