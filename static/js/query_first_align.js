// Phase 2 of query-first annotation (templates/dialogs/query_first_align.html): mark a span of the question's words
// (first word, then last: span_picker.js, as ambiguity spans are marked) and give it to one of the plan's operations.
// The tokens come from the server (one tokeniser for every utterance); the alignment is sent as JSON with the form.

import { drawSpanWords, spanAfterPress, spanSummary } from "./span_picker.js";
import { csrfToken } from "./sql_editor.js";
import { gettext, interpolate } from "./i18n.js";

const config = JSON.parse(document.getElementById("align-config").textContent);
const root = document.getElementById("query-first-align");
const tokensBox = document.getElementById("tokens");
const stepsBox = document.getElementById("steps");
const summary = document.getElementById("span-summary");
const hidden = document.getElementById("alignment");
const question = document.getElementById("question");
const rereadNote = document.getElementById("reread-note");

let tokens = config.tokens;
let tokensOf = config.question; // the question the words shown belong to
const alignedQuestion = document.getElementById("aligned-question");
let alignment = Array.isArray(config.alignment) ? config.alignment.filter((s) => s.end < tokens.length) : [];
let start;
let span = null;

function words(item) {
  return tokens.slice(item.beg, item.end + 1).join(" ");
}

function draw() {
  drawSpanWords(tokensBox, tokens, span, start, (index) => {
    ({ start, span } = spanAfterPress(start, index));
    draw();
  });
  summary.textContent = spanSummary(tokens, span, start);
  stepsBox.replaceChildren(...config.steps.map((step) => {
    const li = document.createElement("li");
    li.className = `plan-step plan-${step.kind}`;
    li.dataset.step = step.id;
    const give = document.createElement("button");
    give.type = "button";
    give.className = "plan-target";
    give.textContent = step.label;
    give.disabled = !span;
    give.setAttribute("aria-label", interpolate(gettext("Give the marked words to: %(step)s"), { step: step.label }, true));
    give.addEventListener("click", () => {
      if (!span) return;
      if (!alignment.some((s) => s.step === step.id && s.beg === span.beg && s.end === span.end)) {
        alignment.push({ step: step.id, beg: span.beg, end: span.end });
      }
      span = null;
      start = undefined;
      draw();
    });
    li.append(give);
    const mine = alignment.filter((s) => s.step === step.id);
    if (!mine.length && config.required.includes(step.id)) {
      const need = document.createElement("span");
      need.className = "muted small needs-words";
      need.textContent = gettext(" needs words");
      li.append(need);
    }
    for (const item of mine) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "token aligned";
      remove.textContent = `${words(item)} ×`;
      remove.setAttribute("aria-label",
        interpolate(gettext("Remove “%(words)s” from %(step)s"), { words: words(item), step: step.label }, true));
      remove.addEventListener("click", () => {
        alignment = alignment.filter((s) => s !== item);
        draw();
      });
      li.append(" ", remove);
    }
    return li;
  }));
  hidden.value = JSON.stringify(alignment);
  alignedQuestion.value = tokensOf;
}

document.getElementById("reread").addEventListener("click", async () => {
  const response = await fetch(root.dataset.tokensUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
    body: JSON.stringify({ question: question.value }),
  });
  const body = await response.json();
  if (!body.ok) {
    rereadNote.textContent = body.message;
    return;
  }
  const changed = body.tokens.join("\u0000") !== tokens.join("\u0000");
  tokens = body.tokens;
  tokensOf = question.value;
  if (changed) alignment = [];
  span = null;
  start = undefined;
  rereadNote.textContent = changed ? gettext("The words changed: give them to the operations again.")
    : gettext("The words are the same.");
  draw();
});

draw();

document.getElementById("align-form").addEventListener("submit", (event) => {
  if (question.value.trim() !== tokensOf.trim()) {
    event.preventDefault();
    rereadNote.textContent = gettext("You changed the question: press “Use the corrected question” and check its words "
      + "first.");
    document.getElementById("reread").focus();
  }
});
