// The expert room's endings: dropping the shown question (with a warning for the user), ending the dialogue (with a
// reason), scoring it and the summary after, and the question asked before leaving a live room.

import { LimitedField } from "../typed_text.js";
import { $, clearErrors, element } from "./dom.js";
import { LIMITS, cancelled, room, send } from "./state.js";
import { formatNumber, gettext, interpolate } from "../i18n.js";

const dropField = new LimitedField($("drop-warning"), $("drop-warning-count"),
  { limit: LIMITS.warning, what: gettext("The warning") });
const reasonField = new LimitedField($("terminate-reason"), $("terminate-reason-count"),
  { limit: LIMITS.reason, what: gettext("The reason") });
const commentField = new LimitedField($("score-comment"), $("score-comment-count"),
  { limit: LIMITS.comment, what: gettext("The comment") });

$("drop-turn").addEventListener("click", () => {
  if (room.shownTurn === null) return;
  clearErrors();
  $("drop-refusal").textContent = dropField.refusal() || "";
  if (dropField.refusal()) return;
  const warning = $("drop-warning").value.trim();
  send("drop", warning ? { turn: room.shownTurn, warning } : { turn: room.shownTurn });
  $("drop-box").open = false;
});

let ending = false;  // the expert has ended it: nothing to ask before leaving (below)
$("terminate").addEventListener("click", () => $("terminate-dialog").showModal());
$("terminate-form").addEventListener("submit", (e) => {
  const refusal = e.submitter?.value === "confirm" ? reasonField.refusal() : null;
  $("terminate-refusal").textContent = refusal || "";
  if (refusal) e.preventDefault();  // the dialog stays open, the reason in it
});
$("terminate-dialog").addEventListener("close", () => {
  if ($("terminate-dialog").returnValue !== "confirm") return;
  ending = true;
  clearErrors();
  const reason = $("terminate-reason").value.trim();
  send("terminate", reason ? { reason } : {});
});

$("score-form").addEventListener("submit", (e) => {
  e.preventDefault();
  $("score-refusal").textContent = commentField.refusal() || "";
  if (commentField.refusal()) return;
  const score = Number(new FormData(e.target).get("score"));
  send("score", { score, comment: $("score-comment").value.trim() });
  e.target.querySelector("button[type=submit]").disabled = true;  // until the ack or a refusal (refresh re-enables)
});

// Leaving a live room is asked first: the worker is left waiting, and the dialogue ends when the server's grace for
// a side that went away (PRESENCE_GRACE_SECONDS, counted down on the worker's screen) runs out.
window.addEventListener("beforeunload", (e) => {
  if (room.over || ending || room.state?.status !== "active") return;
  e.preventDefault();
  e.returnValue = "";  // older browsers ask only when this is set
});

// A dialogue's status in words (dialogs.models: the statuses of a dialogue).
const STATUS_TEXT = {
  waiting: gettext("waiting"), active: gettext("active"), completed: gettext("completed"),
  abandoned: gettext("abandoned"), terminated: gettext("terminated"), dropped: gettext("dropped"),
};

export function drawSummary() {
  const { state, endInfo } = room;
  const status = state?.status ?? endInfo?.status;
  const rows = cancelled()
    ? [[gettext("Status"), gettext("the worker went back to the queue: this pairing is not scored, reviewed or counted")]]
    : [
      [gettext("Status"), STATUS_TEXT[status] ?? status ?? gettext("ended")],
      [gettext("Questions answered with SQL"), state ? interpolate(gettext("%(answered)s (minimum %(least)s)"),
        { answered: formatNumber(state.answered_questions), least: formatNumber(state.min_questions) }, true) : "–"],
      [gettext("Your score"), state?.score ?? "–"],
    ];
  $("summary-facts").replaceChildren(...rows.map(([k, v]) => {
    const row = element("div");
    row.append(element("dt", "", k), element("dd", "", String(v)));
    return row;
  }));
}
