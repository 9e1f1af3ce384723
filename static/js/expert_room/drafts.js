// The expert room's response and the drafts offered for it: the response text (a draft detected with the labels
// fills it while it is empty), why it cannot be sent yet, and sending it; and the SQL a model proposes
// (docs/model_assistance.md): asked for, waited for without blocking, loaded into the editor at will, and undone.

import { resultTable, rowSummary } from "../chat_log.js";
import { runErrorText, showSqlReadOnly } from "../sql_codemirror.js";
import { LimitedField } from "../typed_text.js";
import { actRuleBroken } from "./acts.js";
import { $, checked, clearErrors, element } from "./dom.js";
import { sqlEditor } from "./sql.js";
import {
  LABELS, LIMITS, draftOf, inFlightFor, keepDraft, refresh, room, send, sendTracked, turns, typing,
} from "./state.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";

// --- The response ---------------------------------------------------------------------------------------------------

// Its room is kept while it is not shown (drawn invisible): the draft, landing after a share, never moves the response's
// acts below it.
export function drawDraftNote(turn) {
  const shown = Boolean(turn?.draft) && $("response-text").value === turn.draft;
  $("draft-note").classList.toggle("shown", shown);
  $("draft-note").setAttribute("aria-hidden", String(!shown));
}

$("response-text").addEventListener("input", () => {
  draftOf(room.shownTurn).response = $("response-text").value;
  keepDraft(room.shownTurn);
  drawDraftNote(turns.get(room.shownTurn));
  $("send-refusal").textContent = "";
  typing();
});

const responseField = new LimitedField($("response-text"), $("response-count"),
  { limit: LIMITS.text, what: gettext("The response") });

export function loadResponse(draft) {
  $("response-text").value = draft.response ?? "";
  responseField.draw();
}

// The draft response detected with a turn's labels: offered, never forced (what the expert already typed stays). An
// expert already in the empty box, about to write their own, gets the draft selected: their first key replaces it
// instead of adding to its end.
export function offerDraft(turn, text) {
  const draft = draftOf(turn.seq);
  if (draft.response) return;
  draft.response = text;
  if (turn.seq !== room.shownTurn) return;
  const box = $("response-text");
  box.value = text;
  responseField.draw();  // its count of characters, as typing it would have drawn
  if (document.activeElement === box) box.select();
}

// A step's number as the page shows it, so that the words follow the template when steps move.
const stepNumber = (id) => document.querySelector(`#${id} .step-no`)?.textContent.trim() || "";

// Why the response cannot be sent yet, or null. The server checks the same rules and answers `order`/`labels`.
function refusal() {
  const turn = turns.get(room.shownTurn);
  const acts = checked("system-acts");
  if (room.over) return gettext("The dialogue has ended.");
  if (!turn) return gettext("There is no question to answer yet.");
  if (!turn.userActs && !inFlightFor("user_acts", turn.seq)) {
    return interpolate(gettext("Label the user acts first: tick them in step %(step)s (each tick is saved at once)."),
      { step: stepNumber("step-acts") }, true);
  }
  if (!acts.length) {
    return interpolate(gettext("Tick at least one system act in step %(step)s."), { step: stepNumber("step-response") },
      true);
  }
  const broken = actRuleBroken(turn.userActs || checked("user-acts"), acts);
  if (broken) return broken;
  const unconfirmed = refusalForConfirm(turn, acts);
  if (unconfirmed) return unconfirmed;
  if (!$("response-text").value.trim()) return gettext("Write the response to the user.");
  return responseField.refusal();
}

// CONFIRM_SQL confirms a result the user has: one must be sent first (and the phenomena saved, when required).
function refusalForConfirm(turn, acts) {
  if (!acts.includes("CONFIRM_SQL")) return null;
  if (!turn.sharedRun && !inFlightFor("share_result", turn.seq)) {
    return interpolate(gettext("CONFIRM_SQL needs a result table: run the SQL and send a result to the user first "
      + "(step %(step)s)."), { step: stepNumber("step-runs") }, true);
  }
  if (LABELS.phenomena_required && !("contextual_phenomena" in turn.labels) && !inFlightFor("turn_labels", turn.seq)) {
    return interpolate(gettext("Set this question's contextual phenomena in step %(step)s and save them first."),
      { step: stepNumber("step-labels") }, true);
  }
  return null;
}

$("send-response").addEventListener("click", () => {
  clearErrors();
  const reason = refusal();
  $("send-refusal").textContent = reason || "";
  if (reason) return;
  send("response", { turn: room.shownTurn, text: $("response-text").value.trim(), acts: checked("system-acts") });
  $("send-refusal").textContent = "";
});

