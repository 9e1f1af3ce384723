// Database page: pages through table content and drives the SQL workbench (validate as you type, run, show).
import { labelRunButton, postSql, runErrorText, showProblems } from "./sql_editor.js";
import { renderTable, TablePager } from "./table_view.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";

// Spider's hardness levels (annotation/sql/hardness.py HARDNESS_LEVELS), in words.
const HARDNESS = {
  easy: pgettext("hardness", "easy"), medium: pgettext("hardness", "medium"), hard: pgettext("hardness", "hard"),
  extra: pgettext("hardness", "extra"),
};

const script = document.querySelector("script[data-table-url]");  // module scripts have no currentScript
const tableUrl = script.dataset.tableUrl;           // ends in /tables/0/

const pager = new TablePager(tableUrl, {
  title: document.getElementById("table-title"),
  content: document.getElementById("table-content"),
  pager: document.getElementById("table-pager"),
  info: document.getElementById("page-info"),
  prev: document.getElementById("prev-page"),
  next: document.getElementById("next-page"),
});

// The buttons come disabled from the server and are enabled here, once a click does something.
document.querySelectorAll(".table-open").forEach((button) => {
  button.addEventListener("click", () => pager.show(Number(button.dataset.index)));
  button.disabled = false;
});

const host = document.getElementById("sql-editor");
if (host) {
  const problems = document.getElementById("sql-problems");
  const runButton = document.getElementById("sql-run");
  labelRunButton(runButton);
  // The editor's bundle is loaded here rather than imported above, so that the tables answer at once, and only
  // for those who may run SQL.
  const { createSqlEditor } = await import("./sql_codemirror.js");
  const run = async (sql) => {
    const report = await postSql(script.dataset.runUrl, sql);
    if (report.validation) showProblems(problems, report.validation);
    const summary = document.getElementById("sql-summary");
    const result = document.getElementById("sql-result");
    const execution = report.execution;
    if (!execution) {
      summary.textContent = report.error || gettext("Could not run.");
      return;
    }
    if (execution.ok) {
      const count = execution.row_count;
      const values = { count: formatNumber(count), ms: formatNumber(execution.elapsed_ms),
        hardness: HARDNESS[report.hardness] ?? report.hardness ?? gettext("n/a") };
      summary.textContent = interpolate(execution.truncated
        ? ngettext("showing %(count)s row (truncated) in %(ms)s ms · hardness: %(hardness)s",
          "showing %(count)s rows (truncated) in %(ms)s ms · hardness: %(hardness)s", count)
        : ngettext("%(count)s row in %(ms)s ms · hardness: %(hardness)s",
          "%(count)s rows in %(ms)s ms · hardness: %(hardness)s", count), values, true);
      renderTable(result, execution.columns, execution.rows);
    } else {
      summary.textContent = runErrorText(execution.error);
      result.replaceChildren();
    }
    document.getElementById("sql-encoding").textContent =
      report.sql ? JSON.stringify(report.sql)
        : interpolate(gettext("cannot encode: %(error)s"), { error: report.encoding_error }, true);
  };
  const editor = createSqlEditor(host, {
    schema: JSON.parse(document.getElementById("schema-data").textContent),
    validateUrl: script.dataset.validateUrl,
    problems,
    onRun: run,
    placeholder: "SELECT ...",
    label: gettext("SQL query"),
    id: "sql-input",
  });
  runButton.addEventListener("click", () => run(editor.value()));
}
