// Shared SQL editor helpers: the database workbench and the expert's room validate SQL against the schema the same way.

import { gettext, interpolate } from "./i18n.js";

const MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** How the run shortcut is written on this machine's keyboard, for buttons and hints. */
export const RUN_SHORTCUT = MAC ? "⌘+Enter" : "Ctrl+Enter";

/** Say the run shortcut on a run button, "Run (Ctrl+Enter)", and to assistive technology by aria-keyshortcuts. */
export function labelRunButton(button, text = gettext("Run")) {
  button.textContent = interpolate(gettext("%(action)s (%(shortcut)s)"), { action: text, shortcut: RUN_SHORTCUT }, true);
  button.setAttribute("aria-keyshortcuts", MAC ? "Meta+Enter" : "Control+Enter");
}

export function csrfToken() {
  return document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.split("=")[1] || "";
}

export async function postSql(url, sql) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ sql }),
  });
  return response.json();
}

/**
 * A failed run in words: on an English page the sandbox's message (it names what went wrong: "DROP statements are not
 * allowed: …"), on another the platform's words for its kind with the sandbox's detail after them (`inPagesLanguage`),
 * with where SQLite found it.
 */
export function runErrorText(error) {
  const message = inPagesLanguage(error) || error?.message || gettext("the SQL failed");
  const where = error?.line ? whereText(error) : "";
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}${where}`;
}

// What the sandbox says of each kind of failure (annotation/sql/sandbox.py ERROR_KINDS), in the platform's words. The
// sandbox writes its message in English wherever it runs (its worker processes know no person); a page in another
// language words it by kind. A kind in `WHOLE` is said by its sentence alone; the others keep the sandbox's detail
// after it, which is SQLite's or the limits' own words ("near "FRM"", "no such column: nme"), as the SQL itself is.
const WHOLE = {
  too_many_statements: () => gettext("Only one statement can run at a time: remove the second one."),
  timeout: () => gettext("The query ran longer than its time limit and was stopped."),
  not_found: () => gettext("The database file cannot be found or opened."),
  busy: () => gettext("Every sandbox process is busy: try again in a moment."),
  crashed: () => gettext("The sandbox process stopped while it ran the query: try again."),
  not_executed: () => gettext("This database is registered by its schema only: there is no file to run SQL on."),
};
const WITH_DETAIL = {
  syntax: () => gettext("SQL syntax error"),
  schema: () => gettext("Unknown table, column or function"),
  forbidden: () => gettext("Not allowed in the read-only sandbox"),
  too_large: () => gettext("Over the sandbox's size limits"),
  limit: () => gettext("Over the sandbox's structural limits"),
  runtime: () => gettext("The query failed while it ran"),
};

/** The failure in the page's language, or "" on an English page (the sandbox's own message says it already). */
export function inPagesLanguage(error) {
  const words = (WHOLE[error?.kind] || WITH_DETAIL[error?.kind])?.();
  if (!words || (document.documentElement.lang || "en").startsWith("en")) return "";
  if (WHOLE[error.kind]) return words;
  return interpolate(gettext("%(kind)s: %(detail)s"), { kind: words, detail: error.message || "" }, true);
}

// Where in the SQL an error is, after its message.
function whereText(error) {
  return interpolate(gettext(" (line %(line)s, column %(column)s)"), { line: error.line, column: error.col }, true);
}

export function showProblems(box, validation) {
  box.replaceChildren();
  for (const error of validation.errors || []) {
    const line = document.createElement("div");
    line.className = "problem";
    const where = error.line ? whereText(error) : "";
    // The message already names the suggestions ("…; did you mean dorm?", annotation/sql/validate.py): said once.
    line.textContent = `${error.message}${where}`;
    box.appendChild(line);
  }
}

/**
 * Validate `input` against the schema while the person types (debounced). Answers can come back out of order on a
 * slow connection, so only the answer to the newest request is shown. `onResult(validation)` is told as well.
 */
export function validateAsYouType(input, url, box, { delay = 250, onResult = null } = {}) {
  let timer = null;
  let latest = 0;
  const check = async () => {
    const ticket = ++latest;
    if (!input.value.trim()) {
      box.replaceChildren();
      onResult?.(null);
      return;
    }
    let validation;
    try {
      validation = await postSql(url, input.value);
    } catch {
      return;  // offline for a moment: the next keystroke tries again
    }
    if (ticket !== latest) return;
    showProblems(box, validation);
    onResult?.(validation);
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(check, delay);
  });
  return { check };
}
