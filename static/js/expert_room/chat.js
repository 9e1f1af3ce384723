// The expert room's chat and socket: the chat log (a question clicked there is the one worked on), the partner's
// presence and typing, the connection line, and the socket's frames (state, event, presence, error, fatal), each
// event folded into the dialogue as this screen knows it (state.js) before every panel is redrawn.

import { ChatLog, ENDED_STATUSES, PresenceBadge } from "../chat_log.js";
import { newLabelState } from "../chase_labels.js";
import { WsClient } from "../wsclient.js";
import { showUserActs } from "./acts.js";
import { ambiguityLanded } from "./ambiguity.js";
import { $, clearErrors, element } from "./dom.js";
import { drawSummary } from "./ending.js";
import { onTurnLabels } from "./labels.js";
import {
  cancelled, dialogueId, draftOf, drafts, kept, landed, looseRuns, refresh, refused, room, turns, useSocket,
} from "./state.js";
import { gettext, interpolate } from "../i18n.js";

export const chat = new ChatLog($("chat-log"), {
  viewer: "expert",
  names: { worker: gettext("User"), expert: gettext("You") },
  onTurnClick: (seq) => {
    room.manualTurn = seq;
    refresh();
  },
});
const partner = new PresenceBadge($("partner"), $("typing-line"), "worker");
let lastRecommendation = null;  // the newest recommendation, until the user's next question takes it

function chips(acts, kind) {
  const box = element("span", `chips ${kind}`);
  for (const act of acts || []) box.appendChild(element("span", "chip", act));
  return box;
}

// A question's block in the chat: its user acts, whether it is open, answered or dropped, and the SQL it was answered
// with.
function decorateTurn(turn) {
  const block = chat.turnBlock(turn.seq);
  if (!block) return;
  const extra = block.querySelector(".turn-extra");
  const status = turn.dropped ? [gettext("dropped"), "bad"] : turn.responded ? [gettext("answered"), "ok"]
    : [gettext("open"), ""];
  extra.replaceChildren(chips(turn.userActs, "user"), element("span", `pill ${status[1]}`, status[0]));
  const sql = turn.runs.find((run) => run.seq === turn.sharedRun)?.sql;
  if (sql && turn.responded) {
    // An answered question keeps its SQL at hand, folded away.
    const details = element("details", "turn-sql");
    details.append(element("summary", "", gettext("SQL")), element("pre", "mono sql-block", sql));
    extra.append(details);
  }
}

// --- Events, by kind (the server's event log) -----------------------------------------------------------------------

function onUtterance(event, p) {
  turns.set(event.seq, { seq: event.seq, text: p.text, userActs: null, runs: [], sharedRun: null,
    responded: false, dropped: false, ...newLabelState(), recommended: lastRecommendation,
    spanTokens: p.tokens || null, modelAsked: [], modelAnswers: [] });
  lastRecommendation = null;
  chat.add(event);
}

function onRecommendation(event, p) {
  lastRecommendation = p;
  chat.add(event);
}

function onLabels(event, p, turn) {
  if (turn) onTurnLabels(turn, p);
}

function onUserActs(event, p, turn) {
  landed("user_acts", p.turn);
  if (!turn) return;
  turn.userActs = p.acts;
  turn.ambiguity = p.ambiguity || null;
  ambiguityLanded(turn.seq, turn.ambiguity);
  // The saved labels are the truth for the checkboxes, unless the expert ticked or unticked since this save left:
  // their newer ticks stay (their own save follows), never undone by the echo of an older one.
  const draft = draftOf(turn.seq);
  if (draft.userActs && draft.userActs.join() !== p.acts.join()) return;
  delete draft.userActs;
  if (turn.seq === room.shownTurn) showUserActs(p.acts);
}

function onSqlRun(event, p, turn) {
  const run = { seq: event.seq, turn: p.turn, sql: p.sql, result: p.result };
  (turn ? turn.runs : looseRuns).push(run);
}

function onModelSql(event, p, turn) {
  if (p.state === "asked") {
    landed("model_sql", p.turn);
    turn?.modelAsked.push(event.seq);
  } else {
    turn?.modelAnswers.push({ seq: event.seq, ...p });
  }
}