// --- SQL drafts from a model ----------------------------------------------------------------------------------------

let drawnModel = null;  // {turn, seq, answer}: the draft the panel shows (its read-only editor is built once)
let modelUndo = null;   // {turn, sql}: the expert's own SQL from before a draft was loaded over it

export function drawModelPanel(turn) {
  const offered = Boolean(room.state?.model_help) && Boolean(turn) && !room.over;
  $("ask-model").hidden = !offered;
  $("ask-model-note").hidden = !offered;
  if (!turn || !room.state?.model_help) {
    $("model-panel").hidden = true;
    return;
  }
  const answered = new Set(turn.modelAnswers.map((a) => a.request));
  const waiting = turn.modelAsked.some((seq) => !answered.has(seq)) || inFlightFor("model_sql", turn.seq);
  const answer = turn.modelAnswers[turn.modelAnswers.length - 1] || null;
  $("model-panel").hidden = !waiting && !answer;
  $("model-waiting").hidden = !waiting;
  $("ask-model").textContent = answer ? gettext("Ask the model again") : gettext("Ask the model");
  $("model-undo").hidden = !modelUndo || modelUndo.turn !== turn.seq;
  if (drawnModel?.turn === turn.seq && drawnModel?.seq === answer?.seq) return;
  drawnModel = { turn: turn.seq, seq: answer?.seq, answer };
  drawModelAnswer(answer);
}

function drawModelAnswer(answer) {
  $("model-name").textContent = answer?.model || gettext("the model");
  const failed = answer?.state === "failed";
  $("model-error").hidden = !failed;
  $("model-error").textContent = failed
    ? interpolate(gettext("No draft this time: %(error)s"), { error: answer.error.message }, true) : "";
  $("load-model").hidden = !answer || failed;
  $("model-draft").replaceChildren();
  $("model-result").replaceChildren();
  $("model-facts").textContent = "";
  if (!answer || failed) return;
  const sql = element("pre", "mono sql-block", answer.sql);
  $("model-draft").append(sql);
  showSqlReadOnly(sql, { label: interpolate(gettext("SQL proposed by %(model)s"), { model: answer.model }, true) });
  const result = answer.result || {};
  if (result.ok) {
    if (!answer.encodes) {
      $("model-result").append(element("p", "notice warn",
        interpolate(gettext("Runs, but cannot be encoded under the Spider protocol: %(error)s."),
          { error: answer.encode_error }, true)));
    }
    $("model-result").append(resultTable(result));
  } else {
    $("model-result").append(element("p", "problem",
      interpolate(gettext("It fails to run: %(error)s"), { error: runErrorText(result.error) }, true)));
  }
  const facts = interpolate(gettext("written in %(seconds)s s · prompt %(prompt)s"),
    { seconds: formatNumber(answer.seconds), prompt: answer.prompt_version }, true);
  $("model-facts").textContent = result.ok ? `${rowSummary(result)} · ${facts}` : facts;
}

$("ask-model").addEventListener("click", () => {
  if (room.shownTurn === null || room.shownTurn === undefined) return;
  clearErrors();
  sendTracked("model_sql", { turn: room.shownTurn });
  refresh();  // the waiting line shows at once; typing and every other step go on meanwhile
});

$("load-model").addEventListener("click", () => {
  const answer = drawnModel?.answer;
  if (!answer?.sql || answer.turn !== room.shownTurn) return;
  const draft = draftOf(room.shownTurn);
  const before = sqlEditor.value();
  sqlEditor.setValue(answer.sql);
  draft.sql = answer.sql;
  draft.fromModel = answer.seq;
  keepDraft(room.shownTurn);
  // What the expert had written is one press away: loading never loses their own SQL.
  modelUndo = before.trim() && before.trim() !== answer.sql.trim() ? { turn: room.shownTurn, sql: before } : null;
  $("model-undo").hidden = !modelUndo;
  sqlEditor.focus();
});

$("model-undo").addEventListener("click", () => {
  if (!modelUndo || modelUndo.turn !== room.shownTurn) return;
  sqlEditor.setValue(modelUndo.sql);
  const draft = draftOf(room.shownTurn);
  draft.sql = modelUndo.sql;
  delete draft.fromModel;
  keepDraft(room.shownTurn);
  modelUndo = null;
  $("model-undo").hidden = true;
  sqlEditor.focus();
});
