// The expert's room (CoSQL Figure 8): database browser, goal, chat, and a step panel for the current user turn:
// label the user acts, write and run SQL, send a result, respond with system acts. Scoring follows the end.

import { LabelEditor, foldLabels, newLabelState } from "./chase_labels.js";
import { ChatLog, ENDED_STATUSES, resultTable, rowSummary, PresenceBadge } from "./chat_log.js";
import { drawSpanWords, spanAfterPress, spanSummary } from "./span_picker.js";
import { createSqlEditor, labelRunButton, runErrorText, showSqlReadOnly } from "./sql_codemirror.js";
import { TablePager } from "./table_view.js";
import { KeptText, LimitedField } from "./typed_text.js";
import { WsClient } from "./wsclient.js";

const root = document.getElementById("room");
const dialogueId = root.dataset.dialogue;
const $ = (id) => document.getElementById(id);
const schema = JSON.parse($("schema-data").textContent);
const LABELS = JSON.parse($("labels-data").textContent);
const ACTS = JSON.parse($("acts-data").textContent);  // the act rules and response guide of annotation/labels/acts.py
const AMBIGUITY_TYPES = ACTS.ambiguity_types;  // sub-types of AMBIGUOUS and CANNOT_ANSWER, per act
const LIMITS = JSON.parse($("text-limits").textContent);  // dialogs.room.text_limits: the server refuses beyond them
// What the expert typed or ticked for a turn and has not sent (SQL, response, system acts): kept in this tab.
const kept = new KeptText(dialogueId, "expert");

// The first act rule that these system acts break for these user acts (the server checks the same rules).
function actRuleBroken(userActs, systemActs) {
  for (const rule of ACTS.rules) {
    if (!userActs.includes(rule.user) || (rule.unless && userActs.includes(rule.unless))) continue;
    if (!rule.system.some((act) => systemActs.includes(act))) return rule.message;
  }
  return null;
}

