// The expert room's acts panel: the user acts of the shown question (saved at once, with its ambiguity from
// ambiguity.js), the system acts of the response, the act rules (annotation/labels/acts.py) and response guide they bring,
// the acts usual for the situation outlined, and acts ticked by key.

import { ambiguityToSend, ambiguityUnsaved, connectActsPanel, drawAmbiguity, sameAmbiguity } from "./ambiguity.js";
import { $, checked, clearErrors, element, setChecked } from "./dom.js";
import { ACTS, draftOf, keepDraft, room, sendTracked, turns } from "./state.js";
import { gettext, interpolate } from "../i18n.js";

// The act rules that apply to these user acts.
function rulesFor(userActs) {
  return ACTS.rules.filter((rule) => userActs.includes(rule.user) && !(rule.unless && userActs.includes(rule.unless)));
}

// The user acts the rules go by: those ticked, else those saved.
function userActsOf(turn) {
  if (!turn) return [];
  return checked("user-acts").length ? checked("user-acts") : turn.userActs || [];
}

// The first act rule that these system acts break for these user acts (the server checks the same rules).
export function actRuleBroken(userActs, systemActs) {
  const rule = rulesFor(userActs).find((r) => !r.system.some((act) => systemActs.includes(act)));
  return rule ? rule.message : null;
}

export function drawResponseGuide() {
  const lines = rulesFor(userActsOf(turns.get(room.shownTurn))).map((rule) => ["rule", rule.message]);
  for (const act of checked("system-acts")) if (ACTS.guide[act]) lines.push(["guide", `${act}: ${ACTS.guide[act]}`]);
  $("response-guide").replaceChildren(...lines.map(([kind, text]) => element("p", `guide-${kind}`, text)));
}

// The acts usual for the situation, outlined (never ticked): INFORM_SQL for a new question; once a result is shared,
// CONFIRM_SQL; otherwise what the act rules ask for the labelled user acts.
export function drawSuggestedActs() {
  const turn = turns.get(room.shownTurn);
  const suggested = new Set();
  if (turn && !turn.userActs && !checked("user-acts").length) suggested.add("INFORM_SQL");
  for (const rule of rulesFor(userActsOf(turn))) suggested.add(rule.system[0]);
  if (turn?.sharedRun) suggested.add("CONFIRM_SQL");
  document.querySelectorAll("#user-acts label.act, #system-acts label.act").forEach((label) => {
    const box = label.querySelector("input");
    label.classList.toggle("suggested", suggested.has(box.value) && !box.checked);
  });
}

export function drawActsState() {
  const turn = turns.get(room.shownTurn);
  const label = $("acts-state");
  if (!turn) {
    label.textContent = "";
    return;
  }
  const ticked = checked("user-acts");
  const saved = turn.userActs;
  const draft = draftOf(turn.seq);
  if (!saved) label.textContent = gettext("not saved yet");
  else if ((ticked.join() !== saved.join() && draft.userActs) || ambiguityUnsaved(turn.seq)) {
    label.textContent = gettext("unsaved changes");
  } else {
    const acts = saved.join(", ");
    label.textContent = turn.ambiguity
      ? interpolate(gettext("saved: %(acts)s · %(ambiguity)s"),
        { acts, ambiguity: turn.ambiguity.type.replaceAll("_", " ") }, true)
      : interpolate(gettext("saved: %(acts)s"), { acts }, true);
  }
  label.className = `step-state ${saved ? "done" : "todo"}`;
}

// Ticking a user act saves the turn's acts at once (a burst of ticks becomes one save).
let actsTimer = null;
function saveActsSoon() {
  clearTimeout(actsTimer);
  const turn = room.shownTurn;
  actsTimer = setTimeout(() => saveActs(turn), 250);
}

