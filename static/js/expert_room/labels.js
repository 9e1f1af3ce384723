// The expert room's CHASE labels step (chase_labels.js): one editor, showing the shown turn's labels. Labels the
// server detected also bring whether the shared result is the goal's (drawn on the run, sql.js) and a draft
// response (offered in the response, drafts.js).

import { LabelEditor, foldLabels } from "../chase_labels.js";
import { $, clearErrors } from "./dom.js";
import { offerDraft } from "./drafts.js";
import { LABELS, inFlightFor, landed, room, schema, sendTracked } from "./state.js";

const labelEditor = new LabelEditor($("label-editor"), {
  schema,
  vocabulary: LABELS,
  onSave: (fields) => {
    if (room.shownTurn === null || room.shownTurn === undefined) return;
    clearErrors();
    sendTracked("turn_labels", { turn: room.shownTurn, ...fields });
    labelEditor.setSaving(true);
  },
});

// A `turn_labels` event: the expert's labels saved, or the server's detected ones.
export function onTurnLabels(turn, p) {
  foldLabels(turn, p);
  if (p.source === "detected" && "goal_match" in p) {
    turn.goalMatch = p.goal_match;
    turn.goalMatchOn = p.goal_match_checked_on;
    turn.goalMatchDatabases = p.goal_match_databases;
    turn.goalMatchSearch = p.goal_match_search;  // "due": a search for a difference follows (a later label)
    turn.goalMatchSearched = p.goal_match_searched;
  }
  if (p.source === "detected" && p.draft) offerDraft(turn, p.draft);
  if (p.source !== "detected") {
    landed("turn_labels", turn.seq);
    if (turn.seq === room.shownTurn) labelEditor.setSaving(false);
  }
  // Detected labels never undo what the expert changed and has not saved; their own saved labels are the truth.
  if (p.source === "detected") labelEditor.detected(turn);
  else labelEditor.reset(turn);
}

export function drawLabels(turn) {
  $("step-labels").hidden = !turn;
  if (!turn) return;
  labelEditor.saving = inFlightFor("turn_labels", turn.seq);
  labelEditor.show(turn);
}
