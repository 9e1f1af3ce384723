// The expert room's ambiguity panel: what is ambiguous or missing in an AMBIGUOUS or CANNOT_ANSWER question.
// Its sub-type (PRACTIQ's types, annotation/labels/acts.py AMBIGUITY_TYPES), offered while one of those acts is ticked; the
// words it concerns (a span over the tokens the server sends with the utterance, the ones check_ambiguity numbers);
// for an ambiguous one, the SQL of each reading. All are sent with the acts (acts.js); what the expert changed and has
// not seen saved stays in the turn's draft (ambiguityType, ambiguitySpan, ambiguityReadings).

import { drawSpanWords, spanAfterPress, spanSummary } from "../span_picker.js";
import { $, checked, element } from "./dom.js";
import { sqlEditor } from "./sql.js";
import { AMBIGUITY_TYPES, draftOf, room, turns } from "./state.js";
import { gettext, interpolate } from "../i18n.js";

// The acts panel's state line and save, handed over by acts.js (which reads this module, so it is not imported here).
const actsPanel = { drawState: () => {}, saveSoon: () => {} };
export function connectActsPanel({ drawState, saveSoon }) {
  actsPanel.drawState = drawState;
  actsPanel.saveSoon = saveSoon;
}
const drawActsState = () => actsPanel.drawState();
const saveActsSoon = () => actsPanel.saveSoon();

export function drawAmbiguity() {
  const acts = checked("user-acts");
  const present = Object.keys(AMBIGUITY_TYPES).filter((act) => acts.includes(act));
  const select = $("ambiguity-type");
  $("ambiguity-row").hidden = !present.length;
  const draft = room.shownTurn === null || room.shownTurn === undefined ? {} : draftOf(room.shownTurn);
  const wanted = draft.ambiguityType ?? turns.get(room.shownTurn)?.ambiguity?.type ?? "";
  select.replaceChildren(new Option(gettext("(not said)"), ""));
  for (const act of present) select.append(typeGroup(act));
  select.value = [...select.options].some((option) => option.value === wanted) ? wanted : "";
  drawAmbiguityDetails();
}

function typeGroup(act) {
  const group = document.createElement("optgroup");
  group.label = act;
  for (const [name, text] of Object.entries(AMBIGUITY_TYPES[act])) {
    const option = new Option(name.replaceAll("_", " "), name);
    option.title = text;
    group.append(option);
  }
  return group;
}

$("ambiguity-type").addEventListener("change", () => {
  draftOf(room.shownTurn).ambiguityType = $("ambiguity-type").value;
  drawAmbiguityDetails();
  drawActsState();
  saveActsSoon();
});

// The span and readings as the expert has them now: the draft's, else the saved ones.
function ambiguitySpanOf(seq) {
  const draft = draftOf(seq);
  return draft.ambiguitySpan !== undefined ? draft.ambiguitySpan : turns.get(seq)?.ambiguity?.span ?? null;
}
function ambiguityReadingsOf(seq) {
  const draft = draftOf(seq);
  return draft.ambiguityReadings ?? turns.get(seq)?.ambiguity?.readings ?? [];
}
function readingsAllowed(type) {
  return Boolean(type && AMBIGUITY_TYPES.AMBIGUOUS?.[type]);
}

function drawAmbiguityDetails() {
  const type = $("ambiguity-row").hidden ? "" : $("ambiguity-type").value;
  const turn = turns.get(room.shownTurn);
  $("ambiguity-span-box").hidden = !type || !turn?.spanTokens;
  $("ambiguity-readings-box").hidden = !readingsAllowed(type);
  if (!type || !turn) return;
  drawAmbiguitySpan(turn);
  drawReadings(turn);
}

// --- The span -------------------------------------------------------------------------------------------------------

function drawAmbiguitySpan(turn) {
  const tokens = turn.spanTokens || [];
  const span = ambiguitySpanOf(turn.seq);
  const start = draftOf(turn.seq).ambiguitySpanStart;
  drawSpanWords($("ambiguity-tokens"), tokens, span, start, pickSpanWord);
  $("ambiguity-span-text").textContent = spanSummary(tokens, span, start);
  $("ambiguity-span-clear").hidden = !span && start === undefined;
}

// The span is saved once its last word is pressed, not in between.
function pickSpanWord(index) {
  const draft = draftOf(room.shownTurn);
  const { start, span } = spanAfterPress(draft.ambiguitySpanStart, index);
  if (start === undefined) delete draft.ambiguitySpanStart;
  else draft.ambiguitySpanStart = start;
  draft.ambiguitySpan = span;
  drawAmbiguitySpan(turns.get(room.shownTurn));
  $("ambiguity-tokens").querySelector(`[data-index="${index}"]`)?.focus();
  drawActsState();
  if (start === undefined) saveActsSoon();
}