function saveActs(turn) {
  if (turn === null || turn === undefined || turn !== room.shownTurn) return;
  const acts = checked("user-acts");
  if (!acts.length) {
    $("acts-state").textContent = gettext("tick at least one user act");
    $("acts-state").className = "step-state todo";
    return;
  }
  const ambiguity = ambiguityToSend(turn);
  const saved = turns.get(turn);
  if (saved?.userActs?.join() === acts.join() && sameAmbiguity(saved.ambiguity ?? null, ambiguity)) return;
  clearErrors();
  sendTracked("user_acts", ambiguity ? { turn, acts, ambiguity } : { turn, acts });
  $("acts-state").textContent = gettext("saving…");
}

connectActsPanel({ drawState: drawActsState, saveSoon: saveActsSoon });

// The saved user acts ticked (and the ambiguity offered for them).
export function showUserActs(acts) {
  setChecked("user-acts", acts);
  drawAmbiguity();
}

// The acts of a turn as the expert left them: the draft's, else the saved user acts.
export function loadActs(draft, turn) {
  showUserActs(draft.userActs ?? turn?.userActs);
  setChecked("system-acts", draft.systemActs);
}

$("user-acts").addEventListener("change", () => {
  draftOf(room.shownTurn).userActs = checked("user-acts");
  drawAmbiguity();
  drawActsState();
  drawResponseGuide();
  drawSuggestedActs();
  saveActsSoon();
});
$("system-acts").addEventListener("change", () => {
  draftOf(room.shownTurn).systemActs = checked("system-acts");
  keepDraft(room.shownTurn);
  $("send-refusal").textContent = "";
  drawResponseGuide();
  drawSuggestedActs();
});

// --- Acts by key ----------------------------------------------------------------------------------------------------

// Acts by key, as annotation tools do (the keys are on the chips). Only while the expert types into no text: a key
// pressed in a text field, an editor or a viewer of any kind (the read-only SQL viewers and every block of SQL are
// text to select and copy), or in a dialog, is that text's, never a label.
const ACT_BY_KEY = new Map();
document.querySelectorAll("#user-acts label.act, #system-acts label.act").forEach((label) => {
  ACT_BY_KEY.set(label.querySelector(".act-key").textContent.trim(), label.querySelector("input"));
});
const TEXT_PLACES = "textarea, input:not([type=checkbox]):not([type=radio]), select, [contenteditable], .cm-editor, "
  + "pre, dialog";
// A viewer that cannot take the focus (contenteditable=false) leaves it on the page when clicked: where the expert
// last pressed tells what they are looking at then.
let pressedOn = null;
document.addEventListener("pointerdown", (e) => { pressedOn = e.target; }, true);
function typingIntoText(e) {
  const place = e.target instanceof Element && e.target !== document.body ? e.target : pressedOn;
  return place instanceof Element && Boolean(place.closest(TEXT_PLACES));
}
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || typingIntoText(e)) return;
  const box = ACT_BY_KEY.get(e.key);
  if (!box || room.over || room.shownTurn === null || room.shownTurn === undefined) return;
  e.preventDefault();
  box.checked = !box.checked;
  box.dispatchEvent(new Event("change", { bubbles: true }));
  showKeyedAct(box);
});

// A label set by a key shows for a moment at the foot of the screen (the checkbox may be scrolled out of view), and
// its chip flashes.
let keyedTimer = null;
function showKeyedAct(box) {
  const note = $("hotkey-note");
  const user = box.name === "user_act";
  let text;
  if (box.checked) text = user ? gettext("Ticked the user act %(act)s") : gettext("Ticked the system act %(act)s");
  else text = user ? gettext("Unticked the user act %(act)s") : gettext("Unticked the system act %(act)s");
  note.textContent = interpolate(text, { act: box.value }, true);
  note.hidden = false;
  document.querySelectorAll("label.act.keyed").forEach((label) => label.classList.remove("keyed"));
  box.closest("label").classList.add("keyed");
  clearTimeout(keyedTimer);
  keyedTimer = setTimeout(() => {
    note.hidden = true;
    box.closest("label").classList.remove("keyed");
  }, 2500);
}
