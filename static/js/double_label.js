// Double annotation's labelling page (templates/review/double/label.html): runs the labeller's SQL in the read-only
// sandbox (the database workbench's endpoint) and keeps the schema links they mark in the form's hidden field.
import { postSql, runErrorText } from "./sql_editor.js";
import { drawSpanWords, spanAfterPress, spanSummary } from "./span_picker.js";
import { renderTable } from "./table_view.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

// What a schema link points at, in words (the link's type is CHASE's).
const LINK_KINDS = { table: gettext("table"), column: gettext("column"), value: gettext("value") };

const script = document.querySelector("script[data-run-url]");
const runButton = document.getElementById("double-run");
if (runButton) {
  const summary = document.getElementById("double-run-summary");
  const result = document.getElementById("double-run-result");
  runButton.addEventListener("click", async () => {
    const sql = document.getElementById("id_query").value;
    summary.textContent = gettext("Running…");
    const report = await postSql(script.dataset.runUrl, sql);
    const execution = report.execution;
    if (!execution) {
      summary.textContent = report.error || gettext("Could not run.");
      result.replaceChildren();
    } else if (execution.ok) {
      const count = execution.row_count;
      summary.textContent = interpolate(execution.truncated
        ? ngettext("showing %(count)s row (truncated)", "showing %(count)s rows (truncated)", count)
        : ngettext("%(count)s row", "%(count)s rows", count), { count: formatNumber(count) }, true);
      renderTable(result, execution.columns, execution.rows);
    } else {
      summary.textContent = runErrorText(execution.error);
      result.replaceChildren();
    }
  });
}

const tokens = JSON.parse(document.getElementById("double-tokens").textContent);
const items = JSON.parse(document.getElementById("double-schema-items").textContent);
const hidden = document.getElementById("id_schema_linking");
const words = document.getElementById("double-link-words");
const wordsSummary = document.getElementById("double-link-summary");
const list = document.getElementById("double-link-list");
let links = [];
try {
  links = JSON.parse(hidden.value || "[]") || [];
} catch {
  links = [];
}
let start;
let span;

function drawWords() {
  drawSpanWords(words, tokens, span, start, (index) => {
    ({ start, span } = spanAfterPress(start, index));
    drawWords();
  });
  wordsSummary.textContent = spanSummary(tokens, span, start);
}

function drawLinks() {
  hidden.value = JSON.stringify(links);
  list.replaceChildren(...links.map((link, index) => {
    const row = document.createElement("li");
    row.dataset.testid = "link";
    row.textContent = interpolate(gettext("“%(words)s” → %(kind)s %(item)s "), {
      words: tokens.slice(link.beg, link.end + 1).join(" "), kind: LINK_KINDS[link.type] || link.type,
      item: link.entity.value,
    }, true);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "link";
    remove.textContent = gettext("Remove");
    remove.addEventListener("click", () => {
      links = links.filter((_, other) => other !== index);
      drawLinks();
    });
    row.appendChild(remove);
    return row;
  }));
}

document.getElementById("double-link-add").addEventListener("click", () => {
  if (!span) {
    wordsSummary.textContent = gettext("Mark the words first.");
    return;
  }
  const [type, id] = document.getElementById("double-link-item").value.split(":");
  const item = items.find((entry) => entry.type === type && String(entry.id) === id);
  const words = tokens.slice(span.beg, span.end + 1).join(" ");
  let entity = { columnId: item.id, value: item.value };
  if (type === "table") entity = { tableId: item.id, value: item.value };
  if (type === "value") entity = { columnId: item.id, value: `"${words}"` };
  links = [...links, { beg: span.beg, end: span.end, type, entity }];
  span = undefined;
  drawWords();
  drawLinks();
});
drawWords();
drawLinks();
