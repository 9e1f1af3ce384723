// The review screen: corrects one field at a time in place, keeps the claim alive while the page is open.
// Every correction is sent to the server, which checks it with the room's rules and appends it to the dialogue's log;
// the page is then reloaded from the server, so what is shown is always the log's latest revision.

import { drawSpanWords, spanAfterPress, spanSummary } from "./span_picker.js";
import { csrfToken, labelRunButton, postSql, runErrorText } from "./sql_editor.js";
import { renderTable } from "./table_view.js";
import { gettext, interpolate } from "./i18n.js";

const config = JSON.parse(document.getElementById("review-config").textContent);
const schema = JSON.parse(document.getElementById("schema-data").textContent);
// The SQL editor's bundle loads while the page is read; the buttons answer at once, before it arrives.
const codemirror = import("./sql_codemirror.js");

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let data = {};
  try { data = await response.json(); } catch { /* an HTML error page: keep the status */ }
  return { ok: response.ok, status: response.status, data };
}

// `names`: what to show for a value, when it is not the value itself.
function actsPicker(all, chosen, names = {}) {
  const box = element("div", "acts-picker");
  for (const act of all) {
    const label = element("label", "chip-choice");
    const input = element("input");
    input.type = "checkbox";
    input.value = act;
    input.checked = chosen.includes(act);
    input.dataset.testid = `act-${act}`;
    label.append(input, ` ${names[act] || act}`);
    box.appendChild(label);
  }
  return { node: box, value: () => [...box.querySelectorAll("input:checked")].map((input) => input.value) };
}

// One of a label's values (CHASE's own, shown with their English), or none.
function choiceEditor(choices, current) {
  const select = element("select");
  select.dataset.testid = "new-value";
  const none = element("option", "", gettext("— not labelled"));
  none.value = "";
  select.append(none);
  for (const [value, words] of Object.entries(choices)) {
    const option = element("option", "", `${words} (${value})`);
    option.value = value;
    select.append(option);
  }
  select.value = current;
  return { node: select, value: () => select.value, focus: () => select.focus() };
}

function textEditor(current, multiline) {
  const input = element(multiline ? "textarea" : "input", multiline ? "mono" : "");
  input.value = current;
  input.dataset.testid = "new-value";
  if (multiline) input.rows = 5;
  return { node: input, value: () => input.value, focus: () => input.focus() };
}

function sqlEditor(current, oldResult) {
  const box = element("div", "sql-editor");
  const host = element("div");
  const problems = element("div", "problems");
  problems.setAttribute("aria-live", "polite");
  const run = element("button");
  run.type = "button";
  run.dataset.testid = "run";
  labelRunButton(run);
  const compare = element("div", "compare");
  const before = element("div", "before");
  before.append(element("h4", "", gettext("Before")));
  const beforeTable = element("div");
  if (oldResult) renderTable(beforeTable, oldResult.columns || [], (oldResult.rows || []).slice(0, 50));
  else beforeTable.textContent = gettext("No result was shown.");
  before.append(beforeTable);
  const after = element("div", "after");
  after.append(element("h4", "", gettext("After")));
  const afterTable = element("div", "muted", gettext("Run the new query to see its result."));
  afterTable.dataset.testid = "run-result";
  after.append(afterTable);
  compare.append(before, after);
  // Both tables scroll within their box: reachable from the keyboard, and named for screen readers.
  for (const [region, name] of [[before, gettext("Result before")], [after, gettext("Result after")]]) {
    region.tabIndex = 0;
    region.setAttribute("role", "region");
    region.setAttribute("aria-label", name);
  }
  box.append(host, problems, run, compare);
  const execute = async () => {
    afterTable.textContent = gettext("Running…");
    const report = await postSql(config.run_url, value());
    const execution = report.execution;
    if (!execution) {
      afterTable.textContent = report.error || gettext("Not executed (schema-only database).");
    } else if (!execution.ok) {
      afterTable.textContent = interpolate(gettext("Fails: %(error)s"),
        { error: execution.error ? runErrorText(execution.error) : gettext("error") }, true);
    } else {
      renderTable(afterTable, execution.columns, execution.rows.slice(0, 50));
      afterTable.className = "";
    }
    if (report.encoding_error) {
      const warning = element("p", "problem", interpolate(gettext("Cannot be encoded under the Spider protocol: %(error)s"),
        { error: report.encoding_error }, true));
      afterTable.prepend(warning);
    }
  };
  // The editable element carries data-testid=new-value, as the other fields' inputs do.
  let editor = null;
  const ready = codemirror.then(({ createSqlEditor }) => {
    editor = createSqlEditor(host, {
      schema, value: current, validateUrl: config.validate_url, problems, onRun: execute,
      label: gettext("Corrected SQL"), testId: "new-value",
    });
    return editor;
  });
  const value = () => (editor ? editor.value() : current);
  run.addEventListener("click", execute);
  return { node: box, value, focus: () => ready.then((made) => made.focus()) };
}

