// Database page: pages through table content and drives the SQL workbench (validate as you type, run, show).
const script = document.querySelector("script[data-table-url]");  // module scripts have no currentScript
const tableUrl = script.dataset.tableUrl;           // ends in /tables/0/
const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.split("=")[1] || "";

export function renderTable(container, columns, rows) {
  const table = document.createElement("table");
  table.className = "data";
  const head = table.createTHead().insertRow();
  for (const name of columns) {
    const th = document.createElement("th");
    th.textContent = name;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const value of row) tr.insertCell().textContent = value === null ? "NULL" : String(value);
  }
  container.replaceChildren(table);
}

let current = { index: null, page: 1, pages: 1 };

async function showTable(index, page = 1) {
  const url = tableUrl.replace(/\/tables\/0\/$/, `/tables/${index}/`) + `?page=${page}`;
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) return;
  const data = await response.json();
  current = { index, page: data.page, pages: data.pages };
  document.getElementById("table-title").textContent = `${data.table} (${data.total} rows)`;
  renderTable(document.getElementById("table-content"), data.columns, data.rows);
  const pager = document.getElementById("table-pager");
  pager.hidden = data.pages <= 1;
  document.getElementById("page-info").textContent = `page ${data.page} of ${data.pages}`;
  document.getElementById("prev-page").disabled = data.page <= 1;
  document.getElementById("next-page").disabled = data.page >= data.pages;
}

document.querySelectorAll(".table-open").forEach((button) =>
  button.addEventListener("click", () => showTable(Number(button.dataset.index))));
document.getElementById("prev-page")?.addEventListener("click", () => showTable(current.index, current.page - 1));
document.getElementById("next-page")?.addEventListener("click", () => showTable(current.index, current.page + 1));

async function postSql(url, sql) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    body: JSON.stringify({ sql }),
  });
  return response.json();
}

function showProblems(validation) {
  const box = document.getElementById("sql-problems");
  box.replaceChildren();
  for (const error of validation.errors || []) {
    const line = document.createElement("div");
    line.className = "problem";
    const where = error.line ? ` (line ${error.line}, column ${error.col})` : "";
    line.textContent = `${error.message}${where}`;
    if (error.suggestions?.length) {
      const hint = document.createElement("span");
      hint.className = "suggest";
      hint.textContent = ` — did you mean ${error.suggestions.join(", ")}?`;
      line.appendChild(hint);
    }
    box.appendChild(line);
  }
}

const input = document.getElementById("sql-input");
if (input) {
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (input.value.trim()) showProblems(await postSql(script.dataset.validateUrl, input.value));
    }, 250);
  });
  document.getElementById("sql-run").addEventListener("click", async () => {
    const report = await postSql(script.dataset.runUrl, input.value);
    if (report.validation) showProblems(report.validation);
    const summary = document.getElementById("sql-summary");
    const result = document.getElementById("sql-result");
    const execution = report.execution;
    if (!execution) {
      summary.textContent = report.error || "Could not run.";
      return;
    }
    if (execution.ok) {
      const shown = execution.truncated ? `showing ${execution.row_count} rows (truncated)` : `${execution.row_count} rows`;
      summary.textContent = `${shown} in ${execution.elapsed_ms} ms · hardness: ${report.hardness ?? "n/a"}`;
      renderTable(result, execution.columns, execution.rows);
    } else {
      summary.textContent = `${execution.error.kind}: ${execution.error.message}`;
      result.replaceChildren();
    }
    document.getElementById("sql-encoding").textContent =
      report.sql ? JSON.stringify(report.sql) : `cannot encode: ${report.encoding_error}`;
  });
}