$("ambiguity-span-clear").addEventListener("click", () => {
  const draft = draftOf(room.shownTurn);
  delete draft.ambiguitySpanStart;
  draft.ambiguitySpan = null;
  drawAmbiguitySpan(turns.get(room.shownTurn));
  $("ambiguity-tokens").querySelector("button")?.focus();
  drawActsState();
  saveActsSoon();
});

// --- The readings ---------------------------------------------------------------------------------------------------

// The readings' text areas are kept while their number stays the same, so a save landing while the expert types in
// one neither moves the cursor nor takes what was typed.
function drawReadings(turn) {
  const readings = ambiguityReadingsOf(turn.seq);
  const list = $("ambiguity-readings");
  while (list.children.length > readings.length) list.lastElementChild.remove();
  while (list.children.length < readings.length) list.append(readingItem(list.children.length));
  readings.forEach((sql, index) => {
    const area = list.children[index].querySelector("textarea");
    if (area.value !== sql) area.value = sql;
  });
}

function readingItem(index) {
  const number = index + 1;
  const item = element("li", "ambiguity-reading");
  const area = element("textarea", "mono");
  area.id = `ambiguity-reading-${number}`;
  area.rows = 2;
  area.spellcheck = false;
  area.dataset.testid = `ambiguity-reading-${number}`;
  const label = element("label", "small", interpolate(gettext("Reading %(number)s"), { number }, true));
  label.htmlFor = area.id;
  const remove = element("button", "link remove", gettext("Remove"));
  remove.type = "button";
  remove.setAttribute("aria-label", interpolate(gettext("Remove reading %(number)s"), { number }, true));
  area.addEventListener("input", () => editReading(index, area.value));
  area.addEventListener("change", () => saveActsSoon());
  remove.addEventListener("click", () => removeReading(index));
  item.append(label, area, remove);
  return item;
}

function editReading(index, sql) {
  const readings = [...ambiguityReadingsOf(room.shownTurn)];
  readings[index] = sql;
  draftOf(room.shownTurn).ambiguityReadings = readings;
  drawActsState();
}

function removeReading(index) {
  const readings = [...ambiguityReadingsOf(room.shownTurn)];
  readings.splice(index, 1);
  draftOf(room.shownTurn).ambiguityReadings = readings;
  drawReadings(turns.get(room.shownTurn));
  $(index ? `ambiguity-reading-${index}` : "ambiguity-add-reading")?.focus();
  drawActsState();
  saveActsSoon();
}

function addReading(sql) {
  const readings = [...ambiguityReadingsOf(room.shownTurn), sql];
  draftOf(room.shownTurn).ambiguityReadings = readings;
  drawReadings(turns.get(room.shownTurn));
  $(`ambiguity-reading-${readings.length}`).focus();
  drawActsState();
  if (sql.trim()) saveActsSoon();
}
$("ambiguity-add-reading").addEventListener("click", () => addReading(""));
$("ambiguity-add-editor-sql").addEventListener("click", () => addReading(sqlEditor.value().trim()));

// --- Saved and unsaved ----------------------------------------------------------------------------------------------

// The ambiguity to send with the acts, or null when no sub-type is chosen. An empty reading is not sent: it is a box
// the expert has not filled yet.
export function ambiguityToSend(seq) {
  const type = $("ambiguity-row").hidden ? "" : $("ambiguity-type").value;
  if (!type) return null;
  const ambiguity = { type };
  const span = ambiguitySpanOf(seq);
  if (span) ambiguity.span = { beg: span.beg, end: span.end };
  const readings = readingsAllowed(type) ? ambiguityReadingsOf(seq).map((sql) => sql.trim()).filter(Boolean) : [];
  if (readings.length) ambiguity.readings = readings;
  return ambiguity;
}

// Two ambiguity labels compared as the server normalises them (absent span and no readings are the same as none).
export function sameAmbiguity(a, b) {
  const key = (x) => JSON.stringify(x ? [x.type, x.span?.beg ?? null, x.span?.end ?? null, x.readings ?? []] : null);
  return key(a) === key(b);
}

// A saved label replaces the parts of the draft it now equals; a part the expert changed since stays theirs.
export function ambiguityLanded(seq, saved) {
  const draft = draftOf(seq);
  if (draft.ambiguityType === undefined || draft.ambiguityType === (saved?.type ?? "")) delete draft.ambiguityType;
  const span = saved?.span ?? null;
  if (draft.ambiguitySpan !== undefined && draft.ambiguitySpanStart === undefined
      && JSON.stringify(draft.ambiguitySpan) === JSON.stringify(span)) delete draft.ambiguitySpan;
  const readings = draft.ambiguityReadings;
  if (readings && JSON.stringify(readings.map((sql) => sql.trim()).filter(Boolean))
      === JSON.stringify(saved?.readings ?? [])) {
    // The same readings, perhaps with an empty box still open: keep the boxes while one is empty.
    if (!readings.some((sql) => !sql.trim())) delete draft.ambiguityReadings;
  }
}

export function ambiguityUnsaved(seq) {
  return !sameAmbiguity(ambiguityToSend(seq), turns.get(seq)?.ambiguity ?? null);
}