function intentEditor(current) {
  const box = element("div", "intent-editor");
  const select = element("select");
  select.dataset.testid = "intent-category";
  for (const [key, name] of Object.entries(config.categories)) {
    const option = element("option", "", name);
    option.value = key;
    select.appendChild(option);
  }
  select.value = current?.category || "same_instances";
  const grid = element("div", "acts-picker");
  for (const [name, [title, category]] of Object.entries(config.relations)) {
    const label = element("label", "chip-choice");
    label.title = config.categories[category];
    const input = element("input");
    input.type = "checkbox";
    input.value = name;
    input.checked = (current?.relations || []).includes(name);
    input.dataset.testid = `relation-${name}`;
    label.append(input, ` ${name} ${title}`);
    grid.appendChild(label);
  }
  box.append(select, grid);
  return {
    node: box,
    value: () => ({
      category: select.value,
      relations: [...grid.querySelectorAll("input:checked")].map((input) => input.value),
    }),
  };
}

// Schema links as the JSON CHASE stores them, with the turn's tokens numbered above: the review screen's fallback
// editor (the expert's room has the pointing one).
function linksEditor(current, tokens) {
  const box = element("div", "links-editor");
  box.append(element("p", "muted small", tokens.map((token, index) => `${index}:${token}`).join("  ")));
  const input = element("textarea", "mono");
  input.rows = 6;
  input.value = JSON.stringify(current, null, 1);
  input.dataset.testid = "new-value";
  box.append(input);
  return {
    node: box,
    value: () => {
      try { return JSON.parse(input.value); } catch { return input.value; }
    },
    focus: () => input.focus(),
  };
}

