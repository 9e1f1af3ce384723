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
 * A failed run in words: the sandbox's message (it names what went wrong: "DROP statements are not allowed: …"), with
 * where SQLite found it. The error's kind (annotation/sql/sandbox.py ERROR_KINDS) is for code, not a heading: put in
 * front of the message it only repeated it ("forbidden: … not allowed").
 */
export function runErrorText(error) {
  const message = error?.message || gettext("the SQL failed");
  const where = error?.line ? whereText(error) : "";
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}${where}`;
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
