// The expert's room (CoSQL Figure 8): database browser, goal, chat, and a step panel for the current user turn:
// label the user acts, write and run SQL, send a result, respond with system acts. Scoring follows the end.
//
// This entry wires the panels (expert_room/: each module's head says what it holds; what they share is in state.js)
// and draws the turn being worked on across them, after every event and every choice of turn.

import "./expert_room/tables.js";
import { drawActsState, drawResponseGuide, drawSuggestedActs, loadActs } from "./expert_room/acts.js";
import { chat, openSocket } from "./expert_room/chat.js";
import { $ } from "./expert_room/dom.js";
import { drawDraftNote, drawModelPanel, loadResponse } from "./expert_room/drafts.js";
import { drawLabels } from "./expert_room/labels.js";
import { drawRuns, drawStartFromLast, loadSql } from "./expert_room/sql.js";
import { cancelled, draftOf, onRedraw, resumeInFlight, room, startedOn, turns } from "./expert_room/state.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

let lastScrolledTo = null;

// The open questions, oldest first.
function openTurns() {
  return [...turns.values()].filter((t) => !t.responded && !t.dropped);
}

// The question worked on: the one clicked in the chat; else the one shown while it is open and the expert has started
// on it (a newer question never takes its place under their hands: they go to it when they choose); else the newest
// open one.
function currentTurn() {
  if (room.manualTurn !== null && turns.has(room.manualTurn)) return room.manualTurn;
  const shown = turns.get(room.shownTurn);
  if (shown && !shown.responded && !shown.dropped && room.started.has(shown.seq)) return shown.seq;
  const open = openTurns();
  return open.length ? open[open.length - 1].seq : null;
}

// The open questions newer than the one kept in front of the expert (none when they chose it in the chat: the
// hint's own button goes back to the newest then).
function newerWaiting(turn) {
  if (!turn || room.manualTurn !== null || turn.responded || turn.dropped) return [];
  return openTurns().filter((t) => t.seq > turn.seq);
}

// What the expert typed and ticked for this turn, back in the steps.
function loadDraft(seq) {
  const draft = draftOf(seq);
  // Never silently prefilled: starting from the previous question's SQL is the expert's choice (the button).
  loadSql(draft.sql ?? "");
  loadResponse(draft);
  loadActs(draft, turns.get(seq));
  $("send-refusal").textContent = "";
}

function drawTurnHead(turn) {
  const title = $("turn-title");
  const quote = $("turn-quote");
  if (!turn) {
    title.textContent = turns.size ? gettext("All questions are answered — waiting for the next one")
      : gettext("Waiting for the worker's first question");
    quote.hidden = true;
    return;
  }
  const number = [...turns.keys()].indexOf(turn.seq) + 1;
  let text = gettext("Question %(number)s");
  if (turn.dropped) text = gettext("Question %(number)s (dropped)");
  else if (turn.responded) text = gettext("Question %(number)s (answered)");
  title.textContent = interpolate(text, { number }, true);
  quote.textContent = turn.text;
  quote.hidden = false;
}

function drawSteps(turn) {
  drawTurnHead(turn);
  drawActsState();
  drawRuns(turn);
  drawLabels(turn);
  drawModelPanel(turn);
  drawResponseGuide();
  drawSuggestedActs();
  drawStartFromLast(turn);
  drawDraftNote(turn);
  $("step-acts").classList.toggle("done", Boolean(turn?.userActs));
  $("step-runs").classList.toggle("done", Boolean(turn?.sharedRun));
}

function drawChatSelection(seq) {
  for (const [s, block] of chat.turns) block.classList.toggle("selected", s === seq);
  if (seq !== lastScrolledTo) {
    chat.turnBlock(seq)?.scrollIntoView({ block: "nearest" });  // the question being worked on stays in view
    lastScrolledTo = seq;
  }
}

// Which panels show: the steps while there is a question, the score once the dialogue is over, then the summary.
function drawPanels(turn) {
  $("turn-reset").hidden = room.manualTurn === null;
  drawWaiting(turn);
  // Without a question the steps would only invite clicks that cannot work: show the waiting title alone.
  $("steps").hidden = !turn;
  $("drop-box").hidden = !turn;
  $("turn-panel").hidden = room.over;
  $("score-panel").hidden = !room.over || room.scored || cancelled();
  $("summary").hidden = !room.scored && !(room.over && cancelled());
  $("summary-title").textContent = cancelled() ? gettext("Pairing cancelled") : gettext("Dialogue finished");
  $("score-form").querySelector("button[type=submit]").disabled = room.scored;
}

// The hint line says when a newer question waits while the expert works on this one, with the way to it. Both
// sentences take the same place in the line (the room of the longer kept): the steps below never move.
function drawWaiting(turn) {
  const waiting = newerWaiting(turn);
  $("turn-hint-usual").classList.toggle("unshown", waiting.length > 0);
  $("turn-waiting").classList.toggle("unshown", !waiting.length);
  if (!waiting.length) {
    $("turn-waiting-text").textContent = "";
    return;
  }
  const newest = waiting[waiting.length - 1];
  const number = [...turns.keys()].indexOf(newest.seq) + 1;
  $("turn-waiting-text").textContent = interpolate(ngettext(
    "A newer question is waiting (question %(number)s). This one stays here until you answer or drop it.",
    "%(count)s newer questions are waiting (the newest is question %(number)s). This one stays here until you "
      + "answer or drop it.",
    waiting.length), { count: formatNumber(waiting.length), number }, true);
}

function refresh() {
  const seq = currentTurn();
  if (seq !== room.shownTurn) {
    room.shownTurn = seq;
    loadDraft(seq);
  }
  const turn = turns.get(seq);
  drawSteps(turn);
  drawChatSelection(seq);
  drawPanels(turn);
}

// To the newest open question, by the expert's choice: what they did on the one they leave stays in its draft (the
// chat takes them back to it).
function toNewest() {
  room.started.delete(room.shownTurn);
  room.manualTurn = null;
  refresh();
}
$("turn-reset").addEventListener("click", toNewest);
$("turn-newest").addEventListener("click", () => {
  toNewest();
  $("turn-title").focus();  // the button is gone: the keyboard goes on from the question now shown
});

// Whatever the expert does in the steps (an act ticked, by key too, text typed, a label chosen, a button pressed)
// marks the question shown as the one they are working on. Seen first, before the step's own handler.
for (const kind of ["change", "input", "click"]) {
  $("steps").addEventListener(kind, (e) => {
    if (kind !== "click" || (e.target instanceof Element && e.target.closest("button"))) startedOn(room.shownTurn);
  }, true);
}

onRedraw(refresh);
const client = openSocket();
resumeInFlight(client.pending());
refresh();
client.start();