function drawResponseGuide() {
  const turn = turns.get(shownTurn);
  const box = $("response-guide");
  const lines = [];
  const userActs = turn ? (checked("user-acts").length ? checked("user-acts") : turn.userActs || []) : [];
  for (const rule of ACTS.rules) {
    if (userActs.includes(rule.user) && !(rule.unless && userActs.includes(rule.unless))) lines.push(["rule", rule.message]);
  }
  for (const act of checked("system-acts")) if (ACTS.guide[act]) lines.push(["guide", `${act}: ${ACTS.guide[act]}`]);
  box.replaceChildren(...lines.map(([kind, text]) => element("p", `guide-${kind}`, text)));
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function chips(acts, kind) {
  const box = element("span", `chips ${kind}`);
  for (const act of acts || []) box.appendChild(element("span", "chip", act));
  return box;
}

// --- Database browser -----------------------------------------------------------------------------------------------

const pager = new TablePager(root.dataset.tableUrl, {
  title: $("table-title"),
  content: $("table-content"),
  pager: $("table-pager"),
  info: $("page-info"),
  prev: $("prev-page"),
  next: $("next-page"),
});
let openIndex = 0;
let view = "structure";

function showTable(index) {
  openIndex = index;
  document.querySelectorAll(".table-tab").forEach((tab) => {
    const on = Number(tab.dataset.index) === index;
    tab.classList.toggle("active", on);
    tab.setAttribute("aria-selected", on);
  });
  document.querySelectorAll("[data-structure]").forEach((s) => { s.hidden = Number(s.dataset.structure) !== index; });
  if (view === "content") pager.show(index);
}
function showView(name) {
  view = name;
  document.querySelectorAll(".view-tab").forEach((b) => b.classList.toggle("active", b.dataset.view === name));
  $("structure-view").hidden = name !== "structure";
  $("content-view").hidden = name !== "content";
  if (name === "content" && pager.index !== openIndex) pager.show(openIndex);
}
// The tabs come disabled from the server and are enabled here, once a click does something.
document.querySelectorAll(".table-tab").forEach((tab) => {
  tab.addEventListener("click", () => showTable(Number(tab.dataset.index)));
  tab.disabled = false;
});
document.querySelectorAll(".view-tab").forEach((b) => {
  b.addEventListener("click", () => showView(b.dataset.view));
  b.disabled = false;
});
showTable(0);

// --- SQL editor (sql_codemirror.js): completion from the schema, inline validation, Ctrl/Cmd+Enter runs -------------

// Set while the editor's text is replaced for another turn, so that this is not taken for the expert typing.
let switchingTurn = false;
const sqlEditor = createSqlEditor($("sql-editor"), {
  schema,
  validateUrl: root.dataset.validateUrl,
  problems: $("sql-problems"),
  placeholder: "SELECT …",
  label: "SQL",
  id: "sql-input",
  testId: "sql-input",
  onRun: () => $("run-sql").click(),
  onChange: (text) => {
    if (switchingTurn) return;
    draftOf(shownTurn).sql = text;
    keepDraft(shownTurn);
    $("start-from-last").hidden = !previousSharedSql(shownTurn) || Boolean(text.trim());
    client.typing();
  },
});
labelRunButton($("run-sql"));
document.querySelectorAll("[data-insert]").forEach((b) => b.addEventListener("click", () => sqlEditor.insert(b.dataset.insert)));
for (const goal of document.querySelectorAll("[data-sql-display]")) showSqlReadOnly(goal, { label: "Goal SQL" });

// --- The dialogue as this screen knows it (rebuilt from the event log) ---------------------------------------------

const turns = new Map();  // utterance seq -> {seq, text, userActs, runs, sharedRun, responded, dropped}
const looseRuns = [];     // runs sent without a turn (before the first question)
const drafts = new Map(); // turn seq (or "none") -> what the expert typed/ticked for it, kept across turn switches
// Back from before a reload or Back: what was typed for each turn and not sent.
for (const [key, fields] of Object.entries(kept.all())) drafts.set(key === "none" ? key : Number(key), { ...fields });
// Labels and shares sent but not yet back as events. The server handles one socket's messages in order, so a
// response sent after them is checked after them: the expert need not wait for the echo before responding.
const inFlight = new Map();  // client id -> {type, turn}
let manualTurn = null;
let lastRecommendation = null;  // the newest recommendation, until the user's next question takes it
let lastScrolledTo = null;
let shownTurn;            // undefined until the first draw
let state = null;
let over = false;
let scored = false;
let endInfo = null;
// A pairing cancelled by sending the worker back to the queue: nothing to score (the server refuses a score).
const cancelled = () => Boolean(state?.requeued || endInfo?.requeued);

const chat = new ChatLog($("chat-log"), {
  viewer: "expert",
  names: { worker: "User", expert: "You" },
  onTurnClick: (seq) => {
    manualTurn = seq;
    refresh();
  },
});

function currentTurn() {
  if (manualTurn !== null && turns.has(manualTurn)) return manualTurn;
  const open = [...turns.values()].filter((t) => !t.responded && !t.dropped);
  return open.length ? open[open.length - 1].seq : null;
}

function draftOf(seq) {
  const key = seq ?? "none";
  if (!drafts.has(key)) drafts.set(key, {});
  return drafts.get(key);
}

// Keep what the expert typed or ticked for `seq` in this tab, until it is sent (the turn answered or dropped).
function keepDraft(seq) {
  const draft = draftOf(seq);
  kept.set(seq ?? "none", { sql: draft.sql, response: draft.response, systemActs: draft.systemActs,
    fromModel: draft.fromModel ? String(draft.fromModel) : "" });
}

function checked(containerId) {
  return [...document.querySelectorAll(`#${containerId} input:checked`)].map((input) => input.value);
}
function setChecked(containerId, values) {
  const wanted = new Set(values || []);
  document.querySelectorAll(`#${containerId} input`).forEach((input) => { input.checked = wanted.has(input.value); });
}

// The SQL of the newest result sent before this turn: follow-up questions usually start from it.
function previousSharedSql(seq) {
  const earlier = [...turns.values()].filter((t) => t.seq < seq && t.sharedRun).pop();
  return earlier?.runs.find((r) => r.seq === earlier.sharedRun)?.sql || "";
}

function loadDraft(seq) {
  const draft = draftOf(seq);
  const turn = turns.get(seq);
  // Never silently prefilled: starting from the previous question's SQL is the expert's choice (the button).
  switchingTurn = true;
  sqlEditor.setValue(draft.sql ?? "");
  switchingTurn = false;
  $("response-text").value = draft.response ?? "";
  responseField.draw();
  setChecked("user-acts", draft.userActs ?? turn?.userActs);
  drawAmbiguity();
  setChecked("system-acts", draft.systemActs);
  $("send-refusal").textContent = "";
}

$("response-text").addEventListener("input", () => {
  draftOf(shownTurn).response = $("response-text").value;
  keepDraft(shownTurn);
  $("draft-note").hidden = !turns.get(shownTurn)?.draft || $("response-text").value !== turns.get(shownTurn).draft;
  $("send-refusal").textContent = "";
  client.typing();
});
$("user-acts").addEventListener("change", () => {
  draftOf(shownTurn).userActs = checked("user-acts");
  drawAmbiguity();
  drawActsState();
  drawResponseGuide();
  drawSuggestedActs();
  saveActsSoon();
});
$("ambiguity-type").addEventListener("change", () => {
  draftOf(shownTurn).ambiguityType = $("ambiguity-type").value;
  drawAmbiguityDetails();
  drawActsState();
  saveActsSoon();
});
$("start-from-last").addEventListener("click", () => {
  const sql = previousSharedSql(shownTurn);
  sqlEditor.setValue(sql);
  draftOf(shownTurn).sql = sql;
  delete draftOf(shownTurn).fromModel;  // no longer the model's draft in the editor
  keepDraft(shownTurn);
  $("start-from-last").hidden = true;
  sqlEditor.focus();
});
$("system-acts").addEventListener("change", () => {
  draftOf(shownTurn).systemActs = checked("system-acts");
  keepDraft(shownTurn);
  $("send-refusal").textContent = "";
  drawResponseGuide();
  drawSuggestedActs();
});

// --- Drawing --------------------------------------------------------------------------------------------------------

// --- Ambiguity: what is ambiguous or missing in an AMBIGUOUS or CANNOT_ANSWER question ----------------------------
// Its sub-type (PRACTIQ's types, annotation/labels/acts.py AMBIGUITY_TYPES), offered while one of those acts is ticked; the
// words it concerns (a span over the tokens the server sends with the utterance, the ones check_ambiguity numbers);
// for an ambiguous one, the SQL of each reading. All are sent with the acts; what the expert changed and has not seen
// saved stays in the turn's draft (ambiguityType, ambiguitySpan, ambiguityReadings).

function drawAmbiguity() {
  const acts = checked("user-acts");
  const present = Object.keys(AMBIGUITY_TYPES).filter((act) => acts.includes(act));
  const select = $("ambiguity-type");
  $("ambiguity-row").hidden = !present.length;
  const draft = shownTurn === null || shownTurn === undefined ? {} : draftOf(shownTurn);
  const wanted = draft.ambiguityType ?? turns.get(shownTurn)?.ambiguity?.type ?? "";
  select.replaceChildren(new Option("(not said)", ""));
  for (const act of present) {
    const group = document.createElement("optgroup");
    group.label = act;
    for (const [name, text] of Object.entries(AMBIGUITY_TYPES[act])) {
      const option = new Option(name.replaceAll("_", " "), name);
      option.title = text;
      group.append(option);
    }
    select.append(group);
  }
  select.value = [...select.options].some((option) => option.value === wanted) ? wanted : "";
  drawAmbiguityDetails();
}

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
  const turn = turns.get(shownTurn);
  $("ambiguity-span-box").hidden = !type || !turn?.spanTokens;
  $("ambiguity-readings-box").hidden = !readingsAllowed(type);
  if (!type || !turn) return;
  drawAmbiguitySpan(turn);
  drawReadings(turn);
}

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
  const draft = draftOf(shownTurn);
  const { start, span } = spanAfterPress(draft.ambiguitySpanStart, index);
  if (start === undefined) delete draft.ambiguitySpanStart;
  else draft.ambiguitySpanStart = start;
  draft.ambiguitySpan = span;
  drawAmbiguitySpan(turns.get(shownTurn));
  $("ambiguity-tokens").querySelector(`[data-index="${index}"]`)?.focus();
  drawActsState();
  if (start === undefined) saveActsSoon();
}