// --- Ambiguity: the sub-type of an AMBIGUOUS or CANNOT_ANSWER question, the words it concerns, its readings' SQL ---
// The value sent is the whole label ({type, span?, readings?}), or null to remove it; the server checks it as the room
// checks the expert's (annotation/labels/acts.py check_ambiguity) and keeps the one it replaces.
function ambiguityEditor(current, tokens, acts) {
  const box = element("div", "ambiguity-editor");
  const typeLabel = element("label", "", gettext("What is ambiguous or missing? "));
  const select = element("select");
  select.dataset.testid = "ambiguity-type";
  select.append(new Option(gettext("(not said: remove the label)"), ""));
  for (const [act, types] of Object.entries(config.ambiguity_types)) {
    if (!acts.includes(act)) continue;
    const group = document.createElement("optgroup");
    group.label = act;
    for (const [name, text] of Object.entries(types)) {
      const option = new Option(name.replaceAll("_", " "), name);
      option.title = text;
      group.append(option);
    }
    select.append(group);
  }
  select.value = current?.type || "";
  typeLabel.append(select);

  let span = current?.span || null;
  let start;
  const words = element("fieldset", "ambiguity-part");
  words.append(element("legend", "", gettext("Which words? (press the first word, then the last)")));
  const chips = element("div", "link-tokens");
  chips.dataset.testid = "ambiguity-tokens";
  const summary = element("span", "small");
  summary.dataset.testid = "ambiguity-span";
  summary.setAttribute("aria-live", "polite");
  const clear = element("button", "link", gettext("Clear the words"));
  clear.type = "button";
  const drawWords = () => {
    drawSpanWords(chips, tokens, span, start, (index) => {
      ({ start, span } = spanAfterPress(start, index));
      drawWords();
      chips.querySelector(`[data-index="${index}"]`)?.focus();
    });
    summary.textContent = spanSummary(tokens, span, start);
  };
  clear.addEventListener("click", () => {
    span = null;
    start = undefined;
    drawWords();
  });
  words.append(chips, summary, document.createTextNode(" "), clear);

  const readingsBox = element("fieldset", "ambiguity-part");
  readingsBox.append(element("legend", "", gettext("Readings: the SQL of each meaning")));
  const list = element("ol", "ambiguity-readings");
  const add = element("button", "", gettext("Add a reading"));
  add.type = "button";
  const addReading = (sql) => {
    const number = list.children.length + 1;
    const item = element("li", "ambiguity-reading");
    const area = element("textarea", "mono");
    area.rows = 2;
    area.value = sql;
    area.spellcheck = false;
    area.dataset.testid = `ambiguity-reading-${number}`;
    area.setAttribute("aria-label", interpolate(gettext("Reading %(number)s"), { number }, true));
    const remove = element("button", "link remove", gettext("Remove"));
    remove.type = "button";
    remove.setAttribute("aria-label", interpolate(gettext("Remove reading %(number)s"), { number }, true));
    remove.addEventListener("click", () => {
      item.remove();
      add.focus();
    });
    item.append(area, remove);
    list.append(item);
    return area;
  };
  for (const sql of current?.readings || []) addReading(sql);
  add.addEventListener("click", () => addReading("").focus());
  readingsBox.append(list, add);

  const drawParts = () => {
    words.hidden = !select.value;
    readingsBox.hidden = !config.ambiguity_types.AMBIGUOUS?.[select.value];
  };
  select.addEventListener("change", drawParts);
  drawWords();
  drawParts();
  box.append(typeLabel, words, readingsBox);
  return {
    node: box,
    value: () => {
      if (!select.value) return null;
      const value = { type: select.value };
      if (span) value.span = span;
      if (!readingsBox.hidden) {
        const readings = [...list.querySelectorAll("textarea")].map((area) => area.value.trim()).filter(Boolean);
        if (readings.length) value.readings = readings;
      }
      return value;
    },
    focus: () => select.focus(),
  };
}

// The editor's heading, per field a reviewer may correct (templates/review/dialogue.html data-edit).
const CORRECT_TITLE = {
  utterance: gettext("Correct the utterance"),
  user_acts: gettext("Correct the user acts"),
  system_acts: gettext("Correct the system acts"),
  ambiguity: gettext("Correct the ambiguity"),
  query: gettext("Correct the query"),
  response: gettext("Correct the response"),
  intent: gettext("Correct the intent"),
  pragmatics: gettext("Correct the pragmatics"),
  question_style: gettext("Correct the question style"),
  contextual_phenomena: gettext("Correct the contextual phenomena"),
  schema_linking: gettext("Correct the schema linking"),
};

