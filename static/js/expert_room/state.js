// What the expert room's panels share: what the page was given (schema, label vocabulary, act rules, text limits),
// the dialogue as this screen knows it (rebuilt from the event log), the expert's unsent drafts per turn, the
// messages on their way to the server, and the two things wired at start: the socket (chat.js opens it) and the
// redraw of every panel (expert_room.js), so that a panel can send and redraw without importing the modules above it.

import { KeptText } from "../typed_text.js";
import { $ } from "./dom.js";

export const root = document.getElementById("room");
export const dialogueId = root.dataset.dialogue;
export const schema = JSON.parse($("schema-data").textContent);
export const LABELS = JSON.parse($("labels-data").textContent);
export const ACTS = JSON.parse($("acts-data").textContent);  // the act rules and response guide of annotation/labels/acts.py
export const AMBIGUITY_TYPES = ACTS.ambiguity_types;  // sub-types of AMBIGUOUS and CANNOT_ANSWER, per act
// dialogs.room.text_limits: the server refuses beyond them
export const LIMITS = JSON.parse($("text-limits").textContent);
// What the expert typed or ticked for a turn and has not sent (SQL, response, system acts): kept in this tab.
export const kept = new KeptText(dialogueId, "expert");

// --- The dialogue as this screen knows it (rebuilt from the event log) ---------------------------------------------

export const turns = new Map();  // utterance seq -> {seq, text, userActs, runs, sharedRun, responded, dropped}
export const looseRuns = [];     // runs sent without a turn (before the first question)
// turn seq (or "none") -> what the expert typed/ticked for it, kept across turn switches
export const drafts = new Map();
// Back from before a reload or Back: what was typed for each turn and not sent.
for (const [key, fields] of Object.entries(kept.all())) drafts.set(key === "none" ? key : Number(key), { ...fields });

// The room's scalars, in one object: a module cannot assign another module's exported `let`.
export const room = {
  manualTurn: null,      // the question clicked in the chat, while it is worked on (else the newest open one is shown)
  // The open questions the expert has started on since they appeared (ticked an act, typed, ran a query, pressed a
  // step's button): the one shown stays in front of them while it is open, a newer question waiting beside it. This
  // tab only: after a reload the panel starts on the newest open question again.
  started: new Set(),
  shownTurn: undefined,  // the turn the steps show: undefined until the first draw, null while there is none
  state: null,           // the newest `state` frame
  over: false,
  scored: false,
  endInfo: null,         // the `end` event's payload
};

// A pairing cancelled by sending the worker back to the queue: nothing to score (the server refuses a score).
export const cancelled = () => Boolean(room.state?.requeued || room.endInfo?.requeued);

// The expert did something in the steps of the question `seq`: it is the one they are working on.
export function startedOn(seq) {
  if (seq !== null && seq !== undefined) room.started.add(seq);
}

export function draftOf(seq) {
  const key = seq ?? "none";
  if (!drafts.has(key)) drafts.set(key, {});
  return drafts.get(key);
}

// Keep what the expert typed or ticked for `seq` in this tab, until it is sent (the turn answered or dropped).
export function keepDraft(seq) {
  const draft = draftOf(seq);
  kept.set(seq ?? "none", { sql: draft.sql, response: draft.response, systemActs: draft.systemActs,
    fromModel: draft.fromModel ? String(draft.fromModel) : "" });
}

// --- Wired at start -------------------------------------------------------------------------------------------------

let socket = null;
let redraw = () => {};

export function useSocket(client) {
  socket = client;
}
export function onRedraw(draw) {
  redraw = draw;
}
// Draw every panel for the turn worked on (expert_room.js).
export function refresh() {
  redraw();
}
export function send(type, fields) {
  return socket.send(type, fields);
}
export function typing() {
  socket.typing();
}

// --- Messages on their way ------------------------------------------------------------------------------------------

// Labels and shares sent but not yet back as events. The server handles one socket's messages in order, so a
// response sent after them is checked after them: the expert need not wait for the echo before responding.
const inFlight = new Map();  // client id -> {type, turn}

export function sendTracked(type, fields) {
  const id = send(type, fields);
  inFlight.set(id, { type, turn: fields.turn, run: fields.run });
  return id;
}
export function inFlightFor(type, turn) {
  return [...inFlight.values()].some((m) => m.type === type && m.turn === turn);
}
// Whether the run `seq` is being sent to the user (its share not yet back as an event, nor refused).
export function sharing(seq) {
  return [...inFlight.values()].some((m) => m.type === "share_result" && m.run === seq);
}
export function landed(type, turn) {
  for (const [id, m] of inFlight) if (m.type === type && m.turn === turn) inFlight.delete(id);
}
// A message the server refused is no longer on its way.
export function refused(id) {
  inFlight.delete(id);
}
// Sent before a reload and never acked: the client resends them, so they count as on their way.
export function resumeInFlight(pending) {
  for (const m of pending) {
    if (["user_acts", "share_result", "turn_labels", "model_sql"].includes(m.type)) inFlight.set(m.id, m);
  }
}