$("ambiguity-span-clear").addEventListener("click", () => {
  const draft = draftOf(shownTurn);
  delete draft.ambiguitySpanStart;
  draft.ambiguitySpan = null;
  drawAmbiguitySpan(turns.get(shownTurn));
  $("ambiguity-tokens").querySelector("button")?.focus();
  drawActsState();
  saveActsSoon();
});

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
  const label = element("label", "small", `Reading ${number}`);
  label.htmlFor = area.id;
  const remove = element("button", "link remove", "Remove");
  remove.type = "button";
  remove.setAttribute("aria-label", `Remove reading ${number}`);
  area.addEventListener("input", () => {
    const readings = [...ambiguityReadingsOf(shownTurn)];
    readings[index] = area.value;
    draftOf(shownTurn).ambiguityReadings = readings;
    drawActsState();
  });
  area.addEventListener("change", () => saveActsSoon());
  remove.addEventListener("click", () => {
    const readings = [...ambiguityReadingsOf(shownTurn)];
    readings.splice(index, 1);
    draftOf(shownTurn).ambiguityReadings = readings;
    drawReadings(turns.get(shownTurn));
    $(index ? `ambiguity-reading-${index}` : "ambiguity-add-reading")?.focus();
    drawActsState();
    saveActsSoon();
  });
  item.append(label, area, remove);
  return item;
}

function addReading(sql) {
  const readings = [...ambiguityReadingsOf(shownTurn), sql];
  draftOf(shownTurn).ambiguityReadings = readings;
  drawReadings(turns.get(shownTurn));
  $(`ambiguity-reading-${readings.length}`).focus();
  drawActsState();
  if (sql.trim()) saveActsSoon();
}
$("ambiguity-add-reading").addEventListener("click", () => addReading(""));
$("ambiguity-add-editor-sql").addEventListener("click", () => addReading(sqlEditor.value().trim()));

