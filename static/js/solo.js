// A solo sequence (SParC, CHASE-C): the expert reads the data, writes a question and its SQL, previews the result,
// adds the pair to the sequence (the server runs it again and records it as a room records a turn), labels it, and
// reads the suggestion for the next question. Every change is a POST; the page then reloads from the log.

import { LabelEditor } from "./chase_labels.js";
import { createSqlEditor, labelRunButton, showSqlReadOnly } from "./sql_codemirror.js";
import { csrfToken, postSql, runErrorText, showProblems } from "./sql_editor.js";
import { renderTable, TablePager } from "./table_view.js";
import { KeptText, LimitedField } from "./typed_text.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const schema = JSON.parse($("schema-data").textContent);
const vocabulary = JSON.parse($("labels-data").textContent);
const config = JSON.parse($("solo-config").textContent);

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let data = {};
  try { data = await response.json(); } catch { /* an HTML error page: keep the status */ }
  return { ok: response.ok && data.ok !== false, status: response.status, data };
}

function newId() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

// --- The database ---------------------------------------------------------------------------------------------------

const pager = new TablePager(config.table_url, {
  title: $("table-title"), content: $("table-content"), pager: $("table-pager"),
  info: $("page-info"), prev: $("prev-page"), next: $("next-page"),
});
function openTable(index) {
  document.querySelectorAll(".table-tab").forEach((tab) => tab.classList.toggle("active", Number(tab.dataset.index) === index));
  document.querySelectorAll("[data-structure]").forEach((p) => { p.hidden = Number(p.dataset.structure) !== index; });
  pager.show(index);
}
// The tabs come disabled from the server and are enabled here, once a click does something.
document.querySelectorAll(".table-tab").forEach((tab) => {
  tab.addEventListener("click", () => openTable(Number(tab.dataset.index)));
  tab.disabled = false;
});
openTable(0);

// --- Labels of each question ----------------------------------------------------------------------------------------

for (const turn of config.turns) {
  const container = document.querySelector(`[data-editor="${turn.seq}"]`);
  if (!container) continue;
  const errorBox = document.querySelector(`[data-error="${turn.seq}"]`);
  const editor = new LabelEditor(container, {
    schema,
    vocabulary,
    onSave: async (fields) => {
      editor.setSaving(true);
      errorBox.textContent = "";
      const answer = await post(config.labels_url, { id: newId(), turn: turn.seq, ...fields });
      if (answer.ok) {
        window.location.reload();
        return;
      }
      editor.setSaving(false);
      errorBox.textContent = answer.data.message
        || interpolate(gettext("Not saved (%(status)s)."), { status: answer.status }, true);
    },
  });
  editor.show(turn);
}

// --- The next question ----------------------------------------------------------------------------------------------

const another = $("suggestion-another");
another?.addEventListener("click", async () => {
  another.disabled = true;
  const answer = await post(config.another_url, { id: newId(), turn: Number(another.dataset.turn) });
  if (answer.ok) {
    $("suggestion-text").textContent = answer.data.text;
    another.disabled = false;
  } else {
    $("suggestion-hint").textContent = answer.data.message || gettext("No other suggestion.");
    another.hidden = answer.data.code === "too_many";
    another.disabled = false;
  }
});

const editorHost = $("sql-editor");
if (config.over) new KeptText(config.dialogue, "solo").clear();  // finished: nothing to add any more
for (const goal of document.querySelectorAll("[data-sql-display]")) showSqlReadOnly(goal, { label: "Goal SQL" });
if (editorHost) {
  const problems = $("sql-problems");
  let requestId = newId();  // one per question being added: pressing again after a lost answer stores it once
  const run = async () => {
    const report = await postSql(config.run_url, sqlEditor.value());
    if (report.validation) showProblems(problems, report.validation);
    const execution = report.execution;
    if (!execution) {
      $("run-summary").textContent = report.error || gettext("Could not run.");
      $("run-result").replaceChildren();
    } else if (execution.ok) {
      const count = execution.row_count;
      $("run-summary").textContent = interpolate(execution.truncated
        ? ngettext("%(count)s row (the first ones) in %(ms)s ms", "%(count)s rows (the first ones) in %(ms)s ms", count)
        : ngettext("%(count)s row in %(ms)s ms", "%(count)s rows in %(ms)s ms", count),
      { count: formatNumber(count), ms: formatNumber(Math.round(execution.elapsed_ms)) }, true);
      renderTable($("run-result"), execution.columns, execution.rows.slice(0, 50));
    } else {
      $("run-summary").textContent = runErrorText(execution.error);
      $("run-result").replaceChildren();
    }
  };
  // The next question and its SQL, kept in this tab until they are added: a reload or Back loses nothing.
  const kept = new KeptText(config.dialogue, "solo");
  const NEXT = "next";
  const keep = () => kept.set(NEXT, { question: $("question").value, sql: sqlEditor.value() });
  const questionField = new LimitedField($("question"), $("question-count"),
    { limit: config.text_limits.text, what: gettext("The question") });
  const sqlEditor = createSqlEditor(editorHost, {
    schema,
    validateUrl: config.validate_url,
    problems,
    placeholder: "SELECT …",
    label: gettext("SQL of the question"),
    id: "sql-input",
    onRun: run,
    value: kept.get(NEXT).sql ?? "",
    onChange: () => {
      requestId = newId();
      keep();
    },
  });
  if (kept.get(NEXT).question && !$("question").value) {
    $("question").value = kept.get(NEXT).question;
    questionField.draw();
  }
  labelRunButton($("run-sql"));
  $("run-sql").addEventListener("click", run);
  $("question").addEventListener("input", () => {
    requestId = newId();
    keep();
  });
  $("add-turn").addEventListener("click", async () => {
    const question = $("question").value.trim();
    const sql = sqlEditor.value().trim();
    if (!question || !sql) {
      $("add-error").textContent = gettext("Write the question and its SQL first.");
      return;
    }
    const tooLong = questionField.refusal();
    if (tooLong) {
      $("add-error").textContent = tooLong;  // refused whole, never cut
      return;
    }
    $("add-turn").disabled = true;
    $("add-error").textContent = "";
    const answer = await post(config.turns_url, { question, sql, request_id: requestId });
    if (answer.ok) {
      kept.drop(NEXT);
      window.location.reload();
      return;
    }
    $("add-turn").disabled = false;
    $("add-error").textContent = answer.data.message
      || interpolate(gettext("Not added (%(status)s)."), { status: answer.status }, true);
  });
}