function onResultShared(event, p, turn) {
  landed("share_result", p.turn);
  if (turn) turn.sharedRun = p.run;
  chat.add(event);
}

function onResponse(event, p, turn) {
  if (turn) {
    turn.responded = true;
    drafts.delete(turn.seq);
    kept.drop(turn.seq);
    if (room.manualTurn === turn.seq) room.manualTurn = null;
  }
  const bubble = chat.add(event);
  bubble?.appendChild(chips(p.acts, "system"));
}

function onDrop(event, p, turn) {
  if (turn) {
    turn.dropped = true;
    kept.drop(turn.seq);
    if (room.manualTurn === turn.seq) room.manualTurn = null;
  }
  chat.add(event);
}

function onEnd(event, p) {
  room.over = true;
  kept.clear();
  room.endInfo = p;
  $("end-reason").textContent = p.reason ? interpolate(gettext("Reason: %(reason)s"), { reason: p.reason }, true) : "";
  chat.add(event);
}

function onScore() {
  room.scored = true;
}

const ON_EVENT = new Map([
  ["utterance", onUtterance],
  ["recommendation", onRecommendation],
  ["turn_labels", onLabels],
  ["user_acts", onUserActs],
  ["sql_run", onSqlRun],
  ["model_sql", onModelSql],
  ["result_shared", onResultShared],
  ["response", onResponse],
  ["drop", onDrop],
  ["end", onEnd],
  ["score", onScore],
]);

function onEvent(event) {
  const p = event.payload || {};
  const turn = turns.get(p.turn);
  ON_EVENT.get(event.kind)?.(event, p, turn);
  if (turn) decorateTurn(turn);
  if (event.kind === "utterance") decorateTurn(turns.get(event.seq));
  refresh();
  if (room.scored || cancelled()) drawSummary();
}

// --- The socket's frames --------------------------------------------------------------------------------------------

function onState(message) {
  room.state = message;
  $("goal-question").textContent = message.goal_question;
  if (ENDED_STATUSES.includes(message.status)) {
    room.over = true;
    kept.clear();
  }
  if (message.score !== null && message.score !== undefined) room.scored = true;
  if (!room.over) {
    partner.fromState(message);
  } else {
    $("partner").hidden = true;
  }
  refresh();
  if (room.scored || cancelled()) drawSummary();
}

function showServerError(error) {
  const line = element("div", "server-error");
  line.append(element("strong", "", interpolate(gettext("Refused (%(code)s): "), { code: error.code }, true)),
    document.createTextNode(error.message));
  const box = $("panel-errors");
  if (!box.querySelector(".close-errors")) box.appendChild(closeErrorsButton());
  box.appendChild(line);
  // A refused share or response must not leave its button stuck on "Sending…".
  refresh();
}

// The refusals float over the page's foot (app.css): the expert can put them away.
function closeErrorsButton() {
  const button = element("button", "link close-errors", gettext("Close"));
  button.type = "button";
  button.dataset.testid = "close-errors";
  button.addEventListener("click", () => clearErrors());
  return button;
}

const CONNECTION_TEXT = { connecting: gettext("Connecting…"), open: gettext("Connected"), failed: gettext("Disconnected") };

// The room's socket, not yet started: the panels send through it (state.js).
export function openSocket() {
  const client = new WsClient(`/ws/dialogues/${dialogueId}/`, {
    resumeKey: `dialogue-${dialogueId}`,
    handlers: {
      connection: ({ state: s, delayMs }) => {
        $("connection").textContent = s === "retrying"
          ? interpolate(gettext("Connection lost — retrying in %(seconds)s s"), { seconds: Math.ceil(delayMs / 1000) }, true)
          : CONNECTION_TEXT[s];
        $("connection").className = `connection ${s}`;
      },
      state: onState,
      event: (event) => {
        if (event.author_role === "worker") $("typing-line").textContent = "";  // what they typed has arrived
        onEvent(event);
      },
      presence: (message) => !room.over && partner.update(message),
      error: (error) => {
        if (error.id) refused(error.id);
        showServerError(error);
      },
      fatal: (_code, text) => {
        $("fatal").textContent = text;
        $("fatal").hidden = false;
      },
    },
  });
  useSocket(client);
  return client;
}