// The ambiguity to send with the acts, or null when no sub-type is chosen. An empty reading is not sent: it is a box
// the expert has not filled yet.
function ambiguityToSend(seq) {
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
function sameAmbiguity(a, b) {
  const key = (x) => JSON.stringify(x ? [x.type, x.span?.beg ?? null, x.span?.end ?? null, x.readings ?? []] : null);
  return key(a) === key(b);
}

// A saved label replaces the parts of the draft it now equals; a part the expert changed since stays theirs.
function ambiguityLanded(seq, saved) {
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

function ambiguityUnsaved(seq) {
  return !sameAmbiguity(ambiguityToSend(seq), turns.get(seq)?.ambiguity ?? null);
}

function drawActsState() {
  const turn = turns.get(shownTurn);
  const label = $("acts-state");
  if (!turn) {
    label.textContent = "";
    return;
  }
  const ticked = checked("user-acts");
  const saved = turn.userActs;
  const draft = draftOf(shownTurn);
  if (!saved) label.textContent = "not saved yet";
  else if ((ticked.join() !== saved.join() && draft.userActs) || ambiguityUnsaved(shownTurn)) label.textContent = "unsaved changes";
  else label.textContent = `saved: ${saved.join(", ")}${turn.ambiguity ? ` · ${turn.ambiguity.type.replaceAll("_", " ")}` : ""}`;
  label.className = `step-state ${saved ? "done" : "todo"}`;
}

const runCards = new Map();  // run seq -> its card (tables can be big: draw each once)

function runCard(run, number) {
  let card = runCards.get(run.seq);
  if (!card) {
    card = element("div", "run");
    const head = element("div", "run-head");
    const result = run.result || {};
    head.append(element("strong", "", `Run ${number}`));
    head.append(element("span", "muted", result.ok
      ? ` · ${rowSummary(result)} · ${Math.round(result.elapsed_ms ?? 0)} ms`
      : " · failed"));
    head.append(element("span", "sent-mark", "✓ Sent to the user — this turn's SQL"));
    card.append(head, element("pre", "mono sql-block", run.sql));
    if (result.ok) {
      if (result.spider_error) {
        // Not a failure: the result is real and may be sent. But the dataset stores SQL in Spider's encoding, and
        // review's final validation refuses what cannot be encoded: better to hear it now than at review.
        const warning = element("p", "notice warn spider-warning",
          `Runs, but cannot be encoded under the Spider protocol: ${result.spider_error}. `
          + "Final validation will refuse it; rewrite it if you can.");
        warning.setAttribute("role", "status");
        card.append(warning);
      }
      card.append(resultTable(result));
      const share = element("button", "share", "Send this result to the user");
      share.type = "button";
      const send = () => {
        clearErrors();
        card.querySelector(".share-guard")?.remove();
        sendTracked("share_result", { turn: run.turn, run: run.seq });
        share.disabled = true;
        share.textContent = "Sending…";
      };
      share.addEventListener("click", () => {
        const warnings = shareWarnings(run);
        if (!warnings.length) {
          send();
          return;
        }
        // A result that is probably not the one meant is sent only when the expert says so (it ships in the release).
        card.querySelector(".share-guard")?.remove();
        const guard = element("div", "notice warn share-guard");
        guard.setAttribute("role", "alertdialog");
        guard.dataset.testid = "share-guard";
        guard.append(element("strong", "", "Send this result anyway?"));
        const list = element("ul");
        for (const warning of warnings) list.append(element("li", "", warning));
        const anyway = element("button", "danger", "Send anyway");
        anyway.type = "button";
        anyway.addEventListener("click", send);
        const cancel = element("button", "", "Cancel");
        cancel.type = "button";
        cancel.addEventListener("click", () => guard.remove());
        guard.append(list, anyway, document.createTextNode(" "), cancel);
        card.append(guard);
        anyway.focus();
      });
      card.append(share);
    } else {
      card.append(element("p", "problem", runErrorText(result.error)));
      card.classList.add("failed");
    }
    card.dataset.run = run.seq;
    runCards.set(run.seq, card);
  }
  return card;
}

// Why sharing this run may be a mistake: nothing in it, a newer successful run of the same turn, or SQL that the
// release's Spider encoding (and so review's final validation) will refuse.
function shareWarnings(run) {
  const warnings = [];
  const result = run.result || {};
  if (result.ok && (result.total_rows ?? result.row_count) === 0) {
    warnings.push("The result has no rows: the user will see an empty table.");
  }
  const turn = turns.get(run.turn);
  const newer = (turn ? turn.runs : looseRuns).filter((other) => other.seq > run.seq && other.result?.ok);
  if (newer.length) warnings.push("This is not the latest successful run of this question: a newer one exists.");
  if (result.spider_error) warnings.push(`It cannot be encoded under the Spider protocol: ${result.spider_error}.`);
  return warnings;
}

// The goal-match label says where it was checked (docs/protocol.md): on the test suite, the original database alone
// while the suite is not built, or (a label from before suites) the shared rows against the goal's.
function goalMatchText(turn) {
  if (turn.goalMatchOn === "suite") {
    // A match is only that no database told them apart (the suite's, and those searched for this pair).
    const where = `checked on ${turn.goalMatchDatabases} databases of the test suite and searched`;
    return turn.goalMatch ? `no difference from the goal SQL found (${where})` : `not the goal SQL's meaning (${where})`;
  }
  const text = turn.goalMatch ? "same result as the goal SQL" : "not the goal SQL's result";
  return turn.goalMatchOn === "original" ? `${text} (original database only: no test suite yet)` : text;
}

function drawRuns(turn) {
  const runs = turn ? turn.runs : looseRuns;
  const cards = runs.map((run, i) => runCard(run, i + 1)).reverse();  // newest first: the one just run is on top
  for (const card of cards) {
    const sent = turn && Number(card.dataset.run) === turn.sharedRun;
    card.classList.toggle("sent", Boolean(sent));
    card.querySelector(".goal-badge")?.remove();
    if (sent && turn.goalMatch !== undefined && turn.goalMatch !== null) {
      // Whether this question's result is already the goal's: the dialogue may be near its end.
      const badge = element("span", `pill goal-badge ${turn.goalMatch ? "ok" : ""}`, goalMatchText(turn));
      badge.dataset.testid = "goal-badge";
      card.querySelector(".run-head").append(" ", badge);
    }
    const share = card.querySelector("button.share");
    if (share) {
      share.disabled = Boolean(sent) || !turn;
      share.textContent = sent ? "Sent" : "Send this result to the user";
    }
  }
  $("runs").replaceChildren(...cards);
  $("runs-empty").hidden = cards.length > 0;
}

function drawTurnHead(turn) {
  const title = $("turn-title");
  const quote = $("turn-quote");
  if (!turn) {
    title.textContent = turns.size ? "All questions are answered — waiting for the next one"
      : "Waiting for the worker's first question";
    quote.hidden = true;
    return;
  }
  const number = [...turns.keys()].indexOf(turn.seq) + 1;
  const status = turn.dropped ? " (dropped)" : turn.responded ? " (answered)" : "";
  title.textContent = `Question ${number}${status}`;
  quote.textContent = turn.text;
  quote.hidden = false;
}

function refresh() {
  const seq = currentTurn();
  if (seq !== shownTurn) {
    shownTurn = seq;
    loadDraft(seq);
  }
  const turn = turns.get(seq);
  drawTurnHead(turn);
  drawActsState();
  drawRuns(turn);
  drawLabels(turn);
  drawModelPanel(turn);
  drawResponseGuide();
  drawSuggestedActs();
  $("start-from-last").hidden = !turn || !previousSharedSql(turn.seq) || Boolean(sqlEditor.value().trim());
  $("draft-note").hidden = !turn?.draft || $("response-text").value !== turn.draft;
  $("step-acts").classList.toggle("done", Boolean(turn?.userActs));
  $("step-runs").classList.toggle("done", Boolean(turn?.sharedRun));
  for (const [s, block] of chat.turns) block.classList.toggle("selected", s === seq);
  if (seq !== lastScrolledTo) {
    chat.turnBlock(seq)?.scrollIntoView({ block: "nearest" });  // the question being worked on stays in view
    lastScrolledTo = seq;
  }
  $("turn-reset").hidden = manualTurn === null;
  // Without a question the steps would only invite clicks that cannot work: show the waiting title alone.
  $("steps").hidden = !turn;
  $("drop-box").hidden = !turn;
  $("turn-panel").hidden = over;
  $("score-panel").hidden = !over || scored || cancelled();
  $("summary").hidden = !scored && !(over && cancelled());
  $("summary-title").textContent = cancelled() ? "Pairing cancelled" : "Dialogue finished";
  $("score-form").querySelector("button[type=submit]").disabled = scored;
}

function decorateTurn(turn) {
  const block = chat.turnBlock(turn.seq);
  if (!block) return;
  const extra = block.querySelector(".turn-extra");
  const status = turn.dropped ? ["dropped", "bad"] : turn.responded ? ["answered", "ok"] : ["open", ""];
  extra.replaceChildren(chips(turn.userActs, "user"), element("span", `pill ${status[1]}`, status[0]));
  const sql = turn.runs.find((run) => run.seq === turn.sharedRun)?.sql;
  if (sql && turn.responded) {
    // An answered question keeps its SQL at hand, folded away.
    const details = element("details", "turn-sql");
    details.append(element("summary", "", "SQL"), element("pre", "mono sql-block", sql));
    extra.append(details);
  }
}

function drawSummary() {
  const facts = $("summary-facts");
  const rows = cancelled()
    ? [["Status", "the worker went back to the queue: this pairing is not scored, reviewed or counted"]]
    : [
      ["Status", state?.status ?? endInfo?.status ?? "ended"],
      ["Questions answered with SQL", state ? `${state.answered_questions} (minimum ${state.min_questions})` : "–"],
      ["Your score", state?.score ?? "–"],
    ];
  facts.replaceChildren(...rows.map(([k, v]) => {
    const row = element("div");
    row.append(element("dt", "", k), element("dd", "", String(v)));
    return row;
  }));
}


// --- SQL drafts from a model (docs/model_assistance.md): asked for, waited for without blocking, loaded at will -------

let drawnModel = null;  // {turn, seq, answer}: the draft the panel shows (its read-only editor is built once)
let modelUndo = null;   // {turn, sql}: the expert's own SQL from before a draft was loaded over it

function drawModelPanel(turn) {
  const offered = Boolean(state?.model_help) && Boolean(turn) && !over;
  $("ask-model").hidden = !offered;
  $("ask-model-note").hidden = !offered;
  if (!turn || !state?.model_help) {
    $("model-panel").hidden = true;
    return;
  }
  const answered = new Set(turn.modelAnswers.map((a) => a.request));
  const waiting = turn.modelAsked.some((seq) => !answered.has(seq)) || inFlightFor("model_sql", turn.seq);
  const answer = turn.modelAnswers[turn.modelAnswers.length - 1] || null;
  $("model-panel").hidden = !waiting && !answer;
  $("model-waiting").hidden = !waiting;
  $("ask-model").textContent = answer ? "Ask the model again" : "Ask the model";
  $("model-undo").hidden = !modelUndo || modelUndo.turn !== turn.seq;
  if (drawnModel?.turn === turn.seq && drawnModel?.seq === answer?.seq) return;
  drawnModel = { turn: turn.seq, seq: answer?.seq, answer };
  $("model-name").textContent = answer?.model || "the model";
  const failed = answer?.state === "failed";
  $("model-error").hidden = !failed;
  $("model-error").textContent = failed ? `No draft this time: ${answer.error.message}` : "";
  $("load-model").hidden = !answer || failed;
  $("model-draft").replaceChildren();
  $("model-result").replaceChildren();
  $("model-facts").textContent = "";
  if (!answer || failed) return;
  const sql = element("pre", "mono sql-block", answer.sql);
  $("model-draft").append(sql);
  showSqlReadOnly(sql, { label: `SQL proposed by ${answer.model}` });
  const result = answer.result || {};
  if (result.ok) {
    if (!answer.encodes) {
      $("model-result").append(element("p", "notice warn",
        `Runs, but cannot be encoded under the Spider protocol: ${answer.encode_error}.`));
    }
    $("model-result").append(resultTable(result));
  } else {
    $("model-result").append(element("p", "problem", `It fails to run: ${runErrorText(result.error)}`));
  }
  const rows = result.ok ? `${rowSummary(result)} · ` : "";
  $("model-facts").textContent = `${rows}written in ${answer.seconds} s · prompt ${answer.prompt_version}`;
}

// --- CHASE labels (chase_labels.js): one editor, showing the current turn ------------------------------------------

const labelEditor = new LabelEditor($("label-editor"), {
  schema,
  vocabulary: LABELS,
  onSave: (fields) => {
    if (shownTurn === null || shownTurn === undefined) return;
    clearErrors();
    sendTracked("turn_labels", { turn: shownTurn, ...fields });
    labelEditor.setSaving(true);
  },
});

function onTurnLabels(turn, p) {
  foldLabels(turn, p);
  if (p.source === "detected" && "goal_match" in p) {
    turn.goalMatch = p.goal_match;
    turn.goalMatchOn = p.goal_match_checked_on;
    turn.goalMatchDatabases = p.goal_match_databases;
  }
  if (p.source === "detected" && p.draft) {
    const draft = draftOf(turn.seq);
    // Offered, never forced: what the expert already typed stays.
    if (!draft.response) {
      draft.response = p.draft;
      if (turn.seq === shownTurn) $("response-text").value = p.draft;
    }
  }
  if (p.source !== "detected") {
    landed("turn_labels", turn.seq);
    if (turn.seq === shownTurn) labelEditor.setSaving(false);
  }
  labelEditor.reset(turn);
}

function drawLabels(turn) {
  $("step-labels").hidden = !turn;
  if (!turn) return;
  labelEditor.saving = inFlightFor("turn_labels", turn.seq);
  labelEditor.show(turn);
}

// --- Server messages ------------------------------------------------------------------------------------------------

function onEvent(event) {
  const p = event.payload || {};
  const turn = turns.get(p.turn);
  switch (event.kind) {
    case "utterance":
      turns.set(event.seq, { seq: event.seq, text: p.text, userActs: null, runs: [], sharedRun: null,
        responded: false, dropped: false, ...newLabelState(), recommended: lastRecommendation,
        spanTokens: p.tokens || null, modelAsked: [], modelAnswers: [] });
      lastRecommendation = null;
      chat.add(event);
      break;
    case "recommendation":
      lastRecommendation = p;
      chat.add(event);
      break;
    case "turn_labels":
      if (turn) onTurnLabels(turn, p);
      break;
    case "user_acts":
      landed("user_acts", p.turn);
      if (turn) {
        turn.userActs = p.acts;
        turn.ambiguity = p.ambiguity || null;
        delete draftOf(turn.seq).userActs;  // the saved labels are now the truth for the checkboxes
        ambiguityLanded(turn.seq, turn.ambiguity);
        if (turn.seq === shownTurn) {
          setChecked("user-acts", p.acts);
          drawAmbiguity();
        }
      }
      break;
    case "sql_run": {
      const run = { seq: event.seq, turn: p.turn, sql: p.sql, result: p.result };
      (turn ? turn.runs : looseRuns).push(run);
      break;
    }
    case "model_sql":
      if (p.state === "asked") {
        landed("model_sql", p.turn);
        turn?.modelAsked.push(event.seq);
      } else {
        turn?.modelAnswers.push({ seq: event.seq, ...p });
      }
      break;
    case "result_shared":
      landed("share_result", p.turn);
      if (turn) turn.sharedRun = p.run;
      chat.add(event);
      break;
    case "response": {
      if (turn) {
        turn.responded = true;
        drafts.delete(turn.seq);
        kept.drop(turn.seq);
        if (manualTurn === turn.seq) manualTurn = null;
      }
      const bubble = chat.add(event);
      bubble?.appendChild(chips(p.acts, "system"));
      break;
    }
    case "drop":
      if (turn) {
        turn.dropped = true;
        kept.drop(turn.seq);
        if (manualTurn === turn.seq) manualTurn = null;
      }
      chat.add(event);
      break;
    case "end":
      over = true;
      kept.clear();
      endInfo = p;
      $("end-reason").textContent = p.reason ? `Reason: ${p.reason}` : "";
      chat.add(event);
      break;
    case "score":
      scored = true;
      break;
    default:
      break;
  }
  if (turn) decorateTurn(turn);
  if (event.kind === "utterance") decorateTurn(turns.get(event.seq));
  refresh();
  if (scored || cancelled()) drawSummary();
}

const partner = new PresenceBadge($("partner"), $("typing-line"), "Worker");

function sendTracked(type, fields) {
  const id = client.send(type, fields);
  inFlight.set(id, { type, turn: fields.turn });
  return id;
}
function inFlightFor(type, turn) {
  return [...inFlight.values()].some((m) => m.type === type && m.turn === turn);
}
function landed(type, turn) {
  for (const [id, m] of inFlight) if (m.type === type && m.turn === turn) inFlight.delete(id);
}

function clearErrors() {
  $("panel-errors").replaceChildren();
}
function showServerError(error) {
  const line = element("div", "server-error");
  line.append(element("strong", "", `Refused (${error.code}): `), document.createTextNode(error.message));
  $("panel-errors").appendChild(line);
  // A refused share or response must not leave its button stuck on "Sending…".
  refresh();
}

const CONNECTION_TEXT = { connecting: "Connecting…", open: "Connected", failed: "Disconnected" };

const client = new WsClient(`/ws/dialogues/${dialogueId}/`, {
  resumeKey: `dialogue-${dialogueId}`,
  handlers: {
    connection: ({ state: s, delayMs }) => {
      $("connection").textContent = s === "retrying"
        ? `Connection lost — retrying in ${Math.ceil(delayMs / 1000)} s` : CONNECTION_TEXT[s];
      $("connection").className = `connection ${s}`;
    },
    state: (message) => {
      state = message;
      $("goal-question").textContent = message.goal_question;
      if (ENDED_STATUSES.includes(message.status)) {
        over = true;
        kept.clear();
      }
      if (message.score !== null && message.score !== undefined) scored = true;
      if (!over) {
        partner.fromState(message);
      } else {
        $("partner").hidden = true;
      }
      refresh();
      if (scored || cancelled()) drawSummary();
    },
    event: (event) => {
      if (event.author_role === "worker") $("typing-line").textContent = "";  // what they typed has arrived
      onEvent(event);
    },
    presence: (message) => !over && partner.update(message),
    error: (error) => {
      if (error.id) inFlight.delete(error.id);
      showServerError(error);
    },
    fatal: (_code, text) => {
      $("fatal").textContent = text;
      $("fatal").hidden = false;
    },
  },
});

// --- The expert's actions -------------------------------------------------------------------------------------------

$("turn-reset").addEventListener("click", () => {
  manualTurn = null;
  refresh();
});

// Ticking a user act saves the turn's acts at once (a burst of ticks becomes one save).
let actsTimer = null;
function saveActsSoon() {
  clearTimeout(actsTimer);
  const turn = shownTurn;
  actsTimer = setTimeout(() => {
    if (turn === null || turn === undefined || turn !== shownTurn) return;
    const acts = checked("user-acts");
    if (!acts.length) {
      $("acts-state").textContent = "tick at least one user act";
      $("acts-state").className = "step-state todo";
      return;
    }
    const ambiguity = ambiguityToSend(turn);
    const saved = turns.get(turn);
    if (saved?.userActs?.join() === acts.join() && sameAmbiguity(saved.ambiguity ?? null, ambiguity)) return;
    clearErrors();
    sendTracked("user_acts", ambiguity ? { turn, acts, ambiguity } : { turn, acts });
    $("acts-state").textContent = "saving…";
  }, 250);
}

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
  if (!box || over || shownTurn === null || shownTurn === undefined) return;
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
  const side = box.name === "user_act" ? "user act" : "system act";
  note.textContent = `${box.checked ? "Ticked" : "Unticked"} the ${side} ${box.value}`;
  note.hidden = false;
  document.querySelectorAll("label.act.keyed").forEach((label) => label.classList.remove("keyed"));
  box.closest("label").classList.add("keyed");
  clearTimeout(keyedTimer);
  keyedTimer = setTimeout(() => {
    note.hidden = true;
    box.closest("label").classList.remove("keyed");
  }, 2500);
}

// The acts usual for the situation, outlined (never ticked): INFORM_SQL for a new question; once a result is shared,
// CONFIRM_SQL; otherwise what the act rules ask for the labelled user acts.
function drawSuggestedActs() {
  const turn = turns.get(shownTurn);
  const suggested = new Set();
  if (turn && !turn.userActs && !checked("user-acts").length) suggested.add("INFORM_SQL");
  const userActs = turn ? (checked("user-acts").length ? checked("user-acts") : turn.userActs || []) : [];
  for (const rule of ACTS.rules) {
    if (userActs.includes(rule.user) && !(rule.unless && userActs.includes(rule.unless))) suggested.add(rule.system[0]);
  }
  if (turn?.sharedRun) suggested.add("CONFIRM_SQL");
  document.querySelectorAll("#user-acts label.act, #system-acts label.act").forEach((label) => {
    const box = label.querySelector("input");
    label.classList.toggle("suggested", suggested.has(box.value) && !box.checked);
  });
}

const responseField = new LimitedField($("response-text"), $("response-count"),
  { limit: LIMITS.text, what: "The response" });
const dropField = new LimitedField($("drop-warning"), $("drop-warning-count"),
  { limit: LIMITS.warning, what: "The warning" });
const reasonField = new LimitedField($("terminate-reason"), $("terminate-reason-count"),
  { limit: LIMITS.reason, what: "The reason" });
const commentField = new LimitedField($("score-comment"), $("score-comment-count"),
  { limit: LIMITS.comment, what: "The comment" });

$("run-sql").addEventListener("click", () => {
  const sql = sqlEditor.value().trim();
  if (!sql) return;
  clearErrors();
  // Which model draft the editor was loaded with: the server compares the texts and records kept/edited/replaced.
  const fromModel = shownTurn === null ? null : Number(draftOf(shownTurn).fromModel) || null;
  const fields = shownTurn === null ? { sql } : { sql, turn: shownTurn };
  client.send("sql_run", fromModel ? { ...fields, from_model: fromModel } : fields);
});

$("ask-model").addEventListener("click", () => {
  if (shownTurn === null || shownTurn === undefined) return;
  clearErrors();
  sendTracked("model_sql", { turn: shownTurn });
  refresh();  // the waiting line shows at once; typing and every other step go on meanwhile
});

$("load-model").addEventListener("click", () => {
  const answer = drawnModel?.answer;
  if (!answer?.sql || answer.turn !== shownTurn) return;
  const draft = draftOf(shownTurn);
  const before = sqlEditor.value();
  sqlEditor.setValue(answer.sql);
  draft.sql = answer.sql;
  draft.fromModel = answer.seq;
  keepDraft(shownTurn);
  // What the expert had written is one press away: loading never loses their own SQL.
  modelUndo = before.trim() && before.trim() !== answer.sql.trim() ? { turn: shownTurn, sql: before } : null;
  $("model-undo").hidden = !modelUndo;
  sqlEditor.focus();
});

$("model-undo").addEventListener("click", () => {
  if (!modelUndo || modelUndo.turn !== shownTurn) return;
  sqlEditor.setValue(modelUndo.sql);
  const draft = draftOf(shownTurn);
  draft.sql = modelUndo.sql;
  delete draft.fromModel;
  keepDraft(shownTurn);
  modelUndo = null;
  $("model-undo").hidden = true;
  sqlEditor.focus();
});

// A step's number as the page shows it, so that the words follow the template when steps move.
const stepNumber = (id) => document.querySelector(`#${id} .step-no`)?.textContent.trim() || "";

// Why the response cannot be sent yet, or null. The server checks the same rules and answers `order`/`labels`.
function refusal() {
  const turn = turns.get(shownTurn);
  const acts = checked("system-acts");
  if (over) return "The dialogue has ended.";
  if (!turn) return "There is no question to answer yet.";
  if (!turn.userActs && !inFlightFor("user_acts", turn.seq)) {
    return `Label the user acts first: tick them in step ${stepNumber("step-acts")} and press “Save labels”.`;
  }
  if (!acts.length) return `Tick at least one system act in step ${stepNumber("step-response")}.`;
  const broken = actRuleBroken(turn.userActs || checked("user-acts"), acts);
  if (broken) return broken;
  if (acts.includes("CONFIRM_SQL") && !turn.sharedRun && !inFlightFor("share_result", turn.seq)) {
    return `CONFIRM_SQL needs a result table: run the SQL and send a result to the user first (step ${stepNumber("step-runs")}).`;
  }
  if (LABELS.phenomena_required && acts.includes("CONFIRM_SQL") && !("contextual_phenomena" in turn.labels)
      && !inFlightFor("turn_labels", turn.seq)) {
    return `Set this question's contextual phenomena in step ${stepNumber("step-labels")} and save them first.`;
  }
  if (!$("response-text").value.trim()) return "Write the response to the user.";
  return responseField.refusal();
}

$("send-response").addEventListener("click", () => {
  clearErrors();
  const reason = refusal();
  $("send-refusal").textContent = reason || "";
  if (reason) return;
  client.send("response", { turn: shownTurn, text: $("response-text").value.trim(), acts: checked("system-acts") });
  $("send-refusal").textContent = "";
});

$("drop-turn").addEventListener("click", () => {
  if (shownTurn === null) return;
  clearErrors();
  $("drop-refusal").textContent = dropField.refusal() || "";
  if (dropField.refusal()) return;
  const warning = $("drop-warning").value.trim();
  client.send("drop", warning ? { turn: shownTurn, warning } : { turn: shownTurn });
  $("drop-box").open = false;
});

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
  client.send("terminate", reason ? { reason } : {});
});

$("score-form").addEventListener("submit", (e) => {
  e.preventDefault();
  $("score-refusal").textContent = commentField.refusal() || "";
  if (commentField.refusal()) return;
  const score = Number(new FormData(e.target).get("score"));
  client.send("score", { score, comment: $("score-comment").value.trim() });
  e.target.querySelector("button[type=submit]").disabled = true;  // until the ack or a refusal (refresh re-enables)
});

// Leaving a live room is asked first: the worker is left waiting, and the dialogue ends when the server's grace for
// a side that went away (PRESENCE_GRACE_SECONDS, counted down on the worker's screen) runs out.
let ending = false;  // the expert has ended it: nothing to ask
window.addEventListener("beforeunload", (e) => {
  if (over || ending || state?.status !== "active") return;
  e.preventDefault();
  e.returnValue = "";  // older browsers ask only when this is set
});

// Sent before a reload and never acked: the client resends them, so they count as on their way.
for (const m of client.pending()) {
  if (["user_acts", "share_result", "turn_labels", "model_sql"].includes(m.type)) inFlight.set(m.id, m);
}
refresh();
client.start();