function openEditor(card, field) {
  card.querySelector(".editor")?.remove();
  const slot = card.querySelector(`[data-field="${field}"]`);
  const editor = document.getElementById("editor-template").content.firstElementChild.cloneNode(true);
  const body = editor.querySelector(".editor-body");
  const value = slot.querySelector(".value");
  let control;
  if (field === "user_acts" || field === "system_acts") {
    const chosen = (value.dataset.value || "").split(" ").filter(Boolean);
    control = actsPicker(field === "user_acts" ? config.user_acts : config.system_acts, chosen);
  } else if (field === "intent") {
    control = intentEditor(JSON.parse(value.dataset.value || "null"));
  } else if (field === "pragmatics" || field === "question_style") {
    control = choiceEditor(config[field], value.dataset.value || "");
  } else if (field === "contextual_phenomena") {
    control = actsPicker(config.phenomena, (value.dataset.value || "").split("|").filter(Boolean));
  } else if (field === "thematic_relations") {
    const names = Object.fromEntries(Object.entries(config.thematic_relations).map(([k, v]) => [k, v.split(":")[0]]));
    control = actsPicker(Object.keys(names), (value.dataset.value || "").split("|").filter(Boolean), names);
  } else if (field === "schema_linking") {
    control = linksEditor(JSON.parse(value.dataset.value || "[]"), JSON.parse(slot.dataset.tokens || "[]"));
  } else if (field === "ambiguity") {
    const acts = (card.querySelector('[data-field="user_acts"] .value').dataset.value || "").split(" ");
    control = ambiguityEditor(JSON.parse(value.dataset.value || "null"), JSON.parse(slot.dataset.tokens || "[]"), acts);
  } else if (field === "query") {
    control = sqlEditor(value.textContent.trim(), JSON.parse(card.dataset.shown || "null"));
  } else {
    control = textEditor(value.textContent.trim(), field === "response");
  }
  body.append(element("h3", "", CORRECT_TITLE[field] || field), control.node);
  const problems = editor.querySelector("[role=alert]");
  editor.querySelector(".cancel").addEventListener("click", () => editor.remove());
  editor.querySelector(".save").addEventListener("click", async (event) => {
    event.target.disabled = true;
    problems.textContent = "";
    const reason = editor.querySelector(".reason").value;
    const answer = await postJson(config.correct_url, {
      turn: Number(card.dataset.turn), field, value: control.value(), reason,
    });
    if (answer.ok) {
      window.location.reload();
      return;
    }
    problems.textContent = answer.data.message
      || interpolate(gettext("The correction was refused (%(status)s)."), { status: answer.status }, true);
    event.target.disabled = false;
  });
  slot.after(editor);
  control.focus?.();
}

codemirror.then(({ showSqlReadOnly }) => document.querySelectorAll("[data-sql-display]").forEach((block) => {
  showSqlReadOnly(block, { label: block.dataset.label || gettext("SQL") });
}));

document.querySelectorAll("article.turn").forEach((card) => {
  // The edit buttons come disabled and are enabled here, once they do something: a click before this module ran
  // would open nothing (a person on a slow connection, a browser test on a loaded machine).
  card.querySelectorAll("[data-edit]").forEach((button) => {
    button.addEventListener("click", () => openEditor(card, button.dataset.edit));
    button.disabled = false;
  });
  card.querySelector("[data-drop]")?.addEventListener("click", async (event) => {
    const answer = await postJson(config.correct_url, {
      turn: Number(card.dataset.turn), field: "drop", value: event.target.dataset.drop === "true", reason: "",
    });
    if (answer.ok) window.location.reload();
    else alert(answer.data.message || gettext("The change was refused."));
  });
});

// Keep the claim while the page is open; say so at once when it was lost (expired while the laptop slept, or an
// admin released it), so nobody goes on correcting a dialogue that another reviewer may now hold.
if (config.holding) {
  const renew = async () => {
    const answer = await postJson(config.renew_url, {});
    if (!answer.ok) {
      const banner = element("div", "messages lost-claim",
        answer.data.message || gettext("Your claim on this dialogue was lost."));
      banner.dataset.testid = "claim-lost";
      document.querySelector("main").prepend(banner);
      clearInterval(timer);
    }
  };
  const timer = setInterval(renew, config.renew_seconds * 1000);
}
